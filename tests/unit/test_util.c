// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers of include/nurseshark/util.h, each at its edges: growth from
 * empty, by one and by much, and its overflow refusal; the lower bound on
 * empty, all-before, none-before and duplicate runs, against a linear scan;
 * the error setter with no buffer; the task name at, under and over 15 bytes.
 */
#include "nurseshark/util.h"
#include "check.h"

static bool before_int(size_t i, const void *arg)
{
	const int *key_and_v = arg;	/* [0] the key, then the values */

	return key_and_v[1 + i] < key_and_v[0];
}

static size_t linear_lower(const int *v, size_t n, int key)
{
	size_t i = 0;

	while (i < n && v[i] < key)
		i++;
	return i;
}

int main(void)
{
	int *arr = NULL;
	size_t cap = 0;
	int rc, i, bad;

	/* ns_grow */
	rc = NS_GROW(arr, cap, 1);
	CHECK(rc == 0 && arr && cap == 16, "util: grow from empty gives 16 slots (cap %zu)", cap);
	rc = NS_GROW(arr, cap, 16);
	CHECK(rc == 0 && cap == 16, "util: grow within capacity keeps it (cap %zu)", cap);
	rc = NS_GROW(arr, cap, 17);
	CHECK(rc == 0 && cap == 32, "util: grow by one doubles (cap %zu)", cap);
	rc = NS_GROW(arr, cap, 1000);
	CHECK(rc == 0 && cap == 1024, "util: grow by much doubles until it fits (cap %zu)", cap);
	for (i = 0; i < 1000; i++)
		arr[i] = i;
	bad = 0;
	rc = NS_GROW(arr, cap, 5000);
	for (i = 0; i < 1000; i++)
		bad += arr[i] != i;
	CHECK(rc == 0 && !bad, "util: grow keeps the elements (%d differ)", bad);
	{
		int *keep = arr;
		size_t keep_cap = cap;

		rc = ns_grow((void **)&arr, &cap, SIZE_MAX / 2 + 2, sizeof(*arr));
		CHECK(rc == -ENOMEM && arr == keep && cap == keep_cap,
		      "util: a growth that would overflow is refused, array unchanged");
	}
	free(arr);

	/* ns_lower_bound against a linear scan, on sorted values with runs */
	{
		int kv[1 + 12] = { 0, 1, 3, 3, 3, 5, 8, 8, 13, 21, 21, 21, 34 };
		int n = 12, key, wrong = 0;

		for (key = -1; key <= 36; key++) {
			kv[0] = key;
			if (ns_lower_bound(n, before_int, kv) != linear_lower(kv + 1, n, key))
				wrong++;
		}
		CHECK(!wrong, "util: lower bound equals a linear scan for keys -1..36 (%d differ)", wrong);
		kv[0] = 3;
		CHECK(ns_lower_bound(n, before_int, kv) == 1, "util: lower bound finds the first of a run");
		kv[0] = 100;
		CHECK(ns_lower_bound(n, before_int, kv) == (size_t)n, "util: lower bound past the end is n");
		CHECK(ns_lower_bound(0, before_int, kv) == 0, "util: lower bound of nothing is 0");
	}
	{
		uint64_t v[] = { 10, 20, 20, 30 };

		CHECK(ns_lower_bound_u64(v, 4, 0) == 0 && ns_lower_bound_u64(v, 4, 20) == 1 &&
		      ns_lower_bound_u64(v, 4, 21) == 3 && ns_lower_bound_u64(v, 4, 31) == 4 &&
		      ns_lower_bound_u64(v, 0, 5) == 0,
		      "util: u64 lower bound before, on a run, between, past, and on nothing");
		CHECK(NS_ARRAY_SIZE(v) == 4, "util: array size of a 4-element array");
	}

	/* ns_set_err */
	{
		char err[8] = "x";

		ns_set_err(NULL, 10, "%s", "ignored");
		ns_set_err(err, 0, "%s", "ignored");
		CHECK(!strcmp(err, "x"), "util: set_err with no buffer or no room writes nothing");
		ns_set_err(err, sizeof(err), "damaged %d", 12345);
		CHECK(!strcmp(err, "damaged"), "util: set_err cuts to the buffer (\"%s\")", err);
	}

	/* ns_comm_copy */
	{
		char comm[NS_COMM_LEN];

		memset(comm, 'z', sizeof(comm));
		ns_comm_copy(comm, "kworker/0:1H-events_highpri");
		CHECK(strlen(comm) == 15 && !strncmp(comm, "kworker/0:1H-ev", 15),
		      "util: a long task name is cut to 15 bytes (\"%s\")", comm);
		ns_comm_copy(comm, "bash");
		CHECK(!strcmp(comm, "bash"), "util: a short task name is copied whole");
		ns_comm_copy(comm, NULL);
		CHECK(!strcmp(comm, ""), "util: no task name gives the empty string");
	}
	return check_failures ? 1 : 0;
}
