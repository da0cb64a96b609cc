/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: scheduling analysis. From sched_switch (prev_state),
 * sched_wakeup / sched_wakeup_new, sched_waking and sched_migrate_task it
 * follows every task through its states (running, runnable after a wakeup,
 * runnable because preempted, sleeping, idle-sleeping, blocked, ...) and
 * sums them over a time range [t0, t1): the statistics of `nurseshark
 * --summary` and of the screen's overlay. It can also keep each task's
 * timeline, for "what state was task P in at time T" and the jumps to the
 * events that woke it, ran it and took it off the CPU. No curses here.
 *
 * Definitions (the man page's SUMMARY section says the same to users):
 * - CPU time: from a sched_switch to the next sched_switch of the same CPU,
 *   charged to the first one's next_pid; before a CPU's first sched_switch
 *   its prev_pid ran from the CPU's first event; the last run of a CPU lasts
 *   until the trace's last event (the runs of the index, trace.h).
 * - Wakeup latency: as `trace-cmd report -w`: from the last sched_wakeup or
 *   sched_wakeup_new of a task before its switch-in, to that switch-in.
 *   Summed over all tasks, and over RT ones (next_prio < 100), as report does.
 *   Waking latency likewise from the last sched_waking.
 * - States: switched out with prev_state S: sleeping until a wakeup; I
 *   (TASK_IDLE, 0x80): idle-sleeping, until a wakeup; D: blocked, until a
 *   wakeup; R or R+ (no state bit): preempted, runnable until it runs again;
 *   from a wakeup while not running or runnable: runnable until it runs.
 * - Missing events: a task with an event on a CPU where, by the
 *   sched_switch events, another runs, runs from that event (its switch-in
 *   was lost or not recorded; its CPU time still comes from sched_switch
 *   alone). A state other than running counts until events were lost on
 *   any CPU, and not from there on until it ends (unknown_ns); nor does one
 *   that ends with a switch-out of a task not running. A run (CPU time,
 *   busy and idle) does not count where its own CPU lost events: from the
 *   CPU's event before the loss to the event after it (the gap the CPU rows
 *   leave blank), the time is the task's unknown_ns. The timelines say
 *   NS_TS_DROPPED over the same stretches.
 * - A range cuts intervals: only the part inside [t0, t1) counts. Counts
 *   (runs, wakeups, switches, latencies) count events inside [t0, t1); a
 *   latency counts where its switch-in lies and counts whole.
 * - Filters: the analysis reads the scheduler events that the list shows
 *   without its task filters (so --cpu and -F narrow it); the task filters
 *   choose the tasks reported. The event table counts the list's rows.
 */
#ifndef NURSESHARK_MODEL_SCHED_H
#define NURSESHARK_MODEL_SCHED_H

#include <stdint.h>
#include <stdio.h>
#include "nurseshark/trace.h"

struct ns_filter_set;

enum ns_task_state {
	NS_TS_UNKNOWN,		/* nothing known yet (before its first sched event) */
	NS_TS_RUNNING,
	NS_TS_WAKING,		/* runnable after a wakeup, until it runs */
	NS_TS_PREEMPTED,	/* runnable: switched out in R or R+, until it runs */
	NS_TS_SLEEPING,		/* S, until a wakeup */
	NS_TS_IDLE,		/* I (TASK_IDLE kernel threads), until a wakeup */
	NS_TS_BLOCKED,		/* D, until a wakeup */
	NS_TS_STOPPED,		/* T, t, P and other states, until a wakeup */
	NS_TS_DEAD,		/* X, Z: it exited */
	NS_TS_PENDING,		/* timelines only: from sched_waking to its sched_wakeup */
	NS_TS_DROPPED,		/* timelines only: not known, events were lost (see below) */
	NS_NR_TS,
};

/* "running", "waking", "preempted", "sleeping", "idle", "blocked", ... */
const char *ns_task_state_name(int state);
/* The state a task is left in when it is switched out with @prev_state. */
int ns_task_state_of_prev(int64_t prev_state);

/* Latencies: count, sum, maximum and minimum with their switch-in times. */
struct ns_sched_lat {
	uint64_t n, sum_ns;
	uint64_t max_ns, max_ts;
	uint64_t min_ns, min_ts;
};

struct ns_sched_task {
	int pid;
	uint64_t state_ns[NS_NR_TS];	/* time in each state inside the range */
	uint64_t runs;			/* switch-ins */
	uint64_t wakeups;		/* sched_wakeup and sched_wakeup_new */
	/* sched_switch events the trace lacks: a run with no switch-in, or no switch-out */
	uint64_t unseen_switches;
	uint64_t unknown_ns;		/* in a state across lost events: not counted */
	struct ns_sched_lat wakeup;	/* report -w's latency */
	struct ns_sched_lat waking;	/* from sched_waking */
	/* at t1: the state it was in and since when (for open intervals) */
	int end_state;
	uint64_t end_since;
};

struct ns_sched_cpu {
	int cpu;
	uint64_t busy_ns, idle_ns;	/* a task other than idle ran / idle (pid 0) ran */
	uint64_t switches;		/* sched_switch events */
	uint64_t drops;			/* events after lost events ([N EVENTS DROPPED]) */
	long long lost;			/* the events lost there, where counted */
	uint64_t events;		/* the list's rows of this CPU */
};

struct ns_sched_type {
	int type;
	uint64_t count;
};

struct ns_sched_stats {
	uint64_t t0, t1;		/* the range as asked, clipped to the trace */
	struct ns_sched_task *tasks;	/* sorted by cpu time, most first, then pid */
	size_t nr_tasks;
	struct ns_sched_cpu *cpus;	/* the CPUs the filters keep, in order */
	int nr_cpus;
	struct ns_sched_type *types;	/* event types with rows, most first */
	size_t nr_types;
	struct ns_sched_lat wakeup[2];	/* [0] all tasks, [1] RT ones, as report -w */
	struct ns_sched_lat waking;
};

/**
 * ns_sched_stats_build - the statistics of the range [@t0, @t1)
 * @fs: the filters (NULL: none); the analysis follows what the list shows
 * @out: the result, free it with ns_sched_stats_free()
 * @err: why it failed
 *
 * Reads the scheduler events before @t1 back from the file, in pieces of
 * the CPUs' events of about the same count, a thread per core (up to 8)
 * where the fast page reader reads it. Returns 0 or a negative errno.
 */
int ns_sched_stats_build(struct ns_trace *trace, const struct ns_filter_set *fs, uint64_t t0,
			 uint64_t t1, struct ns_sched_stats **out, char *err, size_t err_len);
/*
 * The same in pieces of @piece_events events and windows of 7 pieces (0:
 * as ns_sched_stats_build() cuts them).
 */
int ns_sched_stats_build_pieces(struct ns_trace *trace, const struct ns_filter_set *fs,
				uint64_t t0, uint64_t t1, uint64_t piece_events,
				struct ns_sched_stats **out, char *err, size_t err_len);
void ns_sched_stats_free(struct ns_sched_stats *st);
/* The entry of @pid, or NULL. */
const struct ns_sched_task *ns_sched_stats_task(const struct ns_sched_stats *st, int pid);

/* ---- timelines: the state of a task at a time, and the jumps ----------- */

struct ns_sched;

/*
 * The memory the scheduling analyses may take beside the index:
 * ns_memory_share(), a quarter of the least of the cgroup's limit,
 * ulimit -v and the memory available (UINT64_MAX: none known). The events are read in windows of
 * time of as many events as it has bytes over 256 (256K to 4M events;
 * one window where a CPU's time goes back); the timelines
 * (20 bytes a state change, 36 a wakeup paired with a run, about 350 a
 * task, in arrays that grow by half) stop at it
 * with "the task timelines need more than N MB, a quarter of LIMIT".
 */
uint64_t ns_sched_memory_budget(void);

/* Every task's timeline over the whole trace (same filters as above). */
struct ns_sched *ns_sched_build(struct ns_trace *trace, const struct ns_filter_set *fs,
				char *err, size_t err_len);
/*
 * The same in pieces of @piece_events events and windows of 7 pieces (0:
 * as ns_sched_build() cuts them), the timelines held to @cap bytes (0:
 * ns_sched_memory_budget()). For the tests.
 */
struct ns_sched *ns_sched_build_pieces(struct ns_trace *trace, const struct ns_filter_set *fs,
				       uint64_t piece_events, uint64_t cap, char *err,
				       size_t err_len);
void ns_sched_free(struct ns_sched *s);
/*
 * The bytes its timelines hold (arrays, filled or not, and the tasks), and
 * the most they held while built (what the budget holds to the cap).
 */
uint64_t ns_sched_bytes(const struct ns_sched *s);
uint64_t ns_sched_peak_bytes(const struct ns_sched *s);

/* An event, or none (cpu -1). */
struct ns_sched_ref {
	int cpu;
	uint64_t idx;
	uint64_t ts_ns;
};

/* What a task was doing at a time, and the events around it. */
struct ns_sched_ctx {
	int state;			/* enum ns_task_state */
	int cpu;			/* RUNNING: the CPU */
	uint64_t since_ns, until_ns;	/* the state's span (until: UINT64_MAX, open) */
	/*
	 * The run this moment belongs to: for RUNNING, the one under way;
	 * otherwise the next one (the one it waits for). switch_out: the
	 * sched_switch that ends it, none when the trace does not say.
	 */
	struct ns_sched_ref switch_in, switch_out;
	/* the wakeup (and waking) that led to switch_in, as report -w pairs them */
	struct ns_sched_ref wakeup, waking;
	int waker;			/* the task that ran the wakeup, -1 if none */
	/*
	 * The run began with no sched_switch in the trace (lost or not
	 * recorded): switch_in is then the first event it was seen running.
	 */
	int unseen_switch_in;
	int64_t latency_ns;		/* switch_in - wakeup, -1 if none */
};

/**
 * ns_sched_state_at - what @pid was doing at @ts_ns
 * Returns 0 with @ctx filled, or -ENOENT for a task the trace never
 * schedules.
 */
int ns_sched_state_at(const struct ns_sched *s, int pid, uint64_t ts_ns,
		      struct ns_sched_ctx *ctx);

/* A task's state over [start_ns, end_ns). */
struct ns_sched_span {
	uint64_t start_ns, end_ns;
	int32_t state;			/* enum ns_task_state */
	int32_t cpu;			/* RUNNING: the CPU */
};

/**
 * ns_sched_task_spans - @pid's states over the whole trace, in time order
 * @out: a malloc'd array; free() it
 *
 * The states of ns_sched_state_at(), one span per state change (none
 * before the first thing the trace tells of the task); where sched_waking
 * was recorded before the wakeup that ends a sleep, the stretch from it
 * to the wakeup is NS_TS_PENDING. Returns how many, or -ENOMEM.
 */
long ns_sched_task_spans(const struct ns_sched *s, int pid, struct ns_sched_span **out);

/**
 * ns_sched_event_ctx - the context of event (@cpu, @idx) for its task
 * For a sched_switch, the task it switches in (the run it starts); for a
 * wakeup, the task it wakes; for any other event, its own task.
 * @pid: set to that task. Returns 0, -ENOENT, or -EIO.
 */
int ns_sched_event_ctx(struct ns_trace *trace, const struct ns_sched *s, int cpu, uint64_t idx,
		       int *pid, struct ns_sched_ctx *ctx);

/* ---- the tables of --summary (sched_summary.c) -------------------------- */

/**
 * ns_sched_summary_print - print @st as tab-separated tables
 * @ns_digits: print times in seconds with 9 decimals instead of 6
 * Returns 0, or -EIO when @out fails.
 */
int ns_sched_summary_print(struct ns_trace *trace, const struct ns_sched_stats *st, FILE *out,
			   int ns_digits);

/**
 * ns_sched_parse_range - "T0,T1" in seconds ("10172.533502,10172.6"),
 * either side may be empty (the trace's start or end)
 * @ns_digits: set when a time has more than 6 decimals
 * Returns 0, or -EINVAL with @err.
 */
int ns_sched_parse_range(const char *text, uint64_t *t0, uint64_t *t1, int *ns_digits,
			 char *err, size_t err_len);

/* The command line's --summary: nurseshark --summary [options] FILE. */
int ns_sched_summary_main(int argc, char **argv);
/* Does the command line ask for --summary? */
int ns_sched_summary_wanted(int argc, char **argv);

#endif
