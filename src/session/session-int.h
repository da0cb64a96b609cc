/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the session layer share: the INI reader that sits
 * between a file and inih (ini.c), and the helpers that turn a value into a
 * number, a choice or a string with a "FILE:LINE: message" when it is not.
 */
#ifndef NS_SESSION_INT_H
#define NS_SESSION_INT_H

#include <stdint.h>
#include <stdio.h>

#include "nurseshark/session.h"
#include "nurseshark/util.h"

#define NS_INI_MAX_FILE		(1 << 20)	/* bytes; a bigger file is not read */
#define NS_INI_MAX_PROBLEMS	100		/* then the rest of a file is skipped */
#define NS_INI_MAX_SECTION	48		/* inih keeps 49 bytes of a section name */
#define NS_INI_MAX_VALUE	4096		/* bytes of a value, continuations included */
#define NS_INI_WRAP		120		/* longer strings are written in pieces */

struct ns_ini;

/*
 * Called for each section line (name and value NULL) and for each complete
 * "name = value" (continuation lines already joined). ns_ini_error() in it
 * reports at the entry's first line.
 */
typedef void (*ns_ini_fn)(struct ns_ini *ini, void *user, const char *section,
			  const char *name, const char *value);

struct ns_ini {
	const char *file;		/* the file's name in messages */
	const char *data;
	size_t len, pos;
	int line;			/* the line inih is on */
	int report_line;		/* the line messages name */
	int problems;
	int stopped;			/* too many problems: the rest was skipped */
	/* the line just given to inih, until the next one is read */
	int last_kind;
	int last_handled;
	/* a "name = value" whose continuation lines may still come */
	int pending;
	int pending_line;
	char pending_section[NS_INI_MAX_SECTION + 2];
	char pending_name[64];
	char *pending_value;
	size_t pending_len;
	int pending_too_long;
	char section[NS_INI_MAX_SECTION + 2];
	ns_ini_fn fn;
	void *user;
	struct ns_diag *diag;
};

/**
 * ns_ini_parse - feed @data to inih, calling @fn for each section and entry
 * @file: the file's name in messages
 *
 * Lines inih cannot take (too long, NUL or control bytes, malformed) are
 * reported and skipped; leading blanks are dropped, so an indented entry is
 * an entry, not a continuation (only a line starting with '"' continues the
 * value above). Returns the number of problems reported.
 */
int ns_ini_parse(const char *file, const char *data, size_t len, ns_ini_fn fn, void *user,
		 struct ns_diag *diag);

/* Read a whole file (at most NS_INI_MAX_FILE bytes). 0 or a negative errno. */
int ns_ini_slurp(const char *path, char **data, size_t *len);

/*
 * ns_ini_read - ns_ini_slurp() and ns_ini_parse() of the file at @path
 * @what: what the file should be, for the message when it is too big
 *        ("a session": "bigger than 1 MiB, not a session")
 * Returns 0 when read (its problems are in @diag), or a negative errno with
 * "PATH: cannot read: why" in @diag.
 */
int ns_ini_read(const char *path, const char *what, ns_ini_fn fn, void *user,
		struct ns_diag *diag);

/* "FILE:LINE: message" at the current entry. */
void ns_ini_error(struct ns_ini *ini, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The names a file gave so far, to report one given twice. */
#define NS_INI_MAX_SEEN 256

struct ns_ini_seen {
	struct {
		char key[80];
		int line;
	} v[NS_INI_MAX_SEEN];
	int n;
};

/*
 * ns_ini_once - note that @name of @section was given at the current line
 * A name given again is reported (the last one counts).
 */
void ns_ini_once(struct ns_ini *ini, struct ns_ini_seen *seen, const char *section,
		 const char *name);

/* Values. Each returns 0, or -EINVAL after reporting "NAME: why". */
int ns_ini_u64(struct ns_ini *ini, const char *name, const char *v, uint64_t max,
	       uint64_t *out);
int ns_ini_int(struct ns_ini *ini, const char *name, const char *v, long min, long max,
	       int *out);
int ns_ini_bool(struct ns_ini *ini, const char *name, const char *v, int *out);
/* One of @names (n of them); *out is its index. */
int ns_ini_choice(struct ns_ini *ini, const char *name, const char *v,
		  const char *const *names, int n, int *out);
/* A string, plain or "quoted"; at most @size - 1 bytes. */
int ns_ini_string(struct ns_ini *ini, const char *name, const char *v, char *out, size_t size);

/* Writing: "name = value", quoting and wrapping @value when it needs it. */
void ns_ini_put(FILE *out, const char *name, const char *value);
/* The value alone, then the end of the line. */
void ns_ini_put_value(FILE *out, const char *value);
/* The same with a printf value (never quoted: numbers and names). */
void ns_ini_putf(FILE *out, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The [filters] section's entries, shared by sessions and filter files (filters.c). */
/* One "kind = mode where what" line into @fs: 0, or -EINVAL after a message. */
int ns_filters_entry(struct ns_ini *ini, struct ns_filter_set *fs, const char *name,
		     const char *value);
void ns_filters_write_entries(const struct ns_filter_set *fs, FILE *out);

/* Save what @write_fn puts in a memory stream as @path (ns_savefile_write()). */
int ns_session_save_text(const char *path, int (*write_fn)(const void *obj, FILE *out),
			 const void *obj, const struct ns_save *how, char *err, size_t err_len);

/* [streams] (streams.c) */
void ns_session_free_streams(struct ns_session *s);
/* The trace's buffers, read and the file's, into @s (NS_SESS_STREAMS). 0 or -ENOMEM. */
int ns_session_capture_streams(struct ns_session *s, const struct ns_trace *trace);
void ns_session_streams_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			      const char *v);
void ns_session_write_streams(const struct ns_session *s, FILE *out);

/* files_entry.c: [files] */
void ns_session_free_files(struct ns_session *s);
int ns_session_capture_files(struct ns_session *s, const struct ns_trace *trace);
void ns_session_files_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			    const char *value);
void ns_session_write_files(const struct ns_session *s, FILE *out);

#endif
