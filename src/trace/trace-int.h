/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/trace: the layout of the index behind struct ns_trace.
 *
 * Per CPU the index keeps, in the order the ring buffer holds them:
 *   ev        8 bytes per event (timestamp, pid, type; see events.c)
 *   pages[]   one entry per ring-buffer page: its offset as libtracecmd
 *             counts offsets (a file offset for v6, a position in the
 *             decompressed stream for v7) and the index of its first event
 *   runs[]    one entry per sched_switch: who ran from when
 *   missed[]  the few events that follow lost events
 * An event (cpu, idx) is read back from page p (binary search on
 * pages[].first_idx) as its (idx - first_idx)-th record: by the fast page
 * reader (pages.c) when it indexed the file, which walks the page's record
 * headers; else by tracecmd_read_at(pages[p].offset + page_offs[idx]), the
 * one array of 2 bytes per event that only the libtracecmd path keeps.
 *
 * Memory: 8 bytes per event, plus 16 per page, per sched_switch and per lost
 * events, plus the order's checkpoints: 8.5 bytes per event on busy traces,
 * where KernelShark keeps over 80. The 8 bytes an event are held by chunks
 * of 64K events in a pool under a budget (--index-memory, by default a
 * quarter of the memory the process may use and at most
 * NS_INDEX_MEMORY_DEFAULT, trace.h): past it, chunks not used lately are dropped and
 * read again from their pages on demand (events.c), so the chunks are a
 * bounded cache of the trace's pages, decoded; what stays is 16 bytes a
 * page, 1/16 byte an event for the groups' timestamps (events.c), 16 bytes
 * a run (struct ns_run: a sched_switch, or a change of task the switches
 * do not explain), the order's checkpoints, and the chunks in use. Within the budget every zoom, filter and search
 * runs at memory speed; under a small one, jumps about the trace read
 * pages again (same results, slower).
 *
 * While indexing (open.c), readers may use events [0, nr_events) of a CPU
 * (an acquire load) and pages [0, nr_pages): the writer fills an entry
 * before it raises the count (a release store), chunks are never moved and
 * the fast path sizes pages[] from the file before it starts.
 *
 * The merged order (rows, as `trace-cmd report` prints them) is not stored
 * per event: every NS_ORDER_STRIDE rows a checkpoint keeps how far each
 * CPU's array has been consumed, and a row is found by merging forward from
 * the checkpoint before it, at most NS_ORDER_STRIDE steps. With 2 CPUs that
 * costs 16 bytes per 1024 events. Example, 2 CPUs, stride 4:
 *   cpu0 ts: 1 3 5 6 9     cpu1 ts: 2 4 7 8
 *   rows:    c0/0 c1/0 c0/1 c1/1 | c0/2 c0/3 c1/2 c1/3 | c0/4
 *   checkpoints (consumed cpu0, cpu1): [0,0] [2,2] [4,4]
 * Ties go to the lower CPU, as in libtracecmd's tracecmd_iterate_events.
 */
#ifndef NS_TRACE_INT_H
#define NS_TRACE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>
#include <trace-cmd.h>
#include "nurseshark/trace.h"
#include "nurseshark/util.h"

#define NS_ORDER_STRIDE 1024
#define NS_PAGES_NAME_LEN_MAX 64	/* pages.h's NS_PAGES_NAME_LEN */
#define NS_RECYCLE_BYTES (64ull << 20)

/* Exported by libtracecmd but missing from its public header. */
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_flags(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
void tracecmd_set_ts_offset(struct tracecmd_input *handle, long long offset);
#define NS_TRACECMD_FL_IN_USECS (1 << 2)
#define NS_TRACECMD_FL_COMPRESSION (1 << 5)

/*
 * A task in the trace's table. In a CPU's table while indexing,
 * unknown_until is instead the index of the CPU's first event that named a
 * task the saved cmdlines lack (-1: not named yet, NS_TASK_KNOWN: the
 * cmdlines have it), report_comm the name it gave.
 */
#define NS_TASK_KNOWN (-2)
struct ns_task {
	int32_t pid;		/* 0: empty slot (pid 0 is never stored) */
	char comm[NS_COMM_LEN];	/* last comm seen in sched events */
	/*
	 * The event of row unknown_until (its CPU and time): whether another
	 * row comes before it, without finding that row's number (see
	 * row_comm() in format.c).
	 */
	int32_t unknown_cpu;
	/* rows <= unknown_until print "<...>" as report does, -1: none */
	int64_t unknown_until;
	char report_comm[NS_COMM_LEN];	/* the name report shows after unknown_until */
	uint64_t last_ts;	/* when comm was seen */
	uint64_t unknown_ts;
};

struct ns_tasks {
	struct ns_task *slots;
	size_t cap, count;
};

struct ns_page {
	uint64_t offset;
	uint64_t first_idx;
};

struct ns_missed {
	uint64_t idx;
	long long count;
};

/* events.c: the packed per-CPU event index */
#define NS_EV_CHUNK_SHIFT	16
#define NS_EV_CHUNK		(1u << NS_EV_CHUNK_SHIFT)	/* slots per chunk */
#define NS_EV_GROUP_SHIFT	8
#define NS_EV_GROUP		(1u << NS_EV_GROUP_SHIFT)	/* slots per timestamp base */
#define NS_EV_TYPE_BITS		10
#define NS_EV_TYPES		((1 << NS_EV_TYPE_BITS) - 1)	/* local types per CPU */
#define NS_EV_PID_LIMIT		((1 << (32 - NS_EV_TYPE_BITS)) - 1)
#define NS_EV_TYPE_MAP		65536
#define NS_EV_WIDE		UINT32_MAX	/* ts_lo of a slot kept whole */
#define NS_EV_WIDE_FIRST	64	/* wide table block k holds 64 << k entries */
#define NS_EV_WIDE_BLOCKS	26

struct ns_ev_slot {
	uint32_t ts_lo;		/* ts - group base, or NS_EV_WIDE */
	uint32_t key;		/* pid << NS_EV_TYPE_BITS | local type, or wide entry */
};

struct ns_ev_wide {
	uint64_t ts_ns;
	int32_t pid;
	int32_t type;
};

struct ns_ev_chunk {
	uint64_t base[NS_EV_CHUNK >> NS_EV_GROUP_SHIFT];
	struct ns_ev_slot slot[NS_EV_CHUNK];
};

/*
 * The pool of chunk buffers that the CPUs' event indexes share (events.c):
 * at most max_bufs buffers; past that a chunk not used lately (clock,
 * second chance) is evicted and read again from the file when needed.
 */
#define NS_EV_DIR_BUF_BITS	20
#define NS_EV_DIR_BUF_MASK	((1ull << NS_EV_DIR_BUF_BITS) - 1)
#define NS_EVPOOL_FIRST		16	/* buffer block k holds 16 << k buffers */
#define NS_EVPOOL_BLOCKS	16
#define NS_EVPOOL_MIN_BUFS	8	/* beside 2 a CPU: see ns_evpool_new() */

struct ns_events;

struct ns_evbuf {
	struct ns_ev_chunk *chunk;	/* allocated with the buffer, never moves */
	struct ns_events *owner;	/* the index whose chunk it holds, or NULL */
	uint64_t ci;			/* and which */
	atomic_bool referenced;		/* used since the clock hand last passed */
	bool pinned;			/* being written by the indexer */
	int error;			/* the chunk could not be read again: zeros, and why */
};

/*
 * Fills chunk @ci of @e again into @ch: ns_events_fill(e, ch, i, ..., @map,
 * @wide) for each of its events, as they were appended.
 * Returns 0 or a negative errno.
 */
typedef int (*ns_evpool_reload_fn)(void *arg, struct ns_events *e, uint64_t ci,
				   struct ns_ev_chunk *ch, const uint16_t *map, uint32_t *wide);

struct ns_evpool {
	pthread_mutex_t lock;
	size_t max_bufs;		/* SIZE_MAX: keep every chunk */
	size_t nr_bufs;			/* allocated so far */
	struct ns_evbuf *blocks[NS_EVPOOL_BLOCKS];	/* never move */
	size_t hand;			/* the clock's */
	size_t min_bufs;		/* what the CPUs need whatever the budget */
	size_t budget_bufs;		/* what the budget allows (max_bufs, but while shared) */
	/* while pages are shared with a fork()ed child: the first buffer of our own, else 0 */
	size_t private_from;
	int shared;			/* how many times ns_evpool_share() holds it */
	uint64_t gen;			/* of the last directory word stored */
	uint64_t loads, evictions;
	_Atomic int error;		/* the last reload's failure, 0 if none */
	ns_evpool_reload_fn reload;	/* NULL: nothing can be evicted */
	void *reload_arg;
	uint16_t *type_map;		/* reload's scratch: type -> local + 1 */
};

struct ns_evpool *ns_evpool_new(size_t budget_bytes, int nr_cpus, ns_evpool_reload_fn reload,
				void *arg);
void ns_evpool_free(struct ns_evpool *pool);
size_t ns_evpool_bytes(const struct ns_evpool *pool);
void ns_evpool_share(struct ns_evpool *pool, bool on);

static inline struct ns_evbuf *ns_evpool_buf(const struct ns_evpool *pool, size_t b)
{
	uint32_t k = 63 - (uint32_t)__builtin_clzll(b / NS_EVPOOL_FIRST + 1);

	return &pool->blocks[k][b - NS_EVPOOL_FIRST * ((1ull << k) - 1)];
}

/*
 * A CPU's events. dir[ci] says where chunk ci is, as a seqlock would:
 * generation << NS_EV_DIR_BUF_BITS | buffer + 1, or a buffer part 0 when
 * the chunk is not in memory. A reader loads the word (acquire), reads the
 * buffer, then checks the word again after an acquire fence: a chunk
 * evicted meanwhile changed it (the evictor stores the new word, then a
 * fence, then overwrites the buffer), and the reader tries again.
 */
struct ns_events {
	_Atomic uint64_t *dir;		/* per chunk: where it is */
	uint64_t *first_ts;		/* per chunk: its first event's timestamp */
	uint64_t *last_ts;		/* per chunk: its last one's (the writer's: so far) */
	uint32_t *first_wide;		/* per chunk: nr_wide when it began */
	/* per group of NS_EV_GROUP events: its first and last timestamps */
	uint64_t (*grp)[2];
	_Atomic bool unsorted;		/* a timestamp went back: no answer by groups */
	_Atomic uint64_t nr_chunks;	/* published with a release store */
	size_t cap_chunks;
	struct ns_evpool *pool;
	bool own_pool;			/* made by the first append (no pool given) */
	int cpu;			/* for the pool's reload */
	struct ns_ev_chunk *wchunk;	/* the writer's chunk (pinned) */
	uint64_t wci;
	int32_t types[NS_EV_TYPES];	/* local type -> type */
	_Atomic int nr_types;		/* stored (release) after types[], for a reload */
	/* a copy's (multi.c, types renumbered): the file's own, whose types reload uses */
	const struct ns_events *origin;
	struct ns_ev_wide *wide[NS_EV_WIDE_BLOCKS];	/* blocks that never move */
	_Atomic uint32_t nr_wide;
	uint16_t *type_map;		/* writer only: type -> local + 1 */
};

int ns_events_init(struct ns_events *e, uint64_t max_events);
void ns_events_set_pool(struct ns_events *e, struct ns_evpool *pool, int cpu);
int ns_events_reserve(struct ns_events *e, uint64_t max_events);
/*
 * For the index's per-event path, whose few small steps cost a tenth more
 * CPU on huge6.dat when GCC makes them calls.
 */
#define NS_ALWAYS_INLINE static inline __attribute__((always_inline))

int ns_events_append_slow(struct ns_events *e, uint64_t idx, uint64_t ts, int pid, int type);
int ns_events_add_wide(struct ns_events *e, uint64_t ts, int pid, int type, uint32_t *nr);

/* Slot @i of @ch for an event whose local type is @lt: false if it must go wide. */
NS_ALWAYS_INLINE bool ns_ev_put_slot(struct ns_ev_chunk *ch, uint32_t i, uint64_t ts, int pid, int lt)
{
	uint64_t base;

	if (!(i & (NS_EV_GROUP - 1)))
		ch->base[i >> NS_EV_GROUP_SHIFT] = ts;
	base = ch->base[i >> NS_EV_GROUP_SHIFT];
	if (ts >= base && ts - base < NS_EV_WIDE && pid >= 0 && pid < NS_EV_PID_LIMIT && lt >= 0) {
		ch->slot[i].ts_lo = (uint32_t)(ts - base);
		ch->slot[i].key = (uint32_t)pid << NS_EV_TYPE_BITS | (uint32_t)lt;
		return true;
	}
	ch->slot[i].ts_lo = NS_EV_WIDE;
	return false;
}

/* Event @idx into the writer's chunk, which is its chunk, as local type @lt. */
NS_ALWAYS_INLINE int ns_events_put(struct ns_events *e, uint64_t idx, uint64_t ts, int pid, int type,
				int lt)
{
	uint32_t i = (uint32_t)(idx & (NS_EV_CHUNK - 1));

	if (idx && ts < e->last_ts[(idx - 1) >> NS_EV_CHUNK_SHIFT])
		atomic_store_explicit(&e->unsorted, true, memory_order_relaxed);
	if (!(idx & (NS_EV_GROUP - 1)))
		e->grp[idx >> NS_EV_GROUP_SHIFT][0] = ts;
	e->grp[idx >> NS_EV_GROUP_SHIFT][1] = ts;
	e->last_ts[idx >> NS_EV_CHUNK_SHIFT] = ts;
	if (ns_ev_put_slot(e->wchunk, i, ts, pid, lt))
		return 0;
	return ns_events_add_wide(e, ts, pid, type, &e->wchunk->slot[i].key);
}

/*
 * ns_events_append(): inline where the writer's chunk is @idx's and the
 * type has its local number, nearly always (the index calls it once an
 * event); events.c does the rest.
 */
NS_ALWAYS_INLINE int ns_events_append(struct ns_events *e, uint64_t idx, uint64_t ts, int pid,
				   int type)
{
	if (!e->wchunk || e->wci != idx >> NS_EV_CHUNK_SHIFT || !e->type_map || type < 0 ||
	    type >= NS_EV_TYPE_MAP || !e->type_map[type])
		return ns_events_append_slow(e, idx, ts, pid, type);
	return ns_events_put(e, idx, ts, pid, type, e->type_map[type] - 1);
}
void ns_events_fill(struct ns_events *e, struct ns_ev_chunk *ch, uint32_t i, uint64_t ts,
		    int pid, int type, const uint16_t *map, uint32_t *wide);
void ns_events_done(struct ns_events *e);
void ns_events_free(struct ns_events *e);
size_t ns_events_bytes(const struct ns_events *e, uint64_t nr);
uint64_t ns_events_nr_wide(const struct ns_events *e);
uint64_t ns_events_load(const struct ns_events *e, uint64_t ci, int *err);
uint64_t ns_events_lower_bound(const struct ns_events *e, uint64_t nr, uint64_t ts_ns);
void ns_events_lower_bound_range(const struct ns_events *e, uint64_t nr, uint64_t ts_ns,
				 uint64_t *lo, uint64_t *hi);
bool ns_events_any_in(const struct ns_events *e, uint64_t nr, uint64_t a, uint64_t b);

/* Entry @n of the wide table: block k holds entries from 64 * (2^k - 1) on. */
static inline struct ns_ev_wide *ns_ev_wide_of(const struct ns_events *e, uint32_t n)
{
	uint32_t k = 31 - (uint32_t)__builtin_clz(n / NS_EV_WIDE_FIRST + 1);

	return &e->wide[k][n - NS_EV_WIDE_FIRST * ((1u << k) - 1)];
}

/*
 * The wide entry of a slot read under the seqlock: a slot torn by an
 * eviction may hold any key, so one outside the table reads as NULL (and
 * the reader's check of the word sends it round again).
 */
static inline const struct ns_ev_wide *ns_ev_wide_safe(const struct ns_events *e, uint32_t n)
{
	if (n >= atomic_load_explicit(&e->nr_wide, memory_order_acquire))
		return NULL;
	return ns_ev_wide_of(e, n);
}

/*
 * Chunk @ci, in memory (read again if it was evicted); *@word to check
 * after. NULL when it cannot be read again now (*@err says why: -ENOMEM,
 * a later read tries again); a chunk that the file cannot give again (it
 * changed) is zeros with *@err -ESTALE.
 */
static inline const struct ns_ev_chunk *ns_ev_chunk_get(const struct ns_events *e, uint64_t ci,
							uint64_t *word, int *err)
{
	uint64_t w = atomic_load_explicit(&e->dir[ci], memory_order_acquire);
	struct ns_evbuf *b;

	*err = 0;
	if (!(w & NS_EV_DIR_BUF_MASK))
		w = ns_events_load(e, ci, err);
	*word = w;
	if (!(w & NS_EV_DIR_BUF_MASK))
		return NULL;
	b = ns_evpool_buf(e->pool, (size_t)(w & NS_EV_DIR_BUF_MASK) - 1);
	if (!atomic_load_explicit(&b->referenced, memory_order_relaxed))
		atomic_store_explicit(&b->referenced, true, memory_order_relaxed);
	*err = b->error;
	return b->chunk;
}

/* Whether what was read of chunk @ci since ns_ev_chunk_get() gave @word holds. */
static inline bool ns_ev_chunk_held(const struct ns_events *e, uint64_t ci, uint64_t word)
{
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&e->dir[ci], memory_order_relaxed) == word;
}

/*
 * A seqlock's reads race with the writer by design (the word's check throws
 * a torn read away): ThreadSanitizer is told not to watch them.
 */
#if defined(__SANITIZE_THREAD__)
#define NS_SEQLOCK_READ __attribute__((no_sanitize_thread))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NS_SEQLOCK_READ __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef NS_SEQLOCK_READ
#define NS_SEQLOCK_READ
#endif

/*
 * Event @idx into *@ev: 0, or a negative errno when its chunk cannot be
 * read again (*@ev then says ts 0, pid 0, type -1: no event).
 */
NS_SEQLOCK_READ
static inline int ns_ev_get(const struct ns_events *e, uint64_t idx, struct ns_event *ev)
{
	uint64_t ci = idx >> NS_EV_CHUNK_SHIFT, word;
	uint32_t i = (uint32_t)(idx & (NS_EV_CHUNK - 1));

	for (;;) {
		int err;
		const struct ns_ev_chunk *ch = ns_ev_chunk_get(e, ci, &word, &err);
		struct ns_ev_slot s;
		const struct ns_ev_wide *w = NULL;

		if (!ch || err) {
			if (ch && !ns_ev_chunk_held(e, ci, word))
				continue;
			ev->ts_ns = 0;
			ev->pid = 0;
			ev->type = -1;
			return err;
		}
		s = ch->slot[i];

		if (s.ts_lo != NS_EV_WIDE) {
			ev->ts_ns = ch->base[i >> NS_EV_GROUP_SHIFT] + s.ts_lo;
			ev->pid = (int32_t)(s.key >> NS_EV_TYPE_BITS);
			ev->type = e->types[s.key & NS_EV_TYPES];
		} else if ((w = ns_ev_wide_safe(e, s.key))) {
			ev->ts_ns = w->ts_ns;
			ev->pid = w->pid;
			ev->type = w->type;
		}
		if (ns_ev_chunk_held(e, ci, word) && (s.ts_lo != NS_EV_WIDE || w))
			return 0;
	}
}

static inline uint64_t ns_ev_ts(const struct ns_events *e, uint64_t idx)
{
	struct ns_event ev;

	ns_ev_get(e, idx, &ev);
	return ev.ts_ns;
}

/*
 * Whether the index agrees that event @idx (indexed already) has timestamp
 * @ts, as far as it can tell without reading the file: the first and last
 * events of each group of NS_EV_GROUP, which stay in memory, and every event
 * of a chunk in memory. A reader of the pages checks the file against the
 * index this way without reading each page twice, as ns_ev_ts() would for
 * a chunk that was dropped.
 */
/* Whether chunk @ci of @e is in memory now (a read of it loads nothing). */
static inline bool ns_ev_chunk_in_memory(const struct ns_events *e, uint64_t ci)
{
	return atomic_load_explicit(&e->dir[ci], memory_order_acquire) & NS_EV_DIR_BUF_MASK;
}

static inline bool ns_ev_ts_agrees(const struct ns_events *e, uint64_t idx, uint64_t ts)
{
	uint32_t slot = (uint32_t)(idx & (NS_EV_GROUP - 1));

	if (slot == 0)
		return e->grp[idx >> NS_EV_GROUP_SHIFT][0] == ts;
	if (slot == NS_EV_GROUP - 1)
		return e->grp[idx >> NS_EV_GROUP_SHIFT][1] == ts;
	if (ns_ev_chunk_in_memory(e, idx >> NS_EV_CHUNK_SHIFT))
		return ns_ev_ts(e, idx) == ts;
	return true;
}

static inline int ns_ev_type(const struct ns_events *e, uint64_t idx)
{
	struct ns_event ev;

	ns_ev_get(e, idx, &ev);
	return ev.type;
}

struct ns_pages;
struct ns_pages_iter;

/*
 * Where one reader is in one CPU's events: the record read last, so that
 * reading the next one is sequential. The trace has one per CPU for the
 * screen; a struct ns_trace_reader has its own, for another thread.
 */
struct ns_cursor {
	uint64_t next_idx;
	bool have_next;
	/* the fast reader's iterator and the record it gave */
	struct ns_pages_iter *rd;
	struct tep_record rd_rec;
	int32_t rd_pid, rd_type;	/* rd_rec's, as its page says */
	uint64_t rd_idx;		/* rd_rec is this event's, while rd_held */
	bool rd_held;
};

struct ns_trace_reader {
	struct ns_trace *trace;
	struct ns_cursor *cur;		/* per CPU */
	struct ns_trace_reader **subs;	/* several files: a reader per file */
};

struct ns_cpu {
	struct ns_events ev;
	_Atomic uint64_t nr_events;	/* published with a release store */
	uint16_t *page_offs;		/* the libtracecmd path only */
	size_t cap_page_offs;
	struct ns_page *pages;
	_Atomic uint64_t nr_pages;	/* published with a release store */
	size_t cap_pages;
	struct ns_run *runs;
	uint64_t nr_runs;
	size_t cap_runs;
	struct ns_missed *missed;
	uint64_t nr_missed;
	size_t cap_missed;
	/* while indexing: the tasks this CPU's sched events named (see index.c) */
	struct ns_tasks names;
	struct ns_cursor cur;		/* the screen's reader */
	uint64_t cur_page;		/* libtracecmd path: the page read last */
	_Atomic uint64_t done_pages;	/* pages of this CPU indexed, for the progress bar */
	uint64_t last_ts;		/* while indexing: the last event's timestamp */
	bool unsorted;			/* a timestamp went back (damaged, or odd clocks) */
};

/* The key of the searches below: a CPU and an event index of it. */
struct ns_cpu_idx_key {
	const struct ns_cpu *c;
	uint64_t idx;
};

static inline bool ns_cpu_page_starts_by(size_t i, const void *arg)
{
	const struct ns_cpu_idx_key *k = arg;

	return k->c->pages[i].first_idx <= k->idx;
}

/* The page of @c that holds event @idx: the last that starts at or before it (0 if none). */
static inline uint64_t ns_cpu_page_of(const struct ns_cpu *c, uint64_t idx)
{
	size_t after = ns_lower_bound(c->nr_pages, ns_cpu_page_starts_by,
				      &(struct ns_cpu_idx_key){ c, idx });

	return after ? after - 1 : 0;
}

static inline bool ns_cpu_missed_before(size_t i, const void *arg)
{
	const struct ns_cpu_idx_key *k = arg;

	return k->c->missed[i].idx < k->idx;
}

/* The first entry of @c's lost-events table with idx >= @idx (nr_missed if none). */
static inline uint64_t ns_cpu_missed_lower(const struct ns_cpu *c, uint64_t idx)
{
	return ns_lower_bound(c->nr_missed, ns_cpu_missed_before,
			      &(struct ns_cpu_idx_key){ c, idx });
}

struct ns_trace {
	char *path;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	/* libtraceevent's plugins, loaded before the open's guard (open.c) */
	struct tep_handle *plugins_tep;
	struct tep_plugin_list *plugins;
	struct ns_pages *pages;		/* the fast reader, NULL: libtracecmd reads */
	/*
	 * Indexing in the background (open.c): the thread, its result, a
	 * request to stop, and what is known before it ends: the time span
	 * and the pages to read (the fast reader's, or 0).
	 */
	pthread_t indexer;
	bool indexing;			/* the thread was started and not joined */
	int index_ret;
	atomic_bool done;		/* set by the thread as it ends */
	atomic_bool cancel;
	uint64_t span_first, span_last;
	uint64_t total_pages;
	struct ns_trace_open_opts opts;	/* of ns_trace_open_async_opts() */
	struct ns_preview *preview;	/* preview.c */
	_Atomic uint8_t handle_types[NS_EV_TYPE_MAP];	/* format.c's ns_trace_needs_handle() */
	struct trace_seq seq;		/* format.c's buffer, under tep_lock */
	bool seq_ready;
	/* format.c's own time printer: 0 not checked yet, 1 agrees with libtraceevent, -1 not */
	int8_t own_time;
	/* format.c's find_event(): the tep's events by type, cleared when the tep is replaced */
	struct {
		int type;
		struct tep_event *event;
	} event_cache[64];
	atomic_int nr_readers_in_use;	/* struct ns_trace_reader in use */
	bool forked;			/* a child's copy: reopen the handle first */
	atomic_bool changed;		/* the file changed under us: ns_trace_changed() */
	bool tep_shared;		/* fill_tep_tables() ran: threads may share the tep */
	pthread_mutex_t handle_lock;	/* libtracecmd's handle, for any reader */
	/* libtraceevent's tables: the sched plugin adds names as it prints */
	pthread_mutex_t tep_lock;
	int nr_cpus;
	int page_size;
	bool in_usecs;
	bool compressed;
	/*
	 * libtracecmd 1.3 never frees the chunks it decompresses (free_zpage()
	 * cannot match them), so reading a compressed trace leaks all of it.
	 * After NS_RECYCLE_BYTES of pages the handle is closed and opened again.
	 */
	uint64_t bytes_read;
	off_t file_size;
	struct timespec file_mtime;
	struct ns_cpu *cpus;
	struct ns_evpool *evpool;	/* the CPUs' event chunks (events.c) */
	uint64_t nr_events;
	uint64_t first_ns, last_ns;
	/* merged order: checkpoint k holds nr_cpus consumed counts at row k*STRIDE */
	uint64_t *order;
	uint64_t nr_order;
	struct ns_order_stream *order_stream;	/* while indexing in rounds (index.c) */
	int index_rounds;			/* the rounds the index took (1: none) */
	uint64_t chunk_reloads;			/* chunks read again (atomic: any thread) */
	/*
	 * Several files: each slot's place among the slots on a tie of
	 * timestamps (order.c), as report ties its handles: every file's top
	 * buffer in the command line's order, then each file's instances.
	 * NULL: the slot itself (one file: top buffer first, then instances).
	 */
	int *tie_rank;
	struct ns_tasks tasks;
	/* libtracecmd's handles of the instance buffers read, by buffer; made when needed */
	struct tracecmd_input **buf_handles;
	/* sched_read.c: the sched events kept while indexing (ns_trace_open_sched()) */
	struct ns_sched_capture *capture;
	/* several files on one timeline (multi.c), NULL for one file */
	struct ns_multi *multi;
};

/* sched.c: where sched events keep the fields we read */
struct sched_fields {
	struct tep_event *sw, *wakeup, *wakeup_new;
	struct tep_format_field *prev_pid, *prev_comm, *next_pid, *next_comm;
	struct tep_format_field *wk_pid, *wk_comm, *wkn_pid, *wkn_comm;
	int stack_type[2];		/* ftrace's kernel_stack and user_stack, -1: none */
};

struct ns_sched_name {
	int pid;
	bool registers;		/* the sched plugin registers this name */
	char comm[NS_COMM_LEN];
};

void ns_sched_fields_find(struct tep_handle *tep, struct sched_fields *sf);
/* Whether a record of type @type names tasks (ns_sched_names() fills something); inline: per event. */
static inline bool ns_sched_names_type(const struct sched_fields *sf, int type)
{
	return (sf->sw && type == sf->sw->id) || (sf->wakeup && type == sf->wakeup->id) ||
	       (sf->wakeup_new && type == sf->wakeup_new->id);
}
int ns_sched_names(const struct sched_fields *sf, int type, struct tep_record *rec,
		   struct ns_sched_name out[2]);

/* sched_read.c: keeping the sched events while indexing */
struct ns_sched_capture;
struct ns_sched_capture *ns_sched_capture_new(struct ns_trace *trace);
int ns_sched_capture_one(struct ns_trace *trace, int cpu, uint64_t idx, int type,
			 struct tep_record *rec);
void ns_sched_capture_free(struct ns_sched_capture *cap, int nr_cpus);

/* open.c: ns_trace_open() that keeps the sched events (@capture) */
struct ns_trace *ns_trace_open_capture(const char *path, bool capture, char *err,
				       size_t err_len);

/* streams.c */
#define NS_TRACE_PREFIX_LEN	(NS_PAGES_NAME_LEN_MAX + 3)
bool ns_trace_cpu_in_usecs(const struct ns_trace *trace, int cpu);
void ns_trace_line_prefix(const struct ns_trace *trace, int cpu, char *buf, size_t len);
struct tracecmd_input *ns_trace_buffer_handle(struct ns_trace *trace, int cpu);
void ns_trace_close_buffer_handles(struct ns_trace *trace);
void ns_trace_set_ts_offset(const struct ns_trace *trace, struct tracecmd_input *handle);

/*
 * multi.c: several files as one trace. The files' traces (sub[k]) do all
 * the reading; the trace over them holds copies of their per-CPU index
 * (struct ns_cpu, slots one file after the other, event types mapped to
 * one catalogue by system and name) and its own merged order.
 */
struct ns_multi {
	int nr;
	struct ns_trace **sub;
	int *first_slot;		/* nr + 1 */
	int *first_stream;		/* nr + 1 */
	char **label;			/* a file's name on screen: its base name */
	char **stream_name;		/* "label" or "label:instance" */
	int32_t *to_sub;		/* nr * NS_EV_TYPE_MAP: type -> the file's, -1 */
	int32_t *from_sub;		/* nr * NS_EV_TYPE_MAP: the file's type -> type */
	int32_t *types;			/* the catalogue: every type of any file */
	int nr_types;
	bool ready;			/* ns_trace_wait() put the files together */
	int ret;
};

/* The file of slot *@cpu, with *@cpu made the file's slot (NULL: none). */
struct ns_trace *ns_multi_slot(const struct ns_trace *trace, int *cpu);
/* The first file that has *@type, with *@type made the file's (NULL: none). */
struct ns_trace *ns_multi_type(const struct ns_trace *trace, int *type);
/* File @k's type @type in the trace's catalogue (-1 none). */
int ns_multi_type_of(const struct ns_trace *trace, int k, int type);
/* The file's own type of catalogue type @type (-1: the file has none). */
int ns_multi_sub_type(const struct ns_trace *trace, int k, int type);
int ns_multi_file_of_slot(const struct ns_trace *trace, int cpu);
int ns_multi_wait(struct ns_trace *trace, char *err, size_t err_len);
bool ns_multi_loading(const struct ns_trace *trace, struct ns_trace_progress *prog);
void ns_multi_close(struct ns_trace *trace);

/* index.c */
int ns_index_open_pages(struct ns_trace *trace, char *err, size_t err_len);
int ns_index_prepare(struct ns_trace *trace);
int ns_index_build(struct ns_trace *trace);

/* clock.c */
void ns_trace_clock_guard(void);

/* cmdlines.c */
void ns_trace_cmdlines_keep(void);

/* kallsyms.c */
void ns_trace_kallsyms_keep(void);
void ns_trace_symbols_ignore(bool ignore);
bool ns_trace_symbols_ignored(void);
void ns_trace_kallsyms_attach(struct tep_handle *tep);

/* exprs.c */
int ns_trace_exprs_parts_ours(struct ns_trace_exprs *f, int i);

/* memory.c */
void ns_memory_open_begin(size_t len);
void ns_memory_open_end(void);

/* open.c */
int ns_trace_open_headers(const char *const *paths, const struct ns_trace_open_opts *opts, int n,
			  struct ns_trace **out, int *failed, char *err, size_t err_len);
int ns_trace_start_index(struct ns_trace *trace, char *err, size_t err_len);
int ns_trace_reopen_handle(const char *path, struct tracecmd_input **handle);
void ns_trace_handles_lock(void);
void ns_trace_handles_unlock(void);
void ns_trace_handle_close(struct tracecmd_input *handle);
int ns_trace_recycle(struct ns_trace *trace);
int ns_trace_read_failed(struct ns_trace *trace, int err);
void ns_trace_count_page(struct ns_trace *trace, struct ns_cpu *c, uint64_t page);

/* preview.c */
struct ns_preview;
void ns_preview_free(struct ns_preview *pv, int nr_cpus);

/* order.c */
/*
 * Events whose rows the caller wants while the order is built (in one
 * pass, instead of one ns_trace_row_of() each): sorted by (cpu, idx).
 */
struct ns_order_probe {
	int cpu;
	uint64_t idx;
	uint64_t row;		/* filled in */
};

int ns_order_build(struct ns_trace *trace, struct ns_order_probe *probes, size_t nr_probes);

/*
 * The order built a stretch at a time while indexing goes on (see
 * order.c): _probe() notes a CPU's event whose row is wanted (in index
 * order, before the stretch holding it is merged), _run() merges every
 * CPU's events up to @end[cpu] (those of the next stretch: each CPU's
 * events before a time), _finish() installs the checkpoints and gives the
 * probes their rows (sorted or not). 0 or a negative errno.
 */
struct ns_order_stream;
struct ns_order_stream *ns_order_stream_new(struct ns_trace *trace);
void ns_order_stream_free(struct ns_order_stream *os);
int ns_order_stream_probe(struct ns_order_stream *os, int cpu, uint64_t idx);
int ns_order_stream_run(struct ns_order_stream *os, const uint64_t *end);
int ns_order_stream_finish(struct ns_order_stream *os, struct ns_order_probe *probes,
			   size_t nr_probes);

/* tasks.c */
struct ns_task *ns_tasks_get(struct ns_tasks *tasks, int pid, bool create);
const struct ns_task *ns_tasks_find(const struct ns_tasks *tasks, int pid);
void ns_tasks_free(struct ns_tasks *tasks);

/* format.c */
struct tep_record *ns_trace_read(struct ns_trace *trace, int cpu, uint64_t idx);
void ns_trace_read_done(struct ns_trace *trace, struct tep_record *rec);
struct tep_record *ns_trace_read_r(struct ns_trace_reader *r, int cpu, uint64_t idx);
void ns_trace_read_done_r(struct ns_trace_reader *r, struct tep_record *rec);
int ns_trace_read_type_r(struct ns_trace_reader *r, const struct tep_record *rec);
bool ns_trace_needs_handle(struct ns_trace *trace, int type);
struct tep_record *ns_trace_read_handle(struct ns_trace *trace, int cpu, uint64_t off);
/* An export in steps, for several files merged (files.c). */
struct ns_export;
struct ns_export *ns_export_begin(struct ns_trace *trace, uint64_t first_row, uint64_t end_row,
				  int (*shown)(const void *arg, uint64_t row), const void *arg);
int ns_export_peek(struct ns_export *x, int *cpu, uint64_t *ts);
int ns_export_print(struct ns_export *x, FILE *out, const char *prefix);
/* Text that grows: @len bytes used of @cap at @p (NULL at first). */
struct ns_textbuf {
	char *p;
	size_t len, cap;
};
int ns_export_line(struct ns_export *x, struct ns_textbuf *tb, const char *prefix);
void ns_export_end(struct ns_export *x);
int ns_trace_report_cpus(const struct ns_trace *trace);
int ns_trace_print_locked(struct ns_trace *trace, struct tep_record *rec,
			  struct ns_event_text *txt, char *time_raw, size_t time_len);
/*
 * The time column of @rec (event slot @slot) as report pads it, into @buf;
 * @own false: by libtraceevent alone, else by format.c's own printer where
 * it agrees with libtraceevent (trace->own_time). The caller holds
 * trace->tep_lock. Returns the length.
 */
size_t ns_trace_time_text(struct ns_trace *trace, struct tep_record *rec, int slot, bool own,
			  char *buf, size_t len);

/*
 * gate.c: what a search's text can be in an event's info, from its print
 * format (ns_text_gate_new() is in trace.h). Under trace->tep_lock, for a
 * trace of one file. The event's name, NULL when libtraceevent does not
 * know the type; NS_GATE_NO when no info of @type can hold the text, else
 * NS_GATE_MAYBE; of the line whose @head (all but the info, @head_len
 * bytes) is known: NS_GATE_YES when the head holds it, NS_GATE_NO when
 * neither it nor the info nor both together can, else NS_GATE_MAYBE.
 */
const char *ns_text_gate_event(struct ns_text_gate *g, struct ns_trace *trace, int type);
int ns_text_gate_info(struct ns_text_gate *g, struct ns_trace *trace, int type);
int ns_text_gate_line(struct ns_text_gate *g, struct ns_trace *trace, int type, const char *head,
		      size_t head_len);
/*
 * Does @info match the pattern gate.c reads in @event's print format? 1, 0,
 * -ENOENT when its info may be anything (no pattern), or -ENOMEM (tests).
 */
int ns_text_gate_fits(const struct tep_event *event, const char *info);

#endif
