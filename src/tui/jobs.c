// SPDX-License-Identifier: GPL-2.0-only
/*
 * The jobs that take long: a filter pass and a search. Each runs in slices
 * of NS_TUI_SLICE_MS between key reads (the terminal loop reads keys
 * without waiting while a job is under way), so the screen shows progress
 * over the status line and Esc cancels: a cancelled filter pass puts the
 * set back as it was. Under --snapshot a job runs to its end at once, so
 * that screens are exact. A search starts from the selection, in the
 * visibility of the list, and selects what it finds. A job under way is a
 * modal layer (layers.c): only its own keys are heard meanwhile, the job
 * scope of the action table ([keys.job]: job-cancel Esc, job-quit q).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "filtering.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const struct ns_tui_layer_ops job_layer;

/* The job's layer over the others, once flt->job says what it is. */
static void begin_job(struct ns_tui *t, int job)
{
	t->flt->job = job;
	/* no room for its layer: it still runs, only without its progress */
	ns_tui_layer_push(t, &job_layer, t->flt);
}

void ns_tui_end_job(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	ns_tui_layer_pop(t, &job_layer);
	ns_visible_pass_free(flt->pass);
	flt->pass = NULL;
	ns_search_job_free(flt->sjob);
	flt->sjob = NULL;
	flt->job = NS_JOB_NONE;
}

int ns_tui_busy(const struct ns_tui *t)
{
	return t->flt && (t->flt->job != NS_JOB_NONE || t->rowset.job);
}

/* ---- filter passes ------------------------------------------------------------------ */

static void finish_filter(struct ns_tui *t, struct ns_visible *vis)
{
	struct ns_tui_filtering *flt = t->flt;
	struct ns_visible *old = flt->vis;
	uint64_t n = ns_trace_nr_events(t->trace), shown;

	ns_tui_end_job(t);
	ns_view_set_visible(&t->view, vis);
	flt->vis = vis;
	ns_visible_free(old);
	ns_filter_set_copy(flt->applied, flt->fs);
	ns_filter_set_free(flt->undo);
	flt->undo = NULL;
	ns_tui_graph_rows_rebuild(t);
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

void ns_tui_start_filter_pass(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;
	char err[768];

	if (ns_visible_pass_begin(t->trace, flt->fs, &flt->pass, err, sizeof(err))) {
		/* refused: libtraceevent's message, and the old filters stay */
		ns_tui_filters_undo(t);
		ns_tui_message(t, "%s", err);
		return;
	}
	if (!flt->pass) {
		finish_filter(t, NULL);
		return;
	}
	snprintf(flt->job_what, sizeof(flt->job_what), "Filtering");
	begin_job(t, NS_JOB_FILTER);
	ns_tui_work(t);
}

static void filter_slice(struct ns_tui *t, double t0)
{
	struct ns_tui_filtering *flt = t->flt;
	int ret;

	do {
		ret = ns_visible_pass_step(flt->pass, 4096);
	} while (!ret && (flt->sync || now_ms() - t0 < NS_TUI_SLICE_MS));
	if (ret == 1) {
		finish_filter(t, ns_visible_pass_take(flt->pass));
	} else if (ret < 0) {
		ns_tui_end_job(t);
		ns_tui_filters_undo(t);
		ns_tui_message(t, "Filtering failed: %s; the filters are as they were",
			       strerror(-ret));
	}
}

/* ---- searches ----------------------------------------------------------------------- */

static void search_from_selection(struct ns_tui *t, int backward)
{
	struct ns_tui_filtering *flt = t->flt;
	char what[300];

	if (!ns_view_nr_rows(&t->view)) {
		ns_tui_message(t, "The list is empty");
		return;
	}
	flt->sjob = ns_search_begin(t->trace, flt->vis, flt->search, t->view.selected, backward);
	if (!flt->sjob) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	ns_search_format(ns_search_spec(flt->search), what, sizeof(what));
	snprintf(flt->job_what, sizeof(flt->job_what), "Searching %s for %.120s",
		 backward ? "backward" : "forward", what);
	begin_job(t, NS_JOB_SEARCH);
	ns_tui_work(t);
}

void ns_tui_start_search(struct ns_tui *t, const struct ns_search_spec *spec)
{
	struct ns_tui_filtering *flt = t->flt;
	struct ns_search *s;
	char err[300];

	s = ns_search_compile(spec, err, sizeof(err));
	if (!s) {
		ns_tui_message(t, "%s", err);
		return;
	}
	ns_search_free(flt->search);
	flt->search = s;
	ns_filter_set_save_search(flt->fs, spec);
	search_from_selection(t, spec->backward);
}

void ns_tui_repeat_search(struct ns_tui *t, int reverse)
{
	struct ns_tui_filtering *flt = t->flt;

	if (!flt->search) {
		ns_tui_message(t, "No previous search: / searches forward, ? backward");
		return;
	}
	/* as in vim and less, N goes against the direction of the last search */
	search_from_selection(t, ns_search_spec(flt->search)->backward ^ reverse);
}

static void search_slice(struct ns_tui *t, double t0)
{
	struct ns_tui_filtering *flt = t->flt;
	int ret, wrapped;

	do {
		ret = ns_search_step(flt->sjob, 512);
	} while (!ret && (flt->sync || now_ms() - t0 < NS_TUI_SLICE_MS));
	if (ret == 1) {
		uint64_t row = ns_search_found(flt->sjob, &wrapped);
		int back = ns_search_spec(flt->search)->backward;

		ns_tui_end_job(t);
		ns_view_select(&t->view, row);
		ns_tui_show_context(t);
		ns_tui_cursor_to_selection(t);
		if (wrapped)
			ns_tui_message(t, "%s", back ? "search hit TOP, continuing at BOTTOM" :
				       "search hit BOTTOM, continuing at TOP");
	} else if (ret < 0) {
		char what[300];

		ns_search_format(ns_search_spec(flt->search), what, sizeof(what));
		ns_tui_end_job(t);
		if (ret == -ENOENT)
			ns_tui_message(t, "Pattern not found: %s", what);
		else
			ns_tui_message(t, "Search failed: %s", strerror(-ret));
	}
}

/* ---- the job under way --------------------------------------------------------------- */

void ns_tui_work(struct ns_tui *t)
{
	double t0 = now_ms();

	if (t->flt->job == NS_JOB_FILTER)
		filter_slice(t, t0);
	else if (t->flt->job == NS_JOB_SEARCH)
		search_slice(t, t0);
	else if (t->rowset.job)
		ns_tui_plot_job_work(t);	/* not modal: keys work meanwhile */
}

/* job-cancel */
void ns_tui_job_cancel(struct ns_tui *t, int unused)
{
	ns_tui_cancel_job(t);
}

/* job-quit: the job's threads are stopped on the way out, as on q elsewhere */
void ns_tui_job_quit(struct ns_tui *t, int unused)
{
	t->quit = 1;
}

void ns_tui_cancel_job(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	if (flt->job == NS_JOB_FILTER) {
		ns_tui_end_job(t);
		ns_tui_filters_undo(t);
		ns_tui_message(t, "Filtering cancelled; the filters are as they were");
	} else if (flt->job == NS_JOB_SEARCH) {
		ns_tui_end_job(t);
		ns_tui_message(t, "Search cancelled");
	}
}

/* The progress of the job under way, over the status line. */
static void draw_progress(struct ns_tui *t, void *state)
{
	struct ns_tui_filtering *flt = t->flt;
	uint64_t done = 0, total = 0;
	const char *keys = t->keymap.text[NS_ACT_JOB_CANCEL][NS_SCOPE_JOB];
	size_t k = strcspn(keys, " ");
	char line[400], cancel[64];

	if (flt->job == NS_JOB_FILTER)
		ns_visible_pass_progress(flt->pass, &done, &total);
	else
		ns_search_progress(flt->sjob, &done, &total);
	/* the first key bound to job-cancel, "<Esc>" as "Esc" */
	if (k > 2 && keys[0] == '<' && keys[k - 1] == '>')
		snprintf(cancel, sizeof(cancel), "%.*s", (int)(k - 2), keys + 1);
	else
		snprintf(cancel, sizeof(cancel), "%.*s", (int)k, keys);
	if (cancel[0])
		snprintf(line, sizeof(line), "%s... %d%% of %llu events  (%s cancels)",
			 flt->job_what, total ? (int)(done * 100 / total) : 100,
			 (unsigned long long)total, cancel);
	else
		snprintf(line, sizeof(line), "%s... %d%% of %llu events", flt->job_what,
			 total ? (int)(done * 100 / total) : 100, (unsigned long long)total);
	ns_tui_fill(t->status, 0, 0, t->lay.cols, t->theme.attr[NS_ROLE_STATUS]);
	ns_tui_put_text(t->status, &t->glyphs, 0, 0, t->lay.cols, line, 0,
			t->theme.attr[NS_ROLE_STATUS]);
	wnoutrefresh(t->status);
}

/* While a job runs only its own keys are heard ([keys.job]). */
static int job_key(struct ns_tui *t, void *state, int key)
{
	enum ns_tui_action act = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_JOB, key);

	if (act != NS_ACT_NONE)
		ns_tui_run_action(t, act);
	return 1;
}

static const struct ns_tui_layer_ops job_layer = {
	.name = "job",
	.modal = 1,
	.key = job_key,
	.draw = draw_progress,
};
