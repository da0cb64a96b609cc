// SPDX-License-Identifier: GPL-2.0-only
/*
 * The graph's plot rows: :latency A B [FIELD] and :plot EVENT FIELD
 * (model_plots.h does the work). Each row is made once, when the command
 * adds it (or a session brings it back), and kept while the filter set
 * lists its line; every frame then asks the model for the window's columns.
 * A command makes its row in the background, in slices between key reads
 * (as jobs.c runs a filter pass, but not modal: every key works meanwhile),
 * with its progress in the status line; the same command again cancels it.
 * A session's rows are made at once, when it is read.
 * A column's height is its greatest value on the window's scale, in block
 * eighths (U+2581..U+2588), or in digits 0-9 with the ASCII glyphs; a
 * column with no point is blank. The label carries the scale: a latency
 * row its greatest latency in the window, a field row the window's least
 * and greatest value. The same command again removes the row, as :task.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filtering.h"
#include "nurseshark/model_plots.h"

#define NS_PLOT_LINE_MAX	(4 * NS_PLOT_NAME_LEN + 16)

static struct ns_plot *find_made(struct ns_plot **v, int n, const char *line)
{
	char buf[NS_PLOT_LINE_MAX];
	int i;

	for (i = 0; i < n; i++) {
		if (!v[i])
			continue;
		ns_plot_spec_line(ns_plot_get_spec(v[i]), buf, sizeof(buf));
		if (!strcmp(buf, line)) {
			struct ns_plot *p = v[i];

			v[i] = NULL;
			return p;
		}
	}
	return NULL;
}

int ns_tui_plot_rows_sync(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	struct ns_filter_set *fs = t->flt->fs;
	int n = ns_filter_set_nr_plot_rows(fs), i, j, kept = 0;
	struct ns_plot **rows;
	struct ns_plot_spec spec;
	char err[256], first_err[300] = "";

	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *line = ns_filter_set_plot_row(fs, i);

		rows[kept] = find_made(rs->plot, rs->nr_plot, line);
		if (!rows[kept])
			rows[kept] = find_made(&rs->made, 1, line);
		if (!rows[kept] && !ns_plot_spec_parse_line(&spec, line, err, sizeof(err)))
			rows[kept] = ns_plot_open(t->trace, &spec, err, sizeof(err));
		if (rows[kept]) {
			kept++;
			continue;
		}
		/* a session's row this trace cannot make: said, and left out */
		if (!first_err[0])
			snprintf(first_err, sizeof(first_err), "%s: %s", line, err);
		ns_filter_set_remove_plot_row(fs, line);
		i--;
		n--;
	}
	for (j = 0; j < rs->nr_plot; j++)
		ns_plot_close(rs->plot[j]);
	free(rs->plot);
	ns_plot_close(rs->made);
	rs->made = NULL;
	rs->plot = rows;
	rs->nr_plot = kept;
	if (first_err[0])
		ns_tui_message(t, "Plot row left out: %s", first_err);
	return 0;
}

void ns_tui_plot_rows_free(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	int i;

	for (i = 0; i < rs->nr_plot; i++)
		ns_plot_close(rs->plot[i]);
	free(rs->plot);
	ns_plot_close(rs->made);
	ns_plot_job_free(rs->job);
	rs->job = NULL;
	free(rs->cols);
	rs->plot = NULL;
	rs->made = NULL;
	rs->cols = NULL;
	rs->nr_plot = 0;
	rs->nr_cols = 0;
}

/* A number in at most 5 characters: exact below 10000, else 12k, 1.2M, -340G. */
static void fmt_short(char *buf, size_t len, int64_t v)
{
	static const char suffix[] = "kMGTPE";
	long double a = v < 0 ? -(long double)v : (long double)v;
	int k = -1;

	if (a < 10000) {
		snprintf(buf, len, "%lld", (long long)v);
		return;
	}
	while (a >= 999.5L && k < 5) {
		a /= 1000;
		k++;
	}
	snprintf(buf, len, a < 9.95L ? "%s%.1Lf%c" : "%s%.0Lf%c", v < 0 ? "-" : "", a, suffix[k]);
}

static void label_of(const struct ns_plot *p, const struct ns_plot_range *r, char *buf,
		     size_t len)
{
	const struct ns_plot_spec *s = ns_plot_get_spec(p);
	char a[32], b[32];

	if (s->kind == NS_PLOT_LATENCY) {
		snprintf(buf, len, "lat %s", r->nr ? ns_plot_fmt_ns(a, sizeof(a), r->max) : "-");
		return;
	}
	if (!r->nr) {
		snprintf(buf, len, "%.5s -", s->field[0]);
		return;
	}
	fmt_short(a, sizeof(a), r->min);
	fmt_short(b, sizeof(b), r->max);
	snprintf(buf, len, "%.5s %s..%s", s->field[0], a, b);
}

void ns_tui_plot_row_label(const struct ns_tui *t, int id, char *buf, size_t len)
{
	const struct ns_tui_graph_rows *rs = &t->rowset;
	struct ns_plot_range r;

	if (id < 0 || id >= rs->nr_plot) {
		snprintf(buf, len, "%s", "");
		return;
	}
	ns_plot_range(rs->plot[id], t->view.start_ns, t->view.end_ns, &r);
	label_of(rs->plot[id], &r, buf, len);
}

int ns_tui_plot_row_label_w(const struct ns_tui *t, int id)
{
	const struct ns_tui_graph_rows *rs = &t->rowset;
	const struct ns_plot_spec *s;
	struct ns_plot_range r;
	char a[32], b[32];
	int w;

	if (id < 0 || id >= rs->nr_plot)
		return 0;
	s = ns_plot_get_spec(rs->plot[id]);
	/* "lat 999.99ms": a latency takes at most 8 characters */
	if (s->kind == NS_PLOT_LATENCY)
		return 4 + 8;
	/* a window's least and greatest are between the trace's: no longer than those */
	ns_plot_range(rs->plot[id], 0, UINT64_MAX, &r);
	fmt_short(a, sizeof(a), r.min);
	fmt_short(b, sizeof(b), r.max);
	w = (int)(strlen(a) > strlen(b) ? strlen(a) : strlen(b));
	return (int)(strlen(s->field[0]) < 5 ? strlen(s->field[0]) : 5) + 1 + 2 * w + 2;
}

void ns_tui_draw_plot_row(struct ns_tui *t, int y, int id)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	const struct ns_view *v = &t->view;
	int col, x0 = t->lay.label_w, levels = t->glyphs.utf8 ? 8 : 10;
	attr_t attr = t->theme.attr[NS_ROLE_NORMAL];
	struct ns_plot_range r;

	if (id < 0 || id >= rs->nr_plot || NS_GROW(rs->cols, rs->nr_cols, (size_t)v->cols))
		return;
	ns_plot_cols(rs->plot[id], v->start_ns, v->end_ns, v->cols, rs->cols, &r);
	for (col = 0; col < v->cols; col++) {
		wchar_t ch = L' ';

		if (rs->cols[col].nr) {
			int l = ns_plot_level(rs->cols[col].max, &r, levels);

			ch = t->glyphs.utf8 ? (wchar_t)(0x2581 + l - 1) : (wchar_t)(L'0' + l - 1);
		}
		ns_tui_put_glyph(t->graph, y, x0 + col, ch, attr);
	}
}

int ns_tui_plot_row_nearest(struct ns_tui *t, int id, uint64_t ts_ns, uint64_t *row)
{
	uint64_t idx;
	int cpu;

	if (id < 0 || id >= t->rowset.nr_plot ||
	    ns_plot_nearest(t->rowset.plot[id], ts_ns, &cpu, &idx))
		return -1;
	*row = ns_trace_row_of(t->trace, cpu, idx);
	return 0;
}

/* The row a finished job made: into the set and the graph, and said. */
static void plot_job_done(struct ns_tui *t, struct ns_plot *p)
{
	const struct ns_plot_spec *spec = ns_plot_get_spec(p);
	char line[NS_PLOT_LINE_MAX], a[32];
	struct ns_plot_range r;

	ns_plot_spec_line(spec, line, sizeof(line));
	if (ns_filter_set_add_plot_row(t->flt->fs, line)) {
		ns_plot_close(p);
		ns_tui_message(t, "Out of memory");
		return;
	}
	ns_plot_range(p, 0, UINT64_MAX, &r);
	ns_plot_close(t->rowset.made);
	t->rowset.made = p;
	ns_tui_graph_rows_rebuild(t);
	if (spec->kind == NS_PLOT_LATENCY)
		ns_tui_message(t, "Latency row added: %llu pairs, the longest %s (:%s again "
			       "removes it)", (unsigned long long)r.nr,
			       ns_plot_fmt_ns(a, sizeof(a), r.max), line);
	else
		ns_tui_message(t, "Plot row added: %llu events, %lld to %lld (:%s again removes "
			       "it)", (unsigned long long)r.nr, (long long)r.min, (long long)r.max,
			       line);
}

static double plot_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void ns_tui_plot_job_work(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	const char *name;
	double t0 = plot_now_ms();
	char err[256];
	struct ns_plot *p;
	int ret;

	if (!rs->job)
		return;
	name = ns_plot_kind_name(ns_plot_job_spec(rs->job)->kind);
	do {
		ret = ns_plot_job_step(rs->job, 65536);
	} while (!ret && (t->flt->sync || plot_now_ms() - t0 < NS_TUI_SLICE_MS));
	if (!ret)
		return;
	p = ret == 1 ? ns_plot_job_take(rs->job, err, sizeof(err)) : NULL;
	if (ret < 0)
		snprintf(err, sizeof(err), "%s", ret == -ENOMEM ? "out of memory" :
			 "the events do not read back from the file");
	ns_plot_job_free(rs->job);
	rs->job = NULL;
	if (p)
		plot_job_done(t, p);
	else
		ns_tui_message(t, "%s: %s", name, err);
}

int ns_tui_plot_job_status(const struct ns_tui *t, char *buf, size_t len)
{
	char line[NS_PLOT_LINE_MAX];
	uint64_t done, total;

	if (!t->rowset.job)
		return 0;
	ns_plot_job_progress(t->rowset.job, &done, &total);
	ns_plot_spec_line(ns_plot_job_spec(t->rowset.job), line, sizeof(line));
	snprintf(buf, len, "Making the row '%s': %d%% of %llu events (:%s again cancels)", line,
		 total ? (int)(done * 100 / total) : 100, (unsigned long long)total, line);
	return 1;
}

void ns_tui_cmd_plot_row(struct ns_tui *t, char *args, int kind)
{
	struct ns_filter_set *fs = t->flt->fs;
	struct ns_tui_graph_rows *rs = &t->rowset;
	char line[NS_PLOT_LINE_MAX], busy[NS_PLOT_LINE_MAX], err[256];
	const char *name = ns_plot_kind_name(kind);
	struct ns_plot_spec spec;

	if (ns_plot_spec_parse(&spec, kind, args, err, sizeof(err))) {
		ns_tui_message(t, "%s", err);
		return;
	}
	ns_plot_spec_line(&spec, line, sizeof(line));
	if (ns_filter_set_has_plot_row(fs, line)) {
		ns_filter_set_remove_plot_row(fs, line);
		ns_tui_graph_rows_rebuild(t);
		ns_tui_message(t, "Row '%s' removed (:%s again adds it)", line, line);
		return;
	}
	if (rs->job) {
		ns_plot_spec_line(ns_plot_job_spec(rs->job), busy, sizeof(busy));
		if (!strcmp(busy, line)) {
			ns_plot_job_free(rs->job);
			rs->job = NULL;
			ns_tui_message(t, "Row '%s' cancelled (:%s again makes it)", line, line);
		} else {
			ns_tui_message(t, "The row '%s' is still being made (:%s cancels it)", busy,
				       busy);
		}
		return;
	}
	rs->job = ns_plot_job_begin(t->trace, &spec, err, sizeof(err));
	if (!rs->job) {
		ns_tui_message(t, "%s: %s", name, err);
		return;
	}
	/* the status line shows its progress; the row comes when it is made */
	t->message[0] = '\0';
	ns_tui_plot_job_work(t);
}
