// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a trace: one pass per CPU through libtracecmd builds the index
 * described in trace-int.h (events, pages, runs, lost events), then the
 * merged order and the task table. The file is opened read-only and never
 * written. libtracecmd 1.3 checks that the data sections fit in the file,
 * but crashes in tracecmd_close() on the half-built handle of a file that
 * fails that check (v6 files cut short), and printf()s its complaint to
 * stdout: so the handle is opened in two steps, stdout is muted meanwhile,
 * and a handle that fails is leaked, never closed. libtraceevent and
 * libtracecmd crash on damaged files, or allocate what a damaged field says
 * (found by fuzzing), so the whole open runs first in a child process under
 * a memory limit (guard_open()): a crash there is a clear error here. At a
 * program's first open, before anything is on the screen, the child runs
 * beside our own open instead of before it, and a crash of ours ends the
 * process with the child's reason (beside_begin()): the fixed cost of a
 * small trace was the two opens one after the other.
 *
 * libtracecmd maps each CPU's whole data at once, so every page read while
 * indexing would stay resident; release_behind() hands the pages already
 * indexed back to the kernel (they are re-read from the file if shown).
 *
 * Where the fast page reader reads the file, ns_trace_open_async() returns
 * once the header is read and the span known (index.c's
 * ns_index_prepare()), and a thread of ours builds the index meanwhile:
 * the screen draws what is indexed so far, since the arrays it reads never
 * move and their counts are published with release stores (trace-int.h).
 * Everything else of the index (runs, the merged order, the task table) is
 * used only after ns_trace_wait(). ns_trace_open() is the two in a row, so
 * every test goes through the same code.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pages.h"
#include "trace-int.h"

#define NS_TRACE_MAGIC "\027\010\104tracing"


/*
 * Is this a trace-cmd file at all? Gives a better reason than libtracecmd.
 * Opened without blocking: a FIFO with no writer would block open() for
 * ever, and nothing but a regular file is a trace here.
 */
static int check_file(const char *path, char *err, size_t err_len)
{
	char magic[sizeof(NS_TRACE_MAGIC) - 1];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		ns_set_err(err, err_len, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		ns_set_err(err, err_len, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		ns_set_err(err, err_len, "%s", S_ISDIR(st.st_mode) ? "is a directory" :
			S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file" :
			S_ISSOCK(st.st_mode) ? "is a socket, not a regular file" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
			"is a device, not a regular file" : "not a regular file");
		close(fd);
		return -1;
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 0) {
		ns_set_err(err, err_len, "%s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		ns_set_err(err, err_len, "empty file, not a trace.dat");
		return -1;
	}
	if ((size_t)n < sizeof(magic) || memcmp(magic, NS_TRACE_MAGIC, sizeof(magic))) {
		ns_set_err(err, err_len, "not a trace-cmd data file (bad magic)");
		return -1;
	}
	return 0;
}

/*
 * The open's guard. libtracecmd and libtraceevent trust the file: a damaged
 * header crashes the format parser, a damaged page header crashes kbuffer
 * inside tracecmd_init_data(), and a damaged CPU id in a v7 BUFFER option
 * makes libtracecmd calloc() per-CPU state for as many CPUs as the id says
 * (1.5 GB per handle for one bit flipped). Rather than validate every field
 * of every section ahead of libtracecmd (a second parser to keep in step
 * with its), the same open that the viewer does next (open_head, then
 * init_data) runs first in a child process, which may crash, and which runs
 * under an address-space limit: what it has mapped at the fork, twice the
 * file (libtracecmd maps a CPU's data whole) and NS_GUARD_SLACK more. An
 * open that needs more than that is a damaged file, and the parent never
 * tries it. The child also refuses more CPUs than NS_MAX_CPUS, so what the
 * parent's handles allocate per CPU stays bounded, and an alarm bounds its
 * time. Under a sanitizer, whose shadow memory is terabytes of address
 * space, the limit is left out (tests/run.sh has ASan cap one allocation).
 */
/*
 * How many CPUs libtracecmd allocates state for: one more than the largest
 * CPU id of the file, where tep_get_cpus() counts the CPUs with data. It is
 * exported by every libtracecmd we build against (since 1.0), but declared
 * only in trace-cmd's private header.
 */
int tracecmd_cpus(struct tracecmd_input *handle);

#define NS_GUARD_SLACK (1024ULL << 20)
#define NS_GUARD_SECONDS 60
#define NS_MAX_CPUS 65536

enum guard_result {
	GUARD_OK, GUARD_HEAD, GUARD_DATA, GUARD_NOMEM, GUARD_CPUS, GUARD_IO,
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NS_GUARD_LIMIT 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NS_GUARD_LIMIT 0
#endif
#endif
#ifndef NS_GUARD_LIMIT
#define NS_GUARD_LIMIT 1
#endif

/* The address space in use, in bytes (/proc/self/statm's size); 0 if unknown. */
static unsigned long long vm_size(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f || fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	if (f)
		fclose(f);
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* In the child: cap its address space at what it has plus @budget bytes. */
static void limit_memory(unsigned long long budget)
{
	struct rlimit as;

	if (!NS_GUARD_LIMIT)
		return;
	if (getrlimit(RLIMIT_AS, &as))
		return;
	budget += vm_size();
	if (as.rlim_cur == RLIM_INFINITY || as.rlim_cur > budget)
		as.rlim_cur = budget;
	setrlimit(RLIMIT_AS, &as);
}

/* The child's side: what libtracecmd makes of the file, as an exit status. */
static enum guard_result guard_child(const char *path, off_t size)
{
	struct tracecmd_input *handle;
	int fd;

	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	ns_memory_open_begin(24U << 20);	/* it exits once the file is open */
	limit_memory(NS_GUARD_SLACK + 2ULL * (size > 0 ? (unsigned long long)size : 0));
	alarm(NS_GUARD_SECONDS);
	ns_trace_symbols_ignore(true);	/* the parent's parses survive any text */
	errno = 0;
	handle = tracecmd_open_head(path, 0);
	if (!handle)
		return errno == ENOMEM ? GUARD_NOMEM : GUARD_HEAD;
	errno = 0;
	if (tracecmd_init_data(handle) < 0)
		return errno == ENOMEM ? GUARD_NOMEM : GUARD_DATA;
	if (tracecmd_cpus(handle) > NS_MAX_CPUS ||
	    tep_get_cpus(tracecmd_get_tep(handle)) > NS_MAX_CPUS)
		return GUARD_CPUS;
	return GUARD_OK;	/* never closed: tracecmd_close() may crash */
}

/*
 * Text for the guard's messages, built without stdio: the parent's crash
 * handler (below) words them too, and only async-signal-safe calls may run
 * there.
 */
struct msg {
	char *buf;
	size_t len, n;
};

static void msg_str(struct msg *m, const char *s)
{
	while (*s && m->n + 1 < m->len)
		m->buf[m->n++] = *s++;
	m->buf[m->n] = '\0';
}

static void msg_uint(struct msg *m, unsigned long long v)
{
	char digits[24];
	int i = (int)sizeof(digits) - 1;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i > 0);
	msg_str(m, digits + i);
}

/* strsignal()'s words for the signals a crash ends in (it is not async-signal-safe). */
static void msg_signal(struct msg *m, int sig)
{
	switch (sig) {
	case SIGSEGV: msg_str(m, "Segmentation fault"); return;
	case SIGBUS: msg_str(m, "Bus error"); return;
	case SIGFPE: msg_str(m, "Floating point exception"); return;
	case SIGILL: msg_str(m, "Illegal instruction"); return;
	case SIGABRT: msg_str(m, "Aborted"); return;
	case SIGKILL: msg_str(m, "Killed"); return;
	case SIGXCPU: msg_str(m, "CPU time limit exceeded"); return;
	default: msg_str(m, "signal "); msg_uint(m, (unsigned int)sig); return;
	}
}

/* The guard child's verdict from its wait status: 0, or -1 with the reason in @err. */
static int guard_verdict(int status, char *err, size_t err_len)
{
	struct msg m = { err, err_len, 0 };

	if (!err_len)
		return WIFEXITED(status) && WEXITSTATUS(status) == GUARD_OK ? 0 : -1;
	err[0] = '\0';
	if (WIFSIGNALED(status)) {
		if (WTERMSIG(status) == SIGALRM) {
			msg_str(&m, "corrupt: libtracecmd took over ");
			msg_uint(&m, NS_GUARD_SECONDS);
			msg_str(&m, " s to open it");
		} else {
			msg_str(&m, "corrupt: libtracecmd crashes reading it (");
			msg_signal(&m, WTERMSIG(status));
			msg_str(&m, ")");
		}
		return -1;
	}
	switch (WIFEXITED(status) ? WEXITSTATUS(status) : GUARD_IO) {
	case GUARD_OK:
		return 0;
	case GUARD_HEAD:
		msg_str(&m, "cannot read it as a trace.dat (truncated or corrupt header)");
		break;
	case GUARD_DATA:
		msg_str(&m, "truncated or corrupt: the event data ends before the file says");
		break;
	case GUARD_NOMEM:
		msg_str(&m, "corrupt: opening it takes more memory than the file can explain (");
		msg_uint(&m, NS_GUARD_SLACK >> 20);
		msg_str(&m, " MB more)");
		break;
	case GUARD_CPUS:
		msg_str(&m, "corrupt: it names more than ");
		msg_uint(&m, NS_MAX_CPUS);
		msg_str(&m, " CPUs");
		break;
	default:
		msg_str(&m, "cannot check it in a child process");
		break;
	}
	return -1;
}

/* Start the guard child: its pid, or -1 with the reason in @err. */
static pid_t guard_start(const char *path, off_t size, char *err, size_t err_len)
{
	pid_t pid = ns_trace_fork();

	if (pid < 0) {
		ns_set_err(err, err_len, "cannot check it in a child process: %s",
			errno == EBUSY ? "other threads are running" : strerror(errno));
		return -1;
	}
	if (pid == 0)
		_exit(guard_child(path, size));
	return pid;
}

/* Wait for the guard child: 0, or -1 with the reason in @err. */
static int guard_wait(pid_t pid, char *err, size_t err_len)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ns_set_err(err, err_len, "cannot check it in a child process: %s",
				strerror(errno));
			return -1;
		}
	}
	return guard_verdict(status, err, err_len);
}

/*
 * The guard beside our own open (ns_trace_open_opts.exit_on_crash): the
 * child and this process open the file at once, on two CPUs, where the
 * child's open used to come first and ours after it, each some 20 ms of
 * the first frame of sample.dat. Until our open is done, a crash of ours
 * (or an open over NS_GUARD_SECONDS, or over the child's memory budget,
 * which our address space gets meanwhile) is caught here: the handler
 * waits for the child, which reads the same bytes with the same code and
 * says what is wrong, prints the message the viewer prints for it and
 * ends the process with status 1. Only where nothing is on the screen and
 * the process may end: at the start, never for a file opened from the
 * screen. Our open that succeeds where the child failed is given up
 * (leaked, not closed: it read a damaged file).
 */
static struct {
	int nr;			/* the children: one per file opened at once */
	pid_t pid[NS_TRACE_MAX_FILES];
	const char *path[NS_TRACE_MAX_FILES];
	volatile sig_atomic_t cur;	/* the one whose open runs */
	struct sigaction old[6];
	struct rlimit as;
	bool as_set;
	stack_t old_stack;
	int err_fd;		/* stderr, while fd 2 is /dev/null */
} beside = { .err_fd = -1 };
static const int beside_sigs[6] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM };
static char beside_stack[1U << 16];
static void beside_fatal(int sig)
{
	char line[512], why[256];
	struct msg m = { line, sizeof(line), 0 };
	int status = 0, saved = errno, k = beside.cur;

	while (waitpid(beside.pid[k], &status, 0) < 0 && errno == EINTR)
		;
	if (!guard_verdict(status, why, sizeof(why)) || !why[0]) {
		/* the child got through where we did not */
		struct msg w = { why, sizeof(why), 0 };

		if (sig == SIGALRM) {
			msg_str(&w, "corrupt: libtracecmd took over ");
			msg_uint(&w, NS_GUARD_SECONDS);
			msg_str(&w, " s to open it");
		} else {
			msg_str(&w, "corrupt: libtracecmd crashes reading it (");
			msg_signal(&w, sig);
			msg_str(&w, ")");
		}
	}
	msg_str(&m, "nurseshark: ");
	msg_str(&m, beside.path[k]);
	msg_str(&m, ": ");
	msg_str(&m, why);
	msg_str(&m, "\n");
	if (write(beside.err_fd >= 0 ? beside.err_fd : STDERR_FILENO, line, m.n) < 0)
		errno = saved;
	_exit(1);
}

/*
 * The guard beside our opens of @n files, one after the other (beside.cur:
 * the one whose open runs), their children @pid all running (the
 * address-space budget is the sum of theirs).
 */
static void beside_begin(int n, const pid_t *pid, const char *const *path, const off_t *size)
{
	struct sigaction sa;
	stack_t st = { .ss_sp = beside_stack, .ss_size = sizeof(beside_stack) };
	unsigned long long budget;
	struct rlimit as;
	int null_fd, k;
	size_t i;

	beside.nr = n;
	for (k = 0; k < n; k++) {
		beside.pid[k] = pid[k];
		beside.path[k] = path[k];
	}
	beside.cur = 0;
	/* what glibc says of a damaged heap before it aborts: the child's reason only */
	fflush(stderr);
	beside.err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (beside.err_fd >= 0 && null_fd >= 0)
		dup2(null_fd, STDERR_FILENO);
	if (null_fd >= 0)
		close(null_fd);
	sigaltstack(&st, &beside.old_stack);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = beside_fatal;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < NS_ARRAY_SIZE(beside_sigs); i++)
		sigaction(beside_sigs[i], &sa, &beside.old[i]);
	alarm(NS_GUARD_SECONDS);
	/* the children's budget for ours too, the soft limit only: it is put back */
	beside.as_set = false;
	if (!NS_GUARD_LIMIT || getrlimit(RLIMIT_AS, &beside.as))
		return;
	budget = vm_size();
	for (k = 0; k < n; k++)
		budget += NS_GUARD_SLACK + 2ULL * (size[k] > 0 ? (unsigned long long)size[k] : 0);
	as = beside.as;
	if (as.rlim_cur == RLIM_INFINITY || as.rlim_cur > budget) {
		as.rlim_cur = budget;
		beside.as_set = !setrlimit(RLIMIT_AS, &as);
	}
}

static void beside_end(void)
{
	size_t i;

	alarm(0);
	for (i = 0; i < NS_ARRAY_SIZE(beside_sigs); i++)
		sigaction(beside_sigs[i], &beside.old[i], NULL);
	if (beside.err_fd >= 0) {
		dup2(beside.err_fd, STDERR_FILENO);
		close(beside.err_fd);
		beside.err_fd = -1;
	}
	sigaltstack(&beside.old_stack, NULL);
	if (beside.as_set)
		setrlimit(RLIMIT_AS, &beside.as);
	beside.as_set = false;
	beside.nr = 0;
}

/* Open the file in a child first; 0, or -1 with the reason in @err. */
static int guard_open(const char *path, off_t size, char *err, size_t err_len)
{
	pid_t pid = guard_start(path, size, err, err_len);

	return pid < 0 ? -1 : guard_wait(pid, err, err_len);
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

	for (i = 0; clock && i < NS_ARRAY_SIZE(clocks); i++)
		if (!strcmp(clock, clocks[i]))
			return tracecmd_get_flags(handle) & NS_TRACECMD_FL_IN_USECS;
	return true;
}

/*
 * libtracecmd's opens and closes, one at a time in the process. Opening a
 * handle registers the ftrace options in libtraceevent's one list for the
 * process (tep_plugin_add_options()), loading and unloading plugins edits
 * that list again, and the function plugin's unloader frees the stacks all
 * handles share. The indexing threads open their own handles, one file's
 * export thread may recycle its handle while another's reads: these run
 * one after the other under this lock. guard_child() takes no lock: it is
 * alone in its process.
 */
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;

void ns_trace_handles_lock(void)
{
	pthread_mutex_lock(&handles_lock);
}

void ns_trace_handles_unlock(void)
{
	pthread_mutex_unlock(&handles_lock);
}

/* tracecmd_close() under the lock above. */
void ns_trace_handle_close(struct tracecmd_input *handle)
{
	if (!handle)
		return;
	ns_trace_handles_lock();
	tracecmd_close(handle);
	ns_trace_handles_unlock();
}

/*
 * Open the file through libtracecmd and make its tep know what the index
 * knows: sched fields, and the task names report learns while printing.
 */
static int open_handle(const char *path, bool mute, struct tracecmd_input **out_handle)
{
	struct tracecmd_input *handle;
	int out = -1, null_fd, ret;

	/* libtracecmd printf()s "File possibly truncated": keep stdout clean */
	if (mute) {
		fflush(stdout);
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null_fd >= 0) {
			out = dup(STDOUT_FILENO);
			dup2(null_fd, STDOUT_FILENO);
			close(null_fd);
		}
	}
	ns_trace_handles_lock();
	handle = tracecmd_open_head(path, 0);
	if (handle)
		ns_trace_kallsyms_attach(tracecmd_get_tep(handle));
	ret = handle ? tracecmd_init_data(handle) : -1;
	ns_trace_handles_unlock();
	if (out >= 0) {
		fflush(stdout);
		dup2(out, STDOUT_FILENO);
		close(out);
	}
	if (!handle)
		return -EIO;
	if (ret < 0)
		return -ENODATA;	/* leaked: closing it would crash */
	*out_handle = handle;
	return 0;
}

/**
 * ns_trace_reopen_handle - another handle on a file that opened fine before
 * For indexing threads: no stdout games (they are not thread-safe), since
 * the file passed libtracecmd's checks already.
 */
int ns_trace_reopen_handle(const char *path, struct tracecmd_input **handle)
{
	return open_handle(path, false, handle);
}

static int attach(struct ns_trace *trace, bool mute)
{
	struct tracecmd_input *handle = NULL;
	int ret, cpu, page_size;
	bool compressed, in_usecs;
	size_t i;

	ret = open_handle(trace->path, mute, &handle);
	if (ret)
		return ret;
	ns_trace_set_ts_offset(trace, handle);
	trace->handle = handle;
	trace->tep = tracecmd_get_tep(trace->handle);
	memset(trace->event_cache, 0, sizeof(trace->event_cache));
	/*
	 * the same file again on a recycle: written only when they change, as
	 * other indexing threads read them meanwhile (ThreadSanitizer's race)
	 */
	page_size = tracecmd_page_size(trace->handle);
	in_usecs = clock_in_usecs(trace->handle);
	compressed = tracecmd_get_flags(trace->handle) & NS_TRACECMD_FL_COMPRESSION;
	if (trace->page_size != page_size)
		trace->page_size = page_size;
	if (trace->in_usecs != in_usecs)
		trace->in_usecs = in_usecs;
	if (trace->compressed != compressed)
		trace->compressed = compressed;
	trace->bytes_read = 0;
	for (cpu = 0; trace->cpus && cpu < trace->nr_cpus; cpu++) {
		trace->cpus[cpu].cur.have_next = false;
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
	ns_trace_close_buffer_handles(trace);
	ns_trace_handle_close(trace->handle);
	trace->handle = NULL;
	return attach(trace, true);
}

/* Count the pages libtracecmd had to bring in, for ns_trace_recycle(). */
void ns_trace_count_page(struct ns_trace *trace, struct ns_cpu *c, uint64_t page)
{
	if (c->cur_page == page)
		return;
	c->cur_page = page;
	trace->bytes_read += trace->page_size;
}

static void *indexer_main(void *arg)
{
	struct ns_trace *trace = arg;

	trace->index_ret = ns_index_build(trace);
	atomic_store_explicit(&trace->done, 1, memory_order_release);
	return NULL;
}

static void index_error(char *err, size_t err_len, int ret)
{
	if (ret == -EBADMSG)
		ns_set_err(err, err_len, "corrupt: a page of its events is damaged");
	else if (ret == -ESTALE)	/* cut or recorded over while indexing */
		ns_set_err(err, err_len, "%s", NS_TRACE_CHANGED_MSG);
	else if (ret == -ENOMEM)
		ns_set_nomem(err, err_len);
	else
		ns_set_err(err, err_len, "cannot index events: %s", strerror(-ret));
}

struct ns_trace *ns_trace_open(const char *path, char *err, size_t err_len)
{
	struct ns_trace *trace = ns_trace_open_async(path, err, err_len);

	if (trace && ns_trace_wait(trace, err, err_len)) {
		ns_trace_close(trace);
		return NULL;
	}
	return trace;
}

int ns_trace_wait(struct ns_trace *trace, char *err, size_t err_len)
{
	if (trace->multi)
		return ns_multi_wait(trace, err, err_len);
	if (trace->indexing) {
		pthread_join(trace->indexer, NULL);
		trace->indexing = false;
		if (trace->index_ret)
			index_error(err, err_len, trace->index_ret);
	}
	return trace->index_ret;
}

bool ns_trace_loading(const struct ns_trace *trace, struct ns_trace_progress *prog)
{
	int cpu;

	if (trace->multi)
		return ns_multi_loading(trace, prog);
	if (prog) {
		memset(prog, 0, sizeof(*prog));
		prog->first_ns = trace->indexing ? trace->span_first : trace->first_ns;
		prog->last_ns = trace->indexing ? trace->span_last : trace->last_ns;
		prog->total_pages = trace->total_pages;
		for (cpu = 0; cpu < trace->nr_cpus; cpu++) {
			prog->done_pages += atomic_load_explicit(&trace->cpus[cpu].done_pages,
								 memory_order_relaxed);
			prog->events += ns_trace_cpu_nr_events(trace, cpu);
		}
	}
	return trace->indexing && !atomic_load_explicit(&trace->done, memory_order_acquire);
}

static struct ns_trace *open_async(const char *path, const struct ns_trace_open_opts *opts,
				   bool capture, bool defer, char *err, size_t err_len);

struct ns_trace *ns_trace_open_async(const char *path, char *err, size_t err_len)
{
	return ns_trace_open_async_opts(path, NULL, err, err_len);
}

struct ns_trace *ns_trace_open_async_opts(const char *path, const struct ns_trace_open_opts *opts,
					  char *err, size_t err_len)
{
	return open_async(path, opts, false, false, err, err_len);
}

struct ns_trace *ns_trace_open_capture(const char *path, bool capture, char *err, size_t err_len)
{
	struct ns_trace *trace = open_async(path, NULL, capture, false, err, err_len);

	if (trace && ns_trace_wait(trace, err, err_len)) {
		ns_trace_close(trace);
		return NULL;
	}
	return trace;
}

static int start_index(struct ns_trace *trace, char *err, size_t err_len)
{
	struct rlimit as;
	int ret = ns_index_prepare(trace);

	/*
	 * In the background where the fast reader reads the file; not under
	 * an address-space limit, where one more thread's stack may be what
	 * the index needs.
	 */
	if (!ret && trace->pages && (getrlimit(RLIMIT_AS, &as) || as.rlim_cur == RLIM_INFINITY) &&
	    !pthread_create(&trace->indexer, NULL, indexer_main, trace)) {
		trace->indexing = true;
		return 0;
	}
	if (!ret)
		ret = trace->index_ret = ns_index_build(trace);
	if (ret)
		index_error(err, err_len, ret);
	return ret;
}

int ns_trace_start_index(struct ns_trace *trace, char *err, size_t err_len)
{
	return start_index(trace, err, err_len);
}

/*
 * The open up to the guard: the file checked, the trace allocated, the
 * plugins loaded. NULL with the reason in @err.
 */
static struct ns_trace *open_start(const char *path, const struct ns_trace_open_opts *opts,
				   char *err, size_t err_len)
{
	struct stat st;
	struct ns_trace *trace;

	ns_trace_clock_guard();
	ns_trace_kallsyms_keep();
	ns_trace_cmdlines_keep();
	if (check_file(path, err, err_len))
		return NULL;
	trace = calloc(1, sizeof(*trace));
	if (!trace)
		goto nomem;
	trace->path = strdup(path);
	if (!trace->path)
		goto nomem;
	if (opts)
		trace->opts = *opts;
	pthread_mutex_init(&trace->tep_lock, NULL);
	pthread_mutex_init(&trace->handle_lock, NULL);

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);

	if (stat(path, &st) == 0) {
		trace->file_size = st.st_size;
		trace->file_mtime = st.st_mtim;
	}
	/*
	 * libtraceevent's plugins, loaded before the guard's fork, are found
	 * loaded by the child's open and by ours: the dozen dlopen()s once.
	 * Unloaded at the close, after the handle's: their unloaders free
	 * what all handles share.
	 */
	trace->plugins_tep = trace->opts.trusted ? NULL : tep_alloc();
	if (trace->plugins_tep) {
		ns_trace_handles_lock();
		trace->plugins = tep_load_plugins(trace->plugins_tep);
		ns_trace_handles_unlock();
	}
	return trace;
nomem:
	ns_set_nomem(err, err_len);
	if (trace)
		free(trace->path);
	free(trace);
	return NULL;
}

/* The open after attach() gave @ret: 0, or -1 with the reason in @err. */
static int open_finish(struct ns_trace *trace, int ret, bool capture, char *err, size_t err_len)
{
	if (ret) {
		ns_set_err(err, err_len, ret == -ENODATA ?
			   "truncated or corrupt: the event data ends before the file says" :
			   "cannot read it as a trace.dat (truncated or corrupt header)");
		return -1;
	}
	trace->nr_cpus = tep_get_cpus(trace->tep);
	if (trace->page_size <= 0 || trace->page_size > 65536 ||
	    (trace->page_size & (trace->page_size - 1))) {
		ns_set_err(err, err_len, "unsupported ring-buffer page size %d", trace->page_size);
		return -1;
	}
	if (trace->nr_cpus < 0 || trace->nr_cpus > NS_MAX_CPUS) {
		ns_set_err(err, err_len, "implausible number of CPUs (%d)", trace->nr_cpus);
		return -1;
	}
	if (ns_index_open_pages(trace, err, err_len))
		return -1;
	trace->cpus = calloc(trace->nr_cpus ? trace->nr_cpus : 1, sizeof(*trace->cpus));
	if (!trace->cpus) {
		ns_set_nomem(err, err_len);
		return -1;
	}
	for (ret = 0; ret < trace->nr_cpus; ret++)
		trace->cpus[ret].cur_page = UINT64_MAX;
	if (capture && !(trace->capture = ns_sched_capture_new(trace))) {
		ns_set_nomem(err, err_len);
		return -1;
	}
	return 0;
}

static struct ns_trace *open_async(const char *path, const struct ns_trace_open_opts *opts,
				   bool capture, bool defer, char *err, size_t err_len)
{
	struct ns_trace *trace = open_start(path, opts, err, err_len);
	pid_t guard = 0;
	int ret;

	if (!trace)
		return NULL;
	/* a file we have just written (nurseshark live) needs no child to vouch for it */
	if (trace->opts.trusted) {
		ret = 0;
	} else if (trace->opts.exit_on_crash && NS_GUARD_LIMIT) {
		guard = guard_start(path, trace->file_size, err, err_len);
		ret = guard < 0 ? -1 : 0;
	} else {
		ret = guard_open(path, trace->file_size, err, err_len);
	}
	if (ret)
		goto fail;
	ns_memory_open_begin(12U << 20);
	if (guard > 0)
		beside_begin(1, &guard, &path, &trace->file_size);
	ret = attach(trace, true);
	ns_memory_open_end();
	if (guard > 0) {
		beside_end();
		if (guard_wait(guard, err, err_len)) {
			trace->handle = NULL;	/* leaked: it read a damaged file */
			trace->tep = NULL;
			goto fail;
		}
	}
	if (open_finish(trace, ret, capture, err, err_len))
		goto fail;
	if (defer || !start_index(trace, err, err_len))
		return trace;
fail:
	ns_trace_close(trace);
	return NULL;
}

/*
 * Open @n files of @t (@t[k] from open_start()): their guard children
 * forked first, all at once, then our opens one after the other, beside
 * the children (exit_on_crash, as open_async()) or after them all. 0, or
 * -1 with the reason in @err about *@failed (the earliest file that
 * failed), the files' handles closed or leaked by ns_trace_close().
 */
static int open_batch(struct ns_trace **t, int n, int *failed, char *err, size_t err_len)
{
	pid_t guard[NS_TRACE_MAX_FILES] = { 0 };
	const char *path[NS_TRACE_MAX_FILES] = { 0 };
	off_t size[NS_TRACE_MAX_FILES] = { 0 };
	int attached[NS_TRACE_MAX_FILES];
	bool beside_mode = t[0]->opts.exit_on_crash && NS_GUARD_LIMIT;
	char why[512];
	int k, ret = 0;

	for (k = 0; k < n; k++) {
		guard[k] = 0;
		attached[k] = -EIO;
		path[k] = t[k]->path;
		size[k] = t[k]->file_size;
	}
	for (k = 0; k < n && !ret; k++) {
		if (t[k]->opts.trusted)
			continue;
		guard[k] = guard_start(path[k], size[k], err, err_len);
		if (guard[k] < 0) {
			guard[k] = 0;
			*failed = k;
			ret = -1;
		}
	}
	/* not beside: every child's verdict before any open of ours */
	for (k = 0; k < n && !beside_mode; k++) {
		if (guard[k] && guard_wait(guard[k], why, sizeof(why)) && !ret) {
			ns_set_err(err, err_len, "%s", why);
			*failed = k;
			ret = -1;
		}
		guard[k] = 0;
	}
	if (ret)
		goto reap;
	ns_memory_open_begin(12U << 20);
	if (beside_mode)
		beside_begin(n, guard, path, size);
	for (k = 0; k < n; k++) {
		beside.cur = k;
		attached[k] = attach(t[k], true);
	}
	ns_memory_open_end();
	if (beside_mode)
		beside_end();
reap:
	for (k = 0; k < n; k++) {
		if (guard[k] && guard_wait(guard[k], why, sizeof(why))) {
			t[k]->handle = NULL;	/* leaked: it read a damaged file */
			t[k]->tep = NULL;
			attached[k] = -EIO;
			if (!ret) {
				ns_set_err(err, err_len, "%s", why);
				*failed = k;
				ret = -1;
			}
		}
	}
	for (k = 0; k < n && !ret; k++) {
		if (open_finish(t[k], attached[k], false, err, err_len)) {
			*failed = k;
			ret = -1;
		}
	}
	return ret;
}

/*
 * The headers of @n files, not indexed yet (ns_trace_start_index()), for
 * several files on one timeline: in batches of twice as many files as
 * there are CPUs (at least 4), each batch's guard children forked at once
 * (no thread runs yet), then our opens one after the other beside them.
 * Where each file's open used to wait for its own child, the children now
 * run ahead on the other CPUs. (Our opens in threads of their own were
 * slower still on 2 CPUs: the opens use all the CPU there is, and a
 * threaded process pays for its page faults with the other CPUs'
 * TLB flushes.) 0 with @out[0..n), or -1 with the reason in @err about
 * file *@failed and nothing left open.
 */
int ns_trace_open_headers(const char *const *paths, const struct ns_trace_open_opts *opts, int n,
			  struct ns_trace **out, int *failed, char *err, size_t err_len)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int batch = online > 2 ? (int)online : 2, k, first;

	if (n < 1 || n > NS_TRACE_MAX_FILES) {
		*failed = 0;
		ns_set_err(err, err_len, "%d files: from 1 to %d", n, NS_TRACE_MAX_FILES);
		return -1;
	}
	for (k = 0; k < n; k++)
		out[k] = NULL;
	for (k = 0; k < n; k++) {
		out[k] = open_start(paths[k], opts ? &opts[k] : NULL, err, err_len);
		if (!out[k]) {
			*failed = k;
			goto fail;
		}
	}
	for (first = 0; first < n; first += batch) {
		int nr = n - first < batch ? n - first : batch;

		if (open_batch(out + first, nr, failed, err, err_len)) {
			*failed += first;
			goto fail;
		}
	}
	return 0;
fail:
	for (k = 0; k < n; k++) {
		ns_trace_close(out[k]);
		out[k] = NULL;
	}
	return -1;
}

void ns_trace_close(struct ns_trace *trace)
{
	int cpu;

	if (!trace)
		return;
	if (trace->multi) {
		ns_multi_close(trace);
		return;
	}
	if (trace->indexing) {
		atomic_store_explicit(&trace->cancel, 1, memory_order_relaxed);
		pthread_join(trace->indexer, NULL);
		trace->indexing = false;
	}
	ns_trace_close_buffer_handles(trace);
	ns_trace_handle_close(trace->handle);
	if (trace->plugins_tep) {
		ns_trace_handles_lock();
		tep_unload_plugins(trace->plugins, trace->plugins_tep);
		ns_trace_handles_unlock();
		tep_free(trace->plugins_tep);
	}
	for (cpu = 0; trace->cpus && cpu < trace->nr_cpus; cpu++) {
		ns_events_free(&trace->cpus[cpu].ev);
		free(trace->cpus[cpu].page_offs);
		if (trace->cpus[cpu].cur.rd)
			ns_pages_iter_close(trace->cpus[cpu].cur.rd);
		free(trace->cpus[cpu].pages);
		free(trace->cpus[cpu].runs);
		free(trace->cpus[cpu].missed);
		ns_tasks_free(&trace->cpus[cpu].names);
	}
	ns_preview_free(trace->preview, trace->nr_cpus);
	ns_sched_capture_free(trace->capture, trace->nr_cpus);
	free(trace->cpus);
	ns_evpool_free(trace->evpool);
	ns_pages_close(trace->pages);
	free(trace->order);
	ns_tasks_free(&trace->tasks);
	free(trace->path);
	if (trace->seq_ready)
		trace_seq_destroy(&trace->seq);
	pthread_mutex_destroy(&trace->tep_lock);
	pthread_mutex_destroy(&trace->handle_lock);
	free(trace);
}
