#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `nurseshark record` against the running kernel, with `trace-cmd report` as
# the oracle: a workload writes known lines to trace_marker while it is
# recorded; report must read the file and find those lines and sched_switch
# events, and `nurseshark --export` of the file must equal report byte for
# byte. The kernel's tracing state (enabled events, buffer sizes, clock,
# tracing_on, current tracer, instances) must be as it was after every run:
# a clean one, one stopped by SIGTERM or SIGINT half-way, and each failure
# (unknown event, read-only directory, full disk, not root, no tracefs),
# which must also be one line on stderr, exit status 1 and no file.
# Needs root and tracefs; SKIPs with the reason without them.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin record

limit=120	# seconds any one recording may take before it counts as a hang
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0

# rec OUT ARGS...: nurseshark record ARGS... -o OUT, no viewer; sets rc and err.
rec() {
	local out=$1
	shift
	timeout -k 5 "$limit" "$bin" record --no-view -o "$out" "$@" >"$tmp/stdout" 2>"$tmp/err" \
		</dev/null
	rc=$?
	err=$tmp/err
}

# one_line_error WHAT PATTERN: rc 1, one line on stderr matching PATTERN.
one_line_error() {
	if [ "$rc" = 1 ] && [ "$(wc -l <"$err")" = 1 ] && grep -q "$2" "$err"; then
		pass "$1: exit 1 and one line: $(cat "$err")"
	else
		fail "$1: wanted exit 1 and one line matching '$2', got $rc: $(head -c 400 "$err")"
	fi
}

# no_files DIR WHAT: DIR holds no file (neither the output nor a temp file).
no_files() {
	if [ -z "$(ls -A "$1")" ]; then
		pass "$2: no file left in the directory"
	else
		fail "$2: files left: $(ls -A "$1" | tr '\n' ' ')"
	fi
}

mark=hello-ns-$$
# The progress line: elapsed time, events, bytes written, events dropped.
counts_re='[1-9][0-9]* events, [0-9]+ [KM]?i?B, [0-9]+ dropped'
progress_re="nurseshark: record: [0-9.]+ s, $counts_re"

# A recording of a workload that writes marker lines.
mkdir "$tmp/a"
rec "$tmp/a/trace.dat" -- sh -c "echo $mark-1 > $T/trace_marker; echo $mark-2 > $T/trace_marker"
if [ "$rc" = 0 ] && [ -s "$tmp/a/trace.dat" ]; then
	pass "recording a command exits 0 and writes the file"
else
	fail "recording a command: exit $rc, $(head -c 400 "$err")"
fi
tracing_same_state "after a recording"
if [ "$(ls -A "$tmp/a")" = trace.dat ]; then
	pass "no temp file is left beside the output"
else
	fail "files beside the output: $(ls -A "$tmp/a" | tr '\n' ' ')"
fi
if [ "$(wc -l <"$err")" = 1 ] &&
	grep -Eq "^$progress_re, written to .*trace.dat\$" "$err"; then
	pass "stderr not a terminal: one line at the end: $(cat "$err")"
else
	fail "the end line: $(head -c 400 "$err")"
fi
if trace-cmd report "$tmp/a/trace.dat" >"$tmp/a.report" 2>"$tmp/a.rerr"; then
	pass "trace-cmd report reads the file"
else
	fail "trace-cmd report fails: $(head -c 300 "$tmp/a.rerr")"
fi
if grep -q "print: .*tracing_mark_write: $mark-1\$" "$tmp/a.report" &&
	grep -q "print: .*tracing_mark_write: $mark-2\$" "$tmp/a.report"; then
	pass "report finds both marker lines of the workload"
else
	fail "report lacks the marker lines $mark-1/2"
fi
n=$(grep -c ' sched_switch: ' "$tmp/a.report")
if [ "$n" -gt 0 ]; then
	pass "report finds $n sched_switch events"
else
	fail "report finds no sched_switch event"
fi
events=$(sed -nE 's/.* ([0-9]+) events,.*/\1/p' "$err")
if [ "$events" = "$(($(wc -l <"$tmp/a.report") - 1))" ]; then
	pass "the events the end line counts ($events) are the events report prints"
else
	fail "the end line counts $events events, report prints $(($(wc -l <"$tmp/a.report") - 1))"
fi
other=$(grep -vE ' (sched_[a-z_]+|irq_[a-z_]+|softirq_[a-z_]+|ipi_[a-z_]+|print): ' \
	"$tmp/a.report" | tail -n +2 | head -3)
if [ -z "$other" ]; then
	pass "by default only sched and irq events (and markers) are recorded"
else
	fail "events beside sched and irq: $other"
fi
if "$bin" --export "$tmp/a/trace.dat" >"$tmp/a.export" 2>"$tmp/a.xerr" &&
	cmp -s "$tmp/a.export" "$tmp/a.report"; then
	pass "nurseshark --export of the file equals trace-cmd report"
else
	fail "--export differs from report: $(diff "$tmp/a.export" "$tmp/a.report" | head -3)"
fi
if trace-cmd dump --summary "$tmp/a/trace.dat" 2>/dev/null | grep -q '7.*\[Version\]'; then
	pass "the file is a trace.dat v7"
else
	fail "the file is not v7: $(trace-cmd dump --summary "$tmp/a/trace.dat" 2>&1 | head -3)"
fi
# The file holds the kernel's own format text of its events.
trace-cmd dump --events "$tmp/a/trace.dat" >"$tmp/a.events" 2>/dev/null
trace-cmd dump --ftrace "$tmp/a/trace.dat" >>"$tmp/a.events" 2>/dev/null
for f in sched/sched_switch irq/irq_handler_entry ftrace/print; do
	got=$(awk -v n="name: ${f#*/}" '$0 == n { on = 1; print; next } /^name: |^\t\[/ { on = 0 } on' \
		"$tmp/a.events" | grep -v '^$')
	if [ -n "$got" ] && [ "$got" = "$(grep -v '^$' "$T/events/$f/format")" ]; then
		pass "the file holds the kernel's format of $f"
	else
		fail "the file's format of $f is not the kernel's: $(head -c 200 <<<"$got")"
	fi
done

# An existing trace.dat is replaced; anything else is refused and left alone.
cp "$tmp/a/trace.dat" "$tmp/first.dat"
rec "$tmp/a/trace.dat" -e sched:sched_switch -- true
if [ "$rc" = 0 ] && ! trace-cmd report "$tmp/a/trace.dat" 2>/dev/null | grep -q "$mark"; then
	pass "an existing trace.dat is replaced"
else
	fail "replacing a trace.dat: exit $rc, $(head -c 300 "$err")"
fi
mkdir "$tmp/txt"
echo "not a trace" >"$tmp/txt/notes.txt"
rec "$tmp/txt/notes.txt" -- true
one_line_error "an existing file that is not a trace.dat" "not a trace.dat: not replacing it"
if [ "$(cat "$tmp/txt/notes.txt")" = "not a trace" ] && [ "$(ls -A "$tmp/txt")" = notes.txt ]; then
	pass "the file that is not a trace.dat is untouched"
else
	fail "the file that is not a trace.dat changed"
fi
# a FIFO is refused at once, not opened for reading and waited on
rm -f "$tmp/txt/pipe" && mkfifo "$tmp/txt/pipe"
rec "$tmp/txt/pipe" -- true
one_line_error "an existing FIFO" "not a trace.dat: not replacing it"
rm -f "$tmp/txt/pipe"
tracing_same_state "after refusing a file"

# Options: one event, a clock, a buffer size; all put back afterwards.
clock=global
grep -q '\[global\]' $T/trace_clock && clock=mono
mkdir "$tmp/o"
rec "$tmp/o/t.dat" -e sched/sched_switch -C "$clock" -b 1234 -- \
	sh -c "echo $mark-o > $T/trace_marker"
trace-cmd report "$tmp/o/t.dat" >"$tmp/o.report" 2>/dev/null
kinds=$(tail -n +2 "$tmp/o.report" | sed -E 's/^.*\] +[0-9]+\.[0-9]+: +([a-z_0-9]+):.*/\1:/' |
	sort -u | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$kinds" = "print: sched_switch: " ]; then
	pass "-e sched/sched_switch records sched_switch (and the markers) only"
else
	fail "-e sched/sched_switch: exit $rc, event kinds: $kinds $(head -c 300 "$err")"
fi
if trace-cmd dump --summary "$tmp/o/t.dat" 2>/dev/null | grep -q "\"$clock\" clock"; then
	pass "-C $clock: the file's buffer says the $clock clock"
else
	fail "-C $clock: $(trace-cmd dump --summary "$tmp/o/t.dat" 2>&1 | grep buffer)"
fi
tracing_same_state "after -e -C -b"

# --subbuf-size KB: the ring buffer's sub-buffers, and so the file's pages,
# that big while recording, the size put back afterwards. Some kernels lock
# buffer_subbuf_size_kb down (this machine's refuses the write with EPERM):
# then one line naming the file and the errno, exit 1, no file, the state
# untouched. Whether the kernel refuses, the test asks it first itself (the
# size put straight back), then expects that of nurseshark.
sub=$T/buffer_subbuf_size_kb
mkdir "$tmp/sb"
# the file's page size is the top instance's sub-buffer size: -B alone is refused
rec "$tmp/sb/t.dat" --subbuf-size 16 -B ns-sb-$$ -e sched -- true
if [ "$rc" = 2 ] && grep -q -- '--subbuf-size needs the top instance recorded' "$err" &&
	[ -z "$(ls -A "$tmp/sb")" ]; then
	pass "--subbuf-size with only -B: a usage error ($(cat "$err"))"
else
	fail "--subbuf-size with only -B: exit $rc, $(head -c 300 "$err")"
fi
tracing_same_state "after --subbuf-size with only -B"
if [ ! -e "$sub" ]; then
	rec "$tmp/sb/t.dat" --subbuf-size 16 -- true
	one_line_error "--subbuf-size, no $sub" "this kernel has no $sub"
	no_files "$tmp/sb" "--subbuf-size, no $sub"
	tracing_same_state "after --subbuf-size without the file"
else
	sub_was=$(cat "$sub")
	sub_err=$( (echo 16 >"$sub") 2>&1)
	sub_rc=$?
	[ "$sub_rc" = 0 ] && echo "$sub_was" >"$sub"
	rec "$tmp/sb/t.dat" --subbuf-size 16 -- sh -c "echo $mark-sb > $T/trace_marker"
	if [ "$sub_rc" != 0 ]; then
		# "write error: Operation not permitted": the errno's text, its name from ours
		why=${sub_err##*: }
		one_line_error "--subbuf-size 16, which the kernel refuses ($why)" \
			"record: cannot set the sub-buffer size: writing 16 to $sub: $why ([A-Z]*)\$"
		no_files "$tmp/sb" "--subbuf-size refused"
		if [ "$(cat "$sub")" = "$sub_was" ]; then
			pass "--subbuf-size refused: $sub is still $sub_was"
		else
			fail "--subbuf-size refused: $sub is now $(cat "$sub"), was $sub_was"
		fi
		tracing_same_state "after --subbuf-size refused"
		skip "a big-page trace (trace-cmd report reads it, equal to --export): not recorded, the kernel refuses $sub ($why)"
	elif [ "$rc" = 0 ]; then
		page=$(trace-cmd dump --summary "$tmp/sb/t.dat" 2>/dev/null |
			sed -nE 's/^\s*([0-9]+)\s*\[Page size, bytes\]/\1/p')
		if [ "$page" = 16384 ]; then
			pass "--subbuf-size 16: the file's pages are 16 KiB"
		else
			fail "--subbuf-size 16: the file's page size is '$page'"
		fi
		if trace-cmd report "$tmp/sb/t.dat" >"$tmp/sb.report" 2>"$tmp/sb.rerr" &&
			grep -q "print: .*tracing_mark_write: $mark-sb\$" "$tmp/sb.report"; then
			pass "--subbuf-size 16: trace-cmd report reads the file, marker and all"
		else
			fail "--subbuf-size 16: report: $(head -c 300 "$tmp/sb.rerr")"
		fi
		if "$bin" --export "$tmp/sb/t.dat" >"$tmp/sb.export" 2>"$tmp/sb.xerr" &&
			cmp -s "$tmp/sb.export" "$tmp/sb.report"; then
			pass "--subbuf-size 16: --export of the file equals trace-cmd report"
		else
			fail "--subbuf-size 16: --export differs: $(diff "$tmp/sb.export" "$tmp/sb.report" | head -3)"
		fi
		if [ "$(cat "$sub")" = "$sub_was" ]; then
			pass "--subbuf-size 16: $sub is $sub_was again"
		else
			fail "--subbuf-size 16: $sub is now $(cat "$sub"), was $sub_was"
		fi
		tracing_same_state "after --subbuf-size"
	else
		fail "--subbuf-size 16, which the kernel takes: exit $rc, $(head -c 300 "$err")"
	fi
fi

# -e all: every event the kernel has (a small buffer: it is a lot).
mkdir "$tmp/all"
rec "$tmp/all/t.dat" -e all -b 256 -- sh -c "echo $mark-all > $T/trace_marker; ls /usr >/dev/null"
trace-cmd report "$tmp/all/t.dat" >"$tmp/all.report" 2>/dev/null
nkinds=$(sed -nE 's/^.*\] +[0-9]+\.[0-9]+: +([a-z_0-9]+):.*/\1/p' "$tmp/all.report" | sort -u | wc -l)
if [ "$rc" = 0 ] && [ "$nkinds" -ge 20 ] && grep -q "tracing_mark_write: $mark-all\$" "$tmp/all.report" &&
	grep -q ' sys_enter_write: ' "$tmp/all.report"; then
	pass "-e all records every system: $nkinds kinds of event, syscalls and the marker among them"
else
	fail "-e all: exit $rc, $nkinds kinds of event, $(head -c 300 "$err")"
fi
if "$bin" --export "$tmp/all/t.dat" 2>/dev/null | cmp -s - "$tmp/all.report"; then
	pass "-e all: --export equals report"
else
	fail "-e all: --export differs from report"
fi
rm -rf "$tmp/all" "$tmp/all.report"
tracing_same_state "after -e all"

# -B: a new instance is recorded into and removed afterwards.
inst=nsrec$$
mkdir "$tmp/b"
rec "$tmp/b/t.dat" -B "$inst" -e irq -e sched:sched_switch -- sh -c 'ls -R /usr/share >/dev/null'
if [ "$rc" = 0 ] &&
	trace-cmd report "$tmp/b/t.dat" 2>/dev/null | grep -q "^$inst: .* sched_switch: "; then
	pass "-B BUFFER records into the instance BUFFER"
else
	fail "-B: exit $rc, $(head -c 300 "$err")"
fi
tracing_same_state "after -B (the instance it created is gone)"

# A signal mid-recording ends it: the file is written, the state put back.
for sig in TERM INT; do
	mkdir "$tmp/s$sig"
	"$bin" record --no-view -o "$tmp/s$sig/t.dat" -- \
		sh -c "echo $mark-$sig > $T/trace_marker; echo \$\$ > $tmp/s$sig.ready; exec sleep 600" \
		>/dev/null 2>"$tmp/s$sig.err" </dev/null &
	pid=$!
	for _ in $(seq 200); do
		[ -s "$tmp/s$sig.ready" ] && break
		sleep 0.05
	done
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" = 0 ] && trace-cmd report "$tmp/s$sig/t.dat" 2>/dev/null | grep -q "$mark-$sig\$"; then
		pass "SIG$sig mid-recording: exit 0, the file holds what was recorded"
	else
		fail "SIG$sig mid-recording: exit $rc, $(head -c 300 "$tmp/s$sig.err")"
	fi
	child=$(cat "$tmp/s$sig.ready" 2>/dev/null)
	if [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null; then
		pass "SIG$sig mid-recording: the command is stopped too"
	else
		fail "SIG$sig mid-recording: the command ($child) still runs"
		[ -n "$child" ] && kill "$child"
	fi
	tracing_same_state "after SIG$sig mid-recording"
done

# On a terminal: the progress line runs while recording, then the viewer
# opens the file.
if command -v tmux >/dev/null; then
	. "$top/tests/lib/screen.sh"
	mkdir "$tmp/v"
	SCREEN_KEEP_LOADING=1 screen_start 80 24 "cd '$tmp/v' && '$bin' record -e sched -- \
		sh -c 'echo $mark-v > $T/trace_marker; read line'; echo \$? >'$tmp/v.rc'"
	# a second's update at least: the line is rewritten as it counts
	if screen_wait "^nurseshark: record: ([1-9]|[0-9]{2,})\\.[0-9] s, $counts_re\$" 20; then
		pass "on a terminal the progress line counts up while recording"
	else
		fail "no progress line counting up on the terminal"
	fi
	screen_keys Enter
	if screen_wait 'q:quit' 60 && screen_wait '#[0-9]+ of [1-9][0-9]*' 30; then
		pass "the viewer opens the new file once the command is done"
	else
		fail "the viewer did not open the new file"
	fi
	screen_keys q
	for _ in $(seq 400); do
		[ -s "$tmp/v.rc" ] && break
		sleep 0.05
	done
	if [ "$(cat "$tmp/v.rc" 2>/dev/null)" = 0 ] &&
		trace-cmd report "$tmp/v/trace.dat" 2>/dev/null | grep -q "$mark-v\$"; then
		pass "the viewer quits with status 0; the file it showed holds the marker"
	else
		fail "after the viewer: exit status '$(cat "$tmp/v.rc" 2>/dev/null)'"
	fi
	screen_stop
	tracing_same_state "after recording on a terminal"
else
	skip "tmux is not installed: no progress line or viewer check"
fi

# live --duration N --export / --snapshot: what was read, printed; no file kept.
mkdir "$tmp/lt"
TMPDIR=$tmp/lt timeout -k 5 "$limit" "$bin" live -e sched --duration 1 --export \
	>"$tmp/live.txt" 2>"$tmp/live.err" </dev/null &
pid=$!
# markers until it is done (writes fail while tracing is off: not an error here)
while kill -0 "$pid" 2>/dev/null; do
	echo "$mark-live" 2>/dev/null >$T/trace_marker
	sleep 0.02
done
wait "$pid"
rc=$?
if [ "$rc" = 0 ] && [ "$(head -n 1 "$tmp/live.txt")" = "cpus=$(nproc --all)" ] &&
	grep -q "print: .*tracing_mark_write: $mark-live\$" "$tmp/live.txt" &&
	grep -q ' sched_switch: ' "$tmp/live.txt"; then
	pass "live --duration 1 --export prints the markers and sched_switch events it read"
else
	fail "live --export: exit $rc, $(head -c 300 "$tmp/live.err")"
fi
if [ ! -s "$tmp/live.err" ]; then
	pass "live --export without a terminal says nothing on stderr"
else
	fail "live --export's stderr: $(head -c 300 "$tmp/live.err")"
fi
no_files "$tmp/lt" "live --export"
tracing_same_state "after live --export"
TMPDIR=$tmp/lt timeout -k 5 "$limit" "$bin" live -e sched --duration 0.5 --snapshot 80x24 \
	>"$tmp/live.snap" 2>"$tmp/live.err" </dev/null
rc=$?
if [ "$rc" = 0 ] && [ "$(wc -l <"$tmp/live.snap")" = 24 ] && grep -q '^CPU0 ' "$tmp/live.snap"; then
	pass "live --duration 0.5 --snapshot 80x24 prints a 24-line screen with CPU rows"
else
	fail "live --snapshot: exit $rc, $(head -c 300 "$tmp/live.err")"
fi
no_files "$tmp/lt" "live --snapshot"
timeout -k 5 "$limit" "$bin" live -e sched >/dev/null 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" = 2 ] && grep -q 'the live screen needs a terminal' "$tmp/err"; then
	pass "live without a terminal (and no --duration) is a usage error"
else
	fail "live alone: exit $rc, $(head -c 300 "$tmp/err")"
fi
timeout -k 5 "$limit" "$bin" live -e sched --duration 1 >/dev/null 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" = 2 ] && grep -q -- '--duration SECONDS goes with --export or --snapshot' "$tmp/err"; then
	pass "live --duration without --export/--snapshot is a usage error"
else
	fail "live --duration alone: exit $rc, $(head -c 300 "$tmp/err")"
fi
for k in 10 0s abc 5x; do
	timeout -k 5 "$limit" "$bin" live -e sched --keep "$k" >/dev/null 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" = 2 ] && grep -q -- "--keep wants EVENTS (at least 1000) or SECONDSs, not '$k'" \
		"$tmp/err"; then
		pass "live --keep $k is a usage error"
	else
		fail "live --keep $k: exit $rc, $(head -c 300 "$tmp/err")"
	fi
done

# Failures: one line, exit 1, no file, the state as it was.
mkdir "$tmp/u"
rec "$tmp/u/t.dat" -e sched -e no_such_event_ns -- true
one_line_error "an unknown event" "no event matches 'no_such_event_ns'"
no_files "$tmp/u" "an unknown event"
tracing_same_state "after an unknown event"
rec "$tmp/u/t.dat" -C no_such_clock -- true
one_line_error "an unknown clock" "unknown clock 'no_such_clock'"
no_files "$tmp/u" "an unknown clock"
tracing_same_state "after an unknown clock"

if unshare -m true 2>/dev/null; then
	mkdir "$tmp/ro" "$tmp/full"
	timeout -k 5 "$limit" unshare -m sh -c "mount -t tmpfs -o ro,size=1m none '$tmp/ro' &&
		exec '$bin' record --no-view -o '$tmp/ro/t.dat' -- true" >/dev/null 2>"$tmp/err"
	rc=$?
	err=$tmp/err
	one_line_error "-o onto a read-only directory" "Read-only file system"
	tracing_same_state "after a read-only directory"
	# 200 KiB fill up with the first pages of a busy workload.
	timeout -k 5 "$limit" unshare -m sh -c "mount -t tmpfs -o size=200k none '$tmp/full' &&
		'$bin' record --no-view -o '$tmp/full/t.dat' -- sh -c 'ls -R /usr >/dev/null' &&
		exit 0; rc=\$?; ls -A '$tmp/full' >'$tmp/full.ls'; exit \$rc" >/dev/null 2>"$tmp/err"
	rc=$?
	one_line_error "a full disk" "No space left on device"
	if [ -e "$tmp/full.ls" ] && [ ! -s "$tmp/full.ls" ]; then
		pass "a full disk: no file left in the directory"
	else
		fail "a full disk: files left: $(cat "$tmp/full.ls" 2>/dev/null | tr '\n' ' ')"
	fi
	tracing_same_state "after a full disk"
	timeout -k 5 "$limit" unshare -m sh -c "mount -t tmpfs none $T &&
		exec '$bin' record --no-view -o '$tmp/u/t.dat' -- true" >/dev/null 2>"$tmp/err"
	rc=$?
	one_line_error "no tracefs" "no tracefs at $T"
	no_files "$tmp/u" "no tracefs"
else
	skip "unshare -m does not work here: no read-only, full-disk or no-tracefs checks"
fi

nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if command -v setpriv >/dev/null && "${nobody[@]}" true 2>/dev/null; then
	"${nobody[@]}" "$bin" record --no-view -o /nonexistent/t.dat -- true >/dev/null 2>"$tmp/err"
	rc=$?
	err=$tmp/err
	one_line_error "not root" "recording needs root"
	tracing_same_state "after not root"
else
	skip "setpriv cannot drop to nobody: no not-root check"
fi

# Last, because trace-cmd does not put the state back: a `trace-cmd record`
# of the same events writes the same formats, ftrace formats and printk
# formats as ours, and the same kernel symbols.
rt=${NS_SHARED:-$top/../shared}/tools/record-trace
if [ -x "$rt" ] && timeout -k 5 "$limit" "$rt" -q -e sched -e irq -o "$tmp/ref.dat" true \
	>/dev/null 2>"$tmp/ref.err"; then
	for part in events ftrace printk kallsyms; do
		trace-cmd dump --"$part" "$tmp/ref.dat" 2>&1 | tail -n +2 >"$tmp/ref.$part"
		trace-cmd dump --"$part" "$tmp/first.dat" 2>&1 | tail -n +2 >"$tmp/a.$part"
		if [ -s "$tmp/ref.$part" ] && cmp -s "$tmp/ref.$part" "$tmp/a.$part"; then
			pass "the $part section equals a trace-cmd record's of the same events"
		else
			fail "the $part section differs from a trace-cmd record's:" \
				"$(diff "$tmp/ref.$part" "$tmp/a.$part" | head -3)"
		fi
	done
else
	skip "no trace-cmd recording to compare with ($rt: $(tail -1 "$tmp/ref.err" 2>/dev/null))"
fi

exit 0
