// SPDX-License-Identifier: GPL-2.0-only
/*
 * The viewer's Record screen remembers what it recorded last (the events,
 * buffer size, clock, instances, command or duration, output file), and so
 * does `nurseshark record` when it opens the viewer, in a state file of
 * its own, $XDG_STATE_HOME/nurseshark/record.ini, beside the sessions and
 * saved by the same rules (savefile.c: atomic, replacing only a file of
 * ours, known by its first line). Example:
 *
 *   ; nurseshark record: the Record screen's last settings
 *   [record]
 *   events = sched:sched_switch irq
 *   buffer-kb = 4096
 *   clock = mono
 *   buffers = -B net -e net -b 1024
 *   command = make -j2
 *   duration = 0
 *   output = trace.dat
 *
 * A value that does not read is reported and left at its default.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session-int.h"

void ns_record_settings_init(struct ns_record_settings *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->events, sizeof(s->events), "sched irq");
	snprintf(s->output, sizeof(s->output), "trace.dat");
}

char *ns_record_settings_path(char *err, size_t err_len)
{
	char *dir = ns_session_state_dir(err, err_len), *path = NULL;

	if (dir && asprintf(&path, "%s/record.ini", dir) < 0) {
		snprintf(err, err_len, "out of memory");
		path = NULL;
	}
	free(dir);
	return path;
}

struct reading {
	struct ns_record_settings *s;
	struct ns_ini_seen seen;
	int in_record;
};

static void on_entry(struct ns_ini *ini, void *user, const char *section, const char *name,
		     const char *value)
{
	struct reading *r = user;
	struct ns_record_settings *s = r->s;
	char num[32];
	char *end;

	if (!name) {
		r->in_record = !strcmp(section, "record");
		if (!r->in_record)
			ns_ini_error(ini, "unknown section [%s]; its entries are skipped (record)",
				     section);
		return;
	}
	if (!r->in_record)
		return;
	ns_ini_once(ini, &r->seen, section, name);
	if (!strcmp(name, "events")) {
		ns_ini_string(ini, name, value, s->events, sizeof(s->events));
	} else if (!strcmp(name, "buffer-kb")) {
		uint64_t v;

		if (!ns_ini_u64(ini, name, value, 1 << 30, &v))
			s->buffer_kb = (long)v;
	} else if (!strcmp(name, "clock")) {
		ns_ini_string(ini, name, value, s->clock, sizeof(s->clock));
	} else if (!strcmp(name, "buffers")) {
		ns_ini_string(ini, name, value, s->buffers, sizeof(s->buffers));
	} else if (!strcmp(name, "command")) {
		ns_ini_string(ini, name, value, s->command, sizeof(s->command));
	} else if (!strcmp(name, "duration")) {
		if (ns_ini_string(ini, name, value, num, sizeof(num)))
			return;
		s->duration = strtod(num, &end);
		if (end == num || *end || !(s->duration >= 0) || s->duration > 1e7) {
			ns_ini_error(ini, "duration: want seconds, not '%s'", num);
			s->duration = 0;
		}
	} else if (!strcmp(name, "output")) {
		ns_ini_string(ini, name, value, s->output, sizeof(s->output));
	} else {
		ns_ini_error(ini, "unknown name '%s' in [record]; skipped (events, buffer-kb, "
			     "clock, buffers, command, duration, output)", name);
	}
}

int ns_record_settings_read(struct ns_record_settings *s, const char *path, struct ns_diag *d)
{
	struct reading *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	r->s = s;
	ret = ns_ini_read(path, "the Record screen's settings", on_entry, r, d);
	free(r);
	if (!s->output[0])
		snprintf(s->output, sizeof(s->output), "trace.dat");
	return ret;
}

int ns_record_settings_save(const struct ns_record_settings *s, const char *path, char *err,
			    size_t err_len)
{
	const struct ns_save how = { .flags = NS_SAVE_REPLACE };
	char *data = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&data, &len);
	char *dir, *slash;
	int ret;

	if (!out) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	fprintf(out, "%s the Record screen's last settings\n[record]\n", NS_RECORD_MARK);
	ns_ini_put(out, "events", s->events);
	ns_ini_putf(out, "buffer-kb", "%ld", s->buffer_kb);
	ns_ini_put(out, "clock", s->clock);
	ns_ini_put(out, "buffers", s->buffers);
	ns_ini_put(out, "command", s->command);
	ns_ini_putf(out, "duration", "%g", s->duration);
	ns_ini_put(out, "output", s->output);
	if (fclose(out)) {
		free(data);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	dir = strdup(path);
	slash = dir ? strrchr(dir, '/') : NULL;
	if (slash && slash != dir) {
		*slash = '\0';
		ns_session_mkdirs(dir);
	}
	free(dir);
	ret = ns_savefile_write(path, data, len, &how, err, err_len);
	free(data);
	return ret;
}
