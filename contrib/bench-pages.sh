#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/bench-pages.sh [TRACE...]: how long the page reader (src/trace/pages.c)
# takes for a full pass over each trace, single-threaded and with one
# thread per CPU, beside ../shared/bench/compare (KernelShark's load and the
# libtracecmd scan) on the same file in the same run. The machines are
# shared and noisy: each figure is the median of BENCH_RUNS runs (default
# 3), and the ratios are what to quote. Not part of `make test`.
#
# Without TRACE: ../shared/traces/big.dat, and /tmp/big-v6.dat, /tmp/huge.dat
# and /tmp/huge-v6.dat if they are there. BENCH_KSHARK=0 skips KernelShark's
# load (94 s on a 25 M-event v7 trace).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
shared=${NS_SHARED:-$top/../shared}
runs=${BENCH_RUNS:-3}
out=${BENCH_OUT:-/tmp/nurseshark-bench}
kshark=${BENCH_KSHARK:-1}
mkdir -p "$out" || exit 1

pkgs="libtracecmd libtraceevent libzstd zlib"
# shellcheck disable=SC2046,SC2086
cc -O2 -g -Wall -D_GNU_SOURCE -pthread -std=gnu11 -I"$top/src/trace" -I"$top/include" \
	$(pkg-config --cflags $pkgs) -o "$out/bench-pages" \
	"$top/contrib/bench-pages.c" "$top/src/trace/layout.c" "$top/src/trace/pages.c" $(pkg-config --libs $pkgs) || exit 1
make -s -C "$shared/bench" BENCH_OUT="$out" >/dev/null || exit 1

traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
	traces=("$shared/traces/big.dat")
	for f in /tmp/big-v6.dat /tmp/huge.dat /tmp/huge-v6.dat; do
		[ -r "$f" ] && traces+=("$f")
	done
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }

for f in "${traces[@]}"; do
	echo "== $f"
	: >"$out/pb.ks" ; : >"$out/pb.ksrss"; : >"$out/pb.tc"; : >"$out/pb.tcrss"
	: >"$out/pb.1"; : >"$out/pb.n"; : >"$out/pb.rss"
	for ((i = 0; i < runs; i++)); do
		if [ "$kshark" = 1 ]; then
			/usr/bin/time -f "wall_s=%e maxrss_kib=%M" -o "$out/pb.t" \
				"$out/kshark_load" "$f" >/dev/null 2>&1
			field wall_s <"$out/pb.t" >>"$out/pb.ks"
			field maxrss_kib <"$out/pb.t" >>"$out/pb.ksrss"
		fi
		/usr/bin/time -f "wall_s=%e maxrss_kib=%M" -o "$out/pb.t" \
			"$out/tcmd_scan" "$f" cpu >/dev/null 2>&1
		field wall_s <"$out/pb.t" >>"$out/pb.tc"
		field maxrss_kib <"$out/pb.t" >>"$out/pb.tcrss"
		for t in 1 0; do
			/usr/bin/time -f "wall_s=%e maxrss_kib=%M" -o "$out/pb.t" \
				"$out/bench-pages" "$f" "$t" >"$out/pb.o" 2>&1 || { cat "$out/pb.o"; exit 1; }
			sed 's/^/  /' "$out/pb.o"
			field wall_s <"$out/pb.t" >>"$out/pb.$([ $t = 1 ] && echo 1 || echo n)"
			field maxrss_kib <"$out/pb.t" >>"$out/pb.rss"
		done
	done
	ks=$(median <"$out/pb.ks"); ksrss=$(median <"$out/pb.ksrss")
	tc=$(median <"$out/pb.tc"); tcrss=$(median <"$out/pb.tcrss")
	one=$(median <"$out/pb.1"); per=$(median <"$out/pb.n"); rss=$(sort -g "$out/pb.rss" | tail -1)
	printf '  whole process, wall s (median of %d): kernelshark-load %s, libtracecmd-scan %s,\n' \
		"$runs" "${ks:-n/a}" "$tc"
	printf '    pages 1 thread %s, pages 1 thread/CPU %s; peak RSS KiB: kernelshark %s, scan %s, pages %s\n' \
		"$one" "$per" "${ksrss:-n/a}" "$tcrss" "$rss"
	awk -v ks="$ks" -v ksrss="$ksrss" -v tc="$tc" -v one="$one" -v per="$per" -v rss="$rss" 'BEGIN {
		if (ks > 0)
			printf "  ratios: pages/kernelshark time 1 thread %.3f, per CPU %.3f; RSS %.3f\n",
				one / ks, per / ks, rss / ksrss
		printf "  ratios: pages/libtracecmd-scan time 1 thread %.3f, per CPU %.3f\n",
			one / tc, per / tc
	}'
done
