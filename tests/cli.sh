#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The real binary ($NS_BIN) from the outside: bad input of every kind we can
# make for real (missing, a directory, unreadable, truncated, not a trace)
# must give one line on stderr naming the file and a reason, exit status 1,
# nothing on stdout and no crash; --export must print exactly what
# `trace-cmd report -i FILE` prints; and the trace file is never written,
# whatever the binary was asked to do with it.
set -u

top=${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${NS_BIN:-$top/build/nurseshark}
shared=${NS_SHARED:-$top/../shared}
sample=$top/contrib/sample.dat
limit=60	# seconds any one run may take before it counts as a hang

if [ ! -x "$bin" ]; then
	echo "SKIP: cli: $bin is not built yet (make links it once src/main.c exists)"
	exit 0
fi

tmp=$(mktemp -d)
sock=$tmp/tmux.sock
cleanup() {
	[ -S "$sock" ] && tmux -S "$sock" kill-server 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# run ARGS...: the binary with no terminal and no stdin; sets rc, out, err.
# With $vmem set (KiB), under that address-space limit (not under a
# sanitizer, whose shadow memory is terabytes of address space).
run() {
	if [ -n "${vmem:-}" ] && [ -z "${NS_SANITIZER:-}" ]; then
		(ulimit -v "$vmem" && exec timeout -k 5 "$limit" "$bin" "$@") \
			>"$tmp/out" 2>"$tmp/err" </dev/null
	else
		timeout -k 5 "$limit" "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	fi
	rc=$?
	out=$tmp/out
	err=$tmp/err
}

# How a finished run went wrong, or nothing if it exited by itself.
crashed() {
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "hung (killed after ${limit}s)"
	elif [ "$rc" -gt 128 ]; then
		echo "killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null))"
	elif grep -qE 'Sanitizer|runtime error:|LeakSanitizer' "$err"; then
		echo "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "$err")"
	fi
}

# bad NAME FILE REASON-REGEX [ARGS...]: the binary refuses FILE properly,
# both when asked to show it and when asked to export it. ARGS replace the
# file operand when given (to try -i FILE).
bad() {
	local name=$1 file=$2 reason=$3 mode why line rest
	shift 3
	for mode in view export; do
		if [ "$mode" = export ]; then
			run --export "${@:-$file}"
		else
			run "${@:-$file}"
		fi
		why=$(crashed)
		line=$(head -n 1 "$err")
		# The reason is what is left once the file and our name are gone.
		rest=${line//"$file"/}
		rest=${rest//nurseshark/}
		if [ -n "$why" ]; then
			:
		elif [ "$rc" -ne 1 ]; then
			why="exit status $rc, want 1"
		elif [ -s "$out" ]; then
			why="wrote $(wc -c <"$out") bytes to stdout: $(head -c 80 "$out" | tr '\n' ' ')"
		elif [ "$(grep -c '' "$err")" -ne 1 ] || [ "$(wc -l <"$err")" -ne 1 ]; then
			why="want one line on stderr, got $(grep -c '' "$err"): $(head -c 200 "$err" | tr '\n' '|')"
		elif [[ $line != *"$file"* ]]; then
			why="stderr does not name $file: $line"
		elif ! grep -qE '[[:alpha:]]{3}' <<<"$rest"; then
			why="stderr gives no reason: $line"
		elif [ -n "$reason" ] && ! grep -qiE "$reason" <<<"$rest"; then
			why="reason should match /$reason/: $line"
		fi
		if [ -n "$why" ]; then
			echo "FAIL: cli: $name ($mode): $why"
		else
			echo "PASS: cli: $name ($mode)"
		fi
	done
}

# truncated NAME SRC BYTES: SRC cut after BYTES bytes.
truncated() {
	local f=$tmp/$1.dat
	head -c "$3" "$2" >"$f"
	bad "truncated $1 at $3 of $(stat -c %s "$2") bytes" "$f" ""
}

# Bytes that are the same on every run, so a failure can be reproduced.
noise() {
	LC_ALL=C awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++)
			printf "%c", int(rand() * 255) + 1
	}'
}

# --- bad input ---------------------------------------------------------------

bad "missing file" "$tmp/no-such.dat" 'no such file|not found|does not exist'
bad "missing file given with -i" "$tmp/no-such.dat" 'no such file|not found|does not exist' \
	-i "$tmp/no-such.dat"
mkdir "$tmp/a-directory.dat"
bad "a directory" "$tmp/a-directory.dat" 'directory'
bad "a character device (/dev/null)" /dev/null ''
# Opens, but every read fails (EIO): the closest to a failing disk we have.
bad "a file whose reads fail (/proc/self/mem)" /proc/self/mem ''

# Root reads any file whatever its mode, so to see "Permission denied" for
# real the binary runs as nobody when we are root.
mkdir -p "$tmp/locked" "$tmp/home"
cp "$sample" "$tmp/locked/trace.dat"
chmod 000 "$tmp/locked/trace.dat"
chmod 755 "$tmp" "$tmp/locked"
if [ "$(id -u)" -ne 0 ]; then
	bad "unreadable file (mode 000)" "$tmp/locked/trace.dat" 'permission|denied'
elif ! command -v setpriv >/dev/null; then
	echo "SKIP: cli: unreadable file: running as root and no setpriv to drop to nobody"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin"; then
	echo "SKIP: cli: unreadable file: user nobody cannot run $bin (a parent folder is closed)"
else
	real_bin=$bin
	bin=$tmp/as-nobody
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=%s "%s" "$@"\n' \
		"$tmp/home" "$real_bin" >"$bin"
	chmod 755 "$bin"
	bad "unreadable file (mode 000, run as nobody)" "$tmp/locked/trace.dat" 'permission|denied'
	bin=$real_bin
fi

size=$(stat -c %s "$sample")
truncated sample "$sample" 0
truncated sample "$sample" 100
truncated sample "$sample" 4096
truncated sample "$sample" $((size / 2))
truncated sample "$sample" $((size * 9 / 10))
v6=$shared/traces/sched-v6.dat
if [ -r "$v6" ]; then
	size=$(stat -c %s "$v6")
	truncated sched-v6 "$v6" $((size / 2))
	truncated sched-v6 "$v6" $((size - 100))
else
	echo "SKIP: cli: truncated v6 trace: $v6 not found (NS_SHARED=$shared)"
fi

cp /etc/passwd "$tmp/passwd.dat"
bad "a text file (/etc/passwd)" "$tmp/passwd.dat" ''
noise 65536 1 >"$tmp/noise.dat"
bad "64 KiB of random bytes" "$tmp/noise.dat" ''
# The trace.dat magic and version, then garbage: gets past the first check.
{ printf '\027\010\104tracing6\0'; noise 65536 2; } >"$tmp/magic-noise.dat"
bad "trace.dat magic followed by random bytes" "$tmp/magic-noise.dat" ''
{ head -c 4096 "$sample"; noise 65536 3; } >"$tmp/head-noise.dat"
bad "a real header followed by random bytes" "$tmp/head-noise.dat" ''

# A FIFO with no writer: open() would wait for one for ever.
mkfifo "$tmp/fifo.dat"
bad "a FIFO with no writer" "$tmp/fifo.dat" 'FIFO|regular'

# patched NAME SRC OFFSET HEX REASON: a copy of SRC with the bytes HEX
# (e.g. feffffff) written at OFFSET (0-based), refused under a 4 GiB
# address-space limit (the damage must not make us allocate gigabytes).
patched() {
	local f=$tmp/$1.dat
	if [ ! -r "$2" ]; then
		echo "SKIP: cli: $1: $2 not found (NS_SHARED=$shared)"
		return
	fi
	cp "$2" "$f" && chmod u+w "$f"
	printf "$(sed 's/../\\x&/g' <<<"$4")" | dd of="$f" bs=1 seek="$3" conv=notrunc 2>/dev/null
	vmem=$((4 << 20)) bad "$1 ($4 at $3)" "$f" "$5"
}

# CPU 2's first page header: kbuffer crashed inside tracecmd_init_data().
patched "igt-tests-trace-page-header" \
	"$shared/traces/public/tiagovignatti__intel-gpu-tools__tests-trace.dat" 1171464 feffffff \
	'corrupt'
# A CPU id of the BUFFER option: libtracecmd calloc()ed 1.5 GB per handle.
patched "sample-buffer-cpu-id" "$sample" 1850933 80 'corrupt'
patched "sample-buffer-cpu-id-small" "$sample" 1850933 01 'corrupt'

# --- --export against trace-cmd report ----------------------------------------

# export_matches NAME FILE [ARGS...]: `nurseshark --export ARGS` (ARGS
# default to FILE; "none" for no operand at all) equals FILE's report.
export_matches() {
	local name=$1 file=$2 why=""
	shift 2
	if ! trace-cmd report -i "$file" >"$tmp/report" 2>"$tmp/report.err"; then
		echo "FAIL: cli: export $name: trace-cmd report -i $file failed: $(head -n 1 "$tmp/report.err")"
		return
	fi
	if [ "${1:-}" = none ]; then
		run --export
	else
		run --export "${@:-$file}"
	fi
	why=$(crashed)
	if [ -z "$why" ] && [ "$rc" -ne 0 ]; then
		why="exit status $rc: $(head -n 1 "$err")"
	fi
	if [ -z "$why" ] && ! cmp -s "$out" "$tmp/report"; then
		why="differs from trace-cmd report ($(wc -l <"$out") vs $(wc -l <"$tmp/report") lines); first differences:
$(diff "$tmp/report" "$out" | head -n 8)"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: cli: export $name equals trace-cmd report: $why"
	else
		echo "PASS: cli: export $name equals trace-cmd report ($(wc -l <"$out") lines)"
	fi
}

if ! command -v trace-cmd >/dev/null; then
	echo "FAIL: cli: export: trace-cmd is not installed (make deps installs it)"
else
	export_matches "contrib/sample.dat" "$sample"
	export_matches "contrib/sample.dat given with -i" "$sample" -i "$sample"
	if [ -r "$v6" ]; then
		export_matches "sched-v6.dat (file format v6)" "$v6"
	else
		echo "SKIP: cli: export sched-v6.dat: $v6 not found (NS_SHARED=$shared)"
	fi
	# With no file named, like trace-cmd report: ./trace.dat.
	mkdir "$tmp/cwd"
	cp "$sample" "$tmp/cwd/trace.dat"
	(cd "$tmp/cwd" && export_matches "./trace.dat when no file is named" "$tmp/cwd/trace.dat" none)
fi

# --- the trace file is never written ------------------------------------------

# Content, size, mtime and ctime (chmod, touch, rename-over all change ctime).
fingerprint() {
	echo "$(sha256sum <"$1" | cut -d' ' -f1) $(stat -c '%s %y %z %i' "$1")"
}

mkdir "$tmp/rw"
trace=$tmp/rw/trace.dat
cp "$sample" "$trace"
# Set the times in the past so that a write within this second still shows.
touch -d '2020-01-01 00:00:00' "$trace"
before=$(fingerprint "$trace")

run --export "$trace"
run --snapshot 80x24 "$trace"

# Open it as a user would, in a real terminal, and quit with q.
if ! command -v tmux >/dev/null; then
	echo "SKIP: cli: open and quit in a terminal: tmux is not installed (make deps installs it)"
else
	# The exit status comes through a file: tmux may mark a pane dead (its
	# terminal closed) without ever learning the status of its process.
	# remain-on-exit keeps the last screen for the message when it fails.
	echo 'set -g remain-on-exit on' >"$tmp/tmux.conf"
	st=$(printf '%q' "$tmp/status")
	tmux -S "$sock" -f "$tmp/tmux.conf" new-session -d -x 80 -y 24 -s cli \
		"$(printf '%q ' "$bin" "$trace"); echo \$? >$st.new && mv $st.new $st"
	# How the program ended ("status N", 128+N for signal N), or nothing yet.
	ended() { [ -e "$tmp/status" ] && echo "status $(cat "$tmp/status")"; }
	# Poll for the first screen (any text at all), then for the exit.
	why=""
	deadline=$((SECONDS + 20))
	until tmux -S "$sock" capture-pane -p -t cli | grep -q '[^[:space:]]'; do
		[ -n "$(ended)" ] && break
		[ $SECONDS -ge $deadline ] && { why="nothing on the screen after 20s"; break; }
		sleep 0.05
	done
	if [ -z "$why" ] && [ -n "$(ended)" ]; then
		why="ended before q ($(ended)): $(tmux -S "$sock" capture-pane -p -t cli | grep -v "^Pane is dead" | grep -m 2 .)"
	fi
	if [ -z "$why" ]; then
		tmux -S "$sock" send-keys -t cli q
		deadline=$((SECONDS + 20))
		until [ -n "$(ended)" ]; do
			[ $SECONDS -ge $deadline ] && { why="still running 20s after q"; break; }
			sleep 0.05
		done
	fi
	if [ -z "$why" ] && [ "$(ended)" != "status 0" ]; then
		why="q ended it with $(ended)"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: cli: open and quit in a terminal: $why"
	else
		echo "PASS: cli: open and quit in a terminal"
	fi
	tmux -S "$sock" kill-server 2>/dev/null
fi

after=$(fingerprint "$trace")
if [ "$before" = "$after" ]; then
	echo "PASS: cli: the trace file is never written (content, size, mtime, ctime)"
else
	echo "FAIL: cli: the trace file was changed: before $before, after $after"
fi

# src/trace/clock.c must stand in for libtracecmd's tracecmd_parse_trace_clock()
# (it overruns an empty TRACECLOCK option): the program exports its own
if command -v nm >/dev/null 2>&1; then
	if nm -D "$bin" 2>/dev/null | grep -q ' T tracecmd_parse_trace_clock$'; then
		echo "PASS: cli: the program exports its guarded tracecmd_parse_trace_clock"
	else
		echo "FAIL: cli: tracecmd_parse_trace_clock is not exported: libtracecmd's own overruns"
	fi
else
	echo "SKIP: cli: nm is not installed"
fi

# Several files: -i A B mixes the two ways of naming them: status 2, one
# line, before either is opened (tests/files.sh checks --export of several,
# tests/viewfiles.sh the viewer)
run -i "$sample" "$sample"
if [ "$rc" -eq 2 ] &&
	[ "$(cat "$err")" = "nurseshark: name the traces with -i or after the options, not both" ] &&
	[ ! -s "$out" ]; then
	echo "PASS: cli: two trace files named both ways refused"
else
	echo "FAIL: cli: -i A B: status $rc, stderr '$(head -c 200 "$err")'"
fi

# --stats of several files (make bench's "4 streams"): the events of the
# one timeline are the sum of each file's own --stats, as are its streams
one=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" --stats "$sample" 2>"$err" |
	sed -n 's/^events //p')
for args in "--stats $sample $sample" "--stats -i $sample -i $sample"; do
	# shellcheck disable=SC2086
	stats=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" $args 2>"$err")
	ev=$(sed -n 's/^events //p' <<<"$stats")
	if [ -n "$one" ] && [ "$one" -gt 0 ] && [ "$ev" = "$((one * 2))" ] &&
		grep -qx 'files 2' <<<"$stats" && grep -qx 'streams 2' <<<"$stats" &&
		grep -qE '^list_page_us_max [0-9]+$' <<<"$stats" &&
		grep -qE '^first_frame_ms [0-9]+$' <<<"$stats" && [ ! -s "$err" ]; then
		echo "PASS: cli: --stats of two files: $ev events, twice one file's ($args)"
	else
		echo "FAIL: cli: --stats of two files ($args): events '${ev:-}' for one file's '${one:-}'," \
			"$(grep -E '^(files|streams) ' <<<"$stats" | tr '\n' ' ') stderr '$(head -c 200 "$err")'"
	fi
done

# --stats (what make bench reads): with NS_BENCH_TASK_KEYS the steps are timed
# again with the task rows those keys add, and the statistics overlay is timed;
# without it, no task_step lines
stats=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' NS_BENCH_TASK_KEYS=':5000<Enter>R:60000<Enter>R' \
	"$bin" --stats "$sample" 2>"$err")
rows=$(sed -n 's/^task_step_rows //p' <<<"$stats")
if [ "${rows:-0}" -ge 1 ] && grep -qE '^task_step_redraw_us_max [0-9]+$' <<<"$stats" &&
	grep -qE '^stats_overlay_ms [0-9]+$' <<<"$stats" &&
	grep -qE '^stats_overlay_half_ms [0-9]+$' <<<"$stats"; then
	echo "PASS: cli: --stats times the steps with $rows task rows and the statistics overlay"
else
	echo "FAIL: cli: --stats with NS_BENCH_TASK_KEYS: rows '${rows:-}', $(tr '\n' ' ' <<<"$stats" | head -c 300) $(head -c 200 "$err")"
fi
stats=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' NS_BENCH_TASK_KEYS='' "$bin" --stats "$sample" 2>"$err")
if ! grep -q '^task_step' <<<"$stats" && grep -q '^step_redraw_us_max ' <<<"$stats"; then
	echo "PASS: cli: --stats without NS_BENCH_TASK_KEYS times no task-row steps"
else
	echo "FAIL: cli: --stats without NS_BENCH_TASK_KEYS: $(grep '^task_step' <<<"$stats" | head -n 2)"
fi
