#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The detail view (Enter in the list, i anywhere) against trace-cmd report:
# for events across the trace, its first lines are report's whole line for
# that event (wrapped), every field `trace-cmd report -R` prints is there
# with the same value, the latency flags of report's column are spelled out,
# it fits 80x24 (nothing past the edges, the status line kept), it scrolls,
# and a key that is not its own closes it.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin detail

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
trace-cmd report -i "$sample" 2>/dev/null | tail -n +2 >"$tmp/report"
trace-cmd report -R -i "$sample" 2>/dev/null | tail -n +2 >"$tmp/raw"
trace-cmd report -l -i "$sample" 2>/dev/null | tail -n +2 >"$tmp/lat"

for n in 0 5 11 3000 45817 91630; do
	screen=$("$bin" --snapshot 200x60 --keys ":$n<Enter><Enter>" "$sample" </dev/null)
	want=$(sed -n "$((n + 1))p" "$tmp/report")
	# report's line: from the second screen line to the first blank one, unwrapped
	got=$(awk 'NR == 1 { next } /^$/ { exit } { print }' <<<"$screen")
	if [ -n "$want" ] && [ "$(tr -d ' \n' <<<"$got")" = "$(tr -d ' ' <<<"$want")" ] &&
		head -n 1 <<<"$screen" | grep -q "^Event #$n "; then
		pass "#$n: the view opens with report's whole line"
	else
		fail "#$n: the line '$(tr '\n' ' ' <<<"$got")', report: '$want'"
	fi
	# report -R: "NAME=VALUE" after the event's name; each as "NAME = VALUE" here
	fields=$(sed -n "$((n + 1))p" "$tmp/raw" | sed -E 's/^.* [0-9]+\.[0-9]+: [^:]+: *//')
	bad=0 nr=0
	for f in $fields; do
		name=${f%%=*} value=${f#*=}
		nr=$((nr + 1))
		if ! grep -qF -- "  $name = $value  [" <<<"$screen"; then
			bad=$((bad + 1))
			echo "    #$n: $name = $value not in the view"
		fi
	done
	if [ "$nr" -ge 1 ] && [ "$bad" -eq 0 ]; then
		pass "#$n: the $nr fields of report -R, each with its value"
	else
		fail "#$n: $bad of $nr fields of report -R missing"
	fi
	# report -l: "COMM-PID   CPU+FLAGS TIME: ...", the CPU's digits then the flags
	lat=$(sed -n "$((n + 1))p" "$tmp/lat" | sed -E 's/^.*-[0-9]+ +[0-9]+([^ ]+) +[0-9]+\.[0-9]+: .*$/\1/')
	line=$(grep -m1 '^Latency' <<<"$screen")
	depth=${lat:3:1}
	[ "$depth" = . ] && depth=0
	if [[ $line == "Latency $lat:"* ]] && [[ $line == *"preempt depth $depth"* ]] &&
		{ [ "${lat:0:1}" != d ] || [[ $line == *"irqs off"* ]]; }; then
		pass "#$n: latency $lat spelled out"
	elif [ -z "$lat" ]; then
		skip "#$n: report -l did not print latency flags"
	else
		fail "#$n: latency $lat: '$line'"
	fi
done

# 80x24: fits, keeps the status line, scrolls, closes
s1=$("$bin" --snapshot 80x24 --keys "<Enter>" "$sample" </dev/null)
# 14 rows: less than its 18 lines
s2=$("$bin" --snapshot 80x14 --keys "<Enter>jjj" "$sample" </dev/null)
s3=$("$bin" --snapshot 80x14 --keys "<Enter>jjjx" "$sample" </dev/null)
s0=$("$bin" --snapshot 80x14 "$sample" </dev/null)
if [ "$(wc -L <<<"$s1")" -le 80 ] && [ "$(wc -l <<<"$s1")" -eq 24 ] &&
	tail -n 1 <<<"$s1" | grep -q '#0 of 91631' && grep -q 'Fields (' <<<"$s1"; then
	pass "80x24: the view fits, fields and all, the status line kept"
else
	fail "80x24: the view does not fit"
fi
if head -n 1 <<<"$s2" | grep -q 'lines 4-' && [ "$s3" = "$s0" ]; then
	pass "j scrolls it; another key (x) closes it and does nothing else"
else
	fail "scroll and close: '$(head -n 1 <<<"$s2")'"
fi
