// SPDX-License-Identifier: GPL-2.0-only
/*
 * Search in the list (the jumps to the next event alike are in jump.c).
 *
 * A search tests rows in list order from the selection, one chunk of rows
 * at a time (ns_trace_rows), and wraps at the end as vim does. Columns the
 * index holds (pid, CPU, event name) are tested without reading the event;
 * the task's comm comes from the task table, the stream's name from the
 * CPU slot; info and "any" need the
 * event's text, which costs a
 * read and a libtraceevent print per row: a few seconds over 5 million
 * events, hence the steps, the progress and the cancel. "any" tests the
 * line exactly as `trace-cmd report` prints it (so a search finds what a
 * grep of report's output finds), except in the exact mode, where one of
 * the columns must equal the text. That line has no latency flags, which
 * the list shows: ns_trace_match_line() does not print them, and writes
 * the time and the line without printf, so that "any" costs about what
 * info costs (tests/unit/test_search_line.c holds it to report's lines).
 * A search for a text, or for its absence, in the info or the line asks
 * the trace's gate first (ns_trace_line_gate(), src/trace/gate.c): what
 * the event's format can print, and the line's head from the index, rule
 * most events in or out without reading them.
 *
 * A long search that prints events (info, "any") is split in two: a child
 * process, fork()ed with the trace as it is, tests the far half of what is
 * left and writes its first match to a pipe, while this process tests the
 * near half; the near half's match wins, else the child's. libtraceevent's
 * printing is not made for threads, a process of its own is safe, and a
 * fork() costs a few milliseconds against seconds of printing. While the
 * child lives, both load the index's chunks into buffers of their own, so
 * that neither copies the pages they share (ns_trace_share_pages()).
 */
#include <errno.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nurseshark/model_search.h"

#define NS_SEARCH_CHUNK	1024
/* split a search when this many positions were tested and this many are left */
#define NS_SEARCH_SPLIT_AFTER	16384
#define NS_SEARCH_SPLIT_LEFT	(1u << 20)


static const char search_ops[NS_NR_SEARCH_MODES] = {
	[NS_SEARCH_CONTAINS] = ':',
	[NS_SEARCH_EXACT] = '=',
	[NS_SEARCH_NOT_CONTAINS] = '!',
	[NS_SEARCH_REGEX] = '~',
};

static int op_mode(char c)
{
	int m;

	for (m = 0; m < NS_NR_SEARCH_MODES; m++)
		if (search_ops[m] == c)
			return m;
	return -1;
}

int ns_search_parse(const char *input, struct ns_search_spec *spec, char *err, size_t err_len)
{
	const char *text = input;
	int column = NS_SEARCH_ANY, mode = NS_SEARCH_CONTAINS;
	size_t k = strspn(input, "abcdefghijklmnopqrstuvwxyz");

	if (k && op_mode(input[k]) >= 0) {
		char word[16];

		snprintf(word, sizeof(word), "%.*s", (int)k, input);
		if (k < sizeof(word) && ns_search_column_from_name(word) >= 0) {
			column = ns_search_column_from_name(word);
			mode = op_mode(input[k]);
			text = input + k + 1;
		}
	} else if (!k && op_mode(input[0]) >= 0) {
		mode = op_mode(input[0]);
		text = input + 1;
	}
	if (!*text) {
		snprintf(err, err_len, "nothing to search for");
		return -EINVAL;
	}
	if (strlen(text) >= sizeof(spec->text)) {
		snprintf(err, err_len, "the text is longer than %d bytes", NS_SEARCH_MAX_TEXT - 1);
		return -EINVAL;
	}
	spec->column = column;
	spec->mode = mode;
	snprintf(spec->text, sizeof(spec->text), "%s", text);
	return 0;
}

void ns_search_format(const struct ns_search_spec *spec, char *buf, size_t len)
{
	if (spec->column == NS_SEARCH_ANY && spec->mode == NS_SEARCH_CONTAINS &&
	    strspn(spec->text, "abcdefghijklmnopqrstuvwxyz") == 0 && op_mode(spec->text[0]) < 0)
		snprintf(buf, len, "%s", spec->text);
	else
		snprintf(buf, len, "%s%c%s", ns_search_column_name(spec->column),
			 search_ops[spec->mode], spec->text);
}

struct ns_search {
	struct ns_search_spec spec;
	bool have_re;
	regex_t re;
};

struct ns_search *ns_search_compile(const struct ns_search_spec *spec, char *err, size_t err_len)
{
	struct ns_search *s;
	int ret;

	if (spec->column < 0 || spec->column >= NS_NR_SEARCH_COLUMNS || spec->mode < 0 ||
	    spec->mode >= NS_NR_SEARCH_MODES || !spec->text[0]) {
		snprintf(err, err_len, "nothing to search for");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	s->spec = *spec;
	if (spec->mode == NS_SEARCH_REGEX) {
		ret = regcomp(&s->re, spec->text,
			      REG_EXTENDED | REG_NEWLINE | (spec->ignore_case ? REG_ICASE : 0));
		if (ret) {
			char msg[128];

			regerror(ret, &s->re, msg, sizeof(msg));
			snprintf(err, err_len, "%s: %s", spec->text, msg);
			free(s);
			return NULL;
		}
		s->have_re = true;
	}
	return s;
}

void ns_search_free(struct ns_search *s)
{
	if (!s)
		return;
	if (s->have_re)
		regfree(&s->re);
	free(s);
}

const struct ns_search_spec *ns_search_spec(const struct ns_search *s)
{
	return &s->spec;
}

int ns_search_needs_text(const struct ns_search *s)
{
	return s->spec.column == NS_SEARCH_INFO || s->spec.column == NS_SEARCH_ANY;
}

static const char *find(const struct ns_search *s, const char *text)
{
	return s->spec.ignore_case ? strcasestr(text, s->spec.text) : strstr(text, s->spec.text);
}

static bool equal(const struct ns_search *s, const char *text)
{
	return s->spec.ignore_case ? !strcasecmp(text, s->spec.text) : !strcmp(text, s->spec.text);
}

/* One text against the search's mode. */
static bool match_text(const struct ns_search *s, const char *text)
{
	switch (s->spec.mode) {
	case NS_SEARCH_CONTAINS:
		return find(s, text) != NULL;
	case NS_SEARCH_EXACT:
		return equal(s, text);
	case NS_SEARCH_NOT_CONTAINS:
		return find(s, text) == NULL;
	case NS_SEARCH_REGEX:
		return regexec(&s->re, text, 0, NULL, 0) == 0;
	}
	return false;
}

/*
 * The list's note on events lost before this one, "[105 EVENTS DROPPED]",
 * is part of the row as shown (report prints it on a line of its own): a
 * search of the whole line sees it too, so that /DROPPED finds those rows.
 */
static bool match_line(const struct ns_search *s, const struct ns_event_text *txt,
		       const char *line)
{
	char note[48];
	bool in_line = match_text(s, line);

	if (!txt || !txt->missed)
		return in_line;
	if (txt->missed > 0)
		snprintf(note, sizeof(note), "[%lld EVENTS DROPPED]", txt->missed);
	else
		snprintf(note, sizeof(note), "[EVENTS DROPPED]");
	/* "does not contain": neither does; the others: either does */
	if (s->spec.mode == NS_SEARCH_NOT_CONTAINS)
		return in_line && match_text(s, note);
	return in_line || match_text(s, note);
}

int ns_search_match(const struct ns_search *s, const struct ns_event_text *txt, const char *line,
		    int pid, int cpu, const char *event, const char *comm)
{
	char num[16];

	switch (s->spec.column) {
	case NS_SEARCH_PID:
		snprintf(num, sizeof(num), "%d", txt ? txt->pid : pid);
		return match_text(s, num);
	case NS_SEARCH_CPU:
		snprintf(num, sizeof(num), "%d", txt ? txt->cpu : cpu);
		return match_text(s, num);
	case NS_SEARCH_EVENT:
		return match_text(s, txt ? txt->event : event);
	case NS_SEARCH_TASK:
		return match_text(s, txt ? txt->comm : comm ? comm : "");
	case NS_SEARCH_INFO:
		return txt && match_text(s, txt->info ? txt->info : "");
	case NS_SEARCH_STREAM:
		return 0;	/* ns_search_match_stream(): the name needs the trace */
	case NS_SEARCH_ANY:
		if (s->spec.mode != NS_SEARCH_EXACT)
			return line && match_line(s, txt, line);
		if (!txt)
			return 0;
		snprintf(num, sizeof(num), "%d", txt->pid);
		if (equal(s, num) || equal(s, txt->comm) || equal(s, txt->event) ||
		    equal(s, txt->info ? txt->info : ""))
			return 1;
		snprintf(num, sizeof(num), "%d", txt->cpu);
		return equal(s, num);
	}
	return 0;
}

int ns_search_match_stream(const struct ns_search *s, const struct ns_trace *trace, int cpu)
{
	char name[64];

	ns_filter_stream_name(trace, ns_trace_cpu_stream(trace, cpu), name, sizeof(name));
	return match_text(s, name);
}

int ns_search_span(const struct ns_search *s, int column, const char *text, size_t *start,
		   size_t *len)
{
	const char *p;
	regmatch_t m;

	if (s->spec.column != NS_SEARCH_ANY && s->spec.column != column)
		return 0;
	switch (s->spec.mode) {
	case NS_SEARCH_CONTAINS:
		p = find(s, text);
		if (!p)
			return 0;
		*start = (size_t)(p - text);
		*len = strlen(s->spec.text);
		return 1;
	case NS_SEARCH_EXACT:
		if (!equal(s, text))
			return 0;
		*start = 0;
		*len = strlen(text);
		return 1;
	case NS_SEARCH_REGEX:
		if (regexec(&s->re, text, 1, &m, 0) || m.rm_so < 0 || m.rm_eo <= m.rm_so)
			return 0;
		*start = (size_t)m.rm_so;
		*len = (size_t)(m.rm_eo - m.rm_so);
		return 1;
	}
	return 0;
}

/* ---- a search under way ------------------------------------------------------ */

struct ns_search_job {
	struct ns_trace *trace;
	const struct ns_visible *vis;
	const struct ns_search *s;
	int backward;
	uint64_t n;		/* list positions */
	uint64_t start;		/* the position of from_row */
	uint64_t done;		/* positions tested */
	uint64_t limit;		/* test up to this many (n, or the near half) */
	pid_t helper;		/* the child testing the far half, or 0 */
	int helper_fd;		/* the pipe it answers on */
	bool split_tried, split;
	uint64_t split_after, split_left;	/* when to split: ns_search_job_split_at() */
	uint64_t split_done;	/* done when the helper started */
	uint64_t found_row;
	size_t chunk;		/* rows merged at once: few first, n often finds one near */
	bool found, wrapped;
	struct ns_text_gate *gate;	/* what formats say of the text, or NULL */
	struct ns_event_text txt;
	char *line;
	size_t line_size;
	struct ns_pos pos[NS_SEARCH_CHUNK];
};

struct ns_search_job *ns_search_begin(struct ns_trace *trace, const struct ns_visible *vis,
				      const struct ns_search *s, uint64_t from_row, int backward)
{
	struct ns_search_job *job = calloc(1, sizeof(*job));

	if (!job)
		return NULL;
	job->trace = trace;
	job->vis = vis;
	job->s = s;
	job->backward = backward;
	job->n = ns_visible_list_count(vis, ns_trace_nr_events(trace));
	job->start = ns_visible_shown_before(vis, from_row);
	if (job->start >= job->n)
		job->start = job->n ? job->n - 1 : 0;
	job->limit = job->n;
	job->helper_fd = -1;
	job->split_after = NS_SEARCH_SPLIT_AFTER;
	job->split_left = NS_SEARCH_SPLIT_LEFT;
	/* the text or its absence in the info or the line: the formats rule most events out */
	if (ns_search_needs_text(s) &&
	    (s->spec.mode == NS_SEARCH_CONTAINS || s->spec.mode == NS_SEARCH_NOT_CONTAINS))
		job->gate = ns_text_gate_new(s->spec.text, s->spec.ignore_case);
	return job;
}

void ns_search_job_split_at(struct ns_search_job *job, uint64_t after, uint64_t left)
{
	job->split_after = after;
	job->split_left = left;
}

bool ns_search_job_was_split(const struct ns_search_job *job)
{
	return job->split;
}

static void stop_helper(struct ns_search_job *job)
{
	if (job->helper > 0) {
		kill(job->helper, SIGKILL);
		while (waitpid(job->helper, NULL, 0) < 0 && errno == EINTR)
			;
		ns_trace_share_pages(job->trace, false);
	}
	if (job->helper_fd >= 0)
		close(job->helper_fd);
	job->helper = 0;
	job->helper_fd = -1;
}

void ns_search_job_free(struct ns_search_job *job)
{
	if (!job)
		return;
	stop_helper(job);
	ns_text_gate_free(job->gate);
	ns_event_text_free(&job->txt);
	free(job->line);
	free(job);
}

/* Does the event at (cpu, idx), row @row, match? 1, 0, or a negative errno. */
static int test_event(struct ns_search_job *job, int cpu, uint64_t idx, uint64_t row)
{
	const struct ns_search *s = job->s;
	struct ns_event ev;
	int ret;

	if (ns_trace_event(job->trace, cpu, idx, &ev))
		return -ENOENT;
	if (s->spec.column == NS_SEARCH_STREAM)
		return ns_search_match_stream(s, job->trace, cpu);
	if (!ns_search_needs_text(s))
		return ns_search_match(s, NULL, NULL, ev.pid, cpu,
				       ns_trace_event_name(job->trace, ev.type),
				       s->spec.column == NS_SEARCH_TASK ?
				       ns_trace_row_comm(job->trace, cpu, idx, row) : NULL);
	if (job->gate) {
		int g = s->spec.column == NS_SEARCH_INFO ?
			ns_trace_info_gate(job->trace, job->gate, cpu, idx) :
			ns_trace_line_gate(job->trace, job->gate, cpu, idx, row, &job->line,
					   &job->line_size);

		if (g != NS_GATE_MAYBE)
			return (g == NS_GATE_YES) == (s->spec.mode == NS_SEARCH_CONTAINS);
	}
	/* the whole line: report's, which has no latency flags (nor need they be printed) */
	if (s->spec.column == NS_SEARCH_ANY && s->spec.mode != NS_SEARCH_EXACT)
		ret = ns_trace_match_line(job->trace, cpu, idx, row, &job->txt, &job->line,
					  &job->line_size);
	else if (s->spec.column == NS_SEARCH_INFO)
		ret = ns_trace_format_info(job->trace, cpu, idx, &job->txt);
	else
		ret = ns_trace_match_line(job->trace, cpu, idx, row, &job->txt, NULL, NULL);
	if (ret)
		return ret;
	return ns_search_match(s, &job->txt, job->line, ev.pid, cpu, job->txt.event, NULL);
}

/*
 * The k-th position tested (k >= 1): start + k forward, start - k backward,
 * modulo the list; k == n comes back to the start itself.
 */
static uint64_t nth_pos(const struct ns_search_job *job, uint64_t k)
{
	if (job->backward)
		return (job->start + job->n - k % job->n) % job->n;
	return (job->start + k) % job->n;
}

/* Test positions up to job->limit: 1 found, 0 budget spent, -ENOENT none left, or an error. */
static int scan(struct ns_search_job *job, uint64_t budget)
{
	while (budget && job->done < job->limit) {
		uint64_t k = job->done + 1, pos = nth_pos(job, k), row, first, m;
		size_t want, got, i;

		job->chunk = job->chunk ? job->chunk * 2 : 16;
		if (job->chunk > NS_SEARCH_CHUNK)
			job->chunk = NS_SEARCH_CHUNK;
		want = job->chunk;

		/* a run of consecutive rows in the direction of the search, no wrap */
		if (!job->backward) {
			m = job->n - pos;
		} else {
			m = pos + 1;
		}
		if (m > job->limit - job->done)
			m = job->limit - job->done;
		if (want > m)
			want = (size_t)m;
		if (want > budget)
			want = (size_t)budget;
		if (!ns_visible_list_filtered(job->vis)) {
			first = job->backward ? pos + 1 - want : pos;
			got = ns_trace_rows(job->trace, first, want, job->pos);
			if (got != want)
				return -EIO;
			for (i = 0; i < got; i++) {
				size_t j = job->backward ? got - 1 - i : i;
				int ret = test_event(job, job->pos[j].cpu, job->pos[j].idx,
						     first + j);

				if (ret < 0)
					return ret;
				job->done++;
				if (ret) {
					job->found_row = first + j;
					goto found;
				}
			}
		} else {
			/* one shown row at a time: they are rarely neighbours */
			for (i = 0; i < want; i++) {
				struct ns_pos p;
				int ret;

				pos = nth_pos(job, job->done + 1);
				row = ns_visible_nth_shown_row(job->vis, pos,
							       ns_trace_nr_events(job->trace));
				if (ns_trace_rows(job->trace, row, 1, &p) != 1)
					return -EIO;
				ret = test_event(job, p.cpu, p.idx, row);
				if (ret < 0)
					return ret;
				job->done++;
				if (ret) {
					job->found_row = row;
					goto found;
				}
			}
		}
		budget -= want;
	}
	return job->done >= job->limit ? -ENOENT : 0;
found:
	job->found = true;
	job->wrapped = job->backward ? job->done > job->start : job->start + job->done >= job->n;
	return 1;
}

/* What the helper writes on its pipe. */
struct helper_msg {
	int ret;
	uint64_t done, found_row;
};

/* A long search that prints events: fork a helper for the far half of what is left. */
static void maybe_split(struct ns_search_job *job)
{
	uint64_t left = job->n - job->done, mid;
	int fds[2];
	pid_t pid;

	if (job->split_tried || job->done < job->split_after || left < job->split_left ||
	    left < 2 || !ns_search_needs_text(job->s) || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	job->split_tried = true;
	/* the fast page reader reads what libtracecmd's one handle would not share */
	if (!ns_trace_can_make_readers(job->trace))
		return;
	if (pipe(fds))
		return;
	mid = job->done + left / 2;
	fflush(NULL);
	pid = ns_trace_fork();	/* refused while a filter pass runs: no split then */
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		struct helper_msg msg = { 0 };
		ssize_t w;
		int ret;

		close(fds[0]);
		ns_trace_forked(job->trace);
		job->done = mid;
		job->limit = job->n;
		while ((ret = scan(job, UINT64_MAX)) == 0)
			;
		msg.ret = ret;
		msg.done = job->done;
		msg.found_row = job->found_row;
		w = write(fds[1], &msg, sizeof(msg));
		_exit(w == (ssize_t)sizeof(msg) ? 0 : 1);
	}
	close(fds[1]);
	/* our reads must not copy the pages the helper shares with us */
	ns_trace_share_pages(job->trace, true);
	job->split = true;
	job->split_done = job->done;
	job->helper = pid;
	job->helper_fd = fds[0];
	job->limit = mid;
}

/* The near half has no match: the helper's answer (0 while it has none yet). */
static int helper_answer(struct ns_search_job *job)
{
	struct pollfd pfd = { .fd = job->helper_fd, .events = POLLIN };
	struct helper_msg msg;
	ssize_t r;

	/* a little wait, so that a caller looping on steps does not spin */
	if (poll(&pfd, 1, 10) == 0)
		return 0;
	r = read(job->helper_fd, &msg, sizeof(msg));
	stop_helper(job);
	if (r != (ssize_t)sizeof(msg))
		return -EIO;
	job->limit = job->n;
	job->done = msg.done;
	if (msg.ret != 1)
		return msg.ret;
	job->found_row = msg.found_row;
	job->found = true;
	job->wrapped = job->backward ? job->done > job->start : job->start + job->done >= job->n;
	return 1;
}

int ns_search_step(struct ns_search_job *job, uint64_t budget)
{
	int ret;

	if (job->found)
		return 1;
	if (!job->n)
		return -ENOENT;
	/* in slices, so that a search with a large budget is split too */
	while (budget) {
		uint64_t slice = budget < 4096 ? budget : 4096;

		maybe_split(job);
		ret = scan(job, slice);
		if (ret == 1)
			stop_helper(job);	/* the near half's match wins */
		if (ret == -ENOENT && job->helper)
			return helper_answer(job);
		if (ret)
			return ret;
		budget -= slice;
	}
	return 0;
}

uint64_t ns_search_found(const struct ns_search_job *job, int *wrapped)
{
	if (wrapped)
		*wrapped = job->wrapped;
	return job->found_row;
}

void ns_search_progress(const struct ns_search_job *job, uint64_t *done, uint64_t *total)
{
	*total = job->n;
	*done = job->done;
	/* split: the helper goes about as fast as we do, over its n - limit positions */
	if (job->helper) {
		uint64_t ahead = job->done - job->split_done;

		*done += ahead < job->n - job->limit ? ahead : job->n - job->limit;
	}
}

int ns_search_run(struct ns_trace *trace, const struct ns_visible *vis, const struct ns_search *s,
		  uint64_t from_row, int backward, uint64_t *row, int *wrapped)
{
	struct ns_search_job *job = ns_search_begin(trace, vis, s, from_row, backward);
	int ret;

	if (!job)
		return -ENOMEM;
	while ((ret = ns_search_step(job, UINT64_MAX)) == 0)
		;
	if (ret == 1) {
		*row = ns_search_found(job, wrapped);
		ret = 0;
	}
	ns_search_job_free(job);
	return ret;
}
