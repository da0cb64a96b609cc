// SPDX-License-Identifier: GPL-2.0-only
/*
 * The graph pane: a time ruler, then one row per shown CPU with one bin per
 * column (ns_view_bins_cpu): a full block where events were recorded, a
 * half block where a task ran without events, a line where the CPU was
 * idle, a blank where nothing is known; blocks take their task's colour.
 * Markers A and B and the selected event are vertical lines through the
 * rows, with their letters on the ruler; in the graph's focus the cursor is
 * a reverse-video cell. A column after lost events carries the drop glyph.
 * Task rows follow the CPU rows (draw_task_row(): their bins: the task's
 * running time coloured by CPU, else the glyph and colour of its state,
 * ns_tui_task_states), and the lines cross them.
 *
 * Ruler ticks fall on round times, 1, 2 or 5 times a power of ten ns,
 * the smallest such step whose labels do not touch; the labels carry as
 * many decimals of a second as that step needs: a 0.05 s step over
 * 10171.5..10174.5 gives "10171.60  10171.65 ...".
 */
#include <stdio.h>
#include <string.h>

#include "tui-int.h"
#include "filtering.h"

#define NS_TUI_LABEL_GAP	2	/* blank columns between ruler labels */

static const uint64_t ns_per_sec = 1000000000ull;

/* The tick step for a window, and how many decimals its labels need. */
static uint64_t tick_step(const struct ns_view *v, int *decimals)
{
	uint64_t width = v->end_ns - v->start_ns, pow = 1;
	int label_int = ns_tui_digits(v->end_ns / ns_per_sec), k;
	static const int mult[] = { 1, 2, 5 };

	for (k = 0; k < 19; k++, pow *= 10) {
		size_t m;

		for (m = 0; m < NS_ARRAY_SIZE(mult); m++) {
			uint64_t step = pow * mult[m];
			int dec = k < 9 ? 9 - k : 0;
			int label_w = label_int + (dec ? dec + 1 : 0);

			if ((long double)step * v->cols / width >= label_w + NS_TUI_LABEL_GAP) {
				*decimals = dec;
				return step;
			}
		}
		if (pow > UINT64_MAX / 10 / 5)
			break;
	}
	*decimals = 0;
	return width;
}

static void format_tick(char *buf, size_t len, uint64_t ts, int decimals)
{
	uint64_t frac = ts % ns_per_sec, div = 1;
	int i;

	for (i = decimals; i < 9; i++)
		div *= 10;
	if (decimals)
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(ts / ns_per_sec), decimals,
			 (unsigned long long)(frac / div));
	else
		snprintf(buf, len, "%llu", (unsigned long long)(ts / ns_per_sec));
}

static void draw_ruler(struct ns_tui *t)
{
	const struct ns_view *v = &t->view;
	const struct ns_tui_theme *th = &t->theme;
	int x0 = t->lay.label_w, col, free_col = 0, decimals;
	uint64_t step = tick_step(v, &decimals), ts;
	char label[48];

	for (col = 0; col < v->cols; col++)
		ns_tui_put_glyph(t->graph, 1, x0 + col, t->glyphs.hline, th->attr[NS_ROLE_RULER]);
	ts = (v->start_ns + step - 1) / step * step;
	for (; ts < v->end_ns; ts += step) {
		int len;

		col = ns_window_ns_col(v->start_ns, v->end_ns, v->cols, ts);
		if (col < 0)
			continue;
		ns_tui_put_glyph(t->graph, 1, x0 + col, t->glyphs.tick, th->attr[NS_ROLE_RULER]);
		format_tick(label, sizeof(label), ts, decimals);
		len = (int)strlen(label);
		if (col >= free_col && col + len <= v->cols) {
			ns_tui_put_text(t->graph, &t->glyphs, 0, x0 + col, len, label, 0,
					th->attr[NS_ROLE_RULER_LABEL]);
			free_col = col + len + 1;
		}
		if (ts > UINT64_MAX - step)
			break;
	}
}

/* Task row @id's bins on screen row @y, coloured by the CPU the task ran on. */
static void draw_task_row(struct ns_tui *t, int y, int id)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	const struct ns_view *v = &t->view;
	int col, x0 = t->lay.label_w;

	if (id < 0 || id >= rs->nr_task || NS_GROW(rs->bins, rs->nr_bins, (size_t)v->cols))
		return;
	ns_task_row_bins(rs->task[id], t->flt->vis, v->start_ns, v->end_ns, v->cols, rs->bins);
	for (col = 0; col < v->cols; col++) {
		const struct ns_task_bin *b = &rs->bins[col];
		/* coloured by the CPU: cpu + 1, as 0 would be the idle role */
		attr_t attr = ns_tui_task_attr(&t->theme, b->cpu + 1);
		wchar_t ch = L' ';

		if (b->flags & NS_BIN_EVENTS) {
			ch = t->glyphs.events;
		} else if (b->flags & NS_BIN_RUNNING) {
			ch = t->glyphs.running;
		} else if (b->state < NS_TRS_UNKNOWN) {
			ch = ns_tui_task_state_glyph(&t->glyphs, b->state);
			attr = t->theme.attr[ns_tui_task_states[b->state].role];
		}
		ns_tui_put_glyph(t->graph, y, x0 + col, ch, ch == L' ' ?
				 t->theme.attr[NS_ROLE_NORMAL] : attr);
	}
}

static void draw_cpu_row(struct ns_tui *t, int y, int r)
{
	const struct ns_tui_theme *th = &t->theme;
	const struct ns_tui_glyphs *g = &t->glyphs;
	const struct ns_tui_graph_row *gr = ns_tui_graph_row(t, r);
	int x0 = t->lay.label_w, nr_rows = ns_tui_nr_graph_rows(t), col, cpu;
	char label[64];

	ns_tui_graph_row_label(t, r, label, sizeof(label));
	ns_tui_put_text(t->graph, g, y, 0, x0 - 1, label, 0, th->attr[NS_ROLE_CPU_LABEL]);
	/* more rows above or below: an arrow in the label's last column */
	if (y == t->lay.cpu_y && t->cpu_top > 0)
		ns_tui_put_glyph(t->graph, y, x0 - 1, L'^', th->attr[NS_ROLE_CPU_LABEL]);
	if (y == t->lay.cpu_y + t->lay.cpu_rows - 1 && r < nr_rows - 1)
		ns_tui_put_glyph(t->graph, y, x0 - 1, L'v', th->attr[NS_ROLE_CPU_LABEL]);
	if (!gr)
		return;
	if (gr->kind == NS_ROW_TASK) {
		draw_task_row(t, y, gr->id);
		return;
	}
	if (gr->kind == NS_ROW_PLOT) {
		ns_tui_draw_plot_row(t, y, gr->id);
		return;
	}
	cpu = gr->id;
	if (ns_view_bins_cpu(&t->view, cpu, t->bins))
		return;
	for (col = 0; col < t->view.cols; col++) {
		const struct ns_bin *b = &t->bins[col];
		wchar_t ch = L' ';
		attr_t attr = th->attr[NS_ROLE_NORMAL];

		if (b->flags & NS_BIN_DROP) {
			/* before everything: where events were lost, nothing drawn is sure */
			ch = g->drop;
			attr = th->attr[NS_ROLE_DROP];
		} else if (b->flags & NS_BIN_EVENTS) {
			ch = g->events;
			attr = ns_tui_task_attr(th, b->pid);
		} else if (b->flags & NS_BIN_RUNNING) {
			ch = g->running;
			attr = ns_tui_task_attr(th, b->pid);
		} else if (b->flags & NS_BIN_IDLE) {
			ch = g->idle;
			attr = th->attr[NS_ROLE_IDLE];
		}
		ns_tui_put_glyph(t->graph, y, x0 + col, ch, attr);
	}
}

/* Whether the graph's cell at @y, @x holds the drop glyph. */
static bool holds_drop(struct ns_tui *t, int y, int x)
{
	wchar_t wch[CCHARW_MAX + 1] = { 0 };
	attr_t attrs;
	short pair;
	cchar_t cc;

	return mvwin_wch(t->graph, y, x, &cc) != ERR &&
	       getcchar(&cc, wch, &attrs, &pair, NULL) != ERR && wch[0] == t->glyphs.drop;
}

/*
 * A vertical line through the CPU rows at @ts_ns, and @letter on the ruler.
 * A drop glyph on its way stays, in the line's colour: the event selected
 * after a search for DROPPED is the one just after the loss, in its column.
 */
static void draw_line(struct ns_tui *t, uint64_t ts_ns, wchar_t letter, int role)
{
	const struct ns_view *v = &t->view;
	int col = ns_window_ns_col(v->start_ns, v->end_ns, v->cols, ts_ns), r;
	attr_t attr = t->theme.attr[role];

	if (col < 0)
		return;
	for (r = 0; r < t->lay.cpu_rows; r++) {
		int y = t->lay.cpu_y + r, x = t->lay.label_w + col;

		ns_tui_put_glyph(t->graph, y, x, holds_drop(t, y, x) ? t->glyphs.drop :
				 t->glyphs.vline, attr);
	}
	if (letter)
		ns_tui_put_glyph(t->graph, 1, t->lay.label_w + col, letter, attr);
}

void ns_tui_draw_graph(struct ns_tui *t)
{
	const struct ns_view *v = &t->view;
	int r, m, active = v->active_marker;

	werase(t->graph);
	draw_ruler(t);
	for (r = 0; r < t->lay.cpu_rows && t->cpu_top + r < ns_tui_nr_graph_rows(t); r++)
		draw_cpu_row(t, t->lay.cpu_y + r, t->cpu_top + r);

	if (v->selected_cpu >= 0)
		draw_line(t, v->selected_ns, 0, NS_ROLE_SELECTION);
	/* the active marker last, on top of the other */
	for (m = 0; m < NS_NR_MARKERS; m++) {
		int which = m == 0 ? !active : active;

		if (v->marker[which].set)
			draw_line(t, v->marker[which].ts_ns, L'A' + which,
				  which == NS_MARKER_A ? NS_ROLE_MARKER_A : NS_ROLE_MARKER_B);
	}
	if (t->focus == NS_FOCUS_GRAPH) {
		attr_t a = t->theme.attr[NS_ROLE_CURSOR];

		mvwchgat(t->graph, t->lay.cpu_y + t->cursor_cpu - t->cpu_top,
			 t->lay.label_w + t->cursor_col, 1, a & ~A_COLOR, PAIR_NUMBER(a), NULL);
	}
}
