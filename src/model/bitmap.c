// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sparse bitmap with a rank index. The bits come in blocks of 4096, and a
 * block is kept in the smallest of four forms (Roaring bitmaps' idea, with
 * small blocks):
 *   empty   no bit set: nothing but its 16 bytes in the blocks' table
 *   full    every bit set: the same
 *   array   at most 256 set bits: their offsets, 2 bytes each (<= 512 bytes)
 *   words   more: 64 words, and a count of the set bits before every 8th
 *           (528 bytes)
 * So a filter that keeps one event in a million costs the table, 16 bytes
 * per 4096 events (0.03 bits an event), where a plain bitmap costs a bit
 * an event; one that keeps most events costs a bit an event and 4% more.
 *
 * Writing. The visibility pass sets bits in ascending order. A block being
 * written is words; when a set goes to another block that is not words, the
 * block written last is put in its smallest form, so that a pass holds one
 * block of words at a time beyond what it keeps. Bits may be set in any
 * order (a block goes back to words when set again), only more slowly.
 * ns_bitmap_index() puts every block in its smallest form and counts: the
 * set bits before each block (rank) and in it.
 *
 * Reading. rank(i) is the block's rank plus, within it, nothing (empty),
 * the offset (full), a binary search (array) or a count before the 8-word
 * group and at most 8 popcounts (words). select(k) is a binary search over
 * the blocks' ranks, then the same within the block. Example, 16 bits in
 * blocks of 8 (4096 in the code), bit 0 leftmost:
 *   bits   0110 0001 | 1000 0011      ranks [0, 3]
 *   rank(12) = 3 + 1 (bit 8 before offset 4) = 4;  select(4) = bit 14
 * The visibility pass (visible.c) keeps which rows and events are shown in
 * these; tests/unit/test_bitmap.c checks them against a plain count, and
 * what they hold against the forms above.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/util.h"

#include "bitmap.h"

#define NO_BLOCK		UINT64_MAX
#define WORDS_BYTES		(NS_BITMAP_BLK_WORDS * sizeof(uint64_t) + \
				 NS_BITMAP_BLK_WORDS / NS_BITMAP_SUB_WORDS * sizeof(uint16_t))

static uint16_t *words_sub(uint64_t *w)
{
	return (uint16_t *)(w + NS_BITMAP_BLK_WORDS);
}

int ns_bitmap_alloc(struct ns_bitmap *b, uint64_t n)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->nr_blks = (n + NS_BITMAP_BLK_BITS - 1) / NS_BITMAP_BLK_BITS;
	b->open = NO_BLOCK;
	b->blk = calloc(b->nr_blks ? b->nr_blks : 1, sizeof(*b->blk));
	b->bytes = (b->nr_blks ? b->nr_blks : 1) * sizeof(*b->blk);
	return b->blk ? 0 : -ENOMEM;
}

void ns_bitmap_free(struct ns_bitmap *b)
{
	uint64_t i;

	for (i = 0; b->blk && i < b->nr_blks; i++)
		free(b->blk[i].p);
	free(b->blk);
	memset(b, 0, sizeof(*b));
	b->open = NO_BLOCK;
}

size_t ns_bitmap_bytes(const struct ns_bitmap *b)
{
	return b->bytes;
}

static size_t blk_bytes(const struct ns_bitmap_blk *k)
{
	if (k->kind == NS_BITMAP_WORDS)
		return WORDS_BYTES;
	if (k->kind == NS_BITMAP_ARRAY)
		return k->count * sizeof(uint16_t);
	return 0;
}

static void blk_drop(struct ns_bitmap *b, struct ns_bitmap_blk *k)
{
	b->bytes -= blk_bytes(k);
	free(k->p);
	k->p = NULL;
	k->kind = NS_BITMAP_EMPTY;
	k->count = 0;
}

/* Block @k as words, from what it was (not full): 0 or -ENOMEM. */
static int to_words(struct ns_bitmap *b, struct ns_bitmap_blk *k)
{
	uint64_t *w;
	uint32_t j;

	if (k->kind == NS_BITMAP_WORDS)
		return 0;
	w = calloc(1, WORDS_BYTES);
	if (!w)
		return -ENOMEM;
	if (k->kind == NS_BITMAP_ARRAY) {
		const uint16_t *a = k->p;

		for (j = 0; j < k->count; j++)
			w[a[j] / 64] |= 1ull << (a[j] % 64);
	}
	blk_drop(b, k);
	k->p = w;
	k->kind = NS_BITMAP_WORDS;
	b->bytes += WORDS_BYTES;
	return 0;
}

/* Block @k in its smallest form, its count and the words' counts made: 0 or -ENOMEM. */
static int shrink(struct ns_bitmap *b, struct ns_bitmap_blk *k)
{
	uint64_t *w = k->p;
	uint16_t *sub, *a;
	uint32_t j, count = 0;

	if (k->kind != NS_BITMAP_WORDS)
		return 0;
	sub = words_sub(w);
	for (j = 0; j < NS_BITMAP_BLK_WORDS; j++) {
		if (j % NS_BITMAP_SUB_WORDS == 0)
			sub[j / NS_BITMAP_SUB_WORDS] = (uint16_t)count;
		count += (uint32_t)__builtin_popcountll(w[j]);
	}
	if (count == 0 || count == NS_BITMAP_BLK_BITS) {
		blk_drop(b, k);
		k->kind = count ? NS_BITMAP_FULL : NS_BITMAP_EMPTY;
		k->count = count;
		return 0;
	}
	k->count = count;
	if (count > NS_BITMAP_ARRAY_MAX)
		return 0;
	a = malloc(count * sizeof(*a));
	if (!a)
		return -ENOMEM;	/* words still, and right */
	count = 0;
	for (j = 0; j < NS_BITMAP_BLK_WORDS; j++)
		for (uint64_t x = w[j]; x; x &= x - 1)
			a[count++] = (uint16_t)(j * 64 + (uint32_t)__builtin_ctzll(x));
	b->bytes -= WORDS_BYTES;
	free(w);
	k->p = a;
	k->kind = NS_BITMAP_ARRAY;
	b->bytes += count * sizeof(*a);
	return 0;
}

void ns_bitmap_set_slow(struct ns_bitmap *b, uint64_t i)
{
	uint64_t bi = i >> NS_BITMAP_BLK_SHIFT;
	struct ns_bitmap_blk *k = &b->blk[bi];

	if (k->kind == NS_BITMAP_FULL)
		return;
	/* the writer moved on: the block it wrote last in its smallest form */
	if (b->open != NO_BLOCK && b->open != bi && shrink(b, &b->blk[b->open]))
		b->failed = true;
	b->open = NO_BLOCK;
	if (to_words(b, k)) {
		b->failed = true;
		return;
	}
	b->open = bi;
	((uint64_t *)k->p)[(i >> 6) % NS_BITMAP_BLK_WORDS] |= 1ull << (i & 63);
}

struct array_key {
	const uint16_t *a;
	uint32_t off;
};

static bool array_before(size_t i, const void *arg)
{
	const struct array_key *k = arg;

	return k->a[i] < k->off;
}

/* The set bits of array block @k before offset @off. */
static uint32_t array_rank(const struct ns_bitmap_blk *k, uint32_t off)
{
	struct array_key key = { k->p, off };

	return (uint32_t)ns_lower_bound(k->count, array_before, &key);
}

int ns_bitmap_blk_has(const struct ns_bitmap_blk *k, uint32_t off)
{
	uint32_t r = array_rank(k, off);

	return r < k->count && ((const uint16_t *)k->p)[r] == off;
}

int ns_bitmap_index(struct ns_bitmap *b)
{
	uint64_t i, sum = 0;

	for (i = 0; i < b->nr_blks; i++) {
		struct ns_bitmap_blk *k = &b->blk[i];

		if (shrink(b, k))
			b->failed = true;
		k->rank = sum;
		sum += k->count;
	}
	b->open = NO_BLOCK;
	b->ones = sum;
	return b->failed ? -ENOMEM : 0;
}

uint64_t ns_bitmap_rank(const struct ns_bitmap *b, uint64_t i)
{
	const struct ns_bitmap_blk *k;
	uint32_t off, w, j;
	const uint64_t *x;
	uint64_t r;

	if (i >= b->n)
		return b->ones;
	k = &b->blk[i >> NS_BITMAP_BLK_SHIFT];
	off = (uint32_t)(i % NS_BITMAP_BLK_BITS);
	r = k->rank;
	switch (k->kind) {
	case NS_BITMAP_EMPTY:
		return r;
	case NS_BITMAP_FULL:
		return r + off;
	case NS_BITMAP_ARRAY:
		return r + array_rank(k, off);
	}
	x = k->p;
	w = off / 64;
	r += words_sub((uint64_t *)x)[w / NS_BITMAP_SUB_WORDS];
	for (j = w / NS_BITMAP_SUB_WORDS * NS_BITMAP_SUB_WORDS; j < w; j++)
		r += (uint64_t)__builtin_popcountll(x[j]);
	if (off % 64)
		r += (uint64_t)__builtin_popcountll(x[w] & ((1ull << (off % 64)) - 1));
	return r;
}

struct select_key {
	const struct ns_bitmap *b;
	uint64_t k;
};

static bool rank_at_most(size_t i, const void *arg)
{
	const struct select_key *key = arg;

	return key->b->blk[i].rank <= key->k;
}

uint64_t ns_bitmap_select(const struct ns_bitmap *b, uint64_t k)
{
	struct select_key key;
	const struct ns_bitmap_blk *blk;
	uint64_t lo, base;
	const uint64_t *x;
	const uint16_t *sub;
	uint32_t left, j, w;

	if (k >= b->ones)
		return b->n;
	/* the last block with at most k set bits before it: it holds bit k */
	key.b = b;
	key.k = k;
	lo = ns_lower_bound(b->nr_blks, rank_at_most, &key);
	blk = &b->blk[lo - 1];
	base = (lo - 1) * NS_BITMAP_BLK_BITS;
	left = (uint32_t)(k - blk->rank);
	if (blk->kind == NS_BITMAP_FULL)
		return base + left;
	if (blk->kind == NS_BITMAP_ARRAY)
		return base + ((const uint16_t *)blk->p)[left];
	x = blk->p;
	sub = words_sub((uint64_t *)x);
	/* the last group of 8 words with at most @left set bits before it */
	for (j = NS_BITMAP_BLK_WORDS / NS_BITMAP_SUB_WORDS - 1; sub[j] > left; j--)
		;
	left -= sub[j];
	for (w = j * NS_BITMAP_SUB_WORDS; w < NS_BITMAP_BLK_WORDS; w++) {
		uint64_t v = x[w];
		uint32_t c = (uint32_t)__builtin_popcountll(v);

		if (left < c) {
			while (left--)
				v &= v - 1;	/* drop the lowest set bit */
			return base + w * 64 + (uint64_t)__builtin_ctzll(v);
		}
		left -= c;
	}
	return b->n;
}
