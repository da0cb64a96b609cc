# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Bash completion for nurseshark (`make install` puts it in
# share/bash-completion/completions/nurseshark). Options come from the
# program's own --help, so they cannot disagree with it; trace files are
# *.dat; -F completes the event names (ftrace's too) and --cpu the CPUs of the trace named
# on the line (-i FILE or FILE; else ./trace.dat), as trace-cmd reads them.

# The trace the line names so far, else trace.dat.
_nurseshark_trace() {
	local i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case ${COMP_WORDS[i - 1]} in
		-i)
			printf '%s\n' "$w"
			return
			;;
		-s | --session | --filters | --config | --snapshot | --keys | --cpu | --pid | --task | -F)
			continue
			;;
		esac
		if [[ $w != -* ]] && [ -f "$w" ]; then
			printf '%s\n' "$w"
			return
		fi
	done
	printf 'trace.dat\n'
}

_nurseshark_files() {
	local IFS=$'\n'
	# shellcheck disable=SC2207
	COMPREPLY=($(compgen -f -X '!*.dat' -- "$1") $(compgen -d -- "$1"))
}

_nurseshark() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} words
	local IFS=$' \t\n'

	COMPREPLY=()
	case $prev in
	-i)
		_nurseshark_files "$cur"
		return
		;;
	-s | --session | --filters | --config)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-F)
		command -v trace-cmd >/dev/null 2>&1 || return
		words=$(trace-cmd dump --events --ftrace "$(_nurseshark_trace)" 2>/dev/null |
			sed -n 's/^name: //p')
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--cpu)
		command -v trace-cmd >/dev/null 2>&1 || return
		words=$(trace-cmd report --cpus -i "$(_nurseshark_trace)" 2>/dev/null |
			sed -n 's/^ *\([0-9][0-9]*\) *$/\1/p')
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	--snapshot)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "80x24 100x30 120x40 200x60" -- "$cur"))
		return
		;;
	--pid | --task | --keys)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		words=$("${COMP_WORDS[0]}" --help 2>/dev/null |
			grep -oE '(^|[ ,])--?[a-zA-Z][-a-zA-Z]*' | tr -d ' ,' | sort -u)
		# shellcheck disable=SC2207
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
	else
		_nurseshark_files "$cur"
	fi
}
complete -o filenames -F _nurseshark nurseshark
