// SPDX-License-Identifier: GPL-2.0-only
/*
 * The detail view of the selected event, a layer over the panes (i, or
 * Enter in the list): the whole line as `trace-cmd report` prints it,
 * wrapped; the CPU, time, task and PID; the latency flags spelled out; the
 * buffer, the ring-buffer page and the file offsets; then every field of
 * the event's format with its value as printed and its raw value. What
 * KernelShark shows in a context menu, one key away, at 80x24. It scrolls
 * with the help's keys ([keys.help]); any other key closes it.
 *
 * The event is read once when the view opens (ns_trace_event_detail());
 * the lines are wrapped at the width of each frame, so a resize rewraps.
 * The same view shows the status line's message history (:messages),
 * each message whole, the latest last.
 */
#include <stdlib.h>
#include <string.h>

#include "tui-int.h"

struct detail {
	int messages;			/* the message history, not an event */
	uint64_t row;
	struct ns_event_text txt;
	char *line;			/* report's line */
	size_t line_size;
	struct ns_event_detail d;
	int ok;				/* the event could be read back */
	char sched[160];		/* its task's scheduling context, in full, or "" */
	int top;			/* first line shown */
	int nr_lines;			/* at the last frame's width */
};

/* One pass over the lines: counts them, and draws those on screen. */
struct pass {
	struct ns_tui *t;
	WINDOW *win;			/* NULL: only count */
	int width, top, rows, line;
};

static void put(struct pass *p, const char *text, int indent, int role)
{
	int y = p->line - p->top + 1;	/* row 0: the title */

	if (p->win && y >= 1 && y <= p->rows)
		ns_tui_put_text(p->win, &p->t->glyphs, y, indent, p->width - indent, text, 0,
				p->t->theme.attr[role]);
	p->line++;
}

/* @text wrapped at the width: at blanks where it can, the later lines indented by @hang. */
static void wrapped(struct pass *p, const char *text, int indent, int hang, int role)
{
	char buf[512];
	int first = 1;

	do {
		int in = first ? indent : hang, w = p->width - in, n = (int)strlen(text), cut = n;

		if (w < 8)
			w = 8;
		if (n > w) {
			for (cut = w; cut > w / 2 && text[cut] != ' '; cut--)
				;
			if (cut <= w / 2)
				cut = w;
		}
		if (cut >= (int)sizeof(buf))
			cut = sizeof(buf) - 1;
		memcpy(buf, text, cut);
		buf[cut] = '\0';
		put(p, buf, in, role);
		text += cut;
		while (*text == ' ')
			text++;
		first = 0;
	} while (*text);
}

/* The latency flags of report's "d..2." column, each in words. */
static void latency(struct pass *p, const char *lat)
{
	char buf[256];
	const char *irq, *resched, *ctx;
	char depth[32], migrate[40];
	size_t n = strlen(lat);

	if (n < 4) {
		snprintf(buf, sizeof(buf), "Latency: %s", lat[0] ? lat : "(none)");
		wrapped(p, buf, 0, 2, NS_ROLE_HELP);
		return;
	}
	irq = lat[0] == 'd' ? "irqs off" : lat[0] == 'X' ? "irqs-off not supported" : "irqs on";
	resched = lat[1] == 'N' ? "need-resched and preempt-resched" :
		  lat[1] == 'n' ? "need-resched" : lat[1] == 'p' ? "preempt-resched" :
		  lat[1] == 'L' || lat[1] == 'b' ? "lazy need-resched" :
		  lat[1] == '.' ? "no need-resched" : "need-resched (other)";
	ctx = lat[2] == 'Z' ? "NMI inside a hardirq" : lat[2] == 'z' ? "NMI" :
	      lat[2] == 'H' ? "hardirq inside a softirq" : lat[2] == 'h' ? "hardirq" :
	      lat[2] == 's' ? "softirq" : lat[2] == '.' ? "not in an interrupt" :
	      "interrupt (other)";
	if (lat[3] == '.')
		snprintf(depth, sizeof(depth), "preempt depth 0");
	else
		snprintf(depth, sizeof(depth), "preempt depth %c", lat[3]);
	if (n < 5 || lat[4] == '.')
		snprintf(migrate, sizeof(migrate), "migration allowed");
	else
		snprintf(migrate, sizeof(migrate), "migrate-disable depth %c", lat[4]);
	snprintf(buf, sizeof(buf), "Latency %s: %s, %s, %s, %s, %s", lat, irq, resched, ctx,
		 depth, migrate);
	wrapped(p, buf, 0, 2, NS_ROLE_HELP);
}

static void walk(struct pass *p, struct detail *s)
{
	const struct ns_event_detail *d = &s->d;
	char buf[600];
	int i;

	if (s->messages) {
		const struct ns_tui *t = p->t;

		if (!t->nr_history)
			put(p, "No messages yet.", 0, NS_ROLE_HELP);
		for (i = 0; i < t->nr_history; i++) {
			int at = (t->next_msg - t->nr_history + i + NS_TUI_MSG_HISTORY) %
				 NS_TUI_MSG_HISTORY;

			wrapped(p, t->history[at], 0, 2, NS_ROLE_HELP);
		}
		return;
	}
	if (!s->ok) {
		put(p, "This event cannot be read back from the file.", 0, NS_ROLE_HELP);
		return;
	}
	wrapped(p, s->line ? s->line : "", 0, 2, NS_ROLE_HELP);
	put(p, "", 0, NS_ROLE_HELP);
	snprintf(buf, sizeof(buf), "CPU %d, time %s, task %s, PID %d, event %s:%s", s->txt.cpu,
		 s->txt.time, s->txt.comm, s->txt.pid, d->system, d->name);
	wrapped(p, buf, 0, 2, NS_ROLE_HELP);
	latency(p, s->txt.latency);
	if (s->sched[0]) {
		snprintf(buf, sizeof(buf), "Scheduling: %s", s->sched);
		wrapped(p, buf, 0, 2, NS_ROLE_HELP);
	}
	snprintf(buf, sizeof(buf), "Buffer: the top one; page %llu of %llu of CPU %d (%d bytes, "
		 "file offset 0x%llx), record at 0x%llx",
		 (unsigned long long)d->page_nr + 1, (unsigned long long)d->nr_pages, s->txt.cpu,
		 d->page_size, (unsigned long long)d->page_off, (unsigned long long)d->rec_off);
	wrapped(p, buf, 0, 2, NS_ROLE_HELP);
	put(p, "", 0, NS_ROLE_HELP);
	snprintf(buf, sizeof(buf), "Fields (%d): name = as printed  [raw value, type]",
		 d->nr_fields);
	put(p, buf, 0, NS_ROLE_HELP_TITLE);
	for (i = 0; i < d->nr_fields; i++) {
		const struct ns_event_field *f = &d->fields[i];

		snprintf(buf, sizeof(buf), "%s = %s  [%s, %s]", f->name, f->printed, f->raw,
			 f->type);
		wrapped(p, buf, 2, 6, NS_ROLE_HELP);
	}
}

static int rows_of(const struct ns_tui *t)
{
	/* the title, the lines, and the status line below the window */
	return t->lay.rows - 2 > 1 ? t->lay.rows - 2 : 1;
}

static int count(struct ns_tui *t, struct detail *s)
{
	struct pass p = { .t = t, .width = t->lay.cols };

	walk(&p, s);
	return p.line;
}

static void scroll_to(struct ns_tui *t, struct detail *s, int top)
{
	int last = count(t, s) - rows_of(t);

	if (last < 0)
		last = 0;
	s->top = top > last ? last : top < 0 ? 0 : top;
}

static void draw(struct ns_tui *t, void *state)
{
	struct detail *s = state;
	struct pass p = { .t = t, .width = t->lay.cols, .top = s->top, .rows = rows_of(t) };
	char title[160];
	int last;

	if (t->lay.too_small)
		return;
	scroll_to(t, s, s->top);	/* a resize may have shortened it */
	p.top = s->top;
	s->nr_lines = count(t, s);
	last = s->top + p.rows < s->nr_lines ? s->top + p.rows : s->nr_lines;
	p.win = newwin(t->lay.rows - 1, t->lay.cols, 0, 0);
	if (!p.win)
		return;
	leaveok(p.win, TRUE);
	if (s->messages)
		snprintf(title, sizeof(title), "Messages, the latest last (lines %d-%d of %d; "
			 "j/k Space scroll, other keys close)", s->top + 1, last, s->nr_lines);
	else
		snprintf(title, sizeof(title), "Event #%llu (lines %d-%d of %d; j/k Space scroll, "
			 "other keys close)", (unsigned long long)s->row, s->top + 1, last,
			 s->nr_lines);
	ns_tui_put_text(p.win, &t->glyphs, 0, 0, t->lay.cols, title, 0,
			t->theme.attr[NS_ROLE_HELP_TITLE]);
	walk(&p, s);
	wnoutrefresh(p.win);
	delwin(p.win);
}

static const struct ns_tui_layer_ops detail_layer;

/* The help's keys scroll; any other key closes. */
static int key(struct ns_tui *t, void *state, int key)
{
	struct detail *s = state;
	enum ns_tui_action act = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_HELP, key);
	int page = rows_of(t);

	switch (act) {
	case NS_ACT_HELP_UP:
		scroll_to(t, s, s->top - 1);
		break;
	case NS_ACT_HELP_DOWN:
		scroll_to(t, s, s->top + 1);
		break;
	case NS_ACT_HELP_PAGE_UP:
		scroll_to(t, s, s->top - page);
		break;
	case NS_ACT_HELP_PAGE_DOWN:
		scroll_to(t, s, s->top + page);
		break;
	case NS_ACT_HELP_TOP:
		scroll_to(t, s, 0);
		break;
	case NS_ACT_HELP_BOTTOM:
		scroll_to(t, s, count(t, s));
		break;
	default:
		if (!t->keymap.nr_pending)
			ns_tui_layer_pop(t, &detail_layer);
		break;
	}
	return 1;
}

/* The wheel scrolls, a click closes. */
static int mouse(struct ns_tui *t, void *state, const struct ns_tui_input *in)
{
	struct detail *s = state;

	if (in->kind == NS_IN_WHEEL_UP || in->kind == NS_IN_WHEEL_DOWN)
		scroll_to(t, s, s->top + (in->kind == NS_IN_WHEEL_UP ? -3 : 3));
	else if (in->kind == NS_IN_PRESS)
		ns_tui_layer_pop(t, &detail_layer);
	return 1;
}

static void close_detail(struct ns_tui *t, void *state)
{
	struct detail *s = state;

	ns_event_text_free(&s->txt);
	free(s->line);
	ns_event_detail_free(&s->d);
	free(s);
}

static const struct ns_tui_layer_ops detail_layer = {
	.name = "detail",
	.modal = 1,
	.key = key,
	.mouse = mouse,
	.draw = draw,
	.close = close_detail,
};

/* event-detail: the selected event, taken apart */
void ns_tui_detail_open(struct ns_tui *t, int unused)
{
	struct detail *s;
	struct ns_pos pos;

	if (!ns_view_nr_rows(&t->view) || ns_trace_rows(t->trace, t->view.selected, 1, &pos) != 1) {
		ns_tui_message(t, "No event selected");
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	s->row = t->view.selected;
	s->ok = !ns_trace_format_line(t->trace, pos.cpu, pos.idx, s->row, &s->txt, &s->line,
				      &s->line_size) &&
		!ns_trace_event_detail(t->trace, pos.cpu, pos.idx, &s->d);
	/* the bar may have room for a compact form only */
	ns_tui_sched_ctx_text(t, s->sched, sizeof(s->sched));
	if (ns_tui_layer_push(t, &detail_layer, s)) {
		close_detail(t, s);
		ns_tui_message(t, "Too many overlays open");
	}
}

/* :messages, from its end: the latest message at the bottom */
void ns_tui_messages_open(struct ns_tui *t, int unused)
{
	struct detail *s = calloc(1, sizeof(*s));

	if (!s) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	s->messages = 1;
	s->top = 1 << 30;	/* scroll_to() brings it to the last page */
	if (ns_tui_layer_push(t, &detail_layer, s)) {
		close_detail(t, s);
		ns_tui_message(t, "Too many overlays open");
	}
}
