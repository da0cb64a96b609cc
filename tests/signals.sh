#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Signals against the real viewer in a real terminal (tmux), run from an
# interactive shell with job control as a user would: every signal that
# ends it (C-\ for SIGQUIT, kill for SIGINT, SIGTERM, SIGHUP and the crash
# signals) must leave the terminal as it found it (out of the alternate
# screen, cursor shown, keypad mode off) and the exit status of that signal;
# Ctrl-Z must give the terminal back, and after `fg` the viewer must be in
# its modes again (alternate screen, keypad on) and an arrow key must move
# the selection. Waits are polls on a condition, each bounded by a timeout.
set -u
. "$(dirname "$0")/lib/common.sh"
ns_test_begin signals tmux

# The terminal's modes: "alternate cursor keypad", 1 or 0 each.
modes() {
	screen_tmux display -p -t "$SCREEN_TARGET" '#{alternate_on} #{cursor_flag} #{keypad_cursor_flag}'
}

# wait_modes WANT: poll until modes() says WANT (10 s at most).
wait_modes() {
	local end=$(($(date +%s) + 10))

	until [ "$(modes)" = "$1" ]; do
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# A shell in the pane, with no rc files, a plain prompt and no core files.
shell_start() {
	screen_start 80 24 "env PS1='sh\$ ' bash --norc --noprofile -i"
	screen_wait '^sh\$' || return 1
	screen_type 'ulimit -c 0; clear'
	screen_keys Enter
	screen_wait_not 'ulimit' || return 1
}

# Type a command line into the shell.
shell_run() {
	screen_type "$1"
	screen_keys Enter
}

# viewer_start: the viewer on the sample, its list shown; prints its pid.
viewer_start() {
	shell_run "$(printf '%q ' "$bin" "$sample")"
	screen_wait ' of [0-9]+ *$' || return 1
	wait_modes "1 0 1" || return 1
	pgrep -n -P "$(screen_tmux display -p -t "$SCREEN_TARGET" '#{pane_pid}')"
}

# The exit status the shell saw for the last command.
last_status() {
	shell_run 'echo "st=$?"'
	screen_wait '^st=[0-9]+' || return 1
	grep -Eo '^st=[0-9]+' <<<"$SCREEN_LAST" | tail -n 1 | cut -d= -f2
}

# The selected row, from the status line's "#N of M".
selected() {
	screen_capture | grep -Eo '#[0-9]+ of [0-9]+ *$' | tail -n 1 | cut -d' ' -f1 | tr -d '#'
}

# ends_by NAME SIGNUM HOW...: the viewer ended by a signal gives the terminal back.
ends_by() {
	local name=$1 sig=$2 pid st why=""
	shift 2

	if ! shell_start || ! pid=$(viewer_start); then
		fail "$name: the viewer did not start"
		return
	fi
	if [ "$1" = key ]; then
		screen_keys "$2"
	else
		kill -s "$2" "$pid"
	fi
	if ! screen_wait '^sh\$' || ! st=$(last_status); then
		why="no shell prompt after the signal"
	elif [ "$st" != $((128 + sig)) ]; then
		why="exit status $st, want $((128 + sig))"
	elif ! wait_modes "0 1 0"; then
		why="terminal left as 'alternate cursor keypad' = $(modes), want 0 1 0"
	fi
	if [ -n "$why" ]; then
		fail "$name: $why"
	else
		pass "$name: terminal restored, status $st"
	fi
}

ends_by "C-\\ (SIGQUIT)" 3 key 'C-\'
ends_by "C-c (SIGINT)" 2 key C-c
ends_by "SIGTERM" 15 kill TERM
ends_by "SIGHUP" 1 kill HUP
ends_by "SIGSEGV" 11 kill SEGV
ends_by "SIGABRT" 6 kill ABRT
ends_by "SIGBUS" 7 kill BUS

# Ctrl-Z, then fg.
why=""
if ! shell_start || ! pid=$(viewer_start); then
	why="the viewer did not start"
fi
row=$(selected)
if [ -z "$why" ]; then
	screen_keys Down
	row=$((row + 1))
	screen_wait "#$row of [0-9]+ *\$" || why="Down did not select row $row at first"
fi
if [ -z "$why" ]; then
	screen_keys C-z
	if ! screen_wait 'Stopped'; then
		why="C-z: the shell does not say the job stopped"
	elif ! wait_modes "0 1 0"; then
		why="C-z: terminal left as 'alternate cursor keypad' = $(modes), want 0 1 0"
	fi
fi
if [ -z "$why" ]; then
	pass "C-z: the viewer stops and gives the terminal back"
	shell_run fg
	if ! wait_modes "1 0 1"; then
		why="fg: terminal modes 'alternate cursor keypad' = $(modes), want 1 0 1"
	elif ! screen_wait "#$row of [0-9]+ *\$"; then
		why="fg: the viewer did not draw its screen again"
	fi
fi
if [ -z "$why" ]; then
	pass "fg: the viewer takes the terminal again (alternate screen, keypad on)"
	screen_keys Down
	if ! screen_wait "#$((row + 1)) of [0-9]+ *\$"; then
		why="after fg, Down did not move the selection from row $row (row $(selected))"
	fi
fi
if [ -z "$why" ]; then
	pass "fg: an arrow key moves the selection again"
	screen_type q
	if ! screen_wait '^sh\$' || [ "$(last_status)" != 0 ]; then
		why="q after fg: no clean exit"
	elif ! wait_modes "0 1 0"; then
		why="q after fg: terminal left as $(modes)"
	else
		pass "fg: q then quits cleanly"
	fi
fi
[ -n "$why" ] && fail "$why"
exit 0
