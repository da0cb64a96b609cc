// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler events' fields for the scheduling analysis (see
 * trace_sched.h), read back from the file when asked rather than kept in
 * the index: a scan walks a CPU's records with its own page iterator (the
 * fast reader) and decodes only the few event types it wants, which costs
 * about what decompressing the pages costs. Files the fast reader refuses
 * are read through libtracecmd, one event at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "trace-int.h"
#include "nurseshark/trace_sched.h"

/* Where the events keep their fields; a kind the trace lacks has id -1. */
struct sched_layout {
	int id[NS_SCHED_MIGRATE + 1];
	/* SWITCH: prev_pid, prev_state, next_pid, next_prio; wakeups: pid, target_cpu,
	 * prio, success; MIGRATE: pid, orig_cpu, dest_cpu, prio */
	struct tep_format_field *f[NS_SCHED_MIGRATE + 1][4];
};

static const char *const kind_event[] = {
	[NS_SCHED_SWITCH] = "sched_switch",
	[NS_SCHED_WAKEUP] = "sched_wakeup",
	[NS_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[NS_SCHED_WAKING] = "sched_waking",
	[NS_SCHED_MIGRATE] = "sched_migrate_task",
};

static const char *const kind_fields[][4] = {
	[NS_SCHED_SWITCH] = { "prev_pid", "prev_state", "next_pid", "next_prio" },
	[NS_SCHED_WAKEUP] = { "pid", "target_cpu", "prio", "success" },
	[NS_SCHED_WAKEUP_NEW] = { "pid", "target_cpu", "prio", "success" },
	[NS_SCHED_WAKING] = { "pid", "target_cpu", "prio", "success" },
	[NS_SCHED_MIGRATE] = { "pid", "orig_cpu", "dest_cpu", "prio" },
};

static void layout_find(struct ns_trace *trace, struct sched_layout *l)
{
	int k, i;

	memset(l, 0, sizeof(*l));
	/* libtraceevent caches the last event found: not from two threads at once */
	pthread_mutex_lock(&trace->tep_lock);
	for (k = NS_SCHED_SWITCH; k <= NS_SCHED_MIGRATE; k++) {
		struct tep_event *ev = trace->tep ?
			tep_find_event_by_name(trace->tep, "sched", kind_event[k]) : NULL;

		l->id[k] = -1;
		if (!ev)
			continue;
		for (i = 0; i < 4; i++)
			l->f[k][i] = tep_find_field(ev, kind_fields[k][i]);
		/* the pid (and for a switch, next_pid) are what every use needs */
		if (!l->f[k][0] || (k == NS_SCHED_SWITCH && !l->f[k][2]))
			continue;
		l->id[k] = ev->id;
	}
	pthread_mutex_unlock(&trace->tep_lock);
}

static int kind_of(const struct sched_layout *l, int type)
{
	int k;

	for (k = NS_SCHED_SWITCH; k <= NS_SCHED_MIGRATE; k++)
		if (l->id[k] == type)
			return k;
	return NS_SCHED_NONE;
}

static int64_t num(const struct tep_format_field *f, const void *data, uint32_t size,
		   int64_t dflt)
{
	unsigned long long v;

	if (!f || f->offset < 0 || f->size <= 0 || (uint32_t)(f->offset + f->size) > size)
		return dflt;
	if (tep_read_number_field((struct tep_format_field *)f, data, &v))
		return dflt;
	/* sign-extend the narrow signed fields (pid_t, int) */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int bits = f->size * 8;

		if (v & (1ull << (bits - 1)))
			v |= ~0ull << bits;
	}
	return (int64_t)v;
}

/* Fill @out from a record of kind @k: 0, or 1 when it is to be left out. */
static int decode(const struct sched_layout *l, int k, const void *data, uint32_t size,
		  struct ns_sched_event *out)
{
	struct tep_format_field *const *f = l->f[k];

	out->kind = k;
	out->pid = (int32_t)num(f[0], data, size, -1);
	out->next_pid = -1;
	out->prio = -1;
	out->state = -1;
	switch (k) {
	case NS_SCHED_SWITCH:
		out->state = num(f[1], data, size, -1);
		out->next_pid = (int32_t)num(f[2], data, size, -1);
		out->prio = (int32_t)num(f[3], data, size, -1);
		break;
	case NS_SCHED_MIGRATE:
		out->state = num(f[1], data, size, -1);
		out->next_pid = (int32_t)num(f[2], data, size, -1);
		out->prio = (int32_t)num(f[3], data, size, -1);
		break;
	default:
		out->state = num(f[1], data, size, -1);
		out->prio = (int32_t)num(f[2], data, size, -1);
		if (f[3] && !num(f[3], data, size, 1))
			return 1;	/* "success == 0": no wakeup (kernels before 4.0) */
	}
	return 0;
}

bool ns_trace_sched_has(const struct ns_trace *trace, int kind)
{
	struct sched_layout l;

	if (kind <= NS_SCHED_NONE || kind > NS_SCHED_MIGRATE)
		return false;
	if (trace->multi) {
		for (int k = 0; k < trace->multi->nr; k++)
			if (ns_trace_sched_has(trace->multi->sub[k], kind))
				return true;
		return false;
	}
	layout_find((struct ns_trace *)trace, &l);
	return l.id[kind] >= 0;
}

static int scan_pages(struct ns_trace *trace, const struct sched_layout *l, int cpu,
		      uint64_t lo, uint64_t hi, int flags,
		      int (*fn)(void *arg, const struct ns_sched_event *ev), void *arg)
{
	const struct ns_cpu *c = &trace->cpus[cpu];
	uint64_t base = ns_pages_page_offset(trace->pages, cpu, 0), ps = (uint64_t)trace->page_size;
	struct ns_pages_iter *it;
	uint64_t p, idx;
	int ret = 0, k;

	if (hi <= lo)
		return 0;
	p = ns_cpu_page_of(c, lo);
	idx = c->pages[p].first_idx;
	/* the pages of [lo, hi) only: a window reads no further than they go */
	it = ns_pages_iter_open(trace->pages, cpu, (c->pages[p].offset - base) / ps,
				(c->pages[ns_cpu_page_of(c, hi - 1)].offset - base) / ps + 1);
	if (!it)
		return -ENOMEM;
	/*
	 * In the default window (256 KiB), kept by the thread for its next
	 * scan: 8 MiB windows, each freshly mapped, had the scans of a 1.1 GB
	 * v6 file take 1.9 s (statistics overlay) where they take 0.5 s now,
	 * and a peak RSS 11 MiB higher.
	 */
	/* a page's records at once (ns_pages_iter_page()) */
	while (idx < hi && !ret) {
		struct ns_pages_page pg;
		uint32_t j;

		ret = ns_pages_iter_page(it, &pg);
		if (ret != 1) {
			ret = ret ? ret : -EIO;	/* fewer records than indexed */
			break;
		}
		ret = 0;
		for (j = 0; j < pg.nr && idx < hi && !ret; j++, idx++) {
			const struct ns_pages_rec *r = &pg.recs[j];
			struct ns_sched_event ev;

			if (idx < lo)
				continue;
			/* the index and the file must agree (without reading the page again) */
			if (!ns_ev_ts_agrees(&c->ev, idx, r->ts_ns)) {
				ret = -EIO;
				break;
			}
			k = kind_of(l, r->type);
			if (k == NS_SCHED_NONE && !(flags & NS_SCHED_SCAN_ALL))
				continue;
			ev.ts_ns = r->ts_ns;
			ev.idx = idx;
			ev.cpu = cpu;
			ev.common_pid = r->pid;
			ev.type = r->type;
			if (k == NS_SCHED_NONE) {
				ev.kind = NS_SCHED_NONE;
			} else if (decode(l, k, pg.data + r->data_off, r->size, &ev)) {
				if (!(flags & NS_SCHED_SCAN_ALL))
					continue;
				ev.kind = NS_SCHED_NONE;	/* a wakeup that was none */
			}
			ret = fn(arg, &ev);
		}
	}
	ns_pages_iter_close(it);
	return ret;
}

/* One event through ns_trace_read() (either path): 0, 1 not wanted, or -EIO. */
static int read_one(struct ns_trace *trace, const struct sched_layout *l, int cpu, uint64_t idx,
		    struct ns_sched_event *ev)
{
	struct ns_event e;
	struct tep_record *rec;
	int k, ret;

	if (ns_trace_read_failed(trace, ns_ev_get(&trace->cpus[cpu].ev, idx, &e)))
		return -EIO;
	ev->ts_ns = e.ts_ns;
	ev->idx = idx;
	ev->cpu = cpu;
	ev->common_pid = e.pid;
	ev->type = e.type;
	ev->kind = NS_SCHED_NONE;
	k = kind_of(l, e.type);
	if (k == NS_SCHED_NONE)
		return 1;
	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return -EIO;
	ret = decode(l, k, rec->data, (uint32_t)rec->size, ev);
	ns_trace_read_done(trace, rec);
	if (ret)
		ev->kind = NS_SCHED_NONE;
	return ret;
}

/* ---- kept while indexing (ns_trace_open_sched()) -------------------------- */

struct capture_cpu {
	struct ns_sched_event *ev;
	size_t nr, cap;
};

struct ns_sched_capture {
	struct sched_layout l;
	struct capture_cpu *cpus;
};

struct ns_sched_capture *ns_sched_capture_new(struct ns_trace *trace)
{
	struct ns_sched_capture *cap = calloc(1, sizeof(*cap));

	if (!cap)
		return NULL;
	cap->cpus = calloc(trace->nr_cpus ? trace->nr_cpus : 1, sizeof(*cap->cpus));
	if (!cap->cpus) {
		free(cap);
		return NULL;
	}
	layout_find(trace, &cap->l);
	return cap;
}

void ns_sched_capture_free(struct ns_sched_capture *cap, int nr_cpus)
{
	int cpu;

	if (!cap)
		return;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		free(cap->cpus[cpu].ev);
	free(cap->cpus);
	free(cap);
}

/* Called by the thread that indexes @cpu, for each record once it is indexed. */
int ns_sched_capture_one(struct ns_trace *trace, int cpu, uint64_t idx, int type,
			 struct tep_record *rec)
{
	struct ns_sched_capture *cap = trace->capture;
	struct capture_cpu *cc = &cap->cpus[cpu];
	struct ns_sched_event ev;
	struct ns_event e;
	int k = kind_of(&cap->l, type), ret;

	if (k == NS_SCHED_NONE || decode(&cap->l, k, rec->data, (uint32_t)rec->size, &ev))
		return 0;
	ret = ns_trace_read_failed(trace, ns_ev_get(&trace->cpus[cpu].ev, idx, &e));
	if (ret)
		return ret;
	ev.ts_ns = e.ts_ns;
	ev.idx = idx;
	ev.cpu = cpu;
	ev.common_pid = e.pid;
	ev.type = e.type;
	if (NS_GROW(cc->ev, cc->cap, cc->nr + 1))
		return -ENOMEM;
	cc->ev[cc->nr++] = ev;
	return 0;
}

struct ns_trace *ns_trace_open_sched(const char *path, char *err, size_t err_len)
{
	return ns_trace_open_capture(path, true, err, err_len);
}

struct captured_key {
	const struct capture_cpu *cc;
	uint64_t idx;
};

static bool captured_before(size_t i, const void *arg)
{
	const struct captured_key *k = arg;

	return k->cc->ev[i].idx < k->idx;
}

/* The scan from what indexing kept: the file is not read again. */
static int scan_captured(struct ns_trace *trace, int cpu, uint64_t lo, uint64_t hi, int flags,
			 int (*fn)(void *arg, const struct ns_sched_event *ev), void *arg)
{
	const struct capture_cpu *cc = &trace->capture->cpus[cpu];
	const struct ns_events *evs = &trace->cpus[cpu].ev;
	size_t k = ns_lower_bound(cc->nr, captured_before, &(struct captured_key){ cc, lo });
	uint64_t idx;
	int ret = 0;

	if (!(flags & NS_SCHED_SCAN_ALL)) {
		for (; k < cc->nr && cc->ev[k].idx < hi && !ret; k++)
			ret = fn(arg, &cc->ev[k]);
		return ret;
	}
	for (idx = lo; idx < hi && !ret; idx++) {
		struct ns_sched_event ev;
		struct ns_event e;

		if (k < cc->nr && cc->ev[k].idx == idx) {
			ret = fn(arg, &cc->ev[k++]);
			continue;
		}
		ret = ns_trace_read_failed(trace, ns_ev_get(evs, idx, &e));
		if (ret)
			break;
		ev.ts_ns = e.ts_ns;
		ev.idx = idx;
		ev.cpu = cpu;
		ev.kind = NS_SCHED_NONE;
		ev.common_pid = e.pid;
		ev.type = e.type;
		ev.pid = ev.next_pid = ev.prio = -1;
		ev.state = -1;
		ret = fn(arg, &ev);
	}
	return ret;
}

/* Several files: a file's sched event with the trace's slot and type. */
struct multi_scan {
	const int32_t *map;		/* the file's types -> the trace's */
	int slot;
	int (*fn)(void *arg, const struct ns_sched_event *ev);
	void *arg;
};

static int multi_scan_one(void *arg, const struct ns_sched_event *ev)
{
	const struct multi_scan *ms = arg;
	struct ns_sched_event e = *ev;

	e.cpu = ms->slot;
	if (e.type >= 0 && e.type < NS_EV_TYPE_MAP)
		e.type = ms->map[e.type];
	return ms->fn(ms->arg, &e);
}

int ns_trace_sched_scan(struct ns_trace *trace, int cpu, uint64_t lo, uint64_t hi, int flags,
			int (*fn)(void *arg, const struct ns_sched_event *ev), void *arg)
{
	struct sched_layout l;
	uint64_t n = ns_trace_cpu_nr_events(trace, cpu), idx;
	int ret = 0, k, any = 0;

	if (trace->multi) {
		struct multi_scan ms = {
			&trace->multi->from_sub[(size_t)ns_multi_file_of_slot(trace, cpu) *
						NS_EV_TYPE_MAP], cpu, fn, arg
		};
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		return sub ? ns_trace_sched_scan(sub, cpu, lo, hi, flags, multi_scan_one, &ms) : 0;
	}

	if (hi > n)
		hi = n;
	if (lo >= hi)
		return 0;
	layout_find(trace, &l);
	for (k = NS_SCHED_SWITCH; k <= NS_SCHED_MIGRATE; k++)
		any |= l.id[k] >= 0;
	if (!any && !(flags & NS_SCHED_SCAN_ALL))
		return 0;
	if (trace->capture)
		return scan_captured(trace, cpu, lo, hi, flags, fn, arg);
	if (trace->pages)
		return scan_pages(trace, &l, cpu, lo, hi, flags, fn, arg);
	for (idx = lo; idx < hi && !ret; idx++) {
		struct ns_sched_event ev;

		/* the index has what other events need: only sched events are read */
		ret = read_one(trace, &l, cpu, idx, &ev);
		if (ret == 1)
			ret = (flags & NS_SCHED_SCAN_ALL) ? fn(arg, &ev) : 0;
		else if (!ret)
			ret = fn(arg, &ev);
	}
	return ret;
}

int ns_trace_sched_read(struct ns_trace *trace, int cpu, uint64_t idx, struct ns_sched_event *out)
{
	struct sched_layout l;
	int ret;

	if (trace->multi) {
		int slot = cpu, k = ns_multi_file_of_slot(trace, cpu);
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		ret = sub ? ns_trace_sched_read(sub, cpu, idx, out) : -ENOENT;
		if (!ret) {
			out->cpu = slot;
			out->type = ns_multi_type_of(trace, k, out->type);
		}
		return ret;
	}
	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= ns_trace_cpu_nr_events(trace, cpu))
		return -ENOENT;
	layout_find(trace, &l);
	ret = read_one(trace, &l, cpu, idx, out);
	return ret == 1 ? -ENOENT : ret;
}

long long ns_trace_missed_before(const struct ns_trace *trace, int cpu, uint64_t idx)
{
	const struct ns_cpu *c;
	uint64_t i;

	if (cpu < 0 || cpu >= trace->nr_cpus)
		return 0;
	c = &trace->cpus[cpu];
	i = ns_cpu_missed_lower(c, idx);
	return i < c->nr_missed && c->missed[i].idx == idx ? c->missed[i].count : 0;
}

uint64_t ns_trace_cpu_nr_drops(const struct ns_trace *trace, int cpu, uint64_t lo, uint64_t hi,
			       long long *lost)
{
	const struct ns_cpu *c;
	uint64_t i, n = 0;

	if (lost)
		*lost = 0;
	if (cpu < 0 || cpu >= trace->nr_cpus)
		return 0;
	c = &trace->cpus[cpu];
	for (i = ns_cpu_missed_lower(c, lo); i < c->nr_missed && c->missed[i].idx < hi; i++) {
		n++;
		if (lost && c->missed[i].count > 0)
			*lost += c->missed[i].count;
	}
	return n;
}

void ns_trace_cpu_bound(const struct ns_trace *trace, int cpu, uint64_t ts_ns,
			struct ns_bound *out)
{
	out->ts = ts_ns;
	ns_trace_cpu_lower_bound_range(trace, cpu, ts_ns, &out->lo, &out->hi);
}

uint64_t ns_trace_cpu_drops_bounded(const struct ns_trace *trace, int cpu,
				    const struct ns_bound *a, const struct ns_bound *b)
{
	uint64_t lo = a->lo, hi = b->hi;

	if (cpu < 0 || cpu >= trace->nr_cpus || b->ts <= a->ts || !trace->cpus[cpu].nr_missed)
		return 0;
	/* no drop between a bound's ends: any index there counts the same */
	if (ns_trace_cpu_nr_drops(trace, cpu, a->lo, a->hi, NULL))
		lo = ns_trace_cpu_lower_bound(trace, cpu, a->ts);
	if (ns_trace_cpu_nr_drops(trace, cpu, b->lo, b->hi, NULL))
		hi = ns_trace_cpu_lower_bound(trace, cpu, b->ts);
	return lo < hi ? ns_trace_cpu_nr_drops(trace, cpu, lo, hi, NULL) : 0;
}

uint64_t ns_trace_cpu_drops_between(const struct ns_trace *trace, int cpu, uint64_t a_ns,
				    uint64_t b_ns)
{
	struct ns_bound a, b;

	if (cpu < 0 || cpu >= trace->nr_cpus || b_ns <= a_ns || !trace->cpus[cpu].nr_missed)
		return 0;
	ns_trace_cpu_bound(trace, cpu, a_ns, &a);
	ns_trace_cpu_bound(trace, cpu, b_ns, &b);
	return ns_trace_cpu_drops_bounded(trace, cpu, &a, &b);
}

int ns_trace_cpu_drop(const struct ns_trace *trace, int cpu, uint64_t k, uint64_t *idx,
		      long long *count)
{
	const struct ns_cpu *c;

	if (cpu < 0 || cpu >= trace->nr_cpus || k >= trace->cpus[cpu].nr_missed)
		return -ENOENT;
	c = &trace->cpus[cpu];
	*idx = c->missed[k].idx;
	if (count)
		*count = c->missed[k].count;
	return 0;
}
