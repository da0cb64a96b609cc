// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/trace/kallsyms.c stands in for libtraceevent's tep_parse_kallsyms():
 * it reads the text into arrays of its own, shared by the handles whose
 * texts read the same, and gives the tep a resolver that searches them.
 * On the same text, ours and the real one (found past ours
 * with dlsym(RTLD_NEXT)) must find the same function and start at every
 * address of the text, one below and one above (glibc's stable sort and
 * bsearch() decide which of the aliases at one address is found: the
 * resolver must pick the same). The texts: ordinary lines, aliases, module
 * symbols, lines out of address order, the absolute and '$' symbols both
 * leave out, a 0x prefix, blank lines, no last newline, an address of more
 * than 16 digits, a malformed line (where both stop), and this machine's
 * /proc/kallsyms when it can be read. Sizes are left out: with a resolver
 * libtraceevent says 0, and nothing prints them. An event format that names
 * a symbol as an operand (preemptirq's "_stext + offset") must print the
 * same with both, a text that differs from one read before in one name or
 * one module must not share its symbols, and a guard child's parse keeps
 * nothing.
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
	unsigned long long addr, start_o, start_t;
	const char *name_o, *name_t, *p;
	int bad = 0, probes = 0, d;

	tep_parse_kallsyms(ours, text);
	ns_trace_kallsyms_attach(ours);
	real(theirs, text);
	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (sscanf(p, "%llx", &addr) != 1)
			continue;
		for (d = -1; d <= 1; d++) {
			int ro, rt;

			name_o = name_t = NULL;
			start_o = start_t = 0;
			ro = tep_find_function_info(ours, addr + d, &name_o, &start_o, NULL);
			rt = tep_find_function_info(theirs, addr + d, &name_t, &start_t, NULL);
			probes++;
			if (ro != rt || start_o != start_t ||
			    (name_o && name_t ? strcmp(name_o, name_t) : name_o != name_t)) {
				if (!bad)
					printf("  %s: at %#llx: ours %s@%#llx, libtraceevent's "
					       "%s@%#llx\n", name, addr + d, name_o ? name_o : "-",
					       start_o, name_t ? name_t : "-", start_t);
				bad++;
			}
		}
	}
	CHECK(!bad, "kallsyms: %s: the same function at each of %d addresses", name, probes);
	tep_free(ours);
	tep_free(theirs);
}

/*
 * preemptirq's format: the caller is an offset from _stext, which
 * libtraceevent finds by name among the registered symbols.
 */
static const char preemptirq_fmt[] =
	"name: irq_disable\n"
	"ID: 7\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:s32 caller_offs;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 parent_offs;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"caller=%pS parent=%pS\", (void *)((unsigned long)(_stext) + "
	"REC->caller_offs), (void *)((unsigned long)(_stext) + REC->parent_offs)\n";

/* How @tep prints one irq_disable event at _stext + 0x100 and + 0x210, into @buf. */
static void print_irq_disable(struct tep_handle *tep, char *buf, size_t len)
{
	unsigned char data[16] = { 7, 0 };
	struct tep_record rec = { .data = data, .size = sizeof(data) };
	struct trace_seq s;
	int caller = 0x100, parent = 0x210;

	memcpy(data + 8, &caller, 4);
	memcpy(data + 12, &parent, 4);
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(buf, len, "%s", s.buffer);
	trace_seq_destroy(&s);
}

static void symbol_operands(parse_fn real, const char *what, const char *text, const char *want)
{
	struct tep_handle *ours = tep_alloc(), *theirs = tep_alloc();
	char o[256], t[256];

	tep_set_long_size(ours, 8);
	tep_set_long_size(theirs, 8);
	tep_parse_event(ours, preemptirq_fmt, sizeof(preemptirq_fmt) - 1, "preemptirq");
	tep_parse_event(theirs, preemptirq_fmt, sizeof(preemptirq_fmt) - 1, "preemptirq");
	tep_parse_kallsyms(ours, text);
	ns_trace_kallsyms_attach(ours);
	real(theirs, text);
	print_irq_disable(ours, o, sizeof(o));
	print_irq_disable(theirs, t, sizeof(t));
	CHECK(!strcmp(o, t) && strstr(t, want),
	      "kallsyms: %s: a symbol named in a format prints as libtraceevent prints it "
	      "(ours \"%s\", libtraceevent's \"%s\")", what, o, t);
	tep_free(ours);
	tep_free(theirs);
}

static void ignored(void)
{
	static const char text[] = "ffffffff81000000 T _stext\nffffffff81000100 t first_fn\n";
	struct tep_handle *ours;

	/* the open's guard child asks for nothing: no resolver, no copy */
	ours = tep_alloc();
	ns_trace_symbols_ignore(true);
	tep_parse_kallsyms(ours, text);
	ns_trace_symbols_ignore(false);
	CHECK(!tep_find_function(ours, 0xffffffff81000100ULL),
	      "kallsyms: a thread that ignores kallsyms registers none");
	tep_free(ours);
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
	compare(real, "aliases", "ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
		"ffffffff81000000 t startup_64\nffffffff81000100 T a1\nffffffff81000100 T a2\n"
		"ffffffff81000100 W a3\nffffffff81000100 T a4\nffffffff81000200 T b\n"
		"ffffffff81000200 T b2\nffffffff81000300 T last\nffffffff81000300 T last2\n");
	compare(real, "out of order", "ffffffffc0002000 T m2\t[kvm]\nffffffff81000100 T a\n"
		"ffffffff81000000 T s\nffffffffc0002000 T m1\t[kvm]\nffffffff81000100 T a2\n"
		"0000000000001000 D percpu\nffffffff81000100 T a3\n");
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
	/* the usual shape's fast reading (usual_line()) and every way out of it */
	compare(real, "near the usual shape", "ffffffff81000000 T _stext\n"
		"ffffffff81000100 T blank_after   more words\nffffffff81000200 T ctl\001in_name\n"
		"ffffffff81000300 t m1\t[kvm] extra\nffffffff81000400 t m2\t[ kvm]\n"
		"ffffffff81000500 t m3\t[k\nffffffff81000600 t m4\t[\nffffffff81000700 t m5\t\n"
		"ffffffff81000800 T n\303\251e_utf8\nffffffff81000900 T crlf\r\n"
		"ffffffff81000a00 T tab_type\tname\nffffffff81000b00  T two_blanks\n"
		"ffffffff81000c00 TT typed_twice\nFFFFFFFF81000D00 T upper\n"
		"ffffffff81000e00 T m6\t[kvm\001x]\nffffffff81000f00 T a_name_of_exactly_eight_x\n"
		"ffffffff81001000 T x");
	compare(real, "empty", "");
	proc = slurp("/proc/kallsyms");
	if (proc && *proc)
		compare(real, "/proc/kallsyms", proc);
	else
		SKIP("kallsyms: /proc/kallsyms cannot be read here");
	free(proc);
	/* read after texts that differ only there: nothing shared */
	compare(real, "a name changed", "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n"
		"ffffffff81000200 T do_twa\nffffffff81000400 W weak_one\n"
		"ffffffff81002000 D some_data\n");
	compare(real, "a module added", "ffffffff81000000 T core_fn\n"
		"ffffffffc0001000 t mod_fn\t[kvm]\nffffffffc0001100 t mod_fn2\t[kvm_intel]\n"
		"ffffffffc0002000 T other\t[x]\nffffffffc0003000 T more\t[x]\n");
	compare(real, "ordinary again", "ffffffff81000000 T _stext\nffffffff81000100 t do_one\n"
		"ffffffff81000200 T do_two\nffffffff81000400 W weak_one\n"
		"ffffffff81002000 D some_data\n");
	symbol_operands(real, "one _stext", "ffffffff81000000 T _stext\n"
			"ffffffff81000100 t first_fn\nffffffff81000200 T second_fn\n"
			"ffffffff81000300 T third_fn\n", "first_fn+0x0");
	/* libtraceevent's search finds the last line of a name */
	symbol_operands(real, "two _stext", "ffffffff81000000 T _stext\n"
			"ffffffff81000100 t first_fn\nffffffff81000200 T second_fn\n"
			"ffffffff81000300 T third_fn\nffffffff81000400 T late_fn\n"
			"ffffffff81000200 t _stext\nffffffff81000500 T last_fn\n", "third_fn+0x0");
	ignored();
	return check_failures ? 1 : 0;
}
