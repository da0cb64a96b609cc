// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduling analysis (model_sched.h) against real oracles, over every
 * real trace we have (the bundled ones, and ../shared/traces with big.dat):
 * - `trace-cmd report -w`: the wakeup latencies' average, maximum and
 *   minimum with their timestamps, other and RT tasks, and per task the
 *   latencies of its "Latency:" lines;
 * - `trace-cmd report --profile`: per task the sleep (S), idle-sleep (K,
 *   our I), blocked (D) and preempted (R and W, our R and R+) totals;
 * - CPU time per task and the CPUs' dropped events, against a plain
 *   libtracecmd pass written here (tracecmd_read_next_data, not our index
 *   nor our page reader), to the nanosecond, over the whole trace and over
 *   a range that cuts runs in two;
 * - the task-state query and the jumps on known events.
 */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <trace-cmd.h>
#include "nurseshark/filter.h"
#include "nurseshark/model_sched.h"
#include "nurseshark/trace_sched.h"
#include "traces.h"

#define MAX_PID (1 << 22)

/* Exported by libtracecmd but missing from its public header. */
int tracecmd_cpus(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle, int *rec_cpu);

/* "10183.792584" -> ns (microseconds as report prints them) */
static uint64_t parse_us_ts(const char *s)
{
	uint64_t sec = strtoull(s, (char **)&s, 10), us = 0;
	int n = 0;

	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && n < 6; s++, n++)
			us = us * 10 + (uint64_t)(*s - '0');
	for (; n < 6; n++)
		us *= 10;
	return sec * 1000000000ull + us * 1000;
}

/* "1489.341" usecs -> ns, exactly */
static uint64_t parse_usecs(const char *s)
{
	uint64_t us = strtoull(s, (char **)&s, 10), frac = 0;
	int n = 0;

	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && n < 3; s++, n++)
			frac = frac * 10 + (uint64_t)(*s - '0');
	for (; n < 3; n++)
		frac *= 10;
	return us * 1000 + frac;
}

static uint64_t us_round(uint64_t ns)
{
	return (ns + 500) / 1000 * 1000;
}

/* ---- the libtracecmd pass: switches, first events, drops ----------------- */

struct sw {
	uint64_t ts;
	int cpu, prev, next;
};

struct oracle {
	int nr_cpus;
	int top_cpus;		/* the top buffer's; the instances' follow */
	uint64_t *first_ts;	/* per CPU, UINT64_MAX: no event */
	uint64_t last_ts;
	struct sw *sw;
	size_t nr_sw, cap_sw;
	uint64_t *drops;	/* per CPU */
	long long *lost;
	uint64_t *prev_ts;	/* per CPU, its last event so far */
	/* events lost: [lo, hi) of CPU gap_cpu, from its event before to its event after */
	uint64_t (*gap)[2];
	int *gap_cpu;
	size_t nr_gap;
};

/* Read @h's records into @o, its CPU n as CPU @base + n (instances follow the top). */
static int oracle_read(struct oracle *o, struct tracecmd_input *h, int base)
{
	struct tep_format_field *fp, *fn;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *swe;
	struct tep_record *rec;
	int cpu, n = tracecmd_cpus(h);

	o->nr_cpus = base + n;
	o->first_ts = realloc(o->first_ts, o->nr_cpus * sizeof(*o->first_ts));
	o->drops = realloc(o->drops, o->nr_cpus * sizeof(*o->drops));
	o->lost = realloc(o->lost, o->nr_cpus * sizeof(*o->lost));
	o->prev_ts = realloc(o->prev_ts, o->nr_cpus * sizeof(*o->prev_ts));
	if (!o->first_ts || !o->drops || !o->lost || !o->prev_ts)
		return -ENOMEM;
	for (cpu = base; cpu < o->nr_cpus; cpu++) {
		o->first_ts[cpu] = UINT64_MAX;
		o->drops[cpu] = 0;
		o->lost[cpu] = 0;
	}
	swe = tep_find_event_by_name(tep, "sched", "sched_switch");
	fp = swe ? tep_find_field(swe, "prev_pid") : NULL;
	fn = swe ? tep_find_field(swe, "next_pid") : NULL;
	while ((rec = tracecmd_read_next_data(h, &cpu))) {
		cpu += base;
		if (o->first_ts[cpu] == UINT64_MAX)
			o->first_ts[cpu] = rec->ts;
		if (rec->ts > o->last_ts)
			o->last_ts = rec->ts;
		if (rec->missed_events) {
			o->drops[cpu]++;
			if (rec->missed_events > 0)
				o->lost[cpu] += rec->missed_events;
			o->gap = realloc(o->gap, (o->nr_gap + 1) * sizeof(*o->gap));
			o->gap_cpu = realloc(o->gap_cpu, (o->nr_gap + 1) * sizeof(*o->gap_cpu));
			o->gap[o->nr_gap][0] = rec->ts == o->first_ts[cpu] ? 0 : o->prev_ts[cpu];
			o->gap[o->nr_gap][1] = rec->ts;
			o->gap_cpu[o->nr_gap++] = cpu;
		}
		o->prev_ts[cpu] = rec->ts;
		if (swe && tep_data_type(tep, rec) == swe->id) {
			unsigned long long p, nx;

			tep_read_number_field(fp, rec->data, &p);
			tep_read_number_field(fn, rec->data, &nx);
			if (o->nr_sw == o->cap_sw) {
				o->cap_sw = o->cap_sw ? o->cap_sw * 2 : 4096;
				o->sw = realloc(o->sw, o->cap_sw * sizeof(*o->sw));
			}
			o->sw[o->nr_sw++] = (struct sw){ rec->ts, cpu, (int)p, (int)nx };
		}
		tracecmd_free_record(rec);
	}
	return 0;
}

/* The top buffer, then each instance buffer, as the trace numbers their CPUs. */
static int oracle_load(const char *path, struct oracle *o)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	int i, ret;

	memset(o, 0, sizeof(*o));
	if (!h)
		return -EIO;
	ret = oracle_read(o, h, 0);
	o->top_cpus = o->nr_cpus;
	for (i = 0; !ret && i < tracecmd_buffer_instances(h); i++) {
		struct tracecmd_input *ih = tracecmd_buffer_instance_handle(h, i);

		ret = ih ? oracle_read(o, ih, o->nr_cpus) : -EIO;
		if (ih)
			tracecmd_close(ih);
	}
	tracecmd_close(h);
	return ret;
}

static void oracle_free(struct oracle *o)
{
	free(o->first_ts);
	free(o->sw);
	free(o->drops);
	free(o->lost);
	free(o->prev_ts);
	free(o->gap);
	free(o->gap_cpu);
}

/* The part of [a, b) that @cpu's lost events cover (from its event before to the one after). */
static uint64_t oracle_lost(const struct oracle *o, int cpu, uint64_t a, uint64_t b)
{
	uint64_t sum = 0;
	size_t g;

	for (g = 0; g < o->nr_gap; g++) {
		uint64_t lo = o->gap[g][0] > a ? o->gap[g][0] : a;
		uint64_t hi = o->gap[g][1] < b ? o->gap[g][1] : b;

		if (o->gap_cpu[g] == cpu && hi > lo)
			sum += hi - lo;
	}
	return sum;
}

/*
 * CPU time per pid over [t0, t1) (runs end at the trace's last event): a run
 * is from one switch to the next on its CPU, its task the first's next_pid;
 * before a CPU's first switch, its prev_pid ran from the CPU's first event.
 * Where the CPU lost events (from its event before to its event after), who
 * ran is not known: that part counts for nobody.
 * Returns how many runs the range cuts in two.
 */
static int oracle_cpu_time(const struct oracle *o, uint64_t t0, uint64_t t1, int only_cpu,
			   uint64_t *ns)
{
	uint64_t end = t1 < o->last_ts ? t1 : o->last_ts;
	int cpu, cut = 0;
	size_t i;

	memset(ns, 0, MAX_PID * sizeof(*ns));
	for (cpu = 0; cpu < o->nr_cpus; cpu++) {
		uint64_t since = 0;
		int pid = -1;

		if (only_cpu >= 0 && cpu != only_cpu)
			continue;

		for (i = 0; i < o->nr_sw; i++) {
			const struct sw *s = &o->sw[i];
			uint64_t a, b;

			if (s->cpu != cpu)
				continue;
			if (pid < 0) {
				pid = s->prev;
				since = o->first_ts[cpu];
			}
			a = since > t0 ? since : t0;
			b = s->ts < end ? s->ts : end;
			if (b > a && pid >= 0 && pid < MAX_PID)
				ns[pid] += b - a - oracle_lost(o, cpu, a, b);
			if ((since < t0 && s->ts > t0) || (since < t1 && s->ts > t1))
				cut++;
			pid = s->next;
			since = s->ts;
		}
		if (pid >= 0 && pid < MAX_PID) {
			uint64_t a = since > t0 ? since : t0;

			if (end > a)
				ns[pid] += end - a - oracle_lost(o, cpu, a, end);
			if (since < t1 && o->last_ts > t1)
				cut++;
		}
	}
	return cut;
}

static void check_cpu_time(struct ns_trace *t, const struct oracle *o, uint64_t t0, uint64_t t1,
			   int only_cpu, const char *name, const char *what)
{
	struct ns_sched_stats *st = NULL;
	uint64_t *ns = calloc(MAX_PID, sizeof(*ns)), busy = 0, ours_busy = 0;
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_filter_entry e = {
		.kind = NS_FILTER_CPU, .mode = NS_FILTER_SHOW, .where = NS_FILTER_BOTH,
		.value = only_cpu,
	};
	char err[256];
	int cut, bad = 0, missing = 0, pid, c;
	size_t i;

	cut = oracle_cpu_time(o, t0, t1, only_cpu, ns);
	if (only_cpu >= 0)
		ns_filter_set_add(fs, &e);
	if (ns_sched_stats_build(t, only_cpu >= 0 ? fs : NULL, t0, t1, &st, err, sizeof(err))) {
		FAIL("stats over %s: %s: %s", what, name, err);
		free(ns);
		return;
	}
	for (i = 0; i < st->nr_tasks; i++) {
		const struct ns_sched_task *k = &st->tasks[i];

		if (k->pid < 0 || k->pid >= MAX_PID || k->state_ns[NS_TS_RUNNING] != ns[k->pid]) {
			if (bad++ < 3)
				printf("  pid %d: cpu_ns %" PRIu64 ", libtracecmd %" PRIu64 "\n",
				       k->pid, k->state_ns[NS_TS_RUNNING],
				       k->pid >= 0 && k->pid < MAX_PID ? ns[k->pid] : 0);
		}
	}
	for (pid = 0; pid < MAX_PID; pid++) {
		if (!ns[pid])
			continue;
		if (pid)
			busy += ns[pid];
		if (!ns_sched_stats_task(st, pid) && missing++ < 3)
			printf("  pid %d ran %" PRIu64 " ns, not in the table\n", pid, ns[pid]);
	}
	for (c = 0; c < st->nr_cpus; c++)
		ours_busy += st->cpus[c].busy_ns;
	CHECK(!bad && !missing && st->nr_tasks > 0,
	      "cpu time per task equals a libtracecmd pass over sched_switch, to the ns, %s "
	      "(%zu tasks): %s", what, st->nr_tasks, name);
	CHECK(ours_busy == busy, "CPUs' busy time is the tasks' cpu time, %s: %s", what, name);
	if (t0 > ns_trace_first_ns(t))
		CHECK(cut > 0, "the range %s cuts %d runs in two: %s", what, cut, name);
	if (only_cpu >= 0)
		CHECK(st->nr_cpus == 1 && st->cpus[0].cpu == only_cpu,
		      "the CPU filter keeps CPU %d only, %s: %s", only_cpu, what, name);
	ns_sched_stats_free(st);
	ns_filter_set_free(fs);
	free(ns);
}

static void check_drops(struct ns_trace *t, const struct oracle *o, const char *name)
{
	struct ns_sched_stats *st = NULL;
	char err[256];
	int c, bad = 0;
	uint64_t total = 0;

	if (ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err))) {
		FAIL("stats: %s: %s", name, err);
		return;
	}
	for (c = 0; c < st->nr_cpus; c++) {
		int cpu = st->cpus[c].cpu;

		total += st->cpus[c].drops;
		if (cpu >= o->nr_cpus || st->cpus[c].drops != o->drops[cpu] ||
		    st->cpus[c].lost != o->lost[cpu])
			bad++;
	}
	CHECK(!bad && st->nr_cpus == ns_trace_nr_cpus(t),
	      "dropped events per CPU equal libtracecmd's missed_events (%" PRIu64 "): %s", total,
	      name);
	ns_sched_stats_free(st);
}

/* ---- trace-cmd report -w -------------------------------------------------- */

struct wlat {
	uint64_t n, sum, max;
};

static void check_report_w(struct ns_trace *t, const char *path, const char *name)
{
	struct ns_sched_stats *st = NULL;
	char *out = slurp_cmd("trace-cmd report -w -i '%s' 2>/dev/null", path), *p, *line;
	struct wlat *per = calloc(MAX_PID, sizeof(*per));
	uint64_t avg[2] = { 0 }, max[2] = { 0 }, min[2] = { 0 };
	uint64_t max_ts[2] = { 0 }, min_ts[2] = { 0 };
	bool have[2] = { false, false };
	int rt = 0, bad = 0, pid;
	char err[256];
	size_t i;

	if (!out || !per || ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err))) {
		FAIL("report -w and stats: %s", name);
		goto out;
	}
	for (line = out; line && *line; line = p ? p + 1 : NULL) {
		char *lat;

		p = strchr(line, '\n');
		if (p)
			*p = '\0';
		if (strstr(line, "RT task timings:"))
			rt = 1;
		if (!strncmp(line, "Average wakeup latency: ", 24)) {
			avg[rt] = parse_usecs(line + 24);
			have[rt] = true;
		} else if (!strncmp(line, "Maximum Latency: ", 17)) {
			max[rt] = parse_usecs(line + 17);
			max_ts[rt] = parse_us_ts(strstr(line, "timestamp: ") + 11);
		} else if (!strncmp(line, "Minimum Latency: ", 17)) {
			min[rt] = parse_usecs(line + 17);
			min_ts[rt] = parse_us_ts(strstr(line, "timestamp: ") + 11);
		} else if ((lat = strstr(line, " Latency: ")) && strstr(line, "sched_switch:")) {
			/* "... ==> comm:pid [prio] Latency: 2.895 usecs" */
			char *br = lat, *colon;
			uint64_t d = parse_usecs(lat + 10);

			while (br > line && *br != '[')
				br--;
			*br = '\0';
			colon = strrchr(line, ':');
			pid = colon ? atoi(colon + 1) : -1;
			if (pid > 0 && pid < MAX_PID) {
				per[pid].n++;
				per[pid].sum += d;
				if (d > per[pid].max)
					per[pid].max = d;
			}
		}
	}
	for (rt = 0; rt < 2; rt++) {
		/* report's first block is over every task, the second over RT ones */
		const struct ns_sched_lat *l = &st->wakeup[rt];
		double ours_avg = l->n ? (double)l->sum_ns / l->n : 0;
		const char *cls = rt ? "RT" : "all";

		if (!have[rt] && !l->n) {
			PASS("report -w has no %s latencies and neither have we: %s", cls, name);
			continue;
		}
		CHECK(have[rt] && fabs(ours_avg - (double)avg[rt]) <= 1.0,
		      "report -w's average (%s, %.3f us): %.3f us: %s", cls, avg[rt] / 1000.0,
		      ours_avg / 1000.0, name);
		CHECK(l->max_ns == max[rt] && us_round(l->max_ts) == max_ts[rt],
		      "report -w's maximum (%s, %.3f us at %.6f): %.3f us: %s", cls,
		      max[rt] / 1000.0, max_ts[rt] / 1e9, l->max_ns / 1000.0, name);
		CHECK(l->min_ns == min[rt] && us_round(l->min_ts) == min_ts[rt],
		      "report -w's minimum (%s, %.3f us at %.6f): %.3f us: %s", cls,
		      min[rt] / 1000.0, min_ts[rt] / 1e9, l->min_ns / 1000.0, name);
	}
	/* the per-task latencies, from report's Latency: lines */
	for (i = 0; i < st->nr_tasks; i++) {
		const struct ns_sched_task *k = &st->tasks[i];
		struct wlat *w = k->pid > 0 && k->pid < MAX_PID ? &per[k->pid] : NULL;

		if (!w)
			continue;
		if (w->n != k->wakeup.n || w->sum != k->wakeup.sum_ns ||
		    (w->n && w->max != k->wakeup.max_ns)) {
			if (bad++ < 3)
				printf("  pid %d: %" PRIu64 " latencies, sum %" PRIu64
				       " max %" PRIu64 "; report -w: %" PRIu64 ", %" PRIu64
				       ", %" PRIu64 "\n", k->pid, k->wakeup.n, k->wakeup.sum_ns,
				       k->wakeup.max_ns, w->n, w->sum, w->max);
		}
		w->n = 0;
	}
	for (pid = 1; pid < MAX_PID; pid++)
		if (per[pid].n && bad++ < 6)
			printf("  pid %d has report -w latencies and no entry\n", pid);
	CHECK(!bad, "per task: the count, sum and maximum of report -w's Latency: lines: %s", name);
out:
	ns_sched_stats_free(st);
	free(per);
	free(out);
}

/* ---- trace-cmd report --profile ------------------------------------------- */

/* sched_switch:S, :K, :D, :R + :W totals of a task */
enum { PS, PK, PD, PR, NR_P };

static void check_profile(struct ns_trace *t, const char *path, const char *name)
{
	struct ns_sched_stats *st = NULL;
	char *out = slurp_cmd("trace-cmd report --profile -i '%s' 2>/dev/null", path), *p, *line;
	uint64_t (*prof)[NR_P] = calloc(MAX_PID, sizeof(*prof));
	uint64_t last = ns_trace_last_ns(t), matched = 0, tails = 0, unseen = 0, blocks = 0;
	uint64_t lost = 0;
	int pid = -1, bad = 0;
	char err[256];
	size_t i;

	if (!out || !prof || ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err))) {
		FAIL("report --profile and stats: %s", name);
		goto out;
	}
	for (line = out; line && *line; line = p ? p + 1 : NULL) {
		char *ev, *tot;

		p = strchr(line, '\n');
		if (p)
			*p = '\0';
		if (!strncmp(line, "task: ", 6)) {
			char *dash = strrchr(line, '-');

			pid = dash ? atoi(dash + 1) : -1;
			blocks++;
			if (pid < 0 || pid >= MAX_PID)
				pid = -1;
			continue;
		}
		ev = strstr(line, "Event: sched_switch:");
		tot = strstr(line, "Total: ");
		if (pid < 0 || !ev || !tot || ev[21] != ' ')
			continue;
		switch (ev[20]) {
		case 'S':
			prof[pid][PS] += strtoull(tot + 7, NULL, 10);
			break;
		case 'K':
			prof[pid][PK] += strtoull(tot + 7, NULL, 10);
			break;
		case 'D':
			prof[pid][PD] += strtoull(tot + 7, NULL, 10);
			break;
		case 'R':
		case 'W':
			prof[pid][PR] += strtoull(tot + 7, NULL, 10);
			break;
		}
	}
	if (!blocks) {
		SKIP("report --profile reads no task from %s (%.60s)", name, out);
		goto out;
	}
	for (i = 0; i < st->nr_tasks; i++) {
		const struct ns_sched_task *k = &st->tasks[i];
		uint64_t ours[NR_P], tail;
		int s;

		if (k->pid <= 0 || k->pid >= MAX_PID)
			continue;
		/*
		 * The other difference by design: a task seen running with no
		 * switch-in recorded (events lost, or not recorded) runs from
		 * there for us; for profile it stays preempted or asleep until
		 * its next recorded switch-in or wakeup.
		 */
		if (k->unseen_switches) {
			unseen++;
			continue;
		}
		/* and a state across lost events is not known: profile counts some */
		if (k->unknown_ns) {
			lost++;
			continue;
		}
		ours[PS] = k->state_ns[NS_TS_SLEEPING];
		ours[PK] = k->state_ns[NS_TS_IDLE];
		ours[PD] = k->state_ns[NS_TS_BLOCKED];
		ours[PR] = k->state_ns[NS_TS_PREEMPTED];
		/*
		 * The difference by design: profile counts a sleep when its
		 * wakeup comes, we count the time slept until the trace ends.
		 */
		tail = last > k->end_since ? last - k->end_since : 0;
		switch (k->end_state) {
		case NS_TS_SLEEPING:
			s = PS;
			break;
		case NS_TS_IDLE:
			s = PK;
			break;
		case NS_TS_BLOCKED:
			s = PD;
			break;
		case NS_TS_PREEMPTED:
			s = PR;
			break;
		default:
			s = -1;
		}
		if (s >= 0 && tail) {
			if (ours[s] < tail) {
				bad++;
				continue;
			}
			ours[s] -= tail;
			tails++;
		}
		for (s = 0; s < NR_P; s++) {
			if (ours[s] == prof[k->pid][s]) {
				matched += ours[s] != 0;
				continue;
			}
			if (bad++ < 5)
				printf("  pid %d %s: ours %" PRIu64 " (end state %s), "
				       "profile %" PRIu64 "\n", k->pid,
				       (const char *[]){ "S", "I (K)", "D", "R+W" }[s], ours[s],
				       ns_task_state_name(k->end_state), prof[k->pid][s]);
		}
	}
	CHECK(!bad && matched > 0,
	      "per task: sleep S, idle I, blocked D and preempted R/R+ totals equal report "
	      "--profile's sched_switch:S, :K, :D, :R+:W lines (%" PRIu64 " non-zero; %" PRIu64
	      " tasks still in that state at the end, %" PRIu64 " seen running with no "
	      "switch-in and %" PRIu64 " in a state across lost events differ by design): %s",
	      matched, tails, unseen, lost, name);
out:
	ns_sched_stats_free(st);
	free(prof);
	free(out);
}

/* ---- the pieces: events read by threads in pieces give what one pass gives -- */

static bool lat_same(const struct ns_sched_lat *a, const struct ns_sched_lat *b)
{
	return a->n == b->n && a->sum_ns == b->sum_ns && a->max_ns == b->max_ns &&
	       a->max_ts == b->max_ts && a->min_ns == b->min_ns && a->min_ts == b->min_ts;
}

/*
 * The CPUs' events are read in pieces, each by the thread that takes it;
 * a piece does not know who runs at its start until the one before ends.
 * Cut in pieces of 997 events (every trace: many cuts, some inside runs of
 * one task, some at its switches), read a window of 7 pieces' time at a
 * time, the statistics equal those of pieces of the default size (a whole
 * small trace's CPU in one piece and one window).
 */
static void check_pieces(struct ns_trace *t, const char *name)
{
	struct ns_sched_stats *a = NULL, *b = NULL;
	uint64_t t0 = ns_trace_first_ns(t), t1 = ns_trace_last_ns(t);
	char err[256];
	size_t i, bad = 0;
	int s, c;

	t0 += (t1 - t0) / 4;
	if (ns_sched_stats_build(t, NULL, t0, UINT64_MAX, &a, err, sizeof(err))) {
		FAIL("stats: %s: %s", name, err);
		return;
	}
	if (ns_sched_stats_build_pieces(t, NULL, t0, UINT64_MAX, 997, &b, err, sizeof(err))) {
		FAIL("stats in pieces: %s: %s", name, err);
		goto out;
	}
	if (a->nr_tasks != b->nr_tasks || a->nr_cpus != b->nr_cpus || a->nr_types != b->nr_types ||
	    !lat_same(&a->wakeup[0], &b->wakeup[0]) || !lat_same(&a->wakeup[1], &b->wakeup[1]) ||
	    !lat_same(&a->waking, &b->waking))
		bad++;
	for (i = 0; !bad && i < a->nr_tasks; i++) {
		const struct ns_sched_task *x = &a->tasks[i], *y = &b->tasks[i];

		for (s = 0; s < NS_NR_TS; s++)
			bad += x->state_ns[s] != y->state_ns[s];
		bad += x->pid != y->pid || x->runs != y->runs || x->wakeups != y->wakeups ||
		       x->unseen_switches != y->unseen_switches || x->unknown_ns != y->unknown_ns ||
		       !lat_same(&x->wakeup, &y->wakeup) || !lat_same(&x->waking, &y->waking) ||
		       x->end_state != y->end_state || x->end_since != y->end_since;
		if (bad && bad < 2)
			printf("  pid %d differs in pieces\n", x->pid);
	}
	for (c = 0; !bad && c < a->nr_cpus; c++)
		bad += a->cpus[c].busy_ns != b->cpus[c].busy_ns ||
		       a->cpus[c].idle_ns != b->cpus[c].idle_ns ||
		       a->cpus[c].switches != b->cpus[c].switches ||
		       a->cpus[c].events != b->cpus[c].events;
	for (i = 0; !bad && i < a->nr_types; i++)
		bad += a->types[i].type != b->types[i].type || a->types[i].count != b->types[i].count;
	CHECK(!bad, "read by threads in pieces of 997 events and windows of 7 pieces, the "
	      "statistics of the last three quarters are those of one pass per CPU (%zu tasks): %s",
	      a->nr_tasks, name);
out:
	ns_sched_stats_free(a);
	ns_sched_stats_free(b);
}

/* ---- ranges: what [a, b) and [b, c) count adds up to [a, c) ------------- */

static void check_additive(struct ns_trace *t, const char *name)
{
	struct ns_sched_stats *st[3] = { NULL, NULL, NULL };
	uint64_t a = ns_trace_first_ns(t), c = ns_trace_last_ns(t) + 1;
	uint64_t b = a + (c - a) / 2 + 13;	/* inside some run, most likely */
	uint64_t r[3][3] = { { a, b }, { b, c }, { a, c } };
	char err[256];
	int i, bad = 0, cpu;
	size_t k;

	for (i = 0; i < 3; i++)
		if (ns_sched_stats_build(t, NULL, r[i][0], r[i][1], &st[i], err, sizeof(err))) {
			FAIL("stats of a range: %s: %s", name, err);
			goto out;
		}
	for (k = 0; k < st[2]->nr_tasks; k++) {
		const struct ns_sched_task *w = &st[2]->tasks[k];
		const struct ns_sched_task *x = ns_sched_stats_task(st[0], w->pid);
		const struct ns_sched_task *y = ns_sched_stats_task(st[1], w->pid);
		struct ns_sched_task z = { 0 };
		int s;

		x = x ? x : &z;
		y = y ? y : &z;
		for (s = 0; s < NS_NR_TS; s++)
			bad += x->state_ns[s] + y->state_ns[s] != w->state_ns[s];
		bad += x->runs + y->runs != w->runs;
		bad += x->wakeups + y->wakeups != w->wakeups;
		bad += x->wakeup.n + y->wakeup.n != w->wakeup.n;
		bad += x->wakeup.sum_ns + y->wakeup.sum_ns != w->wakeup.sum_ns;
		if (bad && bad < 3)
			printf("  pid %d: halves and whole differ\n", w->pid);
	}
	for (cpu = 0; cpu < st[2]->nr_cpus; cpu++)
		bad += st[0]->cpus[cpu].busy_ns + st[1]->cpus[cpu].busy_ns !=
			st[2]->cpus[cpu].busy_ns ||
			st[0]->cpus[cpu].switches + st[1]->cpus[cpu].switches !=
			st[2]->cpus[cpu].switches ||
			st[0]->cpus[cpu].events + st[1]->cpus[cpu].events !=
			st[2]->cpus[cpu].events;
	CHECK(!bad && st[2]->nr_tasks, "states, runs, wakeups, latencies and CPUs of two halves "
	      "add up to the whole (%zu tasks): %s", st[2]->nr_tasks, name);
out:
	for (i = 0; i < 3; i++)
		ns_sched_stats_free(st[i]);
}

/* ---- timelines: the task state at a time, and the jumps ------------------ */

/*
 * Each task's worst wakeup, found again through the timeline and the
 * events it points to (read back from the file): the switch-in is a
 * sched_switch to the task at wakeup_max_ts, the wakeup a sched_wakeup(_new)
 * of the task latency earlier, the waker that event's task, and just
 * before the switch-in the task was runnable.
 */
static void check_timeline(struct ns_trace *t, const char *name)
{
	struct ns_sched_stats *st = NULL;
	struct ns_sched *s;
	char err[256];
	int bad = 0, seen = 0, ctx_ok = 0;
	size_t i;

	s = ns_sched_build(t, NULL, err, sizeof(err));
	if (!s || ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err))) {
		FAIL("timeline: %s: %s", name, err);
		goto out;
	}
	for (i = 0; i < st->nr_tasks; i++) {
		const struct ns_sched_task *k = &st->tasks[i];
		struct ns_sched_event sw, wk;
		struct ns_sched_ctx ctx, before, ectx;
		int pid;

		if (!k->wakeup.n || k->pid <= 0)
			continue;
		seen++;
		if (ns_sched_state_at(s, k->pid, k->wakeup.max_ts, &ctx) ||
		    ctx.state != NS_TS_RUNNING || ctx.latency_ns != (int64_t)k->wakeup.max_ns ||
		    ctx.switch_in.ts_ns != k->wakeup.max_ts || ctx.wakeup.cpu < 0 ||
		    ctx.wakeup.ts_ns != k->wakeup.max_ts - k->wakeup.max_ns) {
			if (bad++ < 3)
				printf("  pid %d: state %s latency %lld at %" PRIu64 "\n", k->pid,
				       ns_task_state_name(ctx.state), (long long)ctx.latency_ns,
				       k->wakeup.max_ts);
			continue;
		}
		if (ns_trace_sched_read(t, ctx.switch_in.cpu, ctx.switch_in.idx, &sw) ||
		    sw.kind != NS_SCHED_SWITCH || sw.next_pid != k->pid ||
		    sw.ts_ns != k->wakeup.max_ts ||
		    ns_trace_sched_read(t, ctx.wakeup.cpu, ctx.wakeup.idx, &wk) ||
		    (wk.kind != NS_SCHED_WAKEUP && wk.kind != NS_SCHED_WAKEUP_NEW) ||
		    wk.pid != k->pid || wk.common_pid != ctx.waker) {
			if (bad++ < 3)
				printf("  pid %d: the events the context points to do not fit\n",
				       k->pid);
			continue;
		}
		if (ctx.switch_out.cpu >= 0) {
			struct ns_sched_event so;

			if (ns_trace_sched_read(t, ctx.switch_out.cpu, ctx.switch_out.idx, &so) ||
			    so.kind != NS_SCHED_SWITCH || so.pid != k->pid ||
			    so.ts_ns < sw.ts_ns) {
				if (bad++ < 3)
					printf("  pid %d: the switch-out is not its\n", k->pid);
				continue;
			}
		}
		/* a nanosecond before the switch-in it waited to run (where nothing was lost) */
		if (k->wakeup.max_ns && !k->unseen_switches && !k->unknown_ns &&
		    (ns_sched_state_at(s, k->pid, k->wakeup.max_ts - 1, &before) ||
		     (before.state != NS_TS_WAKING && before.state != NS_TS_PREEMPTED &&
		      before.state != NS_TS_RUNNING) ||
		     before.switch_in.idx != ctx.switch_in.idx)) {
			if (bad++ < 3)
				printf("  pid %d: before its switch-in: %s\n", k->pid,
				       ns_task_state_name(before.state));
			continue;
		}
		/* the same from the switch-in event */
		if (!ns_sched_event_ctx(t, s, ctx.switch_in.cpu, ctx.switch_in.idx, &pid, &ectx) &&
		    pid == k->pid && ectx.latency_ns == ctx.latency_ns && ectx.waker == ctx.waker)
			ctx_ok++;
		else if (bad++ < 3)
			printf("  pid %d: the switch-in's context differs\n", k->pid);
	}
	CHECK(!bad && seen > 0 && ctx_ok == seen,
	      "timeline: each task's worst wakeup found again at wakeup_max_ts, with its "
	      "switch-in, wakeup, waker and switch-out read back from the file (%d tasks): %s",
	      seen, name);
out:
	ns_sched_stats_free(st);
	ns_sched_free(s);
}

/* ---- the same from the events kept while indexing (--summary) ----------- */

/* The first scheduler event a scan finds: its idx in *arg, and stop. */
static int first_idx(void *arg, const struct ns_sched_event *ev)
{
	*(uint64_t *)arg = ev->idx;
	return 1;
}

/*
 * A scan of the kept events that starts on a scheduler event finds that
 * event first, as the scan of the file does: the bounds of the range are
 * the events' own (ns_lower_bound in sched_read.c's scan_captured()).
 */
static void check_capture_bounds(struct ns_trace *t, struct ns_trace *c, const char *name)
{
	int cpu, bad = 0, tried = 0;

	for (cpu = 0; cpu < ns_trace_nr_cpus(t); cpu++) {
		uint64_t n = ns_trace_cpu_nr_events(t, cpu), lo = n / 2, at = UINT64_MAX;
		uint64_t from_file = UINT64_MAX, from_kept = UINT64_MAX;

		/* the first scheduler event at or after the middle of the CPU */
		ns_trace_sched_scan(t, cpu, lo, n, 0, first_idx, &at);
		if (at == UINT64_MAX)
			continue;
		tried++;
		ns_trace_sched_scan(t, cpu, at, n, 0, first_idx, &from_file);
		ns_trace_sched_scan(c, cpu, at, n, 0, first_idx, &from_kept);
		bad += from_file != at || from_kept != at;
	}
	CHECK(tried && !bad, "a scan of the kept events from a scheduler event starts on it, "
	      "as the file's does (%d CPUs, %d wrong): %s", tried, bad, name);
}

static void check_capture(struct ns_trace *t, const char *path, const char *name)
{
	struct ns_sched_stats *a = NULL, *b = NULL;
	uint64_t t0 = ns_trace_first_ns(t) + (ns_trace_last_ns(t) - ns_trace_first_ns(t)) / 4;
	char err[256];
	struct ns_trace *c = ns_trace_open_sched(path, err, sizeof(err));
	int same;

	if (!c || ns_sched_stats_build(t, NULL, t0, UINT64_MAX, &a, err, sizeof(err)) ||
	    ns_sched_stats_build(c, NULL, t0, UINT64_MAX, &b, err, sizeof(err))) {
		FAIL("stats from the events kept while indexing: %s", name);
		goto out;
	}
	same = a->nr_tasks == b->nr_tasks && a->nr_cpus == b->nr_cpus &&
	       a->nr_types == b->nr_types &&
	       !memcmp(a->tasks, b->tasks, a->nr_tasks * sizeof(*a->tasks)) &&
	       !memcmp(a->cpus, b->cpus, a->nr_cpus * sizeof(*a->cpus)) &&
	       !memcmp(a->types, b->types, a->nr_types * sizeof(*a->types)) &&
	       !memcmp(a->wakeup, b->wakeup, sizeof(a->wakeup));
	CHECK(same, "the sched events kept while indexing give the statistics read back "
	      "from the file (%zu tasks): %s", a->nr_tasks, name);
	check_capture_bounds(t, c, name);
out:
	ns_sched_stats_free(a);
	ns_sched_stats_free(b);
	ns_trace_close(c);
}

/* ---- the differences from report --profile, shown on known events -------- */

/* report -t -R's line: its CPU, timestamp (ns) and common pid; 0, or -1 for another line */
static int text_line(const char *line, int *cpu, uint64_t *ts, int *pid)
{
	const char *br = strstr(line, " [");
	const char *dash;
	char *end;

	if (!br || !strstr(br, ": "))
		return -1;
	for (dash = br; dash > line && *dash != '-'; dash--)
		;
	*pid = atoi(dash + 1);
	*cpu = (int)strtol(br + 2, &end, 10);
	if (*end != ']')
		return -1;
	*ts = strtoull(end + 1, &end, 10) * 1000000000ull;
	if (*end != '.')
		return -1;
	*ts += strtoull(end + 1, NULL, 10);
	return 0;
}

static uint64_t profile_total(const char *path, int pid, const char *event)
{
	char *out = slurp_cmd("trace-cmd report --profile -i '%s' 2>/dev/null", path), *p;
	char want[64];
	uint64_t total = UINT64_MAX;

	snprintf(want, sizeof(want), "-%d\n", pid);
	p = out ? strstr(out, want) : NULL;
	if (p) {
		char *next = strstr(p + 1, "\ntask: "), *e = strstr(p, event);

		if (e && (!next || e < next) && strstr(e, "Total: "))
			total = strtoull(strstr(e, "Total: ") + 7, NULL, 10);
	}
	free(out);
	return total;
}

/* Two contexts say the same. */
static bool ref_same(const struct ns_sched_ref *a, const struct ns_sched_ref *b)
{
	return a->cpu == b->cpu && (a->cpu < 0 || (a->idx == b->idx && a->ts_ns == b->ts_ns));
}

static bool ctx_same(const struct ns_sched_ctx *a, const struct ns_sched_ctx *b)
{
	return a->state == b->state && a->cpu == b->cpu && a->since_ns == b->since_ns &&
	       a->until_ns == b->until_ns && ref_same(&a->switch_in, &b->switch_in) &&
	       ref_same(&a->switch_out, &b->switch_out) && ref_same(&a->wakeup, &b->wakeup) &&
	       ref_same(&a->waking, &b->waking) && a->waker == b->waker &&
	       a->unseen_switch_in == b->unseen_switch_in && a->latency_ns == b->latency_ns;
}

/*
 * The timelines are built a window of time at a time, each window's events
 * read in pieces by threads. Built in pieces of 997 events and windows of
 * 7 pieces, every task's spans, and its context at the start and in the
 * middle of each span, are those of the default cut (a small trace in one
 * window). Held to half the most bytes they take while built, they are
 * not built, and the error says so; held to that most, they are.
 */
static void check_timeline_pieces(struct ns_trace *t, const char *name)
{
	struct ns_sched *a, *b = NULL, *c;
	struct ns_sched_stats *st = NULL;
	char err[256] = "";
	size_t i, spans = 0;
	int bad = 0;

	a = ns_sched_build(t, NULL, err, sizeof(err));
	if (!a || ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err))) {
		FAIL("timelines of %s: %s", name, err);
		goto out;
	}
	b = ns_sched_build_pieces(t, NULL, 997, 0, err, sizeof(err));
	if (!b) {
		FAIL("timelines in pieces of %s: %s", name, err);
		goto out;
	}
	for (i = 0; i < st->nr_tasks && bad < 3; i++) {
		struct ns_sched_span *x = NULL, *y = NULL;
		long nx = ns_sched_task_spans(a, st->tasks[i].pid, &x);
		long ny = ns_sched_task_spans(b, st->tasks[i].pid, &y);
		long k;

		if (nx != ny || (nx > 0 && memcmp(x, y, (size_t)nx * sizeof(*x)))) {
			printf("  pid %d: %ld spans, %ld in pieces\n", st->tasks[i].pid, nx, ny);
			bad++;
		}
		for (k = 0; k < nx && k < ny && bad < 3; k++) {
			uint64_t at[2] = { x[k].start_ns, x[k].start_ns + (x[k].end_ns - x[k].start_ns) / 2 };
			struct ns_sched_ctx p, q;
			int j;

			for (j = 0; j < 2; j++) {
				if (ns_sched_state_at(a, st->tasks[i].pid, at[j], &p) !=
					    ns_sched_state_at(b, st->tasks[i].pid, at[j], &q) ||
				    !ctx_same(&p, &q)) {
					printf("  pid %d at %.9f: contexts differ\n", st->tasks[i].pid,
					       at[j] / 1e9);
					bad++;
				}
			}
		}
		spans += nx > 0 ? (size_t)nx : 0;
		free(x);
		free(y);
	}
	CHECK(!bad && spans, "the timelines built in windows of 7 pieces of 997 events are those "
	      "of one window (%zu tasks, %zu spans, %llu bytes): %s", st->nr_tasks, spans,
	      (unsigned long long)ns_sched_bytes(a), name);
	err[0] = '\0';
	c = ns_sched_build_pieces(t, NULL, 0, ns_sched_peak_bytes(a) / 2, err, sizeof(err));
	CHECK(!c && strstr(err, "the task timelines need more than ") && strstr(err, "a quarter of "),
	      "held to half the bytes they take, the timelines are not built: \"%s\": %s", err, name);
	ns_sched_free(c);
	c = ns_sched_build_pieces(t, NULL, 0, ns_sched_peak_bytes(a), err, sizeof(err));
	CHECK(c != NULL && ns_sched_bytes(a) <= ns_sched_peak_bytes(a),
	      "held to the most bytes they take while built (%llu), the timelines are built and "
	      "then hold %llu: %s", (unsigned long long)ns_sched_peak_bytes(a),
	      (unsigned long long)ns_sched_bytes(a), name);
	ns_sched_free(c);
	/*
	 * Held to a little more than they hold at the end, less than their
	 * peak: near the cap the arrays are cut to what they hold and grown
	 * a page at a time, so they are built, the same.
	 */
	if (ns_sched_peak_bytes(a) > ns_sched_bytes(a) + ns_sched_bytes(a) / 16) {
		uint64_t cap = ns_sched_bytes(a) + ns_sched_bytes(a) / 16;

		err[0] = '\0';
		c = ns_sched_build_pieces(t, NULL, 0, cap, err, sizeof(err));
		CHECK(c != NULL && ns_sched_bytes(c) == ns_sched_bytes(a) &&
		      ns_sched_peak_bytes(c) <= cap,
		      "held to %llu bytes, under their peak of %llu, the timelines are built "
		      "(%llu bytes, peak %llu%s%s): %s", (unsigned long long)cap,
		      (unsigned long long)ns_sched_peak_bytes(a),
		      (unsigned long long)(c ? ns_sched_bytes(c) : 0),
		      (unsigned long long)(c ? ns_sched_peak_bytes(c) : 0), err[0] ? "; " : "",
		      err, name);
		ns_sched_free(c);
	}
out:
	ns_sched_stats_free(st);
	ns_sched_free(a);
	ns_sched_free(b);
}

/*
 * A stack trace (kernel_stack) recorded right after a sched_switch carries
 * the task just switched out, in that event's context: it is not that
 * task running again. Every such pair in report's text: the task switched
 * out asleep (prev_state S or D) is still asleep at its stack trace.
 */
static void check_stack_after_switch(struct ns_trace *t, const char *path, const char *name)
{
	char *out = slurp_cmd("trace-cmd report -t -R -i '%s' 2>/dev/null", path), *line, *nl;
	int cpu, pid, sw_cpu = -1, sw_pid = -1, bad = 0, checked = 0;
	struct ns_sched *s = NULL;
	uint64_t ts;
	char err[256];

	if (!out || !strstr(out, " kernel_stack: "))
		goto out;
	s = ns_sched_build(t, NULL, err, sizeof(err));
	if (!s) {
		FAIL("sched analysis of %s: %s", name, err);
		goto out;
	}
	for (line = out; line && *line; line = nl ? nl + 1 : NULL) {
		const char *st;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (text_line(line, &cpu, &ts, &pid))
			continue;
		if (strstr(line, " sched_switch: ") && (st = strstr(line, " prev_state=")) &&
		    (!strncmp(st, " prev_state=1 ", 14) || !strncmp(st, " prev_state=2 ", 14))) {
			sw_cpu = cpu;
			sw_pid = pid;
			continue;
		}
		if (sw_cpu == cpu && pid == sw_pid && pid > 0 && strstr(line, " kernel_stack: ")) {
			struct ns_sched_ctx ctx;

			checked++;
			if (ns_sched_state_at(s, pid, ts, &ctx) ||
			    (ctx.state != NS_TS_SLEEPING && ctx.state != NS_TS_BLOCKED)) {
				if (bad++ < 3)
					printf("  pid %d at %.9f: %s\n", pid, ts / 1e9,
					       ns_task_state_name(ctx.state));
			}
		}
		if (sw_cpu == cpu)
			sw_cpu = -1;
	}
	if (checked)
		CHECK(!bad, "a stack trace after a sched_switch is not a switch-in: the task "
		      "switched out asleep is still asleep at its stack trace (%d of %d): %s",
		      checked - bad, checked, name);
out:
	ns_sched_free(s);
	free(out);
}

/*
 * sched-v6.dat, pid 18385: switched out R+ on CPU 0, it runs on CPU 1 with
 * no sched_switch recorded there. It is preempted until its first event on
 * CPU 1 for us; profile's sched_switch:W lasts until its next recorded
 * switch-in, across the sleep in between.
 */
static void check_unseen_switch_in(const char *path)
{
	char *out = slurp_cmd("trace-cmd report -t -R -i '%s' 2>/dev/null", path), *line, *nl;
	uint64_t out_ts = 0, seen_ts = 0, in_ts = 0, ts, w;
	struct ns_sched_stats *st = NULL;
	const struct ns_sched_task *k;
	struct ns_trace *t = NULL;
	int cpu, pid, out_cpu = -1;
	char err[256];

	for (line = out; line && *line && !in_ts; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (text_line(line, &cpu, &ts, &pid))
			continue;
		if (!out_ts && strstr(line, " prev_pid=18385 ") &&
		    strstr(line, "prev_state=256 ")) {
			out_ts = ts;
			out_cpu = cpu;
		} else if (out_ts && !seen_ts && pid == 18385 && cpu != out_cpu) {
			seen_ts = ts;
		} else if (out_ts && strstr(line, " next_pid=18385 ")) {
			in_ts = ts;
		}
	}
	w = profile_total(path, 18385, "sched_switch:W ");
	t = ns_trace_open(path, err, sizeof(err));
	if (!out_ts || !seen_ts || !in_ts || !t ||
	    ns_sched_stats_build(t, NULL, 0, UINT64_MAX, &st, err, sizeof(err)) ||
	    !(k = ns_sched_stats_task(st, 18385))) {
		FAIL("sched-v6.dat: pid 18385's events in report's text, and our stats");
		goto out;
	}
	CHECK(k->unseen_switches >= 1 && k->state_ns[NS_TS_PREEMPTED] == seen_ts - out_ts,
	      "a run with no switch-in: pid 18385 is preempted from its switch-out (%.6f) to "
	      "its first event on another CPU (%.6f), %" PRIu64 " ns", out_ts / 1e9, seen_ts / 1e9,
	      k->state_ns[NS_TS_PREEMPTED]);
	CHECK(w == in_ts - out_ts && w != k->state_ns[NS_TS_PREEMPTED],
	      "... where report --profile's sched_switch:W (%" PRIu64 ") lasts to its next "
	      "recorded switch-in (%.6f)", w, in_ts / 1e9);
out:
	ns_sched_stats_free(st);
	ns_trace_close(t);
	free(out);
}

/*
 * lost-events.dat, pid 11963: switched out S, then "CPU:0 [1725 EVENTS
 * DROPPED]", then woken. It sleeps for us until the last event before the
 * loss; the rest is not known.
 */
static void check_lost_sleep(const char *path)
{
	char *out = slurp_cmd("trace-cmd report -t -R -i '%s' 2>/dev/null", path), *line, *nl;
	uint64_t s_ts = 0, lo = 0, wake_ts = 0, ts, last0 = 0;
	struct ns_sched_stats *st = NULL;
	const struct ns_sched_task *k;
	struct ns_trace *t = NULL;
	int cpu, pid;
	char err[256];

	for (line = out; line && *line && !wake_ts; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(line, "CPU:0 [1725 EVENTS DROPPED]", 27) && s_ts) {
			lo = last0;
			continue;
		}
		if (text_line(line, &cpu, &ts, &pid))
			continue;
		if (cpu == 0)
			last0 = ts;
		if (strstr(line, " prev_pid=11963 ") && strstr(line, "prev_state=1 "))
			s_ts = ts, lo = 0;
		else if (lo && strstr(line, "sched_wakeup: ") && strstr(line, " pid=11963 "))
			wake_ts = ts;
	}
	t = ns_trace_open(path, err, sizeof(err));
	if (!s_ts || !lo || !wake_ts || !t ||
	    ns_sched_stats_build(t, NULL, s_ts, wake_ts + 1, &st, err, sizeof(err)) ||
	    !(k = ns_sched_stats_task(st, 11963))) {
		FAIL("lost-events.dat: pid 11963's events in report's text, and our stats");
		goto out;
	}
	CHECK(k->state_ns[NS_TS_SLEEPING] == lo - s_ts && k->unknown_ns == wake_ts - lo,
	      "a sleep across lost events: pid 11963 sleeps from %.6f to the last event before "
	      "the loss (%.6f), and is not known until its wakeup (%.6f): %" PRIu64 " + %" PRIu64
	      " ns", s_ts / 1e9, lo / 1e9, wake_ts / 1e9, k->state_ns[NS_TS_SLEEPING],
	      k->unknown_ns);
out:
	ns_sched_stats_free(st);
	ns_trace_close(t);
	free(out);
}

/* ---- the list of traces --------------------------------------------------- */

/* One trace of each name: ../shared's sample.dat is contrib's. */
static void add_glob(struct trace_list *l, const char *pattern)
{
	glob_t g;
	size_t i;
	int j;

	if (glob(pattern, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++) {
			for (j = 0; j < l->n; j++)
				if (!strcmp(base_name(l->path[j]), base_name(g.gl_pathv[i])))
					break;
			if (j == l->n)
				trace_list_add(l, g.gl_pathv[i]);
		}
		globfree(&g);
	}
}

static void load_traces(struct trace_list *l)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	const char *shared = check_shared();
	char buf[8192];

	l->n = 0;
	snprintf(buf, sizeof(buf), "%s/contrib/sample.dat", top);
	trace_list_add(l, buf);
	snprintf(buf, sizeof(buf), "%s/tests/data/*.dat", top);
	add_glob(l, buf);
	if (!shared) {
		SKIP("shared traces (sched-v6.dat, big.dat): %s not found",
		     getenv("NS_SHARED") ? getenv("NS_SHARED") : "../shared");
		return;
	}
	snprintf(buf, sizeof(buf), "%s/traces/*.dat", shared);
	add_glob(l, buf);
	snprintf(buf, sizeof(buf), "%s/traces/public/*.dat", shared);
	add_glob(l, buf);
}

int main(void)
{
	struct trace_list l;
	char err[256];
	int i;

	load_traces(&l);
	for (i = 0; i < l.n; i++) {
		const char *name = base_name(l.path[i]);
		struct ns_trace *t = ns_trace_open(l.path[i], err, sizeof(err));
		struct oracle o;
		uint64_t a, b, span;

		if (!t) {
			FAIL("open %s: %s", name, err);
			continue;
		}
		if (oracle_load(l.path[i], &o)) {
			FAIL("libtracecmd opens %s", name);
			ns_trace_close(t);
			continue;
		}
		if (!ns_trace_sched_has(t, NS_SCHED_SWITCH) || !o.nr_sw) {
			SKIP("%s has no sched_switch event: nothing to analyse", name);
			goto next;
		}
		a = ns_trace_first_ns(t);
		span = ns_trace_last_ns(t) - a;
		check_cpu_time(t, &o, 0, UINT64_MAX, -1, name, "over the whole trace");
		/* odd nanoseconds, so that both ends fall inside runs */
		b = a + span / 3 * 2 + 7;
		a += span / 3 + 1;
		check_cpu_time(t, &o, a, b, -1, name, "over the middle third");
		check_cpu_time(t, &o, a, b, o.top_cpus - 1, name,
			       "on the top buffer's last CPU (--cpu)");
		check_drops(t, &o, name);
		check_pieces(t, name);
		check_timeline_pieces(t, name);
		check_report_w(t, l.path[i], name);
		check_additive(t, name);
		check_stack_after_switch(t, l.path[i], name);
		/*
		 * The public traces come from other kernels and tracers: report
		 * --profile reads little of them, and some lack wakeups.
		 */
		if (strstr(l.path[i], "/public/"))
			goto next;
		check_profile(t, l.path[i], name);
		check_capture(t, l.path[i], name);
		check_timeline(t, name);
		if (!strcmp(name, "sched-v6.dat"))
			check_unseen_switch_in(l.path[i]);
		if (!strcmp(name, "lost-events.dat"))
			check_lost_sleep(l.path[i]);
next:
		oracle_free(&o);
		ns_trace_close(t);
	}
	return check_failures ? 1 : 0;
}
