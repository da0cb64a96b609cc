/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The real traces the unit tests read: the bundled sample, and, when
 * ../shared is there, the recorded and public ones beside it.
 */
#ifndef NS_TEST_TRACES_H
#define NS_TEST_TRACES_H

#include <errno.h>
#include <glob.h>
#include "check.h"
#include "nurseshark/trace.h"

struct trace_list {
	char *path[64];
	int n;
};

static inline void trace_list_add(struct trace_list *l, const char *path)
{
	if (l->n < 64 && access(path, R_OK) == 0)
		l->path[l->n++] = strdup(path);
}

/* @all: also every trace of ../shared/traces/public */
static inline void trace_list_load(struct trace_list *l, int all)
{
	const char *top = getenv("NS_TOP") ? getenv("NS_TOP") : ".";
	const char *shared = check_shared();
	char buf[8192];
	glob_t g;
	size_t i;

	l->n = 0;
	snprintf(buf, sizeof(buf), "%s/contrib/sample.dat", top);
	trace_list_add(l, buf);
	snprintf(buf, sizeof(buf), "%s/tests/data/lost-events.dat", top);
	trace_list_add(l, buf);
	if (!shared) {
		SKIP("shared traces: %s not found, only the bundled sample is checked",
		     getenv("NS_SHARED") ? getenv("NS_SHARED") : "../shared");
		return;
	}
	snprintf(buf, sizeof(buf), "%s/traces/sched-v6.dat", shared);
	trace_list_add(l, buf);
	if (!all)
		return;
	snprintf(buf, sizeof(buf), "%s/traces/public/*.dat", shared);
	if (glob(buf, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			trace_list_add(l, g.gl_pathv[i]);
		globfree(&g);
	}
}

/*
 * The whole output of a command (an oracle: trace-cmd report ...), @fmt
 * holding one %s for @path, its length in *@lenp; NULL if it cannot run.
 * Owned by the caller.
 */
static inline char *slurp_cmd_len(const char *fmt, const char *path, size_t *lenp)
{
	char cmd[8192], *buf = NULL, *nbuf;
	size_t cap = 0, len = 0, n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), fmt, path);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	for (;;) {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 1 << 20;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				free(buf);
				pclose(p);
				return NULL;
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len - 1, p);
		if (!n)
			break;
		len += n;
	}
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[len] = '\0';
	pclose(p);
	*lenp = len;
	return buf;
}

static inline char *slurp_cmd(const char *fmt, const char *path)
{
	size_t len;

	return slurp_cmd_len(fmt, path, &len);
}

static inline const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Event @i of @cpu by value (zeros out of range), for short checks. */
static inline struct ns_event test_ev(const struct ns_trace *t, int cpu, uint64_t i)
{
	struct ns_event e = { 0 };

	ns_trace_event(t, cpu, i, &e);
	return e;
}

/* The event at @row into *@buf, or NULL past the end. */
static inline const struct ns_event *test_row_ev(const struct ns_trace *t, uint64_t row,
						 struct ns_pos *pos, struct ns_event *buf)
{
	return ns_trace_row_event(t, row, pos, buf) ? NULL : buf;
}

#endif
