#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Bytes sent per step stay small over a slow ssh link: through a real pty
# at 80x24 on contrib/sample.dat, LC_ALL C and UTF-8 (whose block
# characters take three bytes each), TERM=xterm-256color (and tmux's), a
# list step (j, k) sends at most 256 bytes and a one-column pan (], [) at
# most 1 KiB: the pan moves the graph's rows sideways on the terminal
# (src/tui/hscroll.c; tests/hscroll.sh checks what that leaves on the
# screen) where curses alone sent them whole, 1030 to 1210 bytes in UTF-8.
# tests/lib/ptybytes.py counts what the program writes for
# each key, a step being over when it waits for a key again (a condition,
# read from /proc, not a timeout).
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin bytes

if ! command -v python3 >/dev/null || [ ! -r /proc/self/syscall ]; then
	skip "python3 or /proc/PID/syscall is missing"
	exit 0
fi
export TZ=UTC
# a scratch config without sessions, as tests/run.sh gives: run by hand with
# the real home, a restored session (task rows, pane sizes) changes the bytes
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark" "$XDG_STATE_HOME"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"
locales=(C)
if [ -n "$utf8" ]; then
	locales+=("$utf8")
else
	skip "no UTF-8 locale on this machine: its bytes are not measured"
fi
for locale in "${locales[@]}"; do
	for term in xterm-256color tmux-256color; do
		if ! infocmp "$term" >/dev/null 2>&1; then
			skip "TERM=$term: no terminfo entry"
			continue
		fi
		what="TERM=$term LC_ALL=$locale"
		# zoomed in four times first, so that a one-column pan moves the window
		out=$(LC_ALL=$locale TERM=$term timeout 120 python3 "$top/tests/lib/ptybytes.py" 80 24 \
			'++++' 'jjjjkk]]]]][[[' -- "$bin" "$sample" 2>&1)
		steps=$(grep -cE '^[jk] [0-9]+$' <<<"$out")
		pans=$(grep -cE '^[][] [0-9]+$' <<<"$out")
		step_max=$(awk '$1 ~ /^[jk]$/ && $2 > m { m = $2 } END { print m + 0 }' <<<"$out")
		pan_max=$(awk '$1 ~ /^[][]$/ && $2 > m { m = $2 } END { print m + 0 }' <<<"$out")
		if [ "$steps" -eq 6 ] && [ "$step_max" -gt 0 ] && [ "$step_max" -le 256 ]; then
			pass "$what: a list step sends at most $step_max bytes (limit 256)"
		else
			fail "$what: list steps: $(grep -E '^[jk] ' <<<"$out" | tr '\n' ' ') (limit 256) $out"
		fi
		if [ "$pans" -eq 8 ] && [ "$pan_max" -gt 0 ] && [ "$pan_max" -le 1024 ]; then
			pass "$what: a one-column pan sends at most $pan_max bytes (limit 1024)"
		else
			fail "$what: pans: $(grep -E '^[][] ' <<<"$out" | tr '\n' ' ') (limit 1024)"
		fi
	done
done
