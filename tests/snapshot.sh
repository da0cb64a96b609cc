#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --snapshot: the screen printed as text after a key script, no terminal.
# The keys go through the same dispatcher and drawing code as typed keys,
# so these checks are about the viewer, cross-checked against `trace-cmd
# report` (-t gives nanosecond timestamps) where a number is shown: the
# size is respected, one zoom step halves the window, markers A and B sit
# on the selected events and their delta is the report's, the help shows
# every entry of the key table, mouse events and resizes replay.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin snapshot

# snap SIZE KEYS [FILE]: the screen, in the UTF-8 locale when there is one
snap() {
	LC_ALL=${SNAP_LOCALE:-${utf8:-C}} timeout 60 "$bin" --snapshot "$1" --keys "$2" \
		"${3:-$sample}" </dev/null 2>"$tmp/err"
}

# The window's width in seconds from the marker bar.
window_width() {
	sed -n 's/.*Window: [0-9.]*-[0-9.]* (\([0-9.]*\) s).*/\1/p'
}

# field NAME: "A", "B", "B-A" value from the marker bar
bar_field() {
	sed -n "s/^\(.* \)\{0,1\}$1: \([-0-9.]*\).*/\2/p" | head -n 1
}

report_ns=$tmp/report-ns
report_us=$tmp/report-us
if command -v trace-cmd >/dev/null; then
	trace-cmd report -t -i "$sample" >"$report_ns" 2>/dev/null
	trace-cmd report -i "$sample" >"$report_us" 2>/dev/null
fi

# report_ts FILE ROW: the timestamp of a row (row 0 is the line after cpus=)
report_ts() {
	awk -v n="$(($2 + 2))" 'NR == n {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); print $i; exit }
	}' "$1"
}

# --- the size ---------------------------------------------------------------

for size in 80x24 40x10 132x43 200x60; do
	cols=${size%x*} rows=${size#*x}
	out=$(snap "$size" "")
	rc=$?
	n=$(printf '%s\n' "$out" | wc -l)
	w=$(printf '%s\n' "$out" | LC_ALL=${utf8:-C} wc -L)
	if [ $rc -eq 0 ] && [ "$n" -eq "$rows" ] && [ "$w" -le "$cols" ] && [ "$w" -ge $((cols - 5)) ] &&
		grep -q '^CPU0 ' <<<"$out"; then
		pass "$size: $rows lines, at most $cols columns, CPU rows drawn"
	else
		fail "$size: rc=$rc, $n lines (want $rows), widest $w (want <= $cols): $(head -c 200 "$tmp/err")"
	fi
done

out=$(snap 39x10 "")
if grep -q '^ *Terminal too small: *$' <<<"$out" && grep -q '^ *39x10, need 40x10 *$' <<<"$out" &&
	! grep -q 'CPU0' <<<"$out"; then
	pass "39x10 shows the too-small message instead of the panes"
else
	fail "39x10 shows the too-small message: $out"
fi
# down to 20x5 it is whole, never a cut sentence; the full line where it fits
for size in 20x5 24x6 30x8 39x3; do
	out=$(snap "$size" "")
	if grep -q '^ *Terminal too small: *$' <<<"$out" && grep -q "^ *$size, need 40x10 *\$" <<<"$out" &&
		grep -q '^ *(q quits) *$' <<<"$out" && [ "$(wc -L <<<"$out")" -le "${size%x*}" ]; then
		pass "$size: the too-small message whole, in three lines"
	else
		fail "$size: the too-small message: $out"
	fi
done
out=$(snap 60x8 "")
if grep -q '^ *Terminal too small: 60x8, need 40x10 (q quits) *$' <<<"$out"; then
	pass "60x8: the too-small message on one line"
else
	fail "60x8: $out"
fi

out=$(snap 80x24 "<Resize:120x30>")
n=$(printf '%s\n' "$out" | wc -l)
if [ "$n" -eq 30 ] && grep -q 'B-A: .*Window: ' <<<"$out"; then
	pass "<Resize:120x30> redraws at 120x30 (the marker bar fits on one row)"
else
	fail "<Resize:120x30>: $n lines, bar: $(grep 'B-A' <<<"$out")"
fi
out=$(snap 80x24 "<Resize:30x8><Resize:80x24>")
if grep -q '^CPU1 ' <<<"$out" && ! grep -q 'too small' <<<"$out"; then
	pass "back from a too-small size, the panes return"
else
	fail "back from a too-small size: $out"
fi

# --- zoom goes through the same dispatch ------------------------------------

w0=$(snap 80x24 "" | window_width)
w1=$(snap 80x24 "+" | window_width)
w2=$(snap 80x24 "==" | window_width)
w3=$(snap 80x24 "++-" | window_width)
wz=$(snap 80x24 "Z" | window_width)
wf=$(snap 80x24 "+++0" | window_width)
# widths are printed to 100 ns: allow one unit of rounding per halving
if awk -v a="$w0" -v b="$w1" -v c="$w2" -v d="$w3" 'function near(x, y) {
	return x - y < 2e-7 && y - x < 2e-7 }
	BEGIN { exit !(a > 0 && near(a / 2, b) && near(a / 4, c) && near(b, d)) }'; then
	pass "+ and = halve the window, - doubles it ($w0 -> $w1 -> $w2; ++- $w3)"
else
	fail "zoom factor 2: full $w0, + $w1, == $w2, ++- $w3"
fi
if [ "$wf" = "$w0" ]; then
	pass "0 zooms back out to the whole trace"
else
	fail "0 zooms out to the whole trace: $wf, want $w0"
fi
# all the way in: NS_VIEW_MIN_NS_PER_COL (1 ns) per column of 74 columns, printed to the ns
if [ "$wz" = "0.000000074" ]; then
	pass "Z zooms all the way in (1 ns per column: $wz s)"
else
	fail "Z zooms all the way in: window $wz s"
fi
out=$(snap 80x24 "Z")
if [ -n "$utf8" ]; then
	if grep -q '^CPU0 .*▄' <<<"$out"; then
		pass "a task running without events is a half block (U+2584)"
	else
		fail "half blocks at 1 ns per column: $(grep '^CPU0' <<<"$out")"
	fi
	out=$(snap 200x12 "++++++")
	if grep -q '^CPU0 .*─' <<<"$out" && grep -q '^CPU0 .*█' <<<"$out"; then
		pass "idle is a line (U+2500), events a full block (U+2588)"
	else
		fail "idle and event glyphs: $(grep '^CPU' <<<"$out")"
	fi
else
	skip "glyph checks: no UTF-8 locale installed"
fi

# --- markers ---------------------------------------------------------------

if [ -s "$report_ns" ]; then
	# select row 5, set A, ten rows down set B; then the same the other way
	out=$(snap 80x24 "jjjjjajjjjjjjjjjb")
	a=$(bar_field A <<<"$out") b=$(bar_field B <<<"$out") d=$(bar_field B-A <<<"$out")
	ra=$(report_ts "$report_us" 5) rb=$(report_ts "$report_us" 15)
	want=$(awk -v a="$(report_ts "$report_ns" 5)" -v b="$(report_ts "$report_ns" 15)" 'BEGIN {
		gsub(/\./, "", a); gsub(/\./, "", b); d = b - a; s = d < 0 ? "-" : ""
		if (d < 0) d = -d; u = int((d + 50) / 100)
		printf "%s%d.%07d", s, int(u / 10000000), u % 10000000 }')
	if [ "$a" = "$ra" ] && [ "$b" = "$rb" ] && [ "$d" = "$want" ]; then
		pass "A on row 5 ($a), B on row 15 ($b), B-A $d as trace-cmd report -t"
	else
		fail "markers: A '$a' want '$ra', B '$b' want '$rb', B-A '$d' want '$want'"
	fi
	out=$(snap 80x24 "Gb<PageUp><PageUp>a")
	d=$(bar_field B-A <<<"$out")
	if [[ $d != -* ]] && [ -n "$d" ] && grep -q '^A[0-9 ]' <<<"$(snap 80x24 "Gb<PageUp><PageUp>a" |
		sed -n '/#  *CPU/,$p' | cut -c1-3)"; then
		pass "B at the end, A two pages up: delta $d, A's letter in the list's gutter"
	else
		fail "B at the end, A two pages up: delta '$d'"
	fi
	out=$(snap 80x24 "jjjjjajjjbA")
	if grep -q '#5 of 91631' <<<"$out"; then
		pass "A jumps back to marker A's event"
	else
		fail "A jumps back to marker A: $(tail -n 1 <<<"$out")"
	fi
	out=$(snap 80x24 "jjjjja'b")
	if grep -q 'Marker B is not set' <<<"$out"; then
		pass "'b with B unset says so in the status line"
	else
		fail "'b with B unset: $(tail -n 1 <<<"$out")"
	fi
else
	skip "markers against trace-cmd report: trace-cmd is not installed"
fi

out=$(snap 80x24 "f")
if grep -q 'follow:off' <<<"$out" && grep -q 'follow:on' <<<"$(snap 80x24 "ff")"; then
	pass "f toggles graph follows"
else
	fail "f toggles graph follows: $(grep follow <<<"$out")"
fi

# --- the list ----------------------------------------------------------------

out=$(snap 80x24 "")
row0=$(sed -n '/#  *CPU  *Time/{n;p;q}' <<<"$out")
if [ -s "$report_us" ] &&
	[ "$(awk '{print $3, $4, $5, $7}' <<<"$row0")" = \
	  "$(awk 'NR == 2 { sub(/:$/, "", $3); sub(/:$/, "", $4); print $3, "work2.sh", "15974", $4 }' "$report_us" |
	     sed 's/^\([^ ]*\) \([^ ]*\) \([^ ]*\) \(.\{14\}\).*/\1 \2 \3 \4/')" ]; then
	pass "list row 0 has the report's time, task, pid and event"
else
	fail "list row 0: '$row0'"
fi
out=$(snap 160x24 "<Right>")
info=$(sed -n '/#  *CPU  *Time/{n;p;q}' <<<"$out" | sed 's/.*sched_waking *//')
if grep -q 'Info (+8)' <<<"$out" && [ "$info" = "ration/0 pid=18 prio=0 target_cpu=000" ]; then
	pass "<Right> scrolls Info sideways by 8 columns"
else
	fail "<Right> scrolls Info: '$info'"
fi
out=$(snap 80x24 "G")
if grep -q '#91630 of 91631' <<<"$out" && grep -q '^ *91630 ' <<<"$out"; then
	pass "G selects and shows the last event"
else
	fail "G: $(tail -n 1 <<<"$out")"
fi

# stack traces: one row, the newlines shown as a separator
stacks=$NS_SHARED/traces/public/lanhaocoder__LanGraph__trace.dat
if [ -r "$stacks" ] && [ -n "$utf8" ]; then
	out=$(snap 150x16 "" "$stacks")
	ascii=$(SNAP_LOCALE=C snap 150x16 "" "$stacks")
	if grep -q '^ *1 .* kernel_stack  *<stack trace > ⏎ => try_to_wake_up (ffffffffa8902e5f) ⏎ => ' <<<"$out" &&
		grep -q '^ *1 .* kernel_stack  *<stack trace > \\n => try_to_wake_up' <<<"$ascii"; then
		pass "a stack trace is one row, newlines shown as ⏎ (ASCII: \\n)"
	else
		fail "stack trace row: $(grep kernel_stack <<<"$out" | head -n 1)"
	fi
else
	skip "stack traces: $stacks or a UTF-8 locale is absent"
fi

# lost events: the report's "CPU:1 [105 EVENTS DROPPED]" line is a note on the next event
out=$(snap 120x12 "$(printf 'j%.0s' $(seq 1144))" "$top/tests/data/lost-events.dat")
if grep -q '^ *1144   1 6417.574057 date  *11965 ..... sys_enter_close  *\[105 EVENTS DROPPED\] fd: 0x00000003' <<<"$out"; then
	pass "lost events are noted in Info of the event after them"
else
	fail "lost events note: $(grep 1144 <<<"$out")"
fi

# --- mouse and focus ----------------------------------------------------------

out=$(snap 80x24 "<Click:20,10>")
if grep -q '#3 of 91631' <<<"$out"; then
	pass "a click on a list row selects it"
else
	fail "click on list row 3: $(tail -n 1 <<<"$out")"
fi
w=$(snap 80x24 "<Press:10,2><Release:48,2>" | window_width)
if awk -v a="$w0" -v b="$w" 'BEGIN { exit !(b > 0 && b < a * 0.6 && b > a * 0.4) }'; then
	pass "a drag over half the graph zooms to about half ($w0 -> $w s)"
else
	fail "drag zoom: $w0 -> $w"
fi
w=$(snap 80x24 "<WheelUp:40,2>" | window_width)
if [ "$w" = "$w1" ]; then
	pass "the wheel over the graph zooms like +"
else
	fail "wheel zoom: $w, want $w1"
fi
out=$(snap 80x24 "<Tab>lll<Enter>")
if grep -q '^\[graph\]' <<<"$out" && grep -q 'cursor: CPU0 ' <<<"$out" &&
	! grep -q '#0 of 91631' <<<"$out"; then
	pass "in the graph, l moves the cursor and Enter selects the nearest event"
else
	fail "graph cursor and Enter: $(tail -n 1 <<<"$out")"
fi
out=$(snap 80x24 "<Tab>j")
if grep -q 'cursor: CPU1 ' <<<"$out"; then
	pass "in the graph, j moves the cursor to the next CPU"
else
	fail "graph cursor down: $(tail -n 1 <<<"$out")"
fi

# --- help: every entry of the one key table ----------------------------------

out=$(snap 200x300 "<F1>")
missing=$("$bin" --keys-table | awk '/^\.TP/ { getline; getline; print }' | sed 's/\.$//' |
	while IFS= read -r h; do grep -qF -- "${h:0:60}" <<<"$out" || echo "$h"; done)
if [ -z "$missing" ] && grep -q 'nurseshark keys' <<<"$out"; then
	pass "the help overlay shows every action of --keys-table"
else
	fail "help overlay lacks: $(head -n 3 <<<"$missing" | tr '\n' '|')"
fi
# ... and every command of --commands-table, the table prompt.c runs
names=$("$bin" --commands-table | awk '/^\.TP/ { getline; print }' |
	sed -e 's/^\\fB\([^\\]*\(\\-[^\\]*\)*\)\\fP.*/\1/' -e 's/\\-/-/g')
missing=$(for n in $names; do grep -qE -- "^  $n([| ]|$)" <<<"$out" || echo "$n"; done)
if [ "$(wc -w <<<"$names")" -ge 20 ] && [ -z "$missing" ] &&
	grep -q '^Commands (: then Enter' <<<"$out"; then
	pass "the help overlay lists every command of --commands-table ($(wc -w <<<"$names"))"
else
	fail "help overlay lacks commands: $(tr '\n' ' ' <<<"$missing") (of: $(tr '\n' ' ' <<<"$names"))"
fi
out=$(snap 80x24 ":save-s<Tab>")
out2=$(snap 80x24 ":lo<Tab>")
if grep -q '^:save-session  ' <<<"$out" && grep -q '^:load- .*load-session load-filters' <<<"$out2"
then
	pass "Tab completes a command name (save-s: save-session; lo: load-, and the choices)"
else
	fail "Tab completion: '$(tail -n 1 <<<"$out")' '$(tail -n 1 <<<"$out2")'"
fi
# the line is edited as in a shell: Home, End, Left, Right, Ctrl-Left and
# Ctrl-Right by a word, Delete, Ctrl-W
out=$(snap 80x24 ":tas gzip<C-Left><C-Left><C-Right>k<End><Left><Del>p<Home><Right>X<BS>")
out2=$(snap 80x24 ":goto 1 task rm<C-Left><C-Left><C-w>x")
if tail -n 1 <<<"$out" | grep -q '^:task gzip  ' && tail -n 1 <<<"$out2" | grep -q '^:goto xtask rm  '; then
	pass "the command line's editing keys (C-Left and C-Right by a word, Home, End, Del, C-w)"
else
	fail "command line editing: '$(tail -n 1 <<<"$out")' '$(tail -n 1 <<<"$out2")'"
fi
out=$(snap 80x24 ":cpurows 0<Enter>")
out2=$(snap 80x24 ":tasks<Enter>")
if grep -q '^CPU0 ' <<<"$out" && ! grep -q '^CPU1 ' <<<"$out" &&
	grep -q 'Tasks: [0-9]* of [0-9]*' <<<"$out2"; then
	pass ":cpurows 0 and :tasks run from the command table"
else
	fail ":cpurows 0, :tasks: $(sed -n 2,3p <<<"$out" | tr '\n' '|')"
fi
out=$(snap 80x24 "<F1><PageDown>j")
if grep -q '^nurseshark keys (lines 24-45 of [0-9]*)' <<<"$out"; then
	pass "PageDown and j scroll the help"
else
	fail "help scrolling: $(head -n 1 <<<"$out")"
fi
out=$(snap 80x24 "<F1>x")
if grep -q '^CPU0 ' <<<"$out" && ! grep -q 'nurseshark keys' <<<"$out"; then
	pass "any other key closes the help"
else
	fail "closing the help: $(head -n 2 <<<"$out")"
fi

# --- ASCII and bad keys ---------------------------------------------------------

out=$(SNAP_LOCALE=C snap 80x24 "jjjjja<Tab>Z")
if ! LC_ALL=C grep -q '[^ -~]' <<<"$out" && grep -q '^CPU0 .*[#=]' <<<"$out" &&
	grep -q '|' <<<"$out"; then
	pass "LANG=C: ASCII only, blocks as # and =, lines as |"
else
	fail "LANG=C output has bytes >= 0x80 or lacks ASCII glyphs"
fi

"$bin" --snapshot 80x24 --keys '<Nope>' "$sample" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'unknown key <Nope>' "$tmp/err" &&
	[ ! -s "$tmp/out" ]; then
	pass "a bad --keys string is one line on stderr, exit 2"
else
	fail "bad --keys: rc=$rc, stderr: $(head -c 200 "$tmp/err")"
fi

# --- more CPUs than rows --------------------------------------------------------

many=$NS_SHARED/traces/public/ARM-software__lisa__tests-trace-2014-04-02.dat
if [ -r "$many" ]; then
	out=$(snap 80x14 "" "$many")
	out2=$(snap 80x14 "<Tab>jjjjjjj" "$many")
	if grep -q '^CPU3 *v' <<<"$out" && ! grep -q '^CPU4' <<<"$out" &&
		grep -q '^CPU7 ' <<<"$out2" && grep -q '^CPU4 *^' <<<"$out2"; then
		pass "8 CPUs in 4 rows: the rows scroll with the graph cursor"
	else
		fail "CPU rows scroll: $(grep '^CPU' <<<"$out2" | tr '\n' '|')"
	fi
	# the first event of CPU7, from the report: graph follows scrolls to its row
	row=$(trace-cmd report -i "$many" 2>/dev/null | grep -v 'EVENTS DROPPED' |
		awk 'NR > 1 && /\[007\]/ { print NR - 2; exit }')
	out=$(snap 80x14 "$(printf 'j%.0s' $(seq "${row:-1}"))" "$many")
	if ! command -v trace-cmd >/dev/null; then
		skip "graph follows the selection's CPU: trace-cmd is not installed"
	elif [ -n "$row" ] && grep -q '^CPU7 ' <<<"$out" && grep -q "#$row of" <<<"$out"; then
		pass "selecting an event of CPU7 (row $row) scrolls CPU7 into the graph"
	else
		fail "graph follows the selection's CPU: row '$row', $(grep '^CPU' <<<"$out" | tr '\n' '|')"
	fi
else
	skip "CPU rows scroll: $many is absent"
fi
exit 0

# After Z (one ns per column) the window's times are to the nanosecond: start and end differ
out=$(snap 80x24 "Z")
win=$(sed -n 's/.*Window: \([0-9.]*\)-\([0-9.]*\) (\([0-9.]*\) s).*/\1 \2 \3/p' <<<"$out")
read -r ws we ww <<<"$win"
if [ -n "$win" ] && [ "$ws" != "$we" ] && [[ $ws == *.?????????* ]] &&
	awk -v s="$ws" -v e="$we" -v w="$ww" 'BEGIN {
		split(s, a, "."); split(e, b, "."); d = (b[1] - a[1]) * 1e9 + b[2] - a[2]
		exit !(d > 0 && d < 1000 && d == int(w * 1e9 + 0.5)) }'; then
	pass "after Z the window reads $ws-$we ($ww s): to the nanosecond"
else
	fail "after Z the window reads '$win'"
fi
