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
	free(line);
	free(buf);
	free(want);
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
	return check_failures ? 1 : 0;
}
