// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pickers: a list over the panes of every task (pid, comm, events, CPU
 * time), every event system and event the trace has events of (with the
 * count), every CPU, every filter in force, or every stream (the buffers of
 * the file: the top one and each instance, with their CPUs and events). Typing narrows the list
 * (comm or pid, a name, a CPU number), as fzf and htop's filter do; the
 * keys that act are the picker's own table (NS_TUI_OVERLAY_ACTIONS in
 * actions.h, [keys.picker] in config.ini), by default keys that cannot be
 * typed into a name: Enter, C-o, C-x, Del, C-t, Tab, the moves, Backspace
 * and Esc. The same table makes the bottom line of each picker, the help's
 * and the man page's. Every change applies at once, as a quick filter
 * does. The picker is a modal layer (layers.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "filtering.h"
#include "picker.h"

static struct ns_tui_picker *picker_of(struct ns_tui *t)
{
	return t->picker;
}

static const struct ns_tui_layer_ops picker_layer;

/* Out of the stack: its lists go (the close op). */
static void reset(struct ns_tui *t, void *state)
{
	struct ns_tui_picker *p = state;

	free(p->items);
	free(p->shown);
	memset(p, 0, sizeof(*p));
}

void ns_tui_picker_close(struct ns_tui *t)
{
	ns_tui_layer_pop(t, &picker_layer);
}

static int push_item(struct ns_tui_picker *p, const struct ns_tui_pick_item *it)
{
	if (NS_GROW(p->items, p->cap, p->nr_items + 1))
		return -ENOMEM;
	p->items[p->nr_items++] = *it;
	return 0;
}

/* The task list, built on the first picker of tasks. */
static int tasks_load(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;
	int n;

	if (flt->tasks)
		return 0;
	n = ns_task_list_build(t->trace, &flt->tasks);
	if (n < 0)
		return n;
	flt->nr_tasks = n;
	return 0;
}

static int load_tasks(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int i, ret = tasks_load(t);

	for (i = 0; !ret && i < t->flt->nr_tasks; i++) {
		const struct ns_task_info *ti = &t->flt->tasks[i];
		struct ns_tui_pick_item it = { .kind = NS_FILTER_TASK, .value = ti->pid,
					       .count = ti->nr_events, .ns = ti->cpu_ns };

		snprintf(it.name, sizeof(it.name), "%s", ti->comm);
		ret = push_item(p, &it);
	}
	return ret;
}

static int cmp_name(const void *a, const void *b)
{
	const struct ns_tui_pick_item *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int load_events(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int nr_cpus = ns_trace_nr_cpus(t->trace), nt = ns_trace_nr_event_types(t->trace);
	uint64_t *count = calloc(65536, sizeof(*count)), n, i;
	int cpu, k, ret = 0;
	size_t first;

	if (!count)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		n = ns_trace_cpu_nr_events(t->trace, cpu);
		for (i = 0; i < n; i++)
			count[(uint16_t)ns_trace_ev_type(t->trace, cpu, i)]++;
	}
	for (k = 0; k < nt && !ret; k++) {
		int type = ns_trace_event_type_at(t->trace, k);
		struct ns_tui_pick_item it = { .kind = NS_FILTER_EVENT, .value = type };

		/* a type without a single event cannot narrow this trace down */
		if (type < 0 || type >= 65536 || !count[type])
			continue;
		snprintf(it.name, sizeof(it.name), "%s/%s", ns_trace_event_system(t->trace, type),
			 ns_trace_event_name(t->trace, type));
		it.count = count[type];
		ret = push_item(p, &it);
	}
	free(count);
	if (ret)
		return ret;
	qsort(p->items, p->nr_items, sizeof(*p->items), cmp_name);
	/* a line per system, with the sum of its events; sorted before them below */
	first = p->nr_items;
	for (k = 0; k < (int)first && !ret; k++) {
		struct ns_tui_pick_item it = { .kind = NS_FILTER_SYSTEM };
		const char *slash = strchr(p->items[k].name, '/');

		if (!slash)
			continue;
		snprintf(it.name, sizeof(it.name), "%.*s", (int)(slash - p->items[k].name),
			 p->items[k].name);
		if (p->nr_items > first && !strcmp(p->items[p->nr_items - 1].name, it.name)) {
			p->items[p->nr_items - 1].count += p->items[k].count;
			continue;
		}
		it.count = p->items[k].count;
		ret = push_item(p, &it);
	}
	/* "sched" sorts before "sched/sched_switch" */
	qsort(p->items, p->nr_items, sizeof(*p->items), cmp_name);
	return ret;
}

static int load_cpus(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int cpu, ret = 0;

	for (cpu = 0; cpu < ns_trace_nr_cpus(t->trace) && !ret; cpu++) {
		struct ns_tui_pick_item it = { .kind = NS_FILTER_CPU, .value = cpu };

		it.count = ns_trace_cpu_nr_events(t->trace, cpu);
		ns_trace_cpu_label(t->trace, cpu, it.name, sizeof(it.name));
		ret = push_item(p, &it);
	}
	return ret;
}

/* Each stream by the name its filters give it ("top", "b1"); ns: its CPUs. */
static int load_streams(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int s, cpu, first, nr, ret = 0;

	for (s = 0; s < ns_trace_nr_streams(t->trace) && !ret; s++) {
		struct ns_tui_pick_item it = { .kind = NS_FILTER_STREAM, .value = s };

		ns_filter_stream_name(t->trace, s, it.name, sizeof(it.name));
		first = ns_trace_stream_first_cpu(t->trace, s, &nr);
		it.ns = (uint64_t)nr;
		for (cpu = first; cpu < first + nr; cpu++)
			it.count += ns_trace_cpu_nr_events(t->trace, cpu);
		ret = push_item(p, &it);
	}
	return ret;
}

static int load_filters(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int n = ns_filter_set_nr_entries(t->flt->fs), i, ret = 0;
	struct ns_filter_entry e;

	p->nr_items = 0;
	for (i = 0; i < n && !ret; i++) {
		struct ns_tui_pick_item it = { .value = i };

		ns_filter_set_entry(t->flt->fs, i, &e);
		it.kind = e.kind;
		ns_tui_describe_entry(t, &e, it.name, sizeof(it.name));
		ret = push_item(p, &it);
	}
	return ret;
}

/* The order of the tasks picker's sort. */
static int cmp_shown(const void *a, const void *b, void *arg)
{
	const struct ns_tui_picker *p = arg;
	const struct ns_tui_pick_item *x = &p->items[*(const int *)a];
	const struct ns_tui_pick_item *y = &p->items[*(const int *)b];
	int c;

	switch (p->sort) {
	case 1:
		c = strcmp(x->name, y->name);
		break;
	case 2:
		c = (x->count < y->count) - (x->count > y->count);
		break;
	case 3:
		c = (x->ns < y->ns) - (x->ns > y->ns);
		break;
	default:
		c = 0;
	}
	return c ? c : (x->value > y->value) - (x->value < y->value);
}

static void narrow(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int i;
	char num[16];

	free(p->shown);
	p->shown = malloc((p->nr_items ? p->nr_items : 1) * sizeof(int));
	p->nr_shown = 0;
	if (!p->shown)
		return;
	for (i = 0; i < (int)p->nr_items; i++) {
		const struct ns_tui_pick_item *it = &p->items[i];

		snprintf(num, sizeof(num), "%d", it->value);
		if (!p->narrow[0] || strcasestr(it->name, p->narrow) ||
		    ((it->kind == NS_FILTER_TASK || it->kind == NS_FILTER_CPU) &&
		     p->kind != NS_PICK_FILTERS && strstr(num, p->narrow)))
			p->shown[p->nr_shown++] = i;
	}
	if (p->kind == NS_PICK_TASKS)
		qsort_r(p->shown, p->nr_shown, sizeof(int), cmp_shown, p);
	if (p->sel >= p->nr_shown)
		p->sel = p->nr_shown ? p->nr_shown - 1 : 0;
}

static int reload(struct ns_tui *t)
{
	struct ns_tui_picker *p = picker_of(t);
	int ret = 0;

	if (p->kind == NS_PICK_FILTERS)
		ret = load_filters(t);
	narrow(t);
	return ret;
}

void ns_tui_picker_open(struct ns_tui *t, int kind)
{
	struct ns_tui_picker *p = picker_of(t);
	int ret;

	ns_tui_picker_close(t);
	p->kind = kind;
	if (kind == NS_PICK_TASKS) {
		p->sort = 2;	/* the busiest first */
		ret = load_tasks(t);
	} else if (kind == NS_PICK_EVENTS) {
		ret = load_events(t);
	} else if (kind == NS_PICK_CPUS) {
		ret = load_cpus(t);
	} else if (kind == NS_PICK_STREAMS) {
		ret = load_streams(t);
	} else {
		ret = load_filters(t);
	}
	if (ret) {
		reset(t, p);
		ns_tui_message(t, "Out of memory");
		return;
	}
	narrow(t);
	if (ns_tui_layer_push(t, &picker_layer, p)) {
		reset(t, p);
		ns_tui_message(t, "Too many overlays open");
	}
}

/* The entry of @mode on the item, or -1. */
static int entry_of(struct ns_tui *t, const struct ns_tui_pick_item *it, int mode)
{
	int n = ns_filter_set_nr_entries(t->flt->fs), i;
	struct ns_filter_entry e;

	for (i = 0; i < n; i++) {
		ns_filter_set_entry(t->flt->fs, i, &e);
		if (e.kind != it->kind || e.mode != mode)
			continue;
		if (e.kind == NS_FILTER_TASK || e.kind == NS_FILTER_CPU ? e.value == it->value :
		    !strcmp(e.name, it->name))
			return i;
	}
	return -1;
}

static void toggle_filter(struct ns_tui *t, const struct ns_tui_pick_item *it, int mode)
{
	int i = entry_of(t, it, mode);

	if (i >= 0) {
		ns_tui_filters_begin_change(t);
		ns_filter_set_remove(t->flt->fs, i);
		ns_tui_refilter(t);
	} else {
		ns_tui_add_filter(t, it->kind, mode, it->value,
				  it->kind == NS_FILTER_EVENT || it->kind == NS_FILTER_SYSTEM ||
				  it->kind == NS_FILTER_STREAM ? it->name : NULL);
	}
}

/* Keep the selection on an item shown. */
static void clamp(struct ns_tui_picker *p)
{
	if (p->sel >= p->nr_shown)
		p->sel = p->nr_shown - 1;
	if (p->sel < 0)
		p->sel = 0;
}

/* picker-enter, picker-only, picker-hide, picker-remove: @which is the action */
void ns_tui_pick_act(struct ns_tui *t, int which)
{
	struct ns_tui_picker *p = picker_of(t);
	struct ns_tui_pick_item *it;

	if (p->kind == NS_PICK_NONE || !p->nr_shown)
		return;
	it = &p->items[p->shown[p->sel]];
	if (p->kind == NS_PICK_FILTERS) {
		if (which == NS_ACT_PICK_ENTER || which == NS_ACT_PICK_HIDE ||
		    which == NS_ACT_PICK_REMOVE) {
			ns_tui_filters_begin_change(t);
			ns_filter_set_remove(t->flt->fs, it->value);
			ns_tui_refilter(t);
			reload(t);
			clamp(p);
		}
		return;
	}
	if (which == NS_ACT_PICK_ENTER && p->kind == NS_PICK_TASKS) {
		ns_tui_toggle_task_row(t, it->value);
	} else if (which == NS_ACT_PICK_ENTER && p->kind == NS_PICK_CPUS) {
		ns_filter_set_hide_cpu(t->flt->fs, it->value,
				       !ns_filter_set_cpu_hidden(t->flt->fs, it->value));
		ns_tui_refilter(t);
	} else if (which == NS_ACT_PICK_ENTER && p->kind == NS_PICK_STREAMS) {
		/* few streams, and hiding one is what one wants of them */
		toggle_filter(t, it, NS_FILTER_HIDE);
	} else if (which == NS_ACT_PICK_ENTER || which == NS_ACT_PICK_ONLY) {
		toggle_filter(t, it, NS_FILTER_SHOW);
	} else if (which == NS_ACT_PICK_HIDE) {
		toggle_filter(t, it, NS_FILTER_HIDE);
	}
}

/* Rows of the list on this screen, for a page. */
static int page_rows(const struct ns_tui *t)
{
	return t->lay.rows - 8 > 1 ? t->lay.rows - 8 : 1;
}

/* picker-up, picker-down */
void ns_tui_pick_move(struct ns_tui *t, int dir)
{
	t->picker->sel += dir;
	clamp(t->picker);
}

/* picker-page-up, picker-page-down */
void ns_tui_pick_page(struct ns_tui *t, int dir)
{
	t->picker->sel += dir * page_rows(t);
	clamp(t->picker);
}

/* picker-first, picker-last */
void ns_tui_pick_end(struct ns_tui *t, int dir)
{
	t->picker->sel = dir < 0 ? 0 : t->picker->nr_shown - 1;
	clamp(t->picker);
}

/* picker-unnarrow */
void ns_tui_pick_unnarrow(struct ns_tui *t, int unused)
{
	struct ns_tui_picker *p = t->picker;
	size_t len = strlen(p->narrow);

	if (len)
		p->narrow[len - 1] = '\0';
	narrow(t);
	clamp(p);
}

/* picker-sort: tasks by pid, comm, events, CPU time */
void ns_tui_pick_sort(struct ns_tui *t, int unused)
{
	struct ns_tui_picker *p = t->picker;

	if (p->kind != NS_PICK_TASKS)
		return;
	p->sort = (p->sort + 1) % 4;
	narrow(t);
	clamp(p);
}

/* picker-where */
void ns_tui_pick_where(struct ns_tui *t, int unused)
{
	ns_tui_cycle_where(t);
}

/* picker-close */
void ns_tui_pick_close(struct ns_tui *t, int unused)
{
	ns_tui_picker_close(t);
}

/*
 * A key of the picker's own table (config.ini's [keys.picker]) runs its
 * action; any other key that can be typed narrows the list.
 */
static int key(struct ns_tui *t, void *state, int key)
{
	struct ns_tui_picker *p = state;
	enum ns_tui_action a = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_PICKER, key);
	size_t len = strlen(p->narrow);

	if (a != NS_ACT_NONE) {
		ns_tui_actions[a].run(t, ns_tui_actions[a].arg);
		return 1;
	}
	if (t->keymap.nr_pending)
		return 1;
	if (key >= 32 && key < 127 && len < sizeof(p->narrow) - 1) {
		p->narrow[len] = (char)key;
		p->narrow[len + 1] = '\0';
		p->sel = 0;
		narrow(t);
		clamp(p);
	}
	return 1;
}

static const char *const pick_title[] = {
	[NS_PICK_TASKS] = "Tasks",
	[NS_PICK_EVENTS] = "Events",
	[NS_PICK_CPUS] = "CPUs",
	[NS_PICK_FILTERS] = "Filters",
	[NS_PICK_STREAMS] = "Streams",
};

/* "<C-o>" as "^O", "<Enter>" as "Enter": the first key of @keys, short. */
static void key_label(const char *keys, char *buf, size_t len)
{
	size_t n = strcspn(keys, " ");

	if (n == 5 && !strncmp(keys, "<C-", 3) && keys[4] == '>')
		snprintf(buf, len, "^%c", toupper((unsigned char)keys[3]));
	else if (n == 4 && !strncmp(keys, "<lt>", 4))
		snprintf(buf, len, "<");
	else if (n > 2 && keys[0] == '<' && keys[n - 1] == '>')
		snprintf(buf, len, "%.*s", (int)n - 2, keys + 1);
	else
		snprintf(buf, len, "%.*s", (int)n, keys);
}

/* The label of @legend ("row,only,row,remove") for picker @kind, in @buf. */
static void legend_label(const char *legend, int kind, char *buf, size_t len)
{
	int i;

	for (i = NS_PICK_TASKS; i < kind && *legend; i++) {
		legend = strchr(legend, ',');
		legend = legend ? legend + 1 : "";
	}
	snprintf(buf, len, "%.*s", (int)strcspn(legend, ","), legend);
}

/*
 * The bottom line: each picker action that means something in this picker,
 * by its first key as bound now ("Enter:row  ^O:only ..."); keys of one
 * meaning share it ("Enter/^X/Del:remove").
 */
static void legend(const struct ns_tui *t, int kind, char *line, size_t len)
{
	char prev[32] = "", label[32], keyl[32];
	size_t n = 0;
	int a;

	line[0] = '\0';
	for (a = 0; a < NS_NR_ACTIONS && n < len; a++) {
		const char *keys = t->keymap.text[a][NS_SCOPE_PICKER];

		if (!keys[0])
			continue;
		legend_label(ns_tui_actions[a].legend, kind, label, sizeof(label));
		if (!label[0])
			continue;
		key_label(keys, keyl, sizeof(keyl));
		if (!strcmp(label, prev) && n > strlen(prev) + 1) {
			/* "Enter:only" and "^O:only" are "Enter/^O:only" */
			n -= strlen(prev) + 1;
			n += snprintf(line + n, len - n, "/%s:%s", keyl, label);
		} else {
			n += snprintf(line + n, len - n, "%s%s:%s", n ? "  " : "", keyl, label);
		}
		snprintf(prev, sizeof(prev), "%s", label);
	}
}

#define NS_PICKER_LEGEND_MAX	6

/*
 * @text cut into lines of at most @w columns between its items (separated
 * by @sep), from line @n of @lines on: returns the lines used so far. An item
 * wider than @w is cut at the edge when drawn.
 */
static int wrap_legend(const char *text, const char *sep, int w, char lines[][256], int n)
{
	size_t seplen = strlen(sep);
	int used = 0;

	while (*text && n < NS_PICKER_LEGEND_MAX) {
		const char *end = strstr(text, sep);
		int len = end ? (int)(end - text) : (int)strlen(text);

		if (used && used + (int)seplen + len > w) {
			n++;
			used = 0;
			if (n == NS_PICKER_LEGEND_MAX)
				break;
		}
		if (!used)
			lines[n][0] = '\0';
		used += snprintf(lines[n] + strlen(lines[n]), 256 - strlen(lines[n]), "%s%.*s",
				 used ? sep : "", len, text);
		text += len;
		while (*text == ' ')
			text++;
	}
	return used ? n + 1 : n;
}

static const char *const sort_name[] = { "pid", "comm", "events", "CPU time" };

/* "R+" / " -": the item's task row (or shown CPU row), and its filters. */
static void marks(struct ns_tui *t, const struct ns_tui_pick_item *it, char m[4])
{
	struct ns_tui_picker *p = picker_of(t);

	m[0] = ' ';
	if (p->kind == NS_PICK_TASKS && ns_filter_set_has_task_row(t->flt->fs, it->value))
		m[0] = 'R';
	if (p->kind == NS_PICK_CPUS && !ns_filter_set_cpu_hidden(t->flt->fs, it->value))
		m[0] = 'R';
	m[1] = entry_of(t, it, NS_FILTER_SHOW) >= 0 ? '+' : ' ';
	m[2] = entry_of(t, it, NS_FILTER_HIDE) >= 0 ? '-' : ' ';
	m[3] = '\0';
}

static void draw(struct ns_tui *t, void *state)
{
	struct ns_tui_picker *p = state;
	/* the whole screen but the status line: no strips of the panes beside or below */
	int w = t->lay.cols, h = t->lay.rows - 1, rows, i, y, nleg;
	attr_t normal = t->theme.attr[NS_ROLE_HELP], title = t->theme.attr[NS_ROLE_HELP_TITLE];
	char line[256], m[4], keys[160], leg[256], legs[NS_PICKER_LEGEND_MAX][256];
	WINDOW *win;

	if (!p || p->kind == NS_PICK_NONE || t->lay.too_small)
		return;
	legend(t, p->kind, keys, sizeof(keys));
	snprintf(leg, sizeof(leg), "%s   (R: row shown, +: only, -: hidden; where: %s)",
		 keys, ns_tui_where_name(t->flt->where));
	/* the legend whole: on one line, else the keys then the marks, wrapped as needed */
	nleg = 1;
	snprintf(legs[0], sizeof(legs[0]), "%s", leg);
	if ((int)strlen(leg) > w - 2) {
		snprintf(leg, sizeof(leg), "R: row shown, +: only, -: hidden; where: %s",
			 ns_tui_where_name(t->flt->where));
		nleg = wrap_legend(keys, "  ", w - 2, legs, 0);
		nleg = wrap_legend(leg, " ", w - 2, legs, nleg);
	}
	rows = h - 2 - nleg;
	if (rows < 1)
		return;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + rows)
		p->top = p->sel - rows + 1;
	win = newwin(h, w, 0, (t->lay.cols - w) / 2);
	if (!win)
		return;
	leaveok(win, TRUE);
	for (y = 0; y < h; y++)
		ns_tui_fill(win, y, 0, w, normal);
	snprintf(line, sizeof(line), "%s: %d of %d; type to narrow: %s_", pick_title[p->kind],
		 p->nr_shown, (int)p->nr_items, p->narrow);
	ns_tui_fill(win, 0, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, 0, 1, w - 2, line, 0, title);
	if (p->kind == NS_PICK_TASKS)
		snprintf(line, sizeof(line), "    %7s %-16s %10s %12s   (sorted by %s)", "PID",
			 "COMM", "EVENTS", "CPU TIME (s)", sort_name[p->sort]);
	else if (p->kind == NS_PICK_FILTERS)
		snprintf(line, sizeof(line), "    new filters apply to the %s",
			 ns_tui_where_name(t->flt->where));
	else if (p->kind == NS_PICK_STREAMS)
		snprintf(line, sizeof(line), "    %-31s %8s %10s", "STREAM (BUFFER)", "CPUS",
			 "EVENTS");
	else
		snprintf(line, sizeof(line), "    %-40s %10s", p->kind == NS_PICK_CPUS ? "CPU" :
			 "SYSTEM/EVENT", "EVENTS");
	ns_tui_put_text(win, &t->glyphs, 1, 0, w, line, 0, normal | A_BOLD);
	for (i = 0; i < rows && p->top + i < p->nr_shown; i++) {
		const struct ns_tui_pick_item *it = &p->items[p->shown[p->top + i]];
		attr_t a = p->top + i == p->sel ? t->theme.attr[NS_ROLE_LIST_SELECTED] : normal;
		char ts[32];

		marks(t, it, m);
		if (p->kind == NS_PICK_TASKS)
			snprintf(line, sizeof(line), "%s %7d %-16.16s %10llu %12s", m, it->value,
				 it->name, (unsigned long long)it->count,
				 ns_fmt_ts(ts, sizeof(ts), it->ns));
		else if (p->kind == NS_PICK_FILTERS)
			snprintf(line, sizeof(line), "    %s", it->name);
		else if (p->kind == NS_PICK_STREAMS)
			snprintf(line, sizeof(line), "%s %-31.31s %8llu %10llu", m, it->name,
				 (unsigned long long)it->ns, (unsigned long long)it->count);
		else if (it->kind == NS_FILTER_SYSTEM)
			snprintf(line, sizeof(line), "%s %-40s %10llu", m, it->name,
				 (unsigned long long)it->count);
		else
			snprintf(line, sizeof(line), "%s %s%-38s %10llu", m,
				 p->kind == NS_PICK_EVENTS ? "  " : "", it->name,
				 (unsigned long long)it->count);
		ns_tui_fill(win, 2 + i, 0, w, a);
		ns_tui_put_text(win, &t->glyphs, 2 + i, 0, w, line, 0, a);
	}
	if (!p->nr_shown)
		ns_tui_put_text(win, &t->glyphs, 2, 4, w - 4,
				p->kind == NS_PICK_FILTERS && !p->nr_items ? "(no filters)" :
				"(nothing matches)", 0, normal);
	for (i = 0; i < nleg; i++) {
		ns_tui_fill(win, h - nleg + i, 0, w, title);
		ns_tui_put_text(win, &t->glyphs, h - nleg + i, 1, w - 2, legs[i], 0, title);
	}
	wnoutrefresh(win);
	delwin(win);
}

/* Modal: typing narrows the list, so every key is the picker's. */
static const struct ns_tui_layer_ops picker_layer = {
	.name = "picker",
	.modal = 1,
	.key = key,
	.draw = draw,
	.close = reset,
};
