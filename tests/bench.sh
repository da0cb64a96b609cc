#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make bench [TRACE="a.dat b.dat"]`: what nurseshark spends to open a trace,
# draw it, zoom, pan, page the list, search and filter, beside what
# KernelShark's own library, the cheapest libtracecmd pass and `trace-cmd
# report` spend on the same file in the same run (the anchors in
# ../shared/bench). The machines are shared and noisy, so every
# figure is the median of BENCH_RUNS runs, interleaved, and the comparison is
# given as ratios. Never part of `make test`.
#
# For each trace, every figure of issue 5 beside its anchor, then a table of
# the issue's targets, measured / target / met?:
#   nurseshark  wall and CPU seconds and peak RSS of `nurseshark --stats FILE`
#               (/usr/bin/time; the whole run: load, redraws, steps, search
#               and filter), and from its output: events, index bytes (so
#               bytes per event), load_ms and load_peak_rss_kib (the index
#               alone), redraw_us (one zoomed-out redraw), the CPU time of
#               one zoom or pan step at every zoom level (step_redraw_us_*,
#               step_levels) and of one list page (list_page_us_*), the wall
#               time of a search of every event's info (search_ms,
#               search_events) and of a -F filter (filter_ms, filter_rows, and
#               filter_bytes: what its bitmaps hold),
#               and first_frame_ms when this build prints it
#   kernelshark-load, libtracecmd-scan: wall seconds and peak RSS (compare)
#   report|grep `trace-cmd report -i FILE | grep -c -F TEXT`, wall seconds
#   report -F   `trace-cmd report -F EXPR -i FILE | wc -l`, wall seconds
#   summary     `nurseshark --summary FILE` beside `trace-cmd report --profile
#               -i FILE`, wall seconds (issue 11: within 1/10; BENCH_SUMMARY=0
#               leaves both out)
#   search      the info search (search_ms) and the whole-line search that
#               `/TEXT` does (search_line_ms), each beside report|grep
#               (issue 14: within 1/8 and 1/4)
#   4 streams   `--stats` of several files with 4 buffers in all (issue 10:
#               zoom/pan step and list page within 5 ms, first frame within
#               1 s; BENCH_STREAMS, BENCH_STREAMS_ONLY, see below)
#   small trace the first frame of contrib/sample.dat (issue 14: within 50 ms),
#               every single run and the median
#   two files   `nurseshark --export -i A -i B` beside `trace-cmd report -i A
#               -i B` (the first two traces, or the first twice), wall seconds
#   limits      `--stats` of a ~100 M-event trace free, in a 512 MB memory
#               cgroup and under `ulimit -v` 1 GB (contrib/bench-limits.sh)
#   ratios      nurseshark's index / kernelshark's load for time, peak RSS /
#               kernelshark's, index / libtracecmd-scan (how close to the
#               floor we are), search / report|grep, filter / report -F,
#               first frame / 1000 ms. The index time is load_ms, measured
#               inside nurseshark; KernelShark's is its program's wall time
#               (load, histogram, zooms), which is what it spends before it
#               can draw.
# A trace is taken as file format v6 (index target 1/5 of KernelShark rather
# than 1/20) when its name ends in -v6.dat or its header says version 6.
#
# Environment: BENCH_RUNS (default 3), BENCH_OUT (where the anchors are built
# and the results kept; default /tmp/nurseshark-bench, since ../shared is
# read-only), BENCH_V6=1 (also bench each trace converted to file format v6),
# NS_BENCH_SEARCH (the text searched for, by nurseshark in the info column and
# by grep -F in report's output; it should match nothing, so that every event
# is read; default nurseshark-bench-no-such-text; empty: no search),
# NS_BENCH_FILTER (the -F expression, for nurseshark and for report; it should
# read every record; default '.*: common_pid == 1'; empty: no filter),
# NS_BENCH_TASK_KEYS (keys typed before the zoom and pan steps are timed a
# second time, with task rows; empty: not timed), BENCH_STREAMS (the files of
# the "4 streams" case), BENCH_STREAMS_ONLY=1 (that case alone), NS_BIN,
# NS_SHARED.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
bin=${NS_BIN:-$top/build/nurseshark}
shared=${NS_SHARED:-$top/../shared}
shared=$(cd "$shared" 2>/dev/null && pwd || echo "$shared")
runs=${BENCH_RUNS:-3}
export BENCH_OUT=${BENCH_OUT:-/tmp/nurseshark-bench}
compare=$shared/bench/compare
status=0
# nurseshark --stats reads these too: the same text and expression on both sides
export NS_BENCH_SEARCH=${NS_BENCH_SEARCH-nurseshark-bench-no-such-text}
export NS_BENCH_FILTER=${NS_BENCH_FILTER-.*: common_pid == 1}
# and the zoom and pan steps again with task rows (issue 11: task rows with
# states within the 5 ms step): R on events spread over the trace adds their
# tasks' rows (a row past the end selects the last event)
export NS_BENCH_TASK_KEYS=${NS_BENCH_TASK_KEYS-:1000<Enter>R:100000<Enter>R:1000000<Enter>R:4000000<Enter>R}

mkdir -p "$BENCH_OUT" || exit 1

# --- recording: nurseshark record beside trace-cmd record ---------------------
#
# Under ../shared/tools/workload (BENCH_RECORD_SECONDS, default 5, of forks,
# file walks, fsyncs, pipes on every CPU), `nurseshark record --duration`
# and `trace-cmd record ... sleep` (through ../shared/tools/record-trace)
# record the same events (BENCH_RECORD_EVENTS, default "sched irq timer")
# with the same per-CPU buffer (BENCH_RECORD_KB, default 1024), BENCH_RUNS
# times each, interleaved. For each, the medians of: the events in the file
# (`trace-cmd report | wc -l`), the events the kernel dropped (the overrun
# and dropped counts of the file's CPU stats, `trace-cmd report --stat`),
# and the recorder's CPU seconds (user + sys of the recorder and its
# children, /usr/bin/time; the workload runs outside it). Beside them
# `nurseshark live` on a 100x30 tmux screen for the same seconds, with
# the same events and buffer (issue 12: it keeps up with 1 million events
# a second on 2 CPUs, dropping no more than trace-cmd record): the events
# it read and the kernel dropped, from its status line ("1.60M ev ... 12
# lost", 3 digits), and its CPU seconds (/proc/PID/stat, all its threads,
# the screen's frames included). Then events read per second for each.
# Then rate_bench (below): the events a second live reads, under a load
# that makes more than the workload does.
# Needs root, tracefs and trace-cmd (tmux for live); BENCH_RECORD=0 leaves
# it out, BENCH_FILES=0 the benches of trace files after it.
# live_run SECS ARGS...: `nurseshark live ARGS` on a tmux screen for SECS
# seconds (under the workload); prints "EVENTS LOST CPU_SECONDS".
live_run() {
	local secs=$1 sock=nsbench-$$ pid="" line i tck
	shift
	rm -f "$BENCH_OUT/live.pid"
	tmux -L "$sock" -f /dev/null new-session -d -x 100 -y 30 \
		"echo \$\$ >$BENCH_OUT/live.pid; exec $(printf '%q ' "$bin" live "$@")" </dev/null
	for i in $(seq 100); do
		[ -s "$BENCH_OUT/live.pid" ] && break
		sleep 0.05
	done
	pid=$(cat "$BENCH_OUT/live.pid" 2>/dev/null)
	sleep "$secs"	# a measurement: the time it runs, not a wait for something
	tck=$(getconf CLK_TCK)
	line=$(tmux -L "$sock" capture-pane -p | grep -E ' ev .* lost *$' | tail -n 1)
	cpu=$(awk -v t="$tck" '{ print ($14 + $15) / t }' "/proc/$pid/stat" 2>/dev/null)
	# it must be gone, its tracing state put back, before anything else records
	tmux -L "$sock" send-keys q
	for i in $(seq 1200); do
		kill -0 "$pid" 2>/dev/null || break
		[ "$i" = 600 ] && kill -TERM "$pid" 2>/dev/null
		sleep 0.05
	done
	tmux -L "$sock" kill-server 2>/dev/null
	awk -v c="${cpu:-0}" 'function n(s) { return s ~ /M$/ ? s * 1e6 : s ~ /K$/ ? s * 1e3 : s + 0 }
		{ for (i = 1; i < NF; i++) { if ($(i + 1) == "ev") e = n($i); if ($(i + 1) == "lost") l = n($i) } }
		END { printf "%d %d %s\n", e, l, c }' <<<"$line"
}

# The rate the live view keeps up with (issue 12): the workload above makes
# about 0.2 M events a second here, so a load that makes more: one `dd
# bs=1` per CPU from /dev/zero to /dev/null, each byte a read and a write
# (4 events), with only those syscalls' events, a buffer of
# BENCH_RATE_KB (20000) KiB a CPU, BENCH_RATE_SECONDS (5) seconds. For
# `nurseshark live` and `trace-cmd record`: events, dropped, events a second.
rate_load() {
	local secs=$1 n i
	n=$(nproc)
	for i in $(seq "$n"); do
		timeout "$secs" dd if=/dev/zero of=/dev/null bs=1 count=1000000000 2>/dev/null &
	done
	wait
}
rate_bench() {
	local secs=${BENCH_RATE_SECONDS:-5} kb=${BENCH_RATE_KB:-20000} rt=$shared/tools/record-trace
	local ev lost cpu f=$BENCH_OUT/rate.dat wl
	local eargs=(-e syscalls:sys_enter_read -e syscalls:sys_exit_read
		-e syscalls:sys_enter_write -e syscalls:sys_exit_write)

	echo "rate: $(nproc) x dd bs=1 for ${secs} s, read/write syscall events, buffer $kb KiB per CPU"
	printf '  %-12s %12s %12s %12s %8s\n' recorder events dropped events/s "CPU s"
	if command -v tmux >/dev/null; then
		rate_load "$((secs + 2))" &
		wl=$!
		live_run "$secs" "${eargs[@]}" -b "$kb" >"$BENCH_OUT/live.figs"
		wait "$wl"
		read -r ev lost cpu <"$BENCH_OUT/live.figs"
		printf '  %-12s %12s %12s %12s %8s\n' live "$ev" "$lost" "$((ev / secs))" "$cpu"
	fi
	rate_load "$((secs + 1))" &
	wl=$!
	/usr/bin/time -f '%U %S' -o "$BENCH_OUT/time" "$rt" -q "${eargs[@]}" -b "$kb" -o "$f" \
		sleep "$secs" >/dev/null 2>"$BENCH_OUT/rec.err"
	wait "$wl"
	ev=$(trace-cmd report "$f" 2>/dev/null | tail -n +2 | wc -l)
	lost=$(trace-cmd report --stat "$f" 2>/dev/null |
		awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')
	cpu=$(tail -n 1 "$BENCH_OUT/time" | awk '{ print $1 + $2 }')
	printf '  %-12s %12s %12s %12s %8s\n' trace-cmd "$ev" "$lost" "$((ev / secs))" "$cpu"
	rm -f "$f"
	echo "  (issue 12: live keeps up with 1000000 events/s on 2 CPUs, dropping no more than" \
		"trace-cmd; live's events are those it read in the seconds timed)"
}

record_bench() {
	local secs=${BENCH_RECORD_SECONDS:-5} kb=${BENCH_RECORD_KB:-1024}
	local events=${BENCH_RECORD_EVENTS:-sched irq timer} rt=$shared/tools/record-trace
	local eargs=() e run tool f wl out

	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: bench: record: needs root"
		return
	elif [ ! -w /sys/kernel/tracing/tracing_on ]; then
		echo "SKIP: bench: record: no tracefs at /sys/kernel/tracing"
		return
	elif ! command -v trace-cmd >/dev/null || [ ! -x "$rt" ] || [ ! -x "$bin" ]; then
		echo "SKIP: bench: record: needs trace-cmd, $rt and $bin"
		return
	fi
	for e in $events; do
		eargs+=(-e "$e")
	done
	# trace-cmd record leaves its buffer size, clock and tracing_on behind:
	# what it changes is put back after the runs.
	local T=/sys/kernel/tracing c saved_kb=() saved_on saved_clock saved_events
	for c in "$T"/per_cpu/cpu*; do
		saved_kb+=("$c/buffer_size_kb=$(cat "$c/buffer_size_kb")")
	done
	saved_on=$(cat $T/tracing_on)
	saved_clock=$(sed -E 's/.*\[(.*)\].*/\1/' $T/trace_clock)
	saved_events=$(cat $T/set_event)
	echo "record: ${secs} s of $shared/tools/workload, events: $events, buffer $kb KiB per CPU," \
		"$runs runs each (medians)"
	rm -f "$BENCH_OUT"/rec-*.{events,lost,cpu}
	for run in $(seq "$runs"); do
		# live before trace-cmd record, which leaves its buffer size behind
		for tool in nurseshark live trace-cmd; do
			f=$BENCH_OUT/rec-$tool.dat
			"$shared/tools/workload" "$((secs + 1))" >/dev/null 2>&1 &
			wl=$!
			if [ "$tool" = live ]; then
				if command -v tmux >/dev/null; then
					live_run "$secs" "${eargs[@]}" -b "$kb" >"$BENCH_OUT/live.figs"
					read -r ev lost cpu <"$BENCH_OUT/live.figs"
					echo "$ev" >>"$BENCH_OUT/rec-live.events"
					echo "$lost" >>"$BENCH_OUT/rec-live.lost"
					echo "$cpu" >>"$BENCH_OUT/rec-live.cpu"
				fi
				wait "$wl"
				continue
			fi
			if [ "$tool" = nurseshark ]; then
				/usr/bin/time -f '%U %S' -o "$BENCH_OUT/time" "$bin" record --no-view \
					"${eargs[@]}" -b "$kb" -o "$f" --duration "$secs" \
					>/dev/null 2>"$BENCH_OUT/rec.err"
			else
				/usr/bin/time -f '%U %S' -o "$BENCH_OUT/time" "$rt" -q "${eargs[@]}" \
					-b "$kb" -o "$f" sleep "$secs" >/dev/null 2>"$BENCH_OUT/rec.err"
			fi
			out=$?
			wait "$wl"
			if [ "$out" != 0 ] || [ ! -s "$f" ]; then
				echo "  $tool record failed: $(tail -n 1 "$BENCH_OUT/rec.err")"
				continue
			fi
			tail -n 1 "$BENCH_OUT/time" | awk '{ print $1 + $2 }' >>"$BENCH_OUT/rec-$tool.cpu"
			trace-cmd report "$f" 2>/dev/null | tail -n +2 | wc -l >>"$BENCH_OUT/rec-$tool.events"
			trace-cmd report --stat "$f" 2>/dev/null |
				awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }' \
				>>"$BENCH_OUT/rec-$tool.lost"
		done
	done
	printf '  %-12s %12s %12s %10s %12s %12s\n' recorder events dropped "dropped %" "CPU s" \
		"events/s"
	for tool in nurseshark trace-cmd live; do
		local ev lost cpu
		ev=$(median <"$BENCH_OUT/rec-$tool.events" 2>/dev/null)
		lost=$(median <"$BENCH_OUT/rec-$tool.lost" 2>/dev/null)
		cpu=$(median <"$BENCH_OUT/rec-$tool.cpu" 2>/dev/null)
		printf '  %-12s %12s %12s %10s %12s %12s\n' "$tool" "${ev:-?}" "${lost:-?}" \
			"$(awk -v l="$lost" -v e="$ev" 'BEGIN { if (l == "" || e == "" || l + e == 0) print "n/a";
				else printf "%.2f\n", 100 * l / (l + e) }')" "${cpu:-?}" \
			"$(awk -v e="$ev" -v s="$secs" 'BEGIN { if (e == "") print "?"; else printf "%d\n", e / s }')"
	done
	echo "  (issue 12: live keeps up with 1000000 events/s on 2 CPUs, dropping no more than" \
		"trace-cmd; the workload makes what it makes: events/s is what was there to read)"
	rate_bench
	rm -f "$BENCH_OUT"/rec-*.dat
	for c in "${saved_kb[@]}"; do
		echo "${c#*=}" >"${c%%=*}"
	done
	echo "$saved_clock" >$T/trace_clock
	: >$T/set_event
	[ -z "$saved_events" ] || echo "$saved_events" >$T/set_event
	echo "$saved_on" >$T/tracing_on
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'; }
[ "${BENCH_RECORD:-1}" = 1 ] && record_bench
[ "${BENCH_FILES:-1}" = 1 ] || exit 0
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
ratio3() {
	awk -v a="$1" -v b="$2" \
		'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.3f\n", a / b }'
}
# met A B T: "yes" when A / B <= T, "n/a" when A or B is unknown.
met() {
	awk -v a="$1" -v b="$2" -v t="$3" \
		'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else print (a / b <= t) ? "yes" : "no" }'
}
# The trace.dat file format: 6 for a name ending in -v6.dat or a header
# "\027\010Dtracing6\0", else what the header says (7), or "?".
trace_version() {
	case $1 in *-v6.dat) echo 6; return ;; esac
	if [ "$(head -c 10 "$1" | od -An -tx1 | tr -d ' \n')" = 17084474726163696e67 ]; then
		dd if="$1" bs=1 skip=10 count=4 2>/dev/null | tr '\0' '\n' | head -n 1
	else
		echo "?"
	fi
}
# time_pipe NAME SCRIPT ARGS...: wall seconds of `sh -c SCRIPT sh ARGS...`
# into $BENCH_OUT/NAME.wall, its output into NAME.out.
# Read the trace once, untimed, so that each tool timed next starts with the
# file in the page cache. These machines page out what nobody touched for a
# minute (DAMON's pageout scheme, /sys/kernel/mm/damon/admin: age 12 of 5 s
# intervals), so the first tool of each trace (ours) read it cold after the
# minutes the previous trace's tools took, and the next ones warm: one
# source of the v6 index's spread (issue 14 asked where it came from).
warm() {
	cat "$1" >/dev/null 2>&1
}

time_pipe() {
	local name=$1 script=$2
	shift 2
	local f
	for f; do [ -f "$f" ] && warm "$f"; done
	if /usr/bin/time -f '%e' -o "$BENCH_OUT/time" sh -c "$script" sh "$@" \
		>"$BENCH_OUT/$name.out" 2>"$BENCH_OUT/$name.err"; then
		tail -n 1 "$BENCH_OUT/time" >>"$BENCH_OUT/$name.wall"
	else
		echo "  $name failed: $(head -n 1 "$BENCH_OUT/$name.err")"
	fi
}

# Which nurseshark command to time: --stats when this build has it, else
# --snapshot (load and one screen), else nothing.
mode=""
if [ ! -x "$bin" ]; then
	echo "bench: $bin is not built: only the anchors are measured"
elif NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" --stats "$top/contrib/sample.dat" 2>/dev/null |
	grep -qE '^events [0-9]+'; then
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

# What --stats prints that the bench keeps (first_frame_ms only when the build has it).
stats_keys="events index_bytes load_ms load_cpu_ms load_peak_rss_kib redraw_us step_levels
	step_redraws step_redraw_us_max step_redraw_us_median list_pages list_page_us_max
	list_page_us_median step_redraw_us_max_raw list_page_us_max_raw search_ms search_events search_found filter_ms filter_rows filter_bytes
	search_line_ms search_line_events search_line_found first_frame_ms peak_rss_kib
	task_step_rows task_step_redraw_us_max task_step_redraw_us_median stats_overlay_ms
	stats_overlay_half_ms"
grep_pipe='trace-cmd report -i "$1" | grep -c -F -- "$2"'
filter_pipe='trace-cmd report -F "$2" -i "$1" | wc -l'
summary_pipe='"$2" --summary "$1" >/dev/null'
profile_pipe='trace-cmd report --profile -i "$1" >/dev/null'
# The single runs of a figure, in the order run, and their median.
runs_of() { [ -s "$BENCH_OUT/$1" ] && tr '\n' ' ' <"$BENCH_OUT/$1" | sed 's/ $//'; }

# --- 4 streams: several files' buffers open at once (issue 10) -----------------
#
# `--stats` over files whose buffers make 4 streams, as the viewer shows
# `nurseshark A B` (one timeline), BENCH_RUNS times: the zoom/pan step and
# list page maxima (CPU, the best of 3 each) against 5 ms, and the first
# frame against 1 s. The files: $BENCH_STREAMS (blank-separated), by default
# tests/data/instance.dat twice (a top buffer and the instance "extra" each:
# the only trace with an instance we have; 2 x 27,819 events). E.g.
# BENCH_STREAMS="tests/data/instance.dat ../shared/traces/big.dat
# ../shared/traces/big.dat" makes 4 streams of 10.9 million events.
# BENCH_STREAMS_ONLY=1 runs this case alone (no recording either:
# BENCH_RECORD=0).
read -r -a streams_files <<<"${BENCH_STREAMS:-$top/tests/data/instance.dat $top/tests/data/instance.dat}"
if [ "$mode" = stats ] && [ ${#streams_files[@]} -ge 1 ]; then
	rm -f "$BENCH_OUT"/streams.*
	for ((i = 0; i < runs; i++)); do
		NS_BENCH_SEARCH='' NS_BENCH_FILTER='' NS_BENCH_TASK_KEYS='' "$bin" --stats \
			"${streams_files[@]}" >"$BENCH_OUT/streams.stats" 2>"$BENCH_OUT/streams.err" ||
			{ echo "  nurseshark --stats ${streams_files[*]} failed: $(head -n 1 "$BENCH_OUT/streams.err")"; status=1; }
		for k in events streams files first_frame_ms load_ms step_levels step_redraw_us_max \
			step_redraw_us_max_raw list_pages list_page_us_max list_page_us_max_raw; do
			field $k <"$BENCH_OUT/streams.stats" >>"$BENCH_OUT/streams.$k"
		done
	done
	sm() { [ -s "$BENCH_OUT/streams.$1" ] && median <"$BENCH_OUT/streams.$1"; }
	nstreams=$(sm streams)
	echo
	echo "== ${nstreams:-?} streams: ${streams_files[*]}"
	[ "$nstreams" = 4 ] || echo "  (not 4 streams: set BENCH_STREAMS to files with 4 buffers in all)"
	printf '  %-18s events=%s files=%s streams=%s load_ms=%s (runs: %s)\n' "nurseshark --stats" \
		"$(sm events)" "$(sm files)" "${nstreams:-n/a}" "$(sm load_ms)" "$(runs_of streams.load_ms)"
	printf '  %-18s step_redraw_us_max=%s (runs: %s) step_levels=%s   (slowest single: %s)\n' \
		"zoom/pan step" "$(sm step_redraw_us_max)" "$(runs_of streams.step_redraw_us_max)" \
		"$(sm step_levels)" "$(sm step_redraw_us_max_raw)"
	printf '  %-18s list_page_us_max=%s (runs: %s) pages=%s   (slowest single: %s)\n' \
		"list page" "$(sm list_page_us_max)" "$(runs_of streams.list_page_us_max)" \
		"$(sm list_pages)" "$(sm list_page_us_max_raw)"
	printf '  %-18s first_frame_ms=%s (runs: %s)\n' "first frame" "$(sm first_frame_ms)" \
		"$(runs_of streams.first_frame_ms)"
	echo "  targets (issue 10), with ${nstreams:-?} streams open:"
	printf '    %-42s %-34s %s\n' target measured met? \
		"zoom/pan step <= 5000 us CPU, max" "$(sm step_redraw_us_max) us" \
		"$(met "$(sm step_redraw_us_max)" 1 5000)" \
		"list page <= 5000 us CPU, max" "$(sm list_page_us_max) us" \
		"$(met "$(sm list_page_us_max)" 1 5000)" \
		"first frame <= 1000 ms" "$(sm first_frame_ms) ms" "$(met "$(sm first_frame_ms)" 1 1000)"
else
	echo "SKIP: bench: ${#streams_files[@]} files for the streams case, or ${mode:-no} --stats"
fi
[ "${BENCH_STREAMS_ONLY:-0}" = 1 ] && exit $status

# --- the fixed cost: the first frame of a small trace (issue 14) ---------------
#
# `--stats contrib/sample.dat` (no search, no filter), BENCH_RUNS times: its
# first_frame_ms, from the program's start to the loading screen's first
# frame (the open, its guard in a child process included), and the open's
# CPU time (load_cpu_ms); the target is 50 ms.
small=$top/contrib/sample.dat
if [ "$mode" = stats ] && [ -r "$small" ]; then
	rm -f "$BENCH_OUT"/small.*
	for ((i = 0; i < runs; i++)); do
		NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" --stats "$small" >"$BENCH_OUT/small.stats" \
			2>/dev/null || { echo "  nurseshark --stats $small failed"; status=1; }
		field first_frame_ms <"$BENCH_OUT/small.stats" >>"$BENCH_OUT/small.frame"
		field load_cpu_ms <"$BENCH_OUT/small.stats" >>"$BENCH_OUT/small.cpu"
	done
	ff=$([ -s "$BENCH_OUT/small.frame" ] && median <"$BENCH_OUT/small.frame")
	echo
	echo "== first frame of a small trace: $small"
	printf '  %-18s first_frame_ms=%s (runs: %s) load_cpu_ms=%s (runs: %s)\n' "first frame" \
		"${ff:-n/a}" "$(runs_of small.frame)" \
		"$([ -s "$BENCH_OUT/small.cpu" ] && median <"$BENCH_OUT/small.cpu")" "$(runs_of small.cpu)"
	printf '  %-18s first_frame/50ms=%s   target <= 1: %s\n' ratios "$(ratio "$ff" 50)" \
		"$(met "$ff" 50 1)"
else
	echo "SKIP: bench: first frame of a small trace: ${mode:-no} --stats or no $small"
fi

for t in "${traces[@]}"; do
	echo
	if [ ! -r "$t" ]; then
		echo "== $t: cannot read it"
		status=1
		continue
	fi
	version=$(trace_version "$t")
	echo "== $t ($(du -h --apparent-size "$t" | cut -f1), file format v$version)"
	rm -f "$BENCH_OUT"/ns.* "$BENCH_OUT"/ks.* "$BENCH_OUT"/scan.* "$BENCH_OUT"/rgrep.* \
		"$BENCH_OUT"/rfilter.* "$BENCH_OUT"/summary.* "$BENCH_OUT"/rprofile.*
	for ((i = 0; i < runs; i++)); do
		if [ -n "$mode" ]; then
			if [ $mode = stats ]; then
				args=(--stats "$t")
			else
				args=(--snapshot 80x24 "$t")
			fi
			warm "$t"
			if /usr/bin/time -f '%e %U %S %M' -o "$BENCH_OUT/time" \
				"$bin" "${args[@]}" >"$BENCH_OUT/stats" 2>"$BENCH_OUT/stats.err"; then
				read -r wall user sys rss <"$BENCH_OUT/time"
				echo "$wall" >>"$BENCH_OUT/ns.wall"
				awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }' >>"$BENCH_OUT/ns.cpu"
				echo "$rss" >>"$BENCH_OUT/ns.rss"
			else
				echo "  nurseshark failed: $(head -n 1 "$BENCH_OUT/stats.err")"
				status=1
			fi
			# what it printed before a failure still counts
			if [ $mode = stats ]; then
				for k in $stats_keys; do
					v=$(field $k <"$BENCH_OUT/stats")
					[ -n "$v" ] && echo "$v" >>"$BENCH_OUT/ns.$k"
				done
			fi
		fi
		if [ $have_compare = 1 ]; then
			warm "$t"
			"$compare" "$t" >"$BENCH_OUT/compare" 2>&1
			grep 'kernelshark-load wall_s=' "$BENCH_OUT/compare" | kv wall_s >>"$BENCH_OUT/ks.wall"
			grep 'kernelshark-load wall_s=' "$BENCH_OUT/compare" | kv maxrss_kib >>"$BENCH_OUT/ks.rss"
			grep 'libtracecmd-scan wall_s=' "$BENCH_OUT/compare" | kv wall_s >>"$BENCH_OUT/scan.wall"
			grep 'libtracecmd-scan wall_s=' "$BENCH_OUT/compare" | kv maxrss_kib >>"$BENCH_OUT/scan.rss"
		fi
		# grep exits 1 when nothing matches, which is the point: the pipe's status is wc's
		[ -n "$NS_BENCH_SEARCH" ] && time_pipe rgrep "$grep_pipe; true" "$t" "$NS_BENCH_SEARCH"
		[ -n "$NS_BENCH_FILTER" ] && time_pipe rfilter "$filter_pipe" "$t" "$NS_BENCH_FILTER"
		if [ "${BENCH_SUMMARY:-1}" = 1 ] && [ -n "$mode" ]; then
			time_pipe summary "$summary_pipe" "$t" "$bin"
			time_pipe rprofile "$profile_pipe" "$t"
		fi
	done

	m() { [ -s "$BENCH_OUT/$1" ] && median <"$BENCH_OUT/$1"; }
	mib() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
	ms() { [ -n "$1" ] && awk -v s="$1" 'BEGIN { printf "%.0f", s * 1000 }'; }
	ns_wall=$(m ns.wall) ns_cpu=$(m ns.cpu) ns_rss=$(m ns.rss)
	ks_wall=$(m ks.wall) ks_rss=$(m ks.rss) scan_wall=$(m scan.wall) scan_rss=$(m scan.rss)
	ks_ms=$(ms "$ks_wall") scan_ms=$(ms "$scan_wall")
	rgrep_ms=$(ms "$(m rgrep.wall)") rfilter_ms=$(ms "$(m rfilter.wall)")
	summary_ms=$(ms "$(m summary.wall)") rprofile_ms=$(ms "$(m rprofile.wall)")
	for k in $stats_keys; do
		printf -v "s_$k" '%s' "$(m ns.$k)"
	done

	if [ -n "$ns_wall" ]; then
		printf '  %-18s wall_s=%s cpu_s=%s maxrss_mib=%s   (nurseshark %s)\n' nurseshark \
			"$ns_wall" "$ns_cpu" "$(mib "$ns_rss")" "${args[*]/#$t/FILE}"
	fi
	if [ "$mode" = stats ] && [ -n "$s_events" ]; then
		printf '  %-18s events=%s index_bytes=%s bytes_per_event=%s load_ms=%s load_cpu_ms=%s%s\n' \
			"nurseshark --stats" "$s_events" "$s_index_bytes" \
			"$(ratio "$s_index_bytes" "$s_events")" "$s_load_ms" "$s_load_cpu_ms" \
			" load_maxrss_mib=$(mib "$s_load_peak_rss_kib") redraw_us=$s_redraw_us"
		printf '  %-18s step_redraw_us_max=%s step_redraw_us_median=%s step_levels=%s steps=%s%s\n' \
			"zoom/pan step" "${s_step_redraw_us_max:-n/a}" "${s_step_redraw_us_median:-n/a}" \
			"${s_step_levels:-n/a}" "${s_step_redraws:-n/a}" \
			"   (CPU; 200x50, key and redraw, each the best of 3; slowest single: ${s_step_redraw_us_max_raw:-n/a})"
		[ -n "$NS_BENCH_TASK_KEYS" ] &&
			printf '  %-18s task_step_redraw_us_max=%s task_step_redraw_us_median=%s task_rows=%s%s\n' \
				"  with task rows" "${s_task_step_redraw_us_max:-n/a}" \
				"${s_task_step_redraw_us_median:-n/a}" "${s_task_step_rows:-n/a}" \
				"   (the same steps after NS_BENCH_TASK_KEYS)"
		printf '  %-18s stats_overlay_ms=%s stats_overlay_half_ms=%s%s\n' "statistics" \
			"${s_stats_overlay_ms:-n/a}" "${s_stats_overlay_half_ms:-n/a}" \
			"   (S over the whole trace, and over its second half)"
		printf '  %-18s list_page_us_max=%s list_page_us_median=%s pages=%s%s\n' \
			"list page" "${s_list_page_us_max:-n/a}" "${s_list_page_us_median:-n/a}" \
			"${s_list_pages:-n/a}" "   (CPU, best of 3; slowest single: ${s_list_page_us_max_raw:-n/a})"
		if [ -n "$NS_BENCH_SEARCH" ]; then
			printf '  %-18s search_ms=%s (runs: %s) search_events=%s   (info contains "%s")\n' \
				"nurseshark search" "${s_search_ms:-n/a}" "$(runs_of ns.search_ms)" \
				"${s_search_events:-n/a}" "$NS_BENCH_SEARCH"
			printf '  %-18s search_line_ms=%s (runs: %s) search_line_events=%s   (/TEXT: the whole line)\n' \
				"" "${s_search_line_ms:-n/a}" "$(runs_of ns.search_line_ms)" \
				"${s_search_line_events:-n/a}"
			[ "$s_search_found" = 1 ] || [ "$s_search_line_found" = 1 ] &&
				echo "    (the text was found: the search stopped there, not every event was read)"
		fi
		[ -n "$NS_BENCH_FILTER" ] &&
			printf '  %-18s filter_ms=%s filter_rows=%s filter_bytes=%s   (-F %s)\n' \
				"nurseshark filter" "${s_filter_ms:-n/a}" "${s_filter_rows:-n/a}" \
				"${s_filter_bytes:-n/a}" "'$NS_BENCH_FILTER'"
		printf '  %-18s first_frame_ms=%s\n' "first frame" "${s_first_frame_ms:-n/a}"
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
	[ -n "$NS_BENCH_SEARCH" ] &&
		printf '  %-18s wall_s=%s (runs: %s) matches=%s   (trace-cmd report -i FILE | grep -c -F TEXT)\n' \
			"report|grep" "$(m rgrep.wall)" "$(runs_of rgrep.wall)" \
			"$(cat "$BENCH_OUT/rgrep.out" 2>/dev/null)"
	if [ -n "$summary_ms" ] && [ -n "$rprofile_ms" ]; then
		printf '  %-18s wall_s=%s (runs: %s)   (nurseshark --summary FILE)\n' "summary" \
			"$(m summary.wall)" "$(runs_of summary.wall)"
		printf '  %-18s wall_s=%s (runs: %s)   (trace-cmd report --profile -i FILE)\n' \
			"report --profile" "$(m rprofile.wall)" "$(runs_of rprofile.wall)"
	elif [ "${BENCH_SUMMARY:-1}" != 1 ]; then
		echo "SKIP: bench: --summary against report --profile: BENCH_SUMMARY=${BENCH_SUMMARY:-}"
	fi
	[ -n "$NS_BENCH_FILTER" ] &&
		printf '  %-18s wall_s=%s lines=%s   (trace-cmd report -F EXPR -i FILE | wc -l)\n' \
			"report -F" "$(m rfilter.wall)" "$(cat "$BENCH_OUT/rfilter.out" 2>/dev/null)"

	# the ratios, and the issue's targets (index: 1/5 of KernelShark for v6, 1/20 for v7)
	idx_target=0.05 idx_frac=1/20
	[ "$version" = 6 ] && idx_target=0.2 idx_frac=1/5
	if [ "$mode" = stats ] && [ -n "$s_events" ]; then
		printf '  %-18s index/kernelshark-load=%s maxrss/kernelshark=%s (index alone %s)%s\n' \
			ratios "$(ratio "$s_load_ms" "$ks_ms")" "$(ratio "$ns_rss" "$ks_rss")" \
			"$(ratio "$s_load_peak_rss_kib" "$ks_rss")" \
			" index/libtracecmd-scan=$(ratio "$s_load_ms" "$scan_ms")"
		printf '  %-18s search/report|grep=%s search_line/report|grep=%s filter/report-F=%s first_frame/1000ms=%s\n' "" \
			"$(ratio "$s_search_ms" "$rgrep_ms")" "$(ratio "$s_search_line_ms" "$rgrep_ms")" \
			"$(ratio "$s_filter_ms" "$rfilter_ms")" "$(ratio "$s_first_frame_ms" 1000)"
		printf '  %-18s summary/report--profile=%s\n' "" "$(ratio "$summary_ms" "$rprofile_ms")"
		echo "  targets (issue 5), v$version:"
		row() { printf '    %-42s %-34s %s\n' "$1" "$2" "$3"; }
		row target measured met?
		row "index <= $idx_frac of KernelShark's load" \
			"$(ratio3 "$s_load_ms" "$ks_ms") (${s_load_ms:-?} / ${ks_ms:-?} ms)" \
			"$(met "$s_load_ms" "$ks_ms" "$idx_target")"
		row "peak RSS <= 1/20 of KernelShark's (issue 14)" \
			"$(ratio3 "$ns_rss" "$ks_rss") ($(mib "$ns_rss") / $(mib "$ks_rss") MiB)" \
			"$(met "$ns_rss" "$ks_rss" 0.05)"
		row "  (the index alone)" \
			"$(ratio3 "$s_load_peak_rss_kib" "$ks_rss") ($(mib "$s_load_peak_rss_kib") MiB)" \
			"$(met "$s_load_peak_rss_kib" "$ks_rss" 0.05)"
		row "first frame <= 1000 ms" "${s_first_frame_ms:-n/a}${s_first_frame_ms:+ ms}" \
			"$(met "$s_first_frame_ms" 1 1000)"
		row "zoom/pan step <= 5000 us CPU, max" \
			"${s_step_redraw_us_max:-n/a}${s_step_redraw_us_max:+ us} (${s_step_levels:-?} levels)" \
			"$(met "$s_step_redraw_us_max" 1 5000)"
		[ -n "$NS_BENCH_TASK_KEYS" ] &&
			row "  with ${s_task_step_rows:-?} task rows (states)" \
				"${s_task_step_redraw_us_max:-n/a}${s_task_step_redraw_us_max:+ us}" \
				"$(met "$s_task_step_redraw_us_max" 1 5000)"
		row "statistics overlay, whole trace <= 1 s" \
			"${s_stats_overlay_ms:-n/a}${s_stats_overlay_ms:+ ms}" "$(met "$s_stats_overlay_ms" 1 1000)"
		row "statistics overlay, second half <= 1 s" \
			"${s_stats_overlay_half_ms:-n/a}${s_stats_overlay_half_ms:+ ms}" \
			"$(met "$s_stats_overlay_half_ms" 1 1000)"
		row "list page <= 5000 us CPU, max" "${s_list_page_us_max:-n/a}${s_list_page_us_max:+ us}" \
			"$(met "$s_list_page_us_max" 1 5000)"
		row "line search (/TEXT) <= 1/4 of report|grep" \
			"$(ratio3 "$s_search_line_ms" "$rgrep_ms") (${s_search_line_ms:-?} / ${rgrep_ms:-?} ms)" \
			"$(met "$s_search_line_ms" "$rgrep_ms" 0.25)"
		row "info search <= 1/8 of report|grep" \
			"$(ratio3 "$s_search_ms" "$rgrep_ms") (${s_search_ms:-?} / ${rgrep_ms:-?} ms)" \
			"$(met "$s_search_ms" "$rgrep_ms" 0.125)"
		row "--summary <= 1/10 of report --profile" \
			"$(ratio3 "$summary_ms" "$rprofile_ms") (${summary_ms:-?} / ${rprofile_ms:-?} ms)" \
			"$(met "$summary_ms" "$rprofile_ms" 0.1)"
		row "filter <= 1/4 of report -F (issue 14)" \
			"$(ratio3 "$s_filter_ms" "$rfilter_ms") (${s_filter_ms:-?} / ${rfilter_ms:-?} ms)" \
			"$(met "$s_filter_ms" "$rfilter_ms" 0.25)"
	elif [ -n "$ns_wall" ] && [ -n "$ks_wall" ]; then
		printf '  %-18s time=%s rss=%s   nurseshark/libtracecmd-scan time=%s\n' \
			"nurseshark/kernelshark" "$(ratio "$ns_wall" "$ks_wall")" \
			"$(ratio "$ns_rss" "$ks_rss")" "$(ratio "$ns_wall" "$scan_wall")"
	fi
done

# --- two files: --export -i A -i B beside trace-cmd report -i A -i B ---------
#
# The first two traces given (one given: it twice), merged as report merges
# several -i: wall seconds of each, BENCH_RUNS times, and their lines (the
# same count, since --export prints report's text). And the viewer's open
# of both (--snapshot 80x24 A B: both indexed at once, merged, one screen)
# beside each alone: opening several files should cost about the sum.
if [ -n "$mode" ] && [ ${#traces[@]} -ge 1 ] && [ -r "${traces[0]}" ]; then
	ta=${traces[0]} tb=${traces[1]:-${traces[0]}}
	rm -f "$BENCH_OUT"/two.* "$BENCH_OUT"/rtwo.* "$BENCH_OUT"/open*.*
	for ((i = 0; i < runs; i++)); do
		time_pipe two '"$3" --no-session --export -i "$1" -i "$2" | wc -l' "$ta" "$tb" "$bin"
		time_pipe rtwo 'trace-cmd report -i "$1" -i "$2" | wc -l' "$ta" "$tb"
		time_pipe opena '"$2" --no-session --snapshot 80x24 "$1" | wc -l' "$ta" "$bin"
		time_pipe openb '"$2" --no-session --snapshot 80x24 "$1" | wc -l' "$tb" "$bin"
		time_pipe openab '"$3" --no-session --snapshot 80x24 "$1" "$2" | wc -l' "$ta" "$tb" \
			"$bin"
	done
	two=$([ -s "$BENCH_OUT/two.wall" ] && median <"$BENCH_OUT/two.wall")
	rtwo=$([ -s "$BENCH_OUT/rtwo.wall" ] && median <"$BENCH_OUT/rtwo.wall")
	opena=$([ -s "$BENCH_OUT/opena.wall" ] && median <"$BENCH_OUT/opena.wall")
	openb=$([ -s "$BENCH_OUT/openb.wall" ] && median <"$BENCH_OUT/openb.wall")
	openab=$([ -s "$BENCH_OUT/openab.wall" ] && median <"$BENCH_OUT/openab.wall")
	opensum=$([ -n "$opena" ] && [ -n "$openb" ] && echo "$opena $openb" | awk '{ print $1 + $2 }')
	echo
	echo "== two files: $ta and $tb"
	printf '  %-18s wall_s=%s (runs: %s) lines=%s   (nurseshark --export -i A -i B)\n' \
		"nurseshark" "${two:-n/a}" "$(runs_of two.wall)" "$(cat "$BENCH_OUT/two.out" 2>/dev/null)"
	printf '  %-18s wall_s=%s (runs: %s) lines=%s   (trace-cmd report -i A -i B)\n' \
		"report" "${rtwo:-n/a}" "$(runs_of rtwo.wall)" "$(cat "$BENCH_OUT/rtwo.out" 2>/dev/null)"
	printf '  %-18s export/report=%s\n' ratios "$(ratio "$two" "$rtwo")"
	printf '  %-18s wall_s=%s (runs: %s)   A alone %s, B alone %s: A+B/(A alone + B alone)=%s\n' \
		"viewer A B" "${openab:-n/a}" "$(runs_of openab.wall)" "${opena:-n/a}" \
		"${openb:-n/a}" "$(ratio "$openab" "$opensum")"
fi

# --- limits: a trace of about 100 M events under a 512 MB cgroup and under
# `ulimit -v` 1 GB (issue 14; contrib/bench-limits.sh, BENCH_HUGE, default
# /tmp/huge100.dat: skipped with the reason where it is missing;
# BENCH_LIMITS=0 leaves it out)
if [ "${BENCH_LIMITS:-1}" = 1 ]; then
	NS_BIN=$bin "$top/contrib/bench-limits.sh" || status=1
fi
exit $status
