// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys the terminal sends as escape sequences that its terminfo entry does
 * not name. curses decodes what terminfo lists; anything else reaches us as
 * an ESC followed by the sequence's bytes, which would act as keys of their
 * own (under TERM=screen the C of S-Right's ESC [1;2C opens the CPU picker).
 * Here such a sequence is read whole after its ESC and becomes one key when
 * it is a common xterm, rxvt, linux console, screen or tmux key (Home, End,
 * PgUp, PgDn, Insert, Delete, F1-F12, arrows with Shift or Ctrl, the
 * application keypad), or nothing at all (mouse reports while the mouse is
 * off, focus reports, keys with no meaning here).
 *
 * Where a sequence ends is decided by its bytes (ECMA-48: parameters and
 * intermediates, then one final byte); the inter-byte timeout only bounds
 * the wait for a sequence cut short. Curses' extended keys (kLFT5 and the
 * like, which terminfo names with a modifier digit, and the keypad's kpADD
 * ...) are translated by name into the same keys.
 */
#include <string.h>

#include "tui-int.h"

#define NS_SEQ_MAX	32	/* longer is garbage: discarded */
#define NS_SEQ_MS	50	/* the wait for the next byte of a started sequence */

/* A key with the modifier of xterm's "1;M" parameter (M - 1: 1 Shift, 2 Alt, 4 Ctrl). */
static int with_mod(int key, int mod)
{
	int bits = mod > 1 ? mod - 1 : 0, shift = bits & 1, ctrl = bits & 4;
	static const int keys[][3] = {
		/* plain, Shift, Ctrl */
		{ KEY_LEFT, KEY_SLEFT, NS_KEY_C_LEFT },
		{ KEY_RIGHT, KEY_SRIGHT, NS_KEY_C_RIGHT },
		{ KEY_UP, KEY_SR, NS_KEY_C_UP },
		{ KEY_DOWN, KEY_SF, NS_KEY_C_DOWN },
	};
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(keys); i++) {
		if (keys[i][0] != key)
			continue;
		return ctrl ? keys[i][2] : shift ? keys[i][1] : key;
	}
	/* Home, End, PgUp, PgDn, ... with a modifier: the key itself */
	return key;
}

/* The number of the "~" (or rxvt's $ ^ @) keys: ESC [ N ~. */
static int tilde_key(int n)
{
	switch (n) {
	case 1: case 7: return KEY_HOME;	/* 1: linux, screen, tmux; 7: rxvt */
	case 2: return KEY_IC;
	case 3: return KEY_DC;
	case 4: case 8: return KEY_END;		/* 4: linux, screen, tmux; 8: rxvt */
	case 5: return KEY_PPAGE;
	case 6: return KEY_NPAGE;
	case 11: case 12: case 13: case 14: case 15: return KEY_F(n - 10);
	case 17: case 18: case 19: case 20: case 21: return KEY_F(n - 11);
	case 23: case 24: return KEY_F(n - 12);
	default: return NS_KEY_NONE;
	}
}

/* A final byte that names a key alone (CSI or SS3); 0 for none. */
static int final_key(int c)
{
	switch (c) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return KEY_RIGHT;
	case 'D': return KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	case 'P': case 'Q': case 'R': case 'S': return KEY_F(c - 'P' + 1);
	default: return 0;
	}
}

/* ESC O X: cursor keys, F1-F4 and the application keypad. */
static int ss3_key(int c, int mod)
{
	static const char keypad[] = "*+,-./0123456789";	/* ESC O j .. ESC O y */

	if (final_key(c))
		return with_mod(final_key(c), mod);
	if (c >= 'a' && c <= 'd')	/* rxvt: Ctrl with the arrows */
		return with_mod(c == 'a' ? KEY_UP : c == 'b' ? KEY_DOWN :
				c == 'c' ? KEY_RIGHT : KEY_LEFT, 5);
	if (c >= 'j' && c <= 'y')
		return keypad[c - 'j'];
	if (c == 'M')
		return '\n';
	if (c == 'X')
		return '=';
	return NS_KEY_NONE;
}

/**
 * ns_tui_decode_seq - what the bytes after an ESC mean, so far
 * @b: the bytes that followed the ESC, @n of them (at least one)
 * Returns a key; NS_KEY_MORE while the sequence is not complete;
 * NS_KEY_NONE for a complete sequence to discard; NS_KEY_ESC_THEN when the
 * ESC was a key of its own and b[0] starts the next key.
 */
int ns_tui_decode_seq(const int *b, int n)
{
	int c = b[n - 1], i, idx = 0, p[2] = { 0, 0 }, priv = 0;

	if (b[0] != '[' && b[0] != 'O')
		return NS_KEY_ESC_THEN;
	if (n > NS_SEQ_MAX)
		return NS_KEY_NONE;
	if (b[0] == 'O') {
		/* SS3, with an optional modifier digit (ESC O 2 P) */
		if (n == 1 || (c >= '0' && c <= '9'))
			return NS_KEY_MORE;
		return ss3_key(c, n > 2 && b[1] >= '0' && b[1] <= '9' ? b[1] - '0' : 1);
	}
	if (n == 1)
		return NS_KEY_MORE;
	/* the linux console's F1-F5: ESC [ [ A .. ESC [ [ E */
	if (b[1] == '[') {
		if (n == 2)
			return NS_KEY_MORE;
		return c >= 'A' && c <= 'E' && n == 3 ? KEY_F(c - 'A' + 1) : NS_KEY_NONE;
	}
	/* X10 mouse report: ESC [ M and three raw bytes */
	if (b[1] == 'M' && n >= 2)
		return n < 5 ? NS_KEY_MORE : NS_KEY_NONE;
	/* rxvt ends Shift with PgUp and the like in '$', otherwise an intermediate byte */
	if (c == '$' && n > 2 && b[n - 2] >= '0' && b[n - 2] <= '9')
		return tilde_key(b[n - 2] - '0') == NS_KEY_NONE || n > 3 ? NS_KEY_NONE :
		       tilde_key(b[n - 2] - '0');
	if (c >= 0x20 && c <= 0x3f)		/* a parameter or intermediate byte */
		return NS_KEY_MORE;
	if (c < 0x40 || c > 0x7e)
		return NS_KEY_NONE;		/* not a CSI sequence at all */
	/* the final byte: the parameters are b[1 .. n - 2] */
	for (i = 1; i < n - 1; i++) {
		if (b[i] >= '0' && b[i] <= '9') {
			if (idx < 2 && p[idx] < 1000)
				p[idx] = p[idx] * 10 + b[i] - '0';
		} else if (b[i] == ';') {
			idx++;
		} else {
			priv = 1;	/* < = > ? or an intermediate: SGR mouse, replies */
		}
	}
	if (priv)
		return NS_KEY_NONE;
	if (c == '~' || c == '^' || c == '@')
		return tilde_key(p[0]) == NS_KEY_NONE ? NS_KEY_NONE :
		       with_mod(tilde_key(p[0]), p[1]);
	if (c == 'Z')
		return KEY_BTAB;
	if (c >= 'a' && c <= 'd')	/* rxvt: Shift with the arrows */
		return with_mod(c == 'a' ? KEY_UP : c == 'b' ? KEY_DOWN :
				c == 'c' ? KEY_RIGHT : KEY_LEFT, 2);
	if (final_key(c) && (p[0] <= 1))
		return with_mod(final_key(c), p[1]);
	return NS_KEY_NONE;	/* a mouse report (ESC [ b;x;y M), focus (ESC [ I), ... */
}

/**
 * ns_tui_ext_key - the key of a curses extended key name (kLFT5: C-Left)
 * Returns the key, or NS_KEY_NONE for a name we do not know.
 */
int ns_tui_ext_key(const char *name)
{
	static const struct {
		const char *cap;
		int key;
	} caps[] = {
		{ "kLFT", KEY_LEFT }, { "kRIT", KEY_RIGHT }, { "kUP", KEY_UP },
		{ "kDN", KEY_DOWN }, { "kHOM", KEY_HOME }, { "kEND", KEY_END },
		{ "kPRV", KEY_PPAGE }, { "kNXT", KEY_NPAGE }, { "kDC", KEY_DC },
		{ "kIC", KEY_IC },
	};
	static const struct {
		const char *cap;
		int key;
	} keypad[] = {
		{ "kpADD", '+' }, { "kpSUB", '-' }, { "kpMUL", '*' }, { "kpDIV", '/' },
		{ "kpDOT", '.' }, { "kpCMA", ',' }, { "kpZRO", '0' },
	};
	size_t i, len;

	if (!name)
		return NS_KEY_NONE;
	for (i = 0; i < NS_ARRAY_SIZE(keypad); i++)
		if (!strcmp(name, keypad[i].cap))
			return keypad[i].key;
	for (i = 0; i < NS_ARRAY_SIZE(caps); i++) {
		len = strlen(caps[i].cap);
		if (strncmp(name, caps[i].cap, len))
			continue;
		/* kUP and kDN alone are Shift; kLFT5 is Ctrl */
		if (!name[len])
			return with_mod(caps[i].key, 2);
		if (name[len] >= '2' && name[len] <= '8' && !name[len + 1])
			return with_mod(caps[i].key, name[len] - '0');
	}
	return NS_KEY_NONE;
}

/* Keys that terminals (and terminfo entries) name in more than one way. */
static int same_key(int ch)
{
	switch (ch) {
	case KEY_FIND: case KEY_A1: case KEY_SHOME:
		return KEY_HOME;
	case KEY_SELECT: case KEY_C1: case KEY_SEND: case KEY_LL:
		return KEY_END;
	case KEY_A3: case KEY_SPREVIOUS:
		return KEY_PPAGE;
	case KEY_C3: case KEY_SNEXT:
		return KEY_NPAGE;
	default:
		/* F13-F24 are Shift with F1-F12, then Ctrl, Ctrl-Shift, Alt, ... */
		if (ch > KEY_F(12) && ch <= KEY_F(63))
			return KEY_F((ch - KEY_F(1)) % 12 + 1);
		return ch;
	}
}

/**
 * ns_tui_read_key - the next key, mouse report or resize from @w
 * After an ESC the rest of an escape sequence is read whole (see above).
 * Returns a key, KEY_MOUSE, KEY_RESIZE, ERR as wgetch does, or NS_KEY_NONE
 * for a sequence that was read and discarded. Leaves @w's timeout at
 * @timeout (as wtimeout).
 */
int ns_tui_read_key(WINDOW *w, int timeout)
{
	int b[NS_SEQ_MAX + 1], n = 0, ch, r;

	untouchwin(w);		/* never drawn: nothing for wgetch to refresh */
	wtimeout(w, timeout);
	ch = wgetch(w);
	if (ch != 27) {
		if (ch > KEY_MAX)
			return ns_tui_ext_key(keyname(ch));
		return ch == ERR ? ERR : same_key(ch);
	}
	/*
	 * curses already waited ESCDELAY after the ESC: what follows now is
	 * a sequence it did not know, already read, or the ESC key alone.
	 */
	wtimeout(w, 0);
	for (;;) {
		ch = wgetch(w);
		if (ch == ERR || ch > 0xff) {
			if (ch != ERR)
				ungetch(ch);
			r = n ? NS_KEY_NONE : 27;	/* cut short: nothing */
			break;
		}
		b[n++] = ch;
		r = ns_tui_decode_seq(b, n);
		if (r == NS_KEY_ESC_THEN) {
			ungetch(ch);
			r = 27;
			break;
		}
		if (r != NS_KEY_MORE)
			break;
		wtimeout(w, NS_SEQ_MS);
	}
	wtimeout(w, timeout);
	return r;
}
