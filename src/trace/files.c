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
 * instance names of the files before.
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
 * that the order (order.c, ties to the lower slot, hence to the earlier
 * file: report ties the top buffers of all files before any instance, a
 * difference only on equal timestamps) and everything that reads
 * events, runs and rows work unchanged. Event types become the file's
 * type plus a base per file (the sum of the bases before plus the file's
 * largest id + 1), kept under NS_EV_TYPE_MAP; a read at (slot, idx) or of
 * a type goes to the file the slot or the base names, with its handle,
 * tep and lock. Names of streams: the file's label, with ":NAME" for an
 * instance when there is more than one file.
 */
#include <errno.h>
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

int ns_trace_export_files(struct ns_trace *const *traces, int n, FILE *out,
			  int (*shown)(const void *arg, uint64_t row), const void *const *args)
{
	struct head *heads = calloc((size_t)(n > 0 ? n : 1), sizeof(*heads));
	char prefix[NS_TRACE_PREFIX_LEN + 4096];
	int width = 0, known, k, ret = 0, inst = n;

	if (!heads)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		int w = (int)strlen(ns_trace_file_label(traces[k]));

		width = w > width ? w : width;
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
		ret = ns_export_peek(heads[k].x, &heads[k].cpu, &heads[k].ts);
		if (ret < 0)
			goto out;
		heads[k].have = ret;
	}
	width = known;
	for (;;) {
		int best = -1, best_rank = 0;
		const char *name;

		for (k = 0; k < n; k++) {
			int r;

			if (!heads[k].have)
				continue;
			r = rank(traces[k], &heads[k], k, heads[k].cpu);
			if (best < 0 || heads[k].ts < heads[best].ts ||
			    (heads[k].ts == heads[best].ts && r < best_rank)) {
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
