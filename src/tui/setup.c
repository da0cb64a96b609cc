// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parts of the front end beyond the panes, made and unmade in one
 * place for the terminal and --snapshot alike: the filtering state (which
 * builds the graph's rows and may start the first filter pass), the prompt
 * with its history, and the picker. ns_tui_open() calls the first once the
 * view exists; ns_tui_close() the second, whatever the first got to.
 */
#include <errno.h>
#include <stdlib.h>

#include "filtering.h"
#include "picker.h"
#include "prompt.h"

/**
 * ns_tui_parts_open - the filtering state, graph rows, prompt and picker
 * Returns 0 or -ENOMEM; ns_tui_parts_close() undoes a partial open too.
 */
int ns_tui_parts_open(struct ns_tui *t, const struct ns_tui_setup *setup)
{
	t->prompt = calloc(1, sizeof(*t->prompt));
	t->picker = calloc(1, sizeof(*t->picker));
	if (!t->prompt || !t->picker)
		return -ENOMEM;
	return ns_tui_filtering_open(t, setup);
}

void ns_tui_parts_close(struct ns_tui *t)
{
	ns_tui_layers_close(t);
	ns_tui_picker_close(t);
	free(t->picker);
	t->picker = NULL;
	ns_tui_prompt_free(t);
	ns_tui_filtering_close(t);
	ns_tui_graph_rows_free(t);
}
