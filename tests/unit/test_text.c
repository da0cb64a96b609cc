// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text into cells (src/tui/text.c), on a curses screen that writes to
 * /dev/null and is read back: kernel text with newlines, tabs, control
 * bytes and invalid UTF-8 becomes one printable character per cell, cut at
 * the field's width, scrolled sideways by whole columns, and with no byte
 * >= 0x80 outside UTF-8.
 */
#include <locale.h>
#include <string.h>

#include "check.h"
#include "../../src/tui/tui-int.h"

static WINDOW *win;

/* The field [0, width) of row 0 after drawing @s, as UTF-8 text. */
static const char *field(const struct ns_tui_glyphs *g, const char *s, int width, int skip)
{
	static char out[512];
	size_t len = 0;
	int x;

	werase(win);
	ns_tui_put_text(win, g, 0, 0, width, s, skip, A_NORMAL);
	for (x = 0; x < width + 2 && x < COLS; x++) {
		wchar_t wch[CCHARW_MAX + 1] = { 0 };
		attr_t a;
		short p;
		cchar_t cc;
		mbstate_t st;
		size_t n;

		mvwin_wch(win, 0, x, &cc);
		getcchar(&cc, wch, &a, &p, NULL);
		memset(&st, 0, sizeof(st));
		n = wcrtomb(out + len, wch[0] ? wch[0] : L' ', &st);
		len += n == (size_t)-1 ? 0 : n;
		if (wcwidth(wch[0]) == 2)
			x++;
	}
	out[len] = '\0';
	return out;
}

int main(void)
{
	struct ns_tui_glyphs utf8 = { 0 }, ascii = { 0 };
	FILE *o = fopen("/dev/null", "w"), *i = fopen("/dev/null", "r");
	SCREEN *scr;
	const char *s;

	if (!setlocale(LC_ALL, "C.UTF-8")) {
		SKIP("text: no C.UTF-8 locale");
		return 0;
	}
	scr = newterm("xterm", o, i);
	if (!scr) {
		SKIP("text: no terminfo entry for xterm");
		return 0;
	}
	set_term(scr);
	resizeterm(5, 60);
	win = newwin(1, 60, 0, 0);
	ns_tui_glyphs_init(&utf8);
	ascii = utf8;
	ascii.utf8 = 0;
	ascii.newline = " \\n ";

	s = field(&utf8, "<stack trace >\n=> f1\n=> f2", 40, 0);
	CHECK(!strcmp(s, "<stack trace > \u23ce => f1 \u23ce => f2            "),
	      "text: newlines become \" \u23ce \" on one line (got '%s')", s);
	s = field(&ascii, "a\nb", 8, 0);
	CHECK(!strcmp(s, "a \\n b    "), "text: in ASCII, newlines become \" \\n \" (got '%s')", s);
	s = field(&utf8, "0123456789abcdef", 10, 0);
	CHECK(!strcmp(s, "0123456789  "), "text: cut at the field's width (got '%s')", s);
	s = field(&utf8, "0123456789abcdef", 10, 8);
	CHECK(!strcmp(s, "89abcdef    "), "text: scrolled sideways by 8 (got '%s')", s);
	s = field(&utf8, "a\tb\x01" "c\x7f" "d", 8, 0);
	CHECK(!strcmp(s, "a b?c?d   "), "text: a tab is a blank, control bytes are '?' (got '%s')",
	      s);
	s = field(&utf8, "ok\xff\xfe!", 8, 0);
	CHECK(!strcmp(s, "ok?" "?!     "), "text: invalid UTF-8 is '?' (got '%s')", s);
	s = field(&ascii, "caf\xc3\xa9", 6, 0);
	CHECK(!strcmp(s, "caf??   "), "text: outside UTF-8 every byte >= 0x80 is '?' (got '%s')",
	      s);
	s = field(&utf8, "\xe4\xb8\xad\xe6\x96\x87x", 4, 0);
	CHECK(!strcmp(s, "\xe4\xb8\xad\xe6\x96\x87  "),
	      "text: a wide character that does not fit is left out (got '%s')", s);

	delwin(win);
	endwin();
	delscreen(scr);
	return check_failures ? 1 : 0;
}
