// SPDX-License-Identifier: GPL-2.0-only
/*
 * A mutational fuzzer for the real binary: it damages a copy of a real input
 * (a trace, an INI file) or makes up a command line, runs the binary on it
 * and sorts the outcome. Exit 0, or exit 1 with one line "nurseshark: ..."
 * on stderr, are what a damaged trace may give (for an INI file, exit 1
 * with any number of such lines; for a command line also exit 2, a usage
 * error); a crash (a signal), a hang (killed after RUN_SECONDS), a peak
 * resident size over MEM_LIMIT_MB (the run's address space is capped at
 * AS_LIMIT_MB so that a blow-up cannot take the machine), or any other
 * exit, is a failure.
 *
 * Everything is a function of the seed, and every mutation is written as a
 * spec, a list of byte patches ("set:OFFSET:HEX", "ins:OFFSET:HEX",
 * "trunc:LENGTH") or, for a command line, its arguments ("arg:HEX"), so a
 * failing case is one line of tests/data/fuzz/regressions.txt that
 * "fuzz replay" makes again from the same base file: nothing big is kept.
 *
 *   fuzz run BIN KIND MODE BASE SEED RUNS SECONDS [TRACE]
 *   fuzz replay BIN KIND MODE BASE SPEC... [-- TRACE]
 *   fuzz apply BASE OUT SPEC...
 *
 * KIND is trace, ini or cmdline; MODE is export or snapshot for a trace,
 * config, session or filters (the option the INI file is given to) for an
 * INI file, and anything for a command line; TRACE is the trace an INI file
 * or a command line is used with. "run" prints a PASS or FAIL line per
 * base, one FAIL line (with the spec) per failing run, and a count of runs
 * by outcome.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RUN_SECONDS 20		/* a run taking longer is a hang */
#define AS_LIMIT_MB 4096	/* address space of a run */
#define MEM_LIMIT_MB 1024	/* peak resident size of a run */
#define MAX_OPS 3
#define MAX_ARGS 16

enum outcome { OUT_EXIT0, OUT_ERROR, OUT_BADEXIT, OUT_CRASH, OUT_HANG, OUT_MEMORY, NR_OUT };
static const char *const out_name[NR_OUT] = {
	"exit 0", "clean error", "other exit", "crash", "hang", "memory",
};

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? next() % n : 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "fuzz: out of memory\n");
		exit(2);
	}
	return p;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st)) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	buf = xmalloc(st.st_size + 1);
	*len = fread(buf, 1, st.st_size, f);
	fclose(f);
	return buf;
}

static void hex(char *out, const unsigned char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static size_t unhex(unsigned char *out, const char *h)
{
	size_t n = 0;
	unsigned v;

	while (h[0] && h[1] && sscanf(h, "%2x", &v) == 1) {
		out[n++] = v;
		h += 2;
	}
	return n;
}

/* Apply one op of a spec to buf (capacity enough for any insert). */
static void apply_op(unsigned char *buf, size_t *len, const char *op)
{
	unsigned char bytes[256];
	unsigned long long off;
	char h[600];
	size_t n;

	if (sscanf(op, "trunc:%llu", &off) == 1) {
		if (off < *len)
			*len = off;
	} else if (sscanf(op, "set:%llu:%511s", &off, h) == 2) {
		n = unhex(bytes, h);
		if (off < *len)
			memcpy(buf + off, bytes, off + n > *len ? *len - off : n);
	} else if (sscanf(op, "ins:%llu:%511s", &off, h) == 2) {
		n = unhex(bytes, h);
		if (off > *len)
			off = *len;
		memmove(buf + off + n, buf + off, *len - off);
		memcpy(buf + off, bytes, n);
		*len += n;
	} else {
		fprintf(stderr, "fuzz: bad op '%s'\n", op);
		exit(2);
	}
}

static void write_file(const char *path, const unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		exit(2);
	}
}

/* A file offset where damage matters: headers, options, page headers. */
static size_t pick_offset(size_t len, bool text)
{
	unsigned r = below(100);

	if (!len)
		return 0;
	if (text || r < 30)
		return below(len);
	if (r < 55)
		return below(len < 65536 ? len : 65536);		/* the headers */
	if (r < 70)
		return len - 1 - below(len < 8192 ? len : 8192);	/* v7 options at the end */
	return (below(len / 4096 + 1) * 4096 + below(16)) % len;	/* a page header */
}

/* A spec of 1 to MAX_OPS byte patches for a file of @len bytes. */
static void make_spec(char *spec, size_t size, size_t len, bool text)
{
	static const uint32_t big32[] = {
		0, 0xffffffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0x10000, 0x1000, 0xffff,
	};
	static const char *const words[] = {
		"[", "]", "=", "\n", "\n[session]\n", "\n[colors]\n", ";", "#", "\\", "\"",
		" = = ", "99999999999999999999", "-1", "0x", "nan", "\n[filters]\nF = ((((",
		"\nsearch = [[[", "\nrow = -99999999", "\ncpu = 4294967295", "\xff\xfe",
	};
	unsigned char b[300];
	size_t n, off, used = 0, i;
	int ops = 1 + (below(3) == 0) + (below(6) == 0);
	char h[601];
	unsigned r;

	spec[0] = '\0';
	for (; ops > 0; ops--) {
		off = pick_offset(len, text);
		r = below(100);
		if (r < 10) {
			used += snprintf(spec + used, size - used, "%strunc:%zu", used ? " " : "",
					 off);
			continue;
		}
		if (text && r < 45) {
			const char *w = words[below(sizeof(words) / sizeof(words[0]))];

			n = strlen(w);
			if (below(8) == 0) {	/* a long line */
				n = 200 + below(100);
				memset(b, 'x', n);
			} else {
				memcpy(b, w, n);
			}
			hex(h, b, n);
			used += snprintf(spec + used, size - used, "%sins:%zu:%s", used ? " " : "",
					 off, h);
			continue;
		}
		if (r < 45) {
			uint32_t v = big32[below(sizeof(big32) / sizeof(big32[0]))];

			if (below(4) == 0)
				v = len;
			off &= ~(size_t)3;
			n = 4;
			for (i = 0; i < 4; i++)
				b[i] = v >> (8 * i);
			if (below(5) == 0) {	/* a 64-bit field */
				n = 8;
				off &= ~(size_t)7;
				memset(b + 4, v & 0x80000000 ? 0xff : 0, 4);
			}
		} else if (r < 75) {
			/* one bit: a flip op, made a set once the base byte is known */
			used += snprintf(spec + used, size - used, "%sflip:%zu:%u", used ? " " : "",
					 off, 1u << below(8));
			continue;
		} else {
			n = 1 + below(4);
			for (i = 0; i < n; i++)
				b[i] = next();
		}
		hex(h, b, n);
		used += snprintf(spec + used, size - used, "%sset:%zu:%s", used ? " " : "", off, h);
	}
}

/* A flip op is written as a set once the base byte is known. */
static void resolve_flips(char *spec, size_t size, const unsigned char *base, size_t len)
{
	char out[4096], *tok, *save, copy[4096];
	unsigned long long off;
	unsigned bit;
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", spec);
	out[0] = '\0';
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (sscanf(tok, "flip:%llu:%u", &off, &bit) == 2)
			used += snprintf(out + used, sizeof(out) - used, "%sset:%llu:%02x",
					 used ? " " : "", off,
					 (off < len ? base[off] : 0) ^ (bit & 0xff));
		else
			used += snprintf(out + used, sizeof(out) - used, "%s%s", used ? " " : "",
					 tok);
	}
	snprintf(spec, size, "%s", out);
}

/* The mutated copy of @base by @spec into @out. */
static void build(const unsigned char *base, size_t len, const char *spec, const char *out)
{
	char copy[4096], *tok, *save;
	unsigned char *buf = xmalloc(len + 8 * 1024);
	size_t n = len;

	memcpy(buf, base, len);
	snprintf(copy, sizeof(copy), "%s", spec);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		apply_op(buf, &n, tok);
	write_file(out, buf, n);
	free(buf);
}

/* A made-up command line, as "arg:HEX" ops. */
static void make_cmdline(char *spec, size_t size)
{
	static const char *const opts[] = {
		"--cpu", "--pid", "--task", "-F", "-v", "--snapshot", "--keys", "--export",
		"--filters", "--config", "-s", "--session", "--no-session", "--check-config",
		"--print-config", "-i", "--keys-table", "--version", "-h", "--", "-", "-x",
		"@TRACE", "@TRACE", "@TRACE",
		"--cpu=", "--snapshot=", "-Fsched",
	};
	static const char *const vals[] = {
		"0", "1", "-1", "0,1", "1-0", "0-4294967295", "99999999999999999999", "", ",,,",
		"a-b", "80x24", "0x0", "1x1", "99999x99999", "80x", "x24", "-80x-24",
		"sched/sched_switch: prev_pid == 0", "((((", "sched_switch: prev_pid ==",
		"COMM ~ \"*\"", "<Tab><Enter><Esc>", "<Click:99999,-5>", "<Resize:0x0>",
		"<Resize:20000x20000>", "/<Enter>n<Enter>", "<", "<C->", "<F99>", "jjjjGggq",
		"/no/such/file", "/dev/null", "swapper/0", "\xff\xfe", "%s%n%p",
	};
	unsigned char a[256];
	size_t used = 0, n;
	int i, nargs = 1 + below(6);
	char h[513];
	const char *s;

	spec[0] = '\0';
	for (i = 0; i < nargs; i++) {
		s = below(3) ? opts[below(sizeof(opts) / sizeof(opts[0]))] :
			vals[below(sizeof(vals) / sizeof(vals[0]))];
		n = strlen(s);
		memcpy(a, s, n);
		hex(h, a, n);
		used += snprintf(spec + used, size - used, "%sarg:%s", used ? " " : "", h);
		if (s[0] == '-' && below(3)) {
			s = vals[below(sizeof(vals) / sizeof(vals[0]))];
			n = strlen(s);
			memcpy(a, s, n);
			hex(h, a, n);
			used += snprintf(spec + used, size - used, " arg:%s", h);
		}
	}
}

struct result {
	enum outcome out;
	char why[256];
};

/* Run argv (argv[0] the binary) and sort the outcome; stderr kept in @errf. */
static void run(char **argv, const char *errf, const char *kind, struct result *res)
{
	struct timespec limit = { RUN_SECONDS, 0 };
	struct rusage ru;
	sigset_t set, old;
	char line[512];
	int status, lines = 0, prefixed = 0, fd;
	FILE *f;
	pid_t pid;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fuzz: fork: %s\n", strerror(errno));
		exit(2);
	}
	if (pid == 0) {
		struct rlimit as = { (rlim_t)AS_LIMIT_MB << 20, (rlim_t)AS_LIMIT_MB << 20 };
		struct rlimit core = { 0, 0 };

		sigprocmask(SIG_SETMASK, &old, NULL);
		setpgid(0, 0);
		setrlimit(RLIMIT_AS, &as);
		setrlimit(RLIMIT_CORE, &core);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	while (sigtimedwait(&set, NULL, &limit) < 0 && errno == EINTR)
		;
	/* its own peak, and its children's it waited for (the open's guard) */
	if (wait4(pid, &status, WNOHANG, &ru) == 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		wait4(pid, &status, 0, &ru);
		sigprocmask(SIG_SETMASK, &old, NULL);
		res->out = OUT_HANG;
		snprintf(res->why, sizeof(res->why), "still running after %d s", RUN_SECONDS);
		return;
	}
	kill(-pid, SIGKILL);	/* a guard child left behind, if any */
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (sigtimedwait(&set, NULL, &(struct timespec){ 0, 0 }) > 0)
		;

	f = fopen(errf, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!lines)
			snprintf(res->why, sizeof(res->why), "%.200s", strtok(line, "\n") ?: "");
		lines++;
		prefixed += !strncmp(line, "nurseshark: ", 12) ||
			    (!strcmp(kind, "cmdline") && !strncmp(line, "Try 'nurseshark", 15));
	}
	if (f)
		fclose(f);
	if (WIFSIGNALED(status)) {
		res->out = OUT_CRASH;
		snprintf(res->why, sizeof(res->why), "killed by %s", strsignal(WTERMSIG(status)));
	} else if (ru.ru_maxrss > (long)MEM_LIMIT_MB * 1024) {
		res->out = OUT_MEMORY;
		snprintf(res->why, sizeof(res->why), "peak resident size %ld MB", ru.ru_maxrss >> 10);
	} else if (WEXITSTATUS(status) == 0) {
		res->out = OUT_EXIT0;
	} else if (lines >= 1 && prefixed == lines &&
		   ((WEXITSTATUS(status) == 1 && (lines == 1 || strcmp(kind, "trace"))) ||
		    (WEXITSTATUS(status) == 2 && !strcmp(kind, "cmdline")))) {
		res->out = OUT_ERROR;
	} else {
		char first[256];

		snprintf(first, sizeof(first), "%s", lines ? res->why : "nothing");
		res->out = OUT_BADEXIT;
		snprintf(res->why, sizeof(res->why), "exit %d, %d lines on stderr: %.150s",
			 WEXITSTATUS(status), lines, first);
	}
}

/* The command line of one case. */
static int argv_of(char **argv, char *bin, const char *kind, const char *mode, char *file,
		   char *trace, const char *spec, char (*args)[256])
{
	char copy[4096], *tok, *save;
	int n = 0, i = 0;

	argv[n++] = bin;
	if (!strcmp(kind, "trace")) {
		if (!strcmp(mode, "snapshot")) {
			argv[n++] = "--snapshot";
			argv[n++] = "80x24";
			argv[n++] = "--keys";
			argv[n++] = "<End>G<Tab>+<PageUp>";
		} else {
			argv[n++] = "--export";
		}
		argv[n++] = "--no-session";
		argv[n++] = file;
	} else if (!strcmp(kind, "ini")) {
		argv[n++] = !strcmp(mode, "config") ? "--config" :
			!strcmp(mode, "session") ? "--session" : "--filters";
		argv[n++] = file;
		if (trace) {
			argv[n++] = "--snapshot";
			argv[n++] = "80x24";
			argv[n++] = trace;
		} else {
			argv[n++] = "--check-config";
		}
	} else {
		snprintf(copy, sizeof(copy), "%s", spec);
		for (tok = strtok_r(copy, " ", &save); tok && i < MAX_ARGS;
		     tok = strtok_r(NULL, " ", &save)) {
			if (strncmp(tok, "arg:", 4))
				continue;
			args[i][unhex((unsigned char *)args[i], tok + 4)] = '\0';
			argv[n++] = !strcmp(args[i], "@TRACE") && trace ? trace : args[i];
			i++;
		}
		argv[n++] = "--no-session";
	}
	argv[n] = NULL;
	return n;
}

static const char *tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

static int one(char *bin, const char *kind, const char *mode, const char *base,
	       const unsigned char *data, size_t len, char *trace, const char *spec,
	       struct result *res)
{
	char file[4096], errf[4096], args[MAX_ARGS][256];
	char *argv[MAX_ARGS + 12];
	const char *ext = strcmp(kind, "trace") ? "ini" : "dat";

	snprintf(file, sizeof(file), "%s/fuzz-%d.%s", tmpdir(), (int)getpid(), ext);
	snprintf(errf, sizeof(errf), "%s/fuzz-%d.err", tmpdir(), (int)getpid());
	if (strcmp(kind, "cmdline"))
		build(data, len, spec, file);
	argv_of(argv, bin, kind, mode, file, trace, spec, args);
	run(argv, errf, kind, res);
	unlink(file);
	unlink(errf);
	return res->out >= OUT_BADEXIT;
}

static const char *short_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
	static char spec[4096];
	unsigned long counts[NR_OUT] = { 0 };
	unsigned char *data = NULL;
	size_t len = 0;
	struct result res;
	int i, fails = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "apply")) {
		data = read_file(argv[2], &len);
		spec[0] = '\0';
		for (i = 4; i < argc; i++)
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "%s%s",
				 i > 4 ? " " : "", argv[i]);
		build(data, len, spec, argv[3]);
		return 0;
	}
	if (argc >= 6 && !strcmp(argv[1], "replay")) {
		char *trace = NULL;

		spec[0] = '\0';
		for (i = 6; i < argc; i++) {
			if (!strcmp(argv[i], "--") && i + 1 < argc) {
				trace = argv[i + 1];
				break;
			}
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "%s%s",
				 spec[0] ? " " : "", argv[i]);
		}
		if (strcmp(argv[3], "cmdline"))
			data = read_file(argv[5], &len);
		if (one(argv[2], argv[3], argv[4], argv[5], data, len, trace, spec, &res)) {
			printf("FAIL: fuzz: replay %s %s %s %s: %s: %s\n", argv[3], argv[4],
			       short_name(argv[5]), spec, out_name[res.out], res.why);
			return 1;
		}
		printf("PASS: fuzz: replay %s %s %s %s: %s\n", argv[3], argv[4],
		       short_name(argv[5]), spec, out_name[res.out]);
		return 0;
	}
	if (argc >= 9 && !strcmp(argv[1], "run")) {
		char *bin = argv[2], *trace = argc > 9 ? argv[9] : NULL;
		const char *kind = argv[3], *mode = argv[4], *base = argv[5];
		unsigned long long seed = strtoull(argv[6], NULL, 0);
		long runs = strtol(argv[7], NULL, 0), seconds = strtol(argv[8], NULL, 0), n;
		time_t end = time(NULL) + seconds;

		if (strcmp(kind, "cmdline"))
			data = read_file(base, &len);
		for (n = 0; n < runs && time(NULL) < end; n++) {
			rng = seed * 1000003ULL + n;
			if (!strcmp(kind, "cmdline")) {
				make_cmdline(spec, sizeof(spec));
			} else {
				make_spec(spec, sizeof(spec), len, !strcmp(kind, "ini"));
				resolve_flips(spec, sizeof(spec), data, len);
			}
			one(bin, kind, mode, base, data, len, trace, spec, &res);
			counts[res.out]++;
			if (res.out >= OUT_BADEXIT) {
				fails++;
				printf("FAIL: fuzz: %s %s %s seed %llu run %ld: %s: %s\n"
				       "  regression line: %s %s %s %s\n", kind, mode,
				       short_name(base), seed, n, out_name[res.out], res.why,
				       kind, mode, short_name(base), spec);
			}
		}
		printf("%s: fuzz: %s %s %s, seed %llu: %ld runs", fails ? "FAIL" : "PASS", kind,
		       mode, short_name(base), seed, n);
		for (i = 0; i < NR_OUT; i++)
			printf("%s %s %lu", i ? "," : ":", out_name[i], counts[i]);
		printf("%s\n", n < runs ? " (stopped at the time limit)" : "");
		return fails ? 1 : 0;
	}
	fprintf(stderr, "usage: fuzz run BIN KIND MODE BASE SEED RUNS SECONDS [TRACE]\n"
		"       fuzz replay BIN KIND MODE BASE SPEC... [-- TRACE]\n"
		"       fuzz apply BASE OUT SPEC...\n");
	return 2;
}
