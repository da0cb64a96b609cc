// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace cut shorter while it is open (recorded over under the same name):
 * reading its events must give -ESTALE and ns_trace_changed(), never kill
 * the process (with mmap()ed pages it was SIGBUS, from the list's draw).
 * Each trace is copied, opened and indexed, then the copy is cut with
 * ftruncate() and every event is read back, last first, in a child process,
 * so that a crash is a failed check and not a dead test.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nurseshark/trace.h"
#include "nurseshark/trace_sched.h"
#include "../../src/trace/pages.h"
#include "../../src/trace/trace-int.h"
#include "traces.h"

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n = 0;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		n = -1;
	return in < 0 || out < 0 || n < 0 ? -1 : 0;
}

/*
 * In the child: open @copy (which indexes it: every page is read once), cut
 * the file to @keep bytes, read every row from the last. A page read before
 * the cut may still be in a reader's buffer: the first rows read are those
 * of the last pages, which are gone. Exit codes: 0 some read gave -ESTALE,
 * every failure was -ESTALE, and ns_trace_changed() says so; 10 + n: which
 * step went wrong.
 */
static int cut_and_read(const char *copy, off_t keep)
{
	char err[256] = "";
	struct ns_trace *t = ns_trace_open(copy, err, sizeof(err));
	struct ns_event_text txt = { 0 };
	uint64_t row, n, stale = 0;
	struct ns_pos pos;
	int fd, ret;

	if (!t)
		return 10;
	n = ns_trace_nr_events(t);
	if (!n)
		return 11;
	if (ns_trace_changed(t))
		return 12;
	fd = open(copy, O_WRONLY);
	if (fd < 0 || ftruncate(fd, keep) || close(fd))
		return 13;
	for (row = n; row-- > 0;) {
		if (ns_trace_rows(t, row, 1, &pos) != 1)
			return 14;
		ret = ns_trace_format(t, pos.cpu, pos.idx, &txt);
		if (ret == -ESTALE)
			stale++;
		else if (ret) {
			printf("  row %llu: %s\n", (unsigned long long)row, strerror(-ret));
			return 15;
		}
	}
	if (!stale || !ns_trace_changed(t))
		return 16;
	/* the index still answers; an export says it failed */
	if (ns_trace_nr_events(t) != n ||
	    ns_trace_export(t, fopen("/dev/null", "w"), 0, n) == 0)
		return 17;
	ns_event_text_free(&txt);
	ns_trace_close(t);
	return 0;
}

/*
 * In the child, for the event index under a small budget (issue 14): open
 * @copy with --index-memory 8M, read every event of every CPU, keep the
 * first event of each, then read the second half of each CPU (so that the
 * first chunks are evicted: the budget holds far fewer than the file has), cut the file to @keep bytes
 * and read those events again. A chunk read again from the cut file must
 * give an error (and ns_trace_changed()), never events of timestamp 0; a
 * chunk still in memory gives the kept event. Exit codes as cut_and_read's.
 */
static int cut_evicted(const char *copy, off_t keep)
{
	struct ns_trace_open_opts opts = { .index_memory = 8 << 20 };
	struct ns_event first[256], ev;
	uint64_t idx, n, failed = 0, whole;
	char err[256] = "";
	struct ns_trace *t = ns_trace_open_async_opts(copy, &opts, err, sizeof(err));
	int cpu, fd, ret, nr_cpus;
	struct ns_pos pos;

	if (!t || ns_trace_wait(t, err, sizeof(err)))
		return 10;
	nr_cpus = ns_trace_nr_cpus(t);
	if (nr_cpus > 256)
		return 11;
	n = ns_trace_nr_events(t);
	/* 8 bytes an event whole: the budget must hold well under it, or nothing is evicted */
	whole = 8 * n;
	if (ns_trace_index_bytes(t) > whole / 2) {
		printf("  index %zu bytes of %llu whole: nothing evicted\n",
		       ns_trace_index_bytes(t), (unsigned long long)whole);
		return 12;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t nr = ns_trace_cpu_nr_events(t, cpu);

		for (idx = nr; idx-- > 0;)
			if (ns_trace_event(t, cpu, idx, idx ? &ev : &first[cpu]))
				return 13;
	}
	/* then the second half of each CPU: every first chunk is pushed out */
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t nr = ns_trace_cpu_nr_events(t, cpu);

		for (idx = nr / 2; idx < nr; idx++)
			if (ns_trace_event(t, cpu, idx, &ev))
				return 13;
	}
	if (ns_trace_changed(t))
		return 14;
	fd = open(copy, O_WRONLY);
	if (fd < 0 || ftruncate(fd, keep) || close(fd))
		return 15;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!ns_trace_cpu_nr_events(t, cpu))
			continue;
		ret = ns_trace_event(t, cpu, 0, &ev);
		if (ret == -ESTALE) {
			failed++;
		} else if (ret || ev.ts_ns != first[cpu].ts_ns || ev.pid != first[cpu].pid ||
			   ev.type != first[cpu].type) {
			printf("  CPU %d event 0: %s, ts %llu (was %llu)\n", cpu,
			       ret ? strerror(-ret) : "read", (unsigned long long)ev.ts_ns,
			       (unsigned long long)first[cpu].ts_ns);
			return 16;
		}
	}
	/* the list's first row: its event, or the error, never a row at time 0 */
	ret = ns_trace_row_event(t, 0, &pos, &ev);
	if (!ret && ev.ts_ns != first[pos.cpu].ts_ns)
		return 17;
	if (!failed || !ns_trace_changed(t))
		return 18;
	ns_trace_close(t);
	return 0;
}

static int count_event(void *arg, const struct ns_sched_event *ev)
{
	(void)ev;
	++*(uint64_t *)arg;
	return 0;
}

/*
 * A v6 trace rewritten in place, at the same size: open @copy with
 * @budget bytes of index, move every page of CPU 0 a microsecond later (the
 * page header's timestamp, its first 8 bytes) and scan CPU 0's scheduler
 * events. The scan reads the pages without reading them again through the
 * index; it must still find that the file is not what was indexed (-EIO),
 * never hand on the moved events. Exit codes as cut_and_read's.
 */
static int moved_and_scanned(const char *copy, off_t budget)
{
	struct ns_trace_open_opts opts = { .index_memory = (uint64_t)budget };
	char err[256] = "";
	struct ns_trace *t = ns_trace_open_async_opts(copy, &opts, err, sizeof(err));
	uint64_t n, page, nr_pages, seen = 0, ts;
	int fd, ret;

	if (!t || ns_trace_wait(t, err, sizeof(err)) || !t->pages)
		return 10;
	n = ns_trace_cpu_nr_events(t, 0);
	if (n < 1000 || ns_trace_sched_scan(t, 0, 0, n, NS_SCHED_SCAN_ALL, count_event, &seen) ||
	    seen != n)
		return 11;
	nr_pages = ns_pages_nr_pages(t->pages, 0);
	fd = open(copy, O_RDWR);
	if (fd < 0)
		return 12;
	for (page = 0; page < nr_pages; page++) {
		off_t at = (off_t)ns_pages_page_offset(t->pages, 0, page);

		if (pread(fd, &ts, 8, at) != 8)
			return 13;
		ts += 1000;
		if (pwrite(fd, &ts, 8, at) != 8)
			return 13;
	}
	if (close(fd))
		return 13;
	seen = 0;
	ret = ns_trace_sched_scan(t, 0, 0, n, NS_SCHED_SCAN_ALL, count_event, &seen);
	printf("  budget %lld: the scan returned %d after %llu events\n", (long long)budget, ret,
	       (unsigned long long)seen);
	if (ret != -EIO || seen > NS_EV_GROUP)
		return 14;
	ns_trace_close(t);
	return 0;
}

static void one_with(int (*child)(const char *copy, off_t keep), const char *path,
		     const char *how, off_t keep)
{
	char copy[] = "/tmp/ns-test-changed-XXXXXX";
	int fd = mkstemp(copy), status, ret;
	pid_t pid;

	if (fd < 0 || close(fd) || copy_file(path, copy)) {
		FAIL("%s: cannot copy it to %s", base_name(path), copy);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit((ret = child(copy, keep), fflush(stdout), ret));
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		FAIL("%s, %s: no child", base_name(path), how);
	} else if (WIFSIGNALED(status)) {
		FAIL("%s, %s: killed by signal %d", base_name(path), how, WTERMSIG(status));
	} else {
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s, %s: the change is found, and said (step %d)",
		      base_name(path), how, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	unlink(copy);
}

static void one(const char *path, const char *how, off_t keep)
{
	one_with(cut_and_read, path, how, keep);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	const char *shared = check_shared();
	char path[8192];
	struct stat st;

	/* v6: the pages lie in the file uncompressed, as the kernel wrote them */
	if (shared) {
		snprintf(path, sizeof(path), "%s/traces/sched-v6.dat", shared);
		if (stat(path, &st) == 0) {
			one(path, "v6 cut by 8 KiB", st.st_size - 8192);
			one(path, "v6 cut to half", st.st_size / 2);
			one_with(moved_and_scanned, path,
				 "v6 moved in place, the whole index in memory", INT64_MAX);
			one_with(moved_and_scanned, path,
				 "v6 moved in place, the least index memory", 1);
		} else {
			SKIP("sched-v6.dat: not in %s/traces", shared);
		}
	} else {
		SKIP("v6: %s not found", getenv("NS_SHARED") ? getenv("NS_SHARED") : "../shared");
	}
	/* the index under a budget: chunks evicted, then the file cut */
	if (shared) {
		snprintf(path, sizeof(path), "%s/traces/big.dat", shared);
		if (stat(path, &st) == 0)
			one_with(cut_evicted, path, "v7 under --index-memory 8M, evicted, cut to a tenth",
				 st.st_size / 10);
		else
			SKIP("big.dat: not in %s/traces", shared);
	}
	/* v7 zstd: chunks read with pread() */
	snprintf(path, sizeof(path), "%s/contrib/sample.dat", top);
	if (stat(path, &st) == 0)
		one(path, "v7 zstd cut to half", st.st_size / 2);
	else
		FAIL("sample.dat: not at %s", path);
	return check_failures ? 1 : 0;
}
