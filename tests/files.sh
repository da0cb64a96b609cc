#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Several files: `nurseshark --export -i A -i B` (and A B) prints exactly
# what `trace-cmd report -i A -i B` prints: a "NAME: cpus=N" line per file,
# then the events of all merged in time order, each after its file's base
# name (an instance's line: the instance's name) right-aligned to the
# longest; --ts-offset NS after an -i shifts that file, and -F belongs to
# the -i before it, as in report. The pairs: contrib/sample.dat with
# tests/data/instance.dat (an instance, shifted onto sample's time so that
# the two interleave), with itself (every event a tie), with
# tests/data/lost-events.dat; ../shared's sample.dat and sched-v6.dat (v6);
# and two files recorded here with an instance when we may record (root,
# tracefs, ../shared/tools/record-trace; run it under
# `flock /tmp/ns-tracing.lock`), else those checks SKIP. Damaged files
# among good ones (first, second of three) give one line naming them.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin files

if ! command -v trace-cmd >/dev/null; then
	skip "trace-cmd is not installed: no oracle"
	exit 0
fi
export TZ=UTC LC_ALL=C
inst=$top/tests/data/instance.dat
lost=$top/tests/data/lost-events.dat
shared=${NS_SHARED:-$top/../shared}

# same NAME ARGS...: `nurseshark --export ARGS` prints `trace-cmd report ARGS`.
same() {
	local name=$1
	shift
	trace-cmd report "$@" >"$tmp/want" 2>/dev/null
	same_as "$name" "$tmp/want" "$@"
}

# same_as NAME WANT-FILE ARGS...: `nurseshark --export ARGS` prints WANT-FILE.
same_as() {
	local name=$1 want=$2 rc=0
	shift 2
	"$bin" --no-session --export "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: exit status $rc: $(head -n 1 "$tmp/err")"
	elif [ ! -s "$want" ]; then
		fail "$name: trace-cmd report printed nothing"
	elif ! cmp -s "$want" "$tmp/out"; then
		fail "$name: differs ($(wc -l <"$tmp/out") vs $(wc -l <"$want") lines):
$(diff "$want" "$tmp/out" | head -n 6)"
	else
		pass "$name ($(wc -l <"$want") lines)"
	fi
}

# interleaved FILE A B: lines of B's prefix come between lines of A's.
interleaved() {
	awk -v a="$2" -v b="$3" '
		{ sub(/^ +/, "") }
		index($0, a ": ") == 1 { if (seen_b) { print "yes"; exit } seen_a = 1 }
		index($0, b ": ") == 1 { if (seen_a) seen_b = 1 }' "$1" | grep -q yes
}

# refused NAME STATUS MESSAGE ARGS...: that exit status and that one line, nothing on stdout.
refused() {
	local name=$1 want_rc=$2 msg=$3 rc=0
	shift 3
	"$bin" --no-session "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want_rc" ] && [ "$(cat "$tmp/err")" = "$msg" ] && [ ! -s "$tmp/out" ]; then
		pass "$name"
	else
		fail "$name: status $rc, stdout $(wc -c <"$tmp/out") bytes, stderr '$(head -c 200 "$tmp/err")'"
	fi
}

# --- the bundled traces: one with an instance, one with lost events ----------
same "-i sample.dat -i instance.dat: file and instance prefixes" -i "$sample" -i "$inst"
same "-i instance.dat -i sample.dat: the other order" -i "$inst" -i "$sample"
same "-i instance.dat -i instance.dat: every event a tie (top buffers, then instances)" \
	-i "$inst" -i "$inst"
# the second copy's first top-buffer event moved onto the first copy's instance's first event
same "-i instance.dat -i instance.dat --ts-offset 1633843: a top buffer's event tied with an instance's" \
	-i "$inst" -i "$inst" --ts-offset 1633843
same "-i sample.dat -i lost-events.dat: lost-events lines after the prefix" -i "$sample" -i "$lost"
# a file name longer than any fixed buffer: the prefix is padded to it
long=$tmp/$(printf 'x%.0s' $(seq 1 150)).dat
cp "$lost" "$long"
same "-i sample.dat -i <150-character name>: whole lost-events lines after a long prefix" \
	-i "$sample" -i "$long"
# instance.dat ran 3773.6 s before sample.dat: shifted, they overlap
same "--ts-offset after the second -i: instance.dat moved onto sample.dat's time" \
	-i "$sample" -i "$inst" --ts-offset 3773600000000
if interleaved "$tmp/out" sample.dat instance.dat; then
	pass "--ts-offset: the two files' lines interleave"
else
	fail "--ts-offset: the files' lines do not interleave"
fi
trace-cmd report -i "$sample" -i "$inst" >"$tmp/want" 2>/dev/null
same_as "FILE FILE as -i FILE -i FILE" "$tmp/want" "$sample" "$inst"
same "three files, two offsets (one negative), -F on the second" -i "$inst" -i "$lost" \
	-F sched/sched_switch --ts-offset 5 -i "$sample" --ts-offset -3773600000000
# -F belongs to the -i before it (before any -i: to the first file)
same "-F before the first -i filters the first file only" \
	-F sched/sched_switch -i "$sample" -i "$lost"
same "-F after the second -i filters the second file only" \
	-i "$sample" -i "$lost" -F sched/sched_switch
same "-v -F: one -v for every -F after it, whatever file" \
	-v -F sched/sched_switch -i "$sample" -i "$lost" -F sched/sched_waking

# The first file's --ts-offset: report 3.1.6 ignores it (it applies the
# option to the file before it only from the second -i on); nurseshark
# applies it. The oracle: report with the files the other way round, cut
# to the first file's lines, which the merge keeps in their order.
prefixed() {	# prefixed NAME < REPORT: NAME's lines, prefix off
	sed -n "s/^ *$1: //p"
}
trace-cmd report -i "$sample" -i "$inst" --ts-offset 3773600000000 2>/dev/null |
	prefixed instance.dat >"$tmp/want.inst"
"$bin" --no-session --export -i "$inst" --ts-offset 3773600000000 -i "$sample" 2>"$tmp/err" |
	prefixed instance.dat >"$tmp/got.inst"
if [ -s "$tmp/want.inst" ] && cmp -s "$tmp/want.inst" "$tmp/got.inst"; then
	pass "--ts-offset after the first -i shifts the first file ($(wc -l <"$tmp/want.inst") lines)"
else
	fail "--ts-offset after the first -i: $(diff "$tmp/want.inst" "$tmp/got.inst" | head -n 4)"
fi
trace-cmd report -i "$inst" -i "$sample" --ts-offset -2500000000 2>/dev/null |
	prefixed sample.dat >"$tmp/want"
same_as "one file: -i sample.dat --ts-offset -2500000000 as report shifts it" "$tmp/want" \
	-i "$sample" --ts-offset -2500000000

# the viewer shifts one file too: its list's first event 2.5 s earlier
got=$("$bin" --no-session --snapshot 100x14 -i "$sample" --ts-offset -2500000000 |
	awk '$1 == "0" && $2 == "0" { print $3; exit }')
[ "$got" = 10169.072790 ] && pass "the viewer with --ts-offset -2500000000: first event at $got" ||
	fail "the viewer with --ts-offset: first event at '$got', want 10169.072790 (report: 10171.572790)"

# --- ../shared: a v7 and a v6 file --------------------------------------------
a=$shared/traces/sample.dat b=$shared/traces/sched-v6.dat
if [ -r "$a" ] && [ -r "$b" ]; then
	same "shared sample.dat and sched-v6.dat (v6)" -i "$a" -i "$b"
	same "shared sched-v6.dat (v6) moved 12 s back onto sample.dat" \
		-i "$a" -i "$b" --ts-offset -12000000000
	if interleaved "$tmp/out" sample.dat sched-v6.dat; then
		pass "shared: sched-v6.dat's lines interleave with sample.dat's"
	else
		fail "shared: sched-v6.dat's lines do not interleave with sample.dat's"
	fi
	same "shared: -F sched_switch on each, the v6 file shifted" -i "$a" -F sched/sched_switch \
		-i "$b" -F sched/sched_switch --ts-offset -12000000000
else
	skip "shared traces: $a or $b missing"
fi

# --- the export's formatting in parallel (a thread per file, merged by time) --
# Every pair above is formatted by a thread per file; these add the cases
# where that could go wrong: files of different event sets and a v6 file
# among three, an instance buffer beside a file with function_graph events
# (trace-cmd's ftrace handler reads ahead through its file's handle), and
# two files with the function plugin's events, which share its
# process-wide stacks: formatted by one thread, in report's order (with a
# thread each, the plugin's stacks are corrupted under the threads).
pub=$shared/traces/public
fn=$pub/wsdias__LabSisOp__sched_rr_trace.dat	# ftrace function events
fg=$pub/wsdias__LabSisOp__trace.dat		# function_graph entries and exits
if [ -r "$a" ] && [ -r "$b" ]; then
	same "three files, different event sets: sample.dat, lost-events.dat, sched-v6.dat (v6)" \
		-i "$sample" -i "$lost" -i "$b" --ts-offset -12000000000
else
	skip "three files: $b missing"
fi
if [ -r "$fn" ] && [ -r "$fg" ]; then
	# fg ran at 38.9 s, instance.dat at 6398.0 s, fn at 2050.8 s: shifted, they overlap
	same "instance.dat and function_graph events (one file with ftrace handlers)" \
		-i "$inst" -i "$fg" -i "$sample"
	same "function_graph events moved onto instance.dat's time" \
		-i "$inst" -i "$fg" --ts-offset 6358600000000
	if interleaved "$tmp/out" wsdias__LabSisOp__trace.dat instance.dat; then
		pass "function_graph file and instance.dat: their lines interleave"
	else
		fail "function_graph file and instance.dat: their lines do not interleave"
	fi
	same "function plugin events in two files (one thread formats both)" \
		-i "$fn" -i "$fg" --ts-offset 2011900000000
	if interleaved "$tmp/out" wsdias__LabSisOp__sched_rr_trace.dat wsdias__LabSisOp__trace.dat
	then
		pass "function and function_graph files: their lines interleave"
	else
		fail "function and function_graph files: their lines do not interleave"
	fi
	same "the function plugin's file twice, 1 us apart (its stacks shared by both)" \
		-i "$fn" -i "$fn" --ts-offset 1000
else
	skip "function plugin files: $fn or $fg missing"
fi

# --- --stats of several files: the sum of their events, as report counts them --
# (report prints one line per event after a "NAME: cpus=N" line per file)
want_ev=$(trace-cmd report -i "$sample" -i "$inst" 2>/dev/null | grep -cv ': cpus=[0-9]*$')
stats=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" --no-session --stats -i "$sample" -i "$inst" \
	2>"$tmp/err")
ev=$(sed -n 's/^events //p' <<<"$stats")
if [ "${want_ev:-0}" -gt 0 ] && [ "$ev" = "$want_ev" ] && grep -qx 'files 2' <<<"$stats" &&
	grep -qx 'streams 3' <<<"$stats" && grep -qE '^step_redraw_us_max [0-9]+$' <<<"$stats" &&
	[ ! -s "$tmp/err" ]; then
	pass "--stats -i sample.dat -i instance.dat: $ev events (report's), 3 streams"
else
	fail "--stats of two files: events '${ev:-}', report's '${want_ev:-}', $(grep -E '^(files|streams) ' <<<"$stats" | tr '\n' ' ') stderr '$(head -c 200 "$tmp/err")'"
fi

# --- --buffer NAME with several files: each file that has it reads it alone --
# (a file with none of the names is read whole): report's lines less
# instance.dat's top buffer's (--buffer extra), less its instance's (top)
trace-cmd report -i "$sample" -i "$inst" 2>/dev/null |
	grep -vE '^instance\.dat: +[^ ]+-[0-9]+ ' >"$tmp/want-extra"
same_as "--buffer extra -i sample.dat -i instance.dat: sample.dat whole, instance.dat's extra" \
	"$tmp/want-extra" --buffer extra -i "$sample" -i "$inst"
trace-cmd report -i "$sample" -i "$inst" 2>/dev/null | grep -vE '^ *extra: ' >"$tmp/want-top"
same_as "--buffer top -i sample.dat -i instance.dat: the top buffers" "$tmp/want-top" \
	--buffer top -i "$sample" -i "$inst"
want_rows=$(grep -cv ': cpus=[0-9]*$' "$tmp/want-extra")
"$bin" --no-session --snapshot 100x12 --buffer extra "$sample" "$inst" >"$tmp/snap" 2>"$tmp/err"
if grep -q "#0 of $want_rows\b" "$tmp/snap" && grep -q '^instance:extra CPU0 ' "$tmp/snap" &&
	! grep -q '^instance CPU0 ' "$tmp/snap" && [ ! -s "$tmp/err" ]; then
	pass "the viewer with --buffer extra A B: $want_rows rows, instance.dat's extra rows only"
else
	fail "the viewer with --buffer extra A B (want $want_rows rows): $(grep -E '^instance|#0 of' "$tmp/snap" | tr '\n' '|') stderr '$(head -c 200 "$tmp/err")'"
fi
want_ev=$(trace-cmd report -i "$inst" -i "$inst" 2>/dev/null | grep -cE '^ *extra: ')
stats=$(NS_BENCH_SEARCH='' NS_BENCH_FILTER='' "$bin" --no-session --stats --buffer extra \
	"$inst" "$inst" 2>"$tmp/err")
ev=$(sed -n 's/^events //p' <<<"$stats")
if [ "${want_ev:-0}" -gt 0 ] && [ "$ev" = "$want_ev" ] && grep -qx 'streams 2' <<<"$stats"; then
	pass "--stats --buffer extra of instance.dat twice: $ev events (report's extra lines), 2 streams"
else
	fail "--stats --buffer extra of two files: events '${ev:-}', report's '${want_ev:-}', $(grep -E '^streams ' <<<"$stats") stderr '$(head -c 200 "$tmp/err")'"
fi

# --- what is refused ------------------------------------------------------------
refused "--ts-offset before any -i" 2 "nurseshark: --ts-offset must come after -i FILE" \
	--export --ts-offset 5 -i "$sample"
refused "--ts-offset 1x" 2 "nurseshark: --ts-offset 1x: want nanoseconds, e.g. -2500000000" \
	--export -i "$sample" --ts-offset 1x
refused "--buffer that no file has: the files named, no output" 1 \
	"nurseshark: --buffer nosuch: no buffer of that name in $sample or $inst" \
	--export --buffer nosuch -i "$sample" -i "$inst"
refused "--buffer that no file has, in the viewer" 1 \
	"nurseshark: --buffer nosuch: no buffer of that name in $sample or $inst" \
	--snapshot 80x24 --buffer nosuch "$sample" "$inst"
refused "a second file that is not there: its name, no output" 1 \
	"nurseshark: $tmp/none.dat: No such file or directory" --export -i "$sample" -i "$tmp/none.dat"
# damaged files among good ones (tests/data/fuzz/regressions.txt's issue 9
# patches): every file's guard child runs at once while ours open the files
# one after the other; the one line names the damaged file wherever it is
# and whichever process fails first (a calloc() past the children's budget;
# a crash of kbuffer in our open of the second of three files)
patch() {	# patch FROM TO OFFSET HEXBYTES
	cp "$1" "$2" && chmod u+w "$2" &&
		printf "$(sed 's/../\\x&/g' <<<"$4")" | dd of="$2" bs=1 seek="$3" conv=notrunc 2>/dev/null
}
patch "$sample" "$tmp/cpuid.dat" 1850933 80
mem="corrupt: opening it takes more memory than the file can explain (1024 MB more)"
for mode in --export "--snapshot 80x24"; do
	# shellcheck disable=SC2086
	refused "$mode: a damaged second file" 1 "nurseshark: $tmp/cpuid.dat: $mem" \
		$mode -i "$sample" -i "$tmp/cpuid.dat"
	# shellcheck disable=SC2086
	refused "$mode: a damaged first file" 1 "nurseshark: $tmp/cpuid.dat: $mem" \
		$mode -i "$tmp/cpuid.dat" -i "$inst"
done
gpu=$shared/traces/public/tiagovignatti__intel-gpu-tools__tests-trace.dat
if [ -r "$gpu" ]; then
	patch "$gpu" "$tmp/kbuf.dat" 1171464 feffffff
	crash="corrupt: libtracecmd crashes reading it (Segmentation fault)"
	for mode in --export "--snapshot 80x24"; do
		# shellcheck disable=SC2086
		refused "$mode: our open crashes on the second of three files" 1 \
			"nurseshark: $tmp/kbuf.dat: $crash" $mode -i "$sample" -i "$tmp/kbuf.dat" -i "$inst"
	done
else
	skip "damaged files: $gpu not found"
fi

# --- two files recorded here, one with an instance -----------------------------
rec=$shared/tools/record-trace
if [ "$(id -u)" != 0 ] || [ ! -x "$rec" ]; then
	skip "recorded files: needs root and $rec"
	exit 0
fi
if ! (cd "$tmp" && NS_INSTANCES="nsf1" timeout 60 "$rec" -q -e sched:sched_switch \
	-e sched:sched_wakeup -B nsf1 -e timer -o a.dat sh -c 'ls -R /usr/share >/dev/null' &&
	timeout 60 "$rec" -q -e sched -e irq -o b.dat sh -c 'ls -R /usr/share >/dev/null') \
	>"$tmp/rec.log" 2>&1; then
	skip "recorded files: record-trace failed: $(tail -n 1 "$tmp/rec.log")"
	exit 0
fi
# b.dat was recorded after a.dat: move it back onto a.dat's first event
first() {
	trace-cmd report "$1" 2>/dev/null | sed -n 's/.*\] *\([0-9]*\)\.\([0-9]*\): .*/\1\2/p' |
		head -n 1
}
ta=$(first "$tmp/a.dat") tb=$(first "$tmp/b.dat")
if [ -z "$ta" ] || [ -z "$tb" ]; then
	fail "recorded files: no first timestamp ('$ta', '$tb')"
	exit 0
fi
off=$(( (ta - tb) * 1000 ))
same "recorded: a.dat (with instance nsf1) and b.dat" -i "$tmp/a.dat" -i "$tmp/b.dat"
same "recorded: b.dat moved onto a.dat (--ts-offset $off)" -i "$tmp/a.dat" -i "$tmp/b.dat" \
	--ts-offset "$off"
if grep -q '^ *nsf1: ' "$tmp/out" && interleaved "$tmp/out" a.dat b.dat; then
	pass "recorded: instance lines, and the files' lines interleave"
else
	fail "recorded: no nsf1 lines, or the files do not interleave"
fi
