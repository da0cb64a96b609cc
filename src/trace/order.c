// SPDX-License-Identifier: GPL-2.0-only
/*
 * The merged order of events across CPUs, the order `trace-cmd report`
 * prints: repeatedly take the CPU whose next event has the smallest
 * timestamp, the lower CPU on a tie (several files: the lower tie rank,
 * ns_trace_tie_rank()). Checkpoints every NS_ORDER_STRIDE rows
 * (see trace-int.h) turn "which event is row r" and "which row is this
 * event" into a binary search plus at most NS_ORDER_STRIDE merge steps. The
 * merge keeps a binary heap of CPUs keyed by (timestamp, rank), which picks
 * exactly what report's linear scan picks, and takes a run of the top
 * CPU's events at a time, for as long as each is before the second CPU's
 * head, read straight from the chunk's slots (merger_take()): huge6.dat's
 * 26 M events come in 7.5 M runs, and the merge while indexing went from
 * about 650 to 270 ms of CPU.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-int.h"

/* The chunk a CPU's runs read last (merger_take()), while its word holds. */
struct run_chunk {
	uint64_t ci, word;		/* word 0: none */
	const struct ns_evbuf *buf;
};

struct merger {
	const struct ns_trace *trace;
	uint64_t *pos;		/* events consumed, per CPU */
	uint64_t *head;		/* the timestamp of each CPU's next event */
	int *heap;		/* CPUs with events left, min (ts, cpu) on top */
	int n;
	const uint64_t *end;	/* each CPU's events to merge (NULL: all indexed) */
	struct run_chunk *rc;	/* per CPU */
};

/* How far CPU @cpu's events go for @m. */
static uint64_t merger_end(const struct merger *m, int cpu)
{
	return m->end ? m->end[cpu] : m->trace->cpus[cpu].nr_events;
}

static uint64_t head_ts(const struct merger *m, int cpu)
{
	return m->head[cpu];
}

static void load_head(struct merger *m, int cpu)
{
	const struct ns_cpu *c = &m->trace->cpus[cpu];

	if (m->pos[cpu] < merger_end(m, cpu))
		m->head[cpu] = ns_ev_ts(&c->ev, m->pos[cpu]);
}

int ns_trace_tie_rank(const struct ns_trace *trace, int cpu)
{
	return trace->tie_rank ? trace->tie_rank[cpu] : cpu;
}

static bool before(const struct merger *m, int a, int b)
{
	uint64_t ta = head_ts(m, a), tb = head_ts(m, b);

	return ta < tb || (ta == tb && ns_trace_tie_rank(m->trace, a) <
				       ns_trace_tie_rank(m->trace, b));
}

static void sift_down(struct merger *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i, tmp;

		if (l < m->n && before(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->n && before(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			return;
		tmp = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = tmp;
		i = s;
	}
}

/*
 * Start merging with @pos events of each CPU consumed (all zero if NULL),
 * up to @end events of each (NULL: all those indexed).
 */
static int merger_init_to(struct merger *m, const struct ns_trace *trace, const uint64_t *pos,
			  const uint64_t *end)
{
	int cpu, i;

	m->trace = trace;
	m->n = 0;
	m->end = end;
	m->pos = calloc(2 * (trace->nr_cpus + 1), sizeof(*m->pos));
	m->heap = calloc(trace->nr_cpus + 1, sizeof(*m->heap));
	m->rc = calloc(trace->nr_cpus + 1, sizeof(*m->rc));
	if (!m->pos || !m->heap || !m->rc) {
		free(m->pos);
		free(m->heap);
		free(m->rc);
		return -ENOMEM;
	}
	m->head = m->pos + trace->nr_cpus + 1;
	if (pos)
		memcpy(m->pos, pos, trace->nr_cpus * sizeof(*pos));
	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		if (m->pos[cpu] < merger_end(m, cpu))
			m->heap[m->n++] = cpu;
		load_head(m, cpu);
	}
	for (i = m->n / 2 - 1; i >= 0; i--)
		sift_down(m, i);
	return 0;
}

static int merger_init(struct merger *m, const struct ns_trace *trace, const uint64_t *pos)
{
	return merger_init_to(m, trace, pos, NULL);
}

static void merger_free(struct merger *m)
{
	free(m->pos);
	free(m->heap);
	free(m->rc);
}

/* Take the next event of the merged order; false at the end. */
static bool merger_next(struct merger *m, struct ns_pos *out)
{
	int cpu;

	if (!m->n)
		return false;
	cpu = m->heap[0];
	out->cpu = cpu;
	out->idx = m->pos[cpu]++;
	if (m->pos[cpu] >= merger_end(m, cpu))
		m->heap[0] = m->heap[--m->n];
	else
		load_head(m, cpu);
	sift_down(m, 0);
	return true;
}

/*
 * Chunk @ci of @e for a run, from @rc when it is the one read last (its
 * word is checked after the reading, as ns_ev_get() checks it), else as
 * ns_ev_get() gets it. NULL, with *@err, when it cannot be read.
 */
static const struct ns_ev_chunk *run_chunk_get(const struct ns_events *e, struct run_chunk *rc,
					      uint64_t ci, int *err)
{
	const struct ns_ev_chunk *ch;
	uint64_t word;

	if (rc->word && rc->ci == ci) {
		*err = rc->buf->error;
		if (!atomic_load_explicit(&rc->buf->referenced, memory_order_relaxed))
			atomic_store_explicit((atomic_bool *)&rc->buf->referenced, true,
					      memory_order_relaxed);
		return rc->buf->chunk;
	}
	ch = ns_ev_chunk_get(e, ci, &word, err);
	rc->word = 0;
	if (ch) {
		rc->ci = ci;
		rc->word = word;
		rc->buf = ns_evpool_buf(e->pool, (size_t)(word & NS_EV_DIR_BUF_MASK) - 1);
	}
	return ch;
}

/*
 * How many of a CPU's events from @idx on, at most @lim, the merge takes
 * before any other CPU's: those before @limit_ts, and at it too if
 * @take_equal (the CPU's rank is below the other's). The first one is the
 * heap's top, taken whatever it says. Read slot by slot from the chunk, one
 * check of the chunk's word per batch (a chunk evicted meanwhile is read
 * again); slots kept whole, and chunks that cannot be read, one event at a
 * time as ns_ev_ts() reads them (an unreadable one as time 0, as the heap
 * step takes it). *@next gets the timestamp of the event that stopped the
 * run, *@have_next whether one did.
 */
NS_SEQLOCK_READ
static uint64_t run_length(const struct ns_events *e, struct run_chunk *rc, uint64_t idx,
			   uint64_t lim, uint64_t limit_ts, bool take_equal, uint64_t *next,
			   bool *have_next)
{
	uint64_t got = 0, ts = 0;

	*have_next = false;
	while (got < lim) {
		uint64_t at = idx + got, ci = at >> NS_EV_CHUNK_SHIFT;
		uint32_t i = (uint32_t)(at & (NS_EV_CHUNK - 1)), j, stop = NS_EV_CHUNK;
		const struct ns_ev_chunk *ch;
		bool ended = false;
		int err;

		if (lim - got < (uint64_t)(stop - i))
			stop = i + (uint32_t)(lim - got);
		ch = run_chunk_get(e, rc, ci, &err);
		j = i;
		if (ch && !err) {
			for (; j < stop; j++) {
				struct ns_ev_slot sl = ch->slot[j];

				if (sl.ts_lo == NS_EV_WIDE)
					break;
				ts = ch->base[j >> NS_EV_GROUP_SHIFT] + sl.ts_lo;
				if (got + (j - i) && (ts > limit_ts || (ts == limit_ts && !take_equal))) {
					ended = true;
					break;
				}
			}
			if (!ns_ev_chunk_held(e, ci, rc->word)) {
				rc->word = 0;
				continue;	/* evicted while read: again */
			}
		}
		got += j - i;
		if (ended) {
			*next = ts;
			*have_next = true;
			return got;
		}
		if (j < stop) {
			/* a slot kept whole, or a chunk that cannot be read */
			ts = ns_ev_ts(e, idx + got);
			if (got && (ts > limit_ts || (ts == limit_ts && !take_equal))) {
				*next = ts;
				*have_next = true;
				return got;
			}
			got++;
		}
	}
	return got;
}

/*
 * One run of the merged order: @count events of CPU @cpu from @idx on.
 * False to stop taking.
 */
typedef bool (*merger_run_fn)(void *arg, int cpu, uint64_t idx, uint64_t count);

/*
 * Take up to @n events of the merged order, a run of one CPU's at a time
 * (the top CPU's for as long as they come before the second's head), each
 * run to @fn if not NULL: what @n merger_next() steps take, without a heap
 * step per event. Returns the events taken: fewer than @n at the end, or
 * where @fn said stop.
 */
static uint64_t merger_take(struct merger *m, uint64_t n, merger_run_fn fn, void *arg)
{
	uint64_t taken = 0;

	while (taken < n && m->n) {
		int cpu = m->heap[0], other;
		uint64_t pos = m->pos[cpu], end = merger_end(m, cpu), got, next = 0;
		uint64_t lim = end - pos < n - taken ? end - pos : n - taken;
		bool have_next = false, go_on = true;

		if (m->n == 1) {
			got = lim;
		} else {
			other = m->heap[1];
			if (m->n > 2 && before(m, m->heap[2], other))
				other = m->heap[2];
			got = run_length(&m->trace->cpus[cpu].ev, &m->rc[cpu], pos, lim,
					 head_ts(m, other), ns_trace_tie_rank(m->trace, cpu) <
					 ns_trace_tie_rank(m->trace, other), &next, &have_next);
		}
		if (fn)
			go_on = fn(arg, cpu, pos, got);
		taken += got;
		m->pos[cpu] = pos + got;
		if (m->pos[cpu] >= end) {
			m->heap[0] = m->heap[--m->n];
			sift_down(m, 0);
		} else if (have_next && m->n == 2) {
			/* its next is after the other's head: the other is the top */
			m->head[cpu] = next;
			m->heap[0] = m->heap[1];
			m->heap[1] = cpu;
		} else {
			if (have_next)
				m->head[cpu] = next;
			else
				load_head(m, cpu);
			sift_down(m, 0);
		}
		if (!go_on)
			break;
	}
	return taken;
}

/* Timestamp of the event the merger would take next (UINT64_MAX at the end). */
static uint64_t merger_peek_ts(const struct merger *m)
{
	return m->n ? head_ts(m, m->heap[0]) : UINT64_MAX;
}

/*
 * One stretch of the merged order, rows [row, end_row), which starts with
 * pos[] events of each CPU consumed: its checkpoints and its probes' rows.
 */
struct segment {
	struct ns_trace *trace;
	uint64_t row, end_row;
	uint64_t *pos;			/* nr_cpus counts */
	struct ns_order_probe *probes;
	size_t nr_probes;
	int ret;
};

/* ns_order_build()'s probes of a stretch, per CPU [next[cpu], end[cpu]), given rows from @row on. */
struct probe_rows {
	struct ns_order_probe *probes;
	size_t *next, *end;
	uint64_t row;
};

/*
 * A run of the merge, @count events of a CPU from @idx on at rows from
 * @row: the rows of that CPU's probes in it, p[*next] on (sorted by idx,
 * before @end), and *next past them.
 */
static void probes_in_run(struct ns_order_probe *p, size_t *next, size_t end, uint64_t idx,
			  uint64_t count, uint64_t row)
{
	for (; *next < end && p[*next].idx < idx + count; ++*next)
		if (p[*next].idx >= idx)
			p[*next].row = row + (p[*next].idx - idx);
}

static bool segment_run(void *arg, int cpu, uint64_t idx, uint64_t count)
{
	struct probe_rows *pr = arg;

	probes_in_run(pr->probes, &pr->next[cpu], pr->end[cpu], idx, count, pr->row);
	pr->row += count;
	return true;
}

static void *merge_segment(void *arg)
{
	struct segment *sg = arg;
	struct ns_trace *trace = sg->trace;
	uint64_t ncpu = trace->nr_cpus;
	size_t *next, *end, i;
	struct probe_rows pr;
	struct merger m;

	next = calloc(ncpu + 1, sizeof(*next));
	end = calloc(ncpu + 1, sizeof(*end));
	sg->ret = next && end ? merger_init(&m, trace, sg->pos) : -ENOMEM;
	if (sg->ret) {
		free(next);
		free(end);
		return NULL;
	}
	/* each CPU's probes in this stretch: [next[cpu], end[cpu]) of the sorted array */
	for (i = 0; i < sg->nr_probes; i++) {
		int cpu = sg->probes[i].cpu;

		if (sg->probes[i].idx < sg->pos[cpu])
			continue;
		if (!end[cpu])
			next[cpu] = i;
		end[cpu] = i + 1;
	}
	pr = (struct probe_rows){ .probes = sg->probes, .next = next, .end = end, .row = sg->row };
	while (pr.row < sg->end_row) {
		uint64_t want = NS_ORDER_STRIDE - pr.row % NS_ORDER_STRIDE;

		if (pr.row % NS_ORDER_STRIDE == 0)
			memcpy(&trace->order[pr.row / NS_ORDER_STRIDE * ncpu], m.pos,
			       ncpu * sizeof(*m.pos));
		if (want > sg->end_row - pr.row)
			want = sg->end_row - pr.row;
		if (!merger_take(&m, want, segment_run, &pr))
			break;
	}
	merger_free(&m);
	free(next);
	free(end);
	return NULL;
}

#define NS_ORDER_MAX_THREADS	8
#define NS_ORDER_MIN_SEGMENT	(1u << 20)	/* rows below which one thread does */

/*
 * Where the merged order reaches time @ts: each CPU's events before it.
 * Right only when every CPU's timestamps go forward: then the merge takes
 * every event before @ts ahead of every event at or after it.
 */
static uint64_t split_at(const struct ns_trace *trace, uint64_t ts, uint64_t *pos)
{
	uint64_t rows = 0;
	int cpu;

	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		pos[cpu] = ns_trace_cpu_lower_bound(trace, cpu, ts);
		rows += pos[cpu];
	}
	return rows;
}

int ns_order_build(struct ns_trace *trace, struct ns_order_probe *probes, size_t nr_probes)
{
	struct segment sg[NS_ORDER_MAX_THREADS];
	pthread_t threads[NS_ORDER_MAX_THREADS];
	bool started[NS_ORDER_MAX_THREADS] = { 0 };
	uint64_t ncpu = trace->nr_cpus, *pos;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int nr = online > 1 ? (int)online : 1, i, cpu, ret = 0;
	size_t p;

	trace->nr_order = trace->nr_events / NS_ORDER_STRIDE + 1;
	trace->order = calloc(trace->nr_order * (ncpu ? ncpu : 1), sizeof(*trace->order));
	if (nr > NS_ORDER_MAX_THREADS)
		nr = NS_ORDER_MAX_THREADS;
	if ((uint64_t)nr > trace->nr_events / NS_ORDER_MIN_SEGMENT)
		nr = (int)(trace->nr_events / NS_ORDER_MIN_SEGMENT) + 1;
	for (cpu = 0; cpu < trace->nr_cpus; cpu++)
		if (trace->cpus[cpu].unsorted)
			nr = 1;
	pos = calloc((size_t)(nr + 1) * (ncpu + 1), sizeof(*pos));
	if (!trace->order || !pos) {
		free(pos);
		return -ENOMEM;
	}
	for (p = 0; p < nr_probes; p++)
		probes[p].row = trace->nr_events;
	/*
	 * Split the rows into nr stretches of about equal size at timestamps
	 * (a binary search in time for each), and merge them in parallel.
	 */
	for (i = 0; i < nr; i++) {
		sg[i] = (struct segment){ .trace = trace, .pos = pos + (size_t)i * (ncpu + 1),
					  .probes = probes, .nr_probes = nr_probes };
		if (i) {
			uint64_t want = trace->nr_events / nr * i, lo = trace->first_ns,
				 hi = trace->last_ns;

			while (lo < hi) {
				uint64_t mid = lo + (hi - lo) / 2;

				if (split_at(trace, mid, sg[i].pos) < want)
					lo = mid + 1;
				else
					hi = mid;
			}
			sg[i].row = split_at(trace, lo, sg[i].pos);
			if (sg[i].row < sg[i - 1].row) {
				sg[i].row = sg[i - 1].row;
				memcpy(sg[i].pos, sg[i - 1].pos, ncpu * sizeof(*pos));
			}
			sg[i - 1].end_row = sg[i].row;
		}
	}
	sg[nr - 1].end_row = trace->nr_events;
	for (i = 1; i < nr; i++)
		started[i] = !pthread_create(&threads[i], NULL, merge_segment, &sg[i]);
	merge_segment(&sg[0]);
	for (i = 1; i < nr; i++) {
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			merge_segment(&sg[i]);
	}
	for (i = 0; i < nr; i++)
		if (sg[i].ret && !ret)
			ret = sg[i].ret;
	free(pos);
	return ret;
}

/*
 * The order built while indexing goes on (index.c's rounds): the indexing
 * threads take every CPU up to a time, then this merges what they indexed
 * while they go on to the next time. What each CPU indexed is all before
 * the time, and its next event is at or after it, so the merged order of
 * what is indexed is the order's next stretch, as ns_order_build() would
 * merge it (index.c says why even where a CPU's time goes back). The
 * stretch's events are the
 * last indexed, still in the pool: the pass reads no chunk again, where
 * ns_order_build() after the index would read every chunk the budget
 * dropped. The rows of the probes (index.c's first namings) are kept per
 * CPU as they are merged, and looked up at the end.
 */
struct named {
	struct ns_order_probe *p;	/* sorted by idx */
	size_t n, cap, next;		/* next: the first not merged yet */
};

struct ns_order_stream {
	struct ns_trace *trace;
	uint64_t *pos;			/* events merged, per CPU */
	uint64_t row;			/* rows merged */
	uint64_t *order;		/* checkpoints so far */
	size_t cap_order;		/* checkpoints it has room for */
	struct named *named;		/* per CPU */
};

struct ns_order_stream *ns_order_stream_new(struct ns_trace *trace)
{
	struct ns_order_stream *os = calloc(1, sizeof(*os));
	int n = trace->nr_cpus > 0 ? trace->nr_cpus : 1;

	if (!os)
		return NULL;
	os->trace = trace;
	os->pos = calloc((size_t)n, sizeof(*os->pos));
	os->named = calloc((size_t)n, sizeof(*os->named));
	if (!os->pos || !os->named) {
		ns_order_stream_free(os);
		return NULL;
	}
	return os;
}

void ns_order_stream_free(struct ns_order_stream *os)
{
	int cpu;

	if (!os)
		return;
	for (cpu = 0; os->named && cpu < os->trace->nr_cpus; cpu++) {
		free(os->named[cpu].p);
	}
	free(os->named);
	free(os->pos);
	free(os->order);
	free(os);
}

int ns_order_stream_probe(struct ns_order_stream *os, int cpu, uint64_t idx)
{
	struct named *nm = &os->named[cpu];

	if (NS_GROW(nm->p, nm->cap, nm->n + 1))
		return -ENOMEM;
	nm->p[nm->n++] = (struct ns_order_probe){ .cpu = cpu, .idx = idx, .row = UINT64_MAX };
	return 0;
}

/* A run of the stream: its probes' rows, from os->row on. */
static bool stream_run(void *arg, int cpu, uint64_t idx, uint64_t count)
{
	struct ns_order_stream *os = arg;
	struct named *nm = &os->named[cpu];

	probes_in_run(nm->p, &nm->next, nm->n, idx, count, os->row);
	os->row += count;
	return true;
}

int ns_order_stream_run(struct ns_order_stream *os, const uint64_t *end)
{
	uint64_t ncpu = (uint64_t)os->trace->nr_cpus;
	struct merger m;
	int ret = merger_init_to(&m, os->trace, os->pos, end);

	if (ret)
		return ret;
	while (m.n) {
		if (os->row % NS_ORDER_STRIDE == 0) {
			size_t k = os->row / NS_ORDER_STRIDE;

			if (NS_GROW(os->order, os->cap_order, (k + 1) * ncpu)) {
				ret = -ENOMEM;
				break;
			}
			memcpy(&os->order[k * ncpu], m.pos, ncpu * sizeof(*m.pos));
		}
		merger_take(&m, NS_ORDER_STRIDE - os->row % NS_ORDER_STRIDE, stream_run, os);
	}
	memcpy(os->pos, m.pos, ncpu * sizeof(*m.pos));
	merger_free(&m);
	return ret;
}

struct named_key {
	const struct ns_order_probe *p;
	uint64_t want;
};

static bool named_before(size_t i, const void *arg)
{
	const struct named_key *k = arg;

	return k->p[i].idx < k->want;
}

int ns_order_stream_finish(struct ns_order_stream *os, struct ns_order_probe *probes,
			   size_t nr_probes)
{
	struct ns_trace *trace = os->trace;
	uint64_t ncpu = trace->nr_cpus ? (uint64_t)trace->nr_cpus : 1, k;
	size_t p;

	if (os->row != trace->nr_events)
		return -EINVAL;
	trace->nr_order = trace->nr_events / NS_ORDER_STRIDE + 1;
	trace->order = calloc(trace->nr_order * ncpu, sizeof(*trace->order));
	if (!trace->order)
		return -ENOMEM;
	/* the last checkpoint stays 0 when the rows are a whole number of strides, as built */
	k = (trace->nr_events + NS_ORDER_STRIDE - 1) / NS_ORDER_STRIDE;
	if (k && trace->nr_cpus)
		memcpy(trace->order, os->order, k * ncpu * sizeof(*trace->order));
	for (p = 0; p < nr_probes; p++) {
		const struct named *nm = &os->named[probes[p].cpu];
		struct named_key key = { nm->p, probes[p].idx };
		size_t i = ns_lower_bound(nm->n, named_before, &key);

		probes[p].row = i < nm->n && nm->p[i].idx == probes[p].idx ? nm->p[i].row :
				trace->nr_events;
		if (probes[p].row == UINT64_MAX)
			probes[p].row = trace->nr_events;
	}
	return 0;
}

static const uint64_t *checkpoint(const struct ns_trace *trace, uint64_t k)
{
	return &trace->order[k * trace->nr_cpus];
}

uint64_t ns_trace_order_stride(void)
{
	return NS_ORDER_STRIDE;
}

bool ns_trace_rows_before(const struct ns_trace *trace, uint64_t row, uint64_t *consumed)
{
	int cpu;

	if (row == trace->nr_events) {
		for (cpu = 0; cpu < trace->nr_cpus; cpu++)
			consumed[cpu] = ns_trace_cpu_nr_events(trace, cpu);
		return true;
	}
	if (row > trace->nr_events || row % NS_ORDER_STRIDE ||
	    row / NS_ORDER_STRIDE >= trace->nr_order)
		return false;
	memcpy(consumed, checkpoint(trace, row / NS_ORDER_STRIDE),
	       (size_t)trace->nr_cpus * sizeof(*consumed));
	return true;
}

struct rows_out {
	struct ns_pos *out;
	size_t got;
};

static bool rows_run(void *arg, int cpu, uint64_t idx, uint64_t count)
{
	struct rows_out *ro = arg;
	uint64_t i;

	for (i = 0; i < count; i++) {
		ro->out[ro->got].cpu = cpu;
		ro->out[ro->got++].idx = idx + i;
	}
	return true;
}

size_t ns_trace_rows(const struct ns_trace *trace, uint64_t first_row, size_t n,
		     struct ns_pos *out)
{
	uint64_t k;
	struct merger m;
	struct rows_out ro = { out, 0 };

	if (first_row >= trace->nr_events || !n)
		return 0;
	k = first_row / NS_ORDER_STRIDE;
	if (merger_init(&m, trace, checkpoint(trace, k)))
		return 0;
	merger_take(&m, first_row - k * NS_ORDER_STRIDE, NULL, NULL);
	merger_take(&m, n, rows_run, &ro);
	merger_free(&m);
	return ro.got;
}

struct taken_key {
	const struct ns_trace *trace;
	int cpu;
	uint64_t idx;
};

static bool not_taken(size_t i, const void *arg)
{
	const struct taken_key *k = arg;

	return checkpoint(k->trace, i)[k->cpu] <= k->idx;
}

/* ns_trace_row_of()'s search: the row of (cpu, idx), counted from @row. */
struct find {
	int cpu;
	uint64_t idx, row;
	bool found;
};

static bool find_run(void *arg, int cpu, uint64_t idx, uint64_t count)
{
	struct find *f = arg;

	if (cpu == f->cpu && f->idx >= idx && f->idx < idx + count) {
		f->row += f->idx - idx;
		f->found = true;
		return false;
	}
	f->row += count;
	return true;
}

uint64_t ns_trace_row_of(const struct ns_trace *trace, int cpu, uint64_t idx)
{
	struct find f = { .cpu = cpu, .idx = idx };
	uint64_t lo;
	struct merger m;

	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events)
		return trace->nr_events;
	/* the last checkpoint at which (cpu, idx) was not yet taken */
	lo = ns_lower_bound(trace->nr_order, not_taken,
			    &(struct taken_key){ trace, cpu, idx });
	lo = lo ? lo - 1 : 0;
	if (merger_init(&m, trace, checkpoint(trace, lo)))
		return trace->nr_events;
	f.row = lo * NS_ORDER_STRIDE;
	merger_take(&m, UINT64_MAX, find_run, &f);
	merger_free(&m);
	return f.found ? f.row : trace->nr_events;
}

uint64_t ns_trace_row_at_ns(const struct ns_trace *trace, uint64_t ts_ns)
{
	uint64_t lo = 0, hi = trace->nr_order, row;
	struct ns_pos pos;
	struct merger m;

	if (!trace->nr_events)
		return 0;
	/* the last checkpoint whose next event is before ts_ns */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint64_t t;

		if (mid * NS_ORDER_STRIDE >= trace->nr_events ||
		    merger_init(&m, trace, checkpoint(trace, mid))) {
			hi = mid;
			continue;
		}
		t = merger_peek_ts(&m);
		merger_free(&m);
		if (t < ts_ns)
			lo = mid;
		else
			hi = mid;
	}
	if (merger_init(&m, trace, checkpoint(trace, lo)))
		return trace->nr_events;
	for (row = lo * NS_ORDER_STRIDE; merger_peek_ts(&m) < ts_ns; row++)
		merger_next(&m, &pos);
	merger_free(&m);
	return row;
}

int ns_trace_row_event(const struct ns_trace *trace, uint64_t row, struct ns_pos *pos,
		       struct ns_event *ev)
{
	struct ns_pos p;

	if (ns_trace_rows(trace, row, 1, &p) != 1)
		return -ENOENT;
	if (pos)
		*pos = p;
	/* a chunk the file cannot give again: an error, never its zeros */
	return ns_trace_read_failed((struct ns_trace *)trace,
				    ns_ev_get(&trace->cpus[p.cpu].ev, p.idx, ev));
}
