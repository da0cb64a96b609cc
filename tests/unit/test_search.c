// SPDX-License-Identifier: GPL-2.0-only
/*
 * Search against grep and awk over `trace-cmd report`'s output: for every
 * column (any, task, pid, cpu, event, info) and mode (contains, exact, does
 * not contain, regular expression), the rows that match are exactly the
 * lines the oracle prints; a search from the end of the list forward (n
 * after n) visits them in order, and comes back to the first after the
 * last; backward (N) in the reverse order. (Visits stop after VISITS rows
 * of a dense result: each search starts again from its row.)
 * The oracle for "any" is grep -F / grep -v -F / grep -E on the lines; for a
 * column, awk cuts the line into report's columns. Also: the parser of what
 * is typed after /, a search through filters, a search that finds nothing,
 * and that dropping a search half way leaves the view as it was.
 */
#include <errno.h>
#include <stdint.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/model_search.h"
#include "nurseshark/model_tasks.h"
#include "traces.h"

/*
 * report's line: "%16s-%-5d [%03d] TIME: EVENT: %*sINFO" with the event
 * padded to 20 columns. Prints the 0-based index of each event line that
 * matches ENVIRON's COL, MODE and TEXT.
 */
static const char awk_prog[] =
	"BEGIN { col = ENVIRON[\"COL\"]; mode = ENVIRON[\"MODE\"]; text = ENVIRON[\"TEXT\"]; n = 0 }\n"
	"!match($0, /-[0-9]+ +\\[[0-9]+\\] +[0-9.]+: /) { next }\n"
	"{\n"
	"  comm = substr($0, 1, RSTART - 1); sub(/^ +/, \"\", comm)\n"
	"  head = substr($0, RSTART + 1, RLENGTH - 1); rest = substr($0, RSTART + RLENGTH)\n"
	"  pid = head; sub(/ .*/, \"\", pid)\n"
	"  cpu = head; sub(/^[^[]*\\[/, \"\", cpu); sub(/\\].*/, \"\", cpu); cpu = cpu + 0\n"
	"  i = index(rest, \": \"); event = substr(rest, 1, i - 1)\n"
	"  pad = 20 - length(event); if (pad < 0) pad = 0\n"
	"  info = substr(rest, i + 2 + pad)\n"
	"  if (col == \"task\") v = comm; else if (col == \"pid\") v = pid;\n"
	"  else if (col == \"cpu\") v = cpu \"\"; else if (col == \"event\") v = event;\n"
	"  else if (col == \"info\") v = info; else v = $0\n"
	"  if (mode == \"contains\") hit = index(v, text) > 0\n"
	"  else if (mode == \"not-contains\") hit = index(v, text) == 0\n"
	"  else if (mode == \"regex\") hit = v ~ text\n"
	"  else if (col == \"any\") hit = comm == text || pid == text || cpu \"\" == text ||"
	" event == text || info == text\n"
	"  else hit = v == text\n"
	"  if (hit) print n\n"
	"  n++\n"
	"}\n";

#define VISITS	300

struct rows {
	uint64_t *r;
	size_t n, cap;
};

static void push(struct rows *r, uint64_t v)
{
	if (r->n == r->cap) {
		r->cap = r->cap * 2 + 1024;
		r->r = realloc(r->r, r->cap * sizeof(*r->r));
	}
	r->r[r->n++] = v;
}

static int oracle(const char *report, int column, int mode, const char *text, struct rows *out)
{
	char cmd[8192], line[64];
	FILE *p;

	out->n = 0;
	setenv("COL", ns_search_column_name(column), 1);
	setenv("MODE", ns_search_mode_name(mode), 1);
	setenv("TEXT", text, 1);
	if (column == NS_SEARCH_ANY && mode != NS_SEARCH_EXACT)
		/* grep over the event lines, numbered as rows */
		snprintf(cmd, sizeof(cmd), "grep -v -e '^cpus=' -e '^CPU:' '%s' | grep -n %s -e \"$TEXT\" "
			 "| cut -d: -f1", report, mode == NS_SEARCH_CONTAINS ? "-F" :
			 mode == NS_SEARCH_NOT_CONTAINS ? "-v -F" : "-E");
	else
		snprintf(cmd, sizeof(cmd), "awk -f /dev/stdin '%s' <<'EOF'\n%sEOF\n", report,
			 awk_prog);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		push(out, strtoull(line, NULL, 10) -
		     (column == NS_SEARCH_ANY && mode != NS_SEARCH_EXACT ? 1 : 0));
	pclose(p);
	return 0;
}

/* Every row that matches, tested one by one. */
static int all_matches(struct ns_trace *trace, const struct ns_search *s, struct rows *out)
{
	struct ns_event_text txt = { 0 };
	struct ns_pos pos[1024];
	uint64_t row = 0, n = ns_trace_nr_events(trace);
	char *line = NULL;
	size_t size = 0, got, i;
	int ret = 0;

	out->n = 0;
	while (row < n && !ret) {
		got = ns_trace_rows(trace, row, 1024, pos);
		for (i = 0; i < got && !ret; i++, row++) {
			struct ns_event evb = test_ev(trace, pos[i].cpu, pos[i].idx);
			const struct ns_event *ev = &evb;

			if (ns_search_needs_text(s)) {
				ret = ns_trace_format_line(trace, pos[i].cpu, pos[i].idx, row, &txt,
							   &line, &size);
				if (!ret && ns_search_match(s, &txt, line, 0, 0, NULL, NULL))
					push(out, row);
			} else if (ns_search_match(s, NULL, NULL, ev->pid, pos[i].cpu,
						   ns_trace_event_name(trace, ev->type),
						   ns_trace_row_comm(trace, pos[i].cpu, pos[i].idx,
								     row))) {
				push(out, row);
			}
		}
		if (!got)
			ret = -EIO;
	}
	free(line);
	ns_event_text_free(&txt);
	return ret;
}

/*
 * Searches split into two processes after this many rows when at least
 * split_left are left (0, 0: the library's defaults, 16384 and 2^20);
 * splits counts the searches that did.
 */
static uint64_t split_after, split_left, splits;

/* ns_search_run(), with the split above. */
static int run(struct ns_trace *trace, const struct ns_visible *vis, const struct ns_search *s,
	       uint64_t from_row, int backward, uint64_t *row, int *wrapped)
{
	struct ns_search_job *job = ns_search_begin(trace, vis, s, from_row, backward);
	int ret;

	if (!job)
		return -ENOMEM;
	if (split_after || split_left)
		ns_search_job_split_at(job, split_after, split_left);
	while ((ret = ns_search_step(job, UINT64_MAX)) == 0)
		;
	if (ret == 1) {
		*row = ns_search_found(job, wrapped);
		ret = 0;
	}
	splits += ns_search_job_was_split(job);
	ns_search_job_free(job);
	return ret;
}

/* The rows a search visits from @from, n after n, until it comes back (or VISITS). */
static int visit(struct ns_trace *trace, const struct ns_visible *vis, const struct ns_search *s,
		 uint64_t from, int backward, struct rows *out)
{
	uint64_t row = from, first = UINT64_MAX;
	int wrapped, ret;

	out->n = 0;
	for (;;) {
		ret = run(trace, vis, s, row, backward, &row, &wrapped);
		if (ret == -ENOENT)
			return 0;
		if (ret)
			return ret;
		if (row == first)
			return 0;
		if (first == UINT64_MAX)
			first = row;
		push(out, row);
		if (out->n == VISITS)
			return 0;
	}
}

/* @a is @b (the first VISITS of it, or its last ones reversed, when @a stopped there). */
static int same(const struct rows *a, const struct rows *b, int reversed)
{
	size_t i;

	if (a->n != b->n && !(a->n == VISITS && b->n > VISITS))
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->r[i] != b->r[reversed ? b->n - 1 - i : i])
			return 0;
	return 1;
}

struct probe {
	int column, mode;
	const char *text;
	int backward_too;
};

/*
 * Texts that a whole-line search (/TEXT) finds in one column of row @row as
 * the list shows it, or across two, each written here from the row's
 * columns as report lays them out, for a search to be checked against grep
 * over report's lines: so that a line built for matching that drops a
 * column, pads it otherwise or prints its time otherwise loses matches and
 * fails. The latency flags are shown in the list but are not in report's
 * line: grep finds them only where another column has the same text, and
 * the search must agree.
 */
struct column_texts {
	char time[40];		/* "10171.572790" */
	char cpu_time[112];	/* "]  6417.568841: sched_switch:" (the blank of a us clock) */
	char task[96];		/* "        work2.sh-15974 [000]": comm, pid, cpu as padded */
	char latency[16];	/* "d..2." */
	char event[128];		/* "sched_wakeup:         migr": the name padded, into the info */
	char info[40];		/* a piece from the middle of the info */
};

#define COLUMN_PROBES(c) \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).time, 0 }, \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).cpu_time, 0 }, \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).task, 0 }, \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).latency, 0 }, \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).event, 0 }, \
	{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, (c).info, 0 }

static void column_texts(struct ns_trace *trace, uint64_t row, struct column_texts *c)
{
	struct ns_event_text txt = { 0 };
	struct ns_pos pos;
	size_t len, el, k;
	char info[40];

	memset(c, 0, sizeof(*c));
	if (ns_trace_rows(trace, row, 1, &pos) != 1 ||
	    ns_trace_format(trace, pos.cpu, pos.idx, &txt)) {
		FAIL("row %llu: cannot read it", (unsigned long long)row);
		return;
	}
	/* no newline in a text grep is to find */
	len = strcspn(txt.info, "\n");
	snprintf(info, sizeof(info), "%.*s", (int)(len < 4 ? len : 4), txt.info);
	snprintf(c->time, sizeof(c->time), "%s", txt.time);
	/* the seconds in at least 5 columns: "[000]  6417.664326" */
	snprintf(c->cpu_time, sizeof(c->cpu_time), "] %12s: %s:", txt.time, txt.event);
	snprintf(c->task, sizeof(c->task), "%16s-%-5d [%03d]", txt.comm, txt.pid, txt.cpu);
	for (k = 0; txt.latency[k] == ' '; k++)
		;
	snprintf(c->latency, sizeof(c->latency), "%s", txt.latency + k);
	el = strlen(txt.event);
	snprintf(c->event, sizeof(c->event), "%s: %*s%s", txt.event, el < 20 ? (int)(20 - el) : 0,
		 "", info);
	if (len > 6)
		snprintf(c->info, sizeof(c->info), "%.*s", (int)(len / 2 < 24 ? len / 2 : 24),
			 txt.info + len / 4);
	ns_event_text_free(&txt);
}

static void check_trace(const char *path)
{
	char err[256], report[] = "/tmp/ns-search-XXXXXX", cmd[8192], busy_pid[16], busy_comm[64];
	struct column_texts cols[2];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	struct rows want = { 0 }, got = { 0 }, back = { 0 };
	struct ns_task_info *tasks = NULL;
	uint64_t n;
	int fd, i, nt, best = -1;

	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	n = ns_trace_nr_events(trace);
	fd = mkstemp(report);
	if (fd < 0)
		return;
	close(fd);
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s' > '%s' 2>/dev/null", path, report);
	if (system(cmd)) {
		SKIP("%s: trace-cmd report failed", base_name(path));
		goto out;
	}
	nt = ns_task_list_build(trace, &tasks);
	for (i = 0; i < nt; i++)
		if (tasks[i].pid && (best < 0 || tasks[i].nr_events > tasks[best].nr_events))
			best = i;
	snprintf(busy_pid, sizeof(busy_pid), "%d", best >= 0 ? tasks[best].pid : 1);
	snprintf(busy_comm, sizeof(busy_comm), "%s", best >= 0 ? tasks[best].comm : "sh");
	column_texts(trace, n / 2, &cols[0]);
	column_texts(trace, n - 1, &cols[1]);
	{
		const struct probe probes[] = {
			{ NS_SEARCH_ANY, NS_SEARCH_CONTAINS, "prio=120", 1 },
			{ NS_SEARCH_ANY, NS_SEARCH_EXACT, busy_pid, 0 },
			{ NS_SEARCH_ANY, NS_SEARCH_NOT_CONTAINS, "prio", 0 },
			{ NS_SEARCH_ANY, NS_SEARCH_REGEX, "pid=1[0-9]+ .*target_cpu=00[1-3]", 1 },
			{ NS_SEARCH_TASK, NS_SEARCH_CONTAINS, "sh", 0 },
			{ NS_SEARCH_TASK, NS_SEARCH_EXACT, busy_comm, 1 },
			{ NS_SEARCH_TASK, NS_SEARCH_NOT_CONTAINS, "a", 0 },
			{ NS_SEARCH_TASK, NS_SEARCH_REGEX, "^k.*[0-9]$", 0 },
			{ NS_SEARCH_PID, NS_SEARCH_EXACT, busy_pid, 1 },
			{ NS_SEARCH_PID, NS_SEARCH_CONTAINS, "12", 0 },
			{ NS_SEARCH_PID, NS_SEARCH_NOT_CONTAINS, "1", 0 },
			{ NS_SEARCH_PID, NS_SEARCH_REGEX, "^1[0-9][0-9]$", 0 },
			{ NS_SEARCH_CPU, NS_SEARCH_EXACT, "1", 1 },
			{ NS_SEARCH_CPU, NS_SEARCH_CONTAINS, "0", 0 },
			{ NS_SEARCH_CPU, NS_SEARCH_NOT_CONTAINS, "0", 0 },
			{ NS_SEARCH_CPU, NS_SEARCH_REGEX, "^[13]$", 0 },
			{ NS_SEARCH_EVENT, NS_SEARCH_EXACT, "sched_switch", 1 },
			{ NS_SEARCH_EVENT, NS_SEARCH_CONTAINS, "irq", 0 },
			{ NS_SEARCH_EVENT, NS_SEARCH_NOT_CONTAINS, "sched", 0 },
			{ NS_SEARCH_EVENT, NS_SEARCH_REGEX, "^sched_(switch|wakeup)$", 0 },
			{ NS_SEARCH_INFO, NS_SEARCH_CONTAINS, "==>", 0 },
			{ NS_SEARCH_INFO, NS_SEARCH_EXACT, "vec=9 [action=RCU]", 0 },
			{ NS_SEARCH_INFO, NS_SEARCH_NOT_CONTAINS, "=", 0 },
			{ NS_SEARCH_INFO, NS_SEARCH_REGEX, "\\[120\\] (R|S)", 1 },
			/* texts of one column of a row, or across two: see column_texts() */
			COLUMN_PROBES(cols[0]),
			COLUMN_PROBES(cols[1]),
		};
		size_t k;

		for (k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
			const struct probe *p = &probes[k];
			struct ns_search_spec spec = { .column = p->column, .mode = p->mode };
			struct ns_search *s;
			char what[300];

			if (!p->text[0])
				continue;	/* a column the row has empty */

			snprintf(spec.text, sizeof(spec.text), "%s", p->text);
			ns_search_format(&spec, what, sizeof(what));
			s = ns_search_compile(&spec, err, sizeof(err));
			if (!s || oracle(report, p->column, p->mode, p->text, &want)) {
				FAIL("%s: /%s: %s", base_name(path), what, s ? "no oracle" : err);
				ns_search_free(s);
				continue;
			}
			if (all_matches(trace, s, &got))
				FAIL("%s: /%s: cannot read the events", base_name(path), what);
			else
				CHECK(same(&got, &want, 0),
				      "%s: /%s matches the %zu rows %s finds (matched %zu)",
				      base_name(path), what, want.n,
				      p->column == NS_SEARCH_ANY && p->mode != NS_SEARCH_EXACT ?
				      "grep" : "awk", got.n);
			/* from the last row, n visits the matches from the top, in order */
			if (visit(trace, NULL, s, n - 1, 0, &got))
				FAIL("%s: /%s: the search failed", base_name(path), what);
			else
				CHECK(same(&got, &want, 0), "%s: n after /%s visits them in order%s",
				      base_name(path), what, got.n < VISITS ?
				      " and wraps to the first" : "");
			if (p->backward_too && !visit(trace, NULL, s, 0, 1, &back))
				CHECK(same(&back, &want, 1),
				      "%s: ?%s visits them in reverse order", base_name(path), what);
			ns_search_free(s);
		}
	}
out:
	free(tasks);
	free(want.r);
	free(got.r);
	free(back.r);
	unlink(report);
	ns_trace_close(trace);
}

static void parse(void)
{
	static const struct {
		const char *in;
		int column, mode;
		const char *text;
	} cases[] = {
		{ "gzip", NS_SEARCH_ANY, NS_SEARCH_CONTAINS, "gzip" },
		{ "task=gzip", NS_SEARCH_TASK, NS_SEARCH_EXACT, "gzip" },
		{ "pid:12", NS_SEARCH_PID, NS_SEARCH_CONTAINS, "12" },
		{ "info!prev_state=S", NS_SEARCH_INFO, NS_SEARCH_NOT_CONTAINS, "prev_state=S" },
		{ "event~^sched", NS_SEARCH_EVENT, NS_SEARCH_REGEX, "^sched" },
		{ "~a|b", NS_SEARCH_ANY, NS_SEARCH_REGEX, "a|b" },
		{ "any:pid=18", NS_SEARCH_ANY, NS_SEARCH_CONTAINS, "pid=18" },
		{ "prev_pid=0", NS_SEARCH_ANY, NS_SEARCH_CONTAINS, "prev_pid=0" },
		{ "cpus=1", NS_SEARCH_ANY, NS_SEARCH_CONTAINS, "cpus=1" },
	};
	struct ns_search_spec spec;
	char err[128], back[300];
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&spec, 0, sizeof(spec));
		if (ns_search_parse(cases[i].in, &spec, err, sizeof(err)) ||
		    spec.column != cases[i].column || spec.mode != cases[i].mode ||
		    strcmp(spec.text, cases[i].text)) {
			printf("  %s: column %d mode %d text %s\n", cases[i].in, spec.column, spec.mode,
			       spec.text);
			ok = 0;
		}
		ns_search_format(&spec, back, sizeof(back));
		memset(&spec, 0, sizeof(spec));
		ns_search_parse(back, &spec, err, sizeof(err));
		if (spec.column != cases[i].column || spec.mode != cases[i].mode ||
		    strcmp(spec.text, cases[i].text)) {
			printf("  %s: %s does not read back\n", cases[i].in, back);
			ok = 0;
		}
	}
	CHECK(ok, "the syntax after /: COLUMN OP TEXT, or TEXT, and back");
	CHECK(ns_search_parse("task=", &spec, err, sizeof(err)) == -EINVAL,
	      "an empty text is refused");
	spec.column = NS_SEARCH_ANY;
	spec.mode = NS_SEARCH_REGEX;
	snprintf(spec.text, sizeof(spec.text), "(unclosed");
	CHECK(!ns_search_compile(&spec, err, sizeof(err)) && strstr(err, "(unclosed"),
	      "a bad regular expression is refused with regerror's message: %s", err);
}

/* Through filters, not found, and a search dropped half way. */
static void view_cases(const char *path)
{
	char err[256];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_filter_entry e = { .kind = NS_FILTER_CPU, .mode = NS_FILTER_SHOW,
				     .where = NS_FILTER_LIST, .value = 0 };
	struct ns_search_spec spec = { .column = NS_SEARCH_CPU, .mode = NS_SEARCH_EXACT };
	struct ns_search *s;
	struct ns_search_job *job;
	struct ns_visible *vis;
	struct ns_view view, before;
	uint64_t row;
	int wrapped, ret;

	if (!trace || ns_trace_nr_cpus(trace) < 2) {
		SKIP("%s: search through filters needs 2 CPUs", base_name(path));
		if (trace)
			ns_trace_close(trace);
		ns_filter_set_free(fs);
		return;
	}
	ns_filter_set_add(fs, &e);
	ns_visible_build(trace, fs, &vis, err, sizeof(err));
	snprintf(spec.text, sizeof(spec.text), "1");
	s = ns_search_compile(&spec, err, sizeof(err));
	CHECK(ns_search_run(trace, vis, s, 0, 0, &row, &wrapped) == -ENOENT,
	      "%s: a search finds nothing the filters hide", base_name(path));
	snprintf(spec.text, sizeof(spec.text), "0");
	ns_search_free(s);
	s = ns_search_compile(&spec, err, sizeof(err));
	ret = ns_search_run(trace, vis, s, 0, 0, &row, &wrapped);
	CHECK(!ret && ns_visible_row(vis, row) && row > 0 && !wrapped,
	      "%s: a search through filters lands on the next shown row", base_name(path));

	/* a long search dropped half way: the view is as it was */
	ns_view_init(&view, trace, 80, 20);
	ns_view_select(&view, 5);
	before = view;
	snprintf(spec.text, sizeof(spec.text), "no such text anywhere");
	spec.column = NS_SEARCH_INFO;
	spec.mode = NS_SEARCH_CONTAINS;
	ns_search_free(s);
	s = ns_search_compile(&spec, err, sizeof(err));
	job = ns_search_begin(trace, NULL, s, view.selected, 0);
	ret = ns_search_step(job, 1000);
	ns_search_job_free(job);
	CHECK(ret == 0 && !memcmp(&view, &before, sizeof(view)),
	      "%s: a search dropped half way leaves the view as it was", base_name(path));
	CHECK(ns_search_run(trace, NULL, s, 5, 1, &row, &wrapped) == -ENOENT,
	      "%s: a search for what no event has ends, not found", base_name(path));
	ns_view_free(&view);
	ns_search_free(s);
	ns_visible_free(vis);
	ns_filter_set_free(fs);
	ns_trace_close(trace);
}

/*
 * Searches that split in two processes (model/search.c), with the split
 * made early: a text found only far from the start is the helper's to
 * find, one found near is ours, one found nowhere needs both halves to say
 * so; forward and backward. The expected rows come from all_matches().
 */
static void split_cases(const char *path)
{
	struct ns_trace *trace;
	struct ns_event_text txt = { 0 };
	struct rows want = { 0 };
	char err[256];
	uint64_t n, at[3], from[2];
	int a, dir;

	trace = ns_trace_open(path, err, sizeof(err));
	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	n = ns_trace_nr_events(trace);
	at[0] = n * 3 / 4;
	at[1] = n - 2;
	at[2] = n / 10;
	from[0] = 0;
	from[1] = n / 2;
	split_after = 64;
	split_left = 256;
	splits = 0;
	for (a = 0; a < 3; a++) {
		struct ns_search_spec spec = { .column = NS_SEARCH_INFO, .mode = NS_SEARCH_CONTAINS };
		struct ns_pos pos;
		struct ns_search *s;

		if (ns_trace_rows(trace, at[a], 1, &pos) != 1 ||
		    ns_trace_format(trace, pos.cpu, pos.idx, &txt) || !txt.info || !*txt.info)
			continue;
		snprintf(spec.text, sizeof(spec.text), "%s", txt.info);
		s = ns_search_compile(&spec, err, sizeof(err));
		if (!s || all_matches(trace, s, &want) || !want.n) {
			FAIL("%s: split: no reference for row %llu", base_name(path),
			     (unsigned long long)at[a]);
			ns_search_free(s);
			continue;
		}
		for (dir = 0; dir < 2; dir++) {
			uint64_t start = from[dir], expect = UINT64_MAX, row = 0;
			int wrapped, ret;
			size_t i;

			/* forward: the first match after start, else the first; backward likewise */
			for (i = 0; i < want.n; i++) {
				if (!dir && want.r[i] > start && expect == UINT64_MAX)
					expect = want.r[i];
				if (dir && want.r[i] < start)
					expect = want.r[i];
			}
			if (expect == UINT64_MAX)
				expect = dir ? want.r[want.n - 1] : want.r[0];
			ret = run(trace, NULL, s, start, dir, &row, &wrapped);
			CHECK(ret == 0 && row == expect,
			      "%s: split search %s from %llu for row %llu's info finds row %llu (%d, %llu)",
			      base_name(path), dir ? "backward" : "forward", (unsigned long long)start,
			      (unsigned long long)at[a], (unsigned long long)expect, ret,
			      (unsigned long long)row);
		}
		ns_search_free(s);
	}
	{
		struct ns_search_spec spec = { .column = NS_SEARCH_INFO, .mode = NS_SEARCH_CONTAINS };
		struct ns_search *s;
		uint64_t row;
		int wrapped;

		snprintf(spec.text, sizeof(spec.text), "no such text, not anywhere");
		s = ns_search_compile(&spec, err, sizeof(err));
		CHECK(s && run(trace, NULL, s, 7, 0, &row, &wrapped) == -ENOENT,
		      "%s: a split search that finds nothing says so", base_name(path));
		ns_search_free(s);
	}
	CHECK(splits > 0, "%s: searches of small traces split when told to (%llu did)",
	      base_name(path), (unsigned long long)splits);
	split_after = split_left = 0;
	ns_event_text_free(&txt);
	free(want.r);
	ns_trace_close(trace);
}

/*
 * The stream column on a file with instances: the rows it finds are those
 * report prints with the "extra: " prefix (or without it, for top), report's
 * event lines counted without its header and lost-events lines.
 */
static void stream_cases(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	static const struct { int mode; const char *text, *grep; } probes[] = {
		{ NS_SEARCH_EXACT, "extra", "" },
		{ NS_SEARCH_REGEX, "^ex", "" },
		{ NS_SEARCH_EXACT, "top", "-v" },
		{ NS_SEARCH_NOT_CONTAINS, "extra", "-v" },
	};
	struct ns_search_spec spec = { .column = NS_SEARCH_STREAM };
	struct rows want = { 0 }, got = { 0 };
	char path[4096], cmd[8192], err[256];
	struct ns_trace *trace;
	size_t i;

	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	trace = ns_trace_open(path, err, sizeof(err));
	if (!trace) {
		FAIL("open instance.dat: %s", err);
		return;
	}
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		struct ns_search *s;
		FILE *p;
		uint64_t n, first = UINT64_MAX;

		spec.mode = probes[i].mode;
		snprintf(spec.text, sizeof(spec.text), "%s", probes[i].text);
		s = ns_search_compile(&spec, err, sizeof(err));
		snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' 2>/dev/null | grep -Ev "
			 "'^cpus=|^ *[A-Za-z0-9_.-]*:? *CPU:[0-9]+ \\[' | grep -n %s '^extra: ' | "
			 "cut -d: -f1", path, probes[i].grep);
		p = popen(cmd, "r");
		want.n = 0;
		while (p && fscanf(p, "%llu", (unsigned long long *)&n) == 1) {
			if (n == 1)
				first = 0;	/* row 0 itself comes last, when the search wraps */
			else
				push(&want, n - 1);
		}
		if (p)
			pclose(p);
		if (first == 0)
			push(&want, 0);
		if (!s || visit(trace, NULL, s, 0, 0, &got)) {
			FAIL("instance.dat: stream search %s: %s", probes[i].text, s ? "failed" : err);
		} else {
			CHECK(want.n > 100 && same(&got, &want, 0), "instance.dat: /stream%c%s finds "
			      "report's lines%s prefixed 'extra: ' (%zu found, %zu of report's)",
			      "=!~"[spec.mode == NS_SEARCH_NOT_CONTAINS ? 1 :
				    spec.mode == NS_SEARCH_REGEX ? 2 : 0], probes[i].text,
			      probes[i].grep[0] ? " not" : "", got.n, want.n);
		}
		ns_search_free(s);
	}
	free(want.r);
	free(got.r);
	ns_trace_close(trace);
}

int main(void)
{
	struct trace_list l;
	int i;

	parse();
	trace_list_load(&l, 0);
	for (i = 0; i < l.n; i++)
		view_cases(l.path[i]);
	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP("search against grep: trace-cmd is not installed");
		return check_failures ? 1 : 0;
	}
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i]);
	stream_cases();
	split_cases(l.path[0]);
	/* again, every search that prints split in two processes at once */
	split_after = 0;
	split_left = 256;
	splits = 0;
	check_trace(l.path[0]);
	CHECK(splits > 0, "%s again, searches that print split in two processes at once: %llu did",
	      base_name(l.path[0]), (unsigned long long)splits);
	split_after = split_left = 0;
	return check_failures ? 1 : 0;
}
