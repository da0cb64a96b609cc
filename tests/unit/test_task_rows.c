// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task rows and the task list against an independent computation from the
 * text of `trace-cmd report -N -t` (no plugins, full timestamps): a task
 * runs on a CPU from a sched_switch whose next_pid it is to the CPU's next
 * sched_switch (the last run to the trace's last event), and before a
 * CPU's first sched_switch its prev_pid runs from the CPU's first event.
 * Checked: the spans of the busiest tasks, idle and a rare task; every
 * column of a task row over the whole trace and over a zoomed window (the
 * CPU it ran on most, whether it ran, whether it had events); the task
 * list's event counts and CPU times.
 */
#include <errno.h>
#include <regex.h>
#include <stdint.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/model_tasks.h"
#include "traces.h"

#define MAX_CPUS	64
#define MAX_PID		(1 << 22)

struct sw {
	uint64_t ts;
	int prev, next;
};

struct ev {
	uint64_t ts;
	int pid, cpu;
};

struct oracle {
	struct sw *sw[MAX_CPUS];
	size_t nr_sw[MAX_CPUS], cap_sw[MAX_CPUS];
	uint64_t first_ts[MAX_CPUS];
	int first_pid[MAX_CPUS];
	int seen[MAX_CPUS];
	struct ev *ev;
	size_t nr_ev, cap_ev;
	uint64_t last_ts;
	int nr_cpus;
};

static int parse_report(const char *path, struct oracle *o)
{
	char cmd[4200], line[65536];
	regex_t head, prev, next;
	regmatch_t m[6];
	FILE *p;

	memset(o, 0, sizeof(*o));
	snprintf(cmd, sizeof(cmd), "trace-cmd report -N -t -i '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	regcomp(&head, "-([0-9]+) +\\[([0-9]+)\\] +([0-9]+)\\.([0-9]+): ([^: ]+):", REG_EXTENDED);
	regcomp(&prev, "prev_pid=(-?[0-9]+)", REG_EXTENDED);
	regcomp(&next, "next_pid=(-?[0-9]+)", REG_EXTENDED);
	while (fgets(line, sizeof(line), p)) {
		uint64_t ts;
		int pid, cpu;
		char frac[16];

		if (regexec(&head, line, 6, m, 0))
			continue;
		pid = atoi(line + m[1].rm_so);
		cpu = atoi(line + m[2].rm_so);
		if (cpu < 0 || cpu >= MAX_CPUS)
			continue;
		/* seconds.fraction, the fraction padded to 9 digits */
		snprintf(frac, sizeof(frac), "%.*s000000000", (int)(m[4].rm_eo - m[4].rm_so),
			 line + m[4].rm_so);
		frac[9] = '\0';
		ts = strtoull(line + m[3].rm_so, NULL, 10) * 1000000000ull + strtoull(frac, NULL, 10);
		if (cpu >= o->nr_cpus)
			o->nr_cpus = cpu + 1;
		if (!o->seen[cpu]) {
			o->seen[cpu] = 1;
			o->first_ts[cpu] = ts;
			o->first_pid[cpu] = pid;
		}
		if (ts > o->last_ts)
			o->last_ts = ts;
		if (o->nr_ev == o->cap_ev) {
			o->cap_ev = o->cap_ev * 2 + 4096;
			o->ev = realloc(o->ev, o->cap_ev * sizeof(*o->ev));
		}
		o->ev[o->nr_ev++] = (struct ev){ ts, pid, cpu };
		if ((size_t)(m[5].rm_eo - m[5].rm_so) == strlen("sched_switch") &&
		    !strncmp(line + m[5].rm_so, "sched_switch", 12)) {
			regmatch_t a[2], b[2];

			if (regexec(&prev, line, 2, a, 0) || regexec(&next, line, 2, b, 0))
				continue;
			if (o->nr_sw[cpu] == o->cap_sw[cpu]) {
				o->cap_sw[cpu] = o->cap_sw[cpu] * 2 + 256;
				o->sw[cpu] = realloc(o->sw[cpu], o->cap_sw[cpu] * sizeof(struct sw));
			}
			o->sw[cpu][o->nr_sw[cpu]++] = (struct sw){ ts, atoi(line + a[1].rm_so),
								   atoi(line + b[1].rm_so) };
		}
	}
	regfree(&head);
	regfree(&prev);
	regfree(&next);
	return pclose(p) == 0 && o->nr_ev ? 0 : -1;
}

static void oracle_free(struct oracle *o)
{
	int c;

	for (c = 0; c < MAX_CPUS; c++)
		free(o->sw[c]);
	free(o->ev);
}

/* The spans of @pid by CPU then start, merged where one follows another. */
static size_t spans_of(const struct oracle *o, int pid, struct ns_task_span **out)
{
	size_t n = 0, cap = 0, k;
	int c;

	*out = NULL;
	for (c = 0; c < o->nr_cpus; c++) {
		struct { uint64_t a, b; } run[1];

		for (k = 0; k <= o->nr_sw[c]; k++) {
			int who;

			if (!o->seen[c])
				break;
			if (!o->nr_sw[c]) {
				/* no switch at all: the first event's task, to the end */
				who = o->first_pid[c];
				run[0].a = o->first_ts[c];
				run[0].b = o->last_ts;
			} else if (k == 0) {
				who = o->sw[c][0].prev;
				run[0].a = o->first_ts[c];
				run[0].b = o->sw[c][0].ts;
			} else {
				who = o->sw[c][k - 1].next;
				run[0].a = o->sw[c][k - 1].ts;
				run[0].b = k < o->nr_sw[c] ? o->sw[c][k].ts : o->last_ts;
			}
			if (who != pid || run[0].b <= run[0].a) {
				if (!o->nr_sw[c])
					break;
				continue;
			}
			if (n && (*out)[n - 1].cpu == c && (*out)[n - 1].end_ns == run[0].a) {
				(*out)[n - 1].end_ns = run[0].b;
			} else {
				if (n == cap) {
					cap = cap * 2 + 64;
					*out = realloc(*out, cap * sizeof(**out));
				}
				(*out)[n++] = (struct ns_task_span){ run[0].a, run[0].b, c };
			}
			if (!o->nr_sw[c])
				break;
		}
	}
	return n;
}

static uint64_t overlap(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t lo = a > c ? a : c, hi = b < d ? b : d;

	return hi > lo ? hi - lo : 0;
}

/* Every column of @pid's row in a window, against the spans and events. */
static int check_bins(const struct oracle *o, const struct ns_task_row *tr, int pid,
		      const struct ns_task_span *sp, size_t nsp, uint64_t start, uint64_t end,
		      int cols, char *why, size_t why_len)
{
	struct ns_task_bin *bins = calloc(cols, sizeof(*bins));
	int col, bad = 0;

	ns_task_row_bins(tr, NULL, start, end, cols, bins);
	for (col = 0; col < cols && !bad; col++) {
		uint64_t a = ns_window_col_ns(start, end, cols, col);
		uint64_t b = ns_window_col_ns(start, end, cols, col + 1), best = 0;
		uint64_t ran[MAX_CPUS] = { 0 }, first = UINT64_MAX;
		int cpu = -1, ev_cpu = -1, c, flags = 0;
		size_t k;

		if (b <= a)
			b = a + 1;
		for (k = 0; k < nsp; k++)
			ran[sp[k].cpu] += overlap(a, b, sp[k].start_ns, sp[k].end_ns);
		for (c = 0; c < o->nr_cpus; c++) {
			if (ran[c] > best) {
				best = ran[c];
				cpu = c;
			}
		}
		if (cpu >= 0)
			flags |= NS_BIN_RUNNING;
		for (k = 0; k < o->nr_ev; k++) {
			if (o->ev[k].pid == pid && o->ev[k].ts >= a && o->ev[k].ts < b &&
			    (o->ev[k].ts < first || (o->ev[k].ts == first && o->ev[k].cpu < ev_cpu))) {
				first = o->ev[k].ts;
				ev_cpu = o->ev[k].cpu;
			}
		}
		if (ev_cpu >= 0) {
			flags |= NS_BIN_EVENTS;
			if (cpu < 0)
				cpu = ev_cpu;
		}
		if (bins[col].flags != flags || bins[col].cpu != cpu) {
			snprintf(why, why_len, "column %d: flags %d cpu %d, want flags %d cpu %d", col,
				 bins[col].flags, bins[col].cpu, flags, cpu);
			bad = 1;
		}
	}
	free(bins);
	return bad;
}

static void check_trace(const char *path)
{
	struct ns_task_info *tasks;
	struct oracle o;
	char err[256], why[256];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	int nr, i, k, pids[8], npids = 0, ok;
	uint64_t first, last;

	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	if (parse_report(path, &o)) {
		SKIP("%s: trace-cmd report -N -t did not run", base_name(path));
		ns_trace_close(trace);
		return;
	}
	first = ns_trace_first_ns(trace);
	last = ns_trace_last_ns(trace);
	CHECK(o.last_ts == last, "%s: the trace ends where report's last event is",
	      base_name(path));

	/* the task list: events and CPU time per pid */
	nr = ns_task_list_build(trace, &tasks);
	ok = nr > 0;
	for (i = 0; ok && i < nr; i++) {
		struct ns_task_span *sp;
		size_t n = spans_of(&o, tasks[i].pid, &sp), e = 0, k2;
		uint64_t ns = 0;

		for (k2 = 0; k2 < n; k2++)
			ns += sp[k2].end_ns - sp[k2].start_ns;
		for (k2 = 0; k2 < o.nr_ev; k2++)
			e += o.ev[k2].pid == tasks[i].pid;
		if (ns != tasks[i].cpu_ns || e != tasks[i].nr_events) {
			printf("  pid %d: %llu events %llu ns, want %zu %llu\n", tasks[i].pid,
			       (unsigned long long)tasks[i].nr_events,
			       (unsigned long long)tasks[i].cpu_ns, e, (unsigned long long)ns);
			ok = 0;
		}
		free(sp);
	}
	CHECK(ok, "%s: the task list's %d tasks: events and CPU time as report's sched_switch says",
	      base_name(path), nr);

	/* rows: the busiest tasks, idle, and one with a single event */
	for (k = 0; k < 4 && k < nr; k++) {
		int best = -1;

		for (i = 0; i < nr; i++) {
			int taken = 0, j;

			for (j = 0; j < npids; j++)
				taken |= pids[j] == tasks[i].pid;
			if (!taken && tasks[i].pid && (best < 0 ||
						       tasks[i].nr_events > tasks[best].nr_events))
				best = i;
		}
		if (best >= 0)
			pids[npids++] = tasks[best].pid;
	}
	pids[npids++] = 0;
	for (i = 0; i < nr; i++) {
		if (tasks[i].nr_events == 1 && tasks[i].pid) {
			pids[npids++] = tasks[i].pid;
			break;
		}
	}
	for (k = 0; k < npids; k++) {
		struct ns_task_row *tr = ns_task_row_open(trace, pids[k]);
		const struct ns_task_span *got;
		struct ns_task_span *want;
		uint64_t ngot, w = last + 1 - first;
		size_t nwant = spans_of(&o, pids[k], &want), j;

		got = ns_task_row_spans(tr, &ngot);
		ok = ngot == nwant;
		for (j = 0; ok && j < nwant; j++)
			ok = got[j].cpu == want[j].cpu && got[j].start_ns == want[j].start_ns &&
			     got[j].end_ns == want[j].end_ns;
		CHECK(ok, "%s: task %d: %llu spans, as report's sched_switch gives %zu",
		      base_name(path), pids[k], (unsigned long long)ngot, nwant);
		why[0] = '\0';
		CHECK(!check_bins(&o, tr, pids[k], want, nwant, first, last + 1, 97, why,
				  sizeof(why)),
		      "%s: task %d: every column of the whole trace %s", base_name(path), pids[k],
		      why);
		CHECK(!check_bins(&o, tr, pids[k], want, nwant, first + w / 3, first + w / 3 + w / 50,
				  61, why, sizeof(why)),
		      "%s: task %d: every column of a zoomed window %s", base_name(path), pids[k],
		      why);
		ns_task_row_close(tr);
		free(want);
	}
	free(tasks);
	oracle_free(&o);
	ns_trace_close(trace);
}

int main(void)
{
	struct trace_list l;
	int i;

	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP("task rows: trace-cmd is not installed, no oracle");
		return 0;
	}
	trace_list_load(&l, 0);
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i]);
	return check_failures ? 1 : 0;
}
