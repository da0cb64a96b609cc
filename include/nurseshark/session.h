/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session layer: the files people keep, in INI syntax read by inih, with
 * no curses in it. Three kinds, each described section by section in
 * nurseshark.ini(5):
 *
 *   config.ini     key bindings by action name, colours by role, time format,
 *                  pane split, glyph set ($XDG_CONFIG_HOME/nurseshark/)
 *   a session      one trace's view: window, selection, markers, follow,
 *                  panes, sideways scroll and the whole filter set; saved on
 *                  exit per trace under $XDG_STATE_HOME/nurseshark/, or
 *                  under any name with :save-session
 *   a filter file  the filter entries alone, to reuse on other traces
 *
 * Reading never fails and never crashes on what is in a file: every problem
 * becomes one "FILE:LINE: message" in a struct ns_diag and the rest of the
 * file still applies. Writing is atomic (temporary file, fsync, rename,
 * fsync of the directory), so the previous file survives any failure, and
 * replaces only a file of ours, when asked to (savefile.c).
 *
 * The session layer serves the model: it captures and restores a struct
 * ns_view and a struct ns_filter_set. What only the front end knows (the
 * names of its actions and colour roles, its panes) comes in as plain data.
 */
#ifndef NURSESHARK_SESSION_H
#define NURSESHARK_SESSION_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "nurseshark/model.h"
#include "nurseshark/filter.h"

/* ---- diagnostics: "FILE:LINE: message", in the order found -------------- */

#define NS_DIAG_MAX	200	/* messages kept; more are only counted */

struct ns_diag {
	char **msg;
	int nr;
	size_t alloc;
	int dropped;		/* messages past NS_DIAG_MAX */
};

void ns_diag_init(struct ns_diag *d);
void ns_diag_free(struct ns_diag *d);
/* One message; @line 0 gives "FILE: message", a NULL @file just "message". */
void ns_diag_add(struct ns_diag *d, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ns_diag_vadd(struct ns_diag *d, const char *file, int line, const char *fmt, va_list ap);
/* Every message and how many were found in all. */
int ns_diag_count(const struct ns_diag *d);
/* Each message on its own line, after @prefix ("nurseshark: "). */
void ns_diag_print(const struct ns_diag *d, FILE *out, const char *prefix);
/* Move every message of @from to the end of @to. */
void ns_diag_move(struct ns_diag *to, struct ns_diag *from);

/* ---- saving a file of ours (savefile.c) ------------------------------------ */

/*
 * The first line the writers put in every session and filter file (every
 * version did): how a file is known to be ours. See ns_savefile_kind().
 */
#define NS_SESSION_MARK	"; nurseshark session:"
#define NS_FILTERS_MARK	"; nurseshark filters:"
#define NS_RECORD_MARK	"; nurseshark record:"	/* the Record screen's settings */

/*
 * The system calls of a save, replaceable so that tests can fail any one of
 * them (see tests/unit/test_savefile.c). @noreplace: fail with EEXIST
 * rather than replace a file that is at @to.
 */
struct ns_savefile_ops {
	ssize_t (*write)(void *arg, int fd, const void *buf, size_t len);
	int (*fsync)(void *arg, int fd);
	int (*close)(void *arg, int fd);
	int (*rename)(void *arg, const char *from, const char *to, int noreplace);
	void *arg;
};

struct ns_session_trace_id;

enum ns_save_flags {
	NS_SAVE_REPLACE = 1 << 0,	/* replace a file of ours (else -EEXIST) */
};

/* How to save; a NULL one is { 0 }. */
struct ns_save {
	unsigned flags;			/* enum ns_save_flags */
	const struct ns_session_trace_id *keep;	/* never written (the open trace); may be NULL */
	const struct ns_savefile_ops *ops;	/* NULL: the real system calls */
};

enum ns_savefile_kind {
	NS_SAVEFILE_NOT_OURS,
	NS_SAVEFILE_SESSION,
	NS_SAVEFILE_FILTERS,
	NS_SAVEFILE_RECORD,	/* the Record screen's settings (NS_RECORD_MARK) */
};

/**
 * ns_savefile_kind - is the text of a file one of ours, and which
 * Ours: a first line that starts with NS_SESSION_MARK or NS_FILTERS_MARK;
 * or, a file written or edited by hand without it, INI text (at most
 * NS_INI_MAX_FILE bytes, no NUL) with at least one section, all of them
 * sections of a session or filter file, and only comments, "name = value"
 * entries and continuation lines in them. Returns enum ns_savefile_kind
 * (FILTERS when the only sections are [filters]).
 */
int ns_savefile_kind(const char *data, size_t len);

/**
 * ns_savefile_write - save @len bytes of @data as @path, or leave it be
 * @how: may be NULL
 * @err: a one-line reason when it is not saved
 *
 * Writes a temporary file beside @path (a symbolic link: beside the file it
 * names), fsyncs it, renames it over the target and fsyncs the directory;
 * on any failure the temporary file is removed and the target is what it
 * was. Returns 0; -EEXIST when the target is a file of ours and @how has no
 * NS_SAVE_REPLACE (@err: "PATH exists (a nurseshark session)"); -EPERM for
 * a file that is not ours, the trace of @how->keep, a device, FIFO or
 * socket, a link to nothing; -EISDIR; or another negative errno.
 */
int ns_savefile_write(const char *path, const void *data, size_t len, const struct ns_save *how,
		      char *err, size_t err_len);

/*
 * Remove the temporary files a killed save left in @dir: ".NAME.XXXXXX",
 * regular, the user's own, unchanged for a minute, and empty or begun by
 * one of the marks above. ns_savefile_write() does it in the directory it
 * writes to. Returns how many, or a negative errno.
 */
int ns_savefile_clean(const char *dir);

/* ---- the Record screen's settings (record_settings.c) ---------------------- */

/* What the viewer's Record screen records, remembered for next time. */
struct ns_record_settings {
	char events[2048];	/* -e arguments, blank-separated ("sched:sched_switch irq") */
	long buffer_kb;		/* per CPU; 0: leave it as it is */
	char clock[64];		/* "": leave it as it is */
	char buffers[1024];	/* instances too: "-B NAME [-e EVENT]... [-b KB] [-C CLOCK]"... */
	char command[1024];	/* run under sh -c while recording; "": none */
	double duration;	/* seconds; 0: until the command ends or Ctrl-C */
	char output[1024];	/* the trace.dat to write */
};

/* The defaults: sched and irq, trace.dat, nothing else. */
void ns_record_settings_init(struct ns_record_settings *s);
/* $XDG_STATE_HOME/nurseshark/record.ini, malloc'd; NULL with @err set. */
char *ns_record_settings_path(char *err, size_t err_len);
/* Read @path over @s; 0, or a negative errno (in @d) when it cannot be read. */
int ns_record_settings_read(struct ns_record_settings *s, const char *path, struct ns_diag *d);
/* Save @s as @path (its directory created), by ns_savefile_write()'s rules. */
int ns_record_settings_save(const struct ns_record_settings *s, const char *path, char *err,
			    size_t err_len);

/* ---- where the files are -------------------------------------------------- */

/*
 * $XDG_STATE_HOME/nurseshark ($HOME/.local/state/nurseshark) and
 * $XDG_CONFIG_HOME/nurseshark/config.ini ($HOME/.config/...): malloc'd, or
 * NULL with @err filled in when neither variable nor $HOME gives an absolute
 * path. Nothing is created.
 */
char *ns_session_state_dir(char *err, size_t err_len);
char *ns_config_default_path(char *err, size_t err_len);

/**
 * ns_session_auto_path - the file of the session kept for a trace
 * @trace_abspath: the trace's absolute path
 *
 * "<state dir>/<path with '/' as '_', cut to its last 96 bytes>-<8 hex
 * digits of a hash of the whole path>.ini", so the name says which trace it
 * is and two paths that look alike still differ. Malloc'd, or NULL.
 */
char *ns_session_auto_path(const char *state_dir, const char *trace_abspath);

/* Create @dir and its parents (mode 0700). 0 or a negative errno. */
int ns_session_mkdirs(const char *dir);

/* ---- what identifies a trace file ------------------------------------------ */

struct ns_session_trace_id {
	char *path;		/* absolute (realpath when it resolves); owned */
	uint64_t size;
	int64_t mtime_s;
	long mtime_ns;
	uint64_t dev, ino;	/* st_dev, st_ino; 0, 0: not known (read from a session) */
};

/* Stat @path. 0, or a negative errno (then @id is empty). */
int ns_session_trace_id_get(const char *path, struct ns_session_trace_id *id);
void ns_session_trace_id_free(struct ns_session_trace_id *id);

/* ---- a session ------------------------------------------------------------ */

/* Which parts of a session were read (or captured); struct ns_session.have. */
enum ns_session_part {
	NS_SESS_TRACE		= 1 << 0,	/* [trace] path, size, mtime */
	NS_SESS_WINDOW		= 1 << 1,
	NS_SESS_SELECTED	= 1 << 2,
	NS_SESS_LIST_TOP	= 1 << 3,
	NS_SESS_FOLLOW		= 1 << 4,
	NS_SESS_ACTIVE		= 1 << 5,	/* the active marker */
	NS_SESS_MARKER_A	= 1 << 6,
	NS_SESS_MARKER_B	= 1 << 7,
	NS_SESS_FOCUS		= 1 << 8,
	NS_SESS_GRAPH_ROWS	= 1 << 9,
	NS_SESS_INFO_SCROLL	= 1 << 10,
	NS_SESS_CURSOR		= 1 << 11,	/* the graph cursor's CPU and column */
	NS_SESS_FILTERS		= 1 << 12,	/* filter entries */
	NS_SESS_TASK_ROWS	= 1 << 13,
	NS_SESS_HIDDEN_CPUS	= 1 << 14,
	NS_SESS_SEARCH		= 1 << 15,
	NS_SESS_PLOT_ROWS	= 1 << 16,	/* latency and field plots */
	NS_SESS_STREAMS		= 1 << 17,	/* [streams] the buffers read, the file's */
	NS_SESS_FILES		= 1 << 18,	/* [files] several files, offsets */
};

/* [files] (files_entry.c): a file of the trace shown, and its --ts-offset. */
struct ns_session_file {
	struct ns_session_trace_id id;
	bool has_ts_offset;
	long long ts_offset;
};

#define NS_SESSION_GRAPH_ROWS_MAX	4096
#define NS_SESSION_INFO_SCROLL_MAX	65536

struct ns_session {
	unsigned have;			/* enum ns_session_part */
	struct ns_session_trace_id trace;
	uint64_t nr_events;		/* 0: not known */

	/* the model's view */
	uint64_t start_ns, end_ns;	/* the graph's window */
	uint64_t selected, selected_ns;	/* row and its timestamp */
	uint64_t list_top;
	int graph_follows;
	int active_marker;		/* enum ns_marker_id */
	struct ns_marker marker[NS_NR_MARKERS];

	/* the front end's own; the session layer only stores them */
	int focus_graph;		/* the focus is on the graph */
	int graph_rows;			/* CPU rows the graph gets; 0: automatic */
	int info_scroll;		/* columns of Info scrolled off */
	int cursor_cpu, cursor_col;

	/* filters, task and plot rows, hidden CPUs, the last search; owned, never NULL */
	struct ns_filter_set *filters;

	/* [streams] (streams.c): names as --buffer takes them ("top"); owned */
	char **buffers;			/* the buffers read */
	int nr_buffers;
	char **file_buffers;		/* every buffer the file had */
	int nr_file_buffers;

	/* [files]: every file shown, with its offset; owned (kept when there
	 * are several files or an offset) */
	struct ns_session_file *files;
	int nr_files;
};

/*
 * Several files: the name their sessions are kept under (the files' absolute
 * paths, one a line), for ns_session_auto_path(); NULL when out of memory.
 */
char *ns_session_files_key(const char *const *paths, int n);
/*
 * A session's files against those open in @trace: each that moved (another
 * path) or changed (size, time) since, and a count that differs, said in
 * @diag as for one file.
 */
void ns_session_compare_files(const struct ns_session *s, const struct ns_trace *trace,
			      const char *what, struct ns_diag *diag);

/* 0 or -ENOMEM. An empty session (have == 0) with an empty filter set. */
int ns_session_init(struct ns_session *s);
void ns_session_free(struct ns_session *s);

/**
 * ns_session_capture - the model's part of a session, from a view
 * @filters: copied into the session (NULL: none)
 *
 * Sets the trace identity from @id (copied), the window, selection, list
 * top, follow and markers; the front end adds its own fields after.
 * Returns 0 or -ENOMEM.
 */
int ns_session_capture(struct ns_session *s, const struct ns_session_trace_id *id,
		       const struct ns_view *view, const struct ns_filter_set *filters);

/* Add the @parts (NS_SESS_FILTERS, _TASK_ROWS, _PLOT_ROWS, _HIDDEN_CPUS, _SEARCH) of @from to @to. */
int ns_session_copy_filters(struct ns_filter_set *to, const struct ns_filter_set *from,
			    unsigned parts);
/* Empty the @parts of @fs: no entries, task or plot rows, hidden CPUs or search. */
void ns_session_reset_filters(struct ns_filter_set *fs, unsigned parts);

/**
 * ns_session_restore_filters - a session's filters onto the filter set in use
 * @live: each part the session holds replaces that part of @live
 *
 * What the trace cannot use (ns_filters_keep_applicable(), task rows of
 * tasks it does not have, plot rows of events or fields it does not have,
 * hidden CPUs it does not have) is left out with a message in @diag naming
 * @what. Returns the parts restored.
 */
unsigned ns_session_restore_filters(const struct ns_session *s, struct ns_filter_set *live,
				    struct ns_trace *trace, const char *what,
				    struct ns_diag *diag);

/*
 * How a session's [trace] compares with the trace opened: a mask of
 * NS_SESSION_TRACE_MOVED (another path) and NS_SESSION_TRACE_CHANGED (size or modification
 * time differ); 0 is the same file.
 */
enum {
	NS_SESSION_TRACE_MOVED = 1 << 0,
	NS_SESSION_TRACE_CHANGED = 1 << 1,
};
int ns_session_compare_trace(const struct ns_session *s, const struct ns_session_trace_id *id);

/**
 * ns_session_apply - put a session's view back on a view
 * @what: where the messages name the session ("FILE", for "FILE: marker A ...")
 * @applied: set to the parts actually applied (may be NULL)
 *
 * Applies the parts of s->have that still hold for the view's trace: a
 * marker or the selection only when its row still has the timestamp it was
 * saved with, the window only inside the trace. What does not hold is
 * skipped with a message in @diag. The filters are the caller's to copy.
 */
void ns_session_apply(const struct ns_session *s, struct ns_view *view, const char *what,
		      struct ns_diag *diag, unsigned *applied);

/**
 * ns_session_buffer_choice - the buffers a session read, to open the trace with
 * @names: filled with up to @max names (pointing into @s)
 * @diag: may be NULL (no messages)
 *
 * Says in @diag when the file's buffers are not those the session saw. When
 * the session read some of the file's buffers only (--buffer) and the trace
 * is open with others, returns how many of @names to open it with (those the
 * file still has); else 0: what is open stays.
 */
int ns_session_buffer_choice(const struct ns_session *s, const struct ns_trace *trace,
			     const char *what, struct ns_diag *diag, const char **names, int max);

/**
 * ns_session_read - read a session file
 * @s: an initialised session; what the file holds is added to it
 *
 * Returns 0 when the file was read (problems in it are in @diag), or a
 * negative errno when it could not be read at all (also in @diag).
 */
int ns_session_read(struct ns_session *s, const char *path, struct ns_diag *diag);
/* The same from memory; @name stands for the file in messages. */
int ns_session_parse(struct ns_session *s, const char *name, const char *data, size_t len,
		     struct ns_diag *diag);

/* The INI text of a session (every part in s->have). 0 or a negative errno. */
int ns_session_write(const struct ns_session *s, FILE *out);
/* ns_session_write() into @path through ns_savefile_write(): its rules and returns. */
int ns_session_save(const struct ns_session *s, const char *path, const struct ns_save *how,
		    char *err, size_t err_len);

/* ---- filter files ----------------------------------------------------------- */

/*
 * A filter file holds the [filters] section of a session alone. Reading one
 * adds its entries to @fs; writing one saves @fs's entries (not its task
 * rows, hidden CPUs or search, which belong to one trace).
 */
int ns_filters_read(struct ns_filter_set *fs, const char *path, struct ns_diag *diag);
int ns_filters_parse(struct ns_filter_set *fs, const char *name, const char *data, size_t len,
		     struct ns_diag *diag);
int ns_filters_write(const struct ns_filter_set *fs, FILE *out);
int ns_filters_save(const struct ns_filter_set *fs, const char *path, const struct ns_save *how,
		    char *err, size_t err_len);

/**
 * ns_filters_keep_applicable - drop the entries that mean nothing in a trace
 * @fs: the set; entries naming a task with no event in @trace, or an event
 *      or a system the trace does not have, or a CPU it does not have, are
 *      removed, each with a message in @diag naming @what
 * Returns how many were removed.
 */
int ns_filters_keep_applicable(struct ns_filter_set *fs, struct ns_trace *trace,
			       const char *what, struct ns_diag *diag);

/* ---- configuration ------------------------------------------------------------ */

enum ns_config_time_format {
	NS_TIME_USEC,		/* seconds.microseconds, as trace-cmd report */
	NS_TIME_NSEC,		/* seconds.nanoseconds, as trace-cmd report -t */
};

enum ns_config_glyphs {
	NS_GLYPHS_AUTO,		/* Unicode in a UTF-8 locale, else ASCII */
	NS_GLYPHS_UNICODE,
	NS_GLYPHS_ASCII,
};

/* Attribute bits of a colour, independent of curses. */
enum ns_config_attr {
	NS_ATTR_BOLD		= 1 << 0,
	NS_ATTR_DIM		= 1 << 1,
	NS_ATTR_UNDERLINE	= 1 << 2,
	NS_ATTR_REVERSE		= 1 << 3,
	NS_ATTR_BLINK		= 1 << 4,
	NS_ATTR_ITALIC		= 1 << 5,
};

#define NS_COLOUR_DEFAULT	(-1)	/* the terminal's own foreground or background */

struct ns_config_colour {
	int set;
	int line;		/* where in the file, for later messages */
	short fg, bg;		/* 0..255, or NS_COLOUR_DEFAULT */
	unsigned attrs;		/* enum ns_config_attr */
};

/* Scopes of key bindings, as the front end's action table has them. */
enum ns_config_scope {
	NS_CONFIG_KEYS_ANY,	/* [keys] */
	NS_CONFIG_KEYS_LIST,	/* [keys.list] */
	NS_CONFIG_KEYS_GRAPH,	/* [keys.graph] */
	NS_CONFIG_KEYS_PICKER,	/* [keys.picker] */
	NS_CONFIG_KEYS_HELP,	/* [keys.help] */
	NS_CONFIG_KEYS_STATS,	/* [keys.stats] */
	NS_CONFIG_KEYS_RECORD,	/* [keys.record] */
	NS_CONFIG_KEYS_JOB,	/* [keys.job] */
	NS_CONFIG_NR_SCOPES,
};

/*
 * What the front end knows that a config file names: its actions and colour
 * roles, and how to check a key binding. main.c fills it from the front end.
 */
struct ns_config_schema {
	const char *const *actions;	/* action names, by action number */
	int nr_actions;
	const char *const *roles;	/* colour role names, by role number */
	int nr_roles;
	/* 0, or -EINVAL with a reason: "keys" is one action's keys, spaced */
	int (*check_keys)(const char *keys, char *err, size_t err_len);
	/* by action number, a bit (1 << scope) per scope it may be bound in; NULL: all */
	const unsigned char *action_scopes;
};

#define NS_CONFIG_KEYS_MAX	120	/* bytes of one action's keys */

struct ns_config {
	char *path;			/* the file read, or NULL */
	int time_format;		/* enum ns_config_time_format */
	int glyphs;			/* enum ns_config_glyphs */
	int graph_rows;			/* default CPU rows of the graph; 0: automatic */
	int colour;			/* 1: colours when the terminal has them; 0: never */
	int session_restore;		/* restore a trace's session when it is opened */
	int session_save;		/* save it on exit */
	/* keys[action][scope]: NULL, or the keys that replace the defaults there */
	char *(*keys)[NS_CONFIG_NR_SCOPES];
	int (*keys_line)[NS_CONFIG_NR_SCOPES];
	int nr_actions;
	struct ns_config_colour *colours;	/* by role */
	int nr_roles;
};

/* The defaults. 0 or -ENOMEM. */
int ns_config_init(struct ns_config *c, const struct ns_config_schema *schema);
void ns_config_free(struct ns_config *c);

/**
 * ns_config_read - read config.ini
 * @c: initialised with ns_config_init() on the same schema
 * @missing_ok: a file that does not exist is no message (the default file)
 *
 * Returns 0 when read or absent, or a negative errno when it exists but
 * cannot be read; every problem is in @diag.
 */
int ns_config_read(struct ns_config *c, const struct ns_config_schema *schema,
		   const char *path, int missing_ok, struct ns_diag *diag);
int ns_config_parse(struct ns_config *c, const struct ns_config_schema *schema,
		    const char *name, const char *data, size_t len, struct ns_diag *diag);

/* ---- the settings of [display] and [session], one table ------------------------ */

enum ns_setting_type {
	NS_SETTING_CHOICE,	/* one of choices[], stored as its index */
	NS_SETTING_BOOL,	/* yes|no (true|false, on|off, 1|0): 1 or 0 */
	NS_SETTING_ROWS,	/* auto (0) or a number from 1 to max */
};

/*
 * One setting: it drives the parser (ns_config_parse()), its defaults
 * (ns_config_init()), --print-config and, through that, contrib/config.ini
 * and the settings of nurseshark.ini(5) (contrib/gen-docs.sh). A new
 * setting is one row here and an int in struct ns_config.
 */
struct ns_config_setting {
	const char *section;		/* "display" */
	const char *name;		/* "time-format" */
	const char *alias;		/* another name for it ("color"), or NULL */
	int type;			/* enum ns_setting_type */
	const char *const *choices;	/* CHOICE: the values, by number */
	int nr_choices;
	int max;			/* ROWS: the largest number */
	int dflt;			/* the default, as stored */
	size_t offset;			/* of its int in struct ns_config */
	const char *help;		/* plain text, one paragraph */
};

extern const struct ns_config_setting ns_config_settings[];
extern const int ns_config_nr_settings;

/* What a setting takes, as "usec | nsec", "yes | no", "auto | N (1-4096)". */
void ns_config_setting_syntax(const struct ns_config_setting *set, char *buf, size_t len);
/* A stored @value as the file writes it: "usec", "yes", "auto", "12". */
void ns_config_setting_value(const struct ns_config_setting *set, int value, char *buf,
			     size_t len);

/* Names of the settings' values, for messages and the commented example. */
const char *ns_config_colour_name(int colour);	/* "red", "default"; NULL for 8..255 */
const char *ns_config_time_format_name(int fmt);
const char *ns_config_glyphs_name(int glyphs);

/* ---- the files of one run (files.c), as main.c wires them ---------------------- */

struct ns_files {
	struct ns_config config;
	struct ns_session session;	/* to restore, when have_session */
	int have_session;
	char *session_name;		/* the file it was read from */
	struct ns_session_trace_id trace_id;
	char *auto_path;		/* the trace's own session, saved on exit; NULL: not */
	char *session_key;		/* several files: what names their session (else NULL) */
	struct ns_filter_set *fresh;	/* the filters of a start without the session */
	struct ns_diag problems;	/* every problem found, for the status line */
	int saved, save_failed;		/* what ns_files_at_exit() did */
	char save_error[512];
	char state_error[512];		/* why sessions are not kept, if they are not */
};

int ns_files_init(struct ns_files *f, const struct ns_config_schema *schema);
void ns_files_free(struct ns_files *f);
/* config.ini at @path, or (NULL) the default one, which may be absent. */
void ns_files_read_config(struct ns_files *f, const struct ns_config_schema *schema,
			  const char *path);
/* A session named on the command line: 0, or a negative errno (in problems). */
int ns_files_read_session(struct ns_files *f, const char *path);
/**
 * ns_files_trace - the trace opened: its identity and its own session file
 * @restore: read the trace's session unless one was named (-s)
 * @save: keep it on exit (the state directory is created now)
 * A state directory that cannot be used is a message, not an error.
 * Returns 0, or a negative errno when the trace cannot be stat'ed.
 */
int ns_files_trace(struct ns_files *f, const char *trace_path, int restore, int save);
/* The same for several files (their session named by ns_session_files_key()). */
int ns_files_traces(struct ns_files *f, const char *const *paths, int n, int restore, int save);
/* --filters FILE: its entries (those @trace can use) replace @fs's. */
int ns_files_read_filters(struct ns_files *f, struct ns_trace *trace, struct ns_filter_set *fs,
			  const char *path);
/*
 * Remember @fs as the filters of a fresh start, then put the session's
 * filters on it unless the command line gave filters (@cmdline_filters).
 */
int ns_files_restore_filters(struct ns_files *f, struct ns_trace *trace,
			     struct ns_filter_set *fs, int cmdline_filters);
/* struct ns_tui_setup's at_exit: save the session to auto_path (arg: the ns_files). */
void ns_files_at_exit(void *arg, const struct ns_session *s);

#endif
