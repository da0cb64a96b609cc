#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sessions, filter files and config.ini through the real binary in a real
# pseudo-terminal (tmux, tests/lib/screen.sh): a session saved on exit comes
# back whole when the trace is opened again (the screen read back, and the
# file saved again unchanged); --no-session and U start fresh; a trace that
# changed or a session moved to another trace says so and keeps what holds;
# an unwritable state directory is a warning; filter files go from one
# trace to another, skipping what does not apply; config.ini's key bindings
# change what a key does and what the help shows; its problems are
# FILE:LINE in the status line and on stderr with --check-config; --snapshot
# and --export keep nothing; the trace is never written.
#
# Each test has its own XDG_CONFIG_HOME and XDG_STATE_HOME under a scratch
# directory; nothing of the real home is read or written. No sleeps: every
# wait polls the screen.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin session tmux
other=$top/tests/data/lost-events.dat

sum_before=$(cksum <"$sample")

# home NAME: a fresh XDG home for one test
home() {
	h=$tmp/$1
	mkdir -p "$h/config/nurseshark" "$h/state"
	XDG_CONFIG_HOME=$h/config XDG_STATE_HOME=$h/state
	export XDG_CONFIG_HOME XDG_STATE_HOME
}

# run_nurseshark ARGS...: in the pane, its stderr to $h/err; then how it ended
run_nurseshark() {
	local args="" a

	for a in "$@"; do
		args+=" '$a'"
	done
	rm -f "$h/err"
	screen_start 120 30 "env LC_ALL=${utf8:-C} XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
XDG_STATE_HOME='$XDG_STATE_HOME' $bin $args 2>'$h/err'; echo EXITED rc=\$?; exec cat"
}

# The screen without its last line (the status line, whose message differs).
body() {
	sed '$d' <<<"$1"
}

# The right end of the status line: "#8 of 91631" or "cursor: CPU0 ..."
position() {
	tail -n 1 <<<"$1" | sed 's/.*   //'
}

quit() {
	screen_type q
	screen_wait '^EXITED rc=' || return 1
	grep -q '^EXITED rc=0' <<<"$SCREEN_LAST"
}

if ! screen_have_tmux; then
	skip "tmux is not installed (make deps installs it)"
	exit 0
fi

# --- a session saved on exit comes back whole ------------------------------------

home roundtrip
run_nurseshark "$sample"
if ! screen_wait '^CPU1 '; then
	fail "the viewer did not start"
	exit 0
fi
# markers A and B (B active, then A), zoom, follow off, a filter on the list
# only, a task row, a search, the list scrolled sideways, the graph one row
# shorter, the focus and the cursor in the graph
screen_type 'jjjjja++jjjbmf'
screen_type 'wER'
screen_type '/task=date'
screen_keys Enter
screen_keys Right Right
screen_keys C-w
screen_type '-'
screen_type ':cpurows 1'
screen_keys Enter
screen_keys Tab
screen_type 'll'
screen_wait '^\[graph\]' && screen_wait 'Filters: hide event' && screen_wait_not '^CPU0 ' ||
	fail "the keys did not do their work"
before=$SCREEN_LAST
if quit; then
	pass "q saves and exits with status 0"
else
	fail "q: exit status"
fi
saved=$(ls "$XDG_STATE_HOME/nurseshark/"*.ini 2>/dev/null)
if [ "$(printf '%s\n' "$saved" | grep -c .)" = 1 ] &&
	[[ $(basename "$saved") == *contrib_sample.dat-*.ini ]]; then
	pass "the session is kept in \$XDG_STATE_HOME/nurseshark, named after the trace ($(basename "$saved"))"
else
	fail "one session file named after the trace in $XDG_STATE_HOME/nurseshark: '$saved'"
fi
cp "$saved" "$tmp/first.ini" 2>/dev/null
missing=
for want in '^path = /.*/contrib/sample.dat$' '^size = [0-9]' '^mtime = [0-9]+\.[0-9]{9}' \
	'^window = [0-9.]+ [0-9.]+$' '^selected = 20 ' '^list-top = ' '^graph-follows = no' \
	'^a = 5 ' '^b = 8 ' '^active = a' '^focus = graph' '^graph-rows = [0-9]' \
	'^info-scroll = 16' '^cursor = [0-9]+ [0-9]+' \
	'^event = hide list sched/sched_stat_runtime' '^task-row = [0-9]+$' '^hidden-cpu = 0$' \
	'^text = date' \
	'^column = task'; do
	grep -Eq -- "$want" "$tmp/first.ini" 2>/dev/null || missing+=" '$want'"
done
if [ -z "$missing" ]; then
	pass "the file holds every part: trace, window, selection, markers, active, follow, panes, scroll, cursor, filter and where, task row, hidden CPU, search"
else
	fail "the session file lacks:$missing"
	sed 's/^/    | /' "$tmp/first.ini" 2>/dev/null
fi

run_nurseshark "$sample"
if screen_wait 'Session restored \(U: start fresh\)'; then
	pass "opening the trace again restores its session, and the status line says so"
else
	fail "no 'Session restored' in the status line"
fi
after=$SCREEN_LAST
if [ "$(body "$before")" = "$(body "$after")" ] &&
	[ "$(position "$before")" = "$(position "$after")" ]; then
	pass "the screen read back is the one left: graph, rows, hidden CPU, markers, filters, list, scroll, cursor"
else
	fail "the restored screen differs from the one left"
	diff <(body "$before") <(body "$after") | head -n 20 | sed 's/^/    /'
	echo "    status before: $(tail -n 1 <<<"$before")"
	echo "    status after:  $(tail -n 1 <<<"$after")"
fi
# saved again with no change: the same file, byte for byte
if quit && cmp -s "$tmp/first.ini" "$saved"; then
	pass "quitting again saves the very same file: every field came back exactly"
else
	fail "the session saved after a restore differs from the first:"
	diff "$tmp/first.ini" "$saved" | head -n 20 | sed 's/^/    /'
fi

# the search came back too: n repeats it, from the selection
run_nurseshark "$sample"
screen_wait 'Session restored'
screen_keys Tab
screen_type 'n'
if screen_wait ' date +15975 ' && screen_wait '#(2[1-9]|[3-9][0-9]|[0-9]{3,}) of 91631'; then
	pass "n repeats the restored search (task=date)"
else
	fail "n after a restore does not find the next date event"
fi
screen_type 'U'
if screen_wait 'Started fresh' && screen_wait 'Window: 10171.572790-10174.606952' &&
	screen_wait_all 'A: - ' '!Filters:'; then
	pass "U starts fresh: whole trace, no markers, no filters"
else
	fail "U does not start fresh"
fi
quit >/dev/null

# --no-session: neither restored nor saved
cp "$saved" "$tmp/kept.ini"
run_nurseshark --no-session "$sample"
screen_wait '^CPU1 '
screen_type 'jjjjjjjjjja'
screen_wait 'A: 10171'
if ! grep -q 'Session restored' <<<"$SCREEN_LAST" && quit && cmp -s "$tmp/kept.ini" "$saved"; then
	pass "--no-session neither restores nor saves"
else
	fail "--no-session restored or saved a session"
fi

# --- :save-session, -s, a trace moved or changed ---------------------------------

home named
cp "$sample" "$tmp/copy.dat"
run_nurseshark "$sample"
screen_wait '^CPU1 '
screen_type 'jjjjjajjjb:save-session '"$tmp/named.ini"
screen_keys Enter
if screen_wait "Session saved to $tmp/named.ini" && grep -q '^a = 5 ' "$tmp/named.ini"; then
	pass ":save-session FILE writes the session there"
else
	fail ":save-session FILE"
fi
quit >/dev/null
run_nurseshark --no-session "$sample"
screen_wait '^CPU1 '
screen_type ':load-session '"$tmp/named.ini"
screen_keys Enter
if screen_wait "Session loaded from $tmp/named.ini" &&
	grep -q 'A: 10171.572864  B: 10171.572881' <<<"$SCREEN_LAST"; then
	pass ":load-session FILE brings its markers back"
else
	fail ":load-session FILE"
fi
quit >/dev/null
run_nurseshark -s "$tmp/named.ini" "$tmp/copy.dat"
# the status line is cut at the terminal's width (the paths are as long as the
# clone's, which CI's are): the whole message is read in :messages, where a
# line that does not fit goes on on the next, cut in a word or at a blank:
# the screen is read without its line ends and blanks
if screen_wait_all 'Session restored' 'named.ini: saved for' 'A: 10171\.572864  B: 10171\.572881' &&
	screen_type ':messages' && screen_keys Enter &&
	screen_wait 'named.ini: saved for' &&
	tr -d '\n ' <<<"$SCREEN_LAST" |
	grep -q 'named.ini:savedfor/.*/sample\.dat;appliedto/.*/copy\.datasfarasitholds'; then
	pass "-s FILE on another path: says where it was saved for, and restores what holds"
else
	fail "-s FILE on a moved trace"
fi
screen_keys Escape
screen_wait_not '^Messages'
quit >/dev/null
run_nurseshark -s "$tmp/named.ini"
if screen_wait_all 'Session restored' '!saved for'; then
	pass "-s FILE alone opens the trace the session names"
else
	fail "-s FILE alone"
fi
quit >/dev/null

# the same path, another trace: the markers do not hold any more
home changed
run_nurseshark "$tmp/copy.dat"
screen_wait '^CPU1 '
screen_type 'jjjjja'
screen_wait 'A: 10171'
quit >/dev/null
cp "$other" "$tmp/copy.dat"
run_nurseshark "$tmp/copy.dat"
# the message is longer than 80 columns: its whole text is in :messages
if screen_wait_all 'Session restored' '^A: - ' &&
	screen_type ':messages' && screen_keys Enter &&
	screen_wait 'ini: the trace changed since'; then
	pass "a trace recorded again at the same path: said, and its markers are not restored"
else
	fail "a changed trace"
fi
screen_keys Escape
screen_wait_not '^Messages'
quit >/dev/null
cp "$sample" "$tmp/copy.dat"

# --- a state directory that cannot be used ------------------------------------------

home nostate
: >"$h/not-a-dir"
XDG_STATE_HOME=$h/not-a-dir
run_nurseshark "$sample"
if screen_wait 'sessions are not kept: .*not-a-dir/nurseshark: Not a directory' &&
	screen_wait '^CPU1 '; then
	pass "an unusable state directory: the viewer works, the status line warns"
else
	fail "XDG_STATE_HOME on a file"
fi
if quit && grep -q 'warning: sessions are not kept' "$h/err"; then
	pass "... and exits with status 0 and a warning on stderr"
else
	fail "XDG_STATE_HOME on a file: exit status or warning ($(cat "$h/err"))"
fi

# --- filter files -------------------------------------------------------------------------

home filters
run_nurseshark "$sample"
screen_wait '^CPU1 '
screen_type 'TE:save-filters '"$tmp/f.ini"
screen_keys Enter
screen_wait '2 filters saved to'
quit >/dev/null
if grep -q '^task = hide both 15974$' "$tmp/f.ini" &&
	grep -q '^event = hide both sched/sched_migrate_task$' "$tmp/f.ini"; then
	pass ":save-filters FILE writes the filters"
else
	fail ":save-filters: $(cat "$tmp/f.ini" 2>&1)"
fi
run_nurseshark --filters "$tmp/f.ini" "$other"
if screen_wait "f.ini: filter 'task = hide both ...' skipped: no task with pid 15974" &&
	screen_wait 'Filters: hide event sched/sched_migrate_task'; then
	pass "--filters FILE on another trace: the task it lacks is reported and skipped, the rest applies"
else
	fail "--filters FILE on another trace"
fi
screen_type 'u:load-filters '"$tmp/f.ini"
screen_keys Enter
if screen_wait '1 filter loaded from .*f.ini, some skipped' &&
	screen_wait 'Filters: hide event sched/sched_migrate_task'; then
	pass ":load-filters FILE brings them back"
else
	fail ":load-filters FILE"
fi
quit >/dev/null

# --- config.ini -----------------------------------------------------------------------------

home config
printf '[keys]\nzoom-in = z\nquit = Q\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"
run_nurseshark "$sample"
screen_wait '^CPU1 '
w0=$(sed -n 's/.*Window: [0-9.]*-[0-9.]* (\([0-9.]*\) s).*/\1/p' <<<"$SCREEN_LAST")
screen_type 'z'
screen_wait 'Window: .* \(1\.51' || true
w1=$(sed -n 's/.*Window: [0-9.]*-[0-9.]* (\([0-9.]*\) s).*/\1/p' <<<"$SCREEN_LAST")
if [ "$w0" = 3.0341612 ] && [ "$w1" = 1.5170806 ]; then
	pass "config.ini zoom-in = z: z zooms in ($w0 s -> $w1 s)"
else
	fail "zoom-in = z: the window went from '$w0' to '$w1'"
fi
screen_type 'q'
screen_keys F1
if screen_wait_all '^  z +Zoom in by 2' '^  Q  *Quit'; then
	pass "q no longer quits, and the help shows z for zoom-in and Q for quit"
else
	fail "the help does not show the new bindings"
fi
screen_keys Escape
screen_wait_not 'nurseshark keys'
screen_type 'Q'
if screen_wait '^EXITED rc=0'; then
	pass "Q quits"
else
	fail "Q does not quit"
fi

# the picker's own keys: [keys.picker] rebinds them, and its bottom line follows
home picker
printf '[keys.picker]\npicker-close = <C-g>\npicker-hide = <C-k>\n' \
	>"$XDG_CONFIG_HOME/nurseshark/config.ini"
run_nurseshark "$sample"
screen_wait '^CPU1 '
screen_type 'p'
if screen_wait 'Tasks: [0-9]+ of' && screen_wait 'Enter:row  \^O:only  \^K:hide  \^T:sort  Tab:where  \^G:close'
then
	pass "[keys.picker] picker-close = <C-g>, picker-hide = <C-k>: the picker's line says ^G:close, ^K:hide"
else
	fail "the picker's line after [keys.picker]: $(grep -o 'Enter:.*close' <<<"$SCREEN_LAST")"
fi
# Esc no longer closes it (the x typed after it narrows the still open picker)
screen_keys Escape
screen_type 'x'
if screen_wait_all 'type to narrow: x_' 'Tasks: '; then
	pass "Esc no longer closes the picker"
else
	fail "Esc with picker-close = <C-g>: $(sed -n 2p <<<"$SCREEN_LAST")"
fi
screen_keys C-g
if screen_wait_not 'Tasks: [0-9]+ of' && screen_wait '^CPU1 '; then
	pass "C-g closes the picker"
else
	fail "C-g does not close the picker"
fi
quit >/dev/null

# an overlay's action in a pane's section, or no such action: FILE:LINE
printf '[keys.picker]\npicker-close = <C-g>\nno-such-action = x\nzoom-in = i\n[keys]\npicker-hide = h\n' \
	>"$tmp/picker.ini"
"$bin" --config "$tmp/picker.ini" --check-config >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 3 ] &&
	grep -q "picker.ini:3: unknown action 'no-such-action' in \[keys.picker\]" "$tmp/err" &&
	grep -q "picker.ini:4: unknown action 'zoom-in' in \[keys.picker\]" "$tmp/err" &&
	grep -q "picker.ini:6: unknown action 'picker-hide' in \[keys\]" "$tmp/err"; then
	pass "--check-config: an unknown picker action, a pane's action in [keys.picker] and a picker's in [keys], each at FILE:LINE"
else
	fail "--check-config of [keys.picker]: rc=$rc $(tr '\n' '|' <"$tmp/err")"
fi

# colours by role: the terminal gets the pair the file asks for
home colours
printf '[colours]\nmarker-a = red on blue bold\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"
run_nurseshark "$sample"
screen_wait '^CPU1 '
screen_type 'jja'
screen_wait 'A: 10171'
esc=$(printf '\033')
if screen_tmux capture-pane -e -p -t "$SCREEN_TARGET" |
	grep -q "${esc}\[1m${esc}\[31m${esc}\[44mA${esc}"; then
	pass "config.ini marker-a = red on blue bold: marker A's letter is drawn so (SGR 1;31;44)"
else
	fail "marker A's letter is not red on blue: $(screen_tmux capture-pane -e -p -t "$SCREEN_TARGET" |
		grep -a "A${esc}" | head -n 1 | cat -v | cut -c1-60)"
fi
quit >/dev/null

home config2
printf '[display]\nbogus = 1\ntime-format = nsec\nglyphs = ascii\ngraph-rows = 1\n' \
	>"$XDG_CONFIG_HOME/nurseshark/config.ini"
run_nurseshark "$sample"
if screen_wait "config.ini:2: unknown name 'bogus' in \[display\]" &&
	screen_wait '^ +0 +0 10171.572790350 ' && screen_wait '^ +1 +0 10171.572836889 '; then
	pass "a problem of config.ini is FILE:LINE in the status line; the rest applies (nsec times, as report -t)"
else
	fail "config.ini problem in the status line"
fi
if grep -q '^CPU0 .*|###' <<<"$SCREEN_LAST" && ! grep -q '^CPU1 ' <<<"$SCREEN_LAST"; then
	pass "glyphs = ascii draws # in a UTF-8 locale; graph-rows = 1 gives the graph one CPU row"
else
	fail "glyphs = ascii, graph-rows = 1"
fi
quit >/dev/null

# --check-config: every message FILE:LINE on stderr, status 1; none, status 0
"$bin" --config "$top/tests/data/ini/config-values.ini" --check-config \
	>"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
want=$(grep -c '^;next: ' "$top/tests/data/ini/config-values.ini")
have=$(grep -c '^nurseshark: .*/config-values.ini:[0-9][0-9]*: ' "$tmp/err")
if [ $rc = 1 ] && [ "$have" = "$want" ] && [ "$(wc -l <"$tmp/err")" = "$want" ]; then
	pass "--check-config: the $want problems as FILE:LINE: message on stderr, exit status 1"
else
	fail "--check-config: rc=$rc, $have of $want messages: $(head -n 3 "$tmp/err")"
fi
"$bin" --print-config >"$tmp/full.ini"
"$bin" --config "$tmp/full.ini" --check-config >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && grep -q 'no problems' "$tmp/out"; then
	pass "--check-config on --print-config's file: no problems, exit status 0"
else
	fail "--check-config on a good file: rc=$rc $(head -n 2 "$tmp/err")"
fi
"$bin" -s "$top/tests/data/ini/session-values.ini" --filters "$top/tests/data/ini/filters-bad.ini" \
	--check-config >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc = 1 ] && grep -q 'session-values.ini:[0-9]*: ' "$tmp/err" &&
	grep -q 'filters-bad.ini:[0-9]*: ' "$tmp/err"; then
	pass "--check-config also checks the files of -s and --filters"
else
	fail "--check-config with -s and --filters: rc=$rc"
fi

# --- --snapshot and --export keep nothing; the trace is never written ----------------------

home quiet
LC_ALL=C "$bin" --snapshot 80x24 --keys 'jja' "$sample" >/dev/null 2>&1 </dev/null
"$bin" --export "$sample" >/dev/null 2>&1 </dev/null
if [ -z "$(ls -A "$XDG_STATE_HOME")" ]; then
	pass "--snapshot and --export save no session"
else
	fail "--snapshot or --export wrote $(ls -A "$XDG_STATE_HOME")"
fi
if [ "$(cksum <"$sample")" = "$sum_before" ]; then
	pass "the trace file is never written"
else
	fail "the trace file changed"
fi
exit 0
