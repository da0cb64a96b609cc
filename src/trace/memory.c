// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory this process may use: the limits that end it or fail its
 * allocations (the cgroup's memory.max, which the kernel enforces by
 * killing, and ulimit -v, by failing malloc()), and what the machine has
 * free. They size the event index's budget (events.c), and say which
 * limit was hit when memory runs out.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "trace-int.h"

/* Blocks this large or larger are mapped on their own (ns_memory_setup()). */
#define NS_MMAP_THRESHOLD (128 * 1024)

/* The number in file @path ("max": none), or UINT64_MAX. */
static uint64_t read_limit(const char *path)
{
	unsigned long long v;
	char buf[64];
	FILE *f = fopen(path, "re");
	uint64_t ret = UINT64_MAX;

	if (!f)
		return ret;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%llu", &v) == 1)
		ret = v;
	fclose(f);
	return ret;
}

/*
 * The smallest memory limit of our cgroup and its parents: cgroup v2's
 * memory.max (line "0::PATH" of /proc/self/cgroup), else v1's
 * memory.limit_in_bytes (line "N:memory:PATH"); v1 says "none" with a
 * number near 2^63.
 */
static uint64_t cgroup_limit(void)
{
	char line[512], path[640];
	uint64_t best = UINT64_MAX;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return best;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':'), *q = p ? strchr(p + 1, ':') : NULL, *end;
		const char *fmt;

		if (!q)
			continue;
		*q++ = 0;
		end = q + strcspn(q, "\n");
		*end = 0;
		if (!strcmp(p + 1, ""))
			fmt = "/sys/fs/cgroup%s/memory.max";
		else if (!strcmp(p + 1, "memory"))
			fmt = "/sys/fs/cgroup/memory%s/memory.limit_in_bytes";
		else
			continue;
		/* from our cgroup up to the root */
		for (;;) {
			uint64_t v;
			char *slash;

			snprintf(path, sizeof(path), fmt, !strcmp(q, "/") ? "" : q);
			v = read_limit(path);
			if (v < (1ull << 62) && v < best)
				best = v;
			slash = strrchr(q, '/');
			if (!slash || slash == q)
				break;
			*slash = 0;
		}
	}
	fclose(f);
	return best;
}

/* MemAvailable of /proc/meminfo, in bytes, or UINT64_MAX. */
static uint64_t mem_available(void)
{
	unsigned long long kb;
	char line[128];
	uint64_t ret = UINT64_MAX;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return ret;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			ret = kb * 1024;
			break;
		}
	fclose(f);
	return ret;
}

/**
 * ns_memory_limits - the limits on this process's memory, UINT64_MAX for none
 */
void ns_memory_limits(struct ns_memory_limits *l)
{
	struct rlimit as;

	l->cgroup = cgroup_limit();
	l->address_space = !getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY ?
			   (uint64_t)as.rlim_cur : UINT64_MAX;
	l->available = mem_available();
}

/**
 * ns_memory_share - what one of our memory's consumers may take by default
 * A quarter of the least of the cgroup's memory.max, ulimit -v and the
 * memory available: the rest is for the pages read, libtraceevent, the
 * screen, filters and searches. At least 16 MB; UINT64_MAX when no limit
 * is known.
 */
uint64_t ns_memory_share(void)
{
	struct ns_memory_limits l;
	uint64_t least;

	ns_memory_limits(&l);
	least = l.cgroup < l.address_space ? l.cgroup : l.address_space;
	if (l.available < least)
		least = l.available;
	if (least == UINT64_MAX)
		return UINT64_MAX;
	least /= 4;
	return least < NS_MEMORY_SHARE_FLOOR ? NS_MEMORY_SHARE_FLOOR : least;
}

/**
 * ns_trace_default_index_memory - the event index's budget by default
 * The share above, and no more than NS_INDEX_MEMORY_DEFAULT (32 MiB): the
 * index is a cache of the trace's pages, decoded, and what the screen
 * shows at once fits in a few of its chunks; a pass over the whole trace
 * (a search, a filter) reads the pages again whatever the budget, as
 * report does. Measured on a 29.6 M-event trace (README): by default the
 * peak is 0.04 of KernelShark's, with "all" 0.12, the searches no slower.
 */
uint64_t ns_trace_default_index_memory(void)
{
	uint64_t share = ns_memory_share();

	return share < NS_INDEX_MEMORY_DEFAULT ? share : NS_INDEX_MEMORY_DEFAULT;
}

/**
 * ns_memory_setup - how malloc() serves this process, before any thread
 * Blocks of 128 KiB or more (the index's chunks of 512 KiB, the pages read,
 * the timelines' arrays) are mapped on their own and given back to the
 * kernel when freed. glibc would otherwise raise that threshold to the
 * largest block freed, and keep later ones in per-thread arenas that do
 * not shrink: on a 29.6 M-event trace the peak RSS was 135 MiB that way
 * and 107 MiB with a fixed threshold, at the same speed.
 */
void ns_memory_setup(void)
{
	mallopt(M_MMAP_THRESHOLD, NS_MMAP_THRESHOLD);
}

/**
 * ns_memory_open_begin - malloc() from @len bytes of heap in 2 MB pages
 *
 * For libtracecmd's open of a file: a block per section decompressed, the
 * compressed bytes, and a copy of the section, 5.4, 1 and 5.4 MB for
 * sample.dat's kallsyms. Mapped on their own (ns_memory_setup()), in 4 kB
 * pages, their first touch was a fault per page, slow on a virtual machine:
 * 15 to 20 ms of sample.dat's first frame of about 75, in each of the
 * guard child and the viewer. Until ns_memory_open_end(), blocks up to
 * 32 MiB come from the heap, which keeps what is freed; @len bytes of it
 * are asked for in huge pages first, for libtracecmd's blocks to reuse.
 */
void ns_memory_open_begin(size_t len)
{
	uintptr_t huge = 2U << 20, start, end;
	char *p;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	p = malloc(len);
	if (!p)
		return;
	start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	end = ((uintptr_t)p + len) & ~(huge - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
	free(p);
}

/**
 * ns_memory_open_end - blocks of 128 KiB or more mapped on their own again
 * And the heap that libtracecmd's blocks freed given back to the kernel.
 */
void ns_memory_open_end(void)
{
	mallopt(M_MMAP_THRESHOLD, NS_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, NS_MMAP_THRESHOLD);
	malloc_trim(0);
}

static const char *mb(uint64_t bytes, char *buf, size_t len)
{
	snprintf(buf, len, "%llu MB", (unsigned long long)(bytes >> 20));
	return buf;
}

/**
 * ns_memory_limit_text - which limit memory ran out under, for a message
 * "the cgroup's memory.max of 512 MB", "ulimit -v of 1024 MB", or what
 * the machine had available.
 */
void ns_memory_limit_text(char *buf, size_t len)
{
	struct ns_memory_limits l;
	char n[32];

	ns_memory_limits(&l);
	if (l.address_space != UINT64_MAX && l.address_space <= l.cgroup)
		snprintf(buf, len, "ulimit -v of %s", mb(l.address_space, n, sizeof(n)));
	else if (l.cgroup != UINT64_MAX)
		snprintf(buf, len, "the cgroup's memory.max of %s", mb(l.cgroup, n, sizeof(n)));
	else if (l.available != UINT64_MAX)
		snprintf(buf, len, "the %s of memory available", mb(l.available, n, sizeof(n)));
	else
		snprintf(buf, len, "the memory available");
}

/**
 * ns_set_nomem - "out of memory under LIMIT" into an optional error buffer
 * Instead of strerror(ENOMEM): says which limit (ulimit -v, the cgroup's
 * memory.max) the allocation that failed ran into.
 */
void ns_set_nomem(char *err, size_t err_len)
{
	char limit[96];

	ns_memory_limit_text(limit, sizeof(limit));
	ns_set_err(err, err_len, "out of memory under %s", limit);
}
