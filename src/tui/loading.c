// SPDX-License-Identifier: GPL-2.0-only
/*
 * The screen while the index is built (ns_trace_open_async()): the whole
 * trace's time span with each CPU's events drawn as far as they are
 * indexed, the first rows of the list read straight from the file
 * (ns_trace_preview()), and a progress bar. It answers the keys that make
 * sense before the index exists: scrolling the list and quitting. Every
 * other key says that indexing goes on. When the index is done the viewer
 * proper takes over the same terminal.
 *
 * Layout, top to bottom: a title line, one row per CPU (as many as fit in
 * half the screen), the span's two ends, the list's header and rows, and
 * the status line with the progress bar.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tui-int.h"

#define LABEL_MIN_W 7	/* "CPU12  " */

/* What the loading screen keeps between frames. */
struct ns_tui_loading {
	struct ns_trace *trace;
	struct ns_tui_theme theme;
	struct ns_tui_glyphs glyphs;
	uint64_t top;		/* the list's first row */
	int list_rows;		/* rows the list showed last */
	uint64_t shown;		/* rows it had to show at top (fewer at the end) */
	const char *note;	/* a message for the status line, or NULL */
};

/* One CPU's row: a mark where indexed events are, a dot where it is not indexed yet. */
/* The CPU labels' width: "CPU12  ", or "extra CPU12  " with instance buffers. */
static int label_w(struct ns_trace *trace)
{
	int w = LABEL_MIN_W, cpu;
	char label[32];

	for (cpu = 0; cpu < ns_trace_nr_cpus(trace); cpu++) {
		ns_trace_cpu_label(trace, cpu, label, sizeof(label));
		if ((int)strlen(label) + 2 > w)
			w = (int)strlen(label) + 2;
	}
	return w;
}

static void draw_cpu(struct ns_tui_loading *l, int y, int cpu, int cols,
		     const struct ns_trace_progress *p, bool loading)
{
	int lw = label_w(l->trace);
	struct ns_trace *trace = l->trace;
	uint64_t n = ns_trace_cpu_nr_events(trace, cpu);
	uint64_t last = n ? ns_trace_ev_ts(trace, cpu, n - 1) : 0;
	uint64_t span = p->last_ns > p->first_ns ? p->last_ns - p->first_ns : 1;
	char label[32];
	int col;

	ns_trace_cpu_label(trace, cpu, label, sizeof(label));
	ns_tui_put_text(stdscr, &l->glyphs, y, 0, lw, label, 0,
			l->theme.attr[NS_ROLE_CPU_LABEL]);
	for (col = 0; col < cols; col++) {
		uint64_t a = p->first_ns + (uint64_t)((double)span * col / cols);
		uint64_t b = p->first_ns + (uint64_t)((double)span * (col + 1) / cols);
		uint64_t i;

		if (b <= a)
			b = a + 1;
		i = ns_trace_cpu_lower_bound(trace, cpu, a);
		if (i < n && ns_trace_ev_ts(trace, cpu, i) < b) {
			int pid = ns_trace_ev_pid(trace, cpu, i);

			ns_tui_put_glyph(stdscr, y, lw + col, l->glyphs.events,
					 ns_tui_task_attr(&l->theme, pid));
		} else if (a > last && loading) {
			/* not indexed yet (or nothing there: we cannot tell yet) */
			ns_tui_put_glyph(stdscr, y, lw + col, l->glyphs.utf8 ? L'\u00b7' : L'.',
					 l->theme.attr[NS_ROLE_RULER]);
		} else {
			ns_tui_put_glyph(stdscr, y, lw + col, L' ', A_NORMAL);
		}
	}
}

static void draw_list(struct ns_tui_loading *l, int y, int rows, int width)
{
	struct ns_event_text *txt;
	char line[512];
	int got, i;

	l->list_rows = rows;
	snprintf(line, sizeof(line), "%9s %3s %15s %16s %7s %5s  %-20s %s", "#", "CPU", "Time",
		 "Task", "PID", "Lat", "Event", "Info");
	ns_tui_put_text(stdscr, &l->glyphs, y, 0, width, line, 0,
			l->theme.attr[NS_ROLE_LIST_HEADER]);
	if (rows < 1)
		return;
	txt = calloc((size_t)rows, sizeof(*txt));
	got = txt ? ns_trace_preview(l->trace, l->top, (size_t)rows, txt) : -ENOMEM;
	l->shown = got > 0 ? (uint64_t)got : 0;
	for (i = 0; i < rows; i++) {
		line[0] = '\0';
		if (i < got)
			snprintf(line, sizeof(line), "%9llu %3d %15s %16s %7d %5s  %-20s %s",
				 (unsigned long long)(l->top + i), txt[i].cpu, txt[i].time,
				 txt[i].comm, txt[i].pid, txt[i].latency, txt[i].event,
				 txt[i].info ? txt[i].info : "");
		else if (i == 0 && got == -ENOTSUP)	/* several files: once all are indexed */
			snprintf(line, sizeof(line), "  the list comes once every file is indexed");
		else if (i == 0 && got < 0)
			snprintf(line, sizeof(line), "  cannot read the events: %s", strerror(-got));
		ns_tui_put_text(stdscr, &l->glyphs, y + 1 + i, 0, width, line, 0,
				l->theme.attr[NS_ROLE_NORMAL]);
	}
	for (i = 0; txt && i < (got > 0 ? got : 0); i++)
		ns_event_text_free(&txt[i]);
	free(txt);
}

static void draw_status(struct ns_tui_loading *l, int y, int width,
			const struct ns_trace_progress *p)
{
	int pct = p->total_pages ? (int)(100 * p->done_pages / p->total_pages) : 0;
	int bar = width >= 60 ? 20 : width >= 40 ? 10 : 0, i;
	char line[256], bars[32];

	for (i = 0; i < bar; i++)
		bars[i] = i < bar * pct / 100 ? '#' : '.';
	bars[bar] = '\0';
	if (l->note)
		snprintf(line, sizeof(line), "%s%s%s %3d%%  %s", bar ? "[" : "", bars, bar ? "]" : "",
			 pct, l->note);
	else
		snprintf(line, sizeof(line), "%s%s%s %3d%%  indexing %llu events  q:quit  "
			 "j/k PgDn/PgUp:scroll", bar ? "[" : "", bars, bar ? "]" : "", pct,
			 (unsigned long long)p->events);
	ns_tui_put_text(stdscr, &l->glyphs, y, 0, width, line, 0, l->theme.attr[NS_ROLE_STATUS]);
}

/* One frame of the loading screen on stdscr (not refreshed). */
void ns_tui_loading_draw(struct ns_tui_loading *l)
{
	struct ns_trace_progress p;
	int nr_cpus = ns_trace_nr_cpus(l->trace), lw = label_w(l->trace), cols = COLS - lw;
	int cpus, y = 0, cpu;
	char line[512], a[32], b[32];
	bool loading = ns_trace_loading(l->trace, &p);

	erase();
	/* the path gives way from its start, so that "(indexing)" always shows */
	{
		const char *path = ns_trace_path(l->trace), *cut = "";
		int fixed = (int)strlen(" nurseshark    (indexing)"), len = (int)strlen(path);

		if (fixed + len > COLS && COLS - fixed - 3 > 0) {
			path += len - (COLS - fixed - 3);
			while ((*path & 0xc0) == 0x80)	/* not in a UTF-8 character */
				path++;
			cut = "...";
		}
		snprintf(line, sizeof(line), " nurseshark  %s%s  (indexing)", cut, path);
	}
	ns_tui_put_text(stdscr, &l->glyphs, y++, 0, COLS, line, 0, l->theme.attr[NS_ROLE_STATUS]);
	/* the CPU rows take at most half of what is left */
	cpus = nr_cpus;
	if (cpus > (LINES - 4) / 2)
		cpus = (LINES - 4) / 2;
	if (cols > 0) {
		for (cpu = 0; cpu < cpus; cpu++)
			draw_cpu(l, y++, cpu, cols, &p, loading);
		ns_fmt_ts(a, sizeof(a), p.first_ns);
		ns_fmt_ts(b, sizeof(b), p.last_ns);
		snprintf(line, sizeof(line), "%*s%s", lw, "", a);
		ns_tui_put_text(stdscr, &l->glyphs, y, 0, COLS, line, 0,
				l->theme.attr[NS_ROLE_RULER_LABEL]);
		if ((int)strlen(b) < cols - (int)strlen(a) - 1)
			ns_tui_put_text(stdscr, &l->glyphs, y, COLS - (int)strlen(b), (int)strlen(b),
					b, 0, l->theme.attr[NS_ROLE_RULER_LABEL]);
		y++;
	}
	if (LINES - 1 - y >= 1)
		draw_list(l, y, LINES - 2 - y, COLS);
	draw_status(l, LINES - 1, COLS, &p);
}

struct ns_tui_loading *ns_tui_loading_new(struct ns_trace *trace, int colour)
{
	struct ns_tui_loading *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->trace = trace;
	ns_tui_theme_init(&l->theme, colour);
	ns_tui_glyphs_init(&l->glyphs);
	return l;
}

void ns_tui_loading_free(struct ns_tui_loading *l)
{
	free(l);
}

/*
 * A key while loading: 1 to quit, 0 otherwise. The list scrolls as the
 * viewer's does (j/k, arrows, PgDn/PgUp, space, g/Home); as far as the
 * rows read so far go, since how many rows there are is not known yet.
 */
int ns_tui_loading_key(struct ns_tui_loading *l, int ch)
{
	uint64_t page = l->list_rows > 1 ? (uint64_t)l->list_rows - 1 : 1;

	l->note = NULL;
	switch (ch) {
	case 'q':
	case 'Q':
	case 3:		/* ^C in raw mode */
		return 1;
	case 'j':
	case KEY_DOWN:
		if (l->shown > 1)
			l->top++;
		break;
	case 'k':
	case KEY_UP:
		if (l->top)
			l->top--;
		break;
	case ' ':
	case KEY_NPAGE:
	case 6:		/* ^F */
		if (l->shown > page)
			l->top += page;
		break;
	case KEY_PPAGE:
	case 2:		/* ^B */
		l->top = l->top > page ? l->top - page : 0;
		break;
	case 'g':
	case KEY_HOME:
		l->top = 0;
		break;
	case KEY_RESIZE:
		break;
	default:
		l->note = "still indexing: this key works once it is done";
		break;
	}
	return 0;
}
