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
 *                 [keys.picker] and [keys.help] bind the overlays' own
 *                 actions (picker-close), which the panes' sections refuse
 *   [colours]     ROLE = [FG] [on BG] [ATTR...], "black on green bold";
 *                 colours by name or 0-255, "default" for the terminal's
 *
 * The names of actions and colour roles belong to the front end, which
 * passes them in a struct ns_config_schema, so this file needs nothing of
 * curses and the front end's tables stay the only lists of them.
 * contrib/config.ini shows every setting with its default.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	"keys", "keys.list", "keys.graph", "keys.picker", "keys.help",
};

const char *ns_config_colour_name(int colour)
{
	if (colour == NS_COLOUR_DEFAULT)
		return "default";
	return colour >= 0 && colour < 8 ? colour_names[colour] : NULL;
}

const char *ns_config_time_format_name(int fmt)
{
	return fmt >= 0 && fmt < 2 ? time_formats[fmt] : NULL;
}

const char *ns_config_glyphs_name(int glyphs)
{
	return glyphs >= 0 && glyphs < 3 ? glyph_sets[glyphs] : NULL;
}

int ns_config_init(struct ns_config *c, const struct ns_config_schema *schema)
{
	memset(c, 0, sizeof(*c));
	c->time_format = NS_TIME_USEC;
	c->glyphs = NS_GLYPHS_AUTO;
	c->colour = 1;
	c->session_restore = 1;
	c->session_save = 1;
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
	SEC_DISPLAY,
	SEC_SESSION,
	SEC_KEYS,		/* + scope */
	SEC_COLOURS = SEC_KEYS + NS_CONFIG_NR_SCOPES,
};


static void display_entry(struct ns_ini *ini, struct ns_config *c, const char *name,
			  const char *v)
{
	int x;

	if (!strcmp(name, "time-format")) {
		if (!ns_ini_choice(ini, name, v, time_formats, 2, &x))
			c->time_format = x;
	} else if (!strcmp(name, "glyphs")) {
		if (!ns_ini_choice(ini, name, v, glyph_sets, 3, &x))
			c->glyphs = x;
	} else if (!strcmp(name, "graph-rows")) {
		if (!strcasecmp(v, "auto"))
			c->graph_rows = 0;
		else if (!ns_ini_int(ini, name, v, 1, NS_SESSION_GRAPH_ROWS_MAX, &x))
			c->graph_rows = x;
	} else if (!strcmp(name, "colour") || !strcmp(name, "color")) {
		if (!ns_ini_choice(ini, name, v, colour_modes, 2, &x))
			c->colour = x;
	} else {
		ns_ini_error(ini, "unknown name '%s' in [display] "
			     "(time-format, glyphs, graph-rows, colour)", name);
	}
}

static void session_entry(struct ns_ini *ini, struct ns_config *c, const char *name,
			  const char *v)
{
	if (!strcmp(name, "restore"))
		ns_ini_bool(ini, name, v, &c->session_restore);
	else if (!strcmp(name, "save"))
		ns_ini_bool(ini, name, v, &c->session_save);
	else
		ns_ini_error(ini, "unknown name '%s' in [session] (restore, save)", name);
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
	struct reader *r = user;
	int s;

	if (!name) {
		r->section = SEC_UNKNOWN;
		if (!strcmp(section, "display"))
			r->section = SEC_DISPLAY;
		else if (!strcmp(section, "session"))
			r->section = SEC_SESSION;
		else if (!strcmp(section, "colours") || !strcmp(section, "colors"))
			r->section = SEC_COLOURS;
		for (s = 0; s < NS_CONFIG_NR_SCOPES; s++) {
			if (!strcmp(section, scope_sections[s]))
				r->section = SEC_KEYS + s;
		}
		if (r->section == SEC_UNKNOWN)
			ns_ini_error(ini, "unknown section [%s]; its entries are skipped (display, "
				     "session, keys, keys.list, keys.graph, keys.picker, keys.help, "
				     "colours)", section);
		return;
	}
	if (!section[0]) {
		ns_ini_error(ini, "'%s' comes before any [section]; skipped", name);
		return;
	}
	if (r->section == SEC_UNKNOWN)
		return;
	ns_ini_once(ini, &r->seen, section, name);
	if (r->section == SEC_DISPLAY)
		display_entry(ini, r->c, name, value);
	else if (r->section == SEC_SESSION)
		session_entry(ini, r->c, name, value);
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
