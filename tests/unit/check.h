/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The smallest test harness that can fail: each CHECK prints one
 * "PASS: name" or "FAIL: name: why" line, the protocol of tests/run.sh.
 */
#ifndef NS_TEST_CHECK_H
#define NS_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_failures;

#define PASS(...) do { printf("PASS: "); printf(__VA_ARGS__); printf("\n"); } while (0)
#define FAIL(...) do { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); check_failures++; } while (0)
#define SKIP(...) do { printf("SKIP: "); printf(__VA_ARGS__); printf("\n"); } while (0)

/* CHECK(cond, name...): one named check. */
#define CHECK(cond, ...) do { if (cond) PASS(__VA_ARGS__); else { FAIL(__VA_ARGS__); \
	printf("  at %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)

/* Where ../shared is, or NULL (the tests that need it then SKIP). */
static inline const char *check_shared(void)
{
	const char *s = getenv("NS_SHARED");
	static char buf[4096];

	if (!s) {
		snprintf(buf, sizeof(buf), "../shared");
		s = buf;
	}
	if (access(s, R_OK) != 0)
		return NULL;
	return s;
}

#endif
