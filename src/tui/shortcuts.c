// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one-key filters and jumps, from the selected event: only or hide its
 * task, its event type, its CPU, its stream; add a graph row for its task; select the
 * next or previous event of its task, CPU or type. Each is the handler of
 * one action of actions.h; what they do to the filter set goes through
 * filtering.c like any other change, so Esc and refusals work the same.
 */
#include <string.h>

#include "filtering.h"

/* The selected event, or -1 (said in the status line) when there is none. */
static int selected(struct ns_tui *t, struct ns_pos *pos, struct ns_event *ev)
{
	if (!ns_view_nr_rows(&t->view)) {
		ns_tui_message(t, "No event is selected");
		return -1;
	}
	return ns_trace_row_event(t->trace, t->view.selected, pos, ev) ? -1 : 0;
}

/* "Only this X": the other show-only entries of that kind, in the same panes, go. */
static void only(struct ns_tui *t, int kind, int value, const char *name)
{
	struct ns_tui_filtering *flt = t->flt;
	struct ns_filter_entry e;
	int i;

	ns_tui_filters_begin_change(t);
	for (i = ns_filter_set_nr_entries(flt->fs) - 1; i >= 0; i--) {
		ns_filter_set_entry(flt->fs, i, &e);
		if (e.mode == NS_FILTER_SHOW && e.where == flt->where &&
		    (e.kind == kind || (kind == NS_FILTER_EVENT && e.kind == NS_FILTER_SYSTEM)))
			ns_filter_set_remove(flt->fs, i);
	}
	ns_tui_add_filter(t, kind, NS_FILTER_SHOW, value, name);
}

/* only-task, hide-task: @mode is NS_FILTER_SHOW or NS_FILTER_HIDE */
void ns_tui_act_filter_task(struct ns_tui *t, int mode)
{
	struct ns_event ev;
	struct ns_pos pos;

	if (selected(t, &pos, &ev))
		return;
	if (mode == NS_FILTER_SHOW)
		only(t, NS_FILTER_TASK, ev.pid, NULL);
	else
		ns_tui_add_filter(t, NS_FILTER_TASK, NS_FILTER_HIDE, ev.pid, NULL);
}

/* only-event, hide-event */
void ns_tui_act_filter_event(struct ns_tui *t, int mode)
{
	struct ns_event ev;
	struct ns_pos pos;
	char name[160];

	if (selected(t, &pos, &ev))
		return;
	snprintf(name, sizeof(name), "%s/%s", ns_trace_event_system(t->trace, ev.type),
		 ns_trace_event_name(t->trace, ev.type));
	if (mode == NS_FILTER_SHOW)
		only(t, NS_FILTER_EVENT, 0, name);
	else
		ns_tui_add_filter(t, NS_FILTER_EVENT, NS_FILTER_HIDE, 0, name);
}

/* only-cpu */
void ns_tui_act_filter_cpu(struct ns_tui *t, int mode)
{
	struct ns_event ev;
	struct ns_pos pos;

	if (selected(t, &pos, &ev))
		return;
	if (mode == NS_FILTER_SHOW)
		only(t, NS_FILTER_CPU, pos.cpu, NULL);
	else
		ns_tui_add_filter(t, NS_FILTER_CPU, NS_FILTER_HIDE, pos.cpu, NULL);
}

/* only-stream, hide-stream: by name, so that a session keeps it for the same buffers */
void ns_tui_act_filter_stream(struct ns_tui *t, int mode)
{
	struct ns_event ev;
	struct ns_pos pos;
	char name[64];

	if (selected(t, &pos, &ev))
		return;
	ns_filter_stream_name(t->trace, ns_trace_cpu_stream(t->trace, pos.cpu), name,
			      sizeof(name));
	if (mode == NS_FILTER_SHOW)
		only(t, NS_FILTER_STREAM, 0, name);
	else
		ns_tui_add_filter(t, NS_FILTER_STREAM, NS_FILTER_HIDE, 0, name);
}

/* task-row */
void ns_tui_act_task_row(struct ns_tui *t, int unused)
{
	struct ns_event ev;
	struct ns_pos pos;

	if (!selected(t, &pos, &ev))
		ns_tui_toggle_task_row(t, ev.pid);
}

/* clear-filters */
void ns_tui_act_clear_filters(struct ns_tui *t, int unused)
{
	ns_tui_clear_filters(t);
}

/* filter-where */
void ns_tui_act_filter_where(struct ns_tui *t, int unused)
{
	ns_tui_cycle_where(t);
}

static void jump(struct ns_tui *t, int kind, int dir)
{
	static const char *const what[] = { "of this task", "on this CPU", "of this type" };

	if (ns_view_jump(&t->view, kind, dir))
		ns_tui_message(t, "No %s event %s", dir > 0 ? "next" : "previous", what[kind]);
	else
		ns_tui_cursor_to_selection(t);
}

/* next-task-event, prev-task-event: @dir 1 or -1 */
void ns_tui_act_jump_task(struct ns_tui *t, int dir)
{
	jump(t, NS_JUMP_TASK, dir);
}

/* next-cpu-event, prev-cpu-event */
void ns_tui_act_jump_cpu(struct ns_tui *t, int dir)
{
	jump(t, NS_JUMP_CPU, dir);
}

/* next-type-event, prev-type-event */
void ns_tui_act_jump_type(struct ns_tui *t, int dir)
{
	jump(t, NS_JUMP_EVENT, dir);
}
