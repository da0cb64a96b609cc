#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Narrowing down, in the real binary in a real pseudo-terminal (tmux, see
# tests/lib/screen.sh): pick a task and add its row, filter on the selected
# event, search with / and n, jump to the next event of the same task, go to
# a time and to an event number, and read each result back from the screen,
# checked against trace-cmd report where it says something (the task
# picker's rows too: an empty picker fails). A refused
# expression keeps the filters; --pid, --task and --cpu open as they should.
# On the big trace (5 million events) a filter pass and a search show their
# progress, and Esc cancels them, leaving the view as it was.
#
# Every wait polls the screen with a timeout; nothing sleeps to synchronise.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin narrow tmux
shared=${NS_SHARED:-$top/../shared}
have_report=0
command -v trace-cmd >/dev/null && have_report=1
utf8=${utf8:-C}

# A private home, new each time: no session or config file comes in.
starts=0
start() {
	local cols=$1 rows=$2
	shift 2
	starts=$((starts + 1))
	mkdir -p "$tmp/$starts"
	screen_start "$cols" "$rows" "env HOME=$tmp/$starts XDG_STATE_HOME=$tmp/$starts/state \
XDG_CONFIG_HOME=$tmp/$starts/config LC_ALL=$utf8 $bin $*"
}

# The selected event's number, from the status line ("#12 of 91631").
selected() {
	sed -n 's/.*#\([0-9][0-9]*\) of [0-9]*.*/\1/p' <<<"$SCREEN_LAST" | tail -n 1
}

# The list's line of event N: "N CPU TIME TASK PID LAT EVENT INFO".
list_line() {
	grep -E "^ *$1 +[0-9]+ [0-9]+\.[0-9]+ " <<<"$SCREEN_LAST" | head -n 1
}

# report's line of event N (0-based), as report prints it.
report_line() {
	trace-cmd report -i "$sample" 2>/dev/null | sed -n "$(($1 + 2))p"
}

# --- a task: the picker, its row -------------------------------------------------

start 100 30 "$sample"
screen_wait '^CPU1 ' || fail "the viewer starts"
screen_type 'p'
if screen_wait 'Tasks: [0-9]+ of [0-9]+' && screen_wait '\(sorted by events\)'; then
	pass "p opens the task picker, busiest first"
else
	fail "task picker"
fi
screen_type 'gzip'
# the picker's rows, "PID COMM EVENTS" (a row is "M PID COMM EVENTS CPU-TIME")
picker_rows() {
	grep -oE '[0-9]+ [^ ]+ +[0-9]+ +[0-9]+\.[0-9]{6}' <<<"$SCREEN_LAST" | awk '{ print $1, $2, $3 }'
}
if screen_wait 'type to narrow: gzip' && rows=$(picker_rows) && [ "$(wc -l <<<"$rows")" -ge 20 ] &&
	[ -z "$(awk '$2 != "gzip"' <<<"$rows")" ]; then
	pass "typing narrows the picker to the tasks named gzip ($(wc -l <<<"$rows") rows shown)"
else
	fail "narrowing the task picker: rows '$(head -n 3 <<<"${rows:-}" | tr '\n' '|')'"
fi
# against the oracle: report's gzip tasks, by their events, the busiest first (ties by pid)
if [ "$have_report" = 1 ]; then
	trace-cmd report -i "$sample" 2>/dev/null | grep -oE '^ *gzip-[0-9]+ ' |
		sed -E 's/^ *gzip-//; s/ $//' | sort | uniq -c |
		awk '{ print $2, "gzip", $1 }' | sort -k3,3nr -k1,1n >"$tmp/gzip-tasks"
	want_rows=$(head -n "$(wc -l <<<"$rows")" "$tmp/gzip-tasks")
	nr_gzip=$(wc -l <"$tmp/gzip-tasks")
	if [ -n "$rows" ] && [ "$rows" = "$want_rows" ] &&
		grep -q "Tasks: $nr_gzip of [0-9]*; type to narrow: gzip" <<<"$SCREEN_LAST"; then
		pass "the picker shows trace-cmd report's $nr_gzip gzip tasks, the $(wc -l <<<"$rows") busiest with their event counts"
	else
		fail "picker rows against trace-cmd report: $(diff <(echo "$rows") <(echo "$want_rows") | head -n 4 | tr '\n' '|') (want $nr_gzip tasks)"
	fi
else
	skip "the picker's gzip rows against trace-cmd report: no trace-cmd"
fi
# the picker is drawn over the panes: its first item is the first "PID gzip EVENTS"
pid=$(grep -oE '[0-9]+ gzip +[0-9]+ ' <<<"$SCREEN_LAST" | head -n 1 | awk '{ print $1 }')
screen_keys Enter
if [ -n "$pid" ] && screen_wait "R +$pid gzip"; then
	pass "Enter marks task $pid for a row"
else
	fail "Enter in the task picker (pid '$pid')"
fi
screen_keys Escape
if screen_wait "^gzip-$pid "; then
	pass "its row gzip-$pid is in the graph, below the CPU rows"
else
	fail "task row gzip-$pid"
fi
row_line=$(grep -n "^gzip-$pid" <<<"$SCREEN_LAST" | cut -d: -f1)
cpu1_line=$(grep -n '^CPU1 ' <<<"$SCREEN_LAST" | cut -d: -f1)
if [ -n "$row_line" ] && [ -n "$cpu1_line" ] && [ "$row_line" -gt "$cpu1_line" ]; then
	pass "the task row sits below the CPU rows"
else
	fail "the task row's place"
fi

# --- a filter on the selected event's task ---------------------------------------

screen_type 'jjj'
screen_wait '#3 of 91631' || fail "selecting event 3"
screen_type 't'
want=""
[ "$have_report" = 1 ] &&
	want=$(trace-cmd report -F '.*: common_pid == 15974' -i "$sample" 2>/dev/null | tail -n +2 | wc -l)
if screen_wait 'Filters: only task work2.sh-15974 +[0-9]+ of 91631 shown'; then
	n=$(sed -n 's/.* \([0-9][0-9]*\) of 91631 shown.*/\1/p' <<<"$SCREEN_LAST" | head -n 1)
	if [ -z "$want" ] || [ "$n" = "$want" ]; then
		pass "t shows only the task: $n events, as trace-cmd report -F 'common_pid == 15974'"
	else
		fail "t: $n events shown, report says $want"
	fi
else
	fail "t filters on the selected event's task"
fi
if ! grep -E '^ *[0-9]+ +[0-9]+ [0-9]+\.[0-9]+ ' <<<"$SCREEN_LAST" | grep -vq ' 15974 '; then
	pass "every event in the list is the task's"
else
	fail "events of other tasks in the list"
fi
screen_type 'u'
if screen_wait_not 'Filters:' && screen_wait 'all 91631 events shown'; then
	pass "u clears the filters"
else
	fail "u clears the filters"
fi

# --- search and jumps -----------------------------------------------------------

screen_type 'g/event=sched_switch'
if screen_wait 'event is "sched_switch"'; then
	pass "the prompt says how it reads /event=sched_switch"
else
	fail "the search prompt's reading"
fi
screen_keys Enter
first=""
[ "$have_report" = 1 ] &&
	first=$(trace-cmd report -i "$sample" 2>/dev/null | tail -n +2 | grep -n ': sched_switch: ' |
		head -n 2 | cut -d: -f1 | tr '\n' ' ')
if screen_wait '#[0-9]+ of 91631' && [ "$(selected)" != 0 ]; then
	n1=$(selected)
	if [ -z "$first" ] || [ "$((n1 + 1))" = "${first%% *}" ]; then
		pass "/event=sched_switch selects the first sched_switch, #$n1"
	else
		fail "/event=sched_switch selected #$n1, report's first is line ${first%% *}"
	fi
else
	fail "/event=sched_switch"
fi
screen_type 'n'
if screen_wait_not "#$n1 of" && n2=$(selected) && [ "$n2" -gt "$n1" ]; then
	second=${first#* }
	second=${second%% *}
	if [ -z "$second" ] || [ "$((n2 + 1))" = "$second" ]; then
		pass "n goes on to the next one, #$n2"
	else
		fail "n selected #$n2, report's second is line $second"
	fi
else
	fail "n after /"
fi
screen_type 'N'
if screen_wait "#$n1 of"; then
	pass "N goes back to #$n1"
else
	fail "N after n"
fi
# jump to the next event of the selected event's task
line=$(list_line "$n1")
task_pid=$(awk '{ print $5 }' <<<"$line")
screen_type 'J'
if screen_wait_not "#$n1 of"; then
	n3=$(selected)
	got_pid=$(list_line "$n3" | awk '{ print $5 }')
	want_n=""
	[ "$have_report" = 1 ] &&
		want_n=$(trace-cmd report -i "$sample" 2>/dev/null | tail -n +2 |
			awk -v from="$n1" -v pid="$task_pid" 'NR - 1 > from && match($0, /-[0-9]+ +\[/) {
				p = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", p)
				if (p == pid) { print NR - 1; exit } }')
	if [ "$got_pid" = "$task_pid" ] && { [ -z "$want_n" ] || [ "$want_n" = "$n3" ]; }; then
		pass "J jumps to the task's next event, #$n3"
	else
		fail "J: #$n3 (pid $got_pid), want #$want_n of pid $task_pid"
	fi
else
	fail "J jumps"
fi
screen_type ':goto 10172.5'
# the prompt must be up before its end is waited for: else a slow start passes the wait
screen_wait '^:goto 10172\.5' || fail ":goto 10172.5 typed into the prompt"
screen_keys Enter
if screen_wait_not '^:goto'; then
	n4=$(selected)
	t4=$(list_line "$n4" | awk '{ print $3 }')
	prev=$(awk -v n="$n4" 'BEGIN { print n - 1 }')
	if awk -v t="$t4" 'BEGIN { exit !(t >= 10172.5) }'; then
		pass ":goto 10172.5 selects #$n4 at $t4"
	else
		fail ":goto 10172.5 selected #$n4 at $t4"
	fi
	if [ "$have_report" = 1 ]; then
		tp=$(report_line "$prev" | grep -oE '[0-9]+\.[0-9]+:' | head -n 1 | tr -d :)
		if awk -v t="$tp" 'BEGIN { exit !(t < 10172.5) }'; then
			pass "the event before it, #$prev, is before 10172.5 ($tp)"
		else
			fail "the event before #$n4 is at $tp"
		fi
	fi
else
	fail ":goto"
fi
screen_type ':4242'
screen_keys Enter
if screen_wait '#4242 of 91631'; then
	pass ":4242 selects event 4242"
else
	fail ":4242"
fi
# history: Up brings the last command back
screen_type ':'
screen_keys Up
if screen_wait '^:4242'; then
	pass "Up in the command line brings the last command back"
else
	fail "command history"
fi
screen_keys Escape

# --- advanced filters: refused, then applied ---------------------------------------

screen_type ':filter sched/sched_switch: (prev_pid == 0'
screen_keys Enter
if screen_wait "Unbalanced number of '\\('" && ! grep -q '^Filters:' <<<"$SCREEN_LAST"; then
	pass "an expression libtraceevent refuses is refused with its message, no filter set"
else
	fail "a refused expression"
fi
screen_type ':filter sched/sched_switch: prev_pid == 0'
screen_keys Enter
want=""
[ "$have_report" = 1 ] && want=$(trace-cmd report -F 'sched/sched_switch: prev_pid == 0' \
	-i "$sample" 2>/dev/null | tail -n +2 | wc -l)
if screen_wait "Filters: -F 'sched/sched_switch: prev_pid == 0' +${want:-[0-9]+} of 91631 shown"; then
	pass ":filter applies the expression: ${want:-some} events, as trace-cmd report -F"
else
	fail ":filter with report -F's syntax"
fi
screen_type ':filter sched/sched_switch: prev_pid =='
screen_keys Enter
# the message is longer than the status line: its start, and the mark that :messages has it whole
if screen_wait "libtraceevent's filter parser cr.*\\[:messages\\]" &&
	grep -q "Filters: -F 'sched/sched_switch: prev_pid == 0'" <<<"$SCREEN_LAST"; then
	pass "an expression that crashes libtraceevent is refused, the old filter kept"
else
	fail "an expression that crashes libtraceevent"
fi
screen_type 'q'
screen_stop

# --- the command line's filters ----------------------------------------------------

start 100 30 --pid 15974 --cpu 1 "$sample"
if screen_wait '^work2.sh-15974 ' && ! grep -q '^CPU0 ' <<<"$SCREEN_LAST" &&
	screen_wait 'Filters: only CPU1'; then
	pass "--pid opens with its task row, --cpu 1 without CPU0's row and with CPU1's events only"
else
	fail "--pid and --cpu"
fi
screen_stop

# --- 5 million events: progress, and Esc cancels ------------------------------------

big=$shared/traces/big.dat
if [ ! -r "$big" ]; then
	skip "filter and search cancel on 5 million events: $big not found (NS_SHARED=$shared)"
	exit 0
fi
start 100 30 "$big"
if ! screen_wait '^CPU0 ' 60; then
	fail "big.dat opens"
	exit 0
fi
screen_wait '#0 of ([0-9]+)'
before=$(grep -E '^ +[0-9]+ +[0-9]+ [0-9]+\.' <<<"$SCREEN_LAST" | head -n 5)
screen_type '/info~no such text anywhere'
screen_keys Enter
if screen_wait 'Searching forward for info~no such text anywhere\.\.\. [0-9]+% of 5452492 events +\(Esc cancels\)'; then
	pass "a search over 5 million events shows its progress"
else
	fail "search progress"
fi
screen_keys Escape
if screen_wait 'Search cancelled' && grep -q '#0 of 5452492' <<<"$SCREEN_LAST" &&
	[ "$(grep -E '^ +[0-9]+ +[0-9]+ [0-9]+\.' <<<"$SCREEN_LAST" | head -n 5)" = "$before" ]; then
	pass "Esc cancels it; the selection and the list are as they were"
else
	fail "cancelling a search"
fi
screen_type ':filter .*: common_pid == 1'
screen_keys Enter
if screen_wait 'Filtering\.\.\. [0-9]+% of 5452492 events +\(Esc cancels\)'; then
	pass "a filter pass over 5 million events shows its progress"
else
	fail "filter progress"
	screen_dump
fi
screen_keys Escape
if screen_wait_all 'Filtering cancelled' '!^Filters:' '#0 of 5452492'; then
	pass "Esc cancels it; no filter is set"
else
	fail "cancelling a filter pass"
	screen_dump
fi
screen_type 'jjjjt'
if screen_wait 'Filters: only task .* of 5452492 shown' 30; then
	pass "a task filter on 5 million events completes"
else
	fail "a task filter on big.dat"
	screen_dump
fi
screen_type 'q'
exit 0
