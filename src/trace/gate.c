// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which events' text could hold a search's text, known from their formats
 * alone: a search of the info or of the whole line skips reading and
 * printing the events whose text cannot hold it (ns_trace_line_gate()).
 *
 * libtraceevent prints an event's info from its print format: the literal
 * text, and at each conversion a number (%d %u %i %x %X %o with their
 * flags, width and length) or anything else (%s, %p and its kinds, what it
 * does not know). Read as a pattern, the format says what the info can be:
 * its literal characters, a number as any run of [0-9a-fA-FxX +-], and
 * anything else as any run at all. Escapes (\n and the like) are any run
 * too, and so is whatever follows an unknown conversion up to its letter:
 * libtraceevent's versions differ there, and a wider pattern only sends
 * more events to the printer. An event that a plugin prints (a handler),
 * a bprint, a raw print, a function entry or exit, and a format that
 * libtraceevent failed to parse may print anything.
 *
 * Whether the text can occur in a string the pattern matches is a run of
 * an automaton over the pattern's positions (a bit each), once per event
 * type and search: "inside" (the text within the info), and for each k,
 * whether the text's tail from k can begin the info (the text across the
 * line's head and its info). Matching ignores case when the search does,
 * as strcasestr() does, byte by byte.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

enum { G_LIT, G_NUM, G_ANY };

struct g_item {
	uint8_t kind, c;
};

/* longer formats are taken as "anything" */
#define G_MAX_ITEMS	2048
#define G_MAX_TYPES	(1 << 16)
#define G_MAX_TEXT	256

struct g_type {
	const char *name;	/* the event's, copied after pre[]: a recycle frees the
				 * handle's; NULL: unknown */
	bool any;		/* the info may be anything */
	bool inside;		/* the text may be within the info */
	uint64_t pre[];		/* bit k: the text from k may begin the info */
};

struct g_tab {
	const struct ns_trace *trace;
	struct g_type **types;	/* by event type, built on first use */
	size_t nr_types;
};

struct ns_text_gate {
	char text[G_MAX_TEXT];
	size_t len;
	bool icase;
	struct g_tab *tabs;	/* one per file (a trace of several files has several) */
	int nr_tabs;
};

struct ns_text_gate *ns_text_gate_new(const char *text, bool icase)
{
	struct ns_text_gate *g;
	size_t len = strlen(text);

	if (!len || len >= G_MAX_TEXT)
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	memcpy(g->text, text, len + 1);
	g->len = len;
	g->icase = icase;
	return g;
}

void ns_text_gate_free(struct ns_text_gate *g)
{
	if (!g)
		return;
	for (int t = 0; t < g->nr_tabs; t++) {
		for (size_t i = 0; i < g->tabs[t].nr_types; i++)
			free(g->tabs[t].types[i]);
		free(g->tabs[t].types);
	}
	free(g->tabs);
	free(g);
}

const char *ns_text_gate_text(const struct ns_text_gate *g, size_t *len)
{
	*len = g->len;
	return g->text;
}

bool ns_text_gate_icase(const struct ns_text_gate *g)
{
	return g->icase;
}

static bool is_num_char(int c)
{
	return isxdigit(c) || c == 'x' || c == 'X' || c == '-' || c == '+' || c == ' ';
}

/* a conversion's flags, width, precision and length, as any libtraceevent reads them */
static bool is_conv_mod(char c)
{
	return c && strchr("#hlLzZjtq.0123456789-+ *'", c) != NULL;
}

static int add(struct g_item *it, size_t *n, int kind, char c)
{
	if (*n >= G_MAX_ITEMS)
		return -E2BIG;
	/* two runs of anything in a row are one */
	if (kind == G_ANY && *n && it[*n - 1].kind == G_ANY)
		return 0;
	it[*n].kind = (uint8_t)kind;
	it[*n].c = (uint8_t)c;
	(*n)++;
	return 0;
}

/* The pattern of @fmt (a print format) into @it: its length, or -E2BIG. */
static ssize_t pattern_of(const char *fmt, struct g_item *it)
{
	size_t n = 0;
	int ret = 0;

	while (*fmt && !ret) {
		if (*fmt == '\\') {
			ret = add(it, &n, G_ANY, 0);
			fmt += fmt[1] ? 2 : 1;
		} else if (*fmt != '%') {
			ret = add(it, &n, G_LIT, *fmt++);
		} else if (fmt[1] == '%') {
			ret = add(it, &n, G_LIT, '%');
			fmt += 2;
		} else {
			const char *p = fmt + 1;
			bool plain = true;

			for (; is_conv_mod(*p); p++)
				if (*p == '+' || *p == ' ' || *p == '\'' || *p == 'j' ||
				    *p == 't' || *p == 'q')
					plain = false;
			if (plain && *p && strchr("duixXo", *p)) {
				ret = add(it, &n, G_NUM, 0);
				fmt = p + 1;
				continue;
			}
			ret = add(it, &n, G_ANY, 0);
			/* %p and its kinds (%pS, %pI4...): letters and digits after it */
			if (*p == 'p')
				for (p++; isalnum((unsigned char)*p); p++)
					;
			else if (isalpha((unsigned char)*p))
				p++;
			fmt = p;
		}
	}
	return ret ? ret : (ssize_t)n;
}

static bool char_eq(const struct ns_text_gate *g, unsigned char a, unsigned char b)
{
	return a == b || (g->icase && tolower(a) == tolower(b));
}

static bool item_takes(const struct ns_text_gate *g, const struct g_item *it, unsigned char c)
{
	switch (it->kind) {
	case G_LIT:
		return char_eq(g, c, it->c);
	case G_NUM:
		return is_num_char(c) || (g->icase && (is_num_char(tolower(c)) ||
						       is_num_char(toupper(c))));
	default:
		return true;
	}
}

#define BIT(s, i)	(((s)[(i) / 64] >> ((i) % 64)) & 1)
#define SET(s, i)	((s)[(i) / 64] |= 1ull << ((i) % 64))

/* Positions reachable from @s without a character: past runs, which may be empty. */
static void closure(const struct g_item *it, size_t n, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		if (it[i].kind != G_LIT && BIT(s, i))
			SET(s, i + 1);
}

/*
 * Can @text (@len bytes) be read from the positions in @s (words of bits,
 * destroyed) of the pattern @it (@n items; position n is its end)? @tmp:
 * as many words.
 */
static bool runs(const struct ns_text_gate *g, const struct g_item *it, size_t n,
		 const char *text, size_t len, uint64_t *s, uint64_t *tmp, size_t words)
{
	closure(it, n, s);
	for (size_t k = 0; k < len; k++) {
		unsigned char c = (unsigned char)text[k];
		bool alive = false;

		memset(tmp, 0, words * sizeof(*tmp));
		for (size_t i = 0; i < n; i++) {
			if (!BIT(s, i) || !item_takes(g, &it[i], c))
				continue;
			if (it[i].kind == G_LIT)
				SET(tmp, i + 1);
			else
				SET(tmp, i);
			alive = true;
		}
		if (!alive)
			return false;
		closure(it, n, tmp);
		memcpy(s, tmp, words * sizeof(*s));
	}
	return true;
}

/* Is @event's info not to be told from its format? */
static bool prints_anything(const struct tep_event *event)
{
	const int anything = TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW |
			     TEP_EVENT_FL_ISFUNCENT | TEP_EVENT_FL_ISFUNCRET;

	return !event || !event->print_fmt.format || (event->flags & anything) ||
	       (event->handler && !(event->flags & TEP_EVENT_FL_NOHANDLE));
}

/* An event's pattern and the automaton's two sets of positions over it. */
struct g_pattern {
	struct g_item *it;
	size_t n, words;
	uint64_t *s, *tmp;
};

static void pattern_free(struct g_pattern *p)
{
	free(p->it);
	free(p->s);
	free(p->tmp);
}

/* @event's pattern: 0, -ENOENT when it may print anything, or -ENOMEM. */
static int pattern_make(const struct tep_event *event, struct g_pattern *p)
{
	ssize_t n;

	memset(p, 0, sizeof(*p));
	if (prints_anything(event))
		return -ENOENT;
	p->it = malloc(G_MAX_ITEMS * sizeof(*p->it));
	if (!p->it)
		return -ENOMEM;
	n = pattern_of(event->print_fmt.format, p->it);
	if (n < 0) {
		pattern_free(p);
		return -ENOENT;
	}
	p->n = (size_t)n;
	p->words = (p->n + 1 + 63) / 64;
	p->s = calloc(p->words, sizeof(*p->s));
	p->tmp = calloc(p->words, sizeof(*p->tmp));
	if (!p->s || !p->tmp) {
		pattern_free(p);
		return -ENOMEM;
	}
	return 0;
}

/* What the text can be in the info of events printed by @event (NULL: unknown). */
static struct g_type *type_of(const struct ns_text_gate *g, const struct tep_event *event)
{
	size_t words = (g->len + 63) / 64;
	size_t nlen = event && event->name ? strlen(event->name) + 1 : 0;
	struct g_type *t = calloc(1, sizeof(*t) + words * sizeof(uint64_t) + nlen);
	struct g_pattern p;

	if (!t)
		return NULL;
	t->any = true;
	if (nlen)
		t->name = memcpy((char *)(t->pre + words), event->name, nlen);
	if (pattern_make(event, &p))
		return t;
	/* within: from every position */
	for (size_t i = 0; i <= p.n; i++)
		SET(p.s, i);
	t->inside = runs(g, p.it, p.n, g->text, g->len, p.s, p.tmp, p.words);
	/* the tail from k, from the start */
	for (size_t k = 1; k < g->len; k++) {
		memset(p.s, 0, p.words * sizeof(*p.s));
		SET(p.s, 0);
		if (runs(g, p.it, p.n, g->text + k, g->len - k, p.s, p.tmp, p.words))
			SET(t->pre, k);
	}
	t->any = false;
	pattern_free(&p);
	return t;
}

/*
 * What @g's text can be in the info of events of @type in @trace (a file's
 * trace, not several), built on first use; NULL when out of memory. The
 * caller holds trace->tep_lock (libtraceevent's lookup is not for threads).
 */
static const struct g_type *gate_type(struct ns_text_gate *g, struct ns_trace *trace, int type)
{
	struct g_tab *tab = NULL;
	int k;

	if (type < 0 || type >= G_MAX_TYPES)
		return NULL;
	for (k = 0; k < g->nr_tabs; k++)
		if (g->tabs[k].trace == trace)
			tab = &g->tabs[k];
	if (!tab) {
		struct g_tab *nt = realloc(g->tabs, (size_t)(g->nr_tabs + 1) * sizeof(*nt));

		if (!nt)
			return NULL;
		g->tabs = nt;
		tab = &g->tabs[g->nr_tabs++];
		memset(tab, 0, sizeof(*tab));
		tab->trace = trace;
	}
	if ((size_t)type >= tab->nr_types) {
		size_t nn = (size_t)type + 64 < G_MAX_TYPES ? (size_t)type + 64 : G_MAX_TYPES;
		struct g_type **nt = realloc(tab->types, nn * sizeof(*nt));

		if (!nt)
			return NULL;
		memset(nt + tab->nr_types, 0, (nn - tab->nr_types) * sizeof(*nt));
		tab->types = nt;
		tab->nr_types = nn;
	}
	if (!tab->types[type])
		tab->types[type] = type_of(g, tep_find_event(trace->tep, type));
	return tab->types[type];
}

int ns_text_gate_info(struct ns_text_gate *g, struct ns_trace *trace, int type)
{
	const struct g_type *t = gate_type(g, trace, type);

	return !t || t->any || t->inside ? NS_GATE_MAYBE : NS_GATE_NO;
}

/* Does @s end with the first @k bytes of the text? */
static bool ends_with(const struct ns_text_gate *g, const char *s, size_t len, size_t k)
{
	if (k > len)
		return false;
	return g->icase ? !strncasecmp(s + len - k, g->text, k) : !memcmp(s + len - k, g->text, k);
}

int ns_text_gate_line(struct ns_text_gate *g, struct ns_trace *trace, int type, const char *head,
		      size_t head_len)
{
	const struct g_type *t;
	bool in_head = g->icase ? strcasestr(head, g->text) != NULL : strstr(head, g->text) != NULL;

	if (in_head)
		return NS_GATE_YES;
	t = gate_type(g, trace, type);
	if (!t || t->any || t->inside)
		return NS_GATE_MAYBE;
	for (size_t k = 1; k < g->len; k++)
		if (BIT(t->pre, k) && ends_with(g, head, head_len, k))
			return NS_GATE_MAYBE;
	return NS_GATE_NO;
}

int ns_text_gate_fits(const struct tep_event *event, const char *info)
{
	static const struct ns_text_gate exact = { .icase = false };
	struct g_pattern p;
	int ret = pattern_make(event, &p);

	if (ret)
		return ret;
	SET(p.s, 0);
	ret = runs(&exact, p.it, p.n, info, strlen(info), p.s, p.tmp, p.words) && BIT(p.s, p.n);
	pattern_free(&p);
	return ret;
}

const char *ns_text_gate_event(struct ns_text_gate *g, struct ns_trace *trace, int type)
{
	const struct g_type *t = gate_type(g, trace, type);

	return t ? t->name : NULL;
}
