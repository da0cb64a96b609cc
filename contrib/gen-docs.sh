#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The parts of the documentation that the binary writes, so that they cannot
# drift from it: the man page's KEYS table (`nurseshark --keys-table`, from
# the action list) and its commands (`nurseshark --commands-table`, from the
# command table), the README's keys (both as man shows them) and the
# README's screenshot (`nurseshark --snapshot 80x24 contrib/sample.dat`).
# Each sits between two marker lines in its file. contrib/config.ini is
# `nurseshark --print-config`, whole, and nurseshark.ini(5)'s settings of
# [display] and [session] and its colour roles are made from it (the
# settings table of src/session/config.c, the roles of src/tui/config.c).
#
#   gen-docs.sh man BIN <man/nurseshark.1 >new   the page, its KEYS and command tables redone
#   gen-docs.sh man-commands BIN <man/nurseshark.1 >new   only its command table redone
#   gen-docs.sh readme BIN <README.md >new       the README, screenshot and keys redone
#   gen-docs.sh config BIN >new                  contrib/config.ini
#   gen-docs.sh ini BIN <man/nurseshark.ini.5 >new   its settings and roles redone
#   gen-docs.sh update BIN                       all rewritten in place (make docs)
#
# tests/docs.sh runs man-commands, man, readme, config and ini and compares; `make docs` runs the last.
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
trap 'rm -f "$tmp" "$tmp.new" "$tmp.mid" "$tmp.out" "$tmp.cfg" "$tmp.cmd"' EXIT

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

# --print-config's sections as roff: in a section of settings, "; NAME =
# SYNTAX" opens a setting, "; text" is its help, ";NAME = DEFAULT" ends it;
# in [colours], "; ROLE: text" (or "; ROLE to ROLE: text") is a role.
# $1: settings or roles.
config_roff() {
	awk -v want="$1" '
		function esc(s) {
			gsub(/\\/, "\\e", s)
			gsub(/-/, "\\-", s)
			if (s ~ /^[.\047]/)
				s = "\\&" s
			return s
		}
		function bold(s) { return "\\fB" esc(s) "\\fR" }
		# "usec | nsec", "auto | N (1-4096)": words bold, a capital placeholder italic
		function syntax(s,   n, part, i, out, w) {
			n = split(s, part, / \| /)
			for (i = 1; i <= n; i++) {
				w = part[i]
				out = out (i > 1 ? " | " : "")
				if (w ~ /^[a-z]/) {
					out = out bold(w)
				} else {
					match(w, /^[^ ]+/)
					out = out "\\fI" esc(substr(w, 1, RLENGTH)) "\\fR" \
						esc(substr(w, RLENGTH + 1))
				}
			}
			return out
		}
		/^\[/ {
			sec = substr($0, 2, length($0) - 2)
			settings = sec !~ /^(keys|keys\..*|colours)$/
			if (settings && want == "settings")
				print ".SS [" sec "]"
			next
		}
		settings && want == "settings" && /^; [a-z][a-z0-9-]* = / {
			print ".TP"
			print bold($2) " = " syntax(substr($0, length($2) + 6))
			next
		}
		settings && want == "settings" && /^; / { print esc(substr($0, 3)); next }
		settings && want == "settings" && /^;[a-z]/ {
			v = $0
			sub(/^;[^=]*= /, "", v)
			print "Default: " bold(v) "."
			next
		}
		sec == "colours" && want == "roles" && /^; [a-z][a-z0-9-]*( to [a-z0-9-]+)?: / {
			i = index($0, ": ")
			name = esc(substr($0, 3, i - 3))
			sub(/ to /, "\\fR to \\fB", name)
			print ".TP"
			print "\\fB" name "\\fR"
			print esc(substr($0, i + 2))
			role = 1
			next
		}
		sec == "colours" && want == "roles" && role && /^; / { print esc(substr($0, 3)); next }
		/^;[a-z]/ { role = 0 }
	'
}

gen_ini() {
	"$1" --print-config >"$tmp.cfg"
	config_roff settings <"$tmp.cfg" >"$tmp"
	splice '.\" SETTINGS-BEGIN' '.\" SETTINGS-END' "$tmp" >"$tmp.mid"
	config_roff roles <"$tmp.cfg" >"$tmp"
	splice '.\" ROLES-BEGIN' '.\" ROLES-END' "$tmp" <"$tmp.mid"
}

usage() { sed -n '/^#   gen-docs/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
[ $# -eq 2 ] || usage
case $1 in
man) gen_man "$2" ;;
man-keys) gen_man_keys "$2" ;;
man-commands) gen_man_commands "$2" ;;
readme) gen_readme "$2" ;;
config) gen_config "$2" ;;
ini) gen_ini "$2" ;;
update)
	for f in man/nurseshark.1:gen_man README.md:gen_readme contrib/config.ini:gen_config \
		man/nurseshark.ini.5:gen_ini; do
		file=$top/${f%%:*}
		touch "$file"
		"${f#*:}" "$2" <"$file" >"$tmp.out"
		if ! cmp -s "$file" "$tmp.out"; then
			cat "$tmp.out" >"$file"
			echo "  GEN    ${f%%:*}"
		fi
	done ;;
*) usage ;;
esac
