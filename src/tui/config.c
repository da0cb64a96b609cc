// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.ini, the front end's side: the names a config file uses (the
 * action table's names, the colour roles' names), the check of a key
 * binding, and applying what the session layer read to the key map, the
 * theme, the glyphs and the layout. Reading the file is src/session's job;
 * this file only turns its plain data into curses attributes and bindings,
 * and reports, at the line of the file, what this terminal cannot do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/session.h"
#include "nurseshark/util.h"
#include "tui-int.h"

static const char *const action_names[NS_NR_ACTIONS] = {
#define NS_TUI_ACTION_NAME(id, name, any, list, graph, hint, help, fn, arg) [NS_ACT_##id] = name,
	NS_TUI_ACTIONS(NS_TUI_ACTION_NAME)
#undef NS_TUI_ACTION_NAME
#define NS_TUI_OVERLAY_NAME(id, name, scope, keys, legend, help, fn, arg) [NS_ACT_##id] = name,
	NS_TUI_OVERLAY_ACTIONS(NS_TUI_OVERLAY_NAME)
#undef NS_TUI_OVERLAY_NAME
};

/* Where each action may be bound: the panes' sections, or its overlay's. */
static const unsigned char action_scopes[NS_NR_ACTIONS] = {
#define NS_TUI_ACTION_SCOPES(id, name, any, list, graph, hint, help, fn, arg)	\
	[NS_ACT_##id] = NS_TUI_PANES_MASK,
	NS_TUI_ACTIONS(NS_TUI_ACTION_SCOPES)
#undef NS_TUI_ACTION_SCOPES
#define NS_TUI_OVERLAY_SCOPES(id, name, scope, keys, legend, help, fn, arg)	\
	[NS_ACT_##id] = 1u << NS_SCOPE_##scope,
	NS_TUI_OVERLAY_ACTIONS(NS_TUI_OVERLAY_SCOPES)
#undef NS_TUI_OVERLAY_SCOPES
};

_Static_assert(NS_TUI_TASK_COLOURS == 16, "name every task role below");

/*
 * The colour roles: the name [colours] gives each, and what it colours
 * (--print-config, and from it nurseshark.ini(5)). The task roles are one
 * row of help, printed before task-0.
 */
#define NS_TUI_ROLE_TABLE(X) \
	X(NORMAL, "normal", "the panes' text") \
	X(RULER, "ruler", "the time ruler's line and ticks") \
	X(RULER_LABEL, "ruler-label", "the time ruler's labels") \
	X(CPU_LABEL, "cpu-label", "the graph's row labels (CPU0, gzip-1234)") \
	X(IDLE, "idle", "an idle CPU in the graph (the events of pid 0)") \
	X(MARKER_A, "marker-a", "marker A, in the graph and the bar") \
	X(MARKER_B, "marker-b", "marker B, in the graph and the bar") \
	X(SELECTION, "selection", "the selected event's line in the graph") \
	X(CURSOR, "cursor", "the graph cursor") \
	X(LIST_HEADER, "list-header", "the list's column titles") \
	X(LIST_SELECTED, "list-selected", "the selected row of the list") \
	X(LIST_LOST, "list-lost", "a row of dropped events in the list") \
	X(BAR, "bar", "the marker bar") \
	X(BAR_ACTIVE, "bar-active", "the active marker's part of the marker bar") \
	X(STATUS, "status", "the status line") \
	X(MESSAGE, "message", "a message in the status line") \
	X(HELP, "help", "the help overlay") \
	X(HELP_TITLE, "help-title", "the help overlay's titles") \
	X(SEARCH_MATCH, "search-match", "what the last search found, in the list") \
	X(DROP, "drop", "events lost, on a CPU row of the graph") \
	X(ST_WAKEUP, "state-wakeup", "a task row: runnable after a wakeup (wakeup latency)") \
	X(ST_WAKING, "state-waking", "a task row: from sched_waking to its sched_wakeup") \
	X(ST_PREEMPTED, "state-preempted", "a task row: runnable, preempted (R, R+)") \
	X(ST_DROPPED, "state-dropped", "a task row: not known, events were lost") \
	X(ST_BLOCKED, "state-blocked", "a task row: uninterruptible (D)") \
	X(ST_SLEEPING, "state-sleeping", "a task row: sleeping (S)") \
	X(ST_IDLE, "state-idle", "a task row: idle-sleeping (I)") \
	X(ST_STOPPED, "state-stopped", "a task row: stopped, traced, parked (T, t, P)") \
	X(ST_DEAD, "state-dead", "a task row: exited (X, Z)")

#define NS_TUI_TASK_ROLES_HELP \
	"the colours of tasks in the graph (a pid always gets the same one; on a " \
	"terminal of 8 colours the defaults are the 6 colours and their bold)"

/* The colour roles by name, as [colours] writes them. */
const char *const ns_tui_role_names[NS_NR_ROLES] = {
#define NS_TUI_ROLE_NAME(id, name, help) [NS_ROLE_##id] = name,
	NS_TUI_ROLE_TABLE(NS_TUI_ROLE_NAME)
#undef NS_TUI_ROLE_NAME
	[NS_ROLE_TASK0 + 0] = "task-0", [NS_ROLE_TASK0 + 1] = "task-1",
	[NS_ROLE_TASK0 + 2] = "task-2", [NS_ROLE_TASK0 + 3] = "task-3",
	[NS_ROLE_TASK0 + 4] = "task-4", [NS_ROLE_TASK0 + 5] = "task-5",
	[NS_ROLE_TASK0 + 6] = "task-6", [NS_ROLE_TASK0 + 7] = "task-7",
	[NS_ROLE_TASK0 + 8] = "task-8", [NS_ROLE_TASK0 + 9] = "task-9",
	[NS_ROLE_TASK0 + 10] = "task-10", [NS_ROLE_TASK0 + 11] = "task-11",
	[NS_ROLE_TASK0 + 12] = "task-12", [NS_ROLE_TASK0 + 13] = "task-13",
	[NS_ROLE_TASK0 + 14] = "task-14", [NS_ROLE_TASK0 + 15] = "task-15",
};

static const char *const role_help[NS_NR_ROLES] = {
#define NS_TUI_ROLE_HELP(id, name, help) [NS_ROLE_##id] = help,
	NS_TUI_ROLE_TABLE(NS_TUI_ROLE_HELP)
#undef NS_TUI_ROLE_HELP
	[NS_ROLE_TASK0] = NS_TUI_TASK_ROLES_HELP,
};

/**
 * ns_tui_check_binding - check one action's keys as a config file gives them
 * Words separated by blanks, each one key or a sequence of up to
 * NS_TUI_MAX_SEQ keys, in the --keys syntax; no mouse or resize events.
 * Returns 0, or -EINVAL with the reason in @err.
 */
int ns_tui_check_binding(const char *keys, char *err, size_t err_len)
{
	const char *p = keys;
	struct ns_tui_input in[2];
	int n;

	while (*p) {
		const char *word;

		while (*p == ' ' || *p == '\t')
			p++;
		word = p;
		for (n = 0; *p && *p != ' ' && *p != '\t'; n++) {
			int got = ns_tui_parse_input(&p, in, err, err_len);

			if (got < 0)
				return -EINVAL;
			if (got != 1 || in[0].kind != NS_IN_KEY) {
				snprintf(err, err_len, "'%.*s' is not a key", (int)(p - word),
					 word);
				return -EINVAL;
			}
		}
		if (n > NS_TUI_MAX_SEQ) {
			snprintf(err, err_len, "'%.*s': a binding is at most %d keys in a row",
				 (int)(p - word), word, NS_TUI_MAX_SEQ);
			return -EINVAL;
		}
	}
	return 0;
}

void ns_tui_config_schema(struct ns_config_schema *schema)
{
	memset(schema, 0, sizeof(*schema));
	schema->actions = action_names;
	schema->nr_actions = NS_NR_ACTIONS;
	schema->roles = ns_tui_role_names;
	schema->nr_roles = NS_NR_ROLES;
	schema->check_keys = ns_tui_check_binding;
	schema->action_scopes = action_scopes;
}

_Static_assert((int)NS_CONFIG_KEYS_ANY == (int)NS_SCOPE_ANY &&
	       (int)NS_CONFIG_KEYS_LIST == (int)NS_SCOPE_LIST &&
	       (int)NS_CONFIG_KEYS_GRAPH == (int)NS_SCOPE_GRAPH &&
	       (int)NS_CONFIG_KEYS_PICKER == (int)NS_SCOPE_PICKER &&
	       (int)NS_CONFIG_KEYS_HELP == (int)NS_SCOPE_HELP &&
	       (int)NS_CONFIG_KEYS_STATS == (int)NS_SCOPE_STATS &&
	       (int)NS_CONFIG_KEYS_RECORD == (int)NS_SCOPE_RECORD &&
	       (int)NS_CONFIG_KEYS_JOB == (int)NS_SCOPE_JOB &&
	       (int)NS_CONFIG_NR_SCOPES == (int)NS_NR_SCOPES, "config scopes are key map scopes");

static const char *const scope_section[NS_NR_SCOPES] = {
	"keys", "keys.list", "keys.graph", "keys.picker", "keys.help", "keys.stats",
	"keys.record", "keys.job",
};

struct binding_line {
	int line, act, scope;
};

static int by_line(const void *a, const void *b)
{
	return ((const struct binding_line *)a)->line - ((const struct binding_line *)b)->line;
}

/* Say so when a sequence of the file can never be typed: its first key is bound alone. */
static void unreachable(const struct ns_tui_keymap *km, const struct ns_config *c,
			const struct binding_line *bl, struct ns_diag *d)
{
	const char *p = c->keys[bl->act][bl->scope], *word;
	struct ns_tui_input in[2];
	char err[128];
	int i, first;

	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		word = p;
		if (!*p || ns_tui_parse_input(&p, in, err, sizeof(err)) != 1)
			return;
		first = in[0].key;
		if (!*p || *p == ' ' || *p == '\t')
			continue;	/* one key: not a sequence */
		while (*p && *p != ' ' && *p != '\t')
			if (ns_tui_parse_input(&p, in, err, sizeof(err)) != 1)
				return;
		for (i = 0; i < km->nr; i++) {
			const struct ns_tui_binding *b = &km->b[i];

			/* the same scope, or [keys] against a pane's: an overlay's are apart */
			if (b->nr_keys != 1 || b->keys[0] != first ||
			    (b->scope != bl->scope &&
			     ((b->scope != NS_SCOPE_ANY && bl->scope != NS_SCOPE_ANY) ||
			      b->scope >= NS_TUI_PANE_SCOPES || bl->scope >= NS_TUI_PANE_SCOPES)))
				continue;
			ns_diag_add(d, c->path, bl->line, "%s: '%.*s' can never be typed: "
				    "its first key alone is %s", action_names[bl->act],
				    (int)(p - word), word, action_names[b->action]);
			break;
		}
	}
}

/**
 * ns_tui_config_keys - config.ini's bindings onto a key map, in the file's order
 * A key that one line of the file gives to an action and a later line to
 * another is reported at the later line (the later one counts).
 * Returns 0, or a negative errno when the key map cannot hold them all.
 */
int ns_tui_config_keys(struct ns_tui_keymap *km, const struct ns_config *c, struct ns_diag *d)
{
	struct binding_line *bl;
	unsigned char taken[NS_NR_ACTIONS];
	int set_line[NS_NR_ACTIONS][NS_NR_SCOPES];
	int nr = 0, i, a, s, ret;

	if (!c || !c->keys || c->nr_actions != NS_NR_ACTIONS)
		return 0;
	bl = calloc(NS_NR_ACTIONS * NS_NR_SCOPES, sizeof(*bl));
	if (!bl)
		return -ENOMEM;
	for (a = 0; a < NS_NR_ACTIONS; a++) {
		for (s = 0; s < NS_NR_SCOPES; s++) {
			set_line[a][s] = 0;
			if (c->keys[a][s])
				bl[nr++] = (struct binding_line){ c->keys_line[a][s], a, s };
		}
	}
	qsort(bl, nr, sizeof(*bl), by_line);
	for (i = 0; i < nr; i++) {
		const char *keys = c->keys[bl[i].act][bl[i].scope];

		memset(taken, 0, sizeof(taken));
		ret = ns_tui_keymap_bind(km, bl[i].scope, bl[i].act, keys, taken);
		if (ret) {
			ns_diag_add(d, c->path, bl[i].line, "%s: these keys cannot be bound",
				    action_names[bl[i].act]);
			continue;
		}
		set_line[bl[i].act][bl[i].scope] = bl[i].line;
		for (a = 0; a < NS_NR_ACTIONS; a++) {
			for (s = 0; taken[a] && s < NS_NR_SCOPES; s++) {
				if (!set_line[a][s] ||
				    (s != bl[i].scope && bl[i].scope != NS_SCOPE_ANY))
					continue;
				ns_diag_add(d, c->path, bl[i].line, "%s takes a key [%s] gave %s "
					    "at line %d", action_names[bl[i].act], scope_section[s],
					    action_names[a], set_line[a][s]);
			}
		}
	}
	ret = ns_tui_keymap_build(km);
	if (ret)
		ns_diag_add(d, c->path, 0, "more key bindings than the %d nurseshark holds; "
			    "the defaults are used", NS_TUI_MAX_BINDINGS);
	for (i = 0; !ret && i < nr; i++)
		unreachable(km, c, &bl[i], d);
	free(bl);
	return ret;
}

int ns_tui_config_check(const struct ns_config *c, struct ns_diag *d)
{
	struct ns_tui_keymap *km = malloc(sizeof(*km));
	int ret;

	if (!km)
		return -ENOMEM;
	ret = ns_tui_keymap_init(km);
	if (!ret)
		ret = ns_tui_config_keys(km, c, d);
	free(km);
	return ret;
}

static attr_t curses_attrs(unsigned attrs)
{
	attr_t a = A_NORMAL;

	if (attrs & NS_ATTR_BOLD)
		a |= A_BOLD;
	if (attrs & NS_ATTR_DIM)
		a |= A_DIM;
	if (attrs & NS_ATTR_UNDERLINE)
		a |= A_UNDERLINE;
	if (attrs & NS_ATTR_REVERSE)
		a |= A_REVERSE;
	if (attrs & NS_ATTR_BLINK)
		a |= A_BLINK;
	if (attrs & NS_ATTR_ITALIC)
		a |= A_ITALIC;
	return a;
}

/* [colours]: each role set in the file gets its pair and attributes, when colour is on. */
static void apply_colours(struct ns_tui *t, const struct ns_config *c, struct ns_diag *d)
{
	int role, dflt, pair;

	if (!c->colours || c->nr_roles != NS_NR_ROLES)
		return;
	dflt = has_colors() && use_default_colors() == OK;
	for (role = 0; role < NS_NR_ROLES; role++) {
		const struct ns_config_colour *col = &c->colours[role];
		short fg = col->fg, bg = col->bg;

		pair = PAIR_NUMBER(t->theme.attr[role]);
		if (!col->set || !pair)
			continue;	/* NO_COLOR, or no colours: the monochrome theme stays */
		if (fg >= COLORS || bg >= COLORS) {
			ns_diag_add(d, c->path, col->line, "%s: colour %d, but this terminal has "
				    "%d colours; left as it was", ns_tui_role_names[role],
				    fg >= COLORS ? fg : bg, COLORS);
			continue;
		}
		if (!dflt) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		init_pair(pair, fg, bg);
		t->theme.attr[role] = COLOR_PAIR(pair) | curses_attrs(col->attrs);
	}
}

/**
 * ns_tui_config_apply - config.ini on a front end just opened (screen.c)
 * @d: what this terminal cannot do, at the file's lines
 */
void ns_tui_config_apply(struct ns_tui *t, const struct ns_config *c, struct ns_diag *d)
{
	if (!c)
		return;
	t->time_nsec = c->time_format == NS_TIME_NSEC;
	t->graph_rows = c->graph_rows;
	if (c->glyphs == NS_GLYPHS_ASCII) {
		ns_tui_glyphs_set(&t->glyphs, 0);
	} else if (c->glyphs == NS_GLYPHS_UNICODE) {
		if (ns_tui_locale_utf8())
			ns_tui_glyphs_set(&t->glyphs, 1);
		else
			ns_diag_add(d, c->path, 0, "glyphs = unicode needs a UTF-8 locale "
				    "(LANG=C.UTF-8); this one is not, so ASCII is drawn");
	}
	if (!c->colour)
		ns_tui_theme_init(&t->theme, 0);
	else
		apply_colours(t, c, d);
	if (ns_tui_config_keys(&t->keymap, c, d))
		ns_tui_keymap_init(&t->keymap);
}

/* ---- --print-config: contrib/config.ini ------------------------------------ */

static void print_colour(FILE *out, short c)
{
	if (ns_config_colour_name(c))
		fputs(ns_config_colour_name(c), out);
	else if (c >= 8 && c < 16)
		fprintf(out, "bright-%s", ns_config_colour_name(c - 8));
	else
		fprintf(out, "%d", c);
}

static void print_role(FILE *out, int role)
{
	static const struct {
		attr_t a;
		const char *name;
	} attrs[] = {
		{ A_BOLD, "bold" }, { A_DIM, "dim" }, { A_UNDERLINE, "underline" },
		{ A_REVERSE, "reverse" }, { A_BLINK, "blink" }, { A_ITALIC, "italic" },
	};
	short fg, bg;
	attr_t a;
	size_t i;
	int words = 0;

	ns_tui_role_default(role, &fg, &bg, &a);
	fprintf(out, ";%s = ", ns_tui_role_names[role]);
	if (fg != -1 || bg == -1) {
		print_colour(out, fg);
		words++;
	}
	if (bg != -1) {
		fputs(words++ ? " on " : "on ", out);
		print_colour(out, bg);
	}
	for (i = 0; i < NS_ARRAY_SIZE(attrs); i++) {
		if (a & attrs[i].a)
			fprintf(out, " %s", attrs[i].name);
	}
	fputc('\n', out);
}

/* @text as comment lines of at most 78 columns: "; " and the words. */
static void print_comment(FILE *out, const char *text)
{
	const char *p = text, *end;
	int col = 0;

	while (*p) {
		while (*p == ' ')
			p++;
		for (end = p; *end && *end != ' '; end++)
			;
		if (end == p)
			break;
		if (col && col + 1 + (int)(end - p) > 78) {
			fputc('\n', out);
			col = 0;
		}
		col += fprintf(out, "%s%.*s", col ? " " : "; ", (int)(end - p), p);
		p = end;
	}
	if (col)
		fputc('\n', out);
}

/*
 * The settings of one section, from the session layer's table: a line that
 * says what the setting takes, its help, then the setting at its default.
 * contrib/gen-docs.sh reads this back into nurseshark.ini(5): keep the form.
 */
static void print_settings(FILE *out, const char *section)
{
	char syntax[128], value[64], line[200];
	int i;

	fprintf(out, "\n[%s]\n", section);
	for (i = 0; i < ns_config_nr_settings; i++) {
		const struct ns_config_setting *set = &ns_config_settings[i];

		if (strcmp(set->section, section))
			continue;
		ns_config_setting_syntax(set, syntax, sizeof(syntax));
		ns_config_setting_value(set, set->dflt, value, sizeof(value));
		snprintf(line, sizeof(line), "%s = %s", set->name, syntax);
		print_comment(out, line);
		print_comment(out, set->help);
		fprintf(out, ";%s = %s\n", set->name, value);
	}
}

/**
 * ns_tui_print_config - config.ini with every setting at its default
 * Each setting is a comment (";name = value") that takes effect once its
 * ';' is removed, after a comment that says what it takes and does;
 * contrib/config.ini is this, and `make docs` rewrites it and the settings
 * and colour roles of nurseshark.ini(5) from it.
 */
void ns_tui_print_config(FILE *out)
{
	const char *sections[8];
	int scope, act, role, i, j, nr = 0;

	fputs("; nurseshark configuration: every setting, commented out, at its default.\n"
	      "; Copy it to $XDG_CONFIG_HOME/nurseshark/config.ini (~/.config/nurseshark/)\n"
	      "; and remove the ';' in front of what you change. `nurseshark --check-config`\n"
	      "; reports what it cannot use, by line; nurseshark.ini(5) describes each one.\n"
	      "; Written by `nurseshark --print-config`.\n", out);
	/* the sections of the settings table, in its order */
	for (i = 0; i < ns_config_nr_settings; i++) {
		for (j = 0; j < nr && strcmp(sections[j], ns_config_settings[i].section); j++)
			;
		if (j == nr && nr < (int)NS_ARRAY_SIZE(sections))
			sections[nr++] = ns_config_settings[i].section;
	}
	for (i = 0; i < nr; i++)
		print_settings(out, sections[i]);
	for (scope = 0; scope < NS_NR_SCOPES; scope++) {
		fprintf(out, "\n[%s]\n", scope_section[scope]);
		if (scope == NS_SCOPE_ANY)
			fputs("; ACTION = KEYS: the keys in the syntax of --keys (a, A, <C-l>,\n"
			      "; <F1>, <Tab>, <lt> for '<', two keys in a row for a sequence:\n"
			      "; 'a), separated by blanks; they replace the action's default\n"
			      "; keys, and are taken away from any other action. Empty, or none:\n"
			      "; the action has no key. [keys] is for both panes, [keys.list]\n"
			      "; and [keys.graph] for one pane, whose keys come first there;\n"
			      "; [keys.picker], [keys.help], [keys.stats], [keys.record] and\n"
			      "; [keys.job] for the overlays' own actions.\n",
			      out);
		for (act = 0; act < NS_NR_ACTIONS; act++) {
			if (ns_tui_actions[act].keys[scope][0])
				fprintf(out, ";%s = %s\n", action_names[act],
					ns_tui_actions[act].keys[scope]);
		}
	}
	fputs("\n[colours]\n"
	      "; ROLE = [FG] [on BG] [ATTRIBUTES]: colours by name (default: the terminal's,\n"
	      "; black, red, green, yellow, blue, magenta, cyan, white, bright-NAME) or by\n"
	      "; number (0-255); attributes bold, dim, underline, reverse, blink, italic.\n"
	      "; Used when colour is on; without colour the roles are told apart by\n"
	      "; attributes alone. Each role comes after what it colours.\n", out);
	for (role = 0; role < NS_NR_ROLES; role++) {
		char line[256];

		if (role_help[role]) {
			snprintf(line, sizeof(line), "%s%s: %s", ns_tui_role_names[role],
				 role == NS_ROLE_TASK0 ? " to task-15" : "", role_help[role]);
			print_comment(out, line);
		}
		print_role(out, role);
	}
}
