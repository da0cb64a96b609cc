#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/bench-limits.sh [TRACE]: the big-trace case of `make bench` (issue
# 14): does nurseshark open TRACE and stay usable when memory is limited, as
# on a board with 512 MB? Three runs of `nurseshark --stats TRACE`, which
# opens the trace, draws it, zooms and pans at every level, pages the list,
# adds task rows, shows the statistics, searches and filters (see
# tests/bench.sh), each reporting its events and peak memory:
#   free     no limit
#   cgroup   in a memory cgroup limited to BENCH_CGROUP_MB (default 512) MB,
#            swap included where the kernel counts it (cgroup v2 memory.max
#            and memory.swap.max, or v1 memory.limit_in_bytes)
#   ulimit   under `ulimit -v` of BENCH_ULIMIT_MB (default 1024) MB
# A limited run passes when it exits 0 and counts as many events as the free
# run; else its last lines (the reason it gave) are shown. A limited run that
# exits 0 with fewer events has shown a short trace: that is a failure too.
#
# The free run must exit 0 and count at least BENCH_HUGE_MIN events (default
# 50 million): a file that shows fewer (a recording that failed, a trace cut
# short) measures nothing, so then every run is NOT MET and the limited runs
# are not made.
#
# Without TRACE: $BENCH_HUGE, default /tmp/huge100.dat, a trace of about 100
# million events (how to record one: README.md, "Benchmarks"); where it is
# missing the case is skipped with the reason. Needs root for the cgroup.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${NS_BIN:-$top/build/nurseshark}
trace=${1:-${BENCH_HUGE:-/tmp/huge100.dat}}
cg_mb=${BENCH_CGROUP_MB:-512}
ul_mb=${BENCH_ULIMIT_MB:-1024}
min_events=${BENCH_HUGE_MIN:-50000000}
out=${BENCH_OUT:-/tmp/nurseshark-bench}/limits
mkdir -p "$out" || exit 1

echo
echo "== limits: $trace (cgroup ${cg_mb} MB, ulimit -v ${ul_mb} MB)"
if [ ! -r "$trace" ]; then
	echo "SKIP: limits: $trace is not there (record it as README.md says, or BENCH_HUGE=FILE)"
	exit 0
fi

field() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }

# run NAME PREFIX...: `PREFIX... nurseshark --stats TRACE`, its output in
# $out/NAME.out, stderr in NAME.err, status in NAME.rc, wall seconds in NAME.wall.
run() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	"$@" "$bin" --no-session --stats "$trace" >"$out/$name.out" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' >"$out/$name.wall"
}

# The memory cgroup: v2 where the memory controller is on, else v1.
cg_dir="" cg_kind=""
make_cgroup() {
	local base
	for base in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		if [ -f "$base/cgroup.controllers" ] && grep -qw memory "$base/cgroup.controllers"; then
			grep -qw memory "$base/cgroup.subtree_control" 2>/dev/null ||
				echo +memory >"$base/cgroup.subtree_control" 2>/dev/null
			cg_dir=$base/nurseshark-bench-$$ cg_kind=v2
			mkdir "$cg_dir" 2>/dev/null || { cg_dir=""; continue; }
			echo "${cg_mb}M" >"$cg_dir/memory.max" || return 1
			[ -f "$cg_dir/memory.swap.max" ] && echo 0 >"$cg_dir/memory.swap.max"
			return 0
		fi
	done
	if [ -d /sys/fs/cgroup/memory ]; then
		cg_dir=/sys/fs/cgroup/memory/nurseshark-bench-$$ cg_kind=v1
		mkdir "$cg_dir" 2>/dev/null || { cg_dir=""; return 1; }
		echo $((cg_mb << 20)) >"$cg_dir/memory.limit_in_bytes" || return 1
		[ -f "$cg_dir/memory.memsw.limit_in_bytes" ] &&
			echo $((cg_mb << 20)) >"$cg_dir/memory.memsw.limit_in_bytes"
		return 0
	fi
	return 1
}
drop_cgroup() { [ -n "$cg_dir" ] && rmdir "$cg_dir" 2>/dev/null; }
trap drop_cgroup EXIT
# in_cgroup CMD...: CMD in the cgroup (the shell moves itself there, then execs).
in_cgroup() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg_dir" "$@"; }
cg_peak_mib() {
	local f
	for f in memory.peak memory.max_usage_in_bytes; do
		[ -r "$cg_dir/$f" ] && { awk '{ printf "%.1f", $1 / 1048576 }' "$cg_dir/$f"; return; }
	done
	echo n/a
}
cg_oom_kills() {
	if [ "$cg_kind" = v2 ]; then
		awk '$1 == "oom_kill" { print $2 }' "$cg_dir/memory.events" 2>/dev/null
	else
		awk '$1 == "oom_kill" { print $2 }' "$cg_dir/memory.oom_control" 2>/dev/null
	fi
}
in_ulimit() { sh -c 'ulimit -v "$0" && exec "$@"' $((ul_mb << 10)) "$@"; }

run free env
free_events=$(field events "$out/free.out")
status=0
report() {
	local name=$1 what=$2 peak=$3 rc ev verdict
	rc=$(cat "$out/$name.rc") ev=$(field events "$out/$name.out")
	if [ "$rc" = 0 ] && [ -n "$ev" ] && [ "$ev" = "$free_events" ]; then
		verdict=met
	elif [ "$rc" = 0 ]; then
		verdict="NOT MET: a short trace ($ev of $free_events events)"
		status=1
	else
		verdict="NOT MET: exit $rc"
		status=1
	fi
	line "$name" "$what" "$ev" "$peak" "$verdict"
}
# line NAME WHAT EVENTS PEAK VERDICT: a run's line, and the reason it gave when not met;
# then what the task timelines took, or why they were not built.
line() {
	local tl
	printf '  %-8s %-34s events=%s wall_s=%s peak_mib=%s  %s\n' "$1" "$2" "${3:-n/a}" \
		"$(cat "$out/$1.wall")" "$4" "$5"
	[ "$5" = met ] || sed -n '$p' "$out/$1.err" | sed 's/^/           said: /'
	tl=$(field sched_timelines_bytes "$out/$1.out")
	if [ -n "$tl" ]; then
		echo "           task timelines: $((tl >> 20)) MiB in $(field sched_timelines_ms "$out/$1.out") ms"
	elif grep -q '^sched_timelines_error ' "$out/$1.out"; then
		sed -n 's/^sched_timelines_error /           task timelines not built: /p' "$out/$1.out"
	fi
}
peak_of() { awk -v k=peak_rss_kib '$1 == k { printf "%.1f", $2 / 1024; exit }' "$out/$1.out"; }
free_rc=$(cat "$out/free.rc")
if [ "$free_rc" != 0 ] || [ -z "$free_events" ] || [ "$free_events" -lt "$min_events" ]; then
	line free "no limit" "$free_events" "$(peak_of free)" \
		"NOT MET: exit $free_rc, ${free_events:-no} events (BENCH_HUGE_MIN is $min_events)"
	echo "  cgroup, ulimit: not measured (the free run did not open a big enough trace)"
	exit 1
fi
report free "no limit" "$(peak_of free)"
if [ "$(id -u)" = 0 ] && make_cgroup; then
	run cgroup in_cgroup
	report cgroup "cgroup $cg_kind memory ${cg_mb} MB" "$(cg_peak_mib) (oom kills: $(cg_oom_kills))"
else
	echo "SKIP: limits: no memory cgroup to make here (needs root and the memory controller)"
fi
run ulimit in_ulimit
report ulimit "ulimit -v ${ul_mb} MB" "$(peak_of ulimit)"
exit $status
