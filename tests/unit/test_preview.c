// SPDX-License-Identifier: GPL-2.0-only
/*
 * The loading screen's rows (ns_trace_preview(), read straight from the
 * file while the index is built) against the list's own rows once the
 * index is done: same event, CPU, time, pid, latency, info and lost
 * events, row by row, going forward, back a little, and back to the top.
 * The Task column may differ ("<...>" is the index's to know).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "nurseshark/trace.h"
#include "traces.h"

#define WANT 40

static const char *unindent(const char *s)
{
	s = s ? s : "";
	while (*s == ' ')
		s++;
	return s;
}

/*
 * trace-cmd's function plugin indents by the call depth it saw in the
 * events printed before: that part depends on what was printed last.
 */
static int same(const struct ns_event_text *a, const struct ns_event_text *b)
{
	return a->cpu == b->cpu && a->pid == b->pid && !strcmp(a->time, b->time) &&
	       !strcmp(a->latency, b->latency) && !strcmp(a->event, b->event) &&
	       !strcmp(unindent(a->info), unindent(b->info)) && a->missed == b->missed;
}

/* Preview rows [first, first + WANT) against the index's rows. */
static int check_at(struct ns_trace *t, uint64_t first, const char *name)
{
	struct ns_event_text pv[WANT], ix = { 0 };
	struct ns_pos pos[WANT];
	int got, i, bad = 0;
	size_t n;

	memset(pv, 0, sizeof(pv));
	got = ns_trace_preview(t, first, WANT, pv);
	n = ns_trace_rows(t, first, WANT, pos);
	if (got < 0 || (size_t)got != n) {
		printf("  %s at %llu: preview gives %d rows, the index %zu\n", name,
		       (unsigned long long)first, got, n);
		bad = 1;
	}
	for (i = 0; !bad && i < got; i++) {
		if (ns_trace_format_line(t, pos[i].cpu, pos[i].idx, first + i, &ix, NULL, NULL) ||
		    !same(&pv[i], &ix)) {
			printf("  %s row %llu: preview '%s %s %s', index '%s %s %s'\n", name,
			       (unsigned long long)(first + i), pv[i].time, pv[i].event,
			       pv[i].info ? pv[i].info : "", ix.time, ix.event, ix.info ? ix.info : "");
			bad = 1;
		}
	}
	for (i = 0; i < (got > 0 ? got : 0); i++)
		ns_event_text_free(&pv[i]);
	ns_event_text_free(&ix);
	return bad;
}

int main(void)
{
	struct trace_list l;
	char err[256];
	int i;

	trace_list_load(&l, 1);
	for (i = 0; i < l.n; i++) {
		const char *name = base_name(l.path[i]);
		struct ns_trace *t = ns_trace_open_async(l.path[i], err, sizeof(err));
		struct ns_event_text first[WANT];
		uint64_t n, at[] = { 0, 1, 37, 30, 1000, 999, 2, 0 }, k;
		int got, bad = 0;

		if (!t) {
			FAIL("open %s: %s", name, err);
			continue;
		}
		/* while (maybe) still indexing: rows come, whatever the index's state */
		memset(first, 0, sizeof(first));
		got = ns_trace_preview(t, 0, WANT, first);
		if (got == -ENOTSUP) {
			SKIP("preview: %s is read through libtracecmd (no loading screen)", name);
			ns_trace_close(t);
			continue;
		}
		CHECK(got >= 0, "preview rows while opening: %s (%d)", name, got);
		while (got > 0)
			ns_event_text_free(&first[--got]);
		if (ns_trace_wait(t, err, sizeof(err))) {
			FAIL("index %s: %s", name, err);
			ns_trace_close(t);
			continue;
		}
		n = ns_trace_nr_events(t);
		for (k = 0; k < sizeof(at) / sizeof(at[0]); k++)
			bad |= check_at(t, at[k] < n ? at[k] : n - (n > 0), name);
		bad |= check_at(t, n > WANT ? n - WANT : 0, name);
		CHECK(!bad, "preview rows are the list's rows (forward, back, end): %s", name);
		ns_trace_close(t);
	}
	return check_failures ? 1 : 0;
}
