// SPDX-License-Identifier: GPL-2.0-only
/*
 * Jumps in the list: to the next or previous shown event of the same task,
 * CPU or event type as the selected one (ns_view_jump), and to a time
 * (ns_view_goto_ns, with the "seconds.fraction" that ns_parse_ts reads).
 * A jump scans the CPUs' index arrays directly, from the selected event's
 * place in each CPU, and takes the nearest candidate in report order; it
 * reads no event from the file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "nurseshark/model_search.h"

static bool same(const struct ns_event *a, int a_cpu, const struct ns_event *b, int b_cpu, int kind)
{
	switch (kind) {
	case NS_JUMP_TASK:
		return a->pid == b->pid;
	case NS_JUMP_CPU:
		return a_cpu == b_cpu;
	case NS_JUMP_EVENT:
		return a->type == b->type;
	}
	return false;
}

int ns_view_jump(struct ns_view *view, int kind, int dir)
{
	const struct ns_trace *trace = view->trace;
	struct ns_event sel, best_ev, ev;
	const struct ns_event *best = NULL;
	int nr_cpus = ns_trace_nr_cpus(trace), cpu, best_cpu = -1;
	uint64_t best_idx = 0;
	struct ns_pos sp;

	if (!ns_view_nr_rows(view))
		return -ENOENT;
	if (ns_trace_row_event(trace, view->selected, &sp, &sel))
		return -ENOENT;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t n, i;

		if (kind == NS_JUMP_CPU && cpu != sp.cpu)
			continue;
		n = ns_trace_cpu_nr_events(trace, cpu);
		/* the first candidate of this CPU after (before) the selection in report order */
		if (cpu == sp.cpu) {
			i = dir > 0 ? sp.idx + 1 : sp.idx;
		} else {
			i = ns_trace_cpu_lower_bound(trace, cpu, sel.ts_ns);
			/* ties go to the lower rank (the lower CPU of one file) */
			while (i < n && ns_trace_ev_ts(trace, cpu, i) == sel.ts_ns &&
			       ns_trace_tie_rank(trace, cpu) < ns_trace_tie_rank(trace, sp.cpu))
				i++;
		}
		if (dir > 0) {
			for (; i < n; i++) {
				ns_trace_event(trace, cpu, i, &ev);
				if (best && (ev.ts_ns > best->ts_ns ||
					     (ev.ts_ns == best->ts_ns &&
					      ns_trace_tie_rank(trace, cpu) >
					      ns_trace_tie_rank(trace, best_cpu))))
					break;
				if (same(&ev, cpu, &sel, sp.cpu, kind) &&
				    ns_visible_list_event(view->visible, cpu, i)) {
					best_ev = ev;
					best = &best_ev;
					best_cpu = cpu;
					best_idx = i;
					break;
				}
			}
		} else {
			while (i-- > 0) {
				ns_trace_event(trace, cpu, i, &ev);
				if (best && (ev.ts_ns < best->ts_ns ||
					     (ev.ts_ns == best->ts_ns &&
					      ns_trace_tie_rank(trace, cpu) <
					      ns_trace_tie_rank(trace, best_cpu))))
					break;
				if (same(&ev, cpu, &sel, sp.cpu, kind) &&
				    ns_visible_list_event(view->visible, cpu, i)) {
					best_ev = ev;
					best = &best_ev;
					best_cpu = cpu;
					best_idx = i;
					break;
				}
			}
		}
	}
	if (!best)
		return -ENOENT;
	ns_view_select(view, ns_trace_row_of(trace, best_cpu, best_idx));
	return 0;
}

int ns_view_goto_ns(struct ns_view *view, uint64_t ts_ns)
{
	uint64_t n = ns_trace_nr_events(view->trace), row;

	if (!ns_view_nr_rows(view))
		return -ENOENT;
	row = ns_trace_row_at_ns(view->trace, ts_ns);
	ns_view_select(view, row < n ? row : n - 1);
	return 0;
}

int ns_parse_ts(const char *s, uint64_t *ts_ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				digits++;
			}
		}
	}
	if (*s)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ts_ns = sec * 1000000000ull + frac;
	return 0;
}
