// SPDX-License-Identifier: GPL-2.0-only
/*
 * The line a search of the whole line (/TEXT) reads, built without
 * printf (src/trace/format.c): for every event of every trace (the bundled
 * ones, the shared and the public ones), the line is report's line for that
 * event, character for character, and the time column of format.c's own
 * printer is what libtraceevent's tep_print_event() prints, both for the
 * events' times and for made-up times around every rounding and carry
 * (over a second: below it libtraceevent prints the time itself). The own
 * printer must have been used, not only its fallback.
 *
 * And the gate (src/trace/gate.c) that spares a search most of its reading
 * and printing: every event's info matches the pattern the gate reads in its
 * format (the first events of each type), and for every event and a set of
 * texts (fixed ones, in both cases, and pieces of the event's own line
 * across its head and info, as they are and altered), a "no" from the gate
 * is a line (or an info) without the text, a "yes" a line with it. The gate
 * must have said "no" to many.
 */
#include <errno.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../src/trace/trace-int.h"
#include "nurseshark/model.h"
#include "traces.h"

/* Both printers on @rec at time @ts: 1 same, 0 not (said once), and *own_used. */
static int same_time(struct ns_trace *trace, const struct tep_record *rec, int slot, uint64_t ts,
		     const char *name, int *said, uint64_t *own_used)
{
	struct tep_record r = *rec;
	char own[64], lib[64];

	r.ts = ts;
	pthread_mutex_lock(&trace->tep_lock);
	ns_trace_time_text(trace, &r, slot, true, own, sizeof(own));
	if (trace->own_time > 0 && ts >= 1000000000ull)
		(*own_used)++;
	ns_trace_time_text(trace, &r, slot, false, lib, sizeof(lib));
	pthread_mutex_unlock(&trace->tep_lock);
	if (!strcmp(own, lib))
		return 1;
	if (!(*said)++)
		printf("  %s: time %llu: own \"%s\", libtraceevent \"%s\"\n", name,
		       (unsigned long long)ts, own, lib);
	return 0;
}

/* Texts whose verdicts are checked on every event, in both cases. */
static const char *const gate_texts[] = {
	"nurseshark-no-such-text", "0x", ": 0x0000", "count: 0x", "fd: 0x", "ret=", "=0 ",
	"prev_comm=", "target_cpu=0", "ffffffff", "vec=", "1 [0", "] ", ": sys_", "_enter_",
	"0x7f", "-1", "120", " R ", "sched_switch: ", "irq=", "x1", "00000000", ":  ",
	"d: 0", "expires=", "0000 ", "0 ", "=1", "NURSESHARK", "FD: 0X", "sample.dat: ",
	"ce.dat: extra:", "dat:  ",
};
#define NR_GATES	(NS_ARRAY_SIZE(gate_texts) * 2)

struct gate_check {
	struct ns_text_gate *g[NR_GATES];
	const char *text[NR_GATES];
	bool icase[NR_GATES];
	char *line;
	size_t size;
	uint64_t no, yes, wrong, own, fits, unfit;
	uint32_t *per_type;		/* fits checked, by type */
	int said;
};

static void gate_setup(struct gate_check *gc)
{
	memset(gc, 0, sizeof(*gc));
	for (size_t i = 0; i < NR_GATES; i++) {
		gc->text[i] = gate_texts[i / 2];
		gc->icase[i] = i % 2;
		gc->g[i] = ns_text_gate_new(gc->text[i], gc->icase[i]);
	}
	gc->per_type = calloc(1 << 16, sizeof(*gc->per_type));
}

static void gate_teardown(struct gate_check *gc)
{
	for (size_t i = 0; i < NR_GATES; i++)
		ns_text_gate_free(gc->g[i]);
	free(gc->per_type);
	free(gc->line);
}

static bool holds(const char *s, const char *text, bool icase)
{
	return (icase ? strcasestr(s, text) : strstr(s, text)) != NULL;
}

/* One text's verdicts on the event against its @line and @info. */
static void gate_one(struct gate_check *gc, struct ns_trace *trace, struct ns_text_gate *g,
		     const char *text, bool icase, const struct ns_pos *pos, uint64_t row,
		     const char *line, const char *info, const char *name)
{
	int v = ns_trace_line_gate(trace, g, pos->cpu, pos->idx, row, &gc->line, &gc->size);
	int vi = ns_trace_info_gate(trace, g, pos->cpu, pos->idx);
	bool in_line = holds(line, text, icase), in_info = holds(info, text, icase);
	bool bad = (v == NS_GATE_NO && in_line) || (v == NS_GATE_YES && !in_line) ||
		   (vi == NS_GATE_NO && in_info) || vi == NS_GATE_YES;

	gc->no += v == NS_GATE_NO;
	gc->yes += v == NS_GATE_YES;
	if (bad) {
		gc->wrong++;
		if (!gc->said++)
			printf("  %s: row %llu: \"%s\"%s: line %d (holds it: %d), info %d "
			       "(holds it: %d)\n    %s\n", name, (unsigned long long)row, text,
			       icase ? " ignoring case" : "", v, in_line, vi, in_info, line);
	}
}

/* The gate on event @pos at @row, whose line and info are @line and @info. */
static void gate_event(struct gate_check *gc, struct ns_trace *trace, const struct ns_pos *pos,
		       uint64_t row, const char *line, const char *info, const char *name)
{
	size_t ll = strlen(line), li = strlen(info), hl = ll - li;
	int type = ns_trace_ev_type(trace, pos->cpu, pos->idx);
	struct tep_event *event;

	for (size_t i = 0; i < NR_GATES; i++)
		if (gc->g[i])
			gate_one(gc, trace, gc->g[i], gc->text[i], gc->icase[i], pos, row, line,
				 info, name);
	/* the event's info against its format's pattern, for the first of each type */
	if (trace->multi)
		goto pieces;
	pthread_mutex_lock(&trace->tep_lock);
	event = type >= 0 && type < (1 << 16) && gc->per_type[type] < 300 ?
		tep_find_event(trace->tep, type) : NULL;
	if (event) {
		int f = ns_text_gate_fits(event, info);

		gc->per_type[type]++;
		if (f == 1) {
			gc->fits++;
		} else if (f == 0) {
			gc->unfit++;
			if (!gc->said++)
				printf("  %s: row %llu: %s's info does not match its format's "
				       "pattern:\n    %s\n    %s\n", name, (unsigned long long)row,
				       event->name, event->print_fmt.format, info);
		}
	}
	pthread_mutex_unlock(&trace->tep_lock);
pieces:
	/* pieces of this line across the head and the info, and altered */
	if (row % 61 || hl < 6)
		return;
	for (size_t k = 0; k < 8; k++) {
		static const int from[] = { -2, -5, 0, -1, -20, 3, -3, 1 };
		static const int len[] = { 5, 6, 6, 2, 24, 9, 40, 1 };
		size_t a = (size_t)((long)hl + from[k]), n = (size_t)len[k];
		char text[64];

		if ((long)hl + from[k] < 0 || a + n > ll)
			continue;
		memcpy(text, line + a, n);
		text[n] = '\0';
		for (int alter = 0; alter < 3; alter++) {
			struct ns_text_gate *g;

			if (alter == 1)
				text[n - 1] = text[n - 1] == 'Q' ? 'q' : 'Q';
			if (alter == 2)
				text[0] = text[0] == '0' ? '9' : '0';
			for (int ic = 0; ic < 2; ic++) {
				g = ns_text_gate_new(text, ic);
				if (g)
					gate_one(gc, trace, g, text, ic, pos, row, line, info, name);
				ns_text_gate_free(g);
			}
		}
	}
}

/* report's event lines, without its header and lost-events lines */
static char **report_lines(const char *path, size_t *nr, char **bufp)
{
	size_t len = 0, cap = 0, n = 0;
	char *out = slurp_cmd_len("trace-cmd report -i '%s' 2>/dev/null", path, &len), *p, *nl;
	char **lines = NULL;
	regex_t drop;

	*nr = 0;
	*bufp = out;
	if (!out)
		return NULL;
	regcomp(&drop, "^ *[A-Za-z0-9_.-]*:? *CPU:[0-9]+ \\[", REG_EXTENDED | REG_NOSUB);
	for (p = out; p < out + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(out + len - p));
		if (!nl)
			break;
		*nl = '\0';
		if (!strncmp(p, "cpus=", 5) || !regexec(&drop, p, 0, NULL, 0))
			continue;
		if (n == cap) {
			cap = cap * 2 + 4096;
			lines = realloc(lines, cap * sizeof(*lines));
		}
		lines[n++] = p;
	}
	regfree(&drop);
	*nr = n;
	return lines;
}

static uint64_t gate_no, gate_fits;

static void check_trace(const char *path)
{
	const char *name = base_name(path);
	char err[256], *line = NULL;
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	struct ns_event_text txt = { 0 };
	struct ns_pos pos[1024];
	uint64_t row = 0, n, own_used = 0, times = 0, bad_times = 0, bad_lines = 0;
	char **want = NULL, *buf = NULL;
	size_t size = 0, nr_want = 0, got, i, cur = 0, at, plen;
	const char *p, *nl;
	int said_time = 0, said_line = 0, usecs = 1;
	struct gate_check gc;

	gate_setup(&gc);
	if (!trace) {
		FAIL("%s: open: %s", name, err);
		return;
	}
	n = ns_trace_nr_events(trace);
	want = report_lines(path, &nr_want, &buf);
	while (row < n) {
		got = ns_trace_rows(trace, row, NS_ARRAY_SIZE(pos), pos);
		if (!got)
			break;
		for (i = 0; i < got; i++, row++) {
			struct tep_record *rec = ns_trace_read(trace, pos[i].cpu, pos[i].idx);

			if (!rec) {
				FAIL("%s: row %llu: cannot read it", name, (unsigned long long)row);
				goto out;
			}
			usecs &= ns_trace_cpu_in_usecs(trace, pos[i].cpu);
			times++;
			bad_times += !same_time(trace, rec, pos[i].cpu, rec->ts, name, &said_time,
						&own_used);
			ns_trace_read_done(trace, rec);
			if (ns_trace_match_line(trace, pos[i].cpu, pos[i].idx, row, &txt, &line,
						&size)) {
				bad_lines++;
				continue;
			}
			gate_event(&gc, trace, &pos[i], row, line, txt.info ? txt.info : "", name);
			/* an info with newlines (a stack trace) is on several of report's lines */
			at = cur;
			for (p = line; at < nr_want; p = nl + 1, at++) {
				nl = strchr(p, '\n');
				plen = nl ? (size_t)(nl - p) : strlen(p);
				if (strncmp(p, want[at], plen) || want[at][plen] || !nl)
					break;
			}
			if (at < nr_want && !strcmp(p, want[at])) {
				cur = at + 1;
				continue;
			}
			if (!said_line++)
				printf("  %s: row %llu:\n    ours:   %s\n    report: %s\n", name,
				       (unsigned long long)row, p, at < nr_want ? want[at] : "(no line)");
			bad_lines++;
			cur = at + 1;
		}
	}
	CHECK(row == n && cur == nr_want && !bad_lines,
	      "%s: the line a search reads is report's, for each of the %llu events "
	      "(%llu differ; report's %zu lines, %zu of them read)", name, (unsigned long long)n,
	      (unsigned long long)bad_lines, nr_want, cur);
	CHECK(!bad_times, "%s: the time column's own printer prints what tep_print_event() "
	      "does for each event (%llu of %llu differ)", name, (unsigned long long)bad_times,
	      (unsigned long long)times);
	CHECK(!gc.wrong && !gc.unfit,
	      "%s: the search's gate: no wrong verdict on any line (%llu wrong; %llu no, %llu yes), "
	      "each info checked matches its format's pattern (%llu do, %llu do not)", name,
	      (unsigned long long)gc.wrong, (unsigned long long)gc.no, (unsigned long long)gc.yes,
	      (unsigned long long)gc.fits, (unsigned long long)gc.unfit);
	gate_no += gc.no;
	gate_fits += gc.fits;
	if (!n)
		SKIP("%s: no events, no times", name);
	else if (usecs)
		CHECK(trace->own_time > 0 && own_used > 0,
		      "%s: the own printer printed the times (%llu of them)", name,
		      (unsigned long long)own_used);
	else
		SKIP("%s: a clock not in microseconds: libtraceevent prints its times", name);

	/*
	 * Made-up times through the record of the first event: every carry
	 * and rounding of seconds and microseconds, below and above a second,
	 * 5 and more digits of seconds, and spread at random.
	 */
	if (n && usecs) {
		static const uint64_t secs[] = { 0, 1, 2, 9, 10, 99, 999, 9999, 10000, 99999, 100000,
						 999999, 1000000, 4294967295ull, 18446744073ull };
		static const uint64_t ns[] = { 0, 1, 499, 500, 999, 1000, 1499, 1500, 999499,
					       999500, 999999499, 999999500, 999999999 };
		struct tep_record *rec = NULL;
		uint64_t bad = 0, tried = 0, x = 88172645463325252ull;
		size_t a, b;
		int said = 0;

		if (ns_trace_rows(trace, 0, 1, pos) == 1)
			rec = ns_trace_read(trace, pos[0].cpu, pos[0].idx);
		for (a = 0; rec && a < NS_ARRAY_SIZE(secs); a++)
			for (b = 0; b < NS_ARRAY_SIZE(ns); b++) {
				uint64_t ts = secs[a] * 1000000000ull + ns[b];

				if (secs[a] == 18446744073ull && ns[b] > 709551615ull)
					continue;	/* past 2^64 */
				tried++;
				bad += !same_time(trace, rec, pos[0].cpu, ts, name, &said, &own_used);
			}
		for (a = 0; rec && a < 20000; a++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			tried++;
			bad += !same_time(trace, rec, pos[0].cpu, x >> (a % 40), name, &said,
					  &own_used);
		}
		if (rec)
			ns_trace_read_done(trace, rec);
		CHECK(rec && tried > 20000 && !bad,
		      "%s: and for %llu made-up times (%llu differ)", name,
		      (unsigned long long)tried, (unsigned long long)bad);
	}
out:
	gate_teardown(&gc);
	free(line);
	free(buf);
	free(want);
	ns_event_text_free(&txt);
	ns_trace_close(trace);
}

/*
 * The gate on several files read as one (each line after its file's name):
 * sample.dat, instance.dat (an instance's prefix) and lost-events.dat.
 */
static void check_files(const char *top)
{
	char paths[3][4096], err[256], *line = NULL;
	const char *pp[3] = { paths[0], paths[1], paths[2] };
	struct ns_event_text txt = { 0 };
	struct ns_trace *trace;
	struct gate_check gc;
	struct ns_pos pos[1024];
	uint64_t row = 0, n, bad = 0;
	size_t size = 0, got, i;

	snprintf(paths[0], sizeof(paths[0]), "%s/contrib/sample.dat", top);
	snprintf(paths[1], sizeof(paths[1]), "%s/tests/data/instance.dat", top);
	snprintf(paths[2], sizeof(paths[2]), "%s/tests/data/lost-events.dat", top);
	trace = ns_trace_open_files_async(pp, NULL, 3, err, sizeof(err));
	if (!trace || ns_trace_wait(trace, err, sizeof(err))) {
		FAIL("three files as one: %s", err);
		ns_trace_close(trace);
		return;
	}
	gate_setup(&gc);
	n = ns_trace_nr_events(trace);
	while (row < n && (got = ns_trace_rows(trace, row, NS_ARRAY_SIZE(pos), pos)) > 0)
		for (i = 0; i < got; i++, row++) {
			if (ns_trace_match_line(trace, pos[i].cpu, pos[i].idx, row, &txt, &line,
						&size)) {
				bad++;
				continue;
			}
			gate_event(&gc, trace, &pos[i], row, line, txt.info ? txt.info : "",
				   "three files");
		}
	CHECK(row == n && !bad && !gc.wrong && gc.no > 10000,
	      "three files as one: the gate's verdicts on the %llu lines (after the file's "
	      "name) are right (%llu wrong, %llu no, %llu yes; %llu unread)",
	      (unsigned long long)n, (unsigned long long)gc.wrong, (unsigned long long)gc.no,
	      (unsigned long long)gc.yes, (unsigned long long)bad);
	gate_teardown(&gc);
	free(line);
	ns_event_text_free(&txt);
	ns_trace_close(trace);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	struct trace_list l;
	char path[4096];
	int i;

	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP("the line against report's: trace-cmd is not installed");
		return 0;
	}
	trace_list_load(&l, 1);
	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	trace_list_add(&l, path);
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i]);
	check_files(top);
	CHECK(gate_no > 100000 && gate_fits > 1000,
	      "the gate said no to many lines (%llu) and checked many infos (%llu)",
	      (unsigned long long)gate_no, (unsigned long long)gate_fits);
	return check_failures ? 1 : 0;
}
