// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files of one run of nurseshark, as main.c wires them: config.ini,
 * the session to restore (named with -s, or the trace's own), the filter
 * file of --filters, the filters of a fresh start, and the session saved on
 * the way out. Problems all go to one list, shown in the status line (and by
 * --check-config on stderr). Nothing here is fatal but a session named on
 * the command line that cannot be read: a missing or unwritable state
 * directory only means the session is not kept, and says so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "session-int.h"

int ns_files_init(struct ns_files *f, const struct ns_config_schema *schema)
{
	int ret;

	memset(f, 0, sizeof(*f));
	ns_diag_init(&f->problems);
	ret = ns_config_init(&f->config, schema);
	if (!ret)
		ret = ns_session_init(&f->session);
	return ret;
}

void ns_files_free(struct ns_files *f)
{
	ns_config_free(&f->config);
	ns_session_free(&f->session);
	ns_session_trace_id_free(&f->trace_id);
	ns_diag_free(&f->problems);
	ns_filter_set_free(f->fresh);
	free(f->session_name);
	free(f->auto_path);
	free(f->session_key);
	memset(f, 0, sizeof(*f));
}

void ns_files_read_config(struct ns_files *f, const struct ns_config_schema *schema,
			  const char *path)
{
	char err[256], *dflt = NULL;

	if (!path) {
		dflt = ns_config_default_path(err, sizeof(err));
		if (!dflt)
			return;	/* no home at all: the defaults */
	}
	ns_config_read(&f->config, schema, path ? path : dflt, !path, &f->problems);
	free(dflt);
}

int ns_files_read_session(struct ns_files *f, const char *path)
{
	int ret = ns_session_read(&f->session, path, &f->problems);

	if (ret)
		return ret;
	f->have_session = 1;
	free(f->session_name);
	f->session_name = strdup(path);
	return 0;
}

static int files_trace(struct ns_files *f, const char *trace_path, const char *key, int restore,
		       int save);

int ns_files_trace(struct ns_files *f, const char *trace_path, int restore, int save)
{
	return files_trace(f, trace_path, NULL, restore, save);
}

int ns_files_traces(struct ns_files *f, const char *const *paths, int n, int restore, int save)
{
	free(f->session_key);
	f->session_key = n > 1 ? ns_session_files_key(paths, n) : NULL;
	if (n > 1 && !f->session_key)
		return -ENOMEM;
	return files_trace(f, paths[0], f->session_key, restore, save);
}

static int files_trace(struct ns_files *f, const char *trace_path, const char *key, int restore,
		       int save)
{
	char err[256], *dir;
	struct stat st;
	int ret;

	ns_session_trace_id_free(&f->trace_id);
	ret = ns_session_trace_id_get(trace_path, &f->trace_id);
	if (ret)
		return ret;
	if (!restore && !save)
		return 0;
	dir = ns_session_state_dir(err, sizeof(err));
	if (!dir) {
		snprintf(f->state_error, sizeof(f->state_error), "sessions are not kept: %s", err);
		ns_diag_add(&f->problems, NULL, 0, "%s", f->state_error);
		return 0;
	}
	if (save) {
		ret = ns_session_mkdirs(dir);
		if (ret) {
			snprintf(f->state_error, sizeof(f->state_error),
				 "sessions are not kept: %s: %s", dir, strerror(-ret));
			ns_diag_add(&f->problems, NULL, 0, "%s", f->state_error);
			free(dir);
			return 0;
		}
	}
	free(f->auto_path);
	f->auto_path = ns_session_auto_path(dir, key ? key : f->trace_id.path);
	free(dir);
	if (restore && !f->have_session && f->auto_path && !stat(f->auto_path, &st) &&
	    !ns_session_read(&f->session, f->auto_path, &f->problems)) {
		f->have_session = 1;
		free(f->session_name);
		f->session_name = strdup(f->auto_path);
	}
	if (!save) {
		free(f->auto_path);
		f->auto_path = NULL;
	}
	return 0;
}

int ns_files_read_filters(struct ns_files *f, struct ns_trace *trace, struct ns_filter_set *fs,
			  const char *path)
{
	struct ns_filter_set *read = ns_filter_set_alloc();
	int ret;

	if (!read)
		return -ENOMEM;
	ret = ns_filters_read(read, path, &f->problems);
	if (!ret) {
		ns_filters_keep_applicable(read, trace, path, &f->problems);
		ns_filter_set_clear_entries(fs);
		ret = ns_session_copy_filters(fs, read, NS_SESS_FILTERS);
	}
	ns_filter_set_free(read);
	return ret;
}

int ns_files_restore_filters(struct ns_files *f, struct ns_trace *trace,
			     struct ns_filter_set *fs, int cmdline_filters)
{
	f->fresh = ns_filter_set_alloc();
	if (!f->fresh || ns_filter_set_copy(f->fresh, fs))
		return -ENOMEM;
	if (!f->have_session)
		return 0;
	if (cmdline_filters) {
		ns_diag_add(&f->problems, f->session_name, 0, "filters given on the command "
			    "line: the session's filters are not restored");
		return 0;
	}
	ns_session_restore_filters(&f->session, fs, trace, f->session_name, &f->problems);
	return 0;
}

void ns_files_at_exit(void *arg, const struct ns_session *s)
{
	/* ours by construction, but a file planted there is still not replaced */
	struct ns_files *f = arg;
	struct ns_save how = { .flags = NS_SAVE_REPLACE, .keep = &f->trace_id };

	if (!f->auto_path)
		return;
	if (ns_session_save(s, f->auto_path, &how, f->save_error, sizeof(f->save_error)))
		f->save_failed = 1;
	else
		f->saved = 1;
}
