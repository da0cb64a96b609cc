#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --index-memory (issue 14): under a budget far below big.dat's index
# (8M against 46 MB) the event chunks are evicted and read again from the
# file, and everything must come out as with the whole index (all): the
# --export (and its first rows against trace-cmd report), the --stats
# figures that are not timings (events, a search, a filter), and the screen
# after jumps about the list and a search (--snapshot), whose rows must be
# report's. Bad values are usage errors, and memory that runs out under
# ulimit -v says so.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin indexmemory

big=${NS_SHARED:-$top/../shared}/traces/big.dat

# --- the option's values ------------------------------------------------------

for v in 0 abc -5 8X 12MBx; do
	"$bin" --stats --index-memory "$v" "$sample" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "--index-memory $v: want a size" "$tmp/err"; then
		pass "--index-memory $v is a usage error"
	else
		fail "--index-memory $v: rc $rc, $(head -c 200 "$tmp/err")"
	fi
done
if "$bin" --export --index-memory 64K "$sample" >"$tmp/small" 2>"$tmp/err" &&
	"$bin" --export --index-memory all "$sample" >"$tmp/all" && cmp -s "$tmp/small" "$tmp/all"; then
	pass "sample.dat: --index-memory 64K (below the least, raised to it) is taken and exports as all does"
else
	fail "sample.dat: --index-memory 64K and all differ: $(head -c 200 "$tmp/err")"
fi

if [ ! -r "$big" ]; then
	skip "big.dat: $big not found"
	exit 0
fi

# --- --export -----------------------------------------------------------------

"$bin" --export --index-memory 8M "$big" >"$tmp/export.8M" 2>"$tmp/err.8M"
rc8=$?
"$bin" --export --index-memory all "$big" >"$tmp/export.all" 2>"$tmp/err.all"
rca=$?
if [ $rc8 = 0 ] && [ $rca = 0 ] && [ -s "$tmp/export.all" ] &&
	cmp -s "$tmp/export.8M" "$tmp/export.all"; then
	pass "big.dat: --export under 8M equals --export with all ($(wc -l <"$tmp/export.all") lines)"
else
	fail "big.dat: --export under 8M (rc $rc8) differs from all (rc $rca): $(cmp "$tmp/export.8M" "$tmp/export.all" 2>&1 | head -n 1) $(head -c 200 "$tmp/err.8M")"
fi
rm -f "$tmp/export.all"
if command -v trace-cmd >/dev/null; then
	# the first rows need chunks evicted while indexing: cheap to compare with report
	n=300000
	trace-cmd report -i "$big" 2>/dev/null | head -n "$n" >"$tmp/report.head"
	if [ "$(wc -l <"$tmp/report.head")" = $n ] &&
		head -n $n "$tmp/export.8M" | cmp -s - "$tmp/report.head"; then
		pass "big.dat: the first $n lines of --export under 8M are trace-cmd report's"
	else
		fail "big.dat: the first $n lines of --export under 8M are not report's"
	fi
else
	skip "trace-cmd is not installed: no report to compare with"
fi
rm -f "$tmp/export.8M" "$tmp/report.head"

# --- --stats: the figures that are not timings ------------------------------

figures='^(events|files|streams|search_events|search_found|search_line_events|search_line_found|filter_rows) '
for m in 8M all; do
	NS_BENCH_SEARCH='pid=4083' NS_BENCH_FILTER='sched/sched_switch: prev_pid == 4083' \
		"$bin" --stats --index-memory $m "$big" >"$tmp/stats.$m" 2>"$tmp/err.$m"
	echo "rc $?" >>"$tmp/stats.$m"
done
grep -E "$figures|^rc " "$tmp/stats.8M" >"$tmp/fig.8M"
grep -E "$figures|^rc " "$tmp/stats.all" >"$tmp/fig.all"
if grep -q '^rc 0$' "$tmp/fig.all" && grep -q '^filter_rows ' "$tmp/fig.all" &&
	cmp -s "$tmp/fig.8M" "$tmp/fig.all"; then
	pass "big.dat: --stats under 8M finds what all finds ($(tr '\n' ' ' <"$tmp/fig.8M"))"
else
	fail "big.dat: --stats under 8M: $(diff "$tmp/fig.8M" "$tmp/fig.all" | tr '\n' ' ') $(head -c 200 "$tmp/err.8M")"
fi
small=$(awk '$1 == "index_bytes" { print $2 }' "$tmp/stats.8M")
whole=$(awk '$1 == "index_bytes" { print $2 }' "$tmp/stats.all")
if [ -n "$small" ] && [ -n "$whole" ] && [ "$small" -lt $((16 << 20)) ] &&
	[ "$small" -lt $((whole / 3)) ]; then
	pass "big.dat: the index keeps $small bytes under 8M, $whole with all"
else
	fail "big.dat: the index keeps ${small:-?} bytes under 8M, ${whole:-?} with all"
fi

# --- the screen: jumps about the list, and a search ------------------------

# The list rows of a snapshot: "# CPU TIME EVENT".
rows_of() {
	awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ { print $1, $2, $3, $7 }' "$1"
}

keys=':5400000<Enter>:17<Enter>:3000000<Enter>:1234567<Enter>'
for m in 8M all; do
	LC_ALL=C NO_COLOR=1 "$bin" --no-session --snapshot 160x30 --index-memory $m --keys "$keys" \
		"$big" >"$tmp/screen.$m" 2>"$tmp/err.$m"
done
rows_of "$tmp/screen.8M" >"$tmp/rows.8M"
if [ -s "$tmp/rows.8M" ] && grep -q '^1234567 ' "$tmp/rows.8M" &&
	cmp -s "$tmp/screen.8M" "$tmp/screen.all"; then
	pass "big.dat: the screen after jumps about the list under 8M is all's"
else
	fail "big.dat: the screen after jumps under 8M: $(diff "$tmp/screen.8M" "$tmp/screen.all" | head -n 4 | tr '\n' ' ') $(head -c 200 "$tmp/err.8M")"
fi
if command -v trace-cmd >/dev/null && [ -s "$tmp/rows.8M" ]; then
	first=$(head -n 1 "$tmp/rows.8M" | cut -d' ' -f1)
	last=$(tail -n 1 "$tmp/rows.8M" | cut -d' ' -f1)
	# report's lines first..last (its line 1 is "cpus=N"), as "# CPU TIME EVENT"
	trace-cmd report -i "$big" 2>/dev/null | awk -v a=$((first + 2)) -v b=$((last + 2)) '
		NR > b { exit }
		NR >= a {
			if (match($0, /\[[0-9]+\] +[0-9.]+: [a-z_0-9]+:/)) {
				s = substr($0, RSTART, RLENGTH)
				gsub(/[\[\]:]/, " ", s)
				split(s, f, " +")
				print NR - 2, f[2] + 0, f[3], f[4]
			}
		}' >"$tmp/rows.report"
	if [ -s "$tmp/rows.report" ] && cmp -s "$tmp/rows.8M" "$tmp/rows.report"; then
		pass "big.dat: rows $first-$last on the screen under 8M are trace-cmd report's"
	else
		fail "big.dat: rows $first-$last under 8M are not report's: $(diff "$tmp/rows.8M" "$tmp/rows.report" | head -n 4 | tr '\n' ' ')"
	fi
fi

keys=':4000000<Enter>/sched_process_exit<Enter>nnn'
for m in 8M all; do
	LC_ALL=C NO_COLOR=1 "$bin" --no-session --snapshot 160x30 --index-memory $m --keys "$keys" \
		"$big" >"$tmp/search.$m" 2>"$tmp/err.$m"
done
if grep -q 'sched_process_exit' "$tmp/search.8M" && cmp -s "$tmp/search.8M" "$tmp/search.all"; then
	pass "big.dat: a search and its next matches under 8M land where all's do ($(grep -o '#[0-9]* of [0-9]*' "$tmp/search.8M"))"
else
	fail "big.dat: the search under 8M: $(diff "$tmp/search.8M" "$tmp/search.all" | head -n 4 | tr '\n' ' ')"
fi

# --- two files on one timeline: a file's event numbers are not the catalogue's ---

# kinmax's fifo_multicore numbers its event types unlike big.dat, so the
# merged trace renumbers big.dat's: a chunk evicted and read again through
# the merged trace must map the file's own numbers (it once failed with
# "cannot read an event back from the file").
other=${NS_SHARED:-$top/../shared}/traces/public/kinmax__buildroot-kernel__trace_fifo_multicore.dat
if [ -r "$other" ]; then
	for m in 8M all; do
		NS_BENCH_SEARCH='pid=4083' "$bin" --stats --index-memory $m -i "$other" -i "$big" \
			>"$tmp/two.$m" 2>"$tmp/twoerr.$m"
		echo "rc $?" >>"$tmp/two.$m"
		grep -E "$figures|^rc " "$tmp/two.$m" >"$tmp/twofig.$m"
	done
	if grep -q '^rc 0$' "$tmp/twofig.all" && grep -q '^files 2$' "$tmp/twofig.all" &&
		cmp -s "$tmp/twofig.8M" "$tmp/twofig.all"; then
		pass "two files: --stats under 8M finds what all finds ($(tr '\n' ' ' <"$tmp/twofig.8M"))"
	else
		fail "two files: --stats under 8M: $(diff "$tmp/twofig.8M" "$tmp/twofig.all" | tr '\n' ' ') $(head -c 200 "$tmp/twoerr.8M")"
	fi
	keys=':5000000<Enter>:20<Enter>:2500000<Enter>:4321000<Enter>'
	for m in 8M all; do
		LC_ALL=C NO_COLOR=1 "$bin" --no-session --snapshot 160x30 --index-memory $m \
			--keys "$keys" -i "$other" -i "$big" >"$tmp/twoscreen.$m" 2>"$tmp/twoerr.$m"
		# "# FILE:CPU TIME COMM PID FLAGS EVENT": the event's name is the catalogue's
		awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[a-z_0-9]+:[0-9]+$/ && $3 ~ /^[0-9]+\.[0-9]+$/ {
			print $1, $2, $3, $7 }' "$tmp/twoscreen.$m" >"$tmp/tworows.$m"
	done
	if grep -q '^4321000 ' "$tmp/tworows.all" && cmp -s "$tmp/tworows.8M" "$tmp/tworows.all" &&
		cmp -s "$tmp/twoscreen.8M" "$tmp/twoscreen.all"; then
		pass "two files: the screen after jumps under 8M is all's ($(wc -l <"$tmp/tworows.8M") rows)"
	else
		fail "two files: the screen after jumps under 8M: $(diff "$tmp/tworows.8M" "$tmp/tworows.all" | head -n 4 | tr '\n' ' ') $(head -c 200 "$tmp/twoerr.8M")"
	fi
else
	skip "two files: $other not found"
fi

# --- memory that runs out says which limit -------------------------------------

(ulimit -v 60000 && exec "$bin" --export --index-memory all "$big") >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q 'out of memory under ulimit -v of [0-9]* MB' "$tmp/err"; then
	pass "out of memory under ulimit -v: the message names it, exit 1 ($(cat "$tmp/err"))"
else
	fail "out of memory under ulimit -v: rc $rc, $(head -c 300 "$tmp/err")"
fi
