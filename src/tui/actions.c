// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each action of actions.h does. The view (zoom, pan, selection,
 * markers) belongs to the model: here an action only becomes ns_view_*
 * calls, plus the little state that is the screen's own (focus, the graph
 * cursor, the list's sideways scroll, the help overlay).
 */
#include <stdarg.h>

#include "tui-int.h"
#include "narrow.h"

#define NS_TUI_INFO_STEP	8	/* columns per sideways scroll */

void ns_tui_message(struct ns_tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
}

uint64_t ns_tui_col_mid_ns(const struct ns_tui *t, int col)
{
	const struct ns_view *v = &t->view;
	uint64_t a = ns_window_col_ns(v->start_ns, v->end_ns, v->cols, col);
	uint64_t b = ns_window_col_ns(v->start_ns, v->end_ns, v->cols, col + 1);

	return a + (b - a) / 2;
}

void ns_tui_cursor_to_selection(struct ns_tui *t)
{
	const struct ns_view *v = &t->view;
	int col;

	if (v->selected_cpu < 0)
		return;
	/* a hidden CPU's event leaves the cursor on its row */
	if (ns_tui_row_of_cpu(t, v->selected_cpu) >= 0)
		t->cursor_cpu = ns_tui_row_of_cpu(t, v->selected_cpu);
	ns_tui_show_cursor_cpu(t);
	col = ns_window_ns_col(v->start_ns, v->end_ns, v->cols, v->selected_ns);
	if (col >= 0)
		t->cursor_col = col;
}

/*
 * In the list, zoom around the model's focus (active marker, selection).
 * In the graph, around the cursor: around that same focus when it lies in
 * the cursor's column, so zooming in on a marked event keeps it, else
 * around the column's middle.
 */
static void zoom(struct ns_tui *t, int steps)
{
	const struct ns_view *v = &t->view;
	uint64_t focus = ns_view_focus_ns(v);

	if (t->focus == NS_FOCUS_GRAPH &&
	    ns_window_ns_col(v->start_ns, v->end_ns, v->cols, focus) != t->cursor_col)
		focus = ns_tui_col_mid_ns(t, t->cursor_col);
	ns_view_zoom_at(&t->view, steps, focus);
}

/* Move the selection and the list's top by the same rows, as a page key does. */
static void page(struct ns_tui *t, int64_t rows)
{
	ns_view_page(&t->view, rows);
}

static void move_cursor(struct ns_tui *t, int cols)
{
	int col = t->cursor_col + cols;

	/* pushing the cursor past an edge pans the window */
	if (col < 0 || col >= t->view.cols)
		ns_view_pan(&t->view, cols);
	else
		t->cursor_col = col;
}

static void goto_marker(struct ns_tui *t, int which)
{
	if (ns_view_goto_marker(&t->view, which)) {
		ns_tui_message(t, "Marker %c is not set", 'A' + which);
		return;
	}
	ns_tui_cursor_to_selection(t);
}

static void select_nearest(struct ns_tui *t)
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

void ns_tui_run_action(struct ns_tui *t, enum ns_tui_action act)
{
	struct ns_view *v = &t->view;
	uint64_t n = ns_trace_nr_events(t->trace);

	switch (act) {
	case NS_ACT_QUIT:
		t->quit = 1;
		break;
	case NS_ACT_HELP:
		t->help_shown = 1;
		t->help_top = 0;
		break;
	case NS_ACT_SWITCH_FOCUS:
		t->focus = t->focus == NS_FOCUS_LIST ? NS_FOCUS_GRAPH : NS_FOCUS_LIST;
		if (t->focus == NS_FOCUS_GRAPH)
			ns_tui_cursor_to_selection(t);
		break;
	case NS_ACT_MOVE_UP:
		ns_view_move(v, -1);
		break;
	case NS_ACT_MOVE_DOWN:
		ns_view_move(v, 1);
		break;
	case NS_ACT_PAGE_UP:
		page(t, -v->list_rows);
		break;
	case NS_ACT_PAGE_DOWN:
		page(t, v->list_rows);
		break;
	case NS_ACT_MOVE_FIRST:
		ns_view_select(v, 0);
		break;
	case NS_ACT_MOVE_LAST:
		ns_view_select(v, n ? n - 1 : 0);
		break;
	case NS_ACT_SCROLL_LEFT:
		t->info_scroll -= t->info_scroll > NS_TUI_INFO_STEP ? NS_TUI_INFO_STEP :
				  t->info_scroll;
		break;
	case NS_ACT_SCROLL_RIGHT:
		if (t->info_scroll + NS_TUI_INFO_STEP < t->info_max)
			t->info_scroll += NS_TUI_INFO_STEP;
		break;
	case NS_ACT_CURSOR_LEFT:
		move_cursor(t, -1);
		break;
	case NS_ACT_CURSOR_RIGHT:
		move_cursor(t, 1);
		break;
	case NS_ACT_CURSOR_UP:
		t->cursor_cpu--;
		ns_tui_show_cursor_cpu(t);
		break;
	case NS_ACT_CURSOR_DOWN:
		t->cursor_cpu++;
		ns_tui_show_cursor_cpu(t);
		break;
	case NS_ACT_SELECT_NEAREST:
		select_nearest(t);
		break;
	case NS_ACT_ZOOM_IN:
		zoom(t, 1);
		break;
	case NS_ACT_ZOOM_OUT:
		zoom(t, -1);
		break;
	case NS_ACT_ZOOM_MAX:
		/* more steps than any window has halvings; the model stops at its minimum */
		zoom(t, 64);
		break;
	case NS_ACT_ZOOM_FULL:
		ns_view_zoom_full(v);
		break;
	case NS_ACT_ZOOM_MARKERS:
		if (ns_view_zoom_markers(v))
			ns_tui_message(t, "Set markers A and B first (a, b)");
		break;
	case NS_ACT_PAN_LEFT:
		ns_view_pan(v, -1);
		break;
	case NS_ACT_PAN_RIGHT:
		ns_view_pan(v, 1);
		break;
	case NS_ACT_PAN_PAGE_LEFT:
		ns_view_pan(v, -v->cols);
		break;
	case NS_ACT_PAN_PAGE_RIGHT:
		ns_view_pan(v, v->cols);
		break;
	case NS_ACT_SET_MARKER_A:
		ns_view_set_marker(v, NS_MARKER_A);
		break;
	case NS_ACT_SET_MARKER_B:
		ns_view_set_marker(v, NS_MARKER_B);
		break;
	case NS_ACT_GOTO_MARKER_A:
		goto_marker(t, NS_MARKER_A);
		break;
	case NS_ACT_GOTO_MARKER_B:
		goto_marker(t, NS_MARKER_B);
		break;
	case NS_ACT_SWITCH_MARKER:
		ns_view_switch_marker(v);
		break;
	case NS_ACT_CLEAR_MARKER:
		ns_view_clear_marker(v, v->active_marker);
		break;
	case NS_ACT_TOGGLE_FOLLOW:
		v->graph_follows = !v->graph_follows;
		break;
	case NS_ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case NS_ACT_NONE:
	case NS_NR_ACTIONS:
		break;
	case NS_ACT_GRAPH_BIGGER:
	case NS_ACT_GRAPH_SMALLER:
	case NS_ACT_FRESH_START:
		/* sessions and pane sizes: persist.c */
		ns_tui_persist_action(t, act);
		break;
	default:
		/* search, jumps, filters, task rows, pickers: narrow.c */
		ns_tui_narrow_action(t, act);
		break;
	}
}
