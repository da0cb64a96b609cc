#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Events the kernel dropped, in nurseshark live: with a ring buffer of one
# page per CPU (-b 4) and ../shared/tools/workload's load, the ring buffers
# overflow while live reads them. The status line counts the lost events;
# paused, /DROPPED selects a row the list marks "[N EVENTS DROPPED]" and
# the graph's CPU rows carry the drop mark (!); `:save FILE` writes a
# trace.dat in which `trace-cmd report` shows "CPU:N [M EVENTS DROPPED]"
# lines, whose --export equals that report (the same lines at the same
# places), and in which /DROPPED selects the row report marks first.
# After q the tracing state (the buffer size too) is as it was.
# Needs root and tracefs; SKIPs with the reason without them.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin livedrops tmux

shared=${NS_SHARED:-$top/../shared}
SCREEN_TIMEOUT=30	# bounds each wait on a busy 2-CPU machine; none is a sleep
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0
if [ ! -x "$shared/tools/workload" ]; then
	skip "no $shared/tools/workload to overflow the ring buffers with"
	exit 0
fi
export TZ=UTC LC_ALL=C

load_pid=
stop_load() {
	[ -n "$load_pid" ] || return 0
	pkill -P "$load_pid" 2>/dev/null
	kill "$load_pid" 2>/dev/null
	wait "$load_pid" 2>/dev/null
	load_pid=
}
trap 'stop_load; ns_test_end' EXIT
"$shared/tools/workload" 600 >/dev/null 2>&1 &
load_pid=$!

mkdir "$tmp/w" "$tmp/lt"
screen_start 100 30 "cd $tmp/w && TMPDIR=$tmp/lt $bin live -b 4 -e sched -e irq -e timer -e syscalls; echo rc=\$? >$tmp/rc"

# "FOLLOW 1.60M ev 199999 held 1.00M lost": lost is not 0
lost_counted() {
	tail -n 1 <<<"$SCREEN_LAST" | grep -Eq '(FOLLOW|LIVE) .* ([1-9][0-9.]*[KM]?) lost *$'
}
if screen_wait_for lost_counted; then
	pass "the status line counts the events the kernel dropped: $(tail -n 1 <<<"$SCREEN_LAST" | grep -Eo '[^ ]+ lost')"
else
	fail "no lost events counted: $(tail -n 1 <<<"$SCREEN_LAST")"
fi

screen_keys Space
screen_wait 'PAUSED [0-9.]+[KM]? ev' || fail "Space does not pause"
screen_type /DROPPED
screen_keys Enter
# the selected row is one after lost events; the graph marks where they were
drop_shown() {
	grep -Eq '^ *[0-9]+ +[0-9]+ [0-9]+\.[0-9]{6} .*\[([0-9]+ )?EVENTS DROPPED\]' <<<"$SCREEN_LAST" &&
		grep -Eq '^CPU[0-9]+ .*!' <<<"$SCREEN_LAST"
}
if screen_wait_for drop_shown; then
	pass "the list shows $(grep -Eo '\[([0-9]+ )?EVENTS DROPPED\]' <<<"$SCREEN_LAST" | head -n 1) and the graph the drop mark"
else
	fail "no dropped events on the live screen: $(grep -E '^CPU|DROPPED' <<<"$SCREEN_LAST" | head -n 4 | tr '\n' '|')"
fi

screen_type ":save drops.dat"
screen_keys Enter
if screen_wait "Saved what is held to drops.dat"; then
	pass ":save wrote the file"
else
	fail ":save: no word of the file"
fi
stop_load
if trace-cmd report "$tmp/w/drops.dat" >"$tmp/report" 2>"$tmp/rerr"; then
	pass "trace-cmd report reads it"
else
	fail "trace-cmd report fails on it: $(head -c 300 "$tmp/rerr")"
fi
nr=$(grep -Ec '^CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]$' "$tmp/report")
if [ "$nr" -gt 0 ]; then
	pass "report shows $nr lines of dropped events in the saved file"
else
	fail "report shows no dropped events in the saved file"
fi
if "$bin" --export "$tmp/w/drops.dat" >"$tmp/export" 2>"$tmp/eerr" &&
	cmp -s "$tmp/export" "$tmp/report"; then
	pass "--export of the saved file equals report, its DROPPED lines included"
else
	fail "--export differs from report: $(diff "$tmp/report" "$tmp/export" | head -5 | tr '\n' ' ')"
fi
# the first row report marks, counted from 0 as the list's # column, after
# row 0: the search starts after the selected row, which is #0 at the start
# (a file whose first page says that events were lost marks #0 too)
want=$(awk '/EVENTS DROPPED\]$/ { drop = 1; next }
/ \[[0-9]+\] +[0-9]+\.[0-9]+: / { if (drop && n > 0) { print n; exit } drop = 0; n++ }' "$tmp/report")
got=$("$bin" --snapshot 120x12 --keys '/DROPPED<Enter>' "$tmp/w/drops.dat" | tail -n 1 |
	sed -n 's/.*#\([0-9]*\) of.*/\1/p')
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass "in the saved file /DROPPED selects #$want, the first row after #0 that report marks"
else
	fail "in the saved file /DROPPED selects #$got, report marks #$want first; report around its first drop: $(grep -n -m 1 -B 1 -A 2 'EVENTS DROPPED\]$' "$tmp/report" | tr '\n' '|' | head -c 600)"
	cp "$tmp/report" "${NS_KEEP_FAILED:-/dev/null}" 2>/dev/null
fi

screen_type q
exited_0() { [ "$(cat "$tmp/rc" 2>/dev/null)" = rc=0 ]; }
if screen_wait_for exited_0; then
	pass "q quits with status 0"
else
	fail "q: $(cat "$tmp/rc" 2>/dev/null)"
fi
tracing_same_state "after live -b 4"
