/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/tui: narrowing the trace down from the keyboard. The filter
 * set the user edits and what it lets through, the graph's rows (shown CPUs,
 * then task rows), the job under way (a filter pass or a search, run in
 * slices between key reads so that the screen stays live and Esc cancels),
 * the prompt of / ? and :, with history, and the pickers of tasks, events,
 * CPUs and filters. narrow.c, prompt.c and picker.c share it.
 */
#ifndef NS_TUI_NARROW_H
#define NS_TUI_NARROW_H

#include "tui-int.h"
#include "nurseshark/filter.h"
#include "nurseshark/model_search.h"
#include "nurseshark/model_tasks.h"

/* ---- the graph's rows ------------------------------------------------------ */

enum ns_tui_grow_kind {
	NS_GROW_CPU,
	NS_GROW_TASK,
};

struct ns_tui_grow {
	int kind;		/* enum ns_tui_grow_kind */
	int id;			/* the CPU, or the index of the task row in trows */
};

/* ---- jobs: work done in slices between key reads ------------------------------ */

enum ns_tui_job {
	NS_JOB_NONE,
	NS_JOB_FILTER,		/* a filter pass */
	NS_JOB_SEARCH,
};

#define NS_TUI_SLICE_MS		40	/* work per slice: keys are read between slices */

/* ---- the prompt ---------------------------------------------------------------- */

enum ns_tui_prompt_kind {
	NS_PROMPT_NONE,
	NS_PROMPT_COMMAND,	/* : */
	NS_PROMPT_SEARCH,	/* / */
	NS_PROMPT_SEARCH_BACK,	/* ? */
};

#define NS_TUI_PROMPT_MAX	512
#define NS_TUI_HISTORY		64

struct ns_tui_history {
	char *line[NS_TUI_HISTORY];	/* oldest first */
	int nr;
};

struct ns_tui_prompt {
	int kind;			/* enum ns_tui_prompt_kind */
	char buf[NS_TUI_PROMPT_MAX];
	int len, cur;			/* bytes, and the cursor's byte */
	int hist;			/* history line shown, nr: the line being typed */
	char typed[NS_TUI_PROMPT_MAX];	/* what was typed before browsing the history */
};

/* ---- pickers ------------------------------------------------------------------- */

enum ns_tui_picker_kind {
	NS_PICK_NONE,
	NS_PICK_TASKS,
	NS_PICK_EVENTS,
	NS_PICK_CPUS,
	NS_PICK_FILTERS,
};

struct ns_tui_pick_item {
	int kind;		/* enum ns_filter_kind (FILTERS: the entry's) */
	int value;		/* pid, cpu, event type; FILTERS: the entry's index */
	char name[160];		/* comm, "system/event", "system", "CPU3"; FILTERS: its text */
	uint64_t count;		/* events */
	uint64_t ns;		/* tasks: CPU time */
};

struct ns_tui_picker {
	int kind;			/* enum ns_tui_picker_kind */
	struct ns_tui_pick_item *items;
	int nr_items;
	int *shown;			/* items that match the narrowing text, sorted */
	int nr_shown;
	char narrow[64];		/* typed to narrow the list */
	int sel, top;			/* in shown */
	int sort;			/* tasks: 0 pid, 1 comm, 2 events, 3 CPU time */
};

struct ns_tui_narrow {
	struct ns_filter_set *fs;	/* what the user edits */
	int own_fs;
	struct ns_filter_set *applied;	/* a copy of the entries vis was made from */
	struct ns_visible *vis;		/* what they let through; the view points to it */
	int where;			/* where new filters apply: enum ns_filter_where */
	int sync;			/* --snapshot: jobs run to their end at once */

	int job;			/* enum ns_tui_job */
	struct ns_visible_pass *pass;
	struct ns_filter_set *undo;	/* the set before the change, for Esc or a refusal */
	struct ns_search_job *sjob;
	char job_what[160];		/* "Searching for task=gzip" */

	struct ns_tui_grow *grows;	/* the graph's rows, top to bottom */
	int nr_grows;
	struct ns_task_row **trows;	/* one per task row of the set, in its order */
	int nr_trows;
	struct ns_task_bin *tbins;
	int nr_tbins;

	struct ns_search *search;	/* the last search, compiled */

	struct ns_tui_prompt prompt;
	struct ns_tui_history history[2];	/* 0: commands, 1: searches */

	struct ns_tui_picker pick;
	struct ns_task_info *tasks;	/* the task list, built on first use */
	int nr_tasks;
};

/* narrow.c: what the rest of the front end calls */
int ns_tui_narrow_open(struct ns_tui *t, const struct ns_tui_setup *setup);
/* A key for the prompt, a picker or the job under way: 1 if taken. */
int ns_tui_narrow_key(struct ns_tui *t, int key);
/* A prompt or a picker has the keyboard (the mouse is ignored meanwhile). */
int ns_tui_modal(const struct ns_tui *t);
/* A job is under way: the loop reads keys without waiting and calls ns_tui_work(). */
int ns_tui_busy(const struct ns_tui *t);
/* The prompt or progress over the status line, then a picker over the panes. */
void ns_tui_draw_overlays(struct ns_tui *t);
/* The filter summary line of the bar: is there one, and draw it on row @y. */
int ns_tui_filter_line(const struct ns_tui *t);
void ns_tui_draw_filter_line(struct ns_tui *t, WINDOW *win, int y);
int ns_tui_narrow_action(struct ns_tui *t, enum ns_tui_action act);
int ns_tui_nr_graph_rows(const struct ns_tui *t);
const struct ns_tui_grow *ns_tui_graph_row(const struct ns_tui *t, int i);
/* The graph row of @cpu, or -1 when it is hidden. */
int ns_tui_row_of_cpu(const struct ns_tui *t, int cpu);
/* The label of graph row @i ("CPU3", "gzip-1234"). */
void ns_tui_graph_row_label(const struct ns_tui *t, int i, char *buf, size_t len);
/* Label width the graph rows need. */
int ns_tui_graph_label_w(const struct ns_tui *t);
/* Select the event of graph row @i nearest to column @col: 0, or -1. */
int ns_tui_graph_row_nearest(struct ns_tui *t, int i, int col, uint64_t *row);
/* Draw task row @id's bins on screen row @y (draw_graph.c calls it). */
void ns_tui_draw_task_row(struct ns_tui *t, int y, int id);

/* narrow.c: within narrowing */
void ns_tui_narrow_close(struct ns_tui *t);
/* The set changed: rebuild the graph's rows and start a filter pass if needed. */
void ns_tui_refilter(struct ns_tui *t);
/* Remember the set as it is, for Esc and refusals, before changing it. */
void ns_tui_filters_begin_change(struct ns_tui *t);
int ns_tui_add_filter(struct ns_tui *t, int kind, int mode, int value, const char *name);
void ns_tui_toggle_task_row(struct ns_tui *t, int pid);
void ns_tui_clear_filters(struct ns_tui *t);
/* Start a search from the selection; the result selects a row when found. */
void ns_tui_start_search(struct ns_tui *t, const struct ns_search_spec *spec);
void ns_tui_repeat_search(struct ns_tui *t, int reverse);
/* Work one slice of the job under way. */
void ns_tui_work(struct ns_tui *t);
void ns_tui_cancel_job(struct ns_tui *t);
const char *ns_tui_where_name(int where);
/* A short description of filter entry @e ("only task gzip-1234"). */
void ns_tui_describe_entry(const struct ns_tui *t, const struct ns_filter_entry *e, char *buf,
			   size_t len);
int ns_tui_tasks_load(struct ns_tui *t);

/* prompt.c */
void ns_tui_prompt_open(struct ns_tui *t, int kind, const char *text);
int ns_tui_prompt_key(struct ns_tui *t, int key);
void ns_tui_draw_prompt(struct ns_tui *t);
/* Run one : command line (also what --keys and tests type). */
void ns_tui_command(struct ns_tui *t, const char *line);
void ns_tui_history_add(struct ns_tui_history *h, const char *line);
void ns_tui_history_free(struct ns_tui_history *h);

/* picker.c */
void ns_tui_picker_open(struct ns_tui *t, int kind);
void ns_tui_picker_close(struct ns_tui *t);
int ns_tui_picker_key(struct ns_tui *t, int key);
void ns_tui_draw_picker(struct ns_tui *t);

#endif
