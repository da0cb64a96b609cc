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

/* Check a --keys string; 0, or -EINVAL with the reason in @err. */
int ns_tui_check_keys(const char *keys, char *err, size_t err_len);

/* The key bindings as man page source (the KEYS section's body). */
void ns_tui_print_keys_table(FILE *out);

#endif
