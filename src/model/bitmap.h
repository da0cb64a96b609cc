/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to src/model: a sparse bitmap with a rank index (bitmap.c), what
 * the visibility pass (visible.c) keeps of which rows and events are shown.
 * Set bits, then build the index once with ns_bitmap_index(); rank and
 * select need it, get and set do not, and no bit is set after it.
 */
#ifndef NS_MODEL_BITMAP_H
#define NS_MODEL_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NS_BITMAP_BLK_SHIFT	12
#define NS_BITMAP_BLK_BITS	(1u << NS_BITMAP_BLK_SHIFT)	/* 4096 bits a block */
#define NS_BITMAP_BLK_WORDS	(NS_BITMAP_BLK_BITS / 64)
#define NS_BITMAP_SUB_WORDS	8	/* the words' rank index: a count every 512 bits */
/* a block of at most this many set bits keeps their positions (2 bytes each) */
#define NS_BITMAP_ARRAY_MAX	256

enum { NS_BITMAP_EMPTY, NS_BITMAP_FULL, NS_BITMAP_WORDS, NS_BITMAP_ARRAY };

/* One block of NS_BITMAP_BLK_BITS bits: 16 bytes, and what its kind holds. */
struct ns_bitmap_blk {
	uint64_t rank : 48;	/* set bits before the block (indexed) */
	uint64_t count : 14;	/* set bits in it (indexed; arrays: always) */
	uint64_t kind : 2;
	/*
	 * NS_BITMAP_WORDS: NS_BITMAP_BLK_WORDS words, then a uint16_t per
	 * NS_BITMAP_SUB_WORDS words: the set bits before them in the block;
	 * NS_BITMAP_ARRAY: the set bits' offsets, uint16_t, ascending
	 */
	void *p;
};

struct ns_bitmap {
	struct ns_bitmap_blk *blk;
	uint64_t n;		/* bits */
	uint64_t nr_blks;
	uint64_t ones;		/* set bits, once indexed */
	uint64_t open;		/* the block written as words last, or UINT64_MAX */
	size_t bytes;		/* allocated: the blocks' table and what they hold */
	bool failed;		/* a set ran out of memory: ns_bitmap_index() says so */
};

/* All @n bits clear: 0 or -ENOMEM. */
int ns_bitmap_alloc(struct ns_bitmap *b, uint64_t n);
void ns_bitmap_free(struct ns_bitmap *b);

void ns_bitmap_set_slow(struct ns_bitmap *b, uint64_t i);
int ns_bitmap_blk_has(const struct ns_bitmap_blk *k, uint32_t off);

/* In the visibility pass's inner loop: inline while the block is words. */
static inline void ns_bitmap_set(struct ns_bitmap *b, uint64_t i)
{
	struct ns_bitmap_blk *k = &b->blk[i >> NS_BITMAP_BLK_SHIFT];

	if (k->kind == NS_BITMAP_WORDS)
		((uint64_t *)k->p)[(i >> 6) % NS_BITMAP_BLK_WORDS] |= 1ull << (i & 63);
	else
		ns_bitmap_set_slow(b, i);
}

/* Bit @i; 0 past the end. */
static inline int ns_bitmap_get(const struct ns_bitmap *b, uint64_t i)
{
	const struct ns_bitmap_blk *k;

	if (i >= b->n)
		return 0;
	k = &b->blk[i >> NS_BITMAP_BLK_SHIFT];
	switch (k->kind) {
	case NS_BITMAP_EMPTY:
		return 0;
	case NS_BITMAP_FULL:
		return 1;
	case NS_BITMAP_WORDS:
		return (((const uint64_t *)k->p)[(i >> 6) % NS_BITMAP_BLK_WORDS] >> (i & 63)) & 1;
	default:
		return ns_bitmap_blk_has(k, (uint32_t)(i % NS_BITMAP_BLK_BITS));
	}
}

/*
 * Build the rank index, after the last ns_bitmap_set(), and keep each block
 * in its smallest form: 0, or -ENOMEM (now, or when a set could not).
 */
int ns_bitmap_index(struct ns_bitmap *b);
/* The number of set bits in [0, @i) (all of them for @i >= n). */
uint64_t ns_bitmap_rank(const struct ns_bitmap *b, uint64_t i);
/* The position of the set bit of rank @k (0-based); n if @k >= the set bits. */
uint64_t ns_bitmap_select(const struct ns_bitmap *b, uint64_t k);
/* Bytes it holds. */
size_t ns_bitmap_bytes(const struct ns_bitmap *b);

#endif
