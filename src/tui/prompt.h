/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/tui: the prompt of / ? and : in the status line, its line
 * editor and its two histories (commands, searches), and the : commands it
 * runs (prompt.c; the commands' table is commands.c).
 */
#ifndef NS_TUI_PROMPT_H
#define NS_TUI_PROMPT_H

#include "tui-int.h"

enum ns_tui_prompt_kind {
	NS_PROMPT_NONE,
	NS_PROMPT_COMMAND,	/* : */
	NS_PROMPT_SEARCH,	/* / */
	NS_PROMPT_SEARCH_BACK,	/* ? */
	NS_PROMPT_CONFIRM,	/* a y/n question (ns_tui_confirm()) */
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
	char matches[96];		/* the commands Tab found, until the next key */
	/* NS_PROMPT_CONFIRM: buf is the question; the next key answers it, y or n */
	void (*answer)(struct ns_tui *t, int yes, const char *arg);
	char arg[NS_TUI_PROMPT_MAX];
	struct ns_tui_history history[2];	/* 0: commands, 1: searches */
};

void ns_tui_prompt_open(struct ns_tui *t, int kind, const char *text);
void ns_tui_prompt_free(struct ns_tui *t);
/*
 * Ask a y/n question in the status line; the next key answers it: @answer
 * gets 1 for y or Y, 0 for any other key, and @arg (copied).
 */
void ns_tui_confirm(struct ns_tui *t, void (*answer)(struct ns_tui *t, int yes, const char *arg),
		    const char *arg, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* commands.c: the : commands */
struct ns_tui_command {
	const char *name;
	const char *alias;	/* a short form ("g"), or NULL */
	const char *args;	/* their synopsis ("[FILE]"), "" for none */
	const char *help;	/* one line for the help and the man page */
	void (*run)(struct ns_tui *t, char *args, int arg);
	int arg;
};

extern const struct ns_tui_command ns_tui_commands[];
extern const int ns_tui_nr_commands;

/* Run one : command line (also what --keys and tests type). */
void ns_tui_command(struct ns_tui *t, const char *line);
int ns_tui_complete_command(const char *prefix, char *out, size_t len, char *matches,
			    size_t matches_len);
void ns_tui_history_add(struct ns_tui_history *h, const char *line);
void ns_tui_history_free(struct ns_tui_history *h);

#endif
