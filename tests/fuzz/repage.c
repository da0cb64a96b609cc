// SPDX-License-Identifier: GPL-2.0-only
/*
 * Makes a trace with ring-buffer pages bigger than 4 KiB out of a real one,
 * for tests/fuzz.sh: the kernel here refuses buffer_subbuf_size_kb, so no
 * such trace can be recorded, and no public trace has one.
 *
 *   repage IN.dat OUT.dat KB
 *
 * IN.dat is a trace.dat version 6 (uncompressed, little-endian, 8-byte
 * longs, no instances, not latency); OUT.dat is the same trace with pages of
 * KB KiB (a multiple of 4). Every section before the CPU data is copied byte
 * for byte, but for the page size in the file's header and the size of the
 * "data" field in the header_page text (what a kernel with bigger
 * sub-buffers writes there); the flyrecord's offsets and sizes are made
 * again.
 *
 * A page is a header (u64 timestamp, u64 commit: the data's length in the
 * low 27 bits, MISSED_EVENTS in bit 31, MISSED_STORED in bit 30) and events,
 * each with a u32 header (type_len in the low 5 bits, a time delta in the
 * high 27). The events of several source pages are laid one after the other
 * on an output page: the first source page gives the output page its
 * timestamp, and each further one is preceded by a TIME_EXTEND event (type
 * 30, delta = array[0] << 27 | time_delta) that carries the time from the
 * end of the events before it (the page's timestamp plus every delta, as
 * libtraceevent's kbuffer sums them) to its own page's timestamp, so every
 * event keeps its timestamp. For example, source pages A (timestamp 1000,
 * events at +0, +5) and B (timestamp 1100, events at +0, +7) become one page
 * of timestamp 1000: A's events, a TIME_EXTEND of 95, B's events.
 *
 * An output page is closed when the next source page does not fit, when
 * the time to it would be negative or too big for a TIME_EXTEND, or when
 * the next source page says events were lost before it: only a page's first
 * event carries the lost events, so such a page opens an output page, whose
 * commit keeps the flags and, when stored, the count after all its data.
 * An empty source page carries nothing and is left out, unless it says
 * events were lost, when it makes an output page of its own.
 *
 * Input it cannot handle is refused with one line on stderr and exit 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_HDR	16		/* u64 timestamp, u64 commit (8-byte longs) */
#define COMMIT_MASK	((1ULL << 27) - 1)
#define MISSED_EVENTS	(1ULL << 31)
#define MISSED_STORED	(1ULL << 30)
#define TYPE_PADDING	29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP	31
#define TS_SHIFT	27
#define TS_MSB		(0xf8ULL << 56)
#define MAX_EXTEND	(1ULL << 59)	/* 27 + 32 bits of a TIME_EXTEND */

#define OPTION_BUFFER		3
#define OPTION_BUFFER_TEXT	22

static const char *in_name;

static void refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void refuse(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "repage: %s: ", in_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fprintf(stderr, "repage: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

/* The input, read whole, and a cursor over it that refuses a short file. */
struct cur {
	const unsigned char *buf;
	size_t len, pos;
};

static const unsigned char *take(struct cur *c, size_t n, const char *what)
{
	const unsigned char *p = c->buf + c->pos;

	if (n > c->len - c->pos)
		refuse("the file ends inside %s (offset %zu)", what, c->pos);
	c->pos += n;
	return p;
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint64_t take_le(struct cur *c, int n, const char *what)
{
	return get_le(take(c, n, what), n);
}

/* Skips a size (of SIZE_BYTES bytes) and the data it counts. */
static void skip_sized(struct cur *c, int size_bytes, const char *what)
{
	uint64_t n = take_le(c, size_bytes, what);

	if (n > c->len - c->pos)
		refuse("%s of %llu bytes runs past the end of the file", what,
		       (unsigned long long)n);
	c->pos += n;
}

/*
 * The header_page text with the "data" field's size made DATA_SIZE: the
 * text after "char data;" has "size:N;", whose N is replaced.
 */
static char *header_page_text(const unsigned char *text, size_t len, unsigned int data_size,
			      size_t *out_len)
{
	char *s = xmalloc(len + 1), *out, *field, *size, *end;

	memcpy(s, text, len);
	field = strstr(s, "char data;");
	size = field ? strstr(field, "size:") : NULL;
	end = size ? strchr(size, ';') : NULL;
	if (!end)
		refuse("the header_page has no \"char data;\" field with a size");
	out = xmalloc(len + 32);
	*out_len = (size_t)sprintf(out, "%.*ssize:%u%s", (int)(size - s), s, data_size, end);
	free(s);
	return out;
}

/*
 * The length of a source page's events that a reader walks to the end of
 * without running past the commit, and the time at their end, as kbuffer
 * sums it: every event's delta is added, a TIME_STAMP sets the time. A
 * padding that runs past the commit is cut off (a reader shows nothing of
 * it and nothing follows it); any other event that does is refused.
 */
static uint32_t walk_page(const unsigned char *data, uint32_t size, uint64_t ts, uint64_t *end_ts,
			  int cpu, uint64_t page)
{
	uint32_t pos = 0;

	while (pos < size) {
		uint32_t head, type_len, delta, len, evlen;

		if (size - pos < 4)
			refuse("CPU %d page %llu: an event header cut by the commit", cpu,
			       (unsigned long long)page);
		head = (uint32_t)get_le(data + pos, 4);
		type_len = head & 31;
		delta = head >> 5;
		len = size - pos >= 8 ? (uint32_t)get_le(data + pos + 4, 4) : 0;
		switch (type_len) {
		case TYPE_PADDING:
			evlen = 4 + len;
			break;
		case TYPE_TIME_EXTEND:
		case TYPE_TIME_STAMP:
			evlen = 8;
			break;
		case 0:
			evlen = len < 4 ? 8 : 4 + 4 + ((len - 4 + 3) & ~3U);
			break;
		default:
			evlen = 4 + type_len * 4;
			break;
		}
		if (evlen > size - pos) {
			if (type_len == TYPE_PADDING)
				break;
			refuse("CPU %d page %llu: an event at %u runs past the commit %u", cpu,
			       (unsigned long long)page, pos, size);
		}
		if (type_len == TYPE_TIME_STAMP)
			ts = ((uint64_t)len << TS_SHIFT | delta) | (ts & TS_MSB);
		else if (type_len == TYPE_TIME_EXTEND)
			ts += (uint64_t)len << TS_SHIFT | delta;
		else
			ts += delta;
		pos += evlen;
	}
	*end_ts = ts;
	return pos;
}

/* The output page being filled, and the CPU's output pages so far. */
struct out {
	unsigned char *pages;
	size_t nr, cap;		/* pages */
	uint32_t ps;		/* output page size */
	bool open;
	uint64_t flags;		/* MISSED_* of the page's first source page */
	uint64_t missed;
	uint32_t len;		/* data bytes on the open page */
	uint64_t end_ts;	/* time at the end of its events */
};

static unsigned char *out_page(struct out *o)
{
	return o->pages + (o->nr - 1) * (size_t)o->ps;
}

static void close_page(struct out *o)
{
	unsigned char *p;

	if (!o->open)
		return;
	p = out_page(o);
	put_le(p + 8, o->len | o->flags, 8);
	if (o->flags & MISSED_STORED)
		put_le(p + PAGE_HDR + o->len, o->missed, 8);
	o->open = false;
}

static void open_page(struct out *o, uint64_t ts, uint64_t flags, uint64_t missed)
{
	close_page(o);
	if (o->nr == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 64;
		unsigned char *n = realloc(o->pages, cap * o->ps);

		if (!n) {
			fprintf(stderr, "repage: out of memory\n");
			exit(1);
		}
		o->pages = n;
		o->cap = cap;
	}
	o->nr++;
	memset(out_page(o), 0, o->ps);
	put_le(out_page(o), ts, 8);
	o->open = true;
	o->flags = flags & (MISSED_EVENTS | MISSED_STORED);
	o->missed = missed;
	o->len = 0;
	o->end_ts = ts;
}

/* Re-packs one CPU's pages (IN_PS bytes each) into O. */
static void repack_cpu(struct out *o, const unsigned char *data, uint64_t size, uint32_t in_ps,
		       int cpu)
{
	uint64_t nr_pages = size / in_ps;

	for (uint64_t i = 0; i < nr_pages; i++) {
		const unsigned char *page = data + i * in_ps;
		uint64_t ts = get_le(page, 8), commit = get_le(page + 8, 8);
		uint64_t missed_flags = commit & (MISSED_EVENTS | MISSED_STORED);
		uint32_t dsize = (uint32_t)(commit & COMMIT_MASK), room, len;
		uint64_t missed = 0, end_ts, delta;
		unsigned char *ext;

		room = o->ps - PAGE_HDR - ((o->flags & MISSED_STORED) ? 8 : 0);
		if (dsize + ((missed_flags & MISSED_STORED) ? 8 : 0) > in_ps - PAGE_HDR)
			refuse("CPU %d page %llu: a commit of %u bytes in a page of %u", cpu,
			       (unsigned long long)i, dsize, in_ps);
		if (missed_flags & MISSED_STORED)
			missed = get_le(page + PAGE_HDR + dsize, 8);
		len = walk_page(page + PAGE_HDR, dsize, ts, &end_ts, cpu, i);

		if (missed_flags) {
			open_page(o, ts, missed_flags, missed);
		} else if (!len) {
			continue;
		} else if (!o->open || !o->len || ts < o->end_ts || ts - o->end_ts >= MAX_EXTEND ||
			   o->len + 8 + len > room) {
			open_page(o, ts, 0, 0);
		} else {
			delta = ts - o->end_ts;
			ext = out_page(o) + PAGE_HDR + o->len;
			put_le(ext, (delta & ((1U << TS_SHIFT) - 1)) << 5 | TYPE_TIME_EXTEND, 4);
			put_le(ext + 4, delta >> TS_SHIFT, 4);
			o->len += 8;
		}
		memcpy(out_page(o) + PAGE_HDR + o->len, page + PAGE_HDR, len);
		o->len += len;
		o->end_ts = end_ts;
		/* nothing may follow an empty page that lost events: it would take them */
		if (!len)
			close_page(o);
	}
	close_page(o);
}

static unsigned char *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	if (!f) {
		fprintf(stderr, "repage: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "repage: out of memory\n");
				exit(1);
			}
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	if (ferror(f)) {
		fprintf(stderr, "repage: %s: read error\n", path);
		exit(1);
	}
	fclose(f);
	return buf;
}

static void write_all(FILE *f, const void *p, size_t n, const char *path)
{
	if (n && fwrite(p, 1, n, f) != n) {
		fprintf(stderr, "repage: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const char magic[10] = "\x17\x08\x44tracing";
	struct cur c = { 0 };
	const unsigned char *p;
	unsigned char *hdr, num[8];
	char *text, *endp;
	size_t hp_start, hp_end, text_len, hdr_len, table, pad;
	uint64_t hp_size, n, *cpu_off, *cpu_size;
	uint32_t in_ps, cpus, out_ps;
	long kb;
	struct out *outs;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: repage IN.dat OUT.dat KB\n");
		return 2;
	}
	in_name = argv[1];
	kb = strtol(argv[3], &endp, 10);
	if (*endp || kb < 4 || kb > 64 || kb % 4) {
		fprintf(stderr, "repage: KB must be a multiple of 4 from 4 to 64, not '%s'\n",
			argv[3]);
		return 2;
	}
	out_ps = (uint32_t)kb * 1024;
	c.buf = read_whole(argv[1], &c.len);

	if (memcmp(take(&c, 10, "the magic"), magic, 10))
		refuse("not a trace.dat file");
	p = take(&c, 2, "the version");
	if (memcmp(p, "6", 2))
		refuse("version '%.*s', only version 6 is handled", (int)strnlen((char *)p, 2),
		       (const char *)p);
	p = take(&c, 2, "the endianness and long size");
	if (p[0] != 0)
		refuse("big-endian traces are not handled");
	if (p[1] != 8)
		refuse("%d-byte longs are not handled, only 8", p[1]);
	in_ps = (uint32_t)take_le(&c, 4, "the page size");
	if (in_ps < 256 || in_ps & (in_ps - 1) || in_ps > out_ps)
		refuse("a page size of %u, not one from 256 to %u", in_ps, out_ps);

	hp_start = c.pos;
	if (memcmp(take(&c, 12, "header_page"), "header_page", 12))
		refuse("no header_page section at offset %zu", hp_start);
	hp_size = take_le(&c, 8, "header_page");
	if (hp_size > c.len - c.pos)
		refuse("the header_page runs past the end of the file");
	text = header_page_text(c.buf + c.pos, hp_size, out_ps - PAGE_HDR, &text_len);
	c.pos += hp_size;
	hp_end = c.pos;

	if (memcmp(take(&c, 13, "header_event"), "header_event", 13))
		refuse("no header_event section");
	skip_sized(&c, 8, "the header_event");
	n = take_le(&c, 4, "the ftrace formats");
	for (uint64_t i = 0; i < n; i++)
		skip_sized(&c, 8, "an ftrace format");
	n = take_le(&c, 4, "the event systems");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t nr;

		p = c.buf + c.pos;
		if (!memchr(p, 0, c.len - c.pos))
			refuse("an event system's name runs past the end of the file");
		c.pos += strlen((const char *)p) + 1;
		nr = take_le(&c, 4, "an event system");
		for (uint64_t j = 0; j < nr; j++)
			skip_sized(&c, 8, "an event format");
	}
	skip_sized(&c, 4, "the kallsyms");
	skip_sized(&c, 4, "the printk formats");
	skip_sized(&c, 8, "the cmdlines");
	cpus = (uint32_t)take_le(&c, 4, "the number of CPUs");
	if (cpus > 4096)
		refuse("%u CPUs", cpus);

	p = take(&c, 10, "the options or flyrecord tag");
	if (!memcmp(p, "options  ", 10)) {
		for (;;) {
			uint16_t id = (uint16_t)take_le(&c, 2, "an option");
			uint64_t size;

			if (!id)
				break;
			if (id == OPTION_BUFFER || id == OPTION_BUFFER_TEXT)
				refuse("instances (option %u) are not handled", id);
			size = take_le(&c, 4, "an option");
			if (size > c.len - c.pos)
				refuse("option %u runs past the end of the file", id);
			c.pos += size;
		}
		p = take(&c, 10, "the flyrecord tag");
	}
	if (!memcmp(p, "latency  ", 10))
		refuse("latency traces are not handled");
	if (memcmp(p, "flyrecord", 10))
		refuse("no flyrecord section");

	table = c.pos;
	cpu_off = xmalloc(cpus * sizeof(*cpu_off));
	cpu_size = xmalloc(cpus * sizeof(*cpu_size));
	outs = xmalloc(cpus * sizeof(*outs));
	for (uint32_t i = 0; i < cpus; i++) {
		cpu_off[i] = take_le(&c, 8, "the CPU data table");
		cpu_size[i] = take_le(&c, 8, "the CPU data table");
		if (cpu_off[i] > c.len || cpu_size[i] > c.len - cpu_off[i] ||
		    cpu_size[i] % in_ps)
			refuse("CPU %u: %llu bytes at %llu, not whole pages inside the file", i,
			       (unsigned long long)cpu_size[i], (unsigned long long)cpu_off[i]);
		outs[i].ps = out_ps;
		repack_cpu(&outs[i], c.buf + cpu_off[i], cpu_size[i], in_ps, (int)i);
	}

	/* the header with the new page size and header_page, then the table */
	hdr_len = hp_start + 12 + 8 + text_len + (table - hp_end) + cpus * 16;
	hdr = xmalloc(hdr_len);
	memcpy(hdr, c.buf, hp_start);
	put_le(hdr + hp_start - 4, out_ps, 4);
	memcpy(hdr + hp_start, "header_page", 12);
	put_le(hdr + hp_start + 12, text_len, 8);
	memcpy(hdr + hp_start + 20, text, text_len);
	memcpy(hdr + hp_start + 20 + text_len, c.buf + hp_end, table - hp_end);
	pad = (hdr_len + out_ps - 1) / out_ps * out_ps;
	for (uint32_t i = 0, at = 0; i < cpus; i++) {
		unsigned char *t = hdr + hdr_len - cpus * 16 + i * 16;

		put_le(t, pad + (uint64_t)at * out_ps, 8);
		put_le(t + 8, outs[i].nr * (uint64_t)out_ps, 8);
		at += (uint32_t)outs[i].nr;
	}

	f = fopen(argv[2], "wb");
	if (!f) {
		fprintf(stderr, "repage: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	write_all(f, hdr, hdr_len, argv[2]);
	memset(num, 0, sizeof(num));
	for (size_t i = hdr_len; i < pad; i++)
		write_all(f, num, 1, argv[2]);
	for (uint32_t i = 0; i < cpus; i++)
		write_all(f, outs[i].pages, outs[i].nr * (size_t)out_ps, argv[2]);
	if (fclose(f)) {
		fprintf(stderr, "repage: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	return 0;
}
