// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracing state a recording changes and puts back: which events are
 * enabled, the per-CPU buffer sizes, the sub-buffer size (--subbuf-size),
 * the clock, tracing_on and the current tracer, of the top instance or of a
 * named one. Everything is saved before
 * the first change, so that an error half-way through setting up restores
 * what was changed so far, and the -e arguments are matched against the
 * running kernel's events before anything is touched, so an unknown event
 * changes nothing. Event names follow trace-cmd: "all", "system",
 * "system:event" or "system/event", each part a glob, and a bare name that
 * is no system matches events of that name in any system.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nurseshark/util.h"
#include "record-int.h"

static char *read_trimmed(struct tracefs_instance *inst, const char *file)
{
	char *s = tracefs_instance_file_read(inst, file, NULL);
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

static int write_file(struct tracefs_instance *inst, const char *file, const char *val)
{
	return tracefs_instance_file_write(inst, file, val) < 0 ? -1 : 0;
}

/* Does @spec (one -e argument) name @sys/@ev? */
static bool spec_matches(const char *spec, const char *sys, const char *ev)
{
	char part[256];
	const char *sep = strpbrk(spec, ":/");
	size_t n;

	if (!strcmp(spec, "all"))
		return true;
	if (!sep)
		return !fnmatch(spec, sys, 0) || !fnmatch(spec, ev, 0);
	n = (size_t)(sep - spec);
	if (n >= sizeof(part))
		return false;
	memcpy(part, spec, n);
	part[n] = '\0';
	return !fnmatch(part, sys, 0) && !fnmatch(sep + 1, ev, 0);
}

/**
 * ns_rec_resolve_events - match the buffer's -e arguments to the kernel's events
 * @buf: the buffer, with its specs; its events are filled in
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err naming the first argument that matches nothing.
 */
int ns_rec_resolve_events(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	char **systems = tracefs_event_systems(NULL);
	int ret = -1;

	if (!systems) {
		snprintf(err, errlen, "cannot list the kernel's events under %s",
			 tracefs_tracing_dir() ? tracefs_tracing_dir() : "tracefs");
		return -1;
	}
	for (char **spec = buf->specs; spec && *spec; spec++) {
		bool hit = false;

		if (!strcmp(*spec, "all"))
			buf->all = true;
		for (char **sys = systems; *sys; sys++) {
			char **evs = tracefs_system_events(NULL, *sys);

			for (char **ev = evs; ev && *ev; ev++) {
				char name[512];

				if (!spec_matches(*spec, *sys, *ev))
					continue;
				hit = true;
				snprintf(name, sizeof(name), "%s/%s", *sys, *ev);
				if (!buf->all)
					buf->events = tracefs_list_add(buf->events, name);
			}
			tracefs_list_free(evs);
		}
		if (!hit) {
			snprintf(err, errlen, "no event matches '%s' (see %s/available_events)",
				 *spec, tracefs_tracing_dir());
			goto out;
		}
	}
	ret = 0;
out:
	tracefs_list_free(systems);
	return ret;
}

/* The enabled events of a partly enabled instance, walking systems first. */
static char **enabled_events(struct tracefs_instance *inst)
{
	char **systems = tracefs_event_systems(NULL), **list = NULL;
	char path[512];

	for (char **sys = systems; sys && *sys; sys++) {
		char *state, **evs;

		snprintf(path, sizeof(path), "events/%s/enable", *sys);
		state = read_trimmed(inst, path);
		if (!state || !strcmp(state, "0")) {
			free(state);
			continue;
		}
		free(state);
		evs = tracefs_system_events(NULL, *sys);
		for (char **ev = evs; ev && *ev; ev++) {
			snprintf(path, sizeof(path), "events/%s/%s/enable", *sys, *ev);
			state = read_trimmed(inst, path);
			if (state && state[0] == '1') {
				snprintf(path, sizeof(path), "%s/%s", *sys, *ev);
				list = tracefs_list_add(list, path);
			}
			free(state);
		}
		tracefs_list_free(evs);
	}
	tracefs_list_free(systems);
	return list;
}

/* The name in brackets of "local [global] counter". */
static char *current_clock(struct tracefs_instance *inst)
{
	char *all = read_trimmed(inst, "trace_clock"), *l, *r, *name = NULL;

	if (all && (l = strchr(all, '[')) && (r = strchr(l, ']'))) {
		*r = '\0';
		name = strdup(l + 1);
	}
	free(all);
	return name;
}

/**
 * ns_rec_save_state - remember what recording into @buf will change
 * @buf: the buffer
 * @err: the one-line error
 * @errlen: its size
 *
 * Returns 0, or -1 with @err set when the state cannot be read.
 */
int ns_rec_save_state(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	struct ns_rec_saved *s = &buf->saved;
	char *state = read_trimmed(buf->inst, "events/enable"), *tracer;

	if (!state) {
		snprintf(err, errlen, "cannot read %s/events/enable: %s",
			 tracefs_tracing_dir(), strerror(errno));
		return -1;
	}
	s->events_all = !strcmp(state, "1");
	if (strcmp(state, "0") && !s->events_all)
		s->enabled = enabled_events(buf->inst);
	free(state);
	s->clock = current_clock(buf->inst);
	s->tracing_on = tracefs_trace_is_on(buf->inst);
	if (buf->kb) {
		s->kb = calloc((size_t)buf->ncpus, sizeof(*s->kb));
		for (int cpu = 0; s->kb && cpu < buf->ncpus; cpu++)
			s->kb[cpu] = tracefs_instance_get_buffer_size(buf->inst, cpu);
	}
	if (buf->subbuf_kb) {
		char *kb = read_trimmed(buf->inst, NS_REC_SUBBUF_FILE);

		const char *why = kb ? "not a size" : strerror(errno);

		s->subbuf_kb = kb ? strtol(kb, NULL, 10) : 0;
		free(kb);
		if (s->subbuf_kb < 1) {
			snprintf(err, errlen, "cannot read %s/%s: %s", tracefs_tracing_dir(),
				 NS_REC_SUBBUF_FILE, why);
			return -1;
		}
	}
	tracer = read_trimmed(buf->inst, "current_tracer");
	if (tracer && strcmp(tracer, "nop"))
		s->tracer = tracer;
	else
		free(tracer);
	s->valid = true;
	return 0;
}

/*
 * --subbuf-size: the first change, so that a kernel that refuses it (some
 * lock the file down: EPERM) leaves everything as it was; then the size it
 * took (it rounds up to a power of two of pages), which is the page size of
 * what is read and written. Without it, the size the buffer has (the
 * system's page before Linux 6.8).
 */
static int set_subbuf_size(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	char val[32], *path, *got;
	int e;

	buf->page_size = getpagesize();
	if (!buf->subbuf_kb) {
		got = read_trimmed(buf->inst, NS_REC_SUBBUF_FILE);
		e = got ? (int)strtol(got, NULL, 10) : 0;
		free(got);
		if (e > 0 && e <= 1024 * 1024)
			buf->page_size = e * 1024;
		return 0;
	}
	snprintf(val, sizeof(val), "%ld", buf->subbuf_kb);
	path = tracefs_instance_get_file(buf->inst, NS_REC_SUBBUF_FILE);
	if (write_file(buf->inst, NS_REC_SUBBUF_FILE, val)) {
		e = errno;
		snprintf(err, errlen, "cannot set the sub-buffer size: writing %s to %s: %s (%s)",
			 val, path ? path : NS_REC_SUBBUF_FILE, strerror(e),
			 strerrorname_np(e) ? strerrorname_np(e) : "?");
		tracefs_put_tracing_file(path);
		/* nothing was changed: nothing to put back (but an instance we made) */
		if (!buf->created)
			buf->saved.valid = false;
		return -1;
	}
	got = read_trimmed(buf->inst, NS_REC_SUBBUF_FILE);
	e = got ? (int)strtol(got, NULL, 10) : 0;
	free(got);
	if (e < 1 || e > 1024 * 1024) {
		snprintf(err, errlen, "cannot read back %s", path ? path : NS_REC_SUBBUF_FILE);
		tracefs_put_tracing_file(path);
		return -1;
	}
	tracefs_put_tracing_file(path);
	buf->page_size = e * 1024;
	return 0;
}

/**
 * ns_rec_setup - prepare @buf's instance to record its events, tracing off
 * @buf: the buffer, its state saved
 * @err: the one-line error
 * @errlen: its size
 *
 * Sets the sub-buffer size when asked (first: refused, nothing changed);
 * disables every event, then enables the buffer's; sets the clock and the
 * buffer size when asked; clears the ring buffer. Tracing stays off: the
 * caller turns it on once the readers are open.
 * Returns 0, or -1 with @err set (the caller restores the state).
 */
int ns_rec_setup(struct ns_rec_buffer *buf, char *err, size_t errlen)
{
	const char *what;
	char path[512];
	int fd;

	if (set_subbuf_size(buf, err, errlen))
		return -1;
	what = "tracing_on";
	if (tracefs_trace_off(buf->inst) < 0)
		goto fail;
	what = "current_tracer";
	if (buf->saved.tracer && write_file(buf->inst, "current_tracer", "nop"))
		goto fail;
	what = "events/enable";
	if (write_file(buf->inst, "events/enable", "0"))
		goto fail;
	if (buf->all && write_file(buf->inst, "events/enable", "1"))
		goto fail;
	for (char **ev = buf->events; ev && *ev; ev++) {
		snprintf(path, sizeof(path), "events/%s/enable", *ev);
		what = path;
		if (write_file(buf->inst, path, "1"))
			goto fail;
	}
	what = "trace_clock";
	if (buf->clock && write_file(buf->inst, "trace_clock", buf->clock)) {
		snprintf(err, errlen, "unknown clock '%s' (see %s/trace_clock)", buf->clock,
			 tracefs_tracing_dir());
		return -1;
	}
	what = "buffer_size_kb";
	if (buf->kb) {
		snprintf(path, sizeof(path), "%ld", buf->kb);
		if (write_file(buf->inst, "buffer_size_kb", path))
			goto fail;
	}
	/* Opening "trace" for writing with O_TRUNC is what empties the ring buffer. */
	what = "trace";
	fd = tracefs_instance_file_open(buf->inst, "trace", O_WRONLY | O_TRUNC);
	if (fd < 0)
		goto fail;
	close(fd);
	buf->clock_text = tracefs_instance_file_read(buf->inst, "trace_clock", NULL);
	buf->clock_name = current_clock(buf->inst);
	return 0;
fail:
	snprintf(err, errlen, "cannot write %s in %s: %s", what,
		 buf->name ? buf->name : tracefs_tracing_dir(), strerror(errno));
	return -1;
}

/**
 * ns_rec_restore_state - put back what ns_rec_save_state() saw
 * @buf: the buffer
 *
 * Tries every part even when one fails.
 * Returns 0, or -1 when some part could not be put back.
 */
int ns_rec_restore_state(struct ns_rec_buffer *buf)
{
	struct ns_rec_saved *s = &buf->saved;
	char path[512];
	int ret = 0;

	if (!s->valid)
		return 0;
	if (buf->created) {
		/* Nothing to put back in an instance that did not exist. */
		tracefs_instance_destroy(buf->inst);
		s->valid = false;
		return 0;
	}
	ret |= tracefs_trace_off(buf->inst) < 0 ? -1 : 0;
	ret |= write_file(buf->inst, "events/enable", s->events_all ? "1" : "0");
	for (char **ev = s->enabled; ev && *ev; ev++) {
		snprintf(path, sizeof(path), "events/%s/enable", *ev);
		ret |= write_file(buf->inst, path, "1");
	}
	if (s->clock)
		ret |= write_file(buf->inst, "trace_clock", s->clock);
	if (s->subbuf_kb) {
		snprintf(path, sizeof(path), "%ld", s->subbuf_kb);
		ret |= write_file(buf->inst, NS_REC_SUBBUF_FILE, path);
	}
	for (int cpu = 0; s->kb && cpu < buf->ncpus; cpu++)
		if (s->kb[cpu] > 0)
			ret |= tracefs_instance_set_buffer_size(buf->inst, (size_t)s->kb[cpu],
								cpu) < 0 ? -1 : 0;
	if (s->tracer)
		ret |= write_file(buf->inst, "current_tracer", s->tracer);
	if (s->tracing_on == 1)
		ret |= tracefs_trace_on(buf->inst) < 0 ? -1 : 0;
	s->valid = false;
	return ret;
}
