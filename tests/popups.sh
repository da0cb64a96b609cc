#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The pickers fit 80 columns: their legend is whole (the keys' line ends in
# Esc:close, the marks' line in "where: ..."), and no strip of the panes
# beneath shows at their sides or below them (no CPU label, no list row),
# only the status line. At 120 columns too, and at 40x10.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin popups

export TZ=UTC LC_ALL=C
for size in 80x24 120x30 40x10; do
	for key in p s C F; do
		s=$("$bin" --snapshot "$size" --keys "$key" "$sample" </dev/null)
		body=$(sed '$d' <<<"$s")
		cols=${size%x*}
		if [ "$(wc -L <<<"$s")" -le "$cols" ] &&
			! grep -qE '^CPU[0-9]|^ *[0-9]+ +[01] 1017[0-9]\.' <<<"$body" &&
			{ [ "$cols" -lt 80 ] || { grep -q 'Esc:close' <<<"$body" &&
				grep -qE 'where: [a-z ]+$|where: [a-z ]+\)$' <<<"$body"; }; }; then
			pass "$size picker $key: the legend whole, nothing of the panes beneath"
		else
			fail "$size picker $key:"
			sed 's/^/    | /' <<<"$s"
		fi
	done
done
