#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The real binary in a real pseudo-terminal, through tmux (tests/lib/screen.sh):
# it draws one row per CPU, zoom changes the window by NS_VIEW_ZOOM_FACTOR,
# markers A and B give the delta of `trace-cmd report -t`, resizing redraws,
# LANG=C is ASCII, NO_COLOR has no colour, the mouse works, bad files are
# one line on stderr with the terminal untouched, and the terminal is
# restored after q, after SIGINT, SIGTERM and SIGHUP, and after a crash.
#
# Every wait polls the screen with a timeout; nothing sleeps to synchronise.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin screen tmux

# A shell line that runs nurseshark with ENV on FILE, then reports how it
# ended and the tty's modes, and stays (cat) so the screen can be read.
# The inner sh writes its pid and execs, so $tmp/pid is nurseshark's (and
# allows no core file: a test sends SIGSEGV); the outer one traps INT so
# that a ^C meant for nurseshark does not end it too.
run_line() {
	local env=$1 file=$2

	printf "sh -c 'trap : INT; sh -c \"ulimit -c 0; echo \\\$\\\$ >%s/pid; exec env %s %s %s\"; echo EXITED rc=\$?; stty -a; echo TTY-SHOWN; exec cat'" \
		"$tmp" "$env" "$bin" "$file"
}

start() {
	rm -f "$tmp/pid"
	screen_start "$1" "$2" "$(run_line "${3:-LC_ALL=${utf8:-C}}" "${4:-$sample}")"
}

window_width() {
	sed -n 's/.*Window: [0-9.]*-[0-9.]* (\([0-9.]*\) s).*/\1/p' <<<"$SCREEN_LAST" | head -n 1
}

# The tty is back in cooked mode with echo: stty -a prints icanon and echo
# as words of their own, without a leading '-'.
tty_restored() {
	screen_wait '^TTY-SHOWN' &&
	grep -Eq '(^| )icanon( |$)' <<<"$SCREEN_LAST" && grep -Eq '(^| )echo( |$)' <<<"$SCREEN_LAST"
}

# --- drawing, zoom, markers -------------------------------------------------------

start 80 24
if screen_wait_all '^CPU1 ' '^CPU0 ' '!^CPU2'; then
	pass "sample.dat (2 CPUs) shows the rows CPU0 and CPU1"
else
	fail "one row per CPU"
fi
if grep -q '#0 of 91631' <<<"$SCREEN_LAST" && grep -q '#  *CPU  *Time  *Task  *PID  *Lat  *Event  *Info' <<<"$SCREEN_LAST"; then
	pass "the list has its header and the status line its position"
else
	fail "list header and position"
fi

w0=$(window_width)
screen_type '+'
want=$(awk -v w="$w0" 'BEGIN { printf "%.7f", w / 2 }')
# the width is printed to 100 ns: the half may round either way
lo=$(awk -v w="$want" 'BEGIN { printf "%.7f", w - 1e-7 }')
hi=$(awk -v w="$want" 'BEGIN { printf "%.7f", w + 1e-7 }')
if screen_wait "\\((${want//./\\.}|${lo//./\\.}|${hi//./\\.}) s\\)"; then
	pass "+ halves the window: $w0 s -> $(window_width) s"
else
	fail "+ halves the window ($w0 s, want $want s)"
fi
w1=$(window_width)
screen_type '-'
if screen_wait "\\(${w0//./\\.} s\\)"; then
	pass "- doubles it back: $w1 s -> $w0 s"
else
	fail "- doubles the window back to $w0 s"
fi

if command -v trace-cmd >/dev/null; then
	# row 3, marker A; row 12, marker B
	screen_type 'jjja'
	screen_wait '(^| )A: [0-9]' || fail "marker A set"
	screen_type 'jjjjjjjjjb'
	ns=$(trace-cmd report -t -i "$sample" 2>/dev/null | awk 'NR == 5 || NR == 14 {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i } }')
	want=$(awk -v a="${ns%%$'\n'*}" -v b="${ns##*$'\n'}" 'BEGIN {
		gsub(/\./, "", a); gsub(/\./, "", b); u = int((b - a + 50) / 100)
		printf "%d.%07d", int(u / 10000000), u % 10000000 }')
	if screen_wait "B-A: ${want//./\\.}( |$)"; then
		pass "A on row 3, B on row 12: B-A $want s, as trace-cmd report -t"
	else
		fail "B-A of rows 3 and 12: want $want"
	fi
	# both in the first column at this zoom: the active one, B, is on top
	if sed -n 2p <<<"$SCREEN_LAST" | grep -q '^ *B[─┬]'; then
		pass "the active marker's letter is on the ruler"
	else
		fail "marker letters on the ruler"
	fi
else
	skip "markers against trace-cmd report: trace-cmd is not installed"
fi

screen_keys F1
if screen_wait_all 'nurseshark keys' 'Zoom in'; then
	pass "F1 shows the help overlay"
else
	fail "F1 shows the help"
fi
screen_keys Escape
if screen_wait_not 'nurseshark keys' && screen_wait '^CPU0 '; then
	pass "Esc closes the help"
else
	fail "Esc closes the help"
fi

# --- resize --------------------------------------------------------------------------

# all of it on one capture: the bar's row may be drawn before the status line
redrawn_130x30() {
	grep -q 'B-A: .*Window: ' <<<"$SCREEN_LAST" && [ "$(wc -l <<<"$SCREEN_LAST")" -eq 30 ] &&
		[ "$(tail -n 1 <<<"$SCREEN_LAST" | grep 'of 91631' | wc -L)" -ge 125 ]
}
screen_resize 130 30
if screen_wait_for redrawn_130x30; then
	pass "resized to 130x30: redrawn, the marker bar on one row, status at the new edge"
else
	fail "redraw at 130x30"
fi
screen_resize 30 8
if screen_wait_all '30x8, need [0-9]+x[0-9]+' '^ *Terminal too small: *$' '^ *\(q quits\) *$' '!^CPU0'; then
	pass "30x8 shows the too-small message whole, on three lines"
else
	fail "too-small message at 30x8"; screen_dump
fi
screen_resize 20 5
if screen_wait_all '^ *20x5, need [0-9]+x[0-9]+ *$' '^ *Terminal too small: *$' '^ *\(q quits\) *$'; then
	pass "20x5: the too-small message still whole"
else
	fail "too-small message at 20x5"; screen_dump
fi
screen_resize 80 24
if screen_wait_all '^CPU1 ' '!too small'; then
	pass "back to 80x24, the panes return"
else
	fail "panes after growing back"
fi

# --- the mouse (xterm X10 reports, as tmux passes them on) ------------------------

# press and release on screen cell (20, 10): list row 3
screen_bytes 1b 5b 4d 20 35 2b
screen_bytes 1b 5b 4d 23 35 2b
if screen_wait '#3 of 91631'; then
	pass "a mouse click selects a list row"
else
	fail "mouse click on list row 3"
fi
screen_type '0'
screen_wait "\\(${w0//./\\.} s\\)" || fail "0 zooms out"
# wheel up (button 64) over the graph at (40, 2)
screen_bytes 1b 5b 4d 60 49 23
if screen_wait "\\(${w1//./\\.} s\\)"; then
	pass "the mouse wheel zooms the graph"
else
	fail "wheel zoom to $w1 s"
fi

# --- quit restores the terminal -------------------------------------------------------

screen_type 'q'
if screen_wait 'EXITED rc=0' && tty_restored && ! grep -q '^CPU0' <<<"$SCREEN_LAST"; then
	pass "q: exit 0, the screen and the tty modes (icanon, echo) are restored"
else
	fail "q restores the terminal"
fi

# --- signals ----------------------------------------------------------------------------

# SEGV stands for a crash: the handler gives the terminal back, then dies of it
for sig in INT TERM HUP SEGV; do
	start 80 24
	if ! screen_wait '^CPU1 ' || [ ! -s "$tmp/pid" ]; then
		fail "SIG$sig: nurseshark did not start"
		continue
	fi
	case $sig in
	INT) screen_keys C-c; want=130 ;;
	TERM) kill -TERM "$(cat "$tmp/pid")"; want=143 ;;
	HUP) kill -HUP "$(cat "$tmp/pid")"; want=129 ;;
	SEGV) kill -SEGV "$(cat "$tmp/pid")"; want=139 ;;
	esac
	if screen_wait "EXITED rc=$want" && tty_restored; then
		pass "SIG$sig: the terminal is restored, then it dies of the signal (rc $want)"
	else
		fail "SIG$sig restores the terminal"
	fi
done

# --- LANG=C and NO_COLOR ------------------------------------------------------------------

start 80 24 "LANG=C LC_ALL=C"
screen_wait '^CPU1 ' || fail "LANG=C: nurseshark did not start"
screen_type 'jjjjja'
screen_keys Tab
screen_type 'Z'
if screen_wait '^CPU0  [|]' && ! grep -q '[█▄─│┬]' <<<"$SCREEN_LAST" &&
	grep -q '^CPU0  .*[#=-]' <<<"$SCREEN_LAST" && grep -q '+' <<<"$(sed -n 2p <<<"$SCREEN_LAST")" &&
	! LC_ALL=C grep -q '[^ -~]' <<<"$SCREEN_LAST"; then
	pass "LANG=C: only ASCII (# = - | +), no block or line characters"
else
	fail "LANG=C draws ASCII"
fi

start 80 24 "LC_ALL=${utf8:-C} NO_COLOR=1"
if screen_wait '^CPU1 '; then
	# capture-pane -e keeps the SGR sequences: no colour (30-37, 40-47, 38;5, 48;5) with NO_COLOR
	sgr=$(screen_tmux capture-pane -p -e -t main)
	if ! grep -Eq $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7]|38;5|48;5)[;m]' <<<"$sgr" &&
		grep -Eq $'\e\\[([0-9;]*;)?7[;m]' <<<"$sgr"; then
		pass "NO_COLOR: no colour at all, reverse video instead"
	else
		fail "NO_COLOR still colours"
	fi
else
	fail "NO_COLOR: nurseshark did not start"
fi
start 80 24
if screen_wait '^CPU1 ' && screen_tmux capture-pane -p -e -t main | grep -Eq $'\e\\[([0-9;]*;)?(3[0-7]|4[0-7])[;m]'; then
	pass "without NO_COLOR, an 8-colour terminal (TERM=screen) gets colours"
else
	fail "colours on an 8-colour terminal"
fi
start 80 24 "LC_ALL=${utf8:-C} TERM=screen-256color"
if screen_wait '^CPU1 ' && screen_tmux capture-pane -p -e -t main | grep -Eq $'\e\\[([0-9;]*;)?38;5;[0-9]+[;m]'; then
	pass "a 256-colour terminal (TERM=screen-256color) gets the 256-colour task palette"
else
	fail "256 colours"
fi

# --- bad files: one line on stderr, exit 1, the terminal untouched -------------------

head -c 4096 "$sample" >"$tmp/truncated.dat"
printf 'not a trace\n' >"$tmp/text.dat"
: >"$tmp/empty.dat"
mkdir "$tmp/dir.dat"
cp "$sample" "$tmp/unreadable.dat"
chmod 000 "$tmp/unreadable.dat"
bad="$tmp/missing.dat $tmp/truncated.dat $tmp/text.dat $tmp/empty.dat $tmp/dir.dat"
# root reads mode 000 files anyway
[ "$(id -u)" -ne 0 ] && bad="$bad $tmp/unreadable.dat"
for f in $bad; do
	name=$(basename "$f")
	"$bin" "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^nurseshark: $f: ." "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		pass "$name: exit 1, one line: $(cat "$tmp/err")"
	else
		fail "$name: rc=$rc, stdout $(wc -c <"$tmp/out") bytes, stderr: $(head -c 300 "$tmp/err")"
	fi
done

# In a terminal: the error line, and nothing drawn (no alternate screen left
# behind, the tty modes as they were).
start 80 24 "LC_ALL=C" "$tmp/truncated.dat"
if screen_wait 'EXITED rc=1' && grep -q "^nurseshark: $tmp/truncated.dat: " <<<"$SCREEN_LAST" &&
	tty_restored && [ "$(grep -c . <<<"$SCREEN_LAST")" -ge 3 ] &&
	[ "$(sed -n 1p <<<"$SCREEN_LAST")" = "nurseshark: $tmp/truncated.dat: $(sed -n 's/^nurseshark: [^:]*: //p' <<<"$SCREEN_LAST" | head -n 1)" ]; then
	pass "a bad file in a terminal: the error on the first line, the terminal untouched"
else
	fail "a bad file in a terminal"
fi
exit 0
