// SPDX-License-Identifier: GPL-2.0-only
/*
 * The streams of a session: which buffers of the file were read (the
 * --buffer choice) and which buffers the file had, so that a session
 * brings the choice back and says when the file's buffers changed. The
 * [streams] section, one name a line, by the names --buffer takes ("top"
 * for the top buffer):
 *
 *   [streams]
 *   file-buffer = top        every buffer the file had
 *   file-buffer = extra
 *   buffer = top             those read (all of them without --buffer)
 *
 * What each stream showed (hidden, only this) is a filter entry of the
 * [filters] section ("stream = hide both extra", filters.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session-int.h"

#define NS_SESSION_MAX_BUFFERS	256

static void free_names(char ***names, int *nr)
{
	while (*nr > 0)
		free((*names)[--*nr]);
	free(*names);
	*names = NULL;
}

void ns_session_free_streams(struct ns_session *s)
{
	free_names(&s->buffers, &s->nr_buffers);
	free_names(&s->file_buffers, &s->nr_file_buffers);
}

static int push_name(char ***names, int *nr, const char *name)
{
	char **n;

	if (*nr >= NS_SESSION_MAX_BUFFERS)
		return -E2BIG;
	n = realloc(*names, (size_t)(*nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	*names = n;
	n[*nr] = strdup(name);
	if (!n[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

int ns_session_capture_streams(struct ns_session *s, const struct ns_trace *trace)
{
	char name[256];
	int i, ret = 0;

	ns_session_free_streams(s);
	s->have &= ~NS_SESS_STREAMS;
	/* several files read every buffer of each: [files] says which files */
	if (ns_trace_nr_files(trace) > 1)
		return 0;
	for (i = 0; !ret && i < ns_trace_nr_streams(trace); i++) {
		ns_filter_stream_name(trace, i, name, sizeof(name));
		ret = push_name(&s->buffers, &s->nr_buffers, name);
	}
	for (i = 0; !ret && i < ns_trace_file_nr_buffers(trace); i++) {
		ns_trace_file_buffer_name(trace, i, name, sizeof(name));
		ret = push_name(&s->file_buffers, &s->nr_file_buffers,
				name[0] ? name : NS_TRACE_TOP_NAME);
	}
	if (!ret)
		s->have |= NS_SESS_STREAMS;
	return ret;
}

void ns_session_streams_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			      const char *v)
{
	char what[256];
	int ret;

	if (strcmp(name, "buffer") && strcmp(name, "file-buffer")) {
		ns_ini_error(ini, "unknown name '%s' in [streams] (buffer, file-buffer)", name);
		return;
	}
	if (ns_ini_string(ini, name, v, what, sizeof(what)))
		return;
	if (!what[0]) {
		ns_ini_error(ini, "%s: no name (top for the top buffer)", name);
		return;
	}
	if (name[0] == 'b')
		ret = push_name(&s->buffers, &s->nr_buffers, what);
	else
		ret = push_name(&s->file_buffers, &s->nr_file_buffers, what);
	if (ret)
		ns_ini_error(ini, "%s: %s", name, ret == -E2BIG ? "too many buffers" :
			     "out of memory");
	else
		s->have |= NS_SESS_STREAMS;
}

void ns_session_write_streams(const struct ns_session *s, FILE *out)
{
	int i;

	fputs("\n[streams]\n", out);
	for (i = 0; i < s->nr_file_buffers; i++)
		ns_ini_put(out, "file-buffer", s->file_buffers[i]);
	for (i = 0; i < s->nr_buffers; i++)
		ns_ini_put(out, "buffer", s->buffers[i]);
}

static int has_name(char *const *names, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* Do the lists hold the same names (in any order)? */
static int same_names(char *const *a, int na, char *const *b, int nb)
{
	int i;

	for (i = 0; i < na; i++)
		if (!has_name(b, nb, a[i]))
			return 0;
	for (i = 0; i < nb; i++)
		if (!has_name(a, na, b[i]))
			return 0;
	return 1;
}

/* "top, extra" in @buf. */
static const char *join(char *const *names, int nr, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && n + 1 < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? ", " : "", names[i]);
	return buf;
}

int ns_session_buffer_choice(const struct ns_session *s, const struct ns_trace *trace,
			     const char *what, struct ns_diag *diag, const char **names, int max)
{
	struct ns_session now = { 0 };	/* the trace's lists, as a session keeps them */
	char a[512], b[512];
	int i, n = 0;

	if (!(s->have & NS_SESS_STREAMS) || ns_session_capture_streams(&now, trace))
		goto out;
	if (s->nr_file_buffers && diag &&
	    !same_names(s->file_buffers, s->nr_file_buffers, now.file_buffers,
			now.nr_file_buffers))
		ns_diag_add(diag, what, 0, "the trace's buffers changed since the session: it "
			    "had %s; it has %s", join(s->file_buffers, s->nr_file_buffers, a,
						      sizeof(a)),
			    join(now.file_buffers, now.nr_file_buffers, b, sizeof(b)));
	/* every buffer of the file was read: no choice to bring back */
	if (!s->nr_buffers || same_names(s->buffers, s->nr_buffers, s->file_buffers,
					 s->nr_file_buffers))
		goto out;
	for (i = 0; i < s->nr_buffers && n < max; i++)
		if (has_name(now.file_buffers, now.nr_file_buffers, s->buffers[i]))
			names[n++] = s->buffers[i];
	if (n && same_names((char *const *)names, n, now.buffers, now.nr_buffers)) {
		n = 0;		/* already what is read */
	} else if (n && diag) {
		ns_diag_add(diag, what, 0, "the session read the buffers %s only (--buffer); "
			    "this trace is open with %s", join((char *const *)names, n, a,
								sizeof(a)),
			    join(now.buffers, now.nr_buffers, b, sizeof(b)));
	}
out:
	ns_session_free_streams(&now);
	return n;
}
