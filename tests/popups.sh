#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pickers fit 80 columns: their legend is whole (the keys' line ends in
# Esc:close, the marks' line in "where: ..."), and no strip of the panes
# beneath shows at their sides or below them (no CPU label, no list row),
# only the status line. At 120 columns too, and at 40x10 (the legend on
# four lines there).
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin popups

export TZ=UTC LC_ALL=C
for size in 80x24 120x30 40x10; do
	for key in p s C F P; do
		s=$("$bin" --snapshot "$size" --keys "$key" "$sample" </dev/null)
		body=$(sed '$d' <<<"$s")
		cols=${size%x*}
		if [ "$(wc -L <<<"$s")" -le "$cols" ] &&
			! grep -qE '^CPU[0-9]|^ *[0-9]+ +[01] 1017[0-9]\.' <<<"$body" &&
			grep -q 'Esc:close' <<<"$body" &&
			grep -qE 'where: [a-z ]+$|where: [a-z ]+\)$' <<<"$body"; then
			pass "$size picker $key: the legend whole, nothing of the panes beneath"
		else
			fail "$size picker $key:"
			sed 's/^/    | /' <<<"$s"
		fi
	done
done

# The help at any width: no word of it lost. Its words, in order, at 40 and
# 80 columns (tall enough for all of it) are those it shows at 200, where no
# line needs wrapping, and no line is wider than the screen (the legend of
# the task states breaks its list at other commas: those are left out).
words() {
	"$bin" --snapshot "$1x1000" --keys "<F1>" "$sample" </dev/null | sed -e '1d' -e '$d' |
		tr -s ' \n' '\n\n' | sed -e '/^$/d' -e 's/,$//'
}
words 200 >"$tmp/w200"
[ "$(wc -l <"$tmp/w200")" -ge 1000 ] || fail "the help at 200 columns: $(wc -l <"$tmp/w200") words"
for cols in 40 60 80; do
	s=$("$bin" --snapshot "${cols}x1000" --keys "<F1>" "$sample" </dev/null)
	# all of it on the screen: "lines 1-N of N"
	if head -n 1 <<<"$s" | grep -qE '^nurseshark keys \(lines 1-([0-9]+) of \1\)' &&
		words "$cols" | cmp -s - "$tmp/w200" && [ "$(wc -L <<<"$s")" -le "$cols" ]; then
		pass "the help at $cols columns: every word of it, wrapped within the screen"
	else
		fail "the help at $cols columns ($(head -n 1 <<<"$s")) loses or changes words (- at 200 columns, + at $cols):"
		words "$cols" | diff -u "$tmp/w200" - | sed -n '3,14p' | sed 's/^/    /'
	fi
done

# The statistics (S) show whole columns only: at 80x24 and 40x10 each line of
# the table (titles and rows) holds whole cells of the same line at 200
# columns, in order (none cut at the edge, as "MAX LAT u" was); the line
# above the legend says which columns show and that Left/Right show the
# others, and Right brings in the next column.
subseq() {	# are the words of $1 an in-order subsequence of those of $2?
	awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); m = split(b, y, " "); j = 1
		for (i = 1; i <= n; i++) { while (j <= m && y[j] != x[i]) j++; if (j > m) exit 1; j++ }
		exit 0 }'
}
for size in 80x24 40x10; do
	rows=${size#*x}
	for keys in "S" "S<Right><Right>" "S<Right><Right><Right><Right><Right><Right><Right><Left>" \
		"S<Tab>" "S<Tab><Tab>"; do
		s=$("$bin" --snapshot "$size" --keys "$keys" "$sample" </dev/null)
		wide=$("$bin" --snapshot "200x$rows" --keys "S${keys#S}" "$sample" </dev/null)
		bad=0
		for ((y = 3; y <= rows - 3; y++)); do
			l=$(sed -n "${y}p" <<<"$s")
			[ -z "${l// /}" ] && continue
			if ! subseq "$l" "$(sed -n "${y}p" <<<"$wide")"; then
				bad=$((bad + 1))
				echo "    $size $keys line $y: '$l'"
			fi
		done
		if [ "$bad" -eq 0 ] && [ "$(wc -L <<<"$s")" -le "${size%x*}" ]; then
			pass "$size statistics $keys: whole cells only"
		else
			fail "$size statistics $keys: $bad lines with a cell cut"
		fi
	done
done
s=$("$bin" --snapshot 80x24 --keys "S" "$sample" </dev/null)
s2=$("$bin" --snapshot 80x24 --keys "S<Right>" "$sample" </dev/null)
if sed -n 22p <<<"$s" | grep -qE 'columns 1-[0-9]+ of 12.*Left/Right' &&
	! sed -n 3p <<<"$s" | grep -q 'MAX LAT us' && sed -n 3p <<<"$s2" | grep -q 'MAX LAT us' &&
	sed -n 23p <<<"$s" | grep -q 'Esc:close'; then
	pass "80x24 statistics: says which columns show and how to see the others; Right shows the next"
else
	fail "80x24 statistics: '$(sed -n 22p <<<"$s")', titles '$(sed -n 3p <<<"$s")' then '$(sed -n 3p <<<"$s2")'"
fi
