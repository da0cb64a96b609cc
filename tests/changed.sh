#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A trace cut shorter while the viewer shows it (recorded over under the same
# name): the real binary in tmux, on a v6 copy of the sample (uncompressed
# pages, which a mapped reader touched past the file's new end and died of
# SIGBUS). After the cut, the list's last page must say that the file
# changed under us, the viewer must live on, and q must still quit with 0.
# Every wait polls the screen with a timeout.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin changed tmux

if ! command -v trace-cmd >/dev/null 2>&1; then
	skip "trace-cmd is not installed: no v6 copy of the sample"
	exit 0
fi
copy=$tmp/v6.dat
if ! trace-cmd convert -i "$sample" -o "$copy" --file-version 6 >/dev/null 2>&1 ||
   [ "$(head -c 11 "$copy" | tail -c 1)" != 6 ]; then
	skip "trace-cmd convert cannot write a v6 file here"
	exit 0
fi
size=$(stat -c %s "$copy")
cp "$copy" "$copy.orig"

screen_start 100 30 "sh -c 'LC_ALL=C $bin --no-session $copy; echo EXITED rc=\$?; exec cat'"
if ! screen_wait '^CPU0 ' 30; then
	fail "the viewer did not come up on the v6 copy"
	screen_dump
	exit 0
fi
# the viewer's reader has the first rows in memory: the cut takes the last
truncate -s $((size / 2)) "$copy"
screen_keys End
if screen_wait 'changed under us'; then
	pass "after the cut, the list says the file changed under us"
else
	fail "after the cut, the list does not say the file changed under us"
fi
# from then on no event is read from the file: the first row says so too
screen_keys Home
if screen_wait '^ *0 +[0-9]+ .*changed under us' && [ "$(screen_pane_state)" = alive ] &&
   ! grep -q EXITED <<<"$SCREEN_LAST"; then
	pass "the viewer lives on after the cut and answers keys (Home)"
else
	fail "the viewer died or stopped answering after the cut"
fi
screen_keys q
if screen_wait 'EXITED rc=0'; then
	pass "q quits with status 0 after the cut"
else
	fail "q did not quit with status 0 after the cut"
fi

# Cut while it is still indexed: --test-hold-index holds indexing after each
# CPU's first page; the cut comes then, and the rest of the index meets it.
screen_stop
cp "$copy.orig" "$copy" 2>/dev/null || true
hold=$tmp/hold
screen_start 100 30 "sh -c 'LC_ALL=C $bin --test-hold-index $hold --no-session $copy; echo EXITED rc=\$?; exec cat'"
if screen_wait '\(indexing\)'; then
	truncate -s $((size / 4)) "$copy"
	touch "$hold"
	if screen_wait 'EXITED rc=1' && grep -q 'changed under us' <<<"$SCREEN_LAST"; then
		pass "a cut while indexing: exit 1, the file changed under us"
	else
		fail "a cut while indexing: $(grep -E 'nurseshark|EXITED' <<<"$SCREEN_LAST" | head -n 3)"
	fi
else
	fail "the loading screen did not come up on the v6 copy"
fi

