/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers every layer uses, written once: the array length, the
 * doubling growth of a dynamic array, the lower-bound binary search, the
 * error-message setter and the 16-byte task name. They sit below every
 * layer (trace, model, session, tui may all include this header) and include
 * nothing of the project. Each has a unit test in tests/unit/test_util.c.
 */
#ifndef NS_UTIL_H
#define NS_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of elements of a true array (not of a pointer). */
#define NS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The kernel's TASK_COMM_LEN: a task name with its NUL. */
#define NS_COMM_LEN 16

/**
 * ns_grow - make a dynamic array hold at least @need elements
 * @arr: the array (may be NULL with *@cap 0)
 * @cap: its capacity in elements, updated
 * @need: the elements it must hold
 * @size: the size of one element
 *
 * The capacity doubles from at least 16, so appending one at a time costs
 * O(1) amortised. On failure the array and its capacity are unchanged.
 * Returns 0, or -ENOMEM (also when the size would overflow).
 */
static inline int ns_grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (size && ncap > SIZE_MAX / size)
		return -ENOMEM;
	n = realloc(*arr, ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

/* NS_GROW(arr, cap, need): ns_grow() for a typed array and a size_t capacity. */
#define NS_GROW(arr, cap, need) \
	ns_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/**
 * ns_lower_bound - the first index in [0, @n) for which @before is false
 * @n: the number of elements
 * @before: true for every element that sorts before the key (a prefix)
 * @arg: passed to @before
 *
 * The binary search all sorted tables of the project share. Returns @n when
 * @before is true everywhere. Inline, so a known @before is inlined too.
 */
static inline size_t ns_lower_bound(size_t n, bool (*before)(size_t i, const void *arg),
				    const void *arg)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(mid, arg))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * ns_lower_bound_u64 - the first index of sorted @v[0..@n) whose value is >= @key
 */
static inline size_t ns_lower_bound_u64(const uint64_t *v, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * ns_set_err - print a message into an optional error buffer
 * @err: the buffer, or NULL when the caller does not want the message
 * @len: its size in bytes (0 writes nothing)
 */
static inline __attribute__((format(printf, 3, 4)))
void ns_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/**
 * ns_comm_copy - copy a task name into a NS_COMM_LEN buffer, cut and ended
 * @dst: NS_COMM_LEN bytes
 * @src: the name (NULL gives "")
 */
static inline void ns_comm_copy(char dst[NS_COMM_LEN], const char *src)
{
	size_t n = src ? strnlen(src, NS_COMM_LEN - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

#endif
