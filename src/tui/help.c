// SPDX-License-Identifier: GPL-2.0-only
/*
 * The help overlay: every key of the action table, pane by pane, drawn
 * over the graph, bar and list (the status line stays). Its lines come
 * from the same walk over actions.h as the man page's KEYS section, then
 * what the mouse does and what the glyphs mean, then the : commands from
 * their table (commands.c). Every line is wrapped between words at the
 * screen's width, a key's help under its own column (under the keys below
 * 48 columns), so that no word is lost at any width (tests/popups.sh). It
 * is a modal layer (layers.c): its own keys ([keys.help]) scroll it,
 * anything else closes it.
 */
#include <stdio.h>
#include <string.h>

#include "nurseshark/model_tasks.h"
#include "tui-int.h"
#include "prompt.h"

#define NS_TUI_HELP_KEYS_W	26	/* the keys' column */

static const char *const help_tail[] = {
	"",
	"Mouse (where the terminal reports it)",
	"  Click an event in the list or a column of a CPU row to select it;",
	"  the wheel zooms the graph and scrolls the list; dragging across the",
	"  graph zooms to the columns dragged over.",
	"",
	"Graph: %lc events recorded  %lc a task ran  %lc idle  %lc markers A, B, selection",
	"  %lc events lost there, on CPU rows (next-drop, prev-drop select them)",
	"Task rows (R, the task picker) follow the CPU rows; a column shows the first",
	"  state the task was in, in this order:",
	NULL,	/* the legend of the task states, from their table */
	"",
	"Search (/ forward, ? backward, n and N repeat; Esc cancels a long one)",
	"  /TEXT         the line, as trace-cmd report prints it, contains TEXT",
	"  /COLUMN OP TEXT, no blanks: COLUMN task pid cpu event info stream any,",
	"                OP : contains  = is  ! does not contain  ~ regex (grep -E)",
	"  Examples      /task=gzip  /pid=15974  /info~] D ==>  /event!sched",
};


/* One pass over the help's lines: counts them, and draws those on screen. */
struct help_pass {
	const struct ns_tui *t;
	WINDOW *win;		/* NULL: only count */
	int width, top, rows;
	int line;
};

static void put_line(struct help_pass *p, const char *text, int role)
{
	int y = p->line - p->top + 1;	/* row 0: the title */

	if (p->win && y >= 1 && y <= p->rows)
		ns_tui_put_text(p->win, &p->t->glyphs, y, 0, p->width, text, 0,
				p->t->theme.attr[role]);
	p->line++;
}

/* Screen columns of the first @n bytes of @s (UTF-8: each glyph here is one column). */
static int columns(const char *s, int n)
{
	int i, c = 0;

	for (i = 0; i < n && s[i]; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Bytes of @s that fill at most @cols columns. */
static int bytes_for(const char *s, int cols)
{
	int i = 0, c = 0;

	while (s[i] && (c < cols || ((unsigned char)s[i] & 0xc0) == 0x80)) {
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
		i++;
	}
	return i;
}

/*
 * A line of the help, wrapped at the screen's width between words: the
 * lines it continues on are indented by @indent columns (-1: by its own
 * leading blanks and two more), so that no word is lost at any width.
 */
static void line_at(struct help_pass *p, const char *text, int indent, int role)
{
	char buf[1024];
	int lead = (int)strspn(text, " "), first = 1;

	if (indent < 0)
		indent = lead + 2;
	/* at least 20 columns of text on a continued line */
	if (indent > p->width - 20)
		indent = p->width > 24 ? p->width - 20 : 4;
	if (p->width <= 0) {	/* the layout is not there yet: count one line each */
		put_line(p, text, role);
		return;
	}
	while (first || *text) {
		int pad = first ? 0 : indent, w = p->width - pad, n = (int)strlen(text), cut = n;

		if (w < 1)
			w = 1;
		if (columns(text, n) > w) {
			int max = bytes_for(text, w);

			/* the last blank that fits (not the leading ones), else a hard cut */
			for (cut = max; cut > (first ? lead : 0) && text[cut] != ' '; cut--)
				;
			if (cut <= (first ? lead : 0))
				cut = max;
		}
		snprintf(buf, sizeof(buf), "%*s%.*s", pad, "", cut, text);
		put_line(p, buf, role);
		text += cut;
		while (*text == ' ')
			text++;
		first = 0;
	}
}

static void line(struct help_pass *p, const char *text, int indent, int role)
{
	line_at(p, text, -1, role);
}

/*
 * The keys, then the help beside them, wrapped under its own column; where
 * the screen is too narrow for that column and 20 more (or the keys are
 * wider than it), the keys on a line of their own and the help under them.
 */
static void entry(struct help_pass *p, const char *keys, const char *help)
{
	char buf[1024];
	int kw = NS_TUI_HELP_KEYS_W;

	if ((int)strlen(keys) >= kw || p->width < 2 + kw + 20) {
		snprintf(buf, sizeof(buf), "  %s", keys);
		line_at(p, buf, 4, NS_ROLE_HELP);
		if (p->width < 2 + kw + 20)
			kw = 4;
		snprintf(buf, sizeof(buf), "%*s%s", 2 + kw, "", help);
	} else {
		snprintf(buf, sizeof(buf), "  %-*s%s", kw, keys, help);
	}
	line_at(p, buf, 2 + kw, NS_ROLE_HELP);
}

static void emit(void *arg, int scope, const char *keys, enum ns_tui_action act)
{
	struct help_pass *p = arg;

	if (!keys) {
		if (scope)
			line(p, "", 0, NS_ROLE_HELP);
		line(p, ns_tui_scope_title[scope], 0, NS_ROLE_HELP_TITLE);
		return;
	}
	entry(p, keys, ns_tui_actions[act].help);
}

/* "  = running (coloured by CPU)  % runnable after a wakeup ...", wrapped, from the table */
static void legend(struct help_pass *p)
{
	char buf[160];
	int st, n = 0, w = p->width - 1 < (int)sizeof(buf) - 1 ? p->width - 1 : (int)sizeof(buf) - 1;

	for (st = 0; st < NS_TRS_UNKNOWN; st++) {
		char item[96];
		int len;

		len = snprintf(item, sizeof(item), "%lc %s",
			       (wint_t)ns_tui_task_state_glyph(&p->t->glyphs, st),
			       ns_tui_task_states[st].legend);
		/* a line ends where the screen (or buf) does */
		if (n && n + 2 + len > w) {
			line(p, buf, 0, NS_ROLE_HELP);
			n = 0;
		}
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "    ", item);
	}
	if (n)
		line(p, buf, 0, NS_ROLE_HELP);
}

static void walk(struct help_pass *p)
{
	char buf[160];
	size_t i;

	ns_tui_walk_keymap(&p->t->keymap, emit, p);
	for (i = 0; i < NS_ARRAY_SIZE(help_tail); i++) {
		const struct ns_tui_glyphs *g = &p->t->glyphs;

		if (!help_tail[i]) {
			legend(p);
			continue;
		}
		if (strstr(help_tail[i], "events lost"))
			snprintf(buf, sizeof(buf), help_tail[i], (wint_t)g->drop);
		else
			snprintf(buf, sizeof(buf), help_tail[i], (wint_t)g->events,
				 (wint_t)g->running, (wint_t)g->idle, (wint_t)g->vline);
		line(p, buf, 0, NS_ROLE_HELP);
	}
	line(p, "", 0, NS_ROLE_HELP);
	line(p, "Commands (: then Enter; Up/Down: history; Tab completes a name; "
	     "Ctrl-Left, Ctrl-Right: by a word)", 0,
	     NS_ROLE_HELP_TITLE);
	for (i = 0; i < (size_t)ns_tui_nr_commands; i++) {
		const struct ns_tui_command *c = &ns_tui_commands[i];

		snprintf(buf, sizeof(buf), "%s%s%s%s%s", c->name, c->alias ? "|" : "",
			 c->alias ? c->alias : "", c->args[0] ? " " : "", c->args);
		entry(p, buf, c->help);
	}
}

int ns_tui_help_nr_lines(const struct ns_tui *t)
{
	struct help_pass p = { .t = t, .width = t->lay.cols };

	walk(&p);
	return p.line;
}

/* The help's body has this many rows on the current screen. */
static int help_rows(const struct ns_tui *t)
{
	return t->lay.rows - 2;	/* all but the title and the status line */
}

static void draw(struct ns_tui *t, void *unused)
{
	struct help_pass p = { .t = t, .width = t->lay.cols, .top = t->help_top };
	int nr_lines = ns_tui_help_nr_lines(t), last;
	char title[128];

	p.rows = help_rows(t);
	last = t->help_top + p.rows < nr_lines ? t->help_top + p.rows : nr_lines;
	p.win = newwin(t->lay.rows - 1, t->lay.cols, 0, 0);
	if (!p.win)
		return;
	leaveok(p.win, TRUE);
	snprintf(title, sizeof(title), "nurseshark keys (lines %d-%d of %d)", t->help_top + 1,
		 last, nr_lines);
	ns_tui_put_text(p.win, &t->glyphs, 0, 0, t->lay.cols, title, 0,
			t->theme.attr[NS_ROLE_HELP_TITLE]);
	walk(&p);
	wnoutrefresh(p.win);
	delwin(p.win);
}

static const struct ns_tui_layer_ops help_layer;

/* The last first line: the end of the help at the bottom of the screen. */
static int last_top(const struct ns_tui *t)
{
	int last = ns_tui_help_nr_lines(t) - help_rows(t);

	return last > 0 ? last : 0;
}

static void scroll_to(struct ns_tui *t, int top)
{
	int last = last_top(t);

	t->help_top = top > last ? last : top < 0 ? 0 : top;
}

/* help-up, help-down */
void ns_tui_help_scroll(struct ns_tui *t, int lines)
{
	scroll_to(t, t->help_top + lines);
}

/* help-page-up, help-page-down */
void ns_tui_help_page(struct ns_tui *t, int dir)
{
	scroll_to(t, t->help_top + dir * help_rows(t));
}

/* help-top, help-bottom */
void ns_tui_help_end(struct ns_tui *t, int dir)
{
	scroll_to(t, dir < 0 ? 0 : last_top(t));
}

/* The help's own keys ([keys.help]) scroll it; any other key closes it. */
static int key(struct ns_tui *t, void *unused, int key)
{
	enum ns_tui_action act = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_HELP, key);

	if (act != NS_ACT_NONE)
		ns_tui_actions[act].run(t, ns_tui_actions[act].arg);
	else if (!t->keymap.nr_pending)
		ns_tui_layer_pop(t, &help_layer);
	return 1;
}

/* The wheel scrolls, a click closes. */
static int mouse(struct ns_tui *t, void *state, const struct ns_tui_input *in)
{
	if (in->kind == NS_IN_WHEEL_UP || in->kind == NS_IN_WHEEL_DOWN)
		ns_tui_help_scroll(t, in->kind == NS_IN_WHEEL_UP ? -1 : 1);
	else if (in->kind == NS_IN_PRESS)
		ns_tui_layer_pop(t, &help_layer);
	return 1;
}

static const struct ns_tui_layer_ops help_layer = {
	.name = "help",
	.modal = 1,
	.key = key,
	.mouse = mouse,
	.draw = draw,
};

/* help: the overlay, from its first line */
void ns_tui_help_open(struct ns_tui *t, int unused)
{
	t->help_top = 0;
	if (ns_tui_layer_push(t, &help_layer, NULL))
		ns_tui_message(t, "Too many overlays open");
}

int ns_tui_help_shown(const struct ns_tui *t)
{
	return ns_tui_layer_shown(t, &help_layer);
}
