// SPDX-License-Identifier: GPL-2.0-only
/*
 * The screen: setting the front end up on a curses screen, drawing a frame,
 * and the interactive loop on the controlling terminal.
 *
 * A frame redraws every pane into its window and lets curses send only the
 * cells that changed (wnoutrefresh, then one doupdate), which keeps a slow
 * ssh link quiet. Input is read from the status window, never stdscr, so
 * that wgetch does not repaint stdscr over the panes.
 *
 * The terminal is given back on every way out: a normal quit, an error
 * after the screen was set up, SIGINT/SIGTERM/SIGHUP (noted by the handler,
 * acted on when wgetch returns EINTR: endwin, then the signal kills us as it
 * would have), and crashes (endwin from the handler, then the default
 * action). The signal number below is the only state a handler touches.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tui-int.h"
#include "filtering.h"

static volatile sig_atomic_t quit_signal;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

static void on_fatal_signal(int sig)
{
	endwin();
	raise(sig);	/* SA_RESETHAND: the default action now */
}

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NR_QUIT_SIGNALS (sizeof(quit_signals) / sizeof(quit_signals[0]))
#define NR_FATAL_SIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

struct saved_signals {
	struct sigaction quit[NR_QUIT_SIGNALS];
	struct sigaction fatal[NR_FATAL_SIGNALS];
};

/* Before curses starts: so that curses keeps its hands off these. */
static void catch_signals(struct saved_signals *saved)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;	/* no SA_RESTART: wgetch must return */
	for (i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaction(quit_signals[i], &sa, &saved->quit[i]);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &sa, &saved->fatal[i]);
}

static void restore_signals(const struct saved_signals *saved)
{
	size_t i;

	for (i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaction(quit_signals[i], &saved->quit[i], NULL);
	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &saved->fatal[i], NULL);
}

static int use_colour(void)
{
	const char *nc = getenv("NO_COLOR");

	/* https://no-color.org: set and not empty */
	return !(nc && *nc);
}

/* Keys one at a time, unechoed, function keys decoded, no cursor. */
static void curses_modes(void)
{
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	keypad(stdscr, TRUE);
	leaveok(stdscr, TRUE);
}

/**
 * ns_tui_open - set up the front end on the current curses screen
 * Returns 0, or a negative errno with @err filled in.
 */
int ns_tui_open(struct ns_tui *t, struct ns_trace *trace, const struct ns_tui_setup *setup,
		char *err, size_t err_len)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->trace = trace;
	t->setup = setup;
	curses_modes();
	ns_tui_glyphs_init(&t->glyphs);
	ns_tui_theme_init(&t->theme, use_colour());
	ret = ns_tui_keymap_init(&t->keymap);
	if (ret) {
		snprintf(err, err_len, "the built-in key table does not parse");
		return ret;
	}
	/* the real sizes come from the layout just below */
	ret = ns_view_init(&t->view, trace, COLS > 1 ? COLS : 1, LINES > 1 ? LINES : 1);
	if (ret) {
		snprintf(err, err_len, "%s", strerror(-ret));
		return ret;
	}
	t->view_ready = 1;
	ret = ns_tui_parts_open(t, setup);
	if (ret) {
		snprintf(err, err_len, "%s", strerror(-ret));
		return ret;
	}
	ret = ns_tui_layout(t, COLS, LINES);
	if (ret) {
		snprintf(err, err_len, "%s", strerror(-ret));
		return ret;
	}
	ns_tui_cursor_to_selection(t);
	/* config.ini and the session to restore (persist.c) */
	ns_tui_persist_start(t, setup);
	return 0;
}

void ns_tui_close(struct ns_tui *t)
{
	ns_tui_parts_close(t);
	ns_tui_sched_free(t);
	ns_tui_free_windows(t);
	if (t->view_ready)
		ns_view_free(&t->view);
	t->view_ready = 0;
	free(t->bins);
	free(t->rows);
	t->bins = NULL;
	t->rows = NULL;
	ns_event_text_free(&t->txt);
}

static void draw_too_small(struct ns_tui *t)
{
	char msg[96];
	int y = LINES / 2, len;

	werase(stdscr);
	len = snprintf(msg, sizeof(msg), "Terminal too small: %dx%d, need %dx%d (q quits)",
		       COLS, LINES, NS_TUI_MIN_COLS, NS_TUI_MIN_ROWS);
	if (len > COLS)
		len = COLS;
	ns_tui_put_text(stdscr, &t->glyphs, y, (COLS - len) / 2, len, msg, 0,
			t->theme.attr[NS_ROLE_MESSAGE]);
	wnoutrefresh(stdscr);
}

/* One frame: every pane into its window, then the changed cells to the terminal. */
void ns_tui_draw(struct ns_tui *t)
{
	if (t->lay.too_small) {
		draw_too_small(t);
		doupdate();
		return;
	}
	ns_tui_draw_graph(t);
	ns_tui_draw_bar(t);
	ns_tui_draw_list(t);
	ns_tui_draw_status(t);
	wnoutrefresh(t->graph);
	wnoutrefresh(t->bar);
	wnoutrefresh(t->list);
	wnoutrefresh(t->status);
	ns_tui_draw_layers(t);
	doupdate();
}

static WINDOW *input_window(const struct ns_tui *t)
{
	return t->status ? t->status : stdscr;
}

/* A curses key or mouse report, as the dispatcher's inputs. */
static void feed(struct ns_tui *t, int ch)
{
	struct ns_tui_input in = { .kind = NS_IN_KEY, .key = ch };
	MEVENT me;

	if (ch == KEY_RESIZE) {
		in.kind = NS_IN_RESIZE;
		in.x = COLS;
		in.y = LINES;
	} else if (ch == KEY_MOUSE) {
		if (getmouse(&me) != OK)
			return;
		in.x = me.x;
		in.y = me.y;
		if (me.bstate & BUTTON4_PRESSED) {
			in.kind = NS_IN_WHEEL_UP;
		} else if (me.bstate & BUTTON5_PRESSED) {
			in.kind = NS_IN_WHEEL_DOWN;
		} else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			in.kind = NS_IN_PRESS;
			ns_tui_input(t, &in);
			if (!(me.bstate & BUTTON1_CLICKED))
				return;
			in.kind = NS_IN_RELEASE;
		} else if (me.bstate & BUTTON1_RELEASED) {
			in.kind = NS_IN_RELEASE;
		} else {
			return;
		}
	}
	ns_tui_input(t, &in);
}

int ns_tui_run(struct ns_trace *trace, char *err, size_t err_len)
{
	return ns_tui_run_setup(trace, NULL, err, err_len);
}

/* The terminal, from the loading screen to the viewer's last frame. */
static SCREEN *term_scr;
static struct saved_signals term_saved;

static int term_begin(char *err, size_t err_len)
{
	if (term_scr)
		return 0;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, err_len, "standard input and output must be a terminal "
			 "(--snapshot and --export need none)");
		return -ENOTTY;
	}
	quit_signal = 0;
	catch_signals(&term_saved);
	term_scr = newterm(NULL, stdout, stdin);
	if (!term_scr) {
		const char *term = getenv("TERM");

		restore_signals(&term_saved);
		snprintf(err, err_len, "cannot use the terminal type '%s'", term ? term : "");
		return -ENOTTY;
	}
	set_term(term_scr);
	return 0;
}

/* Give the terminal back; die of the signal that asked us to quit, if one did. */
static void term_end(void)
{
	int sig;

	if (!term_scr)
		return;
	endwin();
	delscreen(term_scr);
	term_scr = NULL;
	restore_signals(&term_saved);
	sig = quit_signal;
	if (sig) {
		/* die of the signal, as the shell expects, now that the terminal is back */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

void ns_tui_end(void)
{
	term_end();
}

int ns_tui_run_loading(struct ns_trace *trace, char *err, size_t err_len)
{
	struct timespec tick = { 0, 10 * 1000000 };
	struct ns_tui_loading *l;
	int ret, ch, quit = 0, i;

	/* a small trace is indexed in a blink: no loading screen to flash by */
	for (i = 0; i < 20 && ns_trace_loading(trace, NULL); i++)
		nanosleep(&tick, NULL);
	if (!ns_trace_loading(trace, NULL))
		return 0;
	ret = term_begin(err, err_len);
	if (ret)
		return ret;
	l = ns_tui_loading_new(trace, use_colour());
	if (!l) {
		term_end();
		snprintf(err, err_len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	curses_modes();
	/* redraw as indexing goes on: a frame at least every 100 ms */
	wtimeout(stdscr, 100);
	while (!quit && !quit_signal && ns_trace_loading(trace, NULL)) {
		ns_tui_loading_draw(l);
		wnoutrefresh(stdscr);
		doupdate();
		errno = 0;
		ch = wgetch(stdscr);
		if (ch == ERR) {
			if (errno == EINTR || errno == 0)
				continue;
			if (isatty(STDIN_FILENO))
				continue;
			quit = 1;	/* the terminal is gone */
			break;
		}
		quit = ns_tui_loading_key(l, ch);
	}
	ns_tui_loading_free(l);
	wtimeout(stdscr, -1);
	if (quit || quit_signal) {
		term_end();
		return 1;
	}
	return 0;
}

int ns_tui_run_setup(struct ns_trace *trace, const struct ns_tui_setup *setup, char *err,
		     size_t err_len)
{
	struct ns_tui t;
	int ret, ch;

	ret = term_begin(err, err_len);
	if (ret)
		return ret;
	ret = ns_tui_open(&t, trace, setup, err, err_len);
	if (ret)
		goto out;
	set_escdelay(25);
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);	/* press and release apart: a drag is two events */

	while (!t.quit && !quit_signal) {
		ns_tui_draw(&t);
		errno = 0;
		/* a filter pass or a search under way: read keys without waiting */
		wtimeout(input_window(&t), ns_tui_busy(&t) ? 0 : -1);
		ch = wgetch(input_window(&t));
		if (quit_signal)
			break;
		if (ch == ERR) {
			if (errno == EINTR)
				continue;
			if (ns_tui_busy(&t)) {
				ns_tui_work(&t);
				continue;
			}
			break;	/* the terminal is gone */
		}
		feed(&t, ch);
	}
out:
	if (!ret)
		ns_tui_persist_exit(&t);	/* the session to keep, to main.c */
	ns_tui_close(&t);
	term_end();
	return ret;
}
