// SPDX-License-Identifier: GPL-2.0-only
/*
 * The screen: setting the front end up on a curses screen, drawing a frame,
 * and the interactive loop on the controlling terminal.
 *
 * A frame redraws every pane into its window and lets curses send only the
 * cells that changed (wnoutrefresh, then one doupdate), which keeps a slow
 * ssh link quiet. Input is read from a window of its own that is never
 * drawn (see in_win), and escape sequences whole (termkeys.c).
 *
 * The terminal is given back on every way out: a normal quit, an error
 * after the screen was set up, SIGINT/SIGTERM/SIGHUP/SIGQUIT (noted by the
 * handler, acted on when wgetch returns EINTR: endwin, then the signal kills
 * us as it would have), and crashes (endwin from the handler, then the
 * default action). The handlers only note the signal number; a crash
 * handler that finds itself in a child process (a fork() that kept it)
 * leaves the terminal alone, since it is the parent's.
 *
 * Ctrl-Z and SIGCONT are ours too, not curses': on SIGTSTP the loop gives
 * the terminal back and stops; on SIGCONT (after `fg`, or a SIGSTOP that
 * curses never saw) it takes the terminal again, in every mode curses_modes()
 * sets (keypad above all, else arrows read as escape sequences), and
 * redraws the whole screen, since the shell wrote over it meanwhile.
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
static volatile sig_atomic_t stop_signal;	/* SIGTSTP: stop once the tty is back */
static volatile sig_atomic_t cont_signal;	/* SIGCONT: take the tty again */
static pid_t screen_pid;			/* who set the handlers up */
/* The terminal, from the loading screen to the viewer's last frame (none: --snapshot). */
static SCREEN *term_scr;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

static void on_job_signal(int sig)
{
	if (sig == SIGTSTP)
		stop_signal = 1;
	else
		cont_signal = 1;
}

static void on_fatal_signal(int sig)
{
	if (getpid() == screen_pid)
		endwin();
	raise(sig);	/* SA_RESETHAND: the default action now */
}

static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int job_signals[] = { SIGTSTP, SIGCONT };
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NR_QUIT_SIGNALS NS_ARRAY_SIZE(quit_signals)
#define NR_JOB_SIGNALS NS_ARRAY_SIZE(job_signals)
#define NR_FATAL_SIGNALS NS_ARRAY_SIZE(fatal_signals)

struct saved_signals {
	struct sigaction quit[NR_QUIT_SIGNALS];
	struct sigaction job[NR_JOB_SIGNALS];
	struct sigaction fatal[NR_FATAL_SIGNALS];
};

/* Before curses starts: so that curses keeps its hands off these. */
static void catch_signals(struct saved_signals *saved)
{
	struct sigaction sa;
	size_t i;

	screen_pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;	/* no SA_RESTART: wgetch must return */
	for (i = 0; i < NR_QUIT_SIGNALS; i++)
		sigaction(quit_signals[i], &sa, &saved->quit[i]);
	sa.sa_handler = on_job_signal;
	for (i = 0; i < NR_JOB_SIGNALS; i++)
		sigaction(job_signals[i], &sa, &saved->job[i]);
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
	for (i = 0; i < NR_JOB_SIGNALS; i++)
		sigaction(job_signals[i], &saved->job[i], NULL);
	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &saved->fatal[i], NULL);
}

static int use_colour(void)
{
	const char *nc = getenv("NO_COLOR");

	/* https://no-color.org: set and not empty */
	return !(nc && *nc);
}

/*
 * Keys are read from a window of their own, never drawn: wgetch would
 * refresh any other window it reads from over the panes. It is the only
 * window with keypad on, so the terminal is told once at start to send
 * its keypad's sequences (each keypad() call sends that again).
 */
static WINDOW *in_win;

/* Keys one at a time, unechoed, function keys decoded, no cursor. */
static void curses_modes(void)
{
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	leaveok(stdscr, TRUE);
}

/*
 * Ctrl-Z and fg, between two keys: give the terminal back and stop (the
 * default action of SIGTSTP, for the shell to see), then, once continued,
 * take it again. Returns whether the whole screen must be drawn again.
 */
static bool job_control(WINDOW *input)
{
	struct sigaction sa, ours;

	if (stop_signal) {
		stop_signal = 0;
		endwin();
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGTSTP, &sa, &ours);
		raise(SIGTSTP);		/* stopped here until SIGCONT */
		sigaction(SIGTSTP, &ours, NULL);
		/* what the user set with stty meanwhile stays for after us */
		def_shell_mode();
		cont_signal = 1;
	}
	if (!cont_signal)
		return false;
	cont_signal = 0;
	/* the tty as the shell left it: leave curses' mode and enter it anew */
	if (!isendwin())
		endwin();
	doupdate();
	/*
	 * The read that the signal interrupted queued an ERR that the next
	 * wgetch() would return as if the terminal were gone.
	 */
	flushinp();
	curses_modes();
	keypad(input, TRUE);	/* sends keypad_xmit again: endwin() turned it off */
	clearok(curscr, TRUE);
	return true;
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
	t->live = setup ? setup->live : NULL;
	t->live_follow = t->live != NULL;
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

/*
 * One line where it fits, else three short ones (down to 20x5), else the
 * size alone: never a cut sentence.
 */
static void draw_too_small(struct ns_tui *t)
{
	char msg[3][64];
	int nr = 3, i, len, y;

	werase(stdscr);
	len = snprintf(msg[0], sizeof(msg[0]), "Terminal too small: %dx%d, need %dx%d (q quits)",
		       COLS, LINES, NS_TUI_MIN_COLS, NS_TUI_MIN_ROWS);
	if (len <= COLS) {
		nr = 1;
	} else {
		snprintf(msg[0], sizeof(msg[0]), "Terminal too small:");
		snprintf(msg[1], sizeof(msg[1]), "%dx%d, need %dx%d", COLS, LINES,
			 NS_TUI_MIN_COLS, NS_TUI_MIN_ROWS);
		snprintf(msg[2], sizeof(msg[2]), "(q quits)");
		if (LINES < 3) {
			nr = 1;
			snprintf(msg[0], sizeof(msg[0]), "%dx%d<%dx%d", COLS, LINES,
				 NS_TUI_MIN_COLS, NS_TUI_MIN_ROWS);
		}
	}
	y = (LINES - nr) / 2;
	for (i = 0; i < nr; i++) {
		len = (int)strlen(msg[i]);
		if (len > COLS)
			len = COLS;
		ns_tui_put_text(stdscr, &t->glyphs, y + i, (COLS - len) / 2, len, msg[i], 0,
				t->theme.attr[NS_ROLE_MESSAGE]);
	}
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
	ns_tui_hscroll(term_scr);
	doupdate();
}

/* One mouse report of curses, as the dispatcher's inputs. */
static void feed_mouse(struct ns_tui *t, const MEVENT *me)
{
	struct ns_tui_input in = { .kind = NS_IN_KEY, .x = me->x, .y = me->y };

	if (me->bstate & BUTTON4_PRESSED) {
		in.kind = NS_IN_WHEEL_UP;
	} else if (me->bstate & BUTTON5_PRESSED) {
		in.kind = NS_IN_WHEEL_DOWN;
	} else if (me->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
		in.kind = NS_IN_PRESS;
		ns_tui_input(t, &in);
		if (!(me->bstate & BUTTON1_CLICKED))
			return;
		in.kind = NS_IN_RELEASE;
	} else if (me->bstate & BUTTON1_RELEASED) {
		in.kind = NS_IN_RELEASE;
	} else {
		return;
	}
	ns_tui_input(t, &in);
}

#define NS_TUI_MOUSE_QUEUE	16

/* A curses key or mouse report, as the dispatcher's inputs. */
static void feed(struct ns_tui *t, int ch)
{
	struct ns_tui_input in = { .kind = NS_IN_KEY, .key = ch };
	MEVENT me[NS_TUI_MOUSE_QUEUE];
	int n = 0;

	if (ch == KEY_RESIZE) {
		in.kind = NS_IN_RESIZE;
		in.x = COLS;
		in.y = LINES;
	} else if (ch == KEY_MOUSE) {
		/*
		 * Reports that arrived together (a press and its release, on a
		 * slow machine) are queued by curses behind one KEY_MOUSE, and
		 * getmouse gives the newest first: take them all, oldest first.
		 */
		while (n < NS_TUI_MOUSE_QUEUE && getmouse(&me[n]) == OK)
			n++;
		while (n > 0)
			feed_mouse(t, &me[--n]);
		return;
	}
	ns_tui_input(t, &in);
}

int ns_tui_run(struct ns_trace *trace, char *err, size_t err_len)
{
	return ns_tui_run_setup(trace, NULL, err, err_len);
}

/* The terminal's saved signals, from the loading screen to the viewer's last frame. */
static struct saved_signals term_saved;

static void term_end(void);

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
	stop_signal = 0;
	cont_signal = 0;
	catch_signals(&term_saved);
	term_scr = newterm(NULL, stdout, stdin);
	if (!term_scr) {
		const char *term = getenv("TERM");

		restore_signals(&term_saved);
		snprintf(err, err_len, "cannot use the terminal type '%s'", term ? term : "");
		return -ENOTTY;
	}
	set_term(term_scr);
	in_win = newwin(1, 1, 0, 0);
	if (!in_win) {
		term_end();
		snprintf(err, err_len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	keypad(in_win, TRUE);
	leaveok(in_win, TRUE);
	return 0;
}

/* Give the terminal back; die of the signal that asked us to quit, if one did. */
static void term_end(void)
{
	int sig;

	if (!term_scr)
		return;
	endwin();
	if (in_win)
		delwin(in_win);
	in_win = NULL;
	delscreen(term_scr);
	term_scr = NULL;
	restore_signals(&term_saved);
	sig = quit_signal;
	if (sig) {
		struct sigaction was;

		/*
		 * Die of the signal, as the shell expects, now that the terminal
		 * is back; unless a handler of the caller's was there before
		 * ours (nurseshark live, which puts the tracing state back
		 * first): then it is the one to hear of it.
		 */
		sigaction(sig, NULL, &was);
		if (was.sa_handler == SIG_DFL || was.sa_handler == SIG_IGN)
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
	while (!quit && !quit_signal && ns_trace_loading(trace, NULL)) {
		job_control(in_win);
		ns_tui_loading_draw(l);
		wnoutrefresh(stdscr);
		doupdate();
		errno = 0;
		ch = ns_tui_read_key(in_win, 100);
		if (ch == NS_KEY_NONE || ch == KEY_MOUSE)
			continue;
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
		int wait;

		job_control(in_win);
		/* live: a newer trace when one is due; wait for a key until the next */
		wait = ns_tui_live_tick(&t);
		ns_tui_draw(&t);
		errno = 0;
		/* a filter pass or a search under way: read keys without waiting */
		ch = ns_tui_read_key(in_win, ns_tui_busy(&t) ? 0 : wait);
		if (quit_signal)
			break;
		if (ch == NS_KEY_NONE)
			continue;
		if (ch == ERR) {
			if (errno == EINTR)
				continue;
			if (wait >= 0 && !ns_tui_busy(&t) && isatty(STDIN_FILENO))
				continue;	/* live: the time to look again */
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
