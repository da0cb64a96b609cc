#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The oracle's guard (tests/oracle/malloc0.c): the trace-cmd the tests run
# is tests/oracle/trace-cmd, which preloads malloc0.so, and with it a
# malloc(0) after a free holds zeros where glibc's alone does not.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin oracle

if [ -z "${NS_REAL_TRACE_CMD:-}" ] && ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle to guard"
	exit 0
fi
build_dir=$(dirname "$bin")
check=$build_dir/oracle/malloc0-check
so=$build_dir/oracle/malloc0.so

if [ "$(command -v trace-cmd)" = "$top/tests/oracle/trace-cmd" ]; then
	pass "trace-cmd is tests/oracle/trace-cmd"
else
	fail "trace-cmd is $(command -v trace-cmd), not tests/oracle/trace-cmd (is $so built?)"
fi
if [ -x "$check" ] && [ -f "$so" ]; then
	alone=$("$check")
	guarded=$(NS_REAL_TRACE_CMD=$check trace-cmd)
	if [ "${alone:-0}" -gt 0 ] && [ "$guarded" = 0 ]; then
		pass "malloc(0) after a free: $alone of 1000 hold the free's leftovers alone, $guarded through the wrapper"
	else
		fail "malloc(0) after a free: '$alone' of 1000 hold leftovers alone, '$guarded' through the wrapper (want >0 and 0)"
	fi
else
	fail "$check or $so is not built (make tests)"
fi
