// SPDX-License-Identifier: GPL-2.0-only
/*
 * The overlay stack of src/tui/layers.c with layers made up here: the top
 * layer gets a key first, a modal layer swallows what it does not handle,
 * a non-modal one lets it down to the next, pushing a layer again moves it
 * to the top, popping runs its close op, and draw goes bottom to top.
 */
#include <string.h>

#include "check.h"
#include "../../src/tui/tui-int.h"

struct fake {
	int handles;		/* the key it handles */
	int keys, closes, draws;
	int order;		/* when it was last drawn */
};

static int drawn;

static int fake_key(struct ns_tui *t, void *state, int key)
{
	struct fake *f = state;

	f->keys++;
	return key == f->handles;
}

static void fake_draw(struct ns_tui *t, void *state)
{
	struct fake *f = state;

	f->draws++;
	f->order = ++drawn;
}

static void fake_close(struct ns_tui *t, void *state)
{
	((struct fake *)state)->closes++;
}

static const struct ns_tui_layer_ops plain = {
	.name = "plain", .key = fake_key, .draw = fake_draw, .close = fake_close,
};
static const struct ns_tui_layer_ops modal = {
	.name = "modal", .modal = 1, .key = fake_key, .draw = fake_draw, .close = fake_close,
};

int main(void)
{
	static struct ns_tui t;
	struct fake a = { .handles = 'a' }, b = { .handles = 'b' };

	CHECK(ns_tui_layers_key(&t, 'a') == 0, "layers: with no layer a key is the panes'");
	ns_tui_layer_push(&t, &plain, &a);
	ns_tui_layer_push(&t, &modal, &b);
	CHECK(ns_tui_layers_key(&t, 'b') == 1 && b.keys == 1 && a.keys == 0,
	      "layers: the top layer gets the key first");
	CHECK(ns_tui_layers_key(&t, 'a') == 1 && b.keys == 2 && a.keys == 0,
	      "layers: a modal layer swallows a key it does not handle");
	ns_tui_draw_layers(&t);
	CHECK(a.draws == 1 && b.draws == 1 && a.order < b.order,
	      "layers: drawn bottom to top");
	ns_tui_layer_push(&t, &plain, &a);
	CHECK(t.nr_layers == 2 && t.layers[1].ops == &plain,
	      "layers: pushing a layer again moves it to the top, once");
	CHECK(ns_tui_layers_key(&t, 'a') == 1 && a.keys == 1 && b.keys == 2,
	      "layers: the new top handles its key");
	CHECK(ns_tui_layers_key(&t, 'z') == 1 && a.keys == 2 && b.keys == 3,
	      "layers: a non-modal layer lets a key down to the next");
	ns_tui_layer_pop(&t, &modal);
	CHECK(b.closes == 1 && t.nr_layers == 1 && ns_tui_layer_shown(&t, &plain) &&
	      !ns_tui_layer_shown(&t, &modal), "layers: pop takes the layer out and closes it");
	CHECK(ns_tui_layers_key(&t, 'z') == 0 && a.keys == 3,
	      "layers: what no layer handles or swallows goes to the panes");
	ns_tui_layer_pop(&t, &modal);
	CHECK(b.closes == 1, "layers: popping a layer not in the stack does nothing");
	ns_tui_layers_close(&t);
	CHECK(a.closes == 1 && t.nr_layers == 0, "layers: closing all closes each");
	return check_failures ? 1 : 0;
}
