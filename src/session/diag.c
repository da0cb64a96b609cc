// SPDX-License-Identifier: GPL-2.0-only
/*
 * Diagnostics: the problems found in the files we read, each one line,
 * "FILE:LINE: message", kept in the order found. The viewer shows them in
 * its status line and --check-config prints them; a file with a thousand
 * bad lines costs NS_DIAG_MAX lines of memory and a count of the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/session.h"
#include "nurseshark/util.h"

void ns_diag_init(struct ns_diag *d)
{
	memset(d, 0, sizeof(*d));
}

void ns_diag_free(struct ns_diag *d)
{
	int i;

	for (i = 0; i < d->nr; i++)
		free(d->msg[i]);
	free(d->msg);
	memset(d, 0, sizeof(*d));
}

static void push(struct ns_diag *d, char *m)
{
	if (!m || d->nr >= NS_DIAG_MAX) {
		free(m);
		d->dropped++;
		return;
	}
	if (NS_GROW(d->msg, d->alloc, (size_t)d->nr + 1)) {
		free(m);
		d->dropped++;
		return;
	}
	d->msg[d->nr++] = m;
}

void ns_diag_vadd(struct ns_diag *d, const char *file, int line, const char *fmt, va_list ap)
{
	char *body = NULL, *m = NULL;

	if (vasprintf(&body, fmt, ap) < 0)
		body = NULL;
	if (!body) {
		d->dropped++;
		return;
	}
	if (!file)
		m = body;
	else if ((line > 0 ? asprintf(&m, "%s:%d: %s", file, line, body) :
		  asprintf(&m, "%s: %s", file, body)) < 0)
		m = NULL;
	if (m != body)
		free(body);
	push(d, m);
}

void ns_diag_add(struct ns_diag *d, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ns_diag_vadd(d, file, line, fmt, ap);
	va_end(ap);
}

int ns_diag_count(const struct ns_diag *d)
{
	return d->nr + d->dropped;
}

void ns_diag_print(const struct ns_diag *d, FILE *out, const char *prefix)
{
	int i;

	for (i = 0; i < d->nr; i++)
		fprintf(out, "%s%s\n", prefix, d->msg[i]);
	if (d->dropped)
		fprintf(out, "%s(and %d more problems)\n", prefix, d->dropped);
}

void ns_diag_move(struct ns_diag *to, struct ns_diag *from)
{
	int i;

	for (i = 0; i < from->nr; i++)
		push(to, from->msg[i]);
	to->dropped += from->dropped;
	free(from->msg);
	memset(from, 0, sizeof(*from));
}
