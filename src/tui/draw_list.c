// SPDX-License-Identifier: GPL-2.0-only
/*
 * The list pane: a header, then one event per row in `trace-cmd report`
 * order with the columns #, CPU, Time, Task, PID, Lat, Event, Info. Only the
 * rows on screen are read back and formatted (ns_trace_rows, then
 * ns_trace_format), so a trace of millions of events scrolls as fast as a
 * small one. A one-column gutter at the left shows the markers' letters;
 * Info takes the rest of the width and scrolls sideways; its newlines
 * (stack traces) are shown as the glyph set's separator. With filters, the
 * rows are the shown ones (ns_view_row_at_list_pos), each found on its own. What
 * the last search matches is highlighted in each column it matches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui-int.h"
#include "filtering.h"

enum list_col {
	COL_NUM,
	COL_CPU,
	COL_TIME,
	COL_TASK,
	COL_PID,
	COL_LAT,
	COL_EVENT,
	COL_INFO,
	NR_COLS,
};

static const struct {
	const char *title;
	int right;		/* right-aligned (numbers) */
} col_desc[NR_COLS] = {
	[COL_NUM] = { "#", 1 },
	[COL_CPU] = { "CPU", 1 },
	[COL_TIME] = { "Time", 0 },
	[COL_TASK] = { "Task", 0 },
	[COL_PID] = { "PID", 1 },
	[COL_LAT] = { "Lat", 0 },
	[COL_EVENT] = { "Event", 0 },
	[COL_INFO] = { "Info", 0 },
};

/*
 * The CPU column: the CPU's number; with instance buffers (streams), an
 * instance's CPU as "b1:0", so that the line says which stream it is from.
 * Several files: the name report gives the line, short: "sample:0" for
 * sample.dat's CPU 0, "b1:0" for its instance b1's.
 */
static void cpu_cell(const struct ns_tui *t, int slot, int cpu, char *buf, size_t len)
{
	const char *name = ns_trace_stream_name(t->trace, ns_trace_cpu_stream(t->trace, slot));
	const char *colon = ns_trace_nr_files(t->trace) > 1 ? strrchr(name, ':') : NULL;
	size_t n;

	name = colon ? colon + 1 : name;
	n = strlen(name);
	if (ns_trace_nr_files(t->trace) > 1 && n > 4 && !strcmp(name + n - 4, ".dat"))
		n -= 4;
	if (*name)
		snprintf(buf, len, "%.*s:%d", (int)(n < NS_TUI_STREAM_NAME_W ? n :
			 NS_TUI_STREAM_NAME_W), name, cpu);
	else
		snprintf(buf, len, "%d", cpu);
}

static int cpu_col_width(const struct ns_tui *t)
{
	int nr = ns_trace_nr_cpus(t->trace), w = ns_tui_digits(nr > 1 ? nr - 1 : 0), slot;
	char buf[64];

	/* "b1:0" for an instance's, also when --buffer read an instance alone */
	for (slot = 0; slot < nr; slot++) {
		cpu_cell(t, slot, ns_trace_cpu_number(t->trace, slot), buf, sizeof(buf));
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

struct columns {
	int x[NR_COLS];
	int w[NR_COLS];
};

#define EVENT_MIN_W	5	/* "Event" */
#define EVENT_MAX_W	32
#define TASK_MIN_W	8

/*
 * Column widths. Event is as wide as the longest event name on screen
 * (@event_need), within EVENT_MIN_W..EVENT_MAX_W, so that sched_process_exec
 * and sched_process_exit are told apart; Info keeps a few columns (a dozen
 * at 80). When the name does not fit, other columns make room first, in
 * this order: Lat goes, Task narrows to TASK_MIN_W, CPU goes, PID goes;
 * only then is the name cut. The other widths are fixed for a trace and a
 * terminal width.
 */
static void place_columns(const struct ns_tui *t, struct columns *c, int event_need)
{
	uint64_t n = ns_trace_nr_events(t->trace);
	int cols = t->lay.cols;
	int tier = cols >= 140 ? 2 : cols >= 100 ? 1 : 0;
	static const int task_w[] = { 12, 15, 16 }, pid_w[] = { 5, 6, 7 };
	int info_min = cols >= 80 ? 12 : cols >= 60 ? 8 : 0;
	int i, x = 1, room;	/* column 0: the markers' gutter */

	c->w[COL_NUM] = ns_tui_digits(n > 1 ? n - 1 : 0);
	c->w[COL_CPU] = cpu_col_width(t);
	if (c->w[COL_CPU] < 3)
		c->w[COL_CPU] = 3;
	c->w[COL_TIME] = ns_tui_ts_width(t);
	/* comm has at most 15 characters; wider terminals get whole names */
	c->w[COL_TASK] = task_w[tier];
	c->w[COL_PID] = pid_w[tier];
	c->w[COL_LAT] = 5;
	if (event_need < EVENT_MIN_W)
		event_need = EVENT_MIN_W;
	if (event_need > EVENT_MAX_W)
		event_need = EVENT_MAX_W;
	/* what is left for Event once the columns before it and Info's minimum are placed */
	room = cols - 1 - info_min;
	for (i = 0; i < COL_EVENT; i++)
		room -= c->w[i] + 1;
	if (room < event_need) {
		room += c->w[COL_LAT] + 1;
		c->w[COL_LAT] = 0;
	}
	if (room < event_need) {
		int give = c->w[COL_TASK] - TASK_MIN_W;

		if (give > event_need - room)
			give = event_need - room;
		c->w[COL_TASK] -= give;
		room += give;
	}
	if (room < event_need) {
		room += c->w[COL_CPU] + 1;
		c->w[COL_CPU] = 0;
	}
	if (room < event_need) {
		room += c->w[COL_PID] + 1;
		c->w[COL_PID] = 0;
	}
	c->w[COL_EVENT] = room < event_need ? (room > EVENT_MIN_W ? room : EVENT_MIN_W) :
			  event_need;
	for (i = 0; i < COL_INFO; i++) {
		c->x[i] = x;
		if (c->w[i])
			x += c->w[i] + 1;
	}
	c->x[COL_INFO] = x;
	c->w[COL_INFO] = t->lay.cols > x ? t->lay.cols - x : 0;
}

static void put_col(struct ns_tui *t, const struct columns *c, int y, int col, const char *s,
		    attr_t attr)
{
	char buf[64];

	if (col_desc[col].right) {
		snprintf(buf, sizeof(buf), "%*s", c->w[col], s);
		s = buf;
	}
	ns_tui_put_text(t->list, &t->glyphs, y, c->x[col], c->w[col], s, 0, attr);
}

static void draw_header(struct ns_tui *t, const struct columns *c)
{
	attr_t attr = t->theme.attr[NS_ROLE_LIST_HEADER];
	char info[32];
	int i;

	ns_tui_fill(t->list, 0, 0, t->lay.cols, attr);
	for (i = 0; i < COL_INFO; i++)
		put_col(t, c, 0, i, col_desc[i].title, attr);
	if (t->info_scroll)
		snprintf(info, sizeof(info), "Info (+%d)", t->info_scroll);
	else
		snprintf(info, sizeof(info), "Info");
	put_col(t, c, 0, COL_INFO, info, attr);
}

/* The Info column: a note on lost events first, then the text, scrolled. */
static void draw_info(struct ns_tui *t, const struct columns *c, int y, attr_t attr)
{
	const struct ns_event_text *txt = &t->txt;
	int x = c->x[COL_INFO], w = c->w[COL_INFO], used = 0, need;
	char lost[48] = "";

	if (txt->missed > 0)
		snprintf(lost, sizeof(lost), "[%lld EVENTS DROPPED] ", txt->missed);
	else if (txt->missed < 0)
		snprintf(lost, sizeof(lost), "[EVENTS DROPPED] ");
	if (lost[0]) {
		used = (int)strlen(lost) < w ? (int)strlen(lost) : w;
		ns_tui_put_text(t->list, &t->glyphs, y, x, used, lost, 0,
				t->theme.attr[NS_ROLE_LIST_LOST]);
	}
	need = ns_tui_put_text(t->list, &t->glyphs, y, x + used, w - used,
			       txt->info ? txt->info : "", t->info_scroll, attr);
	if (t->info_scroll + need > t->info_max)
		t->info_max = t->info_scroll + need;
}

/*
 * Mark @len characters from @start of a column's cell of @cell_len
 * characters (shifted left by @skip where the column scrolls) as a match.
 */
static void mark_match(struct ns_tui *t, const struct columns *c, int y, int col,
		       size_t cell_len, size_t start, size_t len, int skip)
{
	int x, w;

	x = c->x[col];
	w = c->w[col];
	if (col_desc[col].right && (int)cell_len < w)
		x += w - (int)cell_len;
	x += (int)start - skip;
	if (x < c->x[col]) {
		len -= (size_t)(c->x[col] - x) < len ? (size_t)(c->x[col] - x) : len;
		x = c->x[col];
	}
	if ((int)len > c->x[col] + w - x)
		len = (size_t)(c->x[col] + w - x);
	if (len > 0)
		mvwchgat(t->list, y, x, (int)len, t->theme.attr[NS_ROLE_SEARCH_MATCH] & ~A_COLOR,
			 PAIR_NUMBER(t->theme.attr[NS_ROLE_SEARCH_MATCH]), NULL);
}

/* The search's match in one column's text, over what was drawn there. */
static void highlight(struct ns_tui *t, const struct columns *c, int y, int col, int scol,
		      const char *text, int skip)
{
	const struct ns_search *s = t->flt ? t->flt->search : NULL;
	size_t start, len;

	if (s && ns_search_span(s, scol, text, &start, &len))
		mark_match(t, c, y, col, strlen(text), start, len, skip);
}

/*
 * The CPU column tells two things, an instance's name and the CPU's number
 * ("b1:0"): a CPU search marks the number, a stream search the name (the
 * whole cell for the top buffer's rows, which show no name), a search of
 * the whole line whatever it finds in the cell.
 */
static void highlight_cpu(struct ns_tui *t, const struct columns *c, int y, int slot, int cpu)
{
	const struct ns_search *s = t->flt ? t->flt->search : NULL;
	const char *name = ns_trace_stream_name(t->trace, ns_trace_cpu_stream(t->trace, slot));
	char cell[64], num[16];
	size_t start, len, shown, cell_len;

	if (!s)
		return;
	cpu_cell(t, slot, cpu, cell, sizeof(cell));
	cell_len = strlen(cell);
	switch (ns_search_spec(s)->column) {
	case NS_SEARCH_ANY:
		highlight(t, c, y, COL_CPU, NS_SEARCH_CPU, cell, 0);
		return;
	case NS_SEARCH_CPU:
		snprintf(num, sizeof(num), "%d", cpu);
		if (ns_search_span(s, NS_SEARCH_CPU, num, &start, &len))
			mark_match(t, c, y, COL_CPU, cell_len, cell_len - strlen(num) + start, len,
				   0);
		return;
	case NS_SEARCH_STREAM:
		/* as the search names streams: "top" for the top buffer */
		if (!ns_search_span(s, NS_SEARCH_STREAM, *name ? name : NS_TRACE_TOP_NAME, &start,
				    &len))
			return;
		if (!*name) {
			mark_match(t, c, y, COL_CPU, cell_len, 0, cell_len, 0);
			return;
		}
		shown = strlen(name) < NS_TUI_STREAM_NAME_W ? strlen(name) : NS_TUI_STREAM_NAME_W;
		/* the name as the cell cuts it; a match past the cut marks what is shown */
		if (start >= shown)
			start = 0, len = shown;
		if (start + len > shown)
			len = shown - start;
		mark_match(t, c, y, COL_CPU, cell_len, start, len, 0);
		return;
	default:
		return;
	}
}

static void draw_row(struct ns_tui *t, const struct columns *c, int y, uint64_t row,
		     const struct ns_pos *pos)
{
	const struct ns_view *v = &t->view;
	const struct ns_tui_theme *th = &t->theme;
	attr_t attr = th->attr[row == v->selected ? NS_ROLE_LIST_SELECTED : NS_ROLE_NORMAL];
	char buf[32];
	int m, ret;

	ns_tui_fill(t->list, y, 0, t->lay.cols, attr);
	for (m = 0; m < NS_NR_MARKERS; m++) {
		/* the active marker's letter wins when both sit on this row */
		int which = m == 0 ? !v->active_marker : v->active_marker;

		if (v->marker[which].set && v->marker[which].row == row)
			ns_tui_put_glyph(t->list, y, 0, L'A' + which,
					 th->attr[which ? NS_ROLE_MARKER_B : NS_ROLE_MARKER_A]);
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)row);
	put_col(t, c, y, COL_NUM, buf, attr);

	ret = ns_trace_format(t->trace, pos->cpu, pos->idx, &t->txt);
	if (ret) {
		cpu_cell(t, pos->cpu, ns_trace_cpu_number(t->trace, pos->cpu), buf, sizeof(buf));
		put_col(t, c, y, COL_CPU, buf, attr);
		put_col(t, c, y, COL_INFO, ret == -ESTALE ? "(" NS_TRACE_CHANGED_MSG ")" :
			"(this event cannot be read back from the file)",
			th->attr[NS_ROLE_LIST_LOST]);
		if (ret == -ESTALE)
			ns_tui_message(t, "%s", NS_TRACE_CHANGED_MSG);
		return;
	}
	cpu_cell(t, t->txt.slot, t->txt.cpu, buf, sizeof(buf));
	put_col(t, c, y, COL_CPU, buf, attr);
	/* config.ini's time-format = nsec: as trace-cmd report -t */
	if (t->time_nsec) {
		struct ns_event ev;
		bool ok = !ns_trace_row_event(t->trace, row, NULL, &ev);

		put_col(t, c, y, COL_TIME, ok ? ns_tui_fmt_ts(t, buf, sizeof(buf), ev.ts_ns) : "",
			attr);
	} else {
		put_col(t, c, y, COL_TIME, t->txt.time, attr);
	}
	put_col(t, c, y, COL_TASK, t->txt.comm, attr);
	snprintf(buf, sizeof(buf), "%d", t->txt.pid);
	put_col(t, c, y, COL_PID, buf, attr);
	put_col(t, c, y, COL_LAT, t->txt.latency, attr);
	put_col(t, c, y, COL_EVENT, t->txt.event, attr);
	draw_info(t, c, y, attr);
	highlight(t, c, y, COL_TASK, NS_SEARCH_TASK, t->txt.comm, 0);
	snprintf(buf, sizeof(buf), "%d", t->txt.pid);
	highlight(t, c, y, COL_PID, NS_SEARCH_PID, buf, 0);
	highlight_cpu(t, c, y, t->txt.slot, t->txt.cpu);
	highlight(t, c, y, COL_EVENT, NS_SEARCH_EVENT, t->txt.event, 0);
	if (!t->txt.missed)
		highlight(t, c, y, COL_INFO, NS_SEARCH_INFO, t->txt.info ? t->txt.info : "",
			  t->info_scroll);
}

/* The longest event name of the rows on screen. */
static int event_width(struct ns_tui *t, int rows)
{
	const struct ns_view *v = &t->view;
	int i, w = 0, len, filtered = ns_visible_list_filtered(v->visible);
	size_t got = 0;

	if (!filtered)
		got = ns_trace_rows(t->trace, v->list_top, rows, t->rows);
	for (i = 0; i < rows; i++) {
		const char *name;
		struct ns_pos pos;

		if (!filtered) {
			if (i >= (int)got)
				break;
			pos = t->rows[i];
		} else {
			uint64_t row = ns_view_row_at_list_pos(v, ns_view_list_pos_of_row(v, v->list_top) + i);

			if (row >= ns_trace_nr_events(t->trace) ||
			    ns_trace_rows(t->trace, row, 1, &pos) != 1)
				break;
		}
		name = ns_trace_event_name(t->trace, ns_trace_ev_type(t->trace, pos.cpu, pos.idx));
		len = name ? (int)strlen(name) : 6;	/* "(NULL)" */
		if (len > w)
			w = len;
	}
	return w;
}

void ns_tui_draw_list(struct ns_tui *t)
{
	const struct ns_view *v = &t->view;
	int rows = t->lay.list_h - 1, i;
	struct columns c;
	size_t got;

	werase(t->list);
	place_columns(t, &c, event_width(t, rows));
	draw_header(t, &c);
	t->info_max = 0;
	if (!ns_trace_nr_events(t->trace)) {
		ns_tui_put_text(t->list, &t->glyphs, 1, 1, t->lay.cols - 1,
				"(no events in this trace)", 0, t->theme.attr[NS_ROLE_NORMAL]);
		return;
	}
	if (!ns_view_nr_rows(v)) {
		ns_tui_put_text(t->list, &t->glyphs, 1, 1, t->lay.cols - 1,
				"(the filters hide every event: u clears them, F lists them)", 0,
				t->theme.attr[NS_ROLE_NORMAL]);
		return;
	}
	if (!ns_visible_list_filtered(v->visible)) {
		got = ns_trace_rows(t->trace, v->list_top, rows, t->rows);
		for (i = 0; i < (int)got; i++)
			draw_row(t, &c, 1 + i, v->list_top + i, &t->rows[i]);
		return;
	}
	/* shown rows are seldom neighbours: each is found from its position */
	for (i = 0; i < rows; i++) {
		uint64_t row = ns_view_row_at_list_pos(v,
						       ns_view_list_pos_of_row(v, v->list_top) + i);
		struct ns_pos pos;

		if (row >= ns_trace_nr_events(t->trace) || ns_trace_rows(t->trace, row, 1, &pos) != 1)
			break;
		draw_row(t, &c, 1 + i, row, &pos);
	}
}
