// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tasks: the list the task picker shows and the task rows of the graph.
 *
 * The list is one pass over every CPU's events (counted per pid) and runs
 * (summed per pid), through an open-addressing table keyed by pid; 5
 * million events take about 20 ms.
 *
 * A task row keeps, for one pid, its spans per CPU (that CPU's runs of the
 * pid, merged where one follows another) and, per CPU, the indexes of its
 * events with their timestamps (16 bytes an event of the task: with the
 * index held by chunks, a column's binary search among the events would
 * otherwise read a page for each probe). The spans of one CPU never
 * overlap and are in time order, so a column costs, per CPU, a binary
 * search among the spans plus the spans it overlaps, and a binary search
 * among the events. Example: CPU0 runs
 * [0 A][10 B][20 A][30 A], CPU1 runs [0 B][25 A]; the trace ends at 40.
 * Task A's spans are cpu0: [0,10) [20,40), cpu1: [25,40) (a task on two CPUs
 * at once only where the trace says so); a column [20,30) is RUNNING on
 * CPU0, which holds 10 ns of it against CPU1's 5.
 *
 * States (ns_task_row_set_states()): the task's spans of model_sched.h's
 * timelines, kept once more per state as positions in time order (a task
 * is in one state at a time, so each state's spans are disjoint and sorted
 * by their ends too). A column asks each state, most important first,
 * "a span ending after the column's start that starts before its end?":
 * a binary search per state, whatever the zoom. Example: sleeping [0,50),
 * runnable after a wakeup [50,52), running [52,60), sleeping [60,..): a
 * column [40,51) shows the wakeup latency, [40,55) running (the CPUs' runs
 * say so first), [61,70) sleeping.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/model_sched.h"
#include "nurseshark/model_tasks.h"
#include "nurseshark/util.h"

/* ---- the task list --------------------------------------------------------- */

struct slot {
	int pid;		/* -1: empty */
	uint64_t events, ns;
};

struct table {
	struct slot *s;
	size_t cap, count;
};

static struct slot *table_get(struct table *t, int pid)
{
	size_t i;

	if ((t->count + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 1024, k;
		struct slot *ns = malloc(ncap * sizeof(*ns));

		if (!ns)
			return NULL;
		for (k = 0; k < ncap; k++)
			ns[k].pid = -1;
		for (k = 0; k < t->cap; k++) {
			if (t->s[k].pid < 0)
				continue;
			for (i = ((uint32_t)t->s[k].pid * 2654435761u) & (ncap - 1); ns[i].pid >= 0;
			     i = (i + 1) & (ncap - 1))
				;
			ns[i] = t->s[k];
		}
		free(t->s);
		t->s = ns;
		t->cap = ncap;
	}
	for (i = ((uint32_t)pid * 2654435761u) & (t->cap - 1); t->s[i].pid >= 0;
	     i = (i + 1) & (t->cap - 1))
		if (t->s[i].pid == pid)
			return &t->s[i];
	t->s[i].pid = pid;
	t->s[i].events = 0;
	t->s[i].ns = 0;
	t->count++;
	return &t->s[i];
}

static int cmp_task(const void *a, const void *b)
{
	const struct ns_task_info *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

int ns_task_list_build(const struct ns_trace *trace, struct ns_task_info **out)
{
	uint64_t last_ns = ns_trace_last_ns(trace), n, i;
	int nr_cpus = ns_trace_nr_cpus(trace), cpu, nr = 0, last_pid = -2;
	struct table t = { 0 };
	struct slot *s = NULL;
	size_t k;

	*out = NULL;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		const struct ns_run *runs;

		n = ns_trace_cpu_nr_events(trace, cpu);
		for (i = 0; i < n; i++) {
			int pid = ns_trace_ev_pid(trace, cpu, i);

			/* runs of events of one task are common: skip the lookup */
			if (pid != last_pid || !s) {
				s = table_get(&t, pid);
				if (!s)
					goto nomem;
				last_pid = pid;
			}
			s->events++;
		}
		runs = ns_trace_cpu_runs(trace, cpu, &n);
		for (i = 0; i < n; i++) {
			uint64_t end = i + 1 < n ? runs[i + 1].start_ns : last_ns;

			if (runs[i].pid < 0)	/* events lost: nobody's time */
				continue;
			s = table_get(&t, runs[i].pid);
			if (!s)
				goto nomem;
			last_pid = runs[i].pid;
			if (end > runs[i].start_ns)
				s->ns += end - runs[i].start_ns;
		}
	}
	*out = malloc((t.count ? t.count : 1) * sizeof(**out));
	if (!*out)
		goto nomem;
	for (k = 0; k < t.cap; k++) {
		if (t.s[k].pid < 0)
			continue;
		(*out)[nr].pid = t.s[k].pid;
		(*out)[nr].comm = ns_trace_task_comm(trace, t.s[k].pid);
		(*out)[nr].nr_events = t.s[k].events;
		(*out)[nr].cpu_ns = t.s[k].ns;
		nr++;
	}
	free(t.s);
	qsort(*out, nr, sizeof(**out), cmp_task);
	return nr;
nomem:
	free(t.s);
	return -ENOMEM;
}

int ns_task_pids_by_comm(const struct ns_trace *trace, const char *comm, int **pids)
{
	struct ns_task_info *tasks;
	int nr = ns_task_list_build(trace, &tasks), i, n = 0;

	*pids = NULL;
	if (nr < 0)
		return nr;
	*pids = malloc((nr ? nr : 1) * sizeof(int));
	if (!*pids) {
		free(tasks);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		if (!strcmp(tasks[i].comm, comm))
			(*pids)[n++] = tasks[i].pid;
	free(tasks);
	return n;
}

/* ---- task rows -------------------------------------------------------------- */

struct ns_task_row {
	const struct ns_trace *trace;
	int pid;
	struct ns_task_span *spans;	/* by CPU, then by start */
	uint64_t nr_spans;
	int nr_cpus;
	uint64_t *cpu_spans;		/* spans of CPU c: [cpu_spans[c], cpu_spans[c + 1]) */
	uint64_t **idx;			/* per CPU, the task's event indexes */
	uint64_t **ts;			/* per CPU, their timestamps */
	uint64_t *nr_idx;
	uint64_t nr_events;
	struct ns_sched_span *states;	/* the task's states in time order */
	uint32_t *by_state[NS_NR_TRS];	/* per row state, its spans' positions in states */
	uint32_t nr_by_state[NS_NR_TRS];
};

/* The row state that shows a timeline's state. */
static int row_state_of(int state)
{
	switch (state) {
	case NS_TS_RUNNING:
		return NS_TRS_RUNNING;
	case NS_TS_WAKING:
		return NS_TRS_WAKEUP;
	case NS_TS_PENDING:
		return NS_TRS_WAKING;
	case NS_TS_PREEMPTED:
		return NS_TRS_PREEMPTED;
	case NS_TS_DROPPED:
		return NS_TRS_DROPPED;
	case NS_TS_BLOCKED:
		return NS_TRS_BLOCKED;
	case NS_TS_SLEEPING:
		return NS_TRS_SLEEPING;
	case NS_TS_IDLE:
		return NS_TRS_IDLE;
	case NS_TS_STOPPED:
		return NS_TRS_STOPPED;
	case NS_TS_DEAD:
		return NS_TRS_DEAD;
	default:
		return NS_TRS_UNKNOWN;
	}
}

int ns_task_row_set_states(struct ns_task_row *tr, const struct ns_sched *s)
{
	struct ns_sched_span *sp;
	long n = ns_sched_task_spans(s, tr->pid, &sp), i;
	int st;

	if (n < 0)
		return (int)n;
	free(tr->states);
	tr->states = sp;
	for (st = 0; st < NS_NR_TRS; st++) {
		free(tr->by_state[st]);
		tr->by_state[st] = NULL;
		tr->nr_by_state[st] = 0;
	}
	for (i = 0; i < n; i++)
		tr->nr_by_state[row_state_of(sp[i].state)]++;
	for (st = 0; st < NS_NR_TRS; st++) {
		if (!tr->nr_by_state[st])
			continue;
		tr->by_state[st] = malloc(tr->nr_by_state[st] * sizeof(uint32_t));
		if (!tr->by_state[st])
			return -ENOMEM;
		tr->nr_by_state[st] = 0;
	}
	for (i = 0; i < n; i++) {
		st = row_state_of(sp[i].state);
		tr->by_state[st][tr->nr_by_state[st]++] = (uint32_t)i;
	}
	return 0;
}

struct state_key {
	const struct ns_task_row *tr;
	int st;
	uint64_t a;
};

static bool state_ends_by(size_t i, const void *arg)
{
	const struct state_key *k = arg;

	return k->tr->states[k->tr->by_state[k->st][i]].end_ns <= k->a;
}

/* Was the task in row state @st at some time in [a, b)? */
static bool state_in(const struct ns_task_row *tr, int st, uint64_t a, uint64_t b)
{
	size_t i = ns_lower_bound(tr->nr_by_state[st], state_ends_by,
				  &(struct state_key){ tr, st, a });

	return i < tr->nr_by_state[st] && tr->states[tr->by_state[st][i]].start_ns < b;
}

static int push_span(struct ns_task_row *tr, size_t *cap, uint64_t start, uint64_t end, int cpu)
{
	if (tr->nr_spans && tr->spans[tr->nr_spans - 1].cpu == cpu &&
	    tr->spans[tr->nr_spans - 1].end_ns == start) {
		tr->spans[tr->nr_spans - 1].end_ns = end;
		return 0;
	}
	if (NS_GROW(tr->spans, *cap, tr->nr_spans + 1))
		return -ENOMEM;
	tr->spans[tr->nr_spans].start_ns = start;
	tr->spans[tr->nr_spans].end_ns = end;
	tr->spans[tr->nr_spans].cpu = cpu;
	tr->nr_spans++;
	return 0;
}

struct ns_task_row *ns_task_row_open(const struct ns_trace *trace, int pid)
{
	uint64_t last_ns = ns_trace_last_ns(trace), n, i, k;
	size_t cap = 0, cap_idx, cap_ts;
	struct ns_task_row *tr = calloc(1, sizeof(*tr));
	int cpu;

	if (!tr)
		return NULL;
	tr->trace = trace;
	tr->pid = pid;
	tr->nr_cpus = ns_trace_nr_cpus(trace);
	tr->idx = calloc(tr->nr_cpus ? tr->nr_cpus : 1, sizeof(*tr->idx));
	tr->ts = calloc(tr->nr_cpus ? tr->nr_cpus : 1, sizeof(*tr->ts));
	tr->nr_idx = calloc(tr->nr_cpus ? tr->nr_cpus : 1, sizeof(*tr->nr_idx));
	tr->cpu_spans = calloc(tr->nr_cpus + 1, sizeof(*tr->cpu_spans));
	if (!tr->idx || !tr->ts || !tr->nr_idx || !tr->cpu_spans)
		goto fail;
	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		const struct ns_run *runs = ns_trace_cpu_runs(trace, cpu, &n);

		tr->cpu_spans[cpu] = tr->nr_spans;
		for (i = 0; i < n; i++) {
			uint64_t end = i + 1 < n ? runs[i + 1].start_ns : last_ns;

			if (runs[i].pid == pid && end > runs[i].start_ns &&
			    push_span(tr, &cap, runs[i].start_ns, end, cpu))
				goto fail;
		}
		/* one pass: with the index by chunks, each pass reads the pages again */
		n = ns_trace_cpu_nr_events(trace, cpu);
		for (i = 0, k = 0, cap_idx = 0, cap_ts = 0; i < n; i++) {
			if (ns_trace_ev_pid(trace, cpu, i) != pid)
				continue;
			if (NS_GROW(tr->idx[cpu], cap_idx, k + 1) || NS_GROW(tr->ts[cpu], cap_ts, k + 1))
				goto fail;
			tr->idx[cpu][k] = i;
			tr->ts[cpu][k++] = ns_trace_ev_ts(trace, cpu, i);
		}
		tr->nr_idx[cpu] = k;
		tr->nr_events += k;
		if (k && k < cap_idx) {	/* what the doubling left over */
			uint64_t *p = realloc(tr->idx[cpu], k * sizeof(*p));

			tr->idx[cpu] = p ? p : tr->idx[cpu];
			p = realloc(tr->ts[cpu], k * sizeof(*p));
			tr->ts[cpu] = p ? p : tr->ts[cpu];
		}
	}
	tr->cpu_spans[tr->nr_cpus] = tr->nr_spans;
	return tr;
fail:
	ns_task_row_close(tr);
	return NULL;
}

void ns_task_row_close(struct ns_task_row *tr)
{
	int cpu;

	if (!tr)
		return;
	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		if (tr->idx)
			free(tr->idx[cpu]);
		if (tr->ts)
			free(tr->ts[cpu]);
	}
	free(tr->idx);
	free(tr->ts);
	free(tr->nr_idx);
	free(tr->cpu_spans);
	free(tr->spans);
	free(tr->states);
	for (cpu = 0; cpu < NS_NR_TRS; cpu++)
		free(tr->by_state[cpu]);
	free(tr);
}

int ns_task_row_pid(const struct ns_task_row *tr)
{
	return tr->pid;
}

const struct ns_task_span *ns_task_row_spans(const struct ns_task_row *tr, uint64_t *count)
{
	*count = tr->nr_spans;
	return tr->spans;
}

uint64_t ns_task_row_nr_events(const struct ns_task_row *tr)
{
	return tr->nr_events;
}

struct cpu_key {
	const struct ns_task_row *tr;
	int cpu;
	uint64_t ns;
};

static bool span_ends_by(size_t i, const void *arg)
{
	const struct cpu_key *k = arg;

	return k->tr->spans[k->tr->cpu_spans[k->cpu] + i].end_ns <= k->ns;
}

/* The first span of @cpu that ends after @a: a CPU's spans never overlap. */
static uint64_t first_span(const struct ns_task_row *tr, int cpu, uint64_t a)
{
	uint64_t first = tr->cpu_spans[cpu];

	return first + ns_lower_bound(tr->cpu_spans[cpu + 1] - first, span_ends_by,
				      &(struct cpu_key){ tr, cpu, a });
}

static bool event_before(size_t i, const void *arg)
{
	const struct cpu_key *k = arg;

	return k->tr->ts[k->cpu][i] < k->ns;
}

/* The first of the task's events of @cpu at or after @ts (position in idx[cpu]). */
static uint64_t event_lower_bound(const struct ns_task_row *tr, int cpu, uint64_t ts)
{
	return ns_lower_bound(tr->nr_idx[cpu], event_before, &(struct cpu_key){ tr, cpu, ts });
}

#define NS_TASK_ROW_SCAN	256	/* hidden events looked past in one column and CPU */

/* The CPU of the task's first event shown in [a, b), or -1. */
static int event_in(const struct ns_task_row *tr, const struct ns_visible *vis, uint64_t a,
		    uint64_t b)
{
	uint64_t best_ts = UINT64_MAX;
	int cpu, best = -1;

	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		uint64_t p, k;

		if (!tr->nr_idx[cpu])
			continue;
		p = event_lower_bound(tr, cpu, a);
		for (k = 0; p < tr->nr_idx[cpu] && k < NS_TASK_ROW_SCAN; p++, k++) {
			uint64_t ts = tr->ts[cpu][p];

			if (ts >= b || ts >= best_ts)
				break;
			if (ns_visible_graph_event(vis, cpu, tr->idx[cpu][p])) {
				best_ts = ts;
				best = cpu;
				break;
			}
		}
	}
	return best;
}

void ns_task_row_bins(const struct ns_task_row *tr, const struct ns_visible *vis,
		      uint64_t start_ns, uint64_t end_ns, int cols, struct ns_task_bin *out)
{
	int col;

	for (col = 0; col < cols; col++) {
		uint64_t a = ns_window_col_ns(start_ns, end_ns, cols, col);
		uint64_t b = ns_window_col_ns(start_ns, end_ns, cols, col + 1);
		uint64_t best_ns = 0, s;
		struct ns_task_bin *bin = &out[col];
		int cpu, ev_cpu, st;

		if (b <= a)
			b = a + 1;
		bin->cpu = -1;
		bin->flags = 0;
		for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
			uint64_t ran = 0;

			for (s = first_span(tr, cpu, a);
			     s < tr->cpu_spans[cpu + 1] && tr->spans[s].start_ns < b; s++) {
				const struct ns_task_span *sp = &tr->spans[s];

				ran += (sp->end_ns < b ? sp->end_ns : b) -
				       (sp->start_ns > a ? sp->start_ns : a);
			}
			if (ran > best_ns) {
				best_ns = ran;
				bin->cpu = cpu;
			}
		}
		bin->state = NS_TRS_UNKNOWN;
		if (bin->cpu >= 0) {
			bin->flags |= NS_BIN_RUNNING;
			bin->state = NS_TRS_RUNNING;
		}
		/* running comes from the CPUs' runs, as on the CPU rows; the rest by rank */
		for (st = NS_TRS_WAKEUP; bin->state == NS_TRS_UNKNOWN && st < NS_TRS_UNKNOWN; st++)
			if (state_in(tr, st, a, b))
				bin->state = (uint8_t)st;
		ev_cpu = event_in(tr, vis, a, b);
		if (ev_cpu >= 0) {
			bin->flags |= NS_BIN_EVENTS;
			if (bin->cpu < 0)
				bin->cpu = ev_cpu;
		}
	}
}

int ns_task_row_nearest(const struct ns_task_row *tr, uint64_t ts_ns, int *cpu_out,
			uint64_t *idx_out)
{
	uint64_t best_d = UINT64_MAX;
	int cpu, found = -1;

	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		uint64_t p;
		int k;

		if (!tr->nr_idx[cpu])
			continue;
		p = event_lower_bound(tr, cpu, ts_ns);
		for (k = 0; k < 2; k++) {
			uint64_t q, t, d;

			if (k == 0 && p == tr->nr_idx[cpu])
				continue;
			if (k == 1 && p == 0)
				continue;
			q = k == 0 ? p : p - 1;
			t = tr->ts[cpu][q];
			d = t > ts_ns ? t - ts_ns : ts_ns - t;
			if (d < best_d) {
				best_d = d;
				*cpu_out = cpu;
				*idx_out = tr->idx[cpu][q];
				found = 0;
			}
		}
	}
	return found;
}
