// SPDX-License-Identifier: GPL-2.0-only
/*
 * Atomic writes under failure: ns_file_write_atomic() through fake system
 * calls that fail the Nth call (write, fsync, close, rename, the
 * directory's fsync), write a byte at a time, or run out of space half way.
 * Whatever fails, the file holds either the whole old text or, once the
 * rename went through, the whole new text, and no temporary file is left
 * beside it. Also a session and a filter file saved through the same path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "nurseshark/session.h"
#include "check.h"

enum { OP_WRITE, OP_FSYNC, OP_CLOSE, OP_RENAME, NR_OPS };

struct faults {
	int calls;		/* system calls so far, of every kind */
	int fail_at;		/* fail call number fail_at (1-based); 0: never */
	int fail_errno;
	int short_writes;	/* write at most one byte per call */
	int renamed;
	int kinds[64];		/* which kind call i was */
};

static int fault(struct faults *f, int kind)
{
	if (f->calls < 64)
		f->kinds[f->calls] = kind;
	f->calls++;
	if (f->fail_at && f->calls == f->fail_at) {
		errno = f->fail_errno;
		return 1;
	}
	return 0;
}

static ssize_t f_write(void *arg, int fd, const void *buf, size_t len)
{
	struct faults *f = arg;

	if (fault(f, OP_WRITE))
		return -1;
	return write(fd, buf, f->short_writes && len > 1 ? 1 : len);
}

static int f_fsync(void *arg, int fd)
{
	return fault(arg, OP_FSYNC) ? -1 : fsync(fd);
}

static int f_close(void *arg, int fd)
{
	/* a failed close still closes, as close(2) does on Linux */
	int failed = fault(arg, OP_CLOSE), e = errno;

	close(fd);
	errno = e;
	return failed ? -1 : 0;
}

static int f_rename(void *arg, const char *from, const char *to)
{
	struct faults *f = arg;

	if (fault(f, OP_RENAME))
		return -1;
	if (rename(from, to))
		return -1;
	f->renamed = 1;
	return 0;
}

static char *slurp(const char *path)
{
	static char buf[1 << 17];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

/* Files in @dir other than "." and ".." */
static int nr_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static const char *const kind_name[] = { "write", "fsync", "close", "rename" };
static const char *old = "old text\n";

/* Write @new over the old text, the @n-th call failing with @e; 1 if that did harm. */
static int fail_call(const char *path, const char *dir, struct ns_file_ops *ops, struct faults *f,
		     const char *new, int short_writes, int n, int e, int *kinds_seen)
{
	const char *kind;
	char err[256], *now;
	int ret;

	put(path, old);
	memset(f, 0, sizeof(*f));
	f->fail_at = n;
	f->fail_errno = e;
	f->short_writes = short_writes;
	ops->arg = f;
	ret = ns_file_write_atomic(path, new, strlen(new), ops, err, sizeof(err));
	now = slurp(path);
	*kinds_seen |= 1 << f->kinds[n - 1];
	kind = kind_name[f->kinds[n - 1]];
	if (!ret || !now) {
		printf("  call %d (%s): ret %d, file %s\n", n, kind, ret, now ? "there" : "gone");
	} else if (!f->renamed && strcmp(now, old)) {
		printf("  call %d (%s) failed before the rename: the old file is not intact\n", n,
		       kind);
	} else if (f->renamed && strcmp(now, new)) {
		printf("  call %d: after the rename the file is not the new text\n", n);
	} else if (nr_files(dir) != 1) {
		printf("  call %d (%s): %d files left in the directory\n", n, kind, nr_files(dir));
	} else if (!strstr(err, strerror(e))) {
		printf("  call %d: the message '%s' does not say why\n", n, err);
	} else {
		return 0;
	}
	return 1;
}

int main(void)
{
	char dir[] = "/tmp/ns-atomic-XXXXXX", path[256], link[256], err[256], *now;
	struct ns_file_ops ops = { f_write, f_fsync, f_close, f_rename, NULL };
	static char big[100000];
	struct faults f;
	int n, total, bad, ret, kinds_seen = 0;
	const char *new;
	struct stat st;

	if (!mkdtemp(dir)) {
		FAIL("mkdtemp: %s", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/session.ini", dir);
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	new = big;

	/* how many calls a successful write makes, one byte at a time */
	put(path, old);
	memset(&f, 0, sizeof(f));
	f.short_writes = 1;
	ops.arg = &f;
	ret = ns_file_write_atomic(path, "0123456789\n", 11, &ops, err, sizeof(err));
	now = slurp(path);
	CHECK(!ret && now && !strcmp(now, "0123456789\n"),
	      "a write taken one byte at a time completes (%d calls)", f.calls);

	/*
	 * Every call can fail: a big text written in one call, and a short one
	 * written a byte per call, so that a failure can also come half way.
	 */
	bad = 0;
	for (int mode = 0; mode < 2; mode++) {
		new = mode ? "new text\nwritten a byte at a time\n" : big;
		put(path, old);
		memset(&f, 0, sizeof(f));
		f.short_writes = mode;
		ops.arg = &f;
		ret = ns_file_write_atomic(path, new, strlen(new), &ops, err, sizeof(err));
		total = f.calls;
		CHECK(!ret && slurp(path) && !strcmp(slurp(path), new) && nr_files(dir) == 1,
		      "without a fault the new text replaces the old (%s: %d system calls)",
		      mode ? "a byte per write" : "one write", total);
		for (n = 1; n <= total; n++) {
			bad += fail_call(path, dir, &ops, &f, new, mode, n, ENOSPC, &kinds_seen);
			bad += fail_call(path, dir, &ops, &f, new, mode, n, EIO, &kinds_seen);
		}
	}
	CHECK(!bad, "a failure (ENOSPC, EIO) of any call leaves the old file whole, or the new "
	      "one after the rename, and no temporary file");
	CHECK(kinds_seen == (1 << NR_OPS) - 1, "the faults hit every kind of call (write, fsync, "
	      "close, rename)");

	/* a write that returns 0 (a full disk that says nothing) is a failure too */
	put(path, old);
	memset(&f, 0, sizeof(f));
	ret = ns_file_write_atomic(path, "", 0, &ops, err, sizeof(err));
	CHECK(!ret && slurp(path) && !*slurp(path), "an empty file can be written");

	/* the mode of the file it replaces is kept */
	put(path, old);
	chmod(path, 0640);
	ret = ns_file_write_atomic(path, "x\n", 2, NULL, err, sizeof(err));
	CHECK(!ret && !stat(path, &st) && (st.st_mode & 07777) == 0640,
	      "the real system calls: the file is replaced and keeps its mode 0640");

	/* through a symbolic link: the target is replaced, the link stays */
	snprintf(link, sizeof(link), "%s/link.ini", dir);
	symlink("session.ini", link);
	ret = ns_file_write_atomic(link, "via link\n", 9, NULL, err, sizeof(err));
	CHECK(!ret && !lstat(link, &st) && S_ISLNK(st.st_mode) && slurp(path) &&
	      !strcmp(slurp(path), "via link\n"), "a symbolic link is written through");
	unlink(link);

	/* a directory that is not there */
	snprintf(link, sizeof(link), "%s/no/such/dir/x.ini", dir);
	ret = ns_file_write_atomic(link, "x", 1, NULL, err, sizeof(err));
	CHECK(ret == -ENOENT && strstr(err, "no/such/dir"), "a missing directory: -ENOENT "
	      "and a message naming it (%s)", err);

	/* a session saved with a fault in every call keeps the previous session */
	{
		struct ns_session s;
		struct ns_diag d;
		char saved[1 << 12];

		ns_session_init(&s);
		s.have = NS_SESS_FOLLOW | NS_SESS_INFO_SCROLL;
		s.graph_follows = 0;
		s.info_scroll = 24;
		ret = ns_session_save(&s, path, NULL, err, sizeof(err));
		snprintf(saved, sizeof(saved), "%s", slurp(path) ? slurp(path) : "");
		s.info_scroll = 32;
		bad = 0;
		for (n = 1; n < 5; n++) {
			memset(&f, 0, sizeof(f));
			f.fail_at = n;
			f.fail_errno = ENOSPC;
			ops.arg = &f;
			if (!ns_session_save(&s, path, &ops, err, sizeof(err)) && !f.renamed)
				bad++;
			if (!f.renamed && (!slurp(path) || strcmp(slurp(path), saved)))
				bad++;
		}
		ns_session_free(&s);
		ns_session_init(&s);
		ns_diag_init(&d);
		ns_session_read(&s, path, &d);
		CHECK(!ret && !bad && s.info_scroll == 24 && !ns_diag_count(&d),
		      "a session save that fails leaves the session saved before, readable");
		ns_session_free(&s);
		ns_diag_free(&d);
	}

	unlink(path);
	rmdir(dir);
	return check_failures ? 1 : 0;
}
