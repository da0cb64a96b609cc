// SPDX-License-Identifier: GPL-2.0-only
/*
 * Numeric fields of whole event types, for the latency and field plots
 * (trace_fields.h): the index tells which events of a CPU are of the types
 * asked, and only their records are read back, in the CPU's order, so the
 * reads stay sequential and cost what those records cost. The values are
 * decoded as libtraceevent reads a number field, sign-extended when the
 * format says the field is signed (pid_t, int), as fields.c shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace-int.h"
#include "nurseshark/trace_fields.h"

/* The field @name of event @type, NULL if none; under tep_lock. */
static struct tep_format_field *find_field(struct ns_trace *trace, int type, const char *name)
{
	struct tep_event *ev = trace->tep ? tep_find_event(trace->tep, type) : NULL;

	return ev ? tep_find_any_field(ev, name) : NULL;
}

static int numeric(const struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) &&
	       f->size > 0 && f->size <= 8;
}

int ns_trace_field_check(struct ns_trace *trace, int type, const char *name, char *err,
			 size_t err_len)
{
	struct tep_format_field *f;
	int ret = 0;

	if (trace->multi) {
		struct ns_trace *sub = ns_multi_type(trace, &type);

		if (!sub) {
			snprintf(err, err_len, "no event of type %d", type);
			return -ENOENT;
		}
		return ns_trace_field_check(sub, type, name, err, err_len);
	}
	pthread_mutex_lock(&trace->tep_lock);
	f = find_field(trace, type, name);
	if (!f) {
		snprintf(err, err_len, "%s has no field %s", ns_trace_event_name(trace, type), name);
		ret = -ENOENT;
	} else if (!numeric(f)) {
		snprintf(err, err_len, "%s's field %s is not a number",
			 ns_trace_event_name(trace, type), name);
		ret = -EINVAL;
	}
	pthread_mutex_unlock(&trace->tep_lock);
	return ret;
}

static int64_t value_of(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f->offset < 0 || f->offset + f->size > rec->size ||
	    tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return 0;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v & (1ull << (f->size * 8 - 1))))
		v |= ~0ull << (f->size * 8);
	return (int64_t)v;
}

/* Several files: each file's events of the types it has, with the trace's slot. */
struct multi_field {
	int slot0, which[NS_TRACE_FIELD_TYPES];
	int (*fn)(void *arg, const struct ns_trace_field_value *v);
	void *arg;
};

static int multi_one(void *arg, const struct ns_trace_field_value *v)
{
	const struct multi_field *mf = arg;
	struct ns_trace_field_value w = *v;

	w.cpu += mf->slot0;
	w.which = mf->which[v->which];
	return mf->fn(mf->arg, &w);
}

/* Several files: the slot's file, its own CPU and types. */
static int multi_scan_range(struct ns_trace *trace, const int *types, const char *const *fields,
			    int n, int cpu, uint64_t lo, uint64_t hi,
			    int (*fn)(void *arg, const struct ns_trace_field_value *v), void *arg)
{
	const struct ns_multi *m = trace->multi;
	int k, i;

	for (k = 0; k < m->nr; k++) {
		struct multi_field mf = { m->first_slot[k], { 0 }, fn, arg };
		const char *f[NS_TRACE_FIELD_TYPES];
		int t[NS_TRACE_FIELD_TYPES], nt = 0;

		if (cpu < m->first_slot[k] || cpu >= m->first_slot[k] + m->sub[k]->nr_cpus)
			continue;
		for (i = 0; i < n; i++) {
			int st = ns_multi_sub_type(trace, k, types[i]);

			if (st < 0)
				continue;
			t[nt] = st;
			f[nt] = fields[i];
			mf.which[nt++] = i;
		}
		if (!nt)
			return 0;	/* none of these types in this file */
		return ns_trace_field_scan_range(m->sub[k], t, f, nt, cpu - m->first_slot[k],
						 lo, hi, multi_one, &mf);
	}
	return -EINVAL;
}

int ns_trace_field_scan_range(struct ns_trace *trace, const int *types, const char *const *fields,
			      int n, int cpu, uint64_t lo, uint64_t hi,
			      int (*fn)(void *arg, const struct ns_trace_field_value *v), void *arg)
{
	struct tep_format_field *f[NS_TRACE_FIELD_TYPES];
	struct ns_trace_field_value v;
	const struct ns_events *evs;
	int k, ret = 0;
	uint64_t idx, nr;

	if (n < 1 || n > NS_TRACE_FIELD_TYPES || cpu < 0 || cpu >= trace->nr_cpus)
		return -EINVAL;
	if (trace->multi)
		return multi_scan_range(trace, types, fields, n, cpu, lo, hi, fn, arg);
	pthread_mutex_lock(&trace->tep_lock);
	for (k = 0; k < n; k++) {
		f[k] = find_field(trace, types[k], fields[k]);
		if (!f[k] || !numeric(f[k]))
			ret = -EINVAL;
	}
	pthread_mutex_unlock(&trace->tep_lock);
	if (ret)
		return ret;
	evs = &trace->cpus[cpu].ev;
	nr = ns_trace_cpu_nr_events(trace, cpu);
	if (hi > nr)
		hi = nr;
	for (idx = lo; idx < hi && !ret; idx++) {
		int type = ns_ev_type(evs, idx);
		struct tep_record *rec = NULL;

		for (k = 0; k < n && !ret; k++) {
			if (types[k] != type)
				continue;
			if (!rec)
				rec = ns_trace_read(trace, cpu, idx);
			if (!rec) {
				ret = -EIO;
				break;
			}
			v.ts_ns = ns_ev_ts(evs, idx);
			v.idx = idx;
			v.cpu = cpu;
			v.which = k;
			v.value = value_of(f[k], rec);
			ret = fn(arg, &v);
		}
		if (rec)
			ns_trace_read_done(trace, rec);
	}
	return ret;
}

int ns_trace_field_scan(struct ns_trace *trace, const int *types, const char *const *fields,
			int n, int (*fn)(void *arg, const struct ns_trace_field_value *v),
			void *arg)
{
	int cpu, ret = 0;

	if (n < 1 || n > NS_TRACE_FIELD_TYPES)
		return -EINVAL;
	for (cpu = 0; cpu < trace->nr_cpus && !ret; cpu++)
		ret = ns_trace_field_scan_range(trace, types, fields, n, cpu, 0, UINT64_MAX, fn, arg);
	return ret;
}
