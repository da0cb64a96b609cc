/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/tui: the prompt of / ? and : in the status line, its line
 * editor and its two histories (commands, searches), and the : commands it
 * runs (prompt.c, commands.c).
 */
#ifndef NS_TUI_PROMPT_H
#define NS_TUI_PROMPT_H

#include "tui-int.h"

enum ns_tui_prompt_kind {
	NS_PROMPT_NONE,
	NS_PROMPT_COMMAND,	/* : */
	NS_PROMPT_SEARCH,	/* / */
	NS_PROMPT_SEARCH_BACK,	/* ? */
};

#define NS_TUI_PROMPT_MAX	512
#define NS_TUI_HISTORY		64

struct ns_tui_history {
	char *line[NS_TUI_HISTORY];	/* oldest first */
	int nr;
};

struct ns_tui_prompt {
	int kind;			/* enum ns_tui_prompt_kind; NONE: closed */
	char buf[NS_TUI_PROMPT_MAX];
	int len, cur;			/* bytes, and the cursor's byte */
	int hist;			/* history line shown, nr: the line being typed */
	char typed[NS_TUI_PROMPT_MAX];	/* what was typed before browsing the history */
	struct ns_tui_history history[2];	/* 0: commands, 1: searches */
};

void ns_tui_prompt_open(struct ns_tui *t, int kind, const char *text);
void ns_tui_prompt_free(struct ns_tui *t);
int ns_tui_prompt_key(struct ns_tui *t, int key);
void ns_tui_draw_prompt(struct ns_tui *t);
/* Run one : command line (also what --keys and tests type). */
void ns_tui_command(struct ns_tui *t, const char *line);
void ns_tui_history_add(struct ns_tui_history *h, const char *line);
void ns_tui_history_free(struct ns_tui_history *h);

#endif
