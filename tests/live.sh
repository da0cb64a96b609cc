#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The live screen (`nurseshark live` in a terminal) in tmux, against the
# running kernel while ../shared/tools/workload makes load (or, without it,
# a loop of our own): events appear and the count on the status line grows;
# following, the window moves to the newest; Space pauses the screen (the
# panes stop changing while the count of events read still grows) and
# resumes it; a key that moves the selection stops following and End
# follows again; `:save FILE` writes a trace.dat that `trace-cmd report`
# reads, with the marker lines written during the recording, whose report
# equals our --export of it, and a second :save does not replace it; --keep
# EVENTS holds no more than it says, --keep SECONDSs no longer a stretch;
# a task filter holds across refreshes; paused, markers and statistics work.
# After q, and after SIGTERM, the tracing state is as it was and live's temp
# directory is gone.
# Needs root and tracefs; SKIPs with the reason without them.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin live tmux

shared=${NS_SHARED:-$top/../shared}
SCREEN_TIMEOUT=30	# bounds each wait on a busy 2-CPU machine; none is a sleep
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0

# Load for the whole test: the shared workload, else a loop of forks.
load_pid=
start_load() {
	if [ -x "$shared/tools/workload" ]; then
		"$shared/tools/workload" 600 >/dev/null 2>&1 &
	else
		(while :; do ls -R /usr/share >/dev/null 2>&1; done) &
	fi
	load_pid=$!
}
stop_load() {
	[ -n "$load_pid" ] || return 0
	pkill -P "$load_pid" 2>/dev/null
	kill "$load_pid" 2>/dev/null
	wait "$load_pid" 2>/dev/null
	load_pid=
}
trap 'stop_load; ns_test_end' EXIT
start_load

# The figures of the status line: "FOLLOW 12345 ev 0 lost", and once --keep
# let the oldest go "FOLLOW 12345 ev 9000 held 0 lost"; from a million on a
# figure reads "1.23M".
# status_figure WORD [SCREEN]: the figure before WORD (ev, held, lost) as a number.
status_figure() {
	local f
	f=$(tail -n 1 <<<"${2:-$SCREEN_LAST}" | grep -Eo "[0-9]+(\.[0-9]+M)? $1( |\$)" |
		head -n 1 | cut -d' ' -f1)
	[ -n "$f" ] || return 0
	awk -v f="$f" 'BEGIN { if (f ~ /M$/) printf "%.0f\n", f * 1e6; else print f }'
}
events_now() {
	status_figure ev "$(screen_capture)"
}
# For screen_wait_for: the status line counts more than $want_more events read.
more_events_than() {
	local n
	grep -Eq '(FOLLOW|LIVE|PAUSED|HELD) [0-9.]+M? ev' <<<"$(tail -n 1 <<<"$SCREEN_LAST")" ||
		return 1
	n=$(status_figure ev)
	[ -n "$n" ] && [ "$n" -gt "$want_more" ]
}

mark=live-ns-$$
mkdir "$tmp/w" "$tmp/lt"
# --keep well above what the test records most of the time: once the oldest
# go, a window that no longer follows is cut to what is held, and "the window
# stays" is skipped (it says so, with the figures). The exit status goes to a
# file: tmux may call the pane dead before it knows its status.
keep=5000000
screen_start 80 24 "cd $tmp/w && TMPDIR=$tmp/lt $bin live -e sched -e irq --keep $keep; echo rc=\$? >$tmp/rc"
if screen_wait 'FOLLOW [1-9][0-9]* ev [0-9]+ lost' && screen_wait '^CPU0 ' &&
	screen_wait '^ +[0-9]+ +[0-9] [0-9]+\.[0-9]{6} '; then
	pass "events appear: CPU rows, list rows, FOLLOW and a count on the status line"
else
	fail "no live events on the screen"
fi
echo "$mark-1" >$T/trace_marker

# Following: the window moves on to the newest events.
win=$(screen_capture | grep '^Window: ')
window_moved() {
	local now
	now=$(grep '^Window: ' <<<"$SCREEN_LAST")
	[ -n "$now" ] && [ "$now" != "$win" ]
}
if [ -n "$win" ] && screen_wait_for window_moved; then
	pass "following, the window moves on ($win, then $(grep '^Window: ' <<<"$SCREEN_LAST"))"
else
	fail "the window does not move: $win"
fi

# Space pauses the screen: the panes stay while the count still grows.
echo "$mark-2" >$T/trace_marker
screen_keys Space
if screen_wait 'PAUSED [0-9]+ ev'; then
	pass "Space pauses: PAUSED on the status line"
else
	fail "Space does not pause"
fi
panes=$(screen_capture | head -n 23)
want_more=$(($(events_now) + 2000))
if screen_wait_for more_events_than; then
	if [ "$(head -n 23 <<<"$SCREEN_LAST")" = "$panes" ]; then
		pass "paused, the panes stay the same while the count grows past $want_more"
	else
		fail "paused, the panes changed: $(diff <(echo "$panes") <(head -n 23 <<<"$SCREEN_LAST") | head -5 | tr '\n' ' ')"
	fi
else
	fail "paused, the count of events read does not grow past $want_more"
fi

# :save writes what was recorded so far (the markers were written well
# before: the readers take a partial page within 100 ms); report reads it,
# as --export does.
screen_type ":save saved.dat"
screen_keys Enter
if screen_wait "Saved what is held to saved.dat"; then
	pass ":save says it saved the file"
else
	fail ":save: no word of the file"
fi
if trace-cmd report "$tmp/w/saved.dat" >"$tmp/report" 2>"$tmp/rerr"; then
	pass "trace-cmd report reads the file :save wrote"
else
	fail "trace-cmd report fails on it: $(head -c 300 "$tmp/rerr")"
fi
if grep -q "print: .*tracing_mark_write: $mark-1\$" "$tmp/report" &&
	grep -q "print: .*tracing_mark_write: $mark-2\$" "$tmp/report" &&
	grep -q ' sched_switch: ' "$tmp/report"; then
	pass "the saved file has both marker lines and sched_switch events"
else
	fail "the saved file lacks the markers or sched_switch: $(grep -c "$mark" "$tmp/report") markers, $(grep -c ' sched_switch: ' "$tmp/report") switches"
fi
if "$bin" --export "$tmp/w/saved.dat" >"$tmp/export" 2>"$tmp/eerr" &&
	cmp -s "$tmp/export" "$tmp/report"; then
	pass "--export of the saved file equals trace-cmd report ($(wc -l <"$tmp/report") lines)"
else
	fail "--export differs from report: $(diff "$tmp/report" "$tmp/export" | head -5 | tr '\n' ' ')"
fi
cp "$tmp/w/saved.dat" "$tmp/saved.copy"
screen_type ":save saved.dat"
screen_keys Enter
if screen_wait "Not saved: " && cmp -s "$tmp/w/saved.dat" "$tmp/saved.copy"; then
	pass ":save over a file that is there refuses and leaves it: $(grep -o 'Not saved: .*' <<<"$SCREEN_LAST" | head -c 60)"
else
	fail ":save over the file: not refused, or the file changed"
fi

# Space again resumes; a key that moves the selection stops following; End follows.
screen_keys Space
if screen_wait 'FOLLOW [0-9]+ ev'; then
	pass "Space again resumes following"
else
	fail "Space does not resume"
fi
screen_type k
if screen_wait 'LIVE [0-9]+ ev' && screen_wait 'Live: not following; End follows again'; then
	pass "k moves the selection: no longer following (LIVE), and the screen says End follows"
else
	fail "k does not stop following"
fi
win=$(grep '^Window: ' <<<"$SCREEN_LAST")
want_more=$(($(events_now) + 2000))
# Once --keep has let the oldest go (a busy machine may read $keep events
# in this run), what is held no longer covers the window, which is cut to it:
# then the check does not hold, and is skipped with the figures.
if ! screen_wait_for more_events_than; then
	fail "not following, the count of events read does not grow past $want_more"
elif held=$(status_figure held) && [ -n "$held" ]; then
	skip "not following, the window stays: not checked, --keep $keep let $(($(status_figure ev) - held)) events go ($held held), and the window is cut to what is held"
elif [ "$(grep '^Window: ' <<<"$SCREEN_LAST")" = "$win" ]; then
	pass "not following, the window stays while events come in"
else
	fail "not following, the window moved: $win, then $(grep '^Window: ' <<<"$SCREEN_LAST")"
fi
screen_keys End
if screen_wait 'FOLLOW [0-9]+ ev'; then
	pass "End follows the newest again"
else
	fail "End does not follow"
fi
screen_type q
# pane_exited: the pane's command is over; its status in $pane.
pane_exited() {
	pane=$(screen_pane_state)
	[ "${pane%% *}" = dead ]
}
exited_0() {
	pane=$(cat "$tmp/rc" 2>/dev/null)
	[ "$pane" = "rc=0" ]
}
if screen_wait_for exited_0; then
	pass "q quits with status 0"
else
	fail "q: '$pane'"
fi
tracing_same_state "after q"
if [ -z "$(ls -A "$tmp/lt")" ]; then
	pass "live's temp directory is gone"
else
	fail "left in TMPDIR: $(ls -A "$tmp/lt"/* | tr '\n' ' ')"
fi

# :task NAME in live (issue 12): the task rows were made once, over the
# trace of that frame, which the next frame lets go: the viewer died of
# SIGSEGV a frame or two later. They are made again over each frame's
# trace. The task is the load's, which runs all along.
task=$(cat "/proc/$load_pid/comm" 2>/dev/null)
task_label=${task:0:9}
rm -f "$tmp/rc"
screen_start 100 30 "cd $tmp/w && TMPDIR=$tmp/lt $bin live -e sched -e irq --keep 200000; echo rc=\$? >$tmp/rc"
screen_wait 'FOLLOW [1-9][0-9]* ev' || fail "the :task run shows no events"
# a frame that shows the task's row while the viewer runs
task_row_shown() {
	[ "$(screen_pane_state)" = alive ] &&
		grep -Eq "^$task_label-[0-9]+ " <<<"$SCREEN_LAST" &&
		grep -Eq 'FOLLOW [0-9]+ ev' <<<"$SCREEN_LAST"
}
task_row_or_none() {
	task_row_shown || grep -q "task $task: no task of that name" <<<"$SCREEN_LAST"
}
task_row_next_frame() { window_moved && task_row_shown; }
# The first frames may hold a fraction of a second of events, none of the
# task's: then the viewer rightly says "no task of that name" (seen in CI),
# and the command is given again on a later frame, at most 5 times.
tries=0
while [ "$tries" -lt 5 ]; do
	tries=$((tries + 1))
	win=$(grep '^Window: ' <<<"$SCREEN_LAST")
	screen_type ":task $task"
	# the prompt in the message line: an earlier answer there is gone
	screen_wait "^:task $task" || break
	screen_keys Enter
	screen_wait_for task_row_or_none || break
	task_row_shown && break
	screen_wait_for window_moved || break
done
frames=0
if task_row_shown || screen_wait_for task_row_shown 2; then
	pass ":task $task in live: its row appears ($(grep -Eo "^$task_label-[0-9]+" <<<"$SCREEN_LAST" | head -n 1), given $tries time(s))"
	# five frames, each with the window moved on and the row still drawn
	while [ "$frames" -lt 5 ]; do
		win=$(grep '^Window: ' <<<"$SCREEN_LAST")
		screen_wait_for task_row_next_frame || break
		frames=$((frames + 1))
	done
	if [ "$frames" = 5 ]; then
		pass ":task in live: the viewer runs on through $frames more frames with the row"
	else
		fail ":task in live: after $frames frames, '$(screen_pane_state)', $(cat "$tmp/rc" 2>/dev/null)"
	fi
else
	fail ":task $task in live: no row, or the viewer died: '$(screen_pane_state)' $(cat "$tmp/rc" 2>/dev/null) $(head -n 12 <<<"$SCREEN_LAST" | cut -c1-30 | tr '\n' '|') $(tail -n 1 <<<"$SCREEN_LAST")"
fi
screen_type q
if screen_wait_for exited_0; then
	pass ":task in live: q quits with status 0"
else
	fail ":task in live, q: '$pane'"
fi
tracing_same_state "after the :task run"

# --keep EVENTS: no more held than that, the oldest let go, and the screen says so.
screen_start 80 24 "cd $tmp/w && TMPDIR=$tmp/lt exec $bin live -e sched -e irq --keep 2000"
held_ok() {
	local ev held
	ev=$(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo '[0-9]+ ev ' | grep -Eo '[0-9]+')
	held=$(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo '[0-9]+ held' | grep -Eo '[0-9]+')
	[ -n "$held" ] && [ -n "$ev" ] && [ "$held" -le 2000 ] && [ "$ev" -gt "$held" ]
}
if screen_wait_for held_ok; then
	pass "--keep 2000: at most 2000 held of more read ($(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo '[0-9]+ ev.*lost'))"
else
	fail "--keep 2000: not bounded, or not said"
fi
screen_type q
screen_wait_for pane_exited
tracing_same_state "after --keep"

# --keep SECONDSs: the oldest go by time; following, the window is all that
# is held, which spans that long (give or take the oldest page of a CPU),
# once three times as many were read.
screen_start 80 24 "cd $tmp/w && TMPDIR=$tmp/lt exec $bin live -e sched -e irq --keep 1s"
keep_time_ok() {
	ev=$(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo 'FOLLOW [0-9]+ ev ' | grep -Eo '[0-9]+')
	held=$(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo '[0-9]+ held' | grep -Eo '[0-9]+')
	span=$(grep -Eo '^Window: [0-9.]+-[0-9.]+ \([0-9.]+ s\)' <<<"$SCREEN_LAST" |
		grep -Eo '\([0-9.]+' | tr -d '(')
	[ -n "$held" ] && [ -n "$ev" ] && [ -n "$span" ] && [ "$ev" -gt $((3 * held)) ] &&
		awk -v s="$span" 'BEGIN { exit !(s >= 0.5 && s <= 1.5) }'
}
if screen_wait_for keep_time_ok; then
	pass "--keep 1s: $held held of $ev read, spanning $span s"
else
	fail "--keep 1s: not bounded by time: $(grep '^Window' <<<"$SCREEN_LAST") $(tail -n 1 <<<"$SCREEN_LAST")"
fi
screen_type q
screen_wait_for pane_exited
tracing_same_state "after --keep 1s"

# What the other issues give work on what is held: filters hold across
# refreshes (a -F expression, tried first in a process of its own since
# live's reader threads forbid fork(), its refusal and the parser's crash
# said as for a file; t: only the selected row's task, every list row that
# task's while the window moves on), and, paused, a marker and statistics.
screen_start 100 30 "cd $tmp/w && TMPDIR=$tmp/lt exec $bin live -e sched -e irq --keep 20000"
screen_wait 'FOLLOW [1-9][0-9]* ev' || fail "the filter run shows no events"
screen_type ":filter sched_switch: prev_pid =="
screen_keys Enter
# (the message is cut by the status line's figures; :messages has it whole)
if screen_wait "sched_switch: prev_pid ==: libtraceevent"; then
	pass ":filter on which the parser crashes: said, and live goes on"
else
	fail ":filter EXPR that crashes the parser: $(tail -n 1 <<<"$SCREEN_LAST")"
fi
screen_type ":filter nosuch_event"
screen_keys Enter
screen_wait "nosuch_event: no event found" || fail ":filter nosuch_event: not refused"
screen_type ":filter sched_switch"
screen_keys Enter
only_switches() {
	local rows
	rows=$(grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.[0-9]{6} ' <<<"$SCREEN_LAST")
	[ "$(wc -l <<<"$rows")" -ge 5 ] && ! grep -qv ' sched_switch ' <<<"$rows" &&
		grep -q "^Filters: -F 'sched_switch'" <<<"$SCREEN_LAST"
}
switches_still() { window_moved && only_switches; }
if screen_wait_for only_switches; then
	win=$(grep '^Window: ' <<<"$SCREEN_LAST")
	if screen_wait_for switches_still; then
		pass ":filter sched_switch: only sched_switch rows, still after the window moved on"
	else
		fail ":filter: not kept across refreshes: $(grep -E '^(Filters|Window)' <<<"$SCREEN_LAST" | tr '\n' '|')"
	fi
else
	fail ":filter sched_switch: $(tail -n 1 <<<"$SCREEN_LAST") $(grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.' <<<"$SCREEN_LAST" | grep -v sched_switch | head -2 | tr '\n' '|')"
fi
screen_type ":clear"
screen_keys Enter
screen_wait_not '^Filters: ' || fail ":clear: the filter stays"
# t on a row of a task that runs all along: the first loop of the shared
# workload (its own shell only waits), else the fork loop itself. A task
# of the last row may be gone a frame later, with nothing to mark.
steady=$load_pid
[ -x "$shared/tools/workload" ] && steady=$(pgrep -o -P "$load_pid")
screen_keys End
screen_type "?pid=$steady"
screen_keys Enter
screen_wait " $steady [^ ]{5} " || fail "?pid=$steady selects no row of the steady task"
screen_type t
# (once its events are let go, --keep, none may be left: "0 of N shown")
only_task() {
	local rows
	# "Filters: only task tmux: cli-24891   12 of 19884 shown": a name may hold blanks
	task_pid=$(grep -E '^Filters: only task ' <<<"$SCREEN_LAST" | grep -Eo -- '-[0-9]+ +[0-9]+ of ' |
		head -n 1 | grep -Eo '^-[0-9]+' | tr -d -)
	rows=$(grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.[0-9]{6} ' <<<"$SCREEN_LAST")
	[ -n "$task_pid" ] && { [ -n "$rows" ] || [ -n "${1:-}" ]; } &&
		! grep -Evq " $task_pid [^ ]{5} " <<<"$rows"
}
still_task() { window_moved && only_task none-left-is-fine; }
if screen_wait_for only_task; then
	win=$(grep '^Window: ' <<<"$SCREEN_LAST")
	if screen_wait_for still_task; then
		pass "t: only the rows of task $task_pid, still after the window moved on"
	else
		fail "t: the filter is not kept across refreshes: $(grep -E '^(Filters|Window)' <<<"$SCREEN_LAST" | tr '\n' '|') $(grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.' <<<"$SCREEN_LAST" | grep -Ev " $task_pid [^ ]{5} " | head -3 | tr '\n' '|')"
	fi
else
	fail "t: other rows: $(grep -E '^Filters' <<<"$SCREEN_LAST") $(grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.' <<<"$SCREEN_LAST" | head -3 | tr '\n' '|')"
fi
screen_keys Space
screen_wait 'PAUSED [0-9]+ ev' || fail "Space does not pause the filtered screen"
screen_type a
if screen_wait '^A: [0-9]+\.[0-9]{6}'; then
	pass "paused, a sets marker A on the selected event ($(grep -Eo '^A: [0-9.]+' <<<"$SCREEN_LAST"))"
else
	fail "a: no marker A"
fi
screen_type S
if screen_wait 'Statistics over ' && screen_wait ' [0-9]+ held [0-9]+ lost *$'; then
	pass "S opens the statistics of what is held"
else
	fail "S: no statistics"
fi
screen_keys Escape
screen_type q
screen_wait_for pane_exited
tracing_same_state "after the filter run"

# SIGTERM: the state is put back, the directory removed, and it dies of the signal.
screen_start 80 24 "echo \$\$ >$tmp/pid; cd $tmp/w; TMPDIR=$tmp/lt exec $bin live -e sched"
if screen_wait 'FOLLOW [1-9][0-9]* ev'; then
	kill -TERM "$(cat "$tmp/pid")"
	if screen_wait_for pane_exited; then
		pass "SIGTERM ends live ($pane)"
	else
		fail "SIGTERM: still running"
	fi
else
	fail "the SIGTERM run shows no events"
fi
tracing_same_state "after SIGTERM"
if [ -z "$(ls -A "$tmp/lt")" ]; then
	pass "after SIGTERM, live's temp directory is gone"
else
	fail "after SIGTERM, left in TMPDIR: $(ls -A "$tmp/lt" | tr '\n' ' ')"
fi
stop_load
