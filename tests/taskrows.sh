#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# :task NAME gives a graph row to each task of that name (the pids trace-cmd
# report shows with that name), says how to undo it, and says so too when
# the rows are more than the graph shows; the same command again takes
# those rows away, back to the CPU rows alone.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin taskrows

export TZ=UTC LC_ALL=C
snap() { "$bin" --snapshot 100x40 --keys "$1" "$sample" </dev/null; }

base=$(snap "")
s=$(snap ":task rm<Enter>")
got=$(grep -oE '^rm-[0-9]+' <<<"$s" | sort | tr '\n' ' ')
want=
if command -v trace-cmd >/dev/null; then
	want=$(trace-cmd report -i "$sample" 2>/dev/null | grep -oE '^ *rm-[0-9]+ ' | tr -d ' ' |
		sort -u | tr '\n' ' ')
fi
if [ -n "$got" ] && { [ -z "$want" ] || [ "$got" = "$want" ]; } &&
	tail -n 1 <<<"$s" | grep -q "task rows of rm added (:task rm again removes them)"; then
	pass ":task rm: a row for each rm task ($got), and how to undo it"
else
	fail ":task rm: rows '$got', report's '$want': $(tail -n 1 <<<"$s")"
fi
s=$(snap ":task rm<Enter>:task rm<Enter>")
if ! grep -qE '^rm-[0-9]+' <<<"$s" && [ "$(sed '$d' <<<"$s")" = "$(sed '$d' <<<"$base")" ] &&
	tail -n 1 <<<"$s" | grep -q "task rows of rm removed"; then
	pass ":task rm again: the rows go, the screen is the first one"
else
	fail ":task rm again: $(tail -n 1 <<<"$s")"
fi
s=$(snap ":task gzip<Enter>")
if tail -n 1 <<<"$s" | grep -qE "[0-9]+ task rows of gzip added, more than fit: :task gzip again"; then
	pass ":task gzip: more rows than fit, and it says how to undo"
else
	fail ":task gzip: $(tail -n 1 <<<"$s")"
fi
