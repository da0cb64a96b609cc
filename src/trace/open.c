// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a trace: one pass per CPU through libtracecmd builds the index
 * described in trace-int.h (events, pages, runs, lost events), then the
 * merged order and the task table. The file is opened read-only and never
 * written. libtracecmd 1.3 checks that the data sections fit in the file,
 * but crashes in tracecmd_close() on the half-built handle of a file that
 * fails that check (v6 files cut short), and printf()s its complaint to
 * stdout: so the handle is opened in two steps, stdout is muted meanwhile,
 * and a handle that fails is leaked, never closed. libtraceevent's format
 * parser can crash on a corrupt header (found by fuzzing), so the header is
 * first parsed in a child process: a crash there is a clear error here.
 *
 * libtracecmd maps each CPU's whole data at once, so every page read while
 * indexing would stay resident; release_behind() hands the pages already
 * indexed back to the kernel (they are re-read from the file if shown).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-int.h"

#define NS_TRACE_MAGIC "\027\010\104tracing"


/* A comm named by a sched event, for pids the saved cmdlines lack. */
struct comm_seen {
	int cpu;
	int pid;
	uint64_t idx;
	uint64_t row;
	char comm[16];
};

struct comm_list {
	struct comm_seen *v;
	size_t n, cap;
};

static void set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* Grow *v (of elements of @size) so that it holds at least @need elements. */
static int grow(void **v, uint64_t *cap, uint64_t need, size_t size)
{
	uint64_t ncap = *cap ? *cap : 64;
	void *nv;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nv = realloc(*v, ncap * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

#define GROW(arr, nr, cap) grow((void **)&(arr), &(cap), (nr) + 1, sizeof(*(arr)))

/* Is this a trace-cmd file at all? Gives a better reason than libtracecmd. */
static int check_file(const char *path, char *err, size_t err_len)
{
	char magic[sizeof(NS_TRACE_MAGIC) - 1];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_err(err, err_len, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		set_err(err, err_len, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			"not a regular file");
		close(fd);
		return -1;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 0) {
		set_err(err, err_len, "%s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		set_err(err, err_len, "empty file, not a trace.dat");
		return -1;
	}
	if ((size_t)n < sizeof(magic) || memcmp(magic, NS_TRACE_MAGIC, sizeof(magic))) {
		set_err(err, err_len, "not a trace-cmd data file (bad magic)");
		return -1;
	}
	return 0;
}

/* Parse the header in a child: 0, -EIO if unreadable, -EFAULT if it crashed. */
static int probe_header(const char *path)
{
	int status, fd;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 0;	/* no child: go on without the probe */
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		_exit(tracecmd_open_head(path, 0) ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status))
		return -EFAULT;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

static void find_sched_fields(struct tep_handle *tep, struct sched_fields *sf)
{
	memset(sf, 0, sizeof(*sf));
	sf->sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	sf->wakeup = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	sf->wakeup_new = tep_find_event_by_name(tep, "sched", "sched_wakeup_new");
	sf->prev_pid = field(sf->sw, "prev_pid");
	sf->prev_comm = field(sf->sw, "prev_comm");
	sf->next_pid = field(sf->sw, "next_pid");
	sf->next_comm = field(sf->sw, "next_comm");
	sf->wk_pid = field(sf->wakeup, "pid");
	sf->wk_comm = field(sf->wakeup, "comm");
	sf->wkn_pid = field(sf->wakeup_new, "pid");
	sf->wkn_comm = field(sf->wakeup_new, "comm");
	if (!sf->prev_pid || !sf->next_pid)
		sf->sw = NULL;
}

static int read_int(struct tep_format_field *f, struct tep_record *rec, int *val)
{
	unsigned long long v;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return -1;
	if (tep_read_number_field(f, rec->data, &v))
		return -1;
	*val = (int)v;
	return 0;
}

static void read_comm(struct tep_format_field *f, struct tep_record *rec, char *out, size_t len)
{
	size_t n;

	out[0] = '\0';
	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return;
	n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;
	memcpy(out, (char *)rec->data + f->offset, n);
	out[n] = '\0';
}

/*
 * A sched event names a task: remember the comm for labels, and, for pids
 * the saved cmdlines lack, where the name was first printed (see
 * apply_comms()).
 */
static int note_comm(struct ns_trace *trace, struct comm_list *cl, int cpu, uint64_t idx,
		     int pid, const char *comm, bool had_cmdline)
{
	struct ns_task *task;

	if (pid <= 0)
		return 0;
	task = ns_tasks_get(&trace->tasks, pid, true);
	if (!task)
		return -ENOMEM;
	if (comm[0])
		snprintf(task->comm, sizeof(task->comm), "%s", comm);
	/* only the first naming per CPU can be the first in report's order */
	if (had_cmdline || (cpu < 64 && (task->named_on_cpus & (1ULL << cpu))))
		return 0;
	if (cpu < 64)
		task->named_on_cpus |= 1ULL << cpu;
	if (cl->n == cl->cap) {
		size_t ncap = cl->cap ? cl->cap * 2 : 256;
		struct comm_seen *nv = realloc(cl->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		cl->v = nv;
		cl->cap = ncap;
	}
	cl->v[cl->n].cpu = cpu;
	cl->v[cl->n].idx = idx;
	cl->v[cl->n].pid = pid;
	snprintf(cl->v[cl->n].comm, sizeof(cl->v[cl->n].comm), "%s", comm);
	cl->n++;
	return 0;
}

static int add_run(struct ns_cpu *c, uint64_t ts, int pid)
{
	if (GROW(c->runs, c->nr_runs, c->cap_runs))
		return -ENOMEM;
	c->runs[c->nr_runs].start_ns = ts;
	c->runs[c->nr_runs].pid = pid;
	c->runs[c->nr_runs].reserved = 0;
	c->nr_runs++;
	return 0;
}

static int index_record(struct ns_trace *trace, struct ns_cpu *c, int cpu,
			struct tep_record *rec, const struct sched_fields *sf,
			struct comm_list *cl)
{
	struct tep_handle *tep = trace->tep;
	uint64_t page = rec->offset & ~(uint64_t)(trace->page_size - 1);
	uint64_t idx = c->nr_events;
	struct ns_event *ev;
	int type, pid, ret;

	if (GROW(c->events, c->nr_events, c->cap_events))
		return -ENOMEM;
	if (!c->nr_pages || c->pages[c->nr_pages - 1].offset != page) {
		if (GROW(c->pages, c->nr_pages, c->cap_pages))
			return -ENOMEM;
		c->pages[c->nr_pages].offset = page;
		c->pages[c->nr_pages].first_idx = idx;
		c->nr_pages++;
	}
	if (rec->missed_events) {
		if (GROW(c->missed, c->nr_missed, c->cap_missed))
			return -ENOMEM;
		c->missed[c->nr_missed].idx = idx;
		c->missed[c->nr_missed].count = rec->missed_events;
		c->nr_missed++;
	}
	type = tep_data_type(tep, rec);
	pid = tep_data_pid(tep, rec);
	ev = &c->events[idx];
	ev->ts_ns = rec->ts;
	ev->pid = pid;
	ev->type = (uint16_t)type;
	ev->page_off = (uint16_t)(rec->offset & (trace->page_size - 1));
	c->nr_events++;

	if (sf->sw && type == sf->sw->id) {
		int prev_pid, next_pid;
		char prev_comm[20], next_comm[20];
		bool prev_known, next_known;

		if (read_int(sf->prev_pid, rec, &prev_pid) || read_int(sf->next_pid, rec, &next_pid))
			return 0;
		/* before the first switch, the task it switches away from ran */
		if (!c->nr_runs && (ret = add_run(c, c->events[0].ts_ns, prev_pid)))
			return ret;
		if ((ret = add_run(c, rec->ts, next_pid)))
			return ret;
		read_comm(sf->prev_comm, rec, prev_comm, sizeof(prev_comm));
		read_comm(sf->next_comm, rec, next_comm, sizeof(next_comm));
		prev_known = tep_is_pid_registered(tep, prev_pid);
		next_known = tep_is_pid_registered(tep, next_pid);
		if ((ret = note_comm(trace, cl, cpu, idx, prev_pid, prev_comm, prev_known)))
			return ret;
		return note_comm(trace, cl, cpu, idx, next_pid, next_comm, next_known);
	}
	if ((sf->wakeup && type == sf->wakeup->id) ||
	    (sf->wakeup_new && type == sf->wakeup_new->id)) {
		bool is_new = !(sf->wakeup && type == sf->wakeup->id);
		char comm[20];
		bool known;
		int wpid;

		if (read_int(is_new ? sf->wkn_pid : sf->wk_pid, rec, &wpid))
			return 0;
		read_comm(is_new ? sf->wkn_comm : sf->wk_comm, rec, comm, sizeof(comm));
		if (!(is_new ? sf->wkn_comm : sf->wk_comm))
			return 0;
		known = tep_is_pid_registered(tep, wpid);
		return note_comm(trace, cl, cpu, idx, wpid, comm, known);
	}
	return 0;
}

/*
 * Where the pages read so far lie in libtracecmd's mapping. Only a run in
 * which record data addresses advance exactly as file offsets do is known
 * to be one linear mapping; any other step starts a new run.
 */
struct behind {
	char *base;		/* first byte of the run */
	char *last;		/* data of the last record seen */
	uint64_t last_off;	/* and its offset */
	size_t released;	/* bytes from base already given back */
};

#define NS_RELEASE_STEP (8u << 20)

/* Give back the run's pages before @rec's page; @rec keeps its map alive. */
static void release_behind(struct behind *b, struct tep_record *rec, size_t sys_page)
{
	char *data = rec->data;
	uintptr_t end;

	if (!b->base || data < b->last || (uint64_t)(data - b->last) != rec->offset - b->last_off) {
		b->base = (char *)(((uintptr_t)data + sys_page - 1) & ~(uintptr_t)(sys_page - 1));
		b->released = 0;
	}
	b->last = data;
	b->last_off = rec->offset;
	end = ((uintptr_t)data & ~(uintptr_t)(sys_page - 1)) - sys_page;
	if (end > (uintptr_t)b->base + b->released + NS_RELEASE_STEP) {
		madvise(b->base + b->released, end - (uintptr_t)b->base - b->released,
			MADV_DONTNEED);
		b->released = end - (uintptr_t)b->base;
	}
}

/* Drop the slack of the doubling growth: the index stays at 16 bytes/event. */
static void shrink(void **v, uint64_t *cap, uint64_t nr, size_t size)
{
	void *nv;

	if (!nr || nr == *cap)
		return;
	nv = realloc(*v, nr * size);
	if (nv) {
		*v = nv;
		*cap = nr;
	}
}

#define SHRINK(arr, nr, cap) shrink((void **)&(arr), &(cap), (nr), sizeof(*(arr)))

static int index_cpu(struct ns_trace *trace, int cpu, struct comm_list *cl)
{
	size_t sys_page = (size_t)sysconf(_SC_PAGESIZE);
	struct ns_cpu *c = &trace->cpus[cpu];
	struct behind behind = { 0 };
	struct tep_record *rec;
	int ret = 0;

	for (rec = tracecmd_read_cpu_first(trace->handle, cpu); rec;
	     rec = tracecmd_read_data(trace->handle, cpu)) {
		uint64_t off = rec->offset;

		ret = index_record(trace, c, cpu, rec, &trace->sched, cl);
		if (!ret) {
			release_behind(&behind, rec, sys_page);
			ns_trace_count_page(trace, c, off & ~(uint64_t)(trace->page_size - 1));
		}
		tracecmd_free_record(rec);
		if (ret)
			return ret;
		if (trace->compressed && trace->bytes_read > NS_RECYCLE_BYTES) {
			/* start afresh and go on after the last record indexed */
			ret = ns_trace_recycle(trace);
			if (ret)
				return ret;
			memset(&behind, 0, sizeof(behind));
			rec = tracecmd_read_at(trace->handle, off, NULL);
			if (!rec)
				return -EIO;
			tracecmd_free_record(rec);
		}
	}
	SHRINK(c->events, c->nr_events, c->cap_events);
	SHRINK(c->pages, c->nr_pages, c->cap_pages);
	SHRINK(c->runs, c->nr_runs, c->cap_runs);
	/* no sched_switch at all: the pid of the first event stands for the CPU */
	if (!c->nr_runs && c->nr_events)
		ret = add_run(c, c->events[0].ts_ns, c->events[0].pid);
	return ret;
}

static int cmp_comm_seen(const void *a, const void *b)
{
	const struct comm_seen *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return 0;
}

/*
 * libtraceevent's sched_switch plugin registers the comms it prints, first
 * name wins, so `trace-cmd report` shows "<...>" for a task the saved
 * cmdlines lack until a sched event has named it. Replay that in report's
 * order now, once, so that formatting rows later in any order gives the same
 * names.
 */
static int apply_comms(struct ns_trace *trace, struct comm_list *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		cl->v[i].row = ns_trace_row_of(trace, cl->v[i].cpu, cl->v[i].idx);
	/* stable enough: within one record prev comes before next, same row */
	qsort(cl->v, cl->n, sizeof(*cl->v), cmp_comm_seen);
	/* make libtraceevent build its sorted table before we add to it */
	tep_data_comm_from_pid(trace->tep, 0);
	for (i = 0; i < cl->n; i++) {
		struct ns_task *task = ns_tasks_get(&trace->tasks, cl->v[i].pid, true);

		if (!task)
			return -ENOMEM;
		if (task->unknown_until != -1)
			continue;
		task->unknown_until = (int64_t)cl->v[i].row;
		snprintf(task->report_comm, sizeof(task->report_comm), "%s", cl->v[i].comm);
		tep_register_comm(trace->tep, cl->v[i].comm, cl->v[i].pid);
	}
	return 0;
}

/*
 * Whether report prints times as seconds.microseconds (else raw counts).
 * libtracecmd decides from the clock's name, but parses an empty TRACECLOCK
 * option (common in files of trace-cmd 2.x) by reading past its buffer, so
 * that a name made of leftover heap bytes can flip the flag from run to run
 * (trace-cmd report itself flips about one run in 200). A name that is no
 * clock at all is taken as libtracecmd's own fallback, the local clock.
 */
static bool clock_in_usecs(struct tracecmd_input *handle)
{
	static const char *const clocks[] = {
		"local", "global", "counter", "uptime", "perf", "mono", "mono_raw",
		"boot", "tai", "x86-tsc", "tsc2nsec", "arm64-tsc", "ppc-tb",
	};
	const char *clock = tracecmd_get_trace_clock(handle);
	size_t i;

	for (i = 0; clock && i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcmp(clock, clocks[i]))
			return tracecmd_get_flags(handle) & NS_TRACECMD_FL_IN_USECS;
	return true;
}

/*
 * Open the file through libtracecmd and make its tep know what the index
 * knows: sched fields, and the task names report learns while printing.
 */
static int attach(struct ns_trace *trace)
{
	struct tracecmd_input *handle;
	int out = -1, null_fd, ret, cpu;
	size_t i;

	/* libtracecmd printf()s "File possibly truncated": keep stdout clean */
	fflush(stdout);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd >= 0) {
		out = dup(STDOUT_FILENO);
		dup2(null_fd, STDOUT_FILENO);
		close(null_fd);
	}
	handle = tracecmd_open_head(trace->path, 0);
	ret = handle ? tracecmd_init_data(handle) : -1;
	fflush(stdout);
	if (out >= 0) {
		dup2(out, STDOUT_FILENO);
		close(out);
	}
	if (!handle)
		return -EIO;
	if (ret < 0)
		return -ENODATA;	/* leaked: closing it would crash */
	trace->handle = handle;
	trace->tep = tracecmd_get_tep(trace->handle);
	trace->page_size = tracecmd_page_size(trace->handle);
	trace->in_usecs = clock_in_usecs(trace->handle);
	trace->compressed = tracecmd_get_flags(trace->handle) & NS_TRACECMD_FL_COMPRESSION;
	trace->bytes_read = 0;
	find_sched_fields(trace->tep, &trace->sched);
	for (cpu = 0; trace->cpus && cpu < trace->nr_cpus; cpu++) {
		trace->cpus[cpu].have_next = false;
		trace->cpus[cpu].cur_page = UINT64_MAX;
	}
	if (!trace->tasks.count)
		return 0;
	tep_data_comm_from_pid(trace->tep, 0);
	for (i = 0; i < trace->tasks.cap; i++) {
		const struct ns_task *task = &trace->tasks.slots[i];

		if (task->pid && task->unknown_until >= 0)
			tep_register_comm(trace->tep, task->report_comm, task->pid);
	}
	return 0;
}

/**
 * ns_trace_recycle - close libtracecmd's handle and open the file again
 *
 * Frees what libtracecmd holds for pages already read. Records returned by
 * ns_trace_read() must all be freed before. Fails with -ESTALE when the file
 * changed since it was indexed.
 */
int ns_trace_recycle(struct ns_trace *trace)
{
	struct stat st;

	if (stat(trace->path, &st) || st.st_size != trace->file_size ||
	    st.st_mtim.tv_sec != trace->file_mtime.tv_sec ||
	    st.st_mtim.tv_nsec != trace->file_mtime.tv_nsec)
		return -ESTALE;
	tracecmd_close(trace->handle);
	trace->handle = NULL;
	return attach(trace);
}

/* Count the pages libtracecmd had to bring in, for ns_trace_recycle(). */
void ns_trace_count_page(struct ns_trace *trace, struct ns_cpu *c, uint64_t page)
{
	if (c->cur_page == page)
		return;
	c->cur_page = page;
	trace->bytes_read += trace->page_size;
}

static int build_index(struct ns_trace *trace)
{
	struct comm_list cl = { 0 };
	int cpu, ret = 0;

	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		ret = index_cpu(trace, cpu, &cl);
		if (ret)
			goto out;
	}
	trace->first_ns = UINT64_MAX;
	for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
		struct ns_cpu *c = &trace->cpus[cpu];

		trace->nr_events += c->nr_events;
		if (!c->nr_events)
			continue;
		if (c->events[0].ts_ns < trace->first_ns)
			trace->first_ns = c->events[0].ts_ns;
		if (c->events[c->nr_events - 1].ts_ns > trace->last_ns)
			trace->last_ns = c->events[c->nr_events - 1].ts_ns;
	}
	if (!trace->nr_events)
		trace->first_ns = 0;
	ret = ns_order_build(trace);
	if (ret)
		goto out;
	ret = apply_comms(trace, &cl);
out:
	free(cl.v);
	return ret;
}

struct ns_trace *ns_trace_open(const char *path, char *err, size_t err_len)
{
	struct stat st;
	struct ns_trace *trace;
	int ret;

	if (check_file(path, err, err_len))
		return NULL;
	trace = calloc(1, sizeof(*trace));
	if (!trace)
		goto nomem;
	trace->path = strdup(path);
	if (!trace->path)
		goto nomem;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);

	if (stat(path, &st) == 0) {
		trace->file_size = st.st_size;
		trace->file_mtime = st.st_mtim;
	}
	ret = probe_header(path);
	if (ret) {
		set_err(err, err_len, ret == -EFAULT ?
			"corrupt header: its event formats crash libtraceevent's parser" :
			"cannot read it as a trace.dat (truncated or corrupt header)");
		goto fail;
	}
	ret = attach(trace);
	if (ret) {
		set_err(err, err_len, ret == -ENODATA ?
			"truncated or corrupt: the event data ends before the file says" :
			"cannot read it as a trace.dat (truncated or corrupt header)");
		goto fail;
	}
	trace->nr_cpus = tep_get_cpus(trace->tep);
	if (trace->page_size <= 0 || trace->page_size > 65536 ||
	    (trace->page_size & (trace->page_size - 1))) {
		set_err(err, err_len, "unsupported ring-buffer page size %d", trace->page_size);
		goto fail;
	}
	if (trace->nr_cpus < 0 || trace->nr_cpus > 65536) {
		set_err(err, err_len, "implausible number of CPUs (%d)", trace->nr_cpus);
		goto fail;
	}
	trace->cpus = calloc(trace->nr_cpus ? trace->nr_cpus : 1, sizeof(*trace->cpus));
	if (!trace->cpus) {
		set_err(err, err_len, "%s", strerror(ENOMEM));
		goto fail;
	}
	for (ret = 0; ret < trace->nr_cpus; ret++)
		trace->cpus[ret].cur_page = UINT64_MAX;
	ret = build_index(trace);
	if (ret) {
		set_err(err, err_len, "cannot index events: %s", strerror(-ret));
		goto fail;
	}
	return trace;

fail:
	ns_trace_close(trace);
	return NULL;
nomem:
	set_err(err, err_len, "%s", strerror(ENOMEM));
	if (trace)
		free(trace->path);
	free(trace);
	return NULL;
}

void ns_trace_close(struct ns_trace *trace)
{
	int cpu;

	if (!trace)
		return;
	if (trace->handle)
		tracecmd_close(trace->handle);
	for (cpu = 0; trace->cpus && cpu < trace->nr_cpus; cpu++) {
		free(trace->cpus[cpu].events);
		free(trace->cpus[cpu].pages);
		free(trace->cpus[cpu].runs);
		free(trace->cpus[cpu].missed);
	}
	free(trace->cpus);
	free(trace->order);
	ns_tasks_free(&trace->tasks);
	free(trace->path);
	free(trace);
}
