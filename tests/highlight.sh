#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Search matches are highlighted: in the real binary in tmux, after
# /event=sched_switch every sched_switch on screen carries the match role's
# attributes (the pane's escape codes, read with capture-pane -e) and no
# other event does; with NO_COLOR the match is still told apart (bold and
# underline). Every wait polls the screen with a timeout.
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
