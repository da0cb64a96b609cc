// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two text bars. The marker bar, between graph and list, reads
 *   A: 10171.572790  B: 10171.600000  B-A: 0.0272100
 *   Window: 10171.572790-10174.502791 (2.9300001 s)  follow:on
 * then the selected event's scheduling context (sched_ctx.c), after B-A
 * on two rows, at the end on one;
 * on one row when the terminal is wide enough, else on two; its fields have
 * fixed widths so that nothing moves while markers come and go. Scripts
 * and tests read these words, so they are part of the interface.
 * The status line at the bottom shows the focused pane, key hints made from
 * the action table, the position, and one-shot messages.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "filtering.h"

#define NS_TUI_BAR_GAP	"  "

struct seg {
	char text[112];
	int role;
};

/* Below this width the window's times are printed to the nanosecond. */
#define NS_TUI_FINE_WINDOW_NS	1000000ull

static char *fmt_ns(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull),
		 (unsigned long long)(ns % 1000000000ull));
	return buf;
}

/* The bar's fields; [0, 3) are the markers' row, [3, 5) the window's. */
static void bar_segs(const struct ns_tui *t, struct seg s[5])
{
	const struct ns_view *v = &t->view;
	char a[32] = "-", b[32] = "-", d[32] = "-", st[32], en[32], w[32];
	int tw = ns_tui_ts_width(t), m;
	int64_t delta;

	for (m = 0; m < NS_NR_MARKERS; m++) {
		if (v->marker[m].set)
			ns_tui_fmt_ts(t, m ? b : a, sizeof(a), v->marker[m].ts_ns);
	}
	if (!ns_view_marker_delta(v, &delta))
		ns_tui_fmt_delta(t, d, sizeof(d), delta);
	snprintf(s[0].text, sizeof(s[0].text), "A: %-*s", tw, a);
	snprintf(s[1].text, sizeof(s[1].text), "B: %-*s", tw, b);
	snprintf(s[2].text, sizeof(s[2].text), "B-A: %-*s", tw + 1, d);
	if (v->end_ns - v->start_ns < NS_TUI_FINE_WINDOW_NS && !t->time_nsec) {
		/* zoomed far in (Z): to the nanosecond, or start and end read the same */
		snprintf(s[3].text, sizeof(s[3].text), "Window: %s-%s (%s s)",
			 fmt_ns(st, sizeof(st), v->start_ns), fmt_ns(en, sizeof(en), v->end_ns),
			 fmt_ns(w, sizeof(w), v->end_ns - v->start_ns));
	} else {
		snprintf(s[3].text, sizeof(s[3].text), "Window: %s-%s (%s s)",
			 ns_tui_fmt_ts(t, st, sizeof(st), v->start_ns),
			 ns_tui_fmt_ts(t, en, sizeof(en), v->end_ns),
			 ns_tui_fmt_delta(t, w, sizeof(w), (int64_t)(v->end_ns - v->start_ns)));
	}
	snprintf(s[4].text, sizeof(s[4].text), "follow:%s", v->graph_follows ? "on" : "off");
	for (m = 0; m < 5; m++)
		s[m].role = NS_ROLE_BAR;
	s[v->active_marker == NS_MARKER_B ? 1 : 0].role = NS_ROLE_BAR_ACTIVE;
}

/* Rows of the markers and the window: 1, or 2 when narrow. */
static int marker_rows(const struct ns_tui *t, int cols)
{
	int tw = ns_tui_ts_width(t), gap = (int)strlen(NS_TUI_BAR_GAP);
	/* the widest the row gets: a window's width has a decimal more than a time */
	int markers = 2 * ((int)strlen("A: ") + tw) + (int)strlen("B-A: ") + tw + 1;
	int window = (int)strlen("Window: - ( s)") + 2 * tw + tw + 1;
	int follow = (int)strlen("follow:off");

	return cols >= markers + window + follow + 4 * gap ? 1 : 2;
}

int ns_tui_bar_rows(const struct ns_tui *t, int cols)
{
	/* and a line naming the filters in force, when there are some */
	return marker_rows(t, cols) + (ns_tui_filter_line(t) ? 1 : 0);
}

void ns_tui_draw_bar(struct ns_tui *t)
{
	struct seg s[5];
	int i, x = 0, y = 0, ctx_x = 0, ctx_y = 0;
	char ctx[96];

	werase(t->bar);
	bar_segs(t, s);
	for (i = 0; i < 5; i++) {
		int len = (int)strlen(s[i].text);

		if (i == 3 && marker_rows(t, t->lay.cols) > 1) {
			y = 1;
			x = 0;
		} else if (i) {
			x += (int)strlen(NS_TUI_BAR_GAP);
		}
		if (x >= t->lay.cols)
			break;
		if (len > t->lay.cols - x)
			len = t->lay.cols - x;
		ns_tui_put_text(t->bar, &t->glyphs, y, x, len, s[i].text, 0,
				t->theme.attr[s[i].role]);
		x += len;
		/* the selected event's scheduling context: after B-A on two rows, else at the end */
		if (i == (marker_rows(t, t->lay.cols) > 1 ? 2 : 4)) {
			ctx_x = x;
			ctx_y = y;
		}
	}
	ctx_x += (int)strlen(NS_TUI_BAR_GAP);
	/* what fits: a compact form at narrow widths, the full one in the detail view */
	ns_tui_sched_ctx_fit(t, ctx, sizeof(ctx), t->lay.cols - ctx_x);
	if (ctx[0] && ctx_x < t->lay.cols)
		ns_tui_put_text(t->bar, &t->glyphs, ctx_y, ctx_x, t->lay.cols - ctx_x, ctx, 0,
				t->theme.attr[NS_ROLE_BAR]);
	if (t->lay.bar_h > marker_rows(t, t->lay.cols))
		ns_tui_draw_filter_line(t, t->bar, t->lay.bar_h - 1);
}

/* "Tab:focus": the first key of an action, without its angle brackets. */
static int hint(const struct ns_tui *t, char *buf, size_t len, enum ns_tui_action act)
{
	const struct ns_tui_action_info *a = &ns_tui_actions[act];
	const char *keys = t->keymap.text[act][NS_SCOPE_ANY];
	size_t k;

	if (!keys[0])
		keys = t->keymap.text[act][NS_SCOPE_LIST];
	if (!keys[0])
		return 0;	/* unbound by config.ini */
	k = strcspn(keys, " ");

	if (keys[0] == '<' && k > 2)
		return snprintf(buf, len, "%.*s:%s ", (int)k - 2, keys + 1, a->hint);
	return snprintf(buf, len, "%.*s:%s ", (int)k, keys, a->hint);
}

void ns_tui_draw_status(struct ns_tui *t)
{
	const struct ns_view *v = &t->view;
	attr_t attr = t->theme.attr[NS_ROLE_STATUS];
	char left[256], right[128], ts[32], drops[32] = "";
	int act, n, rw, cols = t->lay.cols;
	uint64_t nr_drops = ns_tui_drops_in_window(t);

	werase(t->status);
	ns_tui_fill(t->status, 0, 0, cols, attr);
	/* lost events in the window: the graph's ! marks, counted */
	if (nr_drops)
		snprintf(drops, sizeof(drops), " %llu drop%s ", (unsigned long long)nr_drops,
			 nr_drops == 1 ? "" : "s");
	if (t->focus == NS_FOCUS_GRAPH) {
		char label[32];

		ns_tui_graph_row_label(t, t->cursor_cpu, label, sizeof(label));
		snprintf(right, sizeof(right), "%s cursor: %s %s ", drops, label,
			 ns_tui_fmt_ts(t, ts, sizeof(ts), ns_tui_col_mid_ns(t, t->cursor_col)));
	}
	else
		snprintf(right, sizeof(right), "%s #%llu of %llu ", drops,
			 (unsigned long long)v->selected,
			 (unsigned long long)ns_trace_nr_events(t->trace));
	/* live: what the recording does says more than where the selection is */
	if (t->live)
		snprintf(right, sizeof(right), " %s ", t->live_status);
	rw = (int)strlen(right);
	if (rw > cols / 2)
		rw = 0;

	n = snprintf(left, sizeof(left), "[%s] ", t->focus == NS_FOCUS_GRAPH ? "graph" : "list");
	if (ns_tui_help_shown(t)) {
		snprintf(left + n, sizeof(left) - n,
			 "help: j/k Space PgUp/PgDn g/G scroll, any other key closes");
	} else if (t->keymap.nr_pending) {
		/* the first key of a sequence (<C-w>+, 'a) waits for the second */
		char name[32];

		ns_tui_key_name(t->keymap.pending[0], name, sizeof(name));
		snprintf(left + n, sizeof(left) - n, "%s waits for a second key (Esc: none)", name);
	} else if (ns_tui_plot_job_status(t, left + n, sizeof(left) - n)) {
		/* a row being made in the background: how far it is */
		n = (int)strlen(left);
	} else if (t->message[0]) {
		static const char more[] = " [:messages]";
		int w = cols - n - rw, ml = (int)sizeof(more) - 1;

		/* cut: the end says where the whole of it is */
		if ((int)strlen(t->message) > w && w > 2 * ml) {
			ns_tui_put_text(t->status, &t->glyphs, 0, n, w - ml, t->message, 0,
					t->theme.attr[NS_ROLE_MESSAGE]);
			ns_tui_put_text(t->status, &t->glyphs, 0, n + w - ml, ml, more, 0, attr);
		} else {
			ns_tui_put_text(t->status, &t->glyphs, 0, n, w, t->message, 0,
					t->theme.attr[NS_ROLE_MESSAGE]);
		}
		left[n] = '\0';
	} else {
		/* whole hints only: "Tab:f" would teach nothing */
		for (act = 0; act < NS_NR_ACTIONS && n < (int)sizeof(left) - 32; act++) {
			int h;

			if (!ns_tui_actions[act].hint[0])
				continue;
			h = hint(t, left + n, sizeof(left) - n, act);
			/* its trailing blank may fall at the edge */
			if (n + h - 1 > cols - rw) {
				left[n] = '\0';
				break;
			}
			n += h;
		}
	}
	ns_tui_put_text(t->status, &t->glyphs, 0, 0, t->message[0] ? (int)strlen(left) : cols - rw,
			left, 0, attr);
	if (rw)
		ns_tui_put_text(t->status, &t->glyphs, 0, cols - rw, rw, right, 0, attr);
}

void ns_tui_message(struct ns_tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
	/* each in the history too, whole, for :messages */
	snprintf(t->history[t->next_msg], sizeof(t->history[0]), "%s", t->message);
	t->next_msg = (t->next_msg + 1) % NS_TUI_MSG_HISTORY;
	if (t->nr_history < NS_TUI_MSG_HISTORY)
		t->nr_history++;
}

int ns_tui_filter_line(const struct ns_tui *t)
{
	return t->flt && ns_filter_set_nr_entries(t->flt->applied) > 0;
}

void ns_tui_draw_filter_line(struct ns_tui *t, WINDOW *win, int y)
{
	struct ns_tui_filtering *flt = t->flt;
	int n = ns_filter_set_nr_entries(flt->applied), i, cols = t->lay.cols, rw;
	char line[1024], right[96], d[300];
	struct ns_filter_entry e;
	size_t len;

	snprintf(right, sizeof(right), "  %llu of %llu shown",
		 (unsigned long long)ns_view_nr_rows(&t->view),
		 (unsigned long long)ns_trace_nr_events(t->trace));
	rw = (int)strlen(right);
	len = (size_t)snprintf(line, sizeof(line), "Filters:");
	for (i = 0; i < n && len < sizeof(line); i++) {
		ns_filter_set_entry(flt->applied, i, &e);
		ns_tui_describe_entry(t, &e, d, sizeof(d));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s", i ? "," : "", d);
	}
	ns_tui_fill(win, y, 0, cols, t->theme.attr[NS_ROLE_BAR_ACTIVE]);
	if (rw > cols / 2)
		rw = 0;
	ns_tui_put_text(win, &t->glyphs, y, 0, cols - rw, line, 0,
			t->theme.attr[NS_ROLE_BAR_ACTIVE]);
	if (rw)
		ns_tui_put_text(win, &t->glyphs, y, cols - rw, rw, right, 0,
				t->theme.attr[NS_ROLE_BAR_ACTIVE]);
}
