// SPDX-License-Identifier: GPL-2.0-only
/*
 * Atomic replacement of a file: the new text goes to a temporary file in the
 * same directory, which is written in full, fsync'ed, closed and renamed
 * over the old name; then the directory is fsync'ed so that the rename
 * itself survives a crash. rename() within a file system is atomic, so the
 * name always holds either the whole old file or the whole new one. On any
 * failure before the rename the temporary file is removed and the old file
 * was never touched. A name that is a symbolic link (a config kept in a
 * dotfiles repository) is written through: the link's target is replaced.
 *
 * The system calls go through struct ns_file_ops so that a test can make
 * any one of them fail, or write only part of what it was given.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nurseshark/session.h"

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

static int real_rename(void *arg, const char *from, const char *to)
{
	return rename(from, to);
}

static const struct ns_file_ops real_ops = {
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

int ns_file_write_atomic(const char *path, const void *data, size_t len,
			 const struct ns_file_ops *ops, char *err, size_t err_len)
{
	const char *p = data, *slash;
	char *target = NULL, *tmp = NULL, *dir = NULL;
	struct stat st;
	int fd = -1, dfd, ret = 0, e;
	mode_t mode = 0600;

	if (!ops)
		ops = &real_ops;
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		target = realpath(path, NULL);
	if (!target)
		target = strdup(path);
	if (!target)
		return fail(err, err_len, "cannot write", path, ENOMEM);
	if (!stat(target, &st))
		mode = st.st_mode & 07777;
	slash = strrchr(target, '/');
	dir = slash ? strndup(target, slash == target ? 1 : slash - target) : strdup(".");
	if (!dir || asprintf(&tmp, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : target) < 0) {
		tmp = NULL;
		ret = fail(err, err_len, "cannot write", path, ENOMEM);
		goto out;
	}
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
	if (ops->rename(ops->arg, tmp, target)) {
		ret = fail(err, err_len, "cannot rename the new file to", target, errno);
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
