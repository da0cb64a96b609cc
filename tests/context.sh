#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# After a search, :N, a jump or a goto the selected row has rows of context
# around it in the list (three, as vim's scrolloff), not the pane's edge:
# at 80x24 and 80x12, the selected event's row has three list rows above and
# below it. The oracle is the screen itself: the status line's "#N of" and
# the row numbers of the list.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin context

export TZ=UTC LC_ALL=C
for size in 80x24 80x12 100x40; do
	for keys in ":5000<Enter>" "/event=sched_process_exec<Enter>" "/event=sched_process_exec<Enter>nn" \
		"?event=sched_process_exec<Enter>" ":goto 10172.5<Enter>" "G:3000<Enter>" "jjjjJ" \
		"ja:9000<Enter>A"; do
		screen=$("$bin" --snapshot "$size" --keys "$keys" "$sample" </dev/null)
		sel=$(tail -n 1 <<<"$screen" | sed -n 's/.*#\([0-9][0-9]*\) of.*/\1/p')
		rows=$(awk 'seen && /^.?  *[0-9]+ +[0-9]+ / { sub(/^[AB]/, ""); print $1 } /^ +# / { seen = 1 }' \
			<<<"$screen")
		nr=$(wc -l <<<"$rows")
		at=$(grep -nx -- "$sel" <<<"$rows" | cut -d: -f1)
		# three rows, fewer in a pane too short for them or where the trace ends
		so=$(((nr - 1) / 2 < 3 ? (nr - 1) / 2 : 3))
		above=$((sel < so ? sel : so))
		below=$((91630 - sel < so ? 91630 - sel : so))
		if [ -n "$sel" ] && [ -n "$at" ] && [ "$at" -gt "$above" ] &&
			[ "$at" -le $((nr - below)) ]; then
			pass "$size $keys: #$sel on list row $at of $nr, $so rows of context each side"
		else
			fail "$size $keys: #$sel on list row ${at:-none} of $nr"
		fi
	done
done
