// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling analysis (model_sched.h has the definitions): the scheduler
 * events before the end of the range are read back from the file a window
 * of time at a time (window_events(): its events are held at once), each
 * window in pieces of the CPUs' events balanced by count, each piece by
 * the thread that takes it (trace_sched.h), into per-CPU arrays; these are
 * then merged in the order `trace-cmd report` prints them (time, then the
 * lower CPU) and fed through one state machine per task, which sums the
 * time each task spends in each state inside [t0, t1), pairs wakeups with
 * switch-ins as report -w does, and, for the timelines, keeps each task's
 * state changes (within ns_sched_memory_budget()). The machine carries on
 * from one window into the next, and a window ends at a time, so that the
 * result is that of one pass (tests/unit/test_sched.c cuts windows of a
 * few thousand events to check it). Nothing is added to the index.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nurseshark/filter.h"
#include "nurseshark/model_sched.h"
#include "nurseshark/trace_sched.h"
#include "nurseshark/util.h"

#define SCHED_MAX_THREADS 8
/* a switch-in the trace did not record (see collect_one()) */
#define SCHED_IMPLICIT 100

static const char *const state_names[NS_NR_TS] = {
	[NS_TS_UNKNOWN] = "unknown",
	[NS_TS_RUNNING] = "running",
	[NS_TS_WAKING] = "waking",
	[NS_TS_PREEMPTED] = "preempted",
	[NS_TS_SLEEPING] = "sleeping",
	[NS_TS_IDLE] = "idle",
	[NS_TS_BLOCKED] = "blocked",
	[NS_TS_STOPPED] = "stopped",
	[NS_TS_DEAD] = "dead",
	[NS_TS_PENDING] = "pending",
	[NS_TS_DROPPED] = "dropped",
};

const char *ns_task_state_name(int state)
{
	return state >= 0 && state < NS_NR_TS ? state_names[state] : "?";
}

/*
 * prev_state as the kernel reports it since 4.14: S 0x1, D 0x2, T 0x4,
 * t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80, and 0x100 (TASK_REPORT_MAX) for
 * R+, preempted. Older kernels set a higher bit for preemption; no state
 * bit in the low byte is runnable everywhere.
 */
int ns_task_state_of_prev(int64_t prev_state)
{
	uint64_t s = (uint64_t)prev_state & 0xff;

	if (prev_state < 0)
		return NS_TS_UNKNOWN;
	if (!s)
		return NS_TS_PREEMPTED;
	if (s & 0x1)
		return NS_TS_SLEEPING;
	if (s & 0x2)
		return NS_TS_BLOCKED;
	if (s & 0x30)
		return NS_TS_DEAD;
	if (s == 0x80)
		return NS_TS_IDLE;
	return NS_TS_STOPPED;
}

/* ---- what the filters keep ------------------------------------------------ */

/* Does the list's filter of kind @kind (TASK or CPU) keep @value? */
static bool keeps_named(const struct ns_filter_set *fs, int kind, int value, const char *name)
{
	bool any_show = false, shown = false, same;
	int i, n = fs ? ns_filter_set_nr_entries(fs) : 0;

	for (i = 0; i < n; i++) {
		struct ns_filter_entry e;

		if (ns_filter_set_entry(fs, i, &e) || e.kind != kind || !(e.where & NS_FILTER_LIST))
			continue;
		same = name ? !strcmp(e.name, name) : e.value == value;
		if (e.mode == NS_FILTER_HIDE && same)
			return false;
		if (e.mode == NS_FILTER_SHOW) {
			any_show = true;
			shown |= same;
		}
	}
	return !any_show || shown;
}

static bool keeps(const struct ns_filter_set *fs, int kind, int value)
{
	return keeps_named(fs, kind, value, NULL);
}

/* Do the list's CPU and stream filters keep slot @cpu? */
static bool keeps_cpu(const struct ns_filter_set *fs, const struct ns_trace *trace, int cpu)
{
	char name[64];

	ns_filter_stream_name(trace, ns_trace_cpu_stream(trace, cpu), name, sizeof(name));
	return keeps(fs, NS_FILTER_CPU, cpu) && keeps_named(fs, NS_FILTER_STREAM, 0, name);
}

/* Does @fs filter the list at all, leaving out (@skip_tasks) its task entries? */
static bool filters_list(const struct ns_filter_set *fs, bool skip_tasks)
{
	int i, n = fs ? ns_filter_set_nr_entries(fs) : 0;

	for (i = 0; i < n; i++) {
		struct ns_filter_entry e;

		if (!ns_filter_set_entry(fs, i, &e) && (e.where & NS_FILTER_LIST) &&
		    !(skip_tasks && e.kind == NS_FILTER_TASK))
			return true;
	}
	return false;
}

/* The list's rows without its task filters: which scheduler events the analysis reads. */
static int visible_without_tasks(struct ns_trace *trace, const struct ns_filter_set *fs,
				 struct ns_visible **vis, char *err, size_t err_len)
{
	struct ns_filter_set *copy;
	int i, n, ret = 0;

	*vis = NULL;
	if (!filters_list(fs, true))
		return 0;
	copy = ns_filter_set_alloc();
	if (!copy)
		return -ENOMEM;
	n = ns_filter_set_nr_entries(fs);
	for (i = 0; i < n && !ret; i++) {
		struct ns_filter_entry e;

		if (!ns_filter_set_entry(fs, i, &e) && e.kind != NS_FILTER_TASK)
			ret = ns_filter_set_add(copy, &e);
	}
	if (!ret)
		ret = ns_visible_build(trace, copy, vis, err, err_len);
	ns_filter_set_free(copy);
	return ret;
}

/* ---- phase 1: each CPU's scheduler events, read in parallel -------------- */

struct cpu_events {
	struct ns_sched_event *ev;	/* the window's scheduler events */
	size_t nr, cap;
	uint64_t hi;			/* events of the CPU before t1 */
	uint64_t lo;			/* ... and before t0 */
	uint64_t win_lo, win_hi;	/* the window's events of the CPU */
	int carry;			/* who runs at the window's start, -1: none yet */
	bool kept;			/* the CPU filter keeps it */
};

/* Who runs before a chunk's first event is not known until the chunk before it ends. */
#define RUNNER_UNKNOWN (-3)

/*
 * A piece of one CPU's events, [lo, hi), read by one thread: the CPUs'
 * events cut in pieces of about the same count, so that threads share the
 * work whatever the CPUs' counts. A piece that does not start the CPU
 * does not know who runs at its start: its first event whose task is that
 * of the runner (collect_one()) is kept aside (first, at position
 * first_pos of ev), and merge_chunks() adds its implicit switch-in if the
 * piece before ended with another task running.
 */
struct chunk {
	int cpu;
	uint64_t lo, hi;
	struct cpu_events out;		/* its scheduler events (and implicit switch-ins) */
	struct ns_sched_event first;
	size_t first_pos;
	bool has_first;
	int end_cur;			/* who runs at its end, RUNNER_UNKNOWN: as at its start */
};

struct collect {
	struct ns_trace *trace;
	const struct ns_visible *vis_sched;	/* NULL: every event */
	const struct ns_visible *vis_list;
	struct cpu_events *cpus;
	struct chunk *chunks;
	int nr_chunks;
	uint64_t piece_events;		/* the pieces' size; 0: chosen by the events and threads */
	uint64_t *type_counts;		/* per thread: NS_TYPE_SLOTS counters */
	atomic_int next_chunk;		/* the next piece to take */
	int nr_cpus;
	bool count_types;
	int stack_type[2];		/* ftrace kernel_stack, user_stack; -1 if absent */
	atomic_int ret;			/* the first error */
};

#define NS_TYPE_SLOTS 65536
/* pieces per thread, and the least events in one */
#define SCHED_CHUNKS_PER_THREAD 4
#define SCHED_CHUNK_MIN (1u << 17)
/* the events of a window read at once: at least and at most (window_events()) */
#define SCHED_WINDOW_MIN (1u << 18)
#define SCHED_WINDOW_MAX (1u << 22)
/* pieces of a window where the pieces' size is asked for */
#define SCHED_WINDOW_PIECES 7

/* One piece's pass: its scheduler events, its type counts, who runs on it. */
struct collect_cpu {
	struct collect *c;
	struct chunk *ch;
	uint64_t lo;		/* the CPU's events before t0: not counted by type */
	uint64_t *counts;
	int cur;		/* the task running by the events so far, -1: none yet */
};

static int push(struct cpu_events *ce, const struct ns_sched_event *ev)
{
	if (NS_GROW(ce->ev, ce->cap, ce->nr + 1))
		return -ENOMEM;
	ce->ev[ce->nr++] = *ev;
	return 0;
}

/* The switch-in of @ev's task that no sched_switch recorded, to go before @ev. */
static struct ns_sched_event implicit_of(const struct ns_sched_event *ev)
{
	struct ns_sched_event imp = *ev;

	imp.kind = SCHED_IMPLICIT;
	imp.pid = imp.next_pid = ev->common_pid;
	imp.prio = -1;
	imp.state = -1;
	return imp;
}

/*
 * Every event of the CPU, in its order (NS_SCHED_SCAN_ALL). A task that
 * has an event on a CPU where, by the sched_switch events, another runs,
 * was switched in without a sched_switch in the trace (lost with dropped
 * events, or never recorded): a switch-in of our own, kind
 * SCHED_IMPLICIT, goes before that event, so that the task counts as
 * running from there rather than as still preempted or asleep. The CPU's
 * first event says who runs at first. Not a stack trace (kernel_stack,
 * user_stack): it is recorded right after the event it belongs to, in that
 * event's context, so the one after a sched_switch carries the task just
 * switched out (as the CPU rows' runs, src/trace/index.c).
 */
static int collect_one(void *arg, const struct ns_sched_event *ev)
{
	struct collect_cpu *cc = arg;
	struct collect *c = cc->c;
	struct ns_sched_event imp;
	int ret;

	/* once per event of the trace: no call where nothing is filtered */
	if (c->count_types && ev->idx >= cc->lo && ev->type >= 0 && ev->type < NS_TYPE_SLOTS &&
	    (!c->vis_list || ns_visible_list_event(c->vis_list, ev->cpu, ev->idx)))
		cc->counts[ev->type]++;
	if (c->vis_sched && !ns_visible_list_event(c->vis_sched, ev->cpu, ev->idx))
		return 0;
	if (ev->common_pid != cc->cur && ev->common_pid >= 0 &&
	    ev->type != c->stack_type[0] && ev->type != c->stack_type[1]) {
		imp = implicit_of(ev);
		if (cc->cur == RUNNER_UNKNOWN) {
			/* the piece before says whether it goes in: merge_chunks() */
			cc->ch->first = imp;
			cc->ch->first_pos = cc->ch->out.nr;
			cc->ch->has_first = true;
		} else {
			ret = push(&cc->ch->out, &imp);
			if (ret)
				return ret;
		}
		cc->cur = ev->common_pid;
	}
	if (ev->kind == NS_SCHED_NONE)
		return 0;
	if (ev->kind == NS_SCHED_SWITCH)
		cc->cur = ev->next_pid;
	return push(&cc->ch->out, ev);
}

static int collect_chunk(struct collect *c, struct chunk *ch, uint64_t *counts)
{
	struct collect_cpu cc = { c, ch, c->cpus[ch->cpu].lo, counts,
				  ch->lo ? RUNNER_UNKNOWN : -1 };
	int ret;

	ret = ns_trace_sched_scan(c->trace, ch->cpu, ch->lo, ch->hi, NS_SCHED_SCAN_ALL,
				  collect_one, &cc);
	ch->end_cur = cc.cur;
	return ret;
}

struct collect_thread {
	struct collect *c;
	uint64_t *counts;
	pthread_t th;
};

static void *collect_main(void *arg)
{
	struct collect_thread *t = arg;
	struct collect *c = t->c;
	int k, ret;

	while ((k = atomic_fetch_add_explicit(&c->next_chunk, 1, memory_order_relaxed)) <
		       c->nr_chunks &&
	       !atomic_load_explicit(&c->ret, memory_order_relaxed)) {
		ret = collect_chunk(c, &c->chunks[k], t->counts);
		if (ret) {
			int zero = 0;

			atomic_compare_exchange_strong_explicit(&c->ret, &zero, ret,
								memory_order_relaxed,
								memory_order_relaxed);
		}
	}
	return NULL;
}

/*
 * The kept CPUs' events of the window, cut in pieces of about @per events
 * (the last of a CPU takes what is left). Returns 0, or -ENOMEM.
 */
static int make_chunks(struct collect *c, uint64_t per)
{
	size_t cap = 0;
	int cpu, n = 0;

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		uint64_t lo = c->cpus[cpu].win_lo, hi = c->cpus[cpu].win_hi;

		if (!c->cpus[cpu].kept || !hi)
			continue;
		while (lo < hi) {
			uint64_t end = hi - lo < per + per / 2 ? hi : lo + per;

			if (NS_GROW(c->chunks, cap, (size_t)n + 1))
				return -ENOMEM;
			memset(&c->chunks[n], 0, sizeof(c->chunks[n]));
			c->chunks[n].cpu = cpu;
			c->chunks[n].lo = lo;
			c->chunks[n].hi = end;
			n++;
			lo = end;
		}
	}
	c->nr_chunks = n;
	return 0;
}

/*
 * Each CPU's pieces end to end into c->cpus[cpu].ev, in the CPU's order,
 * with the implicit switch-in at a piece's start where the task before it
 * differs (what one pass over the CPU would have made); the window before
 * says who runs at the first piece's start (carry).
 */
static int merge_chunks(struct collect *c)
{
	int k = 0, cpu;

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct cpu_events *ce = &c->cpus[cpu];
		int first = k, cur = ce->carry, j;
		size_t total = 0;

		for (j = k; j < c->nr_chunks && c->chunks[j].cpu == cpu; j++)
			total += c->chunks[j].out.nr + 1;
		if (j == first)
			continue;
		ce->ev = malloc(total * sizeof(*ce->ev));
		if (!ce->ev)
			return -ENOMEM;
		ce->cap = total;
		for (k = first; k < j; k++) {
			struct chunk *ch = &c->chunks[k];
			size_t at = ch->has_first ? ch->first_pos : ch->out.nr;

			/* a piece with no scheduler event has no array (memcpy wants one) */
			if (at)
				memcpy(ce->ev + ce->nr, ch->out.ev, at * sizeof(*ce->ev));
			ce->nr += at;
			if (ch->has_first && ch->first.common_pid != cur)
				ce->ev[ce->nr++] = ch->first;
			if (ch->out.nr > at)
				memcpy(ce->ev + ce->nr, ch->out.ev + at,
				       (ch->out.nr - at) * sizeof(*ce->ev));
			ce->nr += ch->out.nr - at;
			if (ch->end_cur != RUNNER_UNKNOWN)
				cur = ch->end_cur;
			free(ch->out.ev);
			ch->out.ev = NULL;
		}
		ce->carry = cur;
	}
	return 0;
}

/* Fill c->cpus with the window's events (and add to c->type_counts). */
static int collect_all(struct collect *c)
{
	struct collect_thread th[SCHED_MAX_THREADS];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 1, i, started = 0, ret;
	uint64_t total = 0, per;

	for (i = 0; i < c->nr_cpus; i++)
		if (c->cpus[i].kept)
			total += c->cpus[i].win_hi - c->cpus[i].win_lo;
	if (ns_trace_can_make_readers(c->trace)) {
		n = online > 0 && online < SCHED_MAX_THREADS ? (int)online : SCHED_MAX_THREADS;
		if (n < 1)
			n = 1;
	}
	/* pieces balanced by event count, a few per thread so that none waits long */
	per = total / ((uint64_t)n * SCHED_CHUNKS_PER_THREAD) + 1;
	if (per < SCHED_CHUNK_MIN)
		per = SCHED_CHUNK_MIN;
	/* asked for (tests: pieces this small, so that small traces are cut too) */
	if (c->piece_events)
		per = c->piece_events;
	ret = make_chunks(c, per);
	if (ret)
		return ret;
	if (n > c->nr_chunks)
		n = c->nr_chunks > 0 ? c->nr_chunks : 1;
	for (i = 0; i < n; i++) {
		th[i].c = c;
		th[i].counts = c->type_counts;
		if (i && c->count_types)
			th[i].counts = calloc(NS_TYPE_SLOTS, sizeof(uint64_t));
		if (!th[i].counts) {
			n = i;
			break;
		}
	}
	/* thread 0 is this one */
	for (i = 1; i < n; i++) {
		if (pthread_create(&th[i].th, NULL, collect_main, &th[i]))
			break;
		started = i;
	}
	collect_main(&th[0]);
	for (i = 1; i <= started; i++)
		pthread_join(th[i].th, NULL);
	for (i = 1; i < n && c->count_types; i++) {
		int t;

		for (t = 0; t < NS_TYPE_SLOTS; t++)
			c->type_counts[t] += th[i].counts[t];
		free(th[i].counts);
	}
	if (c->ret)
		return c->ret;
	return merge_chunks(c);
}

/* ---- phase 2: the merged order and the state machine ---------------------- */

/*
 * An event in 8 bytes: its index in its CPU's events (40 bits) and the
 * CPU (slot, 15 bits: NS_REF_NONE for none); the bits above are the seg's.
 */
#define SCHED_IDX_BITS 40
#define SCHED_CPU_BITS 15
#define SCHED_REF_BITS (SCHED_IDX_BITS + SCHED_CPU_BITS)
#define SCHED_CPU_NONE ((1u << SCHED_CPU_BITS) - 1)

/*
 * A state change of a task's timeline: 20 bytes, the timelines' bulk. A
 * RUNNING seg runs on the CPU of its event (a switch-in, or the first
 * event seen running).
 */
struct seg {
	uint64_t start_ns;
	/* the event that began it (SCHED_REF_BITS), then its state (4 bits), switch_out, implicit */
	uint64_t ev;
	int32_t lat;		/* RUNNING: its wakeup in the task's lats, -1 none */
} __attribute__((packed, aligned(4)));

#define SEG_STATE_SHIFT SCHED_REF_BITS
#define SEG_SWITCH_OUT (1ull << (SCHED_REF_BITS + 4))	/* began with the task's switch-out */
#define SEG_IMPLICIT (1ull << (SCHED_REF_BITS + 5))	/* a run no sched_switch began */

/* An event and its time. */
struct pref {
	uint64_t ts_ns;
	uint64_t ev;		/* SCHED_REF_BITS */
} __attribute__((packed, aligned(4)));

/* The wakeup a run pairs with: 36 bytes. */
struct lat {
	struct pref wakeup, waking;
	int32_t waker;
} __attribute__((packed, aligned(4)));

/* the CPUs (slots) and event indexes the timelines can keep */
static bool ref_fits(int cpu, uint64_t idx)
{
	return cpu >= -1 && cpu < (int)SCHED_CPU_NONE && !(idx >> SCHED_IDX_BITS);
}

static uint64_t ref_bits(int cpu, uint64_t idx)
{
	return cpu < 0 ? (uint64_t)SCHED_CPU_NONE << SCHED_IDX_BITS :
	       (uint64_t)cpu << SCHED_IDX_BITS | idx;
}

static struct ns_sched_ref ref_of(uint64_t ev, uint64_t ts_ns)
{
	unsigned int cpu = (unsigned int)(ev >> SCHED_IDX_BITS) & SCHED_CPU_NONE;

	if (cpu == SCHED_CPU_NONE)
		return (struct ns_sched_ref){ -1, 0, 0 };
	return (struct ns_sched_ref){ (int)cpu, ev & ((1ull << SCHED_IDX_BITS) - 1), ts_ns };
}

static struct pref pack_ref(const struct ns_sched_ref *r)
{
	return (struct pref){ r->ts_ns, ref_bits(r->cpu, r->idx) };
}

static struct ns_sched_ref unpack_ref(const struct pref *p)
{
	return ref_of(p->ev, p->ts_ns);
}

/* Events lost on a CPU: between its events at lo and hi. */
struct gap {
	uint64_t lo, hi;
};

/* A task while the machine runs. */
struct task {
	struct ns_sched_task st;
	int state;
	uint64_t since;
	/* report -w's pending wakeup, and the pending sched_waking */
	struct ns_sched_ref wk, waking;
	int waker;
	/* the timeline */
	struct seg *segs;
	size_t nr_segs, cap_segs;
	struct lat *lats;
	size_t nr_lats, cap_lats;
};

struct machine {
	uint64_t t0, t1, end;		/* end: where open intervals stop (<= t1) */
	bool timeline;
	struct task *tasks;
	size_t nr_tasks, cap_tasks;
	int32_t *slots;			/* open addressing: pid -> tasks index + 1 */
	size_t nr_slots;
	/*
	 * per CPU: who runs since when (pid -1: not known yet); before its
	 * first sched_switch, its prev_pid ran from the CPU's first event
	 * (on_switch() sets that when it comes: started)
	 */
	int *run_pid;
	uint64_t *run_since;
	bool *started;
	struct ns_trace *trace;
	struct ns_sched_cpu *cpus;
	struct ns_sched_lat wakeup[2], waking;
	/* where events were lost, by hi; min_lo[j]: the least lo of gaps j.. */
	struct gap *gaps;
	uint64_t *min_lo;
	size_t nr_gaps;
	/* the same per CPU, in time order: CPU c's are [cgap_first[c], cgap_first[c + 1]) */
	struct gap *cgaps;
	size_t *cgap_first;
	int nr_gap_cpus;
	/* the timelines' bytes, the most they took and may take (-EFBIG past it) */
	uint64_t timeline_bytes, timeline_peak, timeline_cap;
	uint64_t timeline_trimmed;	/* timeline_bytes after the last timeline_fit() */
	int task_err;			/* why task_get() gave none: -ENOMEM, -EFBIG */
};

/*
 * Room for one more element in a timeline's array: it grows by half (from
 * 4), and what it holds, filled or not, counts in the timelines' bytes.
 * 0, -ENOMEM, or -EFBIG past their share of memory.
 */
static void timeline_fit(struct machine *m);

static int timeline_grow(struct machine *m, void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap < 4 ? 4 : *cap + *cap / 2;
	if (ncap < need)
		ncap = need;
	if (ncap > SIZE_MAX / size)
		return -ENOMEM;
	/*
	 * Near the cap, every array cut down to what it holds (once per 1/32
	 * of the cap grown since), then grown by an eighth, a page's worth at
	 * most: their slack made the peak 147 MB where they held 124 MB at
	 * the end (115 M events in 3 buffers), past the 128 MB that a 512 MB
	 * cgroup leaves them. Large arrays are mapped on their own: realloc()
	 * moves no bytes.
	 */
	if (m->timeline_bytes + (ncap - *cap) * size > m->timeline_cap) {
		if (m->timeline_bytes > m->timeline_trimmed + m->timeline_cap / 32) {
			timeline_fit(m);
			m->timeline_trimmed = m->timeline_bytes;
		}
		ncap = *cap / 8 < 4096 / size ? *cap / 8 : 4096 / size;
		ncap += need + 1;
	}
	m->timeline_bytes += (ncap - *cap) * size;
	if (m->timeline_bytes > m->timeline_cap)
		return -EFBIG;
	if (m->timeline_bytes > m->timeline_peak)
		m->timeline_peak = m->timeline_bytes;
	n = realloc(*arr, ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

/* The timelines built: each array down to what it holds, and the bytes counted again. */
static void timeline_fit(struct machine *m)
{
	size_t i;

	if (m->timeline_bytes > m->timeline_peak)
		m->timeline_peak = m->timeline_bytes;
	m->timeline_bytes = m->cap_tasks * sizeof(*m->tasks) + m->nr_slots * sizeof(*m->slots);
	for (i = 0; i < m->nr_tasks; i++) {
		struct task *t = &m->tasks[i];
		void *p;

		if (t->nr_segs < t->cap_segs && (p = realloc(t->segs, (t->nr_segs ? t->nr_segs : 1) *
							     sizeof(*t->segs)))) {
			t->segs = p;
			t->cap_segs = t->nr_segs;
		}
		if (t->nr_lats < t->cap_lats && (p = realloc(t->lats, (t->nr_lats ? t->nr_lats : 1) *
							     sizeof(*t->lats)))) {
			t->lats = p;
			t->cap_lats = t->nr_lats;
		}
		m->timeline_bytes += t->cap_segs * sizeof(*t->segs) + t->cap_lats * sizeof(*t->lats);
	}
}

static size_t hash_pid(int pid, size_t n)
{
	return ((uint32_t)pid * 2654435761u) & (n - 1);
}

static int rehash(struct machine *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 1024, i;
	int32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (i = 0; i < m->nr_tasks; i++) {
		size_t h = hash_pid(m->tasks[i].st.pid, n);

		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = (int32_t)i + 1;
	}
	free(m->slots);
	m->slots = s;
	m->nr_slots = n;
	return 0;
}

static struct task *task_get(struct machine *m, int pid)
{
	struct task *t;
	size_t h;

	if (m->nr_slots) {
		for (h = hash_pid(pid, m->nr_slots); m->slots[h]; h = (h + 1) & (m->nr_slots - 1))
			if (m->tasks[m->slots[h] - 1].st.pid == pid)
				return &m->tasks[m->slots[h] - 1];
	}
	size_t had = m->cap_tasks * sizeof(*m->tasks) + m->nr_slots * sizeof(*m->slots);
	uint64_t more = 0;

	/*
	 * The timelines' bytes count the tasks too, held to the cap: near it,
	 * the arrays are cut to what they hold before the tasks' grow.
	 */
	m->task_err = -ENOMEM;
	if ((m->nr_tasks + 1) * 2 > m->nr_slots)
		more += (m->nr_slots ? m->nr_slots : 512) * sizeof(*m->slots);
	if (m->nr_tasks + 1 > m->cap_tasks)
		more += (m->cap_tasks ? m->cap_tasks : 16) * sizeof(*m->tasks);
	if (m->timeline && more && m->timeline_bytes + more > m->timeline_cap) {
		timeline_fit(m);
		m->timeline_trimmed = m->timeline_bytes;
	}
	if ((m->nr_tasks + 1) * 2 > m->nr_slots && rehash(m))
		return NULL;
	if (NS_GROW(m->tasks, m->cap_tasks, m->nr_tasks + 1))
		return NULL;
	if (m->timeline) {
		m->timeline_bytes += m->cap_tasks * sizeof(*m->tasks) +
				     m->nr_slots * sizeof(*m->slots) - had;
		if (m->timeline_bytes > m->timeline_cap) {
			m->task_err = -EFBIG;
			return NULL;
		}
		if (m->timeline_bytes > m->timeline_peak)
			m->timeline_peak = m->timeline_bytes;
	}
	t = &m->tasks[m->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->st.pid = pid;
	t->st.wakeup.min_ns = UINT64_MAX;
	t->st.waking.min_ns = UINT64_MAX;
	t->wk.cpu = -1;
	t->waking.cpu = -1;
	t->waker = -1;
	for (h = hash_pid(pid, m->nr_slots); m->slots[h]; h = (h + 1) & (m->nr_slots - 1))
		;
	m->slots[h] = (int32_t)++m->nr_tasks;
	return t;
}

/* The part of [a, b) inside [t0, end). */
static uint64_t clip(const struct machine *m, uint64_t a, uint64_t b)
{
	if (a < m->t0)
		a = m->t0;
	if (b > m->end)
		b = m->end;
	return b > a ? b - a : 0;
}

static bool in_range(const struct machine *m, uint64_t ts)
{
	return ts >= m->t0 && ts < m->t1;
}

static void lat_add(struct ns_sched_lat *l, uint64_t d, uint64_t ts)
{
	if (!l->n || d > l->max_ns) {
		l->max_ns = d;
		l->max_ts = ts;
	}
	if (!l->n || d < l->min_ns) {
		l->min_ns = d;
		l->min_ts = ts;
	}
	l->n++;
	l->sum_ns += d;
}

static bool gap_before(size_t i, const void *arg)
{
	const struct { const struct gap *g; uint64_t a; } *k = arg;

	return k->g[i].hi <= k->a;
}

/* Where events were first lost between @a and @b (@b: none; @a: already before). */
static uint64_t gap_after(const struct machine *m, uint64_t a, uint64_t b)
{
	struct { const struct gap *g; uint64_t a; } key = { m->gaps, a };
	size_t j;

	if (!m->nr_gaps)
		return b;
	j = ns_lower_bound(m->nr_gaps, gap_before, &key);
	if (j == m->nr_gaps || m->min_lo[j] >= b)
		return b;
	return m->min_lo[j] > a ? m->min_lo[j] : a;
}

static bool cgap_before(size_t i, const void *arg)
{
	const struct { const struct gap *g; uint64_t a; } *k = arg;

	return k->g[i].hi <= k->a;
}

/* The first of @cpu's gaps that ends after @a (its index in m->cgaps). */
static size_t cgap_first_after(const struct machine *m, int cpu, uint64_t a)
{
	struct { const struct gap *g; uint64_t a; } key;
	size_t first;

	if (cpu < 0 || cpu >= m->nr_gap_cpus)
		return 0;
	first = m->cgap_first[cpu];
	key.g = m->cgaps + first;
	key.a = a;
	return first + ns_lower_bound(m->cgap_first[cpu + 1] - first, cgap_before, &key);
}

/* How much of [a, b), inside [t0, end), @cpu's lost events cover. */
static uint64_t cpu_lost(const struct machine *m, int cpu, uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	size_t i;

	if (cpu < 0 || cpu >= m->nr_gap_cpus)
		return 0;
	for (i = cgap_first_after(m, cpu, a); i < m->cgap_first[cpu + 1] && m->cgaps[i].lo < b;
	     i++) {
		uint64_t lo = m->cgaps[i].lo > a ? m->cgaps[i].lo : a;
		uint64_t hi = m->cgaps[i].hi < b ? m->cgaps[i].hi : b;

		if (hi > lo)
			sum += clip(m, lo, hi);
	}
	return sum;
}

/*
 * @cpu's run of @pid over [a, b) (clipped to the range): its CPU time,
 * busy or idle, but for where the CPU lost events: who ran there is not known.
 */
static int charge_run(struct machine *m, int cpu, int pid, uint64_t a, uint64_t b)
{
	uint64_t lost = cpu_lost(m, cpu, a, b), d = clip(m, a, b);
	struct task *t = task_get(m, pid);

	if (!t)
		return m->task_err;
	d = d > lost ? d - lost : 0;
	t->st.state_ns[NS_TS_RUNNING] += d;
	t->st.unknown_ns += lost;
	if (pid)
		m->cpus[cpu].busy_ns += d;
	else
		m->cpus[cpu].idle_ns += d;
	return 0;
}

/* The time in a state until @ts: none when events were lost meanwhile (not known). */
static void accrue(struct machine *m, struct task *t, uint64_t ts)
{
	uint64_t cut;

	if (t->state == NS_TS_RUNNING || t->state == NS_TS_UNKNOWN || t->state == NS_TS_DEAD)
		return;
	/* known until events were lost, not known from there on */
	cut = gap_after(m, t->since, ts);
	t->st.state_ns[t->state] += clip(m, t->since, cut);
	t->st.unknown_ns += clip(m, cut, ts);
}

static int gap_cmp(const void *a, const void *b)
{
	const struct gap *x = a, *y = b;

	return (x->hi > y->hi) - (x->hi < y->hi);
}

static int gaps_load(struct machine *m, struct ns_trace *trace)
{
	int cpu, nr_cpus = ns_trace_nr_cpus(trace);
	size_t n = 0, j;
	uint64_t k, idx;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		n += ns_trace_cpu_nr_drops(trace, cpu, 0, UINT64_MAX, NULL);
	if (!n)
		return 0;
	m->gaps = malloc(n * sizeof(*m->gaps));
	m->min_lo = malloc(n * sizeof(*m->min_lo));
	if (!m->gaps || !m->min_lo)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (k = 0; !ns_trace_cpu_drop(trace, cpu, k, &idx, NULL); k++)
			m->gaps[m->nr_gaps++] = (struct gap){
				idx ? ns_trace_ev_ts(trace, cpu, idx - 1) : 0,
				ns_trace_ev_ts(trace, cpu, idx),
			};
	m->cgaps = malloc(n * sizeof(*m->cgaps));
	m->cgap_first = malloc((nr_cpus + 1) * sizeof(*m->cgap_first));
	if (!m->cgaps || !m->cgap_first)
		return -ENOMEM;
	/* per CPU, in the CPU's order: its events are in time order */
	memcpy(m->cgaps, m->gaps, n * sizeof(*m->cgaps));
	for (cpu = 0, j = 0; cpu < nr_cpus; cpu++) {
		m->cgap_first[cpu] = j;
		j += ns_trace_cpu_nr_drops(trace, cpu, 0, UINT64_MAX, NULL);
	}
	m->cgap_first[nr_cpus] = j;
	m->nr_gap_cpus = nr_cpus;
	qsort(m->gaps, m->nr_gaps, sizeof(*m->gaps), gap_cmp);
	for (j = m->nr_gaps; j--;)
		m->min_lo[j] = j + 1 < m->nr_gaps && m->min_lo[j + 1] < m->gaps[j].lo ?
			m->min_lo[j + 1] : m->gaps[j].lo;
	return 0;
}

/* @t enters @state at @ts, because of event @ev. */
static int enter(struct machine *m, struct task *t, int state, uint64_t ts,
		 const struct ns_sched_event *ev, int cpu, int lat)
{
	int ret;

	/* running time comes from the CPUs' runs, the rest from here */
	accrue(m, t, ts);
	t->state = state;
	t->since = ts;
	if (!m->timeline)
		return 0;
	/* a RUNNING seg runs on its event's CPU (struct seg) */
	if (ev->cpu < 0 || !ref_fits(ev->cpu, ev->idx) ||
	    (state == NS_TS_RUNNING && cpu != ev->cpu))
		return -EOVERFLOW;
	ret = timeline_grow(m, (void **)&t->segs, &t->cap_segs, t->nr_segs + 1, sizeof(*t->segs));
	if (ret)
		return ret;
	t->segs[t->nr_segs++] = (struct seg){
		.start_ns = ts, .lat = lat,
		.ev = ref_bits(ev->cpu, ev->idx) | (uint64_t)state << SEG_STATE_SHIFT |
		      (ev->kind == NS_SCHED_SWITCH && ev->pid == t->st.pid &&
		       state != NS_TS_RUNNING ? SEG_SWITCH_OUT : 0) |
		      (ev->kind == SCHED_IMPLICIT ? SEG_IMPLICIT : 0),
	};
	return 0;
}

static int on_switch(struct machine *m, const struct ns_sched_event *ev)
{
	int cpu = ev->cpu, lat = -1;
	struct ns_sched_cpu *c = &m->cpus[cpu];
	struct task *t;
	uint64_t d;
	int ret;

	if (in_range(m, ev->ts_ns))
		c->switches++;
	/* the CPU's run that ends here; before its first switch, prev ran */
	if (!m->started[cpu]) {
		m->started[cpu] = true;
		m->run_pid[cpu] = ev->pid;
		m->run_since[cpu] = ns_trace_ev_ts(m->trace, cpu, 0);
	}
	if (m->run_pid[cpu] >= 0) {
		ret = charge_run(m, cpu, m->run_pid[cpu], m->run_since[cpu], ev->ts_ns);
		if (ret)
			return ret;
	}
	if (ev->pid > 0) {
		t = task_get(m, ev->pid);
		if (!t)
			return m->task_err;
		/*
		 * Switched out while not running: its switch-in was not
		 * recorded (lost events): how long it was in its last state
		 * is not known, and not counted.
		 */
		if (t->state != NS_TS_RUNNING && t->state != NS_TS_UNKNOWN) {
			if (in_range(m, ev->ts_ns))
				t->st.unseen_switches++;
			t->state = NS_TS_UNKNOWN;
		}
		ret = enter(m, t, ns_task_state_of_prev(ev->state), ev->ts_ns, ev, -1, -1);
		if (ret)
			return ret;
	}
	m->run_pid[cpu] = ev->next_pid;
	m->run_since[cpu] = ev->ts_ns;
	t = task_get(m, ev->next_pid);
	if (!t)
		return m->task_err;
	if (in_range(m, ev->ts_ns))
		t->st.runs++;
	if (ev->next_pid <= 0)
		return 0;
	if (t->wk.cpu >= 0) {
		d = ev->ts_ns - t->wk.ts_ns;
		if (in_range(m, ev->ts_ns)) {
			lat_add(&t->st.wakeup, d, ev->ts_ns);
			lat_add(&m->wakeup[0], d, ev->ts_ns);
			if (ev->prio >= 0 && ev->prio < 100)
				lat_add(&m->wakeup[1], d, ev->ts_ns);
		}
		if (m->timeline) {
			if (!ref_fits(t->wk.cpu, t->wk.idx) || !ref_fits(t->waking.cpu, t->waking.idx) ||
			    t->nr_lats >= INT32_MAX)
				return -EOVERFLOW;
			ret = timeline_grow(m, (void **)&t->lats, &t->cap_lats, t->nr_lats + 1,
					    sizeof(*t->lats));
			if (ret)
				return ret;
			t->lats[t->nr_lats] = (struct lat){ pack_ref(&t->wk), pack_ref(&t->waking),
							    t->waker };
			lat = (int)t->nr_lats++;
		}
	}
	if (t->waking.cpu >= 0 && in_range(m, ev->ts_ns)) {
		d = ev->ts_ns - t->waking.ts_ns;
		lat_add(&t->st.waking, d, ev->ts_ns);
		lat_add(&m->waking, d, ev->ts_ns);
	}
	t->wk.cpu = -1;
	t->waking.cpu = -1;
	t->waker = -1;
	/* switched in while running: its switch-out was not recorded */
	if (t->state == NS_TS_RUNNING && in_range(m, ev->ts_ns))
		t->st.unseen_switches++;
	return enter(m, t, NS_TS_RUNNING, ev->ts_ns, ev, cpu, lat);
}

/* A task runs on a CPU that no sched_switch switched it in on (collect_one()). */
static int on_implicit(struct machine *m, const struct ns_sched_event *ev)
{
	struct task *t;

	if (ev->pid <= 0)
		return 0;
	t = task_get(m, ev->pid);
	if (!t)
		return m->task_err;
	if (t->state == NS_TS_RUNNING)
		return 0;
	if (in_range(m, ev->ts_ns) && t->state != NS_TS_UNKNOWN)
		t->st.unseen_switches++;
	return enter(m, t, NS_TS_RUNNING, ev->ts_ns, ev, ev->cpu, -1);
}

static int on_wakeup(struct machine *m, const struct ns_sched_event *ev)
{
	struct ns_sched_ref at = { ev->cpu, ev->idx, ev->ts_ns };
	struct task *t;

	if (ev->pid <= 0)
		return 0;
	t = task_get(m, ev->pid);
	if (!t)
		return m->task_err;
	if (ev->kind == NS_SCHED_WAKING) {
		t->waking = at;
		return 0;
	}
	if (in_range(m, ev->ts_ns))
		t->st.wakeups++;
	/* report -w keeps the last wakeup before the switch-in */
	t->wk = at;
	t->waker = ev->common_pid;
	if (t->state == NS_TS_RUNNING || t->state == NS_TS_WAKING || t->state == NS_TS_PREEMPTED)
		return 0;
	return enter(m, t, NS_TS_WAKING, ev->ts_ns, ev, -1, -1);
}

/* The next event in report's order: a min-heap of CPUs on (ts, cpu). */
struct merge {
	struct cpu_events *cpus;
	size_t *pos;
	int *heap, n;
};

static bool merge_before(const struct merge *mg, int a, int b)
{
	uint64_t ta = mg->cpus[a].ev[mg->pos[a]].ts_ns, tb = mg->cpus[b].ev[mg->pos[b]].ts_ns;

	return ta < tb || (ta == tb && a < b);
}

static void merge_down(struct merge *mg, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i, tmp;

		if (l < mg->n && merge_before(mg, mg->heap[l], mg->heap[s]))
			s = l;
		if (r < mg->n && merge_before(mg, mg->heap[r], mg->heap[s]))
			s = r;
		if (s == i)
			return;
		tmp = mg->heap[i];
		mg->heap[i] = mg->heap[s];
		mg->heap[s] = tmp;
		i = s;
	}
}

static int run_machine(struct machine *m, struct cpu_events *cpus, int nr_cpus)
{
	struct merge mg = { cpus, NULL, NULL, 0 };
	int i, ret = 0;

	mg.pos = calloc(nr_cpus, sizeof(*mg.pos));
	mg.heap = calloc(nr_cpus, sizeof(*mg.heap));
	if (!mg.pos || !mg.heap) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr_cpus; i++)
		if (cpus[i].nr)
			mg.heap[mg.n++] = i;
	for (i = mg.n / 2 - 1; i >= 0; i--)
		merge_down(&mg, i);
	while (mg.n && !ret) {
		int cpu = mg.heap[0];
		const struct ns_sched_event *ev = &cpus[cpu].ev[mg.pos[cpu]++];

		if (mg.pos[cpu] == cpus[cpu].nr)
			mg.heap[0] = mg.heap[--mg.n];
		merge_down(&mg, 0);
		switch (ev->kind) {
		case NS_SCHED_SWITCH:
			ret = on_switch(m, ev);
			break;
		case NS_SCHED_WAKEUP:
		case NS_SCHED_WAKEUP_NEW:
		case NS_SCHED_WAKING:
			ret = on_wakeup(m, ev);
			break;
		case SCHED_IMPLICIT:
			ret = on_implicit(m, ev);
			break;
		default:
			break;
		}
	}
out:
	free(mg.pos);
	free(mg.heap);
	return ret;
}

/* The CPUs' runs before their first switch, and the open ends at the range's end. */
static int machine_finish(struct machine *m, int nr_cpus)
{
	size_t i;
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		int ret;

		if (m->run_pid[cpu] < 0)
			continue;
		ret = charge_run(m, cpu, m->run_pid[cpu], m->run_since[cpu], m->end);
		if (ret)
			return ret;
	}
	for (i = 0; i < m->nr_tasks; i++) {
		struct task *t = &m->tasks[i];

		accrue(m, t, m->end);
		t->st.end_state = t->state;
		t->st.end_since = t->since;
	}
	return 0;
}

static void machine_free(struct machine *m)
{
	size_t i;

	for (i = 0; i < m->nr_tasks; i++) {
		free(m->tasks[i].segs);
		free(m->tasks[i].lats);
	}
	free(m->tasks);
	free(m->slots);
	free(m->run_pid);
	free(m->run_since);
	free(m->started);
	free(m->cpus);
	free(m->gaps);
	free(m->min_lo);
	free(m->cgaps);
	free(m->cgap_first);
}

uint64_t ns_sched_memory_budget(void)
{
	return ns_memory_share();
}

/* Why the analysis failed with @ret, into @err. */
static void analyse_error(const struct machine *m, int ret, char *err, size_t err_len)
{
	char limit[96], mb[32] = "all the memory";

	switch (ret) {
	case -EIO:
		ns_set_err(err, err_len, "cannot read an event back from the file");
		break;
	case -ENOMEM:
		ns_set_nomem(err, err_len);
		break;
	case -EFBIG:
		ns_memory_limit_text(limit, sizeof(limit));
		if (m->timeline_cap != UINT64_MAX)
			snprintf(mb, sizeof(mb), "%llu %s",
				 (unsigned long long)(m->timeline_cap >> (m->timeline_cap >> 20 ? 20 : 10)),
				 m->timeline_cap >> 20 ? "MB" : "KB");
		/* under a tight limit the share is its floor, more than a quarter */
		ns_set_err(err, err_len, "the task timelines need more than %s, %s %s", mb,
			   ns_memory_share() > NS_MEMORY_SHARE_FLOOR ? "a quarter of" :
			   "the least share under", limit);
		break;
	case -EOVERFLOW:
		ns_set_err(err, err_len,
			   "the trace has more CPUs or events than the task timelines can keep");
		break;
	default:
		ns_set_err(err, err_len, "%s", strerror(-ret));
	}
}

/*
 * The events of a window, at most about this many over the kept CPUs: its
 * scheduler events are held at once (56 bytes each), so a window is a
 * small part of the memory the limits leave (ns_sched_memory_budget()).
 */
static uint64_t window_events(void)
{
	uint64_t budget = ns_sched_memory_budget() / 256;

	if (budget < SCHED_WINDOW_MIN)
		return SCHED_WINDOW_MIN;
	return budget > SCHED_WINDOW_MAX ? SCHED_WINDOW_MAX : budget;
}

/*
 * The kept CPUs' events before @ts from the next window's start (where the
 * last one ended, win_hi), as the groups tell it.
 */
static uint64_t events_to(const struct collect *c, uint64_t ts)
{
	uint64_t n = 0, lo, hi;
	int cpu;

	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		const struct cpu_events *ce = &c->cpus[cpu];

		if (!ce->kept || ce->win_hi >= ce->hi)
			continue;
		ns_trace_cpu_lower_bound_range(c->trace, cpu, ts, &lo, &hi);
		lo += (hi - lo) / 2;
		if (lo > ce->hi)
			lo = ce->hi;
		n += lo > ce->win_hi ? lo - ce->win_hi : 0;
	}
	return n;
}

/*
 * The next window: from where the last one ended (win_lo) to a time
 * @from < T <= @t1 with about @per events before it, or @t1. A window
 * ends at a time, so the merged order across windows is report's.
 * Returns T.
 */
static uint64_t next_window(struct collect *c, uint64_t from, uint64_t t1, uint64_t per)
{
	uint64_t lo = from + 1, hi = t1, t;
	int cpu;

	if (per != UINT64_MAX && events_to(c, t1) > per) {
		/* the least time past @per events; the window ends just before it */
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (events_to(c, mid) > per)
				hi = mid;
			else
				lo = mid + 1;
		}
		t = lo - 1 > from ? lo - 1 : from + 1;
	} else {
		t = t1;
	}
	for (cpu = 0; cpu < c->nr_cpus; cpu++) {
		struct cpu_events *ce = &c->cpus[cpu];

		ce->win_lo = ce->win_hi;
		ce->win_hi = t >= t1 ? ce->hi : ns_trace_cpu_lower_bound(c->trace, cpu, t);
		if (ce->win_hi > ce->hi)
			ce->win_hi = ce->hi;
		if (ce->win_hi < ce->win_lo)
			ce->win_hi = ce->win_lo;
	}
	return t;
}

/* Forget a window's events. */
static void window_free(struct collect *c)
{
	int k;

	for (k = 0; c->cpus && k < c->nr_cpus; k++) {
		free(c->cpus[k].ev);
		c->cpus[k].ev = NULL;
		c->cpus[k].nr = c->cpus[k].cap = 0;
	}
	for (k = 0; k < c->nr_chunks; k++)
		free(c->chunks[k].out.ev);
	free(c->chunks);
	c->chunks = NULL;
	c->nr_chunks = 0;
}

/*
 * Read and run: fills @m over [t0, t1) with the filters of @fs; the type
 * counts (NS_TYPE_SLOTS of them) into @type_counts when not NULL. The
 * events are read a window of time at a time (window_events()), each
 * window's scheduler events merged and run through the machine, which
 * carries on into the next.
 */
static int analyse(struct ns_trace *trace, const struct ns_filter_set *fs, struct machine *m,
		   uint64_t *type_counts, uint64_t piece_events, char *err, size_t err_len)
{
	int nr_cpus = ns_trace_nr_cpus(trace), cpu, ret;
	struct collect c = { .trace = trace, .nr_cpus = nr_cpus, .piece_events = piece_events };
	struct ns_visible *vis_sched = NULL, *vis_list = NULL;
	/* pieces asked for (tests): windows of a few, so that both cut often */
	uint64_t dummy[1], from = 0, per = piece_events ? piece_events * SCHED_WINDOW_PIECES :
							  window_events();

	m->trace = trace;
	c.cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*c.cpus));
	m->run_pid = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->run_pid));
	m->run_since = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->run_since));
	m->started = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->started));
	m->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*m->cpus));
	if (!c.cpus || !m->run_pid || !m->run_since || !m->started || !m->cpus) {
		ret = -ENOMEM;
		analyse_error(m, ret, err, err_len);
		goto out;
	}
	ret = visible_without_tasks(trace, fs, &vis_sched, err, err_len);
	if (!ret && type_counts && filters_list(fs, false))
		ret = ns_visible_build(trace, fs, &vis_list, err, err_len);
	if (ret)
		goto out;
	c.vis_sched = vis_sched;
	c.vis_list = vis_list;
	c.count_types = type_counts != NULL;
	c.stack_type[0] = ns_trace_event_type(trace, "ftrace", "kernel_stack");
	c.stack_type[1] = ns_trace_event_type(trace, "ftrace", "user_stack");
	c.type_counts = type_counts ? type_counts : dummy;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		c.cpus[cpu].kept = keeps_cpu(fs, trace, cpu);
		/* a CPU whose time goes back is not cut in time: one window (order.c alike) */
		if (c.cpus[cpu].kept && ns_trace_cpu_unsorted(trace, cpu))
			per = UINT64_MAX;
		c.cpus[cpu].lo = ns_trace_cpu_lower_bound(trace, cpu, m->t0);
		c.cpus[cpu].hi = ns_trace_cpu_lower_bound(trace, cpu, m->t1);
		c.cpus[cpu].carry = -1;
		m->run_pid[cpu] = -1;
		m->cpus[cpu].cpu = cpu;
	}
	ret = gaps_load(m, trace);
	while (!ret && from < m->t1) {
		from = next_window(&c, from, m->t1, per);
		atomic_store(&c.next_chunk, 0);
		ret = collect_all(&c);
		if (!ret)
			ret = run_machine(m, c.cpus, nr_cpus);
		window_free(&c);
	}
	for (cpu = 0; !ret && cpu < nr_cpus; cpu++) {
		struct ns_sched_cpu *sc = &m->cpus[cpu];

		sc->drops = ns_trace_cpu_nr_drops(trace, cpu, c.cpus[cpu].lo, c.cpus[cpu].hi,
						  &sc->lost);
		sc->events = c.cpus[cpu].kept ? c.cpus[cpu].hi - c.cpus[cpu].lo : 0;
		if (vis_list && c.cpus[cpu].kept) {
			uint64_t i;

			sc->events = 0;
			for (i = c.cpus[cpu].lo; i < c.cpus[cpu].hi; i++)
				sc->events += ns_visible_list_event(vis_list, cpu, i) != 0;
		}
	}
	if (!ret)
		ret = machine_finish(m, nr_cpus);
	if (ret)
		analyse_error(m, ret, err, err_len);
out:
	window_free(&c);
	free(c.cpus);
	ns_visible_free(vis_sched);
	ns_visible_free(vis_list);
	return ret;
}

/* ---- the statistics ------------------------------------------------------- */

static bool task_active(const struct ns_sched_task *t)
{
	int s;

	if (t->runs || t->wakeups || t->wakeup.n || t->waking.n)
		return true;
	for (s = 0; s < NS_NR_TS; s++)
		if (t->state_ns[s])
			return true;
	return false;
}

static int task_cmp(const void *a, const void *b)
{
	const struct ns_sched_task *x = a, *y = b;

	if (x->state_ns[NS_TS_RUNNING] != y->state_ns[NS_TS_RUNNING])
		return x->state_ns[NS_TS_RUNNING] > y->state_ns[NS_TS_RUNNING] ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int type_cmp(const void *a, const void *b)
{
	const struct ns_sched_type *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->type > y->type) - (x->type < y->type);
}

int ns_sched_stats_build(struct ns_trace *trace, const struct ns_filter_set *fs, uint64_t t0,
			 uint64_t t1, struct ns_sched_stats **out, char *err, size_t err_len)
{
	return ns_sched_stats_build_pieces(trace, fs, t0, t1, 0, out, err, err_len);
}

int ns_sched_stats_build_pieces(struct ns_trace *trace, const struct ns_filter_set *fs,
				uint64_t t0, uint64_t t1, uint64_t piece_events,
				struct ns_sched_stats **out, char *err, size_t err_len)
{
	struct machine m = { 0 };
	struct ns_sched_stats *st;
	uint64_t *counts = NULL, last = ns_trace_last_ns(trace);
	size_t i, n;
	int cpu, ret;

	*out = NULL;
	st = calloc(1, sizeof(*st));
	counts = calloc(NS_TYPE_SLOTS, sizeof(*counts));
	if (!st || !counts) {
		ret = -ENOMEM;
		snprintf(err, err_len, "%s", strerror(-ret));
		goto out;
	}
	if (t0 < ns_trace_first_ns(trace))
		t0 = ns_trace_first_ns(trace);
	if (t1 > last + 1)
		t1 = last + 1;
	if (t1 < t0)
		t1 = t0;
	st->t0 = m.t0 = t0;
	st->t1 = m.t1 = t1;
	/* the trace ends with its last event: no run lasts beyond */
	m.end = t1 < last ? t1 : last;
	ret = analyse(trace, fs, &m, counts, piece_events, err, err_len);
	if (ret)
		goto out;
	st->tasks = calloc(m.nr_tasks ? m.nr_tasks : 1, sizeof(*st->tasks));
	st->cpus = calloc(ns_trace_nr_cpus(trace) + 1, sizeof(*st->cpus));
	for (i = 0, n = 0; i < NS_TYPE_SLOTS; i++)
		n += counts[i] != 0;
	st->types = calloc(n ? n : 1, sizeof(*st->types));
	if (!st->tasks || !st->cpus || !st->types) {
		ret = -ENOMEM;
		snprintf(err, err_len, "%s", strerror(-ret));
		goto out;
	}
	for (i = 0; i < m.nr_tasks; i++) {
		struct ns_sched_task *t = &m.tasks[i].st;

		if (!task_active(t) || !keeps(fs, NS_FILTER_TASK, t->pid))
			continue;
		if (!t->wakeup.n)
			t->wakeup.min_ns = 0;
		if (!t->waking.n)
			t->waking.min_ns = 0;
		st->tasks[st->nr_tasks++] = *t;
	}
	qsort(st->tasks, st->nr_tasks, sizeof(*st->tasks), task_cmp);
	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++)
		if (keeps_cpu(fs, trace, cpu))
			st->cpus[st->nr_cpus++] = m.cpus[cpu];
	for (i = 0; i < NS_TYPE_SLOTS; i++)
		if (counts[i])
			st->types[st->nr_types++] = (struct ns_sched_type){ (int)i, counts[i] };
	qsort(st->types, st->nr_types, sizeof(*st->types), type_cmp);
	st->wakeup[0] = m.wakeup[0];
	st->wakeup[1] = m.wakeup[1];
	st->waking = m.waking;
	*out = st;
	st = NULL;
out:
	machine_free(&m);
	free(counts);
	ns_sched_stats_free(st);
	return ret;
}

void ns_sched_stats_free(struct ns_sched_stats *st)
{
	if (!st)
		return;
	free(st->tasks);
	free(st->cpus);
	free(st->types);
	free(st);
}

const struct ns_sched_task *ns_sched_stats_task(const struct ns_sched_stats *st, int pid)
{
	size_t i;

	for (i = 0; i < st->nr_tasks; i++)
		if (st->tasks[i].pid == pid)
			return &st->tasks[i];
	return NULL;
}

/* ---- timelines ------------------------------------------------------------ */

struct ns_sched {
	struct machine m;
};

struct ns_sched *ns_sched_build(struct ns_trace *trace, const struct ns_filter_set *fs,
				char *err, size_t err_len)
{
	return ns_sched_build_pieces(trace, fs, 0, 0, err, err_len);
}

struct ns_sched *ns_sched_build_pieces(struct ns_trace *trace, const struct ns_filter_set *fs,
				       uint64_t piece_events, uint64_t cap, char *err,
				       size_t err_len)
{
	struct ns_sched *s = calloc(1, sizeof(*s));
	int ret;

	if (!s) {
		ns_set_nomem(err, err_len);
		return NULL;
	}
	s->m.timeline = true;
	s->m.timeline_cap = cap ? cap : ns_sched_memory_budget();
	s->m.t0 = ns_trace_first_ns(trace);
	s->m.t1 = ns_trace_last_ns(trace) + 1;
	s->m.end = ns_trace_last_ns(trace);
	ret = analyse(trace, fs, &s->m, NULL, piece_events, err, err_len);
	if (ret) {
		ns_sched_free(s);
		return NULL;
	}
	timeline_fit(&s->m);
	return s;
}

uint64_t ns_sched_bytes(const struct ns_sched *s)
{
	return s->m.timeline_bytes;
}

uint64_t ns_sched_peak_bytes(const struct ns_sched *s)
{
	return s->m.timeline_peak;
}

void ns_sched_free(struct ns_sched *s)
{
	if (!s)
		return;
	machine_free(&s->m);
	free(s);
}

static const struct task *task_find(const struct machine *m, int pid)
{
	size_t h;

	if (!m->nr_slots)
		return NULL;
	for (h = hash_pid(pid, m->nr_slots); m->slots[h]; h = (h + 1) & (m->nr_slots - 1))
		if (m->tasks[m->slots[h] - 1].st.pid == pid)
			return &m->tasks[m->slots[h] - 1];
	return NULL;
}

static struct ns_sched_ref seg_ref(const struct seg *g)
{
	return ref_of(g->ev, g->start_ns);
}

static int seg_state(const struct seg *g)
{
	return (int)(g->ev >> SEG_STATE_SHIFT) & 0xf;
}

/* The CPU a seg's task runs on, -1 when it does not run. */
static int seg_cpu(const struct seg *g)
{
	return seg_state(g) == NS_TS_RUNNING ? seg_ref(g).cpu : -1;
}

static bool seg_before(size_t i, const void *arg)
{
	const struct { const struct seg *segs; uint64_t ts; } *k = arg;

	return k->segs[i].start_ns <= k->ts;
}

/* Is a state known only up to events lost (model_sched.h's Missing events)? */
static bool cut_by_drops(int state)
{
	return state != NS_TS_UNKNOWN && state != NS_TS_DEAD && state != NS_TS_DROPPED;
}

/* @ctx's state at @ts, DROPPED where the events lost make it not known. */
static void dropped_at(const struct machine *m, struct ns_sched_ctx *ctx, uint64_t ts)
{
	uint64_t cut;
	size_t i;

	if (ctx->state == NS_TS_RUNNING) {
		i = cgap_first_after(m, ctx->cpu, ts);
		if (ctx->cpu >= 0 && ctx->cpu < m->nr_gap_cpus && i < m->cgap_first[ctx->cpu + 1] &&
		    m->cgaps[i].lo <= ts) {
			ctx->state = NS_TS_DROPPED;
			ctx->since_ns = m->cgaps[i].lo > ctx->since_ns ? m->cgaps[i].lo : ctx->since_ns;
			if (m->cgaps[i].hi < ctx->until_ns)
				ctx->until_ns = m->cgaps[i].hi;
		}
		return;
	}
	if (!cut_by_drops(ctx->state))
		return;
	cut = gap_after(m, ctx->since_ns, ctx->until_ns);
	if (cut <= ts) {
		ctx->state = NS_TS_DROPPED;
		ctx->since_ns = cut;
	}
}

int ns_sched_state_at(const struct ns_sched *s, int pid, uint64_t ts_ns, struct ns_sched_ctx *ctx)
{
	const struct task *t = task_find(&s->m, pid);
	struct { const struct seg *segs; uint64_t ts; } key;
	const struct seg *g;
	size_t i, run;

	memset(ctx, 0, sizeof(*ctx));
	ctx->switch_in.cpu = ctx->switch_out.cpu = ctx->wakeup.cpu = ctx->waking.cpu = -1;
	ctx->waker = -1;
	ctx->latency_ns = -1;
	ctx->cpu = -1;
	if (!t || pid <= 0 || !t->nr_segs)
		return -ENOENT;
	key.segs = t->segs;
	key.ts = ts_ns;
	/* the last state change at or before ts_ns */
	i = ns_lower_bound(t->nr_segs, seg_before, &key);
	if (!i) {
		ctx->state = NS_TS_UNKNOWN;
		ctx->until_ns = t->segs[0].start_ns;
		return 0;
	}
	g = &t->segs[--i];
	ctx->state = seg_state(g);
	ctx->since_ns = g->start_ns;
	ctx->until_ns = i + 1 < t->nr_segs ? t->segs[i + 1].start_ns : UINT64_MAX;
	ctx->cpu = seg_cpu(g);
	dropped_at(&s->m, ctx, ts_ns);
	/* the run it belongs to: this one, or the next */
	for (run = i; run < t->nr_segs && seg_state(&t->segs[run]) != NS_TS_RUNNING; run++)
		;
	if (run < t->nr_segs) {
		const struct seg *r = &t->segs[run];

		ctx->switch_in = seg_ref(r);
		ctx->unseen_switch_in = !!(r->ev & SEG_IMPLICIT);
		if (run + 1 < t->nr_segs && (t->segs[run + 1].ev & SEG_SWITCH_OUT))
			ctx->switch_out = seg_ref(&t->segs[run + 1]);
		if (r->lat >= 0) {
			const struct lat *l = &t->lats[r->lat];

			ctx->wakeup = unpack_ref(&l->wakeup);
			ctx->waking = unpack_ref(&l->waking);
			ctx->waker = l->waker;
			ctx->latency_ns = (int64_t)(r->start_ns - l->wakeup.ts_ns);
		}
	}
	return 0;
}

static int push_span(struct ns_sched_span **v, size_t *n, size_t *cap, uint64_t a, uint64_t b,
		     int state, int cpu)
{
	if (b <= a)
		return 0;
	if (NS_GROW(*v, *cap, *n + 1))
		return -ENOMEM;
	(*v)[(*n)++] = (struct ns_sched_span){ a, b, state, cpu };
	return 0;
}

/*
 * The spans, with what lost events make not known as NS_TS_DROPPED: a run
 * where its own CPU lost events (from its event before to its event after
 * the loss), any other state from the first events lost on any CPU to its
 * end (model_sched.h). Replaces *@sp; returns how many, or -ENOMEM.
 */
static long split_by_drops(const struct machine *m, struct ns_sched_span **sp, size_t n)
{
	struct ns_sched_span *out = NULL;
	size_t k, nr = 0, cap = 0;
	int ret = 0;

	for (k = 0; k < n && !ret; k++) {
		const struct ns_sched_span *p = &(*sp)[k];
		uint64_t a = p->start_ns, cut;
		size_t i;

		if (p->state == NS_TS_RUNNING && p->cpu >= 0 && p->cpu < m->nr_gap_cpus) {
			for (i = cgap_first_after(m, p->cpu, a);
			     !ret && i < m->cgap_first[p->cpu + 1] && m->cgaps[i].lo < p->end_ns; i++) {
				uint64_t lo = m->cgaps[i].lo > a ? m->cgaps[i].lo : a;
				uint64_t hi = m->cgaps[i].hi < p->end_ns ? m->cgaps[i].hi : p->end_ns;

				ret = push_span(&out, &nr, &cap, a, lo, p->state, p->cpu);
				if (!ret)
					ret = push_span(&out, &nr, &cap, lo, hi, NS_TS_DROPPED, -1);
				a = hi > a ? hi : a;
			}
			if (!ret)
				ret = push_span(&out, &nr, &cap, a, p->end_ns, p->state, p->cpu);
			continue;
		}
		cut = cut_by_drops(p->state) ? gap_after(m, a, p->end_ns) : p->end_ns;
		ret = push_span(&out, &nr, &cap, a, cut, p->state, p->cpu);
		if (!ret)
			ret = push_span(&out, &nr, &cap, cut, p->end_ns, NS_TS_DROPPED, -1);
	}
	if (ret) {
		free(out);
		return ret;
	}
	free(*sp);
	*sp = out;
	return (long)nr;
}

/*
 * The segments as spans, each to the next one's start (the last to the
 * trace's end). The sched_waking before a wakeup that a run pairs with
 * (its lat) cuts the span before the wakeup's, unless that one is a run.
 */
long ns_sched_task_spans(const struct ns_sched *s, int pid, struct ns_sched_span **out)
{
	const struct task *t = task_find(&s->m, pid);
	struct ns_sched_span *sp;
	size_t i, n = 0;

	*out = NULL;
	if (!t || pid <= 0 || !t->nr_segs)
		return 0;
	/* at most one more per run, for its waking stretch */
	sp = malloc(2 * t->nr_segs * sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	for (i = 0; i < t->nr_segs; i++) {
		const struct seg *g = &t->segs[i];
		uint64_t end = i + 1 < t->nr_segs ? t->segs[i + 1].start_ns : s->m.end;
		const struct lat *l;

		if (end < g->start_ns)
			end = g->start_ns;
		if (seg_state(g) == NS_TS_WAKING && i + 1 < t->nr_segs &&
		    seg_state(&t->segs[i + 1]) == NS_TS_RUNNING && t->segs[i + 1].lat >= 0 && n &&
		    sp[n - 1].state != NS_TS_RUNNING) {
			l = &t->lats[t->segs[i + 1].lat];
			if (unpack_ref(&l->waking).cpu >= 0 && l->wakeup.ts_ns == g->start_ns &&
			    l->waking.ts_ns < g->start_ns && l->waking.ts_ns >= sp[n - 1].start_ns) {
				sp[n - 1].end_ns = l->waking.ts_ns;
				if (sp[n - 1].end_ns == sp[n - 1].start_ns)
					n--;
				sp[n++] = (struct ns_sched_span){ l->waking.ts_ns, g->start_ns,
								  NS_TS_PENDING, -1 };
			}
		}
		sp[n++] = (struct ns_sched_span){ g->start_ns, end, seg_state(g), seg_cpu(g) };
	}
	if (s->m.nr_gaps) {
		long r = split_by_drops(&s->m, &sp, n);

		if (r < 0) {
			free(sp);
			return r;
		}
		n = (size_t)r;
	}
	*out = sp;
	return (long)n;
}

int ns_sched_event_ctx(struct ns_trace *trace, const struct ns_sched *s, int cpu, uint64_t idx,
		       int *pid, struct ns_sched_ctx *ctx)
{
	struct ns_sched_event ev;
	struct ns_event e;
	int ret;

	if (ns_trace_event(trace, cpu, idx, &e))
		return -ENOENT;
	*pid = e.pid;
	ret = ns_trace_sched_read(trace, cpu, idx, &ev);
	if (ret && ret != -ENOENT)
		return ret;
	if (!ret && ev.kind == NS_SCHED_SWITCH)
		*pid = ev.next_pid;
	else if (!ret && ev.kind != NS_SCHED_MIGRATE)
		*pid = ev.pid;
	return ns_sched_state_at(s, *pid, e.ts_ns, ctx);
}
