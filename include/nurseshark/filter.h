/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: the filter set, what the user chose to narrow the trace down
 * to: show-only and hide filters on tasks, events, event systems, CPUs and
 * advanced expressions (the syntax of `trace-cmd report -F`), each applied to
 * the graph, the list or both; the task rows of the graph; the CPU rows
 * hidden; and the last search.
 *
 * Four things filter, each under its own name: the filter set (struct
 * ns_filter_set, here: what the user chose); the command line's filter
 * options (struct ns_filter_args: --cpu, --pid, --task, -F, -v, which become
 * entries of a set); the visibility pass (struct ns_visible_pass, visible.c:
 * a set applied to a trace, giving a struct ns_visible); and the -F
 * expressions as libtraceevent compiles them (struct ns_trace_exprs,
 * src/trace/exprs.c), which the pass tests records with.
 *
 * THIS HEADER IS THE CONTRACT WITH SESSIONS (src/session). A session saves a
 * filter set by enumerating it with the accessors below and restores it with
 * the add/set calls, using the names of ns_filter_*_name() in its file; it
 * never looks inside struct ns_filter_set. The API only grows: nothing here
 * changes meaning or disappears.
 *
 * A filter set is plain data, independent of any trace: tasks by pid, events
 * by "system/event" name, systems by name, CPUs by number, expressions as
 * text. Applying it to a trace (which may not know an event, or may refuse an
 * expression) is the job of the visibility pass declared further down.
 *
 * What is visible, per pane (graph or list), is the conjunction of the
 * categories, each judged only by the entries that apply to that pane:
 *   task      shown if no show-only task entry, or the event's pid is in one;
 *             and the pid is in no hide entry
 *   event     shown if no show-only event/system entry, or the event is in
 *             one (by its name or its system); and in no hide entry
 *   cpu       likewise with the event's CPU
 *   stream    likewise with the event's stream (the buffer it was recorded
 *             in, by name: "top" for the top buffer, as --buffer); a stream
 *             is a group of CPU slots, so the pass judges it by the slot;
 *             a name the trace has no stream of matches no event
 *   advanced  shown if no show-only expression, or one matches (OR-ed, as
 *             several -F in trace-cmd report); and no hide expression matches
 *             (as the -F after -v)
 * CPU rows hidden with ns_filter_set_hide_cpu() only take the row out of the
 * graph; they filter no event.
 */
#ifndef NURSESHARK_FILTER_H
#define NURSESHARK_FILTER_H

#include <stddef.h>
#include <stdint.h>

enum ns_filter_kind {
	NS_FILTER_TASK,		/* value: pid */
	NS_FILTER_EVENT,	/* name: "system/event" ("sched/sched_switch") */
	NS_FILTER_SYSTEM,	/* name: "sched" */
	NS_FILTER_CPU,		/* value: cpu */
	NS_FILTER_ADVANCED,	/* name: "sched/sched_switch: prev_pid == 0" (report -F) */
	NS_FILTER_STREAM,	/* name: a buffer's ("b1"; "top": the top buffer) */
	NS_NR_FILTER_KINDS,
};

enum ns_filter_mode {
	NS_FILTER_SHOW,		/* show only what matches (or another show entry does) */
	NS_FILTER_HIDE,		/* hide what matches */
	NS_NR_FILTER_MODES,
};

/* Where an entry applies: a bit mask. */
enum ns_filter_where {
	NS_FILTER_GRAPH = 1 << 0,
	NS_FILTER_LIST = 1 << 1,
	NS_FILTER_BOTH = NS_FILTER_GRAPH | NS_FILTER_LIST,
};

struct ns_filter_entry {
	int kind;		/* enum ns_filter_kind */
	int mode;		/* enum ns_filter_mode */
	int where;		/* enum ns_filter_where: GRAPH, LIST or BOTH */
	int value;		/* TASK: pid; CPU: cpu; else 0 */
	const char *name;	/* EVENT, SYSTEM, ADVANCED, STREAM: the text; else NULL */
};

struct ns_filter_set;

struct ns_filter_set *ns_filter_set_alloc(void);
void ns_filter_set_free(struct ns_filter_set *fs);

/**
 * ns_filter_set_generation - a counter bumped by every change of the set
 *
 * Whoever caches what a set selects (the visibility pass, a session's
 * "modified" flag) compares it with the value it saw last.
 */
uint64_t ns_filter_set_generation(const struct ns_filter_set *fs);

/* ---- filter entries ---------------------------------------------------- */

int ns_filter_set_nr_entries(const struct ns_filter_set *fs);

/**
 * ns_filter_set_entry - entry @i (0 <= i < ns_filter_set_nr_entries())
 * @out: filled in; out->name points into the set, valid until it changes
 * Returns 0, or -ERANGE.
 */
int ns_filter_set_entry(const struct ns_filter_set *fs, int i, struct ns_filter_entry *out);

/**
 * ns_filter_set_add - add an entry (its name is copied)
 *
 * An entry equal to one already there (same kind, mode, value and name)
 * merges into it: its where bits are OR-ed in. An entry of the opposite
 * mode on the same thing is replaced, so "only this task" after "hide this
 * task" does what it says.
 * Returns 0, or -EINVAL (bad kind, mode or where, a missing name, a negative
 * pid or cpu), or -ENOMEM.
 */
int ns_filter_set_add(struct ns_filter_set *fs, const struct ns_filter_entry *e);

/* Remove entry @i. Returns 0, or -ERANGE. */
int ns_filter_set_remove(struct ns_filter_set *fs, int i);

/* Remove every filter entry; task and plot rows, CPU rows and the search stay. */
void ns_filter_set_clear_entries(struct ns_filter_set *fs);

/* Make @dst a copy of @src: entries, task and plot rows, CPU rows, search. 0 or -ENOMEM. */
int ns_filter_set_copy(struct ns_filter_set *dst, const struct ns_filter_set *src);
/* Do the two sets hold the same entries, in the same order? */
int ns_filter_set_same_entries(const struct ns_filter_set *a, const struct ns_filter_set *b);

/* ---- task rows: a graph row per task, in the order they were added ----- */

int ns_filter_set_nr_task_rows(const struct ns_filter_set *fs);
/* The pid of task row @i, or -1 when out of range. */
int ns_filter_set_task_row(const struct ns_filter_set *fs, int i);
/* Returns 1 when @pid has a task row, else 0. */
int ns_filter_set_has_task_row(const struct ns_filter_set *fs, int pid);
/* Add a row for @pid at the end (no-op if it has one). 0, -EINVAL or -ENOMEM. */
int ns_filter_set_add_task_row(struct ns_filter_set *fs, int pid);
/* Remove @pid's row. 0, or -ENOENT. */
int ns_filter_set_remove_task_row(struct ns_filter_set *fs, int pid);

/*
 * ---- plot rows: latency and field plots (model_plots.h), below the task
 * rows in the order they were added, each kept as its command line
 * ("latency sched_waking sched_switch pid", ns_plot_spec_line()) ----------
 */

int ns_filter_set_nr_plot_rows(const struct ns_filter_set *fs);
/* The line of plot row @i, or NULL when out of range. */
const char *ns_filter_set_plot_row(const struct ns_filter_set *fs, int i);
/* Returns 1 when a plot row has the line @line, else 0. */
int ns_filter_set_has_plot_row(const struct ns_filter_set *fs, const char *line);
/* Add a row at the end (no-op if there is one). 0, -EINVAL or -ENOMEM. */
int ns_filter_set_add_plot_row(struct ns_filter_set *fs, const char *line);
/* Remove the row of @line. 0, or -ENOENT. */
int ns_filter_set_remove_plot_row(struct ns_filter_set *fs, const char *line);

/* ---- CPU rows: which CPUs the graph leaves out -------------------------- */

/* Returns 1 when @cpu's row is hidden, else 0. */
int ns_filter_set_cpu_hidden(const struct ns_filter_set *fs, int cpu);
/* Hide (@hidden != 0) or show @cpu's row. 0, -EINVAL or -ENOMEM. */
int ns_filter_set_hide_cpu(struct ns_filter_set *fs, int cpu, int hidden);
/* One past the highest hidden CPU (0: none hidden), to enumerate them. */
int ns_filter_set_cpu_limit(const struct ns_filter_set *fs);

/* ---- the last search ---------------------------------------------------- */

enum ns_search_column {
	NS_SEARCH_ANY,		/* any column of the line, as report prints it */
	NS_SEARCH_TASK,		/* comm */
	NS_SEARCH_PID,
	NS_SEARCH_CPU,
	NS_SEARCH_EVENT,	/* event name */
	NS_SEARCH_INFO,
	NS_SEARCH_STREAM,	/* the buffer's name, "top" for the top buffer */
	NS_NR_SEARCH_COLUMNS,
};

enum ns_search_mode {
	NS_SEARCH_CONTAINS,
	NS_SEARCH_EXACT,	/* the whole column (ANY: the whole line) */
	NS_SEARCH_NOT_CONTAINS,
	NS_SEARCH_REGEX,	/* POSIX extended, as grep -E */
	NS_NR_SEARCH_MODES,
};

#define NS_SEARCH_MAX_TEXT	256

struct ns_search_spec {
	int column;		/* enum ns_search_column */
	int mode;		/* enum ns_search_mode */
	int backward;		/* the last search went backward (? rather than /) */
	int ignore_case;	/* matched without regard to case */
	char text[NS_SEARCH_MAX_TEXT];
};

/* The last search; returns 0, or -ENOENT (text empty) when there was none. */
int ns_filter_set_saved_search(const struct ns_filter_set *fs, struct ns_search_spec *out);
/* Remember @spec as the last search (NULL forgets it). 0 or -EINVAL. */
int ns_filter_set_save_search(struct ns_filter_set *fs, const struct ns_search_spec *spec);

/* ---- names, for files and the command line ------------------------------ */

/*
 * "task", "event", "system", "cpu", "advanced", "stream"; "show", "hide";
 * "graph", "list", "both"; "any", "task", "pid", "cpu", "event", "info",
 * "stream";
 * "contains", "exact", "not-contains", "regex". NULL when out of range.
 * The *_from_name() calls return the value, or -1 for an unknown name.
 */
const char *ns_filter_kind_name(int kind);
int ns_filter_kind_from_name(const char *name);
const char *ns_filter_mode_name(int mode);
int ns_filter_mode_from_name(const char *name);
const char *ns_filter_where_name(int where);
int ns_filter_where_from_name(const char *name);
const char *ns_search_column_name(int column);
int ns_search_column_from_name(const char *name);
const char *ns_search_mode_name(int mode);
int ns_search_mode_from_name(const char *name);

/* ---- what a filter set lets through: the visibility pass ---------------- */

struct ns_trace;

/*
 * The result of applying a filter set to a trace: for the list, which rows
 * are shown (a bit per row with a rank index, so that "the k-th shown row"
 * and "how many shown rows come before row r" are a lookup); for the graph,
 * which events of each CPU are drawn, and which tasks and CPUs the graph's
 * filters keep. NULL stands for "nothing filtered".
 */
struct ns_visible;
struct ns_visible_pass;

/**
 * ns_visible_pass_begin - start applying @fs to @trace
 * @pass: the pass under way; *pass is NULL when nothing is filtered
 * @err: why the set cannot be applied: libtraceevent's message for an
 *       advanced expression it refuses, naming the expression
 *
 * The pass reads the set now; later changes of @fs do not affect it.
 * Returns 0, or -EINVAL (a refused expression), -ENOMEM.
 */
int ns_visible_pass_begin(struct ns_trace *trace, const struct ns_filter_set *fs,
			  struct ns_visible_pass **pass, char *err, size_t err_len);

/**
 * ns_visible_pass_step - do about @budget events' worth of the pass
 * Returns 1 when the pass is complete, 0 when there is more, or a negative
 * errno (an event could not be read back from the file).
 */
int ns_visible_pass_step(struct ns_visible_pass *pass, uint64_t budget);
/* Events done and in all, for a progress bar. */
void ns_visible_pass_progress(const struct ns_visible_pass *pass, uint64_t *done,
			      uint64_t *total);
/* The result of a complete pass; the caller owns it. NULL if incomplete. */
struct ns_visible *ns_visible_pass_take(struct ns_visible_pass *pass);
/* Free a pass, complete or not (which is how a pass is cancelled). */
void ns_visible_pass_free(struct ns_visible_pass *pass);

/* Begin, step to the end, take: for the command line and tests. */
int ns_visible_build(struct ns_trace *trace, const struct ns_filter_set *fs,
		     struct ns_visible **vis, char *err, size_t err_len);
void ns_visible_free(struct ns_visible *vis);
/* Bytes its bitmaps hold (0 for NULL). */
size_t ns_visible_bytes(const struct ns_visible *vis);

/*
 * Queries; @vis may be NULL (nothing filtered). Rows are rows of the trace
 * (the merged order), k counts shown rows.
 */
int ns_visible_list_filtered(const struct ns_visible *vis);
/* Rows the list shows (of @nr_events rows in the trace). */
uint64_t ns_visible_list_count(const struct ns_visible *vis, uint64_t nr_events);
int ns_visible_row(const struct ns_visible *vis, uint64_t row);
/* Shown rows before @row. */
uint64_t ns_visible_shown_before(const struct ns_visible *vis, uint64_t row);
/* The row of the k-th shown row (0-based); @nr_events when k is past the end. */
uint64_t ns_visible_nth_shown_row(const struct ns_visible *vis, uint64_t k, uint64_t nr_events);

/* Is event (cpu, idx) in the list? */
int ns_visible_list_event(const struct ns_visible *vis, int cpu, uint64_t idx);

int ns_visible_graph_filtered(const struct ns_visible *vis);
/* Is event (cpu, idx) drawn in the graph? */
int ns_visible_graph_event(const struct ns_visible *vis, int cpu, uint64_t idx);
/* Drawn events of @cpu with lo <= idx < hi. */
uint64_t ns_visible_graph_count(const struct ns_visible *vis, int cpu, uint64_t lo,
				uint64_t hi);
/* The first drawn event of @cpu at or after @idx; UINT64_MAX if none. */
uint64_t ns_visible_graph_next(const struct ns_visible *vis, int cpu, uint64_t idx);
/* Do the graph's task and CPU filters (and stream filters) keep @pid / @cpu? */
int ns_visible_graph_task(const struct ns_visible *vis, int pid);
int ns_visible_graph_cpu(const struct ns_visible *vis, int cpu);

/* ---- the command line's filters and the default CPU rows ---------------- */

/* "0,2-5" (as report --cpu): a malloc'd array in *vals; count, or -EINVAL with @err. */
int ns_filter_parse_list(const char *list, int **vals, char *err, size_t err_len);
/*
 * The name a stream filter (and the search's stream column) gives @stream of
 * @trace: the buffer's name, "top" for the top buffer (as --buffer).
 */
void ns_filter_stream_name(const struct ns_trace *trace, int stream, char *buf, size_t len);
/* Hide the rows of the CPUs without a single event (the default). 0 or -ENOMEM. */
int ns_filter_set_hide_empty_cpus(struct ns_filter_set *fs, const struct ns_trace *trace);

enum ns_filter_arg_kind {
	NS_FILTER_ARG_CPUS,	/* --cpu LIST: only these CPUs, graph and list */
	NS_FILTER_ARG_PIDS,	/* --pid LIST */
	NS_FILTER_ARG_TASK,	/* --task NAME: every pid of that comm */
	NS_FILTER_ARG_EXPR,	/* -F FILTER: shown, or hidden after -v */
	NS_FILTER_ARG_NEGATE,	/* -v: the -F after it hide what they match */
};

/* The filter options in the order given. */
struct ns_filter_args {
	struct ns_filter_arg *arg;
	int nr;
	size_t cap;
};

void ns_filter_args_init(struct ns_filter_args *a);
void ns_filter_args_free(struct ns_filter_args *a);
/* Remember one option (@value copied; NULL for -v). 0 or -ENOMEM. */
int ns_filter_args_push(struct ns_filter_args *a, int kind, const char *value);

/**
 * ns_filter_args_apply - add the options to a filter set, for @trace
 * @as_rows: --pid and --task add task rows (the viewer); 0: they show only
 *           those tasks' events in the list (--export)
 * @err: what is wrong: an -F that libtraceevent refuses (its message), a
 *       bad list, a --task that names no task
 * Returns 0, or a negative errno.
 */
int ns_filter_args_apply(const struct ns_filter_args *a, struct ns_trace *trace,
			 struct ns_filter_set *fs, int as_rows, char *err, size_t err_len);

#endif
