// SPDX-License-Identifier: GPL-2.0-only
/*
 * Latency and field plots (model_plots.h) against `trace-cmd report -t -R`:
 * the test reads report's raw fields from its text, pairs the events
 * itself (the rule of model_plots.h: in report's order, a B closes the A
 * waiting with its value, a later A restarts the wait, an event that is
 * both closes first) and checks every point, then each column's greatest
 * value and count and each window's least and greatest, by brute force
 * over those points, for the whole trace and for zoomed windows. Also: the
 * arguments' forms, and what bad input says.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/model.h"
#include "nurseshark/model_plots.h"
#include "nurseshark/session.h"
#include "nurseshark/util.h"
#include "traces.h"

struct line {
	uint64_t ts;
	int pid;
	char event[64];
	const char *info;	/* into the report's text */
};

struct report {
	char *text;
	struct line *l;
	size_t n;
};

/* "  comm-PID [CPU] SECS.NANOS: EVENT: INFO" of the top buffer (no "NAME:" first). */
static int parse_line(char *s, struct line *out)
{
	char *br = strstr(s, " ["), *dash, *end, *ev, *colon, *first;

	for (first = s; *first == ' '; first++)
		;
	end = strchr(first, ' ');
	if (!br || !end || end[-1] == ':')
		return -1;	/* not an event, or an instance's */
	for (dash = br; dash > s && *dash != '-'; dash--)
		;
	out->pid = atoi(dash + 1);
	strtol(br + 2, &end, 10);
	if (*end != ']')
		return -1;
	out->ts = strtoull(end + 1, &end, 10) * 1000000000ull;
	if (*end != '.')
		return -1;
	out->ts += strtoull(end + 1, &end, 10);
	if (strncmp(end, ": ", 2))
		return -1;
	ev = end + 2;
	colon = strchr(ev, ':');
	if (!colon || colon - ev >= (long)sizeof(out->event))
		return -1;
	memcpy(out->event, ev, (size_t)(colon - ev));
	out->event[colon - ev] = '\0';
	out->info = colon + 1;
	return 0;
}

static int report_load(struct report *r, const char *path)
{
	char *line, *nl;
	size_t cap = 0;

	memset(r, 0, sizeof(*r));
	r->text = slurp_cmd("trace-cmd report -t -R -i '%s' 2>/dev/null", path);
	if (!r->text)
		return -1;
	for (line = r->text; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (r->n == cap) {
			cap = cap ? cap * 2 : 4096;
			r->l = realloc(r->l, cap * sizeof(*r->l));
		}
		if (!parse_line(line, &r->l[r->n]))
			r->n++;
	}
	return 0;
}

/* The value of FIELD in a line's raw info, or common_pid's; 0 if absent. */
static int field_of(const struct line *l, const char *field, int64_t *v)
{
	char want[80];
	const char *p;

	if (!strcmp(field, "common_pid")) {
		*v = l->pid;
		return 0;
	}
	snprintf(want, sizeof(want), " %s=", field);
	p = strstr(l->info, want);
	if (!p)
		return -1;
	p += strlen(want);
	/* report -R prints some fields in hex (prev_state=0x1), others padded (target_cpu=001) */
	*v = !strncmp(p, "0x", 2) ? (int64_t)strtoull(p + 2, NULL, 16) : strtoll(p, NULL, 10);
	return 0;
}

struct pt {
	uint64_t ts;
	int64_t v;
};

/* The oracle's points of @s over report's lines: how many, into *@out. */
static size_t oracle(const struct report *r, const struct ns_plot_spec *s, struct pt **out)
{
	const char *fa = s->field[0][0] ? s->field[0] : "common_pid";
	const char *fb = s->field[1][0] ? s->field[1] : "common_pid";
	/* the A waiting for a value: a small linear table is enough here */
	struct { int64_t key; uint64_t ts; int open; } *w = NULL;
	size_t nw = 0, n = 0, i, j;
	struct pt *p = malloc((r->n + 1) * sizeof(*p));
	int64_t v;

	for (i = 0; i < r->n; i++) {
		const struct line *l = &r->l[i];

		if (s->kind == NS_PLOT_FIELD) {
			if (!strcmp(l->event, s->event[0]) && !field_of(l, s->field[0], &v))
				p[n++] = (struct pt){ l->ts, v };
			continue;
		}
		if (!strcmp(l->event, s->event[1]) && !field_of(l, fb, &v)) {
			for (j = 0; j < nw; j++)
				if (w[j].key == v && w[j].open) {
					w[j].open = 0;
					p[n++] = (struct pt){ l->ts, (int64_t)(l->ts - w[j].ts) };
				}
		}
		if (!strcmp(l->event, s->event[0]) && !field_of(l, fa, &v)) {
			for (j = 0; j < nw && w[j].key != v; j++)
				;
			if (j == nw) {
				w = realloc(w, (nw + 1) * sizeof(*w));
				w[nw++].key = v;
			}
			w[j].open = 1;
			w[j].ts = l->ts;
		}
	}
	free(w);
	*out = p;
	return n;
}

/* Every column of a window, and the window, by brute force over the points. */
static int check_window(const struct ns_plot *pl, const struct pt *p, size_t n, uint64_t a,
			uint64_t b, int cols, char *why, size_t len)
{
	struct ns_plot_col *c = calloc((size_t)cols, sizeof(*c));
	struct ns_plot_range r;
	int64_t wmin = INT64_MAX, wmax = INT64_MIN;
	uint64_t wn = 0;
	int col, bad = 0;
	size_t i;

	ns_plot_cols(pl, a, b, cols, c, &r);
	for (col = 0; col < cols && !bad; col++) {
		uint64_t lo = ns_window_col_ns(a, b, cols, col), hi = ns_window_col_ns(a, b, cols,
										  col + 1);
		int64_t mx = INT64_MIN;
		uint32_t cnt = 0;

		for (i = 0; i < n; i++) {
			if (p[i].ts < lo || p[i].ts >= hi)
				continue;
			cnt++;
			mx = p[i].v > mx ? p[i].v : mx;
		}
		if (cnt != c[col].nr || (cnt && mx != c[col].max)) {
			snprintf(why, len, "column %d [%" PRIu64 ", %" PRIu64 "): %u points, max "
				 "%" PRId64 "; the plot's %u, %" PRId64, col, lo, hi, cnt, mx,
				 c[col].nr, c[col].max);
			bad = 1;
		}
	}
	for (i = 0; i < n; i++) {
		if (p[i].ts < a || p[i].ts >= b)
			continue;
		wn++;
		wmin = p[i].v < wmin ? p[i].v : wmin;
		wmax = p[i].v > wmax ? p[i].v : wmax;
	}
	if (!bad && (r.nr != wn || (wn && (r.min != wmin || r.max != wmax)))) {
		snprintf(why, len, "window: %" PRIu64 " points %" PRId64 "..%" PRId64 "; the "
			 "plot's %" PRIu64 " %" PRId64 "..%" PRId64, wn, wmin, wmax, r.nr, r.min,
			 r.max);
		bad = 1;
	}
	free(c);
	return bad;
}

static void check_spec(struct ns_trace *t, const struct report *rep, const char *name,
		       const char *line)
{
	struct ns_plot_spec s;
	struct ns_plot *pl;
	struct ns_plot_point pp;
	struct pt *p = NULL;
	char err[256], why[400] = "";
	size_t n, i;
	uint64_t first = ns_trace_first_ns(t), last = ns_trace_last_ns(t), span = last - first;
	int bad = 0;

	if (ns_plot_spec_parse_line(&s, line, err, sizeof(err))) {
		FAIL("%s: '%s' parses: %s", name, line, err);
		return;
	}
	n = oracle(rep, &s, &p);
	pl = ns_plot_open(t, &s, err, sizeof(err));
	if (!n) {
		CHECK(!pl && (strstr(err, "no ") == err || strstr(err, "has no field")),
		      "%s: %s: report has no point, and no plot is made (\"%s\")", name, line,
		      pl ? "made" : err);
		ns_plot_close(pl);
		free(p);
		return;
	}
	if (!pl) {
		FAIL("%s: %s: report has %zu points, the plot: %s", name, line, n, err);
		free(p);
		return;
	}
	if (ns_plot_nr_points(pl) != n) {
		snprintf(why, sizeof(why), "%" PRIu64 " points, report's %zu",
			 ns_plot_nr_points(pl), n);
		bad = 1;
	}
	for (i = 0; i < n && !bad; i++) {
		if (ns_plot_point(pl, i, &pp) || pp.ts_ns != p[i].ts || pp.value != p[i].v) {
			snprintf(why, sizeof(why), "point %zu: %" PRIu64 " %" PRId64 ", report's "
				 "%" PRIu64 " %" PRId64, i, pp.ts_ns, pp.value, p[i].ts, p[i].v);
			bad = 1;
		}
	}
	CHECK(!bad, "%s: %s: the %zu points equal report's (time, value) %s", name, line, n, why);
	bad = check_window(pl, p, n, first, last + 1, 80, why, sizeof(why));
	CHECK(!bad, "%s: %s: the whole trace in 80 columns: each column's count and greatest "
	      "value, the window's least and greatest %s", name, line, why);
	/* zoomed: around a point in the middle, a 50th of the trace and 3 us */
	bad = check_window(pl, p, n, p[n / 2].ts - span / 100, p[n / 2].ts + span / 100 + 1, 97,
			   why, sizeof(why)) ||
	      check_window(pl, p, n, p[n / 2].ts - 1500, p[n / 2].ts + 1500, 200, why,
			   sizeof(why));
	CHECK(!bad, "%s: %s: zoomed windows (1/50 of the trace in 97 columns, 3 us in 200) %s",
	      name, line, why);
	ns_plot_close(pl);
	free(p);
}

/* An event of the trace that report prints once: as A and B, no pair. */
static const char *event_once(const struct report *r, char *buf, size_t len)
{
	struct { const char *name; size_t n; } seen[1024];
	size_t nr = 0, i, j;

	for (i = 0; i < r->n; i++) {
		for (j = 0; j < nr && strcmp(seen[j].name, r->l[i].event); j++)
			;
		if (j == nr && nr < NS_ARRAY_SIZE(seen))
			seen[nr++] = (typeof(seen[0])){ r->l[i].event, 0 };
		if (j < nr)
			seen[j].n++;
	}
	for (j = 0; j < nr; j++) {
		if (seen[j].n == 1) {
			snprintf(buf, len, "%s", seen[j].name);
			return buf;
		}
	}
	return NULL;
}

static void check_trace(const char *path)
{
	static const char *const specs[] = {
		"latency sched_waking sched_switch pid,next_pid",
		"latency sched_wakeup sched_switch pid,next_pid",
		"latency sched_switch sched_switch prev_pid,next_pid",
		"latency sched_switch sched_switch next_pid,prev_pid",
		"latency sched_waking sched_switch",
		"latency irq_handler_entry irq_handler_exit irq",
		"plot sched_switch prev_prio",
		"plot sched_switch prev_state",
		"plot sched_waking target_cpu",
		"plot sched_stat_runtime runtime",
	};
	const char *name = base_name(path);
	struct report rep;
	struct ns_trace *t;
	char err[256], buf[160], once[64];
	size_t i;

	if (report_load(&rep, path) || !rep.n) {
		SKIP("%s: trace-cmd report gives nothing", name);
		free(rep.text);
		free(rep.l);
		return;
	}
	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("%s: open: %s", name, err);
		goto out;
	}
	for (i = 0; i < NS_ARRAY_SIZE(specs); i++)
		check_spec(t, &rep, name, specs[i]);
	if (event_once(&rep, once, sizeof(once))) {
		snprintf(buf, sizeof(buf), "latency %s %s", once, once);
		check_spec(t, &rep, name, buf);
	}
	ns_trace_close(t);
out:
	free(rep.text);
	free(rep.l);
}

static void check_args(void)
{
	static const struct {
		const char *line, *back;	/* back NULL: refused */
	} cases[] = {
		{ "latency a b", "latency a b" },
		{ "latency  a   b  f", "latency a b f" },
		{ "latency a b f,f", "latency a b f" },
		{ "latency a b f,g", "latency a b f,g" },
		{ "latency sched/sched_waking sched/sched_switch pid,next_pid",
		  "latency sched/sched_waking sched/sched_switch pid,next_pid" },
		{ "plot e f", "plot e f" },
		{ "latency a", NULL },
		{ "latency a b f,", NULL },
		{ "latency a b ,g", NULL },
		{ "latency a b f,g,h", NULL },
		{ "latency a,b c", NULL },
		{ "latency a b c d", NULL },
		{ "plot e", NULL },
		{ "plot e f g", NULL },
		{ "plot e f,g", NULL },
		{ "plot e f=1", NULL },
		{ "histogram e f", NULL },
	};
	struct ns_plot_spec s, s2;
	char err[256], out[300];
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(cases); i++) {
		int ret = ns_plot_spec_parse_line(&s, cases[i].line, err, sizeof(err));

		if (!cases[i].back) {
			CHECK(ret == -EINVAL && (strstr(err, "Usage: ") || strstr(err, "want ")),
			      "'%s' is refused with its usage (%s)", cases[i].line, err);
			continue;
		}
		out[0] = '\0';
		if (!ret)
			ns_plot_spec_line(&s, out, sizeof(out));
		CHECK(!ret && !strcmp(out, cases[i].back) &&
		      !ns_plot_spec_parse_line(&s2, out, err, sizeof(err)) &&
		      !memcmp(&s, &s2, sizeof(s)),
		      "'%s' reads as '%s' and back (%s)", cases[i].line, cases[i].back, out);
	}
}

static void check_bad(const char *path)
{
	static const struct {
		const char *line, *says;
	} cases[] = {
		{ "latency no_such_event sched_switch", "no event no_such_event in this trace" },
		{ "latency sched_waking sched_switch pid,no_such_field",
		  "sched_switch has no field no_such_field" },
		{ "plot sched_switch next_comm", "sched_switch's field next_comm is not a number" },
		{ "plot no_such_event x", "no event no_such_event" },
	};
	struct ns_plot_spec s;
	struct ns_plot *pl;
	struct ns_trace *t;
	char err[256];
	size_t i;

	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("open %s: %s", path, err);
		return;
	}
	for (i = 0; i < NS_ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		ns_plot_spec_parse_line(&s, cases[i].line, err, sizeof(err));
		pl = ns_plot_open(t, &s, err, sizeof(err));
		CHECK(!pl && strstr(err, cases[i].says), "%s: no plot, and it says \"%s\" (\"%s\")",
		      cases[i].line, cases[i].says, err);
		CHECK(ns_plot_spec_check(t, &s, err, sizeof(err)) < 0,
		      "... and ns_plot_spec_check() refuses it too");
		ns_plot_close(pl);
	}
	ns_trace_close(t);
}

static void check_levels(void)
{
	struct ns_plot_range r = { .nr = 3, .min = 0, .max = 700 };
	struct ns_plot_range neg = { .nr = 2, .min = -100, .max = 100 };
	struct ns_plot_range flat = { .nr = 1, .min = 5, .max = 5 };
	char buf[32];

	CHECK(ns_plot_level(700, &r, 8) == 8 && ns_plot_level(0, &r, 8) == 1 &&
	      ns_plot_level(100, &r, 8) == 2 && ns_plot_level(699, &r, 8) == 7 &&
	      ns_plot_level(700, &r, 10) == 10 && ns_plot_level(350, &r, 10) == 5,
	      "levels: 0 is the lowest step, the greatest the top, linear between");
	CHECK(ns_plot_level(-100, &neg, 8) == 1 && ns_plot_level(100, &neg, 8) == 8 &&
	      ns_plot_level(0, &neg, 8) == 4, "levels: a negative least value is the bottom");
	CHECK(ns_plot_level(5, &flat, 8) == 8 && ns_plot_level(5, &flat, 10) == 10,
	      "levels: flat scale: every point full height");
	CHECK(!strcmp(ns_plot_fmt_ns(buf, sizeof(buf), 870), "870ns") &&
	      !strcmp(ns_plot_fmt_ns(buf, sizeof(buf), 12345), "12.3us") &&
	      !strcmp(ns_plot_fmt_ns(buf, sizeof(buf), 7015123), "7.02ms") &&
	      !strcmp(ns_plot_fmt_ns(buf, sizeof(buf), 2500000000ll), "2.50s"),
	      "latencies on labels: 870ns 12.3us 7.02ms 2.50s");
}

static char *session_text(const struct ns_session *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ns_session_write(s, f);
	fclose(f);
	return buf;
}

/* [graph]'s latency and plot lines: read, written in one form, restored onto a trace. */
static void check_session(const char *path)
{
	static const char text[] = "[graph]\n"
		"latency = sched_waking  sched_switch pid,next_pid\n"
		"plot = sched_switch prev_prio\n"
		"latency = sched_waking\n"
		"plot = nosuch x\n"
		"latency = sched_switch sched_switch next_pid,next_pid\n";
	static const char *const want[] = {
		"latency sched_waking sched_switch pid,next_pid",
		"plot sched_switch prev_prio",
		"plot nosuch x",
		"latency sched_switch sched_switch next_pid",
	};
	struct ns_session s, s2;
	struct ns_filter_set *live = ns_filter_set_alloc();
	struct ns_trace *t;
	struct ns_diag d;
	char err[256], *w1 = NULL, *w2 = NULL;
	int i, ok;

	ns_diag_init(&d);
	ns_session_init(&s);
	ns_session_init(&s2);
	ns_session_parse(&s, "plots.ini", text, strlen(text), &d);
	ok = ns_filter_set_nr_plot_rows(s.filters) == (int)NS_ARRAY_SIZE(want);
	for (i = 0; ok && i < (int)NS_ARRAY_SIZE(want); i++)
		ok = !strcmp(ns_filter_set_plot_row(s.filters, i), want[i]);
	CHECK(ok && d.nr == 1 && strstr(d.msg[0], "plots.ini:4: latency: Usage: latency "),
	      "session: [graph]'s latency and plot lines read in order, one form each; a bad "
	      "one is said at its line (%s)", d.nr ? d.msg[0] : "no message");
	w1 = session_text(&s);
	ns_session_parse(&s2, "again.ini", w1, strlen(w1), &d);
	w2 = session_text(&s2);
	CHECK(w1 && w2 && !strcmp(w1, w2) &&
	      strstr(w1, "\nlatency = sched_switch sched_switch next_pid\n") &&
	      strstr(w1, "\nplot = sched_switch prev_prio\n"),
	      "session: written as 'latency = A B F', read and written again byte for byte");
	t = ns_trace_open(path, err, sizeof(err));
	ns_diag_free(&d);
	ns_diag_init(&d);
	if (t && live) {
		ns_session_restore_filters(&s, live, t, "plots.ini", &d);
		CHECK(ns_filter_set_nr_plot_rows(live) == 3 &&
		      !ns_filter_set_has_plot_row(live, "plot nosuch x") && d.nr == 1 &&
		      strstr(d.msg[0], "the row 'plot nosuch x' is left out: no event nosuch"),
		      "session: restored onto %s, a row of an event it lacks is left out and said "
		      "(%s)", base_name(path), d.nr ? d.msg[0] : "no message");
	} else {
		FAIL("open %s: %s", path, err);
	}
	ns_trace_close(t);
	ns_filter_set_free(live);
	free(w1);
	free(w2);
	ns_session_free(&s);
	ns_session_free(&s2);
	ns_diag_free(&d);
}

int main(void)
{
	struct trace_list l;
	int i;

	check_args();
	check_levels();
	trace_list_load(&l, 0);
	if (l.n)
		check_session(l.path[0]);
	for (i = 0; i < l.n; i++)
		free(l.path[i]);
	if (system("trace-cmd --help >/dev/null 2>&1") == -1 ||
	    system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP("plots against report: trace-cmd is not installed");
		return check_failures ? 1 : 0;
	}
	trace_list_load(&l, 1);
	for (i = 0; i < l.n; i++) {
		check_trace(l.path[i]);
		if (i == 0)
			check_bad(l.path[i]);
		free(l.path[i]);
	}
	return check_failures ? 1 : 0;
}
