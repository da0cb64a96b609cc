// SPDX-License-Identifier: GPL-2.0-only
/*
 * The graph's rows: one per CPU the filter set does not hide (and the
 * visibility leaves in the graph), then one per task row of the set, in its
 * order, then one per plot row (plot_rows.c). They are rebuilt whenever the
 * set changes, reusing the task and plot rows already built (each walks the
 * trace once; live makes them again over each newer trace), and the layout
 * follows
 * when their number, their labels' width or the filter line changes. The
 * graph draws CPU rows from the view's bins and task rows from their own
 * (draw_graph.c); the cursor, clicks and the status line name a row here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filtering.h"

static int push_row(struct ns_tui_graph_rows *rs, int kind, int id)
{
	if (NS_GROW(rs->row, rs->cap, rs->nr + 1))
		return -ENOMEM;
	rs->row[rs->nr].kind = kind;
	rs->row[rs->nr].id = id;
	rs->nr++;
	return 0;
}

/* Task rows as the set lists them, reusing those already built. */
static int sync_task_rows(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	struct ns_filter_set *fs = t->flt->fs;
	int n = ns_filter_set_nr_task_rows(fs), i, j;
	struct ns_task_row **rows;

	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		int pid = ns_filter_set_task_row(fs, i);

		for (j = 0; j < rs->nr_task; j++) {
			if (rs->task[j] && ns_task_row_pid(rs->task[j]) == pid) {
				rows[i] = rs->task[j];
				rs->task[j] = NULL;
				break;
			}
		}
		if (!rows[i] && (rows[i] = ns_task_row_open(t->trace, pid)) &&
		    ns_tui_sched_timelines(t))
			/* without its states (no memory) the row still shows its runs */
			ns_task_row_set_states(rows[i], ns_tui_sched_timelines(t));
		if (!rows[i]) {
			while (i--)
				ns_task_row_close(rows[i]);
			free(rows);
			return -ENOMEM;
		}
	}
	for (j = 0; j < rs->nr_task; j++)
		ns_task_row_close(rs->task[j]);
	free(rs->task);
	rs->task = rows;
	rs->nr_task = n;
	return 0;
}

void ns_tui_graph_rows_rebuild(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	struct ns_tui_filtering *flt = t->flt;
	int nr_cpus = ns_trace_nr_cpus(t->trace), cpu, i, old = (int)rs->nr;
	int old_label = t->lay.label_w, old_bar = t->lay.bar_h;

	if (sync_task_rows(t))
		ns_tui_message(t, "Out of memory: task rows are not shown");
	if (ns_tui_plot_rows_sync(t))
		ns_tui_message(t, "Out of memory: plot rows are not shown");
	rs->nr = 0;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (!ns_filter_set_cpu_hidden(flt->fs, cpu) && ns_visible_graph_cpu(flt->vis, cpu))
			push_row(rs, NS_ROW_CPU, cpu);
	for (i = 0; i < rs->nr_task; i++)
		push_row(rs, NS_ROW_TASK, i);
	for (i = 0; i < rs->nr_plot; i++)
		push_row(rs, NS_ROW_PLOT, i);
	/* the layout depends on the rows, their labels and the filter line */
	if (t->lay.cols && (old != (int)rs->nr || old_label != ns_tui_graph_label_w(t) ||
			    old_bar != ns_tui_bar_rows(t, t->lay.cols)))
		ns_tui_layout(t, t->lay.cols, t->lay.rows);
	else if (t->lay.cols)
		ns_tui_show_cursor_cpu(t);
}

/*
 * The task and plot rows hold the trace they were made over (and the task
 * rows its timelines' states): when live puts a newer trace in its place
 * and lets the old one go, they go first, and the next rebuild makes them
 * again over the new one. The CPU rows stay for the rebuild to compare
 * with, which must come before the next frame is drawn.
 */
void ns_tui_graph_rows_forget(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	int i;

	size_t k, kept = 0;

	ns_tui_plot_rows_free(t);
	for (i = 0; i < rs->nr_task; i++)
		ns_task_row_close(rs->task[i]);
	free(rs->task);
	rs->task = NULL;
	rs->nr_task = 0;
	/* no row may name them until the rebuild (none if the filters fail to open) */
	for (k = 0; k < rs->nr; k++)
		if (rs->row[k].kind == NS_ROW_CPU)
			rs->row[kept++] = rs->row[k];
	rs->nr = kept;
}

void ns_tui_graph_rows_free(struct ns_tui *t)
{
	struct ns_tui_graph_rows *rs = &t->rowset;
	int i;

	ns_tui_plot_rows_free(t);
	for (i = 0; i < rs->nr_task; i++)
		ns_task_row_close(rs->task[i]);
	free(rs->task);
	free(rs->row);
	free(rs->bins);
	memset(rs, 0, sizeof(*rs));
}

int ns_tui_nr_graph_rows(const struct ns_tui *t)
{
	return t->flt ? (int)t->rowset.nr : ns_trace_nr_cpus(t->trace);
}

const struct ns_tui_graph_row *ns_tui_graph_row(const struct ns_tui *t, int i)
{
	return t->flt && i >= 0 && i < (int)t->rowset.nr ? &t->rowset.row[i] : NULL;
}

int ns_tui_row_of_cpu(const struct ns_tui *t, int cpu)
{
	int i;

	for (i = 0; t->flt && i < (int)t->rowset.nr; i++)
		if (t->rowset.row[i].kind == NS_ROW_CPU && t->rowset.row[i].id == cpu)
			return i;
	return -1;
}

void ns_tui_task_label(const struct ns_tui *t, int pid, char *buf, size_t len)
{
	snprintf(buf, len, "%.9s-%d", ns_trace_task_comm(t->trace, pid), pid);
}

void ns_tui_graph_row_label(const struct ns_tui *t, int i, char *buf, size_t len)
{
	const struct ns_tui_graph_row *g = ns_tui_graph_row(t, i);

	if (!g)
		snprintf(buf, len, "%s", "");
	else if (g->kind == NS_ROW_CPU)
		ns_trace_cpu_label(t->trace, g->id, buf, len);
	else if (g->kind == NS_ROW_PLOT)
		ns_tui_plot_row_label(t, g->id, buf, len);
	else
		ns_tui_task_label(t, ns_task_row_pid(t->rowset.task[g->id]), buf, len);
}

int ns_tui_graph_label_w(const struct ns_tui *t)
{
	int nr_cpus = ns_trace_nr_cpus(t->trace), w, i;
	char buf[64];

	/* "CPU12", a blank, and a column for the arrows of scrolled rows */
	w = 3 + ns_tui_digits(nr_cpus > 1 ? nr_cpus - 1 : 0) + 2;
	/* with streams, "b1 CPU0" (also when --buffer read an instance alone) */
	for (i = 0; i < nr_cpus; i++) {
		ns_trace_cpu_label(t->trace, i, buf, sizeof(buf));
		if ((int)strlen(buf) + 2 > w)
			w = (int)strlen(buf) + 2;
	}
	for (i = 0; t->flt && i < t->rowset.nr_task; i++) {
		ns_tui_task_label(t, ns_task_row_pid(t->rowset.task[i]), buf, sizeof(buf));
		if ((int)strlen(buf) + 2 > w)
			w = (int)strlen(buf) + 2;
	}
	for (i = 0; t->flt && i < t->rowset.nr_plot; i++)
		if (ns_tui_plot_row_label_w(t, i) + 2 > w)
			w = ns_tui_plot_row_label_w(t, i) + 2;
	return w;
}

int ns_tui_graph_row_nearest(struct ns_tui *t, int i, int col, uint64_t *row)
{
	const struct ns_tui_graph_row *g = ns_tui_graph_row(t, i);
	uint64_t idx;
	int cpu;

	if (!g)
		return -1;
	if (g->kind == NS_ROW_CPU)
		return ns_view_nearest_row(&t->view, g->id, col, row);
	if (g->kind == NS_ROW_PLOT)
		return ns_tui_plot_row_nearest(t, g->id, ns_tui_col_mid_ns(t, col), row);
	if (ns_task_row_nearest(t->rowset.task[g->id], ns_tui_col_mid_ns(t, col), &cpu, &idx))
		return -1;
	*row = ns_trace_row_of(t->trace, cpu, idx);
	return 0;
}

void ns_tui_toggle_task_row(struct ns_tui *t, int pid)
{
	struct ns_filter_set *fs = t->flt->fs;
	char label[64];

	ns_tui_task_label(t, pid, label, sizeof(label));
	if (ns_filter_set_has_task_row(fs, pid)) {
		ns_filter_set_remove_task_row(fs, pid);
		ns_tui_message(t, "Task row %s removed", label);
	} else if (ns_filter_set_add_task_row(fs, pid)) {
		ns_tui_message(t, "Out of memory");
		return;
	} else {
		ns_tui_message(t, "Task row %s added below the CPUs", label);
	}
	ns_tui_graph_rows_rebuild(t);
}
