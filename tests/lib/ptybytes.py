# SPDX-License-Identifier: GPL-2.0-only
"""Bytes a program writes to its terminal for each key, through a real pty.

Usage: ptybytes.py COLS ROWS PREFIX KEYS -- PROGRAM ARGS...
Types PREFIX, then prints one line per key of KEYS: the key and the bytes
written in answer to it. Each key must change the screen.
A step is over when the program has written something since the key and
is blocked again in read() of its standard input (/proc/PID/syscall): a
condition, not a timeout; the timeout only bounds the wait.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

TIMEOUT = 30.0


def blocked_in_read(pid):
    try:
        with open('/proc/%d/syscall' % pid) as f:
            words = f.read().split()
    except OSError:
        return False
    # read(0, ...): syscall 0 on x86_64, 63 on arm64
    return len(words) > 1 and words[0] in ('0', '63') and words[1] == '0x0'


def drain(fd):
    got = b''
    while select.select([fd], [], [], 0)[0]:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        got += b
    return got


def settle(fd, pid):
    """The bytes until the program wrote something and waits for a key again."""
    got = b''
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        got += drain(fd)
        if got and blocked_in_read(pid):
            return got + drain(fd)
        select.select([fd], [], [], 0.01)
    sys.exit('no answer within %d s' % TIMEOUT)


def main():
    cols, rows, prefix, keys = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    argv = sys.argv[sys.argv.index('--') + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
        os.execvp(argv[0], argv)
    settle(fd, pid)                  # the first frame
    for k in prefix:
        os.write(fd, k.encode())
        settle(fd, pid)
    for k in keys:
        os.write(fd, k.encode())
        print('%s %d' % (k, len(settle(fd, pid))))
    os.write(fd, b'q')
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        try:
            if select.select([fd], [], [], 1)[0] and not os.read(fd, 65536):
                break
        except OSError:
            break
    os.waitpid(pid, 0)


main()
