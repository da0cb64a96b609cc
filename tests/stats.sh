#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The statistics overlay (S, :stats) against `trace-cmd report`: markers A
# and B set around a known wakeup in the real terminal (tmux) give the
# latency that report -w prints on its sched_switch; Enter on the task of
# the worst latency puts A and B on report -w's maximum; the counts of the
# CPU and event tables are report's; sorting orders the column; the list's
# filters narrow the tables; [keys.stats] rebinds the overlay's keys.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin stats tmux

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
unset NO_COLOR

trace-cmd report -w "$sample" 2>/dev/null >"$tmp/report"
# Every sched_switch that report -w gives a latency: the row and time of the
# task's last wakeup before it, its own row and time, the latency in us.
# Rows count the event lines from 0, as the list's # column does.
awk '
match($0, / \[[0-9]+\] [0-9]+\.[0-9]+: /) {
	row = n++
	head = substr($0, RSTART, RLENGTH)
	rest = substr($0, RSTART + RLENGTH)
	ts = head
	sub(/^ \[[0-9]+\] /, "", ts)
	sub(/: $/, "", ts)
	ev = rest
	sub(/:.*/, "", ev)
	if (ev == "sched_wakeup" || ev == "sched_wakeup_new") {
		if (match(rest, /:[0-9]+ \[/)) {
			pid = substr(rest, RSTART + 1, RLENGTH - 3)
			wrow[pid] = row
			wts[pid] = ts
		}
	} else if (ev == "sched_switch" && rest ~ /Latency: /) {
		x = rest
		sub(/^.*==> /, "", x)
		if (match(x, /:[0-9]+ \[/)) {
			pid = substr(x, RSTART + 1, RLENGTH - 3)
			lat = rest
			sub(/^.*Latency: /, "", lat)
			sub(/ usecs.*/, "", lat)
			if (pid in wrow)
				print wrow[pid], wts[pid], row, ts, lat, pid
		}
	}
}' "$tmp/report" >"$tmp/lat"

# A wakeup whose latency is the largest of every switch-in between its
# wakeup and its switch-in (so that the range's maximum is it), from the
# middle of the trace.
read -r wrow wts srow sts lat pid < <(awk '
{ w[NR] = $2; s[NR] = $4; l[NR] = $5; line[NR] = $0 }
END {
	for (i = int(NR / 2); i <= NR; i++) {
		if (l[i] + 0 < 10)
			continue
		ok = 1
		for (j = i - 1; j > 0 && s[j] + 0 >= w[i] + 0; j--)
			if (l[j] + 0 > l[i] + 0)
				ok = 0
		if (ok) {
			print line[i]
			exit
		}
	}
}' "$tmp/lat")
if [ -z "${lat:-}" ]; then
	fail "no wakeup with a latency found in report -w of sample.dat"
	exit 0
fi

# --- A and B around a known wakeup, in the real terminal ----------------------
screen_start 80 24 "env LC_ALL=C TZ=UTC $bin $sample"
screen_type ":$wrow"
screen_keys Enter
screen_type a
screen_type ":$srow"
screen_keys Enter
screen_type b
if screen_wait "^A: $wts +B: $sts"; then
	screen_type S
	if screen_wait 'Statistics over A-B' &&
	   grep -q "max latency $lat us" <<<"$SCREEN_LAST"; then
		pass "A on the wakeup of pid $pid (#$wrow), B on its switch-in (#$srow): the overlay reads $lat us, as report -w"
	else
		fail "A-B around the wakeup of pid $pid: want max latency $lat us"
		screen_dump
	fi
	screen_type a	# not the overlay's: nothing happens
	screen_keys Escape
	if screen_wait_not 'Statistics over'; then
		pass "Esc closes the overlay"
	else
		fail "Esc closes the overlay"
	fi
else
	fail "markers A and B on #$wrow and #$srow"
	screen_dump
fi
screen_stop

# snap KEYS [COLSxROWS]
snap() {
	"$bin" --snapshot "${2:-80x24}" --keys "$1" "$sample"
}

col_sorted() {
	# $1: the snapshot, $2: the field, $3: -r for most first
	local v
	v=$(sed -n '4,20p' <<<"$1" | awk -v f="$2" '{ print $f }')
	[ "$(wc -l <<<"$v")" -ge 10 ] && sort -n -c $3 <<<"$v" 2>/dev/null
}

# --- Enter: markers on the worst latency of the task at the top ------------------
read -r max_lat max_ts < <(sed -n '0,/^Maximum Latency/s/^Maximum Latency: \([0-9.]*\) usecs at timestamp: \([0-9.]*\).*/\1 \2/p' "$tmp/report")
max_wts=$(awk -v ts="$max_ts" -v l="$max_lat" '$4 == ts && $5 == l { print $2; exit }' "$tmp/lat")
# the tasks by their maximum latency (o five times: the MAX LAT column)
out=$(snap 'Sooooo' 120x24)
if grep -q 'MAX LAT usv' <<<"$out" && col_sorted "$out" 8 -r; then
	pass "o moves the sort to the next columns: MAX LAT after five"
else
	fail "five o: sorted by MAX LAT"
	sed 's/^/    /' <<<"$out"
fi
out=$(snap 'Sooooo<Enter>')
if [ -n "$max_wts" ] && grep -q "^A: $max_wts  B: $max_ts " <<<"$out"; then
	pass "Enter on the task of the worst latency: A $max_wts (its wakeup), B $max_ts, as report -w's maximum ($max_lat us)"
else
	fail "Enter: want A $max_wts B $max_ts: $(grep '^A:' <<<"$out")"
fi

# --- sorting: a column in order, then reversed ---------------------------------
out=$(snap 'Sooo')
out_r=$(snap 'SoooO')
if grep -q 'WAKEUPSv' <<<"$out" && col_sorted "$out" 6 -r &&
   grep -q 'WAKEUPS^' <<<"$out_r" && col_sorted "$out_r" 6 ""; then
	pass "sorted by WAKEUPS most first, O reverses to least first"
else
	fail "sort by WAKEUPS and reverse"
	sed 's/^/    /' <<<"$out_r"
fi

# --- CPU and event tables against report's counts -------------------------------
out=$(snap 'S<Tab>')
ok=1
for cpu in 0 1; do
	want=$(grep -cE "\[00$cpu\] [0-9.]+: sched_switch:" "$tmp/report")
	got=$(awk -v c="$cpu" '$1 == c && NF == 7 { print $5 }' <<<"$out")
	[ "$got" = "$want" ] || { ok=; fail "CPU$cpu switches: $got, report has $want"; }
done
[ -n "$ok" ] && pass "the CPU table's switches per CPU are report's sched_switch lines"
out=$(snap 'S<Tab><Tab>')
want=$(grep -cE '\] [0-9.]+: sched_stat_runtime:' "$tmp/report")
if grep -qE "^ *sched/sched_stat_runtime +$want " <<<"$out"; then
	pass "the event table counts $want sched_stat_runtime, as report"
else
	fail "event table: want sched_stat_runtime $want: $(grep sched_stat_runtime <<<"$out")"
fi

# --- several streams: a CPU is named as its graph row, "extra CPU1" ---------------
inst=$top/tests/data/instance.dat
out=$("$bin" --no-session --snapshot 80x24 --keys 'S<Tab>' "$inst")
trace-cmd report "$inst" 2>/dev/null >"$tmp/ireport"
ok=1
for row in "CPU0::0" "CPU1::1" "extra CPU0:extra: :0" "extra CPU1:extra: :1"; do
	label=${row%%:*} prefix=${row#*:} cpu=${row##*:}
	prefix=${prefix%:*}
	if [ -n "$prefix" ]; then
		want=$(grep -cE "^$prefix.*\[00$cpu\] +[0-9.]+: " "$tmp/ireport")
	else
		want=$(grep -vE '^[A-Za-z0-9_.-]+: ' "$tmp/ireport" | grep -cE "\[00$cpu\] +[0-9.]+: ")
	fi
	got=$(awk -v l="$label" 'index($0, l " ") == 1 && !seen++ { print $NF }' <<<"$out")
	[ "$got" = "$want" ] || { ok=; fail "instance.dat: CPU table row '$label': events '$got', report has $want"; }
done
if [ -n "$ok" ] && grep -q '\[CPUs 4\]' <<<"$out"; then
	pass "instance.dat: the CPU table's rows are CPU0, CPU1, extra CPU0, extra CPU1 with report's events"
else
	[ -n "$ok" ] && fail "instance.dat: the CPU table has not 4 rows"
	sed 's/^/    /' <<<"$out"
fi

# --- the list's filters ----------------------------------------------------------
out=$(snap ':cpu 0<Enter>S<Tab>')
if grep -q '\[CPUs 1\]' <<<"$out" && grep -qE '^ +0 ' <<<"$out" && ! grep -qE '^ +1 +[0-9.]+ ' <<<"$out"; then
	pass ":cpu 0 then S: the CPU table has CPU0 only"
else
	fail ":cpu 0: the CPU table"
	sed 's/^/    /' <<<"$out"
fi
want=$(trace-cmd report -F sched_wakeup "$sample" 2>/dev/null | grep -cE '\] [0-9.]+: sched_wakeup:')
out=$(snap ':filter sched_wakeup<Enter>S<Tab><Tab>')
if grep -q 'event types 1\]' <<<"$out" && grep -qE "^ *sched/sched_wakeup +$want " <<<"$out"; then
	pass ":filter sched_wakeup: the event table has that type only, $want rows as report -F"
else
	fail ":filter sched_wakeup: want one type of $want"
	sed 's/^/    /' <<<"$out"
fi
out=$(snap ':stats<Enter>')
if grep -q 'Statistics over the window' <<<"$out"; then
	pass ":stats opens the overlay over the window"
else
	fail ":stats"
fi

# --- [keys.stats] rebinds its keys, and the bottom line follows --------------------
mkdir -p "$tmp/cfg/nurseshark"
printf '[session]\nrestore = no\nsave = no\n[keys.stats]\nstats-table = t\n' \
	>"$tmp/cfg/nurseshark/config.ini"
out=$("$bin" --config "$tmp/cfg/nurseshark/config.ini" --snapshot 80x24 --keys 'St' "$sample")
if grep -q '\[CPUs 2\]' <<<"$out" && grep -q ' t:table ' <<<"$out"; then
	pass "[keys.stats] stats-table = t: t shows the CPU table, the bottom line says t:table"
else
	fail "[keys.stats] stats-table = t"
	sed 's/^/    /' <<<"$out"
fi

# --- the selected event's context in the bar, and the jumps from it ---------------
# the switch-in chosen above: its sched_waking (the last before its wakeup),
# the wakeup's task (the waker), and the sched_switch that takes it off
read -r krow waker orow < <(awk -v pid="$pid" -v wrow="$wrow" -v srow="$srow" '
match($0, / \[[0-9]+\] [0-9]+\.[0-9]+: /) {
	row = n++
	pre = substr($0, 1, RSTART - 1)
	rest = substr($0, RSTART + RLENGTH)
	if (row < wrow && rest ~ ("^sched_waking: .* pid=" pid " "))
		k = row
	if (row == wrow) {
		sub(/ *$/, "", pre)
		sub(/^.*-/, "", pre)
		w = pre
	}
	if (row > srow && o == "" && rest ~ ("^sched_switch: .*:" pid " \\[.*==> "))
		o = row
}
END { print (k == "" ? wrow : k), w, o }' "$tmp/report")
bar_of() {
	sed -n '/^A: /p' <<<"$1" | head -n 1
}
out=$("$bin" --snapshot 160x24 --keys ":$srow<Enter>" "$sample")
if grep -qE "pid $pid running lat $lat""us by .*-$waker\$" <<<"$(bar_of "$out")"; then
	pass "the bar on the switch-in #$srow: pid $pid running, lat $lat us (report -w) by pid $waker (the wakeup's task)"
else
	fail "the bar on #$srow: want 'pid $pid running lat ${lat}us by ...-$waker': $(bar_of "$out")"
fi
jump() {
	# jump KEYS WANT-ROW WHAT
	local got
	got=$("$bin" --snapshot 80x24 --keys "$1" "$sample" | tail -n 1 |
	      sed -n 's/.*#\([0-9]*\) of [0-9]*.*/\1/p')
	if [ "$got" = "$2" ]; then
		pass "$3: #$2"
	else
		fail "$3: want #$2, got #$got"
	fi
}
jump ":$srow<Enter>W" "$wrow" "W from the switch-in selects its sched_wakeup"
jump ":$srow<Enter>V" "$krow" "V selects the sched_waking before it"
jump ":$wrow<Enter>I" "$srow" "I from the wakeup selects the switch-in it led to"
jump ":$srow<Enter>O" "$orow" "O selects the sched_switch that takes pid $pid off"
# an event of the task's own while it runs: I and O give that run's ends
mrow=$(awk -v pid="$pid" -v srow="$srow" -v orow="$orow" '
match($0, / \[[0-9]+\] [0-9]+\.[0-9]+: /) {
	row = n++
	pre = substr($0, 1, RSTART - 1)
	sub(/ *$/, "", pre)
	if (row > srow && row < orow && pre ~ ("-" pid "$")) {
		print row
		exit
	}
}' "$tmp/report")
if [ -n "$mrow" ]; then
	jump ":$mrow<Enter>I" "$srow" "I from an event of pid $pid while it runs selects that run's switch-in"
	jump ":$mrow<Enter>O" "$orow" "O from it selects that run's switch-out"
else
	fail "no event of pid $pid between #$srow and #$orow"
fi
out=$("$bin" --snapshot 80x24 --keys ":$srow<Enter>L" "$sample")
if grep -q "^A: $wts  B: $sts " <<<"$out"; then
	pass "L puts A on the wakeup ($wts) and B on the switch-in ($sts)"
else
	fail "L: want A $wts B $sts: $(bar_of "$out")"
fi
