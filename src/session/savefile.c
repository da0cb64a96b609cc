// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saving a file of ours without ever losing one: the rules of what may be
 * replaced, then an atomic replacement.
 *
 * What may be written: a name where nothing is, or a regular file that is
 * one of ours (a session or a filter file, see ns_savefile_kind()), and
 * that only when the caller says so (NS_SAVE_REPLACE; without it the answer
 * is -EEXIST, so that the front end can ask). Never the open trace (the
 * same st_dev and st_ino, whatever the name), never a file that is not
 * ours, never a directory, device node, FIFO or socket. A symbolic link is
 * resolved and the same rules apply to the file it names; a link to nothing
 * is refused, as it could lead anywhere.
 *
 * How: the new text goes to a temporary file beside the (resolved) target,
 * is written in full, fsync'ed, closed and renamed over the target, then
 * the directory is fsync'ed so that the rename itself survives a crash.
 * rename() within a file system is atomic, so the name holds the whole old
 * file or the whole new one. A new name is taken with RENAME_NOREPLACE, so
 * that a file that appeared meanwhile is not replaced either. On any
 * failure before the rename the temporary file is removed and the old file
 * was never touched. The rules are checked just before the write: a file
 * swapped in for an existing target between the check and the rename
 * would be replaced (nurseshark is one user's tool; a new name has even
 * that closed by RENAME_NOREPLACE). A temporary file that a killed writer left behind
 * (".NAME.XXXXXX", one of ours, older than a minute) is removed at the next
 * save into its directory.
 *
 * The system calls of the write go through struct ns_savefile_ops so that a
 * test can make any one of them fail, or write only part of what it was
 * given.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nurseshark/util.h"
#include "session-int.h"

#define NS_SAVEFILE_STALE_S	60	/* a temporary file this old lost its writer */
#define NS_SAVEFILE_TMP_SUFFIX	6	/* the XXXXXX of mkostemp() */

static ssize_t real_write(void *arg, int fd, const void *buf, size_t len)
{
	return write(fd, buf, len);
}

static int real_fsync(void *arg, int fd)
{
	return fsync(fd);
}

static int real_close(void *arg, int fd)
{
	return close(fd);
}

/* @noreplace: fail with EEXIST rather than replace what is at @to. */
static int real_rename(void *arg, const char *from, const char *to, int noreplace)
{
	struct stat st;

	if (!noreplace)
		return rename(from, to);
	if (!renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a file system without RENAME_NOREPLACE: link() does not replace either */
	if (!link(from, to)) {
		unlink(from);
		return 0;
	}
	if (errno == EEXIST)
		return -1;
	/* nor hard links (vfat): the last look before a plain rename */
	if (!lstat(to, &st)) {
		errno = EEXIST;
		return -1;
	}
	return rename(from, to);
}

static const struct ns_savefile_ops real_ops = {
	.write = real_write,
	.fsync = real_fsync,
	.close = real_close,
	.rename = real_rename,
};

static int fail(char *err, size_t err_len, const char *what, const char *path, int e)
{
	snprintf(err, err_len, "%s %s: %s", what, path, strerror(e));
	return -e;
}

/* ---- which files are ours ------------------------------------------------------ */

static const char *const session_sections[] = {
	"trace", "view", "markers", "panes", "filters", "graph", "search",
};

/* [name] with @name one of a session's sections; sets *@filters for [filters]. */
static int our_section(const char *s, size_t len, int *filters)
{
	const char *end = memchr(s, ']', len);
	size_t i, n;

	if (!end)
		return 0;
	n = (size_t)(end - s - 1);
	for (end++; end < s + len; end++) {
		if (*end == ';' || *end == '#')
			break;
		if (*end != ' ' && *end != '\t')
			return 0;
	}
	for (i = 0; i < NS_ARRAY_SIZE(session_sections); i++) {
		if (strlen(session_sections[i]) == n && !memcmp(s + 1, session_sections[i], n)) {
			*filters = i == 4;
			return 1;
		}
	}
	return 0;
}

/* name = value, name : value, with a name as ours are (lower case, digits, '-'). */
static int our_entry(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
			   s[i] == '-' || s[i] == '_'))
		i++;
	if (!i)
		return 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len && (s[i] == '=' || s[i] == ':');
}

static int starts(const char *data, size_t len, const char *mark)
{
	return len >= strlen(mark) && !memcmp(data, mark, strlen(mark));
}

/* The first line that every version of the writers put in a session or filter file. */
static int has_mark(const char *data, size_t len)
{
	return starts(data, len, NS_SESSION_MARK) || starts(data, len, NS_FILTERS_MARK) ||
	       starts(data, len, NS_RECORD_MARK);
}

int ns_savefile_kind(const char *data, size_t len)
{
	const char *p = data, *end = data + len, *nl;
	int sections = 0, others = 0, filters;

	if (starts(data, len, NS_SESSION_MARK))
		return NS_SAVEFILE_SESSION;
	if (starts(data, len, NS_FILTERS_MARK))
		return NS_SAVEFILE_FILTERS;
	if (starts(data, len, NS_RECORD_MARK))
		return NS_SAVEFILE_RECORD;
	/* no first line of ours (written by hand, or edited): INI of our sections alone */
	if (len > NS_INI_MAX_FILE || memchr(data, '\0', len))
		return NS_SAVEFILE_NOT_OURS;
	for (; p < end; p = nl + 1) {
		size_t n;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (!n || *p == ';' || *p == '#')
			continue;
		if (*p == '[') {
			if (!our_section(p, n, &filters))
				return NS_SAVEFILE_NOT_OURS;
			sections++;
			others += !filters;
		} else if (!sections || (*p != '"' && !our_entry(p, n))) {
			return NS_SAVEFILE_NOT_OURS;
		}
	}
	if (!sections)
		return NS_SAVEFILE_NOT_OURS;
	return others ? NS_SAVEFILE_SESSION : NS_SAVEFILE_FILTERS;
}

static const char *kind_name(int kind)
{
	if (kind == NS_SAVEFILE_RECORD)
		return "the Record screen's settings";
	return kind == NS_SAVEFILE_FILTERS ? "a nurseshark filter file" : "a nurseshark session";
}

/*
 * The kind of the regular file @path (lstat'ed as @st), read through a
 * descriptor that follows no link and never waits; a negative errno when
 * it cannot be read (then it is not known to be ours).
 */
static int file_kind(const char *path, const struct stat *st)
{
	size_t cap = NS_INI_MAX_FILE + 1, len = 0;
	struct stat fst;
	char *buf;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* the very file that was looked at, and still a regular one */
	if (fstat(fd, &fst) || !S_ISREG(fst.st_mode) || fst.st_ino != st->st_ino ||
	    fst.st_dev != st->st_dev) {
		close(fd);
		return -EAGAIN;
	}
	if ((size_t)fst.st_size < cap)
		cap = (size_t)fst.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len < cap && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
	}
	ret = n < 0 ? -errno : ns_savefile_kind(buf, len);
	free(buf);
	close(fd);
	return ret;
}

/* ---- stale temporary files --------------------------------------------------------- */

/* ".NAME.XXXXXX": what the writer below names its temporary files. */
static int tmp_name(const char *name)
{
	size_t len = strlen(name), i;

	if (name[0] != '.' || len < NS_SAVEFILE_TMP_SUFFIX + 3 ||
	    name[len - NS_SAVEFILE_TMP_SUFFIX - 1] != '.')
		return 0;
	for (i = len - NS_SAVEFILE_TMP_SUFFIX; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

int ns_savefile_clean(const char *dir)
{
	time_t now = time(NULL);
	char head[64];
	struct stat st;
	struct dirent *e;
	int dfd, fd, removed = 0;
	ssize_t n;
	DIR *d;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (!tmp_name(e->d_name) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || st.st_mtime > now - NS_SAVEFILE_STALE_S)
			continue;
		fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, head, sizeof(head));
		close(fd);
		/* empty (killed before its first write) or begun by our writer */
		if (n == 0 || (n > 0 && has_mark(head, (size_t)n))) {
			if (!unlinkat(dfd, e->d_name, 0))
				removed++;
		}
	}
	closedir(d);
	return removed;
}

/* ---- the rules ------------------------------------------------------------------- */

/*
 * May @path be written? Sets *@target (malloc'd) to the file to replace
 * (@path, or what its link names) and *@exists. 0, or a negative errno
 * with the reason in @err.
 */
static int check_target(const char *path, const struct ns_save *how, char **target,
			int *exists, char *err, size_t err_len)
{
	const struct ns_session_trace_id *keep = how ? how->keep : NULL;
	char link_note[PATH_MAX + 16] = "";
	struct stat st;
	int kind;

	*exists = 0;
	*target = NULL;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return fail(err, err_len, "cannot write", path, errno);
		*target = strdup(path);
		return *target ? 0 : fail(err, err_len, "cannot write", path, ENOMEM);
	}
	if (S_ISLNK(st.st_mode)) {
		*target = realpath(path, NULL);
		if (!*target) {
			if (errno == ENOENT) {
				snprintf(err, err_len, "%s is a symbolic link to nothing: "
					 "not followed", path);
				return -EPERM;
			}
			return fail(err, err_len, "cannot follow the link", path, errno);
		}
		snprintf(link_note, sizeof(link_note), " (through the link %s)", path);
		if (lstat(*target, &st))
			return fail(err, err_len, "cannot write", *target, errno);
	} else {
		*target = strdup(path);
		if (!*target)
			return fail(err, err_len, "cannot write", path, ENOMEM);
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "%s%s is a directory", *target, link_note);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "%s%s is a %s, not a file: not written", *target, link_note,
			 S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode) ? "socket" :
			 "device");
		return -EPERM;
	}
	if (keep && keep->ino && (uint64_t)st.st_dev == keep->dev &&
	    (uint64_t)st.st_ino == keep->ino) {
		snprintf(err, err_len, "%s%s is the trace open: not written", *target, link_note);
		return -EPERM;
	}
	kind = file_kind(*target, &st);
	if (kind < 0) {
		snprintf(err, err_len, "%s%s cannot be read (%s), so it is not replaced", *target,
			 link_note, strerror(-kind));
		return -EPERM;
	}
	if (kind == NS_SAVEFILE_NOT_OURS) {
		snprintf(err, err_len, "%s%s exists and is not a nurseshark session or filter "
			 "file: not replaced", *target, link_note);
		return -EPERM;
	}
	*exists = 1;
	if (!how || !(how->flags & NS_SAVE_REPLACE)) {
		snprintf(err, err_len, "%s%s exists (%s)", *target, link_note, kind_name(kind));
		return -EEXIST;
	}
	return 0;
}

/* ---- the write ------------------------------------------------------------------- */

int ns_savefile_write(const char *path, const void *data, size_t len, const struct ns_save *how,
		      char *err, size_t err_len)
{
	const struct ns_savefile_ops *ops = how && how->ops ? how->ops : &real_ops;
	const char *p = data, *slash;
	char *target = NULL, *tmp = NULL, *dir = NULL;
	struct stat st;
	int fd = -1, dfd, ret, e, exists;
	mode_t mode = 0600;

	ret = check_target(path, how, &target, &exists, err, err_len);
	if (ret)
		goto out;
	if (exists && !stat(target, &st))
		mode = st.st_mode & 07777;
	slash = strrchr(target, '/');
	dir = slash ? strndup(target, slash == target ? 1 : slash - target) : strdup(".");
	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : target) < 0) {
		tmp = NULL;
		ret = fail(err, err_len, "cannot write", path, ENOMEM);
		goto out;
	}
	ns_savefile_clean(dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = fail(err, err_len, "cannot create a file in", dir, errno);
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (fchmod(fd, mode)) {
		ret = fail(err, err_len, "cannot write", tmp, errno);
		goto out;
	}
	while (len) {
		ssize_t n = ops->write(ops->arg, fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = fail(err, err_len, "cannot write", tmp, n < 0 ? errno : ENOSPC);
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if (ops->fsync(ops->arg, fd)) {
		ret = fail(err, err_len, "cannot sync", tmp, errno);
		goto out;
	}
	e = ops->close(ops->arg, fd);
	fd = -1;
	if (e) {
		ret = fail(err, err_len, "cannot write", tmp, errno);
		goto out;
	}
	if (ops->rename(ops->arg, tmp, target, !exists)) {
		if (errno == EEXIST) {
			snprintf(err, err_len, "%s was created while it was written: not replaced",
				 target);
			ret = -EAGAIN;
		} else {
			ret = fail(err, err_len, "cannot rename the new file to", target, errno);
		}
		goto out;
	}
	free(tmp);
	tmp = NULL;
	/* the new file is in place; this makes the rename itself durable */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (ops->fsync(ops->arg, dfd) && errno != EINVAL)
			ret = fail(err, err_len, "cannot sync the directory", dir, errno);
		close(dfd);
	}
out:
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	free(dir);
	free(target);
	return ret;
}
