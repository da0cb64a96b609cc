// SPDX-License-Identifier: GPL-2.0-only
/*
 * Indexing: one pass over every record builds the per-CPU arrays described
 * in trace-int.h (events, pages, runs, lost events) and the names sched
 * events give to tasks. The records come from the fast reader (pages.c),
 * which parses the ring-buffer pages itself, or, for files it does not read
 * exactly as libtracecmd does, from libtracecmd record by record. CPUs are
 * independent, so they are indexed in parallel, each thread taking the next
 * CPU not yet taken: on the fast path the threads share the trace's tep,
 * read-only (ns_index_prepare() fills its lazy tables first); on the
 * libtracecmd path each has its own handle (the first uses the trace's).
 * What needs the merged order (which name report prints where) is done
 * after, in one thread. All of it may run in the background (open.c).
 *
 * The fast path takes a page's records at once (ns_pages_iter_page(): the
 * reader decodes timestamps, pids and types in its walk of the page) and
 * makes a tep_record only for the sched events that name tasks; appending
 * an event is stores into the chunk (trace-int.h's inline
 * ns_events_append()); a task the saved cmdlines know is looked up in the
 * tep once per CPU, not under its lock at each sched event. Together,
 * against the record-by-record pass they replaced: huge6.dat (v6, 948 MB)
 * loads in 0.95 s instead of 1.44 s, 1.48 s of CPU instead of 2.40 (median
 * of 8 interleaved runs).
 *
 * Two workarounds for libtracecmd 1.3 serve the libtracecmd path. It maps a
 * CPU's whole data at once, so every page read would stay resident:
 * release_behind() hands pages already indexed back to the kernel. And it
 * keeps every chunk it decompresses from a v7 file: a thread reopens its
 * handle after its share of NS_RECYCLE_BYTES. The fast path needs neither.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "pages.h"
#include "trace-int.h"

#define NS_INDEX_MAX_THREADS 8

/* One indexing thread. */
struct worker {
	struct ns_trace *trace;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	struct sched_fields sched;
	uint64_t bytes_read, recycle_bytes;
	size_t sys_page;
	pthread_mutex_t *lock;
	int *next_cpu;
	const struct ns_pages *pages;	/* the fast reader, or NULL: libtracecmd */
	bool borrowed;		/* uses the trace's own handle (the first thread) */
	/* rounds (see index_rounds()): NULL resume when the CPUs are read whole */
	struct resume *resume;
	struct named_at *named;
	uint64_t round_end;
	struct round_merge *merge;	/* NULL: the rounds' merge is not the workers' */
	int ret;
};

/*
 * The merge of the round before (index_rounds()), for the first worker
 * that finds no CPU left to index in this one; under the workers' lock.
 */
struct round_merge {
	struct ns_order_stream *os;
	const uint64_t *end;
	bool pending;
	int ret;
};

/* Where a CPU's indexing stopped at the end of a round: its first record not indexed. */
struct resume {
	uint64_t page;		/* the record's page within its CPU */
	uint32_t off;		/* where its header starts in the page */
	bool finished;		/* the CPU's records are all indexed */
};

/* In rounds, a CPU's first namings (note_comm()), for the order's probes. */
struct named_at {
	uint64_t *idx;
	size_t n, cap, fed;	/* fed: those handed to the order already */
};

/* A name first given on some CPU to a task the saved cmdlines lack. */
struct comm_seen {
	struct ns_order_probe at;	/* where: its row comes from the order pass */
	uint64_t ts;			/* its time */
	int pid;
	char comm[NS_COMM_LEN];
};

/* NS_GROW() for one more element after the @nr there are. */
#define GROW(arr, nr, cap) NS_GROW(arr, cap, (size_t)(nr) + 1)

/* Drop the slack of the doubling growth. */
static void shrink(void **v, size_t *cap, uint64_t nr, size_t size)
{
	void *nv;

	if (!nr || nr == *cap)
		return;
	nv = realloc(*v, nr * size);
	if (nv) {
		*v = nv;
		*cap = nr;
	}
}

#define SHRINK(arr, nr, cap) shrink((void **)&(arr), &(cap), (nr), sizeof(*(arr)))

/* A fresh handle for @w (closing the one it had, or recycling the trace's). */
static int worker_open(struct worker *w)
{
	if (w->borrowed) {
		if (w->handle && ns_trace_recycle(w->trace))
			return -EIO;
		w->handle = w->trace->handle;
	} else {
		ns_trace_handle_close(w->handle);
		w->handle = NULL;
		if (ns_trace_reopen_handle(w->trace->path, &w->handle))
			return -EIO;
		ns_trace_set_ts_offset(w->trace, w->handle);
	}
	w->tep = tracecmd_get_tep(w->handle);
	ns_sched_fields_find(w->tep, &w->sched);
	w->bytes_read = 0;
	return 0;
}

/*
 * A sched event names a task: remember the comm for labels, and, for a pid
 * the saved cmdlines lack, this CPU's first naming (see apply_comms()).
 */
static int note_comm(struct worker *w, struct ns_cpu *c, uint64_t idx, uint64_t ts, int pid,
		     const char *comm)
{
	struct ns_task *task;

	if (pid <= 0)
		return 0;
	task = ns_tasks_get(&c->names, pid, true);
	if (!task)
		return -ENOMEM;
	if (comm[0]) {
		ns_comm_copy(task->comm, comm);
		task->last_ts = ts;
	}
	if (task->unknown_until == -1) {
		bool known;

		/* the screen may be printing events meanwhile, which registers names */
		pthread_mutex_lock(&w->trace->tep_lock);
		known = tep_is_pid_registered(w->tep, pid);
		pthread_mutex_unlock(&w->trace->tep_lock);
		/* a name once registered stays so: no lock for this task's next namings */
		task->unknown_until = known ? NS_TASK_KNOWN : (int64_t)idx;
		if (!known) {
			task->unknown_ts = ts;
			ns_comm_copy(task->report_comm, comm);
			if (w->named) {
				struct named_at *na = &w->named[c - w->trace->cpus];

				if (NS_GROW(na->idx, na->cap, na->n + 1))
					return -ENOMEM;
				na->idx[na->n++] = idx;
			}
		}
	}
	return 0;
}

static int add_run(struct ns_cpu *c, uint64_t ts, int pid, int kind)
{
	if (GROW(c->runs, c->nr_runs, c->cap_runs))
		return -ENOMEM;
	c->runs[c->nr_runs].start_ns = ts;
	c->runs[c->nr_runs].pid = pid;
	c->runs[c->nr_runs].kind = kind;
	c->nr_runs++;
	return 0;
}

/*
 * Event @idx (of @pid, at @ts) was recorded by the task running: lost
 * events before it end the run under way (who ran then is not known), and
 * a task other than the one running ran from this event on, with no
 * sched_switch to say so (struct ns_run). But not a stack trace (@stack):
 * written right after the event it belongs to, by its context (after a
 * sched_switch, with its prev_pid). A pid change the switches do not
 * explain is rare where sched_switch is recorded: 16 bytes each.
 */
static int note_runner(struct ns_cpu *c, uint64_t idx, uint64_t ts, int pid, bool lost,
		       bool stack)
{
	int ret;

	if (lost && idx && c->nr_runs && c->runs[c->nr_runs - 1].pid >= 0) {
		ret = add_run(c, c->last_ts, -1, NS_RUN_LOST);
		if (ret)
			return ret;
	}
	if (stack && c->nr_runs)
		return 0;
	if (!c->nr_runs || c->runs[c->nr_runs - 1].pid != pid)
		return add_run(c, ts, pid, NS_RUN_UNSEEN);
	return 0;
}

static int index_sched(struct worker *w, struct ns_cpu *c, uint64_t idx, int type,
		       struct tep_record *rec)
{
	struct ns_sched_name names[2];
	int n = ns_sched_names(&w->sched, type, rec, names), i, ret;

	if (n == 2 && (ret = add_run(c, rec->ts, names[1].pid, NS_RUN_SWITCH)))
		return ret;
	/* the plugin names prev before next, as report prints them */
	for (i = 0; i < n; i++)
		if (names[i].registers && (ret = note_comm(w, c, idx, rec->ts, names[i].pid,
							   names[i].comm)))
			return ret;
	return 0;
}

/* The page of a record at file offset @offset, in c->pages if event @idx starts it. */
NS_ALWAYS_INLINE int note_page(struct worker *w, struct ns_cpu *c, uint64_t offset, uint64_t idx)
{
	int page_size = w->trace->page_size;
	uint64_t page = offset & ~(uint64_t)(page_size - 1);

	if (c->nr_pages && c->pages[c->nr_pages - 1].offset == page)
		return 0;
	/* the fast path sized it in ns_index_prepare(): it does not move */
	if (GROW(c->pages, c->nr_pages, c->cap_pages))
		return -ENOMEM;
	c->pages[c->nr_pages].offset = page;
	c->pages[c->nr_pages].first_idx = idx;
	atomic_store_explicit(&c->nr_pages, c->nr_pages + 1, memory_order_release);
	w->bytes_read += page_size;
	return 0;
}

/*
 * Event @idx of @c: its time, pid and type, and the lost events before it.
 * @rec is its record, for the sched events' names and --summary's capture;
 * NULL where neither needs it (the fast path makes none then).
 */
NS_ALWAYS_INLINE int index_event(struct worker *w, struct ns_cpu *c, uint64_t idx, uint64_t ts, int pid,
			     int type, long long missed, struct tep_record *rec)
{
	int ret;

	if (missed) {
		if (GROW(c->missed, c->nr_missed, c->cap_missed))
			return -ENOMEM;
		c->missed[c->nr_missed].idx = idx;
		c->missed[c->nr_missed].count = missed;
		c->nr_missed++;
	}
	if (idx && ts < c->last_ts)
		c->unsorted = true;
	ret = note_runner(c, idx, ts, pid, missed != 0,
			  type == w->sched.stack_type[0] || type == w->sched.stack_type[1]);
	if (ret)
		return ret;
	c->last_ts = ts;
	ret = ns_events_append(&c->ev, idx, ts, pid, type);
	if (ret)
		return ret;
	atomic_store_explicit(&c->nr_events, idx + 1, memory_order_release);
	if (!rec)
		return 0;
	ret = index_sched(w, c, idx, type, rec);
	if (!ret && w->trace->capture)	/* --summary: the sched fields, from this one read */
		ret = ns_sched_capture_one(w->trace, (int)(c - w->trace->cpus), idx, type, rec);
	return ret;
}

/* The libtracecmd path: one record; @type and @pid are its common fields. */
static int index_one(struct worker *w, struct ns_cpu *c, struct tep_record *rec, int type, int pid)
{
	int page_size = w->trace->page_size;
	uint64_t idx = c->nr_events;
	int ret;

	/* no readers yet on this path: the arrays may move */
	if (ns_events_reserve(&c->ev, idx + 1) ||
	    NS_GROW(c->page_offs, c->cap_page_offs, idx + 1))
		return -ENOMEM;
	c->page_offs[idx] = (uint16_t)(rec->offset & (page_size - 1));
	ret = note_page(w, c, rec->offset, idx);
	if (ret)
		return ret;
	return index_event(w, c, idx, rec->ts, pid, type, rec->missed_events, rec);
}

static int index_record(struct worker *w, struct ns_cpu *c, struct tep_record *rec)
{
	return index_one(w, c, rec, tep_data_type(w->tep, rec), tep_data_pid(w->tep, rec));
}

/*
 * For the tests of the screen while indexing (tests/loading.sh): the open's
 * hold_index option keeps indexing past each CPU's first page for as long
 * as it says, so that a test sees the trace half-indexed without timing
 * anything.
 */
static void ns_index_hold(struct ns_trace *trace, uint64_t page)
{
	const struct ns_trace_open_opts *o = &trace->opts;
	struct timespec ms = { 0, 1000000 };

	if (!o->hold_index || page < 1)
		return;
	while (o->hold_index(o->hold_arg) &&
	       !atomic_load_explicit(&trace->cancel, memory_order_relaxed))
		nanosleep(&ms, NULL);
}

/*
 * The fast path's event: record @r of @pg, with the lost events before it
 * (@missed), as event @idx. A tep_record is made only for the events that
 * name tasks (and for --summary's capture).
 */
static int index_page_rec(struct worker *w, struct ns_cpu *c, const struct ns_pages_page *pg,
			  const struct ns_pages_rec *r, long long missed, uint64_t idx)
{
	struct tep_record rec;

	if (!ns_sched_names_type(&w->sched, r->type) && !w->trace->capture)
		return index_event(w, c, idx, r->ts_ns, r->pid, r->type, missed, NULL);
	rec = (struct tep_record){
		.ts = r->ts_ns,
		.offset = pg->offset + r->off,
		.missed_events = missed,
		.size = (int)r->size,
		.data = (void *)(pg->data + r->data_off),
		.cpu = pg->cpu,
	};
	return index_event(w, c, idx, r->ts_ns, r->pid, r->type, missed, &rec);
}

/* The fast path: records straight from the pages (see pages.c), a page at a time. */
static int index_cpu_pages(struct worker *w, int cpu)
{
	struct ns_cpu *c = &w->trace->cpus[cpu];
	struct resume *rs = w->resume ? &w->resume[cpu] : NULL;
	struct ns_pages_iter *it;
	struct ns_pages_page pg;
	int ret;

	if (rs && rs->finished)
		return 0;
	it = ns_pages_iter_open(w->pages, cpu, rs ? rs->page : 0, UINT64_MAX);
	if (!it)
		return -ENOMEM;
	while ((ret = ns_pages_iter_page(it, &pg)) == 1) {
		uint32_t k = 0;

		/* indexed in a round before: the page is read again from its start */
		if (rs && pg.page == rs->page)
			while (k < pg.nr && pg.recs[k].off < rs->off)
				k++;
		for (; k < pg.nr; k++) {
			const struct ns_pages_rec *r = &pg.recs[k];
			uint64_t idx = c->nr_events;

			/* the next round's: stop before it */
			if (rs && r->ts_ns >= w->round_end) {
				rs->page = pg.page;
				rs->off = r->off;
				ret = 1;
				goto out;
			}
			if (pg.page != c->done_pages) {
				/* a new page: say how far we are, and stop if asked to */
				if (atomic_load_explicit(&w->trace->cancel, memory_order_relaxed)) {
					ret = -ECANCELED;
					goto out;
				}
				ns_index_hold(w->trace, pg.page);
				atomic_store_explicit(&c->done_pages, pg.page, memory_order_relaxed);
			}
			ret = note_page(w, c, pg.offset + r->off, idx);
			if (ret)
				goto out;
			ret = index_page_rec(w, c, &pg, r, k ? 0 : pg.missed, idx);
			if (ret)
				goto out;
		}
	}
out:
	if (rs && ret == 1) {
		ret = 0;	/* stopped at the round's end */
	} else if (!ret) {
		atomic_store_explicit(&c->done_pages, ns_pages_nr_pages(w->pages, cpu),
				      memory_order_relaxed);
		if (rs)
			rs->finished = true;
	}
	ns_pages_iter_close(it);
	return ns_trace_read_failed(w->trace, ret);
}

/*
 * Where the pages read so far lie in libtracecmd's mapping. Only a run in
 * which record data addresses advance exactly as file offsets do is known
 * to be one linear mapping; any other step starts a new run.
 */
struct behind {
	char *base;		/* first byte of the run */
	char *last;		/* data of the last record seen */
	uint64_t last_off;	/* and its offset */
	size_t released;	/* bytes from base already given back */
};

#define NS_RELEASE_STEP (8u << 20)

/* Give back the run's pages before @rec's page; @rec keeps its map alive. */
static void release_behind(struct behind *b, struct tep_record *rec, size_t sys_page)
{
	char *data = rec->data;
	uintptr_t end;

	if (!b->base || data < b->last || (uint64_t)(data - b->last) != rec->offset - b->last_off) {
		b->base = (char *)(((uintptr_t)data + sys_page - 1) & ~(uintptr_t)(sys_page - 1));
		b->released = 0;
	}
	b->last = data;
	b->last_off = rec->offset;
	end = ((uintptr_t)data & ~(uintptr_t)(sys_page - 1)) - sys_page;
	if (end > (uintptr_t)b->base + b->released + NS_RELEASE_STEP) {
		madvise(b->base + b->released, end - (uintptr_t)b->base - b->released,
			MADV_DONTNEED);
		b->released = end - (uintptr_t)b->base;
	}
}

static int index_cpu_tracecmd(struct worker *w, int cpu)
{
	struct ns_cpu *c = &w->trace->cpus[cpu];
	struct behind behind = { 0 };
	struct tep_record *rec;
	int ret = 0;

	errno = 0;
	for (rec = tracecmd_read_cpu_first(w->handle, cpu); rec;
	     rec = tracecmd_read_data(w->handle, cpu)) {
		uint64_t off = rec->offset;

		ret = index_record(w, c, rec);
		if (!ret)
			release_behind(&behind, rec, w->sys_page);
		tracecmd_free_record(rec);
		if (ret)
			return ret;
		if (w->trace->compressed && w->bytes_read > w->recycle_bytes) {
			/* start afresh and go on after the last record indexed */
			ret = worker_open(w);
			if (ret)
				return ret;
			memset(&behind, 0, sizeof(behind));
			rec = tracecmd_read_at(w->handle, off, NULL);
			if (!rec)
				return -EIO;
			tracecmd_free_record(rec);
		}
		errno = 0;
	}
	/*
	 * libtracecmd ends a CPU's records with NULL both at the end and when
	 * it cannot map the next page (out of memory or address space): only
	 * errno tells them apart, and a short index must not pass for a trace.
	 */
	if (errno == ENOMEM)
		return -ENOMEM;
	return 0;
}

static int index_cpu(struct worker *w, int cpu)
{
	struct ns_cpu *c = &w->trace->cpus[cpu];
	int ret;

	if (w->resume && w->resume[cpu].finished)
		return 0;	/* all indexed in a round before */
	ret = w->pages ? index_cpu_pages(w, cpu) : index_cpu_tracecmd(w, cpu);
	/* in rounds, a CPU goes on in the next one (its chunk still the writer's) */
	if (!ret && w->resume && !w->resume[cpu].finished)
		return 0;
	ns_events_done(&c->ev);
	if (ret)
		return ret;
	if (!w->pages) {
		SHRINK(c->page_offs, c->nr_events, c->cap_page_offs);
		SHRINK(c->pages, c->nr_pages, c->cap_pages);
	}
	SHRINK(c->runs, c->nr_runs, c->cap_runs);
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int cpu;

	/* the fast path shares the trace's tep, read-only, and needs no handle */
	w->ret = w->pages ? 0 : worker_open(w);
	while (!w->ret) {
		pthread_mutex_lock(w->lock);
		cpu = (*w->next_cpu)++;
		pthread_mutex_unlock(w->lock);
		if (cpu >= w->trace->nr_cpus)
			break;
		w->ret = index_cpu(w, cpu);
	}
	if (w->merge && !w->ret) {
		bool take;

		pthread_mutex_lock(w->lock);
		take = w->merge->pending;
		w->merge->pending = false;
		pthread_mutex_unlock(w->lock);
		if (take)
			w->merge->ret = ns_order_stream_run(w->merge->os, w->merge->end);
	}
	if (w->pages)
		return NULL;
	if (w->borrowed)
		w->trace->bytes_read = w->bytes_read;
	else
		ns_trace_handle_close(w->handle);
	return NULL;
}


/*
 * Rounds. Under a budget that the index will not fit in, the chunks
 * written first are dropped before the end, and an order pass after the
 * index (ns_order_build()) would read every one of them again from the
 * file: on a 29.6 M-event trace under 32 MiB, 1.25 s where the whole index
 * takes 0.26 s. So the fast path indexes the trace a stretch of time at a
 * time: the threads take every CPU up to the round's end (each CPU stops
 * before its first record at or after it, and the next round reads that
 * record's page again from its start, skipping what it indexed), and while
 * they go on to the next round this thread merges the round before, whose
 * chunks are the last written (ns_order_stream_run()). The rounds cut the
 * trace's span (its first and last pages' timestamps) into equal times,
 * as many as make each round's index about a quarter of the budget if the
 * events are spread evenly; where they are not, a round may lose chunks
 * before they are merged, which only costs their reading again. The
 * stretches merged one after the other are the order merged whole even
 * where a CPU's time goes back: each CPU's part of a round is a start of
 * what is left of it, every event in it is before the round's end, and
 * every CPU's next event is at or after it, so the whole merge, which
 * takes the least next event, takes all of a round's before any later one.
 * Example, budget 32 MiB, 1.1 GB of pages (about 280 MB of index at 8
 * bytes a record of 32): 35 rounds of about 8 MB.
 */
#define NS_INDEX_MAX_ROUNDS	4096

static int nr_rounds(const struct ns_trace *trace)
{
	const struct ns_evpool *pool = trace->evpool;
	uint64_t budget, est;

	if (!trace->pages || trace->span_last <= trace->span_first)
		return 1;
	if (trace->opts.index_rounds > 0)	/* the tests' */
		return trace->opts.index_rounds > NS_INDEX_MAX_ROUNDS ? NS_INDEX_MAX_ROUNDS :
		       trace->opts.index_rounds;
	if (!pool || !pool->reload || pool->max_bufs == SIZE_MAX)
		return 1;
	budget = (uint64_t)pool->max_bufs * sizeof(struct ns_ev_chunk);
	est = trace->total_pages * (uint64_t)trace->page_size / 4;
	if (est <= budget)
		return 1;
	est = (4 * est + budget - 1) / budget;
	return est > NS_INDEX_MAX_ROUNDS ? NS_INDEX_MAX_ROUNDS : (int)est;
}

static uint64_t round_end(const struct ns_trace *trace, int r, int nr)
{
	unsigned __int128 span = trace->span_last - trace->span_first + 1;

	return r >= nr ? UINT64_MAX : trace->span_first + (uint64_t)(span * (unsigned)r / (unsigned)nr);
}

static int index_rounds(struct ns_trace *trace, struct worker *workers, int nr, int rounds,
			int *next_cpu)
{
	int ncpu = trace->nr_cpus, r, i, cpu, ret = 0, merged = 0;
	struct resume *rs = calloc((size_t)ncpu, sizeof(*rs));
	struct named_at *named = calloc((size_t)ncpu, sizeof(*named));
	uint64_t *end = calloc((size_t)ncpu, sizeof(*end));
	struct ns_order_stream *os = ns_order_stream_new(trace);
	struct round_merge rm = { .os = os, .end = end };
	pthread_t threads[NS_INDEX_MAX_THREADS];
	bool started[NS_INDEX_MAX_THREADS];

	if (!rs || !named || !end || !os) {
		ret = -ENOMEM;
		goto out;
	}
	for (r = 1; r <= rounds && !ret; r++) {
		*next_cpu = 0;
		/*
		 * The round before is merged while they index this one: by the
		 * first of two or more workers to run out of CPUs, so that the
		 * CPU with the most events keeps a core to itself (a third
		 * thread would take a share of it, on a machine of two); by
		 * this thread beside a single worker.
		 */
		rm.pending = r > 1 && nr > 1;
		rm.ret = 0;
		for (i = 0; i < nr; i++) {
			workers[i].resume = rs;
			workers[i].named = named;
			workers[i].round_end = round_end(trace, r, rounds);
			workers[i].merge = nr > 1 ? &rm : NULL;
			started[i] = !pthread_create(&threads[i], NULL, worker_main, &workers[i]);
		}
		merged = 0;
		if (r > 1 && nr == 1)
			merged = ns_order_stream_run(os, end);
		for (i = 0; i < nr; i++) {
			if (started[i])
				pthread_join(threads[i], NULL);
			else
				worker_main(&workers[i]);
			if (workers[i].ret && !ret)
				ret = workers[i].ret;
		}
		if (rm.pending && !ret) {
			/* no worker took it (a worker failed) */
			rm.pending = false;
			rm.ret = ns_order_stream_run(os, end);
		}
		if (nr > 1)
			merged = rm.ret;
		if (merged && !ret)
			ret = merged;
		for (cpu = 0; cpu < ncpu && !ret; cpu++) {
			end[cpu] = trace->cpus[cpu].nr_events;
			for (; named[cpu].fed < named[cpu].n && !ret; named[cpu].fed++)
				ret = ns_order_stream_probe(os, cpu, named[cpu].idx[named[cpu].fed]);
		}
	}
	if (!ret)
		ret = ns_order_stream_run(os, end);
	for (cpu = 0; !ret && cpu < ncpu; cpu++)
		if (!rs[cpu].finished)
			ret = -EIO;	/* cannot be: the last round ends at UINT64_MAX */
	if (!ret) {
		trace->order_stream = os;
		os = NULL;
	}
out:
	for (i = 0; i < nr; i++) {
		workers[i].resume = NULL;
		workers[i].named = NULL;
		workers[i].merge = NULL;
	}
	for (cpu = 0; named && cpu < ncpu; cpu++)
		free(named[cpu].idx);
	free(named);
	free(rs);
	free(end);
	ns_order_stream_free(os);
	return ret;
}

static int index_cpus(struct ns_trace *trace)
{
	struct worker workers[NS_INDEX_MAX_THREADS];
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	struct rlimit as;
	struct ns_pages *pages = trace->pages;
	int nr = trace->nr_cpus, i, next_cpu = 0, ret = 0;
	pthread_t threads[NS_INDEX_MAX_THREADS];
	bool started[NS_INDEX_MAX_THREADS] = { 0 };

	if (nr > online)
		nr = online > 0 ? (int)online : 1;
	if (nr > NS_INDEX_MAX_THREADS)
		nr = NS_INDEX_MAX_THREADS;
	/*
	 * Each handle maps whole CPUs' data: under an address-space limit
	 * (ulimit -v) one handle is all we can afford, and libtraceevent
	 * crashes on the failed allocations that more would cause.
	 */
	if (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY)
		nr = 1;
	if (nr < 1)
		return 0;
	/* the threads share the trace's tep, unlocked: see fill_tep_tables() */
	for (i = 0; i < nr; i++) {
		memset(&workers[i], 0, sizeof(workers[i]));
		workers[i].pages = pages;
		if (pages) {
			workers[i].tep = trace->tep;
			ns_sched_fields_find(trace->tep, &workers[i].sched);
		}
		workers[i].trace = trace;
		workers[i].lock = &lock;
		workers[i].next_cpu = &next_cpu;
		workers[i].sys_page = (size_t)sysconf(_SC_PAGESIZE);
		/*
		 * Together the threads keep at most NS_RECYCLE_BYTES of leaked
		 * chunks. Each reopen costs a header parse (0.1 s with a 5 MB
		 * kallsyms), but memory is what our users' boards lack.
		 */
		workers[i].recycle_bytes = NS_RECYCLE_BYTES / nr;
	}
	workers[0].borrowed = true;
	trace->index_rounds = pages ? nr_rounds(trace) : 1;
	if (trace->index_rounds > 1)
		return index_rounds(trace, workers, nr, trace->index_rounds, &next_cpu);
	for (i = 1; i < nr; i++)
		started[i] = !pthread_create(&threads[i], NULL, worker_main, &workers[i]);
	worker_main(&workers[0]);
	for (i = 1; i < nr; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
	for (i = 0; i < nr; i++)
		if (workers[i].ret && !ret)
			ret = workers[i].ret;
	return ret;
}

static int cmp_comm_seen_pos(const void *a, const void *b)
{
	const struct comm_seen *x = a, *y = b;

	if (x->at.cpu != y->at.cpu)
		return x->at.cpu < y->at.cpu ? -1 : 1;
	if (x->at.idx != y->at.idx)
		return x->at.idx < y->at.idx ? -1 : 1;
	return 0;
}

static int cmp_comm_seen_row(const void *a, const void *b)
{
	const struct comm_seen *x = a, *y = b;

	if (x->at.row != y->at.row)
		return x->at.row < y->at.row ? -1 : 1;
	return 0;
}

/*
 * Fold the CPUs' name tables into the trace's task table (the latest comm,
 * for labels) and list each CPU's first naming of a task the saved cmdlines
 * lack, sorted by position, for the order pass to give them rows.
 */
static int collect_comms(struct ns_trace *trace, struct comm_seen **out, size_t *nr)
{
	struct comm_seen *seen = NULL;
	size_t n = 0, cap = 0, i;
	int cpu;

	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		struct ns_tasks *names = &trace->cpus[cpu].names;

		for (i = 0; i < names->cap; i++) {
			const struct ns_task *t = &names->slots[i];
			struct ns_task *g;

			if (!t->pid)
				continue;
			g = ns_tasks_get(&trace->tasks, t->pid, true);
			if (!g)
				goto nomem;
			if (t->comm[0] && (!g->comm[0] || t->last_ts >= g->last_ts)) {
				memcpy(g->comm, t->comm, sizeof(g->comm));
				g->last_ts = t->last_ts;
			}
			if (t->unknown_until < 0)
				continue;
			if (NS_GROW(seen, cap, n + 1))
				goto nomem;
			seen[n].at.cpu = cpu;
			seen[n].at.idx = (uint64_t)t->unknown_until;
			seen[n].ts = t->unknown_ts;
			seen[n].pid = t->pid;
			memcpy(seen[n].comm, t->report_comm, sizeof(seen[n].comm));
			n++;
		}
		ns_tasks_free(names);
	}
	if (n)
		qsort(seen, n, sizeof(*seen), cmp_comm_seen_pos);
	*out = seen;
	*nr = n;
	return 0;
nomem:
	free(seen);
	return -ENOMEM;
}

/*
 * libtraceevent's sched_switch plugin registers the comms it prints (first
 * name wins), so `trace-cmd report` shows "<...>" for a task the saved
 * cmdlines lack until a sched event has named it. Replay that in report's
 * order now, once, so that formatting rows later in any order gives the same
 * names.
 */
static int cmp_comm_seen_pid(const void *a, const void *b)
{
	const struct comm_seen *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int apply_comms(struct ns_trace *trace, struct comm_seen *seen, size_t n)
{
	size_t i, k = 0;
	int ret = 0;

	/* the first naming of each task wins: keep those, at the front */
	/* seen is NULL when no task was named, and qsort(NULL, 0) is undefined */
	if (n)
		qsort(seen, n, sizeof(*seen), cmp_comm_seen_row);
	for (i = 0; i < n; i++) {
		struct ns_task *task = ns_tasks_get(&trace->tasks, seen[i].pid, true);

		if (!task)
			return -ENOMEM;
		if (task->unknown_until != -1)
			continue;
		task->unknown_until = (int64_t)seen[i].at.row;
		/* (read back from the index, the chunks dropped would load again) */
		task->unknown_cpu = seen[i].at.cpu;
		task->unknown_ts = seen[i].ts;
		memcpy(task->report_comm, seen[i].comm, sizeof(task->report_comm));
		seen[k++] = seen[i];
	}
	/*
	 * libtraceevent keeps its names in an array sorted by pid and inserts
	 * each one in its place: in pid order most go at the end.
	 */
	if (k)
		qsort(seen, k, sizeof(*seen), cmp_comm_seen_pid);
	pthread_mutex_lock(&trace->tep_lock);
	/* make libtraceevent build its sorted table before we add to it */
	tep_data_comm_from_pid(trace->tep, 0);
	for (i = 0; i < k; i++)
		tep_register_comm(trace->tep, seen[i].comm, seen[i].pid);
	pthread_mutex_unlock(&trace->tep_lock);
	return ret;
}

/* The first and last timestamp of @cpu's records, from its first and last pages. */
static void cpu_span(const struct ns_pages *pages, int cpu, uint64_t *first, uint64_t *last)
{
	struct ns_pages_iter *it = ns_pages_iter_open(pages, cpu, 0, UINT64_MAX);
	uint64_t n = ns_pages_nr_pages(pages, cpu), p, tries;
	struct ns_pages_record r;

	if (!it)
		return;
	if (ns_pages_iter_next(it, &r) == 1 && r.ts_ns < *first)
		*first = r.ts_ns;
	/* the last pages may be empty: look back a few */
	for (p = n, tries = 0; p-- > 0 && tries < 64; tries++) {
		bool any = false;

		ns_pages_iter_seek(it, p, p + 1);
		while (ns_pages_iter_next(it, &r) == 1) {
			any = true;
			if (r.ts_ns > *last)
				*last = r.ts_ns;
		}
		if (any)
			break;
	}
	ns_pages_iter_close(it);
}

/*
 * libtraceevent has no lock of its own, and some lookups write the tep
 * handle the first time: tep_data_comm_from_pid() and
 * tep_is_pid_registered() sort the saved cmdlines into a table on first
 * use. Threads that read the tep without trace->tep_lock call those: the
 * indexing threads of the fast path (below), and the threads of a parallel
 * filter pass (src/model/visible.c), whose tep_filter_match() looks comms
 * up for COMM. So the tables are made here, in one thread, before any of
 * those starts; trace->tep_shared says it is done, and ns_trace_reader_new(),
 * which every such thread needs, hands out no reader before
 * (tests/unit/test_filter.c checks it). Whatever else libtraceevent fills
 * lazily must be filled here too before a thread reads it unlocked.
 */
static void fill_tep_tables(struct ns_trace *trace)
{
	tep_data_comm_from_pid(trace->tep, 0);
	tep_is_pid_registered(trace->tep, 1);
	trace->tep_shared = true;
}

/**
 * ns_index_open_pages - open the fast reader on the buffers asked for
 * Where it reads the file, trace->nr_cpus becomes the CPUs of all the
 * buffers read (slots, see pages.h); else libtracecmd reads the top
 * buffer. Buffers asked for by name that cannot be read are an error, and
 * so is a file with instances it cannot read (the top buffer alone would
 * be a short trace).
 * Returns 0 or a negative errno with the reason in @err.
 */
int ns_index_open_pages(struct ns_trace *trace, char *err, size_t err_len)
{
	const char *const *want = trace->opts.buffers;
	int nr_want = trace->opts.nr_buffers;
	const char **have = NULL;
	char why[128];

	/* several files: the names this file has (none: all its buffers) */
	if (trace->opts.buffers_if_present && nr_want && trace->handle) {
		int nr_inst = tracecmd_buffer_instances(trace->handle), n = 0;

		have = calloc((size_t)nr_want, sizeof(*have));
		if (!have) {
			ns_set_nomem(err, err_len);
			return -ENOMEM;
		}
		for (int i = 0; i < nr_want; i++) {
			bool found = !strcmp(want[i], NS_PAGES_TOP_NAME);

			for (int j = 0; j < nr_inst && !found; j++) {
				const char *name = tracecmd_buffer_instance_name(trace->handle, j);

				found = name && !strcmp(name, want[i]);
			}
			if (found)
				have[n++] = want[i];
		}
		want = have;
		nr_want = n;
	}
	trace->pages = ns_pages_open_buffers(trace->path, trace->tep, nr_want ? want : NULL,
					     nr_want, why, sizeof(why));
	free(have);
	if (trace->pages && ns_pages_top_cpus(trace->pages) != trace->nr_cpus) {
		snprintf(why, sizeof(why), "the top buffer's CPUs are not libtracecmd's");
		ns_pages_close(trace->pages);
		trace->pages = NULL;
	}
	/* libtracecmd reads the top buffer only: never show a file short of its instances */
	if (!trace->pages && (nr_want ||
			      (trace->handle && tracecmd_buffer_instances(trace->handle) > 0))) {
		ns_set_err(err, err_len, "cannot read buffers: %s", why);
		return -ENOTSUP;
	}
	if (trace->pages)
		trace->nr_cpus = ns_pages_nr_cpus(trace->pages);
	if (trace->pages && trace->opts.has_ts_offset)
		ns_pages_set_ts_offset(trace->pages, trace->opts.ts_offset);
	return 0;
}

/*
 * The pool's reload function (events.c): chunk @ci of a CPU read again by
 * the fast reader, from the page that holds its first event, skipping the
 * records of that page before it.
 */
static int reload_chunk(void *arg, struct ns_events *e, uint64_t ci, struct ns_ev_chunk *ch,
			const uint16_t *map, uint32_t *wide)
{
	struct ns_trace *trace = arg;
	const struct ns_cpu *c = &trace->cpus[e->cpu];
	uint64_t first = ci << NS_EV_CHUNK_SHIFT, nr = ns_trace_cpu_nr_events(trace, e->cpu);
	uint64_t p = ns_cpu_page_of(c, first), skip = first - c->pages[p].first_idx, page;
	struct ns_pages_record r;
	struct ns_pages_iter *it;
	uint32_t i, n;
	int ret = 0;

	if (first >= nr)
		return -ERANGE;
	__atomic_fetch_add(&trace->chunk_reloads, 1, __ATOMIC_RELAXED);
	n = nr - first < NS_EV_CHUNK ? (uint32_t)(nr - first) : NS_EV_CHUNK;
	/* page offsets grow by a page per page from the CPU's first */
	page = (c->pages[p].offset - ns_pages_page_offset(trace->pages, e->cpu, 0)) /
	       (uint64_t)trace->page_size;
	it = ns_pages_iter_open(trace->pages, e->cpu, page, UINT64_MAX);
	if (!it)
		return -ENOMEM;
	for (; skip && (ret = ns_pages_iter_next(it, &r)) == 1; skip--)
		;
	for (i = 0; i < n && (ret = ns_pages_iter_next(it, &r)) == 1; i++) {
		/* a file rewritten in place: its ends are not the chunk's */
		if ((!i && r.ts_ns != e->first_ts[ci]) || (i == n - 1 && r.ts_ns != e->last_ts[ci])) {
			ret = -ESTALE;
			break;
		}
		ns_events_fill(e, ch, i, r.ts_ns, r.pid, r.type, map, wide);
	}
	ns_pages_iter_close(it);
	if (ret < 0)
		return ret;
	return i == n ? 0 : -ESTALE;
}

/**
 * ns_index_prepare - what indexing needs, and what can be known before it
 * Opens the fast reader where it reads the file as libtracecmd does (else
 * libtracecmd reads it), sizes the per-CPU arrays that must not move while
 * readers look at them, and finds the trace's time span from each CPU's
 * first and last pages. Returns 0 or a negative errno.
 */
int ns_index_prepare(struct ns_trace *trace)
{
	uint64_t budget = trace->opts.index_memory ? trace->opts.index_memory :
			  ns_trace_default_index_memory();
	int i;

	/* more than the address space (32-bit) is all of it, not a wrap to little */
	if (budget > SIZE_MAX)
		budget = SIZE_MAX;
	/* only the fast reader can read a chunk again: else all stay in memory */
	trace->evpool = ns_evpool_new((size_t)budget, trace->nr_cpus,
				      trace->pages ? reload_chunk : NULL, trace);
	if (!trace->evpool)
		return -ENOMEM;
	trace->span_first = UINT64_MAX;
	for (i = 0; i < trace->nr_cpus; i++) {
		struct ns_cpu *c = &trace->cpus[i];
		/* a record takes 8 bytes of a page at least */
		uint64_t pages = trace->pages ? ns_pages_nr_pages(trace->pages, i) : 0;

		if (ns_events_init(&c->ev, pages * (uint64_t)(trace->page_size / 8)))
			return -ENOMEM;
		ns_events_set_pool(&c->ev, trace->evpool, i);
		if (pages) {
			c->pages = malloc(pages * sizeof(*c->pages));
			if (!c->pages)
				return -ENOMEM;
			c->cap_pages = pages;
		}
		trace->total_pages += pages;
		if (trace->pages)
			cpu_span(trace->pages, i, &trace->span_first, &trace->span_last);
	}
	if (trace->span_first == UINT64_MAX)
		trace->span_first = trace->span_last = 0;
	fill_tep_tables(trace);
	return 0;
}

/**
 * ns_index_build - index every event of the trace
 * Returns 0 or a negative errno.
 */
int ns_index_build(struct ns_trace *trace)
{
	struct ns_order_probe *probes;
	struct comm_seen *seen = NULL;
	size_t nr_seen = 0, i;
	int cpu, ret;

	ret = index_cpus(trace);
	if (ret)
		return ret;
	trace->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		struct ns_cpu *c = &trace->cpus[cpu];

		trace->nr_events += c->nr_events;
		if (!c->nr_events)
			continue;
		if (ns_ev_ts(&c->ev, 0) < trace->first_ns)
			trace->first_ns = ns_ev_ts(&c->ev, 0);
		if (ns_ev_ts(&c->ev, c->nr_events - 1) > trace->last_ns)
			trace->last_ns = ns_ev_ts(&c->ev, c->nr_events - 1);
	}
	if (!trace->nr_events)
		trace->first_ns = 0;
	ret = collect_comms(trace, &seen, &nr_seen);
	/* the order pass gives the namings their rows: an array of its probes */
	probes = ret ? NULL : malloc((nr_seen ? nr_seen : 1) * sizeof(*probes));
	if (!probes) {
		ns_order_stream_free(trace->order_stream);
		trace->order_stream = NULL;
		free(seen);
		return ret ? ret : -ENOMEM;
	}
	for (i = 0; i < nr_seen; i++)
		probes[i] = seen[i].at;
	if (trace->order_stream) {
		/* built while indexing (index_rounds()) */
		ret = ns_order_stream_finish(trace->order_stream, probes, nr_seen);
		ns_order_stream_free(trace->order_stream);
		trace->order_stream = NULL;
	} else {
		ret = ns_order_build(trace, probes, nr_seen);
	}
	for (i = 0; !ret && i < nr_seen; i++)
		seen[i].at.row = probes[i].row;
	if (!ret)
		ret = apply_comms(trace, seen, nr_seen);
	free(probes);
	free(seen);
	return ret;
}
