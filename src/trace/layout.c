// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where the pages are: ns_pages_open() reads a trace.dat's header, options
 * and chunk tables to find the top buffer's ring-buffer pages of each CPU,
 * and the time options every timestamp gets; pages.c walks the pages it
 * finds. libtracecmd stays in charge of the metadata (formats, names,
 * printing): the caller lends its tep for the page header's layout and the
 * common fields. What is kept is in layout.h.
 *
 * A v6 file is a chain of sections in a fixed order (header_page,
 * header_event, ftrace and event formats, kallsyms, printk formats,
 * cmdlines, CPU count, options) ending in "flyrecord\0" and one (offset,
 * size) pair per CPU: the pages lie in the file as the kernel wrote them,
 * one CPU after the other; an instance's BUFFER option points at a table
 * of its own, "flyrecord\0" and as many pairs. A v7 file has a chain of options sections (each
 * may be compressed whole); the top buffer's BUFFER option names the CPUs
 * with data and where each CPU's data starts. Compressed, a CPU's data is a
 * count and then chunks, each "zsize, size, zsize bytes", size being whole
 * pages. libtracecmd gives v7 compressed records offsets in a space of its
 * own: CPU data laid end to end from one page in, each CPU starting on a
 * page boundary (init_cpu_zpage() in its trace-input.c).
 */
#define _FILE_OFFSET_BITS 64	/* 32-bit boards read traces over 2 GiB too */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <event-parse.h>
#include <zlib.h>
#include <zstd.h>

#include <nurseshark/util.h>

#include "nurseshark/trace.h"
#include "layout.h"
#include "pages.h"

#define NS_PAGES_MAGIC "\027\010\104tracing"
/* Nothing real comes near these; they keep a damaged table from asking for all memory. */
#define NS_PAGES_MAX_CHUNK (64u << 20)
#define NS_PAGES_MAX_OPTION (16u << 20)
#define NS_PAGES_MAX_CPUS 65536
#define NS_PAGES_MAX_SECTIONS 4096

/* Option ids of trace-cmd.dat(5). */
enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_BUFFER = 3,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_BUFFER_TEXT = 22,
};

#define SEC_FL_COMPRESS 1

int ns_pages_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *b = buf;

	while (len) {
		ssize_t n = pread(fd, b, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return -ESTALE;
		if (n < 0)
			return -EIO;
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * Header parsing reads through a cursor, from the file or from a
 * decompressed section; a short read sets @bad and every read after it
 * yields zeros, so the parser checks once per section.
 */
struct cursor {
	int fd;
	const unsigned char *mem;	/* if set, read from here, not the file */
	uint64_t pos, end;
	bool bad;
};

static void cur_read(struct cursor *c, void *buf, size_t n)
{
	if (c->bad || n > c->end - c->pos ||
	    (!c->mem && ns_pages_pread_full(c->fd, buf, n, c->pos))) {
		c->bad = true;
		memset(buf, 0, n);
		return;
	}
	if (c->mem)
		memcpy(buf, c->mem + c->pos, n);
	c->pos += n;
}

static void cur_skip(struct cursor *c, uint64_t n)
{
	if (c->bad || n > c->end - c->pos)
		c->bad = true;
	else
		c->pos += n;
}

/* Numbers are in the file's byte order, which ns_pages_open() requires to be ours. */
static uint16_t cur_u16(struct cursor *c)
{
	uint16_t v;

	cur_read(c, &v, sizeof(v));
	return v;
}

static uint32_t cur_u32(struct cursor *c)
{
	uint32_t v;

	cur_read(c, &v, sizeof(v));
	return v;
}

static uint64_t cur_u64(struct cursor *c)
{
	uint64_t v;

	cur_read(c, &v, sizeof(v));
	return v;
}

/* A NUL-terminated string of at most @len - 1 characters. */
static void cur_string(struct cursor *c, char *buf, size_t len)
{
	size_t n = len;
	char *nul;

	if (!c->bad && n > c->end - c->pos)
		n = c->end - c->pos;
	if (!c->bad && n && c->mem)
		memcpy(buf, c->mem + c->pos, n);
	else if (c->bad || !n || ns_pages_pread_full(c->fd, buf, n, c->pos))
		c->bad = true;
	nul = c->bad ? NULL : memchr(buf, '\0', n);
	if (!nul) {
		c->bad = true;
		buf[0] = '\0';
		return;
	}
	c->pos += (uint64_t)(nul - buf) + 1;
}

/* Decompress one block of @codec; 0 only if it fills @out exactly. */
int ns_pages_inflate(enum codec codec, ZSTD_DCtx *zstd, z_stream *zs, const void *in,
		     size_t in_len, void *out, size_t out_len)
{
	if (codec == CODEC_ZSTD) {
		size_t n = zstd ? ZSTD_decompressDCtx(zstd, out, out_len, in, in_len) :
			ZSTD_decompress(out, out_len, in, in_len);

		return !ZSTD_isError(n) && n == out_len ? 0 : -EBADMSG;
	}
	if (codec == CODEC_ZLIB) {
		uLongf n = out_len;
		int ret;

		if (!zs) {
			ret = uncompress(out, &n, in, in_len);
			return ret == Z_OK && n == out_len ? 0 : -EBADMSG;
		}
		if (inflateReset(zs) != Z_OK)
			return -EBADMSG;
		zs->next_in = (Bytef *)in;
		zs->avail_in = (uInt)in_len;
		zs->next_out = out;
		zs->avail_out = (uInt)out_len;
		ret = inflate(zs, Z_FINISH);
		return ret == Z_STREAM_END && zs->total_out == out_len ? 0 : -EBADMSG;
	}
	return -EBADMSG;
}

/* What the options say about the buffers and about time. */
struct cpu_entry {
	uint32_t id;
	uint64_t offset, size;
};

/*
 * An instance buffer's BUFFER option. v7's says it all; v6's gives only
 * the offset of the instance's own "flyrecord" table (v6 set, nr 0 until
 * read_v6_inst() reads it).
 */
struct inst_entry {
	char name[NS_PAGES_NAME_LEN];
	char clock[64];
	uint64_t offset;		/* its flyrecord section */
	uint32_t page_size, nr;
	struct cpu_entry *cpus;
	bool v6;
};

struct options {
	int cpucount;			/* CPUCOUNT, -1: none */
	bool have_top, top_latency;
	uint64_t top_offset;		/* v7: the top buffer's flyrecord section */
	uint32_t top_page_size, top_nr;
	struct cpu_entry *top;
	bool time_shift;
	uint32_t min_cpus;		/* libtracecmd counts at least these CPUs */
	char top_clock[64];
	/* the instance buffers (trace-cmd record -B), in the file's order */
	struct inst_entry *inst;
	uint32_t nr_inst;
	size_t name_width;		/* the longest instance name */
};

static int64_t parse_ll(const char *buf, uint32_t size)
{
	char tmp[64];
	size_t n = size < sizeof(tmp) - 1 ? size : sizeof(tmp) - 1;

	memcpy(tmp, buf, n);
	tmp[n] = '\0';
	return strtoll(tmp, NULL, 0);
}

/* Keep an instance's name (and in v7 its CPUs) in o->inst. */
static struct inst_entry *add_inst(struct options *o, const char *name)
{
	struct inst_entry *n = realloc(o->inst, (o->nr_inst + 1) * sizeof(*n));

	if (!n)
		return NULL;
	o->inst = n;
	n = &o->inst[o->nr_inst++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (strlen(name) > o->name_width)
		o->name_width = strlen(name);
	return n;
}

/*
 * The BUFFER option: v7's gives offset, name, clock, page size, then (id,
 * offset, size) per CPU, for the top buffer (no name) and each instance;
 * v6's only offset and name, for each instance.
 */
static int buffer_option(struct ns_pages *p, struct options *o, const unsigned char *buf,
			 uint32_t size, char *err, size_t err_len)
{
	struct cursor c = { .mem = buf, .end = size };
	char name[256], clock[64];
	uint64_t offset = cur_u64(&c);
	struct cpu_entry *cpus;
	struct inst_entry *in = NULL;
	uint32_t i, nr, page_size;

	cur_string(&c, name, sizeof(name));
	if (c.bad)
		goto bad;
	if (name[0] && strlen(name) >= NS_PAGES_NAME_LEN) {
		ns_set_err(err, err_len, "a buffer name over %d bytes", NS_PAGES_NAME_LEN - 1);
		return -ENOTSUP;
	}
	if (!name[0] && p->version < 7)
		return 0;
	if (name[0]) {
		in = add_inst(o, name);
		if (!in)
			goto nomem;
		in->v6 = p->version < 7;
		in->offset = offset;
		if (in->v6)
			return 0;
	}
	cur_string(&c, clock, sizeof(clock));
	page_size = cur_u32(&c);
	nr = cur_u32(&c);
	if (c.bad || nr > (c.end - c.pos) / 20)
		goto bad;
	cpus = calloc(nr ? nr : 1, sizeof(*cpus));
	if (!cpus)
		goto nomem;
	for (i = 0; i < nr; i++) {
		cpus[i].id = cur_u32(&c);
		cpus[i].offset = cur_u64(&c);
		cpus[i].size = cur_u64(&c);
	}
	if (c.bad) {
		free(cpus);
		goto bad;
	}
	if (in) {
		snprintf(in->clock, sizeof(in->clock), "%s", clock);
		in->offset = offset;
		in->page_size = page_size;
		in->nr = nr;
		in->cpus = cpus;
		return 0;
	}
	free(o->top);
	o->top = cpus;
	snprintf(o->top_clock, sizeof(o->top_clock), "%s", clock);
	o->top_page_size = page_size;
	o->have_top = true;
	o->top_latency = false;
	o->top_offset = offset;
	o->top_nr = nr;
	return 0;
nomem:
	ns_set_nomem(err, err_len);
	return -ENOMEM;
bad:
	ns_set_err(err, err_len, "damaged BUFFER option");
	return -EINVAL;
}

/*
 * One option. Time options are applied as libtracecmd applies them when
 * opened without flags: DATE (microseconds) and OFFSET add to every
 * timestamp, TSC2NSEC scales first.
 */
static int one_option(struct ns_pages *p, struct options *o, uint16_t id, const unsigned char *buf,
		      uint32_t size, char *err, size_t err_len)
{
	switch (id) {
	case OPT_DATE:
		p->ts_offset += (int64_t)((uint64_t)parse_ll((const char *)buf, size) * 1000);
		break;
	case OPT_OFFSET:
		p->ts_offset += parse_ll((const char *)buf, size);
		break;
	case OPT_TSC2NSEC: {
		int32_t mult;

		if (size < 16)
			break;
		/* libtracecmd keeps it in an int: a multiplier from 2^31 up goes negative */
		memcpy(&mult, buf, 4);
		p->tsc_mult = (uint64_t)(int64_t)mult;
		memcpy(&p->tsc_shift, buf + 4, 4);
		if (p->tsc_shift > 32) {
			ns_set_err(err, err_len, "TSC2NSEC shift of %u not supported",
				   p->tsc_shift);
			return -ENOTSUP;
		}
		break;
	}
	case OPT_TIME_SHIFT: {
		uint32_t cpus;

		/* libtracecmd syncs to the host's clock only with samples for some CPU */
		if (size < 16)
			break;
		memcpy(&cpus, buf + 12, 4);
		if (cpus)
			o->time_shift = true;
		break;
	}
	case OPT_CPUCOUNT:
		if (size >= 4) {
			uint32_t n;

			memcpy(&n, buf, 4);
			o->cpucount = n > NS_PAGES_MAX_CPUS ? NS_PAGES_MAX_CPUS + 1 : (int)n;
		}
		break;
	case OPT_BUFFER:
		return buffer_option(p, o, buf, size, err, err_len);
	case OPT_BUFFER_TEXT:
		/* the top buffer (no name) holds text, not pages */
		if (size > 8 && !buf[8]) {
			o->have_top = true;
			o->top_latency = true;
		}
		break;
	}
	return 0;
}

static bool option_wanted(uint16_t id)
{
	return id == OPT_DATE || id == OPT_OFFSET || id == OPT_TSC2NSEC || id == OPT_TIME_SHIFT ||
	       id == OPT_CPUCOUNT || id == OPT_BUFFER || id == OPT_BUFFER_TEXT;
}

/*
 * Options from @c up to the end marker: in v6 an id of 0, in v7 a DONE
 * option whose value is the next options section (0: none), left in *next.
 */
static int read_options(struct ns_pages *p, struct cursor *c, struct options *o, uint64_t *next,
			char *err, size_t err_len)
{
	unsigned char *buf = NULL;
	int ret = 0;

	*next = 0;
	for (;;) {
		uint16_t id = cur_u16(c);
		uint32_t size;

		if (!c->bad && p->version < 7 && id == OPT_DONE)
			break;
		size = cur_u32(c);
		if (c->bad)
			goto bad;
		if (id == OPT_DONE) {
			if (size < 8)
				goto bad;
			*next = cur_u64(c);
			break;
		}
		if (!option_wanted(id)) {
			cur_skip(c, size);
			continue;
		}
		if (size > NS_PAGES_MAX_OPTION)
			goto bad;
		buf = malloc(size + 1);
		if (!buf) {
			ns_set_nomem(err, err_len);
			return -ENOMEM;
		}
		cur_read(c, buf, size);
		buf[size] = '\0';
		if (c->bad)
			goto bad;
		ret = one_option(p, o, id, buf, size, err, err_len);
		free(buf);
		buf = NULL;
		if (ret)
			return ret;
	}
	if (c->bad)
		goto bad;
	return 0;
bad:
	free(buf);
	ns_set_err(err, err_len, "damaged options");
	return -EINVAL;
}

/* v6: walk the header sections in their fixed order up to the CPU table. */
static int read_v6(struct ns_pages *p, struct cursor *c, struct options *o, char *err,
		   size_t err_len)
{
	char tag[16], name[1024];
	uint32_t i, j, n, nr_cpus, header_cpus;
	uint64_t next;
	int ret;

	cur_read(c, tag, 12);
	if (memcmp(tag, "header_page", 12))
		goto bad;
	cur_skip(c, cur_u64(c));
	cur_read(c, tag, 13);
	if (memcmp(tag, "header_event", 13))
		goto bad;
	cur_skip(c, cur_u64(c));
	n = cur_u32(c);				/* ftrace event formats */
	for (i = 0; i < n && !c->bad; i++)
		cur_skip(c, cur_u64(c));
	n = cur_u32(c);				/* event systems */
	for (i = 0; i < n && !c->bad; i++) {
		cur_string(c, name, sizeof(name));
		j = cur_u32(c);
		while (j-- && !c->bad)
			cur_skip(c, cur_u64(c));
	}
	cur_skip(c, cur_u32(c));		/* kallsyms */
	cur_skip(c, cur_u32(c));		/* printk formats */
	cur_skip(c, cur_u64(c));		/* saved cmdlines */
	nr_cpus = cur_u32(c);
	header_cpus = nr_cpus;
	cur_read(c, tag, 10);
	if (c->bad)
		goto bad;
	if (!memcmp(tag, "options", 7)) {
		ret = read_options(p, c, o, &next, err, err_len);
		if (ret)
			return ret;
		cur_read(c, tag, 10);
	}
	if (!c->bad && !memcmp(tag, "latency", 7)) {
		ns_set_err(err, err_len, "a latency trace: no per-CPU data");
		return -ENOTSUP;
	}
	if (c->bad || memcmp(tag, "flyrecord", 10))
		goto bad;
	/* an option may change the count, as in libtracecmd's read_cpu_data() */
	if (o->cpucount >= 0)
		nr_cpus = (uint32_t)o->cpucount;
	if (nr_cpus > NS_PAGES_MAX_CPUS || nr_cpus > (c->end - c->pos) / 16)
		goto bad;
	o->top = calloc(nr_cpus ? nr_cpus : 1, sizeof(*o->top));
	if (!o->top) {
		ns_set_nomem(err, err_len);
		return -ENOMEM;
	}
	for (i = 0; i < nr_cpus; i++) {
		o->top[i].id = i;
		o->top[i].offset = cur_u64(c);
		o->top[i].size = cur_u64(c);
	}
	o->top_nr = nr_cpus;
	o->have_top = true;
	o->min_cpus = nr_cpus > header_cpus ? nr_cpus : header_cpus;
	if (!c->bad)
		return 0;
bad:
	ns_set_err(err, err_len, "damaged or unknown v6 header");
	return -EINVAL;
}

/* v7: follow the chain of options sections, decompressing those that are. */
static int read_v7(struct ns_pages *p, struct cursor *c, struct options *o, char *err,
		   size_t err_len)
{
	uint64_t off = cur_u64(c);
	int sections = 0, ret;

	if (c->bad)
		goto bad;
	while (off) {
		struct cursor s = { .fd = p->fd, .pos = off, .end = p->file_size };
		unsigned char *mem = NULL;
		uint16_t id, flags;

		if (++sections > NS_PAGES_MAX_SECTIONS)
			goto bad;
		if (off >= p->file_size) {
			/* trace-cmd writes the buffers' options last */
			ns_set_err(err, err_len, "truncated: options past the end of the file");
			return -EINVAL;
		}
		id = cur_u16(&s);
		flags = cur_u16(&s);
		cur_u32(&s);			/* description */
		cur_u64(&s);			/* size */
		if (s.bad || id != OPT_DONE)
			goto bad;
		if (flags & SEC_FL_COMPRESS) {
			uint32_t zsize = cur_u32(&s), size = cur_u32(&s);
			void *zbuf;

			if (s.bad || zsize > NS_PAGES_MAX_CHUNK || size > NS_PAGES_MAX_CHUNK ||
			    zsize > s.end - s.pos)
				goto bad;
			if (p->codec == CODEC_NONE)
				goto bad;
			zbuf = malloc(zsize ? zsize : 1);
			mem = malloc(size ? size : 1);
			if (!zbuf || !mem) {
				free(zbuf);
				free(mem);
				ns_set_nomem(err, err_len);
				return -ENOMEM;
			}
			cur_read(&s, zbuf, zsize);
			ret = s.bad ? -EIO :
				ns_pages_inflate(p->codec, NULL, NULL, zbuf, zsize, mem, size);
			free(zbuf);
			if (ret) {
				free(mem);
				goto bad;
			}
			s = (struct cursor){ .mem = mem, .end = size };
		}
		ret = read_options(p, &s, o, &off, err, err_len);
		free(mem);
		if (ret)
			return ret;
	}
	return 0;
bad:
	ns_set_err(err, err_len, "damaged v7 options sections");
	return -EINVAL;
}

/* Read the chunk table of a compressed CPU's data. */
static int load_chunks(struct ns_pages *p, struct ns_pages_cpu *c, char *err, size_t err_len)
{
	uint64_t pos = c->data_offset + 4, pages = 0;
	uint32_t count, i, hdr[2];

	if (c->data_offset + 4 > p->file_size ||
	    ns_pages_pread_full(p->fd, &count, 4, c->data_offset))
		goto bad;
	if (count > (p->file_size - pos) / 8)
		goto bad;
	c->chunks = calloc(count ? count : 1, sizeof(*c->chunks));
	if (!c->chunks) {
		ns_set_nomem(err, err_len);
		return -ENOMEM;
	}
	c->nr_chunks = count;
	for (i = 0; i < count; i++) {
		struct ns_pages_chunk *ch = &c->chunks[i];

		if (pos + 8 > p->file_size || ns_pages_pread_full(p->fd, hdr, 8, pos))
			goto bad;
		ch->zoffset = pos;
		ch->zsize = hdr[0];
		ch->size = hdr[1];
		ch->first_page = pages;
		if (ch->zsize > NS_PAGES_MAX_CHUNK || ch->size > NS_PAGES_MAX_CHUNK ||
		    ch->zsize > p->file_size - pos - 8)
			goto bad;
		if (!ch->size || ch->size % (uint32_t)p->page_size) {
			ns_set_err(err, err_len,
				   "a compressed chunk of %u bytes is not whole pages", ch->size);
			return -ENOTSUP;
		}
		if (ch->size > c->max_size)
			c->max_size = ch->size;
		if (ch->zsize > c->max_zsize)
			c->max_zsize = ch->zsize;
		pages += ch->size / (uint32_t)p->page_size;
		pos += 8 + (uint64_t)ch->zsize;
	}
	c->nr_pages = pages;
	return 0;
bad:
	ns_set_err(err, err_len, "damaged chunk table");
	return -EINVAL;
}

/* CPUs of a buffer as libtracecmd counts them: by the highest id, at least @min. */
static int count_cpus(const struct cpu_entry *e, uint32_t nr, uint32_t min, char *err,
		      size_t err_len)
{
	uint32_t i, max_id = 0;

	for (i = 0; i < nr; i++) {
		if (e[i].id >= NS_PAGES_MAX_CPUS) {
			ns_set_err(err, err_len, "implausible CPU id %u", e[i].id);
			return -EINVAL;
		}
		if (e[i].id > max_id)
			max_id = e[i].id;
	}
	if (min > NS_PAGES_MAX_CPUS) {
		ns_set_err(err, err_len, "implausible number of CPUs (%u)", min);
		return -EINVAL;
	}
	return (int)(nr && max_id + 1 > min ? max_id + 1 : min);
}

/*
 * Lay one buffer's CPUs out in slots [@base, @base + @n) as libtracecmd
 * lays them out in the buffer's handle: v7 puts CPU id n in slot n;
 * compressed data gets offsets from one page on, each CPU with data on
 * the next page boundary after the one before.
 */
static int place_cpus(struct ns_pages *p, int buffer, const struct cpu_entry *entries,
		      uint32_t nr, int base, int n, char *err, size_t err_len)
{
	uint64_t ps = (uint64_t)p->page_size, next = ps;
	uint32_t i;
	int ret, cpu;

	for (cpu = base; cpu < base + n; cpu++) {
		p->cpus[cpu].buffer = buffer;
		p->cpus[cpu].id = cpu - base;
	}
	for (i = 0; i < nr; i++) {
		const struct cpu_entry *e = &entries[i];
		struct ns_pages_cpu *c = &p->cpus[base + e->id];

		if (c->data_offset || c->nr_pages) {
			ns_set_err(err, err_len, "CPU %u has two data sections", e->id);
			return -EINVAL;
		}
		if (!e->size)
			continue;
		if (e->offset > p->file_size || e->size > p->file_size - e->offset) {
			ns_set_err(err, err_len, "truncated: CPU %u's data ends past it", e->id);
			return -EINVAL;
		}
		c->data_offset = e->offset;
		if (p->compressed)
			continue;
		if (e->offset % ps) {
			ns_set_err(err, err_len, "CPU %u's data is not page aligned", e->id);
			return -ENOTSUP;
		}
		c->offset = e->offset;
		c->nr_pages = (e->size + ps - 1) / ps;
	}
	if (!p->compressed)
		return 0;
	for (cpu = base; cpu < base + n; cpu++) {
		struct ns_pages_cpu *c = &p->cpus[cpu];

		if (!c->data_offset)
			continue;
		ret = load_chunks(p, c, err, err_len);
		if (ret)
			return ret;
		c->offset = next;
		next = (next + c->nr_pages * ps + ps - 1) & ~(ps - 1);
	}
	return 0;
}

/* Whether the caller asked for buffer @name ("top": the top buffer; @want NULL: all). */
static bool wanted(const char *const *want, int nr_want, const char *name)
{
	int i;

	if (!want || !nr_want)
		return true;
	for (i = 0; i < nr_want; i++)
		if (!strcmp(want[i], name[0] ? name : NS_PAGES_TOP_NAME))
			return true;
	return false;
}

static bool usecs_clock(const char *clock)
{
	/* libtracecmd prints these as seconds.microseconds, the others as counts */
	static const char *const clocks[] = { "local", "global", "uptime", "perf", "mono",
					      "mono_raw", "boot", "tai", "tsc2nsec", "" };
	size_t i;

	for (i = 0; i < NS_ARRAY_SIZE(clocks); i++)
		if (!strcmp(clock, clocks[i]))
			return true;
	return false;
}

/*
 * A v6 instance's CPU table, where its BUFFER option points: "flyrecord\0"
 * and an (offset, size) pair per CPU, as many CPUs as the top buffer has
 * (libtracecmd's instance handle is a copy of the file's, CPU count and
 * clock included). libtracecmd would read options there first; trace-cmd
 * writes none, and we refuse them rather than guess.
 */
static int read_v6_inst(struct ns_pages *p, struct options *o, struct inst_entry *in, char *err,
			size_t err_len)
{
	struct cursor c = { .fd = p->fd, .pos = in->offset, .end = p->file_size };
	char tag[10];
	uint32_t i;

	cur_read(&c, tag, sizeof(tag));
	if (!c.bad && !memcmp(tag, "options", 7)) {
		ns_set_err(err, err_len, "buffer %s has options of its own", in->name);
		return -ENOTSUP;
	}
	if (c.bad || memcmp(tag, "flyrecord", 10) || o->top_nr > (c.end - c.pos) / 16)
		goto bad;
	in->cpus = calloc(o->top_nr ? o->top_nr : 1, sizeof(*in->cpus));
	if (!in->cpus) {
		ns_set_nomem(err, err_len);
		return -ENOMEM;
	}
	for (i = 0; i < o->top_nr; i++) {
		in->cpus[i].id = i;
		in->cpus[i].offset = cur_u64(&c);
		in->cpus[i].size = cur_u64(&c);
	}
	if (c.bad)
		goto bad;
	in->nr = o->top_nr;
	snprintf(in->clock, sizeof(in->clock), "%s", o->top_clock);
	return 0;
bad:
	ns_set_err(err, err_len, "damaged CPU table of buffer %s", in->name);
	return -EINVAL;
}

/* An instance's flyrecord section: compressed as the top buffer's, or refused. */
static int check_inst_section(struct ns_pages *p, const struct inst_entry *in, char *err,
			      size_t err_len)
{
	struct cursor c = { .fd = p->fd, .pos = in->offset, .end = p->file_size };
	uint16_t id, flags;

	if (!in->nr)
		return 0;
	id = cur_u16(&c);
	flags = cur_u16(&c);
	if (c.bad || id != OPT_BUFFER) {
		ns_set_err(err, err_len, "damaged flyrecord section of buffer %s", in->name);
		return -EINVAL;
	}
	if (!!(flags & SEC_FL_COMPRESS) != p->compressed) {
		ns_set_err(err, err_len, "buffer %s is compressed unlike the top buffer", in->name);
		return -ENOTSUP;
	}
	if (in->page_size != (uint32_t)p->page_size) {
		ns_set_err(err, err_len, "buffer %s has sub-buffers of %u bytes", in->name,
			   in->page_size);
		return -ENOTSUP;
	}
	return 0;
}

/*
 * The CPUs of every buffer asked for, one slot each: the top buffer's
 * first (all it counts, with data or not, as tracecmd_cpus()), then each
 * instance's in the file's order, as `trace-cmd report` adds their handles.
 */
static int setup_cpus(struct ns_pages *p, struct options *o, const char *const *want,
		      int nr_want, char *err, size_t err_len)
{
	int counts[NS_PAGES_MAX_BUFFERS + 1];
	int nr_buf = 0, total = 0, ret, b, i, j;
	bool top = wanted(want, nr_want, "");

	if (o->nr_inst > NS_PAGES_MAX_BUFFERS) {
		ns_set_err(err, err_len, "over %d buffers", NS_PAGES_MAX_BUFFERS);
		return -ENOTSUP;
	}
	for (i = 0; i < nr_want; i++) {
		bool found = !strcmp(want[i], NS_PAGES_TOP_NAME);

		for (j = 0; j < (int)o->nr_inst && !found; j++)
			found = !strcmp(want[i], o->inst[j].name);
		if (!found) {
			ns_set_err(err, err_len, "no buffer named '%s' in the file", want[i]);
			return -ENOENT;
		}
	}
	ret = count_cpus(o->top, o->top_nr, o->min_cpus, err, err_len);
	if (ret < 0)
		return ret;
	p->top_cpus = ret;
	if (top)
		total = counts[nr_buf++] = ret;
	for (i = 0; i < (int)o->nr_inst; i++) {
		if (!wanted(want, nr_want, o->inst[i].name))
			continue;
		ret = o->inst[i].v6 ? read_v6_inst(p, o, &o->inst[i], err, err_len) :
			check_inst_section(p, &o->inst[i], err, err_len);
		if (!ret)
			ret = count_cpus(o->inst[i].cpus, o->inst[i].nr, 0, err, err_len);
		if (ret < 0)
			return ret;
		if (total + ret > NS_PAGES_MAX_CPUS) {
			ns_set_err(err, err_len, "over %d CPUs in all buffers", NS_PAGES_MAX_CPUS);
			return -ENOTSUP;
		}
		total += counts[nr_buf++] = ret;
	}
	p->nr_cpus = total;
	p->name_width = (int)o->name_width;
	p->cpus = calloc(total ? (size_t)total : 1, sizeof(*p->cpus));
	p->bufs = calloc((size_t)nr_buf + 1, sizeof(*p->bufs));
	if (!p->cpus || !p->bufs) {
		ns_set_nomem(err, err_len);
		return -ENOMEM;
	}
	total = 0;
	b = 0;
	for (i = top ? -1 : 0; i < (int)o->nr_inst; i++) {
		struct ns_pages_buffer *pb = &p->bufs[b];
		const struct cpu_entry *e = i < 0 ? o->top : o->inst[i].cpus;
		uint32_t nr = i < 0 ? o->top_nr : o->inst[i].nr;

		if (i >= 0 && !wanted(want, nr_want, o->inst[i].name))
			continue;
		snprintf(pb->name, sizeof(pb->name), "%s", i < 0 ? "" : o->inst[i].name);
		snprintf(pb->clock, sizeof(pb->clock), "%s",
			 i < 0 ? o->top_clock : o->inst[i].clock);
		pb->in_usecs = usecs_clock(pb->clock);
		pb->first_cpu = total;
		pb->nr_cpus = counts[b];
		ret = place_cpus(p, b, e, nr, total, counts[b], err, err_len);
		if (ret)
			return ret;
		total += counts[b++];
	}
	p->nr_bufs = b;
	return 0;
}

/* The v7 flyrecord section's header says whether the data is in chunks. */
static int read_flyrecord(struct ns_pages *p, struct options *o, char *err, size_t err_len)
{
	struct cursor c = { .fd = p->fd, .pos = o->top_offset, .end = p->file_size };
	uint16_t id, flags;

	if (!o->top_nr)
		return 0;
	id = cur_u16(&c);
	flags = cur_u16(&c);
	if (c.bad || id != OPT_BUFFER) {
		ns_set_err(err, err_len, "damaged flyrecord section");
		return -EINVAL;
	}
	if (!(flags & SEC_FL_COMPRESS))
		return 0;
	if (p->codec == CODEC_NONE) {
		ns_set_err(err, err_len, "compressed data in a file without compression");
		return -EINVAL;
	}
	p->compressed = true;
	return 0;
}

/* Where common_type and common_pid are, as tep_data_type() finds them. */
static void common_fields(struct ns_pages *p, struct tep_handle *tep)
{
	struct tep_event *ev = tep_get_first_event(tep);
	struct tep_format_field *f;

	f = ev ? tep_find_common_field(ev, "common_type") : NULL;
	if (f) {
		p->type_offset = f->offset;
		p->type_size = f->size;
	}
	f = ev ? tep_find_common_field(ev, "common_pid") : NULL;
	if (f) {
		p->pid_offset = f->offset;
		p->pid_size = f->size;
	}
}

static void free_inst(struct options *o)
{
	uint32_t i;

	for (i = 0; i < o->nr_inst; i++)
		free(o->inst[i].cpus);
	free(o->inst);
}

static int read_header(struct ns_pages *p, struct tep_handle *tep, const char *const *want,
		       int nr_want, char *err, size_t err_len)
{
	struct cursor c = { .fd = p->fd, .end = p->file_size };
	struct options o = { .cpucount = -1 };
	char magic[10], version[16], zname[64], zver[64];
	unsigned char endian_long[2];
	uint32_t page_size;
	int ret = -EINVAL;

	cur_read(&c, magic, sizeof(magic));
	cur_string(&c, version, sizeof(version));
	cur_read(&c, endian_long, 2);
	page_size = cur_u32(&c);
	if (c.bad || memcmp(magic, NS_PAGES_MAGIC, sizeof(magic))) {
		ns_set_err(err, err_len, "not a trace-cmd data file");
		return -EINVAL;
	}
	p->version = atoi(version);
	if (p->version != 6 && p->version != 7) {
		ns_set_err(err, err_len, "file version %s not supported", version);
		return -ENOTSUP;
	}
	if (endian_long[0] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) {
		ns_set_err(err, err_len, "the file's byte order is not this machine's");
		return -ENOTSUP;
	}
	if (page_size < 256 || page_size > 65536 || (page_size & (page_size - 1))) {
		ns_set_err(err, err_len, "unsupported ring-buffer page size %u", page_size);
		return -ENOTSUP;
	}
	p->page_size = (int)page_size;
	if (tep_is_old_format(tep)) {
		ns_set_err(err, err_len, "the pre-2.6.31 ring-buffer format is not supported");
		return -ENOTSUP;
	}
	if (tep_get_header_timestamp_size(tep) != 8) {
		ns_set_err(err, err_len, "page timestamps are not 64-bit");
		return -ENOTSUP;
	}
	p->long_size = tep_get_header_page_size(tep);
	if (p->long_size != 4 && p->long_size != 8) {
		ns_set_err(err, err_len, "page header with a %d-byte commit field", p->long_size);
		return -ENOTSUP;
	}
	common_fields(p, tep);
	if (p->version >= 7) {
		cur_string(&c, zname, sizeof(zname));
		cur_string(&c, zver, sizeof(zver));
		if (c.bad)
			goto bad;
		if (!strcmp(zname, "zstd")) {
			p->codec = CODEC_ZSTD;
		} else if (!strcmp(zname, "zlib")) {
			p->codec = CODEC_ZLIB;
		} else if (strcmp(zname, "none")) {
			ns_set_err(err, err_len, "compression '%s' not supported", zname);
			return -ENOTSUP;
		}
		ret = read_v7(p, &c, &o, err, err_len);
	} else {
		ret = read_v6(p, &c, &o, err, err_len);
	}
	if (ret)
		goto out;
	if (p->version >= 7 && o.cpucount > 0)
		o.min_cpus = (uint32_t)o.cpucount;
	ret = -ENOTSUP;
	if (o.time_shift) {
		ns_set_err(err, err_len, "a guest trace synced to its host's clock (TIME_SHIFT)");
		goto out;
	}
	if (o.have_top && o.top_latency) {
		ns_set_err(err, err_len, "a latency trace: no per-CPU data");
		goto out;
	}
	if (p->version >= 7 && o.have_top && o.top_nr && o.top_page_size != page_size) {
		ns_set_err(err, err_len, "sub-buffers of %u bytes in pages of %u", o.top_page_size,
			   page_size);
		goto out;
	}
	/* v7 without a top buffer: libtracecmd finds no CPUs, nor do we */
	ret = p->version >= 7 ? read_flyrecord(p, &o, err, err_len) : 0;
	if (!ret)
		ret = setup_cpus(p, &o, want, nr_want, err, err_len);
out:
	free(o.top);
	free_inst(&o);
	return ret;
bad:
	ns_set_err(err, err_len, "damaged file header");
	free(o.top);
	free_inst(&o);
	return -EINVAL;
}

struct ns_pages *ns_pages_open(const char *path, struct tep_handle *tep, char *err,
			       size_t err_len)
{
	return ns_pages_open_buffers(path, tep, NULL, 0, err, err_len);
}

struct ns_pages *ns_pages_open_buffers(const char *path, struct tep_handle *tep,
				       const char *const *want, int nr_want, char *err,
				       size_t err_len)
{
	struct ns_pages *p;
	struct stat st;

	if (!tep) {
		ns_set_err(err, err_len, "no event formats");
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		ns_set_nomem(err, err_len);
		return NULL;
	}
	p->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0) {
		ns_set_err(err, err_len, "%s", strerror(errno));
		goto fail;
	}
	if (fstat(p->fd, &st) || !S_ISREG(st.st_mode)) {
		ns_set_err(err, err_len, "not a regular file");
		goto fail;
	}
	p->file_size = (uint64_t)st.st_size;
	p->sys_page = (size_t)sysconf(_SC_PAGESIZE);
	if (read_header(p, tep, want, nr_want, err, err_len))
		goto fail;
	return p;
fail:
	ns_pages_close(p);
	return NULL;
}

void ns_pages_close(struct ns_pages *p)
{
	int cpu;

	if (!p)
		return;
	for (cpu = 0; p->cpus && cpu < p->nr_cpus; cpu++)
		free(p->cpus[cpu].chunks);
	free(p->cpus);
	free(p->bufs);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

bool ns_pages_file_shrank(const struct ns_pages *p)
{
	struct stat st;

	return fstat(p->fd, &st) || (uint64_t)st.st_size < p->file_size;
}

int ns_pages_nr_cpus(const struct ns_pages *p)
{
	return p->nr_cpus;
}

int ns_pages_page_size(const struct ns_pages *p)
{
	return p->page_size;
}

bool ns_pages_compressed(const struct ns_pages *p)
{
	return p->compressed;
}

uint64_t ns_pages_nr_pages(const struct ns_pages *p, int cpu)
{
	return cpu >= 0 && cpu < p->nr_cpus ? p->cpus[cpu].nr_pages : 0;
}

uint64_t ns_pages_page_offset(const struct ns_pages *p, int cpu, uint64_t page)
{
	if (cpu < 0 || cpu >= p->nr_cpus)
		return 0;
	return p->cpus[cpu].offset + page * (uint64_t)p->page_size;
}

uint32_t ns_pages_nr_chunks(const struct ns_pages *p, int cpu)
{
	if (cpu < 0 || cpu >= p->nr_cpus)
		return 0;
	return p->compressed ? p->cpus[cpu].nr_chunks : 1;
}

uint64_t ns_pages_chunk_first_page(const struct ns_pages *p, int cpu, uint32_t chunk)
{
	if (cpu < 0 || cpu >= p->nr_cpus || !p->compressed || chunk >= p->cpus[cpu].nr_chunks)
		return 0;
	return p->cpus[cpu].chunks[chunk].first_page;
}

int ns_pages_top_cpus(const struct ns_pages *p)
{
	return p->top_cpus;
}

int ns_pages_nr_buffers(const struct ns_pages *p)
{
	return p->nr_bufs;
}

const struct ns_pages_buffer *ns_pages_buffer(const struct ns_pages *p, int buffer)
{
	return buffer >= 0 && buffer < p->nr_bufs ? &p->bufs[buffer] : NULL;
}

int ns_pages_cpu_buffer(const struct ns_pages *p, int cpu)
{
	return cpu >= 0 && cpu < p->nr_cpus ? p->cpus[cpu].buffer : 0;
}

int ns_pages_cpu_id(const struct ns_pages *p, int cpu)
{
	return cpu >= 0 && cpu < p->nr_cpus ? (int)p->cpus[cpu].id : cpu;
}

int ns_pages_name_width(const struct ns_pages *p)
{
	return p->name_width;
}

void ns_pages_set_ts_offset(struct ns_pages *p, int64_t offset)
{
	p->ts_offset = offset;
}
