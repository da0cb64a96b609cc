#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The screen while the trace is indexed, in the real binary in tmux. The
# test-only option --test-hold-index FILE makes indexing wait past each
# CPU's first page until FILE exists, so the loading screen stays up for as
# long as the test needs, with no timing: its first rows must be trace-cmd
# report's, the list must scroll, other keys must say indexing goes on,
# q and Ctrl-C must quit, and once FILE exists the viewer must take over.
# Every wait polls the screen with a timeout.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin loading tmux
export SCREEN_KEEP_LOADING=1

hold=$tmp/hold
report=$tmp/report
trace-cmd report -i "$sample" 2>/dev/null | sed 1d >"$report"

# as tests/screen.sh: the outer shell ignores SIGINT, so it can say how we died
start() {
	rm -f "$hold"
	screen_start "$1" "$2" "sh -c 'trap : INT; sh -c \"exec env LC_ALL=$3 \
$bin --test-hold-index $hold --no-session $sample\"; echo EXITED rc=\$?; exec cat'"
}

# The loading screen's list row whose # is $1: "CPU TIME EVENT" of it.
row_of() {
	awk -v r="$1" '$1 == r && $2 ~ /^[0-9]+$/ { print $2, $3, $7; exit }' <<<"$SCREEN_LAST"
}

# report's line $1 (from 0): "CPU TIME EVENT".
report_row() {
	sed -n "$(($1 + 1))p" "$report" |
		sed -E 's/^ *.*-[0-9]+ +\[0*([0-9]+)\] +([0-9.]+): ([a-z_0-9]+):.*/\1 \2 \3/'
}

start 100 30 "${utf8:-C}"
if ! screen_wait '\(indexing\)'; then
	fail "the loading screen did not come"
	exit 0
fi
if screen_wait '^ +0 +[0-9]+ +[0-9]+\.[0-9]+ '; then
	bad=0
	for r in 0 1 2 5 10 20; do
		[ "$(row_of $r)" = "$(report_row $r)" ] || {
			bad=1
			echo "  row $r: screen '$(row_of $r)', report '$(report_row $r)'"
		}
	done
	if [ $bad = 0 ]; then
		pass "the first rows while indexing are report's"
	else
		fail "the first rows while indexing are not report's"
	fi
else
	fail "no list rows on the loading screen"
fi
grep -q '^CPU0 ' <<<"$SCREEN_LAST" && grep -q 'indexing [0-9]* events' <<<"$SCREEN_LAST" &&
	pass "CPU rows and a progress line while indexing" ||
	fail "CPU rows and a progress line while indexing"
if [ -n "$utf8" ]; then
	# the first page of each CPU gets indexed before the hold
	screen_wait '^CPU0 .*█.*·' &&
		pass "a CPU row shows what is indexed and dots for what is not" ||
		fail "a CPU row shows what is indexed and dots for what is not: $(grep '^CPU0' <<<"$SCREEN_LAST")"
fi

screen_keys j j j
if screen_wait '^ +3 +[0-9]+ +[0-9]+\.' && ! grep -qE '^ +2 +[0-9]+ +[0-9]' <<<"$SCREEN_LAST"; then
	[ "$(row_of 3)" = "$(report_row 3)" ] &&
		pass "j scrolls the list while indexing (row 3 at the top)" ||
		fail "j scrolls: row 3 is '$(row_of 3)', report '$(report_row 3)'"
else
	fail "j does not scroll the list while indexing"
fi
# 30 lines: title, 2 CPUs, the span, the header, 24 rows, status; a page is 23 rows
screen_keys NPage
if screen_wait '^ +26 +[0-9]+ +[0-9]+\.' && ! grep -qE '^ +25 +[0-9]+ +[0-9]' <<<"$SCREEN_LAST"; then
	[ "$(row_of 30)" = "$(report_row 30)" ] &&
		pass "PgDn pages the list while indexing (rows from 26, as report's)" ||
		fail "PgDn: row 30 is '$(row_of 30)', report '$(report_row 30)'"
else
	fail "PgDn does not page the list while indexing"
fi
screen_keys +
screen_wait 'still indexing' && pass "another key says indexing goes on" ||
	fail "another key says nothing while indexing"

touch "$hold"
if screen_wait_all 'of 91631' '!\(indexing\)'; then
	pass "once indexed, the viewer takes over"
else
	fail "the viewer did not take over once indexed"
fi
screen_keys q
screen_wait 'EXITED rc=0' && pass "q quits the viewer after loading" || fail "q after loading"

# quitting before the index is done
start 80 24 C
if screen_wait '\(indexing\)'; then
	grep -q '^CPU0 .*\.' <<<"$SCREEN_LAST" &&
		pass "ASCII dots where nothing is indexed yet (LC_ALL=C)" ||
		fail "ASCII dots where nothing is indexed yet (LC_ALL=C)"
	screen_keys q
	screen_wait 'EXITED rc=0' && pass "q quits while indexing (exit 0)" ||
		fail "q while indexing"
else
	fail "the loading screen did not come (LC_ALL=C)"
fi
start 80 24 C
if screen_wait '\(indexing\)'; then
	screen_keys C-c
	# a shell reports death by SIGINT as 130
	screen_wait 'EXITED rc=130' && pass "Ctrl-C while indexing: killed by SIGINT, terminal back" ||
		fail "Ctrl-C while indexing"
else
	fail "the loading screen did not come (Ctrl-C)"
fi
# a tiny terminal: no crash, still quits
start 20 5 C
if screen_wait 'nurseshark'; then
	screen_keys q
	screen_wait 'EXITED rc=0' && pass "a 20x5 loading screen, q quits" || fail "20x5 loading screen"
else
	fail "the loading screen did not come at 20x5"
fi

# damage deep in the file, found while the loading screen is up: the
# terminal comes back, then the one-line reason, exit status 1
cp "$sample" "$tmp/damaged.dat"
size=$(stat -c %s "$tmp/damaged.dat")
dd if=/dev/zero of="$tmp/damaged.dat" bs=1 seek=$((size * 8 / 10)) count=2048 conv=notrunc \
	status=none
rm -f "$hold"
screen_start 80 24 "sh -c 'env LC_ALL=C $bin --test-hold-index $hold --no-session \
$tmp/damaged.dat; echo EXITED rc=\$?; exec cat'"
if screen_wait '\(indexing\)'; then
	touch "$hold"
	# the line may wrap at 80 columns
	if screen_wait 'EXITED rc=1' &&
		tr -d '\n' <<<"$SCREEN_LAST" | grep -q 'damaged.dat: corrupt: a page of its events is damaged' &&
		! grep -q '(indexing)' <<<"$SCREEN_LAST"; then
		pass "damage found while indexing: the screen goes, the reason is printed, exit 1"
	else
		fail "damage found while indexing"
	fi
else
	fail "the loading screen did not come for the damaged copy"
fi

# a path longer than the terminal: it gives way from its start, "(indexing)" stays
long=$tmp/a-directory-whose-name-is-long-enough-to-push-the-title-past-eighty-columns
mkdir -p "$long"
cp "$sample" "$long/sample.dat"
rm -f "$hold"
screen_start 80 24 "sh -c 'env LC_ALL=C $bin --test-hold-index $hold --no-session \
$long/sample.dat; echo EXITED rc=\$?; exec cat'"
if screen_wait '\(indexing\)' &&
	grep -q '^ nurseshark  \.\.\..*-eighty-columns/sample\.dat  (indexing)' <<<"$SCREEN_LAST"; then
	pass "a long path is cut from its start in the loading title, (indexing) shows"
else
	fail "a long path in the loading title"
fi
touch "$hold"
screen_wait 'of 91631'
screen_keys q
screen_wait 'EXITED rc=0'
