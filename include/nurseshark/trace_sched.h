/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace layer: the fields of the scheduler's events that the scheduling
 * analysis (model_sched.h) needs, read back from the file on demand, so
 * that the index keeps nothing more for them (0 bytes per event).
 * sched_switch gives prev_pid, prev_state, next_pid and next_prio;
 * sched_wakeup, sched_wakeup_new and sched_waking the woken pid, its prio
 * and target_cpu; sched_migrate_task the pid and its orig and dest CPU.
 */
#ifndef NURSESHARK_TRACE_SCHED_H
#define NURSESHARK_TRACE_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include "nurseshark/trace.h"

enum ns_sched_kind {
	NS_SCHED_NONE,
	NS_SCHED_SWITCH,
	NS_SCHED_WAKEUP,
	NS_SCHED_WAKEUP_NEW,
	NS_SCHED_WAKING,
	NS_SCHED_MIGRATE,
};

/* One scheduler event, decoded. */
struct ns_sched_event {
	uint64_t ts_ns;
	uint64_t idx;		/* its index in its CPU's events */
	int32_t cpu;		/* the CPU whose buffer recorded it */
	int32_t kind;		/* enum ns_sched_kind */
	int32_t common_pid;	/* the task that was running (the waker of a wakeup) */
	int32_t pid;		/* SWITCH: prev_pid; wakeups: the woken; MIGRATE: the task */
	int32_t next_pid;	/* SWITCH: next_pid; MIGRATE: dest_cpu; else -1 */
	int32_t prio;		/* SWITCH: next_prio; wakeups, MIGRATE: prio; -1 unknown */
	int64_t state;		/* SWITCH: prev_state; wakeups: target_cpu; MIGRATE: orig_cpu */
	int32_t type;		/* the event's type (any kind) */
};

/* Flags of ns_trace_sched_scan(). */
enum {
	/*
	 * Also call @fn for every other event, with kind NS_SCHED_NONE and
	 * only ts_ns, idx, cpu, common_pid and type filled in: what a pass
	 * over all events needs comes with the one read of the pages.
	 */
	NS_SCHED_SCAN_ALL = 1 << 0,
};

/*
 * ns_trace_open() that also keeps each scheduler event's fields as it
 * indexes (about 48 bytes per scheduler event, on top of the index), so
 * that ns_trace_sched_scan() need not read the file again: for one pass
 * over the whole trace, as --summary makes.
 */
struct ns_trace *ns_trace_open_sched(const char *path, char *err, size_t err_len);

/* Does the trace have the event @kind (with the fields read here)? */
bool ns_trace_sched_has(const struct ns_trace *trace, int kind);

/**
 * ns_trace_sched_scan - the scheduler events among events [@lo, @hi) of @cpu
 * @flags: NS_SCHED_SCAN_*
 * @fn: called for each, in the CPU's order; a non-zero return stops the scan
 *      and is returned
 *
 * Where the fast page reader reads the file (ns_trace_can_make_readers()), each
 * call reads with its own iterator: threads may scan different CPUs at the
 * same time. Otherwise only the screen's thread may call it. A sched_wakeup
 * whose "success" field (older kernels) is 0 is left out, as report -w does.
 * Returns 0, a non-zero return of @fn, or a negative errno (-EIO: the file
 * does not read back as it was indexed).
 */
int ns_trace_sched_scan(struct ns_trace *trace, int cpu, uint64_t lo, uint64_t hi, int flags,
			int (*fn)(void *arg, const struct ns_sched_event *ev), void *arg);

/* Event (@cpu, @idx) decoded: 0, -ENOENT when it is no scheduler event, or -EIO. */
int ns_trace_sched_read(struct ns_trace *trace, int cpu, uint64_t idx, struct ns_sched_event *out);

/* Lost events before event @idx of @cpu, as the list's "[N EVENTS DROPPED]":
 * >0 count, -1 unknown count, 0 none. */
long long ns_trace_missed_before(const struct ns_trace *trace, int cpu, uint64_t idx);
/* Events of @cpu that follow lost events, with idx in [@lo, @hi). */
uint64_t ns_trace_cpu_nr_drops(const struct ns_trace *trace, int cpu, uint64_t lo, uint64_t hi,
			       long long *lost);
/*
 * A time of @cpu and where its lower bound lies by the index's groups,
 * [lo, hi] (ns_trace_cpu_lower_bound_range(); one number when exact).
 */
struct ns_bound {
	uint64_t ts, lo, hi;
};
void ns_trace_cpu_bound(const struct ns_trace *trace, int cpu, uint64_t ts_ns,
			struct ns_bound *out);
/*
 * Events of @cpu that follow lost events, with timestamps in [@a->ts,
 * @b->ts): by the bounds where no drop lies inside them, by the exact
 * lower bound (reading events) of a time whose bounds hold one.
 */
uint64_t ns_trace_cpu_drops_bounded(const struct ns_trace *trace, int cpu,
				    const struct ns_bound *a, const struct ns_bound *b);
/* The same between two times. */
uint64_t ns_trace_cpu_drops_between(const struct ns_trace *trace, int cpu, uint64_t a_ns,
				    uint64_t b_ns);

/* The @k-th of them (from 0) over the whole CPU: its event in *@idx. 0 or -ENOENT. */
int ns_trace_cpu_drop(const struct ns_trace *trace, int cpu, uint64_t k, uint64_t *idx,
		      long long *count);

#endif
