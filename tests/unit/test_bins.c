// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time bins against an independent computation: this test reads the trace
 * again through libtracecmd itself (not through our index), rebuilds who ran
 * on each CPU from the sched_switch records (and from the events: each is
 * recorded by the task running, so one of another task starts its run,
 * but for a stack trace, which belongs to the event before it;
 * lost events end the run under way: nobody's time until the next event),
 * sums each column exactly, and
 * compares. Columns with at most NS_BINS_EXACT_RUNS switches must match
 * exactly; wider ones within the documented bound of the summaries.
 */
#include <stdint.h>
#include <trace-cmd.h>
#include "nurseshark/model.h"
#include "nurseshark/trace_sched.h"
#include "traces.h"

struct span {
	uint64_t start;
	int pid;
};

struct cpu_truth {
	struct span *spans;
	size_t nr_spans;
	uint64_t *ts;		/* every event's timestamp */
	size_t nr_ts;
	uint64_t *drop_ts;	/* those of the events after lost events */
	size_t nr_drops;
};

struct truth {
	int nr_cpus;
	uint64_t last_ns;
	struct cpu_truth *cpus;
};

static void push_span(struct cpu_truth *c, uint64_t start, int pid)
{
	c->spans = realloc(c->spans, (c->nr_spans + 1) * sizeof(*c->spans));
	c->spans[c->nr_spans].start = start;
	c->spans[c->nr_spans++].pid = pid;
}

static int load_truth(const char *path, struct truth *tr)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct tep_handle *tep;
	struct tep_event *sw, *ks, *us;
	int cpu;

	if (!h)
		return -1;
	tep = tracecmd_get_tep(h);
	sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	ks = tep_find_event_by_name(tep, "ftrace", "kernel_stack");
	us = tep_find_event_by_name(tep, "ftrace", "user_stack");
	tr->nr_cpus = tep_get_cpus(tep);
	tr->cpus = calloc(tr->nr_cpus, sizeof(*tr->cpus));
	tr->last_ns = 0;
	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		struct cpu_truth *c = &tr->cpus[cpu];
		struct tep_record *rec;
		size_t cap = 0;
		int cur = -2, pid, type;

		for (rec = tracecmd_read_cpu_first(h, cpu); rec; rec = tracecmd_read_data(h, cpu)) {
			unsigned long long next;

			if (c->nr_ts == cap) {
				cap = cap ? cap * 2 : 4096;
				c->ts = realloc(c->ts, cap * sizeof(*c->ts));
			}
			if (rec->missed_events) {
				c->drop_ts = realloc(c->drop_ts, (c->nr_drops + 1) * sizeof(uint64_t));
				c->drop_ts[c->nr_drops++] = rec->ts;
			}
			if (rec->missed_events && c->nr_ts && cur >= 0) {
				push_span(c, c->ts[c->nr_ts - 1], -1);
				cur = -1;
			}
			pid = tep_data_pid(tep, rec);
			type = tep_data_type(tep, rec);
			/* a stack trace (-T) belongs to the event before it: no run */
			if (pid != cur && !((ks && type == ks->id) || (us && type == us->id))) {
				push_span(c, rec->ts, pid);
				cur = pid;
			}
			c->ts[c->nr_ts++] = rec->ts;
			if (rec->ts > tr->last_ns)
				tr->last_ns = rec->ts;
			if (sw && tep_data_type(tep, rec) == sw->id &&
			    !tep_get_field_val(NULL, sw, "next_pid", rec, &next, 0)) {
				push_span(c, rec->ts, (int)next);
				cur = (int)next;
			}
			tracecmd_free_record(rec);
		}
	}
	tracecmd_close(h);
	return 0;
}

/* Exact time per pid in [a, b) on one CPU; returns the time of @pid and the max. */
static void column_truth(const struct truth *tr, int cpu, uint64_t a, uint64_t b,
			 int pid, uint64_t *pid_ns, uint64_t *max_ns, int *max_pid, size_t *nr_in)
{
	const struct cpu_truth *c = &tr->cpus[cpu];
	static uint64_t *acc;
	static int *pids;
	static size_t cap;
	size_t i, n = 0, k;

	if (cap < c->nr_spans + 1) {
		cap = c->nr_spans + 1;
		acc = realloc(acc, cap * sizeof(*acc));
		pids = realloc(pids, cap * sizeof(*pids));
	}
	*nr_in = 0;
	for (i = 0; i < c->nr_spans; i++) {
		uint64_t s = c->spans[i].start;
		uint64_t e = i + 1 < c->nr_spans ? c->spans[i + 1].start : tr->last_ns;
		uint64_t lo = s > a ? s : a, hi = e < b ? e : b;

		if (s >= a && s < b)
			(*nr_in)++;
		if (hi <= lo || c->spans[i].pid < 0)
			continue;
		for (k = 0; k < n && pids[k] != c->spans[i].pid; k++)
			;
		if (k == n) {
			pids[n] = c->spans[i].pid;
			acc[n++] = 0;
		}
		acc[k] += hi - lo;
	}
	*pid_ns = 0;
	*max_ns = 0;
	*max_pid = -1;
	for (k = 0; k < n; k++) {
		if (pids[k] == pid)
			*pid_ns = acc[k];
		if (acc[k] > *max_ns || (acc[k] == *max_ns && pids[k] < *max_pid)) {
			*max_ns = acc[k];
			*max_pid = pids[k];
		}
	}
}

static bool any_event(const struct cpu_truth *c, uint64_t a, uint64_t b)
{
	size_t lo = 0, hi = c->nr_ts;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->ts[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nr_ts && c->ts[lo] < b;
}

/*
 * The drops the status line counts in a window (ns_trace_cpu_drops_between())
 * against libtracecmd's events after lost events, per column of the window
 * and for the whole of it. Adds the drops seen to *@seen.
 */
static void check_drops_between(struct ns_trace *t, const struct truth *tr, const char *name,
				const char *what, uint64_t start, uint64_t end, int cols,
				uint64_t *seen)
{
	size_t bad = 0;
	int cpu, col;

	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		const struct cpu_truth *c = &tr->cpus[cpu];

		for (col = -1; col < cols; col++) {
			uint64_t a = col < 0 ? start : ns_window_col_ns(start, end, cols, col);
			uint64_t b = col < 0 ? end : ns_window_col_ns(start, end, cols, col + 1);
			uint64_t want = 0, got;
			size_t k;

			for (k = 0; k < c->nr_drops; k++)
				want += c->drop_ts[k] >= a && c->drop_ts[k] < b;
			got = ns_trace_cpu_drops_between(t, cpu, a, b);
			if (got != want && !bad++)
				printf("  cpu %d [%llu,%llu): %llu drops, libtracecmd %llu\n", cpu,
				       (unsigned long long)a, (unsigned long long)b,
				       (unsigned long long)got, (unsigned long long)want);
			if (col < 0)
				*seen += want;
		}
	}
	CHECK(bad == 0, "drops between two times, %s: %s", what, name);
}

/* Compare one window; @exact: every column with few switches must match exactly. */
static void check_window(struct ns_bins *bins, const struct truth *tr, const char *name,
			 const char *what, uint64_t start, uint64_t end, int cols)
{
	struct ns_bin *out = calloc(cols, sizeof(*out));
	size_t exact_cols = 0, approx_cols = 0, bad = 0;
	int cpu, col;

	for (cpu = 0; cpu < tr->nr_cpus; cpu++) {
		ns_bins_cpu(bins, cpu, start, end, cols, out);
		for (col = 0; col < cols; col++) {
			uint64_t a = ns_window_col_ns(start, end, cols, col);
			uint64_t b = ns_window_col_ns(start, end, cols, col + 1);
			uint64_t pid_ns, max_ns;
			int max_pid;
			size_t nr_in;
			bool ev, drop;
			size_t k;

			/* a column under 1 ns is 1 ns wide (as ns_bins_cpu() makes it) */
			if (b <= a)
				b = a + 1;
			ev = any_event(&tr->cpus[cpu], a, b);
			drop = false;
			for (k = 0; k < tr->cpus[cpu].nr_drops; k++)
				drop |= tr->cpus[cpu].drop_ts[k] >= a && tr->cpus[cpu].drop_ts[k] < b;

			column_truth(tr, cpu, a, b, out[col].pid, &pid_ns, &max_ns, &max_pid, &nr_in);
			if (ev != !!(out[col].flags & NS_BIN_EVENTS) ||
			    drop != !!(out[col].flags & NS_BIN_DROP) ||
			    (out[col].pid == 0) != !!(out[col].flags & NS_BIN_IDLE) ||
			    (out[col].pid > 0) != !!(out[col].flags & NS_BIN_RUNNING)) {
				if (!bad++)
					printf("  cpu %d col %d: flags %x, events %d pid %d\n", cpu, col,
					       out[col].flags, ev, out[col].pid);
				continue;
			}
			if (max_pid < 0) {
				if (out[col].pid != -1 && !bad++)
					printf("  cpu %d col %d: pid %d where nothing ran\n", cpu, col,
					       out[col].pid);
				continue;
			}
			if (nr_in <= NS_BINS_EXACT_RUNS) {
				exact_cols++;
				if (out[col].pid != max_pid && !bad++)
					printf("  cpu %d col %d [%llu,%llu): pid %d, truth %d\n", cpu, col,
					       (unsigned long long)a, (unsigned long long)b,
					       out[col].pid, max_pid);
			} else {
				approx_cols++;
				if (pid_ns + (b - a) / (NS_BINS_SUMMARY_K + 1) < max_ns && !bad++)
					printf("  cpu %d col %d: pid %d ran %llu ns, %d ran %llu\n", cpu,
					       col, out[col].pid, (unsigned long long)pid_ns, max_pid,
					       (unsigned long long)max_ns);
			}
		}
	}
	CHECK(bad == 0, "bins %s (%zu exact, %zu summarised columns): %s", what, exact_cols,
	      approx_cols, name);
	free(out);
}

static uint64_t drops_seen;

static void check_trace(const char *path)
{
	const char *name = base_name(path);
	struct ns_trace *t;
	struct ns_bins *bins;
	struct truth tr = { 0 };
	uint64_t first, last, w, nr_runs = 0, before;
	char err[256];
	int cpu, i;

	t = ns_trace_open(path, err, sizeof(err));
	if (!t || load_truth(path, &tr)) {
		FAIL("open %s: %s", name, t ? "libtracecmd" : err);
		return;
	}
	bins = ns_bins_open(t);
	first = ns_trace_first_ns(t);
	last = ns_trace_last_ns(t);
	w = last + 1 - first;
	check_window(bins, &tr, name, "whole trace, 200 columns", first, last + 1, 200);
	check_drops_between(t, &tr, name, "whole trace, 200 columns", first, last + 1, 200,
			    &drops_seen);
	for (cpu = 0; cpu < tr.nr_cpus; cpu++) {
		/* around each of the first drops: the index's bounds meet them there */
		for (i = 0; i < (int)tr.cpus[cpu].nr_drops && i < 20; i++) {
			uint64_t d = tr.cpus[cpu].drop_ts[i];

			check_drops_between(t, &tr, name, "around a drop", d - 3000, d + 3000, 40,
					    &drops_seen);
			check_window(bins, &tr, name, "around a drop", d - 3000, d + 3000, 40);
		}
	}
	check_window(bins, &tr, name, "whole trace, 13 columns", first, last + 1, 13);
	for (i = 1; i <= 5; i++) {
		uint64_t s = first + w / 6 * i;

		check_window(bins, &tr, name, "1 ms window", s, s + 1000000, 160);
		check_window(bins, &tr, name, "20 us window", s, s + 20000, 80);
		/* narrower than its columns: each column searched for alone */
		check_window(bins, &tr, name, "100 ns over 200 columns", s, s + 100, 200);
	}
	check_window(bins, &tr, name, "window past the end", last - 1000, last + 5000, 50);
	check_window(bins, &tr, name, "window before the start", first - 5000, first + 1000, 50);

	/* a zoomed-out redraw does not visit every switch */
	for (cpu = 0; cpu < tr.nr_cpus; cpu++)
		nr_runs += tr.cpus[cpu].nr_spans;
	if (ns_trace_nr_events(t) > 1000000) {
		struct ns_bin out[200];
		uint64_t visited, per_col_bound;
		int levels = 0;
		uint64_t r;

		/* per column: edge runs, then at most 2 (FANOUT - 1) blocks of K per level */
		for (r = nr_runs; r >= 32; r /= 32)
			levels++;
		per_col_bound = 2 + 2 * 31 + (uint64_t)levels * 2 * 31 * NS_BINS_SUMMARY_K;
		before = ns_bins_visited(bins);
		for (cpu = 0; cpu < tr.nr_cpus; cpu++)
			ns_bins_cpu(bins, cpu, first, last + 1, 200, out);
		visited = ns_bins_visited(bins) - before;
		CHECK(visited <= 200 * (uint64_t)tr.nr_cpus * per_col_bound &&
		      visited < ns_trace_nr_events(t) / 100,
		      "zoomed-out redraw adds %llu summaries for %llu events, %llu switches: %s",
		      (unsigned long long)visited, (unsigned long long)ns_trace_nr_events(t),
		      (unsigned long long)nr_runs, name);
	}
	for (cpu = 0; cpu < tr.nr_cpus; cpu++) {
		free(tr.cpus[cpu].spans);
		free(tr.cpus[cpu].ts);
		free(tr.cpus[cpu].drop_ts);
	}
	free(tr.cpus);
	ns_bins_close(bins);
	ns_trace_close(t);
}

int main(void)
{
	struct trace_list l;
	const char *shared = check_shared();
	char big[8192];
	int i;

	trace_list_load(&l, 1);
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i]);
	if (shared) {
		snprintf(big, sizeof(big), "%s/traces/big.dat", shared);
		if (access(big, R_OK) == 0)
			check_trace(big);
	}
	CHECK(drops_seen > 0, "the traces hold events after lost events to count (%llu)",
	      (unsigned long long)drops_seen);
	return check_failures ? 1 : 0;
}
