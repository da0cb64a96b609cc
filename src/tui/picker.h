/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/tui: the pickers of tasks, events, CPUs, filters and
 * streams, a
 * list over the panes that typing narrows (picker.c).
 */
#ifndef NS_TUI_PICKER_H
#define NS_TUI_PICKER_H

#include <stdint.h>

#include "tui-int.h"

enum ns_tui_picker_kind {
	NS_PICK_NONE,
	NS_PICK_TASKS,
	NS_PICK_EVENTS,
	NS_PICK_CPUS,
	NS_PICK_FILTERS,
	NS_PICK_STREAMS,
	NS_NR_PICKERS,
};

struct ns_tui_pick_item {
	int kind;		/* enum ns_filter_kind (FILTERS: the entry's) */
	int value;		/* pid, cpu, event type, stream; FILTERS: the entry's index */
	char name[160];		/* comm, "system/event", "system", "CPU3", a stream's filter
				 * name ("top", "b1"); FILTERS: its text */
	uint64_t count;		/* events */
	uint64_t ns;		/* tasks: CPU time */
};

struct ns_tui_picker {
	int kind;			/* enum ns_tui_picker_kind; NONE: closed */
	struct ns_tui_pick_item *items;
	size_t nr_items, cap;
	int *shown;			/* items that match the narrowing text, sorted */
	int nr_shown;
	char narrow[64];		/* typed to narrow the list */
	int sel, top;			/* in shown */
	int sort;			/* tasks: 0 pid, 1 comm, 2 events, 3 CPU time */
};

/* Open the picker of @kind (enum ns_tui_picker_kind); the handler of pick-*. */
void ns_tui_picker_open(struct ns_tui *t, int kind);
/* Close the picker (a modal layer, layers.c). */
void ns_tui_picker_close(struct ns_tui *t);

#endif
