// SPDX-License-Identifier: GPL-2.0-only
/*
 * The first rows of the list while the index is being built: read straight
 * from the file with the fast reader, one iterator per CPU, merged in
 * report's order (smallest timestamp first, the lower CPU on a tie) and
 * printed by libtraceevent as the list prints them. It needs nothing of the
 * index, so the screen can show them at once; the merge goes on from where
 * the last call stopped and starts over for a row above it. Several
 * files: each file's iterators, merged by time and report's rank of the
 * buffer (multi_preview()).
 *
 * The Task column is what libtraceevent knows at that point (the saved
 * cmdlines and the names printed so far); the "<...>" of tasks that report
 * names only later is the index's to know, once it is done.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "trace-int.h"

struct ns_preview {
	struct ns_pages_iter **it;
	struct ns_pages_record *head;
	bool *have;
	uint64_t row;		/* the row the heads' smallest is */
	int err;
	/* where each CPU's head was at row mark_row, to go back there cheaply */
	uint64_t mark_row;	/* UINT64_MAX: none */
	uint64_t *mark_page;
	uint32_t *mark_off;
	bool *mark_have;
};

void ns_preview_free(struct ns_preview *pv, int nr_cpus)
{
	int cpu;

	if (!pv)
		return;
	for (cpu = 0; pv->it && cpu < nr_cpus; cpu++)
		if (pv->it[cpu])
			ns_pages_iter_close(pv->it[cpu]);
	free(pv->it);
	free(pv->head);
	free(pv->have);
	free(pv->mark_page);
	free(pv->mark_off);
	free(pv->mark_have);
	free(pv);
}

static void advance(struct ns_preview *pv, int cpu)
{
	int ret = ns_pages_iter_next(pv->it[cpu], &pv->head[cpu]);

	pv->have[cpu] = ret == 1;
	if (ret < 0)
		pv->err = ret;
}

static int restart(struct ns_trace *trace, struct ns_preview *pv)
{
	int cpu;

	pv->row = 0;
	pv->err = 0;
	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		if (!pv->it[cpu]) {
			pv->it[cpu] = ns_pages_iter_open(trace->pages, cpu, 0, UINT64_MAX);
			if (!pv->it[cpu])
				return -ENOMEM;
			ns_pages_iter_window(pv->it[cpu], 256u << 10);
		}
		ns_pages_iter_seek(pv->it[cpu], 0, UINT64_MAX);
		advance(pv, cpu);
	}
	return pv->err;
}

static void mark(const struct ns_trace *trace, struct ns_preview *pv)
{
	int cpu;

	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		pv->mark_have[cpu] = pv->have[cpu];
		pv->mark_page[cpu] = pv->head[cpu].page;
		pv->mark_off[cpu] = pv->head[cpu].page_off;
	}
	pv->mark_row = pv->row;
}

/* Back to the heads of mark(): each CPU's iterator re-walks one page. */
static int to_mark(const struct ns_trace *trace, struct ns_preview *pv)
{
	int cpu;

	pv->err = 0;
	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		pv->have[cpu] = false;
		if (!pv->mark_have[cpu])
			continue;
		ns_pages_iter_seek(pv->it[cpu], pv->mark_page[cpu], UINT64_MAX);
		do
			advance(pv, cpu);
		while (pv->have[cpu] && pv->head[cpu].page_off != pv->mark_off[cpu]);
		if (pv->err)
			return pv->err;
	}
	pv->row = pv->mark_row;
	return 0;
}

static int smallest(const struct ns_trace *trace, const struct ns_preview *pv)
{
	int cpu, best = -1;

	for (cpu = 0; cpu < trace->nr_cpus; cpu++)
		if (pv->have[cpu] && (best < 0 || pv->head[cpu].ts_ns < pv->head[best].ts_ns))
			best = cpu;
	return best;
}

static int print_head(struct ns_trace *trace, const struct ns_pages_record *r,
		      struct ns_event_text *txt)
{
	struct tep_record rec = ns_pages_tep_record(r);
	struct tep_record *use = &rec;
	char time_raw[32];
	int ret;

	if (ns_trace_needs_handle(trace, r->type)) {
		use = ns_trace_read_handle(trace, r->cpu, r->offset);
		if (!use)
			return -EIO;
	}
	pthread_mutex_lock(&trace->tep_lock);
	txt->pid = r->pid;
	txt->cpu = ns_trace_cpu_number(trace, r->cpu);
	txt->slot = r->cpu;
	snprintf(txt->comm, sizeof(txt->comm), "%s", tep_data_comm_from_pid(trace->tep, r->pid));
	ret = ns_trace_print_locked(trace, use, txt, time_raw, sizeof(time_raw));
	pthread_mutex_unlock(&trace->tep_lock);
	txt->missed = r->missed;
	if (use != &rec) {
		pthread_mutex_lock(&trace->handle_lock);
		tracecmd_free_record(use);
		pthread_mutex_unlock(&trace->handle_lock);
	}
	return ret;
}

/* The trace's preview state, made and started at the first call (0, or -errno). */
static int preview_state(struct ns_trace *trace, struct ns_preview **out)
{
	struct ns_preview *pv = trace->preview;

	*out = pv;
	if (!trace->pages)
		return -ENOTSUP;
	if (pv)
		return 0;
	pv = calloc(1, sizeof(*pv));
	if (!pv)
		return -ENOMEM;
	pv->it = calloc(trace->nr_cpus + 1, sizeof(*pv->it));
	pv->head = calloc(trace->nr_cpus + 1, sizeof(*pv->head));
	pv->have = calloc(trace->nr_cpus + 1, sizeof(*pv->have));
	pv->mark_page = calloc(trace->nr_cpus + 1, sizeof(*pv->mark_page));
	pv->mark_off = calloc(trace->nr_cpus + 1, sizeof(*pv->mark_off));
	pv->mark_have = calloc(trace->nr_cpus + 1, sizeof(*pv->mark_have));
	pv->mark_row = UINT64_MAX;
	trace->preview = pv;
	*out = pv;
	if (!pv->it || !pv->head || !pv->have || !pv->mark_page || !pv->mark_off ||
	    !pv->mark_have)
		return -ENOMEM;
	return restart(trace, pv);
}

static int preview(struct ns_trace *trace, uint64_t first_row, size_t n,
		   struct ns_event_text *out)
{
	struct ns_preview *pv;
	size_t got = 0;
	int ret, cpu;

	if ((ret = preview_state(trace, &pv)))
		return ret;
	if (first_row < pv->row) {
		ret = pv->mark_row <= first_row ? to_mark(trace, pv) : restart(trace, pv);
		if (ret)
			return ret;
	}
	while (got < n && (cpu = smallest(trace, pv)) >= 0) {
		if (pv->row == first_row)
			mark(trace, pv);
		if (pv->row >= first_row) {
			ret = print_head(trace, &pv->head[cpu], &out[got]);
			if (ret)
				return ret;
			got++;
		}
		pv->row++;
		advance(pv, cpu);
		if (pv->err)
			return pv->err;
	}
	return (int)got;
}

/*
 * Several files: each file's preview state (its iterators and heads),
 * merged here by time and then by report's rank of the buffer
 * (ns_trace_tie_rank()); the trace's own holds the row and the mark only.
 */
static int multi_smallest(const struct ns_trace *trace, int *file)
{
	const struct ns_multi *m = trace->multi;
	const struct ns_preview *bp = NULL;
	int k, cpu, best = -1, best_rank = 0;

	for (k = 0; k < m->nr; k++) {
		const struct ns_preview *pv = m->sub[k]->preview;

		for (cpu = 0; cpu < m->sub[k]->nr_cpus; cpu++) {
			int rank = ns_trace_tie_rank(trace, m->first_slot[k] + cpu);

			if (!pv->have[cpu])
				continue;
			if (best < 0 || pv->head[cpu].ts_ns < bp->head[best].ts_ns ||
			    (pv->head[cpu].ts_ns == bp->head[best].ts_ns && rank < best_rank)) {
				bp = pv;
				best = cpu;
				best_rank = rank;
				*file = k;
			}
		}
	}
	return best;
}

static int multi_preview(struct ns_trace *trace, uint64_t first_row, size_t n,
			 struct ns_event_text *out)
{
	struct ns_multi *m = trace->multi;
	struct ns_preview *mp = trace->preview, *pv;
	size_t got = 0;
	int k, ret, cpu;

	for (k = 0; k < m->nr; k++) {
		if (ns_trace_changed(m->sub[k]))
			return -ESTALE;
		if ((ret = preview_state(m->sub[k], &pv)))
			return ret;
	}
	if (!mp) {
		mp = calloc(1, sizeof(*mp));
		if (!mp)
			return -ENOMEM;
		mp->mark_row = UINT64_MAX;
		trace->preview = mp;
	}
	if (first_row < mp->row) {
		bool back = mp->mark_row <= first_row;

		for (k = 0; k < m->nr; k++) {
			ret = back ? to_mark(m->sub[k], m->sub[k]->preview) :
				     restart(m->sub[k], m->sub[k]->preview);
			if (ret)
				return ret;
		}
		mp->row = back ? mp->mark_row : 0;
	}
	while (got < n && (cpu = multi_smallest(trace, &k)) >= 0) {
		struct ns_trace *sub = m->sub[k];

		pv = sub->preview;
		if (mp->row == first_row) {
			for (int j = 0; j < m->nr; j++)
				mark(m->sub[j], m->sub[j]->preview);
			mp->mark_row = mp->row;
		}
		if (mp->row >= first_row) {
			ret = print_head(sub, &pv->head[cpu], &out[got]);
			if (ret)
				return ret;
			out[got].slot = m->first_slot[k] + cpu;
			got++;
		}
		mp->row++;
		advance(pv, cpu);
		if (pv->err)
			return pv->err;
	}
	return (int)got;
}

int ns_trace_preview(struct ns_trace *trace, uint64_t first_row, size_t n,
		     struct ns_event_text *out)
{
	int ret;

	if (trace->multi)
		ret = multi_preview(trace, first_row, n, out);
	else
		ret = ns_trace_changed(trace) ? -ESTALE : preview(trace, first_row, n, out);

	return ret < 0 ? ns_trace_read_failed(trace, ret) : ret;
}
