// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event index under a memory budget (src/trace/events.c): chunks
 * evicted by the clock and read again must give the events as written,
 * also to a reader on another thread while the writer evicts; and on a
 * real trace, every event and every search by time under a tiny
 * --index-memory must equal what the whole index gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "../../src/trace/pages.h"
#include "../../src/trace/trace-int.h"
#include "nurseshark/trace_sched.h"
#include "traces.h"

#define NR_CPUS 2
#define NR_EVENTS (40 * NS_EV_CHUNK + 1234)

struct want {
	uint64_t ts;
	int pid, type;
};

struct fixture {
	struct want *w[NR_CPUS];
	struct ns_events ev[NR_CPUS];
	_Atomic uint64_t published[NR_CPUS];
	uint64_t broken_idx;		/* a reload gives this event wrong (UINT64_MAX: none) */
	atomic_bool stop;
};

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* The reload function: the events as appended (the file, here). */
static int reload(void *arg, struct ns_events *e, uint64_t ci, struct ns_ev_chunk *ch,
		  const uint16_t *map, uint32_t *wide)
{
	struct fixture *f = arg;
	uint64_t first = ci << NS_EV_CHUNK_SHIFT, nr = atomic_load(&f->published[e->cpu]), i;

	for (i = first; i < nr && i < first + NS_EV_CHUNK; i++) {
		const struct want *w = &f->w[e->cpu][i];

		ns_events_fill(e, ch, (uint32_t)(i - first), w->ts + (i == f->broken_idx), w->pid,
			       w->type, map, wide);
	}
	return 0;
}

static void make_events(struct want *w, uint32_t seed)
{
	uint64_t i, ts = 1000;

	for (i = 0; i < NR_EVENTS; i++) {
		uint32_t r = rng(&seed);

		/* now and then a gap of seconds, a step back or a huge pid: wide entries */
		if (r % 1999 == 0)
			ts += 5000000000ull;
		else if (r % 1997 == 0 && ts > 5000)
			ts -= 3000;
		else
			ts += r % 5000;
		w[i].ts = ts;
		w[i].pid = r % 1993 == 0 ? -1 : (int)(r % 40000);
		w[i].type = (int)(r % 700);
	}
}

/* Events [0, nr) of @cpu read in a random order: how many differ from what was written. */
static uint64_t wrong_events(struct fixture *f, int cpu, uint64_t nr, uint64_t reads,
			     uint32_t seed)
{
	uint64_t bad = 0, k;

	for (k = 0; k < reads && nr; k++) {
		uint64_t i = rng(&seed) % nr;
		const struct want *w = &f->w[cpu][i];
		struct ns_event ev;

		ns_ev_get(&f->ev[cpu], i, &ev);
		bad += ev.ts_ns != w->ts || ev.pid != w->pid || ev.type != w->type;
	}
	return bad;
}

static void *reader_main(void *arg)
{
	struct fixture *f = arg;
	uint64_t bad = 0, rounds = 0;
	uint32_t seed = 777;

	while (!atomic_load(&f->stop) || rounds < 4) {
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			bad += wrong_events(f, cpu, atomic_load(&f->published[cpu]), 50,
					    rng(&seed));
		rounds++;
	}
	return (void *)(uintptr_t)bad;
}

static void pool_checks(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ns_evpool *pool;
	uint64_t i, bad;
	pthread_t reader;
	void *rbad = NULL;
	int cpu, ret = 0;
	bool started;

	if (!f)
		return;
	f->broken_idx = UINT64_MAX;
	/* a budget of 1 byte: the pool's least, 8 + 2 a CPU = 12 buffers for 82 chunks */
	pool = ns_evpool_new(1, NR_CPUS, reload, f);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		f->w[cpu] = malloc(NR_EVENTS * sizeof(*f->w[cpu]));
		if (!f->w[cpu] || ns_events_init(&f->ev[cpu], NR_EVENTS))
			ret = -ENOMEM;
		else
			ns_events_set_pool(&f->ev[cpu], pool, cpu);
		if (f->w[cpu])
			make_events(f->w[cpu], 4242 + (uint32_t)cpu);
	}
	CHECK(pool && !ret && pool->max_bufs == NS_EVPOOL_MIN_BUFS + 2 * NR_CPUS,
	      "a pool of %d buffers under a tiny budget", NS_EVPOOL_MIN_BUFS + 2 * NR_CPUS);
	if (!pool || ret)
		return;

	/* CPU 0 written whole, CPU 1 while a reader on another thread reads both */
	for (i = 0; i < NR_EVENTS && !ret; i++) {
		ret = ns_events_append(&f->ev[0], i, f->w[0][i].ts, f->w[0][i].pid, f->w[0][i].type);
		atomic_store(&f->published[0], i + 1);
	}
	ns_events_done(&f->ev[0]);
	started = !pthread_create(&reader, NULL, reader_main, f);
	for (i = 0; i < NR_EVENTS && !ret; i++) {
		ret = ns_events_append(&f->ev[1], i, f->w[1][i].ts, f->w[1][i].pid, f->w[1][i].type);
		atomic_store(&f->published[1], i + 1);
	}
	ns_events_done(&f->ev[1]);
	atomic_store(&f->stop, true);
	if (started)
		pthread_join(reader, &rbad);
	CHECK(!ret && pool->nr_bufs <= pool->max_bufs && pool->evictions > 0,
	      "appending %u events a CPU stays within %zu buffers (%zu used, %llu evictions)",
	      NR_EVENTS, pool->max_bufs, pool->nr_bufs, (unsigned long long)pool->evictions);
	CHECK(started && (uintptr_t)rbad == 0,
	      "a reader on another thread while the writer evicts reads every event as "
	      "written (%llu wrong)", (unsigned long long)(uintptr_t)rbad);
	CHECK(ns_events_nr_wide(&f->ev[0]) > 0, "the events have wide entries (%llu)",
	      (unsigned long long)ns_events_nr_wide(&f->ev[0]));

	/* every event, in order and at random: chunks evicted and read again */
	bad = 0;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (i = 0; i < NR_EVENTS; i++) {
			struct ns_event ev;

			ns_ev_get(&f->ev[cpu], i, &ev);
			bad += ev.ts_ns != f->w[cpu][i].ts || ev.pid != f->w[cpu][i].pid ||
			       ev.type != f->w[cpu][i].type;
		}
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		bad += wrong_events(f, cpu, NR_EVENTS, 3000, 99 + (uint32_t)cpu);
	CHECK(!bad && pool->loads > 0 && !pool->error && pool->nr_bufs <= pool->max_bufs,
	      "read back after eviction every event equals the original (%llu wrong, "
	      "%llu loads)", (unsigned long long)bad, (unsigned long long)pool->loads);

	bad = 0;
	for (i = 0; i < NR_EVENTS; i += 997) {
		uint64_t want = i, got;

		while (want && f->w[0][want - 1].ts >= f->w[0][i].ts)
			want--;
		got = ns_events_lower_bound(&f->ev[0], NR_EVENTS, f->w[0][i].ts);
		/*
		 * where timestamps go back the answer is any a binary search can
		 * give: one at or past the time, after one before it
		 */
		bad += got != want &&
		       (got > NR_EVENTS || (got < NR_EVENTS && f->w[0][got].ts < f->w[0][i].ts) ||
			(got > 0 && f->w[0][got - 1].ts >= f->w[0][i].ts));
	}
	CHECK(!bad, "search by time with chunks evicted (%llu wrong)", (unsigned long long)bad);

	/* the checks above can fail: a reload that gives one event wrong is seen */
	f->broken_idx = 5 * NS_EV_CHUNK + 17;
	bad = 0;
	for (int round = 0; round < 3 && !bad; round++)
		for (i = 0; i < NR_EVENTS; i++) {
			struct ns_event ev;

			ns_ev_get(&f->ev[0], i, &ev);
			bad += ev.ts_ns != f->w[0][i].ts;
		}
	CHECK(bad == 1, "a reload that gives an event wrong is caught (%llu wrong)",
	      (unsigned long long)bad);

	/*
	 * A fork()ed child (a search's helper) loads chunks into buffers of
	 * its own: the parent's, pages shared until written, keep their
	 * chunks, and it takes no more than the CPUs need.
	 */
	f->broken_idx = UINT64_MAX;
	{
		size_t inherited = pool->nr_bufs, moved = 0, b;
		uint64_t loads = pool->loads;
		struct { const struct ns_events *owner; uint64_t ci; void *chunk; } *was;

		was = calloc(inherited, sizeof(*was));
		for (b = 0; was && b < inherited; b++) {
			const struct ns_evbuf *buf = ns_evpool_buf(pool, b);

			was[b].owner = buf->owner;
			was[b].ci = buf->ci;
			was[b].chunk = buf->chunk;
		}
		ns_evpool_share(pool, true);
		bad = 0;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			bad += wrong_events(f, cpu, NR_EVENTS, 3000, 7 + (uint32_t)cpu);
		for (b = 0; was && b < inherited; b++) {
			const struct ns_evbuf *buf = ns_evpool_buf(pool, b);

			moved += buf->owner != was[b].owner || buf->ci != was[b].ci ||
				 buf->chunk != was[b].chunk;
		}
		CHECK(was && !bad && !moved && pool->loads > loads &&
		      pool->nr_bufs <= inherited + pool->min_bufs,
		      "shared with a child, chunks load into new buffers only (%llu loads, "
		      "%zu of %zu inherited buffers changed, %zu new, %llu wrong)",
		      (unsigned long long)(pool->loads - loads), moved, inherited,
		      pool->nr_bufs - inherited, (unsigned long long)bad);
		free(was);
		/* the child gone, the clock goes round every buffer again, adding none */
		inherited = pool->nr_bufs;
		ns_evpool_share(pool, false);
		bad = 0;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			bad += wrong_events(f, cpu, NR_EVENTS, 3000, 17 + (uint32_t)cpu);
		CHECK(!bad && !pool->private_from && pool->nr_bufs == inherited,
		      "the child gone, the pool loads into all %zu buffers again (%llu wrong)",
		      pool->nr_bufs, (unsigned long long)bad);
	}

	/*
	 * A child made and gone before the parent loaded anything (a search
	 * cancelled at once): the clock's hand, set for the buffers of its
	 * own that were never made, comes back among the buffers there are.
	 * Here it once pointed one past the last, and a reload wrote into a
	 * buffer with no chunk (a crash in narrow.sh and jobkeys.sh).
	 */
	{
		size_t had = pool->nr_bufs;

		ns_evpool_share(pool, true);
		ns_evpool_share(pool, false);
		bad = 0;
		for (cpu = 0; cpu < NR_CPUS; cpu++)
			bad += wrong_events(f, cpu, NR_EVENTS, 3000, 29 + (uint32_t)cpu);
		CHECK(!bad && pool->nr_bufs == had && pool->hand < pool->nr_bufs,
		      "a child gone before any load: the pool loads into its %zu buffers "
		      "(hand %zu, %llu wrong)", pool->nr_bufs, pool->hand, (unsigned long long)bad);
	}

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		ns_events_free(&f->ev[cpu]);
		free(f->w[cpu]);
	}
	ns_evpool_free(pool);
	free(f);
}

/* The first of @w[0, @nr) at or after @ts (sorted): a plain binary search. */
static uint64_t want_lower_bound(const struct want *w, uint64_t nr, uint64_t ts)
{
	uint64_t lo = 0, hi = nr;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (w[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The per-group first and last timestamps (events.c): on sorted events,
 * ns_events_any_in() and ns_events_lower_bound_range() agree with a plain
 * search for windows of every width (ties, gaps between groups, the last
 * group partial), and a sweep of wide columns over evicted chunks reads
 * none of them again; on events whose timestamps go back, any_in says what
 * the chunks' lower bound says.
 */
static void group_checks(void)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ns_evpool *pool = ns_evpool_new(1, 1, reload, f);
	uint64_t i, k, bad = 0, inexact = 0, loads, ts = 5000, span;
	uint32_t seed = 4711;
	int ret = 0;

	if (!f || !pool || !(f->w[0] = malloc(NR_EVENTS * sizeof(*f->w[0]))) ||
	    ns_events_init(&f->ev[0], NR_EVENTS)) {
		CHECK(0, "group checks: out of memory");
		return;
	}
	f->broken_idx = UINT64_MAX;
	ns_events_set_pool(&f->ev[0], pool, 0);
	for (i = 0; i < NR_EVENTS; i++) {
		uint32_t r = rng(&seed);

		/* ties, small steps, now and then a gap longer than a group */
		ts += r % 7 == 0 ? 0 : r % 997 == 0 ? 3000000 : r % 3000;
		f->w[0][i] = (struct want){ ts, (int)(r % 30000), (int)(r % 50) };
	}
	for (i = 0; i < NR_EVENTS && !ret; i++) {
		ret = ns_events_append(&f->ev[0], i, f->w[0][i].ts, f->w[0][i].pid, f->w[0][i].type);
		atomic_store(&f->published[0], i + 1);
	}
	ns_events_done(&f->ev[0]);
	CHECK(!ret && pool->evictions > 0 && !atomic_load(&f->ev[0].unsorted),
	      "sorted events written under a tiny budget (%llu evictions)",
	      (unsigned long long)pool->evictions);
	span = ts - f->w[0][0].ts;
	for (k = 0; k < 20000; k++) {
		/* from before the first event to after the last, widths of 1 ns to all */
		uint64_t a = f->w[0][0].ts - 10 + rng(&seed) % (span + 20);
		uint64_t width = 1 + (rng(&seed) % (span + 1) >> (rng(&seed) % 40));
		uint64_t nr = k % 2 ? NR_EVENTS : NR_EVENTS - rng(&seed) % 1000;
		uint64_t lb = want_lower_bound(f->w[0], nr, a), lo, hi;
		bool any = lb < nr && f->w[0][lb].ts < a + width;

		bad += ns_events_any_in(&f->ev[0], nr, a, a + width) != any;
		ns_events_lower_bound_range(&f->ev[0], nr, a, &lo, &hi);
		bad += lo > lb || hi < lb || hi > nr;
		inexact += lo != hi;
		/* at a group's first event, and just after the group before's last */
		i = (rng(&seed) % (nr >> NS_EV_GROUP_SHIFT)) << NS_EV_GROUP_SHIFT;
		ns_events_lower_bound_range(&f->ev[0], nr, f->w[0][i].ts, &lo, &hi);
		lb = want_lower_bound(f->w[0], nr, f->w[0][i].ts);
		bad += lo > lb || hi < lb || (i && f->w[0][i - 1].ts < f->w[0][i].ts &&
					      (lo != i || hi != i));
		/* windows that start or end at a group's ends, or a nanosecond off them */
		for (int q = 0; q < 16 && i; q++) {
			uint64_t at = (q & 4 ? f->w[0][i - 1].ts : f->w[0][i].ts) + (q & 1) - (q & 2 ? 1 : 0);
			uint64_t a = q & 8 ? at - (q & 1 ? 1 : 3) : at, b = q & 8 ? at : at + 1 + (q & 3);

			lb = want_lower_bound(f->w[0], nr, a);
			bad += ns_events_any_in(&f->ev[0], nr, a, b) !=
			       (lb < nr && f->w[0][lb].ts < b);
			ns_events_lower_bound_range(&f->ev[0], nr, a, &lo, &hi);
			bad += lo > lb || hi < lb;
		}
	}
	CHECK(!bad && inexact, "any event in a window and the lower bound's range by the groups "
	      "equal a plain search's (%llu wrong, %llu inexact ranges)",
	      (unsigned long long)bad, (unsigned long long)inexact);

	/* a zoomed-out graph: 200 columns over the whole span read no chunk */
	loads = pool->loads;
	bad = 0;
	for (k = 0; k < 200; k++) {
		uint64_t a = f->w[0][0].ts + span * k / 200, b = f->w[0][0].ts + span * (k + 1) / 200;
		uint64_t lb = want_lower_bound(f->w[0], NR_EVENTS, a);

		bad += ns_events_any_in(&f->ev[0], NR_EVENTS, a, b) !=
		       (lb < NR_EVENTS && f->w[0][lb].ts < b);
	}
	CHECK(!bad && pool->loads == loads, "200 wide columns over evicted chunks: right (%llu "
	      "wrong) and no chunk read again (%llu loads)", (unsigned long long)bad,
	      (unsigned long long)(pool->loads - loads));
	ns_events_free(&f->ev[0]);

	/* timestamps that go back: what the chunks' lower bound says */
	make_events(f->w[0], 99);
	ret = ns_events_init(&f->ev[0], NR_EVENTS);
	ns_events_set_pool(&f->ev[0], pool, 0);
	for (i = 0; i < NR_EVENTS && !ret; i++) {
		ret = ns_events_append(&f->ev[0], i, f->w[0][i].ts, f->w[0][i].pid, f->w[0][i].type);
		atomic_store(&f->published[0], i + 1);
	}
	ns_events_done(&f->ev[0]);
	bad = 0;
	for (k = 0; k < 3000 && !ret; k++) {
		uint64_t a = f->w[0][rng(&seed) % NR_EVENTS].ts - rng(&seed) % 100;
		uint64_t b = a + 1 + rng(&seed) % 100000, lo, hi;
		uint64_t lb = ns_events_lower_bound(&f->ev[0], NR_EVENTS, a);

		bad += ns_events_any_in(&f->ev[0], NR_EVENTS, a, b) !=
		       (lb < NR_EVENTS && ns_ev_ts(&f->ev[0], lb) < b);
		ns_events_lower_bound_range(&f->ev[0], NR_EVENTS, a, &lo, &hi);
		bad += lo != lb || hi != lb;
	}
	CHECK(!ret && atomic_load(&f->ev[0].unsorted) && !bad,
	      "where timestamps go back, the chunks' answer (%llu wrong)", (unsigned long long)bad);
	ns_events_free(&f->ev[0]);
	ns_evpool_free(pool);
	free(f->w[0]);
	free(f);
}

/* Differences between the orders of @a and @b: checkpoints, and the rows of first namings. */
static uint64_t order_diff(const struct ns_trace *a, const struct ns_trace *b, uint64_t *named)
{
	uint64_t bad, k;

	if (a->nr_order != b->nr_order || a->nr_cpus != b->nr_cpus ||
	    ns_trace_nr_events(a) != ns_trace_nr_events(b))
		return 1;
	bad = memcmp(a->order, b->order, a->nr_order * (uint64_t)a->nr_cpus * sizeof(*a->order)) != 0;
	for (k = 0; k < a->tasks.cap; k++) {
		const struct ns_task *x = &a->tasks.slots[k], *y;

		if (!x->pid)
			continue;
		y = ns_tasks_find(&b->tasks, x->pid);
		bad += !y || y->unknown_until != x->unknown_until ||
		       (x->unknown_until >= 0 && strcmp(x->report_comm, y->report_comm));
		if (named)
			*named += x->unknown_until >= 0;
	}
	return bad;
}

/*
 * Rows whose task name differs when the row is not given: row_comm()
 * (format.c) then tells "<...>" from the naming event's time and CPU
 * rather than from the row. @unnamed counts the rows printed "<...>".
 */
static uint64_t naming_rows(struct ns_trace *t, uint64_t first, uint64_t nr, uint64_t *unnamed)
{
	struct ns_pos pos[256];
	uint64_t row, end = first + nr, bad = 0;
	size_t k, got;

	if (end > ns_trace_nr_events(t))
		end = ns_trace_nr_events(t);
	for (row = first; row < end; row += got) {
		got = ns_trace_rows(t, row, end - row < 256 ? end - row : 256, pos);
		if (!got)
			return bad + 1;
		for (k = 0; k < got; k++) {
			const char *x = ns_trace_row_comm(t, pos[k].cpu, pos[k].idx, row + k);
			const char *y = ns_trace_row_comm(t, pos[k].cpu, pos[k].idx, UINT64_MAX);

			bad += strcmp(x, y) != 0;
			*unnamed += !strcmp(x, "<...>");
		}
	}
	return bad;
}

/* Ten rows before the last of @pid's within 20,000 rows before @row (or @row). */
static uint64_t last_of(struct ns_trace *t, int pid, uint64_t row)
{
	struct ns_pos pos[256];
	uint64_t at = row;
	size_t got, k;

	while (at > 0 && row - at < 20000) {
		uint64_t from = at > 256 ? at - 256 : 0;

		got = ns_trace_rows(t, from, at - from, pos);
		for (k = got; k-- > 0;)
			if (ns_trace_ev_pid(t, pos[k].cpu, pos[k].idx) == pid)
				return from + k > 10 ? from + k - 10 : 0;
		at = from;
	}
	return row;
}

/* The first 100,000 rows, and those around each of the first 1,000 namings. */
static uint64_t naming_diff(struct ns_trace *t, uint64_t *unnamed)
{
	uint64_t bad = 0;
	size_t k;
	int n = 0;

	if (t->multi)
		return 0;
	bad += naming_rows(t, 0, 100000, unnamed);
	for (k = 0; k < t->tasks.cap && n < 1000; k++) {
		int64_t u = t->tasks.slots[k].pid ? t->tasks.slots[k].unknown_until : -1;

		if (u < 0)
			continue;
		n++;
		bad += naming_rows(t, u < 100 ? 0 : (uint64_t)u - 100, 200, unnamed);
		/* and around the task's last event before its naming, if it has one near */
		bad += naming_rows(t, last_of(t, t->tasks.slots[k].pid, (uint64_t)u), 20, unnamed);
	}
	return bad;
}

/* A trace opened with @opts, waited for; NULL (and a FAIL) if it does not open. */
static struct ns_trace *open_with(const char *path, const struct ns_trace_open_opts *opts)
{
	char err[256];
	struct ns_trace *t = ns_trace_open_async_opts(path, opts, err, sizeof(err));

	if (t && !ns_trace_wait(t, err, sizeof(err)))
		return t;
	CHECK(0, "%s opens (%s)", path, err);
	ns_trace_close(t);
	return NULL;
}

/*
 * The order built in rounds (index.c) against the order built after the
 * whole index, on every real trace; and on a copy of sched-v6.dat whose
 * CPU 0 has a page that goes back in time, where the whole index merges
 * in one thread and the rounds must still give its order.
 */
static void rounds_checks(void)
{
	struct ns_trace_open_opts whole = { .index_memory = UINT64_MAX };
	struct ns_trace_open_opts rounds = { .index_memory = UINT64_MAX, .index_rounds = 7 };
	const char *shared = check_shared();
	struct trace_list l;
	uint64_t bad = 0, named = 0, name_bad = 0, unnamed = 0;
	int i, in_rounds = 0;
	char path[8192], copy[] = "/tmp/ns-unsorted-XXXXXX";

	trace_list_load(&l, 1);
	{
		/* and the one with instance buffers (slots of several buffers) */
		const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";

		snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
		trace_list_add(&l, path);
	}
	for (i = 0; i < l.n; i++) {
		struct ns_trace *a = open_with(l.path[i], &whole), *b = NULL;

		b = a ? open_with(l.path[i], &rounds) : NULL;
		if (b) {
			uint64_t d = order_diff(a, b, &named);

			if (d)
				printf("  %s: %llu differences\n", l.path[i], (unsigned long long)d);
			bad += d;
			in_rounds += ns_trace_index_rounds(b) == 7;
			d = naming_diff(a, &unnamed);
			if (d)
				printf("  %s: %llu rows named otherwise without their row\n",
				       l.path[i], (unsigned long long)d);
			name_bad += d;
		}
		ns_trace_close(a);
		ns_trace_close(b);
		free(l.path[i]);
	}
	CHECK(!bad && in_rounds > 0, "%d traces: the order built in 7 rounds (%d of them) and the "
	      "rows of %llu first namings equal those built after the whole index", l.n, in_rounds,
	      (unsigned long long)named);
	CHECK(!name_bad && unnamed > 0, "a row's task name without its row (by the naming "
	      "event's time) as with it: %llu rows of \"<...>\", %llu differ",
	      (unsigned long long)unnamed, (unsigned long long)name_bad);

	snprintf(path, sizeof(path), "%s/traces/sched-v6.dat", shared ? shared : "../shared");
	if (!shared || access(path, R_OK)) {
		SKIP("a CPU's time going back: %s not found", path);
		return;
	}
	{
		struct ns_trace *a = open_with(path, &whole), *b = NULL;
		int in = -1, out = mkstemp(copy);
		uint64_t page2, page8;
		char buf[65536];
		ssize_t got;
		bool ok = a && out >= 0 && (in = open(path, O_RDONLY)) >= 0 &&
			  ns_pages_nr_pages(a->pages, 0) > 8 && !ns_pages_compressed(a->pages);

		while (ok && (got = read(in, buf, sizeof(buf))) > 0)
			ok = write(out, buf, (size_t)got) == got;
		if (ok) {
			/* page 8's base time becomes page 2's: its events go back */
			page2 = ns_pages_page_offset(a->pages, 0, 2);
			page8 = ns_pages_page_offset(a->pages, 0, 8);
			ok = pread(in, buf, 8, (off_t)page2) == 8 &&
			     pwrite(out, buf, 8, (off_t)page8) == 8;
		}
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		ns_trace_close(a);
		CHECK(ok, "a copy of %s with a page of CPU 0 that goes back in time", path);
		rounds.index_rounds = 50;
		a = ok ? open_with(copy, &whole) : NULL;
		b = a ? open_with(copy, &rounds) : NULL;
		CHECK(b && ns_trace_cpu_unsorted(a, 0) && ns_trace_cpu_unsorted(b, 0) &&
		      ns_trace_index_rounds(b) == 50 && !order_diff(a, b, NULL),
		      "where CPU 0's time goes back, the order built in 50 rounds is the one built "
		      "after the whole index");
		ns_trace_close(a);
		ns_trace_close(b);
		unlink(copy);
	}
}

static int count_event(void *arg, const struct ns_sched_event *ev)
{
	(void)ev;
	++*(uint64_t *)arg;
	return 0;
}

/* A real trace under --index-memory 8M against the whole index. */
static void trace_checks(const char *path)
{
	struct ns_trace_open_opts small = { .index_memory = 8ull << 20 };
	struct ns_trace_open_opts all = { .index_memory = UINT64_MAX };
	char err[256];
	struct ns_trace *a, *b = NULL;
	uint64_t bad = 0, n = 0, k, loads, named = 0;
	uint32_t seed = 31337;
	int cpu;
	bool ok;

	/* one after the other: the open's guard forks, not beside an indexing thread */
	a = ns_trace_open_async_opts(path, &all, err, sizeof(err));
	ok = a && !ns_trace_wait(a, err, sizeof(err));
	b = ok ? ns_trace_open_async_opts(path, &small, err, sizeof(err)) : NULL;
	ok = b && !ns_trace_wait(b, err, sizeof(err));
	CHECK(ok, "%s opens with --index-memory all and 8M (%s)", path, ok ? "" : err);
	if (!ok)
		goto out;
	CHECK(ns_trace_nr_events(a) == ns_trace_nr_events(b) && a->nr_cpus == b->nr_cpus,
	      "the same %llu events", (unsigned long long)ns_trace_nr_events(a));
	/*
	 * Indexing reads dropped chunks back only for each CPU's first event
	 * (the trace's first time): the task names' rows and times come from
	 * what it noted (once every first naming's time was read back from the
	 * index afterwards, a chunk loaded again for each).
	 */
	CHECK(ns_trace_chunk_reloads(b) <= (uint64_t)b->nr_cpus,
	      "under 8M, the open reloads %llu chunks (at most one a CPU)",
	      (unsigned long long)ns_trace_chunk_reloads(b));
	for (cpu = 0; cpu < a->nr_cpus && cpu < b->nr_cpus; cpu++) {
		uint64_t nr = ns_trace_cpu_nr_events(a, cpu), i;

		for (i = 0; i < nr; i++) {
			struct ns_event x, y;

			ns_trace_event(a, cpu, i, &x);
			ns_trace_event(b, cpu, i, &y);
			bad += x.ts_ns != y.ts_ns || x.pid != y.pid || x.type != y.type;
			n++;
		}
	}
	loads = b->evpool->loads;
	CHECK(!bad && n == ns_trace_nr_events(a) && b->evpool->evictions > 0 && loads > 0 &&
	      !b->evpool->error,
	      "every event under 8M equals the whole index's (%llu of %llu wrong, %llu loads, "
	      "%zu of %zu buffers)", (unsigned long long)bad, (unsigned long long)n,
	      (unsigned long long)loads, b->evpool->nr_bufs, b->evpool->max_bufs);
	/* built in rounds as it indexed, the order equals the one built after the whole index */
	bad = order_diff(a, b, &named);
	CHECK(!bad && ns_trace_index_rounds(a) == 1 && ns_trace_index_rounds(b) > 1,
	      "the order built in %d rounds under 8M (%llu checkpoints) and the rows of the "
	      "first namings (%llu) equal those built after the whole index",
	      ns_trace_index_rounds(b), (unsigned long long)b->nr_order,
	      (unsigned long long)named);
	{
		uint64_t unnamed = 0;

		/* evicted chunks read back for the times */
		bad = naming_diff(b, &unnamed);
		/* (this trace's "<...>" rows are few: its tasks are named before their events) */
		CHECK(!bad, "under 8M, a row's task name without its row as with it around %llu "
		      "namings: %llu rows of \"<...>\", %llu differ", (unsigned long long)named,
		      (unsigned long long)unnamed, (unsigned long long)bad);
	}
	bad = 0;
	for (k = 0; k < 3000; k++) {
		uint64_t t = ns_trace_first_ns(a) +
			     rng(&seed) % (ns_trace_last_ns(a) - ns_trace_first_ns(a) + 1);
		struct ns_event x, y;

		uint64_t lo = 0, hi;

		cpu = (int)(rng(&seed) % (uint32_t)a->nr_cpus);
		/* a plain binary search over every event's timestamp */
		for (hi = ns_trace_cpu_nr_events(a, cpu); lo < hi;) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (ns_trace_ev_ts(a, cpu, mid) < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		bad += ns_trace_cpu_lower_bound(a, cpu, t) != lo ||
		       ns_trace_cpu_lower_bound(b, cpu, t) != lo;
		/* the graph's question, by the groups, for a window of any width from t */
		{
			uint64_t w = 1 + ((uint64_t)rng(&seed) << 12 >> (rng(&seed) % 44)), glo, ghi;
			bool any = lo < ns_trace_cpu_nr_events(a, cpu) &&
				   ns_trace_ev_ts(a, cpu, lo) < t + w;

			bad += ns_trace_cpu_any_event(a, cpu, t, t + w) != any ||
			       ns_trace_cpu_any_event(b, cpu, t, t + w) != any;
			ns_trace_cpu_lower_bound_range(b, cpu, t, &glo, &ghi);
			bad += glo > lo || ghi < lo;
		}
		/* and at random, where each read may need a chunk read again */
		if (ns_trace_cpu_nr_events(a, cpu)) {
			uint64_t i = rng(&seed) % ns_trace_cpu_nr_events(a, cpu);

			ns_trace_event(a, cpu, i, &x);
			ns_trace_event(b, cpu, i, &y);
			bad += x.ts_ns != y.ts_ns || x.pid != y.pid || x.type != y.type;
		}
	}
	CHECK(!bad && b->evpool->loads > loads,
	      "searches by time, windows' events by the groups and random reads under 8M equal "
	      "the whole index's and a plain binary search's (%llu wrong)",
	      (unsigned long long)bad);
	/*
	 * a pass over every event through the scheduler's scan, as the marker
	 * bar's timelines and the statistics make: it reads the pages once and
	 * checks them against the index without reading any chunk again
	 */
	loads = ns_trace_chunk_reloads(b);
	n = 0;
	bad = 0;
	for (cpu = 0; cpu < b->nr_cpus; cpu++)
		bad += ns_trace_sched_scan(b, cpu, 0, ns_trace_cpu_nr_events(b, cpu),
					   NS_SCHED_SCAN_ALL, count_event, &n) != 0;
	CHECK(!bad && n == ns_trace_nr_events(b) && ns_trace_chunk_reloads(b) == loads,
	      "a scheduler scan of all %llu events under 8M reads no chunk again (%llu reads, "
	      "%llu scans failed)", (unsigned long long)n,
	      (unsigned long long)(ns_trace_chunk_reloads(b) - loads), (unsigned long long)bad);
out:
	ns_trace_close(a);
	ns_trace_close(b);
}

int main(void)
{
	const char *shared = check_shared();
	char path[8192];

	pool_checks();
	group_checks();
	rounds_checks();
	snprintf(path, sizeof(path), "%s/traces/big.dat", shared ? shared : "../shared");
	if (shared && access(path, R_OK) == 0)
		trace_checks(path);
	else
		SKIP("big.dat: %s not found", path);
	return check_failures ? 1 : 0;
}
