#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The search examples that the help, the man page and the README show are
# run on the bundled sample trace, and each must find an event: an example
# that finds nothing (as /info~prev_state=D did once trace-cmd 3 printed
# "[120] D ==>") teaches the wrong thing.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin examples

export TZ=UTC LC_ALL=C
{
	# the help: its "Examples" line, split at two blanks
	sed -n 's/^.*"  Examples  *\(.*\)",$/\1/p' "$top/src/tui/help.c" | sed 's/   */\n/g'
	# the man page: the examples of the search paragraph (.B or .BR, quoted or not)
	sed -n -e 's/^\.BR\{0,1\} "\(\/[a-z]*[:=!~][^"]*\)".*$/\1/p' \
		-e 's/^\.BR\{0,1\} \(\/[a-z]*[:=!~][^ ,]*\).*$/\1/p' "$top/man/nurseshark.1"
	# the README: `/...` in its Search item
	sed -n '/^- \*\*Search\*\*/,/^- \*\*/p' "$top/README.md" | grep -oE '`/[a-z]+[:=!~][^`]*`' |
		tr -d '`'
} | sed '/^$/d' | sort -u >"$tmp/examples"

n=0
while IFS= read -r ex; do
	n=$((n + 1))
	s=$("$bin" --snapshot 100x24 --keys "$ex<Enter>" "$sample" </dev/null)
	last=$(tail -n 1 <<<"$s")
	if [[ $last == *"#0 of 91631"* ]] || grep -qiE 'not found|no match|error' <<<"$last"; then
		fail "the example $ex finds nothing: $last"
	else
		pass "the example $ex finds an event ($(sed -n 's/.*\(#[0-9]* of [0-9]*\).*/\1/p' <<<"$last"))"
	fi
done <"$tmp/examples"
[ "$n" -ge 4 ] || fail "only $n search examples found in the help, the man page and the README"
