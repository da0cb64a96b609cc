// SPDX-License-Identifier: GPL-2.0-only
/*
 * Filters in a file: the [filters] section of a session, and filter files,
 * which hold that section alone so that one set serves many traces. One
 * entry per line, the kind as the name, then the mode, where it applies and
 * what it names:
 *
 *   [filters]
 *   task = hide both 1234
 *   event = show list sched/sched_switch
 *   system = hide graph irq
 *   cpu = hide both 1
 *   advanced = show both sched/sched_wakeup: prio < 100
 *   stream = hide both b1
 *
 * The names are those of filter.h (ns_filter_kind_name() and friends), so
 * the file and the filter model cannot disagree. The set itself is plain
 * data; whether an entry means anything in a given trace (a pid with no
 * event, an event the trace does not define) is checked when a file is
 * applied to a trace, by ns_filters_keep_applicable().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/model_plots.h"
#include "nurseshark/model_tasks.h"
#include "session-int.h"

int ns_filters_entry(struct ns_ini *ini, struct ns_filter_set *fs, const char *name,
		     const char *value)
{
	struct ns_filter_entry e;
	char mode[16], where[16], what[NS_INI_MAX_VALUE + 1];
	const char *p = value;
	int n = 0, kind, ret;
	long x;
	char *end;

	memset(&e, 0, sizeof(e));
	kind = ns_filter_kind_from_name(name);
	if (kind < 0) {
		ns_ini_error(ini, "unknown filter kind '%s' (task, event, system, cpu, advanced, "
			     "stream)",
			     name);
		return -EINVAL;
	}
	if (sscanf(p, "%15s %15s %n", mode, where, &n) != 2 || !n) {
		ns_ini_error(ini, "%s: want 'show' or 'hide', where (graph, list, both), "
			     "then what", name);
		return -EINVAL;
	}
	p += n;
	e.kind = kind;
	e.mode = ns_filter_mode_from_name(mode);
	e.where = ns_filter_where_from_name(where);
	if (e.mode < 0 || e.where < 0) {
		ns_ini_error(ini, "%s: '%s %s': want show or hide, then graph, list or both", name,
			     mode, where);
		return -EINVAL;
	}
	if (ns_ini_string(ini, name, p, what, sizeof(what)))
		return -EINVAL;
	if (!what[0]) {
		ns_ini_error(ini, "%s: nothing to %s", name, mode);
		return -EINVAL;
	}
	if (kind == NS_FILTER_TASK || kind == NS_FILTER_CPU) {
		errno = 0;
		x = strtol(what, &end, 10);
		if (errno || *end || end == what || x < 0 || x > (kind == NS_FILTER_CPU ? 65535 :
								    INT32_MAX)) {
			ns_ini_error(ini, "%s: '%s' is not a %s", name, what,
				     kind == NS_FILTER_CPU ? "CPU number" : "pid");
			return -EINVAL;
		}
		e.value = (int)x;
	} else {
		e.name = what;
	}
	ret = ns_filter_set_add(fs, &e);
	if (ret) {
		ns_ini_error(ini, "%s: the filter set refuses this entry (%s)", name,
			     strerror(-ret));
		return ret;
	}
	return 0;
}

void ns_filters_write_entries(const struct ns_filter_set *fs, FILE *out)
{
	struct ns_filter_entry e;
	char pre[48];
	int i;

	for (i = 0; i < ns_filter_set_nr_entries(fs); i++) {
		if (ns_filter_set_entry(fs, i, &e))
			continue;
		snprintf(pre, sizeof(pre), "%s %s ", ns_filter_mode_name(e.mode),
			 ns_filter_where_name(e.where));
		if (e.kind == NS_FILTER_TASK || e.kind == NS_FILTER_CPU) {
			fprintf(out, "%s = %s%d\n", ns_filter_kind_name(e.kind), pre, e.value);
			continue;
		}
		/* "show both " then the name, quoted as a whole when it needs it */
		fprintf(out, "%s = %s", ns_filter_kind_name(e.kind), pre);
		ns_ini_put_value(out, e.name ? e.name : "");
	}
}

/* --- reading and writing whole filter files -------------------------------- */

struct filters_reader {
	struct ns_filter_set *fs;
	int in_filters;
};

static void filters_file_entry(struct ns_ini *ini, void *user, const char *section,
			       const char *name, const char *value)
{
	struct filters_reader *r = user;

	if (!name) {
		r->in_filters = !strcmp(section, "filters");
		if (!r->in_filters)
			ns_ini_error(ini, "unknown section [%s] in a filter file; its entries are "
				     "skipped (a filter file has [filters] only)", section);
		return;
	}
	if (!section[0]) {
		ns_ini_error(ini, "'%s' comes before [filters]; skipped", name);
		return;
	}
	if (r->in_filters)
		ns_filters_entry(ini, r->fs, name, value);
}

int ns_filters_parse(struct ns_filter_set *fs, const char *name, const char *data, size_t len,
		     struct ns_diag *diag)
{
	struct filters_reader r = { .fs = fs };

	ns_ini_parse(name, data, len, filters_file_entry, &r, diag);
	return 0;
}

int ns_filters_read(struct ns_filter_set *fs, const char *path, struct ns_diag *diag)
{
	struct filters_reader r = { .fs = fs };

	return ns_ini_read(path, "a filter file", filters_file_entry, &r, diag);
}

int ns_filters_write(const struct ns_filter_set *fs, FILE *out)
{
	fputs(NS_FILTERS_MARK " see nurseshark.ini(5). One entry a line:\n"
	      ";   KIND = show|hide graph|list|both WHAT\n"
	      "; KIND is task (a pid), event (system/event), system, cpu, advanced\n"
	      "; (an expression of trace-cmd report -F) or stream (a buffer's name,\n"
	      "; top for the top buffer).\n"
	      "\n[filters]\n", out);
	ns_filters_write_entries(fs, out);
	return ferror(out) ? -EIO : 0;
}

static int write_filters(const void *obj, FILE *out)
{
	return ns_filters_write(obj, out);
}

int ns_filters_save(const struct ns_filter_set *fs, const char *path, const struct ns_save *how,
		    char *err, size_t err_len)
{
	return ns_session_save_text(path, write_filters, fs, how, err, err_len);
}

/* --- what applies to a trace ------------------------------------------------ */

static int has_system(const struct ns_trace *trace, const char *system)
{
	int i;

	for (i = 0; i < ns_trace_nr_event_types(trace); i++) {
		if (!strcmp(ns_trace_event_system(trace, ns_trace_event_type_at(trace, i)), system))
			return 1;
	}
	return 0;
}

static int has_event(const struct ns_trace *trace, const char *name)
{
	const char *slash = strchr(name, '/');
	char system[128];

	if (!slash)
		return ns_trace_event_type(trace, NULL, name) >= 0;
	if ((size_t)(slash - name) >= sizeof(system))
		return 0;
	memcpy(system, name, slash - name);
	system[slash - name] = '\0';
	return ns_trace_event_type(trace, system, slash + 1) >= 0;
}

static int cmp_pid(const void *a, const void *b)
{
	int pa = *(const int *)a, pb = ((const struct ns_task_info *)b)->pid;

	return pa < pb ? -1 : pa > pb;
}

/* "top, b1, b2": the buffers of @trace read, by the names stream filters give them. */
static const char *stream_names(const struct ns_trace *trace, char *buf, size_t len)
{
	size_t n = 0;
	int s;

	buf[0] = '\0';
	for (s = 0; s < ns_trace_nr_streams(trace) && n + 1 < len; s++) {
		char name[64];

		ns_filter_stream_name(trace, s, name, sizeof(name));
		n += snprintf(buf + n, len - n, "%s%s", s ? ", " : "", name);
	}
	return buf;
}

int ns_filters_keep_applicable(struct ns_filter_set *fs, struct ns_trace *trace,
			       const char *what, struct ns_diag *diag)
{
	struct ns_task_info *tasks = NULL;
	struct ns_filter_entry e;
	int nr_tasks = -1, removed = 0, i, ok;
	char err[256], names[128];

	for (i = 0; i < ns_filter_set_nr_entries(fs); i++) {
		if (ns_filter_set_entry(fs, i, &e))
			break;
		err[0] = '\0';
		switch (e.kind) {
		case NS_FILTER_TASK:
			if (nr_tasks < 0)
				nr_tasks = ns_task_list_build(trace, &tasks);
			/* without the list (no memory), keep the entry rather than lose it */
			ok = nr_tasks < 0 || bsearch(&e.value, tasks, nr_tasks, sizeof(*tasks),
						     cmp_pid);
			snprintf(err, sizeof(err), "no task with pid %d in this trace", e.value);
			break;
		case NS_FILTER_CPU:
			ok = e.value < ns_trace_nr_cpus(trace);
			snprintf(err, sizeof(err), "this trace has no CPU%d", e.value);
			break;
		case NS_FILTER_EVENT:
			ok = has_event(trace, e.name);
			snprintf(err, sizeof(err), "this trace has no event %s", e.name);
			break;
		case NS_FILTER_SYSTEM:
			ok = has_system(trace, e.name);
			snprintf(err, sizeof(err), "this trace has no event system %s", e.name);
			break;
		case NS_FILTER_ADVANCED:
			ok = !ns_trace_exprs_check(trace, e.name, err, sizeof(err));
			break;
		case NS_FILTER_STREAM:
			/* the file's buffers changed, or --buffer left this one out */
			ok = ns_trace_stream_of_name(trace, e.name) >= 0;
			snprintf(err, sizeof(err), "this trace has no buffer %s (read: %s)",
				 e.name, stream_names(trace, names, sizeof(names)));
			break;
		default:
			ok = 0;
			snprintf(err, sizeof(err), "an unknown kind of filter");
			break;
		}
		if (ok)
			continue;
		ns_diag_add(diag, what, 0, "filter '%s = %s %s ...' skipped: %s",
			    ns_filter_kind_name(e.kind), ns_filter_mode_name(e.mode),
			    ns_filter_where_name(e.where), err);
		ns_filter_set_remove(fs, i--);
		removed++;
	}
	free(tasks);
	return removed;
}

void ns_session_reset_filters(struct ns_filter_set *fs, unsigned parts)
{
	int i;

	if (parts & NS_SESS_FILTERS)
		ns_filter_set_clear_entries(fs);
	while ((parts & NS_SESS_TASK_ROWS) && ns_filter_set_nr_task_rows(fs))
		ns_filter_set_remove_task_row(fs, ns_filter_set_task_row(fs, 0));
	while ((parts & NS_SESS_PLOT_ROWS) && ns_filter_set_nr_plot_rows(fs))
		ns_filter_set_remove_plot_row(fs, ns_filter_set_plot_row(fs, 0));
	for (i = ns_filter_set_cpu_limit(fs) - 1; (parts & NS_SESS_HIDDEN_CPUS) && i >= 0; i--)
		ns_filter_set_hide_cpu(fs, i, 0);
	if (parts & NS_SESS_SEARCH)
		ns_filter_set_save_search(fs, NULL);
}

/* A plot row of a session, if the trace has its events and fields; else a message. */
static void restore_plot_row(struct ns_filter_set *fs, const char *line, struct ns_trace *trace,
			     const char *what, struct ns_diag *diag)
{
	struct ns_plot_spec spec;
	char err[200];

	if (!ns_plot_spec_parse_line(&spec, line, err, sizeof(err)) &&
	    !ns_plot_spec_check(trace, &spec, err, sizeof(err)))
		ns_filter_set_add_plot_row(fs, line);
	else
		ns_diag_add(diag, what, 0, "the row '%s' is left out: %s", line, err);
}

unsigned ns_session_restore_filters(const struct ns_session *s, struct ns_filter_set *live,
				    struct ns_trace *trace, const char *what,
				    struct ns_diag *diag)
{
	unsigned parts = s->have & (NS_SESS_FILTERS | NS_SESS_TASK_ROWS | NS_SESS_HIDDEN_CPUS |
				    NS_SESS_SEARCH | NS_SESS_PLOT_ROWS);
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_task_info *tasks = NULL;
	int nr_tasks, i, pid;

	if (!fs) {
		ns_diag_add(diag, what, 0, "out of memory: the filters are not restored");
		return 0;
	}
	ns_session_copy_filters(fs, s->filters, parts & (NS_SESS_FILTERS | NS_SESS_SEARCH));
	ns_filters_keep_applicable(fs, trace, what, diag);
	if (parts & NS_SESS_TASK_ROWS) {
		nr_tasks = ns_task_list_build(trace, &tasks);
		for (i = 0; i < ns_filter_set_nr_task_rows(s->filters); i++) {
			pid = ns_filter_set_task_row(s->filters, i);
			if (nr_tasks >= 0 &&
			    !bsearch(&pid, tasks, nr_tasks, sizeof(*tasks), cmp_pid))
				ns_diag_add(diag, what, 0, "no task with pid %d in this trace: its "
					    "task row is left out", pid);
			else
				ns_filter_set_add_task_row(fs, pid);
		}
		free(tasks);
	}
	for (i = 0; (parts & NS_SESS_PLOT_ROWS) && i < ns_filter_set_nr_plot_rows(s->filters); i++)
		restore_plot_row(fs, ns_filter_set_plot_row(s->filters, i), trace, what, diag);
	if (parts & NS_SESS_HIDDEN_CPUS) {
		for (i = 0; i < ns_filter_set_cpu_limit(s->filters); i++) {
			if (!ns_filter_set_cpu_hidden(s->filters, i))
				continue;
			if (i < ns_trace_nr_cpus(trace))
				ns_filter_set_hide_cpu(fs, i, 1);
			else
				ns_diag_add(diag, what, 0, "this trace has no CPU%d to hide", i);
		}
	}
	ns_session_reset_filters(live, parts);
	ns_session_copy_filters(live, fs, parts);
	ns_filter_set_free(fs);
	return parts;
}
