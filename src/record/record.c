// SPDX-License-Identifier: GPL-2.0-only
/*
 * `nurseshark record`: the command line, the run and the cleanup. The order
 * is what keeps the promises of the command: everything that can fail
 * without touching the kernel is checked first (options, the output file,
 * root and tracefs, the event names, the temp files); then the tracing state
 * is saved and changed; then a reader thread per CPU drains its ring buffer while the
 * command runs, for the duration, or until a signal; then the file is
 * written under a temp name, the state is put back (on every path, errors
 * and signals included) and the temp file is renamed onto the output.
 * SIGINT, SIGTERM and SIGHUP only set a flag that ends the recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nurseshark/record.h"
#include "nurseshark/util.h"
#include "record-int.h"

#ifndef NURSESHARK_VERSION
#define NURSESHARK_VERSION "0.1"
#endif

#define DEFAULT_OUTPUT "trace.dat"
#define PROGRESS_MS 500
/*
 * What live holds by default: ~8 MiB of pages, a frame in well under a
 * second on a small board (each frame writes and indexes all of it).
 */
#define NS_LIVE_KEEP_EVENTS 200000ULL
#define NS_LIVE_KEEP_TEXT "200000"

/* The signal that asked the recording to stop: a handler can only set a flag. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "Ctrl-C (SIGINT)";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	}
	return "a signal";
}

/*
 * For the tests that stop a recording at a given moment:
 * --test-record-stage STAGE:FILE (not in the usage; the man page says so)
 * makes the run, once at STAGE
 * ("checked": the file checked, the kernel not touched yet; "setup": the
 * tracing state saved and changed, tracing still off; "traced": tracing on,
 * the command not started; "spawned": the command started), write its pid
 * to FILE and wait there for a signal (30 s at most), so that a test can
 * send one exactly then, with no sleep. Not for users; not in the usage.
 */
static void test_stage(const char *want, const char *stage)
{
	size_t n = strlen(stage);
	sigset_t block, old;
	char tmp[4200];
	FILE *f;

	if (!want || strncmp(want, stage, n) || want[n] != ':' || !want[n + 1])
		return;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* whole or not at all: the test reads it once it is there */
	snprintf(tmp, sizeof(tmp), "%.4000s.tmp", want + n + 1);
	f = fopen(tmp, "w");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		if (!fclose(f))
			rename(tmp, want + n + 1);
	}
	for (int i = 0; i < 300 && !stop_signal; i++) {
		struct timespec tick = { 0, 100 * 1000 * 1000 };

		ppoll(NULL, 0, &tick, &old);	/* the signals get through only here */
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

enum { OPT_DURATION = 256, OPT_NO_VIEW, OPT_EXPORT, OPT_SNAPSHOT, OPT_KEYS, OPT_KEEP,
       OPT_SUBBUF_SIZE, OPT_TEST_STAGE };

static const struct option record_options[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "clock", required_argument, NULL, 'C' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "no-view", no_argument, NULL, OPT_NO_VIEW },
	{ "export", no_argument, NULL, OPT_EXPORT },
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "subbuf-size", required_argument, NULL, OPT_SUBBUF_SIZE },
	/* for tests/recordstop.sh only: not in the usage */
	{ "test-record-stage", required_argument, NULL, OPT_TEST_STAGE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char usage_text[] =
	"usage: nurseshark record [-e EVENT]... [-b KB] [-C CLOCK] [--subbuf-size KB]\n"
	"         [-B BUFFER [-e EVENT]...] [-o FILE] [--duration SECONDS] [--no-view]\n"
	"         [-- COMMAND ARGS...]\n"
	"  -e, --event EVENT      all, SYSTEM, SYSTEM:EVENT or SYSTEM/EVENT (globs);\n"
	"                         default sched and irq\n"
	"  -b, --buffer-size KB   per-CPU ring buffer size in KiB while recording\n"
	"  -C, --clock CLOCK      trace clock while recording (see trace_clock)\n"
	"  --subbuf-size KB       ring buffer sub-buffer (the file's page) size in\n"
	"                         KiB while recording (buffer_subbuf_size_kb)\n"
	"  -B, --buffer BUFFER    record the instance BUFFER too; the -e, -b, -C\n"
	"                         after it are its own\n"
	"  -o, --output FILE      default trace.dat; replaces only a trace.dat\n"
	"  --duration SECONDS     stop after SECONDS (and stop the command)\n"
	"  --no-view              do not open the viewer on the file afterwards\n"
	"  -h, --help             print this and exit\n"
	"Records while COMMAND runs, for the duration, or until Ctrl-C; the tracing\n"
	"state is put back afterwards.\n";

static const char live_usage_text[] =
	"usage: nurseshark live [-e EVENT]... [-b KB] [-C CLOCK] [-B BUFFER [-e EVENT]...]\n"
	"         [--keep EVENTS|SECONDSs] [-- COMMAND ARGS...]\n"
	"       nurseshark live [OPTIONS] --duration SECONDS\n"
	"         (--export | --snapshot COLSxROWS [--keys KEYS]) [-- COMMAND ARGS...]\n"
	"Shows the running kernel's events as they arrive (options as for\n"
	"nurseshark record but --subbuf-size): the window follows the newest;\n"
	"Space pauses the screen (not the recording), G or End follows again,\n"
	":save FILE writes what is held as a trace.dat, q stops.\n"
	"  --keep EVENTS          hold the newest EVENTS events (default "
	NS_LIVE_KEEP_TEXT "),\n"
	"  --keep SECONDSs        or those of the last SECONDS (10s); the oldest go\n"
	"With --duration, reads for SECONDS, then prints them as --export or\n"
	"--snapshot print a trace; no file is kept.\n";

struct reader;

struct record {
	const char *cmd;	/* "record" or "live", for the messages */
	bool live;		/* `nurseshark live`: print the recording, keep no file */
	bool export;		/* live --export */
	const char *snapshot;	/* live --snapshot COLSxROWS */
	const char *keys;	/* live --keys */
	bool interactive;	/* live on the screen (no --duration) */
	unsigned long long keep_events, keep_ns;	/* live --keep */
	const struct ns_record_live_ui *ui;
	double start;		/* when recording started (now_s()) */
	struct reader *rds;	/* live: the readers, for their errors */
	int nrds;
	char *live_dir;		/* the temp directory of live's file */
	struct ns_rec_buffer *bufs;
	int nbufs;
	const char *output;
	bool output_set;
	double duration;
	long subbuf_kb;		/* --subbuf-size, for every buffer recorded */
	bool view;
	char **command;
	char *tmp_path;		/* the trace.dat being written, beside the output */
	int tmp_fd;
	bool progress;		/* stderr is a terminal */
	bool shown;		/* a progress line is on the terminal */
	double elapsed;
	pid_t child;
	int child_status;
	const char *test_stage;	/* --test-record-stage STAGE:FILE */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct ns_rec_buffer *add_buffer(struct record *r, const char *name)
{
	struct ns_rec_buffer *n = realloc(r->bufs, sizeof(*n) * (size_t)(r->nbufs + 1));

	if (!n)
		return NULL;
	r->bufs = n;
	n = &r->bufs[r->nbufs++];
	memset(n, 0, sizeof(*n));
	n->name = name ? strdup(name) : NULL;
	return n;
}

static int usage_error(const struct record *r, const char *what, const char *arg)
{
	fprintf(stderr, "nurseshark: %s: %s '%s'\n", r->cmd, what, arg);
	return 2;
}

/* Parses the options into @r. Returns 0, or 2 after printing the usage error. */
static int parse_args(struct record *r, int argc, char **argv)
{
	struct ns_rec_buffer *cur;
	bool top_used = false;
	char *end;
	int opt;

	r->output = DEFAULT_OUTPUT;
	r->view = true;
	cur = add_buffer(r, NULL);
	if (!cur)
		return 2;
	argv[0] = r->live ? "nurseshark live" : "nurseshark record";	/* getopt's messages */
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+e:b:C:B:o:h", record_options, NULL)) != -1) {
		switch (opt) {
		case 'e':
			cur->specs = tracefs_list_add(cur->specs, optarg);
			if (!cur->name)
				top_used = true;
			break;
		case 'b':
			cur->kb = strtol(optarg, &end, 10);
			if (end == optarg || *end || cur->kb < 1)
				return usage_error(r, "-b wants a size in KiB, not", optarg);
			if (!cur->name)
				top_used = true;
			break;
		case OPT_SUBBUF_SIZE:
			r->subbuf_kb = strtol(optarg, &end, 10);
			if (end == optarg || *end || r->subbuf_kb < 1 || r->subbuf_kb > 1024 * 1024)
				return usage_error(r, "--subbuf-size wants a size in KiB, not", optarg);
			break;
		case OPT_TEST_STAGE:
			r->test_stage = optarg;
			break;
		case 'C':
			cur->clock = optarg;
			if (!cur->name)
				top_used = true;
			break;
		case 'B':
			if (!*optarg || strchr(optarg, '/') || !strcmp(optarg, ".") ||
			    !strcmp(optarg, "..")) {
				return usage_error(r, "bad buffer name", optarg);
			}
			cur = add_buffer(r, optarg);
			if (!cur)
				return 2;
			break;
		case 'o':
			r->output = optarg;
			r->output_set = true;
			break;
		case OPT_DURATION:
			r->duration = strtod(optarg, &end);
			if (end == optarg || *end || !(r->duration > 0))
				return usage_error(r, "--duration wants seconds, not", optarg);
			break;
		case OPT_NO_VIEW:
			r->view = false;
			break;
		case OPT_EXPORT:
			r->export = true;
			break;
		case OPT_SNAPSHOT:
			r->snapshot = optarg;
			break;
		case OPT_KEYS:
			r->keys = optarg;
			break;
		case OPT_KEEP: {
			double v = strtod(optarg, &end);

			if (end == optarg || !(v > 0) || (*end && strcmp(end, "s")) ||
			    (!*end && (v != (double)(unsigned long long)v || v < 1000)))
				return usage_error(r, "--keep wants EVENTS (at least 1000) or "
						   "SECONDSs, not", optarg);
			if (*end) {
				r->keep_ns = (unsigned long long)(v * 1e9);
				r->keep_events = 0;
			} else {
				r->keep_events = (unsigned long long)v;
				r->keep_ns = 0;
			}
			break;
		}
		case 'h':
			fputs(r->live ? live_usage_text : usage_text, stdout);
			exit(0);
		default:
			fprintf(stderr, "Try 'nurseshark %s --help'.\n", r->cmd);
			return 2;
		}
	}
	if (!r->live && (r->export || r->snapshot || r->keys)) {
		fprintf(stderr, "nurseshark: record: --export, --snapshot and --keys are for "
			"nurseshark live (or the viewer on the file)\n");
		return 2;
	}
	r->interactive = r->live && !(r->duration > 0) && !r->export && !r->snapshot && !r->keys;
	if (r->live && !r->interactive && (!(r->duration > 0) || r->export == !!r->snapshot ||
					   (r->keys && !r->snapshot))) {
		fprintf(stderr, "nurseshark: live: --duration SECONDS goes with --export or "
			"--snapshot COLSxROWS, and these with --duration\n");
		return 2;
	}
	if (r->live && r->subbuf_kb) {
		fprintf(stderr, "nurseshark: live: --subbuf-size is for nurseshark record\n");
		return 2;
	}
	if (r->live && r->output_set) {
		fprintf(stderr, "nurseshark: live: no -o: :save FILE in the live screen writes "
			"what it holds\n");
		return 2;
	}
	if (r->interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "nurseshark: live: the live screen needs a terminal (else "
			"--duration SECONDS with --export or --snapshot)\n");
		return 2;
	}
	if (r->interactive && !r->keep_events && !r->keep_ns)
		r->keep_events = NS_LIVE_KEEP_EVENTS;
	if (optind < argc)
		r->command = argv + optind;
	/* With -B, the top instance is recorded only when options named it. */
	if (r->nbufs > 1 && !top_used) {
		free(r->bufs[0].name);
		memmove(&r->bufs[0], &r->bufs[1], sizeof(*r->bufs) * (size_t)(r->nbufs - 1));
		r->nbufs--;
	}
	/*
	 * The file's page size is the top instance's sub-buffer size, which
	 * libtracecmd's writer reads from events/header_page (output.c).
	 */
	if (r->subbuf_kb && r->bufs[0].name) {
		fprintf(stderr, "nurseshark: %s: --subbuf-size needs the top instance recorded "
			"too (an -e before -B): the file's pages are its sub-buffers\n", r->cmd);
		return 2;
	}
	for (int b = 0; b < r->nbufs; b++) {
		r->bufs[b].subbuf_kb = r->subbuf_kb;
		if (!r->bufs[b].specs) {
			r->bufs[b].specs = tracefs_list_add(NULL, "sched");
			r->bufs[b].specs = tracefs_list_add(r->bufs[b].specs, "irq");
		}
	}
	return 0;
}

/* Is the file at @path a trace.dat (its magic), which may be replaced? */
static bool is_trace_dat(const char *path)
{
	static const char magic[] = "\027\010\104tracing";
	char head[sizeof(magic) - 1];
	/* O_NONBLOCK: a FIFO must not wait for a writer; only a regular file may be one */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	bool ok;

	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	     read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	     !memcmp(head, magic, sizeof(head));
	close(fd);
	return ok;
}

/* May @output be written: absent, or a trace.dat? 0, or -1 with @err set. */
static int check_output(const char *output, char *err, size_t errlen)
{
	struct stat st;

	if (!lstat(output, &st) || errno != ENOENT) {
		if (!stat(output, &st) && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s is a directory", output);
			return -1;
		}
		if (!is_trace_dat(output) && !(stat(output, &st) && errno == ENOENT)) {
			snprintf(err, errlen, "%s exists and is not a trace.dat: not replacing it",
				 output);
			return -1;
		}
	}
	return 0;
}

/* Checks the output and creates the temp trace.dat beside it. */
static int open_output(struct record *r, char *err, size_t errlen)
{
	char *copy, *dcopy = NULL, *dir, *base;
	mode_t mask;

	if (check_output(r->output, err, errlen))
		return -1;
	copy = strdup(r->output);
	dcopy = strdup(r->output);
	if (!copy || !dcopy)
		goto nomem;
	base = basename(copy);
	dir = dirname(dcopy);
	if (asprintf(&r->tmp_path, "%s/.%s.nsrec.XXXXXX", dir, base) < 0) {
		r->tmp_path = NULL;
		goto nomem;
	}
	r->tmp_fd = mkostemp(r->tmp_path, O_CLOEXEC);
	if (r->tmp_fd < 0) {
		snprintf(err, errlen, "cannot create a file in %s: %s", dir, strerror(errno));
		free(r->tmp_path);
		r->tmp_path = NULL;
		free(copy);
		free(dcopy);
		return -1;
	}
	free(copy);
	free(dcopy);
	/* mkstemp makes it 0600: give it what creating the file would have. */
	mask = umask(0);
	umask(mask);
	fchmod(r->tmp_fd, 0666 & ~mask);
	return 0;
nomem:
	free(copy);
	free(dcopy);
	snprintf(err, errlen, "out of memory");
	return -1;
}

static int check_tracefs(char *err, size_t errlen)
{
	const char *dir = tracefs_tracing_dir();
	char path[4096];

	if (!dir) {
		snprintf(err, errlen, "no tracefs: mount it (%s)",
			 "mount -t tracefs nodev /sys/kernel/tracing");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	if (access(path, F_OK) && errno == ENOENT) {
		snprintf(err, errlen, "no tracefs at %.400s (mount -t tracefs nodev %.400s)", dir,
			 dir);
		return -1;
	}
	if (access(path, W_OK)) {
		snprintf(err, errlen, "cannot write %.900s: %s (recording needs root)", path,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int ns_record_check(const char *output, char *err, size_t errlen)
{
	if (check_tracefs(err, errlen))
		return -1;
	return output ? check_output(output, err, errlen) : 0;
}

/* Finds or creates each named instance. */
static int open_instances(struct record *r, char *err, size_t errlen)
{
	for (int b = 0; b < r->nbufs; b++) {
		struct ns_rec_buffer *buf = &r->bufs[b];

		buf->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
		if (!buf->name)
			continue;
		buf->inst = tracefs_instance_create(buf->name);
		if (!buf->inst) {
			snprintf(err, errlen, "cannot create the instance %s: %s", buf->name,
				 strerror(errno));
			return -1;
		}
		buf->created = tracefs_instance_is_new(buf->inst);
	}
	return 0;
}

static void human_bytes(unsigned long long n, char *out, size_t len)
{
	if (n >= 10ULL << 20)
		snprintf(out, len, "%llu MiB", n >> 20);
	else if (n >= 10ULL << 10)
		snprintf(out, len, "%llu KiB", n >> 10);
	else
		snprintf(out, len, "%llu B", n);
}

/* The progress line, or with @final the last line, which names the file. */
static void progress(struct record *r, double elapsed, bool final)
{
	unsigned long long events = 0, bytes = 0, lost = 0;
	char size[32];

	for (int b = 0; b < r->nbufs; b++) {
		ns_rec_read_lost(&r->bufs[b], false);
		for (int cpu = 0; cpu < r->bufs[b].ncpus; cpu++) {
			events += atomic_load_explicit(&r->bufs[b].cpus[cpu].events, memory_order_relaxed);
			bytes += atomic_load_explicit(&r->bufs[b].cpus[cpu].bytes, memory_order_relaxed);
			lost += r->bufs[b].cpus[cpu].lost;
		}
	}
	if (!final && !r->progress)
		return;
	human_bytes(bytes, size, sizeof(size));
	if (final && r->live) {
		/* What was read is on standard output; a temp file's name is no news. */
		if (r->shown)
			fputc('\n', stderr);
		r->shown = false;
		return;
	}
	fprintf(stderr, "%snurseshark: %s: %.1f s, %llu events, %s, %llu dropped%s",
		r->progress ? "\r" : "", r->cmd, elapsed, events, size, lost,
		r->progress ? "\033[K" : "");
	r->shown = !final;
	if (final)
		fprintf(stderr, ", written to %s\n", r->output);
	fflush(stderr);
}

/*
 * posix_spawn(), not fork(): reader threads may run already, and a spawn
 * runs nothing of ours in the child (the project forks only through
 * ns_trace_fork(), which refuses a threaded process; tests/layers.sh).
 * The signals we catch are the command's own again.
 */
static int spawn(pid_t *pid, const char *path, char *const argv[], bool search)
{
	posix_spawnattr_t attr;
	sigset_t dfl;
	int ret;

	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	ret = posix_spawnattr_init(&attr);
	if (ret)
		return ret;
	ret = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	if (!ret)
		ret = search ? posix_spawnp(pid, path, NULL, &attr, argv, environ) :
			       posix_spawn(pid, path, NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return ret;
}

static int start_command(struct record *r, char *err, size_t errlen)
{
	int ret = spawn(&r->child, r->command[0], r->command, true);

	if (ret) {
		r->child = 0;
		snprintf(err, errlen, "cannot start %s: %s", r->command[0], strerror(ret));
		return -1;
	}
	return 0;
}

/* One CPU's reader: drains its ring buffer until the main thread says stop. */
struct reader {
	struct ns_rec_cpu *cpu;
	int id;
	const atomic_int *stop;
	atomic_int ret;
	char err[512];
	pthread_t thread;
	bool started;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	struct pollfd pfd = { .fd = rd->cpu->rfd, .events = POLLIN };

	/*
	 * poll() wakes when buffer_percent of the ring buffer is full; the
	 * timeout only bounds how late the stop flag is seen.
	 */
	while (!atomic_load_explicit(rd->stop, memory_order_acquire)) {
		poll(&pfd, 1, 100);
		if (ns_rec_drain_cpu(rd->cpu, rd->id, false, rd->err, sizeof(rd->err))) {
			atomic_store_explicit(&rd->ret, -1, memory_order_release);
			break;
		}
	}
	return NULL;
}

/* Starts a reader thread per CPU (signals stay with the main thread). */
static struct reader *start_readers(struct record *r, const atomic_int *stop, int *n,
				    char *err, size_t errlen)
{
	struct reader *rds;
	sigset_t all, old;

	*n = 0;
	for (int b = 0; b < r->nbufs; b++)
		*n += r->bufs[b].ncpus;
	rds = calloc((size_t)*n, sizeof(*rds));
	if (!rds) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	*n = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (int b = 0; b < r->nbufs; b++) {
		for (int cpu = 0; cpu < r->bufs[b].ncpus; cpu++) {
			struct reader *rd = &rds[(*n)++];

			rd->cpu = &r->bufs[b].cpus[cpu];
			rd->id = cpu;
			rd->stop = stop;
			if (pthread_create(&rd->thread, NULL, reader_main, rd)) {
				snprintf(err, errlen, "cannot start a reader thread");
				break;
			}
			rd->started = true;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rds;
}

/*
 * The end of a recording, the same for a file and for live: the readers are
 * told to stop and joined, a command still running is stopped with the
 * signal that stopped us, and tracing is turned off. @ret is the loop's
 * result; while it is 0, a reader's error becomes it (with its message).
 */
static int stop_recording(struct record *r, struct reader *rds, int n, atomic_int *stop, int ret,
			  char *err, size_t errlen)
{
	atomic_store_explicit(stop, 1, memory_order_release);
	for (int i = 0; i < n; i++)
		if (rds[i].started)
			pthread_join(rds[i].thread, NULL);
	for (int i = 0; i < n && !ret; i++) {
		if (rds[i].ret) {
			snprintf(err, errlen, "%s", rds[i].err);
			ret = -1;
		}
	}
	free(rds);
	if (r->child > 0) {
		kill(r->child, stop_signal ? stop_signal : SIGTERM);
		while (waitpid(r->child, &r->child_status, 0) < 0 && errno == EINTR)
			;
		r->child = 0;
	}
	for (int b = 0; b < r->nbufs; b++)
		tracefs_trace_off(r->bufs[b].inst);
	return ret;
}

/* Records until the command ends, the duration passes, a signal or an error. */
static int record_loop(struct record *r, char *err, size_t errlen)
{
	double start = now_s(), next = start + PROGRESS_MS / 1000.0;
	struct reader *rds;
	atomic_int stop = 0;
	int n, ret = 0;

	rds = start_readers(r, &stop, &n, err, errlen);
	if (!rds)
		return -1;
	if (err[0])
		ret = -1;
	while (!ret && !stop_signal) {
		struct timespec tick = { 0, 50 * 1000 * 1000 };
		double t;

		/* Only the progress line and the checks below wait on this. */
		nanosleep(&tick, NULL);
		for (int i = 0; i < n && !ret; i++) {
			if (atomic_load_explicit(&rds[i].ret, memory_order_acquire)) {
				snprintf(err, errlen, "%s", rds[i].err);
				ret = -1;
			}
		}
		if (r->child > 0 && waitpid(r->child, &r->child_status, WNOHANG) == r->child) {
			r->child = 0;
			break;
		}
		t = now_s();
		if (r->duration > 0 && t - start >= r->duration)
			break;
		if (t >= next) {
			progress(r, t - start, false);
			next = t + PROGRESS_MS / 1000.0;
		}
	}
	ret = stop_recording(r, rds, n, &stop, ret, err, errlen);
	for (int b = 0; b < r->nbufs && !ret; b++)
		for (int cpu = 0; cpu < r->bufs[b].ncpus && !ret; cpu++)
			ret = ns_rec_drain_cpu(&r->bufs[b].cpus[cpu], cpu, true, err, errlen);
	r->elapsed = now_s() - start;
	return ret;
}

/*
 * live on the screen: the readers fill memory (ns_rec_mem_*) while the
 * screen, given by main.c through r->ui, asks for snapshots and figures
 * through the ns_record_live_*() below, until the user quits.
 */
static int live_loop(struct record *r, char *err, size_t errlen)
{
	struct reader *rds;
	atomic_int stop = 0;
	int n, ret = 0;

	r->start = now_s();
	rds = start_readers(r, &stop, &n, err, errlen);
	if (!rds)
		return -1;
	if (err[0])
		ret = -1;
	if (!ret && !stop_signal) {
		r->rds = rds;
		r->nrds = n;
		ret = r->ui->run(r->ui->arg, (struct ns_record_live *)r, err, errlen) ? -1 : 0;
		r->rds = NULL;
	}
	stop_recording(r, rds, n, &stop, -1, err, errlen);
	r->elapsed = now_s() - r->start;
	return ret;
}

void ns_record_live_stats(struct ns_record_live *live, struct ns_record_live_stats *st)
{
	struct record *r = (struct record *)live;

	memset(st, 0, sizeof(*st));
	ns_rec_mem_trim(r->bufs, r->nbufs, r->keep_events, r->keep_ns);
	st->elapsed = now_s() - r->start;
	st->keep_events = r->keep_events;
	st->keep_ns = r->keep_ns;
	for (int b = 0; b < r->nbufs; b++) {
		ns_rec_read_lost(&r->bufs[b], false);
		for (int cpu = 0; cpu < r->bufs[b].ncpus; cpu++) {
			struct ns_rec_cpu *c = &r->bufs[b].cpus[cpu];

			st->events += atomic_load_explicit(&c->events, memory_order_relaxed);
			st->lost += c->lost;
			pthread_mutex_lock(&c->mem->lock);
			st->held += c->mem->events;
			st->trimmed += c->mem->trimmed;
			st->held_bytes += (unsigned long long)c->mem->n * (unsigned long long)c->page_size;
			pthread_mutex_unlock(&c->mem->lock);
		}
	}
	for (int i = 0; i < r->nrds; i++) {
		if (atomic_load_explicit(&r->rds[i].ret, memory_order_acquire)) {
			snprintf(st->error, sizeof(st->error), "%s", r->rds[i].err);
			break;
		}
	}
	/* the command ran its course: reap it, the screen goes on */
	if (r->child > 0 && waitpid(r->child, &r->child_status, WNOHANG) == r->child)
		r->child = 0;
}

int ns_record_live_write(struct ns_record_live *live, int fd, bool quick, char *err, size_t errlen)
{
	struct record *r = (struct record *)live;

	ns_rec_mem_trim(r->bufs, r->nbufs, r->keep_events, r->keep_ns);
	for (int b = 0; b < r->nbufs; b++) {
		ns_rec_read_lost(&r->bufs[b], false);
		if (ns_rec_mem_dump(&r->bufs[b], err, errlen)) {
			close(fd);
			return -1;
		}
	}
	return ns_rec_write_file(r->bufs, r->nbufs, fd, "nurseshark " NURSESHARK_VERSION, quick,
				 err, errlen);
}

const char *ns_record_live_dir(const struct ns_record_live *live)
{
	return ((const struct record *)live)->live_dir;
}

static void free_record(struct record *r)
{
	for (int b = 0; b < r->nbufs; b++) {
		struct ns_rec_buffer *buf = &r->bufs[b];

		ns_rec_close_cpus(buf);
		if (buf->inst)
			tracefs_instance_free(buf->inst);
		tracefs_list_free(buf->specs);
		tracefs_list_free(buf->events);
		tracefs_list_free(buf->saved.enabled);
		free(buf->saved.clock);
		free(buf->saved.kb);
		free(buf->saved.tracer);
		free(buf->clock_text);
		free(buf->clock_name);
		free(buf->name);
	}
	free(r->bufs);
	if (r->tmp_fd >= 0)
		close(r->tmp_fd);
	if (r->tmp_path)
		unlink(r->tmp_path);
	free(r->tmp_path);
}

/* @w for sh -c: as it is when the shell reads it so, else in single quotes. */
static void shell_word(FILE *out, const char *w)
{
	if (*w && !w[strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			      "0123456789_-+=.,/:@%")]) {
		fputs(w, out);
		return;
	}
	fputc('\'', out);
	for (; *w; w++) {
		if (*w == '\'')
			fputs("'\\''", out);
		else
			fputc(*w, out);
	}
	fputc('\'', out);
}

/* Tell @viewing the options of this recording, as the Record screen holds them. */
static void tell_used(const struct record *r,
		      void (*viewing)(const struct ns_record_used *used, void *arg), void *arg)
{
	struct ns_record_used u = { .clock = "", .duration = r->duration, .output = r->output };
	char *events = NULL, *buffers = NULL, *command = NULL;
	size_t elen, blen, clen;
	FILE *ev = open_memstream(&events, &elen), *bu = open_memstream(&buffers, &blen);
	FILE *cm = open_memstream(&command, &clen);
	bool ok = ev && bu && cm;

	for (int b = 0; ok && b < r->nbufs; b++) {
		const struct ns_rec_buffer *buf = &r->bufs[b];

		if (!buf->name) {
			for (int i = 0; buf->specs && buf->specs[i]; i++)
				fprintf(ev, "%s%s", i ? " " : "", buf->specs[i]);
			u.kb = buf->kb;
			u.clock = buf->clock ? buf->clock : "";
			continue;
		}
		fprintf(bu, "%s-B %s", ftell(bu) ? " " : "", buf->name);
		for (int i = 0; buf->specs && buf->specs[i]; i++)
			fprintf(bu, " -e %s", buf->specs[i]);
		if (buf->kb > 0)
			fprintf(bu, " -b %ld", buf->kb);
		if (buf->clock)
			fprintf(bu, " -C %s", buf->clock);
	}
	for (int i = 0; ok && r->command && r->command[i]; i++) {
		if (i)
			fputc(' ', cm);
		shell_word(cm, r->command[i]);
	}
	if (ev && fclose(ev))
		ok = false;
	if (bu && fclose(bu))
		ok = false;
	if (cm && fclose(cm))
		ok = false;
	if (ok) {
		u.events = events;
		u.buffers = buffers;
		u.command = command;
		viewing(&u, arg);
	}
	free(events);
	free(buffers);
	free(command);
}

static void view(const char *path)
{
	execl("/proc/self/exe", "nurseshark", "--", path, (char *)NULL);
	fprintf(stderr, "nurseshark: record: cannot start the viewer: %s\n", strerror(errno));
}

/*
 * live --export / --snapshot: the viewer's own printing of the file just
 * recorded, in a child, so that the file and its directory go afterwards.
 * Returns the child's exit status.
 */
static int live_print(struct record *r)
{
	char *argv[8];
	int n = 0, status, ret;
	pid_t pid;

	argv[n++] = "nurseshark";
	if (r->export) {
		argv[n++] = "--export";
	} else {
		argv[n++] = "--snapshot";
		argv[n++] = (char *)r->snapshot;
		if (r->keys) {
			argv[n++] = "--keys";
			argv[n++] = (char *)r->keys;
		}
	}
	argv[n++] = "--";
	argv[n++] = (char *)r->output;
	argv[n] = NULL;
	fflush(stdout);
	ret = spawn(&pid, "/proc/self/exe", argv, false);
	if (ret) {
		fprintf(stderr, "nurseshark: live: cannot start the viewer: %s\n", strerror(ret));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* live's file goes in a directory of its own under $TMPDIR. */
static int live_output(struct record *r)
{
	const char *tmpdir = getenv("TMPDIR");
	char *dir, *out;

	if (asprintf(&dir, "%s/nurseshark-live.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
		return -1;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "nurseshark: live: cannot create a directory in %s: %s\n",
			tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		free(dir);
		return -1;
	}
	if (asprintf(&out, "%s/live.dat", dir) < 0) {
		rmdir(dir);
		free(dir);
		return -1;
	}
	r->live_dir = dir;
	r->output = out;
	return 0;
}

static int record_main(int argc, char **argv, bool live, const struct ns_record_live_ui *ui,
		       void (*viewing)(const struct ns_record_used *used, void *arg), void *arg)
{
	struct record r = { .tmp_fd = -1, .live = live, .cmd = live ? "live" : "record" };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[1024] = "", tmp_prefix[4096];
	bool touched = false, started = false, early = false, restore_failed = false;
	int ret = 1;

	if (parse_args(&r, argc, argv)) {
		ret = 2;
		goto out;
	}
	/*
	 * From here on a signal (Ctrl-C, SIGTERM, SIGHUP) only sets a flag: before
	 * the recording starts it ends the run cleanly (the temp files removed,
	 * the kernel's state put back once changed, then we die of it); once it
	 * runs, it ends the recording, and the file is written.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);	/* the live screen passes it on to us */
	signal(SIGPIPE, SIG_IGN);
	if (r.live && live_output(&r))
		goto out;
	r.progress = isatty(STDERR_FILENO) && !r.interactive;
	r.ui = ui;
	if (r.interactive && !ui) {
		fprintf(stderr, "nurseshark: live: no screen to show it on\n");
		goto out;
	}
	if (check_tracefs(err, sizeof(err)) || open_output(&r, err, sizeof(err)))
		goto out;
	if (r.subbuf_kb && !tracefs_file_exists(NULL, NS_REC_SUBBUF_FILE)) {
		snprintf(err, sizeof(err), "--subbuf-size: this kernel has no %s/%s (sub-buffer "
			 "sizes came with Linux 6.8)", tracefs_tracing_dir(), NS_REC_SUBBUF_FILE);
		goto out;
	}
	for (int b = 0; b < r.nbufs; b++)
		if (ns_rec_resolve_events(&r.bufs[b], err, sizeof(err)))
			goto out;
	test_stage(r.test_stage, "checked");
	if (stop_signal)
		goto out;
	touched = true;
	if (open_instances(&r, err, sizeof(err)))
		goto out;
	snprintf(tmp_prefix, sizeof(tmp_prefix), "%.4000s", r.tmp_path);
	for (int b = 0; b < r.nbufs; b++) {
		if (ns_rec_save_state(&r.bufs[b], err, sizeof(err)) ||
		    ns_rec_setup(&r.bufs[b], err, sizeof(err)) ||
		    ns_rec_open_cpus(&r.bufs[b], tmp_prefix, err, sizeof(err)) ||
		    (r.interactive && ns_rec_mem_init(&r.bufs[b], err, sizeof(err))))
			goto out;
		ns_rec_read_lost(&r.bufs[b], true);
	}
	test_stage(r.test_stage, "setup");
	if (stop_signal)
		goto out;
	for (int b = 0; b < r.nbufs; b++)
		if (tracefs_trace_on(r.bufs[b].inst) < 0) {
			snprintf(err, sizeof(err), "cannot turn tracing on: %s", strerror(errno));
			goto out;
		}
	test_stage(r.test_stage, "traced");
	/* not the command when we are told to stop already */
	if (stop_signal)
		goto out;
	if (r.command && start_command(&r, err, sizeof(err)))
		goto out;
	started = true;
	test_stage(r.test_stage, "spawned");
	if (r.interactive) {
		ret = live_loop(&r, err, sizeof(err)) ? 1 : 0;
		goto out;
	}
	if (record_loop(&r, err, sizeof(err)))
		goto out;
	ret = ns_rec_write_file(r.bufs, r.nbufs, r.tmp_fd, "nurseshark " NURSESHARK_VERSION,
				false, err, sizeof(err));
	r.tmp_fd = -1;	/* closed by the writer */
	if (ret) {
		ret = 1;
		goto out;
	}
	if (rename(r.tmp_path, r.output)) {
		snprintf(err, sizeof(err), "cannot rename %s to %s: %s", r.tmp_path, r.output,
			 strerror(errno));
		ret = 1;
		goto out;
	}
	free(r.tmp_path);
	r.tmp_path = NULL;
	progress(&r, r.elapsed, true);
	ret = 0;
out:
	/*
	 * Stopped before the recording started: whatever failed meanwhile (a
	 * write to tracefs the signal interrupted) is no error of ours.
	 */
	early = stop_signal && !started && ret != 2;
	if (early)
		ret = 1;
	/* An instance cannot be removed while its ring buffers are open. */
	for (int b = 0; b < r.nbufs; b++)
		ns_rec_close_cpus(&r.bufs[b]);
	for (int b = r.nbufs - 1; touched && b >= 0; b--) {
		if (ns_rec_restore_state(&r.bufs[b]) && (!ret || early)) {
			snprintf(err, sizeof(err), "could not put back all the tracing state of %s",
				 r.bufs[b].name ?: tracefs_tracing_dir());
			ret = 1;
			restore_failed = true;
		}
	}
	if (early && !restore_failed)
		snprintf(err, sizeof(err), "stopped by %s before recording started: nothing "
			 "recorded%s", signal_name(stop_signal),
			 touched ? ", the tracing state is as it was" : "");
	if (r.shown)
		fputc('\n', stderr);
	if (err[0])
		fprintf(stderr, "nurseshark: %s: %s\n", r.cmd, err);
	if (!ret && r.command && WIFEXITED(r.child_status) && WEXITSTATUS(r.child_status))
		fprintf(stderr, "nurseshark: %s: %s exited with status %d\n", r.cmd, r.command[0],
			WEXITSTATUS(r.child_status));
	if (!ret && !r.live_dir && r.view && viewing)
		tell_used(&r, viewing, arg);
	free_record(&r);
	if (r.live_dir) {
		if (!ret && !r.interactive)
			ret = live_print(&r);
		unlink(r.output);
		rmdir(r.live_dir);
		free(r.live_dir);
		free((char *)r.output);
	} else if (!ret && r.view) {
		view(r.output);
	}
	if ((r.interactive || early) && stop_signal && !restore_failed) {
		/* the state is back: die of the signal, as the shell expects */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return ret;
}

int ns_record_main(int argc, char **argv,
		   void (*viewing)(const struct ns_record_used *used, void *arg), void *arg)
{
	return record_main(argc, argv, false, NULL, viewing, arg);
}

int ns_record_live_main(int argc, char **argv, const struct ns_record_live_ui *ui)
{
	return record_main(argc, argv, true, ui, NULL, NULL);
}
