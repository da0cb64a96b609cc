// SPDX-License-Identifier: GPL-2.0-only
/*
 * The view on the bundled sample: zoom keeps the point of interest at its
 * column and changes the width by NS_VIEW_ZOOM_FACTOR per step, is bounded by
 * the whole trace and by one ns per column; pan and markers do what the keys
 * promise; selecting with "graph follows" brings the event into the window;
 * with no list row shown a marker is refused, not set on a left-over row.
 */
#include <stdint.h>
#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "traces.h"

static uint64_t width(const struct ns_view *v)
{
	return v->end_ns - v->start_ns;
}

static int col_of(const struct ns_view *v, uint64_t ts)
{
	return ns_window_ns_col(v->start_ns, v->end_ns, v->cols, ts);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	struct ns_trace *t;
	struct ns_view v;
	char path[4096], err[256], buf[64];
	uint64_t n, full, w, row;
	int col, i, bad;
	int64_t delta;

	snprintf(path, sizeof(path), "%s/contrib/sample.dat", top);
	t = ns_trace_open(path, err, sizeof(err));
	if (!t) {
		FAIL("open sample: %s", err);
		return 1;
	}
	n = ns_trace_nr_events(t);
	CHECK(ns_view_init(&v, t, 120, 20) == 0, "view init");
	full = width(&v);
	CHECK(v.start_ns == ns_trace_first_ns(t) && v.end_ns == ns_trace_last_ns(t) + 1,
	      "the window starts as the whole trace");

	/* zoom keeps the selected event at its column, by factor 2 */
	ns_view_select(&v, n / 3);
	col = col_of(&v, v.selected_ns);
	bad = 0;
	for (i = 0; i < 10; i++) {
		w = width(&v);
		ns_view_zoom(&v, 1);
		if (width(&v) * NS_VIEW_ZOOM_FACTOR != w && width(&v) * NS_VIEW_ZOOM_FACTOR != w - 1)
			bad++;
		if (col_of(&v, v.selected_ns) != col)
			bad++;
	}
	CHECK(!bad, "ten zoom-in steps halve the width and keep the selection at column %d", col);
	bad = 0;
	for (i = 0; i < 4; i++) {
		w = width(&v);
		ns_view_zoom(&v, -1);
		if (width(&v) != w * NS_VIEW_ZOOM_FACTOR || col_of(&v, v.selected_ns) != col)
			bad++;
	}
	CHECK(!bad, "zoom-out steps double the width and keep the selection's column");

	/* the active marker wins over the selection as the point of interest */
	ns_view_set_marker(&v, NS_MARKER_A);
	ns_view_move(&v, 40);
	col = col_of(&v, v.marker[NS_MARKER_A].ts_ns);
	ns_view_zoom(&v, 3);
	CHECK(col_of(&v, v.marker[NS_MARKER_A].ts_ns) == col,
	      "zoom keeps the active marker at its column");

	ns_view_zoom_max(&v);
	CHECK(width(&v) == (uint64_t)v.cols * NS_VIEW_MIN_NS_PER_COL,
	      "zoom all the way in stops at one ns per column");
	CHECK(col_of(&v, v.marker[NS_MARKER_A].ts_ns) >= 0, "the marker is still in view");
	ns_view_zoom(&v, -80);
	CHECK(width(&v) == full, "zooming out stops at the whole trace");
	ns_view_zoom_max(&v);
	ns_view_zoom_full(&v);
	CHECK(width(&v) == full, "zoom all the way out shows the whole trace");

	/* markers */
	ns_view_select(&v, 100);
	ns_view_set_marker(&v, NS_MARKER_A);
	ns_view_select(&v, 5000);
	ns_view_set_marker(&v, NS_MARKER_B);
	CHECK(ns_view_marker_delta(&v, &delta) == 0 &&
	      delta == (int64_t)(test_row_ev(t, 5000, NULL, &(struct ns_event){ 0 })->ts_ns -
				 test_row_ev(t, 100, NULL, &(struct ns_event){ 0 })->ts_ns),
	      "B-A is the time between the two events (%s s)",
	      ns_fmt_delta(buf, sizeof(buf), delta));
	CHECK(v.active_marker == NS_MARKER_B, "setting B makes it active");
	ns_view_zoom_markers(&v);
	CHECK(v.start_ns == v.marker[NS_MARKER_A].ts_ns &&
	      v.end_ns == v.marker[NS_MARKER_B].ts_ns + 1, "zoom to A-B shows exactly A..B");
	ns_view_goto_marker(&v, NS_MARKER_A);
	CHECK(v.selected == 100 && v.active_marker == NS_MARKER_A, "jump to A selects its event");
	/* B earlier than A: the same window, both markers in it */
	ns_view_select(&v, 5000);
	ns_view_set_marker(&v, NS_MARKER_A);
	ns_view_select(&v, 100);
	ns_view_set_marker(&v, NS_MARKER_B);
	ns_view_zoom_full(&v);
	CHECK(ns_view_zoom_markers(&v) == 0 && v.start_ns == v.marker[NS_MARKER_B].ts_ns &&
	      v.end_ns == v.marker[NS_MARKER_A].ts_ns + 1,
	      "zoom to the markers with B before A shows exactly B..A, both markers in it");
	ns_view_goto_marker(&v, NS_MARKER_B);

	/* no list row shown: the selection is on no event, no marker is set there */
	{
		struct ns_filter_entry e = {
			.kind = NS_FILTER_TASK, .mode = NS_FILTER_SHOW, .where = NS_FILTER_LIST,
			.value = 987654321,
		};
		struct ns_filter_set *fs = ns_filter_set_alloc();
		struct ns_visible *vis = NULL;

		ns_view_clear_marker(&v, NS_MARKER_A);
		CHECK(fs && !ns_filter_set_add(fs, &e) &&
		      !ns_visible_build(t, fs, &vis, err, sizeof(err)) && vis,
		      "a filter on a pid that has no event");
		ns_view_set_visible(&v, vis);
		CHECK(ns_view_nr_rows(&v) == 0 && ns_view_set_marker(&v, NS_MARKER_A) == -1 &&
		      !v.marker[NS_MARKER_A].set && v.active_marker == NS_MARKER_B,
		      "no list row shown: set-marker returns -1 and sets none");
		ns_view_set_visible(&v, NULL);
		ns_visible_free(vis);
		ns_filter_set_free(fs);
		CHECK(ns_view_set_marker(&v, NS_MARKER_A) == 0 && v.marker[NS_MARKER_A].set,
		      "with the rows shown again it sets A (returns 0)");
	}

	/* pan: a page is the window's width, clamped at the ends */
	ns_view_zoom_full(&v);
	ns_view_zoom(&v, 4);
	w = width(&v);
	{
		uint64_t s = v.start_ns;

		ns_view_pan(&v, v.cols);
		CHECK(v.start_ns == s + w || v.end_ns == ns_trace_last_ns(t) + 1,
		      "pan by a page moves the window by its width");
		ns_view_pan(&v, -1000000);
		CHECK(v.start_ns == ns_trace_first_ns(t) && width(&v) == w,
		      "panning stops at the start, width kept");
	}

	/* graph follows */
	ns_view_select(&v, n - 1);
	CHECK(col_of(&v, v.selected_ns) >= 0, "graph follows: the last event is brought into view");
	v.graph_follows = 0;
	ns_view_pan(&v, -1000000);
	ns_view_select(&v, n - 2);
	CHECK(col_of(&v, v.selected_ns) < 0, "without graph follows the window stays");

	/* list window */
	ns_view_select(&v, 0);
	ns_view_scroll(&v, 1000);
	CHECK(v.list_top == 1000 && v.selected == 1000, "scrolling keeps the selection on screen");
	ns_view_select(&v, n + 50);
	CHECK(v.selected == n - 1 && v.list_top == n - v.list_rows, "the end of the list");

	/* nearest event in a column */
	ns_view_zoom_full(&v);
	CHECK(ns_view_nearest_row(&v, 0, 0, &row) == 0 &&
	      test_row_ev(t, row, NULL, &(struct ns_event){ 0 }) != NULL, "nearest event of a column");

	CHECK(strcmp(ns_fmt_ts(buf, sizeof(buf), 10171572790499ull), "10171.572790") == 0 &&
	      strcmp(ns_fmt_ts(buf, sizeof(buf), 10171572790500ull), "10171.572791") == 0,
	      "times print as report rounds them");
	CHECK(strcmp(ns_fmt_delta(buf, sizeof(buf), -1234567), "-0.0012346") == 0,
	      "deltas print with 100 ns precision");

	ns_view_free(&v);
	ns_trace_close(t);
	return check_failures ? 1 : 0;
}
