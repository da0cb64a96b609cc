// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's symbols, read when an event first prints one. trace-cmd
 * saves the whole of /proc/kallsyms in each file (5.4 MB, 130 000 lines in
 * contrib/sample.dat), and libtraceevent's tep_parse_kallsyms() registers
 * every line with tep_register_function(): a malloc() and a strdup() per
 * line, then a sort of them all at the first lookup. That was most of the
 * fixed cost of opening a small trace, and again for every handle opened
 * later on the same file (index workers, ns_trace_recycle()). libtracecmd
 * calls tep_parse_kallsyms() through its PLT, so this definition, which the
 * Makefile exports from every program that links libnurseshark
 * (--export-dynamic-symbol, as for clock.c), is the one it calls.
 *
 * Here the text is only copied, and the tep gets a function resolver
 * (tep_set_function_resolver()) that parses it at its first call: into one
 * array of (address, name, module) sorted by address, the names in one
 * block. Handles on the same file get the same text, so the copies are
 * kept in one list, by content, for the life of the process (the tep has no
 * hook that would tell when to free them): one per distinct kallsyms, where
 * libtraceevent kept a list per handle.
 *
 * The resolver must find what libtraceevent's own lookup finds, whose rules
 * these are: per line "ADDRESS TYPE NAME" and an optional "\t[MODULE]",
 * every type but absolute symbols (A, a) and no name that starts with '$'
 * (arm's mapping symbols); a line that does not read as that ends the parse.
 * Its sort is glibc's stable one, of the list that tep_register_function()
 * builds newest first: equal addresses in the reverse of their lines'
 * order. Its search is glibc's bsearch() with a comparison that matches an
 * address equal to a symbol's or below the next one's (the last symbol
 * matches only its own address): the same loop here finds the same symbol
 * among equal ones. tests/unit/test_kallsyms.c holds the two side by side.
 *
 * One use of the registered list is no lookup: an event format that names
 * a symbol as an operand, as preemptirq's "(_stext) + REC->caller_offs"
 * does, is evaluated by a linear search of the registered names. So each
 * handle's formats are read once the handle is open
 * (ns_trace_kallsyms_attach()), and the symbols they name, only those, are
 * registered as libtraceevent would have them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "trace-int.h"

struct ksym {
	unsigned long long addr;
	unsigned int name;	/* offsets into ns_ksyms.names */
	unsigned int mod;	/* 0: none (the block starts with a NUL) */
};

struct ns_ksyms {
	struct ns_ksyms *next;
	char *text;		/* as libtracecmd read it, for the next handle to match */
	size_t len;
	pthread_mutex_t lock;
	atomic_bool ready;	/* syms and names are built */
	struct ksym *syms;
	size_t count;
	char *names;
	struct ksyms_tep *teps;
};

/*
 * The texts seen, for the life of the process. The guard child of
 * open.c opens the file only to see libtracecmd survive it, and prints
 * nothing: it asks this thread's parses to keep nothing.
 */
static struct ns_ksyms *texts;
static pthread_mutex_t texts_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread bool ignore_parse;
static __thread struct {
	const struct tep_handle *tep;
	struct ns_ksyms *ks;
} last_parse;

#define NS_HUGE_PAGE (2UL << 20)

/*
 * Memory for a block of a megabyte or more written at once: asked for in 2 MB pages
 * (madvise(), which is what most kernels' transparent_hugepage setting
 * leaves it to), since a fault per 4 kB page is most of the cost of writing
 * it on a virtual machine (20 ms against 1 ms for the 5.4 MB of
 * sample.dat's text). Never freed but on failure, as the texts are kept.
 */
static void *big_alloc(size_t len)
{
	size_t map_len = (len + NS_HUGE_PAGE - 1) & ~(NS_HUGE_PAGE - 1);
	char *map, *start;

	if (len < NS_HUGE_PAGE / 2)
		return malloc(len);
	map = mmap(NULL, map_len + NS_HUGE_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	start = (char *)(((uintptr_t)map + NS_HUGE_PAGE - 1) & ~(uintptr_t)(NS_HUGE_PAGE - 1));
	if (start > map)
		munmap(map, (size_t)(start - map));
	munmap(start + map_len, (size_t)(map + NS_HUGE_PAGE - start));
	madvise(start, map_len, MADV_HUGEPAGE);
	return start;
}

static void big_free(void *p, size_t len)
{
	if (len < NS_HUGE_PAGE / 2)
		free(p);
	else if (p)
		munmap(p, (len + NS_HUGE_PAGE - 1) & ~(NS_HUGE_PAGE - 1));
}

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

/*
 * One line, from @p to @end (its newline or the NUL); false where
 * libtraceevent stops. A symbol it registers goes to @out, its name and
 * module copied to @names at *@used.
 */
static bool parse_line(const char *p, const char *end, struct ksym *out, bool *keep,
		       char *names, size_t *used)
{
	unsigned long long addr = 0;
	const char *func, *func_end, *mod = NULL, *mod_end = NULL;
	int digits = 0, width = 16, d;
	char type;

	/* as sscanf("%16llx") reads: a 0x prefix counts in the 16 */
	while (p < end && blank(*p))
		p++;
	if (end - p >= 3 && p[0] == '0' && (p[1] | 0x20) == 'x' && hex_digit(p[2]) >= 0) {
		p += 2;
		width -= 2;
	}
	for (; p < end && digits < width && (d = hex_digit(*p)) >= 0; p++, digits++)
		addr = addr << 4 | (unsigned long long)d;
	if (!digits)
		return false;
	while (p < end && blank(*p))
		p++;
	if (p == end)
		return false;
	type = *p++;
	while (p < end && blank(*p))
		p++;
	func = p;
	while (p < end && !blank(*p))
		p++;
	if (p == func)
		return false;
	func_end = p;
	if (end - p >= 3 && p[0] == '\t' && p[1] == '[' && !blank(p[2])) {
		mod = p + 2;
		for (mod_end = mod; mod_end < end && !blank(*mod_end); mod_end++)
			;
		mod_end--;	/* the closing ']' */
	}
	*keep = func[0] != '$' && type != 'A' && type != 'a';
	if (!*keep)
		return true;
	out->addr = addr;
	out->name = (unsigned int)*used;
	memcpy(names + *used, func, (size_t)(func_end - func));
	*used += (size_t)(func_end - func);
	names[(*used)++] = '\0';
	out->mod = 0;
	if (mod) {
		out->mod = (unsigned int)*used;
		memcpy(names + *used, mod, (size_t)(mod_end - mod));
		*used += (size_t)(mod_end - mod);
		names[(*used)++] = '\0';
	}
	return true;
}

/* By address, equal ones in the reverse of their lines' order. */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? 1 : x->name > y->name ? -1 : 0;
}

/*
 * Sort @n symbols, read in their lines' order. /proc/kallsyms is mostly in
 * address order already, with aliases at one address: then the runs of
 * equal addresses only need turning round.
 */
static void sort_syms(struct ksym *syms, size_t n)
{
	size_t i, j, k;

	for (i = 1; i < n; i++)
		if (syms[i].addr < syms[i - 1].addr) {
			qsort(syms, n, sizeof(*syms), ksym_cmp);
			return;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && syms[j].addr == syms[i].addr; j++)
			;
		for (k = 0; k < (j - i) / 2; k++) {
			struct ksym t = syms[i + k];

			syms[i + k] = syms[j - 1 - k];
			syms[j - 1 - k] = t;
		}
	}
}

/* Parse @ks->text into its array; false if out of memory. Under ks->lock. */
static bool build(struct ns_ksyms *ks)
{
	const char *p = ks->text, *end;
	size_t used = 1, n = 0, lines = 1;
	bool keep;

	while ((p = memchr(p, '\n', ks->len - (size_t)(p - ks->text)))) {
		lines++;
		p++;
	}
	p = ks->text;
	ks->syms = big_alloc(lines * sizeof(*ks->syms));
	/* a name and a module take at most their line, with a NUL for its newline */
	ks->names = big_alloc(ks->len + 2);
	if (!ks->syms || !ks->names) {
		big_free(ks->syms, lines * sizeof(*ks->syms));
		big_free(ks->names, ks->len + 2);
		ks->syms = NULL;
		ks->names = NULL;
		return false;
	}
	ks->names[0] = '\0';
	for (; *p; p = *end ? end + 1 : end) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue;
		if (!parse_line(p, end, &ks->syms[n], &keep, ks->names, &used))
			break;
		n += keep;
	}
	sort_syms(ks->syms, n);
	ks->count = n;
	return true;
}

static bool ready(struct ns_ksyms *ks)
{
	bool ok = true;

	if (atomic_load_explicit(&ks->ready, memory_order_acquire))
		return true;
	pthread_mutex_lock(&ks->lock);
	if (!atomic_load_explicit(&ks->ready, memory_order_relaxed)) {
		ok = build(ks);
		if (ok)
			atomic_store_explicit(&ks->ready, true, memory_order_release);
	}
	pthread_mutex_unlock(&ks->lock);
	return ok;
}

/* Whether the symbol at @i matches @addr, as libtraceevent's comparison says. */
static int ksym_match(const struct ns_ksyms *ks, size_t i, unsigned long long addr)
{
	unsigned long long next = i + 1 < ks->count ? ks->syms[i + 1].addr : 0;

	if (addr == ks->syms[i].addr || (addr > ks->syms[i].addr && addr < next))
		return 0;
	return addr < ks->syms[i].addr ? -1 : 1;
}

/* The symbol that libtraceevent's lookup finds for @addr, or -1. */
static long ksym_find(const struct ns_ksyms *ks, unsigned long long addr)
{
	size_t l = 0, u = ks->count, i;
	int cmp;

	while (l < u) {
		i = (l + u) / 2;
		cmp = ksym_match(ks, i, addr);
		if (cmp < 0)
			u = i;
		else if (cmp > 0)
			l = i + 1;
		else
			return (long)i;
	}
	return -1;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct ns_ksyms *ks = priv;
	long i;

	if (!ready(ks))
		return NULL;
	i = ksym_find(ks, *addrp);
	if (i < 0)
		return NULL;
	*addrp = ks->syms[i].addr;
	*modp = ks->syms[i].mod ? ks->names + ks->syms[i].mod : NULL;
	return ks->names + ks->syms[i].name;
}

/* The entry for @kallsyms, a new one if this text is new; NULL if out of memory. */
static struct ns_ksyms *text_entry(const char *kallsyms)
{
	size_t len = strlen(kallsyms);
	struct ns_ksyms *ks;

	pthread_mutex_lock(&texts_lock);
	for (ks = texts; ks; ks = ks->next)
		if (ks->len == len && !memcmp(ks->text, kallsyms, len))
			break;
	if (!ks) {
		ks = calloc(1, sizeof(*ks));
		if (ks && !(ks->text = big_alloc(len + 1))) {
			free(ks);
			ks = NULL;
		}
		if (ks) {
			memcpy(ks->text, kallsyms, len + 1);
			ks->len = len;
			pthread_mutex_init(&ks->lock, NULL);
			ks->next = texts;
			texts = ks;
		}
	}
	pthread_mutex_unlock(&texts_lock);
	return ks;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	struct ns_ksyms *ks;

	if (ignore_parse)
		return 0;
	ks = text_entry(kallsyms);
	if (!ks || tep_set_function_resolver(tep, resolve, ks))
		return -1;
	last_parse.tep = tep;
	last_parse.ks = ks;
	return 0;
}

/**
 * ns_trace_symbols_ignore() - whether this thread's opens keep no kallsyms
 * and no saved task names (cmdlines.c)
 *
 * For the open's guard child (open.c), which prints nothing: it spares
 * their copies and parses.
 */
void ns_trace_symbols_ignore(bool ignore)
{
	ignore_parse = ignore;
}

/* Whether this thread asked for that. */
bool ns_trace_symbols_ignored(void)
{
	return ignore_parse;
}

/* The operands that are no number, which libtraceevent looks up by name. */
struct named {
	const char **names;
	size_t count, cap;
};

static void add_named(struct named *nm, const char *atom)
{
	const char **grown;
	size_t i;

	/* a symbol's name is one word: not "", not " CONSTANT" */
	if (!atom[0])
		return;
	for (i = 0; atom[i]; i++)
		if (blank(atom[i]))
			return;
	for (i = 0; i < nm->count; i++)
		if (!strcmp(nm->names[i], atom))
			return;
	if (nm->count == nm->cap) {
		grown = realloc(nm->names, (nm->cap ? nm->cap * 2 : 8) * sizeof(*grown));
		if (!grown)
			return;
		nm->names = grown;
		nm->cap = nm->cap ? nm->cap * 2 : 8;
	}
	nm->names[nm->count++] = atom;
}

static void find_named(struct named *nm, struct tep_print_arg *arg, int depth)
{
	for (; arg && depth < 64; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_ATOM:
			if (arg->atom.atom && (arg->atom.atom[0] < '0' || arg->atom.atom[0] > '9'))
				add_named(nm, arg->atom.atom);
			break;
		case TEP_PRINT_TYPE:
			find_named(nm, arg->typecast.item, depth + 1);
			break;
		case TEP_PRINT_OP:
			find_named(nm, arg->op.left, depth + 1);
			find_named(nm, arg->op.right, depth + 1);
			break;
		case TEP_PRINT_FLAGS:
			find_named(nm, arg->flags.field, depth + 1);
			break;
		case TEP_PRINT_SYMBOL:
			find_named(nm, arg->symbol.field, depth + 1);
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			find_named(nm, arg->hex.field, depth + 1);
			find_named(nm, arg->hex.size, depth + 1);
			break;
		case TEP_PRINT_INT_ARRAY:
			find_named(nm, arg->int_array.field, depth + 1);
			find_named(nm, arg->int_array.count, depth + 1);
			find_named(nm, arg->int_array.el_size, depth + 1);
			break;
		case TEP_PRINT_FUNC:
			find_named(nm, arg->func.args, depth + 1);
			break;
		case TEP_PRINT_DYNAMIC_ARRAY:
			find_named(nm, arg->dynarray.index, depth + 1);
			break;
		default:
			break;
		}
	}
}

/*
 * A tep whose formats name symbols. libtraceevent searches its list of
 * symbols by name, newest first, until the first lookup of an address,
 * which sorts the list by address for good: from then on the search finds
 * the lowest address of a name. So at this tep's first lookup, the lines of
 * the lowest addresses are registered too, ahead of the others.
 */
struct ksyms_tep {
	struct ksyms_tep *next;		/* in ns_ksyms.teps: kept, as the text is */
	struct ns_ksyms *ks;
	struct tep_handle *tep;
	bool looked_up;
	size_t count;
	const struct ksym **lowest;
};

static void register_sym(struct tep_handle *tep, const struct ns_ksyms *ks, const struct ksym *sym)
{
	tep_register_function(tep, ks->names + sym->name, sym->addr,
			      sym->mod ? ks->names + sym->mod : NULL);
}

static char *resolve_named(void *priv, unsigned long long *addrp, char **modp)
{
	struct ksyms_tep *kt = priv;
	size_t i;

	if (!kt->looked_up) {
		kt->looked_up = true;
		for (i = 0; i < kt->count; i++)
			register_sym(kt->tep, kt->ks, kt->lowest[i]);
	}
	return resolve(kt->ks, addrp, modp);
}

/* Register the symbols named @nm as tep_parse_kallsyms() would have. */
static void register_named(struct tep_handle *tep, struct ns_ksyms *ks, const struct named *nm)
{
	const struct ksym **last = calloc(nm->count, sizeof(*last));
	const struct ksym **lowest = calloc(nm->count, sizeof(*lowest));
	struct ksyms_tep *kt = calloc(1, sizeof(*kt));
	bool first[256] = { false };
	const char *name;
	size_t i, j, n = 0;

	if (!last || !lowest || !kt)
		goto out;
	for (j = 0; j < nm->count; j++)
		first[(unsigned char)nm->names[j][0]] = true;
	/* in address order, equal ones last line first: libtraceevent's sorted order */
	for (i = 0; i < ks->count; i++) {
		name = ks->names + ks->syms[i].name;
		if (!first[(unsigned char)name[0]])
			continue;
		for (j = 0; j < nm->count; j++) {
			if (strcmp(name, nm->names[j]))
				continue;
			if (!last[j] || ks->syms[i].name > last[j]->name)
				last[j] = &ks->syms[i];
			if (!lowest[j])
				lowest[j] = &ks->syms[i];
		}
	}
	for (j = 0; j < nm->count; j++) {
		if (!last[j])
			continue;
		register_sym(tep, ks, last[j]);
		lowest[n++] = lowest[j];
	}
	if (!n || tep_set_function_resolver(tep, resolve_named, kt))
		goto out;
	kt->ks = ks;
	kt->tep = tep;
	kt->count = n;
	kt->lowest = lowest;
	pthread_mutex_lock(&ks->lock);
	kt->next = ks->teps;
	ks->teps = kt;
	pthread_mutex_unlock(&ks->lock);
	free(last);
	return;
out:
	free(last);
	free(lowest);
	free(kt);
}

/**
 * ns_trace_kallsyms_attach() - finish the symbols of a handle just opened
 * @tep: the handle's tep
 *
 * Registers with libtraceevent the symbols that its event formats name as
 * operands (see the top of this file). Called on the thread that opened the
 * handle, right after the open. Which operands are looked up by name shows
 * only when an event prints, and most formats have words among their
 * operands ("true" : "false"), so the text is parsed here for most traces;
 * for the others, at the first lookup.
 */
void ns_trace_kallsyms_attach(struct tep_handle *tep)
{
	struct ns_ksyms *ks = last_parse.tep == tep ? last_parse.ks : NULL;
	struct named nm = { 0 };
	struct tep_event *event;
	int e;

	last_parse.tep = NULL;
	last_parse.ks = NULL;
	if (!ks)
		return;
	for (e = 0; e < tep_get_events_count(tep); e++) {
		event = tep_get_event(tep, e);
		if (event)
			find_named(&nm, event->print_fmt.args, 0);
	}
	if (nm.count && ready(ks))
		register_named(tep, ks, &nm);
	free(nm.names);
}

/* Called at every open, so that the linker keeps this file in every program. */
void ns_trace_kallsyms_keep(void)
{
}
