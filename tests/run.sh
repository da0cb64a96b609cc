#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every test: the unit test programs built into build/tests/ and every
# tests/*.sh script. A test reports each check on its own line:
#   PASS: name            FAIL: name: why            SKIP: name: why
# A test that exits non-zero without a FAIL line counts as one failure.
# Each test's name is printed as it starts, its counts when it ends, then
# its FAIL and SKIP lines. The last line is the total: "N passed, N failed,
# N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export NS_TOP=$top
export NS_BIN=$top/build/nurseshark
export NS_SHARED=${NS_SHARED:-$top/../shared}

# Never the real home's config.ini and sessions: a scratch XDG home whose
# config.ini keeps no session, so that one run of the viewer cannot change
# what the next one shows; tests/session.sh makes its own homes.
ns_home=$(mktemp -d)
trap 'rm -rf "$ns_home"' EXIT
export XDG_CONFIG_HOME=$ns_home/config XDG_STATE_HOME=$ns_home/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"

pass=0 fail=0 skip=0
failed=()
only=${1:-}

run_one() {
	local name=$1; shift
	local out rc
	# the name first, so that a long test shows where the run is; its counts follow
	printf '%-28s ' "$name"
	out=$("$@" 2>&1 </dev/null)
	rc=$?
	local p f s
	p=$(grep -c '^PASS: ' <<<"$out")
	f=$(grep -c '^FAIL: ' <<<"$out")
	s=$(grep -c '^SKIP: ' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		out+=$'\n'"FAIL: $name: exited with status $rc"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	grep -E '^(FAIL|SKIP): ' <<<"$out" | sed "s|^|  [$name] |"
	if [ "$f" -gt 0 ]; then
		failed+=("$name")
		grep -vE '^(PASS|FAIL|SKIP): ' <<<"$out" | tail -n 20 | sed "s|^|    |"
	fi
}

for t in build/tests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	n=unit/$(basename "$t")
	[ -n "$only" ] && [[ $n != *$only* ]] && continue
	run_one "$n" "$t"
done
for t in tests/*.sh; do
	[ "$t" = tests/run.sh ] && continue
	[ "$t" = tests/bench.sh ] && continue
	n=$(basename "$t" .sh)
	[ -n "$only" ] && [[ $n != *$only* ]] && continue
	run_one "$n" bash "$t"
done

[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
