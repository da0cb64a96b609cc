// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guard around one function of libtracecmd 1.3. It parses the TRACECLOCK
 * option with strtok_r() on the option's buffer as if it ended with a NUL,
 * and the empty option that trace-cmd 2.x files carry is a malloc(0): it
 * reads past it and may write a NUL past it, a heap corruption now and
 * then (valgrind shows it on 9 of the 16 public traces). libtracecmd calls
 * tracecmd_parse_trace_clock() through its PLT, so this definition, which
 * the Makefile exports from every program that links libnurseshark
 * (--export-dynamic-symbol), is the one it calls: it hands the real one a
 * copy that ends with a NUL. The copy is never freed here, in case
 * libtracecmd keeps it: a few bytes per handle opened.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

int tracecmd_parse_trace_clock(struct tracecmd_input *handle, char *file, int size)
{
	static int (*real)(struct tracecmd_input *, char *, int);
	char *copy;

	if (!real)
		real = (int (*)(struct tracecmd_input *, char *, int))
			dlsym(RTLD_NEXT, "tracecmd_parse_trace_clock");
	if (!real)
		return -1;
	if (size < 0)
		size = 0;
	copy = malloc((size_t)size + 1);
	if (!copy)
		return -1;
	if (size)
		memcpy(copy, file, (size_t)size);
	copy[size] = '\0';
	return real(handle, copy, size);
}

/* Called at every open, so that the linker keeps this file in every program. */
void ns_trace_clock_guard(void)
{
}
