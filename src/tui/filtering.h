/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/tui: the filtering state. The filter set the user edits,
 * the copy its visibility was made from, the visibility the view points to,
 * where new filters apply, the last search, and the job under way (a filter
 * pass or a search, run in slices between key reads so that the screen
 * stays live and Esc cancels). filtering.c changes the set, jobs.c runs the
 * jobs, shortcuts.c makes filters and jumps from the selected event; the
 * prompt, the pickers, the graph's rows and the bar read the state.
 */
#ifndef NS_TUI_FILTERING_H
#define NS_TUI_FILTERING_H

#include "tui-int.h"
#include "nurseshark/filter.h"
#include "nurseshark/model_search.h"
#include "nurseshark/model_tasks.h"

enum ns_tui_job {
	NS_JOB_NONE,
	NS_JOB_FILTER,		/* a filter pass */
	NS_JOB_SEARCH,
};

#define NS_TUI_SLICE_MS		40	/* work per slice: keys are read between slices */

struct ns_tui_filtering {
	struct ns_filter_set *fs;	/* what the user edits */
	int own_fs;
	struct ns_filter_set *applied;	/* a copy of the entries vis was made from */
	struct ns_visible *vis;		/* what they let through; the view points to it */
	int where;			/* where new filters apply: enum ns_filter_where */
	struct ns_filter_set *undo;	/* the set before the change, for Esc or a refusal */
	struct ns_search *search;	/* the last search, compiled */

	int sync;			/* --snapshot: jobs run to their end at once */
	int job;			/* enum ns_tui_job */
	struct ns_visible_pass *pass;
	struct ns_search_job *sjob;
	char job_what[160];		/* "Searching for task=gzip" */

	struct ns_task_info *tasks;	/* the task list, built on first use */
	int nr_tasks;
};

/* filtering.c */
int ns_tui_filtering_open(struct ns_tui *t, const struct ns_tui_setup *setup);
void ns_tui_filtering_close(struct ns_tui *t);
/* The set changed: rebuild the graph's rows and start a filter pass if needed. */
void ns_tui_refilter(struct ns_tui *t);
/* Remember the set as it is, for Esc and refusals, before changing it. */
void ns_tui_filters_begin_change(struct ns_tui *t);
/* Put the set back as it was before the change (Esc, a refused expression). */
void ns_tui_filters_undo(struct ns_tui *t);
int ns_tui_add_filter(struct ns_tui *t, int kind, int mode, int value, const char *name);
void ns_tui_clear_filters(struct ns_tui *t);
/* Where new filters apply: list and graph, the list, the graph, and round again. */
void ns_tui_cycle_where(struct ns_tui *t);
const char *ns_tui_where_name(int where);
/* A short description of filter entry @e ("only task gzip-1234"). */
void ns_tui_describe_entry(const struct ns_tui *t, const struct ns_filter_entry *e, char *buf,
			   size_t len);
/* The filter summary line of the bar: is there one, and draw it on row @y. */
int ns_tui_filter_line(const struct ns_tui *t);
void ns_tui_draw_filter_line(struct ns_tui *t, WINDOW *win, int y);
int ns_tui_tasks_load(struct ns_tui *t);

/* jobs.c */
/* Start a search from the selection; the result selects a row when found. */
void ns_tui_start_search(struct ns_tui *t, const struct ns_search_spec *spec);
void ns_tui_repeat_search(struct ns_tui *t, int reverse);
/* Start the filter pass of the set as it is now. */
void ns_tui_start_filter_pass(struct ns_tui *t);
/* A job is under way: the loop reads keys without waiting and calls ns_tui_work(). */
int ns_tui_busy(const struct ns_tui *t);
/* Work one slice of the job under way. */
void ns_tui_work(struct ns_tui *t);
void ns_tui_cancel_job(struct ns_tui *t);
/* Stop the job under way without a word (the set it was for is gone). */
void ns_tui_end_job(struct ns_tui *t);

#endif
