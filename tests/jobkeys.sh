#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The job-progress overlay's keys come from the action table (issue 9): a
# filter pass or a search under way hears its own scope, [keys.job]
# (job-cancel, job-quit), which the help lists and config.ini rebinds. Here
# job-cancel is bound to x: on big.dat (5 million events) the progress line
# names x instead of Esc, and x cancels a search and a filter pass. Every wait polls the screen; nothing sleeps to synchronise.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin jobkeys tmux
shared=${NS_SHARED:-$top/../shared}

# the table gives the help and the man page the job's keys
if "$bin" --keys-table | grep -q 'job\\-cancel' && "$bin" --keys-table | grep -q 'job\\-quit'; then
	pass "--keys-table (the man page's KEYS) lists job-cancel and job-quit"
else
	fail "--keys-table lists the job's keys"
fi
if "$bin" --print-config | grep -qx ';job-cancel = <Esc>'; then
	pass "--print-config has [keys.job] job-cancel = <Esc>"
else
	fail "--print-config's [keys.job]"
fi

big=$shared/traces/big.dat
if [ ! -r "$big" ]; then
	skip "[keys.job] on 5 million events: $big not found (NS_SHARED=$shared)"
	exit 0
fi
mkdir -p "$tmp/home" "$tmp/cfg"
printf '[session]\nrestore = no\nsave = no\n[keys.job]\njob-cancel = x\n' >"$tmp/cfg/config.ini"
screen_start 100 30 "env HOME=$tmp/home XDG_STATE_HOME=$tmp/home/state \
XDG_CONFIG_HOME=$tmp/home/config LC_ALL=C $bin --config $tmp/cfg/config.ini $big"
if ! screen_wait '^CPU0 ' 60; then
	fail "big.dat opens"
	exit 0
fi
screen_wait '#0 of ([0-9]+)'
screen_type '/info~no such text anywhere'
screen_keys Enter
if screen_wait 'Searching forward for info~no such text anywhere\.\.\. [0-9]+% of 5452492 events +\(x cancels\)'; then
	pass "the search's progress line names the bound key: (x cancels)"
else
	fail "progress line with job-cancel = x"
fi
screen_type 'x'
if screen_wait_all 'Search cancelled' '#0 of 5452492'; then
	pass "x cancels the search, the selection stays"
else
	fail "x cancels the search"
fi
screen_type ':filter .*: common_pid == 1'
screen_keys Enter
if screen_wait 'Filtering\.\.\. [0-9]+% of 5452492 events +\(x cancels\)'; then
	pass "the filter pass's progress line names x"
else
	fail "filter progress with job-cancel = x"
fi
screen_type 'x'
if screen_wait 'Filtering cancelled; the filters are as they were'; then
	pass "x cancels the filter pass"
else
	fail "x cancels the filter pass"
fi
screen_type 'q'
screen_stop
