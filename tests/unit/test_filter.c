// SPDX-License-Identifier: GPL-2.0-only
/*
 * Filters against `trace-cmd report`: for task, event, system, CPU and
 * advanced (-F) filters, alone and together, on real traces, the rows the
 * list shows, printed by ns_trace_export_shown(), are byte for byte what
 * report prints with the same filter (-F, --cpu, -v; a task is report's
 * -F '.*: common_pid == PID'). Also the filter set's contract (what
 * sessions rely on), the list's navigation through shown rows, the graph's
 * bitmaps against a direct evaluation, and refused expressions.
 */
#include <errno.h>
#include <stdint.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "traces.h"
#include "../../src/trace/trace-int.h"	/* tep_shared: the contract of the threads */

static int have_report;

/* The whole output of a shell command, or NULL. */
static char *run(const char *cmd, size_t *len)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!p)
		return NULL;
	for (;;) {
		if (n + 65536 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 65536);

			if (!nb)
				break;
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, p);
		if (!got)
			break;
		n += got;
	}
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* What --export prints for the list of @fs. */
static char *export(struct ns_trace *trace, const struct ns_filter_set *fs, size_t *len,
		    struct ns_visible **vis_out)
{
	struct ns_visible *vis;
	char err[512], *buf = NULL;
	FILE *out;

	if (ns_visible_build(trace, fs, &vis, err, sizeof(err))) {
		printf("  visibility pass: %s\n", err);
		return NULL;
	}
	out = open_memstream(&buf, len);
	if (!out)
		return NULL;
	if (ns_trace_export_shown(trace, out, 0, ns_trace_nr_events(trace),
				  ns_visible_list_filtered(vis) ? (int (*)(const void *, uint64_t))
				  ns_visible_row : NULL, vis)) {
		fclose(out);
		free(buf);
		return NULL;
	}
	fclose(out);
	if (vis_out)
		*vis_out = vis;
	else
		ns_visible_free(vis);
	return buf;
}

static void add(struct ns_filter_set *fs, int kind, int mode, int where, int value,
		const char *name)
{
	struct ns_filter_entry e = {
		.kind = kind, .mode = mode, .where = where, .value = value, .name = name,
	};

	if (ns_filter_set_add(fs, &e))
		printf("  cannot add a filter entry\n");
}

/* Lines of report output that are events (not "cpus=" or dropped-events lines). */
static uint64_t event_lines(const char *buf, size_t len)
{
	uint64_t n = 0;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (strncmp(p, "cpus=", 5) && strncmp(p, "CPU:", 4) && strncmp(p, "=>", 2) &&
		    p[0] != '\n')
			n++;
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* @fs's list against `trace-cmd report @args`. */
static void against_report(struct ns_trace *trace, const char *path, const char *what,
			   const struct ns_filter_set *fs, const char *args)
{
	char cmd[8192];
	size_t la = 0, lb = 0;
	struct ns_visible *vis = NULL;
	char *a = export(trace, fs, &la, &vis), *b;

	snprintf(cmd, sizeof(cmd), "trace-cmd report %s -i '%s' 2>/dev/null", args, path);
	b = run(cmd, &lb);
	if (!a || !b) {
		FAIL("%s: %s: %s", base_name(path), what, !a ? "no export" : "trace-cmd report failed");
	} else if (la != lb || memcmp(a, b, la)) {
		size_t i = 0;

		while (i < la && i < lb && a[i] == b[i])
			i++;
		FAIL("%s: %s: the list differs from trace-cmd report %s (byte %zu of %zu/%zu)",
		     base_name(path), what, args, i, la, lb);
	} else {
		PASS("%s: %s: the list is trace-cmd report %s (%llu events)", base_name(path),
		     what, args, (unsigned long long)event_lines(b, lb));
	}
	/* the count the header shows is the number of lines */
	if (a && b && strstr(a, "\n=>") == NULL)
		CHECK(ns_visible_list_count(vis, ns_trace_nr_events(trace)) == event_lines(a, la),
		      "%s: %s: shown count is the number of events printed", base_name(path), what);
	ns_visible_free(vis);
	free(a);
	free(b);
}

/* The busiest pid other than idle, from the index. */
static int busiest_pid(const struct ns_trace *trace)
{
	static int count[1 << 16];
	int cpu, best = -1;
	uint64_t n, i;

	memset(count, 0, sizeof(count));
	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
		n = ns_trace_cpu_nr_events(trace, cpu);
		for (i = 0; i < n; i++) {
			int pid = ns_trace_ev_pid(trace, cpu, i);

			if (pid > 0 && pid < (1 << 16))
				count[pid]++;
		}
	}
	for (i = 1; i < (1 << 16); i++)
		if (count[i] && (best < 0 || count[i] > count[best]))
			best = (int)i;
	return best;
}

static int has_event(const struct ns_trace *trace, const char *sys, const char *name)
{
	return ns_trace_event_type(trace, sys, name) >= 0;
}

static void report_oracle(const char *path)
{
	char err[256], args[512], expr[256];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	struct ns_filter_set *fs;
	int pid, cpus;

	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	cpus = ns_trace_nr_cpus(trace);
	pid = busiest_pid(trace);
	fs = ns_filter_set_alloc();

	if (has_event(trace, "sched", "sched_switch")) {
		add(fs, NS_FILTER_EVENT, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "sched/sched_switch");
		against_report(trace, path, "only event sched_switch", fs, "-F sched/sched_switch");
		ns_filter_set_clear_entries(fs);
		add(fs, NS_FILTER_EVENT, NS_FILTER_HIDE, NS_FILTER_LIST, 0, "sched/sched_switch");
		against_report(trace, path, "hide event sched_switch", fs, "-v -F sched/sched_switch");
		ns_filter_set_clear_entries(fs);
		add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
		    "sched/sched_switch: prev_pid == 0 || next_comm ~ \"*sh*\"");
		against_report(trace, path, "advanced expression", fs,
			       "-F 'sched/sched_switch: prev_pid == 0 || next_comm ~ \"*sh*\"'");
		ns_filter_set_clear_entries(fs);
		/* two expressions are OR-ed; a -v one hides */
		add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
		    "sched/sched_switch: prev_pid == 0");
		add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "sched/sched_wakeup");
		add(fs, NS_FILTER_ADVANCED, NS_FILTER_HIDE, NS_FILTER_BOTH, 0,
		    "sched/sched_switch: next_pid == 0");
		against_report(trace, path, "two -F and a -v -F", fs,
			       "-F 'sched/sched_switch: prev_pid == 0' -F sched/sched_wakeup "
			       "-v -F 'sched/sched_switch: next_pid == 0'");
		ns_filter_set_clear_entries(fs);
	} else {
		SKIP("%s: no sched_switch events: event filters not checked", base_name(path));
	}
	if (has_event(trace, "irq", "softirq_raise") || has_event(trace, "irq", "irq_handler_entry")) {
		add(fs, NS_FILTER_SYSTEM, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "irq");
		against_report(trace, path, "only system irq", fs, "-F 'irq/.*'");
		ns_filter_set_clear_entries(fs);
		add(fs, NS_FILTER_SYSTEM, NS_FILTER_HIDE, NS_FILTER_BOTH, 0, "irq");
		against_report(trace, path, "hide system irq", fs, "-v -F 'irq/.*'");
		ns_filter_set_clear_entries(fs);
	}
	if (cpus > 1) {
		add(fs, NS_FILTER_CPU, NS_FILTER_SHOW, NS_FILTER_BOTH, cpus - 1, NULL);
		snprintf(args, sizeof(args), "--cpu %d", cpus - 1);
		against_report(trace, path, "only the last CPU", fs, args);
		ns_filter_set_clear_entries(fs);
		add(fs, NS_FILTER_CPU, NS_FILTER_HIDE, NS_FILTER_BOTH, 0, NULL);
		snprintf(args, sizeof(args), "--cpu 1-%d", cpus - 1);
		against_report(trace, path, "hide CPU 0", fs, args);
		ns_filter_set_clear_entries(fs);
	}
	if (pid > 0) {
		add(fs, NS_FILTER_TASK, NS_FILTER_SHOW, NS_FILTER_LIST, pid, NULL);
		snprintf(args, sizeof(args), "-F '.*: common_pid == %d'", pid);
		against_report(trace, path, "only the busiest task", fs, args);
		ns_filter_set_clear_entries(fs);
		add(fs, NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, pid, NULL);
		add(fs, NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, 0, NULL);
		snprintf(args, sizeof(args), "-v -F '.*: common_pid == %d || common_pid == 0'", pid);
		against_report(trace, path, "hide two tasks", fs, args);
		ns_filter_set_clear_entries(fs);
		/* every kind at once */
		if (cpus > 1 && has_event(trace, "sched", "sched_switch")) {
			add(fs, NS_FILTER_CPU, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, NULL);
			add(fs, NS_FILTER_EVENT, NS_FILTER_HIDE, NS_FILTER_BOTH, 0,
			    "sched/sched_switch");
			add(fs, NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, pid, NULL);
			snprintf(expr, sizeof(expr), ".*: common_pid == %d", pid);
			snprintf(args, sizeof(args), "--cpu 0 -v -F sched/sched_switch -F '%s'", expr);
			against_report(trace, path, "CPU, event and task together", fs, args);
			ns_filter_set_clear_entries(fs);
		}
	}
	/* filters of the graph alone leave the list whole */
	add(fs, NS_FILTER_CPU, NS_FILTER_SHOW, NS_FILTER_GRAPH, 0, NULL);
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_HIDE, NS_FILTER_GRAPH, 0, "sched");
	against_report(trace, path, "graph-only filters", fs, "");
	ns_filter_set_free(fs);
	ns_trace_close(trace);
}

static struct {
	int ours, some;
	uint64_t by_pid;
} fast_total;

/*
 * The matching of src/trace/exprs.c, which evaluates most conditions
 * itself, against libtraceevent's tep_filter_match() on every event: each
 * expression that the trace's formats take, with how many of its events'
 * parts we evaluate (at least one for most: else the comparison would test
 * only libtraceevent against itself) and how many events match (some must,
 * for some expressions, and some must not).
 */
static const char *const fast_exprs[] = {
	".*: common_pid == 1",
	".*: common_pid != 0 && common_preempt_count & 0xf",
	".*: common_flags & 1 || !(common_pid > 100)",
	"sched/sched_switch: prev_prio > -1 && next_prio < 120",
	/* the edges: equal values (prio 120 is common), a signed -1 past 2^32 */
	"sched/sched_switch: next_prio > 120 || prev_prio <= 100 || prev_prio >= 139",
	"sched/sched_switch: next_prio >= 120 && prev_prio < 120",
	"workqueue/workqueue_queue_work: cpu > 5000000000 && req_cpu >= 256",
	"workqueue/workqueue_queue_work: cpu == -1",	/* parsed as arithmetic, not a comparison */
	/* arithmetic parses only as a condition of its own (non-zero) */
	"sched/sched_switch: prev_pid % 7 && prev_pid >> 1 || prev_pid / 3 && !(prev_pid ^ 3)",
	"sched/sched_switch: prev_pid - 1 && (prev_pid << 1 || next_pid * 2) && next_pid | 1",
	"sched/sched_switch: prev_pid & 3 && next_pid & 1",
	"sched/sched_switch: prev_pid >> 65 && next_pid << 64",	/* shifts by r % 64 */
	"sched/sched_switch: prev_state & 2 || prev_state > 64",
	"sched/sched_switch: prev_comm == \"swapper/0\" || next_comm != \"bash\"",
	"sched/sched_switch: prev_comm =~ \"^kworker\" || next_comm !~ \"^s\"",
	"sched/sched_wakeup: target_cpu != 0 && prio < 130",
	"sched/sched_waking: pid > 1000 && comm =~ \"sh$\"",
	"irq/irq_handler_entry: irq >= 3",
	"irq/softirq_entry: vec == 1 || vec == 7",
	"timer/.*: common_pid == 0",
	".*: COMM == \"bash\"",
	".*: CPU == 1",
	"sched/sched_process_exec: filename =~ \"sh\"",
	/* common_pid alone: answered from the index's pid (ns_trace_exprs_match_pid()) */
	".*: common_pid > 100 && common_pid < 2000",
	".*: !(common_pid & 1) || common_pid == 36",
	"sched/sched_switch: common_pid != 0 && prev_pid > 0",
};

static void fast_matches(const char *path)
{
	char err[256];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	size_t e;
	int cpu;

	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	for (e = 0; e < sizeof(fast_exprs) / sizeof(fast_exprs[0]); e++) {
		struct ns_trace_exprs *f = ns_trace_exprs_alloc(trace);
		struct tep_event_filter *theirs = tep_filter_alloc(trace->tep);
		uint64_t events = 0, matched = 0, differ = 0, by_pid = 0, n, idx;
		int ours;

		if (!f || !theirs || ns_trace_exprs_add(f, fast_exprs[e], err, sizeof(err)) < 0 ||
		    tep_filter_add_filter_str(theirs, fast_exprs[e]) < 0) {
			/* only an event this trace lacks may refuse it */
			if (!strncmp(fast_exprs[e], ".*:", 3))
				FAIL("%s: '%s' is refused: %s", base_name(path), fast_exprs[e], err);
			ns_trace_exprs_free(f);
			if (theirs)
				tep_filter_free(theirs);
			continue;
		}
		ours = ns_trace_exprs_parts_ours(f, 0);
		for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
			n = ns_trace_cpu_nr_events(trace, cpu);
			for (idx = 0; idx < n; idx++) {
				struct tep_record *rec;
				struct ns_event ev;
				uint64_t m = 0;
				int want;

				if (ns_trace_exprs_match(f, cpu, idx, 1, &m))
					break;
				rec = ns_trace_read(trace, cpu, idx);
				if (!rec)
					break;
				want = tep_filter_match(theirs, rec);
				want = want == TEP_ERRNO__FILTER_MATCH || want == TEP_ERRNO__NO_FILTER;
				ns_trace_read_done(trace, rec);
				/* and from the index's pid alone, where that answers */
				if (!ns_trace_event(trace, cpu, idx, &ev) &&
				    ns_trace_exprs_pid_only(f, 0, ev.type)) {
					uint64_t mp = 0;

					by_pid++;
					if (ns_trace_exprs_match_pid(f, ev.type, ev.pid, 1, &mp) ||
					    (mp & 1) != (uint64_t)want)
						differ++;
				}
				events++;
				matched += m & 1;
				differ += (m & 1) != (uint64_t)want;
			}
		}
		CHECK(!differ && events == ns_trace_nr_events(trace),
		      "%s: '%s': matches as libtraceevent's on every event (%llu of %llu "
		      "matched, %llu differ; %d events' parts evaluated here, %llu events from "
		      "the index's pid)", base_name(path),
		      fast_exprs[e], (unsigned long long)matched, (unsigned long long)events,
		      (unsigned long long)differ, ours, (unsigned long long)by_pid);
		fast_total.ours += ours > 0;
		fast_total.by_pid += by_pid;
		fast_total.some += matched > 0 && matched < events;
		ns_trace_exprs_free(f);
		tep_filter_free(theirs);
	}
	ns_trace_close(trace);
}

/* The stack traces that follow a shown event, as report 3.1.6 shows them. */
static void stack_traces(void)
{
	const char *shared = check_shared();
	char path[4096], err[256];
	struct ns_filter_set *fs;
	struct ns_trace *trace;

	if (!shared) {
		SKIP("stack traces after filtered events: no shared traces");
		return;
	}
	snprintf(path, sizeof(path), "%s/traces/public/lanhaocoder__LanGraph__trace.dat", shared);
	trace = access(path, R_OK) ? NULL : ns_trace_open(path, err, sizeof(err));
	if (!trace) {
		SKIP("stack traces after filtered events: %s is not there", base_name(path));
		return;
	}
	fs = ns_filter_set_alloc();
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "sched/sched_waking");
	against_report(trace, path, "kernel_stack after shown events", fs,
		       "-F sched/sched_waking");
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_HIDE, NS_FILTER_BOTH, 0,
	    "sched/sched_waking: pid > 1000");
	against_report(trace, path, "kernel_stack after a -v", fs,
		       "-F sched/sched_waking -v -F 'sched/sched_waking: pid > 1000'");
	ns_filter_set_free(fs);
	ns_trace_close(trace);
}

/* ---- streams: the buffers of a file with instances --------------------------- */

/*
 * The export of @fs against report's lines of instance.dat, kept or dropped
 * by their "extra: " prefix (report 3.1.6 -F crashes on files with
 * instances, so its unfiltered lines are the oracle); a lost-events line
 * goes with the event line after it.
 */
static void stream_against_report(struct ns_trace *trace, const char *path, const char *what,
				  const struct ns_filter_set *fs, const char *grep)
{
	char cmd[8192];
	size_t la = 0, lb = 0;
	char *a = export(trace, fs, &la, NULL), *b;

	snprintf(cmd, sizeof(cmd), "trace-cmd report '%s' 2>/dev/null | awk '/^ *([A-Za-z0-9_.-]+: "
		 ")?CPU:[0-9]+ \\[([0-9]+ )?EVENTS DROPPED\\]$/ { hold = $0 \"\\001\"; next } "
		 "{ print hold $0; hold = \"\" }' | grep -a %s | tr '\\001' '\\n'", path, grep);
	b = run(cmd, &lb);
	if (!a || !b)
		FAIL("instance.dat: %s: %s", what, !a ? "no export" : "trace-cmd report failed");
	else
		CHECK(la == lb && !memcmp(a, b, la), "instance.dat: %s: the list is report's lines "
		      "| grep %s (%zu bytes, want %zu)", what, grep, la, lb);
	free(a);
	free(b);
}

static void stream_filters(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	char path[4096], err[256];
	struct ns_filter_set *fs;
	struct ns_visible *vis = NULL;
	struct ns_trace *trace;
	uint64_t top_events = 0, extra_events = 0;
	int first, nr, cpu, extra, ok;

	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	trace = ns_trace_open(path, err, sizeof(err));
	if (!trace) {
		FAIL("open instance.dat: %s", err);
		return;
	}
	extra = ns_trace_stream_of_name(trace, "extra");
	first = ns_trace_stream_first_cpu(trace, extra, &nr);
	CHECK(extra == 1 && nr > 0, "instance.dat: the stream extra is there (slots %d..%d)", first,
	      first + nr - 1);
	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
		if (ns_trace_cpu_stream(trace, cpu) == extra)
			extra_events += ns_trace_cpu_nr_events(trace, cpu);
		else
			top_events += ns_trace_cpu_nr_events(trace, cpu);
	}
	ns_filter_stream_name(trace, 0, err, sizeof(err));
	CHECK(!strcmp(err, "top"), "a stream filter names the top buffer 'top' (got '%s')", err);

	fs = ns_filter_set_alloc();
	add(fs, NS_FILTER_STREAM, NS_FILTER_HIDE, NS_FILTER_BOTH, 0, "extra");
	if (have_report)
		stream_against_report(trace, path, "hide stream extra", fs, "-v '^extra: '");
	if (!ns_visible_build(trace, fs, &vis, err, sizeof(err))) {
		CHECK(ns_visible_list_count(vis, ns_trace_nr_events(trace)) == top_events,
		      "hide extra: the list shows the top buffer's %llu events",
		      (unsigned long long)top_events);
		ok = 1;
		for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
			uint64_t n = ns_trace_cpu_nr_events(trace, cpu);
			int in_extra = ns_trace_cpu_stream(trace, cpu) == extra;

			ok &= ns_visible_graph_cpu(vis, cpu) == !in_extra;
			ok &= ns_visible_graph_count(vis, cpu, 0, n) == (in_extra ? 0 : n);
		}
		CHECK(ok, "hide extra: the graph draws no event of extra's CPUs, all of the others");
	} else {
		FAIL("hide extra: %s", err);
	}
	ns_visible_free(vis);
	vis = NULL;

	/* the later choice wins; and a list-only entry leaves the graph alone */
	add(fs, NS_FILTER_STREAM, NS_FILTER_SHOW, NS_FILTER_LIST, 0, "extra");
	CHECK(ns_filter_set_nr_entries(fs) == 1, "show extra after hide extra replaces it");
	if (have_report)
		stream_against_report(trace, path, "show only stream extra (list)", fs,
				      "-E '^(cpus=|extra: )'");
	if (!ns_visible_build(trace, fs, &vis, err, sizeof(err))) {
		CHECK(ns_visible_list_count(vis, ns_trace_nr_events(trace)) == extra_events &&
		      !ns_visible_graph_filtered(vis),
		      "show extra in the list: %llu events listed, the graph unfiltered",
		      (unsigned long long)extra_events);
	} else {
		FAIL("show extra: %s", err);
	}
	ns_visible_free(vis);
	vis = NULL;

	/* with a CPU filter: both categories must keep a slot */
	add(fs, NS_FILTER_CPU, NS_FILTER_SHOW, NS_FILTER_LIST, 0, NULL);
	if (!ns_visible_build(trace, fs, &vis, err, sizeof(err)))
		CHECK(ns_visible_list_count(vis, ns_trace_nr_events(trace)) == 0,
		      "only extra and only slot 0 (the top's CPU0): nothing is listed");
	ns_visible_free(vis);
	vis = NULL;

	ns_filter_set_clear_entries(fs);
	add(fs, NS_FILTER_STREAM, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "nosuch");
	if (!ns_visible_build(trace, fs, &vis, err, sizeof(err)))
		CHECK(ns_visible_list_count(vis, ns_trace_nr_events(trace)) == 0,
		      "only a stream the trace does not have: nothing is listed");
	ns_visible_free(vis);
	ns_filter_set_free(fs);
	ns_trace_close(trace);
}

/* ---- the filter set: what sessions rely on ------------------------------------ */

static void set_contract(void)
{
	struct ns_filter_set *fs = ns_filter_set_alloc(), *copy = ns_filter_set_alloc();
	struct ns_filter_entry e;
	struct ns_search_spec spec = { .column = NS_SEARCH_TASK, .mode = NS_SEARCH_EXACT };
	uint64_t gen;
	int i, ok;

	gen = ns_filter_set_generation(fs);
	add(fs, NS_FILTER_TASK, NS_FILTER_SHOW, NS_FILTER_LIST, 42, NULL);
	CHECK(ns_filter_set_generation(fs) != gen, "set: a change bumps the generation");
	add(fs, NS_FILTER_TASK, NS_FILTER_SHOW, NS_FILTER_GRAPH, 42, NULL);
	ns_filter_set_entry(fs, 0, &e);
	CHECK(ns_filter_set_nr_entries(fs) == 1 && e.where == NS_FILTER_BOTH,
	      "set: the same entry for another pane merges its where bits");
	add(fs, NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_LIST, 42, NULL);
	ns_filter_set_entry(fs, 0, &e);
	CHECK(ns_filter_set_nr_entries(fs) == 1 && e.mode == NS_FILTER_HIDE &&
	      e.where == NS_FILTER_LIST, "set: the opposite mode on the same task replaces it");
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "sched");
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_HIDE, NS_FILTER_BOTH, 0, "sched");
	CHECK(ns_filter_set_nr_entries(fs) == 3,
	      "set: an expression may be both shown and hidden, as report -F x -v -F x");
	add(fs, NS_FILTER_EVENT, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, "sched/sched_switch");
	add(fs, NS_FILTER_CPU, NS_FILTER_SHOW, NS_FILTER_BOTH, 3, NULL);
	e.kind = NS_FILTER_EVENT;
	e.name = NULL;
	CHECK(ns_filter_set_add(fs, &e) == -EINVAL, "set: an event without a name is refused");
	e.kind = NS_FILTER_CPU;
	e.value = -1;
	CHECK(ns_filter_set_add(fs, &e) == -EINVAL, "set: a negative CPU is refused");
	e.value = 1;
	e.where = 0;
	CHECK(ns_filter_set_add(fs, &e) == -EINVAL, "set: an entry that applies nowhere is refused");
	ns_filter_set_add_task_row(fs, 7);
	ns_filter_set_add_task_row(fs, 5);
	ns_filter_set_add_task_row(fs, 7);
	CHECK(ns_filter_set_nr_task_rows(fs) == 2 && ns_filter_set_task_row(fs, 0) == 7 &&
	      ns_filter_set_task_row(fs, 1) == 5, "set: task rows keep their order, once each");
	ns_filter_set_hide_cpu(fs, 9, 1);
	CHECK(ns_filter_set_cpu_hidden(fs, 9) && !ns_filter_set_cpu_hidden(fs, 8) &&
	      ns_filter_set_cpu_limit(fs) == 10, "set: hidden CPU rows enumerate up to the limit");
	snprintf(spec.text, sizeof(spec.text), "gzip");
	ns_filter_set_save_search(fs, &spec);
	CHECK(!ns_filter_set_copy(copy, fs) && ns_filter_set_same_entries(copy, fs) &&
	      ns_filter_set_nr_task_rows(copy) == 2 && ns_filter_set_cpu_hidden(copy, 9),
	      "set: a copy has the same entries, task rows and CPU rows");
	memset(&spec, 0, sizeof(spec));
	CHECK(!ns_filter_set_saved_search(copy, &spec) && !strcmp(spec.text, "gzip") &&
	      spec.mode == NS_SEARCH_EXACT, "set: a copy has the last search");
	ns_filter_set_remove(copy, 0);
	CHECK(!ns_filter_set_same_entries(copy, fs), "set: removing an entry makes the sets differ");
	ok = 1;
	for (i = 0; i < NS_NR_FILTER_KINDS; i++)
		ok &= ns_filter_kind_from_name(ns_filter_kind_name(i)) == i;
	for (i = 0; i < NS_NR_SEARCH_COLUMNS; i++)
		ok &= ns_search_column_from_name(ns_search_column_name(i)) == i;
	for (i = 0; i < NS_NR_SEARCH_MODES; i++)
		ok &= ns_search_mode_from_name(ns_search_mode_name(i)) == i;
	ok &= ns_filter_where_from_name("both") == NS_FILTER_BOTH &&
	      ns_filter_where_from_name("nowhere") == -1;
	CHECK(ok, "set: every name reads back to its value");
	ns_filter_set_clear_entries(fs);
	CHECK(!ns_filter_set_nr_entries(fs) && ns_filter_set_nr_task_rows(fs) == 2,
	      "set: clearing the entries keeps the task rows");
	ns_filter_set_free(fs);
	ns_filter_set_free(copy);
}

static void parse_list(void)
{
	char err[128];
	int *v, n;

	n = ns_filter_parse_list("0,2-5,7", &v, err, sizeof(err));
	CHECK(n == 6 && v[0] == 0 && v[1] == 2 && v[4] == 5 && v[5] == 7,
	      "cpu list 0,2-5,7 as report --cpu reads it");
	free(v);
	CHECK(ns_filter_parse_list("3-1", &v, err, sizeof(err)) == -EINVAL &&
	      ns_filter_parse_list("a", &v, err, sizeof(err)) == -EINVAL &&
	      ns_filter_parse_list("", &v, err, sizeof(err)) == -EINVAL,
	      "bad cpu lists are refused");
}

/* ---- the list through filters, the graph's bitmaps, refusals -------------------- */

static void view_and_graph(const char *path)
{
	char err[512];
	struct ns_trace *trace = ns_trace_open(path, err, sizeof(err));
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_visible *vis;
	struct ns_view view;
	uint64_t n, k, row, shown = 0, bad = 0;
	int cpu, pid, ok;

	if (!trace) {
		FAIL("%s: open: %s", base_name(path), err);
		return;
	}
	n = ns_trace_nr_events(trace);
	pid = busiest_pid(trace);
	add(fs, NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_BOTH, pid, NULL);
	add(fs, NS_FILTER_CPU, NS_FILTER_HIDE, NS_FILTER_LIST, 0, NULL);
	if (ns_visible_build(trace, fs, &vis, err, sizeof(err)) || !vis) {
		FAIL("%s: visibility: %s", base_name(path), err);
		return;
	}
	/* rank and select are inverse, and agree with the bits */
	ok = 1;
	for (row = 0, k = 0; row < n; row++) {
		if (!ns_visible_row(vis, row))
			continue;
		ok &= ns_visible_shown_before(vis, row) == k &&
		      ns_visible_nth_shown_row(vis, k, n) == row;
		k++;
	}
	CHECK(ok && k == ns_visible_list_count(vis, n) && ns_visible_nth_shown_row(vis, k, n) == n,
	      "%s: list rank and select over every shown row", base_name(path));

	/* walking the view down visits exactly the shown rows, in order */
	ns_view_init(&view, trace, 100, 20);
	ns_view_set_visible(&view, vis);
	ns_view_select(&view, 0);
	row = view.selected;
	shown = 1;
	for (;;) {
		struct ns_pos pos;
		struct ns_event evb;
		const struct ns_event *ev = test_row_ev(trace, view.selected, &pos, &evb);

		if (!ev || ev->pid == pid || pos.cpu == 0)
			bad++;
		ns_view_move(&view, 1);
		if (view.selected == row)
			break;
		if (view.selected < row)
			bad++;
		row = view.selected;
		shown++;
		if (view.selected < view.list_top ||
		    ns_view_list_pos_of_row(&view, view.selected) >=
		    ns_view_list_pos_of_row(&view, view.list_top) + 20)
			bad++;
	}
	CHECK(!bad && shown == ns_visible_list_count(vis, n),
	      "%s: moving down the list visits the %llu shown rows, none hidden", base_name(path),
	      (unsigned long long)shown);
	ns_view_page(&view, -40);
	CHECK(ns_visible_row(vis, view.selected) &&
	      ns_view_list_pos_of_row(&view, view.selected) == shown - 41,
	      "%s: a page up moves 40 shown rows", base_name(path));
	ns_view_free(&view);

	/* the graph: a bit per event, and counts over ranges */
	ok = 1;
	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
		uint64_t i, count = 0;

		k = ns_trace_cpu_nr_events(trace, cpu);
		for (i = 0; i < k; i++) {
			int want = test_ev(trace, cpu, i).pid != pid;

			ok &= ns_visible_graph_event(vis, cpu, i) == want;
			ok &= ns_visible_list_event(vis, cpu, i) == (want && cpu != 0);
			count += want;
		}
		ok &= ns_visible_graph_count(vis, cpu, 0, k) == count;
		ok &= ns_visible_graph_cpu(vis, cpu);
	}
	CHECK(ok, "%s: graph and per-CPU list bits against the filters evaluated directly",
	      base_name(path));
	CHECK(!ns_visible_graph_task(vis, pid) && ns_visible_graph_task(vis, pid + 1),
	      "%s: the graph hides the hidden task", base_name(path));

	/* the CPU rows' bins: marks where a shown event is, never the hidden task's colour */
	ns_view_init(&view, trace, 150, 20);
	ns_view_set_visible(&view, vis);
	ok = 1;
	for (k = 0; k < 3 && ok; k++) {
		struct ns_bin bins[150];

		if (k == 1)
			ns_view_zoom(&view, 5);
		if (k == 2)
			ns_view_pan(&view, 37);
		for (cpu = 0; cpu < ns_trace_nr_cpus(trace) && ok; cpu++) {
			uint64_t count = ns_trace_cpu_nr_events(trace, cpu);
			int col;

			ns_view_bins_cpu(&view, cpu, bins);
			for (col = 0; col < view.cols && ok; col++) {
				uint64_t a = ns_window_col_ns(view.start_ns, view.end_ns, view.cols, col);
				uint64_t b = ns_window_col_ns(view.start_ns, view.end_ns, view.cols,
							      col + 1), i;
				int want = 0;

				if (b <= a)
					b = a + 1;
				for (i = ns_trace_cpu_lower_bound(trace, cpu, a);
				     i < count && test_ev(trace, cpu, i).ts_ns < b && !want; i++)
					want = test_ev(trace, cpu, i).pid != pid;
				ok = !!(bins[col].flags & NS_BIN_EVENTS) == want && bins[col].pid != pid;
				if (!ok)
					printf("  cpu %d column %d: flags %d pid %d, want events %d\n", cpu,
					       col, bins[col].flags, bins[col].pid, want);
			}
		}
	}
	CHECK(ok, "%s: graph bins mark shown events only and never take the hidden task",
	      base_name(path));
	ns_view_free(&view);
	ns_visible_free(vis);

	/* a refused expression: libtraceevent's message, naming the expression */
	ns_filter_set_clear_entries(fs);
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
	    "sched/sched_switch: (prev_pid == 1");
	err[0] = '\0';
	CHECK(ns_visible_build(trace, fs, &vis, err, sizeof(err)) == -EINVAL && !vis &&
	      strstr(err, "(prev_pid == 1") && strstr(err, "Unbalanced"),
	      "%s: a bad expression is refused with libtraceevent's message: %s", base_name(path),
	      err);
	/* one that crashes libtraceevent's parser (and trace-cmd report) is refused too */
	ns_filter_set_clear_entries(fs);
	add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
	    "sched/sched_switch: prev_pid ==");
	CHECK(ns_visible_build(trace, fs, &vis, err, sizeof(err)) == -EINVAL && !vis,
	      "%s: an expression that crashes libtraceevent is refused: %s", base_name(path),
	      err);
	ns_filter_set_clear_entries(fs);
	CHECK(!ns_visible_build(trace, fs, &vis, err, sizeof(err)) && !vis,
	      "%s: no entries, nothing to filter", base_name(path));
	ns_filter_set_free(fs);
	ns_trace_close(trace);
}

/*
 * A pass over a big trace with an expression runs in threads, CPU by CPU
 * (visible.c): on big.dat (5.4 M events) its verdicts must be the pids the
 * index holds, row by row in the list and event by event in the graph,
 * for a show and a hide expression; and a pass freed half-way must not hang.
 */
/*
 * big.dat's -F pass in threads, with the whole index in memory, then under
 * --index-memory 8M (@budget), where the threads read each page once (the
 * index's chunks dropped are not read again for the events' pids) and
 * the list's rows are merged only where a stride of them is neither all
 * shown nor all hidden.
 */
static void parallel_pass(uint64_t budget)
{
	struct ns_trace_open_opts opts = { .index_memory = budget };
	const char *shared = check_shared();
	char path[4096], err[512];
	struct ns_trace *t;
	int mode;

	if (!shared)
		return;
	snprintf(path, sizeof(path), "%s/traces/big.dat", shared);
	t = access(path, R_OK) ? NULL : ns_trace_open_async_opts(path, &opts, err, sizeof(err));
	if (t && ns_trace_wait(t, err, sizeof(err))) {
		ns_trace_close(t);
		t = NULL;
	}
	if (!t) {
		SKIP("parallel pass: %s not there", path);
		return;
	}
	/*
	 * The pass's threads call libtraceevent without the tep lock: only
	 * after the index filled its lazy tables (fill_tep_tables()), which is
	 * when the trace gives readers, and it gives none without.
	 */
	CHECK(t->tep_shared && ns_trace_can_make_readers(t),
	      "the index filled libtraceevent's lazy tables before threads share the tep");
	t->tep_shared = false;
	{
		struct ns_trace_reader *r = ns_trace_reader_new(t);

		CHECK(!r && !ns_trace_can_make_readers(t),
		      "no reader for a thread while libtraceevent's lazy tables are not filled");
		ns_trace_reader_free(r);
	}
	t->tep_shared = true;
	for (mode = NS_FILTER_SHOW; mode <= NS_FILTER_HIDE; mode++) {
		struct ns_filter_set *fs = ns_filter_set_alloc();
		struct ns_visible *vis = NULL;
		struct ns_pos pos[4096];
		uint64_t row = 0, n = ns_trace_nr_events(t), bad = 0, shown = 0;
		uint64_t reloads = ns_trace_chunk_reloads(t);
		size_t got, i;

		add(fs, NS_FILTER_ADVANCED, mode, NS_FILTER_BOTH, 0, ".*: common_pid == 1");
		if (ns_visible_build(t, fs, &vis, err, sizeof(err)) || !vis) {
			FAIL("parallel pass: %s", err);
			ns_filter_set_free(fs);
			continue;
		}
		/* a pass over every chunk would read 84 again */
		reloads = ns_trace_chunk_reloads(t) - reloads;
		CHECK(reloads < 20, "%s, %s common_pid == 1: the pass read %llu chunks of the index "
		      "again", budget == UINT64_MAX ? "the whole index" : "under 8M",
		      mode == NS_FILTER_SHOW ? "show" : "hide", (unsigned long long)reloads);
		while (row < n && (got = ns_trace_rows(t, row, 4096, pos)) > 0)
			for (i = 0; i < got; i++, row++) {
				int want = (ns_trace_ev_pid(t, pos[i].cpu, pos[i].idx) == 1) ==
					   (mode == NS_FILTER_SHOW);

				shown += want;
				bad += ns_visible_row(vis, row) != want ||
				       ns_visible_graph_event(vis, pos[i].cpu, pos[i].idx) != want ||
				       ns_visible_list_event(vis, pos[i].cpu, pos[i].idx) != want;
			}
		CHECK(!bad && ns_visible_list_count(vis, n) == shown,
		      "parallel -F pass (%s common_pid == 1) agrees with the index on all %llu "
		      "events (%llu shown, %llu wrong)", mode == NS_FILTER_SHOW ? "show" : "hide",
		      (unsigned long long)n, (unsigned long long)shown, (unsigned long long)bad);
		ns_visible_free(vis);
		ns_filter_set_free(fs);
	}
	{
		struct ns_filter_set *fs = ns_filter_set_alloc();
		struct ns_visible_pass *pass = NULL;

		add(fs, NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0, ".*: common_pid == 1");
		if (!ns_visible_pass_begin(t, fs, &pass, err, sizeof(err)) && pass) {
			ns_visible_pass_step(pass, 1);
			ns_visible_pass_free(pass);	/* with its threads at work */
			PASS("a parallel pass freed while its threads run");
		} else {
			FAIL("parallel pass begin: %s", err);
		}
		ns_filter_set_free(fs);
	}
	ns_trace_close(t);
}

int main(void)
{
	struct trace_list l;
	size_t len;
	char *v;
	int i;

	set_contract();
	parse_list();
	trace_list_load(&l, 0);
	v = run("trace-cmd report --help 2>&1 | head -n 3 >/dev/null; command -v trace-cmd", &len);
	have_report = v && len;
	free(v);
	for (i = 0; i < l.n; i++) {
		view_and_graph(l.path[i]);
		if (have_report)
			report_oracle(l.path[i]);
		fast_matches(l.path[i]);
	}
	CHECK(fast_total.ours >= 10 && fast_total.some >= 10,
	      "filters: conditions evaluated here on %d expressions and traces, matching "
	      "some events but not all on %d", fast_total.ours, fast_total.some);
	CHECK(fast_total.by_pid > 100000, "filters: %llu events answered from the index's pid, "
	      "as libtraceevent answers from the record", (unsigned long long)fast_total.by_pid);
	parallel_pass(UINT64_MAX);
	parallel_pass(8ull << 20);
	stream_filters();
	if (have_report)
		stack_traces();
	else
		SKIP("filters against trace-cmd report: trace-cmd is not installed");
	return check_failures ? 1 : 0;
}
