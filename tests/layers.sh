#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The layering rule, checked on the #include lines of every source and header:
#   trace (reads files) <- model (bins, markers, list) <- tui (curses);
#   session (INI) serves the model; main.c wires them;
#   record (records the running kernel; no curses) may use trace only.
# Only src/tui/ and src/main.c may include a curses header; src/trace/
# includes nothing of model, tui or session; src/model/ nothing of tui;
# src/session/ nothing of tui; src/record/ nothing of model, session or
# tui, and only src/main.c includes record. A public header include/nurseshark/NAME*.h
# belongs to the layer NAME and obeys that layer's rule, which is what makes
# checking direct includes enough: every file a layer can reach is checked.
#
# Usage: tests/layers.sh [TOP]. Without TOP it checks the project, then
# plants one violation of each rule in a scratch copy and checks that each
# is caught, so the check itself is tested on every run.
set -u

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
top=${1:-${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}}
selftest=$([ $# -eq 0 ] && echo 1 || echo 0)
failed=0

# The layer a path belongs to, from where it lives (or, for an included
# name, what it names): trace, model, session, tui, main, or "" for others.
layer_of() {
	local p=$1 base
	base=${p##*/}
	case $p in
	src/main.c | main.c) echo main; return ;;
	*src/trace/* | trace/* | ../trace/*) echo trace; return ;;
	*src/model/* | model/* | ../model/*) echo model; return ;;
	*src/session/* | session/* | ../session/*) echo session; return ;;
	*src/tui/* | tui/* | ../tui/*) echo tui; return ;;
	*src/record/* | record/* | ../record/*) echo record; return ;;
	esac
	case $p in
	*nurseshark/* | include/*)
		case $base in
		trace*.h) echo trace ;;
		model*.h | filter*.h) echo model ;;
		session*.h) echo session ;;
		tui*.h) echo tui ;;
		record*.h) echo record ;;
		esac ;;
	esac
}

is_curses() {
	case $1 in
	curses.h | ncurses.h | ncursesw/* | ncurses/* | term.h | termcap.h | \
	panel.h | menu.h | form.h | unctrl.h | eti.h | cursesw.h | cursslk.h)
		return 0 ;;
	esac
	return 1
}

# Every include of the tree as "file:line:included-name".
includes() {
	(cd "$1" && find src include -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null |
		LC_ALL=C sort | xargs -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' /dev/null |
		sed -E 's/^([^:]*:[0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*)[>"].*/\1:\2/')
}

# check TOP PREFIX: prints PASS/FAIL lines, names prefixed by PREFIX.
check() {
	local top=$1 pfx=$2
	local curses="" trace="" model="" session="" record="" to_record="" n=0
	local file line inc from to
	while IFS=: read -r file line inc; do
		n=$((n + 1))
		from=$(layer_of "$file")
		# A quoted include is first looked up beside the file.
		if [ -e "$top/$(dirname "$file")/$inc" ]; then
			to=$(layer_of "$(realpath -m --relative-to="$top" "$top/$(dirname "$file")/$inc")")
		else
			to=$(layer_of "$inc")
		fi
		if is_curses "$inc" && [ "$from" != tui ] && [ "$from" != main ]; then
			curses+=" $file:$line($inc)"
		fi
		case $from:$to in
		trace:model | trace:tui | trace:session | trace:main) trace+=" $file:$line($inc)" ;;
		model:tui | model:main) model+=" $file:$line($inc)" ;;
		session:tui | session:main) session+=" $file:$line($inc)" ;;
		record:model | record:session | record:tui | record:main) record+=" $file:$line($inc)" ;;
		trace:record | model:record | session:record | tui:record) to_record+=" $file:$line($inc)" ;;
		esac
	done < <(includes "$top")

	report "${pfx}curses only in src/tui and src/main.c" "$curses"
	report "${pfx}trace includes nothing of model, tui, session" "$trace"
	report "${pfx}model includes nothing of tui" "$model"
	report "${pfx}session includes nothing of tui" "$session"
	report "${pfx}record includes nothing of model, session, tui" "$record"
	report "${pfx}only main includes record" "$to_record"
	[ "$n" -gt 0 ] || { echo "FAIL: ${pfx}includes found: no #include under $top/src"; failed=1; }
}

report() {
	if [ -z "$2" ]; then
		echo "PASS: layers: $1"
	else
		echo "FAIL: layers: $1:$2"
		failed=1
	fi
}

check "$top" ""

if [ "$selftest" = 1 ]; then
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch"' EXIT
	mkdir -p "$scratch/src/trace" "$scratch/src/model" "$scratch/src/session" \
		"$scratch/src/tui" "$scratch/src/record" "$scratch/include/nurseshark"
	printf '#include <stdio.h>\n' >"$scratch/src/trace/ok.c"
	# One planted violation per rule, each a different way of spelling it.
	printf '#include "nurseshark/model.h"\n' >"$scratch/src/trace/bad.c"
	printf ' #  include <ncursesw/curses.h>\n' >"$scratch/src/model/bad.c"
	printf '#include "../tui/screen.h"\n' >"$scratch/src/session/bad.c"
	printf '#include "nurseshark/tui.h"\n' >"$scratch/include/nurseshark/model.h"
	: >"$scratch/src/tui/screen.h"
	printf '#include "nurseshark/session.h"\n' >"$scratch/src/record/bad.c"
	printf '#include "nurseshark/record.h"\n' >"$scratch/src/tui/bad.c"
	out=$(bash "$self" "$scratch")
	for rule in "curses only" "trace includes" "model includes" "session includes" \
		"record includes" "only main includes record"; do
		if grep -q "^FAIL: layers: $rule" <<<"$out"; then
			echo "PASS: layers: self-test catches a planted '$rule' violation"
		else
			echo "FAIL: layers: self-test: a planted '$rule' violation went unseen"
			failed=1
		fi
	done
fi
exit "$failed"
