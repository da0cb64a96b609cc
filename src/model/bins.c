// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time bins: for each column of the graph and each CPU, which task ran most
 * of the column's time, whether any event was recorded there, and whether
 * the CPU was idle.
 *
 * Events: whether the CPU has one in the column, from the index's first and
 * last timestamps of each group of NS_EV_GROUP events (kept in memory under
 * any --index-memory), which answer it without reading an event unless the
 * column lies inside one group's span; lost events likewise, by the range
 * of event numbers the groups give for the column's ends.
 * Tasks: the CPU's runs (one per sched_switch, see struct ns_run) are
 * summed per pid over the column; runs of pid -1 (events lost) count for
 * nobody, so the time before lost events is never a task's. Lost events:
 * a column holding an event that follows them is marked NS_BIN_DROP. A column with few runs is summed exactly.
 * For wide columns the runs are grouped in a tree of blocks, NS_BINS_FANOUT
 * runs per level-1 block, NS_BINS_FANOUT level-1 blocks per level-2 block,
 * and so on; each block keeps a Misra-Gries summary of its run time per pid
 * (at most NS_BINS_SUMMARY_K pids, each counted low by at most the block's
 * time / (K + 1)). Such summaries add up: a column is the exact partial runs
 * at its edges plus at most 2 * (FANOUT - 1) blocks per level in between.
 *
 * Example, FANOUT 4: runs 0..15 make level-1 blocks [0-3] [4-7] [8-11]
 * [12-15] and one level-2 block [0-15]; full runs 2..13 are summed as runs
 * 2, 3, blocks [4-7] [8-11], runs 12, 13.
 *
 * A zoomed-out frame's time is mostly cache misses: the searches for a
 * column's edges in arrays of millions of runs and event groups, and the
 * blocks' summaries. Each edge between two columns is searched for once
 * (struct edge), not once for each column it bounds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/model.h"
#include "nurseshark/trace_sched.h"
#include "nurseshark/util.h"

#define NS_BINS_FANOUT_SHIFT	5
#define NS_BINS_FANOUT		(1u << NS_BINS_FANOUT_SHIFT)	/* 32 */
#define NS_BINS_MAX_LEVELS	8
#define ACC_SLOTS		4096	/* distinct pids one column can sum */

/* n first: a column reads it, then the pids, of one block after the other */
struct mg {
	int32_t n;
	int32_t pid[NS_BINS_SUMMARY_K];
	uint64_t ns[NS_BINS_SUMMARY_K];
};

struct cpu_tree {
	bool built;
	int nr_levels;
	struct mg *level[NS_BINS_MAX_LEVELS];	/* level[0]: blocks of FANOUT runs */
	uint64_t nr_blocks[NS_BINS_MAX_LEVELS];
};

/* Per-column sums of run time per pid: a small open-addressing table. */
struct acc {
	int32_t pid[ACC_SLOTS];
	uint64_t ns[ACC_SLOTS];
	uint16_t used[ACC_SLOTS];
	int nr_used;
	uint64_t adds;
};

struct ns_bins {
	const struct ns_trace *trace;
	int nr_cpus;
	struct cpu_tree *cpus;
	struct acc acc;
};

struct ns_bins *ns_bins_open(const struct ns_trace *trace)
{
	struct ns_bins *bins = calloc(1, sizeof(*bins));
	int i;

	if (!bins)
		return NULL;
	bins->trace = trace;
	bins->nr_cpus = ns_trace_nr_cpus(trace);
	bins->cpus = calloc(bins->nr_cpus ? bins->nr_cpus : 1, sizeof(*bins->cpus));
	if (!bins->cpus) {
		free(bins);
		return NULL;
	}
	for (i = 0; i < ACC_SLOTS; i++)
		bins->acc.pid[i] = -1;
	return bins;
}

uint64_t ns_bins_visited(const struct ns_bins *bins)
{
	return bins->acc.adds;
}

void ns_bins_close(struct ns_bins *bins)
{
	int cpu, l;

	if (!bins)
		return;
	for (cpu = 0; cpu < bins->nr_cpus; cpu++)
		for (l = 0; l < bins->cpus[cpu].nr_levels; l++)
			free(bins->cpus[cpu].level[l]);
	free(bins->cpus);
	free(bins);
}

uint64_t ns_window_col_ns(uint64_t start_ns, uint64_t end_ns, int cols, int col)
{
	unsigned __int128 w = end_ns - start_ns;

	if (cols <= 0)
		return start_ns;
	return start_ns + (uint64_t)(w * (unsigned int)col / (unsigned int)cols);
}

int ns_window_ns_col(uint64_t start_ns, uint64_t end_ns, int cols, uint64_t ts_ns)
{
	unsigned __int128 off;

	if (ts_ns < start_ns || ts_ns >= end_ns || end_ns <= start_ns || cols <= 0)
		return -1;
	off = ts_ns - start_ns;
	/* the column c with col_ns(c) <= ts < col_ns(c + 1) */
	return (int)(((off + 1) * (unsigned int)cols - 1) / (end_ns - start_ns));
}

/* Where run @i ends: the next run's start, the trace's end for the last. */
static uint64_t run_end(const struct ns_run *runs, uint64_t nr, uint64_t i, uint64_t last_ns)
{
	return i + 1 < nr ? runs[i + 1].start_ns : last_ns;
}

/* Add weight @ns for @pid to summary @s, Misra-Gries style. */
static void mg_add(struct mg *s, int32_t pid, uint64_t ns)
{
	uint64_t low;
	int i, j;

	/* pid -1: events were lost, nobody is known to have run */
	if (!ns || pid < 0)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->pid[i] == pid) {
			s->ns[i] += ns;
			return;
		}
	}
	if (s->n < NS_BINS_SUMMARY_K) {
		s->pid[s->n] = pid;
		s->ns[s->n++] = ns;
		return;
	}
	/* full: take the smallest of the K + 1 away from all of them */
	low = ns;
	for (i = 0; i < s->n; i++)
		if (s->ns[i] < low)
			low = s->ns[i];
	for (i = j = 0; i < s->n; i++) {
		if (s->ns[i] > low) {
			s->pid[j] = s->pid[i];
			s->ns[j++] = s->ns[i] - low;
		}
	}
	s->n = j;
	if (ns > low && s->n < NS_BINS_SUMMARY_K) {
		s->pid[s->n] = pid;
		s->ns[s->n++] = ns - low;
	}
}

static int build_tree(struct ns_bins *bins, int cpu)
{
	struct cpu_tree *t = &bins->cpus[cpu];
	const struct ns_run *runs;
	uint64_t nr, last_ns = ns_trace_last_ns(bins->trace), b, i;
	int l;

	runs = ns_trace_cpu_runs(bins->trace, cpu, &nr);
	t->built = true;
	for (l = 0; l < NS_BINS_MAX_LEVELS; l++) {
		uint64_t below = l ? t->nr_blocks[l - 1] : nr;

		if (below < NS_BINS_FANOUT)
			break;
		t->nr_blocks[l] = below / NS_BINS_FANOUT;
		t->level[l] = calloc(t->nr_blocks[l], sizeof(struct mg));
		if (!t->level[l])
			return -ENOMEM;
		t->nr_levels = l + 1;
		for (b = 0; b < t->nr_blocks[l]; b++) {
			struct mg *s = &t->level[l][b];

			for (i = b * NS_BINS_FANOUT; i < (b + 1) * NS_BINS_FANOUT; i++) {
				if (!l) {
					mg_add(s, runs[i].pid,
					       run_end(runs, nr, i, last_ns) - runs[i].start_ns);
				} else {
					const struct mg *c = &t->level[l - 1][i];
					int k;

					for (k = 0; k < c->n; k++)
						mg_add(s, c->pid[k], c->ns[k]);
				}
			}
		}
	}
	return 0;
}

static void acc_add(struct acc *a, int32_t pid, uint64_t ns)
{
	uint32_t h;

	a->adds++;
	if (!ns || pid < 0)
		return;
	h = ((uint32_t)pid * 2654435761u) & (ACC_SLOTS - 1);
	while (a->pid[h] != -1 && a->pid[h] != pid)
		h = (h + 1) & (ACC_SLOTS - 1);
	if (a->pid[h] == -1) {
		/* a full table drops newcomers: a column has that many tasks only
		 * when none of them dominates it */
		if (a->nr_used >= ACC_SLOTS / 2)
			return;
		a->pid[h] = pid;
		a->ns[h] = 0;
		a->used[a->nr_used++] = (uint16_t)h;
	}
	a->ns[h] += ns;
}

/* The pid with the most time (the lower pid on a tie), and reset. */
static int32_t acc_take_max(struct acc *a)
{
	int32_t best = -1;
	uint64_t best_ns = 0;
	int i;

	for (i = 0; i < a->nr_used; i++) {
		int h = a->used[i];

		if (a->ns[h] > best_ns || (a->ns[h] == best_ns && a->pid[h] < best)) {
			best = a->pid[h];
			best_ns = a->ns[h];
		}
		a->pid[h] = -1;
	}
	a->nr_used = 0;
	return best;
}

static void acc_add_block(struct acc *a, const struct mg *s)
{
	int k;

	for (k = 0; k < s->n; k++)
		acc_add(a, s->pid[k], s->ns[k]);
}

/* Sum the whole runs [lo, hi) into the accumulator, by blocks where possible. */
static void sum_runs(struct ns_bins *bins, int cpu, const struct ns_run *runs, uint64_t nr,
		     uint64_t lo, uint64_t hi, uint64_t last_ns)
{
	struct cpu_tree *t = &bins->cpus[cpu];
	struct acc *a = &bins->acc;
	int top = -1;

	if (hi - lo > NS_BINS_EXACT_RUNS) {
		if (!t->built && build_tree(bins, cpu))
			t->nr_levels = 0;	/* out of memory: sum exactly */
		top = t->nr_levels - 1;
	}
	/* each step takes the largest aligned block that fits (sizes are powers of 2) */
	while (lo < hi) {
		unsigned int shift = 0;
		int l = -1;

		while (l < top && !(lo & (((uint64_t)NS_BINS_FANOUT << shift) - 1)) &&
		       lo + ((uint64_t)NS_BINS_FANOUT << shift) <= hi) {
			shift += NS_BINS_FANOUT_SHIFT;
			l++;
		}
		if (l < 0)
			acc_add(a, runs[lo].pid, run_end(runs, nr, lo, last_ns) - runs[lo].start_ns);
		else
			acc_add_block(a, &t->level[l][lo >> shift]);
		lo += (uint64_t)1 << shift;
	}
}

struct run_key {
	const struct ns_run *runs;
	uint64_t ts;
};

static bool run_starts_by(size_t i, const void *arg)
{
	const struct run_key *k = arg;

	return k->runs[i].start_ns <= k->ts;
}

/* Index of the last run starting at or before @ts (-1 if none). */
static int64_t run_at(const struct ns_run *runs, uint64_t nr, uint64_t ts)
{
	return (int64_t)ns_lower_bound(nr, run_starts_by, &(struct run_key){ runs, ts }) - 1;
}

static uint64_t overlap(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t lo = a > c ? a : c, hi = b < d ? b : d;

	return hi > lo ? hi - lo : 0;
}

/*
 * What the searches say of one column edge: where the CPU's lower bound of
 * its time lies by the index's groups, and the last run starting at or
 * before it. Each edge but the window's two is the end of one column and
 * the start of the next, so it is searched for once: the searches, each a
 * few cache misses deep in arrays of millions, were most of a zoomed-out
 * frame's time.
 */
struct edge {
	struct ns_bound at;
	int64_t run;
};

static void edge_at(const struct ns_trace *trace, int cpu, const struct ns_run *runs,
		    uint64_t nr_runs, uint64_t t, struct edge *e)
{
	ns_trace_cpu_bound(trace, cpu, t, &e->at);
	e->run = nr_runs ? run_at(runs, nr_runs, t) : -1;
}

/* Whether the CPU has an event in [a, b): from the edges where they tell. */
static bool edges_any_event(const struct ns_trace *trace, int cpu, const struct ns_bound *a,
			    const struct ns_bound *b)
{
	/* lower_bound(a) <= a->hi < b->lo <= lower_bound(b): event a->hi is inside */
	if (a->hi < b->lo)
		return true;
	/* both exact: the same lower bound is no event, a different one is one */
	if (a->lo == a->hi && b->lo == b->hi)
		return a->lo != b->lo;
	return ns_trace_cpu_any_event(trace, cpu, a->ts, b->ts);
}

int ns_bins_cpu(struct ns_bins *bins, int cpu, uint64_t start_ns, uint64_t end_ns,
		int cols, struct ns_bin *out)
{
	const struct ns_trace *trace = bins->trace;
	uint64_t nr_runs, last_ns = ns_trace_last_ns(trace);
	const struct ns_run *runs;
	struct edge ea, eb;
	/*
	 * A column's end is the next one's start when columns are at least 1 ns
	 * (a narrower one is widened to 1 ns below, past the next one's start);
	 * the bounds tell of events only where they are in time order.
	 */
	bool shared = end_ns - start_ns >= (uint64_t)cols;
	bool sorted = !ns_trace_cpu_unsorted(trace, cpu);
	int col;

	if (cpu < 0 || cpu >= bins->nr_cpus || cols <= 0)
		return -EINVAL;
	runs = ns_trace_cpu_runs(trace, cpu, &nr_runs);
	edge_at(trace, cpu, runs, nr_runs, start_ns, &eb);

	for (col = 0; col < cols; col++) {
		uint64_t a = ns_window_col_ns(start_ns, end_ns, cols, col);
		uint64_t b = ns_window_col_ns(start_ns, end_ns, cols, col + 1);
		struct ns_bin *bin = &out[col];
		int64_t j0, j1;

		bin->pid = -1;
		bin->flags = 0;
		if (b <= a)
			b = a + 1;
		if (shared || !col)
			ea = eb;
		else
			edge_at(trace, cpu, runs, nr_runs, a, &ea);
		edge_at(trace, cpu, runs, nr_runs, b, &eb);
		if (sorted ? edges_any_event(trace, cpu, &ea.at, &eb.at)
			   : ns_trace_cpu_any_event(trace, cpu, a, b)) {
			bin->flags |= NS_BIN_EVENTS;
			if (ns_trace_cpu_drops_bounded(trace, cpu, &ea.at, &eb.at))
				bin->flags |= NS_BIN_DROP;
		}
		if (!nr_runs || b <= runs[0].start_ns || a >= last_ns)
			continue;
		j0 = ea.run;
		/* the last run starting before b: the edge's, unless it starts at b */
		j1 = eb.run >= 0 && runs[eb.run].start_ns == b ? run_at(runs, nr_runs, b - 1)
							       : eb.run;
		if (j0 < 0)
			j0 = 0;
		acc_add(&bins->acc, runs[j0].pid,
			overlap(a, b, runs[j0].start_ns, run_end(runs, nr_runs, j0, last_ns)));
		if (j1 > j0) {
			sum_runs(bins, cpu, runs, nr_runs, j0 + 1, j1, last_ns);
			acc_add(&bins->acc, runs[j1].pid,
				overlap(a, b, runs[j1].start_ns,
					run_end(runs, nr_runs, j1, last_ns)));
		}
		bin->pid = acc_take_max(&bins->acc);
		if (bin->pid == 0)
			bin->flags |= NS_BIN_IDLE;
		else if (bin->pid > 0)
			bin->flags |= NS_BIN_RUNNING;
	}
	return 0;
}
