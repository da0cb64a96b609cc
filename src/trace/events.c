// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU event index, 8 bytes per event (the layout is in trace-int.h):
 * appending while indexing, reading an event back as a struct ns_event, and
 * the memory budget that lets a trace's index exceed the machine's memory.
 *
 * A CPU's events live in chunks of NS_EV_CHUNK slots. A slot packs
 *   ts_lo  the timestamp minus the base of its group of NS_EV_GROUP events
 *          (the timestamp of the group's first event)
 *   key    pid << NS_EV_TYPE_BITS | the CPU's local number of the type
 * An event that does not fit (a gap of 4.3 s or more inside a group, a
 * timestamp going back, a pid of 2^22 - 1 or more or negative, more than
 * NS_EV_TYPES types on one CPU) is kept whole in the CPU's wide table:
 * its slot says ts_lo NS_EV_WIDE and key the entry's number. Real traces
 * have a handful of those: long gaps are rare where events are dense.
 *
 * Chunks live in buffers of a pool that all CPUs of a trace share, under a
 * budget (--index-memory). Past it, the clock hand looks for a buffer whose
 * chunk was not used since it last passed (second chance), and that chunk
 * is evicted: its directory word says "not in memory", and the next reader
 * of one of its events reads it again from the file (the reload function:
 * the fast page reader, from the page that holds the chunk's first event,
 * found in the CPU's page table). Reloading gives the same slots: the
 * bases, the local types (the CPU's table only grows) and the wide keys
 * (the chunk's wide entries are the next ones from first_wide[ci], as when
 * it was written) come out as they were. Per chunk the first and last
 * timestamps stay in memory, so that a search by time loads one chunk at
 * most (none when the time falls between two chunks).
 * Per group of NS_EV_GROUP (256) events the first and last timestamps stay
 * in memory too (grp[], 16 bytes a group: 1/16 byte an event, 4 KiB a
 * chunk, about 340 KB for big.dat's 5.4 M events; counted in
 * ns_events_bytes()), so that the graph's per-column question "has this
 * CPU an event in [a, b)" needs no chunk where they tell it
 * (ns_events_any_in()): with g the first whole group whose last event is at
 * or after a, the answer is "g's first < b" if g's first is at or after a,
 * "yes" if g's last is before b; only a window inside one group's span
 * (zoomed in so far that the few chunks on screen stay in the pool) or
 * after the last whole group (the writer's, whose last may still grow)
 * reads the chunk. ns_events_lower_bound_range() gives the range the
 * lower bound falls in the same way, for the lost events of a column. A
 * CPU whose timestamps go back (unsorted) always asks the chunks.
 * Example: groups [10 .. 40] [55 .. 90]: [41, 50) has none (g = 1, first
 * 55 >= 41, 55 >= 50), [30, 60) has one (g = 0, last 40 < 60), [20, 30)
 * reads the chunk.
 * Example, budget 3 buffers, 4 chunks written: chunks 0 1 2 take buffers
 * 0 1 2; chunk 3 needs one, the hand finds 0 1 2 referenced, clears them,
 * comes round to 0 and evicts chunk 0 (dir[0] = gen << 20 | 0); a later
 * read of event 5 takes the next unreferenced buffer for chunk 0 again.
 * The indexer's own chunk is pinned until it moves on to the next.
 *
 * Without a reload function (the libtracecmd path, whose pages the fast
 * reader cannot read) nothing is evicted: the budget does not apply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

/**
 * ns_evpool_new - a pool of chunk buffers for the CPUs of a trace
 * @budget_bytes: memory for the buffers (SIZE_MAX: no limit)
 * @nr_cpus: the CPUs that share it: each may hold one chunk pinned while
 *           indexing and need one more to read, whatever the budget
 * @reload: how to read an evicted chunk again; NULL: never evict
 * Returns NULL when out of memory.
 */
struct ns_evpool *ns_evpool_new(size_t budget_bytes, int nr_cpus, ns_evpool_reload_fn reload,
				void *arg)
{
	struct ns_evpool *pool = calloc(1, sizeof(*pool));
	size_t min = NS_EVPOOL_MIN_BUFS + 2 * (size_t)(nr_cpus > 0 ? nr_cpus : 1);

	if (!pool)
		return NULL;
	pthread_mutex_init(&pool->lock, NULL);
	pool->max_bufs = SIZE_MAX;
	pool->min_bufs = min;
	if (reload && budget_bytes != SIZE_MAX) {
		pool->max_bufs = budget_bytes / sizeof(struct ns_ev_chunk);
		if (pool->max_bufs < min)
			pool->max_bufs = min;
	}
	pool->budget_bufs = pool->max_bufs;
	pool->reload = reload;
	pool->reload_arg = arg;
	return pool;
}

void ns_evpool_free(struct ns_evpool *pool)
{
	size_t b;
	int k;

	if (!pool)
		return;
	for (b = 0; b < pool->nr_bufs; b++)
		free(ns_evpool_buf(pool, b)->chunk);
	for (k = 0; k < NS_EVPOOL_BLOCKS; k++)
		free(pool->blocks[k]);
	free(pool->type_map);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

/* Bytes of the buffers allocated (whole chunks). */
size_t ns_evpool_bytes(const struct ns_evpool *pool)
{
	return pool ? pool->nr_bufs * sizeof(struct ns_ev_chunk) : 0;
}

/**
 * ns_evpool_share - while a fork()ed child lives: load chunks into buffers of our own
 * @on: true when the child is made (in the child and in the parent), false
 *      in the parent once the child is gone
 *
 * After fork() the pool's buffers are pages that the parent and the child
 * share until either writes one: loading a chunk into one copies it, and
 * over a search the clock would copy the whole pool, on both sides, in the
 * same memory cgroup (a 512 MB board's search ran out of memory so). While
 * shared, each side reads what the buffers hold but loads only into as
 * many new buffers as the CPUs need (min_bufs) and evicts only those.
 */
void ns_evpool_share(struct ns_evpool *pool, bool on)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	/* a pool that keeps every chunk never loads one again: nothing to copy */
	if (pool->budget_bufs == SIZE_MAX) {
		pthread_mutex_unlock(&pool->lock);
		return;
	}
	if (on && !pool->shared++) {
		pool->private_from = pool->nr_bufs;
		pool->max_bufs = pool->nr_bufs + pool->min_bufs;
		pool->hand = pool->nr_bufs;
	} else if (!on && pool->shared && !--pool->shared) {
		/* the buffers of the time apart stay, within the budget or not */
		pool->private_from = 0;
		pool->max_bufs = pool->nr_bufs > pool->budget_bufs ? pool->nr_bufs :
				 pool->budget_bufs;
		/* set for buffers of the child's time that may never have been made */
		if (pool->hand >= pool->nr_bufs)
			pool->hand = 0;
	}
	pthread_mutex_unlock(&pool->lock);
}

/* A new buffer (under the lock): its number, or -1 when out of memory. */
static long buf_alloc(struct ns_evpool *pool)
{
	size_t b = pool->nr_bufs;
	uint32_t k = 63 - (uint32_t)__builtin_clzll(b / NS_EVPOOL_FIRST + 1);
	struct ns_evbuf *buf;

	if (k >= NS_EVPOOL_BLOCKS || b >= NS_EV_DIR_BUF_MASK)
		return -1;
	if (!pool->blocks[k]) {
		pool->blocks[k] = calloc((size_t)NS_EVPOOL_FIRST << k, sizeof(*pool->blocks[k]));
		if (!pool->blocks[k])
			return -1;
	}
	buf = ns_evpool_buf(pool, b);
	/* the slots stay untouched (not resident) until written */
	buf->chunk = malloc(sizeof(*buf->chunk));
	if (!buf->chunk)
		return -1;
	pool->nr_bufs = b + 1;
	return (long)b;
}

/*
 * Take chunk @buf's chunk out of memory (under the lock). The word changes
 * before the buffer is written again: a reader that read any of the new
 * contents sees the change when it checks (trace-int.h).
 */
static void evict(struct ns_evpool *pool, struct ns_evbuf *buf)
{
	atomic_store_explicit(&buf->owner->dir[buf->ci], ++pool->gen << NS_EV_DIR_BUF_BITS,
			      memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
	buf->owner = NULL;
	pool->evictions++;
}

/* A buffer for a chunk (under the lock): a new one within the budget, else the clock's. */
static long buf_take(struct ns_evpool *pool)
{
	size_t tries, first = pool->private_from;

	if (pool->nr_bufs < pool->max_bufs) {
		long b = buf_alloc(pool);

		if (b >= 0 || !pool->reload || pool->nr_bufs <= first)
			return b;
		/* out of memory before the budget: the budget is what we have */
		pool->max_bufs = pool->nr_bufs;
		if (!first)
			pool->budget_bufs = pool->nr_bufs;
	}
	if (pool->nr_bufs <= first)
		return buf_alloc(pool);
	if (pool->hand < first || pool->hand >= pool->nr_bufs)
		pool->hand = first;
	/* twice round: the first pass may only clear the referenced bits */
	for (tries = 0; tries < 2 * (pool->nr_bufs - first) + 1; tries++) {
		size_t b = pool->hand;
		struct ns_evbuf *buf = ns_evpool_buf(pool, b);

		/* round the buffers it may load into: its own while shared (ns_evpool_share()) */
		pool->hand = first + (b + 1 - first) % (pool->nr_bufs - first);
		if (buf->pinned)
			continue;
		if (buf->owner && atomic_exchange_explicit(&buf->referenced, false,
							    memory_order_relaxed))
			continue;
		if (buf->owner)
			evict(pool, buf);
		return (long)b;
	}
	/* all pinned: more than the budget, rather than no index */
	return buf_alloc(pool);
}

/* Make buffer @b hold chunk @ci of @e, for readers (under the lock). */
static void publish(struct ns_evpool *pool, struct ns_events *e, uint64_t ci, long b, int error)
{
	struct ns_evbuf *buf = ns_evpool_buf(pool, (size_t)b);

	buf->owner = e;
	buf->error = error;
	buf->ci = ci;
	atomic_store_explicit(&buf->referenced, true, memory_order_relaxed);
	atomic_store_explicit(&e->dir[ci], ++pool->gen << NS_EV_DIR_BUF_BITS | (uint64_t)(b + 1),
			      memory_order_release);
}

static int type_local(struct ns_events *e, int type)
{
	uint16_t *m;
	int n;

	if (type < 0 || type >= NS_EV_TYPE_MAP)
		return -1;
	if (!e->type_map) {
		e->type_map = calloc(NS_EV_TYPE_MAP, sizeof(*e->type_map));
		if (!e->type_map)
			return -ENOMEM;
	}
	m = &e->type_map[type];
	if (*m)
		return *m - 1;
	n = atomic_load_explicit(&e->nr_types, memory_order_relaxed);
	if (n >= NS_EV_TYPES)
		return -1;
	e->types[n] = type;
	/* a reader's reload reads types[] up to nr_types (acquire) while we append */
	atomic_store_explicit(&e->nr_types, n + 1, memory_order_release);
	*m = (uint16_t)(n + 1);
	return n;
}

int ns_events_add_wide(struct ns_events *e, uint64_t ts, int pid, int type, uint32_t *nr)
{
	uint32_t n = atomic_load_explicit(&e->nr_wide, memory_order_relaxed), k = 31 - (uint32_t)__builtin_clz(n / NS_EV_WIDE_FIRST + 1);
	struct ns_ev_wide *w;

	if (k >= NS_EV_WIDE_BLOCKS)
		return -ENOMEM;
	if (!e->wide[k]) {
		e->wide[k] = malloc(((size_t)NS_EV_WIDE_FIRST << k) * sizeof(*e->wide[k]));
		if (!e->wide[k])
			return -ENOMEM;
	}
	w = ns_ev_wide_of(e, n);
	w->ts_ns = ts;
	w->pid = pid;
	w->type = type;
	*nr = n;
	atomic_store_explicit(&e->nr_wide, n + 1, memory_order_release);
	return 0;
}

/* A buffer for the writer's chunk @ci, pinned; the one before it unpinned. */
static int writer_chunk(struct ns_events *e, uint64_t ci, uint64_t ts)
{
	struct ns_evpool *pool = e->pool;
	long b;

	pthread_mutex_lock(&pool->lock);
	if (e->wchunk) {
		uint64_t w = atomic_load_explicit(&e->dir[e->wci], memory_order_relaxed);

		ns_evpool_buf(pool, (size_t)(w & NS_EV_DIR_BUF_MASK) - 1)->pinned = false;
		e->wchunk = NULL;
	}
	b = buf_take(pool);
	if (b < 0) {
		pthread_mutex_unlock(&pool->lock);
		return -ENOMEM;
	}
	ns_evpool_buf(pool, (size_t)b)->pinned = true;
	e->first_ts[ci] = ts;
	e->first_wide[ci] = atomic_load_explicit(&e->nr_wide, memory_order_relaxed);
	publish(pool, e, ci, b, 0);
	pthread_mutex_unlock(&pool->lock);
	e->wchunk = ns_evpool_buf(pool, (size_t)b)->chunk;
	e->wci = ci;
	atomic_store_explicit(&e->nr_chunks, ci + 1, memory_order_release);
	return 0;
}

/**
 * ns_events_append - add the next event of a CPU
 * For the CPU's one writer: trace-int.h's inline part, and this where the
 * writer needs its next chunk or the type its local number. Readers see it once *nr_published is raised,
 * which the caller does (after the rest of the event's index, such as its
 * page, is in place).
 */
int ns_events_append_slow(struct ns_events *e, uint64_t idx, uint64_t ts, int pid, int type)
{
	uint64_t ci = idx >> NS_EV_CHUNK_SHIFT;
	int lt, ret;

	if (ci >= e->cap_chunks)
		return -ENOMEM;		/* the directory is sized at start, see ns_events_init */
	if (!e->pool) {
		e->pool = ns_evpool_new(SIZE_MAX, 1, NULL, NULL);
		if (!e->pool)
			return -ENOMEM;
		e->own_pool = true;
	}
	if (!e->wchunk || e->wci != ci) {
		ret = writer_chunk(e, ci, ts);
		if (ret)
			return ret;
	}
	lt = type_local(e, type);
	if (lt == -ENOMEM)
		return lt;
	return ns_events_put(e, idx, ts, pid, type, lt);
}

/**
 * ns_events_fill - slot @i of chunk @ch, being read again
 * For the pool's reload function, with the event as it was appended; @wide
 * counts the chunk's wide entries from first_wide[ci].
 */
void ns_events_fill(struct ns_events *e, struct ns_ev_chunk *ch, uint32_t i, uint64_t ts,
		    int pid, int type, const uint16_t *map, uint32_t *wide)
{
	int lt = type >= 0 && type < NS_EV_TYPE_MAP ? map[type] - 1 : -1;

	(void)e;
	if (!ns_ev_put_slot(ch, i, ts, pid, lt))
		ch->slot[i].key = (*wide)++;
}

/* The number of the chunk after @ci's first wide entry, for a reload's check. */
static uint32_t wide_end(const struct ns_events *e, uint64_t ci)
{
	if (ci + 1 < atomic_load_explicit(&e->nr_chunks, memory_order_acquire))
		return e->first_wide[ci + 1];
	return atomic_load_explicit(&e->nr_wide, memory_order_acquire);
}

/**
 * ns_events_load - bring chunk @ci of @e back into memory
 * The readers' slow path (ns_ev_chunk_get()). Returns the chunk's
 * directory word, with no buffer when it could not be loaded now (*@err
 * -ENOMEM: no buffer, or the reload ran out of memory; a later read tries
 * again). If the file cannot give the chunk again as it was (cut, or
 * rewritten: a short read, other timestamps at its ends, another count of
 * wide entries), the chunk is published as zeros marked -ESTALE, so that
 * readers get the error rather than its zeros, and the pool keeps
 * -ESTALE, which makes ns_trace_changed() true. A copy of a file's index
 * (multi.c) reads through its origin's types, and publishes through the
 * directory it shares with it.
 */
uint64_t ns_events_load(const struct ns_events *ce, uint64_t ci, int *err)
{
	struct ns_events *e = (struct ns_events *)ce;
	/* a copy's types are renumbered: the file's records carry the origin's */
	struct ns_events *o = (struct ns_events *)(e->origin ? e->origin : e);
	struct ns_evpool *pool = e->pool;
	struct ns_ev_chunk *ch;
	uint64_t w;
	uint32_t wide;
	long b;
	int k, nr_types, ret = -ENOMEM;

	*err = 0;
	pthread_mutex_lock(&pool->lock);
	w = atomic_load_explicit(&e->dir[ci], memory_order_acquire);
	if (w & NS_EV_DIR_BUF_MASK)
		goto out;	/* another reader loaded it meanwhile */
	b = buf_take(pool);
	if (b < 0) {
		/* every buffer pinned and no memory for one more: the caller says so */
		*err = -ENOMEM;
		atomic_store(&pool->error, -ENOMEM);
		goto out;
	}
	ch = ns_evpool_buf(pool, (size_t)b)->chunk;
	pool->loads++;
	if (!pool->type_map)
		pool->type_map = calloc(NS_EV_TYPE_MAP, sizeof(*pool->type_map));
	if (pool->type_map && pool->reload) {
		nr_types = atomic_load_explicit(&o->nr_types, memory_order_acquire);
		for (k = 0; k < nr_types; k++)
			if (o->types[k] >= 0 && o->types[k] < NS_EV_TYPE_MAP)
				pool->type_map[o->types[k]] = (uint16_t)(k + 1);
		wide = e->first_wide[ci];
		ret = pool->reload(pool->reload_arg, o, ci, ch, pool->type_map, &wide);
		/* the same wide entries as when written, or the chunk is not the same */
		if (!ret && wide != wide_end(e, ci))
			ret = -ESTALE;
		for (k = 0; k < nr_types; k++)
			if (o->types[k] >= 0 && o->types[k] < NS_EV_TYPE_MAP)
				pool->type_map[o->types[k]] = 0;
	}
	if (ret == -ENOMEM) {
		/* transient: the buffer stays free, the chunk unloaded */
		*err = ret;
		atomic_store(&pool->error, ret);
		goto out;
	}
	if (ret) {
		/* the file does not give it again: it changed under us */
		ret = -ESTALE;
		*err = ret;
		atomic_store(&pool->error, ret);
		memset(ch, 0, sizeof(*ch));
	}
	publish(pool, e, ci, b, ret);
	w = atomic_load_explicit(&e->dir[ci], memory_order_relaxed);
out:
	pthread_mutex_unlock(&pool->lock);
	return w;
}

/* The first of events [0, @nr) with a timestamp at or after @ts_ns (sorted events). */
struct lb_key {
	const struct ns_events *e;
	uint64_t from, ts_ns;
};

static bool chunk_before(size_t ci, const void *arg)
{
	const struct lb_key *k = arg;

	return k->e->first_ts[ci] < k->ts_ns;
}

static bool event_before(size_t i, const void *arg)
{
	const struct lb_key *k = arg;

	return ns_ev_ts(k->e, k->from + i) < k->ts_ns;
}

uint64_t ns_events_lower_bound(const struct ns_events *e, uint64_t nr, uint64_t ts_ns)
{
	struct lb_key k = { e, 0, ts_ns };
	uint64_t nr_chunks, ci, end;

	if (!nr)
		return 0;
	nr_chunks = ((nr - 1) >> NS_EV_CHUNK_SHIFT) + 1;
	/* the first chunk that starts at or after ts_ns: the answer is in the one before */
	ci = ns_lower_bound(nr_chunks, chunk_before, &k);
	if (!ci)
		return 0;
	/* a whole chunk before one that exists: done, if all of it is before ts_ns */
	if (ci < nr_chunks && e->last_ts[ci - 1] < ts_ns)
		return ci << NS_EV_CHUNK_SHIFT;
	k.from = (ci - 1) << NS_EV_CHUNK_SHIFT;
	end = ci << NS_EV_CHUNK_SHIFT;
	if (end > nr)
		end = nr;
	return k.from + ns_lower_bound(end - k.from, event_before, &k);
}

/* The first of full groups [0, @n) whose last event is at or after @ts (sorted events). */
struct grp_key {
	const struct ns_events *e;
	uint64_t ts_ns;
};

static bool group_before(size_t g, const void *arg)
{
	const struct grp_key *k = arg;

	return k->e->grp[g][1] < k->ts_ns;
}

/**
 * ns_events_lower_bound_range - where ns_events_lower_bound() falls, by the groups
 * *@lo <= ns_events_lower_bound(@e, @nr, @ts_ns) <= *@hi, read from the
 * groups' ends alone (no chunk): exact (*@lo == *@hi) when @ts_ns falls
 * before a group's first event and after the one before's last. A CPU whose
 * timestamps go back gets the exact answer, by the chunks.
 */
void ns_events_lower_bound_range(const struct ns_events *e, uint64_t nr, uint64_t ts_ns,
				 uint64_t *lo, uint64_t *hi)
{
	/* groups below nr are whole: the writer's group may grow past nr meanwhile */
	uint64_t full = nr >> NS_EV_GROUP_SHIFT, g, first;

	if (atomic_load_explicit(&e->unsorted, memory_order_relaxed)) {
		*lo = *hi = ns_events_lower_bound(e, nr, ts_ns);
		return;
	}
	g = ns_lower_bound(full, group_before, &(struct grp_key){ e, ts_ns });
	first = g << NS_EV_GROUP_SHIFT;
	if (g == full) {
		/* after every whole group: in the rest */
		*lo = first;
		*hi = nr;
	} else if (e->grp[g][0] >= ts_ns) {
		*lo = *hi = first;
	} else {
		/* past the group's first, at its last at the latest */
		*lo = first + 1;
		*hi = first + NS_EV_GROUP - 1;
	}
}

/**
 * ns_events_any_in - whether an event of [0, @nr) falls in [@a, @b)
 * What ns_events_lower_bound(@a) < @nr with a timestamp before @b says, from
 * the groups' ends where they tell (a column of the graph that holds a
 * group's first or last event, or falls between two groups): a chunk is read
 * only when [@a, @b) lies inside one group's span, or in the last group.
 */
bool ns_events_any_in(const struct ns_events *e, uint64_t nr, uint64_t a, uint64_t b)
{
	uint64_t full = nr >> NS_EV_GROUP_SHIFT, g, i;

	if (!atomic_load_explicit(&e->unsorted, memory_order_relaxed)) {
		g = ns_lower_bound(full, group_before, &(struct grp_key){ e, a });
		if (g < full) {
			if (e->grp[g][0] >= a)
				return e->grp[g][0] < b;	/* the group's first is the lower bound */
			if (e->grp[g][1] < b)
				return true;			/* its last is in [a, b) */
		}
	}
	i = ns_events_lower_bound(e, nr, a);
	return i < nr && ns_ev_ts(e, i) < b;
}

static int grow_dir(struct ns_events *e, size_t need)
{
	size_t old = e->cap_chunks;
	void *p;

	if (need <= old)
		return 0;
	if (need < 2 * old)
		need = 2 * old;
	p = realloc((void *)e->dir, need * sizeof(*e->dir));
	if (!p)
		return -ENOMEM;
	e->dir = p;
	memset((void *)(e->dir + old), 0, (need - old) * sizeof(*e->dir));
	p = realloc(e->first_ts, need * sizeof(*e->first_ts));
	if (!p)
		return -ENOMEM;
	e->first_ts = p;
	p = realloc(e->last_ts, need * sizeof(*e->last_ts));
	if (!p)
		return -ENOMEM;
	e->last_ts = p;
	p = realloc(e->first_wide, need * sizeof(*e->first_wide));
	if (!p)
		return -ENOMEM;
	e->first_wide = p;
	p = realloc(e->grp, need * (NS_EV_CHUNK >> NS_EV_GROUP_SHIFT) * sizeof(*e->grp));
	if (!p)
		return -ENOMEM;
	e->grp = p;
	e->cap_chunks = need;
	return 0;
}

/*
 * Size the chunk directory for at most @max_events events: it is never
 * reallocated, so a reader may walk it while the writer appends.
 */
int ns_events_init(struct ns_events *e, uint64_t max_events)
{
	uint64_t need = (max_events >> NS_EV_CHUNK_SHIFT) + 1;

	memset(e, 0, sizeof(*e));
	if (need > SIZE_MAX / sizeof(uint64_t))
		return -ENOMEM;
	return grow_dir(e, (size_t)need);
}

/* The pool @e's chunks live in, and @e's CPU for its reload function. */
void ns_events_set_pool(struct ns_events *e, struct ns_evpool *pool, int cpu)
{
	e->pool = pool;
	e->cpu = cpu;
}

/* Let the directory hold @max_events (only while nobody reads it). */
int ns_events_reserve(struct ns_events *e, uint64_t max_events)
{
	uint64_t need = (max_events >> NS_EV_CHUNK_SHIFT) + 1;

	if (need > SIZE_MAX / sizeof(uint64_t))
		return -ENOMEM;
	return grow_dir(e, (size_t)need);
}

/* The writer's tables, once the CPU is indexed; its chunk may go now. */
void ns_events_done(struct ns_events *e)
{
	if (e->wchunk) {
		uint64_t w = atomic_load_explicit(&e->dir[e->wci], memory_order_relaxed);

		pthread_mutex_lock(&e->pool->lock);
		ns_evpool_buf(e->pool, (size_t)(w & NS_EV_DIR_BUF_MASK) - 1)->pinned = false;
		pthread_mutex_unlock(&e->pool->lock);
		e->wchunk = NULL;
	}
	free(e->type_map);
	e->type_map = NULL;
}

void ns_events_free(struct ns_events *e)
{
	uint64_t i;

	if (e->own_pool)
		ns_evpool_free(e->pool);
	for (i = 0; i < NS_EV_WIDE_BLOCKS; i++)
		free(e->wide[i]);
	free((void *)e->dir);
	free(e->first_ts);
	free(e->last_ts);
	free(e->first_wide);
	free(e->grp);
	free(e->type_map);
	memset(e, 0, sizeof(*e));
}

/*
 * Bytes the index of @nr events holds resident: the directory, the wide
 * table, and of the chunks in memory the slots written (not whole chunks).
 */
size_t ns_events_bytes(const struct ns_events *e, uint64_t nr)
{
	size_t bytes = e->cap_chunks * (sizeof(*e->dir) + sizeof(*e->first_ts) +
					sizeof(*e->last_ts) + sizeof(*e->first_wide));
	uint64_t ci, nr_chunks = atomic_load_explicit(&e->nr_chunks, memory_order_acquire);
	uint32_t k;

	/* the groups' ends, of the chunks written (the rest is never touched) */
	bytes += nr_chunks * (NS_EV_CHUNK >> NS_EV_GROUP_SHIFT) * sizeof(*e->grp);
	for (ci = 0; ci < nr_chunks; ci++) {
		uint64_t first = ci << NS_EV_CHUNK_SHIFT;

		if (!(atomic_load_explicit(&e->dir[ci], memory_order_relaxed) & NS_EV_DIR_BUF_MASK))
			continue;
		bytes += sizeof(((struct ns_ev_chunk *)0)->base);
		if (nr > first)
			bytes += (nr - first < NS_EV_CHUNK ? nr - first : NS_EV_CHUNK) *
				 sizeof(struct ns_ev_slot);
	}
	for (k = 0; k < NS_EV_WIDE_BLOCKS && e->wide[k]; k++)
		bytes += ((size_t)NS_EV_WIDE_FIRST << k) * sizeof(struct ns_ev_wide);
	return bytes;
}

uint64_t ns_events_nr_wide(const struct ns_events *e)
{
	return atomic_load_explicit(&e->nr_wide, memory_order_acquire);
}

/* ---- the public accessors ---- */

uint64_t ns_trace_cpu_nr_events(const struct ns_trace *trace, int cpu)
{
	if (cpu < 0 || cpu >= trace->nr_cpus)
		return 0;
	return atomic_load_explicit(&trace->cpus[cpu].nr_events, memory_order_acquire);
}

int ns_trace_event(const struct ns_trace *trace, int cpu, uint64_t idx, struct ns_event *ev)
{
	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= ns_trace_cpu_nr_events(trace, cpu))
		return -ENOENT;
	/* a chunk the file cannot give again: an error, never its zeros as an event */
	return ns_trace_read_failed((struct ns_trace *)trace,
				    ns_ev_get(&trace->cpus[cpu].ev, idx, ev));
}

uint64_t ns_trace_ev_ts(const struct ns_trace *trace, int cpu, uint64_t idx)
{
	return ns_ev_ts(&trace->cpus[cpu].ev, idx);
}

int ns_trace_ev_pid(const struct ns_trace *trace, int cpu, uint64_t idx)
{
	struct ns_event ev;

	ns_ev_get(&trace->cpus[cpu].ev, idx, &ev);
	return ev.pid;
}

int ns_trace_ev_type(const struct ns_trace *trace, int cpu, uint64_t idx)
{
	struct ns_event ev;

	ns_ev_get(&trace->cpus[cpu].ev, idx, &ev);
	return ev.type;
}
