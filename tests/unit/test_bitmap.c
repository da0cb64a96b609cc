// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rank/select bitmap (src/model/bitmap.c) against a plain count: on
 * random bitmaps of fixed seeds, every rank and every select is compared
 * with a scan of the bits, at sizes around the word (64) and block (512)
 * boundaries, empty, all clear, all set, and the worked example of the
 * file's design comment.
 */
#include <errno.h>
#include <stdint.h>
#include "check.h"
#include "../../src/model/bitmap.h"

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64: the same bitmaps on every run */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Fill @n bits with density @per_mille, check rank and select everywhere: the failures. */
static int check_one(uint64_t n, unsigned per_mille, uint64_t seed, char *why, size_t why_len)
{
	struct ns_bitmap b;
	uint64_t *pos, i, ones = 0;
	uint8_t *ref;
	int bad = 0;

	rng_state = seed;
	ref = calloc(n + 1, 1);
	pos = calloc(n + 1, sizeof(*pos));
	if (!ref || !pos || ns_bitmap_alloc(&b, n)) {
		snprintf(why, why_len, "out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		ref[i] = rng() % 1000 < per_mille;
		if (ref[i])
			ns_bitmap_set(&b, i);
	}
	if (ns_bitmap_index(&b)) {
		snprintf(why, why_len, "index: out of memory");
		return 1;
	}
	for (i = 0; i <= n + 64 && !bad; i++) {
		uint64_t r = ns_bitmap_rank(&b, i);

		if (i < n && ns_bitmap_get(&b, i) != ref[i]) {
			snprintf(why, why_len, "get(%llu) = %d", (unsigned long long)i,
				 ns_bitmap_get(&b, i));
			bad = 1;
		} else if (r != ones) {
			snprintf(why, why_len, "rank(%llu) = %llu, counted %llu",
				 (unsigned long long)i, (unsigned long long)r,
				 (unsigned long long)ones);
			bad = 1;
		}
		if (i < n && ref[i])
			pos[ones++] = i;
	}
	for (i = 0; i < ones + 3 && !bad; i++) {
		uint64_t s = ns_bitmap_select(&b, i), want = i < ones ? pos[i] : n;

		if (s != want) {
			snprintf(why, why_len, "select(%llu) = %llu, scanned %llu",
				 (unsigned long long)i, (unsigned long long)s,
				 (unsigned long long)want);
			bad = 1;
		}
	}
	if (!bad && b.ones != ones) {
		snprintf(why, why_len, "%llu set bits, counted %llu", (unsigned long long)b.ones,
			 (unsigned long long)ones);
		bad = 1;
	}
	ns_bitmap_free(&b);
	free(ref);
	free(pos);
	return bad;
}

int main(void)
{
	static const uint64_t sizes[] = { 0, 1, 63, 64, 65, 127, 128, 511, 512, 513, 1023, 1024,
					  1025, 4096, 4097, 10007, 100000 };
	static const unsigned density[] = { 0, 1, 20, 500, 990, 1000 };
	struct ns_bitmap b;
	char why[160];
	size_t s, d;
	int seed;

	/* the design comment's example, at its own scale: bit 0 leftmost */
	if (ns_bitmap_alloc(&b, 16) == 0) {
		static const int set[] = { 1, 2, 7, 8, 14, 15 };	/* 0110 0001 1000 0011 */

		for (s = 0; s < sizeof(set) / sizeof(set[0]); s++)
			ns_bitmap_set(&b, (uint64_t)set[s]);
		CHECK(ns_bitmap_index(&b) == 0 && ns_bitmap_rank(&b, 12) == 4 &&
		      ns_bitmap_select(&b, 4) == 14 && ns_bitmap_select(&b, 6) == 16,
		      "the design comment's example: rank(12) = 4, select(4) = 14");
		ns_bitmap_free(&b);
	}
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (d = 0; d < sizeof(density) / sizeof(density[0]); d++) {
			int failed = 0;

			for (seed = 1; seed <= 3 && !failed; seed++)
				failed = check_one(sizes[s], density[d],
						   0x9e3779b97f4a7c15ull * (uint64_t)seed, why,
						   sizeof(why));
			CHECK(!failed, "%llu bits, %u per mille set, seeds 1-3: rank and select "
			      "as a scan%s%s", (unsigned long long)sizes[s], density[d],
			      failed ? ": " : "", failed ? why : "");
		}
	}
	return check_failures ? 1 : 0;
}
