// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command line's filters (--cpu, --pid, --task, -F, -v), collected in
 * their order while the options are parsed and applied to a filter set once
 * the trace is open, so that `nurseshark --export` narrows its output the way
 * `trace-cmd report` does with the same options. Also the default CPU rows:
 * a CPU without a single event starts hidden.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/filter.h"
#include "nurseshark/model_tasks.h"
#include "nurseshark/trace.h"
#include "nurseshark/util.h"

int ns_filter_parse_list(const char *list, int **vals, char *err, size_t err_len)
{
	const char *p = list;
	size_t cap = 0;
	int n = 0;

	*vals = NULL;
	while (p && *p) {
		char *end;
		long lo, hi;

		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || lo > INT_MAX)
			goto bad;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || hi > INT_MAX || hi - lo > 1 << 20)
				goto bad;
		}
		if (*end && *end != ',')
			goto bad;
		for (; lo <= hi; lo++) {
			if (NS_GROW(*vals, cap, (size_t)n + 1)) {
				snprintf(err, err_len, "out of memory");
				free(*vals);
				*vals = NULL;
				return -ENOMEM;
			}
			(*vals)[n++] = (int)lo;
		}
		p = *end ? end + 1 : end;
	}
	if (!n)
		goto bad;
	return n;
bad:
	snprintf(err, err_len, "'%s': want numbers and ranges, as 0,2-5", list);
	free(*vals);
	*vals = NULL;
	return -EINVAL;
}

void ns_filter_stream_name(const struct ns_trace *trace, int stream, char *buf, size_t len)
{
	const char *name = ns_trace_stream_name(trace, stream);

	snprintf(buf, len, "%s", *name ? name : NS_TRACE_TOP_NAME);
}

int ns_filter_set_hide_empty_cpus(struct ns_filter_set *fs, const struct ns_trace *trace)
{
	int cpu, ret;

	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
		if (ns_trace_cpu_nr_events(trace, cpu))
			continue;
		ret = ns_filter_set_hide_cpu(fs, cpu, 1);
		if (ret)
			return ret;
	}
	return 0;
}

struct ns_filter_arg {
	int kind;		/* enum ns_filter_arg_kind */
	char *value;
};

void ns_filter_args_init(struct ns_filter_args *a)
{
	memset(a, 0, sizeof(*a));
}

void ns_filter_args_free(struct ns_filter_args *a)
{
	int i;

	for (i = 0; i < a->nr; i++)
		free(a->arg[i].value);
	free(a->arg);
	memset(a, 0, sizeof(*a));
}

int ns_filter_args_push(struct ns_filter_args *a, int kind, const char *value)
{
	struct ns_filter_arg *n;

	if (NS_GROW(a->arg, a->cap, (size_t)a->nr + 1))
		return -ENOMEM;
	n = &a->arg[a->nr];
	n->kind = kind;
	n->value = strdup(value ? value : "");
	if (!n->value)
		return -ENOMEM;
	a->nr++;
	return 0;
}

/* A task of the command line: a row in the viewer, a show filter on the list for --export. */
static int add_task(struct ns_filter_set *fs, int pid, int as_rows)
{
	struct ns_filter_entry e = {
		.kind = NS_FILTER_TASK, .mode = NS_FILTER_SHOW, .where = NS_FILTER_LIST,
		.value = pid,
	};

	return as_rows ? ns_filter_set_add_task_row(fs, pid) : ns_filter_set_add(fs, &e);
}

int ns_filter_args_apply(const struct ns_filter_args *a, struct ns_trace *trace,
			 struct ns_filter_set *fs, int as_rows, char *err, size_t err_len)
{
	char msg[512];
	int negate = 0, i, j, n, ret = 0;
	int *vals = NULL;

	for (i = 0; i < a->nr && !ret; i++) {
		const struct ns_filter_arg *arg = &a->arg[i];
		struct ns_filter_entry e = { .where = NS_FILTER_BOTH };

		switch (arg->kind) {
		case NS_FILTER_ARG_NEGATE:
			negate = 1;
			break;
		case NS_FILTER_ARG_EXPR:
			if (ns_trace_exprs_check(trace, arg->value, msg, sizeof(msg))) {
				snprintf(err, err_len, "-F '%s': %s", arg->value, msg);
				return -EINVAL;
			}
			e.kind = NS_FILTER_ADVANCED;
			e.mode = negate ? NS_FILTER_HIDE : NS_FILTER_SHOW;
			e.name = arg->value;
			ret = ns_filter_set_add(fs, &e);
			break;
		case NS_FILTER_ARG_CPUS:
		case NS_FILTER_ARG_PIDS:
			n = ns_filter_parse_list(arg->value, &vals, msg, sizeof(msg));
			if (n < 0) {
				snprintf(err, err_len, "%s %s",
					 arg->kind == NS_FILTER_ARG_CPUS ? "--cpu" : "--pid", msg);
				return n;
			}
			for (j = 0; j < n && !ret; j++) {
				if (arg->kind == NS_FILTER_ARG_PIDS) {
					ret = add_task(fs, vals[j], as_rows);
					continue;
				}
				/* as report --cpu: only these CPUs, in the graph and the list */
				e.kind = NS_FILTER_CPU;
				e.mode = NS_FILTER_SHOW;
				e.value = vals[j];
				ret = ns_filter_set_add(fs, &e);
				if (!ret)
					ret = ns_filter_set_hide_cpu(fs, vals[j], 0);
			}
			free(vals);
			vals = NULL;
			break;
		case NS_FILTER_ARG_TASK:
			n = ns_task_pids_by_comm(trace, arg->value, &vals);
			if (n == 0) {
				free(vals);
				snprintf(err, err_len,
					 "--task %s: no task of that name in the trace", arg->value);
				return -ENOENT;
			}
			for (j = 0; j < n && !ret; j++)
				ret = add_task(fs, vals[j], as_rows);
			free(vals);
			vals = NULL;
			if (n < 0)
				ret = n;
			break;
		default:
			ret = -EINVAL;
		}
	}
	if (ret)
		snprintf(err, err_len, "%s", strerror(-ret));
	return ret;
}
