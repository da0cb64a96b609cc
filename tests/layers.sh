#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The layering rule, checked on the #include lines of every source and header:
#   trace (reads files) <- model (bins, markers, list) <- tui (curses);
#   session (INI) serves the model; main.c wires them;
#   record (records the running kernel; no curses) may use trace only.
# Only src/tui/ and src/main.c may include a curses header; src/trace/
# includes nothing of model, tui or session; src/model/ nothing of tui or
# session; src/session/ nothing of tui. A public header
# include/nurseshark/NAME*.h belongs to the layer NAME and obeys that
# layer's rule, which is what makes checking direct includes enough: every
# file a layer can reach is checked.
#
# The same rule on the symbols of the built objects (nm on
# $NS_BUILD/src/LAYER/*.o, default build/), which an extern declaration
# written by hand cannot dodge: an object of src/trace references no symbol
# that an object of model, session or tui defines; model none of session or
# tui; session none of tui; record none of model, session or tui. And fork() is called only by src/trace/fork.c
# (ns_trace_fork(), which refuses to fork a threaded process).
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
		model:tui | model:main | model:session) model+=" $file:$line($inc)" ;;
		session:tui | session:main) session+=" $file:$line($inc)" ;;
		record:model | record:session | record:tui | record:main) record+=" $file:$line($inc)" ;;
		trace:record | model:record | session:record | tui:record) to_record+=" $file:$line($inc)" ;;
		esac
	done < <(includes "$top")

	report "${pfx}curses only in src/tui and src/main.c" "$curses"
	report "${pfx}trace includes nothing of model, tui, session" "$trace"
	report "${pfx}model includes nothing of tui or session" "$model"
	report "${pfx}session includes nothing of tui" "$session"
	report "${pfx}record includes nothing of model, session, tui" "$record"
	report "${pfx}only main includes record" "$to_record"
	[ "$n" -gt 0 ] || { echo "FAIL: ${pfx}includes found: no #include under $top/src"; failed=1; }
	symbols "$top" "$pfx"
}

# "object symbol" for each symbol the objects of src/LAYER define (D) or
# use undefined (U), as FILE SYMBOL lines.
layer_syms() {
	local dir=$1/src/$2 kind=$3
	[ -d "$dir" ] || return 0
	find "$dir" -maxdepth 1 -name '*.o' -print0 | LC_ALL=C sort -z |
		xargs -0 -r nm -A 2>/dev/null |
		awk -v k="$kind" '{ f = $1; sub(/:.*/, "", f); sub(/.*\/src\//, "src/", f)
			if (k == "U" && $2 == "U") print f, $3
			else if (k == "D" && NF >= 3 && $2 ~ /^[TDBRCGSVW]$/) print f, $3 }'
}

# symbols TOP PREFIX: the rule on what the built objects reference.
symbols() {
	local top=$1 pfx=$2 objs from to bad found=0 l
	objs=$top/${NS_BUILD:-build}
	if ! command -v nm >/dev/null; then
		echo "SKIP: layers: ${pfx}symbols: nm is not installed"
		return
	fi
	for l in trace model session tui; do
		[ -n "$(find "$objs/src/$l" -maxdepth 1 -name '*.o' 2>/dev/null | head -n 1)" ] &&
			found=1
	done
	if [ "$found" = 0 ]; then
		echo "SKIP: layers: ${pfx}symbols: no objects under $objs/src (build first)"
		return
	fi
	for l in trace model session tui record; do
		layer_syms "$objs" "$l" D >"$scratch_syms/def.$l"
		layer_syms "$objs" "$l" U >"$scratch_syms/use.$l"
	done
	for from in trace model session tui record; do
		case $from in
		trace) to="model session tui record" ;;
		model) to="session tui record" ;;
		session) to="tui record" ;;
		tui) to="record" ;;
		record) to="model session tui" ;;
		esac
		bad=""
		for l in $to; do
			# uses of $from whose symbol $l defines
			bad+=$(awk 'NR == FNR { def[$2] = $1; next }
				    ($2 in def) { printf " %s->%s(%s)", $1, $2, def[$2] }' \
				"$scratch_syms/def.$l" "$scratch_syms/use.$from")
		done
		report "${pfx}$from objects use no symbol of ${to// /, }" "$bad"
	done
	bad=$(cat "$scratch_syms"/use.* | awk '$2 == "fork" && $1 != "src/trace/fork.o" { printf " %s", $1 }')
	if [ -f "$objs/src/main.o" ] && nm "$objs/src/main.o" | grep -qE ' U fork$'; then
		bad+=" src/main.o"
	fi
	report "${pfx}fork() only in src/trace/fork.c (ns_trace_fork)" "$bad"
}

report() {
	if [ -z "$2" ]; then
		echo "PASS: layers: $1"
	else
		echo "FAIL: layers: $1:$2"
		failed=1
	fi
}

scratch_syms=$(mktemp -d)
trap 'rm -rf "$scratch_syms"' EXIT
check "$top" ""

if [ "$selftest" = 1 ]; then
	scratch=$(mktemp -d)
	trap 'rm -rf "$scratch" "$scratch_syms"' EXIT
	mkdir -p "$scratch/src/trace" "$scratch/src/model" "$scratch/src/session" \
		"$scratch/src/tui" "$scratch/src/record" "$scratch/include/nurseshark"
	printf '#include <stdio.h>\n' >"$scratch/src/trace/ok.c"
	# One planted violation per rule, each a different way of spelling it.
	printf '#include "nurseshark/model.h"\n' >"$scratch/src/trace/bad.c"
	printf ' #  include <ncursesw/curses.h>\n' >"$scratch/src/model/bad.c"
	printf '#include "../tui/screen.h"\n' >"$scratch/src/session/bad.c"
	printf '#include "nurseshark/tui.h"\n' >"$scratch/include/nurseshark/model.h"
	: >"$scratch/src/tui/screen.h"
	printf '#include "nurseshark/session.h"\n' >"$scratch/src/model/uses_session.c"
	rules=("curses only" "trace includes" "model includes" "session includes")
	# Objects: each layer defines one function; each lower layer calls the
	# one of a layer above it, declared by hand (no include to see).
	if command -v cc >/dev/null && command -v nm >/dev/null; then
		o=$scratch/build/src
		mkdir -p "$o/trace" "$o/model" "$o/session" "$o/tui"
		for l in trace model session tui; do
			printf 'int ns_%s_thing(void) { return 1; }\n' "$l" >"$scratch/def_$l.c"
			cc -c -o "$o/$l/def_$l.o" "$scratch/def_$l.c"
		done
		printf 'int ns_tui_thing(void);\nint f(void) { return ns_tui_thing(); }\n' \
			>"$scratch/t.c"
		cc -c -o "$o/trace/calls_tui.o" "$scratch/t.c"
		printf 'int ns_session_thing(void);\nint g(void) { return ns_session_thing(); }\n' \
			>"$scratch/m.c"
		cc -c -o "$o/model/calls_session.o" "$scratch/m.c"
		printf 'int ns_tui_thing(void);\nint h(void) { return ns_tui_thing(); }\n' \
			>"$scratch/s.c"
		cc -c -o "$o/session/calls_tui.o" "$scratch/s.c"
		printf '#include <unistd.h>\nint k(void) { return fork(); }\n' >"$scratch/f.c"
		cc -c -o "$o/model/forks.o" "$scratch/f.c"
		rules+=("trace objects use" "model objects use" "session objects use" "fork() only")
	else
		echo "SKIP: layers: self-test of the symbol rules: no cc or nm"
	fi
	out=$(NS_BUILD=build bash "$self" "$scratch")
	if grep -q "^FAIL: layers: model includes.*uses_session.c" <<<"$out"; then
		echo "PASS: layers: self-test catches a planted model -> session include"
	else
		echo "FAIL: layers: self-test: a planted model -> session include went unseen"
		failed=1
	fi
	for rule in "${rules[@]}"; do
		if grep -q "^FAIL: layers: $rule" <<<"$out"; then
			echo "PASS: layers: self-test catches a planted '$rule' violation"
		else
			echo "FAIL: layers: self-test: a planted '$rule' violation went unseen"
			failed=1
		fi
	done
fi
exit "$failed"
