# SPDX-License-Identifier: GPL-2.0-only
#
# For the tests that record from the running kernel (after common.sh):
#   tracing_require   SKIPs (and returns 1) without root, tracefs or
#                     trace-cmd (the oracle); the caller then exits 0
#   tracing_state     the tracing state a recording may change, as text
#   tracing_same_state WHAT
#                     PASS if the state now equals $tracing_before (set by
#                     tracing_require), else FAIL with the difference
# T is the tracefs mount.

T=/sys/kernel/tracing

tracing_require() {
	if [ "$(id -u)" != 0 ]; then
		skip "recording needs root"
		return 1
	fi
	# a machine that has tracefs but has not mounted it (record-trace does so too)
	[ -e $T/events ] || mount -t tracefs nodev $T 2>/dev/null
	if [ ! -w $T/tracing_on ]; then
		skip "no tracefs at $T"
		return 1
	fi
	if ! command -v trace-cmd >/dev/null; then
		skip "trace-cmd (the oracle) is not installed"
		return 1
	fi
	tracing_before=$(tracing_state)
}

tracing_state() {
	local f
	for f in tracing_on buffer_size_kb buffer_subbuf_size_kb trace_clock current_tracer \
		set_event per_cpu/cpu*/buffer_size_kb; do
		# a buffer not yet used since boot reads "7 (expanded: 1408)" and
		# grows for good at its first use: the size asked for is what counts
		echo "$f: $(cat "$T/$f" 2>&1 | sed 's/ (expanded: [0-9]*)$//')"
	done
	echo "instances: $(ls "$T/instances")"
}

tracing_same_state() {
	local now
	now=$(tracing_state)
	if [ "$now" = "$tracing_before" ]; then
		pass "$1: the tracing state is as it was"
	else
		fail "$1: the tracing state changed: $(diff <(echo "$tracing_before") <(echo "$now") | tr '\n' ' ')"
	fi
}
