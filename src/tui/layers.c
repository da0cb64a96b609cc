// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overlays as a stack of layers over the panes: the help, the prompt,
 * a picker, the progress of a job, and whatever comes next (statistics, a
 * record screen, a detail view) is one more file with one more
 * struct ns_tui_layer_ops. A key goes to the top layer first, then down;
 * a modal layer swallows what it does not handle, so the panes below never
 * see it, and the mouse too unless the layer takes it. Layers draw bottom
 * to top after the panes. A layer leaves by ns_tui_layer_pop(), which runs
 * its close op; the stack is small and fixed, as are the overlays.
 */
#include <errno.h>

#include "tui-int.h"

/* The index of @ops in the stack, or -1. */
static int find(const struct ns_tui *t, const struct ns_tui_layer_ops *ops)
{
	int i;

	for (i = 0; i < t->nr_layers; i++)
		if (t->layers[i].ops == ops)
			return i;
	return -1;
}

/**
 * ns_tui_layer_push - put a layer on top of the stack
 * @state: handed back to each op
 * A layer already in the stack moves to the top. 0, or -ENOSPC.
 */
int ns_tui_layer_push(struct ns_tui *t, const struct ns_tui_layer_ops *ops, void *state)
{
	int i = find(t, ops);

	if (i >= 0) {
		struct ns_tui_layer l = t->layers[i];

		for (; i < t->nr_layers - 1; i++)
			t->layers[i] = t->layers[i + 1];
		l.state = state;
		t->layers[i] = l;
		return 0;
	}
	if (t->nr_layers == NS_TUI_MAX_LAYERS)
		return -ENOSPC;
	t->layers[t->nr_layers].ops = ops;
	t->layers[t->nr_layers].state = state;
	t->nr_layers++;
	return 0;
}

/**
 * ns_tui_layer_pop - take the layer of @ops out of the stack, wherever it is
 * Its close op runs after it is out, so that it may push another layer.
 * Nothing happens when it is not in the stack.
 */
void ns_tui_layer_pop(struct ns_tui *t, const struct ns_tui_layer_ops *ops)
{
	int i = find(t, ops);
	void *state;

	if (i < 0)
		return;
	state = t->layers[i].state;
	for (; i < t->nr_layers - 1; i++)
		t->layers[i] = t->layers[i + 1];
	t->nr_layers--;
	if (ops->close)
		ops->close(t, state);
}

void ns_tui_layers_close(struct ns_tui *t)
{
	while (t->nr_layers)
		ns_tui_layer_pop(t, t->layers[t->nr_layers - 1].ops);
}

int ns_tui_layer_shown(const struct ns_tui *t, const struct ns_tui_layer_ops *ops)
{
	return find(t, ops) >= 0;
}

/**
 * ns_tui_layers_key - offer a key to the layers, top first
 * Returns 1 when a layer handled or swallowed it, 0 when it is the panes'.
 */
int ns_tui_layers_key(struct ns_tui *t, int key)
{
	int i;

	for (i = t->nr_layers - 1; i >= 0; i--) {
		const struct ns_tui_layer_ops *ops = t->layers[i].ops;

		if (ops->key && ops->key(t, t->layers[i].state, key))
			return 1;
		if (ops->modal)
			return 1;
		/* the key may have changed the stack below the top */
		if (i > t->nr_layers)
			i = t->nr_layers;
	}
	return 0;
}

/* The same for a mouse event. */
int ns_tui_layers_mouse(struct ns_tui *t, const struct ns_tui_input *in)
{
	int i;

	for (i = t->nr_layers - 1; i >= 0; i--) {
		const struct ns_tui_layer_ops *ops = t->layers[i].ops;

		if (ops->mouse && ops->mouse(t, t->layers[i].state, in))
			return 1;
		if (ops->modal)
			return 1;
		if (i > t->nr_layers)
			i = t->nr_layers;
	}
	return 0;
}

/* Every layer, bottom to top, over the panes already drawn. */
void ns_tui_draw_layers(struct ns_tui *t)
{
	int i;

	if (t->lay.too_small)
		return;
	for (i = 0; i < t->nr_layers; i++)
		if (t->layers[i].ops->draw)
			t->layers[i].ops->draw(t, t->layers[i].state);
}
