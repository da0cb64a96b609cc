// SPDX-License-Identifier: GPL-2.0-only
/*
 * Preloaded into the oracle, `trace-cmd report`, by tests/oracle/trace-cmd:
 * malloc(0) returns a zeroed byte, where glibc returns a chunk holding
 * whatever the heap left there.
 *
 * Why: trace-cmd 2.x files (9 of ../shared/traces/public) carry an empty
 * TRACECLOCK option. libtracecmd reads it into a malloc(0) and hands it to
 * tracecmd_parse_trace_clock(), which runs strtok_r() over it as if it
 * ended with a NUL (src/trace/clock.c guards our own copy of that call).
 * When the heap's leftovers there hold a word that starts with '[' (glibc's
 * mangled free-list pointers, different at each run with ASLR), report
 * takes it for an unknown clock and prints raw timestamps: 2 runs in 400 on
 * ARM-software__lisa__raw_trace.dat, which failed test_search_line in CI,
 * and once before on wsdias__LabSisOp__trace.dat. With this, 0 in 1000.
 * The contents of malloc(0) are unspecified, so nothing else changes.
 */
#include <stddef.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);

void *malloc(size_t size)
{
	return size ? __libc_malloc(size) : __libc_calloc(1, 1);
}
