// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recorder's data path: each CPU's ring buffer is read a sub-buffer at
 * a time from trace_pipe_raw (spliced, so only full sub-buffers while
 * recording, then the partial ones when flushing) into a temp file of whole
 * pages beside the output; the events of each page are counted on the way
 * for the progress line. At the end libtracecmd's writer turns the headers,
 * formats, kallsyms, printk formats, cmdlines, options and those temp files
 * into a trace.dat v7, laid out the way `trace-cmd record` lays it out:
 * write_headers, the clock/uname/version/traceid/CPU-stats options, the
 * cmdlines, the CPU count, then one flyrecord buffer per instance.
 * A page of the file is a sub-buffer of the ring buffer: the system's page
 * unless --subbuf-size made it bigger. libtracecmd's writer (3.1.6) puts
 * the top instance's sub-buffer size in the file's header (it reads the
 * kernel's events/header_page; getpagesize() without one) and aligns each
 * CPU's data to it: so --subbuf-size needs the top instance recorded
 * (record.c), and the header is read back after writing, to check that it
 * says the size of the pages written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <kbuffer.h>

#include "nurseshark/util.h"
#include "record-int.h"

static void remove_frozen_dir(struct ns_rec_buffer *buf);

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/**
 * ns_rec_open_cpus - open each CPU's ring buffer reader and its temp file
 * @buf: the buffer, ncpus set
 * @tmp_prefix: the temp files' path prefix, ".cpuN.XXXXXX" is appended
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err set (ns_rec_close_cpus() frees what was opened).
 */
int ns_rec_open_cpus(struct ns_rec_buffer *buf, const char *tmp_prefix, char *err, size_t errlen)
{
	int page = buf->page_size ? buf->page_size : getpagesize();

	buf->cpus = calloc((size_t)buf->ncpus, sizeof(*buf->cpus));
	if (!buf->cpus) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int cpu = 0; cpu < buf->ncpus; cpu++) {
		struct ns_rec_cpu *c = &buf->cpus[cpu];
		char name[64], *path;

		c->rfd = c->wfd = -1;
		c->page_size = page;
		snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		path = tracefs_instance_get_file(buf->inst, name);
		c->rfd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
		if (c->rfd < 0) {
			snprintf(err, errlen, "cannot open %s: %s", path ? path : name,
				 strerror(errno));
			tracefs_put_tracing_file(path);
			return -1;
		}
		tracefs_put_tracing_file(path);
		c->page = malloc((size_t)page);
		c->kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					KBUFFER_ENDIAN_SAME_AS_HOST);
		if (!c->page || !c->kbuf) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		c->tcpu = tracefs_cpu_alloc_fd(c->rfd, page, true);
		if (!c->tcpu) {
			snprintf(err, errlen, "cannot read CPU %d's ring buffer: %s", cpu,
				 strerror(errno));
			return -1;
		}
		if (asprintf(&c->path, "%s.%s%scpu%d.XXXXXX", tmp_prefix,
			     buf->name ? buf->name : "", buf->name ? "." : "", cpu) < 0) {
			c->path = NULL;
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		c->wfd = mkostemp(c->path, O_CLOEXEC);
		if (c->wfd < 0) {
			snprintf(err, errlen, "cannot create %s: %s", c->path, strerror(errno));
			free(c->path);
			c->path = NULL;
			return -1;
		}
	}
	return 0;
}

static unsigned long long count_events(struct kbuffer *kbuf, void *page)
{
	unsigned long long n = 0;

	if (kbuffer_load_subbuffer(kbuf, page) < 0)
		return 0;
	for (void *ev = kbuffer_read_event(kbuf, NULL); ev; ev = kbuffer_next_event(kbuf, NULL))
		n++;
	return n;
}

/* Append a copy of @page to @m (the reader thread). 0 or -ENOMEM. */
static int mem_add(struct ns_rec_mem *m, const void *page, size_t size, unsigned long long nev)
{
	void *copy = malloc(size);
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, page, size);
	pthread_mutex_lock(&m->lock);
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256, i;
		void **pages = malloc(cap * sizeof(*pages));
		unsigned long long *ts = malloc(cap * sizeof(*ts));
		unsigned int *nv = malloc(cap * sizeof(*nv));

		if (!pages || !ts || !nv) {
			free(pages);
			free(ts);
			free(nv);
			free(copy);
			ret = -ENOMEM;
			goto out;
		}
		/* unroll the ring into the new arrays, oldest first */
		for (i = 0; i < m->n; i++) {
			size_t j = (m->head + i) % m->cap;

			pages[i] = m->pages[j];
			ts[i] = m->ts[j];
			nv[i] = m->nev[j];
		}
		free(m->pages);
		free(m->ts);
		free(m->nev);
		m->pages = pages;
		m->ts = ts;
		m->nev = nv;
		m->cap = cap;
		m->head = 0;
	}
	{
		size_t j = (m->head + m->n) % m->cap;
		unsigned long long ts;

		memcpy(&ts, page, sizeof(ts));	/* the sub-buffer header's time stamp */
		m->pages[j] = copy;
		m->ts[j] = ts;
		m->nev[j] = (unsigned int)nev;
		m->n++;
		m->events += nev;
	}
out:
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/**
 * ns_rec_mem_init - hold @buf's pages in memory (live) instead of the temp files
 * @buf: the buffer, its CPUs open
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err set.
 */
int ns_rec_mem_init(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < buf->ncpus; cpu++) {
		struct ns_rec_mem *m = calloc(1, sizeof(*m));

		if (!m) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		pthread_mutex_init(&m->lock, NULL);
		buf->cpus[cpu].mem = m;
	}
	return 0;
}

static void mem_free(struct ns_rec_mem *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->pages[(m->head + i) % m->cap]);
	free(m->pages);
	free(m->ts);
	free(m->nev);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

/* Drop @m's oldest page; its lock is held. */
static void mem_drop_head(struct ns_rec_mem *m)
{
	free(m->pages[m->head]);
	m->events -= m->nev[m->head];
	m->trimmed += m->nev[m->head];
	m->head = (m->head + 1) % m->cap;
	m->n--;
}

/**
 * ns_rec_mem_trim - drop the oldest pages beyond --keep
 * @bufs: the buffers
 * @nbufs: their number
 * @keep_events: hold at most this many events over all CPUs (0: no bound)
 * @keep_ns: hold only pages of the last @keep_ns of the clock (0: no bound)
 *
 * A page at a time, the oldest first whichever CPU it is on, so that what
 * is held is the newest stretch of time every CPU has. Main thread only.
 */
void ns_rec_mem_trim(struct ns_rec_buffer *bufs, int nbufs, unsigned long long keep_events,
		     unsigned long long keep_ns)
{
	unsigned long long total = 0, newest = 0;

	for (int b = 0; b < nbufs; b++)
		for (int cpu = 0; cpu < bufs[b].ncpus; cpu++)
			pthread_mutex_lock(&bufs[b].cpus[cpu].mem->lock);
	for (int b = 0; b < nbufs; b++) {
		for (int cpu = 0; cpu < bufs[b].ncpus; cpu++) {
			struct ns_rec_mem *m = bufs[b].cpus[cpu].mem;

			total += m->events;
			if (m->n && m->ts[(m->head + m->n - 1) % m->cap] > newest)
				newest = m->ts[(m->head + m->n - 1) % m->cap];
		}
	}
	for (;;) {
		struct ns_rec_mem *oldest = NULL;

		for (int b = 0; b < nbufs; b++) {
			for (int cpu = 0; cpu < bufs[b].ncpus; cpu++) {
				struct ns_rec_mem *m = bufs[b].cpus[cpu].mem;

				if (m->n && (!oldest || m->ts[m->head] < oldest->ts[oldest->head]))
					oldest = m;
			}
		}
		if (!oldest)
			break;
		/* over the count, or wholly before the time kept (the next page starts before) */
		if (!(keep_events && total > keep_events) &&
		    !(keep_ns && oldest->n > 1 && newest > keep_ns &&
		      oldest->ts[(oldest->head + 1) % oldest->cap] < newest - keep_ns))
			break;
		total -= oldest->nev[oldest->head];
		mem_drop_head(oldest);
	}
	for (int b = nbufs - 1; b >= 0; b--)
		for (int cpu = bufs[b].ncpus - 1; cpu >= 0; cpu--)
			pthread_mutex_unlock(&bufs[b].cpus[cpu].mem->lock);
}

/**
 * ns_rec_mem_dump - write each CPU's held pages into its temp file
 * @buf: the buffer
 * @err: the one-line error
 * @errlen: its size
 *
 * The temp files then hold what ns_rec_write_file() puts in a snapshot.
 * Main thread only: it alone frees pages, so those listed under the lock
 * stay while they are written without it, the reader going on meanwhile.
 * Returns 0, or -1 with @err set.
 */
int ns_rec_mem_dump(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < buf->ncpus; cpu++) {
		struct ns_rec_cpu *c = &buf->cpus[cpu];
		int page = c->page_size;
		struct ns_rec_mem *m = c->mem;
		void **list;
		size_t n;
		int w = 0;

		pthread_mutex_lock(&m->lock);
		n = m->n;
		list = malloc((n ? n : 1) * sizeof(*list));
		for (size_t i = 0; list && i < n; i++)
			list[i] = m->pages[(m->head + i) % m->cap];
		pthread_mutex_unlock(&m->lock);
		if (!list) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (ftruncate(c->wfd, 0) || lseek(c->wfd, 0, SEEK_SET) < 0)
			w = -errno;
		for (size_t i = 0; !w && i < n; i++)
			w = write_all(c->wfd, list[i], (size_t)page);
		free(list);
		if (w) {
			snprintf(err, errlen, "cannot write CPU %d's events to %s: %s", cpu, c->path,
				 strerror(-w));
			return -1;
		}
	}
	return 0;
}

/**
 * ns_rec_drain_cpu - move what one CPU's ring buffer holds into its temp file
 * @c: the CPU
 * @cpu: its number, for the error
 * @flush: also the partial sub-buffers (tracing is off, this is the end)
 * @err: the one-line error
 * @errlen: its size
 *
 * Called by that CPU's reader thread while recording, then by the main
 * thread once the readers are joined; the counters it adds to are read by
 * the progress line meanwhile, hence the atomics.
 * Returns 0, or -1 with @err set (a write failed: a full disk).
 */
int ns_rec_drain_cpu(struct ns_rec_cpu *c, int cpu, bool flush, char *err, size_t errlen)
{
	int page = c->page_size;
	bool partial_done = false;

	for (int pass = 0; pass < (flush ? 2 : 1); pass++) {
		for (;;) {
			int n, w;

			unsigned long long nev;

			/*
			 * Full sub-buffers are spliced; live then reads the partial
			 * one too, so that a quiet CPU's events show without waiting
			 * for a page to fill (the splice leaves nothing in its pipe,
			 * so the order holds). One partial page a call and at most
			 * every NS_REC_PARTIAL_MS: each is held as a whole page, and
			 * reading the few events that came since the last one again
			 * and again would hold a page for each few events, and spend
			 * the reader's time on them while the ring buffer overflows.
			 */
			n = pass ? tracefs_cpu_flush(c->tcpu, c->page) :
				tracefs_cpu_buffered_read(c->tcpu, c->page, true);
			if (n <= 0 && !pass && c->mem && !partial_done) {
				double now = now_ms();

				partial_done = true;
				if (now >= c->next_partial_ms) {
					c->next_partial_ms = now + NS_REC_PARTIAL_MS;
					n = tracefs_cpu_read(c->tcpu, c->page, true);
				}
			}
			if (n <= 0)
				break;
			/* The file holds whole pages; a flushed one may be short. */
			if (n < page)
				memset((char *)c->page + n, 0, (size_t)(page - n));
			nev = count_events(c->kbuf, c->page);
			atomic_fetch_add_explicit(&c->events, nev, memory_order_relaxed);
			if (c->mem) {
				if (mem_add(c->mem, c->page, (size_t)page, nev)) {
					snprintf(err, errlen, "out of memory holding CPU %d's events",
						 cpu);
					return -1;
				}
				atomic_fetch_add_explicit(&c->bytes, (unsigned long long)page, memory_order_relaxed);
				continue;
			}
			w = write_all(c->wfd, c->page, (size_t)page);
			if (w) {
				snprintf(err, errlen, "cannot write CPU %d's events to %s: %s", cpu,
					 c->path, strerror(-w));
				return -1;
			}
			atomic_fetch_add_explicit(&c->bytes, (unsigned long long)page, memory_order_relaxed);
		}
	}
	return 0;
}

/* The value of "NAME: N" in a per_cpu stats file, 0 when absent. */
static unsigned long long stat_value(const char *stats, const char *name)
{
	const char *p = stats;
	size_t n = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == ':')
			return strtoull(p + n + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

/**
 * ns_rec_read_lost - read the events each CPU lost (overrun plus dropped)
 * @buf: the buffer
 * @start: this is the start of recording: remember the counts to subtract
 *
 * Also keeps the stats text when not @start, for the file's CPU stats.
 */
void ns_rec_read_lost(struct ns_rec_buffer *buf, bool start)
{
	for (int cpu = 0; cpu < buf->ncpus; cpu++) {
		struct ns_rec_cpu *c = &buf->cpus[cpu];
		unsigned long long lost;
		char name[64], *stats;

		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(buf->inst, name, NULL);
		if (!stats)
			continue;
		lost = stat_value(stats, "overrun") + stat_value(stats, "dropped events");
		if (start) {
			c->lost_start = lost;
			free(stats);
			continue;
		}
		c->lost = lost > c->lost_start ? lost - c->lost_start : 0;
		free(c->stats);
		c->stats = stats;
	}
}

/**
 * ns_rec_close_cpus - close the readers, remove the temp files
 * @buf: the buffer
 */
void ns_rec_close_cpus(struct ns_rec_buffer *buf)
{
	remove_frozen_dir(buf);
	for (int cpu = 0; buf->cpus && cpu < buf->ncpus; cpu++) {
		struct ns_rec_cpu *c = &buf->cpus[cpu];

		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->rfd >= 0)
			close(c->rfd);
		if (c->wfd >= 0)
			close(c->wfd);
		if (c->path)
			unlink(c->path);
		if (c->kbuf)
			kbuffer_free(c->kbuf);
		free(c->page);
		free(c->path);
		free(c->stats);
		mem_free(c->mem);
	}
	free(buf->cpus);
	buf->cpus = NULL;
}

/*
 * The event globs whose formats the file holds, the -e arguments as given
 * (libtracecmd matches them as trace-cmd does); NULL (all) when one is "all".
 */
static struct tracecmd_event_list *event_list(struct ns_rec_buffer *bufs, int nbufs)
{
	struct tracecmd_event_list *list = NULL;

	for (int b = 0; b < nbufs; b++) {
		if (bufs[b].all)
			goto all;
		for (char **ev = bufs[b].specs; ev && *ev; ev++) {
			struct tracecmd_event_list *item = calloc(1, sizeof(*item));

			if (!item)
				goto all;
			item->glob = *ev;
			item->next = list;
			list = item;
		}
	}
	return list;
all:
	while (list) {
		struct tracecmd_event_list *next = list->next;

		free(list);
		list = next;
	}
	return NULL;
}

static int add_string_option(struct tracecmd_output *out, unsigned short id, const char *s)
{
	return tracecmd_add_option(out, id, (int)strlen(s) + 1, s) ? 0 : -1;
}

/*
 * libtracecmd copies saved_cmdlines by its size read just before, and gives
 * up on a torn copy ("error in size of file") when the kernel adds a task
 * in between, which a busy machine does all the time. So the writer reads
 * a tracing directory of our own (made once per recording: live writes
 * many files): a link to each entry of the real one but saved_cmdlines,
 * a copy taken at once before each file, and an empty kallsyms for live's
 * quick frames.
 */
static int frozen_tracing_dir(struct ns_rec_buffer *buf)
{
	const char *real = tracefs_tracing_dir();
	char *dir = NULL, *path = NULL;
	struct dirent *de;
	DIR *d = NULL;
	int fd, ret = -1;

	if (!real || asprintf(&dir, "%s.tracing", buf->cpus[0].path) < 0)
		return -1;
	if (mkdir(dir, 0700)) {
		free(dir);
		return -1;
	}
	buf->frozen = dir;
	d = opendir(real);
	if (!d)
		goto out;
	while ((de = readdir(d))) {
		char *from, *to;
		int r;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "saved_cmdlines"))
			continue;
		if (asprintf(&from, "%s/%s", real, de->d_name) < 0)
			goto out;
		if (asprintf(&to, "%s/%s", dir, de->d_name) < 0) {
			free(from);
			goto out;
		}
		r = symlink(from, to);
		free(from);
		free(to);
		if (r)
			goto out;
	}
	if (asprintf(&path, "%s/.no-kallsyms", dir) < 0)
		goto out;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	close(fd);
	ret = 0;
out:
	if (d)
		closedir(d);
	free(path);
	return ret;
}

/* saved_cmdlines as it is now, into the frozen directory. */
static int freeze_cmdlines(struct ns_rec_buffer *buf)
{
	char *text = tracefs_instance_file_read(NULL, "saved_cmdlines", NULL);
	char *path;
	int fd, ret = -1;

	if (asprintf(&path, "%s/saved_cmdlines", buf->frozen) < 0) {
		free(text);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0) {
		ret = text ? write_all(fd, text, strlen(text)) : 0;
		close(fd);
	}
	free(path);
	free(text);
	return ret;
}

/* Remove what frozen_tracing_dir() made (links and files: one level). */
static void remove_frozen_dir(struct ns_rec_buffer *buf)
{
	struct dirent *de;
	DIR *d;

	if (!buf->frozen)
		return;
	d = opendir(buf->frozen);
	while (d && (de = readdir(d))) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (asprintf(&p, "%s/%s", buf->frozen, de->d_name) >= 0) {
			unlink(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	rmdir(buf->frozen);
	free(buf->frozen);
	buf->frozen = NULL;
}

/*
 * The page size the file's header says (v7: after the magic, "7", the
 * endianness and the size of a long; in the host's order, as written) is
 * that of the pages written. 0, or -1 with @err set.
 */
static int check_page_size(int fd, const struct ns_rec_buffer *bufs, int nbufs, char *err,
			   size_t errlen)
{
	uint32_t said;

	if (fd < 0 || pread(fd, &said, sizeof(said), 14) != (ssize_t)sizeof(said)) {
		snprintf(err, errlen, "cannot read back the trace.dat's page size: %s",
			 fd < 0 ? strerror(EBADF) : strerror(errno ? errno : EIO));
		return -1;
	}
	for (int b = 0; b < nbufs; b++) {
		if (bufs[b].ncpus && (int)said != bufs[b].cpus[0].page_size) {
			snprintf(err, errlen, "libtracecmd wrote a page size of %u bytes, the "
				 "sub-buffers of %s are %d bytes", said,
				 bufs[b].name ? bufs[b].name : "the top instance",
				 bufs[b].cpus[0].page_size);
			return -1;
		}
	}
	return 0;
}

/**
 * ns_rec_write_file - write the recorded buffers as a trace.dat v7 to @fd
 * @bufs: the buffers, the top instance first if it was recorded
 * @nbufs: their number
 * @fd: the open, empty output file, readable too (the page size in its
 *	header is read back); closed here
 * @version: what the VERSION option says wrote the file
 * @quick: for the live screen's next frame: no compression and no kallsyms
 *	(which cost more than the events: a frame only shows tasks and events)
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err set.
 */
int ns_rec_write_file(struct ns_rec_buffer *bufs, int nbufs, int fd, const char *version,
		      bool quick, char *err, size_t errlen)
{
	struct tracecmd_event_list *list = event_list(bufs, nbufs);
	struct tracecmd_output *out;
	unsigned long long traceid = 0;
	struct utsname u;
	char text[512];
	const char *what = "the headers";
	int ret = -1, check_fd;

	errno = 0;
	check_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	out = tracecmd_output_create_fd(fd);
	if (!out) {
		snprintf(err, errlen, "cannot start the trace.dat: %s", strerror(errno));
		close(fd);
		goto out_list;
	}
	/* Not its "CPU0 data recorded at offset" lines: the caller says what it wrote. */
	tracecmd_set_quiet(out, true);
	if ((!bufs[0].frozen && frozen_tracing_dir(&bufs[0])) || freeze_cmdlines(&bufs[0]) ||
	    tracecmd_output_set_trace_dir(out, bufs[0].frozen)) {
		what = "a copy of saved_cmdlines";
		goto fail;
	}
	if (bufs[0].clock_name)
		tracecmd_set_out_clock(out, bufs[0].clock_name);
	if (quick) {
		char *none;

		/* the empty kallsyms file of the frozen directory: none written */
		if (asprintf(&none, "%s/.no-kallsyms", bufs[0].frozen) < 0)
			goto fail;
		ret = tracecmd_output_set_kallsyms(out, none);
		free(none);
		if (ret)
			goto fail;
		ret = -1;
	}
	if (tracecmd_output_set_version(out, 7) ||
	    tracecmd_output_set_compression(out, quick ? "none" : "any") ||
	    tracecmd_output_write_headers(out, list))
		goto fail;
	what = "the options";
	if (bufs[0].clock_text && add_string_option(out, NS_REC_OPT_TRACECLOCK, bufs[0].clock_text))
		goto fail;
	if (!uname(&u)) {
		snprintf(text, sizeof(text), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.machine);
		if (add_string_option(out, NS_REC_OPT_UNAME, text))
			goto fail;
	}
	if (add_string_option(out, NS_REC_OPT_VERSION, version))
		goto fail;
	if (getrandom(&traceid, sizeof(traceid), 0) == sizeof(traceid) &&
	    !tracecmd_add_option(out, NS_REC_OPT_TRACEID, sizeof(traceid), &traceid))
		goto fail;
	for (int cpu = 0; !bufs[0].name && cpu < bufs[0].ncpus; cpu++) {
		char *s;

		if (!bufs[0].cpus[cpu].stats)
			continue;
		if (asprintf(&s, "CPU: %d\n%s", cpu, bufs[0].cpus[cpu].stats) < 0)
			goto fail;
		ret = add_string_option(out, NS_REC_OPT_CPUSTAT, s);
		free(s);
		if (ret)
			goto fail;
		ret = -1;
	}
	what = "the command lines";
	if (tracecmd_write_cmdlines(out) || tracecmd_write_cpus(out, bufs[0].ncpus) ||
	    tracecmd_write_options(out))
		goto fail;
	what = "the event data";
	for (int b = 0; b < nbufs; b++) {
		char **paths = calloc((size_t)bufs[b].ncpus, sizeof(*paths));

		if (!paths)
			goto fail;
		for (int cpu = 0; cpu < bufs[b].ncpus; cpu++)
			paths[cpu] = bufs[b].cpus[cpu].path;
		ret = tracecmd_write_cpu_data(out, bufs[b].ncpus, paths, bufs[b].name);
		free(paths);
		if (ret)
			goto fail;
		ret = -1;
	}
	ret = 0;
	goto out;
fail:
	snprintf(err, errlen, "cannot write %s of the trace.dat: %s", what,
		 errno ? strerror(errno) : "libtracecmd failed");
out:
	tracecmd_output_close(out);
	if (!ret && check_page_size(check_fd, bufs, nbufs, err, errlen))
		ret = -1;
out_list:
	if (check_fd >= 0)
		close(check_fd);
	while (list) {
		struct tracecmd_event_list *next = list->next;

		free(list);
		list = next;
	}
	return ret;
}
