/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: latency and field plots, the graph rows of KernelShark's
 * latency_plot and event_field_plot plugins, without curses.
 *
 *   latency A B [FIELD]   the time from an event A to the next event B with
 *                         the same FIELD value (FIELD_A,FIELD_B: A's
 *                         FIELD_A equals B's FIELD_B; none: the same pid,
 *                         common_pid); a point at B's time, of that length
 *   plot EVENT FIELD      FIELD's value of every EVENT, a point at its time
 *
 * Pairs: events A and B are taken in the list's order; a B whose value has
 * an A waiting closes it (one pair) and the A is used up; an A whose value
 * already has one waiting takes its place (the wait is from the last A: a
 * sched_waking of a task that then ran without a switch, say, is no wait).
 * When A and B are the same event, each event closes a pair first, then
 * opens one. Points are computed once, when the row is made; a window of
 * any width then costs a binary search and a range maximum per column.
 */
#ifndef NURSESHARK_MODEL_PLOTS_H
#define NURSESHARK_MODEL_PLOTS_H

#include <stddef.h>
#include <stdint.h>
#include "nurseshark/trace.h"

enum ns_plot_kind {
	NS_PLOT_LATENCY,
	NS_PLOT_FIELD,
};

#define NS_PLOT_NAME_LEN	64

/* What a plot row plots: the arguments of its command. */
struct ns_plot_spec {
	int kind;				/* enum ns_plot_kind */
	char event[2][NS_PLOT_NAME_LEN];	/* A and B; a field plot: [0] */
	/* latency: the fields paired of A and B ("" for both: common_pid); field plot: [0] */
	char field[2][NS_PLOT_NAME_LEN];
};

/* "latency" or "plot": the command, and the name in a session's [graph]. */
const char *ns_plot_kind_name(int kind);
/* The kind named @name, or -1. */
int ns_plot_kind_from_name(const char *name);

/**
 * ns_plot_spec_parse - the arguments of :latency or :plot
 * @args: "A B [FIELD|FIELD_A,FIELD_B]" or "EVENT FIELD", blank separated
 * @err: the usage when they do not parse
 * Returns 0 or -EINVAL.
 */
int ns_plot_spec_parse(struct ns_plot_spec *s, int kind, const char *args, char *err,
		       size_t err_len);
/* The arguments again, as parse takes them (one form for each spec). */
void ns_plot_spec_args(const struct ns_plot_spec *s, char *buf, size_t len);
/* "latency A B F" / "plot E F": the kind's name, a blank and the arguments. */
void ns_plot_spec_line(const struct ns_plot_spec *s, char *buf, size_t len);
/* ns_plot_spec_parse() of such a line. */
int ns_plot_spec_parse_line(struct ns_plot_spec *s, const char *line, char *err, size_t err_len);

/* Do the trace's events have what @s names (events, numeric fields)? 0, or -ENOENT/-EINVAL. */
int ns_plot_spec_check(struct ns_trace *trace, const struct ns_plot_spec *s, char *err,
		       size_t err_len);

/* One point: a latency at its B, or a field's value at its event. */
struct ns_plot_point {
	uint64_t ts_ns;
	int64_t value;		/* ns for a latency */
	int cpu;		/* the event (B for a latency) */
	uint64_t idx;
};

struct ns_plot;

/**
 * ns_plot_open - a plot row's points, read from the trace
 * @err: why not: an unknown event, a field it lacks or that is no number,
 *       no event of the type, no pair
 * Returns the plot, or NULL with @err filled in.
 */
struct ns_plot *ns_plot_open(struct ns_trace *trace, const struct ns_plot_spec *s, char *err,
			     size_t err_len);
void ns_plot_close(struct ns_plot *p);

/*
 * The same in slices, for the screen (its background jobs): begin checks
 * the spec (NULL with @err), step reads about @budget more events of the
 * trace (1: all read, 0: more to read, or a negative errno), take makes the
 * plot once all are read (NULL with @err: out of memory, or no point).
 */
struct ns_plot_job;
struct ns_plot_job *ns_plot_job_begin(struct ns_trace *trace, const struct ns_plot_spec *s,
				      char *err, size_t err_len);
int ns_plot_job_step(struct ns_plot_job *j, uint64_t budget);
void ns_plot_job_progress(const struct ns_plot_job *j, uint64_t *done, uint64_t *total);
const struct ns_plot_spec *ns_plot_job_spec(const struct ns_plot_job *j);
struct ns_plot *ns_plot_job_take(struct ns_plot_job *j, char *err, size_t err_len);
void ns_plot_job_free(struct ns_plot_job *j);
const struct ns_plot_spec *ns_plot_get_spec(const struct ns_plot *p);
uint64_t ns_plot_nr_points(const struct ns_plot *p);
/* Point @i in time order: 0, or -ENOENT past the end. */
int ns_plot_point(const struct ns_plot *p, uint64_t i, struct ns_plot_point *out);

/* The points of a window: how many, and the least and greatest value. */
struct ns_plot_range {
	uint64_t nr;
	int64_t min, max;	/* 0, 0 when nr is 0 */
};

/* One column: its greatest value, if it has a point. */
struct ns_plot_col {
	int64_t max;
	uint32_t nr;		/* points in the column (saturates) */
};

/**
 * ns_plot_cols - per column of the window [start_ns, end_ns), the greatest value
 * @out: @cols columns, column c covering [ns_window_col_ns(c), ns_window_col_ns(c + 1))
 * @range: the window's points (may be NULL)
 *
 * O(cols * log(points)): a binary search for each column's first point and
 * a range maximum over a max tree of the points.
 */
void ns_plot_cols(const struct ns_plot *p, uint64_t start_ns, uint64_t end_ns, int cols,
		  struct ns_plot_col *out, struct ns_plot_range *range);

/* The points whose time is in [a_ns, b_ns). */
void ns_plot_range(const struct ns_plot *p, uint64_t a_ns, uint64_t b_ns,
		   struct ns_plot_range *out);

/**
 * ns_plot_level - the height of @v on a scale of @levels steps, 1..levels
 * The scale runs from min(0, range->min) to max(0, range->max): a latency,
 * never negative, from 0 to the window's greatest. A flat scale gives @levels.
 */
int ns_plot_level(int64_t v, const struct ns_plot_range *range, int levels);

/* The point nearest to @ts_ns: 0 with *cpu and *idx, or -1 when none. */
int ns_plot_nearest(const struct ns_plot *p, uint64_t ts_ns, int *cpu, uint64_t *idx);

/* A time in ns, short, for a label: "870ns", "12.3us", "1.23ms", "2.50s". */
char *ns_plot_fmt_ns(char *buf, size_t len, int64_t ns);

#endif
