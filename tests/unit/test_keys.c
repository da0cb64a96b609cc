// SPDX-License-Identifier: GPL-2.0-only
/*
 * The key table of src/tui/actions.h and the --keys syntax: every key the
 * table names parses, no key means two things in one pane, every action
 * can be reached, names are fit for a config file, and the dispatcher's
 * key map resolves pane keys, sequences and broken sequences as documented.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "../../src/tui/tui-int.h"

static int same_keys(const struct ns_tui_binding *a, const struct ns_tui_binding *b)
{
	int n = a->nr_keys < b->nr_keys ? a->nr_keys : b->nr_keys;

	return !memcmp(a->keys, b->keys, n * sizeof(int));
}

static void check_table(void)
{
	struct ns_tui_keymap km;
	int i, j, act, clashes = 0, unbound = 0, bad_names = 0;

	CHECK(ns_tui_keymap_init(&km) == 0, "keys: every key of the action table parses");
	for (i = 0; i < km.nr; i++) {
		for (j = i + 1; j < km.nr; j++) {
			const struct ns_tui_binding *a = &km.b[i], *b = &km.b[j];

			/* the same scope, or "any" against a pane: one key, one meaning */
			if ((a->scope == b->scope ||
			     (a->scope == NS_SCOPE_ANY && b->scope < NS_TUI_PANE_SCOPES) ||
			     (b->scope == NS_SCOPE_ANY && a->scope < NS_TUI_PANE_SCOPES)) &&
			    same_keys(a, b)) {
				/*
				 * but live-pause: in nurseshark live it is looked up
				 * before the panes' keys (ns_tui_live_key()), and a
				 * file has nothing to pause, so each Space means one
				 * thing where it is
				 */
				if (a->action == NS_ACT_LIVE_PAUSE || b->action == NS_ACT_LIVE_PAUSE)
					continue;
				printf("  clash: %s and %s\n", ns_tui_actions[a->action].name,
				       ns_tui_actions[b->action].name);
				clashes++;
			}
		}
	}
	CHECK(clashes == 0, "keys: no key (or key prefix) bound twice in one pane");
	for (act = 0; act < NS_NR_ACTIONS; act++) {
		const struct ns_tui_action_info *a = &ns_tui_actions[act];
		const char *p;

		int s, keyed = 0;

		for (s = 0; s < NS_NR_SCOPES; s++)
			keyed |= a->keys[s][0] != '\0';
		if (!keyed) {
			printf("  no key: %s\n", a->name);
			unbound++;
		}
		for (p = a->name; *p; p++)
			if (!(*p >= 'a' && *p <= 'z') && *p != '-')
				break;
		if (*p || !a->help || !a->help[0]) {
			printf("  bad name or help: %s\n", a->name);
			bad_names++;
		}
		for (j = act + 1; j < NS_NR_ACTIONS; j++)
			if (!strcmp(a->name, ns_tui_actions[j].name))
				bad_names++;
	}
	CHECK(unbound == 0, "keys: every action has a key");
	CHECK(bad_names == 0, "keys: action names are unique, lower-case-with-hyphens, with help");
}

static int parse_one(const char *s, struct ns_tui_input in[2])
{
	char err[128];

	return ns_tui_parse_input(&s, in, err, sizeof(err));
}

static void check_syntax(void)
{
	struct ns_tui_input in[2];
	char err[128];
	const char *s;
	int n;

	CHECK(parse_one("x", in) == 1 && in[0].kind == NS_IN_KEY && in[0].key == 'x',
	      "keys: a character is itself");
	CHECK(parse_one("<Tab>", in) == 1 && in[0].key == '\t', "keys: <Tab>");
	CHECK(parse_one("<enter>", in) == 1 && in[0].key == '\n', "keys: <enter>, any case");
	CHECK(parse_one("<C-l>", in) == 1 && in[0].key == 12, "keys: <C-l> is Ctrl-L");
	CHECK(parse_one("<lt>", in) == 1 && in[0].key == '<', "keys: <lt> is a literal <");
	CHECK(parse_one("<F1>", in) == 1 && in[0].key == KEY_F(1), "keys: <F1>");
	CHECK(parse_one("<PageDown>", in) == 1 && in[0].key == KEY_NPAGE, "keys: <PageDown>");
	n = parse_one("<Click:3,4>", in);
	CHECK(n == 2 && in[0].kind == NS_IN_PRESS && in[1].kind == NS_IN_RELEASE &&
	      in[1].x == 3 && in[1].y == 4, "keys: <Click:3,4> is a press and a release");
	CHECK(parse_one("<Resize:100x30>", in) == 1 && in[0].kind == NS_IN_RESIZE &&
	      in[0].x == 100 && in[0].y == 30, "keys: <Resize:100x30>");
	CHECK(parse_one("<Nope>", in) == -EINVAL, "keys: an unknown <Name> is an error");
	CHECK(parse_one("<", in) == -EINVAL, "keys: a lone < is an error");
	CHECK(parse_one("<Resize:0x3>", in) == -EINVAL, "keys: <Resize:0x3> is an error");
	s = "ab<Up>";
	n = 0;
	while (ns_tui_parse_input(&s, in, err, sizeof(err)) > 0)
		n++;
	CHECK(n == 3 && ns_tui_check_keys("ab<Up>", err, sizeof(err)) == 0,
	      "keys: \"ab<Up>\" is three keys");
}

static void check_dispatch(void)
{
	struct ns_tui_keymap km;

	ns_tui_keymap_init(&km);
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_LIST, 'h') == NS_ACT_HELP &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_GRAPH, 'h') == NS_ACT_CURSOR_LEFT,
	      "keys: h is help in the list, left in the graph");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_LIST, KEY_NPAGE) == NS_ACT_PAGE_DOWN &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_GRAPH, KEY_NPAGE) == NS_ACT_PAN_PAGE_RIGHT,
	      "keys: PageDown pages the list, pans the graph");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_GRAPH, '+') == NS_ACT_ZOOM_IN &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_LIST, '=') == NS_ACT_ZOOM_IN,
	      "keys: + and = zoom in in both panes");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_LIST, '\'') == NS_ACT_NONE && km.nr_pending == 1 &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_LIST, 'b') == NS_ACT_GOTO_MARKER_B &&
	      km.nr_pending == 0, "keys: 'b is a sequence that goes to marker B");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_LIST, '`') == NS_ACT_NONE &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_LIST, 'j') == NS_ACT_MOVE_DOWN,
	      "keys: a broken sequence (`j) runs its last key");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_LIST, '~') == NS_ACT_NONE && km.nr_pending == 0,
	      "keys: an unbound key does nothing");
}

/* The overlays' scopes: their own keys only, apart from [keys]. */
static void check_overlay_scopes(void)
{
	struct ns_tui_keymap km;
	unsigned char taken[NS_NR_ACTIONS] = { 0 };

	ns_tui_keymap_init(&km);
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, 27) == NS_ACT_PICK_CLOSE &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, '\t') == NS_ACT_PICK_WHERE &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_HELP, 'j') == NS_ACT_HELP_DOWN,
	      "keys: Esc closes a picker, Tab is its where, j scrolls the help");
	CHECK(ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, 'q') == NS_ACT_NONE &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, '\'') == NS_ACT_NONE && km.nr_pending == 0,
	      "keys: the panes' keys (q, the ' of 'a) do not reach a picker, they narrow it");
	CHECK(ns_tui_keymap_bind(&km, NS_SCOPE_ANY, NS_ACT_QUIT, "<Esc>", taken) == 0 &&
	      !taken[NS_ACT_PICK_CLOSE] &&
	      !strcmp(km.text[NS_ACT_PICK_CLOSE][NS_SCOPE_PICKER], "<Esc>"),
	      "keys: [keys] quit = <Esc> leaves the picker's Esc alone");
	CHECK(ns_tui_keymap_bind(&km, NS_SCOPE_PICKER, NS_ACT_ZOOM_IN, "i", NULL) == -EINVAL &&
	      ns_tui_keymap_bind(&km, NS_SCOPE_ANY, NS_ACT_PICK_CLOSE, "i", NULL) == -EINVAL,
	      "keys: a pane's action is not bound in a picker's scope, nor the other way");
	CHECK(ns_tui_keymap_bind(&km, NS_SCOPE_PICKER, NS_ACT_PICK_CLOSE, "<C-g>", taken) == 0 &&
	      ns_tui_keymap_build(&km) == 0 &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, 'G' - 64) == NS_ACT_PICK_CLOSE &&
	      ns_tui_keymap_feed(&km, NS_SCOPE_PICKER, 27) == NS_ACT_NONE,
	      "keys: picker-close = <C-g> rebinds it in the picker");
}

/* Every action has its handler in the table, and the dispatch runs it. */
static void check_handlers(void)
{
	static struct ns_tui t;
	int act, j, missing = 0, same = 0;

	for (act = 0; act < NS_NR_ACTIONS; act++) {
		if (!ns_tui_actions[act].run) {
			printf("  no handler: %s\n", ns_tui_actions[act].name);
			missing++;
		}
		/* two actions may share a handler, not what it is given */
		for (j = act + 1; j < NS_NR_ACTIONS; j++) {
			if (ns_tui_actions[j].run == ns_tui_actions[act].run &&
			    ns_tui_actions[j].arg == ns_tui_actions[act].arg) {
				printf("  same handler and arg: %s, %s\n", ns_tui_actions[act].name,
				       ns_tui_actions[j].name);
				same++;
			}
		}
	}
	CHECK(missing == 0, "actions: every action of the table has a handler");
	CHECK(same == 0, "actions: no two actions run the same handler with the same arg");
	/* handlers that touch nothing but the screen state run on a bare one */
	ns_tui_run_action(&t, NS_ACT_QUIT);
	CHECK(t.quit == 1, "actions: quit runs through the table");
	t.view.graph_follows = 0;
	ns_tui_run_action(&t, NS_ACT_TOGGLE_FOLLOW);
	CHECK(t.view.graph_follows == 1, "actions: toggle-follow runs through the table");
	t.quit = 0;
	ns_tui_run_action(&t, NS_ACT_NONE);
	ns_tui_run_action(&t, NS_NR_ACTIONS);
	CHECK(t.quit == 0 && t.view.graph_follows == 1,
	      "actions: NONE and out of range do nothing");
}

/* The bytes after an ESC, decoded whole: the result once the last byte is in. */
static int seq(const char *s)
{
	int b[64], n = 0, r = NS_KEY_MORE;

	for (; *s && n < 64; s++) {
		b[n++] = (unsigned char)*s;
		r = ns_tui_decode_seq(b, n);
		if (r != NS_KEY_MORE && s[1])
			return -100;	/* ended before its last byte */
	}
	return r;
}

static void check_sequences(void)
{
	static const struct {
		const char *bytes;
		int key;
		const char *what;
	} cases[] = {
		{ "[1;2C", KEY_SRIGHT, "xterm S-Right" }, { "[1;2D", KEY_SLEFT, "xterm S-Left" },
		{ "[1;5C", NS_KEY_C_RIGHT, "xterm C-Right" }, { "[1;5D", NS_KEY_C_LEFT, "C-Left" },
		{ "[1;2A", KEY_SR, "xterm S-Up" }, { "[1;5B", NS_KEY_C_DOWN, "xterm C-Down" },
		{ "[c", KEY_SRIGHT, "rxvt S-Right" }, { "Od", NS_KEY_C_LEFT, "rxvt C-Left" },
		{ "[1~", KEY_HOME, "linux/screen/tmux Home" }, { "[4~", KEY_END, "... End" },
		{ "[7~", KEY_HOME, "rxvt Home" }, { "[8~", KEY_END, "rxvt End" },
		{ "[H", KEY_HOME, "xterm Home" }, { "[F", KEY_END, "xterm End" },
		{ "OH", KEY_HOME, "xterm Home, application mode" }, { "OF", KEY_END, "... End" },
		{ "[5~", KEY_PPAGE, "PgUp" }, { "[6~", KEY_NPAGE, "PgDn" },
		{ "[5;5~", KEY_PPAGE, "C-PgUp" }, { "[6$", KEY_NPAGE, "rxvt S-PgDn" },
		{ "[3~", KEY_DC, "Delete" }, { "[Z", KEY_BTAB, "S-Tab" },
		{ "[[A", KEY_F(1), "linux F1" }, { "OP", KEY_F(1), "F1" },
		{ "[15~", KEY_F(5), "F5" }, { "[24~", KEY_F(12), "F12" },
		{ "[1;3P", KEY_F(1), "Alt-F1" }, { "OA", KEY_UP, "Up" },
		{ "Ok", '+', "the keypad's +" }, { "OM", '\n', "the keypad's Enter" },
		{ "[M !!", NS_KEY_NONE, "an X10 mouse report (mouse off): discarded whole" },
		{ "[<0;10;5M", NS_KEY_NONE, "an SGR mouse report: discarded whole" },
		{ "[<0;10;5m", NS_KEY_NONE, "an SGR mouse release: discarded whole" },
		{ "[32;10;5M", NS_KEY_NONE, "an urxvt mouse report: discarded whole" },
		{ "[I", NS_KEY_NONE, "focus in: discarded" }, { "[99~", NS_KEY_NONE, "unknown" },
		{ "[1;2X", NS_KEY_NONE, "an unknown final byte" },
		{ "[?1;2c", NS_KEY_NONE, "a terminal's reply" },
		{ "q", NS_KEY_ESC_THEN, "ESC q: the ESC key, then q" },
	};
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(cases); i++)
		CHECK(seq(cases[i].bytes) == cases[i].key, "keys: ESC %s is %s", cases[i].bytes,
		      cases[i].what);
	CHECK(seq("[1;2") == NS_KEY_MORE && seq("[") == NS_KEY_MORE && seq("O") == NS_KEY_MORE,
	      "keys: a sequence cut short waits for its final byte");
	CHECK(ns_tui_ext_key("kLFT5") == NS_KEY_C_LEFT && ns_tui_ext_key("kRIT2") == KEY_SRIGHT &&
	      ns_tui_ext_key("kUP") == KEY_SR && ns_tui_ext_key("kDN5") == NS_KEY_C_DOWN &&
	      ns_tui_ext_key("kHOM5") == KEY_HOME && ns_tui_ext_key("kpADD") == '+' &&
	      ns_tui_ext_key("kxIN") == NS_KEY_NONE && ns_tui_ext_key(NULL) == NS_KEY_NONE,
	      "keys: curses' extended keys by name (kLFT5 C-Left, kUP S-Up, kpADD +)");
}

int main(void)
{
	check_sequences();
	check_table();
	check_syntax();
	check_dispatch();
	check_handlers();
	check_overlay_scopes();
	return check_failures ? 1 : 0;
}
