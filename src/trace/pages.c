// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walking the pages: an iterator over a range of one CPU's ring-buffer
 * pages (found by layout.c) that gives each record exactly as
 * libtracecmd's tracecmd_read_data() would (timestamp, CPU, offset, lost
 * events, bytes) but with no malloc per record and, for compressed files,
 * each chunk decompressed once into a buffer that is reused. Where the
 * pages are and what is kept of them: layout.c and layout.h.
 *
 * A page (the kernel's ring_buffer.c): a u64 timestamp, a long "commit"
 * (the bytes of records; bit 31: events were lost before the page, bit 30:
 * their count is stored after the records), then records, each a 32-bit
 * word "type_len:5, time_delta:27" (added to the time so far) and:
 * type_len 1-28, 4 * type_len bytes of data; 0, a 32-bit length and the
 * data; 29, padding; 30, a time extend; 31, an absolute time stamp.
 * walk_page() lists a page's records in one pass with the very steps of
 * libtraceevent's kbuffer, which libtracecmd reads pages with
 * (kbuffer_load_subbuffer, kbuffer_next_event, kbuffer_missed_events):
 * kbuffer itself costs five calls through function pointers per record,
 * and the whole scan took three times as long with it (measured on
 * big.dat). The walk also checks what a damaged file could break (each
 * step forward and inside the page), where kbuffer would read outside the
 * page or go round in circles.
 */
#define _FILE_OFFSET_BITS 64	/* 32-bit boards read traces over 2 GiB too */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include "layout.h"
#include "pages.h"
#include "nurseshark/util.h"

#define NS_PAGES_WINDOW (256u << 10)	/* fits the cache: walked while hot */

/* Ring-buffer record types (type_len), as in the kernel's ring_buffer.c. */
enum {
	RB_PADDING = 29,
	RB_TIME_EXTEND = 30,
	RB_TIME_STAMP = 31,
};

#define RB_MISSING_EVENTS (1u << 31)
#define RB_MISSING_STORED (1u << 30)
#define RB_COMMIT_MASK ((1u << 27) - 1)

/* One record of the page loaded: where it is, and its raw timestamp. */

struct ns_pages_iter {
	size_t window;		/* bytes of the file read at a time */
	const struct ns_pages *p;
	const struct ns_pages_cpu *c;
	int cpu;
	uint64_t page, end_page;
	const unsigned char *page_data;	/* NULL: no page loaded */
	int err;
	/* the records of the page loaded, from walk_page() */
	struct ns_pages_rec *recs;
	uint32_t nr_recs, rec_idx;
	long long missed;		/* lost events before the page */
	/* uncompressed: the part of the file read last (it->window bytes) */
	unsigned char *win;
	size_t win_cap;		/* its size */
	size_t win_len;		/* 0: none, or a page cut by the file's end */
	uint64_t win_off;
	/* compressed */
	ZSTD_DCtx *zstd;
	z_stream zlib;
	bool zlib_ready;
	unsigned char *zin, *chunk;
	uint32_t chunk_idx;	/* the chunk in @chunk, or UINT32_MAX */
};

/*
 * The buffers of this thread's last iterator, kept for its next one: the
 * window of the file read (uncompressed), or the compressed bytes and the
 * chunk decompressed (compressed). The scheduler's scans open an iterator
 * per stretch of events, and each buffer freshly mapped cost a page fault
 * per 4 kB written: 570 000 of them for the scans of a 1.1 GB v6 file (a
 * fault is slow on a virtual machine). Freed when the thread ends.
 */
enum { BUF_WIN, BUF_ZIN, BUF_CHUNK, NR_BUFS };

struct buf_cache {
	unsigned char *buf[NR_BUFS];
	size_t len[NR_BUFS];
};

static pthread_key_t buf_key;
static pthread_once_t buf_once = PTHREAD_ONCE_INIT;
static bool buf_key_ok;

static void buf_cache_free(void *arg)
{
	struct buf_cache *bc = arg;
	int k;

	for (k = 0; k < NR_BUFS; k++)
		free(bc->buf[k]);
	free(bc);
}

static void buf_key_make(void)
{
	buf_key_ok = !pthread_key_create(&buf_key, buf_cache_free);
}

static struct buf_cache *buf_cache(void)
{
	struct buf_cache *bc;

	pthread_once(&buf_once, buf_key_make);
	if (!buf_key_ok)
		return NULL;
	bc = pthread_getspecific(buf_key);
	if (!bc && (bc = calloc(1, sizeof(*bc))) && pthread_setspecific(buf_key, bc)) {
		free(bc);
		bc = NULL;
	}
	return bc;
}

/*
 * A buffer of @len bytes for @kind: this thread's kept one if large enough.
 * Page-aligned: pread() copies into it with the kernel's copy, which on
 * this machine's AMD EPYC took 4.7 times as long into malloc()'s buffer
 * (an mmap()ed block 16 bytes into its first page) as into an aligned one:
 * 0.71 s of CPU against 0.15 s for the 1 GB of huge6.dat's v6 index, a
 * fifth of the whole.
 */
static unsigned char *buf_get(int kind, size_t len)
{
	struct buf_cache *bc = buf_cache();
	void *buf;

	if (bc && bc->buf[kind] && bc->len[kind] >= len) {
		buf = bc->buf[kind];
		bc->buf[kind] = NULL;
		return buf;
	}
	return posix_memalign(&buf, 4096, len ? len : 1) ? NULL : buf;
}

/* Keep @buf (@len bytes) for this thread's next buffer of @kind: the larger of two. */
static void buf_put(int kind, unsigned char *buf, size_t len)
{
	struct buf_cache *bc = buf ? buf_cache() : NULL;

	if (!bc || (bc->buf[kind] && bc->len[kind] >= len)) {
		free(buf);
		return;
	}
	free(bc->buf[kind]);
	bc->buf[kind] = buf;
	bc->len[kind] = len;
}

void ns_pages_iter_close(struct ns_pages_iter *it)
{
	if (!it)
		return;
	buf_put(BUF_WIN, it->win, it->win_cap);
	if (it->zstd)
		ZSTD_freeDCtx(it->zstd);
	if (it->zlib_ready)
		inflateEnd(&it->zlib);
	free(it->recs);
	buf_put(BUF_ZIN, it->zin, it->c->max_zsize);
	buf_put(BUF_CHUNK, it->chunk, it->c->max_size);
	free(it);
}

struct ns_pages_iter *ns_pages_iter_open(const struct ns_pages *p, int cpu, uint64_t first_page,
					 uint64_t end_page)
{
	struct ns_pages_iter *it;

	if (cpu < 0 || cpu >= p->nr_cpus)
		return NULL;
	it = calloc(1, sizeof(*it));
	if (!it)
		return NULL;
	it->p = p;
	it->c = &p->cpus[cpu];
	it->cpu = cpu;
	it->chunk_idx = UINT32_MAX;
	it->window = NS_PAGES_WINDOW;
	/* a record takes 8 bytes at least */
	it->recs = malloc(((size_t)p->page_size / 8 + 1) * sizeof(*it->recs));
	if (!it->recs)
		goto fail;
	if (p->compressed) {
		it->zin = buf_get(BUF_ZIN, it->c->max_zsize);
		it->chunk = buf_get(BUF_CHUNK, it->c->max_size);
		if (!it->zin || !it->chunk)
			goto fail;
		if (p->codec == CODEC_ZSTD) {
			it->zstd = ZSTD_createDCtx();
			if (!it->zstd)
				goto fail;
		} else {
			if (inflateInit(&it->zlib) != Z_OK)
				goto fail;
			it->zlib_ready = true;
		}
	}
	ns_pages_iter_seek(it, first_page, end_page);
	return it;
fail:
	ns_pages_iter_close(it);
	return NULL;
}

void ns_pages_iter_window(struct ns_pages_iter *it, size_t bytes)
{
	bytes = bytes > (size_t)it->p->page_size ? bytes : (size_t)it->p->page_size;
	if (bytes != it->window) {
		buf_put(BUF_WIN, it->win, it->win_cap);
		it->win = NULL;
		it->win_len = 0;
	}
	it->window = bytes;
}

void ns_pages_iter_seek(struct ns_pages_iter *it, uint64_t first_page, uint64_t end_page)
{
	if (end_page > it->c->nr_pages)
		end_page = it->c->nr_pages;
	it->page = first_page;
	it->end_page = end_page;
	it->page_data = NULL;
	it->nr_recs = it->rec_idx = 0;
	it->err = 0;
}

/*
 * Page it->page of an uncompressed CPU: from the window of the file read
 * last, else read the next window with pread(). Not mmap(): a file cut
 * shorter while open (recorded over) would kill us with SIGBUS at the first
 * touch of a page past its new end, wherever that touch is (a record's
 * data is read by libtraceevent's printing too); pread() says so with a
 * short read. And it costs nothing measurable: the copy of a window that
 * fits the cache is walked while hot, and there is no munmap() to interrupt
 * the other threads' CPUs (measured on big.dat as v6, 212 MB: see the
 * commit).
 */
static const unsigned char *file_page(struct ns_pages_iter *it)
{
	const struct ns_pages *p = it->p;
	uint64_t ps = (uint64_t)p->page_size;
	uint64_t off = it->c->data_offset + it->page * ps;
	uint64_t end;
	int ret;

	if (it->win_len && off >= it->win_off && off + ps <= it->win_off + it->win_len)
		return it->win + (off - it->win_off);
	if (!it->win) {
		it->win = buf_get(BUF_WIN, it->window);
		it->win_cap = it->window;
		if (!it->win) {
			it->err = -ENOMEM;
			return NULL;
		}
	}
	it->win_len = 0;
	end = it->c->data_offset + it->end_page * ps;
	if (end > off + it->window)
		end = off + it->window;
	if (end < off + ps)
		end = off + ps;
	/* the file ends inside the page: the rest reads as zeros, as libtracecmd's */
	if (end > p->file_size) {
		memset(it->win, 0, ps);
		end = off < p->file_size ? p->file_size : off;
	}
	ret = ns_pages_pread_full(p->fd, it->win, end - off, off);
	if (ret) {
		it->err = ret;
		return NULL;
	}
	it->win_off = off;
	it->win_len = end - off >= ps ? end - off : 0;
	return it->win;
}

struct chunk_key {
	const struct ns_pages_cpu *c;
	uint64_t page;
};

static bool chunk_starts_by(size_t i, const void *arg)
{
	const struct chunk_key *k = arg;

	return k->c->chunks[i].first_page <= k->page;
}

/* The chunk that holds @page: the last that starts at or before it (0 if none). */
static uint32_t find_chunk(const struct ns_pages_cpu *c, uint64_t page, uint32_t hint, int ps)
{
	uint32_t after;

#define IN_CHUNK(i) (page >= c->chunks[i].first_page && \
		     page < c->chunks[i].first_page + c->chunks[i].size / (uint32_t)ps)
	if (hint < c->nr_chunks && IN_CHUNK(hint))
		return hint;
	if (hint + 1 < c->nr_chunks && IN_CHUNK(hint + 1))
		return hint + 1;
#undef IN_CHUNK
	after = (uint32_t)ns_lower_bound(c->nr_chunks, chunk_starts_by, &(struct chunk_key){ c, page });
	return after ? after - 1 : 0;
}

/* Page it->page of a compressed CPU, decompressing its chunk if it is not the one held. */
static const unsigned char *chunk_page(struct ns_pages_iter *it)
{
	const struct ns_pages *p = it->p;
	const struct ns_pages_cpu *c = it->c;
	uint32_t i = find_chunk(c, it->page, it->chunk_idx, p->page_size);
	const struct ns_pages_chunk *ch = &c->chunks[i];

	if (i != it->chunk_idx) {
		it->chunk_idx = UINT32_MAX;
		it->err = ns_pages_pread_full(p->fd, it->zin, ch->zsize, ch->zoffset + 8);
		if (it->err)
			return NULL;
		if (ns_pages_inflate(p->codec, it->zstd, it->zlib_ready ? &it->zlib : NULL, it->zin,
				  ch->zsize, it->chunk, ch->size)) {
			it->err = -EBADMSG;
			return NULL;
		}
		it->chunk_idx = i;
	}
	return it->chunk + (it->page - ch->first_page) * (uint64_t)p->page_size;
}

static inline uint64_t read_num(const unsigned char *ptr, int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *ptr;
	case 2:
		memcpy(&v16, ptr, 2);
		return v16;
	case 4:
		memcpy(&v32, ptr, 4);
		return v32;
	case 8:
		memcpy(&v64, ptr, 8);
		return v64;
	}
	return 0;
}

/*
 * Counts to ns with TSC2NSEC's multiplier and shift, in 64-bit arithmetic
 * that wraps where libtracecmd's (the kernel's mul_u64_u32_shr()) wraps.
 */
static inline uint64_t tsc_to_ns(const struct ns_pages *p, uint64_t ts)
{
	uint64_t lo = (uint32_t)ts, hi = ts >> 32;
	uint64_t ns = (lo * p->tsc_mult) >> p->tsc_shift;

	if (hi)
		ns += (hi * p->tsc_mult) << (32 - p->tsc_shift);
	return ns;
}

/* A common field as libtraceevent reads it (past the record's end too, not past the page). */
static inline int common_field(const struct ns_pages *p, const unsigned char *data, size_t in_page,
			       int offset, int size)
{
	if (!size || offset < 0 || (size_t)offset + (size_t)size > in_page)
		return -1;
	return (int)read_num(data + offset, size);
}

/*
 * List the records of a page, as kbuffer walks them: their place, size and
 * timestamp. Checks what the kernel guarantees and a damaged file may
 * break: the commit size (and the lost events count stored after the data)
 * inside the page, and every step forward and inside the page.
 */
static int walk_page(struct ns_pages_iter *it, const unsigned char *pg)
{
	const struct ns_pages *p = it->p;
	uint32_t hdr = p->long_size == 8 ? 16 : 12, room = (uint32_t)p->page_size - hdr;
	const unsigned char *data = pg + hdr;
	uint64_t commit, ts;
	uint32_t size, pos = 0, n = 0;

	memcpy(&ts, pg, 8);
	if (p->long_size == 8) {
		memcpy(&commit, pg + 8, 8);
	} else {
		uint32_t c32;

		memcpy(&c32, pg + 8, 4);
		commit = c32;
	}
	size = (uint32_t)commit & RB_COMMIT_MASK;
	if (size > room)
		return -EBADMSG;
	it->missed = 0;
	if (commit & RB_MISSING_EVENTS) {
		it->missed = -1;
		if (commit & RB_MISSING_STORED) {
			if (size + (uint32_t)p->long_size > room)
				return -EBADMSG;
			/* kbuffer_missed_events() gives it as an int */
			it->missed = (int)read_num(data + size, p->long_size);
		}
	}
	while (pos < size) {
		uint32_t word, len, type_len, delta;
		int64_t next, at = (int64_t)pos + 4;

		if (pos + 4 > room)
			return -EBADMSG;
		memcpy(&word, data + pos, 4);
		type_len = word & 0x1f;
		delta = word >> 5;
		if (type_len >= RB_PADDING || type_len == 0) {
			if (pos + 8 > room)
				return -EBADMSG;
			memcpy(&len, data + pos + 4, 4);
		}
		switch (type_len) {
		case RB_TIME_STAMP:
			/* absolute, without the top 5 bits: those stay */
			ts = ((((uint64_t)len << 27) + delta) | (ts & (0xf8ull << 56)));
			next = (int64_t)pos + 8;
			break;
		case RB_TIME_EXTEND:
			ts += ((uint64_t)len << 27) + delta;
			next = (int64_t)pos + 8;
			break;
		case RB_PADDING:
			ts += delta;
			next = at + (int32_t)len;
			break;
		case 0:
			at += 4;
			next = at + (((int64_t)(int32_t)(len - 4) + 3) & ~(int64_t)3);
			break;
		default:
			next = at + 4 * (int64_t)type_len;
			break;
		}
		/* forward, and a record's data (next - at bytes) not negative */
		if (next <= pos || next > room || (type_len < RB_PADDING && next < at))
			return -EBADMSG;
		if (type_len < RB_PADDING) {
			struct ns_pages_rec *r = &it->recs[n++];
			uint64_t ns;
			size_t in_page = (size_t)p->page_size - hdr - (size_t)at;

			ts += delta;
			ns = p->tsc_mult ? tsc_to_ns(p, ts) : ts;
			r->ts_ns = ns + (uint64_t)p->ts_offset;
			r->off = hdr + pos;
			r->data_off = hdr + (uint32_t)at;
			r->size = (uint32_t)(next - at);
			r->type = common_field(p, data + at, in_page, p->type_offset, p->type_size);
			r->pid = common_field(p, data + at, in_page, p->pid_offset, p->pid_size);
		}
		pos = (uint32_t)next;
	}
	it->nr_recs = n;
	it->rec_idx = 0;
	return 0;
}

/* Load the next page with records, unless the one loaded has some left: 1, 0 at the end, or an error. */
static int load_records(struct ns_pages_iter *it)
{
	const struct ns_pages *p = it->p;

	if (it->err)
		return it->err;
	while (it->rec_idx >= it->nr_recs) {
		const unsigned char *pg;

		if (it->page_data) {
			it->page_data = NULL;
			it->page++;
		}
		if (it->page >= it->end_page)
			return 0;
		pg = p->compressed ? chunk_page(it) : file_page(it);
		if (!pg)
			return it->err;
		it->err = walk_page(it, pg);
		if (it->err)
			return it->err;
		it->page_data = pg;
	}
	return 1;
}

/* The lost events before the page's record @i: only its first, when at the page's start. */
static long long missed_at(const struct ns_pages_iter *it, uint32_t i)
{
	return i == 0 && it->recs[0].off == (it->p->long_size == 8 ? 16u : 12u) ? it->missed : 0;
}

int ns_pages_iter_next(struct ns_pages_iter *it, struct ns_pages_record *rec)
{
	const struct ns_pages *p = it->p;
	const struct ns_pages_rec *r;
	int ret = load_records(it);

	if (ret != 1)
		return ret;
	r = &it->recs[it->rec_idx];
	rec->missed = missed_at(it, it->rec_idx++);
	rec->ts_ns = r->ts_ns;
	rec->data = it->page_data + r->data_off;
	rec->size = r->size;
	rec->cpu = it->cpu;
	rec->page = it->page;
	rec->page_off = r->off;
	rec->offset = it->c->offset + it->page * (uint64_t)p->page_size + r->off;
	rec->type = r->type;
	rec->pid = r->pid;
	return 1;
}

int ns_pages_iter_page(struct ns_pages_iter *it, struct ns_pages_page *pg)
{
	int ret = load_records(it);

	if (ret != 1)
		return ret;
	pg->data = it->page_data;
	pg->recs = it->recs + it->rec_idx;
	pg->nr = it->nr_recs - it->rec_idx;
	pg->missed = missed_at(it, it->rec_idx);
	pg->page = it->page;
	pg->offset = it->c->offset + it->page * (uint64_t)it->p->page_size;
	pg->cpu = it->cpu;
	it->rec_idx = it->nr_recs;
	return 1;
}
