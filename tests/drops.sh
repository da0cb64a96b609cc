#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Dropped events: searching for DROPPED finds the rows after which the
# ring buffer overflowed, the ones `trace-cmd report` precedes with a
# "CPU:N [M EVENTS DROPPED]" line, forward and backward.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin drops

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
lost=$top/tests/data/lost-events.dat
# the rows (event lines counted from 0) that follow a DROPPED line
trace-cmd report "$lost" 2>/dev/null | awk '
/EVENTS DROPPED\]/ { drop = 1; next }
/ \[[0-9]+\] +[0-9]+\.[0-9]+: / { if (drop) print n; drop = 0; n++ }' >"$tmp/rows"
nr=$(wc -l <"$tmp/rows")
if [ "$nr" -lt 3 ]; then
	fail "lost-events.dat: report shows $nr drops, want at least 3"
	exit 0
fi
sel() {
	"$bin" --snapshot 120x12 --keys "$1" "$lost" | tail -n 1 | sed -n 's/.*#\([0-9]*\) of.*/\1/p'
}
first=$(sed -n 1p "$tmp/rows") second=$(sed -n 2p "$tmp/rows") third=$(sed -n 3p "$tmp/rows")
last=$(tail -n 1 "$tmp/rows")
got=$(sel '/DROPPED<Enter>')
[ "$got" = "$first" ] && pass "/DROPPED selects #$first, the first row report marks with EVENTS DROPPED" ||
	fail "/DROPPED: want #$first, got #$got"
got=$(sel '/DROPPED<Enter>nn')
[ "$got" = "$third" ] && pass "n twice more: #$third, the third" || fail "/DROPPED n n: want #$third, got #$got"
got=$(sel '?DROPPED<Enter>')
[ "$got" = "$last" ] && pass "?DROPPED from the top wraps to the last, #$last" ||
	fail "?DROPPED: want #$last, got #$got"
got=$(sel '/105 EVENTS<Enter>')
want=$(trace-cmd report "$lost" 2>/dev/null | awk '
/\[105 EVENTS DROPPED\]/ { drop = 1; next }
/ \[[0-9]+\] +[0-9]+\.[0-9]+: / { if (drop) { print n; exit } n++ }')
[ "$got" = "$want" ] && pass "/105 EVENTS finds the row after report's [105 EVENTS DROPPED]: #$want" ||
	fail "/105 EVENTS: want #$want, got #$got"

# The selection's line goes through the column of the event after a drop:
# the drop's ! stays there (else the mark of the very loss searched for is
# hidden). Every ! of the CPU rows before the search is still one after it.
cpu_rows() {
	LC_ALL=C "$bin" --snapshot 120x16 --keys "$1" "$lost" | grep -E '^CPU[0-9]+ '
}
before=$(cpu_rows '') after=$(cpu_rows '/DROPPED<Enter>')
kept=$(paste -d '\n' <(echo "$before") <(echo "$after") | awk '
NR % 2 { b = $0; next }
{ for (i = 1; i <= length(b); i++) if (substr(b, i, 1) == "!") { n++; if (substr($0, i, 1) != "!") lost++ } }
END { printf "%d %d\n", n, lost }')
if [ "${kept% *}" -gt 0 ] && [ "${kept#* }" = 0 ] && [ "$before" != "$after" ]; then
	pass "the selection's line keeps every ! of the CPU rows (${kept% *} of them)"
else
	fail "the selection's line hides a drop's !: of ${kept% *}, ${kept#* } gone: $(diff <(echo "$before") <(echo "$after") | tr '\n' '|')"
fi
