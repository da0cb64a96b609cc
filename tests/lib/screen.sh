# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# A tmux harness for screen tests: the real binary in a real pseudo-terminal
# with a real terminal emulator, read back with capture-pane. Each test
# script gets its own tmux server on a private socket (nstest-PID, no
# config file; a new one for each screen_start), which is killed on exit
# whatever happens. Works with no
# terminal and no stdin (CI, as root).
#
#   . "$NS_TOP/tests/lib/screen.sh"
#   screen_start 80 24 "$NS_BIN contrib/sample.dat"   # a shell command line
#   screen_wait 'CPU0' || fail ...                    # poll, never sleep
#   screen_keys Tab + +        # tmux key names (Tab, Enter, Left, C-c, ...)
#   screen_type 'jjja'         # literal characters
#   screen_resize 100 30
#   screen_capture             # the screen now
#   screen_stop                # also done by the EXIT trap
#
# screen_start returns once the loading screen is gone (screen_wait_loaded).
#
# screen_wait REGEX [SECONDS] polls the pane until a line matches the
# extended regex (default timeout $SCREEN_TIMEOUT, 10 s); on timeout it
# returns 1 and $SCREEN_LAST holds the last screen for the failure message.
# screen_wait_not REGEX waits until no line matches.

SCREEN_SOCKET=nstest-$$
SCREEN_STARTS=0
SCREEN_TIMEOUT=${SCREEN_TIMEOUT:-10}
SCREEN_LAST=
SCREEN_TARGET=main

screen_tmux() {
	tmux -L "$SCREEN_SOCKET" -f /dev/null "$@"
}

screen_have_tmux() {
	command -v tmux >/dev/null 2>&1
}

# screen_start COLS ROWS COMMAND: a fresh server and session running COMMAND.
screen_start() {
	local cols=$1 rows=$2 cmd=$3

	screen_stop	# the caller's EXIT trap stops the last one (common.sh)
	# a new socket each time: the last server may still be on its way out
	SCREEN_STARTS=$((SCREEN_STARTS + 1))
	SCREEN_SOCKET=nstest-$$-$SCREEN_STARTS
	# remain-on-exit: a crash leaves its last screen to look at;
	# no status line, so the pane is the whole COLSxROWS window
	screen_tmux start-server \; \
		set -g remain-on-exit on \; \
		set -g status off \; \
		set -g escape-time 0 \; \
		set -g default-terminal screen \; \
		new-session -d -s "$SCREEN_TARGET" -x "$cols" -y "$rows" "$cmd" </dev/null
	[ -n "${SCREEN_KEEP_LOADING:-}" ] || screen_wait_loaded
}

# While the trace is indexed the viewer shows its loading screen (title
# "(indexing)"), which reads only scroll and quit keys: a test that drives
# the viewer waits until something else is on the screen (the viewer, or
# whatever the command printed instead). SCREEN_KEEP_LOADING=1: do not wait.
screen_wait_loaded() {
	local end

	end=$(($(date +%s%N) + SCREEN_TIMEOUT * 1000000000))
	while :; do
		SCREEN_LAST=$(screen_capture 2>&1)
		if grep -q '[^ ]' <<<"$SCREEN_LAST" && ! grep -q '(indexing)' <<<"$SCREEN_LAST"; then
			return 0
		fi
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# The server goes, and its socket file, which tmux leaves behind.
screen_stop() {
	screen_tmux kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SCREEN_SOCKET"
	return 0
}

screen_capture() {
	screen_tmux capture-pane -p -t "$SCREEN_TARGET"
}

# Named keys, as tmux knows them: Tab Enter Escape Left PPage C-c F1 ...
screen_keys() {
	screen_tmux send-keys -t "$SCREEN_TARGET" "$@"
}

# Characters, each sent as itself.
screen_type() {
	screen_tmux send-keys -t "$SCREEN_TARGET" -l "$1"
}

# Raw bytes, two hex digits each (mouse reports).
screen_bytes() {
	screen_tmux send-keys -t "$SCREEN_TARGET" -H "$@"
}

screen_resize() {
	screen_tmux resize-window -t "$SCREEN_TARGET" -x "$1" -y "$2"
}

# The pane's process status: "dead STATUS" once it exited, else "alive".
screen_pane_state() {
	screen_tmux list-panes -t "$SCREEN_TARGET" \
		-F '#{?pane_dead,dead #{pane_dead_status},alive}' 2>/dev/null
}

# screen_wait REGEX [SECONDS]
screen_wait() {
	local re=$1 timeout=${2:-$SCREEN_TIMEOUT} end

	end=$(($(date +%s%N) + timeout * 1000000000))
	while :; do
		SCREEN_LAST=$(screen_capture 2>&1)
		grep -Eq -- "$re" <<<"$SCREEN_LAST" && return 0
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# screen_wait_for FUNCTION [SECONDS]: polls until FUNCTION (which reads
# $SCREEN_LAST) succeeds on one capture. For checks of several parts of a
# screen: a frame the terminal has only half drawn fails it, and the next
# capture is tried, where a wait for one part then checks of the others on
# the same capture would fail for good.
screen_wait_for() {
	local fn=$1 timeout=${2:-$SCREEN_TIMEOUT} end

	end=$(($(date +%s%N) + timeout * 1000000000))
	while :; do
		SCREEN_LAST=$(screen_capture 2>&1)
		"$fn" && return 0
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# screen_wait_all REGEX...: polls until one capture matches every REGEX
# (extended), and none of those written !REGEX. The parts of one frame are
# checked together, so a half-drawn frame is not taken for the whole.
screen_wait_all() {
	local re ok end

	end=$(($(date +%s%N) + SCREEN_TIMEOUT * 1000000000))
	while :; do
		SCREEN_LAST=$(screen_capture 2>&1)
		ok=1
		for re in "$@"; do
			if [ "${re:0:1}" = '!' ]; then
				grep -Eq -- "${re:1}" <<<"$SCREEN_LAST" && ok=0
			else
				grep -Eq -- "$re" <<<"$SCREEN_LAST" || ok=0
			fi
			[ $ok = 1 ] || break
		done
		[ $ok = 1 ] && return 0
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# screen_wait_not REGEX [SECONDS]
screen_wait_not() {
	local re=$1 timeout=${2:-$SCREEN_TIMEOUT} end

	end=$(($(date +%s%N) + timeout * 1000000000))
	while :; do
		SCREEN_LAST=$(screen_capture 2>&1)
		grep -Eq -- "$re" <<<"$SCREEN_LAST" || return 0
		[ "$(date +%s%N)" -ge "$end" ] && return 1
		sleep 0.05
	done
}

# The last screen, indented, for a FAIL message's following lines.
screen_dump() {
	local line

	while IFS= read -r line; do
		printf '    | %s\n' "$line"
	done <<<"$SCREEN_LAST"
}
