// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sessions, the front end's side: config.ini and a restored session put on
 * the screen at start, the session handed to main.c on the way out, the
 * :save-session, :load-session, :save-filters and :load-filters commands,
 * the "start fresh" key and the keys that size the graph pane. The files
 * themselves are src/session's; here a session becomes view and pane state
 * and back. Every problem ends in the status line as "FILE:LINE: message":
 * the first one, and how many more --check-config would list. A save onto
 * a file of ours asks "replace it? (y/n)" first; what is not ours the
 * session layer refuses (savefile.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nurseshark/session.h"
#include "filtering.h"
#include "prompt.h"

/* A message for the status line: "/home/ann/.config/x/config.ini:3: ..." as "config.ini:3: ...". */
static const char *brief(const char *msg)
{
	const char *colon = strchr(msg, ':'), *slash = NULL, *p;

	if (msg[0] != '/' || !colon)
		return msg;
	for (p = msg; p < colon; p++)
		if (*p == '/')
			slash = p;
	return slash ? slash + 1 : msg;
}

/* One status line for a list of problems: the first, and a count of the rest. */
static void show_problems(struct ns_tui *t, const char *lead, const struct ns_diag *d)
{
	int n = ns_diag_count(d);
	char more[32] = "";

	if (!n) {
		if (lead)
			ns_tui_message(t, "%s", lead);
		return;
	}
	if (n > 1)
		snprintf(more, sizeof(more), " (+%d more)", n - 1);
	ns_tui_message(t, "%s%s%s%s", lead ? lead : "", lead ? "; " : "",
		       d->nr ? brief(d->msg[0]) : "problems in the files read", more);
}

/* "~/x" is $HOME/x; anything else as typed. Malloc'd. */
static char *expand(const char *file)
{
	const char *home = getenv("HOME");
	char *out;

	if (file[0] == '~' && (file[1] == '/' || !file[1]) && home && *home) {
		if (asprintf(&out, "%s%s", home, file + 1) < 0)
			return NULL;
		return out;
	}
	return strdup(file);
}

/* The screen's own fields of a session: panes, sideways scroll, the graph cursor. */
static void apply_panes(struct ns_tui *t, const struct ns_session *s)
{
	if (s->have & NS_SESS_GRAPH_ROWS)
		t->graph_rows = s->graph_rows;
	if (s->have & NS_SESS_FOCUS)
		t->focus = s->focus_graph ? NS_FOCUS_GRAPH : NS_FOCUS_LIST;
	if (s->have & NS_SESS_INFO_SCROLL)
		t->info_scroll = s->info_scroll;
	if (s->have & NS_SESS_GRAPH_ROWS)
		ns_tui_layout(t, t->lay.cols, t->lay.rows);
}

static void apply_cursor(struct ns_tui *t, const struct ns_session *s)
{
	if (!(s->have & NS_SESS_CURSOR)) {
		ns_tui_cursor_to_selection(t);
		return;
	}
	t->cursor_cpu = s->cursor_cpu;
	t->cursor_col = s->cursor_col < t->view.cols ? s->cursor_col : t->view.cols - 1;
	ns_tui_show_cursor_cpu(t);
}

/* Say how the session's trace compares with the one on screen. */
static void compare_trace(const struct ns_session *s, const char *what,
			  const struct ns_session_trace_id *id, struct ns_diag *d)
{
	int cmp = id ? ns_session_compare_trace(s, id) : 0;

	if (cmp & NS_SESSION_TRACE_MOVED)
		ns_diag_add(d, what, 0, "saved for %s; applied to %s as far as it holds",
			    s->trace.path, id->path);
	if (cmp & NS_SESSION_TRACE_CHANGED)
		ns_diag_add(d, what, 0, "the trace changed since it was saved (size or time); "
			    "only what still holds was restored");
}

/* What n and N repeat: the search of the filter set (none: none). */
static void sync_search(struct ns_tui *t)
{
	struct ns_search_spec spec;
	struct ns_search *search = NULL;
	char err[256];

	if (!ns_filter_set_saved_search(t->flt->fs, &spec))
		search = ns_search_compile(&spec, err, sizeof(err));
	ns_search_free(t->flt->search);
	t->flt->search = search;
}

/* The filter set changed here: filter now, so that the view lands on the rows it shows. */
static void refilter_now(struct ns_tui *t)
{
	ns_tui_refilter(t);
	while (ns_tui_busy(t))
		ns_tui_work(t);
	sync_search(t);
}

/* A session on the screen: its filters (when @filters), panes, then the view. */
static void restore(struct ns_tui *t, const struct ns_session *s, const char *what,
		    int filters, struct ns_diag *d)
{
	const char *buffers[64];
	unsigned applied;

	/* several files: each compared with the session's ([trace] is the first) */
	if (ns_trace_nr_files(t->trace) > 1 || s->nr_files > 1)
		ns_session_compare_files(s, t->trace, what, d);
	else
		compare_trace(s, what, t->setup ? t->setup->trace_id : NULL, d);
	/* the buffers: the file's changed, or the session read others (main.c reopens at start) */
	if (ns_trace_nr_files(t->trace) < 2)
		ns_session_buffer_choice(s, t->trace, what, d, buffers, NS_ARRAY_SIZE(buffers));
	if (filters && t->flt) {
		ns_tui_filters_begin_change(t);
		ns_session_restore_filters(s, t->flt->fs, t->trace, what, d);
		refilter_now(t);
	}
	apply_panes(t, s);
	ns_session_apply(s, &t->view, what, d, &applied);
	apply_cursor(t, s);
}

/**
 * ns_tui_persist_start - config.ini and the session of the setup, at start
 * Called once the front end is open, before the first frame.
 */
void ns_tui_persist_start(struct ns_tui *t, const struct ns_tui_setup *setup)
{
	struct ns_diag d;
	char lead[160] = "";
	int i;

	t->setup = setup;
	if (!setup)
		return;
	ns_diag_init(&d);
	for (i = 0; setup->problems && i < setup->problems->nr; i++)
		ns_diag_add(&d, NULL, 0, "%s", setup->problems->msg[i]);
	d.dropped += setup->problems ? setup->problems->dropped : 0;
	if (setup->config) {
		ns_tui_config_apply(t, setup->config, &d);
		ns_tui_layout(t, t->lay.cols, t->lay.rows);
	}
	if (setup->session) {
		/*
		 * The list's rows are those the filters show: let the first filter
		 * pass end, so that the list's first row comes back where it was.
		 */
		while (ns_tui_busy(t))
			ns_tui_work(t);
		/* its filters are main.c's to restore, before the command line's */
		restore(t, setup->session, setup->session_name, 0, &d);
		snprintf(lead, sizeof(lead), "Session restored (%s: start fresh)",
			 t->keymap.text[NS_ACT_FRESH_START][NS_SCOPE_ANY][0] ?
			 t->keymap.text[NS_ACT_FRESH_START][NS_SCOPE_ANY] : ":fresh");
	}
	show_problems(t, lead[0] ? lead : NULL, &d);
	ns_diag_free(&d);
}

/* The session of the screen as it is now. 0 or -ENOMEM. */
static int capture(struct ns_tui *t, struct ns_session *s)
{
	int ret = ns_session_capture(s, t->setup ? t->setup->trace_id : NULL, &t->view,
				     t->flt ? t->flt->fs : NULL);

	s->have |= NS_SESS_FOCUS | NS_SESS_GRAPH_ROWS | NS_SESS_INFO_SCROLL | NS_SESS_CURSOR;
	s->focus_graph = t->focus == NS_FOCUS_GRAPH;
	s->graph_rows = t->graph_rows;
	s->info_scroll = t->info_scroll;
	s->cursor_cpu = t->cursor_cpu;
	s->cursor_col = t->cursor_col;
	return ret;
}

/**
 * ns_tui_persist_exit - hand the session to keep to main.c (setup->at_exit)
 * Called on every orderly way out, the terminal already given back.
 */
void ns_tui_persist_exit(struct ns_tui *t)
{
	struct ns_session s;

	if (!t->setup || !t->setup->at_exit || !t->view_ready)
		return;
	if (ns_session_init(&s) || capture(t, &s)) {
		ns_session_free(&s);
		return;
	}
	t->setup->at_exit(t->setup->at_exit_arg, &s);
	ns_session_free(&s);
}

/* The trace's own session file, for the commands given no FILE. */
static char *auto_path(const struct ns_tui *t)
{
	char err[128], *dir;
	char *path;

	if (!t->setup || !t->setup->trace_id || !t->setup->trace_id->path)
		return NULL;
	dir = ns_session_state_dir(err, sizeof(err));
	if (!dir)
		return NULL;
	if (ns_session_mkdirs(dir)) {
		free(dir);
		return NULL;
	}
	path = ns_session_auto_path(dir, t->setup->session_key ? t->setup->session_key :
				    t->setup->trace_id->path);
	free(dir);
	return path;
}

/*
 * A save refused with -EEXIST is a file of ours: ask, and save again with
 * NS_SAVE_REPLACE on y. The session layer refuses what is not ours.
 */
static void save_session_as(struct ns_tui *t, const char *file, unsigned flags);

static void answer_session(struct ns_tui *t, int yes, const char *file)
{
	if (yes)
		save_session_as(t, file, NS_SAVE_REPLACE);
	else
		ns_tui_message(t, "Session not saved: the file is kept");
}

static void save_session_as(struct ns_tui *t, const char *file, unsigned flags)
{
	char *path = *file ? expand(file) : auto_path(t), err[512];
	struct ns_save how = { .flags = flags, .keep = t->setup ? t->setup->trace_id : NULL };
	struct ns_session s;
	int ret;

	if (!path) {
		ns_tui_message(t, "Usage: save-session FILE (no state directory for the default)");
		return;
	}
	/* the trace's own session is replaced on exit anyway: no question for it */
	if (!*file)
		how.flags |= NS_SAVE_REPLACE;
	if (ns_session_init(&s) || capture(t, &s))
		ns_tui_message(t, "Out of memory");
	else if ((ret = ns_session_save(&s, path, &how, err, sizeof(err))) == -EEXIST)
		ns_tui_confirm(t, answer_session, file, "%s: replace it? (y/n)", err);
	else if (ret)
		ns_tui_message(t, "Session not saved: %s", err);
	else
		ns_tui_message(t, "Session saved to %s", path);
	ns_session_free(&s);
	free(path);
}

static void save_session(struct ns_tui *t, const char *file)
{
	save_session_as(t, file, 0);
}

static void load_session(struct ns_tui *t, const char *file)
{
	char *path = *file ? expand(file) : auto_path(t), lead[600];
	struct ns_session s;
	struct ns_diag d;

	if (!path) {
		ns_tui_message(t, "Usage: load-session FILE");
		return;
	}
	ns_diag_init(&d);
	if (ns_session_init(&s)) {
		ns_tui_message(t, "Out of memory");
	} else if (!ns_session_read(&s, path, &d)) {
		restore(t, &s, path, 1, &d);
		snprintf(lead, sizeof(lead), "Session loaded from %s", path);
		show_problems(t, lead, &d);
	} else {
		show_problems(t, NULL, &d);
	}
	ns_session_free(&s);
	ns_diag_free(&d);
	free(path);
}

static void save_filters_as(struct ns_tui *t, const char *file, unsigned flags);

static void answer_filters(struct ns_tui *t, int yes, const char *file)
{
	if (yes)
		save_filters_as(t, file, NS_SAVE_REPLACE);
	else
		ns_tui_message(t, "Filters not saved: the file is kept");
}

static void save_filters_as(struct ns_tui *t, const char *file, unsigned flags)
{
	struct ns_save how = { .flags = flags, .keep = t->setup ? t->setup->trace_id : NULL };
	char *path, err[512];
	int ret;

	if (!*file) {
		ns_tui_message(t, "Usage: save-filters FILE");
		return;
	}
	path = expand(file);
	if (!path || !t->flt)
		ns_tui_message(t, "Out of memory");
	else if ((ret = ns_filters_save(t->flt->fs, path, &how, err, sizeof(err))) == -EEXIST)
		ns_tui_confirm(t, answer_filters, file, "%s: replace it? (y/n)", err);
	else if (ret)
		ns_tui_message(t, "Filters not saved: %s", err);
	else
		ns_tui_message(t, "%d filter%s saved to %s", ns_filter_set_nr_entries(t->flt->fs),
			       ns_filter_set_nr_entries(t->flt->fs) == 1 ? "" : "s", path);
	free(path);
}

static void save_filters(struct ns_tui *t, const char *file)
{
	save_filters_as(t, file, 0);
}

static void load_filters(struct ns_tui *t, const char *file)
{
	struct ns_filter_set *fs;
	char *path, lead[600];
	struct ns_diag d;
	int dropped;

	if (!*file) {
		ns_tui_message(t, "Usage: load-filters FILE");
		return;
	}
	path = expand(file);
	fs = ns_filter_set_alloc();
	ns_diag_init(&d);
	if (!path || !fs || !t->flt) {
		ns_tui_message(t, "Out of memory");
	} else if (!ns_filters_read(fs, path, &d)) {
		dropped = ns_filters_keep_applicable(fs, t->trace, path, &d);
		ns_tui_filters_begin_change(t);
		ns_filter_set_clear_entries(t->flt->fs);
		ns_session_copy_filters(t->flt->fs, fs, NS_SESS_FILTERS);
		ns_tui_refilter(t);
		snprintf(lead, sizeof(lead), "%d filter%s loaded from %s%s",
			 ns_filter_set_nr_entries(fs), ns_filter_set_nr_entries(fs) == 1 ? "" : "s",
			 path, dropped ? ", some skipped" : "");
		show_problems(t, lead, &d);
	} else {
		show_problems(t, NULL, &d);
	}
	ns_filter_set_free(fs);
	ns_diag_free(&d);
	free(path);
}

/* The command table's entries (commands.c): @file is the rest of the line. */
void ns_tui_cmd_save_session(struct ns_tui *t, char *file, int unused)
{
	save_session(t, file);
}

void ns_tui_cmd_load_session(struct ns_tui *t, char *file, int unused)
{
	load_session(t, file);
}

void ns_tui_cmd_save_filters(struct ns_tui *t, char *file, int unused)
{
	save_filters(t, file);
}

void ns_tui_cmd_load_filters(struct ns_tui *t, char *file, int unused)
{
	load_filters(t, file);
}

/* fresh-start: the view, panes and filters of a first opening, without the session. */
void ns_tui_fresh_start(struct ns_tui *t, int unused)
{
	struct ns_view *v = &t->view;
	const struct ns_tui_setup *setup = t->setup;
	int m;

	for (m = 0; m < NS_NR_MARKERS; m++)
		ns_view_clear_marker(v, m);
	v->active_marker = NS_MARKER_A;
	v->graph_follows = 1;
	ns_view_zoom_full(v);
	ns_view_select(v, 0);
	t->focus = NS_FOCUS_LIST;
	t->info_scroll = 0;
	t->graph_rows = setup && setup->config ? setup->config->graph_rows : 0;
	ns_tui_layout(t, t->lay.cols, t->lay.rows);
	if (t->flt) {
		ns_tui_filters_begin_change(t);
		if (setup && setup->fresh_filters)
			ns_filter_set_copy(t->flt->fs, setup->fresh_filters);
		else
			ns_session_reset_filters(t->flt->fs, ~0u);
		ns_tui_refilter(t);	/* in slices, as any change of filters */
		sync_search(t);
	}
	ns_view_select(v, ns_view_row_at_list_pos(v, 0));
	ns_tui_cursor_to_selection(t);
	ns_tui_message(t, "Started fresh: no session applied; quitting saves this one");
}

/* graph-bigger, graph-smaller: the graph pane one CPU row taller (@rows > 0) or shorter. */
void ns_tui_graph_resize(struct ns_tui *t, int rows)
{
	int now = t->lay.cpu_rows > 0 ? t->lay.cpu_rows : 1, want = now + rows;

	if (t->lay.too_small)
		return;
	t->graph_rows = want < 1 ? 1 : want > NS_SESSION_GRAPH_ROWS_MAX ?
			NS_SESSION_GRAPH_ROWS_MAX : want;
	ns_tui_layout(t, t->lay.cols, t->lay.rows);
	if (t->lay.cpu_rows == now)
		ns_tui_message(t, "The graph has %d rows: %s", now, rows > 0 ?
			       "no room or no more rows to show" : "the fewest");
}
