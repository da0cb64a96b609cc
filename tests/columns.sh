#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The list's Event column is as wide as the longest event name on screen:
# at 80 and 60 columns, at several places in the trace, every row's Event
# column holds the whole name `trace-cmd report` prints for that event
# (sched_process_exec is never cut to sched_process_), and at 60 the
# columns that make room for it (Lat, CPU, PID) are gone from the header.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin columns

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle for the event names"
	exit 0
fi
export TZ=UTC
trace-cmd report -i "$sample" 2>/dev/null | tail -n +2 |
	sed -E 's/^.* [0-9]+\.[0-9]+: ([^:]+):.*$/\1/' >"$tmp/names"
[ "$(wc -l <"$tmp/names")" -eq 91631 ] || fail "trace-cmd report: $(wc -l <"$tmp/names") lines"

# check SIZE KEYS: each list row's Event column against report's name for its event
check() {
	local size=$1 keys=$2 screen start end rows=0 bad=0 n name want

	screen=$(LC_ALL=C "$bin" --snapshot "$size" ${keys:+--keys "$keys"} "$sample" </dev/null)
	# the column spans from "Event" up to the blank before "Info" (or the edge)
	start=$(grep -m1 -E '^ +# ' <<<"$screen" | awk '{ print index($0, " Event") }')
	end=$(grep -m1 -E '^ +# ' <<<"$screen" | awk '{ i = index($0, " Info"); print i ? i : 1000 }')
	if [ -z "$start" ] || [ "$start" -eq 0 ]; then
		fail "$size ${keys:-(start)}: no Event column in the header"
		return
	fi
	while read -r n; do
		line=$(grep -m1 -E "^ *$n " <<<"$screen")
		name=$(cut -c "$((start + 1))-$((end - 1))" <<<"$line" | tr -d ' ')
		want=$(sed -n "$((n + 1))p" "$tmp/names")
		rows=$((rows + 1))
		if [ "$name" != "$want" ]; then
			bad=$((bad + 1))
			echo "    row $n: '$name', report: '$want'"
		fi
	done < <(awk 'seen && /^ *[0-9]+ / { print $1 } /^ +# / { seen = 1 }' <<<"$screen")
	if [ "$rows" -ge 1 ] && [ "$bad" -eq 0 ]; then
		pass "$size ${keys:-(start)}: the $rows rows' event names are whole, as report's"
	else
		fail "$size ${keys:-(start)}: $bad of $rows event names differ from report's"
	fi
}

for size in 80x24 60x20 100x30; do
	for keys in "" "<C-f><C-f>" "/event=sched_process_exec<Enter>" "G"; do
		check "$size" "$keys"
	done
done
header=$(LC_ALL=C "$bin" --snapshot 60x20 "$sample" </dev/null | grep -m1 -E '^ +# ')
if [[ $header != *Lat* ]] && [[ $header != *CPU* ]] && [[ $header == *Task*Event* ]]; then
	pass "60x20: Lat and CPU make room for the event names (header '$header')"
else
	fail "60x20: want Lat and CPU gone for the names, header '$header'"
fi
