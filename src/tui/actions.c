// SPDX-License-Identifier: GPL-2.0-only
/*
 * The action table made into data (ns_tui_actions[]), the one dispatch
 * through it, and the handlers of the view's own actions: moving the
 * selection, zooming, panning, markers, the graph cursor and the focus.
 * The view belongs to the model: here an action only becomes ns_view_*
 * calls, plus the little state that is the screen's own (focus, the graph
 * cursor, the list's sideways scroll). The other handlers live with their
 * job (shortcuts.c, jobs.c, prompt.c, picker.c, help.c, persist.c); none of
 * them runs an action, so the calls go one way: dispatch -> table -> job.
 */
#include "tui-int.h"
#include "filtering.h"
#include "picker.h"
#include "prompt.h"

#define NS_TUI_INFO_STEP	8	/* columns per sideways scroll */

const struct ns_tui_action_info ns_tui_actions[NS_NR_ACTIONS] = {
#define NS_TUI_ACTION_INFO(id, n, any, list, graph, h, text, fn, a)			\
	[NS_ACT_##id] = { .name = n, .keys = { any, list, graph, "", "", "", "", "" }, .hint = h,	\
			  .help = text, .legend = "", .scopes = NS_TUI_PANES_MASK,	\
			  .run = fn, .arg = a },
	NS_TUI_ACTIONS(NS_TUI_ACTION_INFO)
#undef NS_TUI_ACTION_INFO
/* an overlay action's keys in its scope's place, "" in the others */
#define NS_TUI_KEYS_PICKER(k)	{ "", "", "", k, "", "", "", "" }
#define NS_TUI_KEYS_HELP(k)	{ "", "", "", "", k, "", "", "" }
#define NS_TUI_KEYS_STATS(k)	{ "", "", "", "", "", k, "", "" }
#define NS_TUI_KEYS_RECORD(k)	{ "", "", "", "", "", "", k, "" }
#define NS_TUI_KEYS_JOB(k)	{ "", "", "", "", "", "", "", k }
#define NS_TUI_OVERLAY_INFO(id, n, scope, k, leg, text, fn, a)				\
	[NS_ACT_##id] = { .name = n, .keys = NS_TUI_KEYS_##scope(k), .hint = "",	\
			  .help = text, .legend = leg, .scopes = 1u << NS_SCOPE_##scope,	\
			  .run = fn, .arg = a },
	NS_TUI_OVERLAY_ACTIONS(NS_TUI_OVERLAY_INFO)
#undef NS_TUI_OVERLAY_INFO
};

_Static_assert(NS_NR_SCOPES == 8, "NS_TUI_KEYS_* give a key text to every scope");

/**
 * ns_tui_run_action - run the handler the action table gives @act
 * Keys, clicks and --keys all end here; NS_ACT_NONE does nothing.
 */
void ns_tui_run_action(struct ns_tui *t, enum ns_tui_action act)
{
	if (act < 0 || act >= NS_NR_ACTIONS || !ns_tui_actions[act].run)
		return;
	ns_tui_actions[act].run(t, ns_tui_actions[act].arg);
}

/* quit */
void ns_tui_act_quit(struct ns_tui *t, int unused)
{
	t->quit = 1;
}

/* switch-focus */
void ns_tui_act_switch_focus(struct ns_tui *t, int unused)
{
	t->focus = t->focus == NS_FOCUS_LIST ? NS_FOCUS_GRAPH : NS_FOCUS_LIST;
	if (t->focus == NS_FOCUS_GRAPH)
		ns_tui_cursor_to_selection(t);
}

/* move-up, move-down: @rows -1 or 1 */
void ns_tui_act_move(struct ns_tui *t, int rows)
{
	ns_view_move(&t->view, rows);
}

/* page-up, page-down: the selection and the list's top move by the same rows */
void ns_tui_act_page(struct ns_tui *t, int dir)
{
	ns_view_page(&t->view, dir * (int64_t)t->view.list_rows);
}

/* first-event */
void ns_tui_act_first(struct ns_tui *t, int unused)
{
	ns_view_select(&t->view, 0);
}

/* last-event */
void ns_tui_act_last(struct ns_tui *t, int unused)
{
	uint64_t n = ns_trace_nr_events(t->trace);

	ns_view_select(&t->view, n ? n - 1 : 0);
	ns_tui_live_follow(t);
}

/* scroll-left, scroll-right: the Info column */
void ns_tui_act_scroll_info(struct ns_tui *t, int dir)
{
	if (dir < 0)
		t->info_scroll -= t->info_scroll > NS_TUI_INFO_STEP ? NS_TUI_INFO_STEP : t->info_scroll;
	else if (t->info_scroll + NS_TUI_INFO_STEP < t->info_max)
		t->info_scroll += NS_TUI_INFO_STEP;
}

/* cursor-left, cursor-right: pushing the cursor past an edge pans the window */
void ns_tui_act_cursor_col(struct ns_tui *t, int cols)
{
	int col = t->cursor_col + cols;

	if (col < 0 || col >= t->view.cols)
		ns_view_pan(&t->view, cols);
	else
		t->cursor_col = col;
}

/* cursor-up, cursor-down: the graph's rows scroll to keep the cursor */
void ns_tui_act_cursor_row(struct ns_tui *t, int rows)
{
	t->cursor_cpu += rows;
	ns_tui_show_cursor_cpu(t);
}

/* select-nearest */
void ns_tui_act_select_nearest(struct ns_tui *t, int unused)
{
	uint64_t row;

	if (ns_tui_graph_row_nearest(t, t->cursor_cpu, t->cursor_col, &row)) {
		char label[64];

		ns_tui_graph_row_label(t, t->cursor_cpu, label, sizeof(label));
		ns_tui_message(t, "%s has no events", label);
		return;
	}
	ns_view_select(&t->view, row);
	ns_tui_cursor_to_selection(t);
}

/*
 * zoom-in, zoom-out, zoom-max (@steps 1, -1, 64: more than any window has
 * halvings; the model stops at its minimum). In the list, zoom around the
 * model's focus (active marker, selection). In the graph, around the
 * cursor: around that same focus when it lies in the cursor's column, so
 * zooming in on a marked event keeps it, else around the column's middle.
 */
void ns_tui_act_zoom(struct ns_tui *t, int steps)
{
	const struct ns_view *v = &t->view;
	uint64_t focus = ns_view_focus_ns(v);

	if (t->focus == NS_FOCUS_GRAPH &&
	    ns_window_ns_col(v->start_ns, v->end_ns, v->cols, focus) != t->cursor_col)
		focus = ns_tui_col_mid_ns(t, t->cursor_col);
	ns_view_zoom_at(&t->view, steps, focus);
}

/* zoom-full */
void ns_tui_act_zoom_full(struct ns_tui *t, int unused)
{
	ns_view_zoom_full(&t->view);
}

/* zoom-markers */
void ns_tui_act_zoom_markers(struct ns_tui *t, int unused)
{
	if (ns_view_zoom_markers(&t->view))
		ns_tui_message(t, "Set markers A and B first (a, b)");
}

/* pan-left, pan-right: @cols -1 or 1 */
void ns_tui_act_pan(struct ns_tui *t, int cols)
{
	ns_view_pan(&t->view, cols);
}

/* pan-page-left, pan-page-right: the window's width */
void ns_tui_act_pan_page(struct ns_tui *t, int dir)
{
	ns_view_pan(&t->view, dir * t->view.cols);
}

/*
 * set-marker-a, set-marker-b: in the list on the selected event; in the
 * graph on the event of the cursor's row nearest to the cursor, which
 * becomes the selection (where the eye is, as a click in KernelShark).
 */
void ns_tui_act_set_marker(struct ns_tui *t, int which)
{
	uint64_t row;

	if (t->focus == NS_FOCUS_GRAPH) {
		if (ns_tui_graph_row_nearest(t, t->cursor_cpu, t->cursor_col, &row)) {
			char label[64];

			ns_tui_graph_row_label(t, t->cursor_cpu, label, sizeof(label));
			ns_tui_message(t, "%s has no events: marker %c not set", label,
				       'A' + which);
			return;
		}
		ns_view_select(&t->view, row);
	}
	if (ns_view_set_marker(&t->view, which))
		ns_tui_message(t, "Marker %c not set: no event in the list%s", 'A' + which,
			       ns_trace_nr_events(t->trace) ? " (the filters hide them all)" : "");
}

/* goto-marker-a, goto-marker-b */
void ns_tui_act_goto_marker(struct ns_tui *t, int which)
{
	if (ns_view_goto_marker(&t->view, which)) {
		ns_tui_message(t, "Marker %c is not set", 'A' + which);
		return;
	}
	ns_tui_cursor_to_selection(t);
}

/* switch-marker */
void ns_tui_act_switch_marker(struct ns_tui *t, int unused)
{
	ns_view_switch_marker(&t->view);
}

/* clear-marker */
void ns_tui_act_clear_marker(struct ns_tui *t, int unused)
{
	ns_view_clear_marker(&t->view, t->view.active_marker);
}

/* toggle-follow */
void ns_tui_act_toggle_follow(struct ns_tui *t, int unused)
{
	t->view.graph_follows = !t->view.graph_follows;
}

/* redraw */
void ns_tui_act_redraw(struct ns_tui *t, int unused)
{
	clearok(curscr, TRUE);
}
