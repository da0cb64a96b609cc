#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs every test: the unit test programs built into build/tests/ and every
# tests/*.sh script. A test reports each check on its own line:
#   PASS: name            FAIL: name: why            SKIP: name: why
# A test that exits non-zero without a FAIL line counts as one failure, and
# so does a sanitizer's report in its output. Each test's name is printed as
# it starts, its counts when it ends, then its FAIL and SKIP lines. The last
# line is the total: "N passed, N failed, N skipped".
#
# Usage: tests/run.sh [FILTER...]: only the tests whose name holds one of
# the FILTERs. NS_BUILD=build-asan runs the programs of that build instead
# (make asan, make tsan); NS_ASAN_BUILD=build-asan also runs, after the rest,
# that build's unit tests and tests/cli.sh, named asan/... (make test).
# NS_TESTS_DIR runs the *.sh of another folder instead of tests/ (for
# tests/runner.sh, which checks this script).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=${NS_BUILD:-build}
export NS_TOP=$top
export NS_BIN=$top/$build/nurseshark
export NS_SHARED=${NS_SHARED:-$top/../shared}

# For the sanitizer builds (other builds ignore these). Leaks are looked for
# in the binary (tests/cli.sh), not in the unit test programs, which keep
# their fixtures to the end; libtracecmd's own leaks are suppressed
# (tests/lsan.supp says why).
# The open's guard (src/trace/open.c) cannot cap its child's address space
# under ASan, whose shadow memory is terabytes of it: ASan's own cap on one
# allocation stands in, so that a damaged file's 1.5 GB calloc() fails as
# it does without ASan.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024}
unit_asan=detect_leaks=0
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
sanitizer_report='ERROR: (Address|Leak|Thread|Memory)Sanitizer|WARNING: ThreadSanitizer|runtime error: '

# Never the real home's config.ini and sessions: a scratch XDG home whose
# config.ini keeps no session, so that one run of the viewer cannot change
# what the next one shows; tests/session.sh makes its own homes.
ns_home=$(mktemp -d)
trap 'rm -rf "$ns_home"' EXIT
export XDG_CONFIG_HOME=$ns_home/config XDG_STATE_HOME=$ns_home/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"

# trace-cmd, the oracle, through tests/oracle/trace-cmd, which preloads
# malloc0.so: without it, report prints raw timestamps now and then for
# trace-cmd 2.x files (tests/oracle/malloc0.c). make tests builds it;
# tests/oracle.sh fails where it is missing.
if NS_REAL_TRACE_CMD=$(command -v trace-cmd) && [ -f "$top/$build/oracle/malloc0.so" ]; then
	export NS_REAL_TRACE_CMD NS_ORACLE_PRELOAD=$top/$build/oracle/malloc0.so
	export PATH=$top/tests/oracle:$PATH
fi

pass=0 fail=0 skip=0
failed=()
failures=()	# every FAIL line, said again at the end where a CI log's tail shows it
filters=("$@")

# Whether a test named $1 is to run.
wanted() {
	local f

	[ ${#filters[@]} -eq 0 ] && return 0
	for f in "${filters[@]}"; do
		[[ $1 == *$f* ]] && return 0
	done
	return 1
}

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
	if grep -vE '^(PASS|FAIL|SKIP): ' <<<"$out" | grep -qE "$sanitizer_report"; then
		f=$((f + 1))
		out+=$'\n'"FAIL: $name: a sanitizer report: $(grep -vE '^(PASS|FAIL|SKIP): ' \
			<<<"$out" | grep -m1 -E "$sanitizer_report")"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	printf '%d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
	grep -E '^(FAIL|SKIP): ' <<<"$out" | sed "s|^|  [$name] |"
	if [ "$f" -gt 0 ]; then
		failed+=("$name")
		mapfile -t -O "${#failures[@]}" failures < <(grep -E '^FAIL: ' <<<"$out" | sed "s|^|  [$name] |")
		grep -vE '^(PASS|FAIL|SKIP): ' <<<"$out" | tail -n 20 | sed "s|^|    |"
		# and the first lines of what it said, at the end too
		mapfile -t -O "${#failures[@]}" failures < <(grep -vE '^(PASS|FAIL|SKIP): ' \
			<<<"$out" | head -n 6 | sed "s|^|    [$name] |")
	fi
}

for t in "$build"/tests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	n=unit/$(basename "$t")
	wanted "$n" || continue
	ASAN_OPTIONS=$ASAN_OPTIONS:$unit_asan run_one "$n" "$t"
done
for t in "${NS_TESTS_DIR:-tests}"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	[ "$n" = run ] && continue
	[ "$n" = bench ] && continue
	wanted "$n" || continue
	run_one "$n" bash "$t"
done
# The unit tests and the command line again, built with ASan and UBSan.
if [ -n "${NS_ASAN_BUILD:-}" ]; then
	for t in "$NS_ASAN_BUILD"/tests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		n=asan/unit/$(basename "$t")
		wanted "$n" || continue
		ASAN_OPTIONS=$ASAN_OPTIONS:$unit_asan run_one "$n" "$t"
	done
	wanted asan/cli && NS_SANITIZER=asan NS_BIN=$top/$NS_ASAN_BUILD/nurseshark \
		run_one asan/cli bash tests/cli.sh
fi

if [ ${#failed[@]} -gt 0 ]; then
	printf '%s\n' "${failures[@]}"
	echo "failed: ${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
