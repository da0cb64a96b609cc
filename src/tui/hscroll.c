// SPDX-License-Identifier: GPL-2.0-only
/*
 * Horizontal scrolling of screen lines, which curses does not do: a pan of
 * one column shifts every graph row by one cell, and curses, which only
 * scrolls lines up and down, would send each row again, a colour change
 * and a (three-byte, in UTF-8) block character per cell: over 1 KiB per
 * step at 80x24. Before each update, ns_tui_hscroll() compares each line
 * of the screen to be (newscr) with what the terminal shows (curscr); where
 * a stretch of a line reappears shifted by a few cells, it moves that
 * stretch on the terminal with delete-character and insert-character
 * (dch, ich), notes the move in curscr, and leaves the rest to doupdate(),
 * which then sends only the cells that are really new.
 *
 * curscr stays what the terminal shows: the cells the move blanks are set
 * to a value no window holds (the new cell with A_PROTECT flipped), so
 * that doupdate() always draws them, whatever blank the terminal chose.
 * Lines with wide characters are left alone (win_wchnstr skips their
 * second halves), and so is every terminal without dch and ich.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui-int.h"
#include <term.h>

#define HSCROLL_MAX_SHIFT	8	/* the largest shift looked for, in cells */
#define HSCROLL_MIN_GAIN	8	/* cells a shift must save to be worth its bytes */

static bool cell_eq(const cchar_t *a, const cchar_t *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* Whether a line holds only single-width cells, so that index == column. */
static bool line_narrow(const cchar_t *c, int n)
{
	wchar_t wch[CCHARW_MAX + 1];
	attr_t attr;
	short pair;
	int i;

	for (i = 0; i < n; i++) {
		if (getcchar(&c[i], wch, &attr, &pair, NULL) == ERR)
			return false;
		if (wch[0] && wcwidth(wch[0]) > 1)
			return false;
	}
	return true;
}

/*
 * The best shift of one line: new[x] == old[x + k] over [*a, *b), the
 * stretch that saves most cells (Kadane over +1 for a cell the shift
 * brings, -1 for one it would spoil). Returns the cells saved.
 */
static int best_shift(const cchar_t *old, const cchar_t *new, int n, int *shift, int *a, int *b)
{
	int k, x, best = 0;

	for (k = -HSCROLL_MAX_SHIFT; k <= HSCROLL_MAX_SHIFT; k++) {
		int lo = k < 0 ? -k : 0, hi = k > 0 ? n - k : n;
		int sum = 0, start = lo;

		if (!k)
			continue;
		for (x = lo; x < hi; x++) {
			bool same = cell_eq(&new[x], &old[x]);
			bool moved = cell_eq(&new[x], &old[x + k]);

			sum += (moved && !same) - (same && !moved);
			if (sum <= 0) {
				sum = 0;
				start = x + 1;
				continue;
			}
			/* the blanks the move leaves must be drawn again */
			if (sum - abs(k) > best) {
				best = sum - abs(k);
				*shift = k;
				*a = start;
				*b = x + 1;
			}
		}
	}
	return best;
}

/*
 * The moves go out through stdio, as mvcur() sends its own: curses flushed
 * its buffer at the end of the last doupdate(), and hscroll flushes stdout
 * before the next, so the order holds.
 */
static int out_char(SCREEN *sp, int c)
{
	(void)sp;
	return putchar(c);
}

static void emit(SCREEN *sp, const char *cap, int n)
{
	tputs_sp(sp, tparm(cap, n, 0, 0, 0, 0, 0, 0, 0, 0), 1, out_char);
}

/* Moves old[a + k .. b + k) to [a, b) on the terminal and in curscr's copy. */
static void shift_line(SCREEN *sp, int y, cchar_t *old, const cchar_t *new, int n, int k, int a, int b,
		       const char *dch, const char *ich, int *cy, int *cx)
{
	int m = abs(k), x, blank0, blank1;

	if (k > 0) {
		/* left: drop the m cells before the stretch, put m back after it */
		mvcur_sp(sp, *cy, *cx, y, a);
		emit(sp, dch, m);
		*cy = y;
		*cx = a;
		if (b + m < n) {
			mvcur_sp(sp, *cy, *cx, y, b);
			emit(sp, ich, m);
			*cx = b;
		}
		memmove(&old[a], &old[a + m], (size_t)(b - a) * sizeof(*old));
		blank0 = b;
		blank1 = b + m < n ? b + m : n;
	} else {
		/* right: drop the m cells after the stretch, put m back before it */
		if (b < n) {
			mvcur_sp(sp, *cy, *cx, y, b - m);
			emit(sp, dch, m);
			*cy = y;
			*cx = b - m;
		}
		mvcur_sp(sp, *cy, *cx, y, a - m);
		emit(sp, ich, m);
		*cy = y;
		*cx = a - m;
		memmove(&old[a], &old[a - m], (size_t)(b - a) * sizeof(*old));
		blank0 = a - m;
		blank1 = a;
	}
	for (x = blank0; x < blank1; x++) {
		old[x] = new[x];
		old[x].attr ^= A_PROTECT;
	}
	mvwadd_wchnstr(curscr, y, 0, old, n);
}

/**
 * ns_tui_hscroll() - shift what moved sideways on the terminal before doupdate()
 * @sp: the terminal's screen, whose output buffer doupdate() sends next
 *
 * Call after the windows' wnoutrefresh() and just before doupdate(). Does
 * nothing when curses will repaint the whole screen anyway or the terminal
 * cannot delete and insert characters.
 */
void ns_tui_hscroll(SCREEN *sp)
{
	const char *dch, *ich;
	cchar_t *old, *new;
	int n = COLS, y, cy, cx, oy, ox;

	if (!sp || !newscr || !curscr || is_cleared(curscr) || is_cleared(newscr) || n < 2)
		return;
	dch = tigetstr_sp(sp, "dch");
	ich = tigetstr_sp(sp, "ich");
	if (!dch || dch == (char *)-1 || !ich || ich == (char *)-1)
		return;
	old = calloc((size_t)n + 1, sizeof(*old));
	new = calloc((size_t)n + 1, sizeof(*new));
	if (!old || !new)
		goto out;
	getyx(curscr, oy, ox);
	/* where the terminal's cursor is, curses knows and we do not: move absolutely first */
	cy = -1;
	cx = -1;
	for (y = 0; y < LINES; y++) {
		int k = 0, a = 0, b = 0;

		if (mvwin_wchnstr(curscr, y, 0, old, n) == ERR ||
		    mvwin_wchnstr(newscr, y, 0, new, n) == ERR)
			continue;
		if (best_shift(old, new, n, &k, &a, &b) < HSCROLL_MIN_GAIN)
			continue;
		if (!line_narrow(old, n) || !line_narrow(new, n))
			continue;
		shift_line(sp, y, old, new, n, k, a, b, dch, ich, &cy, &cx);
	}
	/* mvcur() told curses where the cursor went; curscr's own stays */
	wmove(curscr, oy, ox);
	fflush(stdout);
out:
	free(old);
	free(new);
}
