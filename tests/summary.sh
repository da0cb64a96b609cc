#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# nurseshark --summary from the outside: the tables and their columns as the
# man page promises them (scripts depend on them), the event counts against
# `trace-cmd report` (whole trace, a range to the nanosecond, --cpu, -F), the
# filters of the task and CPU tables, and bad input (a clear error, exit 2,
# nothing on stdout). The numbers themselves are checked against report -w,
# report --profile and libtracecmd in tests/unit/test_sched.c.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin summary

trace=$sample
sum=$tmp/sum.tsv

# table NAME FILE: the rows of table NAME (header line included)
table() {
	awk -v want="# $1" '/^# / { on = ($0 == want); next } on' "$2"
}

if ! "$bin" --summary "$trace" >"$sum" 2>"$tmp/err"; then
	fail "--summary runs: $(head -c 300 "$tmp/err")"
	exit 0
fi

# The tables, in order, and their columns, exactly.
got=$(grep '^# ' "$sum" | tr '\n' ' ')
want='# range # tasks # cpus # events # latency '
[ "$got" = "$want" ] && pass "the tables, in order: $want" ||
	fail "the tables: want '$want', got '$got'"
hdr() { table "$1" "$sum" | head -n 1; }
tab=$'\t'
check_header() {
	local name=$1 want=$2
	[ "$(hdr "$name")" = "${want// /$tab}" ] && pass "# $name columns: $want" ||
		fail "# $name columns: want '$want', got '$(hdr "$name")'"
}
check_header tasks "pid comm cpu_ns runs runnable_ns sleep_ns blocked_ns wakeups\
 wakeup_avg_ns wakeup_max_ns wakeup_max_ts waking_avg_ns waking_max_ns"
check_header cpus 'cpu busy_ns idle_ns busy_share idle_share switches drops lost_events events stream'
check_header events 'system event count'
check_header latency 'kind count avg_ns min_ns min_ts max_ns max_ts'
check_header range 't0 t1 span_ns'

# Every row has as many fields as its header; numbers where numbers go.
bad=$(awk -F'\t' '
	/^# / { name = $0; hdr = 1; next }
	hdr { n = NF; hdr = 0; next }
	NF != n { print name ": " $0; next }
	name == "# tasks" && ($1 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ ||
		$11 !~ /^([0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]|-)$/) { print name ": " $0 }
	name == "# cpus" && ($4 !~ /^[01]\.[0-9][0-9][0-9][0-9]$/) { print name ": " $0 }
' "$sum" | head -n 3)
[ -z "$bad" ] && pass "every row has its header's columns and their formats" ||
	fail "rows that do not fit their header: $bad"
n=$(($(table tasks "$sum" | wc -l) - 1))
[ "$n" -gt 100 ] && pass "a row per task ($n)" || fail "too few task rows: $n"

# The event table counts what report prints, per event name.
report_counts() {	# ARGS: report's options; prints "NAME COUNT" sorted
	trace-cmd report "$@" 2>/dev/null |
		sed -nE 's/^.*\[[0-9]+\] +[0-9]+\.[0-9]+: ([A-Za-z0-9_]+):.*$/\1/p' |
		sort | uniq -c | awk '{ print $2, $1 }' | sort
}
differ() {
	diff "$tmp/ours" "$tmp/theirs" | head -n 4 | tr '\n' ' '
}
ours_counts() {	# FILE
	table events "$1" | tail -n +2 | awk -F'\t' '{ print $2, $3 }' | sort
}
if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle for the event counts"
else
	report_counts -i "$trace" >"$tmp/theirs"
	ours_counts "$sum" >"$tmp/ours"
	if [ -s "$tmp/ours" ] && cmp -s "$tmp/ours" "$tmp/theirs"; then
		pass "# events: the event names' counts of report ($(wc -l <"$tmp/ours") types)"
	else
		fail "# events differs from trace-cmd report: $(differ)"
	fi

	# A range given to the nanosecond: report -t's lines with t0 <= ts < t1.
	t0=10172.500000001 t1=10172.750000999
	"$bin" --summary --range "$t0,$t1" "$trace" >"$tmp/range.tsv"
	trace-cmd report -t -i "$trace" 2>/dev/null |
		sed -nE 's/^.*\[[0-9]+\] +([0-9]+)\.([0-9]{9}): ([A-Za-z0-9_]+):.*$/\1\2 \3/p' |
		awk -v a="${t0/./}" -v b="${t1/./}" '$1 >= a && $1 < b { print $2 }' |
		sort | uniq -c | awk '{ print $2, $1 }' | sort >"$tmp/theirs"
	ours_counts "$tmp/range.tsv" >"$tmp/ours"
	if [ -s "$tmp/ours" ] && cmp -s "$tmp/ours" "$tmp/theirs"; then
		pass "--range $t0,$t1: # events counts report -t's lines in [T0, T1)"
	else
		fail "--range: # events differs: $(differ)"
	fi
	# Several streams (tests/data/instance.dat, top and "extra"): a row per CPU
	# of each buffer, named by its number in the buffer and the buffer, its
	# events report's lines of that buffer's CPU ("extra: ... [001]").
	"$bin" --summary "$top/tests/data/instance.dat" >"$tmp/inst.tsv"
	table cpus "$tmp/inst.tsv" | tail -n +2 | awk -F'\t' '{ print $10, $1, $9 }' >"$tmp/ours"
	trace-cmd report "$top/tests/data/instance.dat" 2>/dev/null |
		sed -nE 's/^(([A-Za-z0-9_.-]+): )? *.*\[0*([0-9]+)\] +[0-9]+\.[0-9]+: .*$/\2 \3/p' |
		awk '{ if (NF == 1) { $2 = $1; $1 = "top" } print }' | sort | uniq -c |
		awk '{ print $2, $3, $1 }' | sort -s -k1,1r >"$tmp/theirs"
	if [ "$(cut -d' ' -f1,2 "$tmp/ours" | tr '\n' ,)" = "top 0,top 1,extra 0,extra 1," ] &&
		cmp -s "$tmp/ours" "$tmp/theirs"; then
		pass "instance.dat: # cpus has top 0, top 1, extra 0, extra 1, each with report's events"
	else
		fail "instance.dat: # cpus (stream cpu events): $(tr '\n' , <"$tmp/ours"), report: $(tr '\n' , <"$tmp/theirs")"
	fi
	row=$(table range "$tmp/range.tsv" | tail -n 1)
	[ "$row" = "$t0${tab}$t1${tab}250000998" ] &&
		pass "--range with nanoseconds prints them: $row" ||
		fail "--range row: '$row'"

	# --cpu and -F narrow the events table as they narrow report.
	"$bin" --summary --cpu 1 "$trace" >"$tmp/cpu1.tsv"
	report_counts --cpu 1 -i "$trace" >"$tmp/theirs"
	ours_counts "$tmp/cpu1.tsv" >"$tmp/ours"
	cmp -s "$tmp/ours" "$tmp/theirs" && pass "--cpu 1: # events counts report --cpu 1" ||
		fail "--cpu 1: # events differs: $(differ)"
	rows=$(table cpus "$tmp/cpu1.tsv" | tail -n +2 | cut -f1 | tr '\n' ' ')
	[ "$rows" = "1 " ] && pass "--cpu 1: # cpus has CPU 1 only" ||
		fail "--cpu 1: # cpus rows: '$rows'"
	f='sched/sched_switch: prev_pid == 0'
	"$bin" --summary -F "$f" "$trace" >"$tmp/f.tsv"
	report_counts -F "$f" -i "$trace" >"$tmp/theirs"
	ours_counts "$tmp/f.tsv" >"$tmp/ours"
	if [ -s "$tmp/ours" ] && cmp -s "$tmp/ours" "$tmp/theirs"; then
		pass "-F '$f': # events counts report -F's lines ($(cat "$tmp/ours"))"
	else
		fail "-F: # events differs: $(differ)"
	fi
fi

# --pid keeps that task's row, the same as without the filter.
pid=$(table tasks "$sum" | awk -F'\t' 'NR > 1 && $1 > 0 { print $1; exit }')
"$bin" --summary --pid "$pid" "$trace" >"$tmp/pid.tsv"
got=$(table tasks "$tmp/pid.tsv" | tail -n +2)
want=$(table tasks "$sum" | awk -F'\t' -v p="$pid" '$1 == p')
[ -n "$want" ] && [ "$got" = "$want" ] && pass "--pid $pid: only its row, as without the filter" ||
	fail "--pid $pid: got '$got', want '$want'"

# A range past the trace's end: empty tables, a span of 0, no error.
"$bin" --summary --range 99999,100000 "$trace" >"$tmp/past.tsv" 2>"$tmp/err"
rc=$?
span=$(table range "$tmp/past.tsv" | tail -n 1 | cut -f3)
n=$(($(table tasks "$tmp/past.tsv" | wc -l) + $(table events "$tmp/past.tsv" | wc -l)))
[ "$rc" -eq 0 ] && [ "$span" = 0 ] && [ "$n" -eq 2 ] &&
	pass "--range past the trace's end: no rows, a span of 0" ||
	fail "--range past the end: status $rc, span '$span', $n lines"

# Bad input: a clear line on stderr, exit status 2 (1 for the file), no tables.
for r in x 5 10172.5,10172.4 ,,, 1.0000000001,2 -1,2; do
	"$bin" --summary --range "$r" "$trace" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "--range" "$tmp/err"; then
		pass "--range '$r' is refused: $(head -n 1 "$tmp/err")"
	else
		fail "--range '$r': status $rc, stdout $(wc -c <"$tmp/out") bytes," \
			"stderr '$(head -c 200 "$tmp/err")'"
	fi
done
"$bin" --summary "$tmp/none.dat" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "none.dat" "$tmp/err" &&
	pass "a missing file: status 1 and its name on stderr" ||
	fail "a missing file: status $rc, stderr '$(head -c 200 "$tmp/err")'"
"$bin" --summary --pid 1x "$trace" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && pass "--pid 1x is refused: $(head -n 1 "$tmp/err")" ||
	fail "--pid 1x: status $rc"
