#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make bench [TRACE="a.dat b.dat"]`: what nurseshark spends to open a trace
# and draw it zoomed out, beside what KernelShark's own library and the
# cheapest libtracecmd pass spend on the same file in the same run (the
# anchors in ../shared/bench). The machines are shared and noisy, so every
# figure is the median of BENCH_RUNS runs, interleaved, and the comparison is
# given as ratios. Never part of `make test`.
#
# For each trace:
#   nurseshark  wall and CPU seconds and peak RSS of `nurseshark --stats FILE`
#               (/usr/bin/time), and from its output: events, index bytes
#               (so bytes per event), load_ms, and redraw_us, the time of one
#               zoomed-out redraw
#   kernelshark-load, libtracecmd-scan: wall seconds and peak RSS (compare)
#   ratios      nurseshark / kernelshark for time and RSS, and nurseshark /
#               libtracecmd-scan for time (how close to the floor we are)
#
# Environment: BENCH_RUNS (default 3), BENCH_OUT (where the anchors are built
# and the results kept; default /tmp/nurseshark-bench, since ../shared is
# read-only), BENCH_V6=1 (also bench each trace converted to file format v6),
# NS_BIN, NS_SHARED.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${NS_BIN:-$top/build/nurseshark}
shared=${NS_SHARED:-$top/../shared}
shared=$(cd "$shared" 2>/dev/null && pwd || echo "$shared")
runs=${BENCH_RUNS:-3}
export BENCH_OUT=${BENCH_OUT:-/tmp/nurseshark-bench}
compare=$shared/bench/compare
status=0

mkdir -p "$BENCH_OUT" || exit 1
results=$BENCH_OUT/bench-$(date +%Y%m%d-%H%M%S).txt
exec > >(tee "$results") 2>&1
tee_pid=$!
# Let tee finish writing before make prints anything after us.
trap 'exec >&- 2>&-; wait "$tee_pid"' EXIT

traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
	if [ -r "$shared/traces/big.dat" ]; then
		traces=("$shared/traces/big.dat")
	else
		echo "SKIP: bench: no TRACE given and $shared/traces/big.dat is not there"
		echo "  usage: make bench TRACE=\"file.dat ...\""
		exit 0
	fi
fi

# The anchors need libkshark-dev, libjson-c-dev and /usr/bin/time.
"$top/contrib/install-deps.sh" --bench || echo "bench: could not install the benchmark packages"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f\n", a / b }'; }
field() { awk -v k="$1" '$1 == k { print $2; exit }'; }
kv() { grep -o "$1=[0-9.]*" | head -n 1 | cut -d= -f2; }

# Which nurseshark command to time: --stats when this build has it, else
# --snapshot (load and one screen), else nothing.
mode=""
if [ ! -x "$bin" ]; then
	echo "bench: $bin is not built: only the anchors are measured"
elif "$bin" --stats "$top/contrib/sample.dat" 2>/dev/null | grep -qE '^events [0-9]+'; then
	mode=stats
elif "$bin" --snapshot 80x24 "$top/contrib/sample.dat" >/dev/null 2>&1; then
	mode=snapshot
	echo "bench: this nurseshark has no --stats (main.c will add it): timing --snapshot 80x24"
	echo "  instead; events, bytes per event and redraw time are not available"
else
	echo "bench: this nurseshark has neither --stats nor --snapshot: only the anchors are measured"
fi

have_compare=0
if [ ! -x "$compare" ]; then
	echo "bench: $compare not found (NS_SHARED=$shared): no KernelShark figures"
elif ! make -s -C "$shared/bench" BENCH_OUT="$BENCH_OUT" >"$BENCH_OUT/anchors-build.log" 2>&1; then
	echo "bench: the anchor programs do not build (see $BENCH_OUT/anchors-build.log):"
	tail -n 3 "$BENCH_OUT/anchors-build.log" | sed 's/^/  /'
else
	have_compare=1
fi

if [ "${BENCH_V6:-0}" = 1 ]; then
	for t in "${traces[@]}"; do
		v6=$BENCH_OUT/$(basename "$t" .dat)-v6.dat
		if [ ! -s "$v6" ] || [ "$t" -nt "$v6" ]; then
			echo "bench: converting $t to file format v6 ($v6)"
			trace-cmd convert -i "$t" -o "$v6" --file-version 6 >/dev/null 2>&1 ||
				{ echo "bench: trace-cmd convert failed"; rm -f "$v6"; continue; }
		fi
		traces+=("$v6")
	done
fi

echo "nurseshark benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, median of $runs runs"
echo "  nurseshark $(git -C "$top" describe --always --dirty 2>/dev/null || echo '(no git)'), results in $results"

for t in "${traces[@]}"; do
	echo
	if [ ! -r "$t" ]; then
		echo "== $t: cannot read it"
		status=1
		continue
	fi
	echo "== $t ($(du -h --apparent-size "$t" | cut -f1))"
	rm -f "$BENCH_OUT"/ns.* "$BENCH_OUT"/ks.* "$BENCH_OUT"/scan.*
	for ((i = 0; i < runs; i++)); do
		if [ -n "$mode" ]; then
			if [ $mode = stats ]; then
				args=(--stats "$t")
			else
				args=(--snapshot 80x24 "$t")
			fi
			if /usr/bin/time -f '%e %U %S %M' -o "$BENCH_OUT/time" \
				"$bin" "${args[@]}" >"$BENCH_OUT/stats" 2>"$BENCH_OUT/stats.err"; then
				read -r wall user sys rss <"$BENCH_OUT/time"
				echo "$wall" >>"$BENCH_OUT/ns.wall"
				awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }' >>"$BENCH_OUT/ns.cpu"
				echo "$rss" >>"$BENCH_OUT/ns.rss"
				if [ $mode = stats ]; then
					for k in events index_bytes load_ms redraw_us; do
						field $k <"$BENCH_OUT/stats" >>"$BENCH_OUT/ns.$k"
					done
				fi
			else
				echo "  nurseshark failed: $(head -n 1 "$BENCH_OUT/stats.err")"
				status=1
			fi
		fi
		if [ $have_compare = 1 ]; then
			"$compare" "$t" >"$BENCH_OUT/compare" 2>&1
			grep 'kernelshark-load wall_s=' "$BENCH_OUT/compare" | kv wall_s >>"$BENCH_OUT/ks.wall"
			grep 'kernelshark-load wall_s=' "$BENCH_OUT/compare" | kv maxrss_kib >>"$BENCH_OUT/ks.rss"
			grep 'libtracecmd-scan wall_s=' "$BENCH_OUT/compare" | kv wall_s >>"$BENCH_OUT/scan.wall"
			grep 'libtracecmd-scan wall_s=' "$BENCH_OUT/compare" | kv maxrss_kib >>"$BENCH_OUT/scan.rss"
		fi
	done

	m() { [ -s "$BENCH_OUT/$1" ] && median <"$BENCH_OUT/$1"; }
	mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
	ns_wall=$(m ns.wall) ns_cpu=$(m ns.cpu) ns_rss=$(m ns.rss)
	ks_wall=$(m ks.wall) ks_rss=$(m ks.rss) scan_wall=$(m scan.wall) scan_rss=$(m scan.rss)

	if [ -n "$ns_wall" ]; then
		printf '  %-18s wall_s=%s cpu_s=%s maxrss_mib=%s   (nurseshark %s)\n' nurseshark \
			"$ns_wall" "$ns_cpu" "$(mib "$ns_rss")" "${args[*]/#$t/FILE}"
	fi
	if [ "$mode" = stats ] && [ -s "$BENCH_OUT/ns.events" ]; then
		events=$(m ns.events) index=$(m ns.index_bytes)
		printf '  %-18s events=%s index_bytes=%s bytes_per_event=%s load_ms=%s redraw_us=%s\n' \
			"nurseshark --stats" "$events" "$index" "$(ratio "$index" "$events")" \
			"$(m ns.load_ms)" "$(m ns.redraw_us)"
	elif [ -n "$mode" ]; then
		echo "  nurseshark --stats  not available in this build"
	fi
	if [ -n "$ks_wall" ]; then
		printf '  %-18s wall_s=%s maxrss_mib=%s\n' kernelshark-load "$ks_wall" "$(mib "$ks_rss")"
		printf '  %-18s wall_s=%s maxrss_mib=%s\n' libtracecmd-scan "$scan_wall" "$(mib "$scan_rss")"
	elif [ $have_compare = 1 ]; then
		echo "  anchors failed on this trace:"
		tail -n 3 "$BENCH_OUT/compare" | sed 's/^/    /'
	fi
	if [ -n "$ns_wall" ] && [ -n "$ks_wall" ]; then
		printf '  %-18s time=%s rss=%s   nurseshark/libtracecmd-scan time=%s\n' \
			"nurseshark/kernelshark" "$(ratio "$ns_wall" "$ks_wall")" \
			"$(ratio "$ns_rss" "$ks_rss")" "$(ratio "$ns_wall" "$scan_wall")"
	fi
done
exit $status
