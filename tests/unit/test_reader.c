// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace layer against `trace-cmd report`: for every trace, our export
 * must be report's output byte for byte (same events, order, CPU, time,
 * task, pid, event name and info); the latency flags must be those of
 * `report -l`; and the row <-> event mappings must agree with each other.
 */
#include <stdint.h>
#include <stdlib.h>
#include <trace-cmd.h>
#include "nurseshark/trace.h"
#include "traces.h"

static void first_diff(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i, line = 1, start = 0;

	for (i = 0; i < alen && i < blen && a[i] == b[i]; i++) {
		if (a[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	printf("  first difference at line %zu:\n  ours:   %.*s\n  report: %.*s\n", line,
	       (int)strcspn(a + start, "\n"), a + start, (int)strcspn(b + start, "\n"), b + start);
}

static void check_export(struct ns_trace *t, const char *path)
{
	char *ours = NULL, *theirs;
	size_t olen = 0, tlen;
	FILE *mem = open_memstream(&ours, &olen);
	int ret, tries;

	ret = ns_trace_export(t, mem, 0, ns_trace_nr_events(t));
	fclose(mem);
	CHECK(ret == 0, "export runs: %s", base_name(path));
	/*
	 * On files with an empty TRACECLOCK option, libtracecmd reads past a
	 * buffer and report's time format flips about one run in 200: a
	 * difference gets two more runs of report before it counts.
	 */
	for (tries = 0; tries < 3; tries++) {
		theirs = slurp_cmd_len("trace-cmd report -i '%s' 2>/dev/null", path, &tlen);
		if (!theirs || (olen == tlen && !memcmp(ours, theirs, olen)))
			break;
		if (tries < 2)
			free(theirs);
	}
	if (theirs && olen == tlen && !memcmp(ours, theirs, olen)) {
		PASS("export equals trace-cmd report (%llu events): %s",
		     (unsigned long long)ns_trace_nr_events(t), base_name(path));
	} else {
		FAIL("export equals trace-cmd report: %s (%zu vs %zu bytes)", base_name(path),
		     olen, tlen);
		if (theirs)
			first_diff(ours, olen, theirs, tlen);
	}
	free(ours);
	free(theirs);
}

/* `report -l` lines: "%8.8s-%-5d %3d<flags> <time>: ..." */
static void check_latency(struct ns_trace *t, const char *path)
{
	struct ns_event_text txt = { 0 };
	size_t len, bad = 0, rows = 0;
	char *out = slurp_cmd_len("trace-cmd report -l -i '%s' 2>/dev/null", path, &len);
	char *line, *save = NULL;
	uint64_t row = 0;

	if (!out) {
		FAIL("latency flags: cannot run trace-cmd report -l");
		return;
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char flags[32];
		int pid, cpu;
		struct ns_pos pos;

		if (strlen(line) < 10 || line[8] != '-' ||
		    sscanf(line + 9, "%d %d%31s", &pid, &cpu, flags) != 3)
			continue;
		if (ns_trace_rows(t, row, 1, &pos) != 1 || ns_trace_format(t, pos.cpu, pos.idx, &txt)) {
			bad++;
			break;
		}
		if (strcmp(txt.latency, flags) || txt.pid != pid || txt.cpu != cpu) {
			if (!bad)
				printf("  row %llu: ours %d %d %s, report -l %d %d %s\n",
				       (unsigned long long)row, txt.pid, txt.cpu, txt.latency,
				       pid, cpu, flags);
			bad++;
		}
		row++;
		rows++;
	}
	CHECK(!bad && rows == ns_trace_nr_events(t),
	      "latency flags equal report -l on %zu rows: %s", rows, base_name(path));
	ns_event_text_free(&txt);
	free(out);
}

/* rows -> positions -> rows, and time -> row, on a spread of rows */
static void check_mappings(struct ns_trace *t, const char *path)
{
	uint64_t n = ns_trace_nr_events(t), row, step = n / 997 + 1, bad = 0;
	uint64_t prev_ts = 0;

	for (row = 0; row < n; row += step) {
		struct ns_pos pos;
		struct ns_event evb, e2b, e3b;
		const struct ns_event *ev = test_row_ev(t, row, &pos, &evb);

		if (!ev || ns_trace_row_of(t, pos.cpu, pos.idx) != row)
			bad++;
		else if (ev->ts_ns < prev_ts)
			bad++;
		else if (ns_trace_row_at_ns(t, ev->ts_ns) > row)
			bad++;
		else {
			uint64_t r = ns_trace_row_at_ns(t, ev->ts_ns);
			const struct ns_event *e2 = test_row_ev(t, r, NULL, &e2b);

			if (!e2 || e2->ts_ns != ev->ts_ns ||
			    (r > 0 && test_row_ev(t, r - 1, NULL, &e3b)->ts_ns >= ev->ts_ns))
				bad++;
		}
		if (ev)
			prev_ts = ev->ts_ns;
	}
	CHECK(bad == 0, "row/position/time mappings agree: %s", base_name(path));
	CHECK(ns_trace_row_event(t, n, NULL, &(struct ns_event){ 0 }) == -ENOENT, "no event past the end: %s", base_name(path));
}

/*
 * A trace with an instance buffer: report prints the instance's events too,
 * prefixed "extra:", and pads the top buffer's lines to match; every buffer
 * is a stream, so the export is report's, byte for byte, and the streams
 * are named and numbered as report numbers their CPUs.
 */
static void check_instance(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	char path[4096], err[256], label[64], *ours = NULL, *theirs;
	size_t olen = 0, tlen;
	struct ns_trace *t;
	int nr, first;
	FILE *mem;

	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("open instance.dat: %s", err);
		return;
	}
	mem = open_memstream(&ours, &olen);
	ns_trace_export(t, mem, 0, ns_trace_nr_events(t));
	fclose(mem);
	theirs = slurp_cmd_len("trace-cmd report -i '%s' 2>/dev/null", path, &tlen);
	CHECK(theirs && strstr(theirs, "\nextra: ") && olen == tlen && !memcmp(ours, theirs, tlen),
	      "instance trace: the export of both buffers is report's, byte for byte (%zu bytes)",
	      tlen);
	first = ns_trace_stream_first_cpu(t, 1, &nr);
	CHECK(ns_trace_nr_streams(t) == 2 && !strcmp(ns_trace_stream_name(t, 0), "") &&
	      !strcmp(ns_trace_stream_name(t, 1), "extra") && first == 2 && nr == 2 &&
	      ns_trace_nr_cpus(t) == 4 && ns_trace_cpu_stream(t, 3) == 1 &&
	      ns_trace_cpu_number(t, 3) == 1 && ns_trace_stream_of_name(t, "extra") == 1 &&
	      ns_trace_stream_of_name(t, "top") == 0 && ns_trace_stream_of_name(t, "x") < 0,
	      "instance trace: streams top (CPUs 0-1) and extra (slots 2-3, its CPUs 0-1)");
	ns_trace_cpu_label(t, 2, label, sizeof(label));
	CHECK(!strcmp(label, "extra CPU0"), "instance trace: slot 2 is labelled 'extra CPU0' ('%s')",
	      label);
	free(ours);
	free(theirs);
	ns_trace_close(t);
}

/*
 * The index against a plain libtracecmd pass, CPU by CPU: every event's
 * timestamp, pid and type, and the count.
 */
static void check_index(struct ns_trace *t, const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct tep_handle *tep;
	uint64_t bad = 0, n = 0;
	int cpu;

	if (!h) {
		FAIL("libtracecmd opens %s", base_name(path));
		if (h)
			tracecmd_close(h);
		return;
	}
	tep = tracecmd_get_tep(h);
	for (cpu = 0; cpu < tep_get_cpus(tep); cpu++) {
		struct tep_record *rec;
		uint64_t idx = 0;

		for (rec = tracecmd_read_cpu_first(h, cpu); rec; rec = tracecmd_read_data(h, cpu)) {
			struct ns_event ev;

			if (ns_trace_event(t, cpu, idx, &ev) || ev.ts_ns != rec->ts ||
			    ev.pid != tep_data_pid(tep, rec) || ev.type != tep_data_type(tep, rec)) {
				if (!bad)
					fprintf(stderr, "  first difference: cpu %d idx %llu\n", cpu,
						(unsigned long long)idx);
				bad++;
			}
			tracecmd_free_record(rec);
			idx++;
		}
		bad += idx != ns_trace_cpu_nr_events(t, cpu);
		n += idx;
	}
	CHECK(!bad && n == ns_trace_nr_events(t),
	      "the index holds libtracecmd's %llu events (ts, pid, type, count): %s",
	      (unsigned long long)n, base_name(path));
	tracecmd_close(h);
}

/*
 * The merged order of a trace big enough to be merged by several threads
 * (in stretches split at timestamps): read in one sweep from row 0, rows go
 * by (timestamp, CPU) and each CPU's events come one after the other; and
 * reading from any checkpoint's row (where a stretch may start) gives the
 * rows the sweep gave there.
 */
static void check_order(struct ns_trace *t, const char *path)
{
	uint64_t n = ns_trace_nr_events(t), row = 0, bad = 0, prev_ts = 0, *next;
	int ncpu = ns_trace_nr_cpus(t), prev_cpu = -1;
	struct ns_pos *pos = malloc(4096 * sizeof(*pos)), at[2], *seen;
	size_t got, i;

	next = calloc((size_t)ncpu + 1, sizeof(*next));
	seen = malloc((n / 1024 + 1) * 2 * sizeof(*seen));
	if (!pos || !next || !seen) {
		FAIL("out of memory");
		goto out;
	}
	while (row < n && (got = ns_trace_rows(t, row, 4096, pos)) > 0) {
		for (i = 0; i < got; i++, row++) {
			uint64_t ts = ns_trace_ev_ts(t, pos[i].cpu, pos[i].idx);

			if (pos[i].idx != next[pos[i].cpu]++ || ts < prev_ts ||
			    (ts == prev_ts && pos[i].cpu < prev_cpu))
				bad++;
			prev_ts = ts;
			prev_cpu = pos[i].cpu;
			if (row % 1024 == 0)
				seen[row / 1024 * 2] = pos[i];
			if (row % 1024 == 1023)
				seen[row / 1024 * 2 + 1] = pos[i];
		}
	}
	CHECK(row == n && !bad, "the merged order goes by (time, CPU), each CPU in turn (%llu rows): %s",
	      (unsigned long long)row, base_name(path));
	for (row = 1024, bad = 0; row < n; row += 1024)
		if (ns_trace_rows(t, row - 1, 2, at) < 1 ||
		    at[0].cpu != seen[(row - 1) / 1024 * 2 + 1].cpu ||
		    at[0].idx != seen[(row - 1) / 1024 * 2 + 1].idx ||
		    at[1].cpu != seen[row / 1024 * 2].cpu || at[1].idx != seen[row / 1024 * 2].idx)
			bad++;
	CHECK(!bad, "reading from each checkpoint gives the sweep's rows (%llu wrong): %s",
	      (unsigned long long)bad, base_name(path));
out:
	free(pos);
	free(next);
	free(seen);
}

/* big.dat (5.4 M events): the index against libtracecmd, and its size. */
static void check_big(void)
{
	const char *shared = check_shared();
	struct ns_trace *t;
	char path[4096], err[256];

	if (!shared)
		return;
	snprintf(path, sizeof(path), "%s/traces/big.dat", shared);
	if (access(path, R_OK)) {
		SKIP("big trace: %s not found", path);
		return;
	}
	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("open %s: %s", path, err);
		return;
	}
	check_index(t, path);
	check_order(t, path);
	CHECK(ns_trace_index_bytes(t) <= 11 * ns_trace_nr_events(t),
	      "index within 11 bytes per event (%.1f): %s",
	      (double)ns_trace_index_bytes(t) / ns_trace_nr_events(t), base_name(path));
	ns_trace_close(t);
}

int main(void)
{
	struct trace_list l;
	char err[256];
	int i;

	trace_list_load(&l, 1);
	for (i = 0; i < l.n; i++) {
		struct ns_trace *t = ns_trace_open(l.path[i], err, sizeof(err));

		if (!t) {
			FAIL("open %s: %s", base_name(l.path[i]), err);
			continue;
		}
		check_export(t, l.path[i]);
		check_mappings(t, l.path[i]);
		check_index(t, l.path[i]);
		if (i < 2)
			check_latency(t, l.path[i]);
		if (ns_trace_nr_events(t))
			CHECK(ns_trace_index_bytes(t) <= 24 * ns_trace_nr_events(t) + 65536,
			      "index within 24 bytes per event (%.1f): %s",
			      (double)ns_trace_index_bytes(t) / ns_trace_nr_events(t),
			      base_name(l.path[i]));
		/* 8 bytes a slot, and the pages, runs and order beside them */
		if (ns_trace_nr_events(t) >= 1000000)
			CHECK(ns_trace_index_bytes(t) <= 11 * ns_trace_nr_events(t),
			      "index within 11 bytes per event (%.1f): %s",
			      (double)ns_trace_index_bytes(t) / ns_trace_nr_events(t),
			      base_name(l.path[i]));
		ns_trace_close(t);
	}
	check_instance();
	check_big();
	return check_failures ? 1 : 0;
}
