/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/model: a bitmap with a rank index (bitmap.c), what the
 * visibility pass (visible.c) keeps of which rows and events are shown.
 * Set bits, then build the index once with ns_bitmap_index(); rank and
 * select need it, get and set do not.
 */
#ifndef NS_MODEL_BITMAP_H
#define NS_MODEL_BITMAP_H

#include <stdint.h>

#define NS_BITMAP_BLOCK_WORDS	8	/* 512 bits per block of the rank index */

struct ns_bitmap {
	uint64_t *w;
	uint64_t *block;	/* set bits before word NS_BITMAP_BLOCK_WORDS * b */
	uint64_t n;		/* bits */
	uint64_t ones;		/* set bits, once indexed */
};

/* All @n bits clear: 0 or -ENOMEM. */
int ns_bitmap_alloc(struct ns_bitmap *b, uint64_t n);
void ns_bitmap_free(struct ns_bitmap *b);

/* In the visibility pass's inner loop: inline. */
static inline void ns_bitmap_set(struct ns_bitmap *b, uint64_t i)
{
	b->w[i >> 6] |= 1ull << (i & 63);
}

/* Bit @i; 0 past the end. */
static inline int ns_bitmap_get(const struct ns_bitmap *b, uint64_t i)
{
	return i < b->n && (b->w[i >> 6] >> (i & 63)) & 1;
}

/* Build the rank index, after the last ns_bitmap_set(): 0 or -ENOMEM. */
int ns_bitmap_index(struct ns_bitmap *b);
/* The number of set bits in [0, @i) (all of them for @i >= n). */
uint64_t ns_bitmap_rank(const struct ns_bitmap *b, uint64_t i);
/* The position of the set bit of rank @k (0-based); n if @k >= the set bits. */
uint64_t ns_bitmap_select(const struct ns_bitmap *b, uint64_t k);

#endif
