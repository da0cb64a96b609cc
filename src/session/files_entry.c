// SPDX-License-Identifier: GPL-2.0-only
/*
 * [files]: the files a session showed, when it showed several (nurseshark
 * -i a.dat -i b.dat) or one with an offset (--ts-offset, :offset), each
 * with what tells it changed and its offset; the entries after a file are
 * that file's:
 *
 *   [files]
 *   file = /home/ann/a.dat
 *   size = 6258688
 *   mtime = 1764769931.123456789
 *   file = /home/ann/b.dat
 *   size = 1851082
 *   mtime = 1764769990.000000000
 *   ts-offset = -12160000000
 *
 * [trace] still names the first file, so that a session of several files
 * read for one file applies as any session moved to another trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session-int.h"

void ns_session_free_files(struct ns_session *s)
{
	for (int k = 0; k < s->nr_files; k++)
		ns_session_trace_id_free(&s->files[k].id);
	free(s->files);
	s->files = NULL;
	s->nr_files = 0;
}

int ns_session_capture_files(struct ns_session *s, const struct ns_trace *trace)
{
	int n = ns_trace_nr_files(trace), k;
	bool offset = false;
	long long ns;

	ns_session_free_files(s);
	s->have &= ~NS_SESS_FILES;
	for (k = 0; k < n; k++)
		offset |= ns_trace_file_ts_offset(trace, k, &ns);
	if (n < 2 && !offset)
		return 0;
	s->files = calloc((size_t)n, sizeof(*s->files));
	if (!s->files)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		struct ns_session_file *f = &s->files[k];

		/* a file gone since it was opened: its path, no size */
		if (ns_session_trace_id_get(ns_trace_file_path(trace, k), &f->id))
			f->id.path = realpath(ns_trace_file_path(trace, k), NULL);
		if (!f->id.path)
			f->id.path = strdup(ns_trace_file_path(trace, k));
		s->nr_files = k + 1;
		if (!f->id.path)
			return -ENOMEM;
		f->has_ts_offset = ns_trace_file_ts_offset(trace, k, &f->ts_offset);
	}
	s->have |= NS_SESS_FILES;
	return 0;
}

void ns_session_files_entry(struct ns_ini *ini, struct ns_session *s, const char *name,
			    const char *value)
{
	struct ns_session_file *f = s->nr_files ? &s->files[s->nr_files - 1] : NULL;
	char path[4096], *end;
	uint64_t x;
	long long v;

	if (!strcmp(name, "file")) {
		struct ns_session_file *more;

		if (ns_ini_string(ini, name, value, path, sizeof(path)))
			return;
		if (path[0] != '/') {
			ns_ini_error(ini, "file: not an absolute path");
			return;
		}
		if (s->nr_files >= NS_TRACE_MAX_FILES) {
			ns_ini_error(ini, "file: over %d files", NS_TRACE_MAX_FILES);
			return;
		}
		more = realloc(s->files, (size_t)(s->nr_files + 1) * sizeof(*more));
		if (!more)
			return;
		s->files = more;
		f = &s->files[s->nr_files];
		memset(f, 0, sizeof(*f));
		f->id.path = strdup(path);
		if (f->id.path) {
			s->nr_files++;
			s->have |= NS_SESS_FILES;
		}
		return;
	}
	if (!f) {
		ns_ini_error(ini, "'%s' before any file = PATH; skipped", name);
		return;
	}
	if (!strcmp(name, "size")) {
		if (!ns_ini_u64(ini, name, value, INT64_MAX, &x))
			f->id.size = x;
	} else if (!strcmp(name, "mtime")) {
		long long sec = 0;
		long nsec = 0;
		int used = 0;

		if (sscanf(value, "%lld.%9ld%n", &sec, &nsec, &used) != 2 || value[used]) {
			ns_ini_error(ini, "mtime: want seconds.nanoseconds, got '%s'", value);
			return;
		}
		f->id.mtime_s = sec;
		f->id.mtime_ns = nsec;
	} else if (!strcmp(name, "ts-offset")) {
		errno = 0;
		v = strtoll(value, &end, 10);
		if (!*value || *end || errno) {
			ns_ini_error(ini, "ts-offset: want nanoseconds, got '%s'", value);
			return;
		}
		f->has_ts_offset = true;
		f->ts_offset = v;
	} else {
		ns_ini_error(ini, "unknown name '%s' in [files] (file, size, mtime, ts-offset)",
			     name);
	}
}

void ns_session_write_files(const struct ns_session *s, FILE *out)
{
	int k;

	if (!(s->have & NS_SESS_FILES) || !s->nr_files)
		return;
	fputs("\n[files]\n", out);
	for (k = 0; k < s->nr_files; k++) {
		const struct ns_session_file *f = &s->files[k];

		ns_ini_put(out, "file", f->id.path);
		ns_ini_putf(out, "size", "%llu", (unsigned long long)f->id.size);
		fprintf(out, "mtime = %lld.%09ld\n", (long long)f->id.mtime_s, f->id.mtime_ns);
		if (f->has_ts_offset)
			ns_ini_putf(out, "ts-offset", "%lld", f->ts_offset);
	}
}

char *ns_session_files_key(const char *const *paths, int n)
{
	size_t len = 1;
	char *key, **abs = calloc((size_t)(n > 0 ? n : 1), sizeof(*abs));
	int k;

	if (!abs)
		return NULL;
	for (k = 0; k < n; k++) {
		abs[k] = realpath(paths[k], NULL);
		if (!abs[k])
			abs[k] = strdup(paths[k]);
		len += (abs[k] ? strlen(abs[k]) : 0) + 1;
	}
	key = malloc(len);
	if (key) {
		key[0] = '\0';
		for (k = 0; k < n; k++) {
			if (k)
				strcat(key, "\n");
			strcat(key, abs[k] ? abs[k] : "");
		}
	}
	for (k = 0; k < n; k++)
		free(abs[k]);
	free(abs);
	return key;
}

void ns_session_compare_files(const struct ns_session *s, const struct ns_trace *trace,
			      const char *what, struct ns_diag *diag)
{
	int n = ns_trace_nr_files(trace), k;

	if (!(s->have & NS_SESS_FILES) || !s->nr_files)
		return;
	if (s->nr_files != n)
		ns_diag_add(diag, what, 0, "saved for %d files, %d open: applied as far as it holds",
			    s->nr_files, n);
	for (k = 0; k < n && k < s->nr_files; k++) {
		const struct ns_session_file *f = &s->files[k];
		struct ns_session_trace_id id;

		if (ns_session_trace_id_get(ns_trace_file_path(trace, k), &id))
			continue;
		if (strcmp(id.path, f->id.path))
			ns_diag_add(diag, what, 0, "file %d saved as %s; applied to %s as far as "
				    "it holds", k + 1, f->id.path, id.path);
		else if (id.size != f->id.size || id.mtime_s != f->id.mtime_s ||
			 id.mtime_ns != f->id.mtime_ns)
			ns_diag_add(diag, what, 0, "%s changed since it was saved (size or time); "
				    "only what still holds was restored",
				    strrchr(id.path, '/') ? strrchr(id.path, '/') + 1 : id.path);
		ns_session_trace_id_free(&id);
	}
}
