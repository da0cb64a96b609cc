#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every key understood whatever the terminal: the real binary in tmux under
# TERM xterm-256color, tmux-256color, screen, linux and vt100, at 80x24,
# 40x10 and 200x60, with LANG C.UTF-8 and C and NO_COLOR set or not, gets
# a fixed sequence of raw bytes: escape sequences for Home, End, PgUp, PgDn,
# shifted and control arrows as xterm, rxvt, the linux console, screen and
# tmux send them (whatever each terminfo entry lists), the application
# keypad's +, and sequences to discard whole (mouse reports of a button we
# do not use, focus reports, an unknown key). The screen must come out
# exactly as `--snapshot` draws it for the same keys in the --keys syntax:
# a byte of a sequence that acted as a key of its own ('C' opens the CPU
# picker, '<' pans, '0' zooms out, '~' ...) would change it.
#
# Also: the terminal is told to send its keypad's sequences once at start
# (ESC [?1h ESC =, not once per window), and a mouse press and its release
# that arrive together are both acted on.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin terminals tmux

export TZ=UTC
unset NO_COLOR LANG LANGUAGE LC_CTYPE LC_MESSAGES LC_TIME COLUMNS LINES
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark" "$XDG_STATE_HOME"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"

# The sequence: hex bytes to type (one send-keys each) and the same keys in --keys syntax.
steps=(
	"2b 2b"				"++"
	"1b 5b 31 3b 32 43"		"<S-Right>"	# xterm S-Right
	"1b 5b 31 3b 35 43"		"<C-Right>"	# xterm C-Right: a page right
	"1b 5b 63"			"<S-Right>"	# rxvt S-Right
	"1b 5b 31 3b 32 44"		"<S-Left>"	# xterm S-Left
	"1b 5b 34 7e"			"<End>"		# linux, screen, tmux End
	"1b 5b 35 7e"			"<PageUp>"	# PgUp
	"1b 5b 37 7e"			"<Home>"	# rxvt Home
	"1b 5b 36 7e"			"<PageDown>"	# PgDn
	"1b 5b 46"			"<End>"		# xterm End
	"1b 5b 35 3b 35 7e"		"<PageUp>"	# C-PgUp
	"1b 4f 48"			"<Home>"	# xterm Home (application mode)
	"1b 5b 31 3b 32 42"		""		# S-Down: no action
	"1b 4f 6b"			"+"		# the keypad's +
	"1b 5b 4d 21 35 2b"		""		# X10 mouse: middle button
	"1b 5b 3c 31 3b 31 30 3b 35 4d"	""		# SGR mouse: middle button
	"1b 5b 49 1b 5b 4f"		""		# focus in, focus out
	"1b 5b 39 39 7e"		""		# an unknown key
	"1b 5b 31 3b 33 50"		"<F1>"		# Alt-F1: the help
	"6a"				"j"		# scrolls the help
	"1b"				"<Esc>"		# the ESC key alone closes it
	"6a 6a"				"jj"
)
keys=
for ((i = 1; i < ${#steps[@]}; i += 2)); do
	keys+=${steps[i]}
done

sizes=(${NS_TERM_SIZES:-80x24 40x10 200x60})
terms=(${NS_TERMS:-xterm-256color tmux-256color screen linux vt100})
n=0
for term in "${terms[@]}"; do
	if ! infocmp "$term" >/dev/null 2>&1; then
		skip "TERM=$term: no terminfo entry on this machine"
		continue
	fi
	for size in "${sizes[@]}"; do
		# LANG and NO_COLOR take turns so that each TERM meets both of each
		n=$((n + 1))
		locale=C
		[ $((n % 2)) -eq 0 ] && [ -n "$utf8" ] && locale=$utf8
		nocolor=
		[ $(((n / 2) % 2)) -eq 1 ] && nocolor=1
		what="TERM=$term $size LC_ALL=$locale${nocolor:+ NO_COLOR=1}"
		want=$(cd "$top" && env LC_ALL="$locale" ${nocolor:+NO_COLOR=1} \
			timeout 60 "$bin" --snapshot "$size" --keys "$keys" "$sample" </dev/null)
		screen_start "${size%x*}" "${size#*x}" "cd '$top' && env TERM=$term \
LC_ALL='$locale' ${nocolor:+NO_COLOR=1} XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
XDG_STATE_HOME='$XDG_STATE_HOME' TZ=UTC '$bin' '$sample'"
		if ! screen_wait '#0 of 91631|^CPU0|91631'; then
			fail "$what: the viewer did not start"
			continue
		fi
		for ((i = 0; i < ${#steps[@]}; i += 2)); do
			# shellcheck disable=SC2086
			screen_bytes ${steps[i]}
		done
		# wait for the screen to settle on the expected one; the timeout only bounds it
		end=$(($(date +%s%N) + SCREEN_TIMEOUT * 1000000000))
		while now=$(screen_capture) && [ "$now" != "$want" ] &&
			[ "$(date +%s%N)" -lt "$end" ]; do
			sleep 0.05
		done
		if [ "$now" = "$want" ]; then
			pass "$what: the raw sequences act as their keys, nothing else acts"
		else
			fail "$what: the screen differs from --snapshot --keys '$keys' (- expected, + tmux):"
			diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$now") | tail -n +3 |
				head -n 30 | sed 's/^/    /'
		fi
		screen_stop
	done
done

# --- what is sent at start ---------------------------------------------------------

# The pane's output from the first byte: the viewer waits for a line on stdin first.
SCREEN_KEEP_LOADING=1 screen_start 80 24 "cd '$top' && read go; exec env TERM=screen LC_ALL=C '$bin' '$sample'"
screen_tmux pipe-pane -o -t "$SCREEN_TARGET" "cat >'$tmp/out'"
screen_keys Enter
if screen_wait '#0 of 91631'; then
	nkx=$(grep -o $'\e\\[?1h\e=' "$tmp/out" | wc -l)
	if [ "$nkx" -eq 1 ]; then
		pass "the keypad's sequences are asked for once at start (ESC [?1h ESC =)"
	else
		fail "ESC [?1h ESC = sent $nkx times at start, want once"
	fi
else
	fail "the viewer did not start for the output count"
fi
screen_stop

# --- a mouse press and release that arrive together ---------------------------------

screen_start 80 24 "cd '$top' && env TERM=screen LC_ALL=C '$bin' '$sample'"
screen_wait '#0 of 91631' || fail "the viewer did not start for the click"
# press and release on cell (20, 10), list row 3, in one write
screen_bytes 1b 5b 4d 20 35 2b 1b 5b 4d 23 35 2b
if screen_wait '#3 of 91631'; then
	pass "a press and its release read together: both acted on (row 3 selected)"
else
	fail "a press and release in one read: the press was lost"
fi
screen_stop
