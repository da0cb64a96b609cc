#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Search matches are highlighted: in the real binary in tmux, after
# /event=sched_switch every sched_switch on screen carries the match role's
# attributes (the pane's escape codes, read with capture-pane -e) and no
# other event does; with NO_COLOR the match is still told apart (bold and
# underline). On a trace with an instance, the CPU column ("extra:1") marks
# the name for /stream=, the number for /cpu=. Every wait polls the screen
# with a timeout.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin highlight tmux

# check NAME ENV PARAM: an SGR sequence with PARAM (45: magenta background,
# 4: underline) must stand right before every sched_switch of the list (other
# SGR sequences may come between) and before no other word.
check() {
	local name=$1 env=$2 param=$3 esc rows hits others sgr

	screen_start 100 24 "env -u NO_COLOR $env '$bin' '$sample'"
	if ! screen_wait 'of 91631'; then
		fail "$name: the viewer did not start"
		return
	fi
	screen_type '/event=sched_switch'
	screen_keys Enter
	# the prompt hides the status line while it is typed: wait for the new position
	if ! screen_wait '#[1-9][0-9]* of 91631'; then
		fail "$name: the search did not move the selection"
		return
	fi
	sgr=$'\e''\[([0-9]+;)*'"$param"'m('$'\e''\[[0-9;]*m)*'
	esc=$(screen_tmux capture-pane -e -p -t "$SCREEN_TARGET")
	SCREEN_LAST=$(screen_capture)
	rows=$(grep -c ' sched_switch ' <<<"$SCREEN_LAST")
	hits=$(grep -aEc "$sgr"'sched_switch' <<<"$esc")
	others=$(grep -av 'sched_switch' <<<"$esc" | grep -aEc "$sgr"'[a-z_]+')
	if [ "$rows" -ge 2 ] && [ "$hits" = "$rows" ] && [ "$others" = 0 ]; then
		pass "$name: all $rows sched_switch rows on screen are highlighted, nothing else"
	else
		fail "$name: $hits of $rows sched_switch rows highlighted, $others other words"
	fi
	screen_stop
}

# the match role: black on magenta (8 colours), bold and underline without colour
check "colour" "TERM=screen" 45
check "NO_COLOR" "NO_COLOR=1" 4

# marked: the screen as text, each start of a match (SGR 45, black on
# magenta) written "@", the list's rows only ("  N CPU TIME ...").
marked() {
	local sgr=$'\e''\[([0-9]+;)*45m('$'\e''\[[0-9;]*m)*'
	screen_tmux capture-pane -e -p -t "$SCREEN_TARGET" |
		sed -E "s/$sgr/@/g; s/"$'\e'"\[[0-9;]*m//g" |
		grep -aE '^ *[0-9]+ +@?([a-z]+:)?@?[0-9]+ [0-9]+\.[0-9]+ '
}

# --- the CPU column of a trace with an instance: stream and CPU searches ---------
# tests/data/instance.dat: the top buffer's rows show their CPU ("1"), the
# instance's "extra:1". /stream=extra marks the name, /stream=top the top
# rows' whole cell, /cpu=1 the number 1 of both buffers' rows.
inst=$top/tests/data/instance.dat
# moved: the status line shows a row other than $prev
moved() {
	grep -qE '#[0-9]+ of 27819' <<<"$SCREEN_LAST" && ! grep -q "#$prev of 27819" <<<"$SCREEN_LAST"
}
# search TEXT: search, and wait until the selection moved to the match
search() {
	prev=$(screen_capture | grep -oE '#[0-9]+ of 27819' | tr -dc '0-9 ' | cut -d' ' -f1)
	screen_type "/$1"
	screen_keys Enter
	screen_wait_for moved
}
# check_marks NAME WANT-RE: the rows WANT-RE matches (at least 2) have their
# "@" there, and no other row has one
check_marks() {
	local name=$1 want=$2 rows good bad
	marked >"$tmp/marked"
	rows=$(grep -c . "$tmp/marked")
	good=$(grep -cE "$want" "$tmp/marked")
	bad=$(grep -vE "$want" "$tmp/marked" | grep -c '@')
	if [ "$rows" -ge 10 ] && [ "$good" -ge 2 ] && [ "$bad" = 0 ]; then
		pass "$name: $good of the $rows rows marked there, no other"
	else
		fail "$name: $good rows marked there, $bad elsewhere, of $rows:
$(head -n 5 "$tmp/marked")"
	fi
}
screen_start 100 30 "env -u NO_COLOR TERM=screen '$bin' --no-session '$inst'"
if screen_wait 'of 27819'; then
	# from row 1000, where both buffers' events interleave
	screen_type ':1000'
	screen_keys Enter
	screen_wait '#1000 of 27819'
	search 'stream=extra'
	check_marks "/stream=extra" '^ *[0-9]+ @extra:[0-9] '
	n=$(grep -cE ' @?extra:[0-9] ' "$tmp/marked")
	m=$(grep -cE ' @extra:[0-9] ' "$tmp/marked")
	[ "$n" = "$m" ] && pass "/stream=extra: every row of extra is marked ($n)" ||
		fail "/stream=extra: $m of $n rows of extra marked"
	search 'stream=top'
	check_marks "/stream=top" '^ *[0-9]+ +@[0-9] '
	search 'cpu=1'
	check_marks "/cpu=1" '^ *[0-9]+ +(extra:)?@1 '
else
	fail "instance.dat: the viewer did not start"
fi
screen_stop
