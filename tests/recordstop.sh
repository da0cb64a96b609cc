#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Stopping `nurseshark record` before its recording has started, from an
# interactive shell in tmux as a user would: Ctrl-C typed on the terminal
# (or SIGTERM) at each early moment — the output checked but the kernel
# not touched, the tracing state changed but tracing off, tracing on but
# the command not started — ends it cleanly: one line saying it was
# stopped and nothing recorded (no "failed"), the status of the signal
# (130, 143), no file and no temp file, the command never run, and the
# tracing state as it was. Just after the command started, Ctrl-C ends
# the recording normally: status 0 and a file report reads. From the
# viewer's Record screen, Ctrl-C before the start says nothing was
# recorded (not that record failed) and Enter goes back to the viewer.
# The moments are reached through --test-record-stage (record.c:
# the run writes its pid to a file there and waits for the signal), so the
# test sends each signal exactly then, with no sleep.
# Needs root and tracefs; SKIPs with the reason without them.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin recordstop tmux

SCREEN_TIMEOUT=30	# bounds each wait on a busy 2-CPU machine; none is a sleep
. "$top/tests/lib/tracing.sh"
tracing_require || exit 0

# A shell in the pane, with no rc files and a plain prompt.
shell_start() {
	screen_start 100 30 "env PS1='sh\$ ' bash --norc --noprofile -i"
	screen_wait '^sh\$' || return 1
	screen_type 'clear'
	screen_keys Enter
	screen_wait_not 'clear' || return 1
}
shell_run() {
	screen_type "$1"
	screen_keys Enter
}
# The exit status the shell saw for the last command.
last_status() {
	shell_run 'echo "st=$?"'
	screen_wait '^st=[0-9]+' || return 1
	grep -Eo '^st=[0-9]+' <<<"$SCREEN_LAST" | tail -n 1 | cut -d= -f2
}
# wait_file FILE: until it is there (the run at its stage), bounded
wait_file() {
	local end=$(($(date +%s) + SCREEN_TIMEOUT))
	until [ -s "$1" ]; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

mkdir -p "$tmp/out" "$tmp/state"
cat >"$tmp/rec.sh" <<EOF
exec '$bin' record --test-record-stage \$1:$tmp/at --no-view -e sched:sched_switch -b 2048 \\
	-o '$tmp/out/t.dat' -- sh -c 'echo ran >$tmp/ran; exec sleep 600'
EOF

# stop STAGE HOW SIGNUM WORD: record stopped at STAGE by HOW (key C-c, or a
# kill -s HOW) ends with status 128+SIGNUM, WORD naming the signal.
stop() {
	local stage=$1 how=$2 sig=$3 word=$4 st why="" pid
	rm -f "$tmp/at" "$tmp/ran"
	if ! shell_start; then
		fail "$stage: no shell"
		return
	fi
	shell_run "sh $tmp/rec.sh $stage"
	if ! wait_file "$tmp/at"; then
		fail "$stage: the run did not reach the stage"
		return
	fi
	pid=$(cat "$tmp/at")
	if [ "$stage" = setup ]; then
		# the state really is changed at that moment: the window is the right one
		if grep -q '^sched:sched_switch$' $T/set_event && [ "$(cat $T/buffer_size_kb)" -ge 2048 ]; then
			pass "setup: at the stage, sched_switch is enabled and the buffer is 2048 KiB"
		else
			fail "setup: at the stage the state is not changed yet: $(cat $T/set_event $T/buffer_size_kb | tr '\n' ' ')"
		fi
	fi
	if [ "$how" = key ]; then
		screen_keys C-c
	else
		kill -s "$how" "$pid"
	fi
	if ! screen_wait '^sh\$ ?$' || ! st=$(last_status); then
		why="no shell prompt after the signal"
	elif [ "$st" != $((128 + sig)) ]; then
		why="exit status $st, want $((128 + sig))"
	elif ! grep -q "nurseshark: record: stopped by $word before recording started: nothing recorded" <<<"$SCREEN_LAST"; then
		why="no line saying so: $(grep nurseshark <<<"$SCREEN_LAST" | tr '\n' '|')"
	elif grep -qi 'fail' <<<"$SCREEN_LAST"; then
		why="it says something failed: $(grep -i fail <<<"$SCREEN_LAST" | tr '\n' '|')"
	elif [ -n "$(ls -A "$tmp/out")" ]; then
		why="files left: $(ls -A "$tmp/out" | tr '\n' ' ')"
	elif [ -e "$tmp/ran" ]; then
		why="the command ran"
	fi
	if [ -n "$why" ]; then
		fail "$stage, $word: $why"
	else
		pass "$stage, $word: status $st, '$(grep -o 'stopped by.*' <<<"$SCREEN_LAST" | head -n 1)', no file, the command not run"
	fi
	tracing_same_state "$stage, $word"
}

stop checked key 2 "Ctrl-C (SIGINT)"
stop setup key 2 "Ctrl-C (SIGINT)"
stop traced key 2 "Ctrl-C (SIGINT)"
stop setup TERM 15 SIGTERM

# Just after the command started: the recording ends normally, the file is written.
rm -f "$tmp/at" "$tmp/ran"
if shell_start; then
	shell_run "sh $tmp/rec.sh spawned"
	if wait_file "$tmp/at"; then
		screen_keys C-c
		if screen_wait '^sh\$ ?$' && st=$(last_status) && [ "$st" = 0 ] &&
			trace-cmd report "$tmp/out/t.dat" >/dev/null 2>&1 &&
			[ "$(ls -A "$tmp/out")" = t.dat ]; then
			pass "spawned: Ctrl-C ends the recording: status 0, t.dat written and read by report, no temp file"
		else
			fail "spawned: status ${st:-?}, files: $(ls -A "$tmp/out" | tr '\n' ' ')"
		fi
	else
		fail "spawned: the run did not reach the stage"
	fi
fi
tracing_same_state "spawned, Ctrl-C"

# From the viewer: Ctrl-R on the Record screen, Ctrl-C before the recording starts.
rm -f "$tmp/at" "$tmp/out"/*
if shell_start; then
	shell_run "cd $tmp/out && NO_COLOR=1 XDG_STATE_HOME=$tmp/state '$bin' --test-record-stage setup:$tmp/at '$sample'"
	screen_wait ' of [0-9]+ *$'
	screen_keys :
	screen_type record
	screen_keys Enter
	screen_wait '^ Record the running kernel: ' || fail "viewer: no Record screen"
	screen_keys C-r
	if wait_file "$tmp/at"; then
		screen_keys C-c
		if screen_wait 'nothing recorded; Enter goes back to the viewer' &&
			grep -q 'stopped by Ctrl-C (SIGINT) before recording started' <<<"$SCREEN_LAST" &&
			! grep -q 'failed' <<<"$SCREEN_LAST"; then
			pass "viewer: Ctrl-C before the start: 'stopped ... nothing recorded', not 'failed'"
		else
			fail "viewer: after Ctrl-C: $(grep nurseshark <<<"$SCREEN_LAST" | tr '\n' '|')"
		fi
		tracing_same_state "viewer, Ctrl-C before the start"
		screen_keys Enter
		if screen_wait ' of [0-9]+ *$' && [ -z "$(ls -A "$tmp/out")" ]; then
			pass "viewer: Enter goes back to the viewer; no file"
		else
			fail "viewer: not back, or files left: $(ls -A "$tmp/out" | tr '\n' ' ')"
		fi
		screen_type q
		if screen_wait '^sh\$ ?$' && [ "$(last_status)" = 0 ]; then
			pass "viewer: q then quits with status 0"
		else
			fail "viewer: q: no clean exit"
		fi
	else
		fail "viewer: the recording did not reach the stage"
	fi
fi
