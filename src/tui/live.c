// SPDX-License-Identifier: GPL-2.0-only
/*
 * nurseshark live on the screen: now and then (every NS_TUI_LIVE_MS, or
 * twice what the last refresh took when the trace is big) the front end
 * asks main.c for a newer trace (setup->live) and puts it in place of the
 * one it shows. The view is carried over by time, not by row, since the
 * oldest rows go as the recording holds only the newest (--keep): the
 * window, the markers, the selection. While following, the window shows
 * all that is held, to the newest event, whose row is selected, like top
 * or tail -f; a key that moves the window or the selection stops that, End
 * (last-event) starts it again. Space pauses the screen: no refresh, while
 * the recording and its figures on the status line go on. No refresh
 * either while an overlay, the prompt or a filter pass is open, since they
 * hold rows of the trace they were opened on. The task and plot rows of
 * the graph are made again over each newer trace, since they hold the one
 * they were made over, which is let go.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui-int.h"
#include "filtering.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The row of the event at @ts_ns on @cpu, else the first at or after @ts_ns. */
static uint64_t row_by_time(const struct ns_trace *trace, uint64_t ts_ns, int cpu)
{
	uint64_t n = ns_trace_nr_events(trace), row = ns_trace_row_at_ns(trace, ts_ns), r;
	struct ns_pos pos;
	struct ns_event ev;

	for (r = row; r < n && r < row + 64; r++) {
		if (ns_trace_row_event(trace, r, &pos, &ev) || ev.ts_ns != ts_ns)
			break;
		if (pos.cpu == cpu)
			return r;
	}
	return row < n ? row : (n ? n - 1 : 0);
}

/* Put @nt in place of the trace shown, keeping the view by time. 0 or -ENOMEM. */
static int swap(struct ns_tui *t, struct ns_trace *nt)
{
	struct ns_view old = t->view, nv;
	uint64_t n = ns_trace_nr_events(nt), first;
	struct ns_trace *ot = t->trace;
	int i, ret;

	ret = ns_view_init(&nv, nt, old.cols, old.list_rows);
	if (ret) {
		t->live->release(t->live->arg, nt);
		return ret;
	}
	ns_tui_filtering_close(t);
	/* made over @ot, which goes below (issue 12: drawn after it, SIGSEGV) */
	ns_tui_graph_rows_forget(t);
	ns_tui_sched_free(t);
	ns_view_free(&t->view);
	t->view = nv;
	t->trace = nt;
	t->view.graph_follows = old.graph_follows;
	t->view.active_marker = old.active_marker;
	first = ns_trace_first_ns(nt);
	for (i = 0; i < NS_NR_MARKERS; i++) {
		/* a marker on an event that is gone (--keep) goes with it */
		if (!old.marker[i].set || !n || old.marker[i].ts_ns < first)
			continue;
		t->view.marker[i].set = 1;
		t->view.marker[i].ts_ns = old.marker[i].ts_ns;
		t->view.marker[i].row = ns_trace_row_at_ns(nt, old.marker[i].ts_ns);
		if (t->view.marker[i].row >= n)
			t->view.marker[i].row = n - 1;
	}
	ret = ns_tui_filtering_open(t, t->setup);
	if (t->flt)
		/* the task and plot rows again, over @nt, before a frame draws them */
		ns_tui_graph_rows_rebuild(t);
	if (!ret && n) {
		if (t->live_follow) {
			/* the whole of what is held, which slides once --keep lets the oldest go */
			ns_view_select(&t->view, n - 1);
			ns_view_zoom_full(&t->view);
		} else {
			ns_view_zoom_range(&t->view, old.start_ns, old.end_ns);
			if (old.selected_cpu >= 0)
				ns_view_select(&t->view, row_by_time(nt, old.selected_ns,
								     old.selected_cpu));
			ns_view_zoom_range(&t->view, old.start_ns, old.end_ns);
		}
	}
	ns_tui_cursor_to_selection(t);
	t->live->release(t->live->arg, ot);
	return ret;
}

/* The recording's figures, and what the screen is doing with them. */
static void status(struct ns_tui *t)
{
	char fig[80];

	t->live->status(t->live->arg, fig, sizeof(fig));
	snprintf(t->live_status, sizeof(t->live_status), "%s %s",
		 t->live_paused ? "PAUSED" : t->nr_layers ? "HELD" :
		 t->live_follow ? "FOLLOW" : "LIVE", fig);
}

/**
 * ns_tui_live_tick - a newer trace when one is due and the screen may change
 * Returns the milliseconds until the next tick is due, or -1 when not live.
 */
int ns_tui_live_tick(struct ns_tui *t)
{
	struct ns_trace *nt;
	char err[256] = "";
	double now, start;

	if (!t->live)
		return -1;
	now = now_ms();
	/* the figures every tick, a frame only when due (a big one takes longer) */
	if (now >= t->live_status_ms) {
		status(t);
		t->live_status_ms = now + NS_TUI_LIVE_MS;
	}
	if (now < t->live_next_ms || t->live_paused || t->nr_layers || ns_tui_busy(t) ||
	    t->lay.too_small)
		return (int)(t->live_status_ms - now) + 1;
	t->live_next_ms = now + NS_TUI_LIVE_MS;
	start = now;
	nt = t->live->newer(t->live->arg, err, sizeof(err));
	if (!nt) {
		/*
		 * Tried again at the next tick: libtracecmd fails now and then
		 * to copy saved_cmdlines while the kernel adds to it.
		 */
		if (err[0])
			ns_tui_message(t, "Live: %s (trying again)", err);
		return NS_TUI_LIVE_MS;
	}
	if (swap(t, nt))
		ns_tui_message(t, "Live: out of memory");
	now = now_ms();
	t->live_cost_ms = now - start;
	/* a big trace: refresh half the time at most, so that keys stay quick */
	if (2 * t->live_cost_ms > NS_TUI_LIVE_MS)
		t->live_next_ms = now + 2 * t->live_cost_ms;
	status(t);
	t->live_status_ms = now + NS_TUI_LIVE_MS;
	return NS_TUI_LIVE_MS;
}

int ns_tui_live_key(struct ns_tui *t, int key)
{
	int k;

	if (!t->live || t->keymap.nr_pending)
		return 0;
	for (k = 0; k < t->keymap.nr; k++) {
		const struct ns_tui_binding *b = &t->keymap.b[k];

		if (b->scope == NS_SCOPE_ANY && b->nr_keys == 1 && b->keys[0] == key &&
		    b->action == NS_ACT_LIVE_PAUSE) {
			ns_tui_run_action(t, b->action);
			return 1;
		}
	}
	return 0;
}

void ns_tui_live_moved(struct ns_tui *t, uint64_t start_ns, uint64_t selected)
{
	if (!t->live || !t->live_follow)
		return;
	if (t->view.start_ns != start_ns || t->view.selected != selected) {
		t->live_follow = 0;
		status(t);
		ns_tui_message(t, "Live: not following; End follows again");
	}
}

/* live-pause */
void ns_tui_act_live_pause(struct ns_tui *t, int unused)
{
	if (!t->live) {
		ns_tui_message(t, "Space pauses nurseshark live; this is a file");
		return;
	}
	t->live_paused = !t->live_paused;
	t->live_next_ms = 0;
	status(t);
	ns_tui_message(t, t->live_paused ? "Live: paused (the recording goes on); Space resumes" :
		       "Live: resumed");
}

/* The last event: in live, follow the newest again. */
void ns_tui_live_follow(struct ns_tui *t)
{
	if (!t->live)
		return;
	t->live_follow = 1;
	t->live_paused = 0;
	t->live_next_ms = 0;
	status(t);
}

/* :save FILE */
void ns_tui_live_save(struct ns_tui *t, const char *path)
{
	char err[300] = "";

	if (!t->live) {
		ns_tui_message(t, ":save is for nurseshark live: this trace is a file already");
		return;
	}
	if (!*path) {
		ns_tui_message(t, "Usage: save FILE");
		return;
	}
	if (t->live->save(t->live->arg, path, err, sizeof(err)))
		ns_tui_message(t, "Not saved: %s", err);
	else
		ns_tui_message(t, "Saved what is held to %s", path);
}
