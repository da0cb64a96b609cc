#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Several files in the viewer (issue 10): `nurseshark -i A -i B` and
# `nurseshark A B` show both on one timeline, each buffer of each file a
# stream with CPU rows named after its file ("sample CPU0", "instance:extra
# CPU1"), and the list merges them in time order as `trace-cmd report -i A
# -i B` prints them: read back from the screen in tmux, rows at the start,
# where the second file begins, in the middle of their interleaving and at
# the end are compared with report's lines of the same rows (stream, CPU,
# time, pid, event), and the status line counts report's events. The
# pairs: contrib/sample.dat with tests/data/instance.dat (an instance),
# moved onto sample's time by --ts-offset so that the two interleave, and
# ../shared's sample.dat and sched-v6.dat (v6) as FILE arguments. Then on
# screen: from sample.dat alone, `:append instance.dat` shows both as -i A
# -i B does, `:offset instance.dat NS` shifts it as --ts-offset NS does
# (the rows compared with report's again), `:offset` of no such stream and
# `:append` of no such file say so, and `:open sched-v6.dat` shows it alone.
# Last, a file of another kernel (../shared/traces/public's ARM lisa trace,
# whose event ids are not sample.dat's: sched_switch is 98 there, 372 here)
# moved onto sample.dat: rows as report's, and `:show event sched_switch`
# shows both files' sched_switch (one catalogue of events by name). On
# equal timestamps the list (--snapshot) and the loading screen's rows
# while the files are indexed follow report's order of the buffers.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin viewfiles tmux

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
sample=$top/contrib/sample.dat
inst=$top/tests/data/instance.dat
shared=${NS_SHARED:-$top/../shared}

# rows < REPORT: report's event lines as "ROW STREAM:CPU TIME PID EVENT", the
# stream as the list's CPU column writes it (sample.dat's: "sample", an
# instance's: its name, cut to 6).
rows() {
	grep -Ev '^ *[^ ]+: cpus=[0-9]+$|CPU:[0-9]+ \[' |
		sed -nE 's/^ *([^ :]+): +.*-([0-9]+) +\[([0-9]+)\] +([0-9]+\.[0-9]+): ([^:]+):.*/\1 \3 \4 \2 \5/p' |
		awk '{ n = $1; sub(/\.dat$/, "", n); printf "%d %s:%d %s %d %s\n", NR - 1, substr(n, 1, 6), $2, $3, $4, $5 }'
}

# listed < SCREEN: the list's rows on the screen in the same form (the event
# as wide as its column).
listed() {
	awk '/^ +# +CPU +Time/ { ev = index($0, "Event"); next }
	ev && /^ *[0-9]+ +[^ ]+:[0-9]+ [0-9]+\.[0-9]+ / {
		head = substr($0, 1, ev - 1); e = substr($0, ev); sub(/ .*/, "", e)
		n = split(head, f, " ")
		while (n > 4 && f[n] !~ /^[0-9]+$/)	# the Lat column, where it fits
			n--
		printf "%d %s %s %d %s\n", f[1], f[2], f[3], f[n], e
	}'
}

# check NAME ROW: the list at row ROW (":ROW") shows report's rows.
check() {
	local name=$1 row=$2 n bad
	screen_type ":$row"
	screen_keys Enter
	if ! screen_wait "#$row of "; then
		fail "$name: row $row is not selected: $(tail -n 1 <<<"$SCREEN_LAST")"
		return
	fi
	listed <<<"$SCREEN_LAST" >"$tmp/listed"
	n=$(wc -l <"$tmp/listed")
	# each row shown as report's row of that number (its event as far as the column goes)
	bad=$(awk 'NR == FNR { want[$1] = $0; next }
		{ split(want[$1], w, " ")
		  if (w[2] != $2 || w[3] != $3 || w[4] != $4 || index(w[5], $5) != 1)
			{ print "screen: " $0 " / report: " want[$1]; exit } }' "$tmp/want" "$tmp/listed")
	if [ "$n" -lt 5 ] || ! grep -q "^$row " "$tmp/listed"; then
		fail "$name: $n list rows read at row $row, not it"
	elif [ -n "$bad" ]; then
		fail "$name: at row $row: $bad"
	else
		pass "$name: rows $(head -n 1 "$tmp/listed" | cut -d' ' -f1)-$(tail -n 1 "$tmp/listed" | cut -d' ' -f1) as report's ($(cut -d' ' -f2 "$tmp/listed" | sort -u | tr '\n' ' '))"
	fi
}

# first_of STREAM: the first row of report from STREAM (as rows() writes it).
first_of() {
	awk -v s="$1" 'index($2, s ":") == 1 { print $1; exit }' "$tmp/want"
}

# --- sample.dat and instance.dat moved onto it: -i A -i B --ts-offset -------
offset=3773600000000
trace-cmd report -i "$sample" -i "$inst" --ts-offset $offset 2>/dev/null | rows >"$tmp/want"
total=$(wc -l <"$tmp/want")
# the two interleave in report: else this pair tests no merge
switches=$(awk '{ s = $2; sub(/:.*/, "", s) } s != last { n++ } { last = s } END { print n + 0 }' "$tmp/want")
if [ "$total" -lt 1000 ] || [ "$switches" -lt 100 ]; then
	fail "report -i sample -i instance --ts-offset: $total rows, $switches changes of file"
	exit 0
fi
screen_start 80 24 "$bin --no-session -i $sample -i $inst --ts-offset $offset"
if screen_wait '^sample CPU1 +[|│]' && screen_wait '^instance CPU0 +[|│]' &&
	screen_wait '^instance:extra CPU1 +[|│]'; then
	pass "-i A -i B: graph rows sample CPU0-1, instance CPU0-1, instance:extra CPU0-1 at 80 columns"
else
	fail "-i A -i B: no rows named after both files: $(head -n 8 <<<"$SCREEN_LAST")"
fi
if screen_wait "#0 of $total\$"; then
	pass "-i A -i B: the status line counts report's $total events of both files"
else
	fail "-i A -i B: status line '$(tail -n 1 <<<"$SCREEN_LAST")', report has $total events"
fi
check "-i A -i B" 0
check "-i A -i B, where instance.dat begins" "$(first_of instan)"
check "-i A -i B, where its instance extra begins" "$(first_of extra)"
check "-i A -i B, interleaved ($switches changes of file in report)" 20000
check "-i A -i B, the end" $((total - 1))
screen_stop

# --- equal timestamps: report's order of the buffers -------------------------
# instance.dat twice, the second moved by the 1633843 ns from its first
# event to its instance's first (extra's softirq_raise): that event of the
# first file's instance and the second file's first top-buffer event tie.
# Report ties every file's top buffer before any instance, so the second
# file's event comes first; the list (--snapshot at that row) must too.
toff=1633843
trace-cmd report -i "$inst" -i "$inst" --ts-offset $toff 2>/dev/null | rows >"$tmp/want"
tie=$(awk '$2 ~ /^extra:/ && $3 == t && s ~ /^instan:/ { print r; exit } { r = $1; t = $3; s = $2 }' \
	"$tmp/want")
if [ -z "$tie" ]; then
	fail "instance.dat twice, --ts-offset $toff: no top-buffer event tied with extra's in report"
else
	"$bin" --no-session --snapshot 100x30 --keys ":$tie<Enter>" -i "$inst" -i "$inst" \
		--ts-offset $toff 2>&1 | listed >"$tmp/listed"
	bad=$(awk 'NR == FNR { want[$1] = $0; next }
		{ split(want[$1], w, " ")
		  if (w[2] != $2 || w[3] != $3 || w[4] != $4 || index(w[5], $5) != 1)
			{ print "list: " $0 " / report: " want[$1]; exit } }' "$tmp/want" "$tmp/listed")
	if ! grep -q "^$tie " "$tmp/listed" || ! grep -q "^$((tie + 1)) " "$tmp/listed"; then
		fail "equal timestamps: rows $tie and $((tie + 1)) not on the snapshot"
	elif [ -n "$bad" ]; then
		fail "equal timestamps (row $tie): $bad"
	else
		pass "equal timestamps: rows $tie-$((tie + 1)) as report's (every top buffer before any instance)"
	fi
fi

# --- the list while several files are indexed (the loading screen) -----------
# --test-hold-index holds the indexing past each CPU's first page while
# $hold is absent: the loading screen's rows, read straight from the
# files, must be report's, the tie above included.
if [ -n "$tie" ]; then
	hold=$tmp/hold
	rm -f "$hold"
	SCREEN_KEEP_LOADING=1 screen_start 100 60 \
		"$bin --test-hold-index $hold --no-session -i $inst -i $inst --ts-offset $toff"
	if ! screen_wait '\(indexing\)'; then
		fail "several files: no loading screen"
	elif ! screen_wait "^ +$((tie + 1)) +[0-9]+ +[0-9]+\.[0-9]+ "; then
		fail "several files: no list rows while indexing: $(sed -n '8,10p' <<<"$SCREEN_LAST")"
	else
		bad=
		for r in 0 1 2 $((tie - 1)) $tie $((tie + 1)); do
			# "CPU TIME EVENT" of the loading screen's row and of report's
			got=$(awk -v r="$r" '$1 == r && $2 ~ /^[0-9]+$/ { print $2, $3, $7; exit }' \
				<<<"$SCREEN_LAST")
			want=$(awk -v r="$r" '$1 == r { c = $2; sub(/^[^:]*:/, "", c); print c, $3, $5
				exit }' "$tmp/want")
			[ "$got" = "$want" ] || bad="$bad row $r: screen '$got', report '$want';"
		done
		if [ -z "$bad" ]; then
			pass "several files: the rows while indexing are report's (rows 0-2, $((tie - 1))-$((tie + 1)))"
		else
			fail "several files: the rows while indexing:$bad"
		fi
	fi
	touch "$hold"
	screen_stop
fi

# --- on screen: :append, :offset, :open --------------------------------------
trace-cmd report -i "$sample" -i "$inst" 2>/dev/null | rows >"$tmp/want"
total=$(wc -l <"$tmp/want")
screen_start 80 24 "$bin --no-session $sample"
screen_wait '^CPU1 +[|│]' || fail ":append: sample.dat alone has no row CPU1"
screen_type ":append $tmp/nosuch.dat"
screen_keys Enter
if screen_wait 'nosuch.dat: No such file'; then
	pass ":append of no such file: says so, the viewer stays"
else
	fail ":append nosuch.dat: $(tail -n 1 <<<"$SCREEN_LAST")"
fi
screen_type ":append $inst"
screen_keys Enter
if screen_wait '^instance:extra CPU1 +[|│]' && screen_wait '^sample CPU0 +[|│]' &&
	screen_wait "#0 of $total\$"; then
	pass ":append instance.dat: both files on one timeline, report's $total events"
else
	fail ":append instance.dat: $(head -n 8 <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
fi
check ":append instance.dat, where instance.dat begins" "$(first_of instan)"
screen_type ":offset nosuch.dat 5"
screen_keys Enter
if screen_wait "no stream named 'nosuch.dat'"; then
	pass ":offset of no such stream: says so"
else
	fail ":offset nosuch.dat: $(tail -n 1 <<<"$SCREEN_LAST")"
fi
trace-cmd report -i "$sample" -i "$inst" --ts-offset $offset 2>/dev/null | rows >"$tmp/want"
screen_type ":offset instance.dat:extra $offset"
screen_keys Enter
# the window now ends where sample.dat does: instance.dat moved onto it
if screen_wait 'Window: 10171\.572790-10174\.606952'; then
	pass ":offset instance.dat:extra NS: instance.dat (all its buffers) moved onto sample.dat"
else
	fail ":offset: $(sed -n 9p <<<"$SCREEN_LAST")"
fi
check ":offset instance.dat:extra $offset, interleaved" 20000
check ":offset, where its instance extra begins" "$(first_of extra)"
if [ -r "$shared/traces/sched-v6.dat" ]; then
	screen_type ":open $shared/traces/sched-v6.dat"
	screen_keys Enter
	if screen_wait '^CPU1 +[|│]' && screen_wait '#0 of 2966$' &&
		! grep -q '^sample' <<<"$SCREEN_LAST"; then
		pass ":open sched-v6.dat: it alone, its 2966 events"
	else
		fail ":open sched-v6.dat: $(head -n 5 <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
	fi
fi
screen_stop

# --- ../shared: sample.dat and sched-v6.dat (v6) as FILE arguments -----------
a=$shared/traces/sample.dat
b=$shared/traces/sched-v6.dat
if [ ! -r "$a" ] || [ ! -r "$b" ]; then
	skip "$a and $b: not there"
	exit 0
fi
trace-cmd report -i "$a" -i "$b" 2>/dev/null | rows >"$tmp/want"
total=$(wc -l <"$tmp/want")
screen_start 80 24 "$bin --no-session $a $b"
if screen_wait '^sample CPU0 +[|│]' && screen_wait '^sched-v6 CPU1 +[|│]' &&
	screen_wait "#0 of $total\$"; then
	pass "A B: rows sample CPU0.., sched-v6 CPU0.., report's $total events counted"
else
	fail "A B: $(head -n 6 <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
fi
first=$(first_of sched-)
check "A B, where sched-v6.dat begins" $((first - 3))
screen_stop

# --- a file of another kernel: event ids differ ------------------------------
lisa=$shared/traces/public/ARM-software__lisa__example_rtapp-trace.dat
if [ ! -r "$lisa" ]; then
	skip "$lisa: not there"
	exit 0
fi
loff=-249273500000000
trace-cmd report -i "$a" -i "$lisa" --ts-offset $loff 2>/dev/null | rows >"$tmp/want"
total=$(wc -l <"$tmp/want")
switches=$(awk '$5 == "sched_switch" { n++ } END { print n + 0 }' "$tmp/want")
screen_start 100 24 "$bin --no-session -i $a -i $lisa --ts-offset $loff"
if screen_wait '^ARM-soft CPU5 +[|│]' && screen_wait "#0 of $total\$"; then
	pass "sample.dat and an ARM lisa trace (6 CPUs): rows ARM-soft CPU0-5, report's $total events"
else
	fail "sample + lisa: $(head -n 9 <<<"$SCREEN_LAST"; tail -n 1 <<<"$SCREEN_LAST")"
fi
first=$(first_of ARM-so)
check "sample + lisa, where lisa begins" "$first"
# the 200th change of file in report's order
mixed=$(awk '{ f = $2; sub(/:.*/, "", f) } NR > 1 && f != last && ++n == 200 { print $1; exit }
	{ last = f }' "$tmp/want")
check "sample + lisa, interleaved" "$mixed"
check "sample + lisa, the end" $((total - 1))
screen_type ':show event sched_switch'
screen_keys Enter
if screen_wait "$switches of $total shown"; then
	pass ":show event sched_switch: both files' ($switches, ids 372 and 98), as report has them"
else
	fail ":show event sched_switch: $(grep Filters <<<"$SCREEN_LAST"), report has $switches"
fi
screen_stop
