// SPDX-License-Identifier: GPL-2.0-only
/*
 * How malloc() serves the process (src/trace/memory.c): after
 * ns_memory_setup(), a block of 5 MB is mapped on its own; between
 * ns_memory_open_begin() and ns_memory_open_end(), the window in which
 * libtracecmd opens a file, it comes from the heap, part of which is asked
 * for in 2 MB pages; after the window, blocks are mapped on their own again
 * and the heap that the window's blocks freed is given back. Before, the
 * setup's fixed threshold kept the open's blocks out of the heap, and
 * sample.dat's first frame took 75 ms instead of 40.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/trace/trace-int.h"
#include "check.h"

/* Blocks of @len bytes: whether one is mapped on its own (glibc's count of those). */
static bool mapped_alone(size_t len)
{
	size_t before = mallinfo2().hblks, during;
	char *p = malloc(len);

	if (!p)
		return false;
	memset(p, 1, len);
	during = mallinfo2().hblks;
	free(p);
	return during > before;
}

/* Whether a part of the heap was asked for in huge pages (smaps' "hg"). */
static bool heap_huge(void)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	unsigned long start, end;
	char line[512];
	bool heap = false, hg = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f) && !hg) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)	/* a mapping's first line */
			heap = strstr(line, "[heap]") != NULL;
		else if (heap && !strncmp(line, "VmFlags:", 8))
			hg = strstr(line, " hg") != NULL;
	}
	fclose(f);
	return hg;
}

int main(void)
{
	size_t arena;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	SKIP("memory: the sanitizer's allocator is not glibc's malloc()");
	return 0;
#endif
	ns_memory_setup();
	CHECK(mapped_alone(5U << 20), "memory: after the setup, a 5 MB block is mapped on its own");

	ns_memory_open_begin(12U << 20);
	CHECK(!mapped_alone(5U << 20) && !mapped_alone(1U << 20),
	      "memory: while a file opens, 5 MB and 1 MB blocks come from the heap");
	CHECK(heap_huge(), "memory: while a file opens, the heap is asked for in 2 MB pages");
	arena = mallinfo2().arena;
	CHECK(arena >= (12U << 20), "memory: the heap holds the 12 MB asked for (%zu bytes)", arena);
	ns_memory_open_end();

	CHECK(mapped_alone(5U << 20), "memory: after the open, a 5 MB block is mapped on its own again");
	CHECK(mallinfo2().arena < arena / 2,
	      "memory: after the open, the heap is given back (%zu of %zu bytes kept)",
	      mallinfo2().arena, arena);
	return check_failures ? 1 : 0;
}
