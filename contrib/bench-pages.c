// SPDX-License-Identifier: GPL-2.0-only
/*
 * How fast the page reader (src/trace/layout.c, pages.c) goes through a whole trace:
 * every record of every CPU visited, its pid and event type read, nothing
 * kept, as ../shared/bench's libtracecmd-scan does. Built and run by
 * contrib/bench-pages.sh, never by `make test`. head_s is libtracecmd's
 * header parse (the formats the reader borrows), open_s the reader's own,
 * scan_s the pass; cpu_s is the process's CPU time, all of it.
 *
 *   bench-pages FILE [THREADS]
 *
 * THREADS 0 (default): one thread per CPU of the trace; 1: one thread for
 * everything; N: N threads taking units of pages (cut at chunk boundaries,
 * a few per thread and CPU) from a shared counter, so that a trace with
 * fewer CPUs than the machine still uses all of it.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <trace-cmd.h>

#include "pages.h"

struct unit {
	int cpu;
	uint64_t first, end;
};

struct work {
	const struct ns_pages *pages;
	struct unit *units;
	int nr_units;
	atomic_int next;
};

struct worker {
	struct work *work;
	pthread_t th;
	uint64_t records, sum;
	int ret;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	struct ns_pages_record r;
	int i, got;

	while ((i = atomic_fetch_add(&w->work->next, 1)) < w->work->nr_units) {
		const struct unit *u = &w->work->units[i];
		struct ns_pages_iter *it = ns_pages_iter_open(w->work->pages, u->cpu, u->first,
							      u->end);

		if (!it) {
			w->ret = -1;
			return NULL;
		}
		while ((got = ns_pages_iter_next(it, &r)) > 0) {
			w->records++;
			w->sum += (uint64_t)r.pid + (uint64_t)r.type;
		}
		if (got < 0)
			w->ret = got;
		ns_pages_iter_close(it);
	}
	return NULL;
}

/* Units of about @per pages, cut at chunk boundaries (every page, uncompressed). */
static int make_units(const struct ns_pages *pages, uint64_t per, struct unit **out)
{
	int cpu, n = 0, cap = 0;
	struct unit *units = NULL;

	for (cpu = 0; cpu < ns_pages_nr_cpus(pages); cpu++) {
		uint64_t nr = ns_pages_nr_pages(pages, cpu), first = 0;
		uint32_t chunks = ns_pages_nr_chunks(pages, cpu), c = 0;

		while (first < nr) {
			uint64_t end = first + per;

			if (ns_pages_compressed(pages)) {
				while (c < chunks && ns_pages_chunk_first_page(pages, cpu, c) < end)
					c++;
				end = c < chunks ? ns_pages_chunk_first_page(pages, cpu, c) : nr;
			}
			if (end > nr)
				end = nr;
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				units = realloc(units, cap * sizeof(*units));
			}
			units[n++] = (struct unit){ cpu, first, end };
			first = end;
		}
	}
	*out = units;
	return n;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct ns_pages *pages;
	struct work work = { 0 };
	struct worker *w;
	struct rusage ru;
	char err[256];
	double t0, t1, t2, t3;
	uint64_t records = 0, sum = 0, total_pages = 0;
	int threads = argc > 2 ? atoi(argv[2]) : 0, i, cpu;

	if (argc < 2) {
		fprintf(stderr, "usage: %s trace.dat [threads]\n", argv[0]);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	t0 = now();
	h = tracecmd_open_head(argv[1], 0);
	if (!h)
		return 1;
	t1 = now();
	pages = ns_pages_open(argv[1], tracecmd_get_tep(h), err, sizeof(err));
	if (!pages) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		return 1;
	}
	t2 = now();
	work.pages = pages;
	for (cpu = 0; cpu < ns_pages_nr_cpus(pages); cpu++)
		total_pages += ns_pages_nr_pages(pages, cpu);
	if (threads <= 0) {
		/* one unit per CPU, one thread each */
		threads = ns_pages_nr_cpus(pages) ? ns_pages_nr_cpus(pages) : 1;
		work.nr_units = make_units(pages, UINT64_MAX / 2, &work.units);
	} else {
		uint64_t per = total_pages / ((uint64_t)threads * 8) + 1;

		work.nr_units = threads == 1 ? make_units(pages, UINT64_MAX / 2, &work.units) :
			make_units(pages, per, &work.units);
	}
	w = calloc(threads, sizeof(*w));
	for (i = 0; i < threads; i++) {
		w[i].work = &work;
		if (i && pthread_create(&w[i].th, NULL, run, &w[i]))
			return 1;
	}
	run(&w[0]);
	for (i = 0; i < threads; i++) {
		if (i)
			pthread_join(w[i].th, NULL);
		if (w[i].ret) {
			fprintf(stderr, "%s: read error %d\n", argv[1], w[i].ret);
			return 1;
		}
		records += w[i].records;
		sum += w[i].sum;
	}
	t3 = now();
	getrusage(RUSAGE_SELF, &ru);
	printf("threads=%d units=%d records=%llu head_s=%.3f open_s=%.3f scan_s=%.3f "
	       "ns_per_rec=%.1f cpu_s=%.3f maxrss_mib=%.1f (sum %llu)\n", threads, work.nr_units,
	       (unsigned long long)records, t1 - t0, t2 - t1, t3 - t2,
	       records ? (t3 - t2) * 1e9 / records : 0.0,
	       ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6,
	       ru.ru_maxrss / 1024.0, (unsigned long long)sum);
	ns_pages_close(pages);
	tracecmd_close(h);
	free(work.units);
	free(w);
	return 0;
}
