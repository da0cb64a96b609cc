// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys: the --keys syntax, the key map built from the action table, and
 * the walk over that table that both the help overlay and the man page's
 * KEYS section print.
 *
 * The --keys syntax is vim's: a character stands for itself, and <Name>
 * for a key that has no character:
 *   <Tab> <S-Tab> <Enter> <Esc> <Space> <BS> <Del> <Up> <Down> <Left>
 *   <Right> <S-Left> <S-Right> <S-Up> <S-Down> <C-Left> <C-Right> <C-Up>
 *   <C-Down> <PageUp> <PageDown> <Home> <End> <F1>..<F12>
 *   <C-x> (Ctrl-x) <lt> (a literal "<")
 * and, for tests, mouse and terminal events at 0-based screen cells:
 *   <Press:X,Y> <Release:X,Y> <Click:X,Y> <WheelUp:X,Y> <WheelDown:X,Y>
 *   <Resize:COLSxROWS>
 * Example: "jjja<Tab>llb" selects the fourth event, sets marker A, moves
 * to the graph, moves its cursor two columns right and sets marker B.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui-int.h"

const char *const ns_tui_scope_title[NS_NR_SCOPES] = {
	[NS_SCOPE_ANY] = "In both panes",
	[NS_SCOPE_LIST] = "In the list (the focus at start)",
	[NS_SCOPE_GRAPH] = "In the graph (Tab moves the focus there)",
	[NS_SCOPE_PICKER] = "In the pickers (other keys type into the text that narrows the list)",
	[NS_SCOPE_HELP] = "In this help (any other key closes it)",
	[NS_SCOPE_STATS] = "In the statistics (S; other keys do nothing)",
	[NS_SCOPE_RECORD] = "In the Record screen (:record, ^R; other keys type into the field "
			    "or the find text)",
	[NS_SCOPE_JOB] = "While a filter pass or a search runs (its progress over the status "
			 "line; other keys do nothing)",
};

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Tab", '\t' }, { "S-Tab", KEY_BTAB }, { "Enter", '\n' }, { "CR", '\n' },
	{ "Return", '\n' }, { "Esc", 27 }, { "Space", ' ' }, { "BS", KEY_BACKSPACE },
	{ "Del", KEY_DC }, { "Insert", KEY_IC }, { "Up", KEY_UP }, { "Down", KEY_DOWN },
	{ "Left", KEY_LEFT }, { "Right", KEY_RIGHT }, { "S-Left", KEY_SLEFT },
	{ "S-Right", KEY_SRIGHT }, { "S-Up", KEY_SR }, { "S-Down", KEY_SF },
	{ "C-Left", NS_KEY_C_LEFT }, { "C-Right", NS_KEY_C_RIGHT }, { "C-Up", NS_KEY_C_UP },
	{ "C-Down", NS_KEY_C_DOWN }, { "PageUp", KEY_PPAGE }, { "PgUp", KEY_PPAGE },
	{ "PageDown", KEY_NPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME },
	{ "End", KEY_END }, { "lt", '<' },
};

/**
 * ns_tui_key_name - @key in the --keys syntax: "a", "<C-w>", "<PageUp>"
 */
void ns_tui_key_name(int key, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(key_names); i++) {
		if (key_names[i].key == key) {
			snprintf(buf, len, "<%s>", key_names[i].name);
			return;
		}
	}
	if (key >= 1 && key <= 26)
		snprintf(buf, len, "<C-%c>", 'a' + key - 1);
	else if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, len, "<F%d>", key - KEY_F(0));
	else if (key == '<')
		snprintf(buf, len, "<lt>");
	else if (key > ' ' && key < 127)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "<%d>", key);
}

static const struct {
	const char *name;
	int kind;
} mouse_names[] = {
	{ "Press", NS_IN_PRESS }, { "Release", NS_IN_RELEASE }, { "Click", NS_IN_PRESS },
	{ "WheelUp", NS_IN_WHEEL_UP }, { "WheelDown", NS_IN_WHEEL_DOWN },
};

static int parse_name(const char *name, size_t len, struct ns_tui_input in[2],
		      char *err, size_t err_len)
{
	char buf[32];
	const char *arg;
	size_t i;
	int a, b, n;

	if (len >= sizeof(buf))
		goto bad;
	memcpy(buf, name, len);
	buf[len] = '\0';
	memset(in, 0, 2 * sizeof(*in));

	for (i = 0; i < NS_ARRAY_SIZE(key_names); i++) {
		if (!strcasecmp(buf, key_names[i].name)) {
			in[0].key = key_names[i].key;
			return 1;
		}
	}
	if ((buf[0] == 'F' || buf[0] == 'f') && sscanf(buf + 1, "%d%n", &a, &n) == 1 &&
	    !buf[1 + n] && a >= 1 && a <= 12) {
		in[0].key = KEY_F(a);
		return 1;
	}
	if ((buf[0] == 'C' || buf[0] == 'c') && buf[1] == '-' && buf[2] && !buf[3] &&
	    buf[2] >= '@' && buf[2] <= 'z') {
		in[0].key = toupper((unsigned char)buf[2]) & 0x1f;
		return 1;
	}
	arg = strchr(buf, ':');
	if (!arg)
		goto bad;
	if (!strncasecmp(buf, "Resize:", 7)) {
		if (sscanf(arg + 1, "%dx%d%n", &a, &b, &n) != 2 || arg[1 + n] || a < 1 || b < 1 ||
		    a > 1000 || b > 1000)
			goto bad;
		in[0].kind = NS_IN_RESIZE;
		in[0].x = a;
		in[0].y = b;
		return 1;
	}
	for (i = 0; i < NS_ARRAY_SIZE(mouse_names); i++) {
		size_t nl = strlen(mouse_names[i].name);

		if (nl != (size_t)(arg - buf) || strncasecmp(buf, mouse_names[i].name, nl))
			continue;
		if (sscanf(arg + 1, "%d,%d%n", &a, &b, &n) != 2 || arg[1 + n] || a < 0 || b < 0)
			goto bad;
		in[0].kind = mouse_names[i].kind;
		in[0].x = a;
		in[0].y = b;
		if (strcasecmp(mouse_names[i].name, "Click"))
			return 1;
		in[1] = in[0];
		in[1].kind = NS_IN_RELEASE;
		return 2;
	}
bad:
	snprintf(err, err_len, "unknown key <%.*s> (write <lt> for a literal '<')",
		 (int)(len < 40 ? len : 40), name);
	return -EINVAL;
}

int ns_tui_parse_input(const char **s, struct ns_tui_input in[2], char *err, size_t err_len)
{
	const char *p = *s, *end;

	if (!*p)
		return 0;
	if (*p != '<') {
		memset(in, 0, sizeof(*in));
		in[0].key = (unsigned char)*p;
		*s = p + 1;
		return 1;
	}
	end = strchr(p, '>');
	if (!end || end == p + 1) {
		snprintf(err, err_len, "a '<' that starts no <Key> (write <lt> for a literal '<')");
		return -EINVAL;
	}
	*s = end + 1;
	return parse_name(p + 1, end - p - 1, in, err, err_len);
}

int ns_tui_check_keys(const char *keys, char *err, size_t err_len)
{
	struct ns_tui_input in[2];
	int n;

	while ((n = ns_tui_parse_input(&keys, in, err, err_len)) > 0)
		;
	return n;
}

/* Add the bindings of one "keys" field of the action table. */
static int add_bindings(struct ns_tui_keymap *km, int scope, const char *keys,
			enum ns_tui_action act)
{
	const char *p = keys;
	char err[128];

	while (*p) {
		struct ns_tui_binding *b;
		struct ns_tui_input in[2];

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (km->nr == NS_TUI_MAX_BINDINGS)
			return -ENOSPC;
		b = &km->b[km->nr];
		memset(b, 0, sizeof(*b));
		b->scope = scope;
		b->action = act;
		while (*p && *p != ' ') {
			if (ns_tui_parse_input(&p, in, err, sizeof(err)) != 1 ||
			    in[0].kind != NS_IN_KEY || b->nr_keys == NS_TUI_MAX_SEQ)
				return -EINVAL;
			b->keys[b->nr_keys++] = in[0].key;
		}
		km->nr++;
	}
	return 0;
}

int ns_tui_keymap_build(struct ns_tui_keymap *km)
{
	int act, scope, ret;

	km->nr = 0;
	km->nr_pending = 0;
	for (act = 0; act < NS_NR_ACTIONS; act++) {
		for (scope = 0; scope < NS_NR_SCOPES; scope++) {
			ret = add_bindings(km, scope, km->text[act][scope], act);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int ns_tui_keymap_init(struct ns_tui_keymap *km)
{
	int act, scope;

	memset(km, 0, sizeof(*km));
	for (act = 0; act < NS_NR_ACTIONS; act++) {
		for (scope = 0; scope < NS_NR_SCOPES; scope++)
			snprintf(km->text[act][scope], NS_TUI_KEYS_TEXT, "%s",
				 ns_tui_actions[act].keys[scope]);
	}
	return ns_tui_keymap_build(km);
}

/* The keys of one word ("'a": two); 0 when it does not parse. */
static int word_keys(const char *w, size_t len, int keys[NS_TUI_MAX_SEQ])
{
	char buf[NS_TUI_KEYS_TEXT], err[128];
	const char *p = buf;
	struct ns_tui_input in[2];
	int n = 0;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, w, len);
	buf[len] = '\0';
	while (*p) {
		if (ns_tui_parse_input(&p, in, err, sizeof(err)) != 1 || n == NS_TUI_MAX_SEQ)
			return 0;
		keys[n++] = in[0].key;
	}
	return n;
}

/* Take the words of @keys out of @text, which belongs to another action. */
static int strip_keys(char *text, const char *keys)
{
	char out[NS_TUI_KEYS_TEXT] = "";
	const char *w = text, *k;
	int a[NS_TUI_MAX_SEQ], b[NS_TUI_MAX_SEQ], na, nb, taken = 0, hit;
	size_t wl, kl;

	for (; *w; w += wl) {
		while (*w == ' ')
			w++;
		wl = strcspn(w, " ");
		if (!wl)
			break;
		na = word_keys(w, wl, a);
		hit = 0;
		for (k = keys; *k && !hit; k += kl) {
			while (*k == ' ' || *k == '\t')
				k++;
			kl = strcspn(k, " \t");
			nb = word_keys(k, kl, b);
			hit = na && na == nb && !memcmp(a, b, na * sizeof(int));
		}
		if (hit) {
			taken = 1;
			continue;
		}
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%.*s", out[0] ? " " : "",
			 (int)wl, w);
	}
	strcpy(text, out);
	return taken;
}

int ns_tui_keymap_bind(struct ns_tui_keymap *km, int scope, enum ns_tui_action act,
		       const char *keys, unsigned char *taken)
{
	int a, s;

	if (strlen(keys) >= NS_TUI_KEYS_TEXT || act < 0 || act >= NS_NR_ACTIONS || scope < 0 ||
	    scope >= NS_NR_SCOPES || !(ns_tui_actions[act].scopes & (1u << scope)))
		return -EINVAL;
	for (a = 0; a < NS_NR_ACTIONS; a++) {
		for (s = 0; s < NS_NR_SCOPES; s++) {
			/* [keys] takes a key from both panes, never from an overlay */
			if ((a == (int)act && s == scope) ||
			    (s != scope && (scope != NS_SCOPE_ANY || s >= NS_TUI_PANE_SCOPES)))
				continue;
			if (strip_keys(km->text[a][s], keys) && taken && a != (int)act)
				taken[a] = 1;
		}
	}
	/* one blank between words, as the table writes them */
	for (s = 0; *keys; keys++) {
		if (*keys != ' ' && *keys != '\t')
			km->text[act][scope][s++] = *keys;
		else if (s && keys[1] != ' ' && keys[1] != '\t' && keys[1])
			km->text[act][scope][s++] = ' ';
	}
	km->text[act][scope][s] = '\0';
	return 0;
}

/* A binding of @scope whose keys start with the pending ones; exact or longer. */
static const struct ns_tui_binding *match(const struct ns_tui_keymap *km, int scope, int exact)
{
	int i;

	for (i = 0; i < km->nr; i++) {
		const struct ns_tui_binding *b = &km->b[i];

		if (b->scope != scope)
			continue;
		if (exact ? b->nr_keys != km->nr_pending : b->nr_keys <= km->nr_pending)
			continue;
		if (!memcmp(b->keys, km->pending, km->nr_pending * sizeof(int)))
			return b;
	}
	return NULL;
}

enum ns_tui_action ns_tui_keymap_feed(struct ns_tui_keymap *km, int scope, int key)
{
	const struct ns_tui_binding *b;
	int had_prefix = km->nr_pending > 0;

	km->pending[km->nr_pending++] = key;
	/* the focused pane's own keys first, then the keys of both panes (not in an overlay) */
	b = match(km, scope, 1);
	if (!b && scope < NS_TUI_PANE_SCOPES)
		b = match(km, NS_SCOPE_ANY, 1);
	if (b) {
		km->nr_pending = 0;
		return b->action;
	}
	if (km->nr_pending < NS_TUI_MAX_SEQ &&
	    (match(km, scope, 0) || (scope < NS_TUI_PANE_SCOPES && match(km, NS_SCOPE_ANY, 0))))
		return NS_ACT_NONE;
	km->nr_pending = 0;
	/* a broken sequence: the last key may still mean something alone */
	return had_prefix ? ns_tui_keymap_feed(km, scope, key) : NS_ACT_NONE;
}

void ns_tui_walk_keymap(const struct ns_tui_keymap *km,
			void (*emit)(void *arg, int scope, const char *keys,
				     enum ns_tui_action act), void *arg)
{
	int scope, act;

	for (scope = 0; scope < NS_NR_SCOPES; scope++) {
		emit(arg, scope, NULL, NS_ACT_NONE);
		for (act = 0; act < NS_NR_ACTIONS; act++) {
			const char *keys = km ? km->text[act][scope] : ns_tui_actions[act].keys[scope];

			if (keys[0])
				emit(arg, scope, keys, act);
		}
	}
}

void ns_tui_walk_keys(void (*emit)(void *arg, int scope, const char *keys,
				   enum ns_tui_action act), void *arg)
{
	ns_tui_walk_keymap(NULL, emit, arg);
}

/* Text for roff: no character of a key may be taken for a request or an escape. */
static void roff_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '"')
			fputs("\\(dq", out);
		else if (*s == '`')
			fputs("\\(ga", out);
		else if (*s == '\'')
			fputs("\\(aq", out);
		else
			fputc(*s, out);
	}
}

/* roff: the keys in bold, the help, and the action's name for a config file. */
static void emit_roff(void *arg, int scope, const char *keys, enum ns_tui_action act)
{
	FILE *out = arg;

	if (!keys) {
		fprintf(out, ".SS \"%s\"\n", ns_tui_scope_title[scope]);
		return;
	}
	fputs(".TP\n.B \"", out);
	roff_escape(out, keys);
	fprintf(out, "\"\n%s.\n(\\fI", ns_tui_actions[act].help);
	roff_escape(out, ns_tui_actions[act].name);
	fputs("\\fP)\n", out);
}

void ns_tui_print_keys_table(FILE *out)
{
	fputs(".\\\" generated by `nurseshark --keys-table` from src/tui/actions.h\n", out);
	ns_tui_walk_keys(emit_roff, out);
}
