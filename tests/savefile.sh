#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# No save ever loses a file, through the real binary: :save-session and
# :save-filters onto the open trace (under its name and a hard link's),
# /dev/null, a FIFO, a directory, a file that is not ours and a link to one
# are refused with a message and leave them as they were (checksums); onto a
# session of ours they ask "replace it? (y/n)": n keeps it, y replaces it; a
# link to a session of ours is followed; a temporary file a killed save left
# is removed by the next save into its directory. The keys go through
# --snapshot, then once through tmux (the real terminal: the question and
# its answer), where the session saved on exit also refuses a planted link
# to a file that is not ours.
set -u

. "${NS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib/common.sh"
ns_test_begin savefile
cd "$tmp" || exit 1
cp "$sample" trace.dat
sum() { cksum <"$1"; }
trace_sum=$(sum trace.dat)

# status KEYS: the status line after the keys (a wide screen: whole messages)
status() {
	timeout 20 "$bin" --snapshot 200x12 --keys "$1" trace.dat 2>&1 | tail -n 1
}

# --- refused ---------------------------------------------------------------------

for cmd in save-session save-filters; do
	s=$(status ":$cmd trace.dat<Enter>")
	if [[ $s == *"trace.dat is the trace open: not written"* ]] && [ "$(sum trace.dat)" = "$trace_sum" ]; then
		pass ":$cmd onto the open trace is refused and the trace is unchanged (cksum)"
	else
		fail ":$cmd onto the open trace: '$s', cksum $(sum trace.dat) (was $trace_sum)"
	fi
done
ln trace.dat hard.dat
s=$(status ":save-session hard.dat<Enter>")
if [[ $s == *"is the trace open"* ]] && [ "$(sum trace.dat)" = "$trace_sum" ]; then
	pass "and under another name (a hard link: the same st_dev and st_ino)"
else
	fail "the trace under a hard link's name: '$s'"
fi

s=$(status ":save-session /dev/null<Enter>")
if [[ $s == *"/dev/null is a device, not a file"* ]] && [ -c /dev/null ]; then
	pass ":save-session /dev/null is refused and it stays a device"
else
	fail ":save-session /dev/null: '$s'"
fi
mkfifo fifo
s=$(status ":save-filters fifo<Enter>")
if [[ $s == *"fifo is a FIFO, not a file"* ]] && [ -p fifo ]; then
	pass ":save-filters onto a FIFO is refused at once (no hang) and it stays a FIFO"
else
	fail ":save-filters onto a FIFO: '$s'"
fi
mkdir adir
s=$(status ":save-session adir<Enter>")
if [[ $s == *"adir is a directory"* ]] && [ -d adir ]; then
	pass ":save-session onto a directory is refused"
else
	fail ":save-session onto a directory: '$s'"
fi
printf 'my notes\n' >notes.txt
notes_sum=$(sum notes.txt)
ln -s notes.txt notes-link.ini
s=$(status ":save-session notes.txt<Enter>")
s2=$(status ":save-filters notes-link.ini<Enter>")
if [[ $s == *"not a nurseshark session or filter file: not replaced"* ]] &&
	[[ $s2 == *"through the link"*"not replaced"* ]] &&
	[ "$(sum notes.txt)" = "$notes_sum" ] && [ -L notes-link.ini ]; then
	pass "a file that is not ours, directly or through a link, is refused and kept"
else
	fail "a file not ours: '$s' / through a link: '$s2'"
fi

# --- a file of ours: asked -------------------------------------------------------

s=$(status ":save-session s.ini<Enter>")
if [[ $s == *"Session saved to s.ini"* ]] && head -n 1 s.ini | grep -q '^; nurseshark session:'; then
	pass "a new name is saved without a question, with our first line"
else
	fail "a new session: '$s'"
fi
first=$(sum s.ini)
s=$(status "jjj:save-session s.ini<Enter>")
if [[ $s == *"s.ini exists (a nurseshark session): replace it? (y/n)"* ]]; then
	pass "onto a session of ours it asks: '$s'"
else
	fail "no question for an existing session: '$s'"
fi
s=$(status "jjj:save-session s.ini<Enter>n")
if [[ $s == *"Session not saved: the file is kept"* ]] && [ "$(sum s.ini)" = "$first" ]; then
	pass "n keeps it, unchanged"
else
	fail "n: '$s'"
fi
s=$(status "jjj:save-session s.ini<Enter>y")
if [[ $s == *"Session saved to s.ini"* ]] && [ "$(sum s.ini)" != "$first" ] &&
	grep -q '^selected = 3 ' s.ini; then
	pass "y replaces it with the session of now (selected = 3)"
else
	fail "y: '$s'; $(grep '^selected' s.ini)"
fi
ln -s s.ini s-link.ini
s=$(status "jj:save-session s-link.ini<Enter>y")
if [[ $s == *"Session saved"* ]] && [ -L s-link.ini ] && grep -q '^selected = 2 ' s.ini; then
	pass "a link to a session of ours is followed (asked, then its target replaced, the link kept)"
else
	fail "a link to a session: '$s'"
fi
s=$(status ":save-filters f.ini<Enter>")
s2=$(status ":save-filters f.ini<Enter>")
if [[ $s == *"filters saved to f.ini"* ]] && [[ $s2 == *"f.ini exists (a nurseshark filter file): replace it? (y/n)"* ]]; then
	pass ":save-filters asks too, naming a filter file"
else
	fail ":save-filters: '$s' then '$s2'"
fi
# one filter is "1 filter", not "1 filters"
s=$(status "T:save-filters one.ini<Enter>")
if [[ $s == *" 1 filter saved to one.ini"* ]]; then
	pass ":save-filters of one filter says \"1 filter saved\""
else
	fail ":save-filters of one filter: '$s'"
fi

# --- a killed save's temporary file ---------------------------------------------

printf '; nurseshark session: see nurseshark.ini(5)\n[view]\n' >.s.ini.Ab12Cd
printf 'not ours\n' >.x.ini.Ab12Cd
touch -d '-2 minutes' .s.ini.Ab12Cd .x.ini.Ab12Cd
s=$(status ":save-session other.ini<Enter>")
if [ ! -e .s.ini.Ab12Cd ] && [ -e .x.ini.Ab12Cd ] && [[ $s == *saved* ]]; then
	pass "a save removes a killed save's temporary file (ours, 2 minutes old), not another's"
else
	fail "stale temporary files: $(ls -a | tr '\n' ' ')"
fi
if [ "$(sum trace.dat)" = "$trace_sum" ]; then
	pass "the trace is unchanged after every save"
else
	fail "the trace changed"
fi

# --- the real terminal: the question, and the session saved on exit --------------

. "$top/tests/lib/screen.sh"
if ! screen_have_tmux; then
	skip "tmux is not installed (make deps installs it)"
	exit 0
fi
mkdir -p config/nurseshark state
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state
run() {
	screen_start 120 30 "cd '$tmp' && env LC_ALL=C XDG_CONFIG_HOME='$XDG_CONFIG_HOME' \
XDG_STATE_HOME='$XDG_STATE_HOME' $bin trace.dat 2>'$tmp/err'; echo EXITED rc=\$?; exec cat"
}
run
screen_wait '^CPU1 ' || fail "the viewer did not start"
screen_type 'jjjjj:save-session s.ini'
screen_keys Enter
if screen_wait 's.ini exists \(a nurseshark session\): replace it\? \(y/n\)'; then
	pass "tmux: the question is in the status line of the real terminal"
else
	fail "tmux: no question"
fi
screen_type y
if screen_wait 'Session saved to s.ini' && grep -q '^selected = 5 ' s.ini; then
	pass "tmux: y replaces the session"
else
	fail "tmux: y did not save"
fi
screen_type q
screen_wait '^EXITED rc=0' || fail "tmux: q did not exit with 0"
own=$(ls state/nurseshark/*.ini 2>/dev/null | head -n 1)
if [ -n "$own" ] && head -n 1 "$own" | grep -q '^; nurseshark session:'; then
	pass "tmux: the session is saved on exit ($(basename "$own"))"
else
	fail "tmux: no session saved on exit in state/nurseshark"
fi
# a link planted where the trace's own session goes, to a file not ours
rm -f "$own"
ln -s "$tmp/notes.txt" "$own"
run
screen_wait '^CPU1 ' || fail "the viewer did not start"
screen_type q
screen_wait '^EXITED rc=0'
if [ "$(sum notes.txt)" = "$notes_sum" ] && [ -L "$own" ] &&
	grep -q 'the session was not saved: .*not a nurseshark session' err; then
	pass "tmux: the session saved on exit does not follow a planted link to a file not ours, and says so: $(cat err)"
else
	fail "tmux: a planted link at the trace's own session: $(cat err); notes $(sum notes.txt)"
fi
