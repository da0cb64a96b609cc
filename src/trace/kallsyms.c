// SPDX-License-Identifier: GPL-2.0-only
/*
 * A faster stand-in for libtraceevent's tep_parse_kallsyms(), which was
 * most of the fixed cost of opening a small trace. trace-cmd saves the whole
 * of /proc/kallsyms in each file (5.4 MB, 130 000 lines in
 * contrib/sample.dat), and libtraceevent reads it with one sscanf() per
 * line: some 60 ms of CPU, paid twice per open since the open's guard
 * (open.c) opens the file in a child first. libtracecmd calls
 * tep_parse_kallsyms() through its PLT, so this definition, which the
 * Makefile exports from every program that links libnurseshark
 * (--export-dynamic-symbol, as for clock.c), is the one it calls.
 *
 * It registers the same functions, with tep_register_function(), as the
 * original does: per line "ADDRESS TYPE NAME" and an optional
 * "\t[MODULE]", every type but absolute symbols (A, a) and no name that
 * starts with '$' (arm's mapping symbols); a line that does not read as
 * that ends the parse, as it does there. The text is a NUL-terminated
 * string whatever the file holds (libtracecmd ends its buffer with one),
 * and nothing here reads beyond it.
 */
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One line, NUL-terminated in place; false where the original stops. */
static bool parse_line(struct tep_handle *tep, char *line)
{
	unsigned long long addr = 0;
	char *p = line, *func, *mod = NULL, type;
	int digits = 0, width = 16, d;

	/* as sscanf("%16llx") reads: a 0x prefix counts in the 16 */
	while (blank(*p))
		p++;
	if (p[0] == '0' && (p[1] | 0x20) == 'x' && hex_digit(p[2]) >= 0) {
		p += 2;
		width -= 2;
	}
	for (; digits < width && (d = hex_digit(*p)) >= 0; p++, digits++)
		addr = addr << 4 | (unsigned long long)d;
	if (!digits)
		return false;
	while (blank(*p))
		p++;
	if (!*p)
		return false;
	type = *p++;
	while (blank(*p))
		p++;
	func = p;
	while (*p && !blank(*p))
		p++;
	if (p == func)
		return false;
	if (p[0] == '\t' && p[1] == '[' && p[2] && !blank(p[2])) {
		char *m = p + 2;

		*p = '\0';
		mod = m;
		while (*m && !blank(*m))
			m++;
		m[-1] = '\0';	/* the closing ']' */
	} else {
		*p = '\0';
	}
	if (func[0] != '$' && type != 'A' && type != 'a')
		tep_register_function(tep, func, addr, mod);
	return true;
}

/*
 * Set in the open's guard child only (open.c), a process that exits once it
 * has opened the file: what it checks is whether libtracecmd survives the
 * file, and the parse below survives any text, so the child need not spend
 * its time on symbols it never prints.
 */
static bool skip_parse;

/**
 * ns_trace_kallsyms_skip() - parse no kallsyms in this process from now on
 *
 * For the open's guard child (open.c), and nowhere else.
 */
void ns_trace_kallsyms_skip(void)
{
	skip_parse = true;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	char *buf, *line, *end;
	int ret = 0;

	if (skip_parse)
		return 0;
	buf = strdup(kallsyms);
	if (!buf)
		return -1;
	for (line = buf; *line; line = end) {
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
	free(buf);
	return ret;
}

/* Called at every open, so that the linker keeps this file in every program. */
void ns_trace_kallsyms_keep(void)
{
}
