#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The parts of the documentation that the binary writes, so that they cannot
# drift from it: the man page's KEYS table (`nurseshark --keys-table`, from
# the action list) and its commands (`nurseshark --commands-table`, from the
# command table), the README's keys (both as man shows them) and the
# README's screenshot (`nurseshark --snapshot 80x24 contrib/sample.dat`).
# Each sits between two marker lines in its file. contrib/config.ini is
# `nurseshark --print-config`, whole.
#
#   gen-docs.sh man BIN <man/nurseshark.1 >new   the page, its KEYS and command tables redone
#   gen-docs.sh man-commands BIN <man/nurseshark.1 >new   only its command table redone
#   gen-docs.sh readme BIN <README.md >new       the README, screenshot and keys redone
#   gen-docs.sh config BIN >new                  contrib/config.ini
#   gen-docs.sh update BIN                       all rewritten in place (make docs)
#
# tests/docs.sh runs man-commands, man, readme and config and compares; `make docs` runs the last.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)

# splice BEGIN END FILE: stdin with the lines strictly between the line that
# starts with BEGIN and the next that starts with END replaced by FILE; fails
# if a marker is missing. (Through the environment: awk -v would eat the
# backslashes of the roff comment.)
splice() {
	B=$1 E=$2 F=$3 awk '
		index($0, ENVIRON["B"]) == 1 && !seen {
			print
			while ((getline l < ENVIRON["F"]) > 0)
				print l
			skip = 1; seen = 1; next
		}
		index($0, ENVIRON["E"]) == 1 && skip { skip = 0; ended = 1 }
		!skip { print }
		END {
			if (!seen || !ended) {
				print "gen-docs: no lines starting " ENVIRON["B"] " ... " ENVIRON["E"] > "/dev/stderr"
				exit 1
			}
		}'
}

tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.new" "$tmp.mid" "$tmp.out" "$tmp.cmd"' EXIT

gen_man_keys() {
	"$1" --keys-table >"$tmp"
	splice '.\" KEYS-TABLE-BEGIN' '.\" KEYS-TABLE-END' "$tmp"
}

gen_man_commands() {
	"$1" --commands-table >"$tmp.cmd"
	splice '.\" COMMANDS-TABLE-BEGIN' '.\" COMMANDS-TABLE-END' "$tmp.cmd"
}

gen_man() {
	gen_man_keys "$1" | gen_man_commands "$1"
}

gen_readme() {
	# A UTF-8 locale for the block characters; trailing blanks trimmed.
	(cd "$top" && LC_ALL=C.UTF-8 NO_COLOR=1 "$1" --snapshot 80x24 contrib/sample.dat) >"$tmp.new"
	{
		echo '```text'
		sed 's/[[:space:]]*$//' "$tmp.new"
		echo '```'
	} >"$tmp"
	splice '<!-- SNAPSHOT-BEGIN' '<!-- SNAPSHOT-END' "$tmp" >"$tmp.mid"
	# The keys: the man page's KEYS section as man shows it in 80 columns,
	# but with a ragged right margin (no runs of blanks to justify).
	sed '/^\.TH/a .ad l' "$top/man/nurseshark.1" |
		groff -man -Tascii -P-cbou -rLL=78n -rHY=0 >"$tmp.new"
	{
		echo '```text'
		awk '/^KEYS$/ { on = 1; next } /^[A-Z]/ { on = 0 } on' "$tmp.new" |
			sed -e 's/^       //' -e 's/[[:space:]]*$//' | sed -e '1{/^$/d}' -e '${/^$/d}'
		echo '```'
	} >"$tmp"
	splice '<!-- KEYS-BEGIN' '<!-- KEYS-END' "$tmp" <"$tmp.mid"
}

gen_config() {
	"$1" --print-config
}

[ $# -eq 2 ] || { sed -n '12,16s/^# \{0,1\}//p' "$0" >&2; exit 2; }
case $1 in
man) gen_man "$2" ;;
man-keys) gen_man_keys "$2" ;;
man-commands) gen_man_commands "$2" ;;
readme) gen_readme "$2" ;;
config) gen_config "$2" ;;
update)
	for f in man/nurseshark.1:gen_man README.md:gen_readme contrib/config.ini:gen_config; do
		file=$top/${f%%:*}
		touch "$file"
		"${f#*:}" "$2" <"$file" >"$tmp.out"
		if ! cmp -s "$file" "$tmp.out"; then
			cat "$tmp.out" >"$file"
			echo "  GEN    ${f%%:*}"
		fi
	done ;;
*) sed -n '12,16s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
