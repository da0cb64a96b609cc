// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one door of every input. Keys from the terminal and from --snapshot,
 * mouse clicks and resizes all come through ns_tui_input(): the overlays'
 * layers see keys and mouse first (layers.c); then keys go through the key
 * map to an action, and mouse events are placed on the panes.
 */
#include "tui-int.h"

#define NS_TUI_WHEEL_ROWS	3	/* list rows per wheel notch */
#define NS_TUI_CONTEXT_ROWS	3	/* rows kept above and below the selection */

/**
 * ns_tui_show_context - scroll the list so that the selection has rows around it
 * After a key, a search, :N or a goto moved the selection, it is not left on
 * the pane's edge: NS_TUI_CONTEXT_ROWS rows stay above and below it where
 * the list has them (vim's scrolloff). A mouse click does not scroll the
 * row from under the pointer.
 */
void ns_tui_show_context(struct ns_tui *t)
{
	struct ns_view *v = &t->view;
	int64_t rows = v->list_rows, so = NS_TUI_CONTEXT_ROWS, top, sel;

	if (!ns_view_nr_rows(v) || rows < 1)
		return;
	if (so > (rows - 1) / 2)
		so = (rows - 1) / 2;
	top = (int64_t)ns_view_list_pos_of_row(v, v->list_top);
	sel = (int64_t)ns_view_list_pos_of_row(v, v->selected);
	if (sel - top < so)
		ns_view_scroll(v, sel - so - top);
	else if (top + rows - 1 - sel < so)
		ns_view_scroll(v, sel + so - (rows - 1) - top);
}

/* Keys that terminals send in more than one way. */
static int normal_key(int key)
{
	switch (key) {
	case '\r':
	case KEY_ENTER:
		return '\n';
	case 127:
	case 8:
		return KEY_BACKSPACE;
	default:
		return key;
	}
}

static void key(struct ns_tui *t, int key)
{
	enum ns_tui_action act;

	key = normal_key(key);
	/* the overlays take the key first (layers.c), top first */
	if (ns_tui_layers_key(t, key))
		return;
	/* live: Space pauses whichever pane has the focus */
	if (ns_tui_live_key(t, key))
		return;
	act = ns_tui_keymap_feed(&t->keymap,
				 t->focus == NS_FOCUS_GRAPH ? NS_SCOPE_GRAPH : NS_SCOPE_LIST, key);
	if (act != NS_ACT_NONE)
		ns_tui_run_action(t, act);
}

/* The graph column under screen column @x, clamped into the graph. */
static int graph_col(const struct ns_tui *t, int x)
{
	int col = x - t->lay.label_w;

	if (col < 0)
		return 0;
	return col < t->lay.graph_cols ? col : t->lay.graph_cols - 1;
}

static int in_graph(const struct ns_tui *t, int x, int y)
{
	return y >= t->lay.graph_y && y < t->lay.graph_y + t->lay.graph_h && x >= t->lay.label_w;
}

/* The CPU of screen row @y, or -1 on the ruler. */
static int graph_cpu(const struct ns_tui *t, int y)
{
	int r = y - t->lay.cpu_y;

	return r >= 0 && r < t->lay.cpu_rows ? t->cpu_top + r : -1;
}

/* The list row under screen row @y, or -1 off the list's rows. */
static int64_t list_row(const struct ns_tui *t, int y)
{
	int r = y - t->lay.list_y - 1;
	uint64_t pos;

	if (r < 0 || r >= t->lay.list_h - 1)
		return -1;
	pos = ns_view_list_pos_of_row(&t->view, t->view.list_top) + r;
	if (pos >= ns_view_nr_rows(&t->view))
		return -1;
	return (int64_t)ns_view_row_at_list_pos(&t->view, pos);
}

static void press(struct ns_tui *t, int x, int y)
{
	int64_t row = list_row(t, y);

	if (in_graph(t, x, y)) {
		t->pressed = 1;
		t->press_x = x;
		t->press_y = y;
		t->focus = NS_FOCUS_GRAPH;
		t->cursor_col = graph_col(t, x);
		if (graph_cpu(t, y) >= 0) {
			t->cursor_cpu = graph_cpu(t, y);
			ns_tui_show_cursor_cpu(t);
		}
	} else if (row >= 0) {
		t->focus = NS_FOCUS_LIST;
		ns_view_select(&t->view, (uint64_t)row);
	}
}

static void release(struct ns_tui *t, int x, int y)
{
	int a, b;

	if (!t->pressed)
		return;
	t->pressed = 0;
	a = graph_col(t, t->press_x);
	b = graph_col(t, x);
	if (a != b) {
		/* a drag: zoom to the columns it covered */
		int lo = a < b ? a : b, hi = a < b ? b : a;
		const struct ns_view *v = &t->view;

		ns_view_zoom_range(&t->view, ns_window_col_ns(v->start_ns, v->end_ns, v->cols, lo),
				   ns_window_col_ns(v->start_ns, v->end_ns, v->cols, hi + 1));
		t->cursor_col = t->view.cols / 2;
	} else if (graph_cpu(t, t->press_y) >= 0) {
		ns_tui_run_action(t, NS_ACT_SELECT_NEAREST);
	}
}

static void wheel(struct ns_tui *t, int x, int y, int steps)
{
	if (in_graph(t, x, y)) {
		t->cursor_col = graph_col(t, x);
		ns_view_zoom_at(&t->view, steps, ns_tui_col_mid_ns(t, t->cursor_col));
	} else if (y >= t->lay.list_y && y < t->lay.list_y + t->lay.list_h) {
		ns_view_scroll(&t->view, -steps * NS_TUI_WHEEL_ROWS);
	}
}

static void mouse(struct ns_tui *t, const struct ns_tui_input *in)
{
	if (ns_tui_layers_mouse(t, in) || t->lay.too_small)
		return;
	switch (in->kind) {
	case NS_IN_PRESS:
		press(t, in->x, in->y);
		break;
	case NS_IN_RELEASE:
		release(t, in->x, in->y);
		break;
	case NS_IN_WHEEL_UP:
		wheel(t, in->x, in->y, 1);
		break;
	case NS_IN_WHEEL_DOWN:
		wheel(t, in->x, in->y, -1);
		break;
	}
}

/**
 * ns_tui_input - handle one key, mouse event or resize
 * A resize must already have been applied to curses (resizeterm).
 */
void ns_tui_input(struct ns_tui *t, const struct ns_tui_input *in)
{
	uint64_t selected = t->view.selected, start_ns = t->view.start_ns;
	int following = t->live_follow;

	/* a message lasts until the next key or click; a resize keeps it */
	if (in->kind != NS_IN_RESIZE)
		t->message[0] = '\0';
	switch (in->kind) {
	case NS_IN_KEY:
		key(t, in->key);
		if (t->view.selected != selected)
			ns_tui_show_context(t);
		break;
	case NS_IN_RESIZE:
		if (ns_tui_layout(t, in->x, in->y))
			ns_tui_message(t, "Out of memory");
		break;
	default:
		mouse(t, in);
		break;
	}
	/* with more CPUs than rows, "graph follows" also scrolls to the selection's CPU */
	if (t->view.selected != selected && t->view.graph_follows && t->focus == NS_FOCUS_LIST &&
	    t->view.selected_cpu >= 0 && ns_tui_row_of_cpu(t, t->view.selected_cpu) >= 0) {
		t->cursor_cpu = ns_tui_row_of_cpu(t, t->view.selected_cpu);
		ns_tui_show_cursor_cpu(t);
	}
	/* live: the user took the window or the selection elsewhere: it stays there */
	if (following && in->kind != NS_IN_RESIZE)
		ns_tui_live_moved(t, start_ns, selected);
}
