#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/run.sh (what make test runs) prints each test's name as the test
# starts, so that a long one shows where the run is: run.sh runs, from a
# scratch folder (NS_TESTS_DIR), a test that cannot end until this script
# lets it (it reads a FIFO), and the test's name must be in run.sh's output
# while it is still held; then the test is let go and run.sh must count
# its PASS and end with the total.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin runner

mkdir -p "$tmp/tests"
mkfifo "$tmp/go"
cat >"$tmp/tests/heldtest.sh" <<HELD
#!/usr/bin/env bash
cat '$tmp/go' >/dev/null
echo "PASS: heldtest: let go"
HELD
NS_TESTS_DIR=$tmp/tests NS_BUILD=no-such-build bash "$top/tests/run.sh" heldtest \
	>"$tmp/out" 2>&1 &
runner=$!

# poll for the name (a condition; the timeout only bounds it), the test still held
end=$(($(date +%s) + 30))
while ! grep -q heldtest "$tmp/out" && [ "$(date +%s)" -lt "$end" ] &&
	kill -0 "$runner" 2>/dev/null; do
	sleep 0.05
done
if grep -q '^heldtest ' "$tmp/out"; then
	pass "the test's name is printed as it starts, before it ends ('$(cat "$tmp/out")')"
else
	fail "no name while the test runs: '$(cat "$tmp/out")'"
fi
# lets the test end (bounded: a run.sh that died early leaves no reader)
timeout 20 bash -c "echo go >'$tmp/go'"
wait "$runner"
rc=$?
if [ "$rc" -eq 0 ] && grep -qE '^heldtest +1 passed, 0 failed, 0 skipped$' "$tmp/out" &&
	[ "$(tail -n 1 "$tmp/out")" = "1 passed, 0 failed, 0 skipped" ]; then
	pass "then its counts on the same line, and the total last"
else
	fail "after the test: status $rc, output '$(cat "$tmp/out")'"
fi
