// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sessions and filter files, saved and read back: every field comes back
 * exactly, through the text of the file (a view on the bundled sample after
 * zooms, selections, markers; filter entries of every kind, mode and place
 * with awkward text; task rows, hidden CPUs, the last search). A session
 * applied to a changed trace keeps what still holds and says what it
 * skipped. Filter entries a trace cannot use are reported and dropped. The
 * per-trace file name is readable and unique; the XDG variables are obeyed.
 */
#include <errno.h>
#include <stdint.h>

#include "nurseshark/model.h"
#include "nurseshark/session.h"
#include "traces.h"

static char *text_of(const struct ns_session *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ns_session_write(s, f);
	fclose(f);
	return buf;
}

static int same_filters(const struct ns_filter_set *a, const struct ns_filter_set *b,
			const char *what)
{
	struct ns_search_spec sa, sb;
	struct ns_filter_entry ea, eb;
	int i, bad = 0, ha, hb;

	if (ns_filter_set_nr_entries(a) != ns_filter_set_nr_entries(b)) {
		printf("  %s: %d entries, want %d\n", what, ns_filter_set_nr_entries(b),
		       ns_filter_set_nr_entries(a));
		return 0;
	}
	for (i = 0; i < ns_filter_set_nr_entries(a); i++) {
		ns_filter_set_entry(a, i, &ea);
		ns_filter_set_entry(b, i, &eb);
		if (ea.kind != eb.kind || ea.mode != eb.mode || ea.where != eb.where ||
		    ea.value != eb.value || !ea.name != !eb.name ||
		    (ea.name && strcmp(ea.name, eb.name))) {
			printf("  %s: entry %d differs: '%s' / '%s'\n", what, i,
			       ea.name ? ea.name : "", eb.name ? eb.name : "");
			bad++;
		}
	}
	if (ns_filter_set_nr_task_rows(a) != ns_filter_set_nr_task_rows(b))
		bad++;
	for (i = 0; i < ns_filter_set_nr_task_rows(a); i++)
		bad += ns_filter_set_task_row(a, i) != ns_filter_set_task_row(b, i);
	for (i = 0; i < 70; i++)
		bad += ns_filter_set_cpu_hidden(a, i) != ns_filter_set_cpu_hidden(b, i);
	ha = ns_filter_set_saved_search(a, &sa);
	hb = ns_filter_set_saved_search(b, &sb);
	if (ha != hb || (!ha && (sa.column != sb.column || sa.mode != sb.mode ||
				 sa.backward != sb.backward || sa.ignore_case != sb.ignore_case ||
				 strcmp(sa.text, sb.text)))) {
		printf("  %s: the search differs\n", what);
		bad++;
	}
	return !bad;
}

static int same_view(const struct ns_view *a, const struct ns_view *b)
{
	int m, same = a->start_ns == b->start_ns && a->end_ns == b->end_ns &&
		      a->selected == b->selected && a->selected_ns == b->selected_ns &&
		      a->list_top == b->list_top && a->graph_follows == b->graph_follows &&
		      a->active_marker == b->active_marker;

	for (m = 0; m < NS_NR_MARKERS; m++)
		same = same && a->marker[m].set == b->marker[m].set &&
		       a->marker[m].row == b->marker[m].row &&
		       a->marker[m].ts_ns == b->marker[m].ts_ns;
	if (!same)
		printf("  window %llu-%llu / %llu-%llu, selected %llu / %llu, top %llu / %llu\n",
		       (unsigned long long)a->start_ns, (unsigned long long)a->end_ns,
		       (unsigned long long)b->start_ns, (unsigned long long)b->end_ns,
		       (unsigned long long)a->selected, (unsigned long long)b->selected,
		       (unsigned long long)a->list_top, (unsigned long long)b->list_top);
	return same;
}

/* Every kind, mode and place, with text that needs quoting, escapes and continuation lines. */
static void rich_filters(struct ns_filter_set *fs)
{
	static char long_expr[3200], all_bytes[NS_SEARCH_MAX_TEXT];
	struct ns_filter_entry e;
	struct ns_search_spec spec;
	int i;

	strcpy(long_expr, "sched/sched_switch: ");
	for (i = 0; strlen(long_expr) < sizeof(long_expr) - 80; i++)
		sprintf(long_expr + strlen(long_expr), "prev_pid == %d || ", i);
	strcat(long_expr, "prev_comm == \"a;b \\\" c\"");
	e = (struct ns_filter_entry){ NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, 15974, NULL };
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_TASK, NS_FILTER_SHOW, NS_FILTER_GRAPH, 18, NULL };
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_EVENT, NS_FILTER_SHOW, NS_FILTER_LIST, 0,
				      "sched/sched_switch" };
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_SYSTEM, NS_FILTER_HIDE, NS_FILTER_GRAPH, 0, "irq" };
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_CPU, NS_FILTER_HIDE, NS_FILTER_LIST, 0, NULL };
	e.value = 1;
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
				      long_expr };
	ns_filter_set_add(fs, &e);
	e = (struct ns_filter_entry){ NS_FILTER_ADVANCED, NS_FILTER_HIDE, NS_FILTER_LIST, 0,
				      "  leading and trailing blanks\t; x = \"y\" # z \\ " };
	ns_filter_set_add(fs, &e);
	ns_filter_set_add_task_row(fs, 15974);
	ns_filter_set_add_task_row(fs, 18);
	ns_filter_set_hide_cpu(fs, 0, 1);
	ns_filter_set_hide_cpu(fs, 63, 1);
	/*
	 * every byte but NUL, in a search of the longest text the model keeps
	 * (not a regex: one that does not compile is not restored)
	 */
	for (i = 0; i < NS_SEARCH_MAX_TEXT - 1; i++)
		all_bytes[i] = (char)(i % 255 + 1);
	memset(&spec, 0, sizeof(spec));
	spec.column = NS_SEARCH_INFO;
	spec.mode = NS_SEARCH_NOT_CONTAINS;
	spec.backward = 1;
	spec.ignore_case = 1;
	memcpy(spec.text, all_bytes, sizeof(spec.text));
	ns_filter_set_save_search(fs, &spec);
}

static void round_trip(struct ns_trace *t, const char *path)
{
	struct ns_session s, r;
	struct ns_session_trace_id id;
	struct ns_view v, w;
	struct ns_diag d;
	char *text, *again;
	unsigned applied;
	uint64_t n = ns_trace_nr_events(t);
	int ok;

	ns_view_init(&v, t, 120, 20);
	ns_view_zoom(&v, 3);
	ns_view_select(&v, n / 2);
	ns_view_set_marker(&v, NS_MARKER_A);
	ns_view_move(&v, 77);
	ns_view_set_marker(&v, NS_MARKER_B);
	ns_view_switch_marker(&v);
	ns_view_move(&v, 5);
	/* the selection in the middle of the list: a list top no selection implies */
	ns_view_scroll(&v, 10);
	ns_view_pan(&v, 13);
	v.graph_follows = 0;

	ns_session_init(&s);
	ns_session_init(&r);
	ns_diag_init(&d);
	CHECK(!ns_session_trace_id_get(path, &id) && id.path[0] == '/' && id.size > 0,
	      "session: the trace's identity (%s, %llu bytes)", id.path,
	      (unsigned long long)id.size);
	rich_filters(s.filters);
	{
		struct ns_filter_set *fs = ns_filter_set_alloc();

		rich_filters(fs);
		CHECK(!ns_session_capture(&s, &id, &v, fs), "session: capture a view and filters");
		ns_filter_set_free(fs);
	}
	s.have |= NS_SESS_FOCUS | NS_SESS_GRAPH_ROWS | NS_SESS_INFO_SCROLL | NS_SESS_CURSOR;
	s.focus_graph = 1;
	s.graph_rows = 7;
	s.info_scroll = 24;
	s.cursor_cpu = 1;
	s.cursor_col = 99;

	text = text_of(&s);
	ns_session_parse(&r, "round-trip", text, strlen(text), &d);
	CHECK(!ns_diag_count(&d), "session: the text written reads back without a message%s%s",
	      d.nr ? ": " : "", d.nr ? d.msg[0] : "");
	again = text_of(&r);
	CHECK(!strcmp(text, again), "session: written, read and written again: the same text "
	      "(%zu bytes)", strlen(text));
	ok = r.have == s.have && !strcmp(r.trace.path, s.trace.path) &&
	     r.trace.size == s.trace.size && r.trace.mtime_s == s.trace.mtime_s &&
	     r.trace.mtime_ns == s.trace.mtime_ns && r.nr_events == s.nr_events &&
	     r.start_ns == s.start_ns && r.end_ns == s.end_ns && r.selected == s.selected &&
	     r.selected_ns == s.selected_ns && r.list_top == s.list_top &&
	     r.graph_follows == s.graph_follows && r.active_marker == s.active_marker &&
	     !memcmp(r.marker, s.marker, sizeof(r.marker)) && r.focus_graph == s.focus_graph &&
	     r.graph_rows == s.graph_rows && r.info_scroll == s.info_scroll &&
	     r.cursor_cpu == s.cursor_cpu && r.cursor_col == s.cursor_col;
	CHECK(ok, "session: every field comes back exactly (have %#x / %#x)", r.have, s.have);
	CHECK(same_filters(s.filters, r.filters, "session"), "session: filter entries (quotes, "
	      "';', blanks, a %d-byte expression), task rows, hidden CPUs, the search of every "
	      "byte come back exactly", 3200);
	CHECK(ns_session_compare_trace(&r, &id) == 0, "session: the same trace compares equal");

	/* applied on a fresh view, the view is the one saved */
	ns_view_init(&w, t, 120, 20);
	ns_session_apply(&r, &w, "round-trip", &d, &applied);
	CHECK(same_view(&v, &w) && !ns_diag_count(&d), "session: applied to a fresh view it "
	      "gives the view saved: window, selection, list top, markers, active, follow");

	/* the trace changed: rows that no longer have their time are left out, and said */
	r.marker[NS_MARKER_A].ts_ns += 1;
	r.start_ns = 1;
	r.trace.size += 1;
	ns_view_free(&w);
	ns_view_init(&w, t, 120, 20);
	ns_session_apply(&r, &w, "changed.ini", &d, &applied);
	CHECK(ns_session_compare_trace(&r, &id) == NS_SESSION_TRACE_CHANGED, "session: a trace of "
	      "another size compares as changed");
	CHECK(!w.marker[NS_MARKER_A].set && w.marker[NS_MARKER_B].set &&
	      !(applied & NS_SESS_WINDOW) && (applied & NS_SESS_SELECTED) && d.nr == 2 &&
	      strstr(d.msg[0], "changed.ini: marker A") && strstr(d.msg[1], "window"),
	      "session: on a changed trace, what no longer holds is skipped with a message "
	      "(%s)", d.nr ? d.msg[0] : "none");
	free(r.trace.path);
	r.trace.path = strdup("/elsewhere/trace.dat");
	r.trace.size -= 1;
	CHECK(ns_session_compare_trace(&r, &id) == NS_SESSION_TRACE_MOVED, "session: another path "
	      "compares as moved");

	ns_view_free(&w);
	ns_view_free(&v);
	ns_session_trace_id_free(&id);
	ns_session_free(&s);
	ns_session_free(&r);
	ns_diag_free(&d);
	free(text);
	free(again);
}

static void filter_files(struct ns_trace *t)
{
	struct ns_filter_set *a = ns_filter_set_alloc(), *b = ns_filter_set_alloc();
	struct ns_filter_entry e;
	struct ns_diag d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int removed;

	rich_filters(a);
	ns_filters_write(a, f);
	fclose(f);
	ns_diag_init(&d);
	ns_filters_parse(b, "f.ini", buf, len, &d);
	CHECK(!d.nr && ns_filter_set_nr_entries(b) == ns_filter_set_nr_entries(a) &&
	      !ns_filter_set_nr_task_rows(b), "filters: a filter file brings back the entries "
	      "(%d) and nothing of one trace (no task rows)", ns_filter_set_nr_entries(b));
	{
		struct ns_filter_set *only = ns_filter_set_alloc();

		ns_session_copy_filters(only, a, NS_SESS_FILTERS);
		CHECK(same_filters(only, b, "filter file"), "filters: every entry comes back "
		      "exactly, in order");
		ns_filter_set_free(only);
	}

	/* what this trace cannot use is reported and dropped; the rest is kept */
	ns_filter_set_clear_entries(b);
	e = (struct ns_filter_entry){ NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, 15974, NULL };
	ns_filter_set_add(b, &e);
	e.value = 999999;
	ns_filter_set_add(b, &e);
	e = (struct ns_filter_entry){ NS_FILTER_EVENT, NS_FILTER_SHOW, NS_FILTER_LIST, 0,
				      "sched/sched_switch" };
	ns_filter_set_add(b, &e);
	e.name = "sched/no_such_event";
	ns_filter_set_add(b, &e);
	e = (struct ns_filter_entry){ NS_FILTER_SYSTEM, NS_FILTER_HIDE, NS_FILTER_GRAPH, 0, "irq" };
	ns_filter_set_add(b, &e);
	e.name = "no_such_system";
	ns_filter_set_add(b, &e);
	e = (struct ns_filter_entry){ NS_FILTER_CPU, NS_FILTER_HIDE, NS_FILTER_LIST, 1, NULL };
	ns_filter_set_add(b, &e);
	e.value = 7;
	ns_filter_set_add(b, &e);
	e = (struct ns_filter_entry){ NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
				      "sched/sched_switch: prev_pid == 0" };
	ns_filter_set_add(b, &e);
	e.name = "sched/sched_switch: no_such_field === 0";
	ns_filter_set_add(b, &e);
	ns_diag_free(&d);
	removed = ns_filters_keep_applicable(b, t, "f.ini", &d);
	CHECK(removed == 5 && ns_filter_set_nr_entries(b) == 5 && d.nr == 5 &&
	      strstr(d.msg[0], "f.ini: filter 'task = hide both") && strstr(d.msg[0], "999999") &&
	      strstr(d.msg[1], "no_such_event") && strstr(d.msg[2], "no_such_system") &&
	      strstr(d.msg[3], "CPU7"), "filters: entries this trace lacks (a pid, an event, "
	      "a system, a CPU, a bad expression) are reported and dropped, the rest kept "
	      "(%d removed)", removed);
	ns_filter_set_free(a);
	ns_filter_set_free(b);
	ns_diag_free(&d);
	free(buf);
}

static void paths(void)
{
	char err[128], *p, *q, *dir;
	char longpath[600];

	p = ns_session_auto_path("/s", "/home/ann/traces/boot.dat");
	CHECK(p && !strncmp(p, "/s/home_ann_traces_boot.dat-", 28) && strlen(p) == 28 + 12 &&
	      !strcmp(p + strlen(p) - 4, ".ini"), "paths: a trace's session file is named "
	      "after its path (%s)", p);
	q = ns_session_auto_path("/s", "/home/ann/traces_boot.dat");
	CHECK(q && strcmp(p, q), "paths: two paths that read alike get two files (%s)", q);
	free(p);
	free(q);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	p = ns_session_auto_path("/s", longpath);
	CHECK(p && strlen(p) < 120, "paths: a very long path makes a name of %zu bytes",
	      p ? strlen(p) : 0);
	free(p);
	p = ns_session_auto_path("/s", "/..");
	CHECK(p && !strstr(p, "/.."), "paths: no hidden file, no '..' (%s)", p);
	free(p);

	setenv("XDG_STATE_HOME", "/state", 1);
	setenv("XDG_CONFIG_HOME", "/conf", 1);
	setenv("HOME", "/home/ann", 1);
	dir = ns_session_state_dir(err, sizeof(err));
	p = ns_config_default_path(err, sizeof(err));
	CHECK(dir && !strcmp(dir, "/state/nurseshark") && p &&
	      !strcmp(p, "/conf/nurseshark/config.ini"), "paths: $XDG_STATE_HOME and "
	      "$XDG_CONFIG_HOME are obeyed");
	free(dir);
	free(p);
	setenv("XDG_STATE_HOME", "relative", 1);
	setenv("XDG_CONFIG_HOME", "", 1);
	dir = ns_session_state_dir(err, sizeof(err));
	p = ns_config_default_path(err, sizeof(err));
	CHECK(dir && !strcmp(dir, "/home/ann/.local/state/nurseshark") && p &&
	      !strcmp(p, "/home/ann/.config/nurseshark/config.ini"), "paths: a relative or "
	      "empty XDG variable is ignored for $HOME/.local/state and $HOME/.config");
	free(dir);
	free(p);
}

/* A saved search is kept when it compiles, and said and dropped when its regex does not. */
static void search_regex(void)
{
	static const char good[] = "[search]\ntext = a[bc]+\nmode = regex\n";
	static const char bad[] = "[search]\nmode = regex\ntext = a[bc\nignore-case = yes\n";
	struct ns_search_spec spec;
	struct ns_session s;
	struct ns_diag d;

	ns_diag_init(&d);
	ns_session_init(&s);
	ns_session_parse(&s, "good.ini", good, strlen(good), &d);
	CHECK(!d.nr && (s.have & NS_SESS_SEARCH) && !ns_filter_set_saved_search(s.filters, &spec) &&
	      !strcmp(spec.text, "a[bc]+"), "search: a regex that compiles is restored");
	ns_session_free(&s);
	ns_session_init(&s);
	ns_session_parse(&s, "bad.ini", bad, strlen(bad), &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "bad.ini:3: text: the search is not restored: a[bc") &&
	      !(s.have & NS_SESS_SEARCH) && ns_filter_set_saved_search(s.filters, &spec),
	      "search: a regex that does not compile is reported at its text line and not "
	      "restored (%s)", d.nr ? d.msg[0] : "no message");
	ns_session_free(&s);
	ns_diag_free(&d);
}

/* A session's [streams] on instance.dat (top and extra), opened whole and with extra only. */
static void streams(const char *top)
{
	static const char chose[] = "[streams]\nfile-buffer = top\nfile-buffer = extra\n"
				    "buffer = extra\n";
	static const char gone[] = "[streams]\nfile-buffer = top\nfile-buffer = extra\n"
				   "file-buffer = gone\nbuffer = top\nbuffer = extra\n"
				   "[filters]\nstream = hide both gone\nstream = show list extra\n";
	static const char bad[] = "[streams]\nbuffers = top\n";
	static const char *const only_extra[] = { "extra" };
	struct ns_trace_open_opts opts = { .buffers = only_extra, .nr_buffers = 1 };
	struct ns_trace *whole, *extra;
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_filter_entry e;
	const char *names[8];
	char path[4096], err[256], *text;
	struct ns_session s, r;
	struct ns_diag d;
	int n;

	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	whole = ns_trace_open(path, err, sizeof(err));
	extra = ns_trace_open_async_opts(path, &opts, err, sizeof(err));
	if (!whole || !extra || ns_trace_wait(extra, err, sizeof(err))) {
		FAIL("open instance.dat: %s", err);
		goto out;
	}
	CHECK(ns_trace_file_nr_buffers(extra) == 2 && ns_trace_nr_streams(extra) == 1,
	      "instance.dat with --buffer extra: the file has 2 buffers, 1 is read");

	ns_diag_init(&d);
	ns_session_init(&s);
	ns_session_parse(&s, "chose.ini", chose, strlen(chose), &d);
	n = ns_session_buffer_choice(&s, whole, "chose.ini", &d, names, 8);
	CHECK(n == 1 && !strcmp(names[0], "extra") && d.nr == 1 &&
	      strstr(d.msg[0], "read the buffers extra only"),
	      "streams: a session that read extra only brings that choice back to the whole "
	      "file, and says so (%s)", d.nr ? d.msg[0] : "no message");
	ns_diag_free(&d);
	ns_diag_init(&d);
	n = ns_session_buffer_choice(&s, extra, "chose.ini", &d, names, 8);
	CHECK(n == 0 && d.nr == 0, "streams: nothing to do when the trace reads that choice");
	text = text_of(&s);
	ns_session_init(&r);
	ns_session_parse(&r, "again", text, strlen(text), &d);
	CHECK(text && strstr(text, "[streams]\nfile-buffer = top\nfile-buffer = extra\n"
			     "buffer = extra\n") && r.nr_buffers == 1 && r.nr_file_buffers == 2 &&
	      !d.nr, "streams: written and read back");
	free(text);
	ns_session_free(&r);
	ns_session_free(&s);

	ns_session_init(&s);
	ns_session_parse(&s, "gone.ini", gone, strlen(gone), &d);
	n = ns_session_buffer_choice(&s, whole, "gone.ini", &d, names, 8);
	CHECK(n == 0 && d.nr == 1 && strstr(d.msg[0], "the trace's buffers changed since the "
					   "session: it had top, extra, gone; it has top, extra"),
	      "streams: a file whose buffers changed is said so (%s)",
	      d.nr ? d.msg[0] : "no message");
	ns_diag_free(&d);
	ns_diag_init(&d);
	ns_session_restore_filters(&s, fs, whole, "gone.ini", &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "this trace has no buffer gone (read: top, extra)") &&
	      ns_filter_set_nr_entries(fs) == 1 && !ns_filter_set_entry(fs, 0, &e) &&
	      e.kind == NS_FILTER_STREAM && !strcmp(e.name, "extra") && e.where == NS_FILTER_LIST,
	      "streams: a stream filter of a buffer the file lacks is dropped and said (%s); "
	      "the other is restored", d.nr ? d.msg[0] : "no message");
	ns_diag_free(&d);
	ns_diag_init(&d);
	ns_filter_set_clear_entries(fs);
	ns_session_restore_filters(&s, fs, extra, "gone.ini", &d);
	CHECK(ns_filter_set_nr_entries(fs) == 1 && d.nr == 1 &&
	      strstr(d.msg[0], "(read: extra)"), "streams: with --buffer extra, the filter of "
	      "extra stays (%s)", d.nr ? d.msg[0] : "no message");
	ns_session_free(&s);
	ns_diag_free(&d);
	ns_diag_init(&d);
	ns_session_init(&s);
	ns_session_parse(&s, "bad.ini", bad, strlen(bad), &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "unknown name 'buffers' in [streams]"),
	      "streams: an unknown name is reported (%s)", d.nr ? d.msg[0] : "no message");
	ns_session_free(&s);
	ns_diag_free(&d);
out:
	ns_filter_set_free(fs);
	ns_trace_close(whole);
	ns_trace_close(extra);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	char path[4096], err[256];
	struct ns_trace *t;

	snprintf(path, sizeof(path), "%s/contrib/sample.dat", top);
	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("open sample: %s", err);
		return 1;
	}
	round_trip(t, path);
	search_regex();
	filter_files(t);
	paths();
	streams(top);
	ns_trace_close(t);
	return check_failures ? 1 : 0;
}
