#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The graph's states and drops, in tmux with LANG=C and NO_COLOR, against
# trace-cmd report: a task row shows the sleep (S) between a task's
# switch-out and its wakeup as '.', and the wakeup latency up to its
# switch-in as '%'; the help's legend names them. On lost-events.dat each
# CPU row carries a '!' in exactly the columns of the events report
# follows a "[N EVENTS DROPPED]" line with, the status line counts them,
# and d / D select those rows, next and previous.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin graphstates
. "$top/tests/lib/screen.sh"

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
if ! screen_have_tmux; then
	skip "tmux is not installed"
	exit 0
fi
export TZ=UTC LC_ALL=C
cols=120 rows=30

# the column (0-based, in the graph's area) of time $1 (ns) in [$2, $3) over $4 columns
col_of() { awk -v t="$1" -v s="$2" -v e="$3" -v c="$4" 'BEGIN {
	printf "%d\n", int(((t - s + 1) * c - 1) / (e - s)) }'; }
# where the graph's columns begin: the ruler's line (the screen's second)
ruler_x() { sed -n 2p <<<"$SCREEN_LAST" | awk '{ match($0, /[-+]/); print RSTART - 1 }'; }
# seconds with 9 decimals as report -t prints them, to ns
to_ns() { awk -v t="$1" 'BEGIN { split(t, p, "."); f = substr(p[2] "000000000", 1, 9)
	printf "%d%s\n", p[1], f }'; }

# ---- task states: a sleep and a wakeup latency of work2.sh-15974 ----------
report=$(trace-cmd report -t -i "$sample" 2>/dev/null)
out=$(grep -m1 -E 'sched_switch: +work2\.sh:15974 \[120\] S ==>' <<<"$report" |
	awk '{ sub(":", "", $3); print $3 }')
w=$(awk -v o="$out" '$3 + 0 > o + 0 && /sched_wakeup: +work2\.sh:15974 / {
	sub(":", "", $3); print $3; exit }' <<<"$report")
in=$(awk -v o="$w" '$3 + 0 > o + 0 && /sched_switch: .*==> work2\.sh:15974 / {
	sub(":", "", $3); print $3; exit }' <<<"$report")
if [ -z "$out" ] || [ -z "$w" ] || [ -z "$in" ]; then
	fail "report shows no sleep, wakeup and switch-in of work2.sh-15974"
	exit 0
fi
screen_start $cols $rows "LANG=C NO_COLOR=1 $bin $sample"
screen_type "/:15974 [120] S ==>"
screen_keys Enter
screen_type "R++++++++"
if ! screen_wait '^work2\.sh-15974 +\|.*\.\.\.'; then
	fail "no task row with a sleep: $(screen_dump)"
	exit 0
fi
screen_wait 'Window: [0-9.]+-[0-9.]+ ' >/dev/null
row=$(grep -E '^work2\.sh-15974 ' <<<"$SCREEN_LAST")
label_w=$(ruler_x)
gw=$((cols - label_w))
# the window, to the ns: the status of the list names it with 6 decimals only,
# so each check takes a column well inside its span
win=$(sed -n 's/.*Window: \([0-9.]*\)-\([0-9.]*\) .*/\1 \2/p' <<<"$SCREEN_LAST")
ws=$(to_ns "${win% *}") we=$(to_ns "${win#* }")
o_ns=$(to_ns "$out") w_ns=$(to_ns "$w") i_ns=$(to_ns "$in")
check_span() {
	local a=$1 b=$2 glyph=$3 what=$4 ca cb c ch
	ca=$(col_of "$a" "$ws" "$we" "$gw")
	cb=$(col_of "$b" "$ws" "$we" "$gw")
	if [ $((cb - ca)) -lt 3 ]; then
		skip "$what spans less than 3 columns at this zoom"
		return
	fi
	c=$(((ca + cb) / 2))
	ch=${row:$((label_w + c)):1}
	[ "$ch" = "$glyph" ] && pass "$what: '$glyph' in the middle of its columns ($ca-$cb)" ||
		fail "$what: column $c shows '$ch', want '$glyph': $row"
}
check_span "$o_ns" "$w_ns" . "asleep (S) from report's switch-out at $out to its wakeup at $w"
# closer, from the wakeup on
screen_type "/work2.sh:15974 [120] CPU"
screen_keys Enter
screen_type "+++++"
screen_wait 'Window: [0-9.]+-[0-9.]+ \(0\.000[0-9]+ s\)' >/dev/null
row=$(grep -E '^work2\.sh-15974 ' <<<"$SCREEN_LAST")
win=$(sed -n 's/.*Window: \([0-9.]*\)-\([0-9.]*\) .*/\1 \2/p' <<<"$SCREEN_LAST")
ws=$(to_ns "${win% *}") we=$(to_ns "${win#* }")
check_span "$w_ns" "$i_ns" % "wakeup latency from $w to the switch-in at $in"
# tall enough for the whole help
screen_resize $cols 200
screen_keys F1
if screen_wait_all '% runnable after a wakeup' '\. sleeping \(S\)' '_ uninterruptible \(D\)' '~ preempted'
then
	pass "the help's legend gives each state its ASCII glyph"
else
	fail "no legend in the help: $(screen_dump)"
fi

# ---- drops on lost-events.dat ---------------------------------------------------
lost=$top/tests/data/lost-events.dat
trace-cmd report -t -i "$lost" 2>/dev/null | awk '
/EVENTS DROPPED\]/ { drop = 1; next }
/ \[[0-9]+\] +[0-9]+\.[0-9]+: / {
	if (drop) { c = $0; sub(/.*\[/, "", c); sub(/\].*/, "", c); t = $0
		sub(/.*\] +/, "", t); sub(/:.*/, "", t); print n, c + 0, t }
	drop = 0; n++ }' >"$tmp/drops"
first=$(trace-cmd report -t -i "$lost" 2>/dev/null | awk '/ \[[0-9]+\] +[0-9.]+: / {
	t = $0; sub(/.*\] +/, "", t); sub(/:.*/, "", t); print t; exit }')
last=$(trace-cmd report -t -i "$lost" 2>/dev/null | tail -n 1 | awk '{
	t = $0; sub(/.*\] +/, "", t); sub(/:.*/, "", t); print t }')
nr=$(wc -l <"$tmp/drops")
screen_start $cols $rows "LANG=C NO_COLOR=1 $bin $lost"
screen_wait ' #0 of ' >/dev/null
if grep -qE " $nr drops +#0 of " <<<"$SCREEN_LAST"; then
	pass "the status line counts report's $nr DROPPED lines in the window"
else
	fail "no '$nr drops' in the status: $(tail -n 1 <<<"$SCREEN_LAST")"
fi
fs=$(to_ns "$first") fe=$(($(to_ns "$last") + 1))
bad=
for cpu in $(cut -d' ' -f2 "$tmp/drops" | sort -u); do
	row=$(grep -E "^CPU$cpu " <<<"$SCREEN_LAST")
	label_w=$(ruler_x)
	gw=$((cols - label_w))
	want=$(awk -v c="$cpu" '$2 == c { print $3 }' "$tmp/drops" | while read -r t; do
		col_of "$(to_ns "$t")" "$fs" "$fe" "$gw"; done | sort -n -u | tr '\n' ' ')
	got=$(awk -v w="$label_w" '{ s = substr($0, w + 1); for (i = 1; i <= length(s); i++)
		if (substr(s, i, 1) == "!") printf "%d ", i - 1 }' <<<"$row")
	[ "$got" = "$want" ] || bad="$bad CPU$cpu: '!' at $got, report's drops at $want;"
done
[ -z "$bad" ] && pass "each CPU row has a '!' exactly in the columns of report's drops" ||
	fail "$bad"
sel() { sed -n 's/.* #\([0-9]*\) of.*/\1/p' <<<"$(tail -n 1 <<<"$SCREEN_LAST")"; }
want1=$(sed -n 1p "$tmp/drops" | cut -d' ' -f1) want2=$(sed -n 2p "$tmp/drops" | cut -d' ' -f1)
want3=$(sed -n 3p "$tmp/drops" | cut -d' ' -f1)
screen_type d
screen_wait " #$want1 of " >/dev/null
[ "$(sel)" = "$want1" ] && pass "d selects #$want1, report's first row after a drop" ||
	fail "d: #$(sel), want #$want1"
screen_type dd
screen_wait " #$want3 of " >/dev/null
[ "$(sel)" = "$want3" ] && pass "d twice more: #$want3, the third" ||
	fail "d d d: #$(sel), want #$want3"
screen_type D
screen_wait " #$want2 of " >/dev/null
[ "$(sel)" = "$want2" ] && pass "D goes back to #$want2, the second" ||
	fail "D: #$(sel), want #$want2"
