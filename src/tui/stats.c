// SPDX-License-Identifier: GPL-2.0-only
/*
 * The statistics overlay (S, :stats): the scheduling statistics of the
 * model (model_sched.h) over the A-B range, or over the graph's window when
 * A and B are not both set, as three tables: tasks, CPUs, event types. The
 * tables are rows of columns described once (a title, a width, a value to
 * sort by and a way to print it), so that any column sorts and the rows
 * scroll both ways on a small screen. It reads the same filters as the list
 * (the model says how). Enter on a task puts markers A and B on its worst
 * wakeup latency, so that the bar's B-A reads it. Its keys are its own
 * scope of the action table ([keys.stats] in config.ini). A modal layer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/model_sched.h"
#include "nurseshark/model_search.h"
#include "tui-int.h"
#include "filtering.h"

enum stats_table {
	TBL_TASKS,
	TBL_CPUS,
	TBL_EVENTS,
	NR_TBL,
};

enum col_fmt {
	FMT_INT,	/* a count or an id */
	FMT_TEXT,	/* a name */
	FMT_MS,		/* ns printed as ms with 3 decimals */
	FMT_US,		/* ns printed as us with 3 decimals (report -w's unit) */
	FMT_PCT,	/* per mille printed as a percentage with 1 decimal */
	FMT_TS,		/* a timestamp as the list prints it, "-" for 0 */
	FMT_CPU,	/* a CPU: its number, or with several streams its row's label */
};

struct stats_col {
	const char *title;
	int width;
	int fmt;
};

static const struct stats_col task_cols[] = {
	{ "PID", 7, FMT_INT },
	{ "COMM", 16, FMT_TEXT },
	{ "CPU ms", 10, FMT_MS },
	{ "CPU%", 6, FMT_PCT },
	{ "RUNS", 6, FMT_INT },
	{ "WAKEUPS", 7, FMT_INT },
	{ "AVG LAT us", 11, FMT_US },
	{ "MAX LAT us", 11, FMT_US },
	{ "MAX AT", 17, FMT_TS },
	{ "RUNNABLE ms", 12, FMT_MS },
	{ "SLEEP ms", 11, FMT_MS },
	{ "BLOCKED ms", 11, FMT_MS },
};

static const struct stats_col cpu_cols[] = {
	{ "CPU", 5, FMT_CPU },
	{ "BUSY%", 7, FMT_PCT },
	{ "IDLE%", 7, FMT_PCT },
	{ "BUSY ms", 11, FMT_MS },
	{ "SWITCHES", 9, FMT_INT },
	{ "DROPPED", 8, FMT_INT },
	{ "EVENTS", 10, FMT_INT },
};

static const struct stats_col event_cols[] = {
	{ "EVENT", 40, FMT_TEXT },
	{ "COUNT", 12, FMT_INT },
	{ "SHARE%", 7, FMT_PCT },
};

#define STATS_MAX_COLS	12

static const struct {
	const char *name;
	const struct stats_col *cols;
	int nr_cols;
	int default_sort;	/* column, sorted most first */
	int fixed;		/* the first columns, kept when the others scroll */
} tables[NR_TBL] = {
	[TBL_TASKS] = { "tasks", task_cols, NS_ARRAY_SIZE(task_cols), 2, 2 },
	[TBL_CPUS] = { "CPUs", cpu_cols, NS_ARRAY_SIZE(cpu_cols), 0, 1 },
	[TBL_EVENTS] = { "event types", event_cols, NS_ARRAY_SIZE(event_cols), 1, 1 },
};

struct stats_state {
	struct ns_sched_stats *st;
	int ranged;			/* over A-B (else the window) */
	uint64_t events;		/* the event table's rows, summed */
	int table;			/* enum stats_table */
	int sort[NR_TBL];		/* the sorted column of each table */
	int rev[NR_TBL];		/* 1: least first (numbers), a-z (names) */
	size_t *order;			/* the shown table's rows, sorted */
	size_t nr;
	int sel, top;
	int cpu_w;			/* the CPU column's width: its labels' (0: numbers) */
	int col[NR_TBL];		/* each table's first column after its fixed ones */
};

static const struct ns_tui_layer_ops stats_layer;

static struct stats_state *state_of(struct ns_tui *t)
{
	int i;

	for (i = t->nr_layers - 1; i >= 0; i--) {
		if (t->layers[i].ops == &stats_layer)
			return t->layers[i].state;
	}
	return NULL;
}

static size_t nr_rows(const struct stats_state *s, int table)
{
	return table == TBL_TASKS ? s->st->nr_tasks : table == TBL_CPUS ?
	       (size_t)s->st->nr_cpus : s->st->nr_types;
}

static uint64_t span(const struct stats_state *s)
{
	return s->st->t1 > s->st->t0 ? s->st->t1 - s->st->t0 : 0;
}

/* Per mille of @part in @whole, rounded (as the percentages print). */
static uint64_t permille(uint64_t part, uint64_t whole)
{
	return whole ? (uint64_t)((part * 1000.0) / whole + 0.5) : 0;
}

/* The value of column @col of row @r, for sorting and printing; @text for names. */
static uint64_t value(struct ns_tui *t, const struct stats_state *s, int table, size_t r, int col,
		      const char **text)
{
	const struct ns_sched_stats *st = s->st;

	*text = "";
	if (table == TBL_TASKS) {
		const struct ns_sched_task *k = &st->tasks[r];

		switch (col) {
		case 0: return k->pid;
		case 1: *text = ns_trace_task_comm(t->trace, k->pid); return 0;
		case 2: return k->state_ns[NS_TS_RUNNING];
		case 3: return permille(k->state_ns[NS_TS_RUNNING], span(s));
		case 4: return k->runs;
		case 5: return k->wakeups;
		case 6: return k->wakeup.n ? k->wakeup.sum_ns / k->wakeup.n : 0;
		case 7: return k->wakeup.max_ns;
		case 8: return k->wakeup.n ? k->wakeup.max_ts : 0;
		case 9: return k->state_ns[NS_TS_WAKING] + k->state_ns[NS_TS_PREEMPTED];
		case 10: return k->state_ns[NS_TS_SLEEPING] + k->state_ns[NS_TS_IDLE];
		default: return k->state_ns[NS_TS_BLOCKED];
		}
	}
	if (table == TBL_CPUS) {
		const struct ns_sched_cpu *c = &st->cpus[r];

		switch (col) {
		case 0: return c->cpu;
		case 1: return permille(c->busy_ns, span(s));
		case 2: return permille(c->idle_ns, span(s));
		case 3: return c->busy_ns;
		case 4: return c->switches;
		case 5: return c->drops;
		default: return c->events;
		}
	}
	switch (col) {
	case 0:
		return 0;
	case 1:
		return st->types[r].count;
	default:
		return permille(st->types[r].count, s->events);
	}
}

/* "sched/sched_switch" */
static void event_name(struct ns_tui *t, int type, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ns_trace_event_system(t->trace, type),
		 ns_trace_event_name(t->trace, type));
}

struct sort_ctx {
	struct ns_tui *t;
	struct stats_state *s;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	struct stats_state *s = c->s;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int col = s->sort[s->table], d;
	const struct stats_col *cd = &tables[s->table].cols[col];

	if (cd->fmt == FMT_TEXT) {
		char bx[160], by[160];
		const char *tx, *ty;

		if (s->table == TBL_EVENTS) {
			event_name(c->t, s->st->types[x].type, bx, sizeof(bx));
			event_name(c->t, s->st->types[y].type, by, sizeof(by));
			tx = bx;
			ty = by;
		} else {
			value(c->t, s, s->table, x, col, &tx);
			snprintf(bx, sizeof(bx), "%s", tx);
			value(c->t, s, s->table, y, col, &ty);
			tx = bx;
		}
		/* names a-z by default: reversed, z-a */
		d = strcmp(tx, ty);
		if (s->rev[s->table])
			d = -d;
	} else {
		const char *unused;
		uint64_t vx = value(c->t, s, s->table, x, col, &unused);
		uint64_t vy = value(c->t, s, s->table, y, col, &unused);

		/* numbers most first by default (ids least first); reversed, the other way */
		d = (vx < vy) - (vx > vy);
		if (col == 0)
			d = -d;
		if (s->rev[s->table])
			d = -d;
	}
	return d ? d : (x > y) - (x < y);
}

static void resort(struct ns_tui *t, struct stats_state *s)
{
	struct sort_ctx c = { t, s };
	size_t i;

	s->nr = nr_rows(s, s->table);
	for (i = 0; i < s->nr; i++)
		s->order[i] = i;
	qsort_r(s->order, s->nr, sizeof(*s->order), cmp_rows, &c);
	if (s->sel >= (int)s->nr)
		s->sel = s->nr ? (int)s->nr - 1 : 0;
}

static void close_state(struct ns_tui *t, void *state)
{
	struct stats_state *s = state;

	if (!s)
		return;
	ns_sched_stats_free(s->st);
	free(s->order);
	free(s);
}

/* The range: A-B (both markers' events in it) or the window. */
static void range_of(const struct ns_tui *t, uint64_t *t0, uint64_t *t1, int *ranged)
{
	const struct ns_view *v = &t->view;

	*ranged = v->marker[NS_MARKER_A].set && v->marker[NS_MARKER_B].set;
	if (*ranged) {
		uint64_t a = v->marker[NS_MARKER_A].ts_ns, b = v->marker[NS_MARKER_B].ts_ns;

		*t0 = a < b ? a : b;
		/* the range holds B's event: a switch-in under B counts its latency */
		*t1 = (a < b ? b : a) + 1;
	} else {
		*t0 = v->start_ns;
		*t1 = v->end_ns;
	}
}

/* statistics: build the tables and push the overlay */
void ns_tui_stats_open(struct ns_tui *t, int unused)
{
	struct stats_state *s;
	uint64_t t0, t1;
	size_t i, most;
	char err[160] = "";
	int ret, k;

	if (state_of(t))
		ns_tui_layer_pop(t, &stats_layer);
	s = calloc(1, sizeof(*s));
	if (!s) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	range_of(t, &t0, &t1, &s->ranged);
	ret = ns_sched_stats_build(t->trace, t->flt ? t->flt->fs : NULL, t0, t1, &s->st, err,
				   sizeof(err));
	if (ret) {
		ns_tui_message(t, "Statistics: %s", err[0] ? err : strerror(-ret));
		free(s);
		return;
	}
	most = s->st->nr_tasks;
	if ((size_t)s->st->nr_cpus > most)
		most = s->st->nr_cpus;
	if (s->st->nr_types > most)
		most = s->st->nr_types;
	s->order = malloc((most ? most : 1) * sizeof(*s->order));
	if (!s->order) {
		close_state(t, s);
		ns_tui_message(t, "Out of memory");
		return;
	}
	for (i = 0; i < s->st->nr_types; i++)
		s->events += s->st->types[i].count;
	/* several streams: a CPU is named as its graph row ("b1 CPU0"), not by its slot */
	for (k = 0; ns_trace_nr_streams(t->trace) > 1 && k < s->st->nr_cpus; k++) {
		char label[64];

		ns_trace_cpu_label(t->trace, s->st->cpus[k].cpu, label, sizeof(label));
		if ((int)strlen(label) > s->cpu_w)
			s->cpu_w = (int)strlen(label);
	}
	for (k = 0; k < NR_TBL; k++)
		s->sort[k] = tables[k].default_sort;
	resort(t, s);
	if (ns_tui_layer_push(t, &stats_layer, s)) {
		close_state(t, s);
		ns_tui_message(t, "Too many overlays open");
	}
}

/* Rows of the table on this screen. */
static int body_rows(const struct ns_tui *t)
{
	return t->lay.rows - 6 > 1 ? t->lay.rows - 6 : 1;
}

static void clamp(struct stats_state *s)
{
	if (s->sel >= (int)s->nr)
		s->sel = (int)s->nr - 1;
	if (s->sel < 0)
		s->sel = 0;
}

/* stats-up, stats-down */
void ns_tui_stats_move(struct ns_tui *t, int dir)
{
	struct stats_state *s = state_of(t);

	if (!s)
		return;
	s->sel += dir;
	clamp(s);
}

/* stats-page-up, stats-page-down */
void ns_tui_stats_page(struct ns_tui *t, int dir)
{
	struct stats_state *s = state_of(t);

	if (!s)
		return;
	s->sel += dir * body_rows(t);
	clamp(s);
}

/* stats-first, stats-last */
void ns_tui_stats_end(struct ns_tui *t, int dir)
{
	struct stats_state *s = state_of(t);

	if (!s)
		return;
	s->sel = dir < 0 ? 0 : (int)s->nr - 1;
	clamp(s);
}

/* Width of column @col of @table: the CPU labels' where they are labels. */
static int col_width(const struct stats_state *s, int table, int col)
{
	const struct stats_col *cd = &tables[table].cols[col];

	return cd->fmt == FMT_CPU && s->cpu_w ? s->cpu_w : cd->width;
}

/*
 * The columns of @table that show on @cols screen columns, whole: its fixed
 * ones (when they leave room for the first scrolled one), then from @first
 * on as many as fit, a blank after each. Fills @shown; returns how many, and in @nfixed
 * how many of them are fixed.
 */
static int shown_cols(const struct stats_state *s, int table, int first, int cols, int *shown,
		      int *nfixed)
{
	int nr = tables[table].nr_cols, fixed = tables[table].fixed, i, n = 0, w = 0;

	if (first < fixed)
		first = fixed;
	if (first >= nr)
		first = nr - 1;
	/* the fixed columns stay where the first scrolled one fits beside them */
	for (i = 0; i < fixed; i++)
		w += col_width(s, table, i) + 1;
	if (w + col_width(s, table, first) > cols) {
		fixed = 0;
		w = 0;
	}
	for (i = 0; i < fixed; i++)
		shown[n++] = i;
	for (i = first; i < nr; i++) {
		/* the first scrolled column shows even where it is cut */
		if (w + col_width(s, table, i) > cols && i > first)
			break;
		w += col_width(s, table, i) + 1;
		shown[n++] = i;
	}
	*nfixed = fixed;
	return n;
}

/* stats-left, stats-right: a column at a time, while columns are hidden that way */
void ns_tui_stats_scroll(struct ns_tui *t, int dir)
{
	struct stats_state *s = state_of(t);
	int shown[STATS_MAX_COLS], n, fixed, tb;

	if (!s)
		return;
	tb = s->table;
	n = shown_cols(s, tb, s->col[tb], t->lay.cols, shown, &fixed);
	if (dir > 0 && shown[n - 1] < tables[tb].nr_cols - 1)
		s->col[tb] = shown[fixed] + 1;
	else if (dir < 0 && shown[fixed] > fixed)
		s->col[tb] = shown[fixed] - 1;
}

/* stats-table, stats-table-back */
void ns_tui_stats_table(struct ns_tui *t, int dir)
{
	struct stats_state *s = state_of(t);

	if (!s)
		return;
	s->table = (s->table + NR_TBL + dir) % NR_TBL;
	s->sel = s->top = 0;
	resort(t, s);
}

/* stats-sort: the next column */
void ns_tui_stats_sort(struct ns_tui *t, int unused)
{
	struct stats_state *s = state_of(t);
	int shown[STATS_MAX_COLS], n, fixed, c;

	if (!s)
		return;
	c = s->sort[s->table] = (s->sort[s->table] + 1) % tables[s->table].nr_cols;
	/* the sorted column in view: scrolled to where it is hidden */
	n = shown_cols(s, s->table, s->col[s->table], t->lay.cols, shown, &fixed);
	if (c >= fixed && c < shown[fixed])
		s->col[s->table] = c;
	while (c > shown[n - 1]) {
		s->col[s->table] = shown[fixed] + 1;
		n = shown_cols(s, s->table, s->col[s->table], t->lay.cols, shown, &fixed);
	}
	resort(t, s);
}

/* stats-reverse */
void ns_tui_stats_reverse(struct ns_tui *t, int unused)
{
	struct stats_state *s = state_of(t);

	if (!s)
		return;
	s->rev[s->table] = !s->rev[s->table];
	resort(t, s);
}

/* The selected task's entry, or NULL. */
static const struct ns_sched_task *selected_task(struct stats_state *s)
{
	if (!s || s->table != TBL_TASKS || !s->nr)
		return NULL;
	return &s->st->tasks[s->order[s->sel]];
}

/* stats-jump: markers on the worst wakeup latency, the switch-in selected */
void ns_tui_stats_jump(struct ns_tui *t, int unused)
{
	const struct ns_sched_task *k = selected_task(state_of(t));
	uint64_t wakeup_ts, switch_ts;

	if (!k)
		return;
	if (!k->wakeup.n) {
		ns_tui_message(t, "No wakeup latency of pid %d in the range", k->pid);
		return;
	}
	switch_ts = k->wakeup.max_ts;
	wakeup_ts = switch_ts - k->wakeup.max_ns;
	ns_tui_layer_pop(t, &stats_layer);
	if (ns_view_goto_ns(&t->view, wakeup_ts))
		return;
	if (ns_view_set_marker(&t->view, NS_MARKER_A)) {
		ns_tui_message(t, "Markers not set: no event in the list (the filters hide them all)");
		return;
	}
	ns_view_goto_ns(&t->view, switch_ts);
	ns_view_set_marker(&t->view, NS_MARKER_B);
	/* the window holds the span */
	if (t->view.start_ns > wakeup_ts || t->view.end_ns <= switch_ts)
		ns_view_zoom_markers(&t->view);
}

/* stats-row: the task's graph row */
void ns_tui_stats_row(struct ns_tui *t, int unused)
{
	const struct ns_sched_task *k = selected_task(state_of(t));

	if (k)
		ns_tui_toggle_task_row(t, k->pid);
}

/* stats-close */
void ns_tui_stats_close(struct ns_tui *t, int unused)
{
	ns_tui_layer_pop(t, &stats_layer);
}

/* Column @col of row @r, as printed, in @buf. */
static void cell(struct ns_tui *t, struct stats_state *s, size_t r, int col, char *buf,
		 size_t len)
{
	const struct stats_col *cd = &tables[s->table].cols[col];
	const char *text;
	uint64_t v = value(t, s, s->table, r, col, &text);
	char tmp[64];

	switch (cd->fmt) {

	case FMT_TEXT:
		if (s->table == TBL_EVENTS)
			event_name(t, s->st->types[r].type, tmp, sizeof(tmp));
		else
			snprintf(tmp, sizeof(tmp), "%s", text);
		snprintf(buf, len, "%-*.*s", cd->width, cd->width, tmp);
		return;
	case FMT_MS:
		snprintf(buf, len, "%*llu.%03llu", cd->width - 4, (unsigned long long)(v / 1000000),
			 (unsigned long long)(v / 1000 % 1000));
		return;
	case FMT_US:
		snprintf(buf, len, "%*llu.%03llu", cd->width - 4, (unsigned long long)(v / 1000),
			 (unsigned long long)(v % 1000));
		return;
	case FMT_PCT:
		snprintf(buf, len, "%*llu.%llu", cd->width - 2, (unsigned long long)(v / 10),
			 (unsigned long long)(v % 10));
		return;
	case FMT_TS:
		if (v)
			ns_tui_fmt_ts(t, tmp, sizeof(tmp), v);
		else
			snprintf(tmp, sizeof(tmp), "-");
		snprintf(buf, len, "%*s", cd->width, tmp);
		return;
	case FMT_CPU:
		if (s->cpu_w) {
			ns_trace_cpu_label(t->trace, (int)v, tmp, sizeof(tmp));
			snprintf(buf, len, "%-*s", s->cpu_w, tmp);
			return;
		}
		/* one stream: the CPU's number */
		__attribute__((fallthrough));
	default:
		snprintf(buf, len, "%*llu", cd->width, (unsigned long long)v);
	}
}

/* "Tab:table  o:sort  ...": the overlay's actions that have a label, by their first key. */
/* The first key bound to @act in the statistics, "<Left>" as "Left"; "" when none. */
static const char *first_key(const struct ns_tui *t, enum ns_tui_action act, char *buf, size_t len)
{
	const char *keys = t->keymap.text[act][NS_SCOPE_STATS];
	size_t k = strcspn(keys, " ");

	if (k > 2 && keys[0] == '<' && keys[k - 1] == '>')
		snprintf(buf, len, "%.*s", (int)k - 2, keys + 1);
	else
		snprintf(buf, len, "%.*s", (int)k, keys);
	return buf;
}

static void legend(const struct ns_tui *t, char *line, size_t len)
{
	size_t n = 0;
	int a;

	line[0] = '\0';
	for (a = 0; a < NS_NR_ACTIONS && n < len; a++) {
		const char *keys = t->keymap.text[a][NS_SCOPE_STATS];
		size_t k = strcspn(keys, " ");

		if (!keys[0] || !ns_tui_actions[a].legend[0])
			continue;
		if (k > 2 && keys[0] == '<' && keys[k - 1] == '>')
			n += snprintf(line + n, len - n, "%s%.*s:%s", n ? "  " : "", (int)k - 2,
				      keys + 1, ns_tui_actions[a].legend);
		else
			n += snprintf(line + n, len - n, "%s%.*s:%s", n ? "  " : "", (int)k, keys,
				      ns_tui_actions[a].legend);
	}
}

static void draw(struct ns_tui *t, void *state)
{
	struct stats_state *s = state;
	int w = t->lay.cols, h = t->lay.rows - 1, rows = body_rows(t), i, c, y, n, k;
	int shown[STATS_MAX_COLS], nshown, fixed;
	attr_t normal = t->theme.attr[NS_ROLE_HELP], title = t->theme.attr[NS_ROLE_HELP_TITLE];
	const struct ns_sched_stats *st;
	char line[512], buf[128], a[32], b[32], d[32];
	WINDOW *win;

	if (!s || t->lay.too_small)
		return;
	st = s->st;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + rows)
		s->top = s->sel - rows + 1;
	win = newwin(h, w, 0, 0);
	if (!win)
		return;
	leaveok(win, TRUE);
	for (y = 0; y < h; y++)
		ns_tui_fill(win, y, 0, w, normal);
	ns_tui_fmt_ts(t, a, sizeof(a), st->t0);
	ns_tui_fmt_ts(t, b, sizeof(b), s->ranged ? st->t1 - 1 : st->t1);
	ns_tui_fmt_delta(t, d, sizeof(d), (int64_t)span(s));
	snprintf(line, sizeof(line), "Statistics over %s %s - %s (%s)%s", s->ranged ? "A-B" :
		 "the window", a, b, d, t->flt && ns_filter_set_nr_entries(t->flt->fs) ?
		 ", filtered" : "");
	ns_tui_fill(win, 0, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, 0, 1, w - 2, line, 0, title);
	n = 0;
	for (i = 0; i < NR_TBL; i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s%s %zu%s", i ? " " : "",
			      i == s->table ? "[" : " ", tables[i].name, nr_rows(s, i),
			      i == s->table ? "]" : " ");
	if (s->table == TBL_TASKS && st->wakeup[0].n)
		snprintf(line + n, sizeof(line) - n, "  max latency %llu.%03llu us",
			 (unsigned long long)(st->wakeup[0].max_ns / 1000),
			 (unsigned long long)(st->wakeup[0].max_ns % 1000));
	ns_tui_put_text(win, &t->glyphs, 1, 1, w - 2, line, 0, normal);
	/* the titles: the sorted one marked with the order; whole columns only */
	nshown = shown_cols(s, s->table, s->col[s->table], w, shown, &fixed);
	n = 0;
	for (k = 0; k < nshown; k++) {
		const struct stats_col *cd = &tables[s->table].cols[c = shown[k]];
		char ttl[40];

		snprintf(ttl, sizeof(ttl), "%s%s", cd->title, c != s->sort[s->table] ? "" :
			 (s->rev[s->table] ^ (cd->fmt != FMT_TEXT && c != 0)) ? "v" : "^");
		n += snprintf(line + n, sizeof(line) - n,
			      cd->fmt == FMT_TEXT || (cd->fmt == FMT_CPU && s->cpu_w) ?
			      "%-*s " : "%*s ", col_width(s, s->table, c), ttl);
	}
	ns_tui_put_text(win, &t->glyphs, 2, 0, w, line, 0, normal | A_BOLD);
	for (i = 0; i < rows && s->top + i < (int)s->nr; i++) {
		size_t r = s->order[s->top + i];
		attr_t at = s->top + i == s->sel ? t->theme.attr[NS_ROLE_LIST_SELECTED] : normal;

		n = 0;
		for (k = 0; k < nshown; k++) {
			cell(t, s, r, shown[k], buf, sizeof(buf));
			n += snprintf(line + n, sizeof(line) - n, "%s ", buf);
		}
		ns_tui_fill(win, 3 + i, 0, w, at);
		ns_tui_put_text(win, &t->glyphs, 3 + i, 0, w, line, 0, at);
	}
	if (!s->nr)
		ns_tui_put_text(win, &t->glyphs, 3, 1, w - 2, "(nothing in the range)", 0, normal);
	/* columns hidden: which show, and the keys that show the others */
	if (nshown < tables[s->table].nr_cols) {
		int from = shown[fixed] + 1, to = shown[nshown - 1] + 1;

		n = 0;
		if (fixed && from > fixed + 1)
			n = snprintf(line, sizeof(line), "columns 1-%d, ", fixed);
		else
			from = shown[0] + 1;
		n += snprintf(line + n, sizeof(line) - n, from == to ? "%s%d" : "%s%d-%d",
			      n ? "" : "columns ", from, to);
		n += snprintf(line + n, sizeof(line) - n, " of %d: %s/%s",
			      tables[s->table].nr_cols,
			      first_key(t, NS_ACT_STATS_LEFT, a, sizeof(a)),
			      first_key(t, NS_ACT_STATS_RIGHT, b, sizeof(b)));
		if (n + (int)strlen(" show the others") <= w - 2)
			snprintf(line + n, sizeof(line) - n, " show the others");
		ns_tui_put_text(win, &t->glyphs, h - 2, 1, w - 2, line, 0, normal);
	}
	legend(t, buf, sizeof(buf));
	snprintf(line, sizeof(line), "%s  (row %d of %zu)", buf, s->nr ? s->sel + 1 : 0, s->nr);
	ns_tui_fill(win, h - 1, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, h - 1, 1, w - 2, line, 0, title);
	wnoutrefresh(win);
	delwin(win);
}

/* Its own keys ([keys.stats]); the others do nothing while it is open. */
static int key(struct ns_tui *t, void *state, int key)
{
	enum ns_tui_action act = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_STATS, key);

	if (act != NS_ACT_NONE)
		ns_tui_actions[act].run(t, ns_tui_actions[act].arg);
	return 1;
}

static int mouse(struct ns_tui *t, void *state, const struct ns_tui_input *in)
{
	if (in->kind == NS_IN_WHEEL_UP || in->kind == NS_IN_WHEEL_DOWN)
		ns_tui_stats_move(t, in->kind == NS_IN_WHEEL_UP ? -1 : 1);
	return 1;
}

static const struct ns_tui_layer_ops stats_layer = {
	.name = "statistics",
	.modal = 1,
	.key = key,
	.mouse = mouse,
	.draw = draw,
	.close = close_state,
};
