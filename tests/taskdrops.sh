#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Task states across lost events (issue 11), on lost-events.dat against
# trace-cmd report: a task switched out asleep (S) before a "[N EVENTS
# DROPPED]" line and woken after it shows as sleeping ('.') from its
# switch-out up to the dropping CPU's last event before the loss, and as
# not known ('?') from there to its wakeup, never as sleeping across the
# gap; the bar's context says "dropped" there; the help's legend names '?';
# --summary counts the sleep up to the loss only.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin taskdrops

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
lost=$top/tests/data/lost-events.dat

# The first task report shows switched out in S, then a DROPPED line (any
# CPU) before its next sched_waking or sched_wakeup, where the loss cuts the
# sleep in a known tenth or more and the rest: "pid row_out ts_out lo
# row_wake ts_wake", times in ns, rows counted from 0.
trace-cmd report -R -t "$lost" 2>/dev/null | awk '
function ns(t,  p) { split(t, p, "."); return p[1] * 1000000000 + substr(p[2] "000000000", 1, 9) }
/EVENTS DROPPED\]/ {
	c = $0; sub(/^CPU:/, "", c); c += 0
	for (p in out) if (!(p in lo)) lo[p] = last[c]
	next
}
/ \[[0-9]+\] +[0-9]+\.[0-9]+: / {
	c = $0; sub(/^[^[]*\[/, "", c); sub(/\].*/, "", c); c += 0
	t = $0; sub(/^[^]]*\] +/, "", t); sub(/:.*/, "", t); ts = ns(t)
	last[c] = ts
	if (/ sched_switch: / && / prev_state=1 /) {
		p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
		out[p] = ts; orow[p] = n; delete lo[p]
	} else if (/ sched_wak(ing|eup): /) {
		p = $0; sub(/.* pid=/, "", p); sub(/ .*/, "", p)
		if ((p in out) && (p in lo) && (lo[p] - out[p]) * 10 >= ts - out[p] &&
		    (ts - lo[p]) * 2 >= ts - out[p]) {
			printf "%s %d %.0f %.0f %d %.0f\n", p, orow[p], out[p], lo[p], n, ts
			exit
		}
		delete out[p]; delete lo[p]
	}
	n++
}' >"$tmp/case"
read -r pid row_out ts_out lo row_wake ts_wake <"$tmp/case"
if [ -z "${ts_wake:-}" ]; then
	fail "report shows no sleep cut by a DROPPED line in $lost"
	exit 0
fi

# Markers A on the switch-out, B on the wakeup, the window zoomed to them,
# the task's row added: its columns from A to B.
cols=120
s=$(LANG=C NO_COLOR=1 "$bin" --snapshot ${cols}x30 \
	--keys ":$row_wake<Enter>b:$row_out<Enter>aRr" "$lost" </dev/null)
row=$(grep -E "^[^ ]+-$pid +\|" <<<"$s")
if [ -z "$row" ]; then
	fail "no task row of pid $pid: $(head -n 6 <<<"$s")"
	exit 0
fi
# the graph starts at the marker line of A ('|'); B's line is the last column
label_w=$(awk '{ print index($0, "|") - 1 }' <<<"$row")
gw=$((cols - label_w))
inner=${row:$((label_w + 1)):$((gw - 2))}
# column of time t in [ts_out, ts_wake] over gw columns
col_of() { awk -v t="$1" -v s="$ts_out" -v e="$ts_wake" -v c="$gw" 'BEGIN {
	printf "%d\n", int((t - s) * c / (e - s)) }'; }
cut=$(col_of "$lo")
known=$(expr "$inner" : '\(\.*\)')
rest=${inner:${#known}}
if [[ "$rest" =~ ^\?+$ ]] && [ ${#known} -ge 2 ] && [ $((${#known} + 1 - cut)) -le 1 ] &&
	[ $((cut - ${#known} - 1)) -le 1 ]; then
	pass "pid $pid: '.' (asleep) from its switch-out to the last event before the loss (column $cut), then '?' to its wakeup: '$inner'"
else
	fail "pid $pid: want '.' up to column $cut then '?' to the end: '$inner'"
fi

# the bar's context of the sched_waking after the loss: its task's state then
s=$("$bin" --snapshot 200x12 --keys ":$row_wake<Enter>" "$lost" </dev/null)
bar=$(grep -E 'B-A: ' <<<"$s")
if grep -q ' sched_waking ' <<<"$s" && grep -qE "pid $pid dropped\$" <<<"$bar"; then
	pass "the bar on the sched_waking after the loss: 'pid $pid dropped', not sleeping"
else
	fail "the bar on row $row_wake: want 'pid $pid dropped': $bar"
fi

s=$(LANG=C "$bin" --snapshot 120x200 --keys "<F1>" "$lost" </dev/null)
if grep -q '? not known: events lost' <<<"$s"; then
	pass "the help's legend names '?': not known, events lost"
else
	fail "no '? not known: events lost' in the help's legend"
fi

# --summary over [switch-out, wakeup]: asleep up to the loss, no more.
sec() { printf '%d.%09d\n' $(($1 / 1000000000)) $(($1 % 1000000000)); }
sleep_ns=$("$bin" --summary --range "$(sec "$ts_out"),$(sec $((ts_wake + 1)))" --pid "$pid" \
	"$lost" | awk -F'\t' '/^# / { on = ($0 == "# tasks"); next } on && $1 == '"$pid"' { print $6 }')
want=$((lo - ts_out))
[ "$sleep_ns" = "$want" ] &&
	pass "--summary: pid $pid's sleep_ns is $want, up to the loss, not to its wakeup" ||
	fail "--summary: pid $pid's sleep_ns '$sleep_ns', want $want"
