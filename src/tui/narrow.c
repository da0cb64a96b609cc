// SPDX-License-Identifier: GPL-2.0-only
/*
 * Narrowing the trace down: the filter set the user edits, the visibility
 * it gives the view, the graph's rows and the jobs that take long.
 *
 * A change goes: remember the set (undo) -> change it -> ns_tui_refilter():
 * the graph's rows are rebuilt at once (hidden CPUs, task rows), and when
 * the filter entries differ from those the current visibility was made from,
 * a filter pass starts. The pass, like a search, runs in slices of
 * NS_TUI_SLICE_MS between key reads (the terminal loop reads keys without
 * waiting while a job is under way), so the screen shows progress and Esc
 * cancels: a cancelled or refused change puts the set back as it was, and
 * the view keeps the visibility it had until a pass completes. Under
 * --snapshot a job runs to its end at once, so that screens are exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "narrow.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

const char *ns_tui_where_name(int where)
{
	switch (where) {
	case NS_FILTER_GRAPH:
		return "graph";
	case NS_FILTER_LIST:
		return "list";
	default:
		return "list and graph";
	}
}

int ns_tui_tasks_load(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	int n;

	if (nw->tasks)
		return 0;
	n = ns_task_list_build(t->trace, &nw->tasks);
	if (n < 0)
		return n;
	nw->nr_tasks = n;
	return 0;
}

/* ---- the graph's rows --------------------------------------------------------- */

static int push_grow(struct ns_tui_narrow *nw, int *cap, int kind, int id)
{
	if (nw->nr_grows == *cap) {
		int ncap = *cap ? *cap * 2 : 16;
		struct ns_tui_grow *n = realloc(nw->grows, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		nw->grows = n;
		*cap = ncap;
	}
	nw->grows[nw->nr_grows].kind = kind;
	nw->grows[nw->nr_grows].id = id;
	nw->nr_grows++;
	return 0;
}

/* Task rows as the set lists them, reusing those already built. */
static int sync_task_rows(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	int n = ns_filter_set_nr_task_rows(nw->fs), i, j;
	struct ns_task_row **rows;

	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		int pid = ns_filter_set_task_row(nw->fs, i);

		for (j = 0; j < nw->nr_trows; j++) {
			if (nw->trows[j] && ns_task_row_pid(nw->trows[j]) == pid) {
				rows[i] = nw->trows[j];
				nw->trows[j] = NULL;
				break;
			}
		}
		if (!rows[i])
			rows[i] = ns_task_row_open(t->trace, pid);
		if (!rows[i]) {
			while (i--)
				ns_task_row_close(rows[i]);
			free(rows);
			return -ENOMEM;
		}
	}
	for (j = 0; j < nw->nr_trows; j++)
		ns_task_row_close(nw->trows[j]);
	free(nw->trows);
	nw->trows = rows;
	nw->nr_trows = n;
	return 0;
}

static void rebuild_rows(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	int nr_cpus = ns_trace_nr_cpus(t->trace), cpu, cap = 0, i, old = nw->nr_grows;
	int old_label = t->lay.label_w, old_bar = t->lay.bar_h;

	if (sync_task_rows(t))
		ns_tui_message(t, "Out of memory: task rows are not shown");
	free(nw->grows);
	nw->grows = NULL;
	nw->nr_grows = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (!ns_filter_set_cpu_hidden(nw->fs, cpu) && ns_visible_graph_cpu(nw->vis, cpu))
			push_grow(nw, &cap, NS_GROW_CPU, cpu);
	for (i = 0; i < nw->nr_trows; i++)
		push_grow(nw, &cap, NS_GROW_TASK, i);
	/* the layout depends on the rows, their labels and the filter line */
	if (t->lay.cols && (old != nw->nr_grows || old_label != ns_tui_graph_label_w(t) ||
			    old_bar != ns_tui_bar_rows(t, t->lay.cols)))
		ns_tui_layout(t, t->lay.cols, t->lay.rows);
	else if (t->lay.cols)
		ns_tui_show_cursor_cpu(t);
}

int ns_tui_nr_graph_rows(const struct ns_tui *t)
{
	return t->nw ? t->nw->nr_grows : ns_trace_nr_cpus(t->trace);
}

const struct ns_tui_grow *ns_tui_graph_row(const struct ns_tui *t, int i)
{
	return t->nw && i >= 0 && i < t->nw->nr_grows ? &t->nw->grows[i] : NULL;
}

int ns_tui_row_of_cpu(const struct ns_tui *t, int cpu)
{
	int i;

	for (i = 0; t->nw && i < t->nw->nr_grows; i++)
		if (t->nw->grows[i].kind == NS_GROW_CPU && t->nw->grows[i].id == cpu)
			return i;
	return -1;
}

static void task_label(const struct ns_tui *t, int pid, char *buf, size_t len)
{
	snprintf(buf, len, "%.9s-%d", ns_trace_task_comm(t->trace, pid), pid);
}

void ns_tui_graph_row_label(const struct ns_tui *t, int i, char *buf, size_t len)
{
	const struct ns_tui_grow *g = ns_tui_graph_row(t, i);

	if (!g)
		snprintf(buf, len, "%s", "");
	else if (g->kind == NS_GROW_CPU)
		snprintf(buf, len, "CPU%d", g->id);
	else
		task_label(t, ns_task_row_pid(t->nw->trows[g->id]), buf, len);
}

int ns_tui_graph_label_w(const struct ns_tui *t)
{
	int nr_cpus = ns_trace_nr_cpus(t->trace), w, i;
	char buf[64];

	/* "CPU12", a blank, and a column for the arrows of scrolled rows */
	w = 3 + ns_tui_digits(nr_cpus > 1 ? nr_cpus - 1 : 0) + 2;
	for (i = 0; t->nw && i < t->nw->nr_trows; i++) {
		task_label(t, ns_task_row_pid(t->nw->trows[i]), buf, sizeof(buf));
		if ((int)strlen(buf) + 2 > w)
			w = (int)strlen(buf) + 2;
	}
	return w;
}

int ns_tui_graph_row_nearest(struct ns_tui *t, int i, int col, uint64_t *row)
{
	const struct ns_tui_grow *g = ns_tui_graph_row(t, i);
	uint64_t idx;
	int cpu;

	if (!g)
		return -1;
	if (g->kind == NS_GROW_CPU)
		return ns_view_nearest_row(&t->view, g->id, col, row);
	if (ns_task_row_nearest(t->nw->trows[g->id], ns_tui_col_mid_ns(t, col), &cpu, &idx))
		return -1;
	*row = ns_trace_row_of(t->trace, cpu, idx);
	return 0;
}

void ns_tui_draw_task_row(struct ns_tui *t, int y, int id)
{
	struct ns_tui_narrow *nw = t->nw;
	const struct ns_view *v = &t->view;
	int col, x0 = t->lay.label_w;

	if (id < 0 || id >= nw->nr_trows)
		return;
	if (nw->nr_tbins < v->cols) {
		struct ns_task_bin *nb = realloc(nw->tbins, v->cols * sizeof(*nb));

		if (!nb)
			return;
		nw->tbins = nb;
		nw->nr_tbins = v->cols;
	}
	ns_task_row_bins(nw->trows[id], nw->vis, v->start_ns, v->end_ns, v->cols, nw->tbins);
	for (col = 0; col < v->cols; col++) {
		const struct ns_task_bin *b = &nw->tbins[col];
		/* coloured by the CPU: cpu + 1, as 0 would be the idle role */
		attr_t attr = ns_tui_task_attr(&t->theme, b->cpu + 1);
		wchar_t ch = L' ';

		if (b->flags & NS_BIN_EVENTS)
			ch = t->glyphs.events;
		else if (b->flags & NS_BIN_RUNNING)
			ch = t->glyphs.running;
		ns_tui_put_glyph(t->graph, y, x0 + col, ch, ch == L' ' ?
				 t->theme.attr[NS_ROLE_NORMAL] : attr);
	}
}

/* ---- setup ------------------------------------------------------------------------ */

int ns_tui_narrow_open(struct ns_tui *t, const struct ns_tui_setup *setup)
{
	struct ns_tui_narrow *nw = calloc(1, sizeof(*nw));
	struct ns_search_spec spec;
	char err[256];

	if (!nw)
		return -ENOMEM;
	t->nw = nw;
	nw->where = NS_FILTER_BOTH;
	if (setup && setup->filters) {
		nw->fs = setup->filters;
	} else {
		nw->fs = ns_filter_set_alloc();
		nw->own_fs = 1;
	}
	nw->applied = ns_filter_set_alloc();
	if (!nw->fs || !nw->applied)
		return -ENOMEM;
	/* a search restored from a session is what n repeats */
	if (!ns_filter_set_saved_search(nw->fs, &spec))
		nw->search = ns_search_compile(&spec, err, sizeof(err));
	ns_tui_refilter(t);
	return 0;
}

void ns_tui_narrow_close(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	int i;

	if (!nw)
		return;
	t->view.visible = NULL;
	ns_visible_pass_free(nw->pass);
	ns_search_job_free(nw->sjob);
	ns_visible_free(nw->vis);
	ns_filter_set_free(nw->undo);
	ns_filter_set_free(nw->applied);
	if (nw->own_fs)
		ns_filter_set_free(nw->fs);
	for (i = 0; i < nw->nr_trows; i++)
		ns_task_row_close(nw->trows[i]);
	free(nw->trows);
	free(nw->grows);
	free(nw->tbins);
	ns_search_free(nw->search);
	ns_tui_history_free(&nw->history[0]);
	ns_tui_history_free(&nw->history[1]);
	ns_tui_picker_close(t);
	free(nw->tasks);
	free(nw);
	t->nw = NULL;
}

/* ---- filter changes and passes ----------------------------------------------------- */

void ns_tui_filters_begin_change(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;

	if (nw->undo)
		return;
	nw->undo = ns_filter_set_alloc();
	if (nw->undo && ns_filter_set_copy(nw->undo, nw->fs)) {
		ns_filter_set_free(nw->undo);
		nw->undo = NULL;
	}
}

/* Put the set back as it was before the change (Esc, a refused expression). */
static void restore_undo(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;

	if (nw->undo)
		ns_filter_set_copy(nw->fs, nw->undo);
	ns_filter_set_free(nw->undo);
	nw->undo = NULL;
	rebuild_rows(t);
}

static void end_job(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;

	ns_visible_pass_free(nw->pass);
	nw->pass = NULL;
	ns_search_job_free(nw->sjob);
	nw->sjob = NULL;
	nw->job = NS_JOB_NONE;
}

static void finish_filter(struct ns_tui *t, struct ns_visible *vis)
{
	struct ns_tui_narrow *nw = t->nw;
	struct ns_visible *old = nw->vis;
	uint64_t n = ns_trace_nr_events(t->trace), shown;

	end_job(t);
	ns_view_set_visible(&t->view, vis);
	nw->vis = vis;
	ns_visible_free(old);
	ns_filter_set_copy(nw->applied, nw->fs);
	ns_filter_set_free(nw->undo);
	nw->undo = NULL;
	rebuild_rows(t);
	ns_tui_cursor_to_selection(t);
	shown = ns_view_nr_rows(&t->view);
	if (!vis)
		ns_tui_message(t, "No filters: all %llu events shown", (unsigned long long)n);
	else if (!shown)
		ns_tui_message(t, "The filters hide every event (u clears them)");
	else
		ns_tui_message(t, "%llu of %llu events shown", (unsigned long long)shown,
			       (unsigned long long)n);
}

void ns_tui_refilter(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	char err[768];
	int ret;

	rebuild_rows(t);
	if (nw->job != NS_JOB_FILTER && ns_filter_set_same_entries(nw->fs, nw->applied)) {
		ns_filter_set_free(nw->undo);
		nw->undo = NULL;
		ns_filter_set_copy(nw->applied, nw->fs);
		return;
	}
	/* a pass or a search under way is for the old set: start again */
	end_job(t);
	ret = ns_visible_pass_begin(t->trace, nw->fs, &nw->pass, err, sizeof(err));
	if (ret) {
		/* refused: libtraceevent's message, and the old filters stay */
		restore_undo(t);
		ns_tui_message(t, "%s", err);
		return;
	}
	if (!nw->pass) {
		finish_filter(t, NULL);
		return;
	}
	nw->job = NS_JOB_FILTER;
	snprintf(nw->job_what, sizeof(nw->job_what), "Filtering");
	ns_tui_work(t);
}

void ns_tui_work(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	double t0 = now_ms();
	int ret, wrapped;

	switch (nw->job) {
	case NS_JOB_FILTER:
		do {
			ret = ns_visible_pass_step(nw->pass, 4096);
		} while (!ret && (nw->sync || now_ms() - t0 < NS_TUI_SLICE_MS));
		if (ret == 1) {
			finish_filter(t, ns_visible_pass_take(nw->pass));
		} else if (ret < 0) {
			end_job(t);
			restore_undo(t);
			ns_tui_message(t, "Filtering failed: %s; the filters are as they were",
				       strerror(-ret));
		}
		break;
	case NS_JOB_SEARCH:
		do {
			ret = ns_search_step(nw->sjob, 512);
		} while (!ret && (nw->sync || now_ms() - t0 < NS_TUI_SLICE_MS));
		if (ret == 1) {
			uint64_t row = ns_search_found(nw->sjob, &wrapped);
			int back = ns_search_spec(nw->search)->backward;

			end_job(t);
			ns_view_select(&t->view, row);
			ns_tui_cursor_to_selection(t);
			if (wrapped)
				ns_tui_message(t, "%s", back ?
					       "search hit TOP, continuing at BOTTOM" :
					       "search hit BOTTOM, continuing at TOP");
		} else if (ret < 0) {
			char what[300];

			ns_search_format(ns_search_spec(nw->search), what, sizeof(what));
			end_job(t);
			if (ret == -ENOENT)
				ns_tui_message(t, "Pattern not found: %s", what);
			else
				ns_tui_message(t, "Search failed: %s", strerror(-ret));
		}
		break;
	}
}

void ns_tui_cancel_job(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;

	if (nw->job == NS_JOB_FILTER) {
		end_job(t);
		restore_undo(t);
		ns_tui_message(t, "Filtering cancelled; the filters are as they were");
	} else if (nw->job == NS_JOB_SEARCH) {
		end_job(t);
		ns_tui_message(t, "Search cancelled");
	}
}

int ns_tui_busy(const struct ns_tui *t)
{
	return t->nw && t->nw->job != NS_JOB_NONE;
}

int ns_tui_modal(const struct ns_tui *t)
{
	return t->nw && (t->nw->prompt.kind != NS_PROMPT_NONE || t->nw->pick.kind != NS_PICK_NONE);
}

int ns_tui_narrow_key(struct ns_tui *t, int key)
{
	if (!t->nw)
		return 0;
	if (ns_tui_busy(t)) {
		/* while a job runs only Esc (cancel) and q are heard */
		if (key == 27)
			ns_tui_cancel_job(t);
		else if (key == 'q')
			t->quit = 1;
		return 1;
	}
	if (t->nw->prompt.kind != NS_PROMPT_NONE)
		return ns_tui_prompt_key(t, key);
	if (t->nw->pick.kind != NS_PICK_NONE)
		return ns_tui_picker_key(t, key);
	return 0;
}

/* ---- filters from the selected event ---------------------------------------------- */

int ns_tui_add_filter(struct ns_tui *t, int kind, int mode, int value, const char *name)
{
	struct ns_filter_entry e = {
		.kind = kind, .mode = mode, .where = t->nw->where, .value = value, .name = name,
	};
	int ret;

	ns_tui_filters_begin_change(t);
	ret = ns_filter_set_add(t->nw->fs, &e);
	if (ret) {
		ns_tui_message(t, "Cannot add the filter: %s", strerror(-ret));
		return ret;
	}
	ns_tui_refilter(t);
	return 0;
}

/* "Only this X": the other show-only entries of that kind, in the same panes, go. */
static void only(struct ns_tui *t, int kind, int value, const char *name)
{
	struct ns_tui_narrow *nw = t->nw;
	struct ns_filter_entry e;
	int i;

	ns_tui_filters_begin_change(t);
	for (i = ns_filter_set_nr_entries(nw->fs) - 1; i >= 0; i--) {
		ns_filter_set_entry(nw->fs, i, &e);
		if (e.mode == NS_FILTER_SHOW && e.where == nw->where &&
		    (e.kind == kind || (kind == NS_FILTER_EVENT && e.kind == NS_FILTER_SYSTEM)))
			ns_filter_set_remove(nw->fs, i);
	}
	ns_tui_add_filter(t, kind, NS_FILTER_SHOW, value, name);
}

static int selected(struct ns_tui *t, struct ns_pos *pos, struct ns_event *ev)
{
	if (!ns_view_nr_rows(&t->view)) {
		ns_tui_message(t, "No event is selected");
		return -1;
	}
	return ns_trace_row_event(t->trace, t->view.selected, pos, ev) ? -1 : 0;
}

static void event_name(const struct ns_tui *t, int type, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ns_trace_event_system(t->trace, type),
		 ns_trace_event_name(t->trace, type));
}

void ns_tui_toggle_task_row(struct ns_tui *t, int pid)
{
	struct ns_tui_narrow *nw = t->nw;
	char label[64];

	task_label(t, pid, label, sizeof(label));
	if (ns_filter_set_has_task_row(nw->fs, pid)) {
		ns_filter_set_remove_task_row(nw->fs, pid);
		ns_tui_message(t, "Task row %s removed", label);
	} else if (ns_filter_set_add_task_row(nw->fs, pid)) {
		ns_tui_message(t, "Out of memory");
		return;
	} else {
		ns_tui_message(t, "Task row %s added below the CPUs", label);
	}
	rebuild_rows(t);
}

void ns_tui_clear_filters(struct ns_tui *t)
{
	if (!ns_filter_set_nr_entries(t->nw->fs)) {
		ns_tui_message(t, "No filters to clear");
		return;
	}
	ns_tui_filters_begin_change(t);
	ns_filter_set_clear_entries(t->nw->fs);
	ns_tui_refilter(t);
}

/* ---- search ------------------------------------------------------------------------ */

static void search_from_selection(struct ns_tui *t, int backward)
{
	struct ns_tui_narrow *nw = t->nw;
	char what[300];

	if (!ns_view_nr_rows(&t->view)) {
		ns_tui_message(t, "The list is empty");
		return;
	}
	nw->sjob = ns_search_begin(t->trace, nw->vis, nw->search, t->view.selected, backward);
	if (!nw->sjob) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	ns_search_format(ns_search_spec(nw->search), what, sizeof(what));
	snprintf(nw->job_what, sizeof(nw->job_what), "Searching %s for %.120s",
		 backward ? "backward" : "forward", what);
	nw->job = NS_JOB_SEARCH;
	ns_tui_work(t);
}

void ns_tui_start_search(struct ns_tui *t, const struct ns_search_spec *spec)
{
	struct ns_tui_narrow *nw = t->nw;
	struct ns_search *s;
	char err[300];

	s = ns_search_compile(spec, err, sizeof(err));
	if (!s) {
		ns_tui_message(t, "%s", err);
		return;
	}
	ns_search_free(nw->search);
	nw->search = s;
	ns_filter_set_save_search(nw->fs, spec);
	search_from_selection(t, spec->backward);
}

void ns_tui_repeat_search(struct ns_tui *t, int reverse)
{
	struct ns_tui_narrow *nw = t->nw;

	if (!nw->search) {
		ns_tui_message(t, "No previous search: / searches forward, ? backward");
		return;
	}
	/* as in vim and less, N goes against the direction of the last search */
	search_from_selection(t, ns_search_spec(nw->search)->backward ^ reverse);
}

/* ---- actions ------------------------------------------------------------------------ */

static void jump(struct ns_tui *t, int kind, int dir)
{
	static const char *const what[] = { "of this task", "on this CPU", "of this type" };

	if (ns_view_jump(&t->view, kind, dir))
		ns_tui_message(t, "No %s event %s", dir > 0 ? "next" : "previous", what[kind]);
	else
		ns_tui_cursor_to_selection(t);
}

int ns_tui_narrow_action(struct ns_tui *t, enum ns_tui_action act)
{
	struct ns_event evv, *ev = &evv;
	struct ns_pos pos;
	char name[160];

	switch (act) {
	case NS_ACT_SEARCH:
		ns_tui_prompt_open(t, NS_PROMPT_SEARCH, "");
		break;
	case NS_ACT_SEARCH_BACK:
		ns_tui_prompt_open(t, NS_PROMPT_SEARCH_BACK, "");
		break;
	case NS_ACT_SEARCH_NEXT:
		ns_tui_repeat_search(t, 0);
		break;
	case NS_ACT_SEARCH_PREV:
		ns_tui_repeat_search(t, 1);
		break;
	case NS_ACT_COMMAND:
		ns_tui_prompt_open(t, NS_PROMPT_COMMAND, "");
		break;
	case NS_ACT_PICK_TASKS:
		ns_tui_picker_open(t, NS_PICK_TASKS);
		break;
	case NS_ACT_PICK_EVENTS:
		ns_tui_picker_open(t, NS_PICK_EVENTS);
		break;
	case NS_ACT_PICK_CPUS:
		ns_tui_picker_open(t, NS_PICK_CPUS);
		break;
	case NS_ACT_PICK_FILTERS:
		ns_tui_picker_open(t, NS_PICK_FILTERS);
		break;
	case NS_ACT_FILTER_WHERE:
		t->nw->where = t->nw->where == NS_FILTER_BOTH ? NS_FILTER_LIST :
			       t->nw->where == NS_FILTER_LIST ? NS_FILTER_GRAPH : NS_FILTER_BOTH;
		ns_tui_message(t, "New filters apply to the %s", ns_tui_where_name(t->nw->where));
		break;
	case NS_ACT_CLEAR_FILTERS:
		ns_tui_clear_filters(t);
		break;
	case NS_ACT_TASK_ROW:
	case NS_ACT_ONLY_TASK:
	case NS_ACT_HIDE_TASK:
	case NS_ACT_ONLY_EVENT:
	case NS_ACT_HIDE_EVENT:
	case NS_ACT_ONLY_CPU:
		if (selected(t, &pos, ev))
			break;
		event_name(t, ev->type, name, sizeof(name));
		if (act == NS_ACT_TASK_ROW)
			ns_tui_toggle_task_row(t, ev->pid);
		else if (act == NS_ACT_ONLY_TASK)
			only(t, NS_FILTER_TASK, ev->pid, NULL);
		else if (act == NS_ACT_HIDE_TASK)
			ns_tui_add_filter(t, NS_FILTER_TASK, NS_FILTER_HIDE, ev->pid, NULL);
		else if (act == NS_ACT_ONLY_EVENT)
			only(t, NS_FILTER_EVENT, 0, name);
		else if (act == NS_ACT_HIDE_EVENT)
			ns_tui_add_filter(t, NS_FILTER_EVENT, NS_FILTER_HIDE, 0, name);
		else
			only(t, NS_FILTER_CPU, pos.cpu, NULL);
		break;
	case NS_ACT_NEXT_TASK:
		jump(t, NS_JUMP_TASK, 1);
		break;
	case NS_ACT_PREV_TASK:
		jump(t, NS_JUMP_TASK, -1);
		break;
	case NS_ACT_NEXT_CPU:
		jump(t, NS_JUMP_CPU, 1);
		break;
	case NS_ACT_PREV_CPU:
		jump(t, NS_JUMP_CPU, -1);
		break;
	case NS_ACT_NEXT_TYPE:
		jump(t, NS_JUMP_EVENT, 1);
		break;
	case NS_ACT_PREV_TYPE:
		jump(t, NS_JUMP_EVENT, -1);
		break;
	default:
		return 0;
	}
	return 1;
}

/* ---- drawing -------------------------------------------------------------------------- */

void ns_tui_describe_entry(const struct ns_tui *t, const struct ns_filter_entry *e, char *buf,
			   size_t len)
{
	const char *mode = e->mode == NS_FILTER_SHOW ? "only" : "hide";
	char what[200];

	switch (e->kind) {
	case NS_FILTER_TASK:
		task_label(t, e->value, what, sizeof(what));
		snprintf(buf, len, "%s task %s", mode, what);
		break;
	case NS_FILTER_CPU:
		snprintf(buf, len, "%s CPU%d", mode, e->value);
		break;
	case NS_FILTER_ADVANCED:
		snprintf(buf, len, "%s-F '%s'", e->mode == NS_FILTER_SHOW ? "" : "-v ", e->name);
		break;
	default:
		snprintf(buf, len, "%s %s %s", mode,
			 e->kind == NS_FILTER_SYSTEM ? "system" : "event", e->name);
		break;
	}
	if (e->where != NS_FILTER_BOTH) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (%s)", ns_tui_where_name(e->where));
	}
}

int ns_tui_filter_line(const struct ns_tui *t)
{
	return t->nw && ns_filter_set_nr_entries(t->nw->applied) > 0;
}

void ns_tui_draw_filter_line(struct ns_tui *t, WINDOW *win, int y)
{
	struct ns_tui_narrow *nw = t->nw;
	int n = ns_filter_set_nr_entries(nw->applied), i, cols = t->lay.cols, rw;
	char line[1024], right[96], d[300];
	struct ns_filter_entry e;
	size_t len;

	snprintf(right, sizeof(right), "  %llu of %llu shown",
		 (unsigned long long)ns_view_nr_rows(&t->view),
		 (unsigned long long)ns_trace_nr_events(t->trace));
	rw = (int)strlen(right);
	len = (size_t)snprintf(line, sizeof(line), "Filters:");
	for (i = 0; i < n && len < sizeof(line); i++) {
		ns_filter_set_entry(nw->applied, i, &e);
		ns_tui_describe_entry(t, &e, d, sizeof(d));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s", i ? "," : "", d);
	}
	ns_tui_fill(win, y, 0, cols, t->theme.attr[NS_ROLE_BAR_ACTIVE]);
	if (rw > cols / 2)
		rw = 0;
	ns_tui_put_text(win, &t->glyphs, y, 0, cols - rw, line, 0,
			t->theme.attr[NS_ROLE_BAR_ACTIVE]);
	if (rw)
		ns_tui_put_text(win, &t->glyphs, y, cols - rw, rw, right, 0,
				t->theme.attr[NS_ROLE_BAR_ACTIVE]);
}

/* The progress of the job under way, over the status line. */
static void draw_progress(struct ns_tui *t)
{
	struct ns_tui_narrow *nw = t->nw;
	uint64_t done = 0, total = 0;
	char line[256];

	if (nw->job == NS_JOB_FILTER)
		ns_visible_pass_progress(nw->pass, &done, &total);
	else
		ns_search_progress(nw->sjob, &done, &total);
	snprintf(line, sizeof(line), "%s... %d%% of %llu events  (Esc cancels)", nw->job_what,
		 total ? (int)(done * 100 / total) : 100, (unsigned long long)total);
	ns_tui_fill(t->status, 0, 0, t->lay.cols, t->theme.attr[NS_ROLE_STATUS]);
	ns_tui_put_text(t->status, &t->glyphs, 0, 0, t->lay.cols, line, 0,
			t->theme.attr[NS_ROLE_STATUS]);
}

void ns_tui_draw_overlays(struct ns_tui *t)
{
	if (!t->nw || t->lay.too_small)
		return;
	if (ns_tui_busy(t))
		draw_progress(t);
	else if (t->nw->prompt.kind != NS_PROMPT_NONE)
		ns_tui_draw_prompt(t);
}
