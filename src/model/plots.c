// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency and field plots (model_plots.h). A plot is made once: one scan of
 * the events of its one or two types (trace_fields.h), the events put in
 * the list's order, paired for a latency, and kept as points sorted by
 * time. Each point's value sits at the bottom of two trees of n + n nodes
 * (an iterative segment tree, any n), one of maxima and one of minima, so
 * that a column's greatest value and a window's least and greatest cost
 * O(log n) whatever the zoom: the 5 ms budget of a zoom or pan step holds
 * with millions of points. Memory: 40 bytes a point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/model.h"
#include "nurseshark/model_plots.h"
#include "nurseshark/trace_fields.h"
#include "nurseshark/util.h"

static const char *const kind_names[] = {
	[NS_PLOT_LATENCY] = "latency",
	[NS_PLOT_FIELD] = "plot",
};

const char *ns_plot_kind_name(int kind)
{
	return kind >= 0 && kind < (int)NS_ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

int ns_plot_kind_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(kind_names); i++)
		if (!strcmp(name, kind_names[i]))
			return (int)i;
	return -1;
}

/* ---- the spec ------------------------------------------------------------ */

/* Copy the next blank-separated word of *p into @out: its length, or -1 if too long. */
static int next_word(const char **p, char *out, size_t len)
{
	const char *s = *p, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s; *e && *e != ' ' && *e != '\t'; e++)
		;
	if ((size_t)(e - s) >= len)
		return -1;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	*p = e;
	return (int)(e - s);
}

static int name_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '/' || *s == '-' ||
		      *s == '.' || *s == ':' || *s == ','))
			return 0;
	return 1;
}

int ns_plot_spec_parse(struct ns_plot_spec *s, int kind, const char *args, char *err,
		       size_t err_len)
{
	char w[4][NS_PLOT_NAME_LEN * 2 + 2], *comma;
	const char *p = args;
	int n = 0, i;

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	for (i = 0; i < 4; i++) {
		int len = next_word(&p, w[i], sizeof(w[i]));

		if (len < 0)
			goto usage;
		if (len)
			n++;
		else
			break;
	}
	if (kind == NS_PLOT_LATENCY && (n < 2 || n > 3))
		goto usage;
	if (kind == NS_PLOT_FIELD && n != 2)
		goto usage;
	if (kind != NS_PLOT_LATENCY && kind != NS_PLOT_FIELD)
		goto usage;
	for (i = 0; i < n; i++)
		if (!name_ok(w[i]) || (i < 2 && strchr(w[i], ',')))
			goto usage;
	if (strlen(w[0]) >= NS_PLOT_NAME_LEN)
		goto usage;
	strcpy(s->event[0], w[0]);
	if (kind == NS_PLOT_FIELD) {
		if (strlen(w[1]) >= NS_PLOT_NAME_LEN || strchr(w[1], ','))
			goto usage;
		strcpy(s->field[0], w[1]);
		return 0;
	}
	if (strlen(w[1]) >= NS_PLOT_NAME_LEN)
		goto usage;
	strcpy(s->event[1], w[1]);
	if (n == 3) {
		comma = strchr(w[2], ',');
		if (comma)
			*comma++ = '\0';
		else
			comma = w[2];
		if (!w[2][0] || !*comma || strchr(comma, ',') || strlen(w[2]) >= NS_PLOT_NAME_LEN ||
		    strlen(comma) >= NS_PLOT_NAME_LEN)
			goto usage;
		strcpy(s->field[0], w[2]);
		strcpy(s->field[1], comma);
	}
	return 0;
usage:
	if (kind == NS_PLOT_LATENCY)
		snprintf(err, err_len, "Usage: latency EVENT_A EVENT_B [FIELD|FIELD_A,FIELD_B]");
	else
		snprintf(err, err_len, "Usage: plot EVENT FIELD");
	return -EINVAL;
}

void ns_plot_spec_args(const struct ns_plot_spec *s, char *buf, size_t len)
{
	if (s->kind == NS_PLOT_FIELD)
		snprintf(buf, len, "%s %s", s->event[0], s->field[0]);
	else if (!s->field[0][0])
		snprintf(buf, len, "%s %s", s->event[0], s->event[1]);
	else if (!strcmp(s->field[0], s->field[1]))
		snprintf(buf, len, "%s %s %s", s->event[0], s->event[1], s->field[0]);
	else
		snprintf(buf, len, "%s %s %s,%s", s->event[0], s->event[1], s->field[0],
			 s->field[1]);
}

void ns_plot_spec_line(const struct ns_plot_spec *s, char *buf, size_t len)
{
	char args[4 * NS_PLOT_NAME_LEN + 8];

	ns_plot_spec_args(s, args, sizeof(args));
	snprintf(buf, len, "%s %s", ns_plot_kind_name(s->kind), args);
}

int ns_plot_spec_parse_line(struct ns_plot_spec *s, const char *line, char *err, size_t err_len)
{
	char name[16];
	const char *p = line;
	int kind;

	if (next_word(&p, name, sizeof(name)) <= 0 || (kind = ns_plot_kind_from_name(name)) < 0) {
		snprintf(err, err_len, "want latency or plot, then their arguments");
		return -EINVAL;
	}
	return ns_plot_spec_parse(s, kind, p, err, err_len);
}

/* The type of "name" or "system/name", or -ENOENT with a message. */
static int event_type(struct ns_trace *trace, const char *name, char *err, size_t err_len)
{
	char sys[NS_PLOT_NAME_LEN];
	const char *slash = strchr(name, '/');
	int type;

	if (slash) {
		snprintf(sys, sizeof(sys), "%.*s", (int)(slash - name), name);
		type = ns_trace_event_type(trace, sys, slash + 1);
	} else {
		type = ns_trace_event_type(trace, NULL, name);
	}
	if (type < 0)
		snprintf(err, err_len, "no event %s in this trace", name);
	return type < 0 ? -ENOENT : type;
}

/* The types and fields a scan of @s reads: how many (1 or 2), or a negative errno. */
static int scan_args(struct ns_trace *trace, const struct ns_plot_spec *s, int types[2],
		     const char *fields[2], char *err, size_t err_len)
{
	int n = s->kind == NS_PLOT_LATENCY ? 2 : 1, k, ret;

	for (k = 0; k < n; k++) {
		types[k] = event_type(trace, s->event[k], err, err_len);
		if (types[k] < 0)
			return types[k];
		fields[k] = s->field[k][0] ? s->field[k] : "common_pid";
		ret = ns_trace_field_check(trace, types[k], fields[k], err, err_len);
		if (ret)
			return ret;
	}
	return n;
}

int ns_plot_spec_check(struct ns_trace *trace, const struct ns_plot_spec *s, char *err,
		       size_t err_len)
{
	const char *fields[2];
	int types[2], ret = scan_args(trace, s, types, fields, err, err_len);

	return ret < 0 ? ret : 0;
}

/* ---- the points ---------------------------------------------------------- */

struct ns_plot {
	struct ns_plot_spec spec;
	uint64_t n;
	uint64_t *ts;		/* sorted */
	uint64_t *pos;		/* cpu << 48 | idx */
	int64_t *tmax, *tmin;	/* 2n nodes each: the leaves at [n, 2n) */
};

struct scan_ev {
	uint64_t ts_ns;
	uint64_t idx;
	int32_t cpu;
	int32_t which;
	int64_t value;
};

struct collect {
	struct scan_ev *ev;
	size_t nr, cap;
};

static int collect_one(void *arg, const struct ns_trace_field_value *v)
{
	struct collect *c = arg;

	if (NS_GROW(c->ev, c->cap, c->nr + 1))
		return -ENOMEM;
	c->ev[c->nr++] = (struct scan_ev){ v->ts_ns, v->idx, v->cpu, v->which, v->value };
	return 0;
}

/* The list's order: time, then CPU, then the CPU's order; a B before its own A. */
static int cmp_ev(const void *x, const void *y)
{
	const struct scan_ev *a = x, *b = y;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->idx != b->idx)
		return a->idx < b->idx ? -1 : 1;
	return b->which - a->which;
}

/* The A waiting for each value: open addressing, keys never removed. */
struct waiting {
	int64_t *key;
	uint64_t *ts;
	uint8_t *used, *open;
	size_t cap, nr;
};

static size_t slot_of(const struct waiting *w, int64_t key)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (w->cap - 1);

	while (w->used[i] && w->key[i] != key)
		i = (i + 1) & (w->cap - 1);
	return i;
}

static int waiting_grow(struct waiting *w)
{
	struct waiting n = { .cap = w->cap ? w->cap * 2 : 1024 };
	size_t i, j;

	n.key = malloc(n.cap * sizeof(*n.key));
	n.ts = malloc(n.cap * sizeof(*n.ts));
	n.used = calloc(n.cap, 1);
	n.open = calloc(n.cap, 1);
	if (!n.key || !n.ts || !n.used || !n.open)
		goto nomem;
	for (i = 0; i < w->cap; i++) {
		if (!w->used[i])
			continue;
		j = slot_of(&n, w->key[i]);
		n.used[j] = 1;
		n.key[j] = w->key[i];
		n.ts[j] = w->ts[i];
		n.open[j] = w->open[i];
		n.nr++;
	}
	free(w->key);
	free(w->ts);
	free(w->used);
	free(w->open);
	*w = n;
	return 0;
nomem:
	free(n.key);
	free(n.ts);
	free(n.used);
	free(n.open);
	return -ENOMEM;
}

static void waiting_free(struct waiting *w)
{
	free(w->key);
	free(w->ts);
	free(w->used);
	free(w->open);
}

/* Pair the events of @c (sorted) into latencies, in place: how many. */
static int pair(struct collect *c, size_t *nr)
{
	struct waiting w = { 0 };
	size_t i, out = 0, j;

	for (i = 0; i < c->nr; i++) {
		struct scan_ev e = c->ev[i];

		if (!w.cap || (w.nr + 1) * 2 > w.cap) {
			if (waiting_grow(&w)) {
				waiting_free(&w);
				return -ENOMEM;
			}
		}
		j = slot_of(&w, e.value);
		if (e.which == 1) {
			if (w.used[j] && w.open[j]) {
				w.open[j] = 0;
				e.value = (int64_t)(e.ts_ns - w.ts[j]);
				c->ev[out++] = e;	/* out <= i: in place */
			}
			continue;
		}
		if (!w.used[j]) {
			w.used[j] = 1;
			w.key[j] = e.value;
			w.nr++;
		}
		/* a later A restarts the wait: the earlier one was answered unseen */
		w.open[j] = 1;
		w.ts[j] = e.ts_ns;
	}
	waiting_free(&w);
	*nr = out;
	return 0;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

void ns_plot_close(struct ns_plot *p)
{
	if (!p)
		return;
	free(p->ts);
	free(p->pos);
	free(p->tmax);
	free(p->tmin);
	free(p);
}

static struct ns_plot *build(const struct ns_plot_spec *s, const struct scan_ev *ev, size_t n)
{
	struct ns_plot *p = calloc(1, sizeof(*p));
	size_t i;

	if (!p)
		return NULL;
	p->spec = *s;
	p->n = n;
	p->ts = malloc(n * sizeof(*p->ts));
	p->pos = malloc(n * sizeof(*p->pos));
	p->tmax = malloc(2 * n * sizeof(*p->tmax));
	p->tmin = malloc(2 * n * sizeof(*p->tmin));
	if (!p->ts || !p->pos || !p->tmax || !p->tmin) {
		ns_plot_close(p);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		p->ts[i] = ev[i].ts_ns;
		p->pos[i] = (uint64_t)ev[i].cpu << 48 | ev[i].idx;
		p->tmax[n + i] = p->tmin[n + i] = ev[i].value;
	}
	for (i = n - 1; i > 0; i--) {
		p->tmax[i] = max64(p->tmax[2 * i], p->tmax[2 * i + 1]);
		p->tmin[i] = min64(p->tmin[2 * i], p->tmin[2 * i + 1]);
	}
	return p;
}

/* A plot row in the making: the scan, CPU by CPU in slices, then the pairs. */
struct ns_plot_job {
	struct ns_trace *trace;
	struct ns_plot_spec spec;
	int types[2];
	const char *fields[2];
	int n;
	int cpu;		/* the CPU the scan is in */
	uint64_t idx;		/* and where in its events */
	uint64_t done, total;	/* events looked at, of all */
	struct collect c;
};

struct ns_plot_job *ns_plot_job_begin(struct ns_trace *trace, const struct ns_plot_spec *s,
				      char *err, size_t err_len)
{
	struct ns_plot_job *j = calloc(1, sizeof(*j));
	int cpu;

	if (!j) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	j->trace = trace;
	j->spec = *s;
	j->n = scan_args(trace, &j->spec, j->types, j->fields, err, err_len);
	if (j->n < 0) {
		free(j);
		return NULL;
	}
	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++)
		j->total += ns_trace_cpu_nr_events(trace, cpu);
	return j;
}

int ns_plot_job_step(struct ns_plot_job *j, uint64_t budget)
{
	int nr_cpus = ns_trace_nr_cpus(j->trace), ret;

	while (budget && j->cpu < nr_cpus) {
		uint64_t nr = ns_trace_cpu_nr_events(j->trace, j->cpu);
		uint64_t hi = nr - j->idx < budget ? nr : j->idx + budget;

		ret = ns_trace_field_scan_range(j->trace, j->types, j->fields, j->n, j->cpu,
						j->idx, hi, collect_one, &j->c);
		if (ret)
			return ret < 0 ? ret : -EIO;
		budget -= hi - j->idx;
		j->done += hi - j->idx;
		j->idx = hi;
		if (j->idx >= nr) {
			j->cpu++;
			j->idx = 0;
		}
	}
	return j->cpu >= nr_cpus;
}

void ns_plot_job_progress(const struct ns_plot_job *j, uint64_t *done, uint64_t *total)
{
	*done = j->done;
	*total = j->total;
}

const struct ns_plot_spec *ns_plot_job_spec(const struct ns_plot_job *j)
{
	return &j->spec;
}

struct ns_plot *ns_plot_job_take(struct ns_plot_job *j, char *err, size_t err_len)
{
	const struct ns_plot_spec *s = &j->spec;
	struct ns_plot *p = NULL;
	size_t nr;

	if (j->c.nr)
		qsort(j->c.ev, j->c.nr, sizeof(*j->c.ev), cmp_ev);
	nr = j->c.nr;
	if (s->kind == NS_PLOT_LATENCY && pair(&j->c, &nr)) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	if (!nr) {
		if (s->kind == NS_PLOT_FIELD)
			snprintf(err, err_len, "no %s event in this trace", s->event[0]);
		else
			snprintf(err, err_len, "no %s followed by a %s with the same %s", s->event[0],
				 s->event[1], s->field[0][0] ? "value" : "pid");
		return NULL;
	}
	p = build(s, j->c.ev, nr);
	if (!p)
		snprintf(err, err_len, "out of memory");
	return p;
}

void ns_plot_job_free(struct ns_plot_job *j)
{
	if (!j)
		return;
	free(j->c.ev);
	free(j);
}

struct ns_plot *ns_plot_open(struct ns_trace *trace, const struct ns_plot_spec *s, char *err,
			     size_t err_len)
{
	struct ns_plot_job *j = ns_plot_job_begin(trace, s, err, err_len);
	struct ns_plot *p = NULL;
	int ret;

	if (!j)
		return NULL;
	while (!(ret = ns_plot_job_step(j, UINT64_MAX)))
		;
	if (ret < 0)
		snprintf(err, err_len, "%s", ret == -ENOMEM ? "out of memory" :
			 "the events do not read back from the file");
	else
		p = ns_plot_job_take(j, err, err_len);
	ns_plot_job_free(j);
	return p;
}

const struct ns_plot_spec *ns_plot_get_spec(const struct ns_plot *p)
{
	return &p->spec;
}

uint64_t ns_plot_nr_points(const struct ns_plot *p)
{
	return p->n;
}

int ns_plot_point(const struct ns_plot *p, uint64_t i, struct ns_plot_point *out)
{
	if (i >= p->n)
		return -ENOENT;
	out->ts_ns = p->ts[i];
	out->value = p->tmax[p->n + i];
	out->cpu = (int)(p->pos[i] >> 48);
	out->idx = p->pos[i] & ((1ull << 48) - 1);
	return 0;
}

/* The greatest and least value of points [l, r), r > l. */
static void query(const struct ns_plot *p, uint64_t l, uint64_t r, int64_t *mx, int64_t *mn)
{
	int64_t a = INT64_MIN, b = INT64_MAX;

	for (l += p->n, r += p->n; l < r; l >>= 1, r >>= 1) {
		if (l & 1) {
			a = max64(a, p->tmax[l]);
			b = min64(b, p->tmin[l++]);
		}
		if (r & 1) {
			a = max64(a, p->tmax[--r]);
			b = min64(b, p->tmin[r]);
		}
	}
	*mx = a;
	if (mn)
		*mn = b;
}

static uint64_t first_at(const struct ns_plot *p, uint64_t ts_ns)
{
	return ns_lower_bound_u64(p->ts, p->n, ts_ns);
}

void ns_plot_range(const struct ns_plot *p, uint64_t a_ns, uint64_t b_ns,
		   struct ns_plot_range *out)
{
	uint64_t lo = first_at(p, a_ns), hi = a_ns < b_ns ? first_at(p, b_ns) : lo;

	memset(out, 0, sizeof(*out));
	if (hi <= lo)
		return;
	out->nr = hi - lo;
	query(p, lo, hi, &out->max, &out->min);
}

void ns_plot_cols(const struct ns_plot *p, uint64_t start_ns, uint64_t end_ns, int cols,
		  struct ns_plot_col *out, struct ns_plot_range *range)
{
	uint64_t lo = first_at(p, start_ns), hi;
	int c;

	for (c = 0; c < cols; c++) {
		hi = first_at(p, ns_window_col_ns(start_ns, end_ns, cols, c + 1));
		out[c].nr = hi > lo ? (hi - lo > UINT32_MAX ? UINT32_MAX : (uint32_t)(hi - lo)) : 0;
		out[c].max = 0;
		if (hi > lo)
			query(p, lo, hi, &out[c].max, NULL);
		if (hi > lo)
			lo = hi;
	}
	if (range)
		ns_plot_range(p, start_ns, end_ns, range);
}

int ns_plot_level(int64_t v, const struct ns_plot_range *range, int levels)
{
	long double lo = range->min < 0 ? range->min : 0, hi = range->max > 0 ? range->max : 0;
	int l;

	if (levels < 1)
		return 0;
	if (hi <= lo)
		return levels;
	l = 1 + (int)(((long double)v - lo) * (levels - 1) / (hi - lo));
	return l < 1 ? 1 : l > levels ? levels : l;
}

int ns_plot_nearest(const struct ns_plot *p, uint64_t ts_ns, int *cpu, uint64_t *idx)
{
	uint64_t i = first_at(p, ts_ns);

	if (!p->n)
		return -1;
	if (i == p->n || (i > 0 && ts_ns - p->ts[i - 1] <= p->ts[i] - ts_ns))
		i--;
	*cpu = (int)(p->pos[i] >> 48);
	*idx = p->pos[i] & ((1ull << 48) - 1);
	return 0;
}

char *ns_plot_fmt_ns(char *buf, size_t len, int64_t ns)
{
	/* doubles, so that a script's printf (awk's) rounds as the label does */
	double v = (double)ns;

	if (ns < 1000 && ns > -1000)
		snprintf(buf, len, "%lldns", (long long)ns);
	else if (ns < 1000000 && ns > -1000000)
		snprintf(buf, len, "%.1fus", v / 1e3);
	else if (ns < 1000000000 && ns > -1000000000)
		snprintf(buf, len, "%.2fms", v / 1e6);
	else
		snprintf(buf, len, "%.2fs", v / 1e9);
	return buf;
}
