// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several files on one timeline, as `trace-cmd report -i A -i B` and
 * KernelShark's File > Append: one struct ns_trace over the files' own.
 *
 * Each file is a trace of its own (sub[k]: its handle, tep, pages and
 * index), its header read by a thread of its own beside the other files'
 * (ns_trace_open_headers(): each file is checked in a child process, and
 * all the children are forked first, since a running thread forbids the
 * fork), then indexed all at once, each by its own threads: the cost is
 * about the sum, spread over the cores.
 * Once all are indexed (ns_trace_wait()), the trace over them takes:
 *   - slots: file k's slots follow those of the files before (first_slot),
 *     and its cpus[] are copies of the files' struct ns_cpu (their arrays
 *     are shared, never moved once indexed, freed by the file's trace), so
 *     everything that reads counts, times, pids, runs and lost events
 *     works unchanged, with no byte more per event;
 *   - types: one catalogue. A file's event keeps its type where the files
 *     before gave the same system/name that type or none, else the type the
 *     first file with that name gave it, or a free one: two files of one
 *     kernel keep their ids. The copies' local type tables (and the rare
 *     wide entries, copied) hold catalogue types;
 *   - the merged order, built over the copies as for one file, but for
 *     ties: report ties every file's top buffer (in the command line's
 *     order) before any instance (each file's in turn), so each slot gets
 *     that rank (make_tie_ranks(), ns_trace_tie_rank()).
 * What reads an event back (format, fields, filters, sched) goes to the
 * file of its slot (ns_multi_slot()), with its slot and type made the
 * file's; what it returns gets the trace's slot and type back.
 *
 * Streams: every buffer of every file, file after file, named after the
 * file's base name ("a.dat", and "a.dat:b1" for its instance b1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

struct ns_trace *ns_multi_slot(const struct ns_trace *trace, int *cpu)
{
	const struct ns_multi *m = trace->multi;
	int k;

	if (*cpu < 0 || *cpu >= trace->nr_cpus)
		return NULL;
	for (k = m->nr - 1; k > 0 && *cpu < m->first_slot[k]; k--)
		;
	*cpu -= m->first_slot[k];
	return m->sub[k];
}

int ns_multi_file_of_slot(const struct ns_trace *trace, int cpu)
{
	const struct ns_multi *m = trace->multi;
	int k;

	for (k = m->nr - 1; k > 0 && cpu < m->first_slot[k]; k--)
		;
	return k;
}

int ns_multi_sub_type(const struct ns_trace *trace, int k, int type)
{
	if (type < 0 || type >= NS_EV_TYPE_MAP || !trace->multi->to_sub)
		return -1;
	return trace->multi->to_sub[(size_t)k * NS_EV_TYPE_MAP + type];
}

int ns_multi_type_of(const struct ns_trace *trace, int k, int type)
{
	if (type < 0 || type >= NS_EV_TYPE_MAP || !trace->multi->from_sub)
		return type;
	return trace->multi->from_sub[(size_t)k * NS_EV_TYPE_MAP + type];
}

struct ns_trace *ns_multi_type(const struct ns_trace *trace, int *type)
{
	const struct ns_multi *m = trace->multi;
	int k, t;

	for (k = 0; k < m->nr; k++) {
		t = ns_multi_sub_type(trace, k, *type);
		if (t >= 0) {
			*type = t;
			return m->sub[k];
		}
	}
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int ns_trace_open_each(const char *const *paths, const struct ns_trace_open_opts *opts, int n,
		       struct ns_trace **out, int *failed, char *err, size_t err_len)
{
	int k;

	/* the headers all at once: each file's guard child, then a thread each */
	if (ns_trace_open_headers(paths, opts, n, out, failed, err, err_len))
		return -1;
	for (k = 0; k < n; k++) {
		uint64_t budget = opts && opts[k].index_memory ? opts[k].index_memory :
				  ns_trace_default_index_memory();

		/* the event index's budget is for all the files: a share each */
		if (budget != UINT64_MAX)
			out[k]->opts.index_memory = budget > (uint64_t)n ? budget / (uint64_t)n : 1;
	}
	/* then every file indexed at once, by threads of its own */
	for (k = 0; k < n; k++)
		if (ns_trace_start_index(out[k], err, err_len))
			goto fail;
	return 0;
fail:
	*failed = k;
	for (k = 0; k < n; k++) {
		ns_trace_close(out[k]);
		out[k] = NULL;
	}
	return -1;
}

/*
 * The slots' ranks on a tie, as report ties its handles
 * (tracecmd_iterate_events_multi(): the earlier handle): its handles are
 * every file's top buffer in the command line's order, then each file's
 * instances in turn; within a handle, the lower CPU.
 */
static int make_tie_ranks(struct ns_trace *trace)
{
	const struct ns_multi *m = trace->multi;
	int k, cpu, pass, next = 0;

	trace->tie_rank = calloc(trace->nr_cpus ? (size_t)trace->nr_cpus : 1,
				 sizeof(*trace->tie_rank));
	if (!trace->tie_rank)
		return -ENOMEM;
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < m->nr; k++) {
			const struct ns_trace *sub = m->sub[k];

			for (cpu = 0; cpu < ns_trace_nr_cpus(sub); cpu++) {
				int s = ns_trace_cpu_stream(sub, cpu);
				bool top = !*ns_trace_stream_name(sub, s);

				if (top == !pass)
					trace->tie_rank[m->first_slot[k] + cpu] = next++;
			}
		}
	}
	return 0;
}

struct ns_trace *ns_trace_open_files_async(const char *const *paths,
					   const struct ns_trace_open_opts *opts, int n,
					   char *err, size_t err_len)
{
	struct ns_trace *trace;
	struct ns_multi *m;
	char why[512];
	int k, s, nr_streams = 0;

	if (n < 1 || n > NS_TRACE_MAX_FILES) {
		ns_set_err(err, err_len, "%d files: from 1 to %d", n, NS_TRACE_MAX_FILES);
		return NULL;
	}
	trace = calloc(1, sizeof(*trace));
	m = calloc(1, sizeof(*m));
	if (!trace || !m)
		goto nomem;
	trace->multi = m;
	pthread_mutex_init(&trace->tep_lock, NULL);
	pthread_mutex_init(&trace->handle_lock, NULL);
	m->sub = calloc((size_t)n, sizeof(*m->sub));
	m->first_slot = calloc((size_t)n + 1, sizeof(*m->first_slot));
	m->first_stream = calloc((size_t)n + 1, sizeof(*m->first_stream));
	m->label = calloc((size_t)n, sizeof(*m->label));
	trace->path = strdup(paths[0]);
	if (!m->sub || !m->first_slot || !m->first_stream || !m->label || !trace->path)
		goto nomem;
	if (ns_trace_open_each(paths, opts, n, m->sub, &k, why, sizeof(why))) {
		ns_set_err(err, err_len, "%s: %s", paths[k], why);
		goto fail;
	}
	m->nr = n;
	for (k = 0; k < n; k++) {
		m->first_slot[k + 1] = m->first_slot[k] + ns_trace_nr_cpus(m->sub[k]);
		m->first_stream[k + 1] = m->first_stream[k] + ns_trace_nr_streams(m->sub[k]);
		m->label[k] = strdup(base_name(paths[k]));
		if (!m->label[k])
			goto nomem;
		/* two files of one name (a/trace.dat, b/trace.dat): "trace.dat#2" */
		for (s = 0; s < k; s++) {
			if (!strcmp(m->label[s], m->label[k])) {
				char buf[512];

				snprintf(buf, sizeof(buf), "%s#%d", base_name(paths[k]), k + 1);
				free(m->label[k]);
				if (!(m->label[k] = strdup(buf)))
					goto nomem;
				break;
			}
		}
	}
	nr_streams = m->first_stream[n];
	m->stream_name = calloc((size_t)nr_streams, sizeof(*m->stream_name));
	if (!m->stream_name)
		goto nomem;
	for (k = 0; k < n; k++) {
		for (s = 0; s < ns_trace_nr_streams(m->sub[k]); s++) {
			const char *name = ns_trace_stream_name(m->sub[k], s);
			char buf[512];

			snprintf(buf, sizeof(buf), "%s%s%s", m->label[k], *name ? ":" : "", name);
			m->stream_name[m->first_stream[k] + s] = strdup(buf);
			if (!m->stream_name[m->first_stream[k] + s])
				goto nomem;
		}
	}
	trace->nr_cpus = m->first_slot[n];
	trace->cpus = calloc(trace->nr_cpus ? (size_t)trace->nr_cpus : 1, sizeof(*trace->cpus));
	/* the ranks now: the loading screen's rows merge by them (preview.c) */
	if (!trace->cpus || make_tie_ranks(trace))
		goto nomem;
	return trace;
nomem:
	ns_set_nomem(err, err_len);
fail:
	if (trace && !trace->multi)
		free(m);
	if (trace)
		ns_trace_close(trace);
	else
		free(m);
	return NULL;
}

bool ns_multi_loading(const struct ns_trace *trace, struct ns_trace_progress *prog)
{
	const struct ns_multi *m = trace->multi;
	bool loading = false;
	int k;

	if (prog)
		memset(prog, 0, sizeof(*prog));
	for (k = 0; k < m->nr; k++) {
		struct ns_trace_progress p;

		loading |= ns_trace_loading(m->sub[k], &p);
		if (!prog || (!p.first_ns && !p.last_ns))
			continue;
		if (!prog->first_ns || p.first_ns < prog->first_ns)
			prog->first_ns = p.first_ns;
		if (p.last_ns > prog->last_ns)
			prog->last_ns = p.last_ns;
		prog->done_pages += p.done_pages;
		prog->total_pages += p.total_pages;
		prog->events += p.events;
	}
	return loading;
}

/* The catalogue of types over the files (see the top). */
static int make_types(struct ns_trace *trace)
{
	struct ns_multi *m = trace->multi;
	size_t size = (size_t)m->nr * NS_EV_TYPE_MAP;
	int k, i, j, next = 0, max = 0;
	bool *used;

	m->to_sub = malloc(size * sizeof(*m->to_sub));
	m->from_sub = malloc(size * sizeof(*m->from_sub));
	used = calloc(NS_EV_TYPE_MAP, sizeof(*used));
	if (!m->to_sub || !m->from_sub || !used) {
		free(used);
		return -ENOMEM;
	}
	memset(m->to_sub, 0xff, size * sizeof(*m->to_sub));
	memset(m->from_sub, 0xff, size * sizeof(*m->from_sub));
	for (k = 0; k < m->nr; k++)
		max += ns_trace_nr_event_types(m->sub[k]);
	m->types = calloc(max ? (size_t)max : 1, sizeof(*m->types));
	if (!m->types) {
		free(used);
		return -ENOMEM;
	}
	for (k = 0; k < m->nr; k++) {
		struct ns_trace *sub = m->sub[k];

		for (i = 0; i < ns_trace_nr_event_types(sub); i++) {
			int t = ns_trace_event_type_at(sub, i), c = -1;
			const char *sys = ns_trace_event_system(sub, t);
			const char *name = ns_trace_event_name(sub, t);

			if (t < 0 || t >= NS_EV_TYPE_MAP)
				continue;
			for (j = 0; j < k && c < 0; j++) {
				int o = ns_trace_event_type(m->sub[j], sys, name);

				if (o >= 0 && o < NS_EV_TYPE_MAP)
					c = m->from_sub[(size_t)j * NS_EV_TYPE_MAP + o];
			}
			if (c < 0 && !used[t])
				c = t;
			while (c < 0 && next < NS_EV_TYPE_MAP)
				if (!used[next++])
					c = next - 1;
			if (c < 0)
				continue;	/* over 65536 types: left out */
			if (!used[c])
				m->types[m->nr_types++] = c;
			used[c] = true;
			m->from_sub[(size_t)k * NS_EV_TYPE_MAP + t] = c;
			if (m->to_sub[(size_t)k * NS_EV_TYPE_MAP + c] < 0)
				m->to_sub[(size_t)k * NS_EV_TYPE_MAP + c] = t;
		}
	}
	free(used);
	return 0;
}

/* Slot @slot: a copy of file @k's CPU @cpu, its types made the catalogue's. */
static int copy_cpu(struct ns_trace *trace, int k, int cpu, int slot)
{
	struct ns_multi *m = trace->multi;
	const struct ns_cpu *from = &m->sub[k]->cpus[cpu];
	struct ns_cpu *c = &trace->cpus[slot];
	const int32_t *map = &m->from_sub[(size_t)k * NS_EV_TYPE_MAP];
	uint32_t b, n, start, nr = from->ev.nr_wide;
	int i;

	memcpy(c, from, sizeof(*c));
	memset(&c->cur, 0, sizeof(c->cur));
	memset(&c->names, 0, sizeof(c->names));
	c->page_offs = NULL;	/* the file's trace reads */
	c->ev.type_map = NULL;
	/* an evicted chunk reloads through the file's types (the records' numbers) */
	c->ev.origin = &from->ev;
	for (i = 0; i < c->ev.nr_types; i++)
		if (c->ev.types[i] >= 0 && c->ev.types[i] < NS_EV_TYPE_MAP)
			c->ev.types[i] = map[c->ev.types[i]];
	/* the wide entries hold their type: copies of their own */
	memset(c->ev.wide, 0, sizeof(c->ev.wide));
	for (b = 0, start = 0; b < NS_EV_WIDE_BLOCKS && start < nr; b++) {
		n = NS_EV_WIDE_FIRST << b;
		c->ev.wide[b] = malloc(n * sizeof(*c->ev.wide[b]));
		if (!c->ev.wide[b])
			return -ENOMEM;
		memcpy(c->ev.wide[b], from->ev.wide[b],
		       (nr - start < n ? nr - start : n) * sizeof(*c->ev.wide[b]));
		for (i = 0; (uint32_t)i < n && start + (uint32_t)i < nr; i++) {
			int32_t t = c->ev.wide[b][i].type;

			if (t >= 0 && t < NS_EV_TYPE_MAP)
				c->ev.wide[b][i].type = map[t];
		}
		start += n;
	}
	return 0;
}

int ns_multi_wait(struct ns_trace *trace, char *err, size_t err_len)
{
	struct ns_multi *m = trace->multi;
	char why[512];
	int k, cpu, ret;

	if (m->ready || m->ret)
		return m->ret;
	for (k = 0; k < m->nr; k++) {
		if (ns_trace_wait(m->sub[k], why, sizeof(why))) {
			ns_set_err(err, err_len, "%s: %s", ns_trace_path(m->sub[k]), why);
			return m->ret = -EIO;
		}
	}
	ret = make_types(trace);
	trace->first_ns = UINT64_MAX;
	for (k = 0; !ret && k < m->nr; k++) {
		struct ns_trace *sub = m->sub[k];

		for (cpu = 0; !ret && cpu < ns_trace_nr_cpus(sub); cpu++)
			ret = copy_cpu(trace, k, cpu, m->first_slot[k] + cpu);
		trace->nr_events += ns_trace_nr_events(sub);
		if (ns_trace_nr_events(sub) && ns_trace_first_ns(sub) < trace->first_ns)
			trace->first_ns = ns_trace_first_ns(sub);
		if (ns_trace_nr_events(sub) && ns_trace_last_ns(sub) > trace->last_ns)
			trace->last_ns = ns_trace_last_ns(sub);
		trace->in_usecs = k ? trace->in_usecs : sub->in_usecs;
		trace->tep_shared = k ? trace->tep_shared && sub->tep_shared : sub->tep_shared;
	}
	if (trace->first_ns == UINT64_MAX)
		trace->first_ns = 0;
	if (!ret)
		ret = ns_order_build(trace, NULL, 0);
	if (ret) {
		ns_set_err(err, err_len, "cannot put the files together: %s", strerror(-ret));
		return m->ret = ret;
	}
	m->ready = true;
	return 0;
}

void ns_multi_close(struct ns_trace *trace)
{
	struct ns_multi *m = trace->multi;
	int k, cpu, b;

	for (cpu = 0; trace->cpus && cpu < trace->nr_cpus; cpu++)
		for (b = 0; b < NS_EV_WIDE_BLOCKS; b++)
			free(trace->cpus[cpu].ev.wide[b]);
	for (k = 0; k < m->nr; k++) {
		ns_trace_close(m->sub[k]);
		free(m->label[k]);
	}
	for (k = 0; m->stream_name && k < m->first_stream[m->nr]; k++)
		free(m->stream_name[k]);
	free(m->stream_name);
	free(m->sub);
	free(m->first_slot);
	free(m->first_stream);
	free(m->label);
	free(m->to_sub);
	free(m->from_sub);
	free(m->types);
	free(m);
	ns_preview_free(trace->preview, 0);	/* its row and mark: the files' own are theirs */
	free(trace->cpus);
	free(trace->order);
	free(trace->tie_rank);
	free(trace->path);
	pthread_mutex_destroy(&trace->tep_lock);
	pthread_mutex_destroy(&trace->handle_lock);
	free(trace);
}

int ns_trace_nr_files(const struct ns_trace *trace)
{
	return trace->multi ? trace->multi->nr : 1;
}

const char *ns_trace_file_path(const struct ns_trace *trace, int k)
{
	if (!trace->multi)
		return k ? NULL : trace->path;
	return k >= 0 && k < trace->multi->nr ? ns_trace_path(trace->multi->sub[k]) : NULL;
}

int ns_trace_stream_file(const struct ns_trace *trace, int stream)
{
	const struct ns_multi *m = trace->multi;
	int k;

	if (!m)
		return 0;
	for (k = m->nr - 1; k > 0 && stream < m->first_stream[k]; k--)
		;
	return k;
}

bool ns_trace_file_ts_offset(const struct ns_trace *trace, int k, long long *ns)
{
	const struct ns_trace *t = trace->multi ? (k >= 0 && k < trace->multi->nr ?
						   trace->multi->sub[k] : NULL) : (k ? NULL : trace);

	*ns = t && t->opts.has_ts_offset ? t->opts.ts_offset : 0;
	return t && t->opts.has_ts_offset;
}
