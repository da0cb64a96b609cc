#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sessions of several files (issue 10), through the real binary in tmux as
# tests/session.sh does: the session of `-i A -i B --ts-offset NS` is kept
# on q under a name of its own ([files]: each file, its size and time, its
# offset); opening A and B again without the offset brings the offset back
# (the window ends where A does, as report --ts-offset puts B on A) and the
# filter with it; `-s SESSION` alone opens both files with the offset; a
# file that changed since is said so, file by file; `:offset` saves the new
# offset; one file with an offset keeps it too. Copies of
# contrib/sample.dat and tests/data/instance.dat in a scratch directory
# (the test changes one's time); the originals are never written.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin filesession tmux

if ! screen_have_tmux; then
	skip "tmux is not installed (make deps installs it)"
	exit 0
fi
export TZ=UTC LC_ALL=C
a=$tmp/sample.dat
b=$tmp/instance.dat
cp "$top/contrib/sample.dat" "$a"
cp "$top/tests/data/instance.dat" "$b"
offset=3773600000000
h=$tmp/home
mkdir -p "$h/config/nurseshark" "$h/state"
XDG_CONFIG_HOME=$h/config XDG_STATE_HOME=$h/state
export XDG_CONFIG_HOME XDG_STATE_HOME

# run_nurseshark ARGS...: in the pane, its stderr to $h/err; then how it ended
run_nurseshark() {
	local args="" x

	for x in "$@"; do
		args+=" '$x'"
	done
	rm -f "$h/err"
	screen_start 100 30 "env XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
XDG_STATE_HOME='$XDG_STATE_HOME' $bin $args 2>'$h/err'; echo EXITED rc=\$?; exec cat"
}

quit() {
	screen_type q
	screen_wait '^EXITED rc=' || return 1
	grep -q '^EXITED rc=0' <<<"$SCREEN_LAST"
}

moved='Window: 10171\.572790-10174\.606952'	# B on A: the window ends where A does
# B's rows in the list at A's time (not at its own, 6398 s): B moved, not just the window
b_moved() {
	screen_wait ' (instan|extra):[01] 10171\.[0-9]{6} ' && ! grep -q ' 6398\.[0-9]\{6\} ' <<<"$SCREEN_LAST"
}

# --- saved on q, with its files and offset -----------------------------------
run_nurseshark -i "$a" -i "$b" --ts-offset $offset
if ! screen_wait "$moved" || ! screen_wait '^instance:extra CPU1 '; then
	fail "-i A -i B --ts-offset: $(sed -n 9p <<<"$SCREEN_LAST")"
	exit 0
fi
screen_type ':hide stream sample.dat'
screen_keys Enter
screen_wait 'Filters: hide stream sample.dat' || fail "the filter did not come"
if quit; then
	pass "q saves and exits with status 0"
else
	fail "q: $(tail -n 3 <<<"$SCREEN_LAST")"
fi
saved=$(grep -l '^\[files\]' "$XDG_STATE_HOME"/nurseshark/*.ini 2>/dev/null | head -n 1)
if [ -n "$saved" ] && grep -qx "file = $(realpath "$a")" "$saved" &&
	grep -qx "file = $(realpath "$b")" "$saved" && grep -qx "ts-offset = $offset" "$saved"; then
	pass "the session has [files]: both files, the second's ts-offset ($(basename "$saved"))"
else
	fail "no session with [files], both files and ts-offset = $offset: $(cat "$saved" 2>/dev/null | head -c 600)"
fi

# --- opened again without the offset: it comes back, with the filter --------
run_nurseshark -i "$a" -i "$b"
if screen_wait "$moved" && screen_wait 'Filters: hide stream sample.dat' &&
	screen_wait 'Session restored' && b_moved; then
	pass "-i A -i B again: the session's offset and filter come back"
else
	fail "-i A -i B again: $(sed -n 9,10p <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
fi
quit >/dev/null

# --- -s SESSION alone: its files, with the offset ----------------------------
cp "$saved" "$tmp/named.ini"
run_nurseshark -s "$tmp/named.ini"
if screen_wait "$moved" && screen_wait '^instance:extra CPU1 ' &&
	screen_wait 'Filters: hide stream sample.dat' && b_moved; then
	pass "-s SESSION: both files open, B moved by its offset, the filter back"
else
	fail "-s SESSION: $(head -n 8 <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
fi
quit >/dev/null

# --- a file that changed since: said, file by file --------------------------
touch -d '2001-01-01 00:00:00' "$b"
run_nurseshark -s "$tmp/named.ini"
screen_wait "$moved"
screen_type ':messages'
screen_keys Enter
if screen_wait 'instance.dat changed since it was saved' &&
	! grep -q 'sample.dat changed' <<<"$SCREEN_LAST"; then
	pass "-s SESSION, B changed (its time): says so, restores what holds"
else
	fail "B changed: $(tail -n 3 <<<"$SCREEN_LAST"; cat "$h/err")"
fi
quit >/dev/null

# --- :offset: the viewer again, the new offset saved on its q -----------------
rm -f "$XDG_STATE_HOME"/nurseshark/*.ini
run_nurseshark -i "$a" -i "$b"
screen_wait '^instance CPU0 ' || fail "-i A -i B: no row instance CPU0"
screen_type ":offset instance.dat $offset"
screen_keys Enter
if screen_wait "$moved"; then
	pass ":offset instance.dat NS: B moved onto A"
else
	fail ":offset: $(sed -n 9p <<<"$SCREEN_LAST")"
fi
quit >/dev/null
run_nurseshark "$a" "$b"
screen_wait "$moved"
screen_type ':show stream instance.dat'
screen_keys Enter
if b_moved; then
	pass "A B after :offset and q: the offset is back from the session"
else
	fail "A B after :offset: $(sed -n 9p <<<"$SCREEN_LAST")"
fi
quit >/dev/null

# --- one file with an offset: kept too --------------------------------------
run_nurseshark -i "$b" --ts-offset $offset
screen_wait 'Window: 10171\.' || fail "-i B --ts-offset: $(sed -n 9p <<<"$SCREEN_LAST")"
quit >/dev/null
run_nurseshark "$b"
if screen_wait 'Window: 10171\.'; then
	pass "one file: its offset comes back from its session"
else
	fail "one file again: $(sed -n 9p <<<"$SCREEN_LAST")"
fi
quit >/dev/null
cmp -s "$a" "$top/contrib/sample.dat" && pass "the traces were never written" ||
	fail "sample.dat's copy was written"
