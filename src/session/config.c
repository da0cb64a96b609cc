// SPDX-License-Identifier: GPL-2.0-only
/*
 * config.ini: the settings a person keeps, read once at start. Sections:
 *
 *   [display]     time-format = usec|nsec, glyphs = auto|unicode|ascii,
 *                 graph-rows = auto|N, colour = auto|never
 *   [session]     restore = yes|no, save = yes|no
 *   [keys]        ACTION = KEYS, for both panes; [keys.list] and
 *   [keys.graph]  for one pane. ACTION is a name of the action table
 *                 (zoom-in), KEYS are in the --keys syntax, spaced
 *                 ("+ = <C-Up>"); they replace the action's default keys
 *                 of that scope, and an empty value or "none" unbinds it;
 *                 [keys.picker], [keys.help], [keys.stats], [keys.record] and
 *                 [keys.job] bind the overlays' own
 *                 actions (picker-close), which the panes' sections refuse
 *   [colours]     ROLE = [FG] [on BG] [ATTR...], "black on green bold";
 *                 colours by name or 0-255, "default" for the terminal's
 *
 * The settings of [display] and [session] are one table, ns_config_settings[]
 * (name, section, type, default, help): it gives their defaults, their
 * parser and its messages here, and --print-config (contrib/config.ini), from
 * which contrib/gen-docs.sh makes the settings of nurseshark.ini(5). The names
 * of actions and colour roles belong to the front end, which passes them in
 * a struct ns_config_schema, so this file needs nothing of curses and the
 * front end's tables stay the only lists of them.
 */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nurseshark/util.h"
#include "session-int.h"

static const char *const colour_names[] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const char *const attr_names[] = {
	"bold", "dim", "underline", "reverse", "blink", "italic",
};

static const char *const time_formats[] = { "usec", "nsec" };
static const char *const glyph_sets[] = { "auto", "unicode", "ascii" };
static const char *const colour_modes[] = { "never", "auto" };

static const char *const scope_sections[NS_CONFIG_NR_SCOPES] = {
	"keys", "keys.list", "keys.graph", "keys.picker", "keys.help", "keys.stats",
	"keys.record", "keys.job",
};

const char *ns_config_colour_name(int colour)
{
	if (colour == NS_COLOUR_DEFAULT)
		return "default";
	return colour >= 0 && colour < 8 ? colour_names[colour] : NULL;
}

const char *ns_config_time_format_name(int fmt)
{
	return fmt >= 0 && fmt < (int)NS_ARRAY_SIZE(time_formats) ? time_formats[fmt] : NULL;
}

const char *ns_config_glyphs_name(int glyphs)
{
	return glyphs >= 0 && glyphs < (int)NS_ARRAY_SIZE(glyph_sets) ? glyph_sets[glyphs] : NULL;
}

/* ---- the settings table ---------------------------------------------------- */

#define SETTING_INT(field)	offsetof(struct ns_config, field)

const struct ns_config_setting ns_config_settings[] = {
	{
		.section = "display", .name = "time-format", .type = NS_SETTING_CHOICE,
		.choices = time_formats, .nr_choices = NS_ARRAY_SIZE(time_formats),
		.dflt = NS_TIME_USEC, .offset = SETTING_INT(time_format),
		.help = "Times as trace-cmd report prints them, with microseconds (usec: "
			"10171.572790), or with nanoseconds as trace-cmd report -t (nsec: "
			"10171.572790123): the list's Time column, the marker bar, the status "
			"line.",
	}, {
		.section = "display", .name = "glyphs", .type = NS_SETTING_CHOICE,
		.choices = glyph_sets, .nr_choices = NS_ARRAY_SIZE(glyph_sets),
		.dflt = NS_GLYPHS_AUTO, .offset = SETTING_INT(glyphs),
		.help = "The graph's characters: auto draws Unicode blocks in a UTF-8 locale "
			"and ASCII in any other; unicode needs a UTF-8 locale (in another, ASCII "
			"is drawn and a problem reported).",
	}, {
		.section = "display", .name = "graph-rows", .type = NS_SETTING_ROWS,
		.max = NS_SESSION_GRAPH_ROWS_MAX, .dflt = 0, .offset = SETTING_INT(graph_rows),
		.help = "The rows of the graph pane (CPU and task rows) before they scroll: "
			"auto gives the graph at most half of the screen. <C-w>+ and <C-w>- "
			"change it while nurseshark runs, and a session keeps it.",
	}, {
		.section = "display", .name = "colour", .alias = "color", .type = NS_SETTING_CHOICE,
		.choices = colour_modes, .nr_choices = NS_ARRAY_SIZE(colour_modes),
		.dflt = 1, .offset = SETTING_INT(colour),
		.help = "auto uses colour when the terminal has it and NO_COLOR is not set; "
			"never tells the colour roles apart by bold, underline and reverse video "
			"alone. color is the same setting.",
	}, {
		.section = "session", .name = "restore", .type = NS_SETTING_BOOL,
		.dflt = 1, .offset = SETTING_INT(session_restore),
		.help = "Restore a trace's session when the trace is opened again "
			"(--no-session: not this time).",
	}, {
		.section = "session", .name = "save", .type = NS_SETTING_BOOL,
		.dflt = 1, .offset = SETTING_INT(session_save),
		.help = "Save the trace's session when nurseshark exits.",
	},
};

const int ns_config_nr_settings = NS_ARRAY_SIZE(ns_config_settings);

static int *setting_int(struct ns_config *c, const struct ns_config_setting *set)
{
	return (int *)((char *)c + set->offset);
}

void ns_config_setting_syntax(const struct ns_config_setting *set, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	switch (set->type) {
	case NS_SETTING_CHOICE:
		for (i = 0; i < set->nr_choices && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " | " : "",
					      set->choices[i]);
		break;
	case NS_SETTING_BOOL:
		snprintf(buf, len, "yes | no");
		break;
	case NS_SETTING_ROWS:
		snprintf(buf, len, "auto | N (1-%d)", set->max);
		break;
	}
}

void ns_config_setting_value(const struct ns_config_setting *set, int value, char *buf,
			     size_t len)
{
	switch (set->type) {
	case NS_SETTING_CHOICE:
		snprintf(buf, len, "%s", value >= 0 && value < set->nr_choices ?
			 set->choices[value] : "?");
		break;
	case NS_SETTING_BOOL:
		snprintf(buf, len, "%s", value ? "yes" : "no");
		break;
	case NS_SETTING_ROWS:
		if (value)
			snprintf(buf, len, "%d", value);
		else
			snprintf(buf, len, "auto");
		break;
	}
}

/* The setting @name (or its alias) of [@section], or NULL. */
static const struct ns_config_setting *find_setting(const char *section, const char *name)
{
	int i;

	for (i = 0; i < ns_config_nr_settings; i++) {
		const struct ns_config_setting *set = &ns_config_settings[i];

		if (!strcmp(set->section, section) &&
		    (!strcmp(set->name, name) || (set->alias && !strcmp(set->alias, name))))
			return set;
	}
	return NULL;
}

int ns_config_init(struct ns_config *c, const struct ns_config_schema *schema)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ns_config_nr_settings; i++)
		*setting_int(c, &ns_config_settings[i]) = ns_config_settings[i].dflt;
	c->nr_actions = schema ? schema->nr_actions : 0;
	c->nr_roles = schema ? schema->nr_roles : 0;
	c->keys = calloc(c->nr_actions ? c->nr_actions : 1, sizeof(*c->keys));
	c->keys_line = calloc(c->nr_actions ? c->nr_actions : 1, sizeof(*c->keys_line));
	c->colours = calloc(c->nr_roles ? c->nr_roles : 1, sizeof(*c->colours));
	if (!c->keys || !c->keys_line || !c->colours) {
		ns_config_free(c);
		return -ENOMEM;
	}
	return 0;
}

void ns_config_free(struct ns_config *c)
{
	int a, s;

	for (a = 0; c->keys && a < c->nr_actions; a++) {
		for (s = 0; s < NS_CONFIG_NR_SCOPES; s++)
			free(c->keys[a][s]);
	}
	free(c->keys);
	free(c->keys_line);
	free(c->colours);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

struct reader {
	struct ns_config *c;
	const struct ns_config_schema *schema;
	int section;		/* enum below */
	struct ns_ini_seen seen;
};

enum {
	SEC_UNKNOWN,
	SEC_SETTINGS,		/* a section of ns_config_settings[] */
	SEC_KEYS,		/* + scope */
	SEC_COLOURS = SEC_KEYS + NS_CONFIG_NR_SCOPES,
};


/* One "name = value" of [display] or [session], as the table says. */
static void setting_entry(struct ns_ini *ini, struct ns_config *c, const char *section,
			  const char *name, const char *v)
{
	const struct ns_config_setting *set = find_setting(section, name);
	char names[256] = "";
	size_t n = 0;
	int i, x;

	if (!set) {
		for (i = 0; i < ns_config_nr_settings && n < sizeof(names); i++) {
			if (!strcmp(ns_config_settings[i].section, section))
				n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
						      n ? ", " : "", ns_config_settings[i].name);
		}
		ns_ini_error(ini, "unknown name '%s' in [%s] (%s)", name, section, names);
		return;
	}
	switch (set->type) {
	case NS_SETTING_CHOICE:
		if (!ns_ini_choice(ini, name, v, set->choices, set->nr_choices, &x))
			*setting_int(c, set) = x;
		break;
	case NS_SETTING_BOOL:
		ns_ini_bool(ini, name, v, setting_int(c, set));
		break;
	case NS_SETTING_ROWS:
		if (!strcasecmp(v, "auto"))
			*setting_int(c, set) = 0;
		else if (!ns_ini_int(ini, name, v, 1, set->max, &x))
			*setting_int(c, set) = x;
		break;
	}
}

static int find(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++) {
		if (names[i] && !strcmp(names[i], name))
			return i;
	}
	return -1;
}

static void keys_entry(struct ns_ini *ini, struct reader *r, int scope, const char *name,
		       const char *v)
{
	const struct ns_config_schema *sc = r->schema;
	int act = sc ? find(sc->actions, sc->nr_actions, name) : -1;
	char why[160], *copy;

	/* a picker's action is no action of the panes, nor the other way round */
	if (act >= 0 && sc->action_scopes && !(sc->action_scopes[act] & (1u << scope)))
		act = -1;
	if (act < 0) {
		ns_ini_error(ini, "unknown action '%s' in [%s] (see the names in the help, "
			     "or man nurseshark)", name, scope_sections[scope]);
		return;
	}
	if (!strcasecmp(v, "none"))
		v = "";
	if (strlen(v) >= NS_CONFIG_KEYS_MAX) {
		ns_ini_error(ini, "%s: more than %d bytes of keys", name, NS_CONFIG_KEYS_MAX - 1);
		return;
	}
	why[0] = '\0';
	if (*v && sc->check_keys && sc->check_keys(v, why, sizeof(why))) {
		ns_ini_error(ini, "%s: %s", name, why);
		return;
	}
	copy = strdup(v);
	if (!copy) {
		ns_ini_error(ini, "%s: out of memory", name);
		return;
	}
	free(r->c->keys[act][scope]);
	r->c->keys[act][scope] = copy;
	r->c->keys_line[act][scope] = ini->report_line;
}

/* "0".."255", a name, or "bright-NAME" (8..15). -1 for none of those. */
static int colour_number(const char *w)
{
	char *end;
	long x;
	int i;

	if (!strcasecmp(w, "default"))
		return NS_COLOUR_DEFAULT;
	if (isdigit((unsigned char)*w)) {
		errno = 0;
		x = strtol(w, &end, 10);
		return errno || *end || x > 255 ? -2 : (int)x;
	}
	if (!strncasecmp(w, "bright-", 7)) {
		i = colour_number(w + 7);
		return i >= 0 && i < 8 ? i + 8 : -2;
	}
	for (i = 0; i < 8; i++) {
		if (!strcasecmp(w, colour_names[i]))
			return i;
	}
	return -2;
}

static void colours_entry(struct ns_ini *ini, struct reader *r, const char *name,
			  const char *v)
{
	const struct ns_config_schema *sc = r->schema;
	int role = sc ? find(sc->roles, sc->nr_roles, name) : -1;
	struct ns_config_colour col = {
		.set = 1, .fg = NS_COLOUR_DEFAULT, .bg = NS_COLOUR_DEFAULT,
	};
	char buf[NS_INI_MAX_VALUE + 1], *w, *save = NULL;
	int words = 0, fg_done = 0, want_bg = 0, c, a;

	if (role < 0) {
		ns_ini_error(ini, "unknown colour role '%s' in [colours]", name);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", v);
	for (w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save), words++) {
		if (!strcasecmp(w, "on")) {
			if (want_bg)
				goto bad;
			want_bg = 1;
			continue;
		}
		if (!strcasecmp(w, "normal") || !strcasecmp(w, "none"))
			continue;
		for (a = 0; a < 6 && strcasecmp(attr_names[a], w); a++)
			;
		if (a < 6 && want_bg != 1) {
			col.attrs |= 1u << a;
			continue;
		}
		c = colour_number(w);
		if (c < -1) {
			ns_ini_error(ini, "%s: '%.32s' is not a colour (default, black, red, "
				     "green, yellow, blue, magenta, cyan, white, bright-NAME, "
				     "0-255) nor an attribute (bold, dim, underline, reverse, "
				     "blink, italic)", name, w);
			return;
		}
		if (want_bg == 1) {
			col.bg = (short)c;
			want_bg = 2;
		} else if (!fg_done && !want_bg) {
			col.fg = (short)c;
			fg_done = 1;
		} else {
			goto bad;
		}
	}
	if (!words || want_bg == 1)
		goto bad;
	col.line = ini->report_line;
	r->c->colours[role] = col;
	return;
bad:
	ns_ini_error(ini, "%s: want [FG] [on BG] [bold|dim|underline|reverse|blink|italic...], "
		     "e.g. 'black on green bold'", name);
}

static void config_entry(struct ns_ini *ini, void *user, const char *section, const char *name,
			 const char *value)
{
	const struct ns_config_setting *set;
	struct reader *r = user;
	int s;

	if (!name) {
		r->section = SEC_UNKNOWN;
		for (s = 0; s < ns_config_nr_settings; s++) {
			if (!strcmp(section, ns_config_settings[s].section))
				r->section = SEC_SETTINGS;
		}
		if (!strcmp(section, "colours") || !strcmp(section, "colors"))
			r->section = SEC_COLOURS;
		for (s = 0; s < NS_CONFIG_NR_SCOPES; s++) {
			if (!strcmp(section, scope_sections[s]))
				r->section = SEC_KEYS + s;
		}
		if (r->section == SEC_UNKNOWN)
			ns_ini_error(ini, "unknown section [%s]; its entries are skipped (display, "
				     "session, keys, keys.list, keys.graph, keys.picker, keys.help, "
				     "keys.stats, keys.record, keys.job, "
				     "colours)", section);
		return;
	}
	if (!section[0]) {
		ns_ini_error(ini, "'%s' comes before any [section]; skipped", name);
		return;
	}
	if (r->section == SEC_UNKNOWN)
		return;
	/* one setting under two spellings ([colors], color) is still given twice */
	set = r->section == SEC_SETTINGS ? find_setting(section, name) : NULL;
	ns_ini_once(ini, &r->seen, r->section == SEC_COLOURS ? "colours" : section,
		    set ? set->name : name);
	if (r->section == SEC_SETTINGS)
		setting_entry(ini, r->c, section, name, value);
	else if (r->section == SEC_COLOURS)
		colours_entry(ini, r, name, value);
	else
		keys_entry(ini, r, r->section - SEC_KEYS, name, value);
}

int ns_config_parse(struct ns_config *c, const struct ns_config_schema *schema,
		    const char *name, const char *data, size_t len, struct ns_diag *diag)
{
	struct reader *r = calloc(1, sizeof(*r));

	if (!r) {
		ns_diag_add(diag, name, 0, "out of memory");
		return -ENOMEM;
	}
	r->c = c;
	r->schema = schema;
	ns_ini_parse(name, data, len, config_entry, r, diag);
	free(r);
	return 0;
}

int ns_config_read(struct ns_config *c, const struct ns_config_schema *schema,
		   const char *path, int missing_ok, struct ns_diag *diag)
{
	char *data;
	size_t len;
	int ret = ns_ini_slurp(path, &data, &len);

	if (ret == -ENOENT && missing_ok)
		return 0;
	if (ret) {
		ns_diag_add(diag, path, 0, "cannot read: %s", ret == -EFBIG ?
			    "bigger than 1 MiB, not a configuration" : strerror(-ret));
		return ret;
	}
	free(c->path);
	c->path = strdup(path);
	ns_config_parse(c, schema, path, data, len, diag);
	free(data);
	return 0;
}
