#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The documentation against itself and against the binary: the man page
# renders without a warning and keeps its fixed section order; every option
# that `nurseshark --help` names is in the man page and the README; the parts
# the binary writes (the KEYS table, the command table, the README's screenshot,
# contrib/config.ini, the settings and colour roles of nurseshark.ini(5)) are
# what it writes now; every source file says its licence, and LICENSE is the GPL-2.
set -u

top=${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${NS_BIN:-$top/build/nurseshark}
page=$top/man/nurseshark.1
readme=$top/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

pass() { echo "PASS: docs: $1"; }
fail() { echo "FAIL: docs: $1"; failed=1; }
skip() { echo "SKIP: docs: $1"; }

# --- the man page renders -----------------------------------------------------

if ! command -v groff >/dev/null; then
	fail "man page renders: groff is not installed (make deps installs groff-base)"
elif ! groff -man -ww -z -Tutf8 "$page" 2>"$tmp/groff.err" || [ -s "$tmp/groff.err" ]; then
	fail "man page renders without warnings (groff -man -ww): $(head -n 3 "$tmp/groff.err" | tr '\n' '|')"
else
	pass "man page renders without warnings (groff -man -ww)"
fi

if command -v mandoc >/dev/null; then
	if mandoc -T lint -W warning "$page" >"$tmp/lint" 2>&1; then
		pass "man page passes mandoc -T lint"
	else
		fail "man page passes mandoc -T lint: $(head -n 3 "$tmp/lint" | tr '\n' '|')"
	fi
else
	skip "mandoc -T lint: mandoc is not installed (optional)"
fi

if command -v man >/dev/null; then
	LC_ALL=C MANWIDTH=80 MANPAGER=cat man --warnings -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err"
	if [ -s "$tmp/man.err" ] || ! grep -q '^NURSESHARK(1)' "$tmp/man.txt"; then
		fail "man -l shows the page: $(head -n 3 "$tmp/man.err" | tr '\n' '|')"
	else
		pass "man -l shows the page"
	fi
else
	skip "man -l: man-db is not installed (optional)"
fi

want="NAME SYNOPSIS DESCRIPTION OPTIONS KEYS FILES ENVIRONMENT EXAMPLES SEE_ALSO"
have=$(sed -n 's/^\.SH[[:space:]]*//p' "$page" | tr -d '"' | tr ' ' _ | tr '\n' ' ')
if [ "${have% }" = "$want" ]; then
	pass "man page sections in the fixed order"
else
	fail "man page sections: want '$want', have '${have% }'"
fi

# --- every option of --help is documented -------------------------------------

# The page as plain ASCII text, one long line per paragraph and no
# hyphenation, so that an option is never split.
groff -man -Tascii -P-cbou -rLL=250n -rHY=0 "$page" 2>/dev/null >"$tmp/page.txt"

# present OPTION FILE: OPTION occurs in FILE as a word of its own.
present() {
	grep -qE -- "(^|[^[:alnum:]-])$1([^[:alnum:]-]|$)" "$2"
}

if [ ! -x "$bin" ]; then
	skip "options of --help: $bin is not built yet"
elif ! timeout 10 "$bin" --help >"$tmp/help" 2>"$tmp/help.err" </dev/null; then
	fail "nurseshark --help exits 0: $(head -n 1 "$tmp/help.err")"
else
	opts=$(grep -oE -- '(^|[][ ,|(])--?[[:alnum:]][[:alnum:]-]*' "$tmp/help" |
		sed -E 's/^[][ ,|(]//' | sort -u)
	if [ -z "$opts" ]; then
		fail "nurseshark --help names no option: $(head -n 2 "$tmp/help" | tr '\n' '|')"
	fi
	for where in "man page:$tmp/page.txt" "README.md:$readme"; do
		missing=""
		for o in $opts; do
			present "$o" "${where#*:}" || missing+=" $o"
		done
		if [ -n "$missing" ]; then
			fail "every option of --help is in the ${where%%:*}: missing$missing"
		elif [ -n "$opts" ]; then
			pass "every option of --help is in the ${where%%:*} (${opts//$'\n'/ })"
		fi
	done
fi

# The options of `nurseshark record --help` too.
if [ -x "$bin" ] && timeout 10 "$bin" record --help >"$tmp/rhelp" 2>/dev/null </dev/null; then
	ropts=$(grep -oE -- '(^|[][ ,|(])--?[[:alnum:]][[:alnum:]-]*' "$tmp/rhelp" |
		sed -E 's/^[][ ,|(]//' | sort -u)
	for where in "man page:$tmp/page.txt" "README.md:$readme"; do
		missing=""
		for o in $ropts; do
			present "$o" "${where#*:}" || missing+=" $o"
		done
		if [ -z "$ropts" ]; then
			fail "nurseshark record --help names no option"
		elif [ -n "$missing" ]; then
			fail "every option of record --help is in the ${where%%:*}: missing$missing"
		else
			pass "every option of record --help is in the ${where%%:*} (${ropts//$'\n'/ })"
		fi
	done
else
	skip "options of record --help: $bin record --help does not run"
fi

# --- nurseshark.ini(5) renders, and names every section and setting ----------

ini_page=$top/man/nurseshark.ini.5
if ! groff -man -ww -z -Tutf8 "$ini_page" 2>"$tmp/groff5.err" || [ -s "$tmp/groff5.err" ]; then
	fail "nurseshark.ini(5) renders without warnings: $(head -n 3 "$tmp/groff5.err" | tr '\n' '|')"
else
	pass "nurseshark.ini(5) renders without warnings (groff -man -ww)"
fi
if command -v mandoc >/dev/null; then
	if mandoc -T lint -W warning "$ini_page" >"$tmp/lint5" 2>&1; then
		pass "nurseshark.ini(5) passes mandoc -T lint"
	else
		fail "nurseshark.ini(5) passes mandoc -T lint: $(head -n 3 "$tmp/lint5" | tr '\n' '|')"
	fi
fi
groff -man -Tascii -P-cbou -rLL=250n -rHY=0 "$ini_page" 2>/dev/null >"$tmp/page5.txt"
if [ -x "$bin" ] && "$bin" --print-config >"$tmp/config.ini" 2>/dev/null </dev/null; then
	# its sections, the settings of [display] and [session], the colour roles,
	# and the sections of a session
	names=$( { awk '/^\[/ { sec = $0; gsub(/[][]/, "", sec); print sec; next }
		sec ~ /^(display|session|colours)$/ && /^;[a-z]/ { sub(/^;/, ""); print $1 }' \
		"$tmp/config.ini"; echo trace view markers panes filters graph search streams; } |
		tr ' ' '\n' | grep -vxE 'task-([1-9]|1[0-4])' | sort -u)	# "task-0 to task-15"
	missing=""
	for n in $names; do
		present "$n" "$tmp/page5.txt" || missing+=" $n"
	done
	if [ -z "$missing" ]; then
		pass "nurseshark.ini(5) names every section, setting and colour role of --print-config"
	else
		fail "nurseshark.ini(5) lacks:$missing"
	fi
else
	skip "nurseshark.ini(5) names every setting: no $bin --print-config"
fi

# --- the generated parts are up to date ---------------------------------------

# generated NAME KIND FILE PLACEHOLDER-REGEX OPTION...: FILE equals what
# `contrib/gen-docs.sh KIND` makes of it with this binary.
generated() {
	local name=$1 kind=$2 file=$3 placeholder=$4
	shift 4
	if [ ! -x "$bin" ]; then
		skip "$name: $bin is not built yet"
	elif ! timeout 30 "$bin" "$@" >/dev/null 2>&1 </dev/null; then
		if grep -q "$placeholder" "$file"; then
			skip "$name: still a placeholder, and this nurseshark has no $*"
		else
			skip "$name: cannot be checked, this nurseshark has no $*"
		fi
	elif ! NS_BIN=$bin "$top/contrib/gen-docs.sh" "$kind" "$bin" <"$file" >"$tmp/gen" 2>"$tmp/gen.err"; then
		fail "$name: contrib/gen-docs.sh $kind failed: $(head -n 1 "$tmp/gen.err")"
	elif ! cmp -s "$file" "$tmp/gen"; then
		fail "$name: ${file#"$top"/} is not what nurseshark $* gives now; run 'make docs':
$(diff "$file" "$tmp/gen" | head -n 10)"
	else
		pass "$name matches nurseshark $*"
	fi
}

generated "man page KEYS table" man "$page" PLACEHOLDER --keys-table
generated "man page command table" man-commands "$page" PLACEHOLDER --commands-table
generated "contrib/config.ini" config "$top/contrib/config.ini" PLACEHOLDER --print-config
generated "nurseshark.ini(5) settings and colour roles" ini "$ini_page" PLACEHOLDER --print-config
generated "README screenshot and keys" readme "$readme" PLACEHOLDER \
	--snapshot 80x24 "$top/contrib/sample.dat"
if grep -q PLACEHOLDER "$readme"; then
	skip "README.md still has a PLACEHOLDER at line $(grep -n PLACEHOLDER "$readme" | cut -d: -f1 | paste -sd, -)"
fi

# --- licence ------------------------------------------------------------------

missing=$(cd "$top" && { find src include tests contrib man \
	\( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.1' -o -name '*.5' \) -type f; \
	echo Makefile; echo .ci/run; } | LC_ALL=C sort |
	while read -r f; do
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-only' || echo "$f"
	done | tr '\n' ' ')
if [ -z "$missing" ]; then
	pass "every source file has SPDX-License-Identifier: GPL-2.0-only"
else
	fail "files without SPDX-License-Identifier: GPL-2.0-only in their first lines: $missing"
fi

if [ -r /usr/share/common-licenses/GPL-2 ]; then
	if cmp -s "$top/LICENSE" /usr/share/common-licenses/GPL-2; then
		pass "LICENSE is the GPL-2 text"
	else
		fail "LICENSE differs from /usr/share/common-licenses/GPL-2"
	fi
elif grep -q 'Version 2, June 1991' "$top/LICENSE"; then
	pass "LICENSE is the GPL-2 text"
else
	fail "LICENSE is not the GPL version 2"
fi

# Mouse use is in the man page and the README, not only in the help: the
# click, the wheel and the drag, each in both
missing=
for f in man/nurseshark.1 README.md; do
	text=$(tr '\n' ' ' <"$top/$f" | tr -s ' ')
	for what in "Where the terminal reports the mouse: a click on an event in the list" \
		"the wheel zooms the graph" "a drag across the graph zooms"; do
		[[ $text == *"$what"* ]] || missing+=" $f: '$what';"
	done
done
if [ -z "$missing" ]; then
	pass "the man page and the README say what the mouse does (click, wheel, drag)"
else
	fail "the mouse is not described:$missing"
fi
exit $failed
