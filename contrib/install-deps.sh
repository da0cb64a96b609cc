#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs what building and testing nurseshark needs, on Debian and Ubuntu;
# `make deps` runs it, and `make run`, `make test` and `make bench` run that
# first. It is plain sh because a fresh Debian has make and a shell but no
# compiler yet. When everything is there it does nothing and prints nothing,
# so calling it on every `make test` costs a few dpkg-query calls.
#
#   contrib/install-deps.sh           build and test packages
#   contrib/install-deps.sh --bench   also what tests/bench.sh needs
#   contrib/install-deps.sh --check   only say what is missing (exit 1 if any)
#
# Without apt-get and dpkg it installs nothing: it checks with pkg-config and
# the PATH, and when something is missing prints the Debian names (the
# libraries are called much the same elsewhere) and exits 1.

set -u

# Build: libraries with headers and pkg-config files, and the compiler.
# libc6-dev is listed because gcc only recommends it, and images that turn
# recommends off would otherwise have a compiler without a C library.
build_pkgs="libtraceevent-dev libtracecmd-dev libtracefs-dev libinih-dev libncurses-dev
libzstd-dev zlib1g-dev pkg-config gcc libc6-dev make"
# Tests: trace-cmd is the oracle (`trace-cmd report`), tmux the terminal the
# screen tests drive, groff-base renders the man page for tests/docs.sh.
test_pkgs="trace-cmd tmux groff-base"
# Benchmark: the anchor programs in ../shared/bench, and /usr/bin/time.
bench_pkgs="libkshark-dev libjson-c-dev time"
# libtraceevent's plugins (sched_switch, irq, ... print handlers) live in a
# package of their own on Debian; without them `trace-cmd report` and our
# export print raw fields. Its name has changed across releases, so it is
# found by the file it ships.
plugin_pkgs="libtraceevent1-plugin"
plugin_file=plugin_sched_switch.so

bench=0
check=0
for arg in "$@"; do
	case $arg in
	--bench) bench=1 ;;
	--check) check=1 ;;
	-h|--help)
		sed -n '4,16s/^# \{0,1\}//p' "$0"
		exit 0 ;;
	*)
		echo "install-deps.sh: unknown option '$arg' (try --help)" >&2
		exit 2 ;;
	esac
done

want="$build_pkgs $test_pkgs"
[ $bench -eq 1 ] && want="$want $bench_pkgs"

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)" = "ii " ]
}

# Some package (of whatever name) ships the plugin and is installed?
have_plugins() {
	for p in $plugin_pkgs; do
		installed "$p" && return 0
	done
	# dpkg's patterns let * match /: this is any multiarch library dir,
	# not /usr/lib/traceevent (perf's own copy, which libtraceevent ignores).
	dpkg -S "/usr/lib/*/traceevent/plugins/$plugin_file" >/dev/null 2>&1
}

# Elsewhere: check the libraries through pkg-config and the tools on PATH.
not_debian() {
	missing=""
	for t in make pkg-config cc trace-cmd tmux groff; do
		command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
	done
	for p in libtraceevent libtracecmd libtracefs inih ncursesw libzstd zlib; do
		pkg-config --exists "$p" 2>/dev/null || missing="$missing $p"
	done
	if [ $bench -eq 1 ]; then
		pkg-config --exists libkshark 2>/dev/null || missing="$missing libkshark"
		[ -x /usr/bin/time ] || missing="$missing /usr/bin/time"
	fi
	[ -z "$missing" ] && exit 0
	echo "nurseshark: no apt-get/dpkg here, so nothing was installed." >&2
	echo "  missing:$missing" >&2
	# shellcheck disable=SC2086
	echo "  Debian names of what is needed:" $want $plugin_pkgs >&2
	exit 1
}

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	not_debian
fi

missing=""
for p in $want; do
	installed "$p" || missing="$missing $p"
done
have_plugins || missing="$missing $plugin_pkgs"
[ -z "$missing" ] && exit 0

if [ $check -eq 1 ]; then
	echo "nurseshark: missing packages:$missing" >&2
	exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "nurseshark: missing packages:$missing" >&2
		echo "  as root: apt-get update && apt-get install -y$missing" >&2
		exit 1
	fi
	sudo="sudo"
fi

echo "nurseshark: installing:$missing"
# Several builds in one machine may call this at once: wait for dpkg's lock
# instead of failing on it.
lock="-o DPkg::Lock::Timeout=600"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get $lock -q update || {
	echo "nurseshark: apt-get update failed" >&2
	exit 1
}
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get $lock -q install -y $missing || {
	echo "nurseshark: apt-get install failed for:$missing" >&2
	exit 1
}
