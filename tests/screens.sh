#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Whole screens against expected files, as tig's tests do: a layout change
# anywhere on a screen fails here, where a check of fragments would miss it.
# Each tests/screens/NAME.keys says how to make one screen; NAME.txt is the
# screen expected, every line of it. A .keys file holds lines of
#   size COLSxROWS     the terminal (default 80x24)
#   keys KEYS          the keys, in the syntax of --keys (default none)
#   locale C           LC_ALL=C, as over ssh (default a UTF-8 locale)
#   no-color yes       NO_COLOR=1
#   trace PATH         the trace, from the top of the tree (default contrib/sample.dat)
#   tmux yes           also compared with the real terminal (tmux capture-pane)
# and # comments (the first says what the screen shows). The screen is
# `nurseshark --snapshot COLSxROWS --keys KEYS TRACE`, run from the top of
# the tree with the environment pinned (LC_ALL, TZ, NO_COLOR, XDG homes);
# the screens marked tmux are also typed into the real binary in tmux and
# must come out the same, so that the terminal's path is covered too.
#
#   tests/screens.sh            compare, a diff for each screen that differs
#   tests/screens.sh --update   rewrite the NAME.txt files (make screens-update)
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin screens
dir=$top/tests/screens
update=
[ "${1:-}" = --update ] && update=1

# The environment: the same for every screen whatever the caller's.
export TZ=UTC
unset NO_COLOR LANG LANGUAGE LC_CTYPE LC_MESSAGES LC_TIME COLUMNS LINES
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
mkdir -p "$XDG_CONFIG_HOME/nurseshark" "$XDG_STATE_HOME"
printf '[session]\nrestore = no\nsave = no\n' >"$XDG_CONFIG_HOME/nurseshark/config.ini"

# spec FILE: size, keys, locale, nocolor, trace, use_tmux from a .keys file
spec() {
	local key value

	size=80x24 keys= locale=$utf8 nocolor= trace=contrib/sample.dat use_tmux=
	while read -r key value; do
		case $key in
		''|'#'*) ;;
		size) size=$value ;;
		keys) keys=$value ;;
		locale) locale=$value ;;
		no-color) nocolor=1 ;;
		trace) trace=$value ;;
		tmux) use_tmux=1 ;;
		*) fail "$(basename "$1"): unknown line '$key $value'"; return 1 ;;
		esac
	done <"$1"
	[ -n "$locale" ]
}

# snap: the screen of the spec read last
snap() {
	local args=(--snapshot "$size")

	[ -n "$keys" ] && args+=(--keys "$keys")
	(cd "$top" && env LC_ALL="$locale" ${nocolor:+NO_COLOR=1} \
		timeout 60 "$bin" "${args[@]}" "$trace" </dev/null)
}

# --keys syntax to tmux send-keys: literal characters, <Name> as tmux names it
tmux_keys() {
	local k=$1 lit= name

	while [ -n "$k" ]; do
		if [[ $k =~ ^\<([A-Za-z0-9-]+)\>(.*) ]]; then
			[ -n "$lit" ] && screen_type "$lit"
			lit=
			name=${BASH_REMATCH[1]}
			k=${BASH_REMATCH[2]}
			case $name in
			lt) screen_type '<' ;;
			Esc) screen_keys Escape ;;
			PageUp) screen_keys PPage ;;
			PageDown) screen_keys NPage ;;
			S-Tab) screen_keys BTab ;;
			*) screen_keys "$name" ;;
			esac
		else
			lit+=${k:0:1}
			k=${k:1}
		fi
	done
	[ -n "$lit" ] && screen_type "$lit"
	return 0
}

n=0
for f in "$dir"/*.keys; do
	name=$(basename "$f" .keys)
	want=$dir/$name.txt
	n=$((n + 1))
	if ! spec "$f"; then
		skip "$name: no UTF-8 locale on this machine"
		continue
	fi
	snap >"$tmp/$name.txt" 2>"$tmp/$name.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: nurseshark --snapshot exited with $rc: $(head -n 3 "$tmp/$name.err")"
		continue
	fi
	if [ -n "$update" ]; then
		if ! cmp -s "$tmp/$name.txt" "$want"; then
			cp "$tmp/$name.txt" "$want"
			echo "  UPDATE tests/screens/$name.txt"
		fi
		continue
	fi
	what=$(sed -n 's/^# //p' "$f" | head -n 1)
	if [ ! -f "$want" ]; then
		fail "$name: no tests/screens/$name.txt (make screens-update writes it)"
	elif cmp -s "$want" "$tmp/$name.txt"; then
		pass "$name ($size): $what"
	else
		fail "$name ($size): the screen differs from tests/screens/$name.txt (- expected, + now; make screens-update if the change is meant):"
		diff -u "$want" "$tmp/$name.txt" | tail -n +3 | head -n 60 | sed 's/^/    /'
	fi
done
[ "$n" -ge 12 ] || fail "only $n screens in tests/screens (want a dozen or more)"
[ -n "$update" ] && exit 0

# --- the real terminal --------------------------------------------------------------

. "$top/tests/lib/screen.sh"
if ! screen_have_tmux; then
	skip "the screens through tmux: tmux is not installed"
	exit 0
fi
nt=0
for f in "$dir"/*.keys; do
	name=$(basename "$f" .keys)
	spec "$f" || continue
	[ -n "$use_tmux" ] && [ -f "$dir/$name.txt" ] || continue
	nt=$((nt + 1))
	screen_start "${size%x*}" "${size#*x}" "cd '$top' && env LC_ALL='$locale' \
${nocolor:+NO_COLOR=1} XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_STATE_HOME='$XDG_STATE_HOME' \
TZ=UTC '$bin' '$trace'"
	want=$(cat "$dir/$name.txt")
	tmux_keys "$keys"
	# wait for the screen to settle on the expected one; the timeout only bounds it
	end=$(($(date +%s%N) + SCREEN_TIMEOUT * 1000000000))
	while now=$(screen_capture) && [ "$now" != "$want" ] && [ "$(date +%s%N)" -lt "$end" ]; do
		sleep 0.05
	done
	if [ "$now" = "$want" ]; then
		pass "$name through tmux: the real terminal shows tests/screens/$name.txt exactly"
	else
		fail "$name through tmux: the real terminal differs from tests/screens/$name.txt (- expected, + tmux):"
		diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$now") | tail -n +3 | head -n 40 |
			sed 's/^/    /'
	fi
	screen_stop
done
[ "$nt" -ge 2 ] || fail "only $nt screens compared through tmux (want at least 2)"
