// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU event index, 8 bytes per event (the layout is in trace-int.h):
 * appending while indexing, and reading an event back as a struct ns_event.
 *
 * A CPU's events live in chunks of NS_EV_CHUNK slots that never move once
 * allocated, so that readers may use the events published so far while the
 * indexing thread appends more. A slot packs
 *   ts_lo  the timestamp minus the base of its group of NS_EV_GROUP events
 *          (the timestamp of the group's first event)
 *   key    pid << NS_EV_TYPE_BITS | the CPU's local number of the type
 * An event that does not fit (a gap of 4.3 s or more inside a group, a
 * timestamp going back, a pid of 2^22 - 1 or more or negative, more than
 * NS_EV_TYPES types on one CPU) is kept whole in the CPU's wide table:
 * its slot says ts_lo NS_EV_WIDE and key the entry's number. Real traces
 * have a handful of those: long gaps are rare where events are dense.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

static struct ns_ev_chunk *chunk_new(void)
{
	/* the slots stay untouched (not resident) until written */
	return malloc(sizeof(struct ns_ev_chunk));
}

static int type_local(struct ns_events *e, int type)
{
	uint16_t *m;

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
	if (e->nr_types >= NS_EV_TYPES)
		return -1;
	e->types[e->nr_types] = type;
	*m = (uint16_t)++e->nr_types;
	return *m - 1;
}

static int add_wide(struct ns_events *e, uint64_t ts, int pid, int type, uint32_t *nr)
{
	uint32_t n = e->nr_wide, k = 31 - (uint32_t)__builtin_clz(n / NS_EV_WIDE_FIRST + 1);
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
	e->nr_wide = n + 1;
	*nr = n;
	return 0;
}

/**
 * ns_events_append - add the next event of a CPU
 * For the CPU's one writer. Readers see it once *nr_published is raised,
 * which the caller does (after the rest of the event's index, such as its
 * page, is in place).
 */
int ns_events_append(struct ns_events *e, uint64_t idx, uint64_t ts, int pid, int type)
{
	uint64_t ci = idx >> NS_EV_CHUNK_SHIFT;
	uint32_t i = (uint32_t)(idx & (NS_EV_CHUNK - 1));
	struct ns_ev_chunk *ch;
	struct ns_ev_slot *s;
	int lt;

	if (ci >= e->cap_chunks)
		return -ENOMEM;		/* the directory is sized at start, see ns_events_init */
	if (!e->chunks[ci]) {
		e->chunks[ci] = chunk_new();
		if (!e->chunks[ci])
			return -ENOMEM;
		atomic_store_explicit(&e->nr_chunks, ci + 1, memory_order_release);
	}
	ch = e->chunks[ci];
	if (!(i & (NS_EV_GROUP - 1)))
		ch->base[i >> NS_EV_GROUP_SHIFT] = ts;
	s = &ch->slot[i];
	lt = type_local(e, type);
	if (lt == -ENOMEM)
		return lt;
	{
		uint64_t base = ch->base[i >> NS_EV_GROUP_SHIFT];

		if (ts >= base && ts - base < NS_EV_WIDE && pid >= 0 && pid < NS_EV_PID_LIMIT &&
		    lt >= 0) {
			s->ts_lo = (uint32_t)(ts - base);
			s->key = (uint32_t)pid << NS_EV_TYPE_BITS | (uint32_t)lt;
			return 0;
		}
	}
	s->ts_lo = NS_EV_WIDE;
	return add_wide(e, ts, pid, type, &s->key);
}

/*
 * Size the chunk directory for at most @max_events events: it is never
 * reallocated, so a reader may walk it while the writer appends.
 */
int ns_events_init(struct ns_events *e, uint64_t max_events)
{
	memset(e, 0, sizeof(*e));
	e->cap_chunks = (max_events >> NS_EV_CHUNK_SHIFT) + 1;
	e->chunks = calloc(e->cap_chunks, sizeof(*e->chunks));
	return e->chunks ? 0 : -ENOMEM;
}

/* Let the directory hold @max_events (only while nobody reads it). */
int ns_events_reserve(struct ns_events *e, uint64_t max_events)
{
	uint64_t need = (max_events >> NS_EV_CHUNK_SHIFT) + 1;
	size_t old = e->cap_chunks;

	if (need > SIZE_MAX || NS_GROW(e->chunks, e->cap_chunks, (size_t)need))
		return -ENOMEM;
	/* the new slots: chunks not allocated yet */
	memset(e->chunks + old, 0, (e->cap_chunks - old) * sizeof(*e->chunks));
	return 0;
}

/* The writer's tables, once the CPU is indexed. */
void ns_events_done(struct ns_events *e)
{
	free(e->type_map);
	e->type_map = NULL;
}

void ns_events_free(struct ns_events *e)
{
	uint64_t i;

	for (i = 0; e->chunks && i < e->cap_chunks; i++)
		free(e->chunks[i]);
	for (i = 0; i < NS_EV_WIDE_BLOCKS; i++)
		free(e->wide[i]);
	free(e->chunks);
	free(e->type_map);
	memset(e, 0, sizeof(*e));
}

/* Bytes the index of @nr events holds resident (the slots written, not the whole chunks). */
size_t ns_events_bytes(const struct ns_events *e, uint64_t nr)
{
	size_t bytes = e->cap_chunks * sizeof(*e->chunks) + nr * sizeof(struct ns_ev_slot);
	uint32_t k;

	bytes += e->nr_chunks * sizeof(((struct ns_ev_chunk *)0)->base);
	for (k = 0; k < NS_EV_WIDE_BLOCKS && e->wide[k]; k++)
		bytes += ((size_t)NS_EV_WIDE_FIRST << k) * sizeof(struct ns_ev_wide);
	return bytes;
}

uint64_t ns_events_nr_wide(const struct ns_events *e)
{
	return e->nr_wide;
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
	ns_ev_get(&trace->cpus[cpu].ev, idx, ev);
	return 0;
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
