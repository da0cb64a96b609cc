/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: tasks. The task list of the picker (every task with its
 * events and CPU time) and task rows, the graph rows that show when one task
 * ran, on which CPU, and where it had events. No curses here.
 */
#ifndef NURSESHARK_MODEL_TASKS_H
#define NURSESHARK_MODEL_TASKS_H

#include <stdint.h>
#include "nurseshark/trace.h"

struct ns_visible;

/* ---- the task list ----------------------------------------------------- */

struct ns_task_info {
	int pid;
	const char *comm;	/* ns_trace_task_comm(): valid while the trace is open */
	uint64_t nr_events;	/* events recorded with this pid */
	uint64_t cpu_ns;	/* time it ran, summed over the CPUs' runs (struct ns_run) */
};

/**
 * ns_task_list_build - every task of the trace: with an event or a run
 * @out: malloc'd array, sorted by pid; free() it
 * Returns the number of tasks, or a negative errno.
 */
int ns_task_list_build(const struct ns_trace *trace, struct ns_task_info **out);

/* Pids whose comm is @comm, into a malloc'd array (*pids). Count or -ENOMEM. */
int ns_task_pids_by_comm(const struct ns_trace *trace, const char *comm, int **pids);

/* ---- task rows ----------------------------------------------------------- */

/* A span during which the task ran on one CPU: [start_ns, end_ns). */
struct ns_task_span {
	uint64_t start_ns, end_ns;
	int cpu;
};

/*
 * What a column of a task row shows: of the states the task was in during
 * the column, the first in this order, the one that matters most for
 * latency (the man page says the same).
 */
enum ns_task_row_state {
	NS_TRS_RUNNING,
	NS_TRS_WAKEUP,		/* runnable after sched_wakeup(_new): the wakeup latency */
	NS_TRS_WAKING,		/* from sched_waking to its sched_wakeup */
	NS_TRS_PREEMPTED,	/* runnable: switched out in R or R+ */
	NS_TRS_DROPPED,		/* not known: events were lost (NS_TS_DROPPED) */
	NS_TRS_BLOCKED,		/* D */
	NS_TRS_SLEEPING,	/* S */
	NS_TRS_IDLE,		/* I */
	NS_TRS_STOPPED,		/* T, t, P and the other states */
	NS_TRS_DEAD,		/* X, Z */
	NS_TRS_UNKNOWN,		/* nothing known */
	NS_NR_TRS,
};

/* One column of a task row. */
struct ns_task_bin {
	int cpu;		/* the CPU it ran on most of the column, -1: did not run */
	uint8_t flags;		/* NS_BIN_EVENTS, NS_BIN_RUNNING (enum ns_bin_flags) */
	uint8_t state;		/* enum ns_task_row_state */
};

/*
 * The spans (from each CPU's runs, as the CPU rows draw them) and the
 * events of one task, built once when its row is added.
 */
struct ns_task_row;

struct ns_task_row *ns_task_row_open(const struct ns_trace *trace, int pid);
void ns_task_row_close(struct ns_task_row *tr);

struct ns_sched;
/**
 * ns_task_row_set_states - give the row its task's states from @s
 * (model_sched.h's timelines), for the columns' state; without them every
 * column that did not run is NS_TRS_UNKNOWN. Returns 0 or -ENOMEM.
 */
int ns_task_row_set_states(struct ns_task_row *tr, const struct ns_sched *s);
int ns_task_row_pid(const struct ns_task_row *tr);
/* The spans, by CPU then by start; adjacent runs on one CPU are merged. */
const struct ns_task_span *ns_task_row_spans(const struct ns_task_row *tr, uint64_t *count);
uint64_t ns_task_row_nr_events(const struct ns_task_row *tr);

/**
 * ns_task_row_bins - one bin per column of the window [start_ns, end_ns)
 * @vis: the graph's filters (NULL: none): an event the graph hides is no mark
 *
 * A column is RUNNING where a span overlaps it, with the CPU that holds the
 * most of the column's running time, and EVENTS where the task had an event
 * in it (the CPU then is that of the running time, or of the first event).
 * Its state is NS_TRS_RUNNING where it ran, else the first state of enum
 * ns_task_row_state that the task was in during the column.
 */
void ns_task_row_bins(const struct ns_task_row *tr, const struct ns_visible *vis,
		      uint64_t start_ns, uint64_t end_ns, int cols, struct ns_task_bin *out);

/**
 * ns_task_row_nearest - the task's event nearest to @ts_ns
 * Returns 0 with *cpu and *idx set, or -1 when the task has no event.
 */
int ns_task_row_nearest(const struct ns_task_row *tr, uint64_t ts_ns, int *cpu, uint64_t *idx);

#endif
