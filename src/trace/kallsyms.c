// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's symbols, for the events that print one. trace-cmd saves the
 * whole of /proc/kallsyms in each file (5.4 MB, 130 000 lines in
 * contrib/sample.dat), and libtraceevent's tep_parse_kallsyms() registers
 * every line with tep_register_function(): a malloc() and a strdup() per
 * line, then a sort of them all at the first lookup. That was most of the
 * fixed cost of opening a small trace, and again for every handle opened
 * later on the same file (index workers, ns_trace_recycle()). libtracecmd
 * calls tep_parse_kallsyms() through its PLT, so this definition, which the
 * Makefile exports from every program that links libnurseshark
 * (--export-dynamic-symbol, as for clock.c), is the one it calls.
 *
 * Here the text is read (a line of the usual shape, 16 hex digits, a type
 * and a name, without going byte by byte: 8 ms to 3 ms for this machine's
 * 121,436 lines) into one array of (address, name, module) in the lines'
 * order, the names in one block, and an array of indices in address order; the tep gets a function resolver (tep_set_function_resolver())
 * that searches them. Handles on the same file get the same symbols, so
 * they are kept in one list, for the life of the process (the tep has no
 * hook that would tell when to free them): the next handle's text is
 * compared with them, line by line, and shares them when it reads the same.
 * One copy per distinct kallsyms, where libtraceevent kept a list per
 * handle.
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
	struct ksym *syms;	/* in their lines' order */
	unsigned int *order;	/* indices into syms, in libtraceevent's sorted order */
	size_t count;
	char *names;
	size_t names_len;
	struct ksyms_tep *teps;	/* under texts_lock */
};

/*
 * The symbols of the texts seen, for the life of the process; the symbols
 * of this thread's last parse, for ns_trace_kallsyms_attach(). The guard
 * child of open.c opens the file only to see libtracecmd survive it, and
 * prints nothing: it asks this thread's parses to keep nothing.
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
 * Memory for a block of a megabyte or more written at once: asked for in
 * 2 MB pages (madvise(), which is what most kernels' transparent_hugepage
 * setting leaves it to), since a fault per 4 kB page is most of the cost of
 * writing it on a virtual machine (20 ms against 1 ms for 5.4 MB). Never
 * freed but on failure, as the symbols are kept.
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

/* A hex digit's value plus one, 0 for any other byte. */
static const unsigned char hex_plus_one[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hex_digit(char c)
{
	return hex_plus_one[(unsigned char)c] - 1;
}

/* A line as libtraceevent reads it. */
struct kline {
	unsigned long long addr;
	const char *func, *mod;		/* mod: NULL for none */
	size_t func_len, mod_len;
	bool keep;			/* registered: not absolute, not '$' */
};

/* One line, from @p to @end (its newline or the NUL); false where libtraceevent stops. */
static bool parse_line(const char *p, const char *end, struct kline *kl)
{
	const char *func;
	int digits = 0, width = 16, d;
	char type;

	kl->addr = 0;
	kl->mod = NULL;
	kl->mod_len = 0;
	/* as sscanf("%16llx") reads: a 0x prefix counts in the 16 */
	while (p < end && blank(*p))
		p++;
	if (end - p >= 3 && p[0] == '0' && (p[1] | 0x20) == 'x' && hex_digit(p[2]) >= 0) {
		p += 2;
		width -= 2;
	}
	for (; p < end && digits < width && (d = hex_digit(*p)) >= 0; p++, digits++)
		kl->addr = kl->addr << 4 | (unsigned long long)d;
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
	kl->func = func;
	kl->func_len = (size_t)(p - func);
	if (end - p >= 3 && p[0] == '\t' && p[1] == '[' && !blank(p[2])) {
		const char *m = p + 2;

		while (m < end && !blank(*m))
			m++;
		kl->mod = p + 2;
		kl->mod_len = (size_t)(m - 1 - kl->mod);	/* up to the closing ']' */
	}
	kl->keep = func[0] != '$' && type != 'A' && type != 'a';
	return true;
}


/*
 * The first byte at or after @p, before @end, that is 0x20 or below (a
 * blank, the newline, the NUL), or @end: eight bytes at a time where the
 * machine is little-endian. Of the flags the subtraction sets, the lowest
 * is always a byte below 0x21 (a borrow only carries upward).
 */
static const char *low_byte(const char *p, const char *end)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

	for (; end - p >= 8; p += 8) {
		uint64_t x, t;

		memcpy(&x, p, 8);
		t = (x - ones * 0x21) & ~x & highs;
		if (t)
			return p + __builtin_ctzll(t) / 8;
	}
#endif
	for (; p < end; p++)
		if ((unsigned char)*p <= 0x20)
			return p;
	return end;
}

/*
 * The line at @p (before @end, the text's NUL) if it has the shape of
 * nearly every line of /proc/kallsyms, "%016llx T name\n" or "...
 * name\t[module]\n": read into @kl as parse_line() reads it, with *@eol at
 * its newline (or the NUL). False for any other shape, left to
 * parse_line().
 */
static bool usual_line(const char *p, const char *end, struct kline *kl, const char **eol)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned long long addr = 0;
	const char *func, *stop;
	int i;

	if (end - p < 20 || u[16] != ' ' || u[17] <= 0x20 || u[18] != ' ' || u[19] <= 0x20)
		return false;
	for (i = 0; i < 16; i++) {
		int d = hex_digit(p[i]);

		if (d < 0)
			return false;
		addr = addr << 4 | (unsigned long long)d;
	}
	func = p + 19;
	stop = low_byte(func, end);
	kl->addr = addr;
	kl->func = func;
	kl->func_len = (size_t)(stop - func);
	kl->mod = NULL;
	kl->mod_len = 0;
	kl->keep = func[0] != '$' && p[17] != 'A' && p[17] != 'a';
	if (stop == end || *stop == '\n') {
		*eol = stop;
		return true;
	}
	if (*stop != '\t' || end - stop < 3 || stop[1] != '[' || blank(stop[2]) || stop[2] == '\n')
		return false;
	/* "\t[module]": up to the next blank or the line's end, less its last byte */
	kl->mod = stop + 2;
	stop = low_byte(stop + 2, end);
	if (stop < end && *stop != '\n' && !blank(*stop))
		return false;	/* a control byte: parse_line() says */
	kl->mod_len = (size_t)(stop - 1 - kl->mod);
	*eol = stop < end && *stop == '\n' ? stop : memchr(stop, '\n', (size_t)(end - stop));
	if (!*eol)
		*eol = end;
	return true;
}

/*
 * Each registered line of @text in turn, to @fn, until @fn says stop or a
 * line ends the parse.
 */
static void each_line(const char *text, bool (*fn)(void *arg, const struct kline *kl), void *arg)
{
	const char *p, *end, *text_end = text + strlen(text);
	struct kline kl;

	for (p = text; p < text_end; p = end < text_end ? end + 1 : end) {
		if (!usual_line(p, text_end, &kl, &end)) {
			end = memchr(p, '\n', (size_t)(text_end - p));
			if (!end)
				end = text_end;
			if (end == p)
				continue;
			if (!parse_line(p, end, &kl))
				break;
		}
		if (kl.keep && !fn(arg, &kl))
			break;
	}
}

static bool add_line(void *arg, const struct kline *kl)
{
	struct ns_ksyms *ks = arg;
	struct ksym *sym = &ks->syms[ks->count++];

	sym->addr = kl->addr;
	sym->name = (unsigned int)ks->names_len;
	memcpy(ks->names + ks->names_len, kl->func, kl->func_len);
	ks->names_len += kl->func_len;
	ks->names[ks->names_len++] = '\0';
	sym->mod = 0;
	if (kl->mod) {
		sym->mod = (unsigned int)ks->names_len;
		memcpy(ks->names + ks->names_len, kl->mod, kl->mod_len);
		ks->names_len += kl->mod_len;
		ks->names[ks->names_len++] = '\0';
	}
	return true;
}

/* Whether the symbols of a text, in their lines' order, are those of @ks. */
struct same {
	const struct ns_ksyms *ks;
	size_t n;
	bool differs;
};

static bool same_line(void *arg, const struct kline *kl)
{
	struct same *sm = arg;
	const struct ksym *sym = &sm->ks->syms[sm->n];
	const char *name = sm->ks->names + sym->name, *mod = sm->ks->names + sym->mod;

	if (sm->n++ >= sm->ks->count || sym->addr != kl->addr ||
	    strncmp(name, kl->func, kl->func_len) || name[kl->func_len] ||
	    !sym->mod != !kl->mod ||
	    (kl->mod && (strncmp(mod, kl->mod, kl->mod_len) || mod[kl->mod_len])))
		sm->differs = true;
	return !sm->differs;
}

static bool same_syms(const struct ns_ksyms *ks, const char *text)
{
	struct same sm = { .ks = ks };

	each_line(text, same_line, &sm);
	return !sm.differs && sm.n == ks->count;
}

/* By address, equal ones in the reverse of their lines' order. */
static int order_cmp(const void *a, const void *b, void *arg)
{
	const struct ksym *syms = arg;
	unsigned int i = *(const unsigned int *)a, j = *(const unsigned int *)b;

	if (syms[i].addr != syms[j].addr)
		return syms[i].addr < syms[j].addr ? -1 : 1;
	return i < j ? 1 : i > j ? -1 : 0;
}

/*
 * The symbols' order by address. /proc/kallsyms is mostly in address order
 * already, with aliases at one address: then the runs of equal addresses
 * only need turning round.
 */
static void sort_order(const struct ksym *syms, unsigned int *order, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		order[i] = (unsigned int)i;
	for (i = 1; i < n; i++)
		if (syms[i].addr < syms[i - 1].addr) {
			qsort_r(order, n, sizeof(*order), order_cmp, (void *)syms);
			return;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && syms[j].addr == syms[i].addr; j++)
			;
		for (k = 0; k < (j - i) / 2; k++) {
			unsigned int t = order[i + k];

			order[i + k] = order[j - 1 - k];
			order[j - 1 - k] = t;
		}
	}
}

/* The symbols of @text; NULL if out of memory. */
static struct ns_ksyms *build(const char *text)
{
	size_t len = strlen(text), lines = 1;
	struct ns_ksyms *ks = calloc(1, sizeof(*ks));
	const char *p = text;

	while ((p = memchr(p, '\n', len - (size_t)(p - text)))) {
		lines++;
		p++;
	}
	if (!ks)
		return NULL;
	ks->syms = big_alloc(lines * sizeof(*ks->syms));
	ks->order = big_alloc(lines * sizeof(*ks->order));
	/* a name and a module take at most their line, with a NUL for its newline */
	ks->names = big_alloc(len + 2);
	if (!ks->syms || !ks->order || !ks->names) {
		big_free(ks->syms, lines * sizeof(*ks->syms));
		big_free(ks->order, lines * sizeof(*ks->order));
		big_free(ks->names, len + 2);
		free(ks);
		return NULL;
	}
	ks->names[0] = '\0';
	ks->names_len = 1;
	each_line(text, add_line, ks);
	sort_order(ks->syms, ks->order, ks->count);
	return ks;
}

/* The symbol at place @i of the address order. */
static const struct ksym *sorted(const struct ns_ksyms *ks, size_t i)
{
	return &ks->syms[ks->order[i]];
}

/* Whether the symbol at @i matches @addr, as libtraceevent's comparison says. */
static int ksym_match(const struct ns_ksyms *ks, size_t i, unsigned long long addr)
{
	unsigned long long at = sorted(ks, i)->addr;
	unsigned long long next = i + 1 < ks->count ? sorted(ks, i + 1)->addr : 0;

	if (addr == at || (addr > at && addr < next))
		return 0;
	return addr < at ? -1 : 1;
}

/* The symbol that libtraceevent's lookup finds for @addr, or NULL. */
static const struct ksym *ksym_find(const struct ns_ksyms *ks, unsigned long long addr)
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
			return sorted(ks, i);
	}
	return NULL;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct ns_ksyms *ks = priv;
	const struct ksym *sym = ksym_find(ks, *addrp);

	if (!sym)
		return NULL;
	*addrp = sym->addr;
	*modp = sym->mod ? ks->names + sym->mod : NULL;
	return ks->names + sym->name;
}

/* The symbols of @kallsyms, new ones if no handle had them; NULL if out of memory. */
static struct ns_ksyms *text_entry(const char *kallsyms)
{
	struct ns_ksyms *ks;

	pthread_mutex_lock(&texts_lock);
	for (ks = texts; ks; ks = ks->next)
		if (same_syms(ks, kallsyms))
			break;
	if (!ks && (ks = build(kallsyms))) {
		ks->next = texts;
		texts = ks;
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
	if (NS_GROW(nm->names, nm->cap, nm->count + 1))
		return;
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
	struct ksyms_tep *next;		/* in ns_ksyms.teps: kept, as the symbols are */
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
	/* in libtraceevent's sorted order: by address, equal ones last line first */
	for (i = 0; i < ks->count; i++) {
		const struct ksym *sym = sorted(ks, i);

		name = ks->names + sym->name;
		if (!first[(unsigned char)name[0]])
			continue;
		for (j = 0; j < nm->count; j++) {
			if (strcmp(name, nm->names[j]))
				continue;
			if (!last[j] || sym > last[j])	/* syms are in their lines' order */
				last[j] = sym;
			if (!lowest[j])
				lowest[j] = sym;
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
	pthread_mutex_lock(&texts_lock);
	kt->next = ks->teps;
	ks->teps = kt;
	pthread_mutex_unlock(&texts_lock);
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
 * handle, right after the open, before anything prints. Which operands are
 * looked up by name shows only when an event prints, so every word among
 * them is tried ("true" : "false" too): most name no symbol.
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
	if (nm.count)
		register_named(tep, ks, &nm);
	free(nm.names);
}

/* Called at every open, so that the linker keeps this file in every program. */
void ns_trace_kallsyms_keep(void)
{
}
