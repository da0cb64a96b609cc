/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui layer: the full-screen ncursesw front end, as main.c sees it. The
 * trace is opened (and its errors reported) before any of these is called,
 * so a bad file never touches the terminal.
 */
#ifndef NURSESHARK_TUI_H
#define NURSESHARK_TUI_H

#include <stdio.h>
#include "nurseshark/trace.h"

struct ns_filter_set;
struct ns_config;
struct ns_config_schema;
struct ns_session;
struct ns_session_trace_id;
struct ns_diag;

/*
 * A trace that grows (nurseshark live): the screen asks for a newer one
 * now and then and shows it in place of the one it has, keeping the view.
 * main.c makes these from src/record's live recording.
 */
struct ns_tui_live {
	/* a newer trace (the caller's to release), or NULL with @err set or "" */
	struct ns_trace *(*newer)(void *arg, char *err, size_t err_len);
	/* the screen is done with @trace (the one it started with, or a refresh's) */
	void (*release)(void *arg, struct ns_trace *trace);
	/* the recording's figures for the status line ("123456 ev, 0 lost") */
	void (*status)(void *arg, char *buf, size_t len);
	/* :save FILE: 0, or a negative errno with @err set */
	int (*save)(void *arg, const char *path, char *err, size_t err_len);
	void *arg;
};

struct ns_record_settings;

/*
 * The Record screen's way to the running kernel (main.c makes it from
 * src/record, which the front end does not include). Lists are tracefs
 * lists, given back through free_list.
 */
struct ns_tui_recorder {
	/* the event systems that have events to enable, or NULL with @err set */
	char **(*systems)(void *arg, char *err, size_t err_len);
	char **(*events)(void *arg, const char *system);
	/* the clocks of trace_clock; *@current the one in use (malloc'd) */
	char **(*clocks)(void *arg, char **current);
	void (*free_list)(void *arg, char **list);
	/* what nurseshark record checks first (tracefs, root, @output): 0 or -1 */
	int (*check)(void *arg, const char *output, char *err, size_t err_len);
	/* the settings offered, remembered for next time: the screen writes them back */
	struct ns_record_settings *settings;
	/* the settings changed: keep them */
	void (*remember)(void *arg);
	/* record (@live 0) or watch live (1) with the settings once the viewer has quit */
	void (*start)(void *arg, int live);
	void *arg;
};

/*
 * What main.c hands the front end besides the trace, for either entry
 * point below; a zeroed struct (or NULL) gives the defaults.
 */
/*
 * Files opened from the viewer (:open, :append, :offset), as KernelShark's
 * File > Open, File > Append and Tools > Add Time Offset: main.c takes the
 * request, the viewer quits (its session kept as on q) and main.c starts
 * it again on the files asked. @open: @path replaces what is open (@append
 * false) or is added to it (true); @offset: file @file's timestamps (all
 * its buffers) shifted by @ns, as its --ts-offset. Each returns 0, or -1
 * with the reason in @err and nothing asked.
 */
struct ns_tui_opener {
	int (*open)(void *arg, const char *path, bool append, char *err, size_t err_len);
	int (*offset)(void *arg, int file, long long ns, char *err, size_t err_len);
	void *arg;
};

struct ns_tui_setup {
	/* the filters, task rows and hidden CPU rows to start with; the front
	 * end changes it as the user filters; NULL: an empty set of its own */
	struct ns_filter_set *filters;

	/* configuration and sessions, read by src/session (all may be NULL) */
	const struct ns_config *config;		/* config.ini as read */
	const struct ns_session *session;	/* to restore at start */
	const char *session_name;		/* where it was read, for messages */
	const struct ns_session_trace_id *trace_id;	/* the trace file, for sessions saved */
	const char *session_key;	/* several files: their session's name (NULL: one) */
	const struct ns_filter_set *fresh_filters; /* the filters of a fresh start */
	const struct ns_diag *problems;		/* found in the files read: status line */
	/* on the way out (q, SIGINT, SIGTERM, SIGHUP; not a crash): the session to keep */
	void (*at_exit)(void *arg, const struct ns_session *session);
	void *at_exit_arg;
	/* nurseshark live: the trace grows (NULL: a file) */
	const struct ns_tui_live *live;
	/* the Record screen (NULL: it says recording is not offered here) */
	const struct ns_tui_recorder *recorder;
	/* :open, :append, :offset (NULL: they say they need the viewer) */
	const struct ns_tui_opener *opener;
};

/* ns_tui_run() and ns_tui_snapshot() with a setup (NULL: the defaults). */
/*
 * The loading screen while @trace (from ns_trace_open_async()) is indexed:
 * 0 when the index is done (the terminal stays set up for
 * ns_tui_run_setup()), 1 when the user quit, or a negative errno.
 */
int ns_tui_run_loading(struct ns_trace *trace, char *err, size_t err_len);
/* The loading screen's frame of @trace off screen, printed to @out if not NULL. */
int ns_tui_loading_snapshot(struct ns_trace *trace, int cols, int rows, FILE *out, char *err,
			    size_t err_len);
/* Give the terminal back after ns_tui_run_loading() (when not going on to the viewer). */
void ns_tui_end(void);
int ns_tui_run_setup(struct ns_trace *trace, const struct ns_tui_setup *setup, char *err,
		     size_t err_len);
int ns_tui_snapshot_setup(struct ns_trace *trace, const struct ns_tui_setup *setup, int cols,
			  int rows, const char *keys, FILE *out, char *err, size_t err_len);

/**
 * ns_tui_run - the interactive viewer on the controlling terminal
 * @err: a one-line reason when the terminal cannot be used
 *
 * Returns 0 when the user quits, a negative errno with @err filled in when
 * the terminal could not be set up. The terminal is restored on every
 * return, and on SIGINT, SIGTERM and SIGHUP (the process then exits).
 */
int ns_tui_run(struct ns_trace *trace, char *err, size_t err_len);

/**
 * ns_tui_snapshot - replay keys without a terminal and print the screen
 * @cols, @rows: the screen size
 * @keys: keys in the --keys syntax (NULL: none)
 * @out: where the screen goes, as @rows lines of text
 *
 * The keys go through the same dispatcher and drawing code as a terminal's.
 * Returns 0, or a negative errno with @err filled in (a bad --keys string).
 */
int ns_tui_snapshot(struct ns_trace *trace, int cols, int rows, const char *keys,
		    FILE *out, char *err, size_t err_len);

/**
 * ns_tui_time_frames - CPU time of redrawing the whole trace, for --stats
 * @frames: how many frames; each pans one column and redraws everything
 * @us_per_frame: the mean CPU microseconds of one frame
 */
int ns_tui_time_frames(struct ns_trace *trace, int cols, int rows, int frames,
		       double *us_per_frame, char *err, size_t err_len);

/* What ns_tui_time_steps() measured: CPU microseconds per step, key and redraw. */
struct ns_tui_step_stats {
	int step_levels;		/* zoom levels from the whole trace to 1 ns per column */
	int step_redraws;		/* zoom and pan steps timed */
	double step_us_max, step_us_median;	/* of each step's best of three */
	int list_pages;			/* list page steps timed */
	double page_us_max, page_us_median;
	double step_us_raw_max, page_us_raw_max;	/* the slowest single ones */
	int task_rows;			/* the task rows the graph had while timed */
};

/**
 * ns_tui_time_steps - CPU time of zoom, pan and list page steps, for --stats
 * @cols, @rows: the off-screen terminal's size
 *
 * With the selection at the start, the middle and the end of the trace in
 * turn, zooms all the way out, then in one step at a time until a step does
 * nothing, and at each level pans by a column and by a page both ways. Then
 * pages the list down and up from the start, middle, end and a few random
 * rows, zoomed all the way out and all the way in. Every step is typed
 * through the same dispatcher as a key press and timed with its redraw.
 * @setup_keys (NULL: none), in the --keys syntax, are typed first, untimed:
 * `make bench` adds task rows that way, so that their steps are timed too.
 * Returns 0, or a negative errno with @err filled in.
 */
int ns_tui_time_steps(struct ns_trace *trace, int cols, int rows, const char *setup_keys,
		      struct ns_tui_step_stats *st, char *err, size_t err_len);

/* Check a --keys string; 0, or -EINVAL with the reason in @err. */
int ns_tui_check_keys(const char *keys, char *err, size_t err_len);

/* The key bindings as man page source (the KEYS section's body). */
void ns_tui_print_keys_table(FILE *out);

/* The : commands as man page source (KEYS, Commands), from src/tui/commands.c. */
void ns_tui_print_commands_table(FILE *out);

/* The names config.ini uses for actions and colour roles, for src/session. */
void ns_tui_config_schema(struct ns_config_schema *schema);
/* What only the front end can check in config.ini (keys taken twice), into @d. */
int ns_tui_config_check(const struct ns_config *config, struct ns_diag *d);
/* config.ini with every setting at its default, commented (contrib/config.ini). */
void ns_tui_print_config(FILE *out);

#endif
