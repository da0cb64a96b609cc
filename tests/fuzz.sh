#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The mutational fuzzer (tests/fuzz/fuzz.c) against the real binary, with
# fixed seeds: damaged copies of real traces (v6, v7 zstd, v7 uncompressed,
# 32-bit, another writer's v7) through --export and --snapshot, damaged INI
# files (config.ini, a session, a filters file) through --check-config and
# --snapshot, and made-up command lines. A crash, a hang, a memory blow-up
# or an untidy error is a FAIL that prints the line to keep in
# tests/data/fuzz/regressions.txt, every line of which is replayed first.
#
# FUZZ_RUNS (runs per base, default a short run for `make test`),
# FUZZ_SEED (default 1) and FUZZ_SECONDS (time limit per base) are for
# `make fuzz`, which runs a long one and prints the count of runs by
# outcome.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin fuzz
shared=${NS_SHARED:-$top/../shared}
fuzz=$top/build/fuzz/fuzz
runs=${FUZZ_RUNS:-0}
seed=${FUZZ_SEED:-1}
seconds=${FUZZ_SECONDS:-15}

if [ ! -x "$fuzz" ]; then
	fail "the fuzzer $fuzz is not built (make tests builds it)"
	exit 0
fi
export TMPDIR=$tmp

# A v7 file without compression, from the bundled sample.
v7raw=
if command -v trace-cmd >/dev/null &&
	trace-cmd convert -i "$sample" -o "$tmp/v7-uncompressed.dat" --compression none \
		>/dev/null 2>&1; then
	v7raw=$tmp/v7-uncompressed.dat
fi

# The file a BASE of the regression list names, or nothing.
base_path() {
	case $1 in
	tree:*) echo "$top/${1#tree:}" ;;
	shared:*) echo "$shared/${1#shared:}" ;;
	gen:v7-uncompressed) echo "$v7raw" ;;
	esac
}

# --- every input that once failed ---------------------------------------------
n=0
while read -r kind mode base spec; do
	case $kind in '' | '#'*) continue ;; esac
	n=$((n + 1))
	file=$(base_path "$base")
	if [ -z "$file" ] || [ ! -r "$file" ]; then
		skip "regression $n ($base): base file not found"
		continue
	fi
	# shellcheck disable=SC2086
	"$fuzz" replay "$bin" "$kind" "$mode" "$file" $spec -- "$sample"
done <"$top/tests/data/fuzz/regressions.txt"

# --- a run over each base ------------------------------------------------------
# fuzz_base KIND MODE FILE RUNS [TRACE]: RUNS is the short run's count.
fuzz_base() {
	local kind=$1 mode=$2 file=$3 count=$4
	shift 4
	[ "$runs" -gt 0 ] && count=$runs
	if [ "$kind" != cmdline ] && [ ! -r "$file" ]; then
		skip "$kind $mode $(basename "$file"): not found (NS_SHARED=$shared)"
		return
	fi
	"$fuzz" run "$bin" "$kind" "$mode" "$file" "$seed" "$count" "$seconds" "$@" |
		tee -a "$tmp/summary"
}

public=$shared/traces/public
fuzz_base trace snapshot "$sample" 20
fuzz_base trace export "$sample" 8
fuzz_base trace export "$shared/traces/sched-v6.dat" 20
fuzz_base trace snapshot "$top/tests/data/lost-events.dat" 12
fuzz_base trace snapshot "$public/kinmax__buildroot-kernel__trace_fifo_multicore.dat" 40
fuzz_base trace export "$public/ARM-software__lisa__tests-trace-2014-07-03-thermal.dat" 30
fuzz_base trace export "$public/lanhaocoder__LanGraph__trace.dat" 10
if [ -n "$v7raw" ]; then
	fuzz_base trace snapshot "$v7raw" 15
else
	skip "v7 uncompressed: trace-cmd convert is not available"
fi
# Pages bigger than 4 KiB: the kernel here refuses buffer_subbuf_size_kb, so
# tests/fuzz/repage.c re-packs a real trace (v6, uncompressed) into 16 KiB
# pages; trace-cmd report of it must be the original's, and so our export.
big=
repaged() {	# NAME SOURCE KB
	local name=$1 src=$2 kb=$3 out=$tmp/$1-$3k.dat
	if ! trace-cmd convert -i "$src" -o "$tmp/$name-v6.dat" --file-version 6 \
		--compression none >/dev/null 2>&1; then
		skip "$name in $kb KiB pages: trace-cmd convert to v6 failed"
		return 1
	fi
	if ! "$top/build/fuzz/repage" "$tmp/$name-v6.dat" "$out" "$kb"; then
		fail "$name in $kb KiB pages: repage failed"
		return 1
	fi
	trace-cmd report "$tmp/$name-v6.dat" >"$tmp/$name.want" 2>/dev/null
	trace-cmd report "$out" >"$tmp/$name.got" 2>/dev/null
	"$bin" --no-session --export "$out" >"$tmp/$name.export" 2>&1
	local ps pages0 pages1
	ps=$(od -A n -t u4 -j 14 -N 4 "$out" | tr -d ' ')
	pages0=$(trace-cmd dump --flyrecord -i "$tmp/$name-v6.dat" 2>/dev/null |
		awk '/size of cpu/ { n += $2 / 4096 } END { print n + 0 }')
	pages1=$(trace-cmd dump --flyrecord -i "$out" 2>/dev/null |
		awk -v ps="$ps" '/size of cpu/ { n += $2 / ps } END { print n + 0 }')
	if [ "$ps" = $((kb * 1024)) ] && [ "$pages1" -gt 0 ] && [ "$pages1" -lt "$pages0" ] &&
		[ -s "$tmp/$name.want" ] && cmp -s "$tmp/$name.want" "$tmp/$name.got" &&
		cmp -s "$tmp/$name.got" "$tmp/$name.export"; then
		pass "$name in $kb KiB pages: $pages1 pages of $ps bytes for $pages0 of 4096," \
			"report and export as the original's report" \
			"($(grep -c 'EVENTS DROPPED' "$tmp/$name.got") drop lines)"
	else
		fail "$name in $kb KiB pages: page size $ps, $pages1 pages for $pages0;" \
			"report vs original: $(diff "$tmp/$name.want" "$tmp/$name.got" | head -3 | tr '\n' ' ');" \
			"export vs report: $(diff "$tmp/$name.got" "$tmp/$name.export" | head -3 | tr '\n' ' ')"
		return 1
	fi
}
if command -v trace-cmd >/dev/null; then
	repaged sample "$sample" 16 || true
	repaged lost "$top/tests/data/lost-events.dat" 8 || true
	if repaged lost "$top/tests/data/lost-events.dat" 16; then
		big=$tmp/lost-16k.dat
		[ "$(grep -c 'EVENTS DROPPED' "$tmp/lost.got")" = 22 ] ||
			fail "lost-events.dat in 16 KiB pages: report shows" \
				"$(grep -c 'EVENTS DROPPED' "$tmp/lost.got") drop lines, want 22"
	fi
fi
if [ -n "$big" ]; then
	fuzz_base trace snapshot "$big" 15
	fuzz_base trace export "$big" 8
	# trace-cmd convert keeps the page size: a v7 (zstd) file of 16 KiB pages
	if trace-cmd convert -i "$big" -o "$tmp/lost-16k-v7.dat" >/dev/null 2>&1 &&
		trace-cmd dump --summary -i "$tmp/lost-16k-v7.dat" 2>/dev/null |
		grep -q '16384.*Page size'; then
		fuzz_base trace snapshot "$tmp/lost-16k-v7.dat" 10
	else
		fail "lost-events.dat in 16 KiB pages: trace-cmd convert to v7 lost the page size"
	fi
else
	skip "a trace with pages bigger than 4 KiB: trace-cmd or repage not available"
fi

fuzz_base ini config "$top/contrib/config.ini" 40
fuzz_base ini config "$top/contrib/config.ini" 10 "$sample"
fuzz_base ini session "$top/tests/data/ini/session-values.ini" 30
fuzz_base ini session "$top/tests/data/ini/session-values.ini" 10 "$sample"
fuzz_base ini filters "$top/tests/data/ini/filters-bad.ini" 30
fuzz_base ini filters "$top/tests/data/ini/filters-bad.ini" 10 "$sample"
fuzz_base cmdline any - 60 "$sample"

# The first open runs libtracecmd beside its guard child (open.c): a file
# that crashes libtracecmd crashes this process too, whose handler then
# says what the child found. --export (the guard beside) must print what
# --summary (the guard first, then the open) prints, with status 1.
beside() {	# NAME BASE SPEC
	local name=$1 base=$2 spec=$3 rc1=0 rc2=0
	if [ ! -r "$base" ]; then
		skip "guard beside the open: $name: no $base"
		return
	fi
	"$fuzz" apply "$base" "$tmp/beside.dat" "$spec" || { fail "fuzz apply $spec"; return; }
	"$bin" --no-session --export "$tmp/beside.dat" >/dev/null 2>"$tmp/beside.err" || rc1=$?
	"$bin" --summary "$tmp/beside.dat" >/dev/null 2>"$tmp/first.err" || rc2=$?
	if [ "$rc1" = 1 ] && [ "$rc2" = 1 ] && [ "$(wc -l <"$tmp/beside.err")" = 1 ] &&
		cmp -s "$tmp/beside.err" "$tmp/first.err"; then
		pass "guard beside the open: $name: status 1, '$(cat "$tmp/beside.err")', as with the guard first"
	else
		fail "guard beside the open: $name: status $rc1 '$(head -c 200 "$tmp/beside.err")'," \
			"guard first: status $rc2 '$(head -c 200 "$tmp/first.err")'"
	fi
}
beside "kbuffer crashes in init_data" \
	"$public/tiagovignatti__intel-gpu-tools__tests-trace.dat" set:1171464:feffffff
beside "a CPU id that asks for 1.5 GB" "$sample" set:1850933:80

# The runs of every base by outcome, from their summary lines.
grep -E '^(PASS|FAIL): fuzz: .*[0-9]+ runs' "$tmp/summary" 2>/dev/null |
	sed -E 's/.*[0-9]+ runs: //; s/ \(stopped.*//' | tr ',' '\n' |
	awk '{ n = $NF; $NF = ""; sub(/ +$/, ""); sub(/^ +/, ""); sum[$0] += n; all += n }
	     END { printf "fuzz: %d runs:", all
		   for (k in sum) printf " %s %d;", k, sum[k]; printf "\n" }'
exit 0
