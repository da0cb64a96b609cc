// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fast page reader (src/trace/layout.c, src/trace/pages.c) against libtracecmd: for every
 * trace, both read every CPU record by record (libtracecmd through
 * tracecmd_read_cpu_first/read_data) and must agree on each record's count,
 * order (offset), timestamp, CPU, pid, event type, size, lost events and
 * bytes. Then: one thread per CPU, a CPU split in two and a seek must give
 * the same records; files rewritten from the sample exercise what the
 * corpus lacks (zlib, odd chunk sizes, time options, TIME_SHIFT, v6
 * without ../shared); damaged pages may give an error, never a crash or a
 * hang; and what is no trace, or a cut one, is refused with a reason.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <zlib.h>
#include <zstd.h>
#include "../../src/trace/pages.h"
#include "nurseshark/trace.h"
#include "traces.h"

/* Exported by libtracecmd, missing from its header. */
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);

/* libtracecmd keeps every chunk it decompresses: reopen after this much. */
#define RECYCLE_BYTES (64ull << 20)

enum {
	PROP_COUNT, PROP_ORDER, PROP_TS, PROP_CPU, PROP_PID, PROP_TYPE, PROP_SIZE, PROP_MISSED,
	PROP_DATA, NR_PROPS
};
static const char *const prop_names[NR_PROPS] = {
	"count per CPU", "order (offsets)", "timestamps", "cpu", "pid", "event type", "size",
	"missed events", "record bytes",
};

struct cmp {
	uint64_t events;
	uint64_t bad[NR_PROPS];
	char first[NR_PROPS][200];
	uint64_t hash[256];	/* per CPU, of what the fast reader gave */
	uint64_t count[256];
};

static void mismatch(struct cmp *c, int prop, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mismatch(struct cmp *c, int prop, const char *fmt, ...)
{
	va_list ap;

	if (!c->bad[prop]++) {
		va_start(ap, fmt);
		vsnprintf(c->first[prop], sizeof(c->first[prop]), fmt, ap);
		va_end(ap);
	}
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t rec_hash(uint64_t h, const struct ns_pages_record *r)
{
	h = mix(h, r->ts_ns);
	h = mix(h, r->offset);
	h = mix(h, ((uint64_t)r->size << 32) | (uint32_t)r->pid);
	h = mix(h, ((uint64_t)(uint32_t)r->type << 32) | (uint32_t)r->cpu);
	return mix(h, (uint64_t)r->missed);
}

static const char *const top_only[] = { NS_PAGES_TOP_NAME };

static struct tracecmd_input *open_tc(const char *path)
{
	struct tracecmd_input *h;
	int out, null_fd;

	/* libtracecmd printf()s about truncated files */
	fflush(stdout);
	out = dup(STDOUT_FILENO);
	null_fd = open("/dev/null", O_WRONLY);
	dup2(null_fd, STDOUT_FILENO);
	close(null_fd);
	h = tracecmd_open_head(path, 0);
	if (h && tracecmd_init_data(h) < 0)
		h = NULL;	/* leaked: closing it can crash */
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	return h;
}

/* libtracecmd's view of one CPU, reopened as it goes to bound its leak. */
struct oracle {
	const char *path;
	struct tracecmd_input *h;
	bool recycle;
	int page_size;
	uint64_t bytes, last_page;
};

static struct tep_record *oracle_first(struct oracle *o, int cpu)
{
	o->bytes = 0;
	o->last_page = UINT64_MAX;
	return cpu < tracecmd_cpus(o->h) ? tracecmd_read_cpu_first(o->h, cpu) : NULL;
}

static struct tep_record *oracle_next(struct oracle *o, int cpu, struct tep_record *prev)
{
	uint64_t page = prev->offset & ~(uint64_t)(o->page_size - 1);
	uint64_t off = prev->offset;
	struct tep_record *rec;

	tracecmd_free_record(prev);
	if (page != o->last_page) {
		o->last_page = page;
		o->bytes += o->page_size;
	}
	if (o->recycle && o->bytes > RECYCLE_BYTES) {
		tracecmd_close(o->h);
		o->h = open_tc(o->path);
		if (!o->h)
			return NULL;
		rec = tracecmd_read_at(o->h, off, NULL);
		if (rec)
			tracecmd_free_record(rec);
		o->bytes = 0;
	}
	return tracecmd_read_data(o->h, cpu);
}

/* Record @n of @cpu by both readers: note each property that differs. */
static void compare_record(struct cmp *c, int cpu, uint64_t n, const struct ns_pages_record *r,
			   struct tep_record *rec, struct tep_handle *tep)
{
	unsigned long long i = n;

	if (r->offset != rec->offset)
		mismatch(c, PROP_ORDER, "cpu %d #%llu: offset %llu, libtracecmd %llu", cpu, i,
			 (unsigned long long)r->offset, rec->offset);
	if (r->ts_ns != rec->ts)
		mismatch(c, PROP_TS, "cpu %d #%llu: ts %llu, libtracecmd %llu", cpu, i,
			 (unsigned long long)r->ts_ns, rec->ts);
	if (r->cpu != rec->cpu)
		mismatch(c, PROP_CPU, "cpu %d #%llu: cpu %d, libtracecmd %d", cpu, i, r->cpu,
			 rec->cpu);
	if (r->pid != tep_data_pid(tep, rec))
		mismatch(c, PROP_PID, "cpu %d #%llu: pid %d, libtracecmd %d", cpu, i, r->pid,
			 tep_data_pid(tep, rec));
	if (r->type != tep_data_type(tep, rec))
		mismatch(c, PROP_TYPE, "cpu %d #%llu: type %d, libtracecmd %d", cpu, i, r->type,
			 tep_data_type(tep, rec));
	if ((int)r->size != rec->size)
		mismatch(c, PROP_SIZE, "cpu %d #%llu: size %u, libtracecmd %d", cpu, i, r->size,
			 rec->size);
	if (r->missed != rec->missed_events)
		mismatch(c, PROP_MISSED, "cpu %d #%llu: missed %lld, libtracecmd %lld", cpu, i,
			 r->missed, (long long)rec->missed_events);
	if ((int)r->size == rec->size && memcmp(r->data, rec->data, r->size))
		mismatch(c, PROP_DATA, "cpu %d #%llu: bytes differ", cpu, i);
}

/* Walk every CPU with both readers in step. */
static int compare(struct ns_pages *pages, struct oracle *o, struct cmp *c)
{
	int nr = ns_pages_nr_cpus(pages), cpu;

	if (tracecmd_cpus(o->h) > nr)
		nr = tracecmd_cpus(o->h);
	for (cpu = 0; cpu < nr && cpu < 256; cpu++) {
		struct ns_pages_iter *it = NULL;
		struct ns_pages_record r;
		struct tep_record *rec = oracle_first(o, cpu);
		uint64_t n = 0, h = 0;
		int got;

		if (cpu < ns_pages_nr_cpus(pages)) {
			it = ns_pages_iter_open(pages, cpu, 0, UINT64_MAX);
			if (!it)
				return -1;
		}
		for (;;) {
			got = it ? ns_pages_iter_next(it, &r) : 0;
			if (!rec || got <= 0) {
				if (rec || got > 0)
					mismatch(c, PROP_COUNT,
						 "cpu %d: libtracecmd %s after %llu records", cpu,
						 rec ? "goes on" : "ends", (unsigned long long)n);
				if (got < 0)
					mismatch(c, PROP_COUNT,
						 "cpu %d: error %d after %llu records", cpu, got,
						 (unsigned long long)n);
				break;
			}
			compare_record(c, cpu, n, &r, rec, tracecmd_get_tep(o->h));
			h = rec_hash(h, &r);
			n++;
			rec = oracle_next(o, cpu, rec);
			if (!o->h) {
				ns_pages_iter_close(it);
				return -1;
			}
		}
		if (rec)
			tracecmd_free_record(rec);
		ns_pages_iter_close(it);
		c->hash[cpu] = h;
		c->count[cpu] = n;
		c->events += n;
	}
	return 0;
}

/* Hash what @it reads into *h, counting into *n; a negative errno on an error. */
static int scan(struct ns_pages_iter *it, uint64_t *h, uint64_t *n)
{
	struct ns_pages_record r;
	int got;

	while ((got = ns_pages_iter_next(it, &r)) > 0) {
		*h = rec_hash(*h, &r);
		(*n)++;
	}
	return got;
}

struct job {
	const struct ns_pages *pages;
	int cpu;
	uint64_t hash, count;
	int ret;
};

static void *scan_thread(void *arg)
{
	struct job *j = arg;
	struct ns_pages_iter *it = ns_pages_iter_open(j->pages, j->cpu, 0, UINT64_MAX);

	j->ret = it ? scan(it, &j->hash, &j->count) : -1;
	ns_pages_iter_close(it);
	return NULL;
}

/* One thread per CPU, all at once, must see what the single pass saw. */
static void check_threads(const char *name, const struct ns_pages *pages, const struct cmp *c)
{
	int nr = ns_pages_nr_cpus(pages), cpu, bad = 0;
	struct job jobs[256];
	pthread_t th[256];

	if (nr > 256)
		nr = 256;
	for (cpu = 0; cpu < nr; cpu++) {
		jobs[cpu] = (struct job){ .pages = pages, .cpu = cpu };
		if (pthread_create(&th[cpu], NULL, scan_thread, &jobs[cpu]))
			scan_thread(&jobs[cpu]), th[cpu] = 0;
	}
	for (cpu = 0; cpu < nr; cpu++) {
		if (th[cpu])
			pthread_join(th[cpu], NULL);
		if (jobs[cpu].ret < 0 || jobs[cpu].hash != c->hash[cpu] ||
		    jobs[cpu].count != c->count[cpu]) {
			if (!bad++)
				printf("  cpu %d: %llu records, %llu in the single pass\n", cpu,
				       (unsigned long long)jobs[cpu].count,
				       (unsigned long long)c->count[cpu]);
		}
	}
	CHECK(!bad, "one thread per CPU (%d) reads the same records: %s", nr, name);
}

/*
 * Each CPU read as two page ranges by two iterators (the split in the
 * middle of a chunk, when compressed), then again by one iterator that
 * seeks: the same records in the same order.
 */
static void check_split(const char *name, const struct ns_pages *pages, const struct cmp *c)
{
	int nr = ns_pages_nr_cpus(pages), cpu, bad = 0;

	for (cpu = 0; cpu < nr && cpu < 256; cpu++) {
		uint64_t pages_nr = ns_pages_nr_pages(pages, cpu), k = pages_nr / 2 + 1;
		uint64_t h = 0, n = 0, h2 = 0, n2 = 0;
		struct ns_pages_iter *a = ns_pages_iter_open(pages, cpu, 0, k);
		struct ns_pages_iter *b = ns_pages_iter_open(pages, cpu, k, UINT64_MAX);

		if (!a || !b || scan(a, &h, &n) < 0 || scan(b, &h, &n) < 0 ||
		    h != c->hash[cpu] || n != c->count[cpu])
			bad++;
		if (a) {
			ns_pages_iter_seek(a, 0, k);
			if (scan(a, &h2, &n2) < 0)
				bad++;
			ns_pages_iter_seek(a, k, UINT64_MAX);
			if (scan(a, &h2, &n2) < 0 || h2 != c->hash[cpu] ||
			    n2 != c->count[cpu])
				bad++;
		}
		ns_pages_iter_close(a);
		ns_pages_iter_close(b);
	}
	CHECK(!bad, "a CPU read in two ranges, and after a seek, reads the same: %s", name);
}

/*
 * Compare the fast reader with libtracecmd on @path. @expect_events: the
 * number of events the file must have (-1: any). Fills @out if not NULL.
 */
static void check_trace(const char *path, const char *name, long long expect_events,
			struct cmp *out)
{
	struct oracle o = { .path = path };
	struct ns_pages *pages;
	struct cmp *c = calloc(1, sizeof(*c));
	char err[256] = "";
	int i;

	o.h = open_tc(path);
	if (!o.h) {
		FAIL("libtracecmd opens %s", name);
		free(c);
		return;
	}
	/* the top buffer, which is what o.h reads (instances: check_instances()) */
	pages = ns_pages_open_buffers(path, tracecmd_get_tep(o.h), top_only, 1, err, sizeof(err));
	CHECK(pages != NULL, "fast reader opens %s%s%s", name, err[0] ? ": " : "", err);
	if (!pages) {
		tracecmd_close(o.h);
		free(c);
		return;
	}
	o.page_size = tracecmd_page_size(o.h);
	o.recycle = ns_pages_compressed(pages);
	CHECK(ns_pages_nr_cpus(pages) == tracecmd_cpus(o.h), "CPUs (%d, libtracecmd %d): %s",
	      ns_pages_nr_cpus(pages), tracecmd_cpus(o.h), name);
	if (compare(pages, &o, c)) {
		FAIL("compare runs: %s", name);
	} else {
		for (i = 0; i < NR_PROPS; i++) {
			if (c->bad[i])
				FAIL("%s agree with libtracecmd: %s: %llu differ, first %s",
				     prop_names[i], name, (unsigned long long)c->bad[i],
				     c->first[i]);
			else
				PASS("%s agree with libtracecmd (%llu events): %s", prop_names[i],
				     (unsigned long long)c->events, name);
		}
		if (expect_events >= 0)
			CHECK(c->events == (uint64_t)expect_events,
			      "%s has %lld events (%llu read)", name, expect_events,
			      (unsigned long long)c->events);
		check_threads(name, pages, c);
		check_split(name, pages, c);
		if (out)
			*out = *c;
	}
	ns_pages_close(pages);
	if (o.h)
		tracecmd_close(o.h);
	free(c);
}

/* A whole file in memory, to rewrite. */
struct buf {
	unsigned char *d;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->d = realloc(b->d, b->cap);
	}
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

#define PUT(b, type, v) do { type _v = (v); put((b), &_v, sizeof(_v)); } while (0)

static uint16_t rd16(const struct buf *b, size_t at)
{
	uint16_t v = 0;

	if (at + 2 <= b->len)
		memcpy(&v, b->d + at, 2);
	return v;
}

static uint32_t rd32(const struct buf *b, size_t at)
{
	uint32_t v = 0;

	if (at + 4 <= b->len)
		memcpy(&v, b->d + at, 4);
	return v;
}

static uint64_t rd64(const struct buf *b, size_t at)
{
	uint64_t v = 0;

	if (at + 8 <= b->len)
		memcpy(&v, b->d + at, 8);
	return v;
}

static int slurp_buf(const char *path, struct buf *b)
{
	struct stat st;
	FILE *f = fopen(path, "rb");

	memset(b, 0, sizeof(*b));
	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return -1;
	}
	b->cap = b->len = (size_t)st.st_size;
	b->d = malloc(b->cap + 1);
	if (fread(b->d, 1, b->len, f) != b->len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int write_buf(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	if (fwrite(b->d, 1, b->len, f) != b->len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* What a v7 file with uncompressed options sections holds, for rewriting it. */
struct v7 {
	size_t codec_at;	/* where the compression name is in the header */
	size_t last_done;	/* where the last DONE option keeps its next-section offset */
	int page_size;
	char clock[64];
	uint32_t nr;
	uint32_t id[64];
	uint64_t off[64], size[64];
};

static int parse_v7(const struct buf *b, struct v7 *v)
{
	size_t at = 10;
	uint64_t sec;
	int guard = 0;

	memset(v, 0, sizeof(*v));
	if (b->len < 64 || strcmp((char *)b->d + at, "7"))
		return -1;
	at += 2 + 2;
	v->page_size = (int)rd32(b, at);
	at += 4;
	v->codec_at = at;
	at += strlen((char *)b->d + at) + 1;
	at += strlen((char *)b->d + at) + 1;
	for (sec = rd64(b, at); sec && guard++ < 64;) {
		size_t p = sec + 16;

		if (rd16(b, sec) != 0 || rd16(b, sec + 2) != 0)
			return -1;	/* not an options section, or compressed */
		for (;;) {
			uint16_t id = rd16(b, p);
			uint32_t size = rd32(b, p + 2);
			size_t data = p + 6;

			if (data + size > b->len)
				return -1;
			if (id == 0) {
				v->last_done = data;
				sec = rd64(b, data);
				break;
			}
			if (id == 3 && !b->d[data + 8]) {	/* the top buffer */
				size_t q = data + 9;
				uint32_t i;

				snprintf(v->clock, sizeof(v->clock), "%s", (char *)b->d + q);
				q += strlen((char *)b->d + q) + 1 + 4;
				v->nr = rd32(b, q);
				q += 4;
				for (i = 0; i < v->nr && i < 64; i++, q += 20) {
					v->id[i] = rd32(b, q);
					v->off[i] = rd64(b, q + 4);
					v->size[i] = rd64(b, q + 12);
				}
			}
			p = data + size;
		}
	}
	return v->last_done && v->nr ? 0 : -1;
}

/* Append an options section holding @opts to the end of the chain. */
static void append_options(struct buf *b, const struct v7 *v, const struct buf *opts)
{
	uint64_t at = b->len;

	PUT(b, uint16_t, 0);		/* options section */
	PUT(b, uint16_t, 0);		/* not compressed */
	PUT(b, uint32_t, 0);
	PUT(b, uint64_t, opts->len + 14);
	put(b, opts->d, opts->len);
	PUT(b, uint16_t, 0);		/* DONE: no section after */
	PUT(b, uint32_t, 8);
	PUT(b, uint64_t, 0);
	memcpy(b->d + v->last_done, &at, 8);
}

static void put_option(struct buf *o, uint16_t id, const void *data, uint32_t size)
{
	PUT(o, uint16_t, id);
	PUT(o, uint32_t, size);
	put(o, data, size);
}

/*
 * Compress a v7 file's uncompressed CPU data into chunks of 1, 4, 10, 2, 7
 * pages, with @codec ("zstd" or "zlib"), and point a new top BUFFER option
 * at it; the old data stays where it was, unused.
 */
static int rechunk(const struct buf *in, const char *codec, const char *out_path)
{
	static const int pattern[] = { 1, 4, 10, 2, 7 };
	struct buf b = { 0 }, opt = { 0 };
	struct v7 v;
	uint64_t sec, cpu_off[64], cpu_size[64];
	uint32_t i;
	int ret = -1, k = 0;

	if (parse_v7(in, &v))
		return -1;
	put(&b, in->d, in->len);
	memcpy(b.d + v.codec_at, codec, 4);	/* "none" is as long as either */
	while (b.len % (size_t)v.page_size)
		PUT(&b, uint8_t, 0);
	sec = b.len;
	PUT(&b, uint16_t, 3);			/* flyrecord section */
	PUT(&b, uint16_t, 1);			/* compressed */
	PUT(&b, uint32_t, 0);
	PUT(&b, uint64_t, 0);
	for (i = 0; i < v.nr; i++) {
		uint64_t pages = v.size[i] / (uint64_t)v.page_size, p = 0;
		uint32_t count = 0;
		size_t count_at;

		cpu_off[i] = b.len;
		count_at = b.len;
		PUT(&b, uint32_t, 0);
		while (p < pages) {
			uint64_t n = (uint64_t)pattern[k++ % 5];
			size_t len, zcap;
			unsigned char *z;

			if (n > pages - p)
				n = pages - p;
			len = n * (size_t)v.page_size;
			zcap = ZSTD_compressBound(len) + compressBound(len);
			z = malloc(zcap);
			if (!strcmp(codec, "zstd")) {
				zcap = ZSTD_compress(z, zcap, in->d + v.off[i] + p * v.page_size,
						     len, 1);
			} else {
				uLongf zl = zcap;

				compress2(z, &zl, in->d + v.off[i] + p * v.page_size, len, 6);
				zcap = zl;
			}
			PUT(&b, uint32_t, (uint32_t)zcap);
			PUT(&b, uint32_t, (uint32_t)len);
			put(&b, z, zcap);
			free(z);
			p += n;
			count++;
		}
		memcpy(b.d + count_at, &count, 4);
		cpu_size[i] = b.len - cpu_off[i];
	}
	/* the BUFFER option: offset, name, clock, page size, CPUs */
	PUT(&opt, uint16_t, 3);
	PUT(&opt, uint32_t, 8 + 1 + strlen(v.clock) + 1 + 4 + 4 + 20 * v.nr);
	PUT(&opt, uint64_t, sec);
	PUT(&opt, uint8_t, 0);
	put(&opt, v.clock, strlen(v.clock) + 1);
	PUT(&opt, uint32_t, (uint32_t)v.page_size);
	PUT(&opt, uint32_t, v.nr);
	for (i = 0; i < v.nr; i++) {
		PUT(&opt, uint32_t, v.id[i]);
		PUT(&opt, uint64_t, cpu_off[i]);
		PUT(&opt, uint64_t, cpu_size[i]);
	}
	append_options(&b, &v, &opt);
	ret = write_buf(out_path, &b);
	free(b.d);
	free(opt.d);
	return ret;
}

/* Records of @path by the fast reader alone, with @tep_path's formats. */
static int fast_only(const char *path, const char *tep_path, struct cmp *c, char *err,
		     size_t err_len)
{
	struct tracecmd_input *h = open_tc(tep_path);
	struct ns_pages *pages;
	int cpu;

	memset(c, 0, sizeof(*c));
	if (!h) {
		snprintf(err, err_len, "libtracecmd cannot open %.200s", tep_path);
		return -1;
	}
	pages = ns_pages_open(path, tracecmd_get_tep(h), err, err_len);
	tracecmd_close(h);
	if (!pages)
		return -1;
	for (cpu = 0; cpu < ns_pages_nr_cpus(pages) && cpu < 256; cpu++) {
		struct ns_pages_iter *it = ns_pages_iter_open(pages, cpu, 0, UINT64_MAX);

		if (!it || scan(it, &c->hash[cpu], &c->count[cpu]) < 0) {
			snprintf(err, err_len, "cpu %d: read error", cpu);
			ns_pages_iter_close(it);
			ns_pages_close(pages);
			return -1;
		}
		c->events += c->count[cpu];
		ns_pages_iter_close(it);
	}
	ns_pages_close(pages);
	return 0;
}

/* Files rewritten from the sample, for what no recorded trace has. */
/*
 * libtraceevent's one list of plugin options for the process, which every
 * libtracecmd open and plugin (un)load edits, unlocked: this definition,
 * exported from the test (the Makefile's --export-dynamic-symbol), is the
 * one libtracecmd calls. It counts the calls in flight at once. Each of the
 * first PARTNER_WAITS calls waits (up to a second) for a second call to come
 * in beside it: without the lock, the other index worker's next reopen does,
 * so an overlap that can happen does happen; with it, the other worker is
 * held at the lock and the wait runs out.
 */
#define PARTNER_WAITS 4
static atomic_int options_in, options_most, options_calls, options_waits;
static pthread_mutex_t options_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t options_cv = PTHREAD_COND_INITIALIZER;

int tep_plugin_add_options(const char *name, struct tep_plugin_option *options)
{
	static int (*real)(const char *, struct tep_plugin_option *);
	int in, most, ret;

	pthread_mutex_lock(&options_mu);
	in = atomic_fetch_add(&options_in, 1) + 1;
	most = atomic_load(&options_most);
	if (in > most)
		atomic_store(&options_most, in);
	atomic_fetch_add(&options_calls, 1);
	pthread_cond_broadcast(&options_cv);
	if (in == 1 && atomic_fetch_add(&options_waits, 1) < PARTNER_WAITS) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		while (atomic_load(&options_in) < 2 &&
		       !pthread_cond_timedwait(&options_cv, &options_mu, &until))
			;
	}
	pthread_mutex_unlock(&options_mu);
	if (!real)
		real = (int (*)(const char *, struct tep_plugin_option *))
			dlsym(RTLD_NEXT, "tep_plugin_add_options");
	ret = real ? real(name, options) : -1;
	atomic_fetch_sub(&options_in, 1);
	return ret;
}

/* A TIME_SHIFT option (host-guest sync), which the page reader refuses. */
static void put_time_shift(struct buf *opt)
{
	unsigned char ts[16 + 4 + 24] = { 0 };
	uint32_t cpus = 1, count = 1;
	uint64_t offset = 1000;

	memcpy(ts + 12, &cpus, 4);
	memcpy(ts + 16, &count, 4);
	memcpy(ts + 28, &offset, 8);
	put_option(opt, 12, ts, sizeof(ts));
}

/*
 * A big compressed file the page reader refuses (big.dat in zstd chunks,
 * with a TIME_SHIFT option) is indexed through libtracecmd by a thread per
 * CPU, each opening its handle again every few tens of MB read: those
 * opens must never overlap (src/trace/open.c, handles_lock).
 */
static void check_opens_apart(const char *dir)
{
	const char *shared = check_shared();
	char big[4096], none[4096], zstd[4096], shift[4096], cmd[16384], err[256] = "";
	struct buf in = { 0 }, b = { 0 }, opt = { 0 };
	struct ns_trace *t;
	struct v7 v;
	int calls;

	if (!shared) {
		SKIP("libtracecmd's opens one at a time: no ../shared/traces/big.dat");
		return;
	}
	snprintf(big, sizeof(big), "%s/traces/big.dat", shared);
	snprintf(none, sizeof(none), "%s/big-none.dat", dir);
	snprintf(zstd, sizeof(zstd), "%s/big-zstd.dat", dir);
	snprintf(shift, sizeof(shift), "%s/big-shift.dat", dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --compression none "
		 ">/dev/null 2>&1", big, none);
	if (system(cmd) || slurp_buf(none, &in) || parse_v7(&in, &v) ||
	    rechunk(&in, "zstd", zstd)) {
		FAIL("big.dat rewritten in zstd chunks");
		free(in.d);
		return;
	}
	free(in.d);
	in.d = NULL;
	unlink(none);
	if (slurp_buf(zstd, &in) || parse_v7(&in, &v)) {
		FAIL("read %s", zstd);
		free(in.d);
		return;
	}
	put(&b, in.d, in.len);
	free(in.d);
	unlink(zstd);
	put_time_shift(&opt);
	append_options(&b, &v, &opt);
	free(opt.d);
	if (write_buf(shift, &b)) {
		FAIL("write %s", shift);
		free(b.d);
		return;
	}
	free(b.d);
	atomic_store(&options_most, 0);
	atomic_store(&options_waits, 0);
	calls = atomic_load(&options_calls);
	t = ns_trace_open(shift, err, sizeof(err));
	if (!t) {
		FAIL("open big.dat with a TIME_SHIFT option: %s", err);
		return;
	}
	CHECK(ns_trace_nr_events(t) > 1000000, "big.dat with a TIME_SHIFT option: %llu events",
	      (unsigned long long)ns_trace_nr_events(t));
	ns_trace_close(t);
	unlink(shift);
	calls = atomic_load(&options_calls) - calls;
	CHECK(calls >= 8 && atomic_load(&options_most) == 1,
	      "big.dat indexed through libtracecmd: its opens one at a time "
	      "(%d calls to tep_plugin_add_options, at most %d at once)",
	      calls, atomic_load(&options_most));
}

/* Two scans of CPU 0 in a thread of their own: the faults of each. */
struct kept {
	const struct ns_pages *pages;
	long faults[2];
	uint64_t events[2];
};

static void *scan_twice(void *arg)
{
	struct kept *k = arg;
	struct ns_pages_record r;
	struct rusage ru0, ru1;
	int i;

	for (i = 0; i < 2; i++) {
		struct ns_pages_iter *it;

		getrusage(RUSAGE_THREAD, &ru0);
		it = ns_pages_iter_open(k->pages, 0, 0, UINT64_MAX);
		/* larger than any block free in an arena: mapped afresh unless kept */
		if (it)
			ns_pages_iter_window(it, 4u << 20);
		while (it && ns_pages_iter_next(it, &r) == 1)
			k->events[i]++;
		ns_pages_iter_close(it);
		getrusage(RUSAGE_THREAD, &ru1);
		k->faults[i] = ru1.ru_minflt - ru0.ru_minflt;
	}
	return NULL;
}

/*
 * An iterator's window of an uncompressed file is kept by its thread for
 * the next iterator, with blocks of 128 KiB or more mapped on their own as
 * the program has them (ns_memory_setup()): the second scan of a CPU's
 * pages faults in no new window. (The scheduler's scans open an iterator
 * per stretch of events; fresh windows were 570 000 faults on a 1.1 GB v6
 * file.)
 */
static void check_buffers_kept(const char *path)
{
	struct tracecmd_input *h = open_tc(path);
	struct kept k = { 0 };
	char err[256] = "";
	struct ns_pages *pages;
	pthread_t t;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	SKIP("kept windows: the sanitizer's allocator maps memory its own way");
	if (h)
		tracecmd_close(h);
	return;
#endif
	pages = h ? ns_pages_open_buffers(path, tracecmd_get_tep(h), top_only, 1, err,
					   sizeof(err)) : NULL;
	if (!pages) {
		FAIL("kept windows: open %s: %s", path, err);
		if (h)
			tracecmd_close(h);
		return;
	}
	ns_memory_setup();
	k.pages = pages;
	if (pthread_create(&t, NULL, scan_twice, &k)) {
		FAIL("kept windows: start a thread");
	} else {
		pthread_join(t, NULL);
		CHECK(k.events[0] > 10000 && k.events[1] == k.events[0] && k.faults[0] >= 32 &&
		      k.faults[1] <= k.faults[0] / 4,
		      "kept windows: the second scan of CPU 0 (%llu events) faults %ld times, "
		      "the first %ld", (unsigned long long)k.events[0], k.faults[1], k.faults[0]);
	}
	ns_pages_close(pages);
	tracecmd_close(h);
}

static void check_rewritten(const char *dir, const char *sample)
{
	char none[4096], path[4096], cmd[16384], err[256] = "";
	struct buf in, b = { 0 }, opt = { 0 };
	struct cmp zstd_c, zlib_c;
	struct v7 v;
	struct tracecmd_input *h;
	struct ns_pages *pages;
	int variant;

	snprintf(none, sizeof(none), "%s/none.dat", dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --compression none "
		 ">/dev/null 2>&1", sample, none);
	if (system(cmd) || slurp_buf(none, &in) || parse_v7(&in, &v)) {
		SKIP("rewritten traces: `trace-cmd convert --compression none` failed");
		return;
	}
	check_trace(none, "sample as v7 uncompressed", 91631, NULL);
	snprintf(path, sizeof(path), "%s/v6.dat", dir);
	snprintf(cmd, sizeof(cmd), "trace-cmd convert -i '%s' -o '%s' --file-version 6 "
		 "--compression none >/dev/null 2>&1", sample, path);
	if (system(cmd))
		FAIL("`trace-cmd convert --file-version 6` of the sample");
	else
		check_trace(path, "sample as v6", 91631, NULL);
	if (!access(path, R_OK))
		check_buffers_kept(path);

	/* odd chunk sizes: the chunk table and libtracecmd's offsets for them */
	snprintf(path, sizeof(path), "%s/rechunk-zstd.dat", dir);
	if (rechunk(&in, "zstd", path)) {
		FAIL("rewrite the sample in chunks of 1, 4, 10, 2, 7 pages");
	} else {
		check_trace(path, "sample in zstd chunks of 1-10 pages", 91631, &zstd_c);
		/* no zlib in this libtracecmd, maybe: the zstd twin is the oracle */
		snprintf(path, sizeof(path), "%s/rechunk-zlib.dat", dir);
		if (rechunk(&in, "zlib", path) ||
		    fast_only(path, none, &zlib_c, err, sizeof(err))) {
			FAIL("zlib chunks read: %s", err);
		} else {
			CHECK(zlib_c.events == zstd_c.events &&
			      !memcmp(zlib_c.hash, zstd_c.hash, sizeof(zlib_c.hash)),
			      "zlib chunks give the records of the same zstd chunks (%llu events)",
			      (unsigned long long)zlib_c.events);
		}
	}

	/*
	 * Time options, added after the file's own: libtracecmd applies them
	 * all. TSC2NSEC with a usual multiplier, then with one libtracecmd
	 * takes as negative (it keeps it in an int).
	 */
	for (variant = 0; variant < 2; variant++) {
		unsigned char tsc[16] = { 0 };
		uint32_t mult = variant ? 0xd1b71759u : 0x1a36e2ebu, shift = variant ? 31 : 29;

		b.len = 0;
		opt.len = 0;
		put(&b, in.d, in.len);
		put_option(&opt, 7, "-123456789", 11);		/* OFFSET */
		put_option(&opt, 1, "0x7b", 5);			/* DATE, microseconds */
		memcpy(tsc, &mult, 4);
		memcpy(tsc + 4, &shift, 4);
		put_option(&opt, 14, tsc, 16);			/* TSC2NSEC */
		append_options(&b, &v, &opt);
		snprintf(path, sizeof(path), "%s/time-options.dat", dir);
		if (write_buf(path, &b))
			FAIL("write %s", path);
		else
			check_trace(path, variant ?
				    "sample with OFFSET, DATE, TSC2NSEC (mult >= 2^31)" :
				    "sample with OFFSET, DATE and TSC2NSEC options", 91631, NULL);
	}

	/* host-guest time sync is not ours to apply: the open must say so */
	b.len = 0;
	opt.len = 0;
	put(&b, in.d, in.len);
	put_time_shift(&opt);
	append_options(&b, &v, &opt);
	snprintf(path, sizeof(path), "%s/time-shift.dat", dir);
	h = write_buf(path, &b) ? NULL : open_tc(path);
	if (!h) {
		FAIL("libtracecmd opens the sample with a TIME_SHIFT option");
	} else {
		err[0] = '\0';
		pages = ns_pages_open(path, tracecmd_get_tep(h), err, sizeof(err));
		CHECK(!pages && strstr(err, "TIME_SHIFT"),
		      "a TIME_SHIFT file is refused with a reason (\"%s\")", err);
		ns_pages_close(pages);
		tracecmd_close(h);
	}
	free(b.d);
	free(opt.d);
	free(in.d);
}

/* Not traces, and traces cut short: an error with a reason. */
static void check_refused(const char *dir, const char *sample)
{
	struct tracecmd_input *h = open_tc(sample);
	char path[4096], err[256];
	struct ns_pages *pages;
	struct buf in, v6;
	int i;

	if (!h || slurp_buf(sample, &in)) {
		FAIL("read %s", sample);
		return;
	}
	snprintf(path, sizeof(path), "%s/v6.dat", dir);
	if (slurp_buf(path, &v6))
		v6.len = 0;
	for (i = 0; i < 4; i++) {
		static const char *const what[] = { "a text file", "a trace cut in its data",
						    "a trace cut in its header",
						    "a v6 trace cut in its data" };
		size_t len = i == 0 ? 0 : i == 1 ? in.len * 3 / 4 : i == 2 ? 600 : v6.len * 3 / 4;
		struct buf b = { 0 };

		if (i == 3 && !v6.len) {
			SKIP("%s: no v6 copy of the sample", what[i]);
			continue;
		}
		if (i == 0)
			put(&b, "hello, not a trace\n", 19);
		else
			put(&b, i == 3 ? v6.d : in.d, len);
		snprintf(path, sizeof(path), "%s/refused.dat", dir);
		write_buf(path, &b);
		err[0] = '\0';
		pages = ns_pages_open(path, tracecmd_get_tep(h), err, sizeof(err));
		CHECK(!pages && err[0], "%s is refused with a reason (\"%s\")", what[i], err);
		ns_pages_close(pages);
		free(b.d);
	}
	err[0] = '\0';
	pages = ns_pages_open(dir, tracecmd_get_tep(h), err, sizeof(err));
	CHECK(!pages && err[0], "a directory is refused with a reason (\"%s\")", err);
	ns_pages_close(pages);
	tracecmd_close(h);
	free(in.d);
	free(v6.d);
}

static uint32_t rng_next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Read all of @path in a child: -1 if it crashed or hung, 1 if it met an error, else 0. */
static int survives(const char *path, struct tep_handle *tep, char *why, size_t why_len)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[256];
		struct ns_pages *pages = ns_pages_open(path, tep, err, sizeof(err));
		struct ns_pages_record r;
		int cpu, got = 0, refused = 0;

		alarm(20);
		for (cpu = 0; pages && cpu < ns_pages_nr_cpus(pages); cpu++) {
			struct ns_pages_iter *it = ns_pages_iter_open(pages, cpu, 0, UINT64_MAX);

			while (it && (got = ns_pages_iter_next(it, &r)) > 0) {
				/* touch what a caller would read */
				volatile unsigned char sink = r.size ?
					((const unsigned char *)r.data)[r.size - 1] : 0;
				(void)sink;
			}
			refused |= got < 0;
			ns_pages_iter_close(it);
		}
		ns_pages_close(pages);
		_exit(refused ? 2 : 0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status)) {
		snprintf(why, why_len, "%s", WTERMSIG(status) == SIGALRM ? "hung" :
			 strsignal(WTERMSIG(status)));
		return -1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 2 ? 1 : 0;
}

/*
 * Damage the pages of an uncompressed copy, in place: commit words, record
 * headers, random bytes. Every case must end, error or not.
 */
static void check_damaged(const char *dir, const char *sample)
{
	char none[4096], why[128] = "";
	struct tracecmd_input *h;
	struct buf in;
	struct v7 v;
	uint32_t seed = 11;
	int i, k, fd, ret, bad = 0, refused = 0, cases = 200;

	snprintf(none, sizeof(none), "%s/none.dat", dir);
	if (slurp_buf(none, &in) || parse_v7(&in, &v) || !(h = open_tc(none))) {
		SKIP("damaged pages: no uncompressed copy of the sample");
		return;
	}
	fd = open(none, O_RDWR);
	for (i = 0; i < cases && fd >= 0; i++) {
		uint32_t cpu = rng_next(&seed) % v.nr;
		uint64_t pages = v.size[cpu] / (uint64_t)v.page_size;
		uint64_t page_at = v.off[cpu] + (rng_next(&seed) % pages) * (uint64_t)v.page_size;
		uint64_t at[8];
		unsigned char val[8];
		int n = 1 + (int)(rng_next(&seed) % 8), mode = (int)(rng_next(&seed) % 3);

		for (k = 0; k < n; k++) {
			/* the commit word's bytes, the first records' headers, anywhere */
			at[k] = page_at + (mode == 0 ? 8 + rng_next(&seed) % 8 :
					   mode == 1 ? 16 + rng_next(&seed) % 64 :
					   rng_next(&seed) % (uint32_t)v.page_size);
			val[k] = (unsigned char)rng_next(&seed);
			if (pwrite(fd, &val[k], 1, (off_t)at[k]) != 1)
				break;
		}
		ret = survives(none, tracecmd_get_tep(h), why, sizeof(why));
		if (ret < 0 && !bad++)
			printf("  case %d: %s\n", i, why);
		refused += ret > 0;
		for (k = 0; k < n; k++)
			if (pwrite(fd, in.d + at[k], 1, (off_t)at[k]) != 1)
				bad++;
	}
	if (fd >= 0)
		close(fd);
	CHECK(fd >= 0 && !bad,
	      "%d copies with damaged pages end without a crash or hang (%d did not; "
	      "%d found the damage)", cases, bad, refused);
	tracecmd_close(h);
	free(in.d);
}

/*
 * Every buffer: the instance's slots follow the top buffer's, and each
 * reads the records libtracecmd's handle of that instance reads for its
 * CPU, timestamps and sizes alike.
 */
static void check_instances(const char *path)
{
	struct tracecmd_input *h = open_tc(path), *ih;
	struct ns_pages *pages;
	char err[256] = "";
	int slot, bad = 0, checked = 0;

	if (!h) {
		FAIL("libtracecmd opens %s", path);
		return;
	}
	pages = ns_pages_open(path, tracecmd_get_tep(h), err, sizeof(err));
	ih = tracecmd_buffer_instances(h) == 1 ? tracecmd_buffer_instance_handle(h, 0) : NULL;
	CHECK(pages && ih && ns_pages_nr_buffers(pages) == 2 &&
	      ns_pages_nr_cpus(pages) == tracecmd_cpus(h) + tracecmd_cpus(ih) &&
	      ns_pages_top_cpus(pages) == tracecmd_cpus(h) && ns_pages_name_width(pages) == 5 &&
	      !strcmp(ns_pages_buffer(pages, 1)->name, "extra"),
	      "instance.dat: the top buffer's CPUs, then extra's (%s)", err);
	for (slot = pages && ih ? ns_pages_top_cpus(pages) : 0;
	     pages && ih && slot < ns_pages_nr_cpus(pages); slot++) {
		struct ns_pages_iter *it = ns_pages_iter_open(pages, slot, 0, UINT64_MAX);
		int cpu = ns_pages_cpu_id(pages, slot);
		struct ns_pages_record r;
		struct tep_record *rec;

		for (rec = tracecmd_read_cpu_first(ih, cpu); rec;
		     rec = tracecmd_read_data(ih, cpu)) {
			if (ns_pages_iter_next(it, &r) != 1 || r.ts_ns != rec->ts ||
			    r.size != (uint32_t)rec->size)
				bad++;
			checked++;
			tracecmd_free_record(rec);
		}
		if (ns_pages_iter_next(it, &r) != 0)
			bad++;
		ns_pages_iter_close(it);
	}
	CHECK(!bad && checked > 100, "instance.dat: extra's slots read libtracecmd's %d records of "
	      "its handle (%d differ)", checked, bad);
	if (ih)
		tracecmd_close(ih);
	ns_pages_close(pages);
	tracecmd_close(h);
}

int main(void)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	const char *shared;
	char dir[] = "/tmp/ns-pages-XXXXXX", path[8192], sample[8192];
	struct trace_list l;
	int i;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	trace_list_load(&l, 1);
	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	trace_list_add(&l, path);
	shared = check_shared();
	if (shared) {
		snprintf(path, sizeof(path), "%s/traces/big.dat", shared);
		trace_list_add(&l, path);
	}
	for (i = 0; i < l.n; i++)
		check_trace(l.path[i], base_name(l.path[i]), -1, NULL);
	snprintf(path, sizeof(path), "%s/tests/data/instance.dat", top);
	check_instances(path);

	snprintf(sample, sizeof(sample), "%s/contrib/sample.dat", top);
	if (!mkdtemp(dir)) {
		FAIL("make a temporary directory");
		return 1;
	}
	check_rewritten(dir, sample);
	check_refused(dir, sample);
	check_damaged(dir, sample);
	check_opens_apart(dir);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		printf("  could not remove %s\n", dir);
	return check_failures ? 1 : 0;
}
