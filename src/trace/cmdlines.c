// SPDX-License-Identifier: GPL-2.0-only
/*
 * A faster stand-in for libtraceevent's tep_parse_saved_cmdlines(), which
 * reads the task names a trace saves (73 kB, some 4 000 lines in
 * contrib/sample.dat) with one sscanf("%d %m[^\n]s") per line: a tenth of
 * the first frame of sample.dat, in each of the open's guard child and the
 * viewer. libtracecmd calls it through its PLT, so this definition, which
 * the Makefile exports from every program that links libnurseshark (as for
 * kallsyms.c), is the one it calls.
 *
 * It registers what the original registers, in the same order, with
 * tep_register_comm(): per line (split at '\n', empty lines skipped) a
 * decimal number after optional white space, with an optional sign, as a
 * long cut to an int; white space; and the rest of the line, at least a
 * byte, as the name. A line that does not read so, or a number beyond a
 * long (scanf's ERANGE), ends the parse. tests/unit/test_kallsyms.c holds
 * the two side by side. The guard child, which prints nothing, keeps
 * nothing (ns_trace_symbols_ignore()).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/* scanf's white space, in the C locale and in UTF-8 ones */
static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* One line, NUL-terminated in place; false where the original stops. */
static bool parse_line(struct tep_handle *tep, char *p)
{
	unsigned long long n = 0, max;
	bool neg = false, digits = false;

	while (space(*p))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	/* beyond a long, strtol() says ERANGE and the original stops */
	max = neg ? (unsigned long long)LONG_MAX + 1 : (unsigned long long)LONG_MAX;
	for (; *p >= '0' && *p <= '9'; p++) {
		digits = true;
		if (n > (max - (unsigned long long)(*p - '0')) / 10)
			return false;
		n = n * 10 + (unsigned long long)(*p - '0');
	}
	if (!digits)
		return false;
	while (space(*p))
		p++;
	if (!*p)
		return false;
	/* the long as scanf("%d") stores it: its low bits */
	tep_register_comm(tep, p, (int)(unsigned int)(neg ? 0 - n : n));
	return true;
}

int tep_parse_saved_cmdlines(struct tep_handle *tep, const char *buf)
{
	char *copy, *line, *end;
	int ret = 0;

	if (ns_trace_symbols_ignored())
		return 0;
	copy = strdup(buf);
	if (!copy)
		return -1;
	for (line = copy; *line; line = end) {
		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		else
			end = line + strlen(line);
		if (!*line)
			continue;
		if (!parse_line(tep, line)) {
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

/* Called at every open, so that the linker keeps this file in every program. */
void ns_trace_cmdlines_keep(void)
{
}
