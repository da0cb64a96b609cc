// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Record screen (:record, Ctrl-R): the running kernel's event systems
 * and events with checkboxes, narrowed by what is typed, and below them the
 * fields of a recording: buffer size, clock, a command or a duration, the
 * output file. The kernel is reached through the recorder main.c gives
 * (setup->recorder, from src/record); this file only shows and edits. To
 * record, the screen writes the settings back, asks main.c to start, and
 * quits the viewer: main.c then gives the terminal to `nurseshark record`
 * (the same code, its progress line, Ctrl-C to stop, the tracing state put
 * back) and opens the new trace. Live does the same with `nurseshark live`.
 *
 * Rows of the list: a system ("[-] sched  2 of 24"), then its events
 * ("    [x] sched_switch"). A system is ticked whole (recorded as "sched",
 * so events the kernel adds later come too) or event by event. Before them
 * one row stands for trace_marker lines (ftrace:print), which are recorded
 * whatever is ticked, since ftrace's events have no enable file. A modal
 * layer; its keys are its own scope of the action table ([keys.record]).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/session.h"
#include "tui-int.h"

enum rec_field {
	F_LIST,
	F_KB,
	F_CLOCK,
	F_BUFFERS,
	F_COMMAND,
	F_DURATION,
	F_OUTPUT,
	NR_FIELDS,
};

struct rec_system {
	char *name;
	char **events;		/* tracefs list */
	int nr;
	unsigned char *ticked;	/* per event */
	int all;		/* the whole system */
};

/* A row of the list: a system (ev -1), one of its events, or the marker row (sys -1). */
struct rec_row {
	int sys, ev;
};

struct rec_state {
	struct rec_system *sys;
	int nr_sys;
	struct rec_row *rows;	/* the rows the find text lets through */
	int nr_rows;
	int sel, top;
	char find[64];
	int field;		/* enum rec_field with the focus */
	char text[NR_FIELDS][1024];	/* the fields as typed (F_LIST unused) */
	char **clocks;
	char extra[512];	/* -e arguments of the settings that name no row ("all", globs) */
	char error[256];	/* why the last start was refused */
};

static const struct ns_tui_layer_ops record_layer;

static struct rec_state *state_of(struct ns_tui *t)
{
	int i;

	for (i = 0; i < t->nr_layers; i++)
		if (t->layers[i].ops == &record_layer)
			return t->layers[i].state;
	return NULL;
}

static const struct ns_tui_recorder *recorder(const struct ns_tui *t)
{
	return t->setup ? t->setup->recorder : NULL;
}

static void free_state(struct ns_tui *t, struct rec_state *s)
{
	const struct ns_tui_recorder *r = recorder(t);
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nr_sys; i++) {
		free(s->sys[i].name);
		r->free_list(r->arg, s->sys[i].events);
		free(s->sys[i].ticked);
	}
	free(s->sys);
	free(s->rows);
	r->free_list(r->arg, s->clocks);
	free(s);
}

static int find_sys(const struct rec_state *s, const char *name, size_t len)
{
	int i;

	for (i = 0; i < s->nr_sys; i++)
		if (strlen(s->sys[i].name) == len && !strncmp(s->sys[i].name, name, len))
			return i;
	return -1;
}

static int find_ev(const struct rec_system *sy, const char *name)
{
	int i;

	for (i = 0; i < sy->nr; i++)
		if (!strcmp(sy->events[i], name))
			return i;
	return -1;
}

/* Tick what the settings' events name; what names no row is kept as it is. */
static void tick_settings(struct rec_state *s, const char *events)
{
	char buf[2048], *save = NULL, *w;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", events);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *sep = strpbrk(w, ":/");
		int sy, ev = -1;

		if (!sep) {
			sy = find_sys(s, w, strlen(w));
			if (sy >= 0) {
				s->sys[sy].all = 1;
				continue;
			}
		} else {
			sy = find_sys(s, w, (size_t)(sep - w));
			if (sy >= 0)
				ev = find_ev(&s->sys[sy], sep + 1);
			if (ev >= 0) {
				s->sys[sy].ticked[ev] = 1;
				continue;
			}
			/* the marker row's event is always recorded */
			if (!strcmp(sep + 1, "print") && !strncmp(w, "ftrace", (size_t)(sep - w)))
				continue;
		}
		if (n + strlen(w) + 2 < sizeof(s->extra))
			n += (size_t)snprintf(s->extra + n, sizeof(s->extra) - n, "%s%s",
					      n ? " " : "", w);
	}
}

/* The -e arguments of what is ticked, blank-separated, into @out. 0, or -ENOSPC. */
static int ticked_events(const struct rec_state *s, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s", s->extra);
	int i, e;

	for (i = 0; i < s->nr_sys; i++) {
		const struct rec_system *sy = &s->sys[i];

		if (sy->all) {
			n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s", n ? " " : "",
					      sy->name);
			continue;
		}
		for (e = 0; e < sy->nr; e++)
			if (sy->ticked[e])
				n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s:%s",
						      n ? " " : "", sy->name, sy->events[e]);
	}
	return n < len ? 0 : -ENOSPC;
}

static int nr_ticked(const struct rec_system *sy)
{
	int e, n = 0;

	if (sy->all)
		return sy->nr;
	for (e = 0; e < sy->nr; e++)
		n += sy->ticked[e];
	return n;
}

/* The rows the find text lets through: an event whose SYSTEM:EVENT holds it, its system. */
static void refilter(struct rec_state *s)
{
	char name[512];
	int i, e, n = 0, first = -1;

	if (strstr("ftrace:print", s->find)) {
		s->rows[n++] = (struct rec_row){ -1, -1 };
		first = 0;
	}
	for (i = 0; i < s->nr_sys; i++) {
		int sys_row = n, any = 0, self = strstr(s->sys[i].name, s->find) != NULL;

		s->rows[n++] = (struct rec_row){ i, -1 };
		for (e = 0; e < s->sys[i].nr; e++) {
			snprintf(name, sizeof(name), "%s:%s", s->sys[i].name, s->sys[i].events[e]);
			if (!s->find[0] || strstr(name, s->find)) {
				if (first < 0 && (!self || !s->find[0]))
					first = n;
				s->rows[n++] = (struct rec_row){ i, e };
				any = 1;
			}
		}
		if (self && first < 0)
			first = sys_row;
		if (!any && !self)
			n = sys_row;
	}
	s->nr_rows = n;
	/* the first row that holds the text itself, so that Space ticks what was found */
	s->sel = s->find[0] && first >= 0 ? first : 0;
	s->top = 0;
}

static void fields_from(struct rec_state *s, const struct ns_record_settings *set)
{
	if (set->buffer_kb > 0)
		snprintf(s->text[F_KB], sizeof(s->text[F_KB]), "%ld", set->buffer_kb);
	snprintf(s->text[F_CLOCK], sizeof(s->text[F_CLOCK]), "%s", set->clock);
	snprintf(s->text[F_BUFFERS], sizeof(s->text[F_BUFFERS]), "%s", set->buffers);
	snprintf(s->text[F_COMMAND], sizeof(s->text[F_COMMAND]), "%s", set->command);
	if (set->duration > 0)
		snprintf(s->text[F_DURATION], sizeof(s->text[F_DURATION]), "%g", set->duration);
	snprintf(s->text[F_OUTPUT], sizeof(s->text[F_OUTPUT]), "%s",
		 set->output[0] ? set->output : "trace.dat");
}

/*
 * The Instances field: "-B NAME" then its own -e EVENT, -b KB, -C CLOCK, as
 * `nurseshark record` takes them after -B; "" is none. 0 when it reads so.
 */
static int check_buffers(const char *text)
{
	char copy[1024], *save = NULL, *w, *v, *end;
	int first = 1;

	snprintf(copy, sizeof(copy), "%s", text);
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save), first = 0) {
		v = strtok_r(NULL, " \t", &save);
		if (!v || (first && strcmp(w, "-B")))
			return -1;
		if (!strcmp(w, "-b")) {
			if (strtol(v, &end, 10) < 1 || *end)
				return -1;
		} else if (strcmp(w, "-B") && strcmp(w, "-e") && strcmp(w, "-C")) {
			return -1;
		}
	}
	return 0;
}

/*
 * The fields as settings, checked: 0, or -1 with the reason in s->error.
 * @live: no output file, no duration.
 */
static int fields_to(struct rec_state *s, struct ns_record_settings *set, int live)
{
	char *end;

	s->error[0] = '\0';
	if (ticked_events(s, set->events, sizeof(set->events))) {
		snprintf(s->error, sizeof(s->error), "Too many events ticked: tick whole systems");
		return -1;
	}
	set->buffer_kb = 0;
	if (s->text[F_KB][0]) {
		set->buffer_kb = strtol(s->text[F_KB], &end, 10);
		if (*end || set->buffer_kb < 1) {
			snprintf(s->error, sizeof(s->error), "Buffer size: KB per CPU, not '%.40s'",
				 s->text[F_KB]);
			return -1;
		}
	}
	snprintf(set->clock, sizeof(set->clock), "%.63s", s->text[F_CLOCK]);
	if (check_buffers(s->text[F_BUFFERS])) {
		snprintf(s->error, sizeof(s->error), "Instances: -B NAME [-e EVENT]... [-b KB] "
			 "[-C CLOCK]..., not '%.30s'", s->text[F_BUFFERS]);
		return -1;
	}
	snprintf(set->buffers, sizeof(set->buffers), "%s", s->text[F_BUFFERS]);
	snprintf(set->command, sizeof(set->command), "%s", s->text[F_COMMAND]);
	set->duration = 0;
	if (s->text[F_DURATION][0]) {
		set->duration = strtod(s->text[F_DURATION], &end);
		if (*end || !(set->duration > 0) || set->duration > 1e7) {
			snprintf(s->error, sizeof(s->error), "Duration: seconds, not '%.40s'",
				 s->text[F_DURATION]);
			return -1;
		}
	}
	snprintf(set->output, sizeof(set->output), "%s", s->text[F_OUTPUT]);
	if (!live && !set->output[0]) {
		snprintf(s->error, sizeof(s->error), "Output: name the trace.dat to write");
		return -1;
	}
	if (!set->events[0] && !set->buffers[0]) {
		snprintf(s->error, sizeof(s->error), "Tick an event first (Space)");
		return -1;
	}
	return 0;
}

/* record (Ctrl-R, :record): open the screen on the kernel's events */
void ns_tui_record_open(struct ns_tui *t, int unused)
{
	const struct ns_tui_recorder *r = recorder(t);
	char err[256] = "", **systems, *current = NULL;
	struct rec_state *s;
	int i, nr_rows = 1;

	if (!r) {
		ns_tui_message(t, t->live ? "Record: quit nurseshark live first" :
			       "Record: not offered here (the viewer on a terminal offers it)");
		return;
	}
	if (state_of(t))
		return;
	systems = r->systems(r->arg, err, sizeof(err));
	if (!systems) {
		ns_tui_message(t, "Record: %s", err);
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	for (i = 0; systems[i]; i++)
		;
	s->sys = calloc((size_t)i, sizeof(*s->sys));
	if (!s->sys)
		goto nomem;
	for (i = 0; systems[i]; i++) {
		struct rec_system *sy = &s->sys[s->nr_sys];

		sy->events = r->events(r->arg, systems[i]);
		for (sy->nr = 0; sy->events && sy->events[sy->nr]; sy->nr++)
			;
		if (!sy->nr) {
			r->free_list(r->arg, sy->events);
			sy->events = NULL;
			continue;
		}
		sy->name = strdup(systems[i]);
		sy->ticked = calloc((size_t)sy->nr, 1);
		s->nr_sys++;
		if (!sy->name || !sy->ticked)
			goto nomem;
		nr_rows += 1 + sy->nr;
	}
	r->free_list(r->arg, systems);
	systems = NULL;
	s->rows = calloc((size_t)nr_rows, sizeof(*s->rows));
	if (!s->rows)
		goto nomem;
	s->clocks = r->clocks(r->arg, &current);
	tick_settings(s, r->settings->events);
	fields_from(s, r->settings);
	if (!s->text[F_CLOCK][0] && current)
		snprintf(s->text[F_CLOCK], sizeof(s->text[F_CLOCK]), "%s", current);
	free(current);
	refilter(s);
	if (ns_tui_layer_push(t, &record_layer, s)) {
		free_state(t, s);
		ns_tui_message(t, "Record: too many overlays open");
	}
	return;
nomem:
	r->free_list(r->arg, systems);
	free_state(t, s);
	ns_tui_message(t, "Record: out of memory");
}

/* Keep what the screen shows for next time (the events always; fields that read). */
static void remember(struct ns_tui *t, struct rec_state *s)
{
	const struct ns_tui_recorder *r = recorder(t);
	struct ns_record_settings set = *r->settings;

	fields_to(s, &set, 1);
	/* a field that does not read keeps what was remembered */
	if (s->error[0] && ticked_events(s, set.events, sizeof(set.events)))
		return;
	*r->settings = set;
	r->remember(r->arg);
}

static void close_state(struct ns_tui *t, void *state)
{
	free_state(t, state);
}

static int list_rows(const struct ns_tui *t)
{
	int rows = t->lay.rows - 1 - 11;

	return rows > 1 ? rows : 1;
}

static void show_sel(const struct ns_tui *t, struct rec_state *s)
{
	int rows = list_rows(t);

	if (s->sel >= s->nr_rows)
		s->sel = s->nr_rows ? s->nr_rows - 1 : 0;
	if (s->sel < 0)
		s->sel = 0;
	if (s->sel < s->top)
		s->top = s->sel;
	if (s->sel >= s->top + rows)
		s->top = s->sel - rows + 1;
}

/* record-up, record-down */
void ns_tui_rec_move(struct ns_tui *t, int dir)
{
	struct rec_state *s = state_of(t);

	if (!s)
		return;
	if (s->field == F_LIST && !(dir < 0 && s->sel == 0)) {
		if (dir > 0 && s->sel + 1 >= s->nr_rows) {
			s->field = F_KB;
			return;
		}
		s->sel += dir;
		show_sel(t, s);
		return;
	}
	s->field += dir;
	if (s->field < F_LIST)
		s->field = F_LIST;
	if (s->field >= NR_FIELDS)
		s->field = NR_FIELDS - 1;
}

/* record-page-up, record-page-down */
void ns_tui_rec_page(struct ns_tui *t, int dir)
{
	struct rec_state *s = state_of(t);

	if (!s)
		return;
	s->field = F_LIST;
	s->sel += dir * list_rows(t);
	show_sel(t, s);
}

/* record-toggle */
void ns_tui_rec_toggle(struct ns_tui *t, int unused)
{
	struct rec_state *s = state_of(t);
	struct rec_system *sy;
	struct rec_row row;
	int e, i;

	if (!s)
		return;
	if (s->field == F_CLOCK) {
		/* the next clock of trace_clock */
		for (i = 0; s->clocks && s->clocks[i]; i++)
			if (!strcmp(s->clocks[i], s->text[F_CLOCK]))
				break;
		if (s->clocks && s->clocks[0])
			snprintf(s->text[F_CLOCK], sizeof(s->text[F_CLOCK]), "%s",
				 s->clocks[i] && s->clocks[i + 1] ? s->clocks[i + 1] : s->clocks[0]);
		return;
	}
	if (s->field != F_LIST || !s->nr_rows)
		return;
	row = s->rows[s->sel];
	if (row.sys < 0) {
		ns_tui_message(t, "Lines written to trace_marker are always recorded");
		return;
	}
	sy = &s->sys[row.sys];
	if (row.ev < 0) {
		int was = sy->all || nr_ticked(sy) == sy->nr;

		sy->all = !was;
		memset(sy->ticked, 0, (size_t)sy->nr);
		return;
	}
	if (sy->all) {
		sy->all = 0;
		for (e = 0; e < sy->nr; e++)
			sy->ticked[e] = e != row.ev;
		return;
	}
	sy->ticked[row.ev] = !sy->ticked[row.ev];
	if (nr_ticked(sy) == sy->nr) {
		sy->all = 1;
		memset(sy->ticked, 0, (size_t)sy->nr);
	}
}

/* record-none */
void ns_tui_rec_none(struct ns_tui *t, int unused)
{
	struct rec_state *s = state_of(t);
	int i;

	if (!s)
		return;
	for (i = 0; i < s->nr_sys; i++) {
		s->sys[i].all = 0;
		memset(s->sys[i].ticked, 0, (size_t)s->sys[i].nr);
	}
	s->extra[0] = '\0';
}

/* record-find */
void ns_tui_rec_find(struct ns_tui *t, int unused)
{
	struct rec_state *s = state_of(t);

	if (!s)
		return;
	s->field = F_LIST;
	s->find[0] = '\0';
	refilter(s);
}

/* record-erase */
void ns_tui_rec_erase(struct ns_tui *t, int unused)
{
	struct rec_state *s = state_of(t);
	char *text;
	size_t n;

	if (!s)
		return;
	text = s->field == F_LIST ? s->find : s->text[s->field];
	n = strlen(text);
	if (s->field == F_CLOCK)
		n = 1;	/* "": the clock as it is */
	if (n)
		text[n - 1] = '\0';
	if (s->field == F_LIST)
		refilter(s);
}

/* record-field, record-field-back */
void ns_tui_rec_field(struct ns_tui *t, int dir)
{
	struct rec_state *s = state_of(t);

	if (s)
		s->field = (s->field + dir + NR_FIELDS) % NR_FIELDS;
}

/* record-start (@live 0), record-live (1) */
void ns_tui_rec_start(struct ns_tui *t, int live)
{
	const struct ns_tui_recorder *r = recorder(t);
	struct rec_state *s = state_of(t);
	struct ns_record_settings set;
	char err[512] = "";

	if (!s)
		return;
	set = *r->settings;
	if (fields_to(s, &set, live))
		return;
	if (r->check(r->arg, live ? NULL : set.output, err, sizeof(err))) {
		snprintf(s->error, sizeof(s->error), "%s", err);
		return;
	}
	*r->settings = set;
	r->remember(r->arg);
	r->start(r->arg, live);
	t->quit = 1;
}

/* record-close */
void ns_tui_rec_close(struct ns_tui *t, int unused)
{
	struct rec_state *s = state_of(t);

	if (!s)
		return;
	remember(t, s);
	ns_tui_layer_pop(t, &record_layer);
}

/* A printable key into the field with the focus, or the find text. */
static int type_key(struct rec_state *s, int key)
{
	char *text;
	size_t n, size;

	if (key < 0x20 || key > 0x7e || s->field == F_CLOCK)
		return 0;
	text = s->field == F_LIST ? s->find : s->text[s->field];
	size = s->field == F_LIST ? sizeof(s->find) : sizeof(s->text[0]);
	n = strlen(text);
	if (n + 1 < size) {
		text[n] = (char)key;
		text[n + 1] = '\0';
	}
	if (s->field == F_LIST)
		refilter(s);
	return 1;
}

static int key(struct ns_tui *t, void *state, int key)
{
	struct rec_state *s = state;
	enum ns_tui_action act;

	/* in a text field, what prints is typed, Space and / too */
	if (s->field != F_LIST && s->field != F_CLOCK && key >= 0x20 && key <= 0x7e &&
	    !t->keymap.nr_pending) {
		type_key(s, key);
		return 1;
	}
	act = ns_tui_keymap_feed(&t->keymap, NS_SCOPE_RECORD, key);
	if (act != NS_ACT_NONE)
		ns_tui_actions[act].run(t, ns_tui_actions[act].arg);
	else if (!t->keymap.nr_pending)
		type_key(s, key);
	return 1;
}

static int mouse(struct ns_tui *t, void *state, const struct ns_tui_input *in)
{
	if (in->kind == NS_IN_WHEEL_UP || in->kind == NS_IN_WHEEL_DOWN) {
		struct rec_state *s = state;

		s->field = F_LIST;
		ns_tui_rec_move(t, in->kind == NS_IN_WHEEL_UP ? -1 : 1);
	}
	return 1;
}

/* "Space:tick  /:find ...": the screen's actions that have a label, by their first key. */
static void legend(const struct ns_tui *t, char *line, size_t len)
{
	size_t n = 0;
	int a;

	line[0] = '\0';
	for (a = 0; a < NS_NR_ACTIONS && n < len; a++) {
		const char *keys = t->keymap.text[a][NS_SCOPE_RECORD];
		size_t k = strcspn(keys, " ");

		if (!keys[0] || !ns_tui_actions[a].legend[0])
			continue;
		if (k > 2 && keys[0] == '<' && keys[k - 1] == '>')
			n += (size_t)snprintf(line + n, len - n, "%s%.*s:%s", n ? " " : "",
					      (int)k - 2, keys + 1, ns_tui_actions[a].legend);
		else
			n += (size_t)snprintf(line + n, len - n, "%s%.*s:%s", n ? " " : "", (int)k,
					      keys, ns_tui_actions[a].legend);
	}
}

static void list_row(const struct rec_state *s, struct rec_row row, char *line, size_t len)
{
	const struct rec_system *sy;
	int n;

	if (row.sys < 0) {
		snprintf(line, len, "[*] ftrace:print  (trace_marker lines: always recorded)");
		return;
	}
	sy = &s->sys[row.sys];
	if (row.ev >= 0) {
		snprintf(line, len, "    [%c] %s", sy->all || sy->ticked[row.ev] ? 'x' : ' ',
			 sy->events[row.ev]);
		return;
	}
	n = nr_ticked(sy);
	if (sy->all)
		snprintf(line, len, "[x] %s  (all %d, and any added later)", sy->name, sy->nr);
	else if (n)
		snprintf(line, len, "[-] %s  (%d of %d)", sy->name, n, sy->nr);
	else
		snprintf(line, len, "[ ] %s  (%d)", sy->name, sy->nr);
}

static void draw(struct ns_tui *t, void *state)
{
	static const char *const label[NR_FIELDS] = {
		[F_KB] = "Buffer KB per CPU", [F_CLOCK] = "Clock", [F_BUFFERS] = "Instances (-B)",
		[F_COMMAND] = "Command (sh -c)",
		[F_DURATION] = "Or duration (s)", [F_OUTPUT] = "Output file",
	};
	static const char *const empty[NR_FIELDS] = {
		[F_KB] = "(as it is)", [F_CLOCK] = "(as it is)",
		[F_BUFFERS] = "(none: -B NAME -e EVENT records an instance too)",
		[F_COMMAND] = "(none: until the duration or Ctrl-C)",
		[F_DURATION] = "(none: until the command ends or Ctrl-C)",
		[F_OUTPUT] = "(name it)",
	};
	struct rec_state *s = state;
	int w = t->lay.cols, h = t->lay.rows - 1, rows = list_rows(t), i, y, total = 0, ticked = 0;
	attr_t normal = t->theme.attr[NS_ROLE_HELP], title = t->theme.attr[NS_ROLE_HELP_TITLE];
	attr_t sel = t->theme.attr[NS_ROLE_LIST_SELECTED];
	char line[1200], buf[256];
	WINDOW *win;

	if (t->lay.too_small)
		return;
	show_sel(t, s);
	win = newwin(h, w, 0, 0);
	if (!win)
		return;
	leaveok(win, TRUE);
	for (y = 0; y < h; y++)
		ns_tui_fill(win, y, 0, w, normal);
	for (i = 0; i < s->nr_sys; i++) {
		total += s->sys[i].nr;
		ticked += nr_ticked(&s->sys[i]);
	}
	snprintf(line, sizeof(line), "Record the running kernel: %d of %d events ticked%s%s",
		 ticked, total, s->extra[0] ? ", and " : "", s->extra);
	ns_tui_fill(win, 0, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, 0, 1, w - 2, line, 0, title);
	snprintf(line, sizeof(line), "Find: %s%s", s->find, s->field == F_LIST ? "_" : "");
	ns_tui_put_text(win, &t->glyphs, 1, 1, w - 2, line, 0, normal);
	for (i = 0; i < rows && s->top + i < s->nr_rows; i++) {
		int r = s->top + i;
		attr_t at = r == s->sel ? (s->field == F_LIST ? sel : normal | A_BOLD) : normal;

		list_row(s, s->rows[r], line, sizeof(line));
		ns_tui_fill(win, 2 + i, 0, w, at);
		ns_tui_put_text(win, &t->glyphs, 2 + i, 1, w - 2, line, 0, at);
	}
	if (!s->nr_rows)
		ns_tui_put_text(win, &t->glyphs, 2, 1, w - 2, "(no event holds the find text)", 0,
				normal);
	y = 2 + rows;
	ns_tui_put_text(win, &t->glyphs, y++, 1, w - 2,
			"Settings (Tab moves between them; Ctrl-C stops a recording):", 0,
			normal | A_BOLD);
	for (i = F_KB; i < NR_FIELDS; i++, y++) {
		attr_t at = i == s->field ? sel : normal;
		const char *v = s->text[i];

		if (i == F_CLOCK && i == s->field)
			snprintf(buf, sizeof(buf), "%s  (Space: the next clock)", v[0] ? v : empty[i]);
		else
			snprintf(buf, sizeof(buf), "%s%s", v[0] ? v : "",
				 i == s->field ? "_" : v[0] ? "" : empty[i]);
		/* the field being typed into shows its end, where the typing goes */
		if (i == s->field && (int)strlen(buf) > w - 21)
			memmove(buf, buf + strlen(buf) - (size_t)(w - 21), (size_t)(w - 21) + 1);
		snprintf(line, sizeof(line), "%-17s %s", label[i], buf);
		ns_tui_fill(win, y, 0, w, at);
		ns_tui_put_text(win, &t->glyphs, y, 1, w - 2, line, 0, at);
	}
	if (s->error[0])
		ns_tui_put_text(win, &t->glyphs, h - 2, 1, w - 2, s->error, 0,
				t->theme.attr[NS_ROLE_MESSAGE]);
	legend(t, buf, sizeof(buf));
	ns_tui_fill(win, h - 1, 0, w, title);
	ns_tui_put_text(win, &t->glyphs, h - 1, 1, w - 2, buf, 0, title);
	wnoutrefresh(win);
	delwin(win);
}

static const struct ns_tui_layer_ops record_layer = {
	.name = "record",
	.modal = 1,
	.key = key,
	.mouse = mouse,
	.draw = draw,
	.close = close_state,
};
