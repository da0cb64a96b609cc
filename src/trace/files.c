// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several files: `trace-cmd report -i a.dat -i b.dat` as --export prints
 * it. Each file is a trace of its own (struct ns_trace: its own handle,
 * tep, event ids, CPU slots and index, opened and indexed in parallel by
 * the caller), and the rows of all are merged here as report merges its
 * handles (tracecmd_iterate_events_multi()): the earliest timestamp
 * first, a tie to the earlier handle, then to the lower CPU. Report's
 * handles are the files' top buffers in the command line's order, then
 * the instances of each file in turn, so a file's instance ranks after
 * every file's top buffer. Within one file the trace's own order already
 * ties to the lower slot (top first), so merging the files' orders gives
 * report's. Each line starts with report's prefix: the file's base name
 * (its instances: the instance's name) right-aligned to the longest of
 * all and ": ". The header lines ("a.dat: cpus=2") are aligned to the
 * names report knows when it prints them: every file's base name and the
 * instance names of the files before. Each file's lines are formatted by
 * a thread of its own and merged by this one (export_parallel() below).
 *
 * Why not one index for all files: the index's 8-byte events keep a
 * type that is the file's own tep event id, and every reader (format,
 * filters, search, fields) reads a record through the trace's one handle
 * and tep. The export needs only the merge, so it keeps a trace per file.
 *
 * The viewer (not done): one struct ns_trace over the files' traces, as
 * instances are over one file's buffers. Its slots are the files' slots one
 * file after the other (file k's first slot = the slots of the files
 * before), so the index still stores nothing more per event; its cpus[]
 * borrow each file's per-slot arrays once indexed (never moved then), so
 * that the order (order.c, ties by report's rank of the slot's buffer,
 * ns_trace_tie_rank(), as here) and everything that reads
 * events, runs and rows work unchanged. Event types become the file's
 * type plus a base per file (the sum of the bases before plus the file's
 * largest id + 1), kept under NS_EV_TYPE_MAP; a read at (slot, idx) or of
 * a type goes to the file the slot or the base names, with its handle,
 * tep and lock. Names of streams: the file's label, with ":NAME" for an
 * instance when there is more than one file.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "trace-int.h"

/* The name report gives a file: what follows its last '/'. */
const char *ns_trace_file_label(const struct ns_trace *trace)
{
	const char *slash = strrchr(trace->path, '/');

	return slash ? slash + 1 : trace->path;
}

static int name_width(const struct ns_trace *trace)
{
	return trace->pages ? ns_pages_name_width(trace->pages) : 0;
}

struct head {
	struct ns_export *x;
	int have;		/* 1: a row peeked, 0: done */
	int cpu;
	uint64_t ts;
	int inst_base;		/* the rank of its first instance, less its stream */
};

/* Report's rank of @h's handle for @cpu: top buffers first, then instances. */
static int rank(const struct ns_trace *trace, const struct head *h, int k, int cpu)
{
	int s = ns_trace_cpu_stream(trace, cpu);

	return *ns_trace_stream_name(trace, s) ? h->inst_base + s : k;
}

/*
 * The export in parallel: a thread per file formats its rows (its trace,
 * tep, handle and cursors its own, touched by no other thread) into
 * chunks of lines, each line with its merge key (time, report's rank of
 * its handle), and the caller's thread merges the chunks by that key, as
 * the serial loop below merges the rows, writing runs of one file's lines
 * at once. libtraceevent's printing is per tep but for the plugins' own
 * state: the function plugin's stacks (ftrace's function events) and the
 * kvm plugin's disassembler are one per process, and trace-cmd's ftrace
 * handlers (function_graph) read ahead through the handle. So when two
 * files or more hold such events, the files are formatted by one thread.
 */
#define CHUNK_EVENTS	4096
#define CHUNKS_AHEAD	4		/* per file, formatted ahead of the merge */

/* Report's merge order: the earlier time first, then the lower rank (report's handle order). */
static inline bool key_before(uint64_t ts_a, int rank_a, uint64_t ts_b, int rank_b)
{
	return ts_a < ts_b || (ts_a == ts_b && rank_a < rank_b);
}

struct chunk {
	size_t n;
	uint64_t ts[CHUNK_EVENTS];
	int rank[CHUNK_EVENTS];
	size_t end[CHUNK_EVENTS];	/* line i: text[end[i - 1], end[i]) */
	struct ns_textbuf text;
};

struct worker {
	pthread_t tid;
	bool started;
	struct ns_trace *trace;
	struct head *h;
	int k;
	char **prefix;			/* per stream of the file */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk *ring;		/* CHUNKS_AHEAD */
	unsigned filled, taken;		/* chunks handed over, given back (under lock) */
	bool done, cancel;		/* under lock */
	int ret;			/* the worker's end: 0 or a negative errno */
};

static void *format_file(void *arg)
{
	struct worker *w = arg;
	struct ns_export *x = w->h->x;
	bool end = false;
	int ret = 0, cpu;
	uint64_t ts;

	while (!end) {
		struct chunk *c;

		pthread_mutex_lock(&w->lock);
		while (w->filled - w->taken == CHUNKS_AHEAD && !w->cancel)
			pthread_cond_wait(&w->cond, &w->lock);
		end = w->cancel;
		pthread_mutex_unlock(&w->lock);
		if (end)
			break;
		c = &w->ring[w->filled % CHUNKS_AHEAD];
		c->n = 0;
		c->text.len = 0;
		while (c->n < CHUNK_EVENTS) {
			ret = ns_export_peek(x, &cpu, &ts);
			if (ret <= 0 ||
			    (ret = ns_export_line(x, &c->text,
						  w->prefix[ns_trace_cpu_stream(w->trace, cpu)]))) {
				end = true;
				break;
			}
			c->ts[c->n] = ts;
			c->rank[c->n] = rank(w->trace, w->h, w->k, cpu);
			c->end[c->n++] = c->text.len;
		}
		pthread_mutex_lock(&w->lock);
		w->filled++;
		w->done = end;
		w->ret = ret < 0 ? ret : 0;
		pthread_cond_signal(&w->cond);
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

/* @w's next chunk of lines, or NULL at its end (w->ret then says how it ended). */
static struct chunk *next_chunk(struct worker *w)
{
	struct chunk *c = NULL;

	pthread_mutex_lock(&w->lock);
	while (w->filled == w->taken && !w->done)
		pthread_cond_wait(&w->cond, &w->lock);
	if (w->filled != w->taken)
		c = &w->ring[w->taken % CHUNKS_AHEAD];
	pthread_mutex_unlock(&w->lock);
	return c;
}

static void give_back(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->taken++;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* Does @t hold events that one of the process-wide printers prints (see above)? */
static bool prints_shared(struct ns_trace *t)
{
	static const char *const systems[] = { "ftrace", "kvm", "kvmmmu" };
	int cpu, i;
	size_t s;

	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct ns_events *e = &t->cpus[cpu].ev;

		if (!t->cpus[cpu].nr_events)
			continue;
		for (i = 0; i < e->nr_types + (int)e->nr_wide; i++) {
			int type = i < e->nr_types ? e->types[i] :
				ns_ev_wide_of(e, (uint32_t)(i - e->nr_types))->type;
			const char *sys = ns_trace_event_system(t, type);

			for (s = 0; s < NS_ARRAY_SIZE(systems); s++)
				if (!strcmp(sys, systems[s]))
					return true;
		}
	}
	return false;
}

/* The merge of the workers' chunks: 0 or a negative errno. */
static int merge_chunks(struct worker *w, int n, FILE *out)
{
	struct chunk **c = calloc((size_t)n, sizeof(*c));
	size_t *at = calloc((size_t)n, sizeof(*at));
	int k, ret = 0;

	if (!c || !at) {
		free(c);
		free(at);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++)
		c[k] = next_chunk(&w[k]);
	for (;;) {
		int best = -1, second = -1;
		size_t i, from;

		for (k = 0; k < n; k++) {
			/* a chunk read to its end: the next */
			while (c[k] && at[k] == c[k]->n) {
				give_back(&w[k]);
				c[k] = next_chunk(&w[k]);
				at[k] = 0;
			}
			if (!c[k]) {
				if (w[k].ret) {
					ret = w[k].ret;
					goto out;
				}
				continue;
			}
			if (best < 0 || key_before(c[k]->ts[at[k]], c[k]->rank[at[k]],
						   c[best]->ts[at[best]], c[best]->rank[at[best]])) {
				second = best;
				best = k;
			} else if (second < 0 ||
				   key_before(c[k]->ts[at[k]], c[k]->rank[at[k]],
					      c[second]->ts[at[second]], c[second]->rank[at[second]])) {
				second = k;
			}
		}
		if (best < 0)
			break;
		/* best's lines up to the next one that ranks after second's: one write */
		from = at[best];
		for (i = from + 1; i < c[best]->n; i++) {
			if (second >= 0 &&
			    key_before(c[second]->ts[at[second]], c[second]->rank[at[second]],
				       c[best]->ts[i], c[best]->rank[i]))
				break;
		}
		{
			size_t start = from ? c[best]->end[from - 1] : 0;
			size_t len = c[best]->end[i - 1] - start;

			if (fwrite(c[best]->text.p + start, 1, len, out) != len) {
				ret = -EIO;
				goto out;
			}
		}
		at[best] = i;
	}
out:
	free(c);
	free(at);
	return ret;
}

/* ns_trace_export_files()'s rows by a thread per file; @heads begun, nothing peeked. */
static int export_parallel(struct ns_trace *const *traces, int n, FILE *out, struct head *heads,
			   int width)
{
	struct worker *w = calloc((size_t)n, sizeof(*w));
	int k, s, ret = 0;

	if (!w)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		pthread_mutex_init(&w[k].lock, NULL);
		pthread_cond_init(&w[k].cond, NULL);
		w[k].trace = traces[k];
		w[k].h = &heads[k];
		w[k].k = k;
		w[k].ring = calloc(CHUNKS_AHEAD, sizeof(*w[k].ring));
		w[k].prefix = calloc((size_t)ns_trace_nr_streams(traces[k]), sizeof(*w[k].prefix));
		if (!w[k].ring || !w[k].prefix) {
			ret = -ENOMEM;
			goto out;
		}
		for (s = 0; s < ns_trace_nr_streams(traces[k]); s++) {
			const char *name = ns_trace_stream_name(traces[k], s);

			if (asprintf(&w[k].prefix[s], "%*s: ", width,
				     *name ? name : ns_trace_file_label(traces[k])) < 0) {
				w[k].prefix[s] = NULL;
				ret = -ENOMEM;
				goto out;
			}
		}
	}
	for (k = 0; k < n; k++) {
		if (pthread_create(&w[k].tid, NULL, format_file, &w[k])) {
			ret = -EAGAIN;
			goto out;
		}
		w[k].started = true;
	}
	ret = merge_chunks(w, n, out);
out:
	for (k = 0; k < n; k++) {
		if (w[k].started) {
			pthread_mutex_lock(&w[k].lock);
			w[k].cancel = true;
			pthread_cond_signal(&w[k].cond);
			pthread_mutex_unlock(&w[k].lock);
			pthread_join(w[k].tid, NULL);
		}
		for (s = 0; w[k].ring && s < CHUNKS_AHEAD; s++)
			free(w[k].ring[s].text.p);
		free(w[k].ring);
		for (s = 0; w[k].prefix && s < ns_trace_nr_streams(traces[k]); s++)
			free(w[k].prefix[s]);
		free(w[k].prefix);
		pthread_mutex_destroy(&w[k].lock);
		pthread_cond_destroy(&w[k].cond);
	}
	free(w);
	return ret;
}

int ns_trace_export_files(struct ns_trace *const *traces, int n, FILE *out,
			  int (*shown)(const void *arg, uint64_t row), const void *const *args)
{
	struct head *heads = calloc((size_t)(n > 0 ? n : 1), sizeof(*heads));
	char prefix[NS_TRACE_PREFIX_LEN + 4096];
	int width = 0, known, k, ret = 0, inst = n, shared = 0;

	if (!heads)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		int w = (int)strlen(ns_trace_file_label(traces[k]));

		width = w > width ? w : width;
		shared += prints_shared(traces[k]);
	}
	known = width;
	for (k = 0; k < n; k++) {
		fprintf(out, "%*s: cpus=%d\n", known, ns_trace_file_label(traces[k]),
			ns_trace_report_cpus(traces[k]));
		known = name_width(traces[k]) > known ? name_width(traces[k]) : known;
		heads[k].inst_base = inst;
		inst += ns_trace_nr_streams(traces[k]);
		heads[k].x = ns_export_begin(traces[k], 0, UINT64_MAX, shown,
					     args ? args[k] : NULL);
		if (!heads[k].x) {
			ret = -ENOMEM;
			goto out;
		}
	}
	width = known;
	if (n > 1 && shared < 2) {
		ret = export_parallel(traces, n, out, heads, width);
		goto out;
	}
	for (k = 0; k < n; k++) {
		ret = ns_export_peek(heads[k].x, &heads[k].cpu, &heads[k].ts);
		if (ret < 0)
			goto out;
		heads[k].have = ret;
	}
	for (;;) {
		int best = -1, best_rank = 0;
		const char *name;

		for (k = 0; k < n; k++) {
			int r;

			if (!heads[k].have)
				continue;
			r = rank(traces[k], &heads[k], k, heads[k].cpu);
			if (best < 0 || key_before(heads[k].ts, r, heads[best].ts, best_rank)) {
				best = k;
				best_rank = r;
			}
		}
		if (best < 0)
			break;
		name = ns_trace_stream_name(traces[best],
					    ns_trace_cpu_stream(traces[best], heads[best].cpu));
		snprintf(prefix, sizeof(prefix), "%*s: ", width,
			 *name ? name : ns_trace_file_label(traces[best]));
		ret = ns_export_print(heads[best].x, out, prefix);
		if (ret)
			goto out;
		ret = ns_export_peek(heads[best].x, &heads[best].cpu, &heads[best].ts);
		if (ret < 0)
			goto out;
		heads[best].have = ret;
	}
	ret = 0;
out:
	for (k = 0; k < n; k++)
		ns_export_end(heads[k].x);
	free(heads);
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
