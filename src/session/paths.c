// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the files live, after the XDG base directory specification:
 * sessions under $XDG_STATE_HOME/nurseshark (default ~/.local/state), the
 * configuration in $XDG_CONFIG_HOME/nurseshark/config.ini (default
 * ~/.config). A variable that is empty or not an absolute path is ignored,
 * as the specification says. Also what identifies a trace file: its
 * absolute path, size and modification time.
 *
 * A trace's own session file is named after the trace's absolute path, so
 * that `ls` shows which trace each is for, with a hash of the whole path so
 * that the name stays unique once the path is cut or its '/' replaced:
 *   /home/ann/traces/boot.dat
 *   -> ~/.local/state/nurseshark/home_ann_traces_boot.dat-5c3e1f0a.ini
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nurseshark/session.h"

#define NS_SESSION_NAME_MAX	96	/* bytes of the path kept in a file name */

static char *xdg_dir(const char *var, const char *fallback, const char *leaf,
		     char *err, size_t err_len)
{
	const char *v = getenv(var), *home;
	struct passwd *pw;
	char *out = NULL;

	if (v && v[0] == '/') {
		if (asprintf(&out, "%s/%s", v, leaf) < 0)
			out = NULL;
		return out;
	}
	home = getenv("HOME");
	if (!home || home[0] != '/') {
		pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || home[0] != '/') {
		snprintf(err, err_len, "neither $%s nor $HOME is an absolute path", var);
		return NULL;
	}
	if (asprintf(&out, "%s/%s/%s", home, fallback, leaf) < 0)
		out = NULL;
	return out;
}

char *ns_session_state_dir(char *err, size_t err_len)
{
	return xdg_dir("XDG_STATE_HOME", ".local/state", "nurseshark", err, err_len);
}

char *ns_config_default_path(char *err, size_t err_len)
{
	return xdg_dir("XDG_CONFIG_HOME", ".config", "nurseshark/config.ini", err, err_len);
}

/* FNV-1a, 32 bits: a stable name, not a secret. */
static uint32_t hash32(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

char *ns_session_auto_path(const char *state_dir, const char *trace_abspath)
{
	const char *p = trace_abspath;
	char name[NS_SESSION_NAME_MAX + 1], *out;
	size_t len, i;

	while (*p == '/')
		p++;
	len = strlen(p);
	if (len > NS_SESSION_NAME_MAX)
		p += len - NS_SESSION_NAME_MAX;	/* the end says more than the start */
	for (i = 0; p[i]; i++) {
		unsigned char c = (unsigned char)p[i];

		name[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' ? c : '_';
	}
	name[i] = '\0';
	if (name[0] == '.')
		name[0] = '_';	/* never a hidden file, never ".." */
	if (asprintf(&out, "%s/%s-%08x.ini", state_dir, name, hash32(trace_abspath)) < 0)
		return NULL;
	return out;
}

int ns_session_mkdirs(const char *dir)
{
	char *copy = strdup(dir), *p, c;
	struct stat st;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (p = copy + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(copy, 0700) && errno != EEXIST) {
			ret = -errno;
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	if (!ret && (stat(dir, &st) || !S_ISDIR(st.st_mode)))
		ret = -ENOTDIR;
	free(copy);
	return ret;
}

int ns_session_trace_id_get(const char *path, struct ns_session_trace_id *id)
{
	struct stat st;
	char *abs;

	memset(id, 0, sizeof(id[0]));
	if (stat(path, &st))
		return -errno;
	abs = realpath(path, NULL);
	if (!abs) {
		char cwd[PATH_MAX];

		if (path[0] == '/')
			abs = strdup(path);
		else if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, path) < 0)
			abs = NULL;
	}
	if (!abs)
		return -ENOMEM;
	id->path = abs;
	id->size = (uint64_t)st.st_size;
	id->mtime_s = (int64_t)st.st_mtim.tv_sec;
	id->mtime_ns = st.st_mtim.tv_nsec;
	/* what the saves compare, as a name may be another link to the same file */
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	return 0;
}

void ns_session_trace_id_free(struct ns_session_trace_id *id)
{
	free(id->path);
	memset(id, 0, sizeof(*id));
}
