// SPDX-License-Identifier: GPL-2.0-only
/*
 * How many of 1000 malloc(0)s, each after a free of a chunk filled with
 * '[', do not start with 8 zero bytes (tests/oracle.sh): glibc's alone
 * hands the freed chunk back, with a free-list pointer in it; with
 * malloc0.so preloaded, none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	int i, j, dirty = 0;

	for (i = 0; i < 1000; i++) {
		char *volatile p = malloc(16);
		char *volatile q;

		if (!p)
			return 2;
		memset(p, '[', 16);
		free(p);
		q = malloc(0);
		if (!q)
			return 2;
		for (j = 0; j < 8; j++)
			if (q[j]) {
				dirty++;
				break;
			}
		free(q);
	}
	printf("%d\n", dirty);
	return 0;
}
