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
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <kbuffer.h>

#include "nurseshark/util.h"
#include "record-int.h"

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
	int page = getpagesize();

	buf->cpus = calloc((size_t)buf->ncpus, sizeof(*buf->cpus));
	if (!buf->cpus) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int cpu = 0; cpu < buf->ncpus; cpu++) {
		struct ns_rec_cpu *c = &buf->cpus[cpu];
		char name[64], *path;

		c->rfd = c->wfd = -1;
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
	int page = getpagesize();

	for (int pass = 0; pass < (flush ? 2 : 1); pass++) {
		for (;;) {
			int n, w;

			n = pass ? tracefs_cpu_flush(c->tcpu, c->page) :
				tracefs_cpu_buffered_read(c->tcpu, c->page, true);
			if (n <= 0)
				break;
			/* The file holds whole pages; a flushed one may be short. */
			if (n < page)
				memset((char *)c->page + n, 0, (size_t)(page - n));
			__atomic_fetch_add(&c->events, count_events(c->kbuf, c->page),
					   __ATOMIC_RELAXED);
			w = write_all(c->wfd, c->page, (size_t)page);
			if (w) {
				snprintf(err, errlen, "cannot write CPU %d's events to %s: %s", cpu,
					 c->path, strerror(-w));
				return -1;
			}
			__atomic_fetch_add(&c->bytes, (unsigned long long)page, __ATOMIC_RELAXED);
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

/**
 * ns_rec_write_file - write the recorded buffers as a trace.dat v7 to @fd
 * @bufs: the buffers, the top instance first if it was recorded
 * @nbufs: their number
 * @fd: the open, empty output file; closed here
 * @version: what the VERSION option says wrote the file
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err set.
 */
int ns_rec_write_file(struct ns_rec_buffer *bufs, int nbufs, int fd, const char *version,
		      char *err, size_t errlen)
{
	struct tracecmd_event_list *list = event_list(bufs, nbufs);
	struct tracecmd_output *out;
	unsigned long long traceid = 0;
	struct utsname u;
	char text[512];
	const char *what = "the headers";
	int ret = -1;

	errno = 0;
	out = tracecmd_output_create_fd(fd);
	if (!out) {
		snprintf(err, errlen, "cannot start the trace.dat: %s", strerror(errno));
		close(fd);
		goto out_list;
	}
	/* Not its "CPU0 data recorded at offset" lines: the caller says what it wrote. */
	tracecmd_set_quiet(out, true);
	if (bufs[0].clock_name)
		tracecmd_set_out_clock(out, bufs[0].clock_name);
	if (tracecmd_output_set_version(out, 7) ||
	    tracecmd_output_set_compression(out, "any") ||
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
out_list:
	while (list) {
		struct tracecmd_event_list *next = list->next;

		free(list);
		list = next;
	}
	return ret;
}
