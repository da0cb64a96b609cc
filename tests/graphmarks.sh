#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# In the graph, a and b mark the event of the cursor's row nearest to the
# cursor (the one Enter selects there), not the list's selection; in the
# list they still mark the selection. The oracle is Enter's own pick (the
# select-nearest action) and the bar's A: and B: times. And the first key of a
# sequence (<C-w>, ', `) shows in the status line that it waits for another.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin graphmarks

export TZ=UTC LC_ALL=C
snap() { "$bin" --snapshot 80x24 --keys "$1" "$sample" </dev/null; }
sel() { tail -n 1 <<<"$1" | sed -n 's/.*#\([0-9][0-9]*\) of.*/\1/p'; }
mark() { sed -n "s/.*$1: \\([0-9][0-9.]*\\).*/\\1/p" <<<"$2" | head -n 1; }

for keys in "+++<Tab>llllllllll" "++++<Tab>jhhhhh" "<Tab>j}}lllll"; do
	picked=$(snap "$keys<Enter><Tab>")
	n=$(sel "$picked")
	a=$(snap "$keys""a<Tab>")
	b=$(snap "$keys""b<Tab>")
	ta=$(mark A "$a")
	tb=$(mark B "$b")
	tsel=$(grep -E "^.? *$n +[0-9]+ [0-9]+\\.[0-9]+ " <<<"$picked" | awk '{ print $3 }')
	if [ -n "$n" ] && [ "$n" != 0 ] && [ "$(sel "$a")" = "$n" ] && [ "$(sel "$b")" = "$n" ] &&
		[ -n "$ta" ] && [ "$ta" = "$tsel" ] && [ "$tb" = "$tsel" ]; then
		pass "$keys then a, b: the marker on #$n at $ta, the event Enter picks there"
	else
		fail "$keys: Enter picks #$n at $tsel; a: #$(sel "$a") A $ta; b: #$(sel "$b") B $tb"
	fi
done
s=$(snap "jjja")
if [ "$(sel "$s")" = 3 ] && [ -n "$(mark A "$s")" ]; then
	pass "in the list, a marks the selection (#3)"
else
	fail "in the list: a on #$(sel "$s")"
fi

# A key that starts a sequence says that it waits for the next, until it comes
for p in "'" "<C-w>" "\`"; do
	s=$(snap "$p")
	s2=$(snap "$p""a")
	if tail -n 1 <<<"$s" | grep -qF "$p waits for a second key" &&
		! tail -n 1 <<<"$s2" | grep -q 'waits for'; then
		pass "$p shows that it waits for a second key, and stops once it comes"
	else
		fail "$p: '$(tail -n 1 <<<"$s")' then '$(tail -n 1 <<<"$s2")'"
	fi
done

# With no list row shown (issue 9: the filters hide every event) a and b
# set no marker, in the list or the graph, where the selection is on no
# event (it set A at 0.000000), and the status line says why.
nothing=(-F 'sched_switch: prev_pid == 987654321')
for keys in a b "<Tab>a" "<Tab>b"; do
	k=${keys#<Tab>}
	K=$(tr ab AB <<<"$k")
	s=$("$bin" --snapshot 100x24 "${nothing[@]}" --keys "$keys" "$sample" </dev/null)
	if grep -q '^A: -  *B: -  *B-A: -' <<<"$s" && grep -q ' 0 of [0-9]* shown' <<<"$s" &&
		tail -n 1 <<<"$s" | grep -q "Marker $K not set: no event in the list"; then
		pass "every event filtered out, $keys: no marker, and the status line says why"
	else
		fail "every event filtered out, $keys: $(grep -E '^A: ' <<<"$s") / $(tail -n 1 <<<"$s")"
	fi
done
