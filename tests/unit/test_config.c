// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.ini against the front end: contrib/config.ini (what --print-config
 * writes) parses without a message once its settings are uncommented, names
 * every action and colour role, and changes nothing; a key binding changes
 * what the key does in the key map the dispatcher uses and what the help
 * shows, takes the key away from the action that had it, and two lines that
 * want one key are reported. The settings table drives the parser: each
 * setting's default, each of its values, its alias, and the names an
 * unknown one is told; --print-config prints each with what it takes.
 */
#include <errno.h>

#include "nurseshark/session.h"
#include "check.h"
#include "../../src/tui/tui-int.h"

static struct ns_config_schema schema;

/* config.ini text into a key map; the messages into @d. */
static void keymap_of(const char *text, struct ns_tui_keymap *km, struct ns_diag *d)
{
	struct ns_config c;

	ns_config_init(&c, &schema);
	c.path = strdup("test.ini");
	ns_config_parse(&c, &schema, "test.ini", text, strlen(text), d);
	ns_tui_keymap_init(km);
	ns_tui_config_keys(km, &c, d);
	ns_config_free(&c);
}

static enum ns_tui_action feed(struct ns_tui_keymap *km, int scope, const char *keys)
{
	struct ns_tui_input in[2];
	enum ns_tui_action act = NS_ACT_NONE;
	char err[64];

	while (ns_tui_parse_input(&keys, in, err, sizeof(err)) == 1)
		act = ns_tui_keymap_feed(km, scope, in[0].key);
	return act;
}

/* What the help shows for @act in @scope. */
struct shown {
	enum ns_tui_action act;
	int scope;
	char keys[NS_TUI_KEYS_TEXT];
};

static void find_shown(void *arg, int scope, const char *keys, enum ns_tui_action act)
{
	struct shown *s = arg;

	if (keys && act == s->act && scope == s->scope)
		snprintf(s->keys, sizeof(s->keys), "%s", keys);
}

static const char *help_keys(const struct ns_tui_keymap *km, enum ns_tui_action act, int scope)
{
	static struct shown s;

	memset(&s, 0, sizeof(s));
	s.act = act;
	s.scope = scope;
	ns_tui_walk_keymap(km, find_shown, &s);
	return s.keys;
}

static void example(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	char path[4096], *text = NULL;
	struct ns_tui_keymap *def = calloc(1, sizeof(*def)), *km = calloc(1, sizeof(*km));
	struct ns_config c;
	struct ns_diag d;
	size_t len = 0;
	FILE *f;
	int i, s, missing = 0, same = 1;

	snprintf(path, sizeof(path), "%s/contrib/config.ini", top);
	f = fopen(path, "r");
	if (!f) {
		FAIL("config example: cannot open %s", path);
		return;
	}
	/* every setting uncommented: ";zoom-in = + =" becomes "zoom-in = + =" */
	{
		FILE *m = open_memstream(&text, &len);
		char buf[512];

		while (fgets(buf, sizeof(buf), f))
			fputs(buf[0] == ';' && buf[1] >= 'a' && buf[1] <= 'z' ? buf + 1 : buf, m);
		fclose(m);
	}
	fclose(f);
	ns_diag_init(&d);
	ns_config_init(&c, &schema);
	ns_config_parse(&c, &schema, path, text, len, &d);
	CHECK(!ns_diag_count(&d), "config example: contrib/config.ini, every setting "
	      "uncommented, reads without a message%s%s", d.nr ? ": " : "", d.nr ? d.msg[0] : "");
	for (i = 0; i < NS_NR_ACTIONS; i++) {
		char want[80];

		snprintf(want, sizeof(want), "\n%s = ", schema.actions[i]);
		if (!strstr(text, want)) {
			printf("  no setting for action %s\n", schema.actions[i]);
			missing++;
		}
	}
	for (i = 0; i < NS_NR_ROLES; i++) {
		char want[80];

		snprintf(want, sizeof(want), "\n%s = ", schema.roles[i]);
		if (!strstr(text, want)) {
			printf("  no setting for colour role %s\n", schema.roles[i]);
			missing++;
		}
	}
	CHECK(!missing, "config example: it names all %d actions and %d colour roles",
	      NS_NR_ACTIONS, NS_NR_ROLES);
	/* and its values are the defaults: the key map is the built-in one */
	ns_tui_keymap_init(def);
	ns_tui_keymap_init(km);
	ns_tui_config_keys(km, &c, &d);
	for (i = 0; i < NS_NR_ACTIONS; i++)
		for (s = 0; s < NS_NR_SCOPES; s++)
			same = same && !strcmp(def->text[i][s], km->text[i][s]);
	CHECK(same && km->nr == def->nr && !ns_diag_count(&d) && c.time_format == NS_TIME_USEC &&
	      c.glyphs == NS_GLYPHS_AUTO && c.graph_rows == 0 && c.colour && c.session_restore &&
	      c.session_save, "config example: its values are the defaults (the same %d key "
	      "bindings)", km->nr);
	ns_config_free(&c);
	ns_diag_free(&d);
	free(text);
	free(def);
	free(km);
}

static void bindings(void)
{
	struct ns_tui_keymap *km = calloc(1, sizeof(*km));
	struct ns_diag d;

	ns_diag_init(&d);
	keymap_of("[keys]\nzoom-in = z\nquit = Q\nredraw =\n", km, &d);
	CHECK(!d.nr && feed(km, NS_SCOPE_LIST, "z") == NS_ACT_ZOOM_IN &&
	      feed(km, NS_SCOPE_GRAPH, "z") == NS_ACT_ZOOM_IN, "keys: zoom-in = z: z zooms in, "
	      "in both panes");
	CHECK(!strcmp(help_keys(km, NS_ACT_ZOOM_IN, NS_SCOPE_ANY), "z") &&
	      !strcmp(help_keys(km, NS_ACT_ZOOM_FULL, NS_SCOPE_ANY), "0"),
	      "keys: the help shows z for zoom-in, and zoom-full keeps 0 only ('%s')",
	      help_keys(km, NS_ACT_ZOOM_FULL, NS_SCOPE_ANY));
	CHECK(feed(km, NS_SCOPE_LIST, "q") == NS_ACT_NONE &&
	      feed(km, NS_SCOPE_LIST, "Q") == NS_ACT_QUIT,
	      "keys: quit = Q: q does nothing, Q quits");
	CHECK(feed(km, NS_SCOPE_LIST, "<C-l>") == NS_ACT_NONE && !help_keys(km, NS_ACT_REDRAW,
	      NS_SCOPE_ANY)[0], "keys: redraw = (empty): <C-l> is unbound, and the help omits it");
	CHECK(feed(km, NS_SCOPE_LIST, "+") == NS_ACT_NONE, "keys: the defaults of zoom-in are "
	      "replaced (+ is unbound)");

	/* a pane's own binding */
	keymap_of("[keys.list]\nzoom-in = j <C-j>\n", km, &d);
	CHECK(!d.nr && feed(km, NS_SCOPE_LIST, "j") == NS_ACT_ZOOM_IN &&
	      feed(km, NS_SCOPE_GRAPH, "j") == NS_ACT_CURSOR_DOWN &&
	      feed(km, NS_SCOPE_LIST, "+") == NS_ACT_ZOOM_IN &&
	      !strcmp(help_keys(km, NS_ACT_MOVE_DOWN, NS_SCOPE_LIST), "<Down> <C-n>"),
	      "keys: [keys.list] zoom-in = j: j zooms in the list, still moves the graph "
	      "cursor, move-down keeps '%s'", help_keys(km, NS_ACT_MOVE_DOWN, NS_SCOPE_LIST));

	/* two lines, one key: the later counts, and it is said */
	ns_diag_free(&d);
	keymap_of("[keys]\nzoom-in = i\nzoom-out = i\n", km, &d);
	CHECK(feed(km, NS_SCOPE_LIST, "i") == NS_ACT_ZOOM_OUT && d.nr == 1 &&
	      strstr(d.msg[0], "test.ini:3: zoom-out takes a key [keys] gave zoom-in at line 2"),
	      "keys: a key given twice: the later line counts, reported at it (%s)",
	      d.nr ? d.msg[0] : "no message");

	/* a sequence the file makes unreachable is said */
	ns_diag_free(&d);
	keymap_of("[keys]\nzoom-max = gz\n", km, &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "test.ini:2: zoom-max: 'gz' can never be typed"),
	      "keys: a sequence whose first key is bound alone is reported (%s)",
	      d.nr ? d.msg[0] : "no message");

	/* a picker's Esc does not make a sequence of [keys] unreachable, its own does */
	ns_diag_free(&d);
	keymap_of("[keys]\nredraw = <Esc>x\n", km, &d);
	CHECK(!d.nr && feed(km, NS_SCOPE_LIST, "<Esc>x") == NS_ACT_REDRAW &&
	      feed(km, NS_SCOPE_PICKER, "<Esc>") == NS_ACT_PICK_CLOSE,
	      "keys: [keys] redraw = <Esc>x: typed in the panes, the picker's Esc still "
	      "closes (%s)",
	      d.nr ? d.msg[0] : "no message");
	ns_diag_free(&d);
	keymap_of("[keys.picker]\npicker-sort = <Esc>x\n", km, &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "test.ini:2: picker-sort: '<Esc>x' can never be typed: "
				  "its first key alone is picker-close"),
	      "keys: in [keys.picker], a sequence after the picker's Esc is reported (%s)",
	      d.nr ? d.msg[0] : "no message");

	/* what the front end refuses in a binding */
	ns_diag_free(&d);
	keymap_of("[keys]\nquit = <WheelUp:1,1>\nhelp = abc\nredraw = <C-l\n", km, &d);
	CHECK(d.nr == 3 && feed(km, NS_SCOPE_LIST, "q") == NS_ACT_QUIT,
	      "keys: a mouse event, three keys in a row, an unclosed <: each refused, the "
	      "defaults stay");
	ns_diag_free(&d);
	free(km);
}

/* The parse of @text: the int of @set, and the messages in @d. */
static int parsed(const char *text, const struct ns_config_setting *set, struct ns_diag *d)
{
	struct ns_config c;
	int v;

	ns_config_init(&c, &schema);
	ns_config_parse(&c, &schema, "t.ini", text, strlen(text), d);
	v = *(int *)((char *)&c + set->offset);
	ns_config_free(&c);
	return v;
}

static void settings_table(void)
{
	char text[512], value[64], syntax[128], *printed = NULL;
	int i, k, bad = 0, nr_values = 0;
	struct ns_diag d;
	size_t len = 0;
	FILE *m;

	m = open_memstream(&printed, &len);
	ns_tui_print_config(m);
	fclose(m);
	ns_diag_init(&d);
	for (i = 0; i < ns_config_nr_settings; i++) {
		const struct ns_config_setting *set = &ns_config_settings[i];
		int values = set->type == NS_SETTING_CHOICE ? set->nr_choices : 2;

		if (parsed("", set, &d) != set->dflt) {
			printf("  %s: the default is not %d\n", set->name, set->dflt);
			bad++;
		}
		for (k = 0; k < values; k++) {
			int want = set->type == NS_SETTING_ROWS ? (k ? set->max : 0) :
				   set->type == NS_SETTING_BOOL ? !k : k;

			ns_config_setting_value(set, want, value, sizeof(value));
			snprintf(text, sizeof(text), "[%s]\n%s = %s\n", set->section,
				 k && set->alias ? set->alias : set->name, value);
			if (parsed(text, set, &d) != want || d.nr) {
				printf("  '%s' does not give %d%s%s\n", text, want,
				       d.nr ? ": " : "", d.nr ? d.msg[0] : "");
				bad++;
				ns_diag_free(&d);
			}
			nr_values++;
		}
		ns_config_setting_syntax(set, syntax, sizeof(syntax));
		ns_config_setting_value(set, set->dflt, value, sizeof(value));
		snprintf(text, sizeof(text), "\n; %s = %s\n", set->name, syntax);
		if (!strstr(printed, text)) {
			printf("  --print-config lacks '%s'\n", text + 1);
			bad++;
		}
		snprintf(text, sizeof(text), "\n;%s = %s\n", set->name, value);
		if (!strstr(printed, text)) {
			printf("  --print-config lacks '%s'\n", text + 1);
			bad++;
		}
	}
	CHECK(!bad && ns_config_nr_settings >= 6, "settings table: each of the %d settings has "
	      "its default, parses each of its %d values (and an alias), and --print-config "
	      "shows what it takes and its default", ns_config_nr_settings, nr_values);
	parsed("[display]\ncolours = auto\n", &ns_config_settings[0], &d);
	CHECK(d.nr == 1 && strstr(d.msg[0], "t.ini:2: unknown name 'colours' in [display] "
	      "(time-format, glyphs, graph-rows, colour)"), "settings table: an unknown name "
	      "is told the names of its section, from the table (%s)", d.nr ? d.msg[0] : "none");
	ns_diag_free(&d);
	free(printed);
}

int main(void)
{
	ns_tui_config_schema(&schema);
	settings_table();
	example();
	bindings();
	return check_failures ? 1 : 0;
}
