// SPDX-License-Identifier: GPL-2.0-only
/*
 * Task rows and the task list against an independent computation from the
 * text of `trace-cmd report -N -t` (no plugins, full timestamps): a task
 * runs on a CPU from a sched_switch whose next_pid it is to the CPU's next
 * run (the last run to the trace's last event); an event of a task other
 * than the one running starts a run of that task (every event is recorded
 * by the task running: its switch-in was not recorded), but for a stack
 * trace, which belongs to the event before it; a "CPU:N [EVENTS
 * DROPPED]" line ends the CPU's run at its event before (nobody's time).
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
#include "nurseshark/model_sched.h"
#include "nurseshark/model_tasks.h"
#include "traces.h"

#define MAX_CPUS	64
#define MAX_PID		(1 << 22)

struct run {
	uint64_t ts;
	int pid;
};

enum { K_OTHER, K_SWITCH, K_WAKEUP, K_WAKING };

struct ev {
	uint64_t ts;
	int pid, cpu;
	int kind;		/* K_* */
	int a, b;		/* SWITCH: prev_pid, next_pid; wakeups: the woken pid */
	char st;		/* SWITCH: the row state prev_state leaves prev in */
};

/* Events lost on a CPU: from its event before ("CPU:N [EVENTS DROPPED]") to its event after. */
struct gap {
	uint64_t lo, hi;
	int cpu;
};

struct oracle {
	struct gap *gap;
	size_t nr_gap, cap_gap;
	struct run *run[MAX_CPUS];
	size_t nr_run[MAX_CPUS], cap_run[MAX_CPUS];
	uint64_t prev_ts[MAX_CPUS];	/* the CPU's last event so far */
	int cur[MAX_CPUS];		/* who runs by the events so far, -2 none yet */
	int seen[MAX_CPUS], dropped[MAX_CPUS];
	struct ev *ev;
	size_t nr_ev, cap_ev;
	uint64_t last_ts;
	int nr_cpus;
};

static void push_run(struct oracle *o, int cpu, uint64_t ts, int pid)
{
	if (o->nr_run[cpu] == o->cap_run[cpu]) {
		o->cap_run[cpu] = o->cap_run[cpu] * 2 + 256;
		o->run[cpu] = realloc(o->run[cpu], o->cap_run[cpu] * sizeof(struct run));
	}
	o->run[cpu][o->nr_run[cpu]++] = (struct run){ ts, pid };
	o->cur[cpu] = pid;
}

static int parse_report(const char *path, struct oracle *o)
{
	char cmd[4200], line[65536];
	regex_t head, next, sw, wk;
	regmatch_t m[6];
	FILE *p;

	memset(o, 0, sizeof(*o));
	snprintf(cmd, sizeof(cmd), "trace-cmd report -N -t -i '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	regcomp(&head, "-([0-9]+) +\\[([0-9]+)\\] +([0-9]+)\\.([0-9]+): ([^: ]+):", REG_EXTENDED);
	regcomp(&next, "next_pid=(-?[0-9]+)", REG_EXTENDED);
	regcomp(&sw, "prev_pid=(-?[0-9]+) .*prev_state=([^ ]*) ==> .*next_pid=(-?[0-9]+)",
		REG_EXTENDED);
	regcomp(&wk, " pid=([0-9]+)", REG_EXTENDED);
	while (fgets(line, sizeof(line), p)) {
		uint64_t ts;
		int pid, cpu;
		char frac[16];

		if (!strncmp(line, "CPU:", 4) && strstr(line, "EVENTS DROPPED]")) {
			cpu = atoi(line + 4);
			if (cpu >= 0 && cpu < MAX_CPUS)
				o->dropped[cpu] = 1;
			continue;
		}
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
			o->cur[cpu] = -2;
		}
		if (o->dropped[cpu] && o->cur[cpu] >= 0 && o->nr_run[cpu])
			push_run(o, cpu, o->prev_ts[cpu], -1);
		if (o->dropped[cpu]) {
			if (o->nr_gap == o->cap_gap) {
				o->cap_gap = o->cap_gap * 2 + 64;
				o->gap = realloc(o->gap, o->cap_gap * sizeof(*o->gap));
			}
			/* before the CPU's first event, from the start */
			o->gap[o->nr_gap++] = (struct gap){ o->seen[cpu] && o->nr_run[cpu] ?
							    o->prev_ts[cpu] : 0, ts, cpu };
		}
		o->dropped[cpu] = 0;
		/* a stack trace (-T) belongs to the event before it: no run */
		if (pid != o->cur[cpu] && (!o->nr_run[cpu] ||
					   (strncmp(line + m[5].rm_so, "kernel_stack:", 13) &&
					    strncmp(line + m[5].rm_so, "user_stack:", 11))))
			push_run(o, cpu, ts, pid);
		o->prev_ts[cpu] = ts;
		if (ts > o->last_ts)
			o->last_ts = ts;
		if (o->nr_ev == o->cap_ev) {
			o->cap_ev = o->cap_ev * 2 + 4096;
			o->ev = realloc(o->ev, o->cap_ev * sizeof(*o->ev));
		}
		o->ev[o->nr_ev++] = (struct ev){ ts, pid, cpu, K_OTHER, -1, -1, 0 };
		if (!strncmp(line + m[5].rm_so, "sched_switch", 12)) {
			regmatch_t c[4];

			if (!regexec(&sw, line, 4, c, 0)) {
				struct ev *e = &o->ev[o->nr_ev - 1];
				char ps = line[c[2].rm_so];

				e->kind = K_SWITCH;
				e->a = atoi(line + c[1].rm_so);
				e->b = atoi(line + c[3].rm_so);
				/* as report prints prev_state: R, R+, S, D, I, T, t, X, Z, P... */
				e->st = ps == 'R' || c[2].rm_eo == c[2].rm_so ? NS_TRS_PREEMPTED :
					ps == 'S' ? NS_TRS_SLEEPING : ps == 'D' ? NS_TRS_BLOCKED :
					ps == 'I' ? NS_TRS_IDLE : ps == 'X' || ps == 'Z' ?
					NS_TRS_DEAD : NS_TRS_STOPPED;
			}
		} else if (!strncmp(line + m[5].rm_so, "sched_wakeup", 12) ||
			   !strncmp(line + m[5].rm_so, "sched_waking", 12)) {
			regmatch_t c[2];

			if (!regexec(&wk, line + m[5].rm_eo, 2, c, 0)) {
				struct ev *e = &o->ev[o->nr_ev - 1];

				e->kind = line[m[5].rm_so + 10] == 'u' ? K_WAKEUP : K_WAKING;
				e->a = atoi(line + m[5].rm_eo + c[1].rm_so);
			}
		}
		if ((size_t)(m[5].rm_eo - m[5].rm_so) == strlen("sched_switch") &&
		    !strncmp(line + m[5].rm_so, "sched_switch", 12)) {
			regmatch_t b[2];

			if (!regexec(&next, line, 2, b, 0))
				push_run(o, cpu, ts, atoi(line + b[1].rm_so));
		}
	}
	regfree(&head);
	regfree(&next);
	regfree(&sw);
	regfree(&wk);
	return pclose(p) == 0 && o->nr_ev ? 0 : -1;
}

static void oracle_free(struct oracle *o)
{
	int c;

	for (c = 0; c < MAX_CPUS; c++)
		free(o->run[c]);
	free(o->ev);
	free(o->gap);
}

/* The spans of @pid by CPU then start, merged where one follows another. */
static size_t spans_of(const struct oracle *o, int pid, struct ns_task_span **out)
{
	size_t n = 0, cap = 0, k;
	int c;

	*out = NULL;
	for (c = 0; c < o->nr_cpus; c++) {
		for (k = 0; k < o->nr_run[c]; k++) {
			uint64_t a = o->run[c][k].ts;
			uint64_t b = k + 1 < o->nr_run[c] ? o->run[c][k + 1].ts : o->last_ts;

			if (o->run[c][k].pid != pid || b <= a)
				continue;
			if (n && (*out)[n - 1].cpu == c && (*out)[n - 1].end_ns == a) {
				(*out)[n - 1].end_ns = b;
			} else {
				if (n == cap) {
					cap = cap * 2 + 64;
					*out = realloc(*out, cap * sizeof(**out));
				}
				(*out)[n++] = (struct ns_task_span){ a, b, c };
			}
		}
	}
	return n;
}

/* A state of one task from start (to the next one's start, the last to the end). */
struct state {
	uint64_t start;
	int st;			/* enum ns_task_row_state */
	int cpu;		/* RUNNING: the CPU */
};

static void push_state_on(struct state **v, size_t *n, size_t *cap, uint64_t ts, int st, int cpu)
{
	if (*n && (*v)[*n - 1].start == ts) {
		(*v)[*n - 1].st = st;
		(*v)[*n - 1].cpu = cpu;
		return;
	}
	if (*n == *cap) {
		*cap = *cap * 2 + 64;
		*v = realloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = (struct state){ ts, st, cpu };
}

static void push_state(struct state **v, size_t *n, size_t *cap, uint64_t ts, int st)
{
	push_state_on(v, n, cap, ts, st, -1);
}

/*
 * @pid's states from report's lines, on their own: a switch-in runs it,
 * a switch-out leaves it in its prev_state, a wakeup of a task that is
 * not running or runnable makes it runnable (WAKEUP) until it runs, and
 * the sched_waking before that wakeup, if it came after the task's last
 * state change, is WAKING from there to the wakeup. Each event of the
 * task on a CPU where, by the events so far, another ran, runs it (its
 * switch-in was not recorded).
 */
static size_t states_of(const struct oracle *o, int pid, struct state **out)
{
	int cur[MAX_CPUS], st = NS_TRS_UNKNOWN;
	uint64_t waking = 0, wakeup = 0;
	size_t n = 0, cap = 0, k, before_wakeup = 0;
	bool have_waking = false;

	*out = NULL;
	for (k = 0; k < MAX_CPUS; k++)
		cur[k] = -2;
	for (k = 0; k < o->nr_ev; k++) {
		const struct ev *e = &o->ev[k];

		if (e->pid != cur[e->cpu]) {
			cur[e->cpu] = e->pid;
			if (e->pid == pid && st != NS_TRS_RUNNING) {
				push_state_on(out, &n, &cap, e->ts, NS_TRS_RUNNING, e->cpu);
				st = NS_TRS_RUNNING;
			}
		}
		if (e->kind == K_SWITCH) {
			cur[e->cpu] = e->b;
			if (e->a == pid) {
				push_state(out, &n, &cap, e->ts, e->st);
				st = e->st;
			}
			if (e->b == pid) {
				/* the waking stretch, cut out of the state before the wakeup */
				if (st == NS_TRS_WAKEUP && have_waking && before_wakeup &&
				    waking < wakeup && waking >= (*out)[before_wakeup - 1].start &&
				    (*out)[before_wakeup - 1].st != NS_TRS_RUNNING) {
					struct state w = { waking, NS_TRS_WAKING, -1 };

					push_state(out, &n, &cap, 0, 0);	/* room */
					memmove(&(*out)[before_wakeup + 1], &(*out)[before_wakeup],
						(n - 1 - before_wakeup) * sizeof(**out));
					(*out)[before_wakeup] = w;
					if ((*out)[before_wakeup - 1].start == waking) {
						memmove(&(*out)[before_wakeup - 1], &(*out)[before_wakeup],
							(n - before_wakeup) * sizeof(**out));
						n--;
					}
				}
				push_state_on(out, &n, &cap, e->ts, NS_TRS_RUNNING, e->cpu);
				st = NS_TRS_RUNNING;
				have_waking = false;
			}
		} else if (e->kind == K_WAKING && e->a == pid) {
			waking = e->ts;
			have_waking = true;
		} else if (e->kind == K_WAKEUP && e->a == pid && st != NS_TRS_RUNNING &&
			   st != NS_TRS_WAKEUP && st != NS_TRS_PREEMPTED) {
			before_wakeup = n;
			wakeup = e->ts;
			push_state(out, &n, &cap, e->ts, NS_TRS_WAKEUP);
			st = NS_TRS_WAKEUP;
		}
	}
	return n;
}

static uint64_t overlap(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t lo = a > c ? a : c, hi = b < d ? b : d;

	return hi > lo ? hi - lo : 0;
}

/* Columns whose state events lost make not known, over all the checks. */
static uint64_t dropped_cols;

/* A state over [a, b). */
struct ival {
	uint64_t a, b;
	int st;
};

static void push_ival(struct ival **v, size_t *n, size_t *cap, uint64_t a, uint64_t b, int st)
{
	if (b <= a)
		return;
	if (*n == *cap) {
		*cap = *cap * 2 + 64;
		*v = realloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = (struct ival){ a, b, st };
}

/*
 * The states as intervals, with what report's DROPPED lines make not
 * known: a run, where its own CPU lost events (from that CPU's event
 * before the DROPPED line to its event after); any other state but
 * exited, from the first loss on any CPU that overlaps it to its end.
 * Plain loops over every gap: no index, no binary search.
 */
static size_t states_known(const struct oracle *o, const struct state *sv, size_t n,
			   struct ival **out)
{
	size_t k, g, nr = 0, cap = 0;

	*out = NULL;
	for (k = 0; k < n; k++) {
		uint64_t a = sv[k].start, b = k + 1 < n ? sv[k + 1].start : o->last_ts, cut = b;
		struct ival *drop = NULL;
		size_t nd = 0, capd = 0, d;

		if (sv[k].st == NS_TRS_RUNNING) {
			for (g = 0; g < o->nr_gap; g++)
				if (o->gap[g].cpu == sv[k].cpu && o->gap[g].lo < b && o->gap[g].hi > a)
					push_ival(&drop, &nd, &capd, o->gap[g].lo > a ? o->gap[g].lo : a,
						  o->gap[g].hi < b ? o->gap[g].hi : b, NS_TRS_DROPPED);
			for (d = 0; d < nd; d++)
				push_ival(out, &nr, &cap, drop[d].a, drop[d].b, NS_TRS_DROPPED);
			free(drop);
			/* the running parts do not matter: the runs say where it ran */
			continue;
		}
		if (sv[k].st != NS_TRS_DEAD && sv[k].st != NS_TRS_UNKNOWN)
			for (g = 0; g < o->nr_gap; g++)
				if (o->gap[g].lo < b && o->gap[g].hi > a)
					cut = (o->gap[g].lo > a ? o->gap[g].lo : a) < cut ?
						(o->gap[g].lo > a ? o->gap[g].lo : a) : cut;
		push_ival(out, &nr, &cap, a, cut, sv[k].st);
		push_ival(out, &nr, &cap, cut, b, NS_TRS_DROPPED);
	}
	return nr;
}

/*
 * Every column's state of @pid's row in a window: where it did not run,
 * the first (enum ns_task_row_state's order) of the oracle's states that
 * overlap the column; where it ran, RUNNING.
 */
static int check_states(const struct oracle *o, const struct ns_task_row *tr, int pid,
			uint64_t start, uint64_t end, int cols, int *nr_states, char *why,
			size_t why_len)
{
	struct ns_task_bin *bins = calloc(cols, sizeof(*bins));
	struct state *sv;
	struct ival *iv;
	size_t n = states_of(o, pid, &sv), k;
	int col, bad = 0;

	n = states_known(o, sv, n, &iv);

	ns_task_row_bins(tr, NULL, start, end, cols, bins);
	for (col = 0; col < cols && !bad; col++) {
		uint64_t a = ns_window_col_ns(start, end, cols, col);
		uint64_t b = ns_window_col_ns(start, end, cols, col + 1);
		int want = NS_TRS_UNKNOWN;

		if (b <= a)
			b = a + 1;
		if (bins[col].flags & NS_BIN_RUNNING) {
			want = NS_TRS_RUNNING;
		} else {
			for (k = 0; k < n; k++)
				if (iv[k].st != NS_TRS_RUNNING && overlap(a, b, iv[k].a, iv[k].b) &&
				    iv[k].st < want)
					want = iv[k].st;
		}
		if (want != NS_TRS_RUNNING && want != NS_TRS_UNKNOWN)
			(*nr_states)++;
		dropped_cols += want == NS_TRS_DROPPED;
		if (bins[col].state != want) {
			snprintf(why, why_len, "column %d: state %d, want %d", col, bins[col].state,
				 want);
			bad = 1;
		}
	}
	free(sv);
	free(iv);
	free(bins);
	return bad;
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
	struct ns_sched *sched;
	uint64_t first, last, dropped;

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

	/* the states of the rows, from the timelines, against report's lines */
	dropped = dropped_cols;
	sched = ns_sched_build(trace, NULL, err, sizeof(err));
	CHECK(sched != NULL, "%s: the timelines build (%s)", base_name(path), sched ? "" : err);
	for (k = 0; sched && k < npids; k++) {
		struct ns_task_row *tr = ns_task_row_open(trace, pids[k]);
		uint64_t w = last + 1 - first;
		int states = 0;

		if (!pids[k] || !tr) {
			ns_task_row_close(tr);
			continue;
		}
		CHECK(!ns_task_row_set_states(tr, sched), "%s: task %d: states set",
		      base_name(path), pids[k]);
		why[0] = '\0';
		CHECK(!check_states(&o, tr, pids[k], first, last + 1, 97, &states, why, sizeof(why)),
		      "%s: task %d: each column's state over the whole trace, as report's lines "
		      "say (%d columns not running) %s", base_name(path), pids[k], states, why);
		why[0] = '\0';
		CHECK(!check_states(&o, tr, pids[k], first + w / 3, first + w / 3 + w / 50, 61,
				    &states, why, sizeof(why)),
		      "%s: task %d: each column's state in a zoomed window %s", base_name(path),
		      pids[k], why);
		why[0] = '\0';
		CHECK(!check_states(&o, tr, pids[k], first + w / 2, first + w / 2 + w / 5000 + 1,
				    80, &states, why, sizeof(why)),
		      "%s: task %d: each column's state in a close window %s", base_name(path),
		      pids[k], why);
		ns_task_row_close(tr);
	}
	if (o.nr_gap)
		CHECK(dropped_cols > dropped,
		      "%s: %zu losses of events: %llu columns of the rows above show them as "
		      "not known (dropped)", base_name(path), o.nr_gap,
		      (unsigned long long)(dropped_cols - dropped));
	ns_sched_free(sched);
	free(tasks);
	oracle_free(&o);
	ns_trace_close(trace);
}

/*
 * big.dat under --index-memory 8M, where chunks are dropped and read again:
 * a task row's columns come out as with the whole index, and drawing them
 * reads no chunk (each column's binary search among the task's events once
 * read a page a probe: a second a redraw on 28 M events).
 */
static void paged_checks(const char *path)
{
	struct ns_trace_open_opts small = { .index_memory = 8ull << 20 };
	struct ns_trace_open_opts all = { .index_memory = UINT64_MAX };
	struct ns_trace *a, *b = NULL;
	struct ns_task_row *ra = NULL, *rb = NULL;
	struct ns_task_bin *x = NULL, *y = NULL;
	struct ns_task_info *tasks = NULL;
	uint64_t first, last, reloads, opened, bad = 0, w;
	int nr, i, best = -1, lvl, col, cols = 200;
	char err[256];
	bool ok;

	a = ns_trace_open_async_opts(path, &all, err, sizeof(err));
	ok = a && !ns_trace_wait(a, err, sizeof(err));
	b = ok ? ns_trace_open_async_opts(path, &small, err, sizeof(err)) : NULL;
	ok = b && !ns_trace_wait(b, err, sizeof(err));
	CHECK(ok, "big.dat opens with --index-memory all and 8M (%s)", ok ? "" : err);
	if (!ok)
		goto out;
	nr = ns_task_list_build(a, &tasks);
	for (i = 0; i < nr; i++)
		if (tasks[i].pid && (best < 0 || tasks[i].nr_events > tasks[best].nr_events))
			best = i;
	ra = best >= 0 ? ns_task_row_open(a, tasks[best].pid) : NULL;
	opened = ns_trace_chunk_reloads(b);
	rb = best >= 0 ? ns_task_row_open(b, tasks[best].pid) : NULL;
	opened = ns_trace_chunk_reloads(b) - opened;
	x = calloc(cols, sizeof(*x));
	y = calloc(cols, sizeof(*y));
	CHECK(ra && rb && x && y && ns_task_row_nr_events(ra) == ns_task_row_nr_events(rb) &&
	      ns_task_row_nr_events(rb) > 100000,
	      "the busiest task's row (pid %d, %llu events) opens under 8M",
	      best >= 0 ? tasks[best].pid : -1,
	      rb ? (unsigned long long)ns_task_row_nr_events(rb) : 0ull);
	if (!ra || !rb || !x || !y)
		goto out;
	first = ns_trace_first_ns(a);
	last = ns_trace_last_ns(a);
	reloads = ns_trace_chunk_reloads(b);
	/* the whole trace, then windows 4 times narrower each, across the trace */
	for (lvl = 0, w = last + 1 - first; w >= (uint64_t)cols; lvl++, w /= 4) {
		uint64_t step = (last + 1 - first - w) / 7 + 1, start;

		for (start = first; start + w <= last + 1; start += step) {
			ns_task_row_bins(ra, NULL, start, start + w, cols, x);
			ns_task_row_bins(rb, NULL, start, start + w, cols, y);
			for (col = 0; col < cols; col++)
				bad += x[col].cpu != y[col].cpu || x[col].flags != y[col].flags ||
				       x[col].state != y[col].state;
		}
	}
	CHECK(!bad, "its columns at %d zoom levels equal the whole index's (%llu differ)", lvl,
	      (unsigned long long)bad);
	/* the row's open read every event: under 8M, chunks dropped were read again */
	CHECK(ns_trace_chunk_reloads(b) == reloads && opened > 0 &&
	      ns_trace_chunk_reloads(a) == 0,
	      "drawing them read no chunk again (%llu reads; %llu while the row opened)",
	      (unsigned long long)(ns_trace_chunk_reloads(b) - reloads),
	      (unsigned long long)opened);
out:
	free(x);
	free(y);
	free(tasks);
	ns_task_row_close(ra);
	ns_task_row_close(rb);
	ns_trace_close(a);
	ns_trace_close(b);
}

int main(void)
{
	const char *shared = check_shared();
	struct trace_list l;
	char path[8192];
	int i;

	if (system("command -v trace-cmd >/dev/null 2>&1")) {
		SKIP("task rows: trace-cmd is not installed, no oracle");
		return 0;
	}
	trace_list_load(&l, 0);
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i]);
	snprintf(path, sizeof(path), "%s/traces/big.dat", shared ? shared : "../shared");
	if (shared && access(path, R_OK) == 0)
		paged_checks(path);
	else
		SKIP("big.dat: %s not found", path);
	return check_failures ? 1 : 0;
}
