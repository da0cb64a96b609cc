#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Plot rows in the real terminal (tmux), against `trace-cmd report -t -R`:
# :latency sched_waking sched_switch pid,next_pid and :plot sched_switch
# prev_prio add a row each; the labels read back the longest wakeup latency
# and prev_prio's least and greatest value that the test computes from
# report's text, over the whole trace and over a window zoomed to markers
# A and B (r); the rows are digits in ASCII, block eighths in UTF-8; the
# session saved on q brings them back (and is written again byte for byte);
# the same commands again remove them; bad input is said, with no row.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin plotrows tmux

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C

lat=':latency sched_waking sched_switch pid,next_pid'
plot=':plot sched_switch prev_prio'

# The points, from report's raw fields: "L ts latency" at each sched_switch
# that closes the last sched_waking of its next_pid, "P ts prev_prio" at
# each sched_switch; "R row ts" for every event (rows as the list's #).
trace-cmd report -t -R -i "$sample" 2>/dev/null | awk '
function field(name,   m) {
	if (match($0, " " name "=[-0-9]+"))
		return substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) + 0
	return ""
}
match($0, / \[[0-9]+\] +[0-9]+\.[0-9]+: [a-z_0-9]+:/) {
	head = substr($0, RSTART, RLENGTH)
	split(head, f, /[][ :.]+/)
	ts = f[3] * 1000000000 + f[4]
	ev = f[5]
	printf "R %d %.0f\n", n++, ts
	if (ev == "sched_switch") {
		k = field("next_pid")
		if (k in open) {
			printf "L %.0f %.0f\n", ts, ts - open[k]
			delete open[k]
		}
		printf "P %.0f %d\n", ts, field("prev_prio")
	} else if (ev == "sched_waking") {
		open[field("pid")] = ts
	}
}' >"$tmp/points"

# label KIND FROM TO: the label the row must have for the window [FROM, TO)
label() {
	awk -v kind="$1" -v a="$2" -v b="$3" '
	$1 == kind && $2 >= a && $2 < b {
		if (!nr++ || $3 > max) max = $3
		if (nr == 1 || $3 < min) min = $3
	}
	END {
		if (kind == "P") {
			if (!nr) print "prev_ -"; else printf "prev_ %d..%d\n", min, max
			exit
		}
		if (!nr) { print "lat -"; exit }
		if (max < 1000) printf "lat %dns\n", max
		else if (max < 1000000) printf "lat %.1fus\n", max / 1e3
		else if (max < 1000000000) printf "lat %.2fms\n", max / 1e6
		else printf "lat %.2fs\n", max / 1e9
	}' "$tmp/points"
}

row_ts() { awk -v r="$1" '$1 == "R" && $2 == r { print $3 }' "$tmp/points"; }

first=$(row_ts 0)
last=$(awk '$1 == "R" { t = $3 } END { print t }' "$tmp/points")
want_lat=$(label L "$first" $((last + 1)))
want_plot=$(label P "$first" $((last + 1)))
if [ "$(grep -c '^L' "$tmp/points")" -lt 100 ] || [ "$want_plot" = "prev_ -" ]; then
	fail "report's text gives too few points: $(grep -c . "$tmp/points") lines"
	exit 0
fi

h=$tmp/home
mkdir -p "$h/config" "$h/state"
start() {
	screen_start 100 40 "env LC_ALL=${1:-C} XDG_CONFIG_HOME='$h/config' \
XDG_STATE_HOME='$h/state' $bin '$sample'; echo EXITED rc=\$?; exec cat"
	screen_wait '^CPU1 '
}

# The label of a plot row as the screen shows it ("lat 7.02ms"), and its cells.
shown_label() { grep -oE "^$1[^|│]*" <<<"$SCREEN_LAST" | sed 's/ *$//'; }
cells() { grep -E "^$1" <<<"$SCREEN_LAST" | sed 's/^[^|│]*[|│]//'; }

quit() {
	screen_type q
	screen_wait '^EXITED rc=' && grep -q '^EXITED rc=0' <<<"$SCREEN_LAST"
}

if ! start; then
	fail "the viewer did not start"
	exit 0
fi
screen_type "$lat"
screen_keys Enter
screen_wait '^lat ' || fail ":latency: no row"
screen_type "$plot"
screen_keys Enter
screen_wait '^prev_ ' || fail ":plot: no row"
got_lat=$(shown_label 'lat ')
got_plot=$(shown_label 'prev_ ')
if [ "$got_lat" = "$want_lat" ] && [ "$got_plot" = "$want_plot" ]; then
	pass "the whole trace: labels '$got_lat' and '$got_plot', as report's text gives"
else
	fail "the whole trace: labels '$got_lat' and '$got_plot', report's '$want_lat' and '$want_plot'"
fi
c=$(cells 'lat ')
p=$(cells 'prev_ ')
if [[ $c =~ ^[0-9\ ]+$ && $c == *9* && $p =~ ^[0-9\ ]+$ && $p == *9* ]]; then
	pass "in ASCII the rows are digits, the greatest a 9"
else
	fail "ASCII rows: '$c' '$p'"
fi

# A and B on rows 30000 and 31500; r zooms to [A, B + 1 ns)
a=$(row_ts 30000)
b=$(row_ts 31500)
want_lat2=$(label L "$a" $((b + 1)))
want_plot2=$(label P "$a" $((b + 1)))
screen_type ':30000'
screen_keys Enter
screen_type 'a:31500'
screen_keys Enter
screen_type 'br'
screen_wait "^$want_lat2 " 5
got_lat2=$(shown_label 'lat ')
got_plot2=$(shown_label 'prev_ ')
if [ "$got_lat2" = "$want_lat2" ] && [ "$got_plot2" = "$want_plot2" ] &&
	[ "$want_lat2" != "$want_lat" ]; then
	pass "zoomed to A-B: labels '$got_lat2' and '$got_plot2', report's for that window"
else
	fail "zoomed to A-B: labels '$got_lat2' and '$got_plot2', report's '$want_lat2' and" \
		"'$want_plot2' (whole trace: '$want_lat')"
fi
zoomed=$SCREEN_LAST

# bad input: said, and no row
rows_before=$(grep -c '[|│]' <<<"$SCREEN_LAST")
screen_type ':latency nosuch sched_switch'
screen_keys Enter
screen_wait 'latency: no event nosuch in this trace' 5 && said=1
screen_type ':plot sched_switch next_comm'
screen_keys Enter
if [ -n "${said:-}" ] &&
	screen_wait "plot: sched_switch's field next_comm is not a number" 5 &&
	[ "$(grep -c '[|│]' <<<"$SCREEN_LAST")" = "$rows_before" ]; then
	pass "an unknown event, a field that is no number: said in the status line, no row"
else
	fail "bad input: the messages, or a row more ($rows_before rows before)"
fi

# the session keeps them
if quit; then
	pass "q saves and exits"
else
	fail "q: exit status"
fi
saved=$(ls "$h/state/nurseshark/"*.ini 2>/dev/null | head -n 1)
if [ -n "$saved" ] && grep -qx 'latency = sched_waking sched_switch pid,next_pid' "$saved" &&
	grep -qx 'plot = sched_switch prev_prio' "$saved" &&
	[ "$(sed -n '/^\[graph\]/,/^\[/p' "$saved" | grep -cE '^(latency|plot) = ')" = 2 ]; then
	pass "the session's [graph] has 'latency = ...' and 'plot = ...'"
else
	fail "the session: $(cat "$saved" 2>/dev/null | tr '\n' '|')"
fi
cp "$saved" "$tmp/first.ini" 2>/dev/null
start
screen_wait '^prev_ ' 5
if [ "$(shown_label 'lat ')" = "$want_lat2" ] && [ "$(shown_label 'prev_ ')" = "$want_plot2" ] &&
	[ "$(cells 'lat ')" = "$(SCREEN_LAST=$zoomed cells 'lat ')" ]; then
	pass "opened again: both rows back, the same labels and cells in the same window"
else
	fail "opened again: '$(shown_label 'lat ')' '$(shown_label 'prev_ ')'"
fi
if quit && cmp -s "$tmp/first.ini" "$saved"; then
	pass "saved again with no change: the same file, byte for byte"
else
	fail "saved again: $(diff "$tmp/first.ini" "$saved" | head -n 5 | tr '\n' '|')"
fi

# UTF-8: block eighths; the same commands again remove the rows
if [ -n "${utf8:-}" ]; then
	start "$utf8"
	screen_wait '^lat ' 5
	c=$(cells 'lat ')
	if [[ $c == *█* && ! $c =~ [0-9] ]]; then
		pass "in UTF-8 the rows are block eighths, the greatest a full block"
	else
		fail "UTF-8 row: '$c'"
	fi
	screen_type "$lat"
	screen_keys Enter
else
	start
	skip "no UTF-8 locale: block eighths not checked"
	screen_type "$lat"
	screen_keys Enter
fi
screen_wait "Row 'latency sched_waking sched_switch pid,next_pid' removed" 5 &&
	screen_wait_not '^lat ' 5 && removed1=1
screen_type "$plot"
screen_keys Enter
if [ -n "${removed1:-}" ] && screen_wait_not '^prev_ ' 5 && quit &&
	! grep -qE '^(latency|plot) = ' "$saved"; then
	pass "the same commands again remove both rows, and the session then has none"
else
	fail "removing the rows: $(grep -E '^(latency|plot) = ' "$saved" | tr '\n' '|')"
fi
