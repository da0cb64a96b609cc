#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Recording again from the viewer keeps the options given: `nurseshark
# record` with events, a buffer size, a clock, an instance (-B with its own
# events and size), a command with a quoted argument and an output opens
# the viewer; there Ctrl-R opens the Record screen with all of them filled
# in, and Ctrl-R records again. The oracle for what each recording really
# did is the kernel itself: the command reads the tracing files while it
# runs (buffer sizes, clock, enabled events of the top instance and of the
# instance), and both runs must read the same; `trace-cmd report` of the
# second file holds the command's marker line, the top's sched_switch and
# the instance's irq events. A recording with --duration offers that
# duration again. After each, the tracing state is as it was.
# Needs root and tracefs; SKIPs with the reason without them.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin recordagain tmux

SCREEN_TIMEOUT=30	# bounds each wait on a busy 2-CPU machine; none is a sleep
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0

w=$tmp/work inst=nsagain$$
mkdir -p "$w" "$tmp/state"
# What the recording set up, read while it runs; then the marker line.
cat >"$w/probe.sh" <<EOF
cat $T/buffer_size_kb >kb.txt
cat $T/trace_clock >clock.txt
cat $T/set_event >events.txt
cat $T/instances/$inst/buffer_size_kb >ikb.txt
cat $T/instances/$inst/set_event >ievents.txt
echo "\$1" >$T/trace_marker
EOF
mark="again $$"
env="LANG=C LC_ALL=C NO_COLOR=1 XDG_STATE_HOME='$tmp/state'"
screen_start 100 30 "cd '$w' && $env '$bin' record -e sched:sched_switch -b 2048 -C mono -B $inst -e irq -b 1024 -o first.dat -- sh probe.sh '$mark'; echo rc=\$? >'$tmp/rc'"
viewer_on() {
	tail -n 1 <<<"$SCREEN_LAST" | grep -Eq ' of [0-9]+ *$' &&
		! grep -q 'Record the running' <<<"$SCREEN_LAST"
}
if screen_wait_for viewer_on 60 && [ -s "$w/first.dat" ]; then
	pass "record wrote first.dat and opened the viewer on it"
else
	fail "record: no viewer on first.dat"
fi
probe() { (cd "$w" && for f in kb clock events ikb ievents; do echo "$f: $(cat $f.txt 2>&1)"; done); }
first=$(probe)
# the kernel rounds a size up to whole pages
if grep -Eq '^kb: 20(4[89]|5[0-9]|6[0-3])$' <<<"$first" && grep -q '^clock: .*\[mono\]' <<<"$first" &&
	grep -q '^events: sched:sched_switch$' <<<"$first" && grep -Eq '^ikb: 10(2[4-9]|3[0-9])$' <<<"$first" &&
	grep -q '^ievents: irq:' <<<"$first"; then
	pass "the first recording ran as told: $(tr '\n' ' ' <<<"$first" | cut -c 1-150)"
else
	fail "the first recording: $(tr '\n' ' ' <<<"$first")"
fi
tracing_same_state "after the first recording"

screen_keys C-r
filled() {
	grep -Eq '^ Record the running kernel: 1 of [0-9]+ events ticked' <<<"$SCREEN_LAST" &&
		grep -q '^ Buffer KB per CPU 2048 *$' <<<"$SCREEN_LAST" &&
		grep -q '^ Clock             mono *$' <<<"$SCREEN_LAST" &&
		grep -q "^ Instances (-B)    -B $inst -e irq -b 1024 *\$" <<<"$SCREEN_LAST" &&
		grep -q "^ Command (sh -c)   sh probe.sh '$mark' *\$" <<<"$SCREEN_LAST" &&
		grep -q '^ Output file       first.dat *$' <<<"$SCREEN_LAST"
}
if screen_wait_for filled; then
	pass "Ctrl-R in the viewer offers the options given: events, sizes, clock, instance, command, output"
else
	fail "the Record screen does not hold the options given: $(grep -E '^ (Record|Buffer|Clock|Instances|Command|Or dur|Output)' <<<"$SCREEN_LAST" | tr '\n' '|')"
fi

rm -f "$w"/*.txt
cp "$w/first.dat" "$tmp/first.copy"
screen_keys C-r
again_done() { viewer_on && [ -s "$w/ievents.txt" ] && ! cmp -s "$w/first.dat" "$tmp/first.copy"; }
if screen_wait_for again_done 60; then
	pass "Ctrl-R recorded again into first.dat, and the viewer opened it"
else
	fail "Ctrl-R: no second recording"
fi
second=$(probe)
if [ "$second" = "$first" ]; then
	pass "the second recording set up the kernel as the first did"
else
	fail "the second recording differs: $(diff <(echo "$first") <(echo "$second") | tr '\n' ' ')"
fi
tracing_same_state "after recording again"
if trace-cmd report "$w/first.dat" >"$tmp/report" 2>"$tmp/rerr"; then
	pass "trace-cmd report reads the new file"
else
	fail "trace-cmd report fails: $(head -c 300 "$tmp/rerr")"
fi
# the instance's lines come after its name, as report prints them
if grep -q "print: .*tracing_mark_write: $mark\$" "$tmp/report" &&
	grep -Ev "^$inst: " "$tmp/report" | grep -q ' sched_switch: ' &&
	grep -E "^$inst: " "$tmp/report" | grep -Eq ' (soft)?irq_[a-z_]+: '; then
	pass "report: the marker line with its blank, sched_switch, and the instance's irq events"
else
	fail "report lacks the marker, sched_switch or $inst's irq events"
fi
if "$bin" --export "$w/first.dat" >"$tmp/export" 2>/dev/null && cmp -s "$tmp/export" "$tmp/report"; then
	pass "--export of it equals report"
else
	fail "--export differs from report: $(diff "$tmp/export" "$tmp/report" | head -3 | tr '\n' ' ')"
fi
screen_keys q

# --duration: offered again, with no command.
screen_start 100 30 "cd '$w' && $env '$bin' record -e irq --duration 0.3 -o second.dat; echo rc=\$? >'$tmp/rc'"
if screen_wait_for viewer_on 60 && [ -s "$w/second.dat" ]; then
	pass "record --duration 0.3 opened the viewer on second.dat"
else
	fail "record --duration: no viewer"
fi
screen_keys C-r
dur_filled() {
	grep -q '^ Or duration (s)   0.3 *$' <<<"$SCREEN_LAST" &&
		grep -q '^ Command (sh -c)   (none' <<<"$SCREEN_LAST" &&
		grep -q '^ Instances (-B)    (none' <<<"$SCREEN_LAST" &&
		grep -q '^ Buffer KB per CPU (as it is)' <<<"$SCREEN_LAST" &&
		grep -q '^ Output file       second.dat *$' <<<"$SCREEN_LAST"
}
if screen_wait_for dur_filled && grep -q '^events = irq$' "$tmp/state/nurseshark/record.ini"; then
	pass "Ctrl-R offers --duration 0.3, irq, second.dat, and no command, instance or size"
else
	fail "after --duration: $(grep -E '^ (Record|\[x\]|Buffer|Clock|Instances|Command|Or dur|Output)' <<<"$SCREEN_LAST" | tr '\n' '|')"
fi
screen_keys Escape
screen_type q
tracing_same_state "after --duration"
