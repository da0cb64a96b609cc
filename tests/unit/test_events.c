// SPDX-License-Identifier: GPL-2.0-only
/*
 * The packed event index (src/trace/events.c): what fits in a slot and what
 * goes to the wide table must both read back as written.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "../../src/trace/trace-int.h"
#include "check.h"

struct want {
	uint64_t ts;
	int pid, type;
};

static uint32_t rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

int main(void)
{
	const uint64_t n = 3 * NS_EV_CHUNK + 777;
	struct want *w = malloc(n * sizeof(*w));
	struct ns_events e;
	uint64_t i, bad = 0, ts = 1000;
	uint32_t seed = 12345;
	int ret = 0;

	CHECK(w && !ns_events_init(&e, n), "an index for %llu events", (unsigned long long)n);
	if (!w)
		return 1;
	for (i = 0; i < n && !ret; i++) {
		uint32_t r = rng(&seed);

		/* mostly small steps; now and then a gap of seconds, or one back */
		if (r % 997 == 0)
			ts += (uint64_t)(r % 9) * 1000000000ull + 4300000000ull;
		else if (r % 991 == 0 && ts > 5000)
			ts -= 3000;
		else
			ts += r % 5000;
		w[i].ts = ts;
		/* pids up to PID_MAX_LIMIT and past it, -1 (no formats) */
		w[i].pid = r % 101 == 0 ? -1 : r % 103 == 0 ? NS_EV_PID_LIMIT + (int)(r % 3) :
			   (int)(r % (1u << 22));
		/* more types than a CPU has local numbers, and ids past 16 bits */
		w[i].type = r % 89 == 0 ? 70000 + (int)(r % 5) : (int)(rng(&seed) % 1500);
		ret = ns_events_append(&e, i, w[i].ts, w[i].pid, w[i].type);
	}
	CHECK(!ret, "appended %llu events", (unsigned long long)i);
	for (i = 0; i < n; i++) {
		struct ns_event ev;

		ns_ev_get(&e, i, &ev);
		bad += ev.ts_ns != w[i].ts || ev.pid != w[i].pid || ev.type != w[i].type ||
		       ns_ev_ts(&e, i) != w[i].ts;
	}
	CHECK(bad == 0, "every event reads back as written (%llu wrong)", (unsigned long long)bad);
	CHECK(ns_events_nr_wide(&e) > 0 && ns_events_nr_wide(&e) < n / 2,
	      "some but not most go to the wide table (%llu of %llu)",
	      (unsigned long long)ns_events_nr_wide(&e), (unsigned long long)n);
	CHECK(e.nr_types == NS_EV_TYPES, "a CPU's local type numbers fill up (%d)", e.nr_types);
	CHECK(ns_events_append(&e, (e.cap_chunks << NS_EV_CHUNK_SHIFT), 1, 1, 1) == -ENOMEM,
	      "past the directory's size, appending fails");
	ns_events_free(&e);

	/*
	 * Grown as libtracecmd's reader indexes (index.c's index_one()): a
	 * directory sized for one event, made to hold each next one by
	 * ns_events_reserve(); its new places hold no chunk until one is made.
	 */
	{
		const uint64_t m = 5 * NS_EV_CHUNK + 3;
		uint64_t empty = 0, k;

		ret = ns_events_init(&e, 1);
		for (i = 0; i < m && !ret; i++) {
			ret = ns_events_reserve(&e, i + 1);
			if (!ret)
				ret = ns_events_append(&e, i, 1000 + 7 * i, (int)(i % 5000), (int)(i % 300));
		}
		CHECK(!ret && e.cap_chunks >= (m >> NS_EV_CHUNK_SHIFT) + 1,
		      "a directory for one event grows to hold %llu (%zu chunks)",
		      (unsigned long long)m, e.cap_chunks);
		for (k = e.nr_chunks; k < e.cap_chunks; k++)
			empty += !(e.dir[k] & NS_EV_DIR_BUF_MASK);
		bad = 0;
		for (i = 0; i < m && !ret; i++) {
			struct ns_event ev;

			ns_ev_get(&e, i, &ev);
			bad += ev.ts_ns != 1000 + 7 * i || ev.pid != (int)(i % 5000) ||
			       ev.type != (int)(i % 300);
		}
		CHECK(!ret && !bad && empty == e.cap_chunks - e.nr_chunks,
		      "grown, every event reads back (%llu wrong) and the new places are empty "
		      "(%llu of %llu)", (unsigned long long)bad, (unsigned long long)empty,
		      (unsigned long long)(e.cap_chunks - e.nr_chunks));
		CHECK(ns_events_reserve(&e, 3) == 0 && e.cap_chunks >= (m >> NS_EV_CHUNK_SHIFT) + 1,
		      "a smaller reservation keeps the directory");
		ns_events_free(&e);
	}
	free(w);
	return check_failures ? 1 : 0;
}
