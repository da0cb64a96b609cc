/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: what the screen shows, computed from the trace, with no
 * curses in it. Time bins for the graph (one bin per terminal column, as
 * libkshark's histogram with n = columns), the visible window and its zoom,
 * the selection, markers A and B, "graph follows" and the list's window.
 */
#ifndef NURSESHARK_MODEL_H
#define NURSESHARK_MODEL_H

#include <stdint.h>
#include "nurseshark/trace.h"

/* ---- time bins ---------------------------------------------------------- */

enum ns_bin_flags {
	NS_BIN_EVENTS	= 1 << 0,	/* at least one event recorded in the column */
	NS_BIN_RUNNING	= 1 << 1,	/* a task other than idle ran most of the column */
	NS_BIN_IDLE	= 1 << 2,	/* the CPU was idle (pid 0) most of the column */
	NS_BIN_DROP	= 1 << 3,	/* events were lost just before one of its events */
};

struct ns_bin {
	int32_t pid;		/* the task that ran most of the column, -1 if unknown */
	uint8_t flags;		/* enum ns_bin_flags; 0: nothing known (no data yet) */
};

/*
 * The bins of a trace: summaries of each CPU's runs, built on first use, so
 * that a column covering a million context switches costs as much as one
 * covering ten.
 */
struct ns_bins;

struct ns_bins *ns_bins_open(const struct ns_trace *trace);
void ns_bins_close(struct ns_bins *bins);
/* How many run or summary entries all calls so far have added up (for tests). */
uint64_t ns_bins_visited(const struct ns_bins *bins);

/**
 * ns_bins_cpu - one bin per column for one CPU
 * @start_ns, @end_ns: the window [start_ns, end_ns)
 * @cols: number of columns; column c covers [ns_window_col_ns(c), ns_window_col_ns(c + 1))
 * @out: @cols bins
 *
 * The task of a column is exact while the column holds at most
 * NS_BINS_EXACT_RUNS context switches; beyond, it comes from mergeable
 * summaries (Misra-Gries, NS_BINS_SUMMARY_K counters) and is a task whose
 * time in the column is within 1/(NS_BINS_SUMMARY_K + 1) of the column's
 * width of the longest-running task's. Cost grows with @cols and
 * log(switches), not with the events or switches in the window.
 * Returns 0 or a negative errno.
 */
int ns_bins_cpu(struct ns_bins *bins, int cpu, uint64_t start_ns, uint64_t end_ns,
		int cols, struct ns_bin *out);

#define NS_BINS_EXACT_RUNS	64
#define NS_BINS_SUMMARY_K	8

/* Start of column @col of a window of @cols columns (col may be == cols). */
uint64_t ns_window_col_ns(uint64_t start_ns, uint64_t end_ns, int cols, int col);
/* Column of @ts_ns in the window, or -1 when outside. */
int ns_window_ns_col(uint64_t start_ns, uint64_t end_ns, int cols, uint64_t ts_ns);

/* ---- formatting of times ------------------------------------------------ */

/* "10171.572790": seconds.microseconds, rounded as trace-cmd report does. */
char *ns_fmt_ts(char *buf, size_t len, uint64_t ts_ns);
/* "-0.0012345": a signed delta in seconds with 100 ns precision. */
char *ns_fmt_delta(char *buf, size_t len, int64_t delta_ns);

/* ---- the view ----------------------------------------------------------- */

#define NS_VIEW_ZOOM_FACTOR	2	/* one zoom step halves or doubles the width */
#define NS_VIEW_MIN_NS_PER_COL	1	/* zooming in stops at 1 ns per column */

enum ns_marker_id {
	NS_MARKER_A,
	NS_MARKER_B,
	NS_NR_MARKERS,
};

struct ns_marker {
	int set;
	uint64_t row;		/* the event the marker sits on */
	uint64_t ts_ns;
};

struct ns_view {
	const struct ns_trace *trace;
	struct ns_bins *bins;		/* owned: ns_view_free() */
	uint64_t start_ns, end_ns;	/* graph window [start_ns, end_ns) */
	int cols;			/* graph columns */
	uint64_t selected;		/* selected row (0 in an empty trace) */
	uint64_t selected_ns;		/* its timestamp */
	int selected_cpu;		/* its CPU (-1 in an empty trace) */
	uint64_t list_top;		/* first row shown in the list */
	int list_rows;			/* rows the list pane shows */
	struct ns_marker marker[NS_NR_MARKERS];
	int active_marker;		/* enum ns_marker_id */
	int graph_follows;		/* selecting a row brings it into the graph */
	/* the filters' result (filter.h); NULL: every row is in the list */
	const struct ns_visible *visible;
};

struct ns_visible;

/* Returns 0, or -ENOMEM. The window starts as the whole trace. */
int ns_view_init(struct ns_view *view, const struct ns_trace *trace, int cols,
		 int list_rows);
void ns_view_free(struct ns_view *view);
/* The bins of the current window for one CPU (@out: view->cols bins). */
int ns_view_bins_cpu(struct ns_view *view, int cpu, struct ns_bin *out);
/* New pane sizes; keeps the window and the selection visible. */
void ns_view_resize(struct ns_view *view, int cols, int list_rows);

/*
 * The point of interest that zoom keeps at its column: the active marker if
 * it is set and inside the window, else the selected event if inside the
 * window, else the window's centre.
 */
uint64_t ns_view_focus_ns(const struct ns_view *view);

/* Zoom by NS_VIEW_ZOOM_FACTOR per step (steps > 0: in, < 0: out), around the focus. */
void ns_view_zoom(struct ns_view *view, int steps);
/* Zoom around a given time kept at its column (mouse wheel). */
void ns_view_zoom_at(struct ns_view *view, int steps, uint64_t focus_ns);
void ns_view_zoom_full(struct ns_view *view);	/* the whole trace */
void ns_view_zoom_max(struct ns_view *view);	/* all the way in, around the focus */
/* Window [a, b) clamped to the trace and to the minimum width. */
void ns_view_zoom_range(struct ns_view *view, uint64_t a_ns, uint64_t b_ns);
/* Zoom to the A-B range; -1 if either marker is unset. */
int ns_view_zoom_markers(struct ns_view *view);
/* Shift the window by @cols columns (negative: left), clamped to the trace. */
void ns_view_pan(struct ns_view *view, int64_t cols);

/* Select a row; the list scrolls to show it; with graph_follows the window
 * moves (same width) to hold it when it is outside. */
void ns_view_select(struct ns_view *view, uint64_t row);
void ns_view_move(struct ns_view *view, int64_t delta_rows);
/* Scroll the list without moving the selection off screen. */
void ns_view_scroll(struct ns_view *view, int64_t delta_rows);
/* A page key: the selection and the list's top move by the same rows. */
void ns_view_page(struct ns_view *view, int64_t delta_rows);

/**
 * ns_view_nearest_row - the event of @cpu nearest to the centre of column @col
 * Returns 0 with *row set, or -1 when the CPU has no event at all.
 */
int ns_view_nearest_row(const struct ns_view *view, int cpu, int col, uint64_t *row);

/* Marker @which on the selected event: 0, or -1 when no list row is shown (none set). */
int ns_view_set_marker(struct ns_view *view, int which);
void ns_view_clear_marker(struct ns_view *view, int which);
/* Select the marker's event (and bring it into the graph); -1 if unset. */
int ns_view_goto_marker(struct ns_view *view, int which);
void ns_view_switch_marker(struct ns_view *view);
/* B - A in ns; -1 (and *delta untouched) unless both are set. */
int ns_view_marker_delta(const struct ns_view *view, int64_t *delta_ns);

/*
 * With filters (view->visible), the list is the rows they show, in the same
 * order: the selection and the list's top are always shown rows, moves and
 * scrolls count shown rows. The rest of the view is unchanged.
 */
/* Use @vis (NULL: none; not owned); the selection moves to a shown row. */
void ns_view_set_visible(struct ns_view *view, const struct ns_visible *vis);
/* Rows in the list. */
uint64_t ns_view_nr_rows(const struct ns_view *view);
/* Position of @row in the list (shown rows before it). */
uint64_t ns_view_list_pos_of_row(const struct ns_view *view, uint64_t row);
/* The row at list position @pos (ns_trace_nr_events() past the end). */
uint64_t ns_view_row_at_list_pos(const struct ns_view *view, uint64_t pos);

#endif
