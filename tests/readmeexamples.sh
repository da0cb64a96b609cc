#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every command line of README.md's ```sh blocks is run, so that an example
# added to the README is run too: each line (a line ending in | or \ goes
# on with the next; what follows a # is a comment) in a scratch directory
# holding the sample trace as trace.dat, with `nurseshark` and
# `build/nurseshark` the built binary, under `set -o pipefail`; it must exit
# 0. A line that opens the viewer gets --snapshot 80x24 (no terminal here),
# and where its options are all options of `trace-cmd report` too (--cpu,
# -F, -v) its --export must equal report's output with the same options:
# the oracle. `make TARGET` lines are checked with `make -n` (running make
# test inside make test is not a test), `sudo trace-cmd record` lines (run
# without sudo) and `nurseshark record` lines need root and tracefs (else
# SKIP; they run in a directory of their own, record with --no-view,
# ./my-program a program that exits at once). tests/examples.sh
# runs the README's search examples, tests/manexamples.sh the man page's.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin readmeexamples

command -v trace-cmd >/dev/null || { skip "trace-cmd is not installed"; exit 0; }
export TZ=UTC XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$tmp/run/build" "$tmp/rec" "$tmp/bin" "$XDG_CONFIG_HOME/nurseshark"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"
cp "$sample" "$tmp/run/trace.dat"
ln -s "$bin" "$tmp/bin/nurseshark"
ln -s "$bin" "$tmp/run/build/nurseshark"
printf '#!/bin/sh\nexit 0\n' >"$tmp/rec/my-program"
chmod +x "$tmp/rec/my-program"
can_record=""
[ "$(id -u)" = 0 ] || can_record="not root"
[ -z "$can_record" ] && [ ! -e /sys/kernel/tracing/events ] && can_record="no tracefs"

# the ```sh blocks' lines, comments off, continued lines joined
awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on' "$top/README.md" |
	sed -e 's/[[:space:]]#[[:space:]].*$//' -e 's/^#.*$//' -e 's/[[:space:]]*$//' |
	awk '{ s = $0; if (cont != "") { sub(/^ +/, "", s); line = cont " " s } else line = s
	       if (line ~ /[|\\]$/) { sub(/ *\\$/, "", line); cont = line; next }
	       cont = ""; if (line != "") print line }' >"$tmp/lines"

# The options of a viewer line, when all of them are trace-cmd report's too.
report_args() {
	local -a w
	local i

	read -r -a w <<<"$1"
	for ((i = 1; i < ${#w[@]}; i++)); do
		case ${w[i]} in
		--cpu) i=$((i + 1)) ;;
		-v | trace.dat) ;;
		*) return 1 ;;
		esac
	done
}

n=0
while IFS= read -r line; do
	n=$((n + 1))
	cmd=$line
	dir=$tmp/run
	case $cmd in
	make\ *)
		target=${cmd#make }
		if make -n -C "$top" $target >/dev/null 2>&1; then
			pass "README: $line (make -n knows the target)"
		else
			fail "README: $line: make -n $target fails"
		fi
		continue
		;;
	'sudo trace-cmd record'*)
		dir=$tmp/rec
		if [ -n "$can_record" ]; then
			skip "README: $line: $can_record"
			continue
		fi
		cmd=${cmd#sudo }	# root already; sudo may not be installed
		;;
	'nurseshark record'*)
		dir=$tmp/rec	# its ./trace.dat is not the sample's
		if [ -n "$can_record" ]; then
			skip "README: $line: $can_record"
			continue
		fi
		[[ $cmd == *--no-view* ]] || cmd=${cmd/nurseshark record/nurseshark record --no-view}
		;;
	*nurseshark*)
		if [[ $cmd != *--export* ]] && [[ $cmd != *--snapshot* ]] &&
			[[ $cmd != *--summary* ]]; then
			if report_args "$cmd"; then
				prog=${cmd%% *}
				args=${cmd:${#prog}}
				# shellcheck disable=SC2086
				want=$(cd "$tmp/run" && trace-cmd report $args 2>&1)
				# shellcheck disable=SC2086
				got=$(cd "$tmp/run" && PATH=$tmp/bin:$PATH $prog --export $args 2>&1)
				if [ -n "$want" ] && [ "$want" = "$got" ]; then
					pass "README: $line: --export equals trace-cmd report${args}"
				else
					fail "README: $line: --export differs from trace-cmd report${args}"
				fi
			fi
			cmd="$cmd --snapshot 80x24"
		fi
		;;
	*)
		fail "README: $line: a command line this test does not know how to run"
		continue
		;;
	esac
	out=$(cd "$dir" && PATH=$tmp/bin:$PATH HOME=$tmp/run timeout 120 \
		bash -c "set -o pipefail; $cmd" 2>&1 </dev/null)
	rc=$?
	if [ "$rc" -ne 0 ] && [[ $cmd == 'trace-cmd record'* ]] &&
		grep -q 'Operation not permitted' <<<"$out"; then
		skip "README: $line: trace-cmd may not record here: $(head -n 1 <<<"$out")"
	elif [ "$rc" -eq 0 ]; then
		pass "README: $line"
	else
		fail "README: $line: exit $rc: $(head -n 3 <<<"$out")"
	fi
done <"$tmp/lines"
[ "$n" -ge 8 ] || fail "only $n command lines found in README.md's sh blocks"
