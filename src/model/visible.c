// SPDX-License-Identifier: GPL-2.0-only
/*
 * The visibility pass: a filter set (filter_set.c) applied to a trace, once
 * per change of the set, into bitmaps that make filtered scrolling as fast
 * as unfiltered scrolling.
 *
 * Layout. The list's bitmap has a bit per row of the trace (the merged
 * order); the graph's has a bit per event of each CPU (the CPU's index
 * order). Each is a sparse struct ns_bitmap with a rank index (bitmap.c),
 * so that "how many shown rows come before row r" and "which row is the
 * k-th shown" cost a lookup and a few popcounts. A bitmap costs at most a
 * bit an event and 16 bytes per 4096 events (5 million events: 0.6 MiB
 * and 20 KiB), and a filter that keeps few events, or nearly all, costs
 * little more than the 16 bytes: one that keeps one event in a million of
 * 100 million costs 0.4 MiB a bitmap, not 12 MiB.
 *
 * The pass. Task, event, CPU and stream filters are decided from the index
 * alone (pid, type, cpu of struct ns_event; a stream is a group of CPU
 * slots), through per-type and per-CPU tables
 * built when the pass begins. Advanced expressions (report -F) need the
 * record only for the event types they test with a condition; those
 * records are read once for both panes. The rows are visited in the merged
 * order, in steps of a given budget, so that a caller can draw progress
 * between steps and cancel by freeing the pass.
 *
 * With advanced expressions the events are judged CPU by CPU in threads,
 * each reading its CPUs' pages once (where the index dropped an event's
 * chunk, its pid and type come from the page: ns_trace_event_r()); then
 * a sweep sets the list's bits by row. The order's checkpoints say which
 * events of each CPU make each stride of 1024 rows, so a stride whose
 * CPUs' bits are all clear, or all set, is set without merging its events
 * (which would read dropped chunks again); only the strides that mix shown
 * and hidden events are merged. Example: a filter that keeps 17 events of
 * 28 million merges at most 17 strides.
 *
 * Advanced expressions combine exactly as in trace-cmd 3.1.6's filter
 * (libtracecmd trace-filter.c): an event is shown if no show expression
 * exists or one matches, and no hide (-v) expression matches; an ftrace
 * kernel_stack or user_stack event that no show expression matches is still
 * shown when the last event on its CPU that passed the show expressions was
 * shown, so that a stack trace follows the event it belongs to. (Stacks
 * after a shown stack are shown too: 3.1.6 counts a stack as a shown event,
 * which trace-cmd 3.2 changed; report 3.1.6 is our oracle.)
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nurseshark/filter.h"
#include "nurseshark/trace.h"
#include "nurseshark/util.h"

#include "bitmap.h"

#define NS_PANES		2	/* 0: the graph, 1: the list */
#define PANE_GRAPH		0
#define PANE_LIST		1
#define NS_VISIBLE_CHUNK	4096	/* rows merged at a time */
#define NS_NR_TYPES		65536	/* event ids are 16 bits (common_type) */

/* ---- the compiled set ------------------------------------------------------ */

struct pane {
	bool active;			/* some entry applies to this pane */
	int *show_pids, nr_show_pids;	/* sorted */
	int *hide_pids, nr_hide_pids;
	size_t cap_show_pids, cap_hide_pids;
	uint8_t *type_ok;		/* NS_NR_TYPES entries; NULL: every type */
	uint8_t *cpu_ok;		/* nr_cpus entries; NULL: every CPU */
	uint64_t adv_show, adv_hide;	/* expressions of each mode, as bit masks */
};

struct ns_visible {
	uint64_t nr_events;
	int nr_cpus;
	struct pane pane[NS_PANES];
	bool list_filtered, graph_filtered;
	struct ns_bitmap list;		/* by row */
	struct ns_bitmap *list_cpu;	/* the same by CPU, by index (for jumps) */
	struct ns_bitmap *graph;	/* by CPU, by index */
};

enum { V_PASS, V_FAIL, V_MAYBE };

/* What the advanced expressions say about one type, per pane. */
struct type_verdict {
	uint8_t known;
	uint8_t show[NS_PANES], hide[NS_PANES];
	uint64_t maybe;			/* expressions that need the record */
	uint64_t by_pid;		/* of those, the ones the index's pid answers */
};

#define NS_PASS_MAX_THREADS	8
/*
 * What threads of a pass write at every event, each their own, is a cache
 * line apart (the report's last_printed of each CPU), or kept in a local
 * until the end (a worker's error): sharing a line, two threads that wrote
 * their own words at every event made it go back and forth between their
 * CPUs, a third of the pass' time on a 28 M-event v6 file.
 */
#define NS_CACHE_LINE		64

/* One thread of a parallel pass: its own reader and its own copy of the expressions. */
struct pass_worker {
	struct ns_visible_pass *pass;
	struct ns_trace_reader *reader;
	struct ns_trace_exprs *tf;
	pthread_t thread;
	bool started;
	int ret;
};

struct ns_visible_pass {
	struct ns_trace *trace;
	struct ns_visible *vis;
	struct ns_trace_exprs *tf;	/* NULL without advanced expressions */
	struct type_verdict *verdict;	/* NS_NR_TYPES entries, with tf */
	int stack_type[2];		/* ftrace kernel_stack, user_stack; -1 if absent */
	uint8_t *last_shown[NS_PANES];	/* per CPU, a line apart: report's last_printed */
	uint64_t row;
	bool complete;
	/*
	 * With advanced expressions, where the file is read by the fast
	 * reader and there is more than one CPU to run on: threads judge the
	 * events CPU by CPU (a CPU's verdicts depend only on its own events),
	 * then the list's bits by row are set from the CPUs' in one sweep.
	 */
	struct pass_worker workers[NS_PASS_MAX_THREADS];
	int nr_workers;			/* 0: judge row by row here */
	atomic_int next_cpu, workers_done;
	atomic_bool cancel;
	_Atomic uint64_t judged;	/* events judged by the threads */
	bool judging;			/* the threads run */
	/* the sweep: the CPUs' counts before a stride of rows, and after it */
	uint64_t *before, *after;
	bool swept_indexed;		/* list_cpu[] ranked for the sweep */
	struct ns_pos pos[NS_VISIBLE_CHUNK];
};

static void pane_free(struct pane *p)
{
	free(p->show_pids);
	free(p->hide_pids);
	free(p->type_ok);
	free(p->cpu_ok);
}

void ns_visible_free(struct ns_visible *vis)
{
	int i;

	if (!vis)
		return;
	for (i = 0; i < NS_PANES; i++)
		pane_free(&vis->pane[i]);
	ns_bitmap_free(&vis->list);
	for (i = 0; i < vis->nr_cpus; i++) {
		if (vis->graph)
			ns_bitmap_free(&vis->graph[i]);
		if (vis->list_cpu)
			ns_bitmap_free(&vis->list_cpu[i]);
	}
	free(vis->graph);
	free(vis->list_cpu);
	free(vis);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static bool has_pid(const int *pids, int n, int pid)
{
	return n && bsearch(&pid, pids, n, sizeof(int), cmp_int);
}

static int push_pid(int **pids, int *n, size_t *cap, int pid)
{
	if (NS_GROW(*pids, *cap, (size_t)*n + 1))
		return -ENOMEM;
	(*pids)[(*n)++] = pid;
	return 0;
}

/* Does event type @type belong to an event or system entry's name? */
static bool type_named(const struct ns_trace *trace, int type, const struct ns_filter_entry *e)
{
	const char *name = ns_trace_event_name(trace, type), *sys;
	const char *slash;

	if (e->kind == NS_FILTER_SYSTEM)
		return strcmp(ns_trace_event_system(trace, type), e->name) == 0;
	slash = strchr(e->name, '/');
	if (!slash)
		return strcmp(name, e->name) == 0;
	sys = ns_trace_event_system(trace, type);
	return strlen(sys) == (size_t)(slash - e->name) &&
	       strncmp(sys, e->name, slash - e->name) == 0 && strcmp(name, slash + 1) == 0;
}

static int build_type_table(struct ns_trace *trace, const struct ns_filter_set *fs, int pane,
			    struct pane *p)
{
	int n = ns_filter_set_nr_entries(fs), nt = ns_trace_nr_event_types(trace), i, k;
	bool any_show = false, any = false;
	struct ns_filter_entry e;

	for (i = 0; i < n; i++) {
		ns_filter_set_entry(fs, i, &e);
		if ((e.kind == NS_FILTER_EVENT || e.kind == NS_FILTER_SYSTEM) &&
		    (e.where & (1 << pane))) {
			any = true;
			any_show |= e.mode == NS_FILTER_SHOW;
		}
	}
	if (!any)
		return 0;
	/* types the formats do not define ("(NULL)") are in no show entry */
	p->type_ok = malloc(NS_NR_TYPES);
	if (!p->type_ok)
		return -ENOMEM;
	memset(p->type_ok, !any_show, NS_NR_TYPES);
	for (k = 0; k < nt; k++) {
		int type = ns_trace_event_type_at(trace, k);
		bool shown = false, hidden = false;

		if (type < 0 || type >= NS_NR_TYPES)
			continue;
		for (i = 0; i < n; i++) {
			ns_filter_set_entry(fs, i, &e);
			if ((e.kind != NS_FILTER_EVENT && e.kind != NS_FILTER_SYSTEM) ||
			    !(e.where & (1 << pane)) || !type_named(trace, type, &e))
				continue;
			if (e.mode == NS_FILTER_SHOW)
				shown = true;
			else
				hidden = true;
		}
		p->type_ok[type] = (!any_show || shown) && !hidden;
	}
	return 0;
}

/* 1 show-only, 2 hidden, 0 neither: what @fs's entries of @kind in @pane say of one thing. */
static int say_of(const struct ns_filter_set *fs, int pane, int kind, int value, const char *name)
{
	int n = ns_filter_set_nr_entries(fs), i, say = 0;
	struct ns_filter_entry e;

	for (i = 0; i < n; i++) {
		ns_filter_set_entry(fs, i, &e);
		if (e.kind != kind || !(e.where & (1 << pane)) ||
		    (name ? strcmp(e.name, name) : e.value != value))
			continue;
		if (e.mode == NS_FILTER_HIDE)
			return 2;	/* hidden wins */
		say = 1;
	}
	return say;
}

/* Are there entries of @kind in @pane, and show-only ones among them? */
static bool any_of(const struct ns_filter_set *fs, int pane, int kind, bool *any_show)
{
	int n = ns_filter_set_nr_entries(fs), i;
	struct ns_filter_entry e;
	bool any = false;

	*any_show = false;
	for (i = 0; i < n; i++) {
		ns_filter_set_entry(fs, i, &e);
		if (e.kind == kind && (e.where & (1 << pane))) {
			any = true;
			*any_show |= e.mode == NS_FILTER_SHOW;
		}
	}
	return any;
}

/*
 * The CPU and stream categories, slot by slot: a stream is a group of slots
 * (the trace's streams.c), so its entries end in the same table as the
 * CPUs', a slot kept when both categories keep it.
 */
static int build_cpu_table(struct ns_trace *trace, const struct ns_filter_set *fs, int pane,
			   struct pane *p)
{
	int nr_cpus = ns_trace_nr_cpus(trace), cpu, say;
	bool cpu_show, stream_show, by_cpu, by_stream;
	char name[64];

	by_cpu = any_of(fs, pane, NS_FILTER_CPU, &cpu_show);
	by_stream = any_of(fs, pane, NS_FILTER_STREAM, &stream_show);
	if (!by_cpu && !by_stream)
		return 0;
	p->cpu_ok = malloc(nr_cpus ? nr_cpus : 1);
	if (!p->cpu_ok)
		return -ENOMEM;
	memset(p->cpu_ok, 1, nr_cpus ? nr_cpus : 1);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (by_cpu) {
			say = say_of(fs, pane, NS_FILTER_CPU, cpu, NULL);
			if (say == 2 || (cpu_show && say != 1))
				p->cpu_ok[cpu] = 0;
		}
		if (by_stream) {
			ns_filter_stream_name(trace, ns_trace_cpu_stream(trace, cpu), name,
					      sizeof(name));
			say = say_of(fs, pane, NS_FILTER_STREAM, 0, name);
			if (say == 2 || (stream_show && say != 1))
				p->cpu_ok[cpu] = 0;
		}
	}
	return 0;
}

/* Compile @fs for one pane; advanced expressions get indexes in tf. */
static int compile_pane(struct ns_visible_pass *pass, const struct ns_filter_set *fs, int pane,
			const int *adv_index)
{
	struct pane *p = &pass->vis->pane[pane];
	int n = ns_filter_set_nr_entries(fs), i, ret;
	struct ns_filter_entry e;

	for (i = 0; i < n; i++) {
		ns_filter_set_entry(fs, i, &e);
		if (!(e.where & (1 << pane)))
			continue;
		p->active = true;
		if (e.kind == NS_FILTER_TASK) {
			if (e.mode == NS_FILTER_SHOW)
				ret = push_pid(&p->show_pids, &p->nr_show_pids, &p->cap_show_pids,
					       e.value);
			else
				ret = push_pid(&p->hide_pids, &p->nr_hide_pids, &p->cap_hide_pids,
					       e.value);
			if (ret)
				return ret;
		} else if (e.kind == NS_FILTER_ADVANCED) {
			if (e.mode == NS_FILTER_SHOW)
				p->adv_show |= 1ull << adv_index[i];
			else
				p->adv_hide |= 1ull << adv_index[i];
		}
	}
	if (p->nr_show_pids)
		qsort(p->show_pids, p->nr_show_pids, sizeof(int), cmp_int);
	if (p->nr_hide_pids)
		qsort(p->hide_pids, p->nr_hide_pids, sizeof(int), cmp_int);
	ret = build_type_table(pass->trace, fs, pane, p);
	if (!ret)
		ret = build_cpu_table(pass->trace, fs, pane, p);
	return ret;
}

/* Compile the advanced expressions (each distinct text once). */
static int compile_advanced(struct ns_visible_pass *pass, const struct ns_filter_set *fs,
			    int *adv_index, char *err, size_t err_len)
{
	int n = ns_filter_set_nr_entries(fs), i, j;
	struct ns_filter_entry e, o;
	char msg[512];

	for (i = 0; i < n; i++) {
		adv_index[i] = -1;
		ns_filter_set_entry(fs, i, &e);
		if (e.kind != NS_FILTER_ADVANCED)
			continue;
		for (j = 0; j < i; j++) {
			ns_filter_set_entry(fs, j, &o);
			if (o.kind == NS_FILTER_ADVANCED && !strcmp(o.name, e.name))
				adv_index[i] = adv_index[j];
		}
		if (adv_index[i] >= 0)
			continue;
		if (!pass->tf) {
			pass->tf = ns_trace_exprs_alloc(pass->trace);
			if (!pass->tf)
				return -ENOMEM;
		}
		adv_index[i] = ns_trace_exprs_add(pass->tf, e.name, msg, sizeof(msg));
		if (adv_index[i] < 0) {
			snprintf(err, err_len, "%s: %s", e.name, msg);
			return adv_index[i];
		}
	}
	return 0;
}

/* The advanced expressions' verdict on @type, computed on first use. */
static const struct type_verdict *verdict_of(struct ns_visible_pass *pass, int type)
{
	struct type_verdict *v = &pass->verdict[type];
	int pane, i, nr = ns_trace_exprs_nr(pass->tf);
	uint8_t say[NS_TRACE_EXPRS_MAX];

	if (v->known)
		return v;
	for (i = 0; i < nr; i++) {
		say[i] = (uint8_t)ns_trace_exprs_type(pass->tf, i, type);
		if (say[i] == NS_TRACE_EXPRS_MAYBE && ns_trace_exprs_pid_only(pass->tf, i, type))
			v->by_pid |= 1ull << i;
	}
	for (pane = 0; pane < NS_PANES; pane++) {
		const struct pane *p = &pass->vis->pane[pane];
		bool always = false, maybe = false;

		v->show[pane] = V_PASS;
		if (p->adv_show) {
			for (i = 0; i < nr; i++) {
				if (!(p->adv_show & (1ull << i)))
					continue;
				always |= say[i] == NS_TRACE_EXPRS_ALWAYS;
				if (say[i] == NS_TRACE_EXPRS_MAYBE) {
					maybe = true;
					v->maybe |= 1ull << i;
				}
			}
			v->show[pane] = always ? V_PASS : maybe ? V_MAYBE : V_FAIL;
		}
		always = maybe = false;
		for (i = 0; i < nr; i++) {
			if (!(p->adv_hide & (1ull << i)))
				continue;
			always |= say[i] == NS_TRACE_EXPRS_ALWAYS;
			if (say[i] == NS_TRACE_EXPRS_MAYBE) {
				maybe = true;
				v->maybe |= 1ull << i;
			}
		}
		/* for a hide expression, FAIL means "hidden" */
		v->hide[pane] = always ? V_FAIL : maybe ? V_MAYBE : V_PASS;
	}
	v->known = 1;
	return v;
}

int ns_visible_pass_begin(struct ns_trace *trace, const struct ns_filter_set *fs,
			  struct ns_visible_pass **out, char *err, size_t err_len)
{
	int n = ns_filter_set_nr_entries(fs), nr_cpus = ns_trace_nr_cpus(trace), i, ret;
	uint64_t nr_events = ns_trace_nr_events(trace);
	struct ns_visible_pass *pass;
	struct ns_visible *vis;
	int *adv_index;

	*out = NULL;
	if (!n)
		return 0;
	pass = calloc(1, sizeof(*pass));
	adv_index = calloc(n, sizeof(*adv_index));
	vis = calloc(1, sizeof(*vis));
	ret = -ENOMEM;
	snprintf(err, err_len, "out of memory");
	if (!pass || !adv_index || !vis)
		goto fail;
	pass->trace = trace;
	pass->vis = vis;
	vis->nr_events = nr_events;
	vis->nr_cpus = nr_cpus;
	ret = compile_advanced(pass, fs, adv_index, err, err_len);
	if (ret)
		goto fail;
	for (i = 0; i < NS_PANES; i++) {
		ret = compile_pane(pass, fs, i, adv_index);
		if (ret)
			goto fail;
	}
	ret = -ENOMEM;
	vis->list_filtered = vis->pane[PANE_LIST].active;
	vis->graph_filtered = vis->pane[PANE_GRAPH].active;
	if (vis->list_filtered) {
		if (ns_bitmap_alloc(&vis->list, nr_events))
			goto fail;
		vis->list_cpu = calloc(nr_cpus > 0 ? (size_t)nr_cpus : 1, sizeof(*vis->list_cpu));
		if (!vis->list_cpu)
			goto fail;
		for (i = 0; i < nr_cpus; i++) {
			uint64_t count = ns_trace_cpu_nr_events(trace, i);

			if (ns_bitmap_alloc(&vis->list_cpu[i], count))
				goto fail;
		}
	}
	if (vis->graph_filtered) {
		vis->graph = calloc(nr_cpus > 0 ? (size_t)nr_cpus : 1, sizeof(*vis->graph));
		if (!vis->graph)
			goto fail;
		for (i = 0; i < nr_cpus; i++) {
			uint64_t count = ns_trace_cpu_nr_events(trace, i);

			if (ns_bitmap_alloc(&vis->graph[i], count))
				goto fail;
		}
	}
	if (pass->tf) {
		pass->verdict = calloc(NS_NR_TYPES, sizeof(*pass->verdict));
		for (i = 0; i < NS_PANES; i++)
			pass->last_shown[i] = calloc(nr_cpus > 0 ? (size_t)nr_cpus : 1,
						     NS_CACHE_LINE);
		if (!pass->verdict || !pass->last_shown[0] || !pass->last_shown[1])
			goto fail;
		pass->stack_type[0] = ns_trace_event_type(trace, "ftrace", "kernel_stack");
		pass->stack_type[1] = ns_trace_event_type(trace, "ftrace", "user_stack");
	}
	free(adv_index);
	err[0] = '\0';
	*out = pass;
	return 0;
fail:
	free(adv_index);
	if (pass) {
		pass->vis = vis;
		ns_visible_pass_free(pass);
	} else {
		ns_visible_free(vis);
	}
	return ret;
}

static void stop_workers(struct ns_visible_pass *pass);

void ns_visible_pass_free(struct ns_visible_pass *pass)
{
	int i;

	if (!pass)
		return;
	stop_workers(pass);
	ns_visible_free(pass->vis);
	ns_trace_exprs_free(pass->tf);
	free(pass->verdict);
	for (i = 0; i < NS_PANES; i++)
		free(pass->last_shown[i]);
	free(pass->before);
	free(pass->after);
	free(pass);
}

static bool cheap_ok(const struct pane *p, const struct ns_event *ev, int cpu)
{
	if (p->nr_show_pids && !has_pid(p->show_pids, p->nr_show_pids, ev->pid))
		return false;
	if (p->nr_hide_pids && has_pid(p->hide_pids, p->nr_hide_pids, ev->pid))
		return false;
	if (p->type_ok && !p->type_ok[(uint16_t)ev->type])
		return false;
	if (p->cpu_ok && !p->cpu_ok[cpu])
		return false;
	return true;
}

/* The advanced expressions' part, for one pane whose cheap filters let it through. */
static bool advanced_ok(struct ns_visible_pass *pass, int pane, const struct type_verdict *v,
			const struct ns_event *ev, int cpu, uint64_t match)
{
	const struct pane *p = &pass->vis->pane[pane];
	bool shown, hidden;

	shown = v->show[pane] == V_PASS ||
		(v->show[pane] == V_MAYBE && (match & p->adv_show));
	/* a stack trace right after a shown event belongs to it */
	if (!shown && (!pass->last_shown[pane][cpu * NS_CACHE_LINE] ||
		       (ev->type != pass->stack_type[0] && ev->type != pass->stack_type[1])))
		return false;
	hidden = v->hide[pane] == V_FAIL || (v->hide[pane] == V_MAYBE && (match & p->adv_hide));
	pass->last_shown[pane][cpu * NS_CACHE_LINE] = !hidden;
	return !hidden;
}

/*
 * Is event (cpu, idx) shown, pane by pane? Reads it through @reader with
 * @tf when the advanced expressions need the record.
 */
static int judge(struct ns_visible_pass *pass, struct ns_trace_exprs *tf,
		 struct ns_trace_reader *reader, int cpu, uint64_t idx, bool ok[NS_PANES])
{
	struct ns_visible *vis = pass->vis;
	const struct type_verdict *v;
	uint64_t match = 0, want_mask = 0;
	struct ns_event ev;
	int pane;

	if (reader)
		ns_trace_event_r(reader, cpu, idx, &ev);
	else
		ns_trace_event(pass->trace, cpu, idx, &ev);
	for (pane = 0; pane < NS_PANES; pane++)
		ok[pane] = vis->pane[pane].active && cheap_ok(&vis->pane[pane], &ev, cpu);
	if (!tf || !(ok[0] || ok[1]))
		return 0;
	v = verdict_of(pass, (uint16_t)ev.type);
	for (pane = 0; pane < NS_PANES; pane++)
		if (ok[pane] && (v->show[pane] == V_MAYBE || v->hide[pane] == V_MAYBE))
			want_mask |= v->maybe;
	if (want_mask) {
		int ret = -EAGAIN;

		/* common_pid alone: the index's pid answers, no record read */
		if (!(want_mask & ~v->by_pid))
			ret = ns_trace_exprs_match_pid(tf, ev.type, ev.pid, want_mask, &match);
		if (ret == -EAGAIN)
			ret = ns_trace_exprs_match_r(tf, reader, cpu, idx, want_mask, &match);
		if (ret)
			return ret;
	}
	for (pane = 0; pane < NS_PANES; pane++)
		if (ok[pane])
			ok[pane] = advanced_ok(pass, pane, v, &ev, cpu, match);
	return 0;
}

/* A thread of a parallel pass: whole CPUs, one after the other. */
static void *pass_worker_main(void *arg)
{
	struct pass_worker *w = arg;
	struct ns_visible_pass *pass = w->pass;
	struct ns_visible *vis = pass->vis;
	int cpu, ret = 0;

	while (!atomic_load_explicit(&pass->cancel, memory_order_relaxed)) {
		uint64_t n, idx, batch = 0;

		cpu = atomic_fetch_add_explicit(&pass->next_cpu, 1, memory_order_relaxed);
		if (cpu >= vis->nr_cpus)
			break;
		n = ns_trace_cpu_nr_events(pass->trace, cpu);
		for (idx = 0; idx < n && !ret; idx++) {
			bool ok[NS_PANES];

			ret = judge(pass, w->tf, w->reader, cpu, idx, ok);
			if (ok[PANE_LIST] && vis->list_filtered)
				ns_bitmap_set(&vis->list_cpu[cpu], idx);
			if (ok[PANE_GRAPH] && vis->graph_filtered)
				ns_bitmap_set(&vis->graph[cpu], idx);
			if (++batch == 4096) {
				atomic_fetch_add_explicit(&pass->judged, batch,
							  memory_order_relaxed);
				batch = 0;
				if (atomic_load_explicit(&pass->cancel, memory_order_relaxed))
					break;
			}
		}
		atomic_fetch_add_explicit(&pass->judged, batch, memory_order_relaxed);
		if (ret)
			break;
	}
	w->ret = ret;
	atomic_fetch_add_explicit(&pass->workers_done, 1, memory_order_release);
	return NULL;
}

static void stop_workers(struct ns_visible_pass *pass)
{
	int i;

	atomic_store_explicit(&pass->cancel, 1, memory_order_relaxed);
	for (i = 0; i < pass->nr_workers; i++) {
		if (pass->workers[i].started)
			pthread_join(pass->workers[i].thread, NULL);
		pass->workers[i].started = false;
		ns_trace_reader_free(pass->workers[i].reader);
		ns_trace_exprs_free(pass->workers[i].tf);
		pass->workers[i].reader = NULL;
		pass->workers[i].tf = NULL;
	}
	pass->judging = false;
}

/*
 * Start the threads of a parallel pass, if it can be one: 1 when they run,
 * 0 when the pass goes row by row, or a negative errno.
 */
static int start_workers(struct ns_visible_pass *pass)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int nr = pass->vis->nr_cpus, i, t;

	if (online < 2 || nr < 2 || !pass->tf)
		return 0;
	/*
	 * The threads call libtraceevent (tep_filter_match()) without the
	 * trace's tep lock: safe only because the index filled its lazy tables
	 * first, which is when the trace gives readers (fill_tep_tables() in
	 * src/trace/index.c). Read through libtracecmd: one thread.
	 */
	if (!ns_trace_can_make_readers(pass->trace))
		return 0;
	if (nr > online)
		nr = (int)online;
	if (nr > NS_PASS_MAX_THREADS)
		nr = NS_PASS_MAX_THREADS;
	/* the threads only read the verdicts: work them all out now */
	for (t = 0; t < NS_NR_TYPES; t++)
		verdict_of(pass, t);
	for (i = 0; i < nr; i++) {
		struct pass_worker *w = &pass->workers[i];

		w->pass = pass;
		w->reader = ns_trace_reader_new(pass->trace);
		w->tf = ns_trace_exprs_clone(pass->tf);
		pass->nr_workers = i + 1;
		if (!w->reader || !w->tf) {
			stop_workers(pass);
			return -ENOMEM;
		}
	}
	pass->judging = true;
	for (i = 0; i < nr; i++) {
		struct pass_worker *w = &pass->workers[i];

		w->started = !pthread_create(&w->thread, NULL, pass_worker_main, w);
		if (!w->started)
			atomic_fetch_add_explicit(&pass->workers_done, 1, memory_order_release);
	}
	/* a thread that would not start leaves its CPUs to the others */
	for (i = 0; i < nr && !pass->workers[i].started; i++)
		;
	if (i == nr) {
		stop_workers(pass);
		pass->nr_workers = 0;
		return 0;
	}
	return 1;
}

/* While the threads judge: wait a little for them; 1 once all are done. */
static int wait_workers(struct ns_visible_pass *pass)
{
	struct timespec ms = { 0, 1000000 };
	int i, ret = 0;

	for (i = 0; i < 5; i++) {
		if (atomic_load_explicit(&pass->workers_done, memory_order_acquire) ==
		    pass->nr_workers)
			break;
		nanosleep(&ms, NULL);
	}
	if (atomic_load_explicit(&pass->workers_done, memory_order_acquire) < pass->nr_workers)
		return 0;
	for (i = 0; i < pass->nr_workers; i++)
		if (pass->workers[i].ret && !ret)
			ret = pass->workers[i].ret;
	stop_workers(pass);
	return ret ? ret : 1;
}

/*
 * The sweep's shortcut: where every CPU's list bits are all clear, or all
 * set, over the events that make the rows [@row, the next checkpoint of
 * the order), those rows are the same, with no event read to merge them
 * (under a small --index-memory the merge reads the pages again). Returns
 * the rows done so (0: merge them), or a negative errno.
 */
static int64_t sweep_uniform(struct ns_visible_pass *pass, uint64_t row)
{
	struct ns_visible *vis = pass->vis;
	uint64_t stride = ns_trace_order_stride(), end, ones = 0, r;
	int cpu;

	if (!pass->swept_indexed) {
		if (!pass->before)
			pass->before = calloc((size_t)vis->nr_cpus + 1, sizeof(*pass->before));
		if (!pass->after)
			pass->after = calloc((size_t)vis->nr_cpus + 1, sizeof(*pass->after));
		if (!pass->before || !pass->after)
			return -ENOMEM;
		for (cpu = 0; cpu < vis->nr_cpus; cpu++)
			if (ns_bitmap_index(&vis->list_cpu[cpu]))
				return -ENOMEM;
		pass->swept_indexed = true;
	}
	end = row + stride < vis->nr_events ? row + stride : vis->nr_events;
	if (!ns_trace_rows_before(pass->trace, row, pass->before) ||
	    !ns_trace_rows_before(pass->trace, end, pass->after))
		return 0;
	for (cpu = 0; cpu < vis->nr_cpus; cpu++)
		ones += ns_bitmap_rank(&vis->list_cpu[cpu], pass->after[cpu]) -
			ns_bitmap_rank(&vis->list_cpu[cpu], pass->before[cpu]);
	if (ones && ones != end - row)
		return 0;
	for (r = row; ones && r < end; r++)
		ns_bitmap_set(&vis->list, r);
	return (int64_t)(end - row);
}

int ns_visible_pass_step(struct ns_visible_pass *pass, uint64_t budget)
{
	struct ns_visible *vis = pass->vis;
	uint64_t nr = vis->nr_events;
	int ret;

	if (!pass->complete && !pass->row && !pass->nr_workers) {
		ret = start_workers(pass);
		if (ret < 0)
			return ret;
	}
	if (pass->judging) {
		ret = wait_workers(pass);
		if (ret <= 0)
			return ret;
	}
	while (!pass->complete && budget) {
		size_t want = NS_VISIBLE_CHUNK, got, i;

		if (want > budget)
			want = budget;
		if (want > nr - pass->row)
			want = nr - pass->row;
		/* after the threads, only the list's bits by row are left to set */
		if (pass->nr_workers && !vis->list_filtered)
			want = 0, pass->row = nr;
		if (want && pass->nr_workers && pass->row % ns_trace_order_stride() == 0) {
			int64_t same = sweep_uniform(pass, pass->row);

			if (same < 0)
				return (int)same;
			if (same) {
				pass->row += (uint64_t)same;
				budget -= (uint64_t)same < budget ? (uint64_t)same : budget;
				want = 0;
			} else if (want > ns_trace_order_stride()) {
				/* merge this stride only: the next may be all one again */
				want = ns_trace_order_stride();
			}
		}
		got = want ? ns_trace_rows(pass->trace, pass->row, want, pass->pos) : 0;
		if (want && got != want)
			return -EIO;
		for (i = 0; i < got; i++, pass->row++) {
			int cpu = pass->pos[i].cpu;
			uint64_t idx = pass->pos[i].idx;
			bool ok[NS_PANES];

			if (pass->nr_workers) {
				if (ns_bitmap_get(&vis->list_cpu[cpu], idx))
					ns_bitmap_set(&vis->list, pass->row);
				continue;
			}
			ret = judge(pass, pass->tf, NULL, cpu, idx, ok);
			if (ret)
				return ret;
			if (ok[PANE_LIST] && vis->list_filtered) {
				ns_bitmap_set(&vis->list, pass->row);
				ns_bitmap_set(&vis->list_cpu[cpu], idx);
			}
			if (ok[PANE_GRAPH] && vis->graph_filtered)
				ns_bitmap_set(&vis->graph[cpu], idx);
		}
		budget -= got;
		if (pass->row >= nr) {
			int cpu;

			if (vis->list_filtered && ns_bitmap_index(&vis->list))
				return -ENOMEM;
			for (cpu = 0; vis->list_filtered && cpu < vis->nr_cpus; cpu++)
				if (ns_bitmap_index(&vis->list_cpu[cpu]))
					return -ENOMEM;
			for (cpu = 0; vis->graph_filtered && cpu < vis->nr_cpus; cpu++)
				if (ns_bitmap_index(&vis->graph[cpu]))
					return -ENOMEM;
			pass->complete = true;
		}
	}
	return pass->complete ? 1 : 0;
}

void ns_visible_pass_progress(const struct ns_visible_pass *pass, uint64_t *done,
			      uint64_t *total)
{
	*total = pass->vis->nr_events;
	/* a parallel pass: the threads' half, then the sweep by row */
	if (pass->nr_workers)
		*done = (atomic_load_explicit(&pass->judged, memory_order_relaxed) + pass->row) / 2;
	else
		*done = pass->row;
}

struct ns_visible *ns_visible_pass_take(struct ns_visible_pass *pass)
{
	struct ns_visible *vis;

	if (!pass->complete)
		return NULL;
	vis = pass->vis;
	pass->vis = NULL;
	return vis;
}

int ns_visible_build(struct ns_trace *trace, const struct ns_filter_set *fs,
		     struct ns_visible **vis, char *err, size_t err_len)
{
	struct ns_visible_pass *pass;
	int ret;

	*vis = NULL;
	ret = ns_visible_pass_begin(trace, fs, &pass, err, err_len);
	if (ret || !pass)
		return ret;
	while ((ret = ns_visible_pass_step(pass, UINT64_MAX)) == 0)
		;
	if (ret < 0)
		snprintf(err, err_len, "cannot read an event back from the file");
	else
		*vis = ns_visible_pass_take(pass);
	ns_visible_pass_free(pass);
	return ret < 0 ? ret : 0;
}

/* ---- queries -------------------------------------------------------------- */

size_t ns_visible_bytes(const struct ns_visible *vis)
{
	size_t bytes;
	int i;

	if (!vis)
		return 0;
	bytes = ns_bitmap_bytes(&vis->list);
	for (i = 0; i < vis->nr_cpus; i++) {
		if (vis->list_cpu)
			bytes += ns_bitmap_bytes(&vis->list_cpu[i]);
		if (vis->graph)
			bytes += ns_bitmap_bytes(&vis->graph[i]);
	}
	return bytes;
}

int ns_visible_list_filtered(const struct ns_visible *vis)
{
	return vis && vis->list_filtered;
}

uint64_t ns_visible_list_count(const struct ns_visible *vis, uint64_t nr_events)
{
	return ns_visible_list_filtered(vis) ? vis->list.ones : nr_events;
}

int ns_visible_row(const struct ns_visible *vis, uint64_t row)
{
	if (!ns_visible_list_filtered(vis))
		return 1;
	return ns_bitmap_get(&vis->list, row);
}

uint64_t ns_visible_shown_before(const struct ns_visible *vis, uint64_t row)
{
	return ns_visible_list_filtered(vis) ? ns_bitmap_rank(&vis->list, row) : row;
}

uint64_t ns_visible_nth_shown_row(const struct ns_visible *vis, uint64_t k, uint64_t nr_events)
{
	if (!ns_visible_list_filtered(vis))
		return k < nr_events ? k : nr_events;
	return ns_bitmap_select(&vis->list, k);
}

int ns_visible_list_event(const struct ns_visible *vis, int cpu, uint64_t idx)
{
	if (!ns_visible_list_filtered(vis))
		return 1;
	return cpu >= 0 && cpu < vis->nr_cpus && ns_bitmap_get(&vis->list_cpu[cpu], idx);
}

int ns_visible_graph_filtered(const struct ns_visible *vis)
{
	return vis && vis->graph_filtered;
}

int ns_visible_graph_event(const struct ns_visible *vis, int cpu, uint64_t idx)
{
	if (!ns_visible_graph_filtered(vis))
		return 1;
	return cpu >= 0 && cpu < vis->nr_cpus && ns_bitmap_get(&vis->graph[cpu], idx);
}

uint64_t ns_visible_graph_count(const struct ns_visible *vis, int cpu, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return 0;
	if (!ns_visible_graph_filtered(vis))
		return hi - lo;
	if (cpu < 0 || cpu >= vis->nr_cpus)
		return 0;
	return ns_bitmap_rank(&vis->graph[cpu], hi) - ns_bitmap_rank(&vis->graph[cpu], lo);
}

uint64_t ns_visible_graph_next(const struct ns_visible *vis, int cpu, uint64_t idx)
{
	const struct ns_bitmap *b;
	uint64_t i;

	if (!ns_visible_graph_filtered(vis))
		return idx;
	if (cpu < 0 || cpu >= vis->nr_cpus)
		return UINT64_MAX;
	b = &vis->graph[cpu];
	i = ns_bitmap_select(b, ns_bitmap_rank(b, idx));
	return i < b->n ? i : UINT64_MAX;
}

int ns_visible_graph_task(const struct ns_visible *vis, int pid)
{
	const struct pane *p;

	if (!ns_visible_graph_filtered(vis))
		return 1;
	p = &vis->pane[PANE_GRAPH];
	if (p->nr_show_pids && !has_pid(p->show_pids, p->nr_show_pids, pid))
		return 0;
	return !(p->nr_hide_pids && has_pid(p->hide_pids, p->nr_hide_pids, pid));
}

int ns_visible_graph_cpu(const struct ns_visible *vis, int cpu)
{
	const struct pane *p;

	if (!ns_visible_graph_filtered(vis))
		return 1;
	p = &vis->pane[PANE_GRAPH];
	return !p->cpu_ok || (cpu >= 0 && cpu < vis->nr_cpus && p->cpu_ok[cpu]);
}
