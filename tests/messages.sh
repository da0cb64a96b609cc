#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Messages are not lost: a resize keeps the status line's message; one cut
# at the edge says where the whole of it is ([:messages]); :messages shows
# the last ones whole, the latest last, and any other key closes it.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin messages

export TZ=UTC LC_ALL=C
snap() { "$bin" --snapshot "$1" --keys "$2" "$sample" </dev/null; }

s=$(snap 80x24 "/nosuchthing<Enter><Resize:100x30>")
if tail -n 1 <<<"$s" | grep -q 'Pattern not found: .*nosuchthing' && [ "$(wc -l <<<"$s")" -eq 30 ]; then
	pass "a resize keeps the message (Pattern not found)"
else
	fail "after a resize: $(tail -n 1 <<<"$s")"
fi
s=$(snap 60x20 ":task gzip<Enter>")
last=$(tail -n 1 <<<"$s")
if [[ $last == *"[:messages]"* ]] && [ "$(wc -L <<<"$last")" -le 60 ]; then
	pass "a message cut at 60 columns ends in [:messages]"
else
	fail "a cut message: '$last'"
fi
s=$(snap 60x20 ":task gzip<Enter>/nosuchthing<Enter>:messages<Enter>")
whole=$(sed -n '2,$p' <<<"$s" | tr '\n' ' ' | tr -s ' ')
if head -n 1 <<<"$s" | grep -q '^Messages' &&
	[[ $whole == *"task rows of gzip added, more than fit: :task gzip again removes them"* ]] &&
	[[ $whole == *"them Pattern not found: "*nosuchthing* ]] && [ "$(wc -L <<<"$s")" -le 60 ]; then
	pass ":messages shows them whole, wrapped at 60 columns, the latest last"
else
	fail ":messages: $s"
fi
s=$(snap 60x20 ":messages<Enter>x")
if ! grep -q '^Messages' <<<"$s" && [ "$s" = "$(snap 60x20 "")" ]; then
	pass "another key closes :messages and does nothing else"
else
	fail ":messages then x: $(head -n 1 <<<"$s")"
fi
# The status line's key hints are whole at any width: each "KEY:word" of it
# at 40, 50 and 60 columns is one of those it shows at 200 (no "Tab:f").
for keys in "" "<Tab>"; do
	all=$(snap 200x24 "$keys" | tail -n 1 | grep -oE '[^ ]+:[^ ]+')
	for cols in 40 50 60; do
		got=$(snap "${cols}x10" "$keys" | tail -n 1 | sed 's/ cursor: .*//' | grep -oE '[^ ]+:[^ ]*')
		bad=$(grep -vxF -f <(printf '%s\n' "$all") <<<"$got")
		if [ -n "$got" ] && [ -z "$bad" ]; then
			pass "${cols} columns ${keys:-<list>}: the key hints are whole ($(tr '\n' ' ' <<<"$got"))"
		else
			fail "${cols} columns ${keys:-<list>}: hints cut: '$(tr '\n' ' ' <<<"$bad")'"
		fi
	done
done
