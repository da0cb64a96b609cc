// SPDX-License-Identifier: GPL-2.0-only
/*
 * The view: the graph's time window and its zoom, the selected event, the
 * list's first row, markers A and B and "graph follows". Zoom keeps the
 * point of interest at the same column, as KernelShark does, and is bounded
 * by the whole trace and by NS_VIEW_MIN_NS_PER_COL.
 *
 * The list counts in positions, not rows: with filters (view->visible) the
 * position of a row is the number of shown rows before it, and the list
 * holds only shown rows; without, positions are rows. The selection and
 * list_top stay rows of the trace, so markers, sessions and the graph never
 * need to know about filters.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/util.h"

/* The range the window may cover: the whole trace, at least cols ns. */
static void full_range(const struct ns_view *view, uint64_t *lo, uint64_t *hi)
{
	uint64_t min_w = (uint64_t)view->cols * NS_VIEW_MIN_NS_PER_COL;

	*lo = ns_trace_first_ns(view->trace);
	*hi = ns_trace_last_ns(view->trace) + 1;
	if (*hi - *lo < min_w)
		*hi = *lo + min_w;
}

/* Put the window at [start, start + width), clamped into the full range. */
static void set_window(struct ns_view *view, int64_t start, uint64_t width)
{
	uint64_t lo, hi, min_w = (uint64_t)view->cols * NS_VIEW_MIN_NS_PER_COL;

	full_range(view, &lo, &hi);
	if (width < min_w)
		width = min_w;
	if (width > hi - lo)
		width = hi - lo;
	if (start < (int64_t)lo)
		start = (int64_t)lo;
	if ((uint64_t)start + width > hi)
		start = (int64_t)(hi - width);
	view->start_ns = (uint64_t)start;
	view->end_ns = (uint64_t)start + width;
}

uint64_t ns_view_nr_rows(const struct ns_view *view)
{
	return ns_visible_list_count(view->visible, ns_trace_nr_events(view->trace));
}

uint64_t ns_view_list_pos_of_row(const struct ns_view *view, uint64_t row)
{
	return ns_visible_shown_before(view->visible, row);
}

uint64_t ns_view_row_at_list_pos(const struct ns_view *view, uint64_t pos)
{
	return ns_visible_nth_shown_row(view->visible, pos, ns_trace_nr_events(view->trace));
}

static void refresh_selected(struct ns_view *view)
{
	struct ns_event ev;
	struct ns_pos pos;
	bool ok = ns_view_nr_rows(view) &&
		  !ns_trace_row_event(view->trace, view->selected, &pos, &ev);

	view->selected_ns = ok ? ev.ts_ns : 0;
	view->selected_cpu = ok ? pos.cpu : -1;
}

int ns_view_init(struct ns_view *view, const struct ns_trace *trace, int cols, int list_rows)
{
	memset(view, 0, sizeof(*view));
	view->trace = trace;
	view->bins = ns_bins_open(trace);
	if (!view->bins)
		return -ENOMEM;
	view->cols = cols > 0 ? cols : 1;
	view->list_rows = list_rows > 0 ? list_rows : 1;
	view->graph_follows = 1;
	ns_view_zoom_full(view);
	refresh_selected(view);
	return 0;
}

void ns_view_free(struct ns_view *view)
{
	ns_bins_close(view->bins);
	view->bins = NULL;
}

#define NS_VIEW_RECOLOUR_RUNS	64	/* runs looked at for a shown task in a column */

/*
 * The graph's filters on a CPU's bins: a column has events only where an
 * event the graph shows is, and a task the graph hides leaves its time
 * blank. A column whose leading task is hidden takes the shown task that
 * ran longest in it (looking at its first NS_VIEW_RECOLOUR_RUNS runs), or,
 * with shown events and no shown task, the task of its first shown event.
 */
struct run_key {
	const struct ns_run *runs;
	uint64_t ns;
};

static bool run_starts_by(size_t i, const void *arg)
{
	const struct run_key *k = arg;

	return k->runs[i].start_ns <= k->ns;
}

static void filter_bins(struct ns_view *view, int cpu, struct ns_bin *out)
{
	const struct ns_visible *vis = view->visible;
	uint64_t nr_runs, last_ns = ns_trace_last_ns(view->trace);
	uint64_t nr_ev = ns_trace_cpu_nr_events(view->trace, cpu);
	const struct ns_run *runs = ns_trace_cpu_runs(view->trace, cpu, &nr_runs);
	int col;

	for (col = 0; col < view->cols; col++) {
		uint64_t a = ns_window_col_ns(view->start_ns, view->end_ns, view->cols, col);
		uint64_t b = ns_window_col_ns(view->start_ns, view->end_ns, view->cols, col + 1);
		uint64_t i = ns_trace_cpu_lower_bound(view->trace, cpu, a), j, r, lo;
		uint64_t best_ns = 0;
		struct ns_bin *bin = &out[col];
		int k;

		if (b <= a)
			b = a + 1;
		j = ns_trace_cpu_lower_bound(view->trace, cpu, b);
		bin->flags &= ~NS_BIN_EVENTS;
		if (ns_visible_graph_count(vis, cpu, i, j))
			bin->flags |= NS_BIN_EVENTS;
		if (bin->pid < 0 || ns_visible_graph_task(vis, bin->pid))
			continue;
		bin->flags &= ~(NS_BIN_RUNNING | NS_BIN_IDLE);
		bin->pid = -1;
		/* the runs overlapping the column: from the last one starting at or before it */
		lo = ns_lower_bound(nr_runs, run_starts_by, &(struct run_key){ runs, a });
		r = lo ? lo - 1 : 0;
		for (k = 0; r < nr_runs && runs[r].start_ns < b && k < NS_VIEW_RECOLOUR_RUNS;
		     r++, k++) {
			uint64_t s = runs[r].start_ns > a ? runs[r].start_ns : a;
			uint64_t e = r + 1 < nr_runs ? runs[r + 1].start_ns : last_ns;

			e = e < b ? e : b;
			if (e > s && e - s > best_ns && runs[r].pid >= 0 &&
			    ns_visible_graph_task(vis, runs[r].pid)) {
				best_ns = e - s;
				bin->pid = runs[r].pid;
			}
		}
		if (bin->pid == 0)
			bin->flags |= NS_BIN_IDLE;
		else if (bin->pid > 0)
			bin->flags |= NS_BIN_RUNNING;
		if ((bin->flags & NS_BIN_EVENTS) && bin->pid < 0) {
			uint64_t first = ns_visible_graph_next(vis, cpu, i);

			if (first < nr_ev)
				bin->pid = ns_trace_ev_pid(view->trace, cpu, first);
		}
	}
}

int ns_view_bins_cpu(struct ns_view *view, int cpu, struct ns_bin *out)
{
	int ret = ns_bins_cpu(view->bins, cpu, view->start_ns, view->end_ns, view->cols, out);

	if (!ret && ns_visible_graph_filtered(view->visible))
		filter_bins(view, cpu, out);
	return ret;
}

/* Keep the selected row inside the list's rows (in positions, see above). */
static void show_selected(struct ns_view *view)
{
	uint64_t n = ns_view_nr_rows(view), sel = ns_view_list_pos_of_row(view, view->selected);
	uint64_t top = ns_view_list_pos_of_row(view, view->list_top);

	if (sel < top)
		top = sel;
	else if (sel >= top + view->list_rows)
		top = sel - view->list_rows + 1;
	if (n > (uint64_t)view->list_rows && top > n - view->list_rows)
		top = n - view->list_rows;
	else if (n <= (uint64_t)view->list_rows)
		top = 0;
	view->list_top = n ? ns_view_row_at_list_pos(view, top) : 0;
}

void ns_view_resize(struct ns_view *view, int cols, int list_rows)
{
	view->cols = cols > 0 ? cols : 1;
	view->list_rows = list_rows > 0 ? list_rows : 1;
	set_window(view, (int64_t)view->start_ns, view->end_ns - view->start_ns);
	show_selected(view);
}

static bool inside(const struct ns_view *view, uint64_t ts)
{
	return ts >= view->start_ns && ts < view->end_ns;
}

uint64_t ns_view_focus_ns(const struct ns_view *view)
{
	const struct ns_marker *m = &view->marker[view->active_marker];

	if (m->set && inside(view, m->ts_ns))
		return m->ts_ns;
	if (ns_trace_nr_events(view->trace) && inside(view, view->selected_ns))
		return view->selected_ns;
	return view->start_ns + (view->end_ns - view->start_ns) / 2;
}

void ns_view_zoom_at(struct ns_view *view, int steps, uint64_t focus_ns)
{
	uint64_t width = view->end_ns - view->start_ns, nwidth = width;
	long double frac;

	if (focus_ns < view->start_ns || focus_ns >= view->end_ns)
		focus_ns = view->start_ns + width / 2;
	frac = (long double)(focus_ns - view->start_ns) / width;
	for (; steps > 0 && nwidth > 1; steps--)
		nwidth /= NS_VIEW_ZOOM_FACTOR;
	for (; steps < 0 && nwidth < UINT64_MAX / NS_VIEW_ZOOM_FACTOR; steps++)
		nwidth *= NS_VIEW_ZOOM_FACTOR;
	/* the focus stays at the same fraction of the window, so the same column */
	set_window(view, (int64_t)focus_ns - (int64_t)(frac * nwidth), nwidth);
}

void ns_view_zoom(struct ns_view *view, int steps)
{
	ns_view_zoom_at(view, steps, ns_view_focus_ns(view));
}

void ns_view_zoom_full(struct ns_view *view)
{
	uint64_t lo, hi;

	full_range(view, &lo, &hi);
	set_window(view, (int64_t)lo, hi - lo);
}

void ns_view_zoom_max(struct ns_view *view)
{
	ns_view_zoom_at(view, 64, ns_view_focus_ns(view));
}

void ns_view_zoom_range(struct ns_view *view, uint64_t a_ns, uint64_t b_ns)
{
	uint64_t lo = a_ns < b_ns ? a_ns : b_ns, hi = a_ns < b_ns ? b_ns : a_ns;
	uint64_t min_w = (uint64_t)view->cols * NS_VIEW_MIN_NS_PER_COL;

	if (hi - lo < min_w) {
		/* too narrow: the minimum window centred on the range */
		uint64_t mid = lo + (hi - lo) / 2;

		set_window(view, (int64_t)mid - (int64_t)(min_w / 2), min_w);
		return;
	}
	set_window(view, (int64_t)lo, hi - lo);
}

int ns_view_zoom_markers(struct ns_view *view)
{
	uint64_t a = view->marker[NS_MARKER_A].ts_ns, b = view->marker[NS_MARKER_B].ts_ns;

	if (!view->marker[NS_MARKER_A].set || !view->marker[NS_MARKER_B].set)
		return -1;
	/* B may be the earlier; +1: the later marker's own event is inside the window */
	ns_view_zoom_range(view, a < b ? a : b, (a < b ? b : a) + 1);
	return 0;
}

void ns_view_pan(struct ns_view *view, int64_t cols)
{
	uint64_t width = view->end_ns - view->start_ns;
	int64_t shift = (int64_t)((long double)width * cols / view->cols);

	if (!shift && cols)
		shift = cols > 0 ? 1 : -1;
	set_window(view, (int64_t)view->start_ns + shift, width);
}

/* Centre the window, same width, on @ts unless it is inside already. */
static void bring_into_graph(struct ns_view *view, uint64_t ts)
{
	uint64_t width = view->end_ns - view->start_ns;

	if (!inside(view, ts))
		set_window(view, (int64_t)ts - (int64_t)(width / 2), width);
}

/* The shown row nearest @row: itself, else the next shown, else the last. */
static uint64_t shown_row(const struct ns_view *view, uint64_t row)
{
	uint64_t n = ns_view_nr_rows(view), pos;

	if (ns_visible_row(view->visible, row))
		return row;
	pos = ns_view_list_pos_of_row(view, row);
	return ns_view_row_at_list_pos(view, pos < n ? pos : n - 1);
}

void ns_view_select(struct ns_view *view, uint64_t row)
{
	uint64_t n = ns_trace_nr_events(view->trace);

	if (!n || !ns_view_nr_rows(view))
		return;
	view->selected = shown_row(view, row < n ? row : n - 1);
	refresh_selected(view);
	show_selected(view);
	if (view->graph_follows)
		bring_into_graph(view, view->selected_ns);
}

/* The row @delta positions from @row in the list, clamped to the list. */
static uint64_t row_plus(const struct ns_view *view, uint64_t row, int64_t delta)
{
	uint64_t n = ns_view_nr_rows(view);
	int64_t pos = (int64_t)ns_view_list_pos_of_row(view, row) + delta;

	if (pos < 0)
		pos = 0;
	if ((uint64_t)pos >= n)
		pos = (int64_t)n - 1;
	return ns_view_row_at_list_pos(view, (uint64_t)pos);
}

void ns_view_move(struct ns_view *view, int64_t delta_rows)
{
	if (!ns_view_nr_rows(view))
		return;
	ns_view_select(view, row_plus(view, view->selected, delta_rows));
}

void ns_view_scroll(struct ns_view *view, int64_t delta_rows)
{
	uint64_t n = ns_view_nr_rows(view), max_top, top_pos, sel_pos;
	int64_t top;

	if (!n)
		return;
	top = (int64_t)ns_view_list_pos_of_row(view, view->list_top) + delta_rows;
	max_top = n > (uint64_t)view->list_rows ? n - view->list_rows : 0;
	if (top < 0)
		top = 0;
	if ((uint64_t)top > max_top)
		top = (int64_t)max_top;
	top_pos = (uint64_t)top;
	view->list_top = ns_view_row_at_list_pos(view, top_pos);
	/* the selection stays on screen, as in tig and htop */
	sel_pos = ns_view_list_pos_of_row(view, view->selected);
	if (sel_pos < top_pos)
		ns_view_select(view, view->list_top);
	else if (sel_pos >= top_pos + view->list_rows)
		ns_view_select(view, ns_view_row_at_list_pos(view, top_pos + view->list_rows - 1));
}

void ns_view_page(struct ns_view *view, int64_t delta_rows)
{
	uint64_t target;

	if (!ns_view_nr_rows(view))
		return;
	/* the selection and the top move by the same rows, as a page key does */
	target = row_plus(view, view->selected, delta_rows);
	ns_view_scroll(view, delta_rows);
	ns_view_select(view, target);
}

void ns_view_set_visible(struct ns_view *view, const struct ns_visible *vis)
{
	uint64_t top_gap;

	/* keep the selection where it was on the screen, if it stays */
	top_gap = ns_view_list_pos_of_row(view, view->selected) -
		  ns_view_list_pos_of_row(view, view->list_top);
	view->visible = vis;
	if (!ns_view_nr_rows(view)) {
		refresh_selected(view);
		return;
	}
	view->selected = shown_row(view, view->selected);
	refresh_selected(view);
	view->list_top = row_plus(view, view->selected, -(int64_t)top_gap);
	show_selected(view);
}

int ns_view_nearest_row(const struct ns_view *view, int cpu, int col, uint64_t *row)
{
	uint64_t a = ns_window_col_ns(view->start_ns, view->end_ns, view->cols, col);
	uint64_t b = ns_window_col_ns(view->start_ns, view->end_ns, view->cols, col + 1);
	uint64_t mid = a + (b - a) / 2, i, best;
	uint64_t n = ns_trace_cpu_nr_events(view->trace, cpu);

	if (!n)
		return -1;
	i = ns_trace_cpu_lower_bound(view->trace, cpu, mid);
	if (i == n)
		best = n - 1;
	else if (i == 0)
		best = 0;
	else
		best = mid - ns_trace_ev_ts(view->trace, cpu, i - 1) <=
		       ns_trace_ev_ts(view->trace, cpu, i) - mid ? i - 1 : i;
	*row = ns_trace_row_of(view->trace, cpu, best);
	return 0;
}

/*
 * With no list row shown (the filters hide every event, or there is none)
 * the selection is on no event: its row and time are left over, 0 or an
 * event that is hidden, and a marker there would be bogus (issue 9).
 */
int ns_view_set_marker(struct ns_view *view, int which)
{
	if (which < 0 || which >= NS_NR_MARKERS || !ns_view_nr_rows(view))
		return -1;
	view->marker[which].set = 1;
	view->marker[which].row = view->selected;
	view->marker[which].ts_ns = view->selected_ns;
	view->active_marker = which;
	return 0;
}

void ns_view_clear_marker(struct ns_view *view, int which)
{
	if (which >= 0 && which < NS_NR_MARKERS)
		memset(&view->marker[which], 0, sizeof(view->marker[which]));
}

int ns_view_goto_marker(struct ns_view *view, int which)
{
	if (which < 0 || which >= NS_NR_MARKERS || !view->marker[which].set)
		return -1;
	view->active_marker = which;
	ns_view_select(view, view->marker[which].row);
	bring_into_graph(view, view->marker[which].ts_ns);
	return 0;
}

void ns_view_switch_marker(struct ns_view *view)
{
	view->active_marker = view->active_marker == NS_MARKER_A ? NS_MARKER_B : NS_MARKER_A;
}

int ns_view_marker_delta(const struct ns_view *view, int64_t *delta_ns)
{
	if (!view->marker[NS_MARKER_A].set || !view->marker[NS_MARKER_B].set)
		return -1;
	*delta_ns = (int64_t)(view->marker[NS_MARKER_B].ts_ns - view->marker[NS_MARKER_A].ts_ns);
	return 0;
}

char *ns_fmt_ts(char *buf, size_t len, uint64_t ts_ns)
{
	uint64_t us = (ts_ns + 500) / 1000;

	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
	return buf;
}

char *ns_fmt_delta(char *buf, size_t len, int64_t delta_ns)
{
	uint64_t mag = delta_ns < 0 ? -(uint64_t)delta_ns : (uint64_t)delta_ns;
	uint64_t units = (mag + 50) / 100;	/* 100 ns */

	snprintf(buf, len, "%s%llu.%07llu", delta_ns < 0 ? "-" : "",
		 (unsigned long long)(units / 10000000), (unsigned long long)(units % 10000000));
	return buf;
}
