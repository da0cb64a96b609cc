// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/trace/kallsyms.c stands in for libtraceevent's tep_parse_kallsyms():
 * on the same text, ours and the real one (found past ours with
 * dlsym(RTLD_NEXT)) must register the same functions. Each text is read
 * into two teps, and every address of the text, one below and one above,
 * must find the same function, start and size in both, and both must print
 * the same function list (tep_print_funcs, which shows the modules). The
 * texts: ordinary lines, module symbols, the absolute and '$' symbols both
 * leave out, a 0x prefix, blank lines, no last newline, an address of more
 * than 16 digits, a malformed line (where both stop), and this machine's
 * /proc/kallsyms when it can be read.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "check.h"

typedef int (*parse_fn)(struct tep_handle *, const char *);

/* What tep_print_funcs() prints for @tep, into a malloc()ed string. */
static char *funcs_text(struct tep_handle *tep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *saved = stdout;

	fflush(stdout);
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	stdout = f;
	tep_print_funcs(tep);
	fflush(stdout);
	stdout = saved;
	fclose(f);
	return buf;
}

static void compare(parse_fn real, const char *name, const char *text)
{
	struct tep_handle *ours = tep_alloc(), *theirs = tep_alloc();
	unsigned long long addr, start_o, start_t;
	unsigned long size_o, size_t_;
	const char *name_o, *name_t, *p;
	int bad = 0, probes = 0, d;
	char *fo, *ft;

	tep_parse_kallsyms(ours, text);
	real(theirs, text);
	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (sscanf(p, "%llx", &addr) != 1)
			continue;
		for (d = -1; d <= 1; d++) {
			int ro, rt;

			name_o = name_t = NULL;
			start_o = start_t = size_o = size_t_ = 0;
			ro = tep_find_function_info(ours, addr + d, &name_o, &start_o, &size_o);
			rt = tep_find_function_info(theirs, addr + d, &name_t, &start_t, &size_t_);
			probes++;
			if (ro != rt || start_o != start_t || size_o != size_t_ ||
			    (name_o && name_t ? strcmp(name_o, name_t) : name_o != name_t)) {
				if (!bad)
					printf("  %s: at %#llx: ours %s@%#llx+%lu, libtraceevent's "
					       "%s@%#llx+%lu\n", name, addr + d, name_o ? name_o : "-",
					       start_o, size_o, name_t ? name_t : "-", start_t, size_t_);
				bad++;
			}
		}
	}
	CHECK(!bad, "kallsyms: %s: the same function at each of %d addresses", name, probes);
	fo = funcs_text(ours);
	ft = funcs_text(theirs);
	CHECK(fo && ft && !strcmp(fo, ft), "kallsyms: %s: the same function list, modules too",
	      name);
	free(fo);
	free(ft);
	tep_free(ours);
	tep_free(theirs);
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap + 1);
			if (!buf)
				break;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

int main(void)
{
	parse_fn real = (parse_fn)dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	char *proc;

	CHECK(real && real != tep_parse_kallsyms,
	      "kallsyms: libtraceevent's tep_parse_kallsyms is found past ours");
	if (!real || real == tep_parse_kallsyms)
		return 1;
	compare(real, "ordinary", "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n"
		"ffffffff81000200 T do_two\nffffffff81000400 W weak_one\n"
		"ffffffff81002000 D some_data\n");
	compare(real, "modules", "ffffffff81000000 T core_fn\n"
		"ffffffffc0001000 t mod_fn\t[kvm]\nffffffffc0001100 t mod_fn2\t[kvm_intel]\n"
		"ffffffffc0002000 T other\t[x]\n");
	compare(real, "absolute and $", "0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 a local_abs\nffffffff81000000 t $x\nffffffff81000010 t real\n"
		"ffffffff81000020 t $d.1\nffffffff81000030 T last\n");
	compare(real, "0x, blank lines, no last newline", "0xffffffff81000000 T with_prefix\n\n\n"
		"   ffffffff81000100   T   spaced\nffffffff81000200 T no_newline");
	compare(real, "a long address", "ffffffff81000000 T first\n"
		"1ffffffff81000100 T too_long\nffffffff81000200 T after\n");
	compare(real, "a malformed line", "ffffffff81000000 T first\nffffffff81000100 T\n"
		"ffffffff81000200 T never\n");
	compare(real, "garbage", "not kallsyms at all\nffffffff81000000 T x\n");
	compare(real, "empty", "");
	proc = slurp("/proc/kallsyms");
	if (proc && *proc)
		compare(real, "/proc/kallsyms", proc);
	else
		SKIP("kallsyms: /proc/kallsyms cannot be read here");
	free(proc);
	return check_failures ? 1 : 0;
}
