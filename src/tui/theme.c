// SPDX-License-Identifier: GPL-2.0-only
/*
 * The theme: which terminal attributes each semantic role gets, and which
 * characters are drawn. Drawing code asks for a role (marker A, idle,
 * selection...) and never names a colour. Three palettes: 256 colours,
 * the 8 ANSI colours, and monochrome (NO_COLOR, or a terminal without
 * colours), where reverse, bold and underline keep the roles apart.
 * Glyphs are Unicode blocks and lines only when the locale's codeset is
 * UTF-8, so LANG=C gets plain ASCII instead of mojibake.
 */
#include <langinfo.h>
#include <string.h>

#include "nurseshark/model_tasks.h"
#include "tui-int.h"

/* Roles that are not tasks: colour pair (fg, bg; -1 the terminal's) and mono. */
static const struct {
	short fg, bg;
	attr_t colour_attr;
	attr_t mono_attr;
} role_style[NS_ROLE_TASK0] = {
	[NS_ROLE_NORMAL]	= { -1, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_RULER]		= { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_RULER_LABEL]	= { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[NS_ROLE_CPU_LABEL]	= { -1, -1, A_BOLD, A_BOLD },
	[NS_ROLE_IDLE]		= { COLOR_WHITE, -1, A_DIM, A_NORMAL },
	[NS_ROLE_MARKER_A]	= { COLOR_BLACK, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD },
	[NS_ROLE_MARKER_B]	= { COLOR_BLACK, COLOR_RED, A_BOLD, A_REVERSE | A_UNDERLINE },
	[NS_ROLE_SELECTION]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[NS_ROLE_CURSOR]	= { -1, -1, A_REVERSE, A_REVERSE | A_BLINK },
	[NS_ROLE_LIST_HEADER]	= { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_UNDERLINE | A_BOLD },
	[NS_ROLE_LIST_SELECTED]	= { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE },
	[NS_ROLE_LIST_LOST]	= { COLOR_RED, -1, A_BOLD, A_BOLD },
	[NS_ROLE_BAR]		= { -1, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_BAR_ACTIVE]	= { -1, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[NS_ROLE_STATUS]	= { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[NS_ROLE_MESSAGE]	= { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[NS_ROLE_HELP]		= { -1, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_HELP_TITLE]	= { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE },
	[NS_ROLE_SEARCH_MATCH]	= { COLOR_BLACK, COLOR_MAGENTA, A_BOLD, A_UNDERLINE | A_BOLD },
	[NS_ROLE_DROP]		= { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[NS_ROLE_ST_WAKEUP]	= { COLOR_RED, -1, A_BOLD, A_BOLD },
	[NS_ROLE_ST_WAKING]	= { COLOR_MAGENTA, -1, A_BOLD, A_NORMAL },
	[NS_ROLE_ST_PREEMPTED]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[NS_ROLE_ST_DROPPED]	= { COLOR_WHITE, COLOR_RED, A_NORMAL, A_REVERSE },
	[NS_ROLE_ST_BLOCKED]	= { COLOR_RED, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_ST_SLEEPING]	= { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_ST_IDLE]	= { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_ST_STOPPED]	= { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[NS_ROLE_ST_DEAD]	= { COLOR_WHITE, -1, A_NORMAL, A_NORMAL },
};

/*
 * Task row states, the glyphs as different in ASCII as in Unicode, so that
 * LANG=C and NO_COLOR tell every state apart.
 */
const struct ns_tui_task_state ns_tui_task_states[NS_NR_TRS] = {
	[NS_TRS_RUNNING]	= { 0, 0, NS_ROLE_NORMAL, "running (coloured by CPU)" },
	[NS_TRS_WAKEUP]		= { L'\u2592', L'%', NS_ROLE_ST_WAKEUP,
				    "runnable after a wakeup (wakeup latency)" },
	[NS_TRS_WAKING]		= { L'\u2591', L':', NS_ROLE_ST_WAKING,
				    "sched_waking to its sched_wakeup" },
	[NS_TRS_PREEMPTED]	= { L'\u2248', L'~', NS_ROLE_ST_PREEMPTED, "preempted (R, R+)" },
	[NS_TRS_DROPPED]	= { L'?', L'?', NS_ROLE_ST_DROPPED, "not known: events lost" },
	[NS_TRS_BLOCKED]	= { L'\u2581', L'_', NS_ROLE_ST_BLOCKED, "uninterruptible (D)" },
	[NS_TRS_SLEEPING]	= { L'\u00b7', L'.', NS_ROLE_ST_SLEEPING, "sleeping (S)" },
	[NS_TRS_IDLE]		= { L'\u02d9', L'`', NS_ROLE_ST_IDLE, "idle (I)" },
	[NS_TRS_STOPPED]	= { L'T', L'T', NS_ROLE_ST_STOPPED, "stopped (T, t, P)" },
	[NS_TRS_DEAD]		= { L'x', L'x', NS_ROLE_ST_DEAD, "exited (X, Z)" },
	[NS_TRS_UNKNOWN]	= { L' ', L' ', NS_ROLE_NORMAL, "not known" },
};

wchar_t ns_tui_task_state_glyph(const struct ns_tui_glyphs *g, int st)
{
	if (st == NS_TRS_RUNNING)
		return g->running;
	if (st < 0 || st >= NS_NR_TRS)
		return L' ';
	return g->utf8 ? ns_tui_task_states[st].utf8 : ns_tui_task_states[st].ascii;
}

/* Task colours far enough apart to tell neighbours in a row of blocks. */
static const short task_256[NS_TUI_TASK_COLOURS] = {
	33, 208, 41, 163, 178, 39, 161, 77, 99, 172, 44, 205, 142, 69, 167, 37,
};

static const short task_8[] = {
	COLOR_BLUE, COLOR_GREEN, COLOR_MAGENTA, COLOR_CYAN, COLOR_YELLOW, COLOR_RED,
};

void ns_tui_theme_init(struct ns_tui_theme *theme, int use_colour)
{
	int i, pair = 1, nr_task;

	memset(theme, 0, sizeof(*theme));
	if (use_colour && has_colors() && start_color() == OK && COLORS >= 8 &&
	    COLOR_PAIRS > NS_NR_ROLES) {
		int dflt = use_default_colors() == OK;

		for (i = 0; i < NS_ROLE_TASK0; i++, pair++) {
			short fg = role_style[i].fg, bg = role_style[i].bg;

			if (!dflt) {
				fg = fg < 0 ? COLOR_WHITE : fg;
				bg = bg < 0 ? COLOR_BLACK : bg;
			}
			/*
			 * Idle cells in grey rather than dim white where the terminal has
			 * a grey: a terminal leaves dim only through a full attribute
			 * reset (sgr0), then the colour again, at the edge of every idle
			 * run, which doubled the bytes of a one-column pan. Colour 8, the
			 * bright black of 16: its escape is half as long as a 256 one's.
			 */
			if (i == NS_ROLE_IDLE && COLORS >= 16) {
				init_pair(pair, 8, bg);
				theme->attr[i] = COLOR_PAIR(pair);
				continue;
			}
			init_pair(pair, fg, bg);
			theme->attr[i] = COLOR_PAIR(pair) | role_style[i].colour_attr;
		}
		nr_task = COLORS >= 256 ? NS_TUI_TASK_COLOURS : (int)(2 * sizeof(task_8) /
								      sizeof(task_8[0]));
		for (i = 0; i < NS_TUI_TASK_COLOURS; i++, pair++) {
			int k = i % nr_task;
			short fg = COLORS >= 256 ? task_256[k] : task_8[k % 6];

			init_pair(pair, fg, dflt ? -1 : COLOR_BLACK);
			/* 8 colours: the bold half is the bright variant on most terminals */
			theme->attr[NS_ROLE_TASK0 + i] = COLOR_PAIR(pair) |
				(COLORS < 256 && k >= 6 ? A_BOLD : A_NORMAL);
		}
		theme->nr_task_roles = nr_task;
		return;
	}
	for (i = 0; i < NS_ROLE_TASK0; i++)
		theme->attr[i] = role_style[i].mono_attr;
	/* without colour, tasks alternate plain and bold */
	for (i = 0; i < NS_TUI_TASK_COLOURS; i++)
		theme->attr[NS_ROLE_TASK0 + i] = i % 2 ? A_BOLD : A_NORMAL;
	theme->nr_task_roles = 2;
}

/**
 * ns_tui_task_attr - the attributes of a task's blocks
 * The same pid always gets the same role; idle (0) and unknown (-1) pids get
 * the idle role.
 */
attr_t ns_tui_task_attr(const struct ns_tui_theme *theme, int pid)
{
	uint32_t h = (uint32_t)pid;

	if (pid <= 0)
		return theme->attr[NS_ROLE_IDLE];
	/* neighbouring pids land on far-apart roles */
	h *= 2654435761u;
	return theme->attr[NS_ROLE_TASK0 + (h >> 16) % theme->nr_task_roles];
}

/* The colours of a role on a colour terminal by default (for --print-config). */
void ns_tui_role_default(int role, short *fg, short *bg, attr_t *attr)
{
	*fg = *bg = -1;
	*attr = A_NORMAL;
	if (role >= 0 && role < NS_ROLE_TASK0) {
		*fg = role_style[role].fg;
		*bg = role_style[role].bg;
		*attr = role_style[role].colour_attr;
	} else if (role >= NS_ROLE_TASK0 && role < NS_NR_ROLES) {
		*fg = task_256[role - NS_ROLE_TASK0];
	}
}

int ns_tui_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

void ns_tui_glyphs_init(struct ns_tui_glyphs *g)
{
	ns_tui_glyphs_set(g, ns_tui_locale_utf8());
}

/* Unicode glyphs (@utf8) or ASCII ones; config.ini's glyphs = ascii asks for the latter. */
void ns_tui_glyphs_set(struct ns_tui_glyphs *g, int utf8)
{
	g->utf8 = utf8;
	if (g->utf8) {
		g->events = L'\u2588';		/* full block */
		g->running = L'\u2584';		/* lower half block */
		g->idle = L'\u2500';		/* light horizontal line */
		g->vline = L'\u2502';
		g->hline = L'\u2500';
		g->tick = L'\u252c';
		g->drop = L'!';
		g->newline = " \u23ce ";
	} else {
		g->events = L'#';
		g->running = L'=';
		g->idle = L'-';
		g->vline = L'|';
		g->hline = L'-';
		g->tick = L'+';
		g->drop = L'!';
		g->newline = " \\n ";
	}
}
