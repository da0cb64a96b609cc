// SPDX-License-Identifier: GPL-2.0-only
/*
 * The prompt in the status line: / and ? for a search, : for a command, as
 * in vim and less. A line editor (Left/Right, Home/End, C-a/C-e, C-u, C-w,
 * Backspace; Backspace on an empty line closes it) with a history per kind
 * that Up and Down walk; Enter runs the line, Esc drops it; Tab completes
 * a command's name from the command table. While a search
 * is typed, the right of the line says how it will be read ("task, exact"),
 * so that the syntax explains itself.
 * The commands are a table in commands.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "filtering.h"
#include "picker.h"
#include "prompt.h"

void ns_tui_history_add(struct ns_tui_history *h, const char *line)
{
	char *copy;
	int i;

	if (!*line)
		return;
	/* a line typed again moves to the end */
	for (i = 0; i < h->nr; i++) {
		if (!strcmp(h->line[i], line)) {
			copy = h->line[i];
			memmove(&h->line[i], &h->line[i + 1], (h->nr - i - 1) * sizeof(char *));
			h->line[h->nr - 1] = copy;
			return;
		}
	}
	copy = strdup(line);
	if (!copy)
		return;
	if (h->nr == NS_TUI_HISTORY) {
		free(h->line[0]);
		memmove(&h->line[0], &h->line[1], (NS_TUI_HISTORY - 1) * sizeof(char *));
		h->nr--;
	}
	h->line[h->nr++] = copy;
}

void ns_tui_history_free(struct ns_tui_history *h)
{
	int i;

	for (i = 0; i < h->nr; i++)
		free(h->line[i]);
	h->nr = 0;
}

void ns_tui_prompt_free(struct ns_tui *t)
{
	if (!t->prompt)
		return;
	ns_tui_history_free(&t->prompt->history[0]);
	ns_tui_history_free(&t->prompt->history[1]);
	free(t->prompt);
	t->prompt = NULL;
}

/* search, search-backward, command: open the prompt of @kind (enum ns_tui_prompt_kind) */
void ns_tui_act_prompt(struct ns_tui *t, int kind)
{
	ns_tui_prompt_open(t, kind, "");
}

static const struct ns_tui_layer_ops prompt_layer;

static struct ns_tui_history *history_of(struct ns_tui *t)
{
	return &t->prompt->history[t->prompt->kind == NS_PROMPT_COMMAND ? 0 : 1];
}

void ns_tui_prompt_open(struct ns_tui *t, int kind, const char *text)
{
	struct ns_tui_prompt *p = t->prompt;

	p->kind = kind;
	p->hist = 0;
	p->typed[0] = '\0';
	p->matches[0] = '\0';
	snprintf(p->buf, sizeof(p->buf), "%s", text);
	p->len = p->cur = (int)strlen(p->buf);
	p->hist = history_of(t)->nr;
	if (ns_tui_layer_push(t, &prompt_layer, p)) {
		p->kind = NS_PROMPT_NONE;
		ns_tui_message(t, "Too many overlays open");
	}
}

void ns_tui_confirm(struct ns_tui *t, void (*answer)(struct ns_tui *t, int yes, const char *arg),
		    const char *arg, const char *fmt, ...)
{
	struct ns_tui_prompt *p = t->prompt;
	va_list ap;

	ns_tui_prompt_open(t, NS_PROMPT_CONFIRM, "");
	va_start(ap, fmt);
	vsnprintf(p->buf, sizeof(p->buf), fmt, ap);
	va_end(ap);
	p->len = p->cur = (int)strlen(p->buf);
	p->answer = answer;
	snprintf(p->arg, sizeof(p->arg), "%s", arg);
}

static void set_line(struct ns_tui_prompt *p, const char *s)
{
	snprintf(p->buf, sizeof(p->buf), "%s", s);
	p->len = p->cur = (int)strlen(p->buf);
}

static void run_line(struct ns_tui *t)
{
	struct ns_tui_prompt *p = t->prompt;
	struct ns_search_spec spec = { 0 };
	char line[NS_TUI_PROMPT_MAX], err[256];
	int kind = p->kind;

	snprintf(line, sizeof(line), "%s", p->buf);
	ns_tui_history_add(history_of(t), line);
	ns_tui_layer_pop(t, &prompt_layer);
	if (kind == NS_PROMPT_COMMAND) {
		ns_tui_command(t, line);
		return;
	}
	if (!*line) {
		/* an empty search repeats the last one, in the new direction, as in vim */
		if (!t->flt->search) {
			ns_tui_message(t, "No previous search");
			return;
		}
		spec = *ns_search_spec(t->flt->search);
	} else if (ns_search_parse(line, &spec, err, sizeof(err))) {
		ns_tui_message(t, "%s", err);
		return;
	}
	spec.backward = kind == NS_PROMPT_SEARCH_BACK;
	ns_tui_start_search(t, &spec);
}

/* Tab: complete the command name under the cursor, the line's first word. */
static void complete(struct ns_tui_prompt *p)
{
	char prefix[NS_TUI_PROMPT_MAX], out[NS_TUI_PROMPT_MAX];
	int n, i;

	for (i = 0; i < p->cur && p->buf[i] != ' '; i++)
		;
	if (p->kind != NS_PROMPT_COMMAND || i < p->cur)
		return;
	snprintf(prefix, sizeof(prefix), "%.*s", p->cur, p->buf);
	n = ns_tui_complete_command(prefix, out, sizeof(out), p->matches, sizeof(p->matches));
	if (!n)
		snprintf(p->matches, sizeof(p->matches), "no command %.40s...", prefix);
	else if (n == 1)
		p->matches[0] = '\0';
	/* the completion replaces the word; what follows the cursor stays */
	if (p->len - p->cur + (int)strlen(out) >= (int)sizeof(p->buf))
		return;
	memmove(p->buf + strlen(out), p->buf + p->cur, p->len - p->cur + 1);
	memcpy(p->buf, out, strlen(out));
	p->len += (int)strlen(out) - p->cur;
	p->cur = (int)strlen(out);
}

static int key(struct ns_tui *t, void *state, int key)
{
	struct ns_tui_prompt *p = t->prompt;
	struct ns_tui_history *h = history_of(t);
	int i;

	if (p->kind == NS_PROMPT_CONFIRM) {
		ns_tui_layer_pop(t, &prompt_layer);
		p->answer(t, key == 'y' || key == 'Y', p->arg);
		return 1;
	}
	p->matches[0] = '\0';
	switch (key) {
	case '\t':
		complete(p);
		break;
	case 27:
		ns_tui_layer_pop(t, &prompt_layer);
		break;
	case '\n':
		run_line(t);
		break;
	case KEY_BACKSPACE:
		if (!p->len) {
			ns_tui_layer_pop(t, &prompt_layer);
			break;
		}
		if (p->cur > 0) {
			memmove(p->buf + p->cur - 1, p->buf + p->cur, p->len - p->cur + 1);
			p->cur--;
			p->len--;
		}
		break;
	case KEY_DC:
		if (p->cur < p->len) {
			memmove(p->buf + p->cur, p->buf + p->cur + 1, p->len - p->cur);
			p->len--;
		}
		break;
	case KEY_LEFT:
		if (p->cur > 0)
			p->cur--;
		break;
	case KEY_RIGHT:
		if (p->cur < p->len)
			p->cur++;
		break;
	case NS_KEY_C_LEFT:	/* to the start of the word (this one or the one before) */
		while (p->cur > 0 && p->buf[p->cur - 1] == ' ')
			p->cur--;
		while (p->cur > 0 && p->buf[p->cur - 1] != ' ')
			p->cur--;
		break;
	case NS_KEY_C_RIGHT:	/* to the end of the word (this one or the next) */
		while (p->cur < p->len && p->buf[p->cur] == ' ')
			p->cur++;
		while (p->cur < p->len && p->buf[p->cur] != ' ')
			p->cur++;
		break;
	case KEY_HOME:
	case 'A' - 64:
		p->cur = 0;
		break;
	case KEY_END:
	case 'E' - 64:
		p->cur = p->len;
		break;
	case 'U' - 64:
		memmove(p->buf, p->buf + p->cur, p->len - p->cur + 1);
		p->len -= p->cur;
		p->cur = 0;
		break;
	case 'W' - 64:
		for (i = p->cur; i > 0 && p->buf[i - 1] == ' '; i--)
			;
		for (; i > 0 && p->buf[i - 1] != ' '; i--)
			;
		memmove(p->buf + i, p->buf + p->cur, p->len - p->cur + 1);
		p->len -= p->cur - i;
		p->cur = i;
		break;
	case KEY_UP:
	case 'P' - 64:
		if (p->hist > 0) {
			if (p->hist == h->nr)
				snprintf(p->typed, sizeof(p->typed), "%s", p->buf);
			set_line(p, h->line[--p->hist]);
		}
		break;
	case KEY_DOWN:
	case 'N' - 64:
		if (p->hist < h->nr) {
			p->hist++;
			set_line(p, p->hist == h->nr ? p->typed : h->line[p->hist]);
		}
		break;
	default:
		if (key >= 32 && key < 256 && key != 127 && p->len < (int)sizeof(p->buf) - 1) {
			memmove(p->buf + p->cur + 1, p->buf + p->cur, p->len - p->cur + 1);
			p->buf[p->cur++] = (char)key;
			p->len++;
		}
		break;
	}
	return 1;
}

static void draw(struct ns_tui *t, void *state)
{
	struct ns_tui_prompt *p = t->prompt;
	static const char lead[] = { [NS_PROMPT_COMMAND] = ':', [NS_PROMPT_SEARCH] = '/',
				     [NS_PROMPT_SEARCH_BACK] = '?' };
	attr_t attr = t->theme.attr[NS_ROLE_NORMAL];
	int cols = t->lay.cols, rw = 0, x0 = 1, skip = 0, w;
	struct ns_search_spec spec;
	char right[128] = "", err[64];

	if (p->kind == NS_PROMPT_CONFIRM) {
		/* a long path loses its start, never the question at its end */
		skip = p->len > cols - 1 ? p->len - (cols - 1) : 0;
		ns_tui_fill(t->status, 0, 0, cols, attr);
		ns_tui_put_text(t->status, &t->glyphs, 0, 0, cols - 1, p->buf, skip, attr | A_BOLD);
		wnoutrefresh(t->status);
		return;
	}
	if (p->matches[0]) {
		snprintf(right, sizeof(right), " %s ", p->matches);
	} else if (p->kind == NS_PROMPT_COMMAND) {
		snprintf(right, sizeof(right), " goto SECS | N | filter EXPR (F1) ");
	} else if (!p->len) {
		snprintf(right, sizeof(right), " TEXT or COLUMN[:=!~]TEXT (F1) ");
	} else if (!ns_search_parse(p->buf, &spec, err, sizeof(err))) {
		static const char *const mode[] = { "contains", "is", "does not contain",
						    "matches regex" };

		snprintf(right, sizeof(right), " %s %s \"%.40s\" ",
			 spec.column == NS_SEARCH_ANY ? "the line" :
			 ns_search_column_name(spec.column), mode[spec.mode], spec.text);
	}
	rw = (int)strlen(right);
	if (rw > cols / 2)
		rw = 0;
	ns_tui_fill(t->status, 0, 0, cols, attr);
	ns_tui_put_glyph(t->status, 0, 0, (wchar_t)lead[p->kind], attr | A_BOLD);
	w = cols - x0 - rw - 1;
	if (w < 1)
		w = 1;
	if (p->cur >= w)
		skip = p->cur - w + 1;
	ns_tui_put_text(t->status, &t->glyphs, 0, x0, w, p->buf, skip, attr);
	/* the cursor: a reverse-video cell */
	mvwchgat(t->status, 0, x0 + p->cur - skip, 1, A_REVERSE, 0, NULL);
	if (rw)
		ns_tui_put_text(t->status, &t->glyphs, 0, cols - rw, rw, right, 0,
				t->theme.attr[NS_ROLE_STATUS]);
	wnoutrefresh(t->status);
}

/* The line is gone (Esc, Enter, Backspace on an empty line, the end). */
static void close_prompt(struct ns_tui *t, void *state)
{
	struct ns_tui_prompt *p = state;

	p->kind = NS_PROMPT_NONE;
}

/* Modal: the prompt has the keyboard until Enter or Esc; the mouse waits. */
static const struct ns_tui_layer_ops prompt_layer = {
	.name = "prompt",
	.modal = 1,
	.key = key,
	.draw = draw,
	.close = close_prompt,
};
