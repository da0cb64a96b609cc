/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the fast reader (layout.c finds the pages, pages.c walks them):
 * what ns_pages_open() learns of a trace.dat's event data and every
 * iterator reads.
 *
 * What is kept. Shared and read-only after ns_pages_open(): per CPU, where
 * its data is, its page count, its first page's libtracecmd offset and,
 * compressed, a table of its chunks (24 bytes each). Per iterator (one per
 * thread, struct ns_pages_iter in pages.c): either a 256 KiB window of the
 * file read at a time (uncompressed) or the CPU's largest chunk twice,
 * compressed and not; and the list of the current page's records. Example,
 * page size 4096, v7 zstd, CPU 0 in chunks of 10, 10 and 2 pages, CPU 1 in
 * one of 3 pages:
 *   cpu 0: chunks {first_page 0, 10, 20}, 22 pages, offset 4096
 *   cpu 1: chunks {first_page 0}, 3 pages, offset 4096 + 22 * 4096 = 94208
 * A record at byte 0x40 of CPU 0's page 12 is in chunk 1 (the third page
 * of its 40 KiB decompressed) and has offset 4096 + 12 * 4096 + 0x40 =
 * 53312 as libtracecmd numbers it; in a v6 file the same page's record has
 * cpu0_file_offset + 12 * 4096 + 0x40. Scanning a CPU decompresses each of
 * its chunks once; a range of pages can go to another iterator, so one
 * CPU can be split between threads at ns_pages_chunk_first_page().
 */
#ifndef NS_TRACE_LAYOUT_H
#define NS_TRACE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include <zstd.h>

enum codec { CODEC_NONE, CODEC_ZSTD, CODEC_ZLIB };

struct ns_pages_chunk {
	uint64_t zoffset;	/* file offset of the chunk's 8-byte header */
	uint32_t zsize;		/* compressed bytes after the header */
	uint32_t size;		/* decompressed: whole pages */
	uint64_t first_page;
};

struct ns_pages_cpu {
	uint64_t data_offset;	/* file offset of the pages, or of the chunk count */
	uint64_t nr_pages;
	uint64_t offset;	/* libtracecmd's offset of page 0 */
	struct ns_pages_chunk *chunks;
	uint32_t nr_chunks;
	uint32_t max_size, max_zsize;
	int buffer;		/* which of struct ns_pages's bufs */
	uint32_t id;		/* the CPU's number in its buffer */
};

struct ns_pages {
	int fd;
	uint64_t file_size;
	int version;
	int page_size;
	int long_size;		/* the kernel's: the size of the page header's commit field */
	enum codec codec;
	bool compressed;	/* the flyrecord data is in chunks */
	size_t sys_page;
	int nr_cpus;		/* of all buffers read: slots */
	struct ns_pages_cpu *cpus;
	int top_cpus;		/* the top buffer's, as tracecmd_cpus() */
	struct ns_pages_buffer *bufs;	/* the buffers read, top first */
	int nr_bufs;
	int name_width;		/* the longest instance name in the file (0: none) */
	/* ts = raw * tsc_mult >> tsc_shift (if tsc_mult) + ts_offset, as timestamp_calc() */
	uint64_t tsc_mult;
	uint32_t tsc_shift;
	int64_t ts_offset;
	int type_offset, type_size, pid_offset, pid_size;	/* size 0: no formats */
};

/*
 * ns_pages_pread_full - read exactly @len bytes at @off
 * Returns 0, -EIO on a read error, or -ESTALE when the file ends first (read
 * where it had data when opened: the file changed under us).
 */
int ns_pages_pread_full(int fd, void *buf, size_t len, uint64_t off);

/*
 * ns_pages_inflate - decompress one block of @codec into exactly @out_len bytes
 * @zstd, @zs: a context to reuse, or NULL for a one-shot call
 * Returns 0 only if the block fills @out exactly, else -EBADMSG.
 */
int ns_pages_inflate(enum codec codec, ZSTD_DCtx *zstd, z_stream *zs, const void *in,
		     size_t in_len, void *out, size_t out_len);

#endif
