#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every buffer of a file: a trace recorded with instances (trace-cmd record
# -B NAME) is read whole, top buffer and instances merged in time order,
# and --export prints exactly what `trace-cmd report` prints, with its
# "NAME: " prefix on each instance's line, also with -F filters and for a
# buffer with fewer CPUs or lost events, and for v6 files; --buffer picks
# buffers; the status line counts every event; the graph labels an
# instance's CPU rows "NAME CPUn" (read back from the screen in tmux). tests/data/instance.dat
# always; a trace with two instances recorded here when we may record
# (root, tracefs, ../shared/tools/record-trace), else those checks SKIP.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin streams tmux

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
inst=$top/tests/data/instance.dat
shared=${NS_SHARED:-$top/../shared}

# same NAME REPORT-FILE ARGS...: `nurseshark --export ARGS` prints REPORT-FILE.
same() {
	local name=$1 want=$2 rc=0
	shift 2
	"$bin" --no-session --export "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit status $rc: $(head -n 1 "$tmp/err")"
	elif ! cmp -s "$want" "$tmp/out"; then
		fail "$name: differs ($(wc -l <"$tmp/out") vs $(wc -l <"$want") lines):
$(diff "$want" "$tmp/out" | head -n 6)"
	else
		pass "$name ($(wc -l <"$want") lines)"
	fi
}

# report FILE ARGS...: trace-cmd report's output in $tmp/report.
report() {
	trace-cmd report "$@" >"$tmp/report" 2>/dev/null
}

# The count in the status line of a snapshot ("#0 of N").
count() {
	"$bin" --no-session --snapshot 100x12 "$@" | tail -n 1 | sed -n 's/.*#[0-9]* of \([0-9]*\).*/\1/p'
}

# events: report's event lines (not its header or lost-events lines)
events() {
	grep -Evc '^cpus=|^ *[A-Za-z0-9_.-]*:? *CPU:[0-9]+ \[' "$1"
}

# --- tests/data/instance.dat: the top buffer and "extra" --------------------
report "$inst"
if ! grep -q '^extra: ' "$tmp/report"; then
	fail "instance.dat: report shows no line of the buffer extra"
	exit 0
fi
same "instance.dat: --export equals trace-cmd report, instance lines and all" "$tmp/report" "$inst"
n=$(events "$tmp/report")
got=$(count "$inst")
[ "$got" = "$n" ] && pass "instance.dat: the status line counts all $n events of both buffers" ||
	fail "instance.dat: status line counts '$got', report prints $n events"
# trace-cmd report 3.1.6 -F on a file with instances crashes (SIGSEGV)
# part way: the oracle is its unfiltered report, cut to those events.
# records < REPORT: report's lines, a lost-events line joined by a \001 to
# the event line after it (which then has no prefix of its own).
records() {
	awk '/^ *([A-Za-z0-9_.-]+: )?CPU:[0-9]+ \[([0-9]+ )?EVENTS DROPPED\]$/ { hold = $0 "\001"; next }
	{ print hold $0; hold = "" }'
}
# only EVENTS FILE: report's lines of those events (and its header)
only() {
	local re=$1
	trace-cmd report "$2" 2>/dev/null | records |
		grep -aE "^cpus=|\] +[0-9]+\.[0-9]+: ($re): " | tr '\001' '\n' >"$tmp/want"
}
only 'sched_switch|softirq_raise' "$inst"
same "instance.dat: -F over both buffers as report's lines of those events" "$tmp/want" \
	-F sched_switch -F softirq_raise "$inst"
report "$inst"
{ head -n 1 "$tmp/report"; records <"$tmp/report" | grep -a '^extra: ' | tr '\001' '\n'; } >"$tmp/want"
same "instance.dat: --buffer extra: only extra's lines of report" "$tmp/want" --buffer extra "$inst"
records <"$tmp/report" | grep -av '^extra: ' | tr '\001' '\n' >"$tmp/want"
same "instance.dat: --buffer top: only the top buffer's lines of report" "$tmp/want" --buffer top "$inst"
report --cpu 1 "$inst"
same "instance.dat: --cpu 1 as report --cpu 1 (which keeps the top buffer's CPU 1)" \
	"$tmp/report" --cpu 1 "$inst"
rc=0
"$bin" --no-session --export --buffer nosuch "$inst" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" = 1 ] && grep -q "no buffer named 'nosuch'" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	pass "--buffer nosuch: exit status 1, says no buffer is named so"
else
	fail "--buffer nosuch: status $rc, stderr '$(head -n 1 "$tmp/err")'"
fi

# --- the screen: stream-labelled CPU rows, the list's stream column ----------
report "$inst"
screen_start 80 24 "$bin --no-session $inst"
if screen_wait '^extra CPU0 +[|│]' && screen_wait '^extra CPU1 +[|│]' && screen_wait '^CPU1 +[|│]'; then
	pass "screen: the graph has rows CPU0, CPU1, extra CPU0, extra CPU1 at 80 columns"
else
	fail "screen: no rows labelled 'extra CPU0' and 'extra CPU1'"
fi
# the first extra line of report is the list's row N
first=$(grep -Ev '^cpus=' "$tmp/report" | grep -n '^extra: ' | head -n 1 | cut -d: -f1)
first=$((first - 1))
screen_type ":$first"
screen_keys Enter
if screen_wait "^ *$first extra:[01] "; then
	pass "screen: list row #$first, report's first extra line, shows its CPU as extra:N"
else
	fail "screen: row #$first is not shown as a CPU of extra"
fi
screen_stop

# --- a trace with two instances, one of 1 CPU and one with lost events -------
rec=$shared/tools/record-trace
if [ "$(id -u)" != 0 ] || [ ! -x "$rec" ]; then
	skip "recorded instances: needs root and $rec"
	exit 0
fi
if ! (cd "$tmp" && NS_INSTANCES="nsb1 nsb2" timeout 60 "$rec" -q -e sched:sched_switch \
	-e sched:sched_wakeup -B nsb1 -b 4 -e irq -e timer -e syscalls -B nsb2 -M 1 -e timer \
	-o multi.dat sh -c 'for i in 1 2 3; do ls -R /usr/share >/dev/null; done') \
	>"$tmp/rec.log" 2>&1; then
	skip "recorded instances: record-trace failed: $(tail -n 1 "$tmp/rec.log")"
	exit 0
fi
multi=$tmp/multi.dat
report "$multi"
if grep -q '^nsb1: ' "$tmp/report" && grep -q '^nsb2: ' "$tmp/report"; then
	same "recorded: --export of top, nsb1 and nsb2 (1 CPU) equals report" "$tmp/report" "$multi"
	if grep -q '^nsb1: CPU:[0-9] \[' "$tmp/report"; then
		pass "recorded: report marks nsb1's lost events with its prefix ('nsb1: CPU:N [... DROPPED]')"
	else
		skip "recorded: nsb1 lost no events this time"
	fi
	n=$(events "$tmp/report")
	got=$(count "$multi")
	[ "$got" = "$n" ] && pass "recorded: the status line counts all $n events" ||
		fail "recorded: status line counts '$got', report prints $n"
	# with every event that names tasks (as report's sched plugin learns them) shown
	only 'hrtimer_start|sched_wakeup|sched_switch' "$multi"
	same "recorded: -F hrtimer_start (3 buffers) and the sched events as report's lines of those" \
		"$tmp/want" -F 'timer/hrtimer_start' -F sched_wakeup -F sched_switch "$multi"
	report "$multi"
	records <"$tmp/report" | grep -av '^nsb1: ' | tr '\001' '\n' >"$tmp/want"
	same "recorded: --buffer top --buffer nsb2 (1 CPU of 2) as report without nsb1's lines" \
		"$tmp/want" --buffer nsb2 --buffer top "$multi"
	got=$("$bin" --no-session --snapshot 80x24 "$multi" | grep -c '^nsb2 CPU')
	[ "$got" = 1 ] && pass "recorded: one graph row for nsb2's one CPU" ||
		fail "recorded: $got rows for nsb2, want 1"
else
	fail "recorded: report shows no lines of nsb1 or nsb2"
fi

# --- an instance with a clock of its own (-C counter: its times are counts) ---
if (cd "$tmp" && NS_INSTANCES="nsc1" timeout 60 "$rec" -q -C local -e sched:sched_switch \
	-B nsc1 -C counter -e irq -o clock.dat sh -c 'ls -R /usr/share >/dev/null') \
	>"$tmp/rec.log" 2>&1; then
	report "$tmp/clock.dat"
	if grep -q '^nsc1: ' "$tmp/report"; then
		same "recorded: an instance on the counter clock, the top on local, as report" \
			"$tmp/report" "$tmp/clock.dat"
	else
		fail "recorded: report shows no line of nsc1"
	fi
else
	skip "recorded: an instance with its own clock: record-trace failed: $(tail -n 1 "$tmp/rec.log")"
fi

# --- v6 (trace-cmd record --file-version 6): instances read by our page reader --
# A v6 BUFFER option gives only where the instance's own "flyrecord" CPU
# table is; the top buffer alone would be a short trace.
if (cd "$tmp" && NS_INSTANCES="nsb1 nsb2" timeout 60 "$rec" -q \
	--file-version 6 --compression none -e sched:sched_switch -e sched:sched_wakeup \
	-B nsb1 -b 4 -e irq -e timer -B nsb2 -M 1 -e timer \
	-o v6.dat sh -c 'for i in 1 2 3; do ls -R /usr/share >/dev/null; done') \
	>"$tmp/rec.log" 2>&1; then
	v6=$tmp/v6.dat
	report "$v6"
	if [ "$(head -c 12 "$v6" | tail -c 2)" != 6 ]; then
		fail "v6: the recording is not a v6 file"
	elif grep -q '^nsb1: ' "$tmp/report" && grep -q '^nsb2: ' "$tmp/report"; then
		same "v6: --export of top, nsb1 and nsb2 equals report" "$tmp/report" "$v6"
		n=$(events "$tmp/report")
		got=$(count "$v6")
		[ "$got" = "$n" ] && pass "v6: the status line counts all $n events of 3 buffers" ||
			fail "v6: status line counts '$got', report prints $n"
		records <"$tmp/report" | grep -a '^nsb2: ' | tr '\001' '\n' >"$tmp/want"
		{ head -n 1 "$tmp/report"; cat "$tmp/want"; } >"$tmp/want2"
		same "v6: --buffer nsb2 as report's nsb2 lines" "$tmp/want2" --buffer nsb2 "$v6"
		"$bin" --no-session --snapshot 80x24 "$v6" >"$tmp/snap"
		if grep -q '^CPU0 ' "$tmp/snap" && grep -q '^nsb1 CPU0 ' "$tmp/snap" &&
			grep -q '^nsb1 CPU1 ' "$tmp/snap" && grep -q '^nsb2 CPU0 ' "$tmp/snap"; then
			pass "v6: the graph has rows of every buffer (CPU0, nsb1 CPU0/1, nsb2 CPU0)"
		else
			fail "v6: the graph lacks a buffer's rows: $(grep -o '^[a-z0-9 ]*CPU[0-9]' "$tmp/snap" | tr '\n' ,)"
		fi
		# an instance's CPU table damaged: a clear error, never the top buffer alone
		cp "$v6" "$tmp/bad.dat"
		at=$(grep -abo flyrecord "$tmp/bad.dat" | tail -n 1 | cut -d: -f1)
		printf 'XXXXXXXXX' | dd of="$tmp/bad.dat" bs=1 seek="$at" conv=notrunc 2>/dev/null
		rc=0
		"$bin" --no-session --export "$tmp/bad.dat" >"$tmp/out" 2>"$tmp/err" || rc=$?
		if [ "$rc" = 1 ] && grep -q 'damaged CPU table of buffer nsb' "$tmp/err" && [ ! -s "$tmp/out" ]; then
			pass "v6: a damaged instance table: exit status 1, '$(head -n 1 "$tmp/err")'"
		else
			fail "v6: a damaged instance table: status $rc, $(wc -l <"$tmp/out") lines, stderr '$(head -n 1 "$tmp/err")'"
		fi
	else
		fail "v6: report shows no lines of nsb1 or nsb2"
	fi
else
	skip "v6: record-trace failed: $(tail -n 1 "$tmp/rec.log")"
fi
