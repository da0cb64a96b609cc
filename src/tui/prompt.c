// SPDX-License-Identifier: GPL-2.0-only
/*
 * The prompt in the status line: / and ? for a search, : for a command, as
 * in vim and less. A line editor (Left/Right, Home/End, C-a/C-e, C-u, C-w,
 * Backspace; Backspace on an empty line closes it) with a history per kind
 * that Up and Down walk; Enter runs the line, Esc drops it. While a search
 * is typed, the right of the line says how it will be read ("task, exact"),
 * so that the syntax explains itself.
 *
 * The commands (F1 lists them too):
 *   goto TIME              the first event at or after TIME (seconds.usecs)
 *   N                      event number N (the # column)
 *   filter [-v] [-g|-l] F  add a filter in the syntax of trace-cmd report -F
 *   show|hide task|event|system|cpu WHAT [graph|list|both]
 *   cpu LIST, pid LIST, task NAME   as on the command line
 *   cpurows LIST|all       the CPU rows the graph shows
 *   tasks, events, cpus, filters    the pickers
 *   clear, where graph|list|both, help, quit
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filtering.h"
#include "picker.h"
#include "prompt.h"

void ns_tui_history_add(struct ns_tui_history *h, const char *line)
{
	char *copy;
	int i;

	if (!*line)
		return;
	/* a line typed again moves to the end */
	for (i = 0; i < h->nr; i++) {
		if (!strcmp(h->line[i], line)) {
			copy = h->line[i];
			memmove(&h->line[i], &h->line[i + 1], (h->nr - i - 1) * sizeof(char *));
			h->line[h->nr - 1] = copy;
			return;
		}
	}
	copy = strdup(line);
	if (!copy)
		return;
	if (h->nr == NS_TUI_HISTORY) {
		free(h->line[0]);
		memmove(&h->line[0], &h->line[1], (NS_TUI_HISTORY - 1) * sizeof(char *));
		h->nr--;
	}
	h->line[h->nr++] = copy;
}

void ns_tui_history_free(struct ns_tui_history *h)
{
	int i;

	for (i = 0; i < h->nr; i++)
		free(h->line[i]);
	h->nr = 0;
}

void ns_tui_prompt_free(struct ns_tui *t)
{
	if (!t->prompt)
		return;
	ns_tui_history_free(&t->prompt->history[0]);
	ns_tui_history_free(&t->prompt->history[1]);
	free(t->prompt);
	t->prompt = NULL;
}

/* search, search-backward, command: open the prompt of @kind (enum ns_tui_prompt_kind) */
void ns_tui_act_prompt(struct ns_tui *t, int kind)
{
	ns_tui_prompt_open(t, kind, "");
}

static struct ns_tui_history *history_of(struct ns_tui *t)
{
	return &t->prompt->history[t->prompt->kind == NS_PROMPT_COMMAND ? 0 : 1];
}

void ns_tui_prompt_open(struct ns_tui *t, int kind, const char *text)
{
	struct ns_tui_prompt *p = t->prompt;

	p->kind = kind;
	p->hist = 0;
	p->typed[0] = '\0';
	snprintf(p->buf, sizeof(p->buf), "%s", text);
	p->len = p->cur = (int)strlen(p->buf);
	p->hist = history_of(t)->nr;
}

static void set_line(struct ns_tui_prompt *p, const char *s)
{
	snprintf(p->buf, sizeof(p->buf), "%s", s);
	p->len = p->cur = (int)strlen(p->buf);
}

static void run_line(struct ns_tui *t)
{
	struct ns_tui_prompt *p = t->prompt;
	struct ns_search_spec spec = { 0 };
	char line[NS_TUI_PROMPT_MAX], err[256];
	int kind = p->kind;

	snprintf(line, sizeof(line), "%s", p->buf);
	ns_tui_history_add(history_of(t), line);
	p->kind = NS_PROMPT_NONE;
	if (kind == NS_PROMPT_COMMAND) {
		ns_tui_command(t, line);
		return;
	}
	if (!*line) {
		/* an empty search repeats the last one, in the new direction, as in vim */
		if (!t->flt->search) {
			ns_tui_message(t, "No previous search");
			return;
		}
		spec = *ns_search_spec(t->flt->search);
	} else if (ns_search_parse(line, &spec, err, sizeof(err))) {
		ns_tui_message(t, "%s", err);
		return;
	}
	spec.backward = kind == NS_PROMPT_SEARCH_BACK;
	ns_tui_start_search(t, &spec);
}

int ns_tui_prompt_key(struct ns_tui *t, int key)
{
	struct ns_tui_prompt *p = t->prompt;
	struct ns_tui_history *h = history_of(t);
	int i;

	switch (key) {
	case 27:
		p->kind = NS_PROMPT_NONE;
		break;
	case '\n':
		run_line(t);
		break;
	case KEY_BACKSPACE:
		if (!p->len) {
			p->kind = NS_PROMPT_NONE;
			break;
		}
		if (p->cur > 0) {
			memmove(p->buf + p->cur - 1, p->buf + p->cur, p->len - p->cur + 1);
			p->cur--;
			p->len--;
		}
		break;
	case KEY_DC:
		if (p->cur < p->len) {
			memmove(p->buf + p->cur, p->buf + p->cur + 1, p->len - p->cur);
			p->len--;
		}
		break;
	case KEY_LEFT:
		if (p->cur > 0)
			p->cur--;
		break;
	case KEY_RIGHT:
		if (p->cur < p->len)
			p->cur++;
		break;
	case KEY_HOME:
	case 'A' - 64:
		p->cur = 0;
		break;
	case KEY_END:
	case 'E' - 64:
		p->cur = p->len;
		break;
	case 'U' - 64:
		memmove(p->buf, p->buf + p->cur, p->len - p->cur + 1);
		p->len -= p->cur;
		p->cur = 0;
		break;
	case 'W' - 64:
		for (i = p->cur; i > 0 && p->buf[i - 1] == ' '; i--)
			;
		for (; i > 0 && p->buf[i - 1] != ' '; i--)
			;
		memmove(p->buf + i, p->buf + p->cur, p->len - p->cur + 1);
		p->len -= p->cur - i;
		p->cur = i;
		break;
	case KEY_UP:
	case 'P' - 64:
		if (p->hist > 0) {
			if (p->hist == h->nr)
				snprintf(p->typed, sizeof(p->typed), "%s", p->buf);
			set_line(p, h->line[--p->hist]);
		}
		break;
	case KEY_DOWN:
	case 'N' - 64:
		if (p->hist < h->nr) {
			p->hist++;
			set_line(p, p->hist == h->nr ? p->typed : h->line[p->hist]);
		}
		break;
	default:
		if (key >= 32 && key < 256 && key != 127 && p->len < (int)sizeof(p->buf) - 1) {
			memmove(p->buf + p->cur + 1, p->buf + p->cur, p->len - p->cur + 1);
			p->buf[p->cur++] = (char)key;
			p->len++;
		}
		break;
	}
	return 1;
}

void ns_tui_draw_prompt(struct ns_tui *t)
{
	struct ns_tui_prompt *p = t->prompt;
	static const char lead[] = { [NS_PROMPT_COMMAND] = ':', [NS_PROMPT_SEARCH] = '/',
				     [NS_PROMPT_SEARCH_BACK] = '?' };
	attr_t attr = t->theme.attr[NS_ROLE_NORMAL];
	int cols = t->lay.cols, rw = 0, x0 = 1, skip = 0, w;
	struct ns_search_spec spec;
	char right[128] = "", err[64];

	if (p->kind == NS_PROMPT_COMMAND) {
		snprintf(right, sizeof(right), " goto SECS | N | filter EXPR (F1) ");
	} else if (!p->len) {
		snprintf(right, sizeof(right), " TEXT or COLUMN[:=!~]TEXT (F1) ");
	} else if (!ns_search_parse(p->buf, &spec, err, sizeof(err))) {
		static const char *const mode[] = { "contains", "is", "does not contain",
						    "matches regex" };

		snprintf(right, sizeof(right), " %s %s \"%.40s\" ",
			 spec.column == NS_SEARCH_ANY ? "the line" :
			 ns_search_column_name(spec.column), mode[spec.mode], spec.text);
	}
	rw = (int)strlen(right);
	if (rw > cols / 2)
		rw = 0;
	ns_tui_fill(t->status, 0, 0, cols, attr);
	ns_tui_put_glyph(t->status, 0, 0, (wchar_t)lead[p->kind], attr | A_BOLD);
	w = cols - x0 - rw - 1;
	if (w < 1)
		w = 1;
	if (p->cur >= w)
		skip = p->cur - w + 1;
	ns_tui_put_text(t->status, &t->glyphs, 0, x0, w, p->buf, skip, attr);
	/* the cursor: a reverse-video cell */
	mvwchgat(t->status, 0, x0 + p->cur - skip, 1, A_REVERSE, 0, NULL);
	if (rw)
		ns_tui_put_text(t->status, &t->glyphs, 0, cols - rw, rw, right, 0,
				t->theme.attr[NS_ROLE_STATUS]);
}

/* ---- commands ---------------------------------------------------------------------- */

/* The next word of *s (moved past it and the blanks after). */
static char *word(char **s)
{
	char *w;

	while (**s == ' ')
		(*s)++;
	w = *s;
	while (**s && **s != ' ')
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	while (**s == ' ')
		(*s)++;
	return w;
}

static int parse_where(const char *w)
{
	if (!strcmp(w, "graph"))
		return NS_FILTER_GRAPH;
	if (!strcmp(w, "list"))
		return NS_FILTER_LIST;
	if (!strcmp(w, "both"))
		return NS_FILTER_BOTH;
	return -1;
}

/* "sched_switch" -> "sched/sched_switch"; "sched/sched_switch" stays. */
static int full_event_name(struct ns_tui *t, const char *name, char *buf, size_t len)
{
	int type;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	type = ns_trace_event_type(t->trace, NULL, name);
	if (type < 0)
		return -ENOENT;
	snprintf(buf, len, "%s/%s", ns_trace_event_system(t->trace, type), name);
	return 0;
}

/* show|hide KIND WHAT [WHERE] */
static void show_hide(struct ns_tui *t, int mode, char *rest)
{
	char *kind = word(&rest), *what = word(&rest), *where_w = word(&rest), name[256], err[128];
	struct ns_filter_entry e = { .mode = mode, .where = t->flt->where };
	int *vals = NULL, n, i, ret = 0;

	if (*where_w && (e.where = parse_where(where_w)) < 0) {
		ns_tui_message(t, "%s: want graph, list or both", where_w);
		return;
	}
	e.kind = ns_filter_kind_from_name(kind);
	if (e.kind < 0 || e.kind == NS_FILTER_ADVANCED || !*what) {
		ns_tui_message(t, "Usage: %s task|event|system|cpu WHAT [graph|list|both]",
			       mode == NS_FILTER_SHOW ? "show" : "hide");
		return;
	}
	ns_tui_filters_begin_change(t);
	if (e.kind == NS_FILTER_EVENT) {
		if (full_event_name(t, what, name, sizeof(name))) {
			ns_tui_message(t, "No event %s in this trace", what);
			return;
		}
		e.name = name;
		ret = ns_filter_set_add(t->flt->fs, &e);
	} else if (e.kind == NS_FILTER_SYSTEM) {
		e.name = what;
		ret = ns_filter_set_add(t->flt->fs, &e);
	} else {
		/* tasks by pid or by name, CPUs by list */
		if (e.kind == NS_FILTER_TASK && !isdigit((unsigned char)what[0]))
			n = ns_task_pids_by_comm(t->trace, what, &vals);
		else
			n = ns_filter_parse_list(what, &vals, err, sizeof(err));
		if (n <= 0) {
			free(vals);
			ns_tui_message(t, "%s", n == 0 ? "No task of that name" : err);
			return;
		}
		for (i = 0; i < n && !ret; i++) {
			e.value = vals[i];
			ret = ns_filter_set_add(t->flt->fs, &e);
		}
		free(vals);
	}
	if (ret)
		ns_tui_message(t, "Cannot add the filter: %s", strerror(-ret));
	ns_tui_refilter(t);
}

/* filter [-v] [-g|-l] EXPRESSION */
static void filter_cmd(struct ns_tui *t, char *rest)
{
	struct ns_filter_entry e = { .kind = NS_FILTER_ADVANCED, .mode = NS_FILTER_SHOW,
				     .where = NS_FILTER_BOTH };

	for (;;) {
		while (*rest == ' ')
			rest++;
		if (!strncmp(rest, "-v ", 3))
			e.mode = NS_FILTER_HIDE;
		else if (!strncmp(rest, "-g ", 3))
			e.where = NS_FILTER_GRAPH;
		else if (!strncmp(rest, "-l ", 3))
			e.where = NS_FILTER_LIST;
		else
			break;
		rest += 3;
	}
	if (!*rest) {
		ns_tui_message(t, "Usage: filter [-v] [-g|-l] EXPRESSION (as trace-cmd report -F)");
		return;
	}
	e.name = rest;
	ns_tui_filters_begin_change(t);
	if (ns_filter_set_add(t->flt->fs, &e)) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	/* a refused expression comes back with libtraceevent's message, the set as it was */
	ns_tui_refilter(t);
}

/* cpu LIST / pid LIST / task NAME, as on the command line */
static void cli_cmd(struct ns_tui *t, int kind, char *rest)
{
	struct ns_filter_args a;
	char err[512];
	int ret;

	ns_filter_args_init(&a);
	if (ns_filter_args_push(&a, kind, rest)) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	ns_tui_filters_begin_change(t);
	ret = ns_filter_args_apply(&a, t->trace, t->flt->fs, 1, err, sizeof(err));
	ns_filter_args_free(&a);
	if (ret)
		ns_tui_message(t, "%s", err);
	ns_tui_refilter(t);
}

static void cpurows_cmd(struct ns_tui *t, char *rest)
{
	int nr_cpus = ns_trace_nr_cpus(t->trace), *vals = NULL, n, i, cpu;
	char err[128];

	if (!strcmp(rest, "all")) {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			ns_filter_set_hide_cpu(t->flt->fs, cpu, 0);
	} else {
		n = ns_filter_parse_list(rest, &vals, err, sizeof(err));
		if (n < 0) {
			ns_tui_message(t, "cpurows %s", err);
			return;
		}
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			int keep = 0;

			for (i = 0; i < n; i++)
				keep |= vals[i] == cpu;
			ns_filter_set_hide_cpu(t->flt->fs, cpu, !keep);
		}
		free(vals);
	}
	ns_tui_refilter(t);
}

void ns_tui_command(struct ns_tui *t, const char *line)
{
	char buf[NS_TUI_PROMPT_MAX], *rest = buf, *cmd;
	uint64_t ts, n = ns_trace_nr_events(t->trace);
	int where;

	snprintf(buf, sizeof(buf), "%s", line);
	cmd = word(&rest);
	if (!*cmd)
		return;
	if (isdigit((unsigned char)cmd[0]) && !*rest) {
		char *end;
		unsigned long long row = strtoull(cmd, &end, 10);

		if (*end || !n) {
			ns_tui_message(t, "Not an event number: %s", cmd);
			return;
		}
		ns_view_select(&t->view, row < n ? row : n - 1);
		ns_tui_cursor_to_selection(t);
		if (t->view.selected != row)
			ns_tui_message(t, "Event %s is %s; #%llu is the nearest shown", cmd,
				       row >= n ? "past the end" : "hidden by the filters",
				       (unsigned long long)t->view.selected);
	} else if (!strcmp(cmd, "goto") || !strcmp(cmd, "g")) {
		if (ns_parse_ts(rest, &ts)) {
			ns_tui_message(t, "Usage: goto SECONDS.USECS, as the Time column");
			return;
		}
		if (ns_view_goto_ns(&t->view, ts))
			ns_tui_message(t, "The list is empty");
		else
			ns_tui_cursor_to_selection(t);
	} else if (!strcmp(cmd, "filter") || !strcmp(cmd, "F")) {
		filter_cmd(t, rest);
	} else if (!strcmp(cmd, "show") || !strcmp(cmd, "hide")) {
		show_hide(t, cmd[0] == 's' ? NS_FILTER_SHOW : NS_FILTER_HIDE, rest);
	} else if (!strcmp(cmd, "cpu")) {
		cli_cmd(t, NS_FILTER_ARG_CPUS, rest);
	} else if (!strcmp(cmd, "pid")) {
		cli_cmd(t, NS_FILTER_ARG_PIDS, rest);
	} else if (!strcmp(cmd, "task")) {
		cli_cmd(t, NS_FILTER_ARG_TASK, rest);
	} else if (!strcmp(cmd, "cpurows")) {
		cpurows_cmd(t, rest);
	} else if (!strcmp(cmd, "tasks")) {
		ns_tui_picker_open(t, NS_PICK_TASKS);
	} else if (!strcmp(cmd, "events")) {
		ns_tui_picker_open(t, NS_PICK_EVENTS);
	} else if (!strcmp(cmd, "cpus")) {
		ns_tui_picker_open(t, NS_PICK_CPUS);
	} else if (!strcmp(cmd, "filters")) {
		ns_tui_picker_open(t, NS_PICK_FILTERS);
	} else if (!strcmp(cmd, "clear") || !strcmp(cmd, "nofilter")) {
		ns_tui_clear_filters(t);
	} else if (!strcmp(cmd, "where")) {
		where = parse_where(rest);
		if (where < 0) {
			ns_tui_message(t, "Usage: where graph|list|both");
			return;
		}
		t->flt->where = where;
		ns_tui_message(t, "New filters apply to the %s", ns_tui_where_name(where));
	} else if (!strcmp(cmd, "help")) {
		ns_tui_help_open(t, 0);
	} else if (!strcmp(cmd, "q") || !strcmp(cmd, "quit")) {
		t->quit = 1;
	} else if (ns_tui_persist_command(t, cmd, rest)) {
		/* save-session, load-session, save-filters, load-filters, fresh: persist.c */
	} else {
		ns_tui_message(t, "Unknown command: %s (F1 lists the commands)", cmd);
	}
}
