// SPDX-License-Identifier: GPL-2.0-only
/*
 * Damaged traces: corrupted bytes and cut files must give an error or a
 * trace, never a crash. Each case runs in a child process so that a crash
 * is a failed check, not a dead test. The fixed cases are ones fuzzing found
 * (libtraceevent's format parser crashed on them); the rest come from a
 * seeded generator, so every run tries the same files.
 */
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "nurseshark/trace.h"
#include "traces.h"

struct patch {
	long off;
	unsigned char byte;
};

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	FILE *f = fopen(path, "rb");

	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size + 1);
	*len = fread(buf, 1, st.st_size, f);
	fclose(f);
	return buf;
}

/* Open and export @path in a child; 0: no crash (error or success). */
static int survives(const char *path, char *why, size_t why_len)
{
	int status, fd;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[256] = "";
		struct ns_trace *t = ns_trace_open(path, err, sizeof(err));
		FILE *null = fopen("/dev/null", "w");

		fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDERR_FILENO);
		if (!t)
			_exit(err[0] ? 1 : 3);	/* an error must say why */
		if (ns_trace_export(t, null, 0, ns_trace_nr_events(t)) < 0)
			_exit(1);
		ns_trace_close(t);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		snprintf(why, why_len, "killed by signal %d", WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status) == 3) {
		snprintf(why, why_len, "failed without a reason");
		return -1;
	}
	return 0;
}

static void write_case(const char *tmp, const unsigned char *data, size_t len)
{
	FILE *f = fopen(tmp, "wb");

	fwrite(data, 1, len, f);
	fclose(f);
}

static void check_patched(const char *base, const char *name, const struct patch *p, int n)
{
	char tmp[] = "/tmp/ns-corrupt-XXXXXX", why[128] = "";
	unsigned char *data;
	size_t len;
	int i, fd = mkstemp(tmp);

	data = slurp(base, &len);
	if (fd < 0 || !data) {
		SKIP("%s: %s not readable", name, base);
		free(data);
		return;
	}
	close(fd);
	for (i = 0; i < n; i++)
		if ((size_t)p[i].off < len)
			data[p[i].off] = p[i].byte;
	write_case(tmp, data, len);
	CHECK(survives(tmp, why, sizeof(why)) == 0, "no crash on %s %s", name, why);
	unlink(tmp);
	free(data);
}

static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void check_generated(const char *base, int cases, uint32_t seed)
{
	char tmp[] = "/tmp/ns-corrupt-XXXXXX", why[128] = "";
	unsigned char *orig, *data;
	size_t len, cut;
	int i, k, crashed = 0, fd = mkstemp(tmp);

	orig = slurp(base, &len);
	if (fd < 0 || !orig) {
		FAIL("cannot read %s", base);
		return;
	}
	close(fd);
	data = malloc(len);
	for (i = 0; i < cases; i++) {
		int mode = rng_next(&seed) % 3;
		size_t region = rng_next(&seed) % 2 ? 20000 : len;

		memcpy(data, orig, len);
		cut = len;
		if (mode == 2) {
			cut = rng_next(&seed) % len;
		} else {
			for (k = 1 + rng_next(&seed) % 8; k > 0; k--) {
				size_t off = rng_next(&seed) % (region < len ? region : len);

				data[off] = mode ? 0xff : data[off] ^ (1 << (rng_next(&seed) % 8));
			}
		}
		write_case(tmp, data, cut);
		if (survives(tmp, why, sizeof(why))) {
			if (!crashed++)
				printf("  case %d (mode %d): %s\n", i, mode, why);
		}
	}
	CHECK(!crashed, "no crash on %d damaged copies of %s (%d crashed)", cases,
	      base_name(base), crashed);
	unlink(tmp);
	free(orig);
	free(data);
}

int main(void)
{
	static const struct patch v6_fmt[] = {
		{ 4591, 0xff }, { 5535, 0xff }, { 9157, 0xff }, { 10868, 0xff },
		{ 15248, 0xff }, { 18494, 0xff }, { 18812, 0xff }, { 19982, 0xff },
	};
	static const struct patch i686_fmt[] = {
		{ 526, 0xff }, { 1680, 0xff }, { 8025, 0xff }, { 8283, 0xff },
		{ 8937, 0xff }, { 15873, 0xff }, { 18892, 0xff }, { 18958, 0xff },
	};
	static const struct patch i686_fmt2[] = {
		{ 8370, 0x32 }, { 10808, 0x62 }, { 18893, 0xe1 },
	};
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	const char *shared = check_shared();
	char path[8192];

	snprintf(path, sizeof(path), "%s/contrib/sample.dat", top);
	check_generated(path, 24, 7);
	snprintf(path, sizeof(path), "%s/tests/data/lost-events.dat", top);
	check_generated(path, 24, 8);
	if (!shared) {
		SKIP("fuzz-found cases: ../shared not found");
		return check_failures ? 1 : 0;
	}
	snprintf(path, sizeof(path), "%s/traces/sched-v6.dat", shared);
	check_patched(path, "sched-v6.dat with a corrupt format (fuzz case)", v6_fmt, 8);
	check_generated(path, 16, 9);
	snprintf(path, sizeof(path), "%s/traces/public/kinmax__buildroot-kernel__trace_fifo_multicore.dat",
		 shared);
	check_patched(path, "i686 trace with a corrupt format (fuzz case 1)", i686_fmt, 8);
	check_patched(path, "i686 trace with a corrupt format (fuzz case 2)", i686_fmt2, 3);
	return check_failures ? 1 : 0;
}
