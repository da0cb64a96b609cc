// SPDX-License-Identifier: GPL-2.0-only
/*
 * The INI reader: inih parses, and this file stands between it and the
 * bytes of a file, so that nothing in a file can crash us or be dropped
 * without a word. inih reads lines through our reader function; the reader
 * hands it one line at a time and first looks at each itself:
 *
 *   - a line longer than inih's line buffer, or holding a NUL or another
 *     control byte, is reported and given to inih as a blank line (inih
 *     would otherwise cut it and read the rest as a line of its own);
 *   - leading blanks are dropped, so that an indented "name = value" is an
 *     entry and not, as inih's multi-line rule would have it, more of the
 *     value above; only a line that starts with '"' right after an entry
 *     continues it (how long strings are written, see ns_ini_put());
 *   - a section line is checked and announced to the caller at its line;
 *   - after inih is done with a line, one that should have reached our
 *     handler but did not is reported as malformed.
 *
 * Every message is "FILE:LINE: message". An entry reaches the caller once
 * complete, its continuation lines joined, so messages about its value
 * name its first line. Example (a long search text, written by us):
 *
 *   [search]
 *   text = "first 120 bytes ..."
 *   	"... the rest"
 *
 * is one entry, text, at the line of "text =".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ini.h>

#include "session-int.h"

enum line_kind {
	LINE_NONE,
	LINE_BLANK,		/* blank or a comment */
	LINE_SECTION,
	LINE_ENTRY,
	LINE_CONT,		/* a quoted piece continuing the entry above */
	LINE_BAD,		/* reported, given to inih as blank */
};

/* A value for a message: cut, unprintable bytes as '?'. */
static const char *shown(const char *v, char *buf, size_t size)
{
	size_t i;

	for (i = 0; v[i] && i + 4 < size; i++)
		buf[i] = (unsigned char)v[i] < 0x20 || v[i] == 0x7f ? '?' : v[i];
	if (v[i]) {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i] = '\0';
	return buf;
}

static void vreport(struct ns_ini *ini, int line, const char *fmt, va_list ap)
{
	if (ini->stopped)
		return;
	ns_diag_vadd(ini->diag, ini->file, line, fmt, ap);
	if (++ini->problems >= NS_INI_MAX_PROBLEMS) {
		ns_diag_add(ini->diag, ini->file, line,
			    "more than %d problems; the rest of the file is not read",
			    NS_INI_MAX_PROBLEMS - 1);
		ini->stopped = 1;
	}
}

void ns_ini_error(struct ns_ini *ini, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(ini, ini->report_line, fmt, ap);
	va_end(ap);
}

static void report_at(struct ns_ini *ini, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void report_at(struct ns_ini *ini, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(ini, line, fmt, ap);
	va_end(ap);
}

/* Hand the entry gathered so far to the caller. */
static void flush_pending(struct ns_ini *ini)
{
	if (!ini->pending)
		return;
	ini->pending = 0;
	ini->report_line = ini->pending_line;
	if (ini->pending_too_long)
		ns_ini_error(ini, "%s: the value is longer than %d bytes; ignored",
			     ini->pending_name, NS_INI_MAX_VALUE);
	else if (!ini->stopped)
		ini->fn(ini, ini->user, ini->pending_section, ini->pending_name,
			ini->pending_value ? ini->pending_value : "");
	free(ini->pending_value);
	ini->pending_value = NULL;
	ini->pending_len = 0;
	ini->report_line = ini->line;
}

static void append_value(struct ns_ini *ini, const char *v, const char *sep)
{
	size_t n = strlen(v), s = strlen(sep);
	char *p;

	if (ini->pending_too_long)
		return;
	if (ini->pending_len + s + n > NS_INI_MAX_VALUE) {
		ini->pending_too_long = 1;
		return;
	}
	p = realloc(ini->pending_value, ini->pending_len + s + n + 1);
	if (!p) {
		ini->pending_too_long = 1;
		return;
	}
	memcpy(p + ini->pending_len, sep, s);
	memcpy(p + ini->pending_len + s, v, n + 1);
	ini->pending_value = p;
	ini->pending_len += s + n;
}

/* inih's handler: gather the entry, deliver it when the next line is not more of it. */
static int on_entry(void *user, const char *section, const char *name, const char *value)
{
	struct ns_ini *ini = user;

	ini->last_handled = 1;
	if (ini->stopped || ini->section[0] == '\x01')
		return 1;	/* under a section line that was refused */
	if (ini->last_kind == LINE_CONT) {
		if (ini->pending)
			append_value(ini, value ? value : "", " ");
		return 1;
	}
	flush_pending(ini);
	if (!*name) {
		report_at(ini, ini->line, "an entry without a name before its '='");
		return 1;
	}
	if (strlen(name) >= sizeof(ini->pending_name)) {
		char buf[48];

		report_at(ini, ini->line, "unknown name '%s' (too long)",
			  shown(name, buf, sizeof(buf)));
		return 1;
	}
	ini->pending = 1;
	ini->pending_too_long = 0;
	ini->pending_line = ini->line;
	strcpy(ini->pending_section, ini->section);
	strcpy(ini->pending_name, name);
	append_value(ini, value ? value : "", "");
	return 1;
}

/*
 * Where inih's find_chars_or_comment() stops: the first of @chars, or an
 * inline comment (';' after a blank), or the end.
 */
static const char *scan(const char *s, const char *chars)
{
	int was_space = 0;

	while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
		was_space = isspace((unsigned char)*s);
		s++;
	}
	return s;
}

/* A section line "[name]" (s starts at '['); reports and returns -1 if refused. */
static int section_line(struct ns_ini *ini, const char *s)
{
	const char *end = scan(s + 1, "]"), *a = s + 1, *b, *rest;
	char buf[48];

	if (*end != ']') {
		report_at(ini, ini->line, "a section line without its closing ']'; "
			  "the entries up to the next section are skipped");
		return -1;
	}
	while (a < end && isspace((unsigned char)*a))
		a++;
	for (b = end; b > a && isspace((unsigned char)b[-1]); b--)
		;
	if (b - a > NS_INI_MAX_SECTION) {
		report_at(ini, ini->line, "a section name longer than %d bytes; "
			  "the entries up to the next section are skipped", NS_INI_MAX_SECTION);
		return -1;
	}
	memcpy(ini->section, a, b - a);
	ini->section[b - a] = '\0';
	for (rest = end + 1; isspace((unsigned char)*rest); rest++)
		;
	if (*rest && *rest != ';' && *rest != '#')
		report_at(ini, ini->line, "'%s' after the section name is ignored",
			  shown(rest, buf, sizeof(buf)));
	ini->report_line = ini->line;
	ini->fn(ini, ini->user, ini->section, NULL, NULL);
	return 0;
}

/* After inih is done with a line: an entry that never reached on_entry is malformed. */
static void finish_line(struct ns_ini *ini)
{
	if ((ini->last_kind == LINE_ENTRY || ini->last_kind == LINE_CONT) && !ini->last_handled)
		report_at(ini, ini->line, "this line cannot be read as 'name = value'");
	ini->last_kind = LINE_NONE;
}

static int control_byte(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return c;
	}
	return -1;
}

/* inih's reader: one line per call, looked at first (see the top of the file). */
static char *reader(char *str, int num, void *stream)
{
	struct ns_ini *ini = stream;
	const char *p, *nl, *s;
	int prev = ini->last_kind, kind, c;
	size_t n, skip;

	finish_line(ini);
	if (ini->stopped || ini->pos >= ini->len) {
		flush_pending(ini);
		return NULL;
	}
	p = ini->data + ini->pos;
	nl = memchr(p, '\n', ini->len - ini->pos);
	n = nl ? (size_t)(nl - p) : ini->len - ini->pos;
	ini->pos += n + (nl ? 1 : 0);
	ini->line++;
	ini->report_line = ini->line;
	ini->last_handled = 0;
	if (n && p[n - 1] == '\r')
		n--;
	if (ini->line == 1 && n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) {
		p += 3;
		n -= 3;
	}
	for (skip = 0; skip < n && (p[skip] == ' ' || p[skip] == '\t'); skip++)
		;
	s = p + skip;
	n -= skip;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;

	c = control_byte(s, n);
	if (!n || *s == ';' || *s == '#')
		kind = LINE_BLANK;
	else if (c >= 0)
		kind = LINE_BAD;
	else if (*s == '"' && (prev == LINE_ENTRY || prev == LINE_CONT) && ini->pending)
		kind = LINE_CONT;
	else if (*s == '[')
		kind = LINE_SECTION;
	else
		kind = LINE_ENTRY;

	if (kind != LINE_CONT)
		flush_pending(ini);
	if (kind == LINE_BAD) {
		report_at(ini, ini->line, c ? "control byte 0x%02x in the line; line skipped" :
			  "a NUL byte (is this a text file?); line skipped", c);
	} else if (kind != LINE_BLANK && (long)n + 4 > num) {
		report_at(ini, ini->line, "a line of %zu bytes, longer than the %d inih reads; "
			  "line skipped", n, num - 4);
		if (kind == LINE_SECTION)
			ini->section[0] = '\x01';
		kind = LINE_BAD;
	} else if (kind == LINE_SECTION) {
		char line[NS_INI_MAX_SECTION * 4];

		/* a copy: the line is not NUL-terminated in the buffer */
		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		if (section_line(ini, line)) {
			ini->section[0] = '\x01';
			kind = LINE_BAD;
		}
	} else if (kind == LINE_ENTRY && ini->section[0] == '\x01') {
		kind = LINE_BLANK;	/* skipped with its section, already reported */
	}
	ini->last_kind = kind;

	if (kind == LINE_BAD || kind == LINE_BLANK) {
		strcpy(str, "\n");
		return str;
	}
	/* a continuation keeps one tab in front: that is what inih goes by */
	snprintf(str, num, "%s%.*s\n", kind == LINE_CONT ? "\t" : "", (int)n, s);
	return str;
}

int ns_ini_parse(const char *file, const char *data, size_t len, ns_ini_fn fn, void *user,
		 struct ns_diag *diag)
{
	struct ns_ini ini;
	int ret;

	memset(&ini, 0, sizeof(ini));
	ini.file = file;
	ini.data = data;
	ini.len = len;
	ini.fn = fn;
	ini.user = user;
	ini.diag = diag;
	ret = ini_parse_stream(reader, &ini, on_entry, &ini);
	finish_line(&ini);
	flush_pending(&ini);
	free(ini.pending_value);
	if (ret < 0 && !ini.stopped)
		report_at(&ini, 0, "inih could not read the file (out of memory)");
	return ini.problems;
}

int ns_ini_read(const char *path, const char *what, ns_ini_fn fn, void *user,
		struct ns_diag *diag)
{
	char *data;
	size_t len;
	int ret = ns_ini_slurp(path, &data, &len);

	if (ret) {
		if (ret == -EFBIG)
			ns_diag_add(diag, path, 0, "cannot read: bigger than 1 MiB, not %s", what);
		else
			ns_diag_add(diag, path, 0, "cannot read: %s", strerror(-ret));
		return ret;
	}
	ns_ini_parse(path, data, len, fn, user, diag);
	free(data);
	return 0;
}

int ns_ini_slurp(const char *path, char **data, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;	/* a fifo or a device would block or never end */
		goto out;
	}
	if (st.st_size > NS_INI_MAX_FILE) {
		ret = -EFBIG;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (!n)
			break;	/* it shrank meanwhile: what is there */
		got += n;
	}
	buf[got] = '\0';
	*data = buf;
	*len = got;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return ret;
}

/* ---- values -------------------------------------------------------------- */

int ns_ini_u64(struct ns_ini *ini, const char *name, const char *v, uint64_t max, uint64_t *out)
{
	unsigned long long x;
	char *end, buf[48];

	errno = 0;
	if (!isdigit((unsigned char)*v))
		goto bad;
	x = strtoull(v, &end, 10);
	if (errno || *end || x > max)
		goto bad;
	*out = x;
	return 0;
bad:
	ns_ini_error(ini, "%s: '%s' is not a whole number from 0 to %llu", name,
		     shown(v, buf, sizeof(buf)), (unsigned long long)max);
	return -EINVAL;
}

int ns_ini_int(struct ns_ini *ini, const char *name, const char *v, long min, long max, int *out)
{
	char *end, buf[48];
	long x;

	errno = 0;
	if (!isdigit((unsigned char)*v) && !(*v == '-' && isdigit((unsigned char)v[1])))
		goto bad;
	x = strtol(v, &end, 10);
	if (errno || *end || x < min || x > max)
		goto bad;
	*out = (int)x;
	return 0;
bad:
	ns_ini_error(ini, "%s: '%s' is not a whole number from %ld to %ld", name,
		     shown(v, buf, sizeof(buf)), min, max);
	return -EINVAL;
}

int ns_ini_bool(struct ns_ini *ini, const char *name, const char *v, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	char buf[48];
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = 0;
			return 0;
		}
	}
	ns_ini_error(ini, "%s: '%s' is neither yes nor no", name, shown(v, buf, sizeof(buf)));
	return -EINVAL;
}

int ns_ini_choice(struct ns_ini *ini, const char *name, const char *v,
		  const char *const *names, int n, int *out)
{
	char buf[48], list[160] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (names[i] && !strcasecmp(v, names[i])) {
			*out = i;
			return 0;
		}
	}
	for (i = 0; i < n && used + 2 < sizeof(list); i++) {
		if (names[i])
			used += snprintf(list + used, sizeof(list) - used, "%s%s",
					 used ? ", " : "", names[i]);
	}
	ns_ini_error(ini, "%s: '%s' is not one of %s", name, shown(v, buf, sizeof(buf)), list);
	return -EINVAL;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "a" "b" (pieces of one string, as continuation lines join them) -> ab */
static const char *unquote(const char *v, char *out, size_t size, size_t *len)
{
	size_t n = 0;

	while (*v == '"') {
		for (v++; *v != '"'; v++) {
			int c = (unsigned char)*v;

			if (!c)
				return "a quote that does not end";
			if (c == '\\') {
				switch (*++v) {
				case '\\': c = '\\'; break;
				case '"': c = '"'; break;
				case ';': c = ';'; break;
				case 'n': c = '\n'; break;
				case 't': c = '\t'; break;
				case 'x':
					if (hexval((unsigned char)v[1]) < 0 ||
					    hexval((unsigned char)v[2]) < 0)
						return "\\x wants two hex digits";
					c = hexval((unsigned char)v[1]) * 16 +
					    hexval((unsigned char)v[2]);
					v += 2;
					if (!c)
						return "\\x00: a string cannot hold a NUL";
					break;
				default:
					return "an unknown escape (\\\\ \\\" \\; \\n \\t \\xHH)";
				}
			}
			if (n + 1 >= size)
				return "too long";
			out[n++] = (char)c;
		}
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
	}
	if (*v)
		return "text after the closing quote";
	out[n] = '\0';
	*len = n;
	return NULL;
}

int ns_ini_string(struct ns_ini *ini, const char *name, const char *v, char *out, size_t size)
{
	const char *why;
	size_t len;

	if (*v != '"') {
		if (strlen(v) >= size) {
			ns_ini_error(ini, "%s: longer than %zu bytes", name, size - 1);
			return -EINVAL;
		}
		strcpy(out, v);
		return 0;
	}
	why = unquote(v, out, size, &len);
	if (!why)
		return 0;
	if (!strcmp(why, "too long"))
		ns_ini_error(ini, "%s: longer than %zu bytes", name, size - 1);
	else
		ns_ini_error(ini, "%s: %s", name, why);
	out[0] = '\0';
	return -EINVAL;
}

/* ---- writing -------------------------------------------------------------- */

static int needs_quotes(const char *v)
{
	size_t n = strlen(v), i;

	if (!n)
		return 0;
	if (isspace((unsigned char)v[0]) || isspace((unsigned char)v[n - 1]) || v[0] == '"' ||
	    n > NS_INI_WRAP)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];

		if (c < 0x20 || c == 0x7f || c == ';')
			return 1;
	}
	return 0;
}

void ns_ini_put_value(FILE *out, const char *value)
{
	size_t piece = 0;

	if (!needs_quotes(value)) {
		fprintf(out, "%s\n", value);
		return;
	}
	fputc('"', out);
	for (; *value; value++) {
		unsigned char c = (unsigned char)*value;
		char esc[8];

		if (c == '\\' || c == '"' || c == ';')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			snprintf(esc, sizeof(esc), "\\t");
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			snprintf(esc, sizeof(esc), "%c", c);
		if (piece + strlen(esc) > NS_INI_WRAP) {
			/* the next piece on a line of its own: blanks between pieces are no text */
			fputs("\"\n\t\"", out);
			piece = 0;
		}
		fputs(esc, out);
		piece += strlen(esc);
	}
	fputs("\"\n", out);
}

void ns_ini_put(FILE *out, const char *name, const char *value)
{
	fprintf(out, "%s = ", name);
	ns_ini_put_value(out, value);
}

void ns_ini_putf(FILE *out, const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%s = ", name);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

void ns_ini_once(struct ns_ini *ini, struct ns_ini_seen *seen, const char *section,
		 const char *name)
{
	char key[80];
	int i;

	snprintf(key, sizeof(key), "%s/%s", section, name);
	for (i = 0; i < seen->n; i++) {
		if (!strcmp(seen->v[i].key, key)) {
			ns_ini_error(ini, "%s is given again (first at line %d); this one counts",
				     name, seen->v[i].line);
			seen->v[i].line = ini->report_line;
			return;
		}
	}
	if (seen->n < NS_INI_MAX_SEEN) {
		strcpy(seen->v[seen->n].key, key);
		seen->v[seen->n++].line = ini->report_line;
	}
}
