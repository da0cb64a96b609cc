// SPDX-License-Identifier: GPL-2.0-only
/*
 * Putting text into cells. Event text comes from the kernel and may hold
 * anything: newlines (stack traces), tabs, control bytes, invalid UTF-8.
 * Everything that reaches the screen goes through here, so each cell gets
 * one printable character of known width: a newline becomes the glyph set's
 * separator, other unprintables and, outside UTF-8, every byte >= 0x80
 * become '?'. Text is cut at the given width, never wrapped.
 */
#include <string.h>
#include <wctype.h>

#include "tui-int.h"

void ns_tui_put_glyph(WINDOW *win, int y, int x, wchar_t ch, attr_t attr)
{
	wchar_t s[2] = { ch, L'\0' };
	cchar_t cc;

	setcchar(&cc, s, attr & ~A_COLOR, PAIR_NUMBER(attr), NULL);
	mvwadd_wch(win, y, x, &cc);
}

/*
 * @n printable ASCII bytes at (@y, @x) in @attr: one waddnstr() rather than
 * a cchar_t each (setcchar() measures its string every time), which was a
 * tenth of a list page on a wide terminal. The window's own attributes
 * are put back: ns_tui_put_glyph() relies on them being what they were.
 */
static void put_ascii(WINDOW *win, int y, int x, const char *s, int n, attr_t attr)
{
	attr_t old_attr;
	short old_pair;

	/* never past the window's right edge: waddnstr() would go on to the next line */
	if (x + n > getmaxx(win))
		n = getmaxx(win) - x;
	if (n <= 0 || x < 0)
		return;
	wattr_get(win, &old_attr, &old_pair, NULL);
	wattr_set(win, attr & ~A_COLOR, (short)PAIR_NUMBER(attr), NULL);
	mvwaddnstr(win, y, x, s, n);
	wattr_set(win, old_attr, old_pair, NULL);
}

void ns_tui_fill(WINDOW *win, int y, int x, int width, attr_t attr)
{
	static const char blanks[] = "                                                                ";

	while (width > 0) {
		int n = width < (int)sizeof(blanks) - 1 ? width : (int)sizeof(blanks) - 1;

		put_ascii(win, y, x, blanks, n, attr);
		x += n;
		width -= n;
	}
}

int ns_tui_digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/**
 * ns_tui_fmt_ts - a timestamp in config.ini's time format
 * usec: as ns_fmt_ts() and trace-cmd report; nsec: nine decimals, as report -t.
 */
char *ns_tui_fmt_ts(const struct ns_tui *t, char *buf, size_t len, uint64_t ts_ns)
{
	if (!t->time_nsec)
		return ns_fmt_ts(buf, len, ts_ns);
	snprintf(buf, len, "%llu.%09llu", (unsigned long long)(ts_ns / 1000000000ull),
		 (unsigned long long)(ts_ns % 1000000000ull));
	return buf;
}

/* A time difference: as ns_fmt_delta(), or to the nanosecond in the nsec format. */
char *ns_tui_fmt_delta(const struct ns_tui *t, char *buf, size_t len, int64_t delta_ns)
{
	uint64_t mag = delta_ns < 0 ? -(uint64_t)delta_ns : (uint64_t)delta_ns;

	if (!t->time_nsec)
		return ns_fmt_delta(buf, len, delta_ns);
	snprintf(buf, len, "%s%llu.%09llu", delta_ns < 0 ? "-" : "",
		 (unsigned long long)(mag / 1000000000ull), (unsigned long long)(mag % 1000000000ull));
	return buf;
}

/* Columns of the trace's timestamps as ns_tui_fmt_ts() prints them: the last is the widest. */
int ns_tui_ts_width(const struct ns_tui *t)
{
	char buf[32];

	return (int)strlen(ns_tui_fmt_ts(t, buf, sizeof(buf), ns_trace_last_ns(t->trace)));
}

/* The next character of @s, made safe to draw; returns the bytes it used. */
static size_t next_char(const struct ns_tui_glyphs *g, const char *s, mbstate_t *st,
			wchar_t *wc, int *width)
{
	size_t n = 1;

	if (!g->utf8 || (unsigned char)*s < 0x80) {
		*wc = (unsigned char)*s;
		if (*wc >= 0x80)
			*wc = L'?';
	} else {
		n = mbrtowc(wc, s, strlen(s), st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(st, 0, sizeof(*st));
			*wc = L'?';
			n = 1;
		}
	}
	if (*wc == L'\t')
		*wc = L' ';
	*width = iswprint(*wc) ? wcwidth(*wc) : -1;
	if (*width < 0) {
		*wc = L'?';
		*width = 1;
	}
	return n;
}

/* A field being filled, one character at a time. */
struct field {
	WINDOW *win;
	int y, x, width;
	int col;		/* column of the next character; < 0: still skipping */
	attr_t attr;
};

static void put_char(struct field *f, wchar_t wc, int w)
{
	if (f->col >= 0 && f->col + w <= f->width)
		ns_tui_put_glyph(f->win, f->y, f->x + f->col, wc, f->attr);
	else if (f->col >= 0 && f->col < f->width)
		ns_tui_fill(f->win, f->y, f->x + f->col, 1, f->attr);	/* half a wide char */
	else if (f->col < 0 && f->col + w > 0)
		ns_tui_fill(f->win, f->y, f->x, 1, f->attr);		/* its other half */
	f->col += w;
}

static void put_string(struct field *f, const struct ns_tui_glyphs *g, const char *s, int expand_nl)
{
	mbstate_t st;
	wchar_t wc;
	int w;

	memset(&st, 0, sizeof(st));
	while (*s) {
		/* a run of printable ASCII inside the field: at once */
		if (f->col >= 0 && *s >= 0x20 && *s < 0x7f) {
			int n = 0, room = f->width - f->col;

			while (n < room && s[n] >= 0x20 && s[n] < 0x7f)
				n++;
			if (n) {
				put_ascii(f->win, f->y, f->x + f->col, s, n, f->attr);
				f->col += n;
				s += n;
				continue;
			}
		}
		if (*s == '\n' && expand_nl) {
			put_string(f, g, g->newline, 0);
			s++;
			continue;
		}
		s += next_char(g, s, &st, &wc, &w);
		put_char(f, wc, w);
	}
}

/**
 * ns_tui_put_text - draw text in a field of a row, cut to its width
 * @skip_cols: columns of text to leave out at the start (sideways scroll)
 *
 * The rest of the field is filled with blanks. Returns the columns the text
 * needs beyond @skip_cols (more than @width when it was cut).
 */
int ns_tui_put_text(WINDOW *win, const struct ns_tui_glyphs *g, int y, int x, int width,
		    const char *s, int skip_cols, attr_t attr)
{
	struct field f = { win, y, x, width, -skip_cols, attr };

	put_string(&f, g, s, 1);
	if (f.col < 0)
		f.col = 0;
	if (f.col < width)
		ns_tui_fill(win, y, x + f.col, width - f.col, attr);
	return f.col;
}
