// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bad INI files never crash and never go unreported. Two halves:
 *
 * The corpus, tests/data/ini/KIND-*.ini (KIND: config, session, filters),
 * each file saying in its own comments what must come of it:
 *   ;next: TEXT       a message "FILE:N: ...TEXT..." where N is the line
 *                     after this comment (and its fellow ;next: lines)
 *   ;expect N: TEXT   the same at line N (for lines that cannot be preceded)
 *                     No message may come that no ;next:/;expect asks for.
 *   ;has LINE         what was read still applies: LINE is a line of the
 *                     file written back (session, filters), or NAME=VALUE
 *                     of the settings read (config)
 *
 * Generated garbage: random bytes, every prefix of a valid session (a file
 * cut anywhere), random byte changes of it, a line of 10 kB, a value of
 * 64 kB in continuation lines, a 2 MB file, thousands of bad lines. Each
 * parses to messages of the form "FILE:LINE: message", bounded in number.
 */
#include <errno.h>
#include <glob.h>
#include <regex.h>

#include "nurseshark/session.h"
#include "nurseshark/tui.h"
#include "check.h"
#include "../../src/session/session-int.h"

static struct ns_config_schema schema;

/* The settings read, one NAME=VALUE a line, for ;has in config files. */
static char *config_dump(const struct ns_config *c)
{
	static const char *const scope[] = { "keys.", "keys.list.", "keys.graph.", "keys.picker.",
					     "keys.help.", "keys.stats." };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int a, s;

	fprintf(f, "time-format=%s\nglyphs=%s\ngraph-rows=%d\ncolour=%d\nrestore=%d\nsave=%d\n",
		ns_config_time_format_name(c->time_format), ns_config_glyphs_name(c->glyphs),
		c->graph_rows, c->colour, c->session_restore, c->session_save);
	for (a = 0; a < c->nr_actions; a++) {
		for (s = 0; s < NS_CONFIG_NR_SCOPES; s++) {
			if (c->keys[a][s])
				fprintf(f, "%s%s=%s\n", scope[s], schema.actions[a], c->keys[a][s]);
		}
	}
	for (a = 0; a < c->nr_roles; a++) {
		if (c->colours[a].set)
			fprintf(f, "colours.%s=%d,%d,%u\n", schema.roles[a], c->colours[a].fg,
				c->colours[a].bg, c->colours[a].attrs);
	}
	fclose(f);
	return buf;
}

static char *session_dump(const struct ns_session *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ns_session_write(s, f);
	fclose(f);
	return buf;
}

static char *filters_dump(const struct ns_filter_set *fs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ns_filters_write(fs, f);
	fclose(f);
	return buf;
}

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Parse @data as @kind; the messages in @d, what was read written back into *dump. */
static void parse_kind(const char *kind, const char *name, const char *data, size_t len,
		       struct ns_diag *d, char **dump)
{
	*dump = NULL;
	if (!strcmp(kind, "config")) {
		struct ns_config c;

		ns_config_init(&c, &schema);
		ns_config_parse(&c, &schema, name, data, len, d);
		*dump = config_dump(&c);
		ns_config_free(&c);
	} else if (!strcmp(kind, "session")) {
		struct ns_session s;

		ns_session_init(&s);
		ns_session_parse(&s, name, data, len, d);
		*dump = session_dump(&s);
		ns_session_free(&s);
	} else {
		struct ns_filter_set *fs = ns_filter_set_alloc();

		ns_filters_parse(fs, name, data, len, d);
		*dump = filters_dump(fs);
		ns_filter_set_free(fs);
	}
}

/* Every message is "NAME:LINE: text" or "NAME: text". */
static int well_formed(const struct ns_diag *d, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 0; i < d->nr; i++) {
		const char *m = d->msg[i] + n, *p;

		if (strncmp(d->msg[i], name, n) || *m != ':')
			return 0;
		for (p = m + 1; *p >= '0' && *p <= '9'; p++)
			;
		if (p > m + 1 && *p == ':')
			m = p;
		if (m[1] != ' ' || !m[2])
			return 0;
	}
	return 1;
}

static void corpus_file(const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	char kind[16], *data, *dump, *line, *save = NULL, *copy;
	int expect_line[64], nr_expect = 0, i, j, bad = 0, ok, lineno;
	char *expect_text[64];
	size_t len;
	struct ns_diag d;

	if (sscanf(base, "%15[a-z]-", kind) != 1 || (strcmp(kind, "config") &&
	    strcmp(kind, "session") && strcmp(kind, "filters"))) {
		FAIL("ini corpus: %s: the name does not start with config-, session- or filters-",
		     base);
		return;
	}
	if (ns_ini_slurp(path, &data, &len)) {
		FAIL("ini corpus: %s: cannot read it", base);
		return;
	}
	ns_diag_init(&d);
	parse_kind(kind, path, data, len, &d, &dump);

	/* the expectations, from the file's own comment lines */
	copy = malloc(len + 1);
	memcpy(copy, data, len);
	copy[len] = '\0';
	for (line = copy, lineno = 1; line; line = save, lineno++) {
		int n;

		/* memchr: a line may hold a NUL byte */
		save = memchr(line, '\n', copy + len - line);
		if (save)
			*save++ = '\0';
		if (sscanf(line, ";expect %d: %n", &expect_line[nr_expect], &n) == 1 &&
		    nr_expect < 64) {
			expect_text[nr_expect++] = line + n;
		} else if (!strncmp(line, ";next: ", 7) && nr_expect < 64) {
			expect_line[nr_expect] = -1;
			expect_text[nr_expect++] = line + 7;
		} else if (!strncmp(line, ";has ", 5) && !has_line(dump, line + 5)) {
			printf("  %s: what was read lacks the line '%s'; it has:\n%s\n", base,
			       line + 5, dump);
			bad++;
		}
		/* ;next: is about the first line after the ;next: lines */
		if (strncmp(line, ";next: ", 7)) {
			for (i = 0; i < nr_expect; i++)
				if (expect_line[i] == -1 && line != expect_text[i] - 7)
					expect_line[i] = lineno;
		}
	}
	for (i = 0; i < nr_expect; i++) {
		char prefix[4200];

		snprintf(prefix, sizeof(prefix), "%s:%d: ", path, expect_line[i]);
		for (j = 0, ok = 0; j < d.nr && !ok; j++)
			ok = !strncmp(d.msg[j], prefix, strlen(prefix)) &&
			     strstr(d.msg[j], expect_text[i]);
		if (!ok) {
			printf("  %s: no message 'line %d: ...%s...'\n", base, expect_line[i],
			       expect_text[i]);
			bad++;
		}
	}
	for (j = 0; j < d.nr; j++) {
		for (i = 0, ok = 0; i < nr_expect && !ok; i++) {
			char prefix[4200];

			snprintf(prefix, sizeof(prefix), "%s:%d: ", path, expect_line[i]);
			ok = !strncmp(d.msg[j], prefix, strlen(prefix)) &&
			     strstr(d.msg[j], expect_text[i]);
		}
		if (!ok) {
			printf("  %s: a message no ;expect asks for: %s\n", base, d.msg[j]);
			bad++;
		}
	}
	CHECK(!bad && nr_expect && well_formed(&d, path),
	      "ini corpus: %s: %d messages as expected, at their lines; the rest applies", base,
	      nr_expect);
	free(copy);
	free(dump);
	free(data);
	ns_diag_free(&d);
}

static unsigned long long rng = 88172645463325252ull;

static unsigned rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng >> 11);
}

/* Parse as every kind; -1 if a message is malformed or there are too many. */
static int garbage(const char *data, size_t len)
{
	static const char *const kinds[] = { "config", "session", "filters" };
	struct ns_diag d;
	char *dump;
	size_t k;
	int worst = 0;

	for (k = 0; k < 3; k++) {
		ns_diag_init(&d);
		parse_kind(kinds[k], "garbage.ini", data, len, &d, &dump);
		if (!well_formed(&d, "garbage.ini") || d.nr > NS_DIAG_MAX)
			worst = -1;
		free(dump);
		ns_diag_free(&d);
	}
	return worst;
}

/* A session with every part, as text. */
static char *full_session(void)
{
	struct ns_session s;
	struct ns_filter_entry e = { NS_FILTER_ADVANCED, NS_FILTER_SHOW, NS_FILTER_BOTH, 0,
				     "sched/sched_switch: prev_comm == \"a;b\" && prev_pid > 3" };
	struct ns_search_spec spec = { NS_SEARCH_INFO, NS_SEARCH_REGEX, 1, 1, " leading \"q\"" };
	char *text;

	ns_session_init(&s);
	s.have = ~0u;
	s.trace.path = strdup("/tmp/some trace;with\tcharacters.dat");
	s.trace.size = 6258688;
	s.trace.mtime_s = 1764769931;
	s.trace.mtime_ns = 123456789;
	s.nr_events = 91631;
	s.start_ns = 10171572790000ull;
	s.end_ns = 10174606952000ull;
	s.selected = 1234;
	s.selected_ns = 10171601233000ull;
	s.list_top = 1220;
	s.marker[0].set = 1;
	s.marker[0].row = 10;
	s.marker[0].ts_ns = 10171572837000ull;
	s.active_marker = 1;
	s.graph_rows = 3;
	s.info_scroll = 16;
	s.cursor_cpu = 1;
	s.cursor_col = 37;
	ns_filter_set_add(s.filters, &e);
	e = (struct ns_filter_entry){ NS_FILTER_TASK, NS_FILTER_HIDE, NS_FILTER_LIST, 15974, NULL };
	ns_filter_set_add(s.filters, &e);
	ns_filter_set_add_task_row(s.filters, 15974);
	ns_filter_set_hide_cpu(s.filters, 1, 1);
	ns_filter_set_save_search(s.filters, &spec);
	text = session_dump(&s);
	ns_session_free(&s);
	return text;
}

/* What INI files are made of, for garbage that looks like them. */
static const char ini_chars[] = " \n=[];\"\\abcdefx0123\t\r\x01";

static void generated(void)
{
	char *valid = full_session(), *buf, *big;
	size_t n = strlen(valid), i, k;
	struct ns_diag d;
	char *dump;
	int bad = 0;

	/* random bytes, some lengths */
	buf = malloc(70000);
	for (k = 0; k < 300; k++) {
		size_t len = rnd() % (k < 200 ? 400 : 70000);

		for (i = 0; i < len; i++)
			buf[i] = k % 3 ? (char)rnd() : ini_chars[rnd() % (sizeof(ini_chars) - 1)];
		bad += garbage(buf, len) < 0;
	}
	CHECK(!bad, "ini garbage: 300 buffers of random bytes give only FILE:LINE: messages");

	/* every prefix of a valid session, as a file cut anywhere */
	bad = 0;
	for (i = 0; i <= n; i++)
		bad += garbage(valid, i) < 0;
	CHECK(!bad, "ini garbage: each of the %zu prefixes of a full session reads without harm",
	      n + 1);

	/* random changes of a valid session */
	bad = 0;
	for (k = 0; k < 2000; k++) {
		memcpy(buf, valid, n);
		for (i = 0; i < 1 + k % 4; i++)
			buf[rnd() % n] = (char)(k % 2 ? (char)rnd() : "\n\"\\=[] ;0"[rnd() % 9]);
		bad += garbage(buf, n) < 0;
	}
	CHECK(!bad, "ini garbage: 2000 sessions with random bytes changed read without harm");
	free(buf);

	/* a line of 10 kB */
	big = malloc(3 << 20);
	snprintf(big, 100, "[panes]\ncursor = ");
	k = strlen(big);
	memset(big + k, '7', 10000);
	strcpy(big + k + 10000, "\ninfo-scroll = 8\n");
	ns_diag_init(&d);
	parse_kind("session", "long.ini", big, strlen(big), &d, &dump);
	CHECK(d.nr == 1 && strstr(d.msg[0], "long.ini:2: a line of 10009 bytes") &&
	      has_line(dump, "info-scroll = 8"), "ini: a 10 kB line is one message at its line, "
	      "the next line applies (%s)", d.nr ? d.msg[0] : "no message");
	free(dump);
	ns_diag_free(&d);

	/* a value of 64 kB made of continuation lines */
	strcpy(big, "[search]\ntext = \"x\"\n");
	for (i = 0; i < 600; i++)
		strcat(big, "\t\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\n");
	strcat(big, "column = task\n");
	ns_diag_init(&d);
	parse_kind("session", "huge.ini", big, strlen(big), &d, &dump);
	CHECK(d.nr == 1 && strstr(d.msg[0], "huge.ini:2: text: the value is longer than"),
	      "ini: a value of 73 kB in continuation lines is refused at its first line (%s)",
	      d.nr ? d.msg[0] : "no message");
	free(dump);
	ns_diag_free(&d);

	/* thousands of bad lines: a bounded number of messages, and a last word */
	big[0] = '\0';
	for (i = 0, k = 0; i < 5000; i++)
		k += sprintf(big + k, "bad line %zu\n", i);
	ns_diag_init(&d);
	parse_kind("config", "bad.ini", big, k, &d, &dump);
	CHECK(d.nr <= 101 && d.nr >= 100 &&
	      strstr(d.msg[d.nr - 1], "the rest of the file is not read"),
	      "ini: 5000 bad lines give %d messages, the last saying the rest is not read", d.nr);
	free(dump);
	ns_diag_free(&d);

	/* a 2 MB file is not read at all, and says so */
	{
		char path[] = "/tmp/ns-ini-big-XXXXXX";
		int fd = mkstemp(path);
		struct ns_config c;

		memset(big, ';', 2 << 20);
		if (fd >= 0 && write(fd, big, 2 << 20) == 2 << 20) {
			ns_diag_init(&d);
			ns_config_init(&c, &schema);
			CHECK(ns_config_read(&c, &schema, path, 0, &d) == -EFBIG && d.nr == 1 &&
			      strstr(d.msg[0], "bigger than 1 MiB"),
			      "ini: a 2 MB config is refused with one message (%s)",
			      d.nr ? d.msg[0] : "none");
			ns_config_free(&c);
			ns_diag_free(&d);
		} else {
			FAIL("ini: cannot write %s", path);
		}
		if (fd >= 0)
			close(fd);
		unlink(path);
	}
	free(big);
	free(valid);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	char pattern[4096];
	glob_t g;
	size_t i;

	ns_tui_config_schema(&schema);
	snprintf(pattern, sizeof(pattern), "%s/tests/data/ini/*.ini", top);
	if (glob(pattern, 0, NULL, &g) || g.gl_pathc < 6) {
		FAIL("ini corpus: fewer than 6 files match %s", pattern);
	} else {
		for (i = 0; i < g.gl_pathc; i++)
			corpus_file(g.gl_pathv[i]);
	}
	globfree(&g);
	generated();
	return check_failures ? 1 : 0;
}
