// SPDX-License-Identifier: GPL-2.0-only
/*
 * Changing the filters. A change goes: remember the set (undo) -> change
 * it -> ns_tui_refilter(): the graph's rows are rebuilt at once (hidden
 * CPUs, task rows), and when the filter entries differ from those the
 * current visibility was made from, a filter pass starts (jobs.c). A
 * cancelled or refused change puts the set back as it was, and the view
 * keeps the visibility it had until a pass completes. Also here: the
 * filtering state's life, and how a filter entry reads on the screen.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filtering.h"

int ns_tui_filtering_open(struct ns_tui *t, const struct ns_tui_setup *setup)
{
	struct ns_tui_filtering *flt = calloc(1, sizeof(*flt));
	struct ns_search_spec spec;
	char err[256];

	if (!flt)
		return -ENOMEM;
	t->flt = flt;
	flt->where = NS_FILTER_BOTH;
	if (setup && setup->filters) {
		flt->fs = setup->filters;
	} else {
		flt->fs = ns_filter_set_alloc();
		flt->own_fs = 1;
	}
	flt->applied = ns_filter_set_alloc();
	if (!flt->fs || !flt->applied)
		return -ENOMEM;
	/* a search restored from a session is what n repeats */
	if (!ns_filter_set_saved_search(flt->fs, &spec))
		flt->search = ns_search_compile(&spec, err, sizeof(err));
	ns_tui_refilter(t);
	return 0;
}

void ns_tui_filtering_close(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	if (!flt)
		return;
	t->view.visible = NULL;
	ns_tui_end_job(t);
	ns_visible_free(flt->vis);
	ns_filter_set_free(flt->undo);
	ns_filter_set_free(flt->applied);
	if (flt->own_fs)
		ns_filter_set_free(flt->fs);
	ns_search_free(flt->search);
	free(flt->tasks);
	free(flt);
	t->flt = NULL;
}

void ns_tui_filters_begin_change(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	if (flt->undo)
		return;
	flt->undo = ns_filter_set_alloc();
	if (flt->undo && ns_filter_set_copy(flt->undo, flt->fs)) {
		ns_filter_set_free(flt->undo);
		flt->undo = NULL;
	}
}

void ns_tui_filters_undo(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	if (flt->undo)
		ns_filter_set_copy(flt->fs, flt->undo);
	ns_filter_set_free(flt->undo);
	flt->undo = NULL;
	ns_tui_graph_rows_rebuild(t);
}

void ns_tui_refilter(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	ns_tui_graph_rows_rebuild(t);
	if (flt->job != NS_JOB_FILTER && ns_filter_set_same_entries(flt->fs, flt->applied)) {
		ns_filter_set_free(flt->undo);
		flt->undo = NULL;
		ns_filter_set_copy(flt->applied, flt->fs);
		return;
	}
	/* a pass or a search under way is for the old set: start again */
	ns_tui_end_job(t);
	ns_tui_start_filter_pass(t);
}

int ns_tui_add_filter(struct ns_tui *t, int kind, int mode, int value, const char *name)
{
	struct ns_filter_entry e = {
		.kind = kind, .mode = mode, .where = t->flt->where, .value = value, .name = name,
	};
	int ret;

	ns_tui_filters_begin_change(t);
	ret = ns_filter_set_add(t->flt->fs, &e);
	if (ret) {
		ns_tui_message(t, "Cannot add the filter: %s", strerror(-ret));
		return ret;
	}
	ns_tui_refilter(t);
	return 0;
}

void ns_tui_clear_filters(struct ns_tui *t)
{
	if (!ns_filter_set_nr_entries(t->flt->fs)) {
		ns_tui_message(t, "No filters to clear");
		return;
	}
	ns_tui_filters_begin_change(t);
	ns_filter_set_clear_entries(t->flt->fs);
	ns_tui_refilter(t);
}

const char *ns_tui_where_name(int where)
{
	switch (where) {
	case NS_FILTER_GRAPH:
		return "graph";
	case NS_FILTER_LIST:
		return "list";
	default:
		return "list and graph";
	}
}

void ns_tui_cycle_where(struct ns_tui *t)
{
	struct ns_tui_filtering *flt = t->flt;

	flt->where = flt->where == NS_FILTER_BOTH ? NS_FILTER_LIST :
		     flt->where == NS_FILTER_LIST ? NS_FILTER_GRAPH : NS_FILTER_BOTH;
	ns_tui_message(t, "New filters apply to the %s", ns_tui_where_name(flt->where));
}

void ns_tui_describe_entry(const struct ns_tui *t, const struct ns_filter_entry *e, char *buf,
			   size_t len)
{
	const char *mode = e->mode == NS_FILTER_SHOW ? "only" : "hide";
	char what[200];

	switch (e->kind) {
	case NS_FILTER_TASK:
		ns_tui_task_label(t, e->value, what, sizeof(what));
		snprintf(buf, len, "%s task %s", mode, what);
		break;
	case NS_FILTER_CPU:
		/* "b1 CPU0" for an instance's: a CPU filter names a slot */
		if (e->value < ns_trace_nr_cpus(t->trace))
			ns_trace_cpu_label(t->trace, e->value, what, sizeof(what));
		else
			snprintf(what, sizeof(what), "CPU%d", e->value);
		snprintf(buf, len, "%s %s", mode, what);
		break;
	case NS_FILTER_STREAM:
		snprintf(buf, len, "%s stream %s", mode, e->name);
		break;
	case NS_FILTER_ADVANCED:
		snprintf(buf, len, "%s-F '%s'", e->mode == NS_FILTER_SHOW ? "" : "-v ", e->name);
		break;
	default:
		snprintf(buf, len, "%s %s %s", mode,
			 e->kind == NS_FILTER_SYSTEM ? "system" : "event", e->name);
		break;
	}
	if (e->where != NS_FILTER_BOTH) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (%s)", ns_tui_where_name(e->where));
	}
}
