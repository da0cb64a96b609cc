// SPDX-License-Identifier: GPL-2.0-only
/*
 * --snapshot: the front end without a terminal. Curses runs on a screen of
 * a known terminal type whose output goes to /dev/null; the keys of --keys
 * go through ns_tui_input() and each frame through ns_tui_draw(), exactly
 * as typed keys would; at the end the screen curses believes the terminal
 * shows (curscr) is read back cell by cell and printed as text, trailing
 * blanks removed. CI and scripts get the real screen with no tty at all.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui-int.h"
#include "filtering.h"

/* Terminal types in every ncurses install; the output goes nowhere anyway. */
static const char *const snapshot_terms[] = { "xterm", "vt100", "ansi" };

static void print_screen(FILE *out, int cols, int rows)
{
	char *line = malloc((size_t)cols * MB_LEN_MAX + 1);
	int y, x;

	if (!line)
		return;
	for (y = 0; y < rows; y++) {
		size_t len = 0, end = 0;

		for (x = 0; x < cols; x++) {
			wchar_t wch[CCHARW_MAX + 1] = { 0 };
			attr_t attrs;
			short pair;
			cchar_t cc;
			mbstate_t st;
			size_t n;

			if (mvwin_wch(curscr, y, x, &cc) == ERR ||
			    getcchar(&cc, wch, &attrs, &pair, NULL) == ERR || !wch[0])
				wch[0] = L' ';
			memset(&st, 0, sizeof(st));
			n = wcrtomb(line + len, wch[0], &st);
			if (n == (size_t)-1) {
				line[len] = '?';
				n = 1;
			}
			len += n;
			if (wch[0] != L' ')
				end = len;
			if (wcwidth(wch[0]) == 2)
				x++;	/* the second cell of a wide character */
		}
		fprintf(out, "%.*s\n", (int)end, line);
	}
	free(line);
}

/* A curses screen of @cols x @rows whose output goes to /dev/null. */
struct headless {
	FILE *out, *in;
	SCREEN *scr;
};

static int headless_begin(struct headless *h, int cols, int rows, char *err, size_t err_len)
{
	size_t i;

	memset(h, 0, sizeof(*h));
	h->out = fopen("/dev/null", "w");
	h->in = fopen("/dev/null", "r");
	if (!h->out || !h->in) {
		snprintf(err, err_len, "/dev/null: %s", strerror(errno));
		return -EIO;
	}
	for (i = 0; !h->scr && i < NS_ARRAY_SIZE(snapshot_terms); i++)
		h->scr = newterm(snapshot_terms[i], h->out, h->in);
	if (!h->scr) {
		snprintf(err, err_len, "no terminfo entry for xterm, vt100 or ansi");
		return -ENOENT;
	}
	set_term(h->scr);
	resizeterm(rows, cols);
	return 0;
}

static void headless_end(struct headless *h)
{
	if (h->scr) {
		endwin();
		delscreen(h->scr);
	}
	if (h->out)
		fclose(h->out);
	if (h->in)
		fclose(h->in);
}

int ns_tui_loading_snapshot(struct ns_trace *trace, int cols, int rows, FILE *out, char *err,
			    size_t err_len)
{
	struct ns_tui_loading *l;
	struct headless h;
	int ret;

	ret = headless_begin(&h, cols, rows, err, err_len);
	if (!ret) {
		l = ns_tui_loading_new(trace, 0);
		if (l) {
			ns_tui_loading_draw(l);
			wnoutrefresh(stdscr);
			doupdate();
			if (out)
				print_screen(out, cols, rows);
			ns_tui_loading_free(l);
		} else {
			snprintf(err, err_len, "%s", strerror(ENOMEM));
			ret = -ENOMEM;
		}
	}
	headless_end(&h);
	return ret;
}

/* The viewer on a headless screen, as --stats times it. */
static int headless_viewer(struct headless *h, struct ns_tui *t, struct ns_trace *trace, int cols,
			   int rows, char *err, size_t err_len)
{
	int ret;

	memset(t, 0, sizeof(*t));
	ret = headless_begin(h, cols, rows, err, err_len);
	return ret ? ret : ns_tui_open(t, trace, NULL, err, err_len);
}

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int ns_tui_time_frames(struct ns_trace *trace, int cols, int rows, int frames,
		       double *us_per_frame, char *err, size_t err_len)
{
	struct ns_tui_input in = { .kind = NS_IN_KEY };
	struct headless h;
	struct ns_tui t;
	double t0;
	int ret, i;

	ret = headless_viewer(&h, &t, trace, cols, rows, err, err_len);
	if (ret)
		goto out;
	ns_tui_draw(&t);
	t0 = cpu_us();
	for (i = 0; i < frames; i++) {
		/* a step right then back: every frame recomputes the whole window */
		in.key = i % 2 ? '[' : ']';
		ns_tui_input(&t, &in);
		ns_tui_draw(&t);
	}
	*us_per_frame = frames > 0 ? (cpu_us() - t0) / frames : 0;
	ns_tui_close(&t);
out:
	headless_end(&h);
	return ret;
}

/* The samples of ns_tui_time_steps(): CPU microseconds of one step each. */
struct step_samples {
	double *us;
	size_t nr, cap;
	double raw_max;		/* the slowest single measurement */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void samples_summary(struct step_samples *s, double *max, double *median)
{
	*max = *median = 0;
	if (!s->nr)
		return;
	qsort(s->us, s->nr, sizeof(*s->us), cmp_double);
	*max = s->us[s->nr - 1];
	*median = s->nr % 2 ? s->us[s->nr / 2] : (s->us[s->nr / 2 - 1] + s->us[s->nr / 2]) / 2;
}

static void finish_jobs(struct ns_tui *t);

/* Keys in the --keys syntax, handled as typed, jobs run out, no redraw (untimed). */
static void feed_keys(struct ns_tui *t, const char *keys)
{
	struct ns_tui_input in[2];
	char err[128];
	int n, i;

	while ((n = ns_tui_parse_input(&keys, in, err, sizeof(err))) > 0)
		for (i = 0; i < n; i++)
			ns_tui_input(t, &in[i]);
	finish_jobs(t);
}

/*
 * One step as the user sees it: a key (parsed beforehand, so only what a
 * key press costs is timed) handled and the screen redrawn, in CPU time of
 * the whole process. The machines we measure on are shared: a sample is
 * the best of three, the key and its redraw, then the same screen redrawn
 * twice more (nothing is cached between redraws), each with the key's own
 * cost added; the slowest single measurement is kept apart (raw_max).
 */
static int timed_step(struct ns_tui *t, const char *key, struct step_samples *s)
{
	struct ns_tui_input in[2];
	char err[128];
	double t0, t1, best;
	int n, i;

	n = ns_tui_parse_input(&key, in, err, sizeof(err));
	if (n <= 0)
		return -EINVAL;
	if (NS_GROW(s->us, s->cap, s->nr + 1))
		return -ENOMEM;
	t0 = cpu_us();
	for (i = 0; i < n; i++)
		ns_tui_input(t, &in[i]);
	t1 = cpu_us();
	ns_tui_draw(t);
	best = cpu_us() - t0;
	if (best > s->raw_max)
		s->raw_max = best;
	for (i = 0; i < 2; i++) {
		double t2 = cpu_us(), again;

		ns_tui_draw(t);
		again = (t1 - t0) + (cpu_us() - t2);
		if (again < best)
			best = again;
	}
	s->us[s->nr++] = best;
	finish_jobs(t);
	return 0;
}

/* Select row @row as the user would, with the command line's ":N". */
static void select_row(struct ns_tui *t, uint64_t row)
{
	char keys[48];

	snprintf(keys, sizeof(keys), ":%llu<Enter>", (unsigned long long)row);
	feed_keys(t, keys);
}

/* Up to this many zoom levels: 2^64 ns of trace cannot need more. */
#define STEP_MAX_LEVELS		70
#define STEP_RANDOM_ROWS	5

int ns_tui_time_steps(struct ns_trace *trace, int cols, int rows, const char *setup_keys,
		      struct ns_tui_step_stats *st, char *err, size_t err_len)
{
	/* pans at every level: both directions, in both orders, by a column and a page */
	static const char *const pans[] = { "]", "[", "[", "]", "}", "{" };
	static const char *const pages[] = { "<PageDown>", "<PageDown>", "<PageUp>", "<PageUp>" };
	static const char *const zooms[] = { "0", "Z" };
	struct step_samples zoom = { 0 }, page = { 0 };
	uint64_t n = ns_trace_nr_events(trace), at[3 + STEP_RANDOM_ROWS], seed = 0x6e75727365ULL;
	struct headless h;
	struct ns_tui t;
	size_t f, i, z, nr_at = 0;
	int ret, levels;

	memset(st, 0, sizeof(*st));
	ret = headless_viewer(&h, &t, trace, cols, rows, err, err_len);
	if (ret)
		goto out;
	finish_jobs(&t);
	if (setup_keys)
		feed_keys(&t, setup_keys);
	st->task_rows = t.rowset.nr_task;
	if (t.focus != NS_FOCUS_LIST)
		feed_keys(&t, "<Tab>");
	ns_tui_draw(&t);
	if (n) {
		at[nr_at++] = 0;
		at[nr_at++] = n / 2;
		at[nr_at++] = n - 1;
	}
	/* zoom and pan, from the whole trace to 1 ns per column, around each focus */
	for (f = 0; f < (n ? 3 : 1) && !ret; f++) {
		if (n)
			select_row(&t, at[f]);
		feed_keys(&t, "0");
		ns_tui_draw(&t);
		for (levels = 1; levels <= STEP_MAX_LEVELS && !ret; levels++) {
			uint64_t width = t.view.end_ns - t.view.start_ns;

			for (i = 0; i < NS_ARRAY_SIZE(pans) && !ret; i++)
				ret = timed_step(&t, pans[i], &zoom);
			if (ret)
				break;
			/*
			 * A pan against the trace's edge does nothing, so the pans
			 * can leave the window off the focus event: select it again
			 * (graph follows brings it back) to zoom around it.
			 */
			if (n) {
				select_row(&t, at[f]);
				ns_tui_draw(&t);
			}
			ret = timed_step(&t, "+", &zoom);
			if (ret || t.view.end_ns - t.view.start_ns >= width) {
				/* that key did nothing: this level was the last */
				if (!ret)
					zoom.nr--;
				break;
			}
		}
		if (levels > st->step_levels)
			st->step_levels = levels;
	}
	/* list pages from the start, the middle, the end and random rows, zoomed out and in */
	for (i = 0; n && i < STEP_RANDOM_ROWS; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		at[nr_at++] = (seed >> 33) % n;
	}
	for (z = 0; z < NS_ARRAY_SIZE(zooms) && !ret; z++) {
		for (f = 0; f < (nr_at ? nr_at : 1) && !ret; f++) {
			if (nr_at)
				select_row(&t, at[f]);
			feed_keys(&t, zooms[z]);
			ns_tui_draw(&t);
			for (i = 0; i < NS_ARRAY_SIZE(pages) && !ret; i++)
				ret = timed_step(&t, pages[i], &page);
		}
	}
	if (ret) {
		snprintf(err, err_len, "timing the steps: %s", strerror(-ret));
	} else {
		st->step_redraws = zoom.nr;
		samples_summary(&zoom, &st->step_us_max, &st->step_us_median);
		st->step_us_raw_max = zoom.raw_max;
		st->page_us_raw_max = page.raw_max;
		st->list_pages = page.nr;
		samples_summary(&page, &st->page_us_max, &st->page_us_median);
	}
	ns_tui_close(&t);
out:
	free(zoom.us);
	free(page.us);
	headless_end(&h);
	return ret;
}

int ns_tui_snapshot(struct ns_trace *trace, int cols, int rows, const char *keys,
		    FILE *out, char *err, size_t err_len)
{
	return ns_tui_snapshot_setup(trace, NULL, cols, rows, keys, out, err, err_len);
}

/* Jobs (filter passes, searches) run to their end: a snapshot is exact. */
static void finish_jobs(struct ns_tui *t)
{
	while (ns_tui_busy(t))
		ns_tui_work(t);
}

int ns_tui_snapshot_setup(struct ns_trace *trace, const struct ns_tui_setup *setup, int cols,
			  int rows, const char *keys, FILE *out, char *err, size_t err_len)
{
	struct ns_tui_input in[2];
	struct headless h;
	struct ns_tui t;
	size_t i;
	int ret, n;

	memset(&t, 0, sizeof(t));
	ret = keys ? ns_tui_check_keys(keys, err, err_len) : 0;
	if (ret)
		return ret;
	ret = headless_begin(&h, cols, rows, err, err_len);
	if (ret)
		goto out;
	ret = ns_tui_open(&t, trace, setup, err, err_len);
	if (ret)
		goto out;
	t.flt->sync = 1;
	finish_jobs(&t);
	ns_tui_draw(&t);
	while (keys && !t.quit && (n = ns_tui_parse_input(&keys, in, err, err_len)) > 0) {
		for (i = 0; i < (size_t)n; i++) {
			if (in[i].kind == NS_IN_RESIZE) {
				resizeterm(in[i].y, in[i].x);
				rows = in[i].y;
				cols = in[i].x;
			}
			ns_tui_input(&t, &in[i]);
			finish_jobs(&t);
			ns_tui_draw(&t);
		}
	}
	print_screen(out, cols, rows);
	if (fflush(out) || ferror(out)) {
		ret = -EIO;
		snprintf(err, err_len, "cannot write the screen: %s", strerror(errno));
	}
	ns_tui_close(&t);
out:
	headless_end(&h);
	return ret;
}
