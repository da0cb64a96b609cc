# SPDX-License-Identifier: GPL-2.0-only
#
# What every shell test starts with. `ns_test_begin NAME [tmux]` sets
#   top, bin, sample   the tree, the built binary, the bundled sample trace
#   tmp                a scratch directory, removed on exit
#   utf8               a UTF-8 locale of this machine, or empty
# and defines pass/fail/skip, which print tests/run.sh's PASS:/FAIL:/SKIP:
# lines (fail also shows the last screen a tmux test read). With "tmux" it
# loads tests/lib/screen.sh, stops the tmux server on exit, and skips the
# whole test when tmux is missing. A test whose binary is not built fails.

ns_test_end() {
	if declare -F screen_stop >/dev/null; then
		screen_stop
	fi
	rm -rf "$tmp"
}

pass() { echo "PASS: $NS_TEST: $1"; }
fail() {
	echo "FAIL: $NS_TEST: $1"
	if [ -n "${SCREEN_LAST:-}" ]; then
		screen_dump
		SCREEN_LAST=
	fi
}
skip() { echo "SKIP: $NS_TEST: $1"; }

ns_test_begin() {
	local l

	NS_TEST=$1
	top=${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
	bin=${NS_BIN:-$top/build/nurseshark}
	sample=$top/contrib/sample.dat
	tmp=$(mktemp -d)
	trap ns_test_end EXIT
	if [ "${2:-}" = tmux ]; then
		. "$top/tests/lib/screen.sh"
		if ! screen_have_tmux; then
			skip "tmux is not installed (make deps installs it)"
			exit 0
		fi
	fi
	if [ ! -x "$bin" ]; then
		fail "the binary $bin is not built"
		exit 0
	fi
	utf8=
	for l in C.UTF-8 C.utf8 en_US.UTF-8; do
		if [ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ]; then
			utf8=$l
			break
		fi
	done
}
