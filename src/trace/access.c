// SPDX-License-Identifier: GPL-2.0-only
/*
 * Read-only accessors of an opened trace: counts, per-CPU arrays, task and
 * event names. Everything here is O(1) or a binary search.
 */
#include "trace-int.h"

const char *ns_trace_path(const struct ns_trace *trace)
{
	return trace->path;
}

int ns_trace_nr_cpus(const struct ns_trace *trace)
{
	return trace->nr_cpus;
}

uint64_t ns_trace_nr_events(const struct ns_trace *trace)
{
	return trace->nr_events;
}

uint64_t ns_trace_first_ns(const struct ns_trace *trace)
{
	return trace->first_ns;
}

uint64_t ns_trace_last_ns(const struct ns_trace *trace)
{
	return trace->last_ns;
}

int ns_trace_index_rounds(const struct ns_trace *trace)
{
	return trace->index_rounds > 1 ? trace->index_rounds : 1;
}

uint64_t ns_trace_chunk_reloads(const struct ns_trace *trace)
{
	uint64_t n = __atomic_load_n(&trace->chunk_reloads, __ATOMIC_RELAXED);
	int i;

	for (i = 0; trace->multi && i < trace->multi->nr; i++)
		n += ns_trace_chunk_reloads(trace->multi->sub[i]);
	return n;
}

size_t ns_trace_index_bytes(const struct ns_trace *trace)
{
	size_t bytes = trace->nr_order * trace->nr_cpus * sizeof(*trace->order);
	int cpu;

	if (trace->multi) {
		for (cpu = 0; cpu < trace->multi->nr; cpu++)
			bytes += ns_trace_index_bytes(trace->multi->sub[cpu]);
		return bytes;
	}

	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		const struct ns_cpu *c = &trace->cpus[cpu];

		bytes += ns_events_bytes(&c->ev, c->nr_events) +
			 c->cap_page_offs * sizeof(*c->page_offs) + c->cap_pages * sizeof(*c->pages) +
			 c->cap_runs * sizeof(*c->runs) + c->cap_missed * sizeof(*c->missed);
	}
	return bytes + trace->tasks.cap * sizeof(*trace->tasks.slots);
}

const struct ns_run *ns_trace_cpu_runs(const struct ns_trace *trace, int cpu, uint64_t *count)
{
	if (cpu < 0 || cpu >= trace->nr_cpus) {
		*count = 0;
		return NULL;
	}
	*count = trace->cpus[cpu].nr_runs;
	return trace->cpus[cpu].runs;
}

uint64_t ns_trace_cpu_lower_bound(const struct ns_trace *trace, int cpu, uint64_t ts_ns)
{
	if (cpu < 0 || cpu >= trace->nr_cpus)
		return 0;
	/* by the chunks' first timestamps, then in one chunk (loaded if evicted) */
	return ns_events_lower_bound(&trace->cpus[cpu].ev, ns_trace_cpu_nr_events(trace, cpu),
				     ts_ns);
}

bool ns_trace_cpu_unsorted(const struct ns_trace *trace, int cpu)
{
	return cpu >= 0 && cpu < trace->nr_cpus && trace->cpus[cpu].unsorted;
}

void ns_trace_cpu_lower_bound_range(const struct ns_trace *trace, int cpu, uint64_t ts_ns,
				    uint64_t *lo, uint64_t *hi)
{
	if (cpu < 0 || cpu >= trace->nr_cpus) {
		*lo = *hi = 0;
		return;
	}
	ns_events_lower_bound_range(&trace->cpus[cpu].ev, ns_trace_cpu_nr_events(trace, cpu),
				    ts_ns, lo, hi);
}

bool ns_trace_cpu_any_event(const struct ns_trace *trace, int cpu, uint64_t a, uint64_t b)
{
	if (cpu < 0 || cpu >= trace->nr_cpus || b <= a)
		return false;
	return ns_events_any_in(&trace->cpus[cpu].ev, ns_trace_cpu_nr_events(trace, cpu), a, b);
}

const char *ns_trace_task_comm(const struct ns_trace *trace, int pid)
{
	const struct ns_task *task;

	if (pid == 0)
		return "<idle>";
	if (trace->multi) {
		int k;

		for (k = 0; k < trace->multi->nr; k++) {
			task = ns_tasks_find(&trace->multi->sub[k]->tasks, pid);
			if (task && task->comm[0])
				return task->comm;
		}
		return ns_trace_task_comm(trace->multi->sub[0], pid);
	}
	task = ns_tasks_find(&trace->tasks, pid);
	if (task && task->comm[0])
		return task->comm;
	return tep_data_comm_from_pid(trace->tep, pid);
}

const char *ns_trace_event_name(const struct ns_trace *trace, int type)
{
	struct tep_event *event;

	if (trace->multi) {
		const struct ns_trace *sub = ns_multi_type(trace, &type);

		return sub ? ns_trace_event_name(sub, type) : "(NULL)";
	}
	event = tep_find_event(trace->tep, type);

	return event ? event->name : "(NULL)";
}
