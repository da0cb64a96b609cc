// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pickers: a list over the panes of every task (pid, comm, events, CPU
 * time), every event system and event the trace has events of (with the
 * count), every CPU, or
 * every filter in force. Typing narrows the list (comm or pid, a name, a
 * CPU number), as fzf and htop's filter do; the keys that act are the ones
 * that cannot be typed into a name:
 *   Enter   tasks: add or remove the task's row; CPUs: show or hide the
 *           CPU's row; events: show only / stop showing only; filters: remove
 *   C-o     only this (a show filter), again to remove it
 *   C-x     hide this, again to remove it; in the filters picker: remove
 *   Tab     where new filters apply: list and graph, list, graph
 *   C-t     tasks: sort by pid, comm, events, CPU time
 *   Up/Down PgUp/PgDn Home/End move, Backspace unnarrows, Esc closes.
 * Every change applies at once, as a quick filter does.
 */
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
		snprintf(it.name, sizeof(it.name), "CPU%d", cpu);
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
				  it->kind == NS_FILTER_EVENT || it->kind == NS_FILTER_SYSTEM ?
				  it->name : NULL);
	}
}

static void act(struct ns_tui *t, int key)
{
	struct ns_tui_picker *p = picker_of(t);
	struct ns_tui_pick_item *it;

	if (!p->nr_shown)
		return;
	it = &p->items[p->shown[p->sel]];
	if (p->kind == NS_PICK_FILTERS) {
		if (key == '\n' || key == ('X' - 64) || key == KEY_DC) {
			ns_tui_filters_begin_change(t);
			ns_filter_set_remove(t->flt->fs, it->value);
			ns_tui_refilter(t);
			reload(t);
		}
		return;
	}
	if (key == '\n' && p->kind == NS_PICK_TASKS) {
		ns_tui_toggle_task_row(t, it->value);
	} else if (key == '\n' && p->kind == NS_PICK_CPUS) {
		ns_filter_set_hide_cpu(t->flt->fs, it->value,
				       !ns_filter_set_cpu_hidden(t->flt->fs, it->value));
		ns_tui_refilter(t);
	} else if (key == '\n' || key == ('O' - 64)) {
		toggle_filter(t, it, NS_FILTER_SHOW);
	} else if (key == ('X' - 64)) {
		toggle_filter(t, it, NS_FILTER_HIDE);
	}
}

static int key(struct ns_tui *t, void *state, int key)
{
	struct ns_tui_picker *p = picker_of(t);
	int rows = t->lay.rows - 8, len = (int)strlen(p->narrow);

	if (rows < 1)
		rows = 1;
	switch (key) {
	case 27:
		ns_tui_picker_close(t);
		return 1;
	case KEY_UP:
		p->sel--;
		break;
	case KEY_DOWN:
		p->sel++;
		break;
	case KEY_PPAGE:
		p->sel -= rows;
		break;
	case KEY_NPAGE:
		p->sel += rows;
		break;
	case KEY_HOME:
		p->sel = 0;
		break;
	case KEY_END:
		p->sel = p->nr_shown - 1;
		break;
	case KEY_BACKSPACE:
		if (len)
			p->narrow[len - 1] = '\0';
		narrow(t);
		break;
	case '\t':
		ns_tui_cycle_where(t);
		break;
	case 'T' - 64:
		if (p->kind == NS_PICK_TASKS) {
			p->sort = (p->sort + 1) % 4;
			narrow(t);
		}
		break;
	case '\n':
	case 'O' - 64:
	case 'X' - 64:
	case KEY_DC:
		act(t, key);
		break;
	default:
		if (key >= 32 && key < 127 && len < (int)sizeof(p->narrow) - 1) {
			p->narrow[len] = (char)key;
			p->narrow[len + 1] = '\0';
			p->sel = 0;
			narrow(t);
		}
		break;
	}
	if (p->sel >= p->nr_shown)
		p->sel = p->nr_shown - 1;
	if (p->sel < 0)
		p->sel = 0;
	return 1;
}

static const char *const pick_title[] = {
	[NS_PICK_TASKS] = "Tasks",
	[NS_PICK_EVENTS] = "Events",
	[NS_PICK_CPUS] = "CPUs",
	[NS_PICK_FILTERS] = "Filters",
};

static const char *const pick_keys[] = {
	[NS_PICK_TASKS] = "Enter:row  ^O:only  ^X:hide  ^T:sort  Tab:where  Esc:close",
	[NS_PICK_EVENTS] = "Enter/^O:only  ^X:hide  Tab:where  Esc:close",
	[NS_PICK_CPUS] = "Enter:row  ^O:only  ^X:hide  Tab:where  Esc:close",
	[NS_PICK_FILTERS] = "Enter/^X/Del:remove  Tab:where  Esc:close",
};

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
	struct ns_tui_picker *p = picker_of(t);
	int w = t->lay.cols - 4, h = t->lay.rows - 3, rows, i, y;
	attr_t normal = t->theme.attr[NS_ROLE_HELP], title = t->theme.attr[NS_ROLE_HELP_TITLE];
	char line[256], m[4];
	WINDOW *win;

	if (!p || p->kind == NS_PICK_NONE || t->lay.too_small)
		return;
	if (w > 100)
		w = 100;
	rows = h - 4;
	if (rows < 1)
		return;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + rows)
		p->top = p->sel - rows + 1;
	win = newwin(h, w, 1, (t->lay.cols - w) / 2);
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
	snprintf(line, sizeof(line), "%s   (R: row shown, +: only, -: hidden; where: %s)",
		 pick_keys[p->kind], ns_tui_where_name(t->flt->where));
	ns_tui_fill(win, h - 1, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, h - 1, 1, w - 2, line, 0, title);
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
