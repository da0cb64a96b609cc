// SPDX-License-Identifier: GPL-2.0-only
/*
 * A bitmap with a rank index: the number of set bits before each block of
 * 512 bits (8 words). "How many bits are set before bit i" (rank) is then
 * one lookup plus at most 8 popcounts, and "where is the k-th set bit"
 * (select) a binary search over the blocks plus a scan of one block. The
 * index costs 8 bytes per 512 bits, an eighth of the bitmap. Example, 16
 * bits with blocks of 8 (512 in the code), bit 0 leftmost:
 *   bits   0110 0001 | 1000 0011      rank index [0, 3]
 *   rank(12) = 3 + popcount(1000) = 4;  select(4) = bit 14 (block 1, 2nd set bit)
 * The visibility pass (visible.c) keeps which rows and events are shown in
 * these; tests/unit/test_bitmap.c checks them against a plain count.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/util.h"

#include "bitmap.h"

int ns_bitmap_alloc(struct ns_bitmap *b, uint64_t n)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->w = calloc((n + 63) / 64 + 1, sizeof(*b->w));
	return b->w ? 0 : -ENOMEM;
}

void ns_bitmap_free(struct ns_bitmap *b)
{
	free(b->w);
	free(b->block);
	memset(b, 0, sizeof(*b));
}

int ns_bitmap_index(struct ns_bitmap *b)
{
	uint64_t nw = (b->n + 63) / 64, nb = nw / NS_BITMAP_BLOCK_WORDS + 1, i, sum = 0;

	free(b->block);
	b->block = malloc((nb + 1) * sizeof(*b->block));
	if (!b->block)
		return -ENOMEM;
	for (i = 0; i < nw; i++) {
		if (i % NS_BITMAP_BLOCK_WORDS == 0)
			b->block[i / NS_BITMAP_BLOCK_WORDS] = sum;
		sum += (uint64_t)__builtin_popcountll(b->w[i]);
	}
	for (i = (nw + NS_BITMAP_BLOCK_WORDS - 1) / NS_BITMAP_BLOCK_WORDS; i <= nb; i++)
		b->block[i] = sum;
	b->ones = sum;
	return 0;
}

uint64_t ns_bitmap_rank(const struct ns_bitmap *b, uint64_t i)
{
	uint64_t w, r, k;

	if (i >= b->n)
		return b->ones;
	w = i / 64;
	r = b->block[w / NS_BITMAP_BLOCK_WORDS];
	for (k = w / NS_BITMAP_BLOCK_WORDS * NS_BITMAP_BLOCK_WORDS; k < w; k++)
		r += (uint64_t)__builtin_popcountll(b->w[k]);
	if (i % 64)
		r += (uint64_t)__builtin_popcountll(b->w[w] & ((1ull << (i % 64)) - 1));
	return r;
}

uint64_t ns_bitmap_select(const struct ns_bitmap *b, uint64_t k)
{
	uint64_t nw = (b->n + 63) / 64, nb = nw / NS_BITMAP_BLOCK_WORDS + 1, lo, w;

	if (k >= b->ones)
		return b->n;
	/* the last block with at most k set bits before it (block 0 has none) */
	lo = ns_lower_bound_u64(b->block, nb, k + 1) - 1;
	k -= b->block[lo];
	for (w = lo * NS_BITMAP_BLOCK_WORDS; w < nw; w++) {
		uint64_t x = b->w[w], c = (uint64_t)__builtin_popcountll(x);

		if (k < c) {
			while (k--)
				x &= x - 1;	/* drop the lowest set bit */
			return w * 64 + (uint64_t)__builtin_ctzll(x);
		}
		k -= c;
	}
	return b->n;
}
