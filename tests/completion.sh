#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/nurseshark.bash completes what it says, checked by calling its
# function as bash would: options (every one --help names), *.dat trace
# files, -F with the event names of the trace on the line (those
# `trace-cmd dump --events --ftrace` lists) and --cpu with its CPUs; and
# `make install` puts it where bash-completion looks.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin completion

# shellcheck source=/dev/null
. "$top/contrib/nurseshark.bash"

# comp WORD...: the completions of the last word of "nurseshark WORD..."
comp() {
	COMP_WORDS=("$bin" "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_nurseshark
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

cd "$top" || exit 1
got=$(comp --sn)
if [ "$got" = "--snapshot" ]; then
	pass "--sn completes to --snapshot"
else
	fail "--sn: '$got'"
fi
all=$(comp -)
missing=
for o in -i -F -v --cpu --pid --task --session --no-session --filters --config --export \
	--keys --check-config --print-config --help --version; do
	grep -qx -- "$o" <<<"$all" || missing+=" $o"
done
if [ -z "$missing" ]; then
	pass "- completes to every option of --help ($(wc -l <<<"$all") of them)"
else
	fail "options missing:$missing"
fi
got=$(comp contrib/sam)
if [ "$got" = "contrib/sample.dat" ]; then
	pass "a trace file completes (contrib/sample.dat)"
else
	fail "contrib/sam: '$got'"
fi
if command -v trace-cmd >/dev/null; then
	got=$(comp -i contrib/sample.dat -F sched_sw)
	if grep -qx sched_switch <<<"$got" && ! grep -qv '^sched_sw' <<<"$got"; then
		pass "-F sched_sw offers the trace's sched_switch, and only names that start so"
	else
		fail "-F sched_sw: '$got'"
	fi
	got=$(comp contrib/sample.dat -F '' | tr '\n' ' ')
	want=$(trace-cmd report -i contrib/sample.dat 2>/dev/null | tail -n +2 |
		sed -E 's/^.* [0-9]+\.[0-9]+: ([^:]+):.*$/\1/' | sort -u | tr '\n' ' ')
	# every event the trace holds is offered (the file may list more formats)
	bad=
	for e in $want; do
		grep -qw -- "$e" <<<"$got" || bad+=" $e"
	done
	if [ -z "$bad" ]; then
		pass "-F offers every event name of the trace named before it"
	else
		fail "-F misses:$bad"
	fi
	got=$(comp contrib/sample.dat --cpu '' | tr '\n' ' ')
	if [ "$got" = "0 1 " ]; then
		pass "--cpu offers the trace's CPUs (0 1)"
	else
		fail "--cpu: '$got'"
	fi
else
	skip "-F and --cpu: trace-cmd is not installed"
fi

# make install puts it in bash-completion's directory
make -s -C "$top" install DESTDIR="$tmp/root" prefix=/usr >"$tmp/install.log" 2>&1
if cmp -s "$top/contrib/nurseshark.bash" "$tmp/root/usr/share/bash-completion/completions/nurseshark"; then
	pass "make install puts it in share/bash-completion/completions/nurseshark"
else
	fail "make install: $(tail -n 3 "$tmp/install.log")"
fi
