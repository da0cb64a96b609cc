#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The viewer's Record screen (:record, Ctrl-R) in tmux at 80x24 with LANG=C
# and NO_COLOR, against the running kernel, with `trace-cmd report` as the
# oracle: it lists the kernel's events; the find text narrows them; Space
# ticks sched:sched_switch (the marker row is always ticked); a command
# that writes known lines to trace_marker is set; Ctrl-R records, and the
# viewer then shows the new trace.dat, whose report holds the marker lines
# and sched_switch events only and equals our --export of it. The next
# :record offers the same settings again; a file that is not a trace.dat
# is refused on the screen and left alone; a recording with no command is
# stopped by Ctrl-C; live from the screen shows the running kernel and q
# comes back to the viewer. After each, the tracing state is as it was.
# Needs root and tracefs; SKIPs with the reason without them. Run it under
# `flock -o /tmp/ns-tracing.lock` by hand: the tracing state is the machine's.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin recordscreen tmux

SCREEN_TIMEOUT=30	# bounds each wait on a busy 2-CPU machine; none is a sleep
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0

mark=recscreen-$$
w=$tmp/work
mkdir -p "$w" "$tmp/state"
# The exit status goes to a file: tmux may call the pane dead before it knows it.
screen_start 80 24 "cd '$w' && LANG=C LC_ALL=C NO_COLOR=1 XDG_STATE_HOME='$tmp/state' '$bin' '$sample'; echo rc=\$? >'$tmp/rc'"

# open_record: :record, until its screen is there
open_record() {
	screen_keys :
	screen_type record
	screen_keys Enter
	screen_wait '^ Record the running kernel: [0-9]+ of [0-9]+ events ticked'
}

if open_record; then
	pass ":record opens the Record screen"
else
	fail ":record: no Record screen"
fi
fits() {
	grep -q '^ Find: _' <<<"$SCREEN_LAST" &&
		grep -q '^ \[\*\] ftrace:print  (trace_marker lines: always recorded)' <<<"$SCREEN_LAST" &&
		grep -Eq '^ \[.\] [a-z_0-9]+  \(' <<<"$SCREEN_LAST" &&
		grep -q '^ Output file       trace.dat' <<<"$SCREEN_LAST" &&
		grep -q '^ Space:tick C-x:none /:find Tab:field C-r:record C-l:live Esc:close' \
			<<<"$SCREEN_LAST" && [ "$(wc -l <<<"$SCREEN_LAST")" = 24 ]
}
if screen_wait_for fits; then
	pass "at 80x24: the find line, the marker row, the systems, the fields and the keys"
else
	fail "the Record screen at 80x24 lacks a part"
fi
screen_type sched
if screen_wait '^ \[.\] sched  \(' && screen_wait '^     \[.\] btrfs_work_sched$' &&
	screen_wait_not '^ \[.\] (alarmtimer|block)  \('; then
	pass "typing narrows the list: sched, the events that hold it, their systems"
else
	fail "typing sched: no sched row"
fi

# Untick all, find and tick sched:sched_switch; the marker row is always ticked.
screen_keys C-x /
screen_type sched:sched_switch
if screen_wait '^ Find: sched:sched_switch_' && screen_wait '^     \[ \] sched_switch$'; then
	pass "/ starts a new find: sched:sched_switch, unticked after C-x"
else
	fail "finding sched:sched_switch"
fi
screen_keys Space
if screen_wait '^     \[x\] sched_switch$' &&
	screen_wait '^ \[-\] sched  \(1 of [0-9]+\)' &&
	screen_wait 'Record the running kernel: 1 of [0-9]+ events ticked'; then
	pass "Space ticks sched_switch; its system shows 1 of all"
else
	fail "Space did not tick sched_switch"
fi
screen_keys /
screen_type ftrace:print
screen_keys Space
if screen_wait '^ \[\*\] ftrace:print' && screen_wait_not '^ \[.\] sched '; then
	pass "ftrace:print found: the marker row, ticked for good"
else
	fail "finding ftrace:print"
fi

# The command, then Ctrl-R; the new trace opens in the viewer.
screen_keys Tab Tab Tab Tab
screen_type "echo $mark-1 > $T/trace_marker; echo $mark-2 > $T/trace_marker"
if screen_wait "^ Command \(sh -c\)   .*echo $mark-2 > $T/trace_marker_\$"; then
	pass "the command field takes the command, blanks and ; included; it shows its end"
else
	fail "the command field"
fi
screen_keys C-r
new_trace() {
	local n
	[ -s "$w/trace.dat" ] || return 1
	n=$(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo ' of [0-9]+' | grep -Eo '[0-9]+')
	[ -n "$n" ] && [ "$n" != "$sample_n" ] && ! grep -q 'Record the running' <<<"$SCREEN_LAST"
}
sample_n=$("$bin" --export "$sample" | tail -n +2 | wc -l)
if screen_wait_for new_trace 60; then
	pass "Ctrl-R recorded, and the viewer shows a new trace"
else
	fail "after Ctrl-R: no new trace in the viewer"
fi
tracing_same_state "after recording from the screen"
trace-cmd report "$w/trace.dat" >"$tmp/report" 2>"$tmp/rerr" ||
	fail "trace-cmd report fails: $(head -c 300 "$tmp/rerr")"
nrep=$(($(wc -l <"$tmp/report") - 1))
if screen_wait "#0 of $nrep *\$"; then
	pass "the viewer shows the new file: its $nrep events, as report counts them"
else
	fail "the viewer's count is not report's $nrep"
fi
if grep -q "print: .*tracing_mark_write: $mark-1\$" "$tmp/report" &&
	grep -q "print: .*tracing_mark_write: $mark-2\$" "$tmp/report"; then
	pass "report finds both marker lines of the command"
else
	fail "report lacks the marker lines $mark-1/2"
fi
kinds=$(tail -n +2 "$tmp/report" | sed -E 's/^.*\] +[0-9]+\.[0-9]+: +([a-z_0-9]+):.*/\1:/' |
	sort -u | tr '\n' ' ')
if [ "$kinds" = "print: sched_switch: " ]; then
	pass "the ticked event (and the markers) only: $kinds"
else
	fail "event kinds recorded: $kinds"
fi
if "$bin" --export "$w/trace.dat" >"$tmp/export" 2>"$tmp/xerr" && cmp -s "$tmp/export" "$tmp/report"; then
	pass "nurseshark --export of the file equals trace-cmd report"
else
	fail "--export differs from report: $(diff "$tmp/export" "$tmp/report" | head -3)"
fi
if grep -q '^events = sched:sched_switch$' "$tmp/state/nurseshark/record.ini" 2>/dev/null; then
	pass "the settings are kept in \$XDG_STATE_HOME/nurseshark/record.ini"
else
	fail "record.ini: $(head -c 300 "$tmp/state/nurseshark/record.ini" 2>&1)"
fi

# The next :record offers the same settings.
open_record
again() {
	grep -Eq '^ Record the running kernel: 1 of [0-9]+ events ticked' <<<"$SCREEN_LAST" &&
		grep -q "^ Command (sh -c)   echo $mark-1 > $T/trace_marker;" <<<"$SCREEN_LAST" &&
		grep -q '^ Output file       trace.dat' <<<"$SCREEN_LAST"
}
screen_type sched:sched_switch
if screen_wait_for again && screen_wait '^     \[x\] sched_switch$'; then
	pass "the next :record offers the settings again: sched_switch ticked, the command, the output"
else
	fail "the next :record does not offer the last settings"
fi

# An output that is not a trace.dat is refused on the screen.
echo "not a trace" >"$w/notes.txt"
# BSpace ... (as many as given), in one tmux call
erase() { screen_keys $(printf 'BSpace %.0s' $(seq "$1")); }
screen_keys Tab Tab Tab Tab Tab Tab
erase 9
screen_type notes.txt
screen_keys C-r
if screen_wait 'notes.txt exists and is not a trace.dat: not replacing it' &&
	[ "$(cat "$w/notes.txt")" = "not a trace" ]; then
	pass "an output that is not a trace.dat is refused, the file untouched"
else
	fail "notes.txt as the output was not refused"
fi
tracing_same_state "after a refused start"

# No command, no duration: Ctrl-C stops the recording, and b.dat opens.
erase 9
screen_type b.dat
screen_keys BTab BTab
erase 200
if screen_wait '^ Command \(sh -c\)   _'; then
	pass "Backspace empties the command field"
else
	fail "the command field did not empty"
fi
screen_keys C-r
# the progress line of this recording: the one below its "recording into b.dat"
# (the last recording's end line is still on the terminal above)
b_progress() {
	awk '/recording into b.dat/ { on = 1; next }
	     on && /nurseshark: record: [0-9.]+ s, [0-9]+ events/ { ok = 1 }
	     END { exit !ok }' <<<"$SCREEN_LAST"
}
if screen_wait_for b_progress; then
	pass "recording with no command: the progress line"
else
	fail "no progress line"
fi
screen_keys C-c
b_trace() {
	[ -s "$w/b.dat" ] && tail -n 1 <<<"$SCREEN_LAST" | grep -Eq ' of [0-9]+ *$'
}
if screen_wait_for b_trace 60; then
	pass "Ctrl-C stops the recording and the viewer opens b.dat"
else
	fail "after Ctrl-C: no b.dat in the viewer"
fi
tracing_same_state "after Ctrl-C"
if trace-cmd report "$w/b.dat" >"$tmp/breport" 2>/dev/null &&
	grep -q ' sched_switch: ' "$tmp/breport"; then
	pass "trace-cmd report reads b.dat: sched_switch events"
else
	fail "b.dat: report fails or holds no sched_switch"
fi

# Live from the screen; q comes back to the viewer of b.dat.
open_record
screen_keys C-l
if screen_wait '(FOLLOW|LIVE) [0-9.M]+ ev'; then
	pass "C-l starts the live view with the ticked events"
else
	fail "C-l: no live view"
fi
screen_keys q
if screen_wait_for b_trace && screen_wait_not '(FOLLOW|LIVE) [0-9.M]+ ev'; then
	pass "q leaves live for the viewer again"
else
	fail "after live: not back in the viewer"
fi
tracing_same_state "after live"
screen_keys q
pane_done() { [ -s "$tmp/rc" ]; }
if screen_wait_for pane_done && [ "$(cat "$tmp/rc")" = rc=0 ]; then
	pass "q quits the viewer with status 0"
else
	fail "q: the viewer's exit: $(cat "$tmp/rc" 2>&1)"
fi
