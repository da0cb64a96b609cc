/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/trace: the fast reader of a trace.dat's event data (the
 * design comments are in layout.h, layout.c and pages.c). It reads the top buffer's ring-buffer
 * pages itself, chunk by chunk for compressed v7 files, and hands out each
 * record as libtracecmd's tracecmd_read_data() would, without a malloc
 * per record; libtracecmd still does the metadata, the formats and the
 * text of an event, and reads a record back by the offset given here.
 *
 * Threads: struct ns_pages is read-only once open, so any number of
 * threads may each use their own struct ns_pages_iter at the same time (on
 * different CPUs, or on different page ranges of one CPU).
 */
#ifndef NS_TRACE_PAGES_H
#define NS_TRACE_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <event-parse.h>

struct tep_handle;
struct ns_pages;
struct ns_pages_iter;

/* One record, with what libtracecmd's tracecmd_read_data() would give. */
struct ns_pages_record {
	uint64_t ts_ns;		/* record->ts: with the file's OFFSET/DATE/TSC2NSEC */
	const void *data;	/* record->data: valid until a later call of
				 * ns_pages_iter_next() moves to another page */
	uint32_t size;		/* record->size */
	int32_t pid;		/* tep_data_pid(), -1 if the file has no formats */
	int type;		/* tep_data_type(), -1 if the file has no formats */
	int cpu;		/* record->cpu */
	long long missed;	/* record->missed_events: >0 count, -1 unknown, 0 none */
	uint64_t page;		/* the page's number within its CPU, from 0 */
	uint32_t page_off;	/* where the record's header starts in the page */
	uint64_t offset;	/* record->offset: ns_pages_page_offset() + page_off,
				 * what tracecmd_read_at() takes */
};

/**
 * ns_pages_open - locate the top buffer's per-CPU data of a trace.dat
 * @path: the file, opened read-only
 * @tep: the file's event formats, from libtracecmd (tracecmd_get_tep());
 *       only read during the call, never kept
 * @err: buffer for a one-line reason on failure
 * @err_len: its size
 *
 * Fails (NULL, @err says why) on what it does not read as libtracecmd does:
 * a byte order other than this machine's, host-guest time sync (TIME_SHIFT
 * with samples), the pre-2.6.31 ring buffer, latency traces, compression
 * other than zstd and zlib, chunks that are not whole pages, sub-buffers
 * other than the page size, a TSC2NSEC shift over 32, and damaged or cut
 * tables. The caller then reads the file through libtracecmd. Applies, as
 * libtracecmd does, the DATE, OFFSET and TSC2NSEC options.
 */
struct ns_pages *ns_pages_open(const char *path, struct tep_handle *tep, char *err,
			       size_t err_len);
void ns_pages_close(struct ns_pages *pages);

/*
 * Buffers. A file recorded with instances (trace-cmd record -B NAME) keeps
 * each instance's ring buffers beside the top buffer's (v7 files only
 * here). ns_pages_open_buffers() reads those named in @want ("top" for
 * the top buffer; @want NULL: all), CPUs of all of them as one row of
 * slots: the top buffer's CPUs first, then each instance's in the file's
 * order (the order `trace-cmd report` merges them in). A slot is what
 * the rest of this header calls a cpu; ns_pages_cpu_id() is its number in
 * its buffer.
 */
#define NS_PAGES_TOP_NAME	"top"
#define NS_PAGES_NAME_LEN	64
#define NS_PAGES_MAX_BUFFERS	64

struct ns_pages_buffer {
	char name[NS_PAGES_NAME_LEN];	/* "" for the top buffer */
	char clock[64];
	bool in_usecs;			/* times print as seconds.microseconds */
	int first_cpu, nr_cpus;		/* its slots */
};

struct ns_pages *ns_pages_open_buffers(const char *path, struct tep_handle *tep,
				       const char *const *want, int nr_want, char *err,
				       size_t err_len);
int ns_pages_top_cpus(const struct ns_pages *pages);
int ns_pages_nr_buffers(const struct ns_pages *pages);
const struct ns_pages_buffer *ns_pages_buffer(const struct ns_pages *pages, int buffer);
int ns_pages_cpu_buffer(const struct ns_pages *pages, int cpu);
int ns_pages_cpu_id(const struct ns_pages *pages, int cpu);
/* The longest instance name of the file (all its buffers, read or not), 0 if none. */
int ns_pages_name_width(const struct ns_pages *pages);
/* --ts-offset: @offset replaces what the file's DATE and OFFSET options add. */
void ns_pages_set_ts_offset(struct ns_pages *pages, int64_t offset);

/*
 * CPUs, as tracecmd_cpus() counts them (some may have no pages); CPU n is
 * tracecmd_read_cpu_first(h, n) and has record->cpu n.
 */
/* Whether the file is shorter now than when opened (cut while open, written over). */
bool ns_pages_file_shrank(const struct ns_pages *pages);
int ns_pages_nr_cpus(const struct ns_pages *pages);
int ns_pages_page_size(const struct ns_pages *pages);
bool ns_pages_compressed(const struct ns_pages *pages);
uint64_t ns_pages_nr_pages(const struct ns_pages *pages, int cpu);
/* libtracecmd's offset of a page (the file offset, or for v7 compressed data its own) */
uint64_t ns_pages_page_offset(const struct ns_pages *pages, int cpu, uint64_t page);
/*
 * Compressed data is decompressed a chunk at a time: to split a CPU between
 * iterators, split it where a chunk starts (uncompressed: 1 chunk, at 0).
 */
uint32_t ns_pages_nr_chunks(const struct ns_pages *pages, int cpu);
uint64_t ns_pages_chunk_first_page(const struct ns_pages *pages, int cpu, uint32_t chunk);

/**
 * ns_pages_iter_open - an iterator over pages [@first_page, @end_page) of @cpu
 * @end_page may be UINT64_MAX for "to the end". Holds one 256 KiB window of
 * the file read, or one chunk decompressed (160 KiB in all with zstd's
 * context and trace-cmd's 10-page chunks), at a time; for one thread at a
 * time. Returns NULL if out of
 * memory or @cpu is out of range.
 */
struct ns_pages_iter *ns_pages_iter_open(const struct ns_pages *pages, int cpu,
					 uint64_t first_page, uint64_t end_page);
/* Read @bytes of an uncompressed file at a time (default 256 KiB). */
void ns_pages_iter_window(struct ns_pages_iter *iter, size_t bytes);
/* Restart @iter on pages [@first_page, @end_page) of its CPU. */
void ns_pages_iter_seek(struct ns_pages_iter *iter, uint64_t first_page, uint64_t end_page);
/**
 * ns_pages_iter_next - the next record of the iterator's CPU
 * Returns 1 with @rec filled, 0 at the end of the range, or a negative errno:
 * -EBADMSG for a damaged page or chunk (where libtracecmd would end the
 * CPU's records or read garbage), -ESTALE when the file ends before the
 * page does (cut shorter since it was opened), -EIO for a read error,
 * -ENOMEM. An error repeats until a seek. The file is read, never mapped:
 * a file cut while open gives -ESTALE, never SIGBUS.
 */
int ns_pages_iter_next(struct ns_pages_iter *iter, struct ns_pages_record *rec);

/* A record of a page from ns_pages_iter_page(): fields as struct ns_pages_record's. */
struct ns_pages_rec {
	uint64_t ts_ns;
	uint32_t off;		/* page_off: its header, from the page's start */
	uint32_t data_off;	/* its data, from the page's start */
	uint32_t size;
	int32_t pid;
	int32_t type;
};

/* What ns_pages_iter_page() gives: valid until the iterator's next call. */
struct ns_pages_page {
	const unsigned char *data;	/* the page's bytes */
	const struct ns_pages_rec *recs;
	uint32_t nr;			/* at least 1 */
	uint64_t page;			/* its number within its CPU */
	uint64_t offset;		/* ns_pages_page_offset(): a record's offset is this + off */
	long long missed;		/* the missed of recs[0] */
	int cpu;
};

/*
 * ns_pages_iter_page - the records of the next page at once, for a reader
 * of every record (the index): what ns_pages_iter_next() gives one by one,
 * the rest of the page it is in if it is within one. Returns as it does.
 */
int ns_pages_iter_page(struct ns_pages_iter *iter, struct ns_pages_page *pg);
void ns_pages_iter_close(struct ns_pages_iter *iter);

/* @r as the tep_record libtraceevent prints (valid as long as @r's data). */
/*
 * The same into @rec, field by field, its other fields as they were: a
 * record built on the stack and then copied was a quarter of a -F pass'
 * time in stalled loads (stores of 4 and 8 bytes read back as 16).
 */
static inline void ns_pages_set_tep_record(struct tep_record *rec, const struct ns_pages_record *r)
{
	rec->ts = r->ts_ns;
	rec->offset = r->offset;
	rec->missed_events = r->missed;
	rec->size = (int)r->size;
	rec->data = (void *)r->data;
	rec->cpu = r->cpu;
}

static inline struct tep_record ns_pages_tep_record(const struct ns_pages_record *r)
{
	return (struct tep_record){
		.ts = r->ts_ns,
		.offset = r->offset,
		.missed_events = r->missed,
		.size = (int)r->size,
		.data = (void *)r->data,
		.cpu = r->cpu,
	};
}

#endif
