#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# :latency and :plot make their row in the background (issue 11), in the
# real terminal (tmux) on big.dat (5.4 million events, where reading the
# events of a row takes long enough to watch): right after the command the
# status line shows how far the row is, and keys typed meanwhile are handled
# at once (the selection moves while the row is still being made); the row
# then appears with its label. The same command again while it is made
# cancels it, and no row comes.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin plotjob tmux

big=${NS_SHARED:-$top/../shared}/traces/big.dat
if [ ! -r "$big" ]; then
	skip "no big.dat in ${NS_SHARED:-../shared}/traces"
	exit 0
fi
export TZ=UTC LC_ALL=C
lat='latency sched_waking sched_switch pid,next_pid'

screen_start 120 30 "LANG=C NO_COLOR=1 $bin $big"
if ! screen_wait ' #0 of 5452492( |$)' 120; then
	fail "big.dat does not open: $(tail -n 1 <<<"$SCREEN_LAST")"
	exit 0
fi
screen_type ":$lat"
screen_keys Enter
screen_type jjj
# one capture with both: the progress of the row, and the selection moved
making_and_moved() {
	grep -qE "Making the row '$lat': [0-9]+% of 5452492 events" <<<"$SCREEN_LAST" &&
		grep -qE ' #3 of 5452492( |$)' <<<"$SCREEN_LAST"
}
if screen_wait_for making_and_moved 60; then
	pass "while the row is made the status line says how far ($(grep -oE 'Making [^(]*' \
<<<"$SCREEN_LAST")) and j j j moved the selection to #3"
else
	fail "no screen with the row's progress and #3 selected"
fi
if SCREEN_TIMEOUT=120 screen_wait_all '^lat [0-9.]+[mu]?s +' 'Latency row added: ' ' #3 of 5452492( |$)'; then
	pass "then the row appears: $(grep -oE '^lat [0-9.]+[mu]?s' <<<"$SCREEN_LAST"), $(
		grep -oE 'Latency row added: [0-9]+ pairs' <<<"$SCREEN_LAST")"
else
	fail "no latency row after it was made"
fi

# the same command twice: the second cancels the first, which never shows
screen_type ":plot sched_switch prev_prio"
screen_keys Enter
screen_type ":plot sched_switch prev_prio"
screen_keys Enter
if screen_wait "Row 'plot sched_switch prev_prio' cancelled" 60; then
	pass ":plot typed again while its row is made cancels it"
else
	fail "no cancel of the :plot row"
fi
# a key after the cancel: the screen is drawn again, still without the row
screen_type k
if screen_wait ' #2 of 5452492( |$)' 30 && ! grep -q '^prev_' <<<"$SCREEN_LAST" &&
	! grep -q 'Making the row' <<<"$SCREEN_LAST"; then
	pass "no plot row comes of the cancelled command"
else
	fail "a plot row or its progress after the cancel"
fi
