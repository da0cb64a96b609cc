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
#include "narrow.h"

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
	for (i = 0; !h->scr && i < sizeof(snapshot_terms) / sizeof(snapshot_terms[0]); i++)
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

	memset(&t, 0, sizeof(t));
	ret = headless_begin(&h, cols, rows, err, err_len);
	if (!ret)
		ret = ns_tui_open(&t, trace, NULL, err, err_len);
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
	t.nw->sync = 1;
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
