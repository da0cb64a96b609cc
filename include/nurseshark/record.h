/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `nurseshark record`: records the running kernel's events through tracefs
 * into a trace.dat, with no curses and nothing of the viewer. main() hands
 * it the command line when its first word is "record".
 */
#ifndef NS_RECORD_H
#define NS_RECORD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The options a recording was made with, in the terms of the viewer's
 * Record screen (its settings), so that Ctrl-R there records the same way.
 */
struct ns_record_used {
	const char *events;	/* the top instance's -e, blank-separated; "": not recorded */
	long kb;		/* its -b, 0: none */
	const char *clock;	/* its -C, "": none */
	const char *buffers;	/* each -B with its own options: "-B NAME -e EVENT -b KB" */
	const char *command;	/* COMMAND ARGS... as one sh -c line; "": none */
	double duration;	/* --duration, 0: none */
	const char *output;
};

/**
 * ns_record_main - run `nurseshark record ARGS...`
 * @argc: the argument count, argv[0] being "record"
 * @argv: the arguments
 * @viewing: when not NULL, called with the options used once the file is
 *	written, just before the viewer replaces the process (not with
 *	--no-view), so that the viewer's Record screen offers them again
 * @arg: for @viewing
 *
 * Records, writes the file, leaves the kernel's tracing state as it found
 * it, then (unless --no-view) replaces the process with the viewer on the
 * new file. Errors are one line on stderr.
 * Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int ns_record_main(int argc, char **argv,
		   void (*viewing)(const struct ns_record_used *used, void *arg), void *arg);

/* A live recording under way, as the screen sees it (record.c). */
struct ns_record_live;

/* What main.c gives live to show the recording on the screen. */
struct ns_record_live_ui {
	/*
	 * Shows @live until the user quits: 0, or -1 with @err set. Reader
	 * threads run meanwhile: the caller must not fork (posix_spawn is fine).
	 */
	int (*run)(void *arg, struct ns_record_live *live, char *err, size_t errlen);
	void *arg;
};

/**
 * ns_record_live_main - run `nurseshark live ARGS...`
 * @argc: the argument count, argv[0] being "live"
 * @argv: the arguments: those of record, --keep, and --duration SECONDS
 *        with --export or --snapshot COLSxROWS [--keys KEYS]
 * @ui: the screen (NULL: only the --duration forms work)
 *
 * With --duration: records into a temp file, prints it as the viewer's
 * --export or --snapshot does, and removes the file. Without: records into
 * memory (the newest --keep held) and hands the recording to @ui->run.
 * The tracing state is put back either way, also after a signal (after
 * which the process dies of it, once the state is back).
 * Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int ns_record_live_main(int argc, char **argv, const struct ns_record_live_ui *ui);

/* Figures of a live recording, for the screen's status line. */
struct ns_record_live_stats {
	double elapsed;			/* seconds since recording started */
	unsigned long long events;	/* read from the ring buffers so far */
	unsigned long long held;	/* of those, held now */
	unsigned long long trimmed;	/* of those, dropped as the oldest (--keep) */
	unsigned long long held_bytes;
	unsigned long long lost;	/* the kernel dropped (overrun) */
	unsigned long long keep_events, keep_ns;	/* --keep: one of them is set */
	char error[512];		/* a reader failed: why; else "" */
};

/* The figures now; drops the oldest beyond --keep first. */
void ns_record_live_stats(struct ns_record_live *live, struct ns_record_live_stats *st);

/**
 * ns_record_live_write - what is held, as a trace.dat v7
 * @fd: an open, empty file, readable too (its header is read back); closed here
 * @quick: for a frame of the screen: uncompressed, without kallsyms;
 *	else (:save) as nurseshark record writes it
 *
 * Returns 0, or -1 with @err set.
 */
int ns_record_live_write(struct ns_record_live *live, int fd, bool quick, char *err,
			 size_t errlen);

/* A directory of live's own for snapshot files; removed after @ui->run returns. */
const char *ns_record_live_dir(const struct ns_record_live *live);

/* ---- what the Record screen of the viewer asks (events.c, record.c) ---- */

/*
 * The kernel's event systems that have events to enable, sorted (a
 * tracefs list: ns_record_list_free()), or NULL with @err set.
 */
char **ns_record_event_systems(char *err, size_t errlen);
/* The events of @system that can be enabled, sorted; NULL when none. */
char **ns_record_system_events(const char *system);
/* The clocks of trace_clock, *@current set to the one in use (malloc'd); or NULL. */
char **ns_record_clocks(char **current);
void ns_record_list_free(char **list);

/**
 * ns_record_check - what `nurseshark record -o OUTPUT` checks before recording
 * @output: the file to write (NULL: only tracefs)
 *
 * tracefs is there and writable (root), and @output is absent or a trace.dat.
 * Returns 0, or -1 with the one-line reason in @err.
 */
int ns_record_check(const char *output, char *err, size_t errlen);

#endif /* NS_RECORD_H */
