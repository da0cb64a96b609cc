#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A pan moves the graph's rows sideways on the terminal (src/tui/hscroll.c:
# delete and insert character) instead of sending them again; what the
# terminal shows afterwards must be what a full repaint shows. In tmux at
# 80x24, under TERM xterm-256color, tmux-256color and screen, LC_ALL C and
# UTF-8, the viewer zooms in and pans one column at a time both ways; then
# its screen, colours and attributes included (capture-pane -e), must equal
# that of a second viewer that typed the same keys but repainted the whole
# screen (C-l) before the last one (the graph's rows: the list's blanks
# differ in their invisible foreground between a repaint and an update under
# TERM=xterm-256color, pans or not), and its text must equal --snapshot's
# for the same keys. tests/bytes.sh measures the bytes this saves.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin hscroll tmux

export TZ=UTC
unset NO_COLOR LANG LANGUAGE LC_CTYPE LC_MESSAGES LC_TIME COLUMNS LINES
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark" "$XDG_STATE_HOME"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"

pans=']]]]][[[<Right>]]<Left>'
last=j

# run_viewer OUT TERM LOCALE KEYS...: the screen with escapes into OUT once its text is $want
run_viewer() {
	local out=$1 term=$2 locale=$3 k end now
	shift 3

	screen_start 80 24 "cd '$top' && env TERM=$term LC_ALL='$locale' \
XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_STATE_HOME='$XDG_STATE_HOME' TZ=UTC '$bin' '$sample'"
	screen_wait '#0 of 91631' || return 1
	for k in "$@"; do
		screen_keys "$k"
	done
	end=$(($(date +%s%N) + SCREEN_TIMEOUT * 1000000000))
	while now=$(screen_capture) && [ "$now" != "$want" ] &&
		[ "$(date +%s%N)" -lt "$end" ]; do
		sleep 0.05
	done
	SCREEN_LAST=$now
	[ "$now" = "$want" ] || return 1
	# the graph's rows, above the marker bar: the list's blanks may differ in
	# their (invisible) foreground between a repaint and an update, pans or not
	screen_tmux capture-pane -e -p -t "$SCREEN_TARGET" | head -n "$graph_rows" >"$out"
}

locales=(C)
[ -n "$utf8" ] && locales+=("$utf8")
for term in xterm-256color tmux-256color screen; do
	if ! infocmp "$term" >/dev/null 2>&1; then
		skip "TERM=$term: no terminfo entry on this machine"
		continue
	fi
	for locale in "${locales[@]}"; do
		what="TERM=$term LC_ALL=$locale"
		want=$(cd "$top" && LC_ALL=$locale timeout 60 "$bin" --snapshot 80x24 \
			--keys "++++$pans$last" "$sample" </dev/null)
		graph_rows=$(($(grep -n '^A: ' <<<"$want" | head -n 1 | cut -d: -f1) - 1))
		keys=(+ + + + ']' ']' ']' ']' ']' '[' '[' '[' Right ']' ']' Left)
		if ! run_viewer "$tmp/moved" "$term" "$locale" "${keys[@]}" "$last"; then
			fail "$what: after the pans the text differs from --snapshot's"
			diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$SCREEN_LAST") |
				tail -n +3 | head -n 30 | sed 's/^/    /'
			screen_stop
			continue
		fi
		screen_stop
		if ! run_viewer "$tmp/full" "$term" "$locale" "${keys[@]}" C-l "$last"; then
			fail "$what: the repainted viewer's text differs from --snapshot's"
			screen_stop
			continue
		fi
		screen_stop
		if cmp -s "$tmp/moved" "$tmp/full"; then
			pass "$what: after pans, the terminal shows what a full repaint shows (colours too)"
		else
			fail "$what: after pans the colours or attributes differ from a full repaint:"
			diff -u "$tmp/full" "$tmp/moved" | tail -n +3 |
				head -n 20 | cat -v | sed 's/^/    /'
		fi
	done
done
