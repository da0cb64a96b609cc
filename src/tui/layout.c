// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the panes go for a terminal size, top to bottom:
 *
 *   graph   NS_TUI_RULER_ROWS of time ruler, then one row per CPU
 *   bar     markers A and B, their delta, the window (1 row, 2 when narrow)
 *   list    a header row, then events
 *   status  focus, key hints, position, messages
 *
 * With more CPUs than fit, the CPU rows take at most half of what the ruler
 * and the bars leave, and scroll. Each pane is its own curses window, made
 * again here on every resize; below NS_TUI_MIN_COLS x NS_TUI_MIN_ROWS there
 * are no panes, only a message.
 */
#include <errno.h>
#include <stdlib.h>

#include "tui-int.h"

void ns_tui_free_windows(struct ns_tui *t)
{
	WINDOW **w[] = { &t->graph, &t->bar, &t->list, &t->status };
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(w); i++) {
		if (*w[i])
			delwin(*w[i]);
		*w[i] = NULL;
	}
}

static WINDOW *pane(int h, int w, int y)
{
	WINDOW *win = newwin(h, w, y, 0);

	if (win)
		leaveok(win, TRUE);	/* keys come from screen.c's own window */
	return win;
}

/**
 * ns_tui_layout - place the panes for a @cols x @rows terminal
 * Returns 0, or -ENOMEM (then no pane is drawn, as on a too small terminal).
 */
int ns_tui_layout(struct ns_tui *t, int cols, int rows)
{
	struct ns_tui_layout *l = &t->lay;
	int nr_rows = ns_tui_nr_graph_rows(t), body, list_rows, want;

	ns_tui_free_windows(t);
	l->cols = cols;
	l->rows = rows;
	l->too_small = cols < NS_TUI_MIN_COLS || rows < NS_TUI_MIN_ROWS;
	if (l->too_small)
		return 0;

	/* "CPU12" or a task row's label, a blank, and a column for scroll arrows */
	l->label_w = ns_tui_graph_label_w(t);
	l->graph_cols = cols - l->label_w;
	l->bar_h = ns_tui_bar_rows(t, cols);
	body = rows - NS_TUI_RULER_ROWS - l->bar_h - 2;	/* list header, status */
	/* graph-rows of config.ini, <C-w>+ -, a session; else up to half. The list keeps a row */
	want = t->graph_rows > 0 ? t->graph_rows : body / 2;
	if (want > body - 1)
		want = body - 1;
	l->cpu_rows = nr_rows < want ? nr_rows : want;
	if (l->cpu_rows < 1)
		l->cpu_rows = 1;
	l->graph_y = 0;
	l->cpu_y = NS_TUI_RULER_ROWS;
	l->graph_h = NS_TUI_RULER_ROWS + l->cpu_rows;
	l->bar_y = l->graph_h;
	l->list_y = l->bar_y + l->bar_h;
	l->status_y = rows - 1;
	l->list_h = l->status_y - l->list_y;
	list_rows = l->list_h - 1;

	t->graph = pane(l->graph_h, cols, l->graph_y);
	t->bar = pane(l->bar_h, cols, l->bar_y);
	t->list = pane(l->list_h, cols, l->list_y);
	t->status = pane(1, cols, l->status_y);
	if (!t->graph || !t->bar || !t->list || !t->status)
		goto nomem;

	free(t->bins);
	t->bins = calloc(l->graph_cols, sizeof(*t->bins));
	if (NS_GROW(t->rows, t->nr_rows_alloc, (size_t)list_rows))
		goto nomem;
	if (!t->bins)
		goto nomem;

	ns_view_resize(&t->view, l->graph_cols, list_rows);
	if (t->cursor_col >= l->graph_cols)
		t->cursor_col = l->graph_cols - 1;
	ns_tui_show_cursor_cpu(t);
	return 0;
nomem:
	ns_tui_free_windows(t);
	l->too_small = 1;
	return -ENOMEM;
}

/* Keep the graph cursor's CPU among the rows shown. */
void ns_tui_show_cursor_cpu(struct ns_tui *t)
{
	int nr_cpus = ns_tui_nr_graph_rows(t), rows = t->lay.cpu_rows;

	/* rows: the shown CPUs, then the task rows (cursor_cpu counts rows) */
	if (t->cursor_cpu >= nr_cpus)
		t->cursor_cpu = nr_cpus - 1;
	if (t->cursor_cpu < 0)
		t->cursor_cpu = 0;
	if (t->cursor_cpu < t->cpu_top)
		t->cpu_top = t->cursor_cpu;
	else if (rows > 0 && t->cursor_cpu >= t->cpu_top + rows)
		t->cpu_top = t->cursor_cpu - rows + 1;
	if (rows > 0 && t->cpu_top > nr_cpus - rows)
		t->cpu_top = nr_cpus - rows > 0 ? nr_cpus - rows : 0;
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
