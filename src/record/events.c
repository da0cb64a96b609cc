// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the running kernel offers to record, for the viewer's Record screen
 * (main.c hands it on): the event systems and their events as libtracefs
 * lists them, only those with an enable file (ftrace's own events have
 * none: trace_marker lines are recorded whatever is enabled), the clocks
 * of trace_clock, and the checks `nurseshark record` makes before it
 * touches the kernel, so that the screen can refuse what record would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nurseshark/record.h"
#include "record-int.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_list(char **list)
{
	size_t n = 0;

	while (list && list[n])
		n++;
	if (n)
		qsort(list, n, sizeof(*list), by_name);
}

/* Has @sys/@ev (or @sys alone, @ev NULL) an enable file? */
static bool can_enable(const char *sys, const char *ev)
{
	const char *dir = tracefs_tracing_dir();
	char path[4096];

	if (!dir)
		return false;
	if (ev)
		snprintf(path, sizeof(path), "%s/events/%s/%s/enable", dir, sys, ev);
	else
		snprintf(path, sizeof(path), "%s/events/%s/enable", dir, sys);
	return !access(path, F_OK);
}

char **ns_record_event_systems(char *err, size_t errlen)
{
	char **all = tracefs_event_systems(NULL), **out = NULL;

	if (!all) {
		snprintf(err, errlen, "cannot list the kernel's events under %s",
			 tracefs_tracing_dir() ? tracefs_tracing_dir() : "tracefs (not mounted?)");
		return NULL;
	}
	for (char **sys = all; *sys; sys++) {
		if (!can_enable(*sys, NULL))
			continue;
		out = tracefs_list_add(out, *sys);
		if (!out)
			break;
	}
	tracefs_list_free(all);
	if (!out) {
		snprintf(err, errlen, "no event of the kernel can be enabled (%s)",
			 strerror(errno ? errno : ENOENT));
		return NULL;
	}
	sort_list(out);
	return out;
}

char **ns_record_system_events(const char *system)
{
	char **all = tracefs_system_events(NULL, system), **out = NULL;

	for (char **ev = all; ev && *ev; ev++) {
		if (!can_enable(system, *ev))
			continue;
		out = tracefs_list_add(out, *ev);
		if (!out)
			break;
	}
	tracefs_list_free(all);
	sort_list(out);
	return out;
}

char **ns_record_clocks(char **current)
{
	char *text = tracefs_instance_file_read(NULL, "trace_clock", NULL), *tok, *save = NULL;
	char **out = NULL;

	if (current)
		*current = NULL;
	if (!text)
		return NULL;
	for (tok = strtok_r(text, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		size_t n = strlen(tok);

		if (tok[0] == '[' && n > 2 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
			if (current && !*current)
				*current = strdup(tok);
		}
		out = tracefs_list_add(out, tok);
		if (!out)
			break;
	}
	free(text);
	return out;
}

void ns_record_list_free(char **list)
{
	tracefs_list_free(list);
}
