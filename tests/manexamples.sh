#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The man page's EXAMPLES are run, on a copy of the sample trace named
# trace.dat in a scratch directory: each shell line of each .EX block, with
# `nurseshark` the built binary. A line that opens the viewer runs with
# --snapshot 80x24 added (no terminal here), a :command line is typed into
# the viewer on trace.dat (--snapshot --keys), and `trace-cmd record` (root, a live kernel) is left out.
# `nurseshark record` lines run as written (root and tracefs, or SKIP) in a
# directory of their own whose Makefile has a target that does nothing, with
# --no-view added where the line would open the viewer (no terminal here).
# Every line must exit 0, and the cmp lines prove --export equals report.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin manexamples

command -v trace-cmd >/dev/null || { skip "trace-cmd is not installed"; exit 0; }
export TZ=UTC XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$tmp/run" "$XDG_CONFIG_HOME/nurseshark"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"
cp "$sample" "$tmp/run/trace.dat"
cp "$sample" "$tmp/run/other.dat"
mkdir -p "$tmp/bin" "$tmp/rec"
printf 'all:\n\t@true\n' >"$tmp/rec/Makefile"
can_record=""
[ "$(id -u)" = 0 ] || can_record="not root"
[ -z "$can_record" ] && [ ! -e /sys/kernel/tracing/events ] && can_record="no tracefs"
ln -s "$bin" "$tmp/bin/nurseshark"

# the .EX blocks, roff escapes undone, one line each
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$top/man/nurseshark.1" |
	awk '/^\.EX/ { on = 1; next } /^\.EE/ { on = 0 } on' |
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" >"$tmp/lines"

n=0
while IFS= read -r line; do
	case $line in
	'trace-cmd record'*) continue ;;
	esac
	n=$((n + 1))
	cmd=$line
	dir=$tmp/run
	if [[ $cmd == 'nurseshark record'* ]]; then
		if [ -n "$can_record" ]; then
			skip "EXAMPLES: $line: $can_record"
			continue
		fi
		dir=$tmp/rec
		[[ $cmd == *--no-view* ]] || cmd=${cmd/nurseshark record/nurseshark record --no-view}
	elif [[ $cmd == :* ]]; then
		cmd="nurseshark --snapshot 80x24 --keys '$line<Enter>' trace.dat"
	elif [[ $cmd == *nurseshark* ]] && [[ $cmd != *--export* ]] && [[ $cmd != *--snapshot* ]]; then
		cmd="$cmd --snapshot 80x24"
	fi
	out=$(cd "$dir" && PATH=$tmp/bin:$PATH HOME=$tmp/run bash -c "set -o pipefail; $cmd" 2>&1 </dev/null)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "EXAMPLES: $line"
	else
		fail "EXAMPLES: $line: exit $rc: $(head -n 3 <<<"$out")"
	fi
done <"$tmp/lines"
[ "$n" -ge 5 ] || fail "only $n example lines found in the man page"
