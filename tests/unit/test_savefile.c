// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saving a file of ours. The rules first: which texts are ours
 * (ns_savefile_kind(), against what the writers write), a file of ours is
 * replaced only when asked (-EEXIST otherwise), and nothing else ever is:
 * a file that is not ours, the open trace (under any name), /dev/null, a
 * FIFO, a socket, a directory, a link to nothing; a link to a file of ours
 * is followed; stale temporary files of ours are removed, nothing else.
 *
 * Then the write under failure: ns_savefile_write() through fake system
 * calls that fail the Nth call (write, fsync, close, rename, the
 * directory's fsync), write a byte at a time, or run out of space half way.
 * Whatever fails, the file holds either the whole old text or, once the
 * rename went through, the whole new text, and no temporary file is left
 * beside it. Also a session and a filter file saved through the same path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>

#include "nurseshark/filter.h"
#include "nurseshark/session.h"
#include "nurseshark/util.h"
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

static int f_rename(void *arg, const char *from, const char *to, int noreplace)
{
	struct faults *f = arg;

	if (fault(f, OP_RENAME))
		return -1;
	if (noreplace ? renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) :
	    rename(from, to))
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
static const char *old = NS_SESSION_MARK " old text\n";

/* Write @new over the old text, the @n-th call failing with @e; 1 if that did harm. */
static int fail_call(const char *path, const char *dir, struct ns_savefile_ops *ops,
		     struct faults *f, const char *new, int short_writes, int n, int e,
		     int *kinds_seen)
{
	const char *kind;
	char err[256], *now;
	int ret;

	put(path, old);
	memset(f, 0, sizeof(*f));
	f->fail_at = n;
	f->fail_errno = e;
	f->short_writes = short_writes;
	struct ns_save how = { NS_SAVE_REPLACE, NULL, ops };

	ops->arg = f;
	ret = ns_savefile_write(path, new, strlen(new), &how, err, sizeof(err));
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

/* ---- the rules ---------------------------------------------------------------- */

static int kind_of(const char *text)
{
	return ns_savefile_kind(text, strlen(text));
}

static char *session_text(void)
{
	static char buf[4096];
	struct ns_session s;
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	ns_session_init(&s);
	s.have = NS_SESS_FOLLOW | NS_SESS_INFO_SCROLL | NS_SESS_FILTERS;
	ns_session_write(&s, f);
	fputc('\0', f);
	fclose(f);
	ns_session_free(&s);
	return buf;
}

static char *filters_text(void)
{
	static char buf[4096];
	struct ns_filter_set *fs = ns_filter_set_alloc();
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	ns_filters_write(fs, f);
	fputc('\0', f);
	fclose(f);
	ns_filter_set_free(fs);
	return buf;
}

static void kinds(void)
{
	static const char *const not_ours[] = {
		"",
		"\n\n; only a comment\n",
		"hello\n",
		"[display]\ntime-format = nsec\n",		/* config.ini */
		"; nurseshark config\n[keys]\nquit = Q\n",
		"[view]\nwindow = 1 2\n[display]\nglyphs = ascii\n",
		"window = 1 2\n[view]\n",			/* an entry before any section */
		"[view]\nthis is prose, not INI\n",
		"[view]\nwindow = 1\0 2\n",
		"\x17\x08\x44tracing6\n",			/* a trace.dat's start */
		"#!/bin/sh\nrm -rf /\n",
	};
	const char *text;
	unsigned i;
	int bad = 0;

	text = session_text();
	CHECK(kind_of(text) == NS_SAVEFILE_SESSION, "a session as ns_session_write() writes it "
	      "is ours (a session): '%.30s'", text);
	text = filters_text();
	CHECK(kind_of(text) == NS_SAVEFILE_FILTERS, "a filter file as ns_filters_write() writes "
	      "it is ours (a filter file): '%.30s'", text);
	CHECK(kind_of("[view]\nwindow = 1 2\n\n  [markers] ; two\r\na = none\n") ==
	      NS_SAVEFILE_SESSION && kind_of("# mine\n[filters]\ntask = hide both 1\n"
	      "advanced = show both sched/sched_switch: prev_pid == 0\n\t\" continued\"\n") ==
	      NS_SAVEFILE_FILTERS, "without the first line (written or edited by hand), INI of "
	      "a session's or a filter file's sections alone is ours");
	for (i = 0; i < NS_ARRAY_SIZE(not_ours); i++) {
		size_t len = i == 8 ? 24 : strlen(not_ours[i]);

		if (ns_savefile_kind(not_ours[i], len) != NS_SAVEFILE_NOT_OURS) {
			printf("  taken for ours: '%s'\n", not_ours[i]);
			bad++;
		}
	}
	CHECK(!bad, "not ours: empty, comments alone, prose, config.ini, other sections, an "
	      "entry before a section, a NUL, a trace, a script (%u texts)", i);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int same(const char *path, const char *text)
{
	const char *now = slurp(path);

	return now && !strcmp(now, text);
}

/* A file with mtime @age seconds ago. */
static void aged(const char *path, const char *text, int age)
{
	struct timespec ts[2] = { { time(NULL) - age, 0 }, { time(NULL) - age, 0 } };

	write_file(path, text);
	utimensat(AT_FDCWD, path, ts, 0);
}

static void rules(const char *top)
{
	char dir[80], p[400], q[400], err[512];
	const char *ours = NS_SESSION_MARK " mine\n[view]\n", *mine = "my notes\n";
	struct ns_save ask = { .flags = 0 }, replace = { .flags = NS_SAVE_REPLACE };
	struct ns_session_trace_id trace;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	int ret, fd;

	kinds();
	snprintf(dir, sizeof(dir), "%s/rules", top);
	mkdir(dir, 0700);

	/* a new name */
	snprintf(p, sizeof(p), "%s/new.ini", dir);
	ret = ns_savefile_write(p, ours, strlen(ours), NULL, err, sizeof(err));
	CHECK(!ret && same(p, ours) && !stat(p, &st) && (st.st_mode & 0777) == 0600,
	      "a new file is written (mode 0600) without a question");

	/* one of ours: asked, then replaced */
	ret = ns_savefile_write(p, "x", 1, &ask, err, sizeof(err));
	CHECK(ret == -EEXIST && same(p, ours) && strstr(err, "new.ini exists (a nurseshark "
	      "session)"), "a file of ours is not replaced unasked: -EEXIST, '%s'", err);
	write_file(p, NS_FILTERS_MARK "\n");
	ret = ns_savefile_write(p, "x", 1, NULL, err, sizeof(err));
	CHECK(ret == -EEXIST && strstr(err, "(a nurseshark filter file)"),
	      "the question says which kind of file it is: '%s'", err);
	ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(!ret && same(p, ours), "with NS_SAVE_REPLACE a file of ours is replaced");

	/* not ours: never, even when asked to replace */
	snprintf(q, sizeof(q), "%s/notes.txt", dir);
	write_file(q, mine);
	ret = ns_savefile_write(q, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && same(q, mine) && strstr(err, "not a nurseshark"),
	      "a file that is not ours is never replaced, even with NS_SAVE_REPLACE: '%s'", err);
	write_file(q, "");
	ret = ns_savefile_write(q, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && same(q, ""), "nor an empty file");
	chmod(q, 0200);
	ret = geteuid() ? ns_savefile_write(q, ours, strlen(ours), &replace, err,
					    sizeof(err)) : -EPERM;
	CHECK(ret == -EPERM, "nor one that cannot be read (%s)", geteuid() ? err : "root: skipped");
	chmod(q, 0600);

	/* the open trace, by another name: a hard link to it, of our text even */
	write_file(q, ours);
	ns_session_trace_id_get(q, &trace);
	snprintf(p, sizeof(p), "%s/trace-link.ini", dir);
	link(q, p);
	ret = ns_savefile_write(p, "x", 1, &(struct ns_save){ NS_SAVE_REPLACE, &trace, NULL },
				err, sizeof(err));
	CHECK(ret == -EPERM && same(q, ours) && strstr(err, "is the trace open"),
	      "the open trace is never written, whatever its name says (st_dev, st_ino): '%s'",
	      err);
	ns_session_trace_id_free(&trace);

	/* what is not a regular file */
	ret = ns_savefile_write("/dev/null", ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && !stat("/dev/null", &st) && S_ISCHR(st.st_mode) &&
	      strstr(err, "device"), "/dev/null is refused and stays a device: '%s'", err);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	mkfifo(p, 0600);
	ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && !lstat(p, &st) && S_ISFIFO(st.st_mode) && strstr(err, "FIFO"),
	      "a FIFO is refused at once (never opened) and stays: '%s'", err);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/sock", dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	ret = ns_savefile_write(sun.sun_path, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && !lstat(sun.sun_path, &st) && S_ISSOCK(st.st_mode),
	      "a socket is refused: '%s'", err);
	close(fd);
	unlink(sun.sun_path);
	ret = ns_savefile_write(dir, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EISDIR && strstr(err, "is a directory"), "a directory: -EISDIR, '%s'", err);

	/* links: followed to a file of ours, refused to anything else */
	snprintf(p, sizeof(p), "%s/to-notes.ini", dir);
	write_file(q, mine);
	symlink("notes.txt", p);
	ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && same(q, mine) && !lstat(p, &st) && S_ISLNK(st.st_mode) &&
	      strstr(err, "through the link"), "a link to a file not ours: refused, the file "
	      "and the link stay: '%s'", err);
	unlink(p);
	symlink("/dev/null", p);
	ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && !lstat(p, &st) && S_ISLNK(st.st_mode),
	      "a link to /dev/null: refused, the link stays");
	unlink(p);
	symlink("nowhere/x.ini", p);
	ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
	CHECK(ret == -EPERM && !lstat(p, &st) && S_ISLNK(st.st_mode) && strstr(err, "to nothing"),
	      "a link to nothing is not followed: '%s'", err);
	unlink(p);

	/* stale temporary files: ours and a minute old go, nothing else */
	{
		static const struct { const char *name, *text; int age, gone; } tmps[] = {
			{ ".s.ini.Ab3xYz", NS_SESSION_MARK " killed\n[view]\n", 120, 1 },
			{ ".f.ini.000000", NS_FILTERS_MARK " killed\n", 61 + 5, 1 },
			{ ".e.ini.QQQQQQ", "", 300, 1 },
			{ ".s.ini.Fresh1", NS_SESSION_MARK " being written\n", 0, 0 },
			{ ".n.ini.Ab3xYz", "not ours\n", 600, 0 },
			{ ".n.ini.Ab3-yz", NS_SESSION_MARK "\n", 600, 0 },
			{ "s.ini.Ab3xYz", NS_SESSION_MARK "\n", 600, 0 },
			{ ".s.ini.Ab3xYzW", NS_SESSION_MARK "\n", 600, 0 },
		};
		unsigned i;
		int bad = 0;

		for (i = 0; i < NS_ARRAY_SIZE(tmps); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, tmps[i].name);
			aged(p, tmps[i].text, tmps[i].age);
		}
		snprintf(p, sizeof(p), "%s/new.ini", dir);
		ret = ns_savefile_write(p, ours, strlen(ours), &replace, err, sizeof(err));
		for (i = 0; i < NS_ARRAY_SIZE(tmps); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, tmps[i].name);
			if ((access(p, F_OK) != 0) != tmps[i].gone) {
				printf("  %s: %s\n", tmps[i].name,
				       tmps[i].gone ? "left" : "removed");
				bad++;
			}
		}
		CHECK(!ret && !bad, "a save removes the temporary files of ours a killed save "
		      "left (.NAME.XXXXXX, a minute old, empty or begun by our first line), "
		      "and no other");
		for (i = 0; i < NS_ARRAY_SIZE(tmps); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, tmps[i].name);
			unlink(p);
		}
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(!system(p), "cleaned up %s", dir);
}

/* The Record screen's settings: written as ours, read back the same, never over a file not ours. */
static void record_settings(const char *dir)
{
	struct ns_record_settings s, back;
	char path[256], err[256];
	struct ns_diag d;
	const char *text;
	int ret;

	ns_record_settings_init(&s);
	snprintf(s.events, sizeof(s.events), "sched:sched_switch irq all");
	s.buffer_kb = 4096;
	snprintf(s.clock, sizeof(s.clock), "mono");
	snprintf(s.buffers, sizeof(s.buffers), "-B net -e net -b 1024 -B b2 -e irq -C global");
	snprintf(s.command, sizeof(s.command), "echo \"a;b\" > /tmp/x # not a comment\\");
	s.duration = 2.5;
	snprintf(s.output, sizeof(s.output), "out dir/t.dat");
	snprintf(path, sizeof(path), "%s/rec/nurseshark/record.ini", dir);
	ret = ns_record_settings_save(&s, path, err, sizeof(err));
	text = slurp(path);
	CHECK(!ret && text && kind_of(text) == NS_SAVEFILE_RECORD,
	      "the Record screen's settings are saved (their directory made) as a file of ours: %s",
	      ret ? err : "");
	ns_diag_init(&d);
	ns_record_settings_init(&back);
	ret = ns_record_settings_read(&back, path, &d);
	CHECK(!ret && !ns_diag_count(&d) && !strcmp(back.events, s.events) &&
	      back.buffer_kb == 4096 && !strcmp(back.clock, "mono") &&
	      !strcmp(back.buffers, s.buffers) && !strcmp(back.command, s.command) && back.duration == 2.5 &&
	      !strcmp(back.output, s.output), "they read back the same ('%s', '%s')",
	      back.command, back.output);
	ns_diag_free(&d);
	ret = ns_record_settings_save(&s, path, err, sizeof(err));
	CHECK(!ret, "saved again over its own file: %s", ret ? err : "");
	snprintf(path, sizeof(path), "%s/rec/nurseshark/notes.txt", dir);
	write_file(path, "mine\n");
	ret = ns_record_settings_save(&s, path, err, sizeof(err));
	CHECK(ret == -EPERM && same(path, "mine\n"), "never over a file not ours (%d: %s)", ret,
	      err);
	/* the directory as it was, for the checks that count its files */
	unlink(path);
	snprintf(path, sizeof(path), "%s/rec/nurseshark/record.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/rec/nurseshark", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/rec", dir);
	rmdir(path);
}

int main(void)
{
	char dir[] = "/tmp/ns-savefile-XXXXXX", path[256], link[256], err[256], *now;
	struct ns_savefile_ops ops = { f_write, f_fsync, f_close, f_rename, NULL };
	struct ns_save how = { NS_SAVE_REPLACE, NULL, &ops };
	struct ns_save replace = { .flags = NS_SAVE_REPLACE };
	static char big[100000];
	struct faults f;
	int n, total, bad, ret, kinds_seen = 0;
	const char *new;
	struct stat st;

	if (!mkdtemp(dir)) {
		FAIL("mkdtemp: %s", strerror(errno));
		return 1;
	}
	rules(dir);
	record_settings(dir);
	snprintf(path, sizeof(path), "%s/session.ini", dir);
	memset(big, 'x', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	new = big;

	/* how many calls a successful write makes, one byte at a time */
	put(path, old);
	memset(&f, 0, sizeof(f));
	f.short_writes = 1;
	ops.arg = &f;
	ret = ns_savefile_write(path, "0123456789\n", 11, &how, err, sizeof(err));
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
		ret = ns_savefile_write(path, new, strlen(new), &how, err, sizeof(err));
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
	ret = ns_savefile_write(path, "", 0, &how, err, sizeof(err));
	CHECK(!ret && slurp(path) && !*slurp(path), "an empty file can be written");

	/* the mode of the file it replaces is kept */
	put(path, old);
	chmod(path, 0640);
	ret = ns_savefile_write(path, NS_SESSION_MARK "\n", 22, &replace, err, sizeof(err));
	CHECK(!ret && !stat(path, &st) && (st.st_mode & 07777) == 0640,
	      "the real system calls: the file is replaced and keeps its mode 0640");

	/* through a symbolic link to a file of ours: the target is replaced, the link stays */
	snprintf(link, sizeof(link), "%s/link.ini", dir);
	symlink("session.ini", link);
	ret = ns_savefile_write(link, NS_FILTERS_MARK " via link\n",
				strlen(NS_FILTERS_MARK " via link\n"), &replace, err, sizeof(err));
	CHECK(!ret && !lstat(link, &st) && S_ISLNK(st.st_mode) && slurp(path) &&
	      !strcmp(slurp(path), NS_FILTERS_MARK " via link\n"),
	      "a symbolic link to a file of ours is followed: its target is replaced");
	unlink(link);

	/* a directory that is not there */
	snprintf(link, sizeof(link), "%s/no/such/dir/x.ini", dir);
	ret = ns_savefile_write(link, "x", 1, NULL, err, sizeof(err));
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
		ret = ns_session_save(&s, path, &replace, err, sizeof(err));
		snprintf(saved, sizeof(saved), "%s", slurp(path) ? slurp(path) : "");
		s.info_scroll = 32;
		bad = 0;
		for (n = 1; n < 5; n++) {
			memset(&f, 0, sizeof(f));
			f.fail_at = n;
			f.fail_errno = ENOSPC;
			ops.arg = &f;
			if (!ns_session_save(&s, path, &how, err, sizeof(err)) && !f.renamed)
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
