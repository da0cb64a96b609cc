/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the terminal front end share: the screen state (the one
 * struct ns_tui, which owns the view), the semantic colour roles, the glyph
 * set, the key map and the input events that both the terminal and
 * --snapshot feed to the same dispatcher. Only src/tui includes curses.
 */
#ifndef NS_TUI_INT_H
#define NS_TUI_INT_H

#include <stdio.h>
#include <wchar.h>
#include <curses.h>

#include "nurseshark/model.h"
#include "nurseshark/tui.h"
#include "nurseshark/util.h"
#include "actions.h"

/* ---- colours: what is drawn, never which colour ------------------------- */

#define NS_TUI_TASK_COLOURS	16	/* task roles; a pid hashes into one */

enum ns_tui_role {
	NS_ROLE_NORMAL,
	NS_ROLE_RULER,		/* the time ruler's line and ticks */
	NS_ROLE_RULER_LABEL,	/* the ruler's time labels */
	NS_ROLE_CPU_LABEL,	/* "CPU0" */
	NS_ROLE_IDLE,		/* idle CPU, events of pid 0 */
	NS_ROLE_MARKER_A,
	NS_ROLE_MARKER_B,
	NS_ROLE_SELECTION,	/* the selected event's line in the graph */
	NS_ROLE_CURSOR,		/* the graph cursor's cell */
	NS_ROLE_LIST_HEADER,
	NS_ROLE_LIST_SELECTED,	/* the selected row of the list */
	NS_ROLE_LIST_LOST,	/* "[N EVENTS DROPPED]" */
	NS_ROLE_BAR,		/* the marker bar */
	NS_ROLE_BAR_ACTIVE,	/* the active marker's part of the bar */
	NS_ROLE_STATUS,
	NS_ROLE_MESSAGE,	/* a transient message in the status line */
	NS_ROLE_HELP,
	NS_ROLE_HELP_TITLE,
	NS_ROLE_SEARCH_MATCH,	/* what the last search matches, in the list */
	NS_ROLE_DROP,		/* events lost, on a CPU row */
	NS_ROLE_ST_WAKEUP,	/* task rows: the states (ns_tui_task_states) */
	NS_ROLE_ST_WAKING,
	NS_ROLE_ST_PREEMPTED,
	NS_ROLE_ST_DROPPED,
	NS_ROLE_ST_BLOCKED,
	NS_ROLE_ST_SLEEPING,
	NS_ROLE_ST_IDLE,
	NS_ROLE_ST_STOPPED,
	NS_ROLE_ST_DEAD,
	NS_ROLE_TASK0,		/* NS_TUI_TASK_COLOURS roles for tasks */
	NS_NR_ROLES = NS_ROLE_TASK0 + NS_TUI_TASK_COLOURS,
};

struct ns_tui_theme {
	attr_t attr[NS_NR_ROLES];
	int nr_task_roles;	/* task roles that look different (1: monochrome) */
};

/* The characters drawn; Unicode only when the locale's codeset is UTF-8. */
struct ns_tui_glyphs {
	int utf8;
	wchar_t events;		/* a column with events */
	wchar_t running;	/* a task ran, no event */
	wchar_t idle;		/* the CPU was idle */
	wchar_t vline;		/* markers and selection through the CPU rows */
	wchar_t hline;		/* the ruler */
	wchar_t tick;		/* a tick on the ruler */
	wchar_t drop;		/* events lost, on a CPU row */
	const char *newline;	/* stands for a newline inside Info */
};

/*
 * The states of task rows (enum ns_task_row_state), in the order a column
 * picks them: what draws each, and the help's legend. Running is drawn as
 * on CPU rows (the glyphs' running, coloured by CPU).
 */
struct ns_tui_task_state {
	wchar_t utf8, ascii;
	int role;
	const char *legend;
};

extern const struct ns_tui_task_state ns_tui_task_states[];
/* The glyph of task row state @st (enum ns_task_row_state) with @g. */
wchar_t ns_tui_task_state_glyph(const struct ns_tui_glyphs *g, int st);

void ns_tui_theme_init(struct ns_tui_theme *theme, int use_colour);

/* loading.c: the screen while the index is built */
struct ns_tui_loading;
struct ns_tui_loading *ns_tui_loading_new(struct ns_trace *trace, int colour);
void ns_tui_loading_free(struct ns_tui_loading *l);
void ns_tui_loading_draw(struct ns_tui_loading *l);
int ns_tui_loading_key(struct ns_tui_loading *l, int ch);
attr_t ns_tui_task_attr(const struct ns_tui_theme *theme, int pid);
void ns_tui_glyphs_init(struct ns_tui_glyphs *glyphs);
void ns_tui_glyphs_set(struct ns_tui_glyphs *glyphs, int utf8);
/* The locale's codeset is UTF-8. */
int ns_tui_locale_utf8(void);
void ns_tui_role_default(int role, short *fg, short *bg, attr_t *attr);
/* The roles' names in config.ini's [colours] (config.c). */
extern const char *const ns_tui_role_names[NS_NR_ROLES];

/* ---- input -------------------------------------------------------------- */

enum ns_tui_input_kind {
	NS_IN_KEY,		/* key: a character or a curses KEY_* code */
	NS_IN_PRESS,		/* mouse button 1 down at x, y */
	NS_IN_RELEASE,		/* mouse button 1 up at x, y */
	NS_IN_WHEEL_UP,
	NS_IN_WHEEL_DOWN,
	NS_IN_RESIZE,		/* the terminal is now x columns by y rows */
};

/*
 * Keys curses has no code for (termkeys.c), above every curses code, and
 * the answers of the escape-sequence decoder, below every key.
 */
enum {
	NS_KEY_C_LEFT = 0x10000,
	NS_KEY_C_RIGHT,
	NS_KEY_C_UP,
	NS_KEY_C_DOWN,
};
#define NS_KEY_NONE	(-2)	/* a sequence read and discarded */
#define NS_KEY_MORE	(-3)	/* a sequence not complete yet */
#define NS_KEY_ESC_THEN	(-4)	/* the ESC was a key; its next byte is another */

int ns_tui_decode_seq(const int *b, int n);
void ns_tui_key_name(int key, char *buf, size_t len);
int ns_tui_ext_key(const char *name);
int ns_tui_read_key(WINDOW *w, int timeout);

struct ns_tui_input {
	int kind;
	int key;
	int x, y;
};

#define NS_TUI_MAX_SEQ		2	/* keys in a binding: "'a" */
#define NS_TUI_MESSAGE_LEN	512	/* one status-line message, whole */
#define NS_TUI_MSG_HISTORY		40	/* messages :messages shows */
#define NS_TUI_MAX_BINDINGS	320
#define NS_TUI_KEYS_TEXT	128	/* bytes of one action's keys in one scope */

enum ns_tui_scope {
	NS_SCOPE_ANY,
	NS_SCOPE_LIST,
	NS_SCOPE_GRAPH,
	NS_SCOPE_PICKER,	/* the overlays' own: no "any" keys fall through to them */
	NS_SCOPE_HELP,
	NS_SCOPE_STATS,		/* the statistics overlay (stats.c) */
	NS_SCOPE_RECORD,	/* the Record screen (record_screen.c) */
	NS_SCOPE_JOB,		/* a filter pass or search under way (jobs.c) */
	NS_NR_SCOPES,
};

/* The scopes of the panes (ANY, LIST, GRAPH); those after are overlays'. */
#define NS_TUI_PANE_SCOPES	3
#define NS_TUI_PANES_MASK	((1u << NS_SCOPE_ANY) | (1u << NS_SCOPE_LIST) |	\
				 (1u << NS_SCOPE_GRAPH))

struct ns_tui_binding {
	int scope;
	int nr_keys;
	int keys[NS_TUI_MAX_SEQ];
	enum ns_tui_action action;
};

struct ns_tui_keymap {
	struct ns_tui_binding b[NS_TUI_MAX_BINDINGS];
	int nr;
	/* each action's keys in each scope, as written: the table's, or config.ini's */
	char text[NS_NR_ACTIONS][NS_NR_SCOPES][NS_TUI_KEYS_TEXT];
	int pending[NS_TUI_MAX_SEQ];	/* the keys of a sequence typed so far */
	int nr_pending;
};

struct ns_tui_action_info {
	const char *name;
	const char *keys[NS_NR_SCOPES];
	const char *hint;
	const char *help;
	const char *legend;		/* a picker action's labels (actions.h), or "" */
	unsigned scopes;		/* a bit per scope it may be bound in */
	ns_tui_handler_fn *run;		/* what the action does */
	int arg;			/* its argument */
};

extern const struct ns_tui_action_info ns_tui_actions[NS_NR_ACTIONS];
extern const char *const ns_tui_scope_title[NS_NR_SCOPES];

/**
 * ns_tui_parse_input - parse the next key of a --keys string
 * @s: the string; moved past what was parsed
 * @in: up to two events (<Click:X,Y> is a press and a release)
 * @err: a one-line reason on failure
 *
 * Returns how many events were filled in (0 at the end), or -EINVAL.
 */
int ns_tui_parse_input(const char **s, struct ns_tui_input in[2], char *err, size_t err_len);

/* Returns 0, or -EINVAL when the action table has a key it cannot parse. */
int ns_tui_keymap_init(struct ns_tui_keymap *km);

/**
 * ns_tui_keymap_bind - give an action new keys in one scope (config.ini)
 * @keys: words in the --keys syntax ("" unbinds)
 * @taken: filled with the actions that lost a key to it (NS_NR_ACTIONS entries)
 *
 * Each key of @keys is taken away from every other action of @scope, and
 * for NS_SCOPE_ANY of every scope, so that it does what the file says.
 * Call ns_tui_keymap_build() after the last one. 0, or -EINVAL.
 */
int ns_tui_keymap_bind(struct ns_tui_keymap *km, int scope, enum ns_tui_action act,
		       const char *keys, unsigned char *taken);
/* The bindings from km->text. 0, or -EINVAL / -ENOSPC. */
int ns_tui_keymap_build(struct ns_tui_keymap *km);

/**
 * ns_tui_keymap_feed - the action a key completes, given the focused pane
 * Returns the action, or NS_ACT_NONE for a key bound to nothing or for the
 * first key of a sequence (remembered until the next key).
 */
enum ns_tui_action ns_tui_keymap_feed(struct ns_tui_keymap *km, int scope, int key);

/* ---- the graph's rows (graph_rows.c) ------------------------------------- */

enum ns_tui_row_kind {
	NS_ROW_CPU,
	NS_ROW_TASK,
	NS_ROW_PLOT,		/* a latency or field plot (plot_rows.c) */
};

struct ns_tui_graph_row {
	int kind;		/* enum ns_tui_row_kind */
	int id;			/* the CPU, or the index of the task row in task[] or plot[] */
};

struct ns_task_row;
struct ns_task_bin;
struct ns_plot;
struct ns_plot_col;

/* The shown CPUs, then the task rows of the filter set, top to bottom. */
struct ns_tui_graph_rows {
	struct ns_tui_graph_row *row;
	size_t nr, cap;
	struct ns_task_row **task;	/* one per task row of the filter set, in its order */
	int nr_task;
	struct ns_task_bin *bins;	/* one task row's bins, a column each */
	size_t nr_bins;
	/* the plot rows of the filter set, in its order, below the task rows (plot_rows.c) */
	struct ns_plot **plot;
	int nr_plot;
	struct ns_plot *made;		/* made by a command, for the next sync to take */
	struct ns_plot_job *job;	/* a command's row being made, in slices (plot_rows.c) */
	struct ns_plot_col *cols;	/* one plot row's columns */
	size_t nr_cols;
};

/* ---- layers over the panes (layers.c) ----------------------------------------- */

/* What one kind of overlay does; each op gets the state it was pushed with. */
struct ns_tui_layer_ops {
	const char *name;
	int modal;		/* swallows the keys (and mouse) it does not handle */
	/* 1 when it handled @key; NULL: no keys of its own */
	int (*key)(struct ns_tui *t, void *state, int key);
	/* 1 when it handled @in; NULL: no mouse of its own */
	int (*mouse)(struct ns_tui *t, void *state, const struct ns_tui_input *in);
	/* over the panes (and the layers below), after they are drawn */
	void (*draw)(struct ns_tui *t, void *state);
	/* it is out of the stack: free or reset its state */
	void (*close)(struct ns_tui *t, void *state);
};

struct ns_tui_layer {
	const struct ns_tui_layer_ops *ops;
	void *state;
};

#define NS_TUI_MAX_LAYERS	8

int ns_tui_layer_push(struct ns_tui *t, const struct ns_tui_layer_ops *ops, void *state);
void ns_tui_layer_pop(struct ns_tui *t, const struct ns_tui_layer_ops *ops);
int ns_tui_layer_shown(const struct ns_tui *t, const struct ns_tui_layer_ops *ops);
/* Pop every layer (at close). */
void ns_tui_layers_close(struct ns_tui *t);
int ns_tui_layers_key(struct ns_tui *t, int key);
int ns_tui_layers_mouse(struct ns_tui *t, const struct ns_tui_input *in);
void ns_tui_draw_layers(struct ns_tui *t);

/* ---- screen state -------------------------------------------------------- */

enum ns_tui_focus {
	NS_FOCUS_LIST,
	NS_FOCUS_GRAPH,
};

#define NS_TUI_MIN_COLS		40
#define NS_TUI_MIN_ROWS		10
#define NS_TUI_RULER_ROWS	2

/* Where the panes sit, from the terminal's size (see layout.c). */
struct ns_tui_layout {
	int cols, rows;
	int too_small;
	int graph_y, graph_h;	/* ruler plus CPU rows */
	int cpu_y, cpu_rows;	/* CPU rows, screen row of the first */
	int label_w;		/* "CPU12 " */
	int graph_cols;		/* columns of time: view.cols */
	int bar_y, bar_h;	/* the marker bar: 1 or 2 rows */
	int list_y, list_h;	/* header plus rows */
	int status_y;
};

struct ns_tui {
	struct ns_trace *trace;
	struct ns_view view;
	int view_ready;
	struct ns_tui_theme theme;
	struct ns_tui_glyphs glyphs;
	struct ns_tui_keymap keymap;
	struct ns_tui_layout lay;
	WINDOW *graph, *bar, *list, *status;

	int focus;		/* enum ns_tui_focus */
	int cursor_col;		/* graph cursor: column of time */
	int cursor_cpu;		/* graph cursor: CPU */
	int cpu_top;		/* first CPU row shown */
	int info_scroll;		/* columns of Info scrolled off to the left */
	int info_max;		/* the widest Info on screen, at the last draw */
	struct ns_tui_layer layers[NS_TUI_MAX_LAYERS];	/* overlays, bottom first */
	int nr_layers;
	int help_top;		/* first line of the help shown */
	int quit;
	int pressed;		/* mouse button 1 is down at press_x, press_y */
	int press_x, press_y;
	char message[NS_TUI_MESSAGE_LEN];	/* shown once in the status line */
	/* the messages shown, for :messages (detail.c): a ring, the oldest at next_msg */
	char history[NS_TUI_MSG_HISTORY][NS_TUI_MESSAGE_LEN];
	int nr_history, next_msg;

	/* config.ini and sessions (config.c, persist.c) */
	const struct ns_tui_setup *setup;
	int graph_rows;		/* CPU rows the graph gets; 0: up to half the screen */
	int time_nsec;		/* times with nanoseconds (time-format = nsec) */

	struct ns_tui_filtering *flt;	/* filters, the search, jobs (filtering.h) */
	struct ns_tui_graph_rows rowset;	/* the graph's rows (graph_rows.c) */
	struct ns_tui_prompt *prompt;	/* the prompt line and its history (prompt.h) */
	struct ns_tui_picker *picker;	/* the picker, when one is open (picker.h) */

	struct ns_sched *sched;	/* the task timelines, built on first use (sched_ctx.c) */
	int sched_failed;	/* they could not be built */

	/* nurseshark live (live.c): NULL for a file */
	const struct ns_tui_live *live;
	int live_paused;	/* Space: the screen stays, the recording goes on */
	int live_follow;	/* the window shows the newest events */
	double live_next_ms;	/* when to ask for a newer trace */
	double live_status_ms;	/* when to read the recording's figures again */
	double live_cost_ms;	/* what the last refresh took */
	char live_status[96];	/* the recording's figures, for the status line */

	struct ns_bin *bins;	/* view.cols bins, one CPU at a time */
	struct ns_pos *rows;	/* positions of the list's rows */
	size_t nr_rows_alloc;
	struct ns_event_text txt;
};

/* sched_ctx.c: the selected event's scheduling context, and its jumps */
enum ns_tui_sched_jump {
	NS_TUI_SCHED_WAKER,
	NS_TUI_SCHED_WAKEUP,
	NS_TUI_SCHED_SWITCH_IN,
	NS_TUI_SCHED_SWITCH_OUT,
};
struct ns_sched;
void ns_tui_sched_ctx_text(struct ns_tui *t, char *buf, size_t len);
void ns_tui_sched_ctx_fit(struct ns_tui *t, char *buf, size_t len, int width);
void ns_tui_sched_free(struct ns_tui *t);
struct ns_sched *ns_tui_sched_timelines(struct ns_tui *t);
uint64_t ns_tui_drops_in_window(const struct ns_tui *t);

/* live.c: nurseshark live */
#define NS_TUI_LIVE_MS		100	/* the newest events show within this */
/* Refresh the trace when due; returns the ms until the next is due (-1: not live). */
int ns_tui_live_tick(struct ns_tui *t);
/* The key goes to a live action first (Space pauses, whatever the pane): 1 if it did. */
int ns_tui_live_key(struct ns_tui *t, int key);
/* After a key: the user moved the window or the selection, so stop following. */
void ns_tui_live_moved(struct ns_tui *t, uint64_t start_ns, uint64_t selected);
/* End (last-event) in live: follow the newest again. */
void ns_tui_live_follow(struct ns_tui *t);
/* :save FILE in live. */
void ns_tui_live_save(struct ns_tui *t, const char *path);

/* setup.c: the parts beyond the panes (filtering, graph rows, prompt, picker) */
int ns_tui_parts_open(struct ns_tui *t, const struct ns_tui_setup *setup);
void ns_tui_parts_close(struct ns_tui *t);

/* graph_rows.c */
/* The filter set's hidden CPUs or task rows changed: rebuild the rows (and the layout). */
void ns_tui_graph_rows_rebuild(struct ns_tui *t);
/* Close the task and plot rows, made over a trace about to go; rebuild before drawing. */
void ns_tui_graph_rows_forget(struct ns_tui *t);
void ns_tui_graph_rows_free(struct ns_tui *t);
int ns_tui_nr_graph_rows(const struct ns_tui *t);
const struct ns_tui_graph_row *ns_tui_graph_row(const struct ns_tui *t, int i);
/* The graph row of @cpu, or -1 when it is hidden. */
int ns_tui_row_of_cpu(const struct ns_tui *t, int cpu);
/* The label of graph row @i ("CPU3", "gzip-1234"). */
void ns_tui_graph_row_label(const struct ns_tui *t, int i, char *buf, size_t len);
/* "gzip-1234": a task row's label, and how filters name a task. */
void ns_tui_task_label(const struct ns_tui *t, int pid, char *buf, size_t len);
/* Label width the graph rows need. */
int ns_tui_graph_label_w(const struct ns_tui *t);
/* Select the event of graph row @i nearest to column @col: 0, or -1. */
int ns_tui_graph_row_nearest(struct ns_tui *t, int i, int col, uint64_t *row);
/* Add or remove the task row of @pid. */
void ns_tui_toggle_task_row(struct ns_tui *t, int pid);

/* plot_rows.c: latency and field plots */
/* The plot rows as the filter set lists them, reusing those made. 0 or -ENOMEM. */
int ns_tui_plot_rows_sync(struct ns_tui *t);
void ns_tui_plot_rows_free(struct ns_tui *t);
/* Plot row @id's label: "lat 1.23ms" (the window's greatest), "prio 0..120". */
void ns_tui_plot_row_label(const struct ns_tui *t, int id, char *buf, size_t len);
/* The widest label plot row @id can have. */
int ns_tui_plot_row_label_w(const struct ns_tui *t, int id);
void ns_tui_draw_plot_row(struct ns_tui *t, int y, int id);
/* The event of plot row @id's point nearest to @ts_ns: 0, or -1. */
int ns_tui_plot_row_nearest(struct ns_tui *t, int id, uint64_t ts_ns, uint64_t *row);
/* :latency and :plot (@kind enum ns_plot_kind): add the row, or remove it when it is there. */
void ns_tui_cmd_plot_row(struct ns_tui *t, char *args, int kind);
/*
 * A command's row is made in the background: a slice of it between key
 * reads (jobs.c calls it while no filter pass or search runs); the status
 * line shows how far it is (ns_tui_plot_job_status()).
 */
void ns_tui_plot_job_work(struct ns_tui *t);
/* "Making the row 'latency A B': 42%..." in @buf; 0 when no row is being made. */
int ns_tui_plot_job_status(const struct ns_tui *t, char *buf, size_t len);

/* setup and teardown shared by the terminal and --snapshot (screen.c) */
int ns_tui_open(struct ns_tui *t, struct ns_trace *trace, const struct ns_tui_setup *setup,
		char *err, size_t err_len);
void ns_tui_close(struct ns_tui *t);
void ns_tui_draw(struct ns_tui *t);

/* hscroll.c */
void ns_tui_hscroll(SCREEN *sp);

/* layout.c */
int ns_tui_layout(struct ns_tui *t, int cols, int rows);
void ns_tui_free_windows(struct ns_tui *t);

/* dispatch.c: the one entry point of every key, click and resize */
void ns_tui_input(struct ns_tui *t, const struct ns_tui_input *in);

/* actions.c */
void ns_tui_run_action(struct ns_tui *t, enum ns_tui_action act);
void ns_tui_message(struct ns_tui *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Middle of the graph column @col, in ns. */
uint64_t ns_tui_col_mid_ns(const struct ns_tui *t, int col);
/* Put the graph cursor on the selected event. */
void ns_tui_cursor_to_selection(struct ns_tui *t);
void ns_tui_show_cursor_cpu(struct ns_tui *t);
/* The message history as a layer (detail.c), for :messages. */
void ns_tui_messages_open(struct ns_tui *t, int unused);
/* Rows of context around the selection in the list, as vim's scrolloff (dispatch.c). */
void ns_tui_show_context(struct ns_tui *t);

/* text.c */
int ns_tui_put_text(WINDOW *win, const struct ns_tui_glyphs *g, int y, int x, int width,
		    const char *s, int skip_cols, attr_t attr);
void ns_tui_put_glyph(WINDOW *win, int y, int x, wchar_t ch, attr_t attr);
void ns_tui_fill(WINDOW *win, int y, int x, int width, attr_t attr);
int ns_tui_digits(uint64_t v);
#define NS_TUI_STREAM_NAME_W	6	/* an instance's name in the list's CPU column */
int ns_tui_ts_width(const struct ns_tui *t);
char *ns_tui_fmt_ts(const struct ns_tui *t, char *buf, size_t len, uint64_t ts_ns);
char *ns_tui_fmt_delta(const struct ns_tui *t, char *buf, size_t len, int64_t delta_ns);

/* the panes */
void ns_tui_draw_graph(struct ns_tui *t);
void ns_tui_draw_list(struct ns_tui *t);
void ns_tui_draw_bar(struct ns_tui *t);
/* Rows the marker bar needs at this width: 1, or 2 when narrow; one more for the filters. */
int ns_tui_bar_rows(const struct ns_tui *t, int cols);
void ns_tui_draw_status(struct ns_tui *t);
/* help.c: the help overlay */
int ns_tui_help_shown(const struct ns_tui *t);
int ns_tui_help_nr_lines(const struct ns_tui *t);

/**
 * ns_tui_walk_keys - every (scope, action) with keys, in table order
 * @emit: called with the scope, the keys as written in the table, the action;
 *        with keys == NULL and action == NS_ACT_NONE at the start of a scope
 */
void ns_tui_walk_keys(void (*emit)(void *arg, int scope, const char *keys,
				   enum ns_tui_action act), void *arg);
/* The same over a key map's keys (config.ini's bindings): what the help shows. */
void ns_tui_walk_keymap(const struct ns_tui_keymap *km,
			void (*emit)(void *arg, int scope, const char *keys,
				     enum ns_tui_action act), void *arg);

/* config.c: config.ini's settings on the front end, what it cannot do in @d */
int ns_tui_config_keys(struct ns_tui_keymap *km, const struct ns_config *c, struct ns_diag *d);
void ns_tui_config_apply(struct ns_tui *t, const struct ns_config *c, struct ns_diag *d);
int ns_tui_check_binding(const char *keys, char *err, size_t err_len);

/* persist.c: sessions on the screen, and back */
void ns_tui_persist_start(struct ns_tui *t, const struct ns_tui_setup *setup);
void ns_tui_persist_exit(struct ns_tui *t);
/* the commands of sessions and filter files (the command table's handlers) */
void ns_tui_cmd_save_session(struct ns_tui *t, char *file, int unused);
void ns_tui_cmd_load_session(struct ns_tui *t, char *file, int unused);
void ns_tui_cmd_save_filters(struct ns_tui *t, char *file, int unused);
void ns_tui_cmd_load_filters(struct ns_tui *t, char *file, int unused);

#endif
