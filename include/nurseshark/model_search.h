/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model layer: search and jumps in the list. A search (struct
 * ns_search_spec, filter.h: a column, a mode and a text) is compiled once,
 * then run over the list's rows from the selection, forward or backward,
 * wrapping at the ends as vim does, in steps so that the screen can show
 * progress and Esc can cancel. Jumps go to the next or previous shown event
 * of the same task, CPU or event type. No curses here.
 */
#ifndef NURSESHARK_MODEL_SEARCH_H
#define NURSESHARK_MODEL_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/trace.h"

/**
 * ns_search_parse - what the user typed after / or ?
 * @input: "[COLUMN]OP TEXT" or just TEXT. COLUMN is any, task, pid, cpu,
 *         event or info; OP is ':' (contains), '=' (exact), '!' (does not
 *         contain) or '~' (regular expression, POSIX extended). Without a
 *         COLUMN and OP the whole input is searched for in any column;
 *         "any:" searches for a text that starts like a column name.
 * @spec: filled in (backward and ignore_case left as they are)
 * Returns 0, or -EINVAL (empty text) with @err filled in.
 */
int ns_search_parse(const char *input, struct ns_search_spec *spec, char *err, size_t err_len);
/* The spec back in that syntax ("task=gzip"), for messages and history. */
void ns_search_format(const struct ns_search_spec *spec, char *buf, size_t len);

struct ns_search;

/* Compile; NULL with @err (a bad regular expression: regerror's message). */
struct ns_search *ns_search_compile(const struct ns_search_spec *spec, char *err, size_t err_len);
void ns_search_free(struct ns_search *s);
const struct ns_search_spec *ns_search_spec(const struct ns_search *s);

/* Does the search need the event's text, or do pid, CPU, type and comm do? */
int ns_search_needs_text(const struct ns_search *s);

/**
 * ns_search_match - does one event match?
 * @txt: the event's columns (NULL when !ns_search_needs_text())
 * @line: the event as report prints it, for the column "any" (may be NULL otherwise)
 * @pid, @cpu, @event, @comm: what the index and the task table say, used
 *        when @txt is NULL
 */
int ns_search_match(const struct ns_search *s, const struct ns_event_text *txt, const char *line,
		    int pid, int cpu, const char *event, const char *comm);

/*
 * The stream column: does the name of the stream of CPU slot @cpu ("top"
 * for the top buffer, ns_filter_stream_name()) match? ns_search_match()
 * says no to that column, as it has no trace to name the stream with.
 */
int ns_search_match_stream(const struct ns_search *s, const struct ns_trace *trace, int cpu);

/**
 * ns_search_span - where the search matches in one column's text
 * @column: the column the text is from (enum ns_search_column, not ANY)
 * Returns 1 with *start and *len set, or 0 (nothing to highlight there).
 */
int ns_search_span(const struct ns_search *s, int column, const char *text, size_t *start,
		   size_t *len);

/* A search under way. */
struct ns_search_job;

/**
 * ns_search_begin - look for the next match after (or before) @from_row
 * @vis: the list's filters (NULL: every row)
 * @backward: search toward row 0
 *
 * Only rows the list shows are tested; the search wraps around at the end
 * (or the start) and stops at @from_row itself, which is tested last.
 */
struct ns_search_job *ns_search_begin(struct ns_trace *trace, const struct ns_visible *vis,
				      const struct ns_search *s, uint64_t from_row, int backward);
/* Test up to @budget rows: 1 found, 0 more to do, -ENOENT no match, or a negative errno. */
int ns_search_step(struct ns_search_job *job, uint64_t budget);
/* The row found; *wrapped set when the search went past the end. */
uint64_t ns_search_found(const struct ns_search_job *job, int *wrapped);
void ns_search_progress(const struct ns_search_job *job, uint64_t *done, uint64_t *total);
void ns_search_job_free(struct ns_search_job *job);

/*
 * Split @job into two processes once @after positions were tested and at
 * least @left are left (by default 16384 and 2^20): tests split searches of
 * small traces so. Before the first ns_search_step().
 */
void ns_search_job_split_at(struct ns_search_job *job, uint64_t after, uint64_t left);
/* Whether @job went into two processes (a child tests the far half). */
bool ns_search_job_was_split(const struct ns_search_job *job);
/* Run a search to its end: 0 with *row, -ENOENT, or a negative errno. */
int ns_search_run(struct ns_trace *trace, const struct ns_visible *vis, const struct ns_search *s,
		  uint64_t from_row, int backward, uint64_t *row, int *wrapped);

/* ---- jumps: jump.c ------------------------------------------------------------ */

enum ns_jump_kind {
	NS_JUMP_TASK,		/* the same pid */
	NS_JUMP_CPU,
	NS_JUMP_EVENT,		/* the same event type */
};

/**
 * ns_view_jump - select the next (@dir > 0) or previous shown event like the selected one
 * Returns 0, or -ENOENT when there is none (the selection stays).
 */
int ns_view_jump(struct ns_view *view, int kind, int dir);

/**
 * ns_view_goto_ns - select the first shown event at or after @ts_ns
 * (the last shown one when none is). Returns 0, or -ENOENT in an empty list.
 */
int ns_view_goto_ns(struct ns_view *view, uint64_t ts_ns);

/* "10172.5", "10172.572790", "10172.572790123": seconds to ns; 0 or -EINVAL. */
int ns_parse_ts(const char *s, uint64_t *ts_ns);

#endif
