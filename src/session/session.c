// SPDX-License-Identifier: GPL-2.0-only
/*
 * A session: what one trace looked like on screen, as an INI file. Written
 * on exit for the trace opened (and with :save-session under any name),
 * read back when the trace is opened again. Every part is optional; what a
 * file leaves out keeps its default. The sections, as nurseshark.ini(5)
 * documents them:
 *
 *   [trace]    path = /home/ann/boot.dat         which file, and how to
 *              size = 6258688                    tell it changed since
 *              mtime = 1764769931.123456789
 *              events = 91631
 *   [view]     window = 10171.572790000 10174.606952000
 *              selected = 1234 10171.601233000   row, and its time
 *              list-top = 1220
 *              graph-follows = yes
 *   [markers]  a = 10 10171.572837000            row and time, or none
 *              b = none
 *              active = a
 *   [panes]    focus = list, graph-rows = auto, info-scroll = 16,
 *              cursor = 0 37                     CPU and column
 *   [filters]  task = hide both 1234             see filters.c
 *   [graph]    task-row = 1234, hidden-cpu = 1   one line each
 *              latency = sched_waking sched_switch pid   a plot row each,
 *              plot = sched_switch prev_prio        as its command
 *   [search]   text, column, mode, direction, ignore-case
 *   [streams]  file-buffer = top, buffer = top      one line each, see streams.c
 *   [files]    file = /home/ann/b.dat, size, mtime, ts-offset   files_entry.c
 *
 * Times are seconds with nine decimals, so that they are exact nanoseconds
 * and still read as the screen shows them. Rows are the list's # column. A
 * row comes back only if it still has the time it was saved with, which is
 * how a session notices that its trace was recorded again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "nurseshark/model_plots.h"
#include "nurseshark/model_search.h"
#include "session-int.h"

int ns_session_init(struct ns_session *s)
{
	memset(s, 0, sizeof(*s));
	s->graph_follows = 1;
	s->filters = ns_filter_set_alloc();
	return s->filters ? 0 : -ENOMEM;
}

void ns_session_free(struct ns_session *s)
{
	ns_session_trace_id_free(&s->trace);
	ns_filter_set_free(s->filters);
	ns_session_free_streams(s);
	ns_session_free_files(s);
	memset(s, 0, sizeof(*s));
}

int ns_session_copy_filters(struct ns_filter_set *to, const struct ns_filter_set *from,
			    unsigned parts)
{
	struct ns_search_spec spec;
	struct ns_filter_entry e;
	int i, ret = 0;

	if (parts & NS_SESS_FILTERS) {
		for (i = 0; !ret && i < ns_filter_set_nr_entries(from); i++) {
			if (!ns_filter_set_entry(from, i, &e))
				ret = ns_filter_set_add(to, &e);
		}
	}
	if (parts & NS_SESS_TASK_ROWS) {
		for (i = 0; !ret && i < ns_filter_set_nr_task_rows(from); i++)
			ret = ns_filter_set_add_task_row(to, ns_filter_set_task_row(from, i));
	}
	if (parts & NS_SESS_PLOT_ROWS) {
		for (i = 0; !ret && i < ns_filter_set_nr_plot_rows(from); i++)
			ret = ns_filter_set_add_plot_row(to, ns_filter_set_plot_row(from, i));
	}
	if (parts & NS_SESS_HIDDEN_CPUS) {
		for (i = 0; !ret && i < ns_filter_set_cpu_limit(from); i++) {
			if (ns_filter_set_cpu_hidden(from, i))
				ret = ns_filter_set_hide_cpu(to, i, 1);
		}
	}
	if (!ret && (parts & NS_SESS_SEARCH) && !ns_filter_set_saved_search(from, &spec))
		ret = ns_filter_set_save_search(to, &spec);
	return ret;
}

int ns_session_capture(struct ns_session *s, const struct ns_session_trace_id *id,
		       const struct ns_view *view, const struct ns_filter_set *filters)
{
	int m;

	if (id && id->path) {
		ns_session_trace_id_free(&s->trace);
		s->trace = *id;
		s->trace.path = strdup(id->path);
		if (!s->trace.path)
			return -ENOMEM;
		s->have |= NS_SESS_TRACE;
	}
	s->nr_events = ns_trace_nr_events(view->trace);
	s->start_ns = view->start_ns;
	s->end_ns = view->end_ns;
	s->selected = view->selected;
	s->selected_ns = view->selected_ns;
	s->list_top = view->list_top;
	s->graph_follows = view->graph_follows;
	s->active_marker = view->active_marker;
	for (m = 0; m < NS_NR_MARKERS; m++)
		s->marker[m] = view->marker[m];
	s->have |= NS_SESS_WINDOW | NS_SESS_LIST_TOP | NS_SESS_FOLLOW | NS_SESS_ACTIVE |
		   NS_SESS_MARKER_A | NS_SESS_MARKER_B;
	if (s->nr_events)
		s->have |= NS_SESS_SELECTED;
	if (ns_session_capture_streams(s, view->trace) || ns_session_capture_files(s, view->trace))
		return -ENOMEM;
	if (filters) {
		ns_filter_set_free(s->filters);
		s->filters = ns_filter_set_alloc();
		if (!s->filters)
			return -ENOMEM;
		s->have |= NS_SESS_FILTERS | NS_SESS_TASK_ROWS | NS_SESS_HIDDEN_CPUS |
			   NS_SESS_SEARCH | NS_SESS_PLOT_ROWS;
		return ns_session_copy_filters(s->filters, filters, s->have);
	}
	return 0;
}

int ns_session_compare_trace(const struct ns_session *s, const struct ns_session_trace_id *id)
{
	int r = 0;

	if (!(s->have & NS_SESS_TRACE) || !s->trace.path || !id->path)
		return 0;
	if (strcmp(s->trace.path, id->path))
		r |= NS_SESSION_TRACE_MOVED;
	if (s->trace.size != id->size || s->trace.mtime_s != id->mtime_s ||
	    s->trace.mtime_ns != id->mtime_ns)
		r |= NS_SESSION_TRACE_CHANGED;
	return r;
}

/* ---- applying ------------------------------------------------------------ */

/* The row still holds an event with the time it was saved with. */
static int row_holds(const struct ns_view *view, uint64_t row, uint64_t ts_ns)
{
	struct ns_event ev;

	return !ns_trace_row_event(view->trace, row, NULL, &ev) && ev.ts_ns == ts_ns;
}

void ns_session_apply(const struct ns_session *s, struct ns_view *view, const char *what,
		      struct ns_diag *diag, unsigned *applied)
{
	uint64_t n = ns_trace_nr_events(view->trace);
	uint64_t lo = ns_trace_first_ns(view->trace), hi = ns_trace_last_ns(view->trace) + 1;
	unsigned done = 0;
	char ts[32];
	int m, follows;

	if (s->have & NS_SESS_FOLLOW) {
		view->graph_follows = !!s->graph_follows;
		done |= NS_SESS_FOLLOW;
	}
	if (s->have & NS_SESS_SELECTED) {
		if (row_holds(view, s->selected, s->selected_ns)) {
			/* the window comes next, from the file, not from following */
			follows = view->graph_follows;
			view->graph_follows = 0;
			ns_view_select(view, s->selected);
			view->graph_follows = follows;
			done |= NS_SESS_SELECTED;
		} else {
			ns_diag_add(diag, what, 0, "the selected event (#%llu at %s) is not in "
				    "this trace; not restored", (unsigned long long)s->selected,
				    ns_fmt_ts(ts, sizeof(ts), s->selected_ns));
		}
	}
	for (m = 0; m < NS_NR_MARKERS; m++) {
		if (!(s->have & (m ? NS_SESS_MARKER_B : NS_SESS_MARKER_A)))
			continue;
		if (!s->marker[m].set) {
			ns_view_clear_marker(view, m);
		} else if (row_holds(view, s->marker[m].row, s->marker[m].ts_ns)) {
			view->marker[m] = s->marker[m];
			view->marker[m].set = 1;
		} else {
			ns_diag_add(diag, what, 0, "marker %c (#%llu at %s) is not in this trace; "
				    "not restored", 'A' + m, (unsigned long long)s->marker[m].row,
				    ns_fmt_ts(ts, sizeof(ts), s->marker[m].ts_ns));
			continue;
		}
		done |= m ? NS_SESS_MARKER_B : NS_SESS_MARKER_A;
	}
	if (s->have & NS_SESS_ACTIVE) {
		view->active_marker = s->active_marker == NS_MARKER_B ? NS_MARKER_B : NS_MARKER_A;
		done |= NS_SESS_ACTIVE;
	}
	if (s->have & NS_SESS_WINDOW) {
		if (s->start_ns < s->end_ns && s->start_ns >= lo && s->end_ns <= hi) {
			ns_view_zoom_range(view, s->start_ns, s->end_ns);
			done |= NS_SESS_WINDOW;
		} else {
			char a[32];

			ns_diag_add(diag, what, 0, "the window %s-%s is not inside this trace; "
				    "not restored", ns_fmt_ts(a, sizeof(a), s->start_ns),
				    ns_fmt_ts(ts, sizeof(ts), s->end_ns));
		}
	}
	/*
	 * The list's first row, if the filters show it and the selection stays on
	 * screen under it (positions count the rows the filters show, see view.c).
	 */
	if ((s->have & NS_SESS_LIST_TOP) && s->list_top < n) {
		uint64_t top = ns_view_list_pos_of_row(view, s->list_top);
		uint64_t sel = ns_view_list_pos_of_row(view, view->selected);
		uint64_t rows = (uint64_t)view->list_rows, shown = ns_view_nr_rows(view);

		if (ns_view_row_at_list_pos(view, top) == s->list_top && sel >= top &&
		    sel < top + rows && (shown <= rows ? top == 0 : top <= shown - rows)) {
			view->list_top = s->list_top;
			done |= NS_SESS_LIST_TOP;
		}
	}
	if (applied)
		*applied = done;
}

/* ---- reading ------------------------------------------------------------- */

struct reader {
	struct ns_session *s;
	int known_section;
	struct ns_search_spec search;	/* [search] as read so far */
	int search_line;		/* where its text was given */
	struct ns_ini_seen seen;
};


/* "10171.572790123": seconds, up to nine decimals; exact in ns. */
static int parse_time(const char *v, uint64_t *ns, const char **end)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, i;
	const char *p = v;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000000ull - 9) / 10)
			return -ERANGE;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (digits >= 9)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
	}
	for (i = digits; i < 9; i++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	*end = p;
	return 0;
}

/* "ROW TIME" or "none" (@none_ok). Returns 1 for none, 0, or -EINVAL after a message. */
static int row_time(struct ns_ini *ini, const char *name, const char *v, int none_ok,
		    uint64_t *row, uint64_t *ts)
{
	unsigned long long r;
	const char *p;
	char *end;

	if (none_ok && !strcasecmp(v, "none"))
		return 1;
	errno = 0;
	if (*v < '0' || *v > '9')
		goto bad;
	r = strtoull(v, &end, 10);
	if (errno || (*end != ' ' && *end != '\t'))
		goto bad;
	for (p = end; *p == ' ' || *p == '\t'; p++)
		;
	if (parse_time(p, ts, &p) || *p)
		goto bad;
	*row = r;
	return 0;
bad:
	ns_ini_error(ini, "%s: want a row and its time in seconds (\"12 10171.572790000\")%s",
		     name, none_ok ? ", or none" : "");
	return -EINVAL;
}

static int one_time(struct ns_ini *ini, const char *name, const char *v, uint64_t *ts)
{
	const char *end;

	if (!parse_time(v, ts, &end) && !*end)
		return 0;
	ns_ini_error(ini, "%s: want a time in seconds with up to 9 decimals", name);
	return -EINVAL;
}

static void trace_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			const char *v)
{
	char path[4096];
	uint64_t x;

	if (!strcmp(name, "path")) {
		if (ns_ini_string(ini, name, v, path, sizeof(path)))
			return;
		if (path[0] != '/') {
			ns_ini_error(ini, "path: not an absolute path");
			return;
		}
		free(s->trace.path);
		s->trace.path = strdup(path);
		if (s->trace.path)
			s->have |= NS_SESS_TRACE;
	} else if (!strcmp(name, "size")) {
		if (!ns_ini_u64(ini, name, v, INT64_MAX, &x))
			s->trace.size = x;
	} else if (!strcmp(name, "mtime")) {
		if (!one_time(ini, name, v, &x)) {
			s->trace.mtime_s = (int64_t)(x / 1000000000ull);
			s->trace.mtime_ns = (long)(x % 1000000000ull);
		}
	} else if (!strcmp(name, "events")) {
		if (!ns_ini_u64(ini, name, v, INT64_MAX, &x))
			s->nr_events = x;
	} else {
		ns_ini_error(ini, "unknown name '%s' in [trace] (path, size, mtime, events)", name);
	}
}

static void view_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
		       const char *v)
{
	uint64_t a, b;
	const char *p;
	int x;

	if (!strcmp(name, "window")) {
		if (parse_time(v, &a, &p) || (*p != ' ' && *p != '\t'))
			goto bad_window;
		while (*p == ' ' || *p == '\t')
			p++;
		if (parse_time(p, &b, &p) || *p || b <= a)
			goto bad_window;
		s->start_ns = a;
		s->end_ns = b;
		s->have |= NS_SESS_WINDOW;
	} else if (!strcmp(name, "selected")) {
		if (!row_time(ini, name, v, 0, &a, &b)) {
			s->selected = a;
			s->selected_ns = b;
			s->have |= NS_SESS_SELECTED;
		}
	} else if (!strcmp(name, "list-top")) {
		if (!ns_ini_u64(ini, name, v, INT64_MAX, &a)) {
			s->list_top = a;
			s->have |= NS_SESS_LIST_TOP;
		}
	} else if (!strcmp(name, "graph-follows")) {
		if (!ns_ini_bool(ini, name, v, &x)) {
			s->graph_follows = x;
			s->have |= NS_SESS_FOLLOW;
		}
	} else {
		ns_ini_error(ini, "unknown name '%s' in [view] "
			     "(window, selected, list-top, graph-follows)", name);
	}
	return;
bad_window:
	ns_ini_error(ini, "window: want a start and a later end in seconds "
		     "(\"10171.5 10174.6\")");
}

static void markers_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			  const char *v)
{
	static const char *const ab[] = { "a", "b" };
	uint64_t row, ts;
	int m, ret;

	if (!strcmp(name, "active")) {
		if (!ns_ini_choice(ini, name, v, ab, 2, &m)) {
			s->active_marker = m;
			s->have |= NS_SESS_ACTIVE;
		}
		return;
	}
	if (strcmp(name, "a") && strcmp(name, "b")) {
		ns_ini_error(ini, "unknown name '%s' in [markers] (a, b, active)", name);
		return;
	}
	m = name[0] - 'a';
	ret = row_time(ini, name, v, 1, &row, &ts);
	if (ret < 0)
		return;
	memset(&s->marker[m], 0, sizeof(s->marker[m]));
	if (!ret) {
		s->marker[m].set = 1;
		s->marker[m].row = row;
		s->marker[m].ts_ns = ts;
	}
	s->have |= m ? NS_SESS_MARKER_B : NS_SESS_MARKER_A;
}

static void panes_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			const char *v)
{
	static const char *const focus[] = { "list", "graph" };
	int x, a, b, n;

	if (!strcmp(name, "focus")) {
		if (!ns_ini_choice(ini, name, v, focus, 2, &x)) {
			s->focus_graph = x;
			s->have |= NS_SESS_FOCUS;
		}
	} else if (!strcmp(name, "graph-rows")) {
		if (!strcasecmp(v, "auto")) {
			s->graph_rows = 0;
			s->have |= NS_SESS_GRAPH_ROWS;
		} else if (!ns_ini_int(ini, name, v, 1, NS_SESSION_GRAPH_ROWS_MAX, &x)) {
			s->graph_rows = x;
			s->have |= NS_SESS_GRAPH_ROWS;
		}
	} else if (!strcmp(name, "info-scroll")) {
		if (!ns_ini_int(ini, name, v, 0, NS_SESSION_INFO_SCROLL_MAX, &x)) {
			s->info_scroll = x;
			s->have |= NS_SESS_INFO_SCROLL;
		}
	} else if (!strcmp(name, "cursor")) {
		n = -1;
		if (sscanf(v, "%d %d%n", &a, &b, &n) != 2 || v[n] || a < 0 || b < 0 ||
		    a > 1000000 || b > 100000) {
			ns_ini_error(ini, "cursor: want a CPU and a column (\"0 37\")");
			return;
		}
		s->cursor_cpu = a;
		s->cursor_col = b;
		s->have |= NS_SESS_CURSOR;
	} else {
		ns_ini_error(ini, "unknown name '%s' in [panes] "
			     "(focus, graph-rows, info-scroll, cursor)", name);
	}
}

/* latency = A B [FIELD], plot = EVENT FIELD: a plot row, as its command */
static void plot_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
		       const char *v)
{
	struct ns_plot_spec spec;
	char err[128], line[4 * NS_PLOT_NAME_LEN + 16];

	if (ns_plot_spec_parse(&spec, ns_plot_kind_from_name(name), v, err, sizeof(err))) {
		ns_ini_error(ini, "%s: %s", name, err);
		return;
	}
	ns_plot_spec_line(&spec, line, sizeof(line));
	if (ns_filter_set_add_plot_row(s->filters, line))
		ns_ini_error(ini, "%s: out of memory", name);
	else
		s->have |= NS_SESS_PLOT_ROWS;
}

static void graph_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			const char *v)
{
	int x;

	if (!strcmp(name, "task-row")) {
		if (!ns_ini_int(ini, name, v, 1, INT32_MAX, &x)) {
			if (ns_filter_set_add_task_row(s->filters, x))
				ns_ini_error(ini, "task-row: out of memory");
			else
				s->have |= NS_SESS_TASK_ROWS;
		}
	} else if (!strcmp(name, "hidden-cpu")) {
		if (!ns_ini_int(ini, name, v, 0, 65535, &x)) {
			if (ns_filter_set_hide_cpu(s->filters, x, 1))
				ns_ini_error(ini, "hidden-cpu: out of memory");
			else
				s->have |= NS_SESS_HIDDEN_CPUS;
		}
	} else if (ns_plot_kind_from_name(name) >= 0) {
		plot_entry(ini, s, name, v);
	} else {
		ns_ini_error(ini, "unknown name '%s' in [graph] (task-row, hidden-cpu, latency, "
			     "plot)", name);
	}
}

static void search_entry(struct ns_ini *ini, struct reader *r, const char *name,
			 const char *v)
{
	static const char *const dir[] = { "forward", "backward" };
	const char *columns[NS_NR_SEARCH_COLUMNS], *modes[NS_NR_SEARCH_MODES];
	struct ns_search_spec *spec = &r->search;
	int i, x;

	for (i = 0; i < NS_NR_SEARCH_COLUMNS; i++)
		columns[i] = ns_search_column_name(i);
	for (i = 0; i < NS_NR_SEARCH_MODES; i++)
		modes[i] = ns_search_mode_name(i);
	if (!strcmp(name, "text")) {
		if (ns_ini_string(ini, name, v, spec->text, sizeof(spec->text)))
			return;
		r->search_line = ini->report_line;
	} else if (!strcmp(name, "column")) {
		if (ns_ini_choice(ini, name, v, columns, NS_NR_SEARCH_COLUMNS, &spec->column))
			return;
	} else if (!strcmp(name, "mode")) {
		if (ns_ini_choice(ini, name, v, modes, NS_NR_SEARCH_MODES, &spec->mode))
			return;
	} else if (!strcmp(name, "direction")) {
		if (ns_ini_choice(ini, name, v, dir, 2, &spec->backward))
			return;
	} else if (!strcmp(name, "ignore-case")) {
		if (ns_ini_bool(ini, name, v, &x))
			return;
		spec->ignore_case = x;
	} else {
		ns_ini_error(ini, "unknown name '%s' in [search] "
			     "(text, column, mode, direction, ignore-case)", name);
		return;
	}
	/* the set keeps a search only once it has its text, whatever the order of the lines */
	if (!spec->text[0])
		return;
	if (ns_filter_set_save_search(r->s->filters, spec))
		ns_ini_error(ini, "%s: the search is refused", name);
	else
		r->s->have |= NS_SESS_SEARCH;
}

static const char *const sections[] = {
	"trace", "view", "markers", "panes", "filters", "graph", "search", "streams", "files",
};

static void session_entry(struct ns_ini *ini, void *user, const char *section,
			  const char *name, const char *value)
{
	struct reader *r = user;
	struct ns_session *s = r->s;
	size_t i;

	if (!name) {
		r->known_section = 0;
		for (i = 0; i < NS_ARRAY_SIZE(sections); i++)
			r->known_section |= !strcmp(section, sections[i]);
		if (!r->known_section)
			ns_ini_error(ini, "unknown section [%s]; its entries are skipped (trace, "
				     "view, markers, panes, filters, graph, search, streams, files)",
				     section);
		/* an empty [filters] or [graph] says there were none, which also restores */
		if (!strcmp(section, "filters"))
			s->have |= NS_SESS_FILTERS;
		else if (!strcmp(section, "graph"))
			s->have |= NS_SESS_TASK_ROWS | NS_SESS_HIDDEN_CPUS | NS_SESS_PLOT_ROWS;
		return;
	}
	if (!section[0]) {
		ns_ini_error(ini, "'%s' comes before any [section]; skipped", name);
		return;
	}
	if (!r->known_section)
		return;
	if (strcmp(section, "filters") && strcmp(section, "graph") && strcmp(section, "streams") &&
	    strcmp(section, "files"))
		ns_ini_once(ini, &r->seen, section, name);
	if (!strcmp(section, "trace"))
		trace_entry(ini, s, name, value);
	else if (!strcmp(section, "view"))
		view_entry(ini, s, name, value);
	else if (!strcmp(section, "markers"))
		markers_entry(ini, s, name, value);
	else if (!strcmp(section, "panes"))
		panes_entry(ini, s, name, value);
	else if (!strcmp(section, "filters"))
		s->have |= ns_filters_entry(ini, s->filters, name, value) ? 0 : NS_SESS_FILTERS;
	else if (!strcmp(section, "graph"))
		graph_entry(ini, s, name, value);
	else if (!strcmp(section, "search"))
		search_entry(ini, r, name, value);
	else if (!strcmp(section, "streams"))
		ns_session_streams_entry(ini, s, name, value);
	else if (!strcmp(section, "files"))
		ns_session_files_entry(ini, s, name, value);
}

int ns_session_parse(struct ns_session *s, const char *name, const char *data, size_t len,
		     struct ns_diag *diag)
{
	struct reader r;

	struct ns_search *search;
	char err[300];

	memset(&r, 0, sizeof(r));
	r.s = s;
	ns_ini_parse(name, data, len, session_entry, &r, diag);
	/* once all of [search] is read: a regex that does not compile is said, not kept */
	if ((s->have & NS_SESS_SEARCH) && !ns_filter_set_saved_search(s->filters, &r.search)) {
		search = ns_search_compile(&r.search, err, sizeof(err));
		if (!search) {
			ns_diag_add(diag, name, r.search_line, "text: the search is not restored: "
				    "%s", err);
			ns_filter_set_save_search(s->filters, NULL);
			s->have &= ~NS_SESS_SEARCH;
		}
		ns_search_free(search);
	}
	return 0;
}

int ns_session_read(struct ns_session *s, const char *path, struct ns_diag *diag)
{
	struct reader r = { .s = s };

	return ns_ini_read(path, "a session", session_entry, &r, diag);
}

/* ---- writing ------------------------------------------------------------- */

static void put_time(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull),
		(unsigned long long)(ns % 1000000000ull));
}

int ns_session_write(const struct ns_session *s, FILE *out)
{
	struct ns_search_spec spec;
	char date[64] = "";
	int m, i;

	fputs(NS_SESSION_MARK " see nurseshark.ini(5). Written by nurseshark;\n"
	      "; safe to edit, keep or share. Times are in seconds, rows as in the list's #.\n",
	      out);
	if (s->have & NS_SESS_TRACE) {
		time_t t = (time_t)s->trace.mtime_s;
		struct tm tm;

		if (localtime_r(&t, &tm))
			strftime(date, sizeof(date), "  ; %Y-%m-%d %H:%M:%S", &tm);
		fputs("\n[trace]\n", out);
		ns_ini_put(out, "path", s->trace.path ? s->trace.path : "");
		ns_ini_putf(out, "size", "%llu", (unsigned long long)s->trace.size);
		fprintf(out, "mtime = %lld.%09ld%s\n", (long long)s->trace.mtime_s,
			s->trace.mtime_ns, date);
		if (s->nr_events)
			ns_ini_putf(out, "events", "%llu", (unsigned long long)s->nr_events);
	}
	if (s->have & (NS_SESS_WINDOW | NS_SESS_SELECTED | NS_SESS_LIST_TOP | NS_SESS_FOLLOW)) {
		fputs("\n[view]\n", out);
		if (s->have & NS_SESS_WINDOW) {
			fputs("window = ", out);
			put_time(out, s->start_ns);
			fputc(' ', out);
			put_time(out, s->end_ns);
			fputc('\n', out);
		}
		if (s->have & NS_SESS_SELECTED) {
			fprintf(out, "selected = %llu ", (unsigned long long)s->selected);
			put_time(out, s->selected_ns);
			fputc('\n', out);
		}
		if (s->have & NS_SESS_LIST_TOP)
			ns_ini_putf(out, "list-top", "%llu", (unsigned long long)s->list_top);
		if (s->have & NS_SESS_FOLLOW)
			ns_ini_putf(out, "graph-follows", "%s", s->graph_follows ? "yes" : "no");
	}
	if (s->have & (NS_SESS_MARKER_A | NS_SESS_MARKER_B | NS_SESS_ACTIVE)) {
		fputs("\n[markers]\n", out);
		for (m = 0; m < NS_NR_MARKERS; m++) {
			if (!(s->have & (m ? NS_SESS_MARKER_B : NS_SESS_MARKER_A)))
				continue;
			if (!s->marker[m].set) {
				fprintf(out, "%c = none\n", 'a' + m);
				continue;
			}
			fprintf(out, "%c = %llu ", 'a' + m, (unsigned long long)s->marker[m].row);
			put_time(out, s->marker[m].ts_ns);
			fputc('\n', out);
		}
		if (s->have & NS_SESS_ACTIVE)
			ns_ini_putf(out, "active", "%c",
				    s->active_marker == NS_MARKER_B ? 'b' : 'a');
	}
	if (s->have & (NS_SESS_FOCUS | NS_SESS_GRAPH_ROWS | NS_SESS_INFO_SCROLL | NS_SESS_CURSOR)) {
		fputs("\n[panes]\n", out);
		if (s->have & NS_SESS_FOCUS)
			ns_ini_putf(out, "focus", "%s", s->focus_graph ? "graph" : "list");
		if (s->have & NS_SESS_GRAPH_ROWS) {
			if (s->graph_rows)
				ns_ini_putf(out, "graph-rows", "%d", s->graph_rows);
			else
				ns_ini_putf(out, "graph-rows", "auto");
		}
		if (s->have & NS_SESS_INFO_SCROLL)
			ns_ini_putf(out, "info-scroll", "%d", s->info_scroll);
		if (s->have & NS_SESS_CURSOR)
			ns_ini_putf(out, "cursor", "%d %d", s->cursor_cpu, s->cursor_col);
	}
	if (s->have & NS_SESS_FILTERS) {
		fputs("\n[filters]\n", out);
		ns_filters_write_entries(s->filters, out);
	}
	if (s->have & (NS_SESS_TASK_ROWS | NS_SESS_HIDDEN_CPUS | NS_SESS_PLOT_ROWS)) {
		fputs("\n[graph]\n", out);
		const struct ns_filter_set *fs = s->filters;

		for (i = 0; s->have & NS_SESS_TASK_ROWS && i < ns_filter_set_nr_task_rows(fs); i++)
			ns_ini_putf(out, "task-row", "%d", ns_filter_set_task_row(fs, i));
		for (i = 0; s->have & NS_SESS_HIDDEN_CPUS && i < ns_filter_set_cpu_limit(fs); i++) {
			if (ns_filter_set_cpu_hidden(fs, i))
				ns_ini_putf(out, "hidden-cpu", "%d", i);
		}
		for (i = 0; s->have & NS_SESS_PLOT_ROWS && i < ns_filter_set_nr_plot_rows(fs); i++) {
			const char *line = ns_filter_set_plot_row(fs, i), *sp = strchr(line, ' ');

			if (sp)
				fprintf(out, "%.*s = %s\n", (int)(sp - line), line, sp + 1);
		}
	}
	if ((s->have & NS_SESS_SEARCH) && !ns_filter_set_saved_search(s->filters, &spec)) {
		fputs("\n[search]\n", out);
		ns_ini_put(out, "text", spec.text);
		ns_ini_putf(out, "column", "%s", ns_search_column_name(spec.column));
		ns_ini_putf(out, "mode", "%s", ns_search_mode_name(spec.mode));
		ns_ini_putf(out, "direction", "%s", spec.backward ? "backward" : "forward");
		ns_ini_putf(out, "ignore-case", "%s", spec.ignore_case ? "yes" : "no");
	}
	if (s->have & NS_SESS_STREAMS)
		ns_session_write_streams(s, out);
	ns_session_write_files(s, out);
	return ferror(out) ? -EIO : 0;
}

int ns_session_save_text(const char *path, int (*write_fn)(const void *obj, FILE *out),
			 const void *obj, const struct ns_save *how, char *err, size_t err_len)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int ret;

	if (!mem) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	ret = write_fn(obj, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret)
		snprintf(err, err_len, "out of memory");
	else
		ret = ns_savefile_write(path, buf, len, how, err, err_len);
	free(buf);
	return ret;
}

static int write_session(const void *obj, FILE *out)
{
	return ns_session_write(obj, out);
}

int ns_session_save(const struct ns_session *s, const char *path, const struct ns_save *how,
		    char *err, size_t err_len)
{
	return ns_session_save_text(path, write_session, s, how, err, err_len);
}
