// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sparse rank/select bitmap (src/model/bitmap.c) against a plain count:
 * on random bitmaps of fixed seeds, every get, rank and select is compared
 * with a scan of the bits, at sizes around the word (64), group (512) and
 * block (4096) boundaries, empty, all clear, all set, at densities that
 * make each of the block's forms (and both sides of the array's limit),
 * with the bits set in ascending order as the visibility pass sets them and
 * in a shuffled order; and the worked example of the file's design comment.
 * What it holds is checked against the forms' sizes: a bitmap that keeps
 * one bit in a million costs its table, not a bit per bit.
 */
#include <errno.h>
#include <stdbool.h>
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

/*
 * Fill @n bits with density @per_ten_k (per 10000), in ascending order or
 * shuffled, check get, rank and select everywhere: the failures.
 */
static int check_one(uint64_t n, unsigned per_ten_k, bool shuffled, uint64_t seed, char *why,
		     size_t why_len)
{
	struct ns_bitmap b;
	uint64_t *pos, i, ones = 0, nset = 0;
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
		ref[i] = rng() % 10000 < per_ten_k;
		if (ref[i])
			pos[nset++] = i;
	}
	for (i = 0; shuffled && nset > 1 && i < nset - 1; i++) {
		uint64_t j = i + rng() % (nset - i), t = pos[i];

		pos[i] = pos[j];
		pos[j] = t;
	}
	for (i = 0; i < nset; i++) {
		ns_bitmap_set(&b, pos[i]);
		if (shuffled && i % 3 == 0)
			ns_bitmap_set(&b, pos[i]);	/* twice: the same */
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

/* @n bits, one set every @every from @first, indexed: the bytes held (0 on failure). */
static size_t bytes_of(uint64_t n, uint64_t first, uint64_t every)
{
	struct ns_bitmap b;
	size_t bytes = 0;
	uint64_t i, set = 0;

	if (ns_bitmap_alloc(&b, n))
		return 0;
	for (i = first; i < n; i += every, set++)
		ns_bitmap_set(&b, i);
	if (!ns_bitmap_index(&b) && b.ones == set && ns_bitmap_select(&b, set - 1) == i - every)
		bytes = ns_bitmap_bytes(&b);
	ns_bitmap_free(&b);
	return bytes;
}

/* What the bitmaps hold: each form's size, on 100 million bits. */
static void check_bytes(void)
{
	const uint64_t n = 100000000, blocks = (n + 4095) / 4096, table = blocks * 16;
	size_t one_in_a_million = bytes_of(n, 17, 1000000);
	size_t all = bytes_of(n, 0, 1);
	size_t half = bytes_of(n, 1, 2);
	size_t one_in_100 = bytes_of(n, 5, 100);	/* 41 a block: arrays */

	CHECK(one_in_a_million && one_in_a_million <= table + 100 * 2,
	      "one bit in a million of 100 M: %zu bytes, the table's %llu and 2 bytes a bit "
	      "(a plain bitmap: %llu)", one_in_a_million, (unsigned long long)table,
	      (unsigned long long)(n / 8));
	/* the last block holds 100e6 % 4096 = 256 bits: an array, 2 bytes each */
	CHECK(all && all == table + (n % 4096) * 2,
	      "all 100 M bits set: %zu bytes, the table's and the last, part block's", all);
	CHECK(half && half <= table + blocks * 528 && half >= n / 8,
	      "every other bit: %zu bytes, a bit a bit and the table", half);
	CHECK(one_in_100 && one_in_100 <= table + (n / 100 + blocks) * 2,
	      "one bit in 100: %zu bytes, 2 a set bit and the table (plain: %llu)", one_in_100,
	      (unsigned long long)(n / 8));
}

int main(void)
{
	static const uint64_t sizes[] = { 0, 1, 63, 64, 65, 127, 128, 511, 512, 513, 1023, 1024,
					  1025, 4095, 4096, 4097, 8191, 8192, 12289, 100000 };
	/* per 10000: in a block of 4096, 600 makes about 246 set bits, 650 about 266 */
	static const unsigned density[] = { 0, 1, 10, 200, 600, 650, 5000, 9900, 10000 };
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

			for (seed = 1; seed <= 4 && !failed; seed++)
				failed = check_one(sizes[s], density[d], seed > 2,
						   0x9e3779b97f4a7c15ull * (uint64_t)seed, why,
						   sizeof(why));
			CHECK(!failed, "%llu bits, %u per 10000 set, seeds 1-4 (3-4 shuffled): "
			      "get, rank and select as a scan%s%s", (unsigned long long)sizes[s],
			      density[d], failed ? ": " : "", failed ? why : "");
		}
	}
	check_bytes();
	return check_failures ? 1 : 0;
}
