// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/trace/cmdlines.c stands in for libtraceevent's
 * tep_parse_saved_cmdlines(): on the same text, ours and the real one
 * (found past ours with dlsym(RTLD_NEXT)) must return the same and name
 * the same task for every pid a line of the text could mean (its number
 * as strtoll() reads it, cut to an int, and one either side). The texts:
 * ordinary lines, names with blanks, signs, leading and trailing white
 * space, empty lines, no last newline, a pid beyond an int (cut), beyond a
 * long (where both stop), a line with no name and one with no number
 * (where both stop), a pid twice, and a thousand lines. A guard child's
 * parse keeps nothing.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "../../src/trace/trace-int.h"
#include "check.h"

typedef int (*parse_fn)(struct tep_handle *, const char *);

static void compare(parse_fn real, const char *name, const char *text)
{
	struct tep_handle *ours = tep_alloc(), *theirs = tep_alloc();
	int ro, rt, bad = 0, probes = 0, d;
	const char *p;

	ro = tep_parse_saved_cmdlines(ours, text);
	rt = real(theirs, text);
	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		int pid = (int)(unsigned int)strtoll(p, NULL, 10);

		for (d = -1; d <= 1; d++) {
			const char *co = tep_data_comm_from_pid(ours, pid + d);
			const char *ct = tep_data_comm_from_pid(theirs, pid + d);

			probes++;
			if (strcmp(co, ct) || tep_is_pid_registered(ours, pid + d) !=
			    tep_is_pid_registered(theirs, pid + d)) {
				if (!bad)
					printf("  %s: pid %d: ours \"%s\", libtraceevent's \"%s\"\n",
					       name, pid + d, co, ct);
				bad++;
			}
		}
	}
	CHECK(ro == rt, "cmdlines: %s: the same result (ours %d, libtraceevent's %d)", name, ro, rt);
	CHECK(!bad, "cmdlines: %s: the same task at each of %d pids", name, probes);
	tep_free(ours);
	tep_free(theirs);
}

int main(void)
{
	parse_fn real = (parse_fn)dlsym(RTLD_NEXT, "tep_parse_saved_cmdlines");
	struct tep_handle *tep;
	char *many;
	size_t len = 0;
	int i;

	CHECK(real && real != tep_parse_saved_cmdlines,
	      "cmdlines: libtraceevent's tep_parse_saved_cmdlines is found past ours");
	if (!real || real == tep_parse_saved_cmdlines)
		return 1;
	compare(real, "ordinary", "1 systemd\n2 kthreadd\n3 rcu_gp\n1234 bash\n");
	compare(real, "blanks and signs", "  12 \t name with blanks  \n+7 plus\n-5 minus\n"
		"8\tkworker/0:1H\r\n\n\n9 last");
	compare(real, "beyond an int", "4294967297 cut\n9223372036854775807 long_max\n"
		"-9223372036854775808 long_min\n10 after\n");
	compare(real, "beyond a long", "5 first\n9223372036854775808 too_big\n6 never\n");
	compare(real, "no name", "5 first\n12\n6 never\n");
	compare(real, "no number", "5 first\n- 3 no\n6 never\n");
	compare(real, "0x", "0x10 hex\n11 after\n");
	compare(real, "a pid twice", "5 first\n5 second\n6 other\n");
	compare(real, "empty", "");
	many = malloc(1000 * 32);
	if (many) {
		for (i = 0; i < 1000; i++)
			len += (size_t)sprintf(many + len, "%d task-%d\n", i * 37 % 4096, i);
		compare(real, "a thousand lines", many);
		free(many);
	}

	/* the open's guard child asks for nothing */
	tep = tep_alloc();
	ns_trace_symbols_ignore(true);
	tep_parse_saved_cmdlines(tep, "77 ignored\n");
	ns_trace_symbols_ignore(false);
	CHECK(!tep_is_pid_registered(tep, 77), "cmdlines: a thread that ignores them registers none");
	tep_free(tep);
	return check_failures ? 1 : 0;
}
