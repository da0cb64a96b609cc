// SPDX-License-Identifier: GPL-2.0-only
/*
 * The : commands, as one table: each command's name, a short alias, its
 * arguments, one line of help and its handler. The table is what the
 * prompt runs and completes (Tab), what the help overlay lists and what
 * `nurseshark --commands-table` prints for the man page, so none of them
 * can name a command the others do not know. A handler gets the rest of
 * the line (the arguments, leading blanks skipped, its own to cut up) and
 * the table's int; the sessions' commands are persist.c's, the pickers
 * picker.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filtering.h"
#include "nurseshark/model_plots.h"
#include "picker.h"
#include "prompt.h"

/* The next word of *s (moved past it and the blanks after). */
static char *word(char **s)
{
	char *w;

	while (**s == ' ')
		(*s)++;
	w = *s;
	while (**s && **s != ' ')
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	while (**s == ' ')
		(*s)++;
	return w;
}

static int parse_where(const char *w)
{
	if (!strcmp(w, "graph"))
		return NS_FILTER_GRAPH;
	if (!strcmp(w, "list"))
		return NS_FILTER_LIST;
	if (!strcmp(w, "both"))
		return NS_FILTER_BOTH;
	return -1;
}

/* "sched_switch" -> "sched/sched_switch"; "sched/sched_switch" stays. */
static int full_event_name(struct ns_tui *t, const char *name, char *buf, size_t len)
{
	int type;

	if (strchr(name, '/')) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	type = ns_trace_event_type(t->trace, NULL, name);
	if (type < 0)
		return -ENOENT;
	snprintf(buf, len, "%s/%s", ns_trace_event_system(t->trace, type), name);
	return 0;
}

/* show|hide KIND WHAT [WHERE]: @mode NS_FILTER_SHOW or NS_FILTER_HIDE */
static void cmd_show_hide(struct ns_tui *t, char *rest, int mode)
{
	char *kind = word(&rest), *what = word(&rest), *where_w = word(&rest), name[256], err[128];
	struct ns_filter_entry e = { .mode = mode, .where = t->flt->where };
	int *vals = NULL, n, i, ret = 0;

	if (*where_w && (e.where = parse_where(where_w)) < 0) {
		ns_tui_message(t, "%s: want graph, list or both", where_w);
		return;
	}
	e.kind = ns_filter_kind_from_name(kind);
	if (e.kind < 0 || e.kind == NS_FILTER_ADVANCED || !*what) {
		ns_tui_message(t, "Usage: %s task|event|system|cpu|stream WHAT [graph|list|both]",
			       mode == NS_FILTER_SHOW ? "show" : "hide");
		return;
	}
	ns_tui_filters_begin_change(t);
	if (e.kind == NS_FILTER_EVENT) {
		if (full_event_name(t, what, name, sizeof(name))) {
			ns_tui_message(t, "No event %s in this trace", what);
			return;
		}
		e.name = name;
		ret = ns_filter_set_add(t->flt->fs, &e);
	} else if (e.kind == NS_FILTER_SYSTEM) {
		e.name = what;
		ret = ns_filter_set_add(t->flt->fs, &e);
	} else if (e.kind == NS_FILTER_STREAM) {
		if (ns_trace_stream_of_name(t->trace, what) < 0) {
			ns_tui_message(t, "No stream %s in this trace (the top buffer is %s)", what,
				       NS_TRACE_TOP_NAME);
			return;
		}
		e.name = what;
		ret = ns_filter_set_add(t->flt->fs, &e);
	} else {
		/* tasks by pid or by name, CPUs by list */
		if (e.kind == NS_FILTER_TASK && !isdigit((unsigned char)what[0]))
			n = ns_task_pids_by_comm(t->trace, what, &vals);
		else
			n = ns_filter_parse_list(what, &vals, err, sizeof(err));
		if (n <= 0) {
			free(vals);
			ns_tui_message(t, "%s", n == 0 ? "No task of that name" : err);
			return;
		}
		for (i = 0; i < n && !ret; i++) {
			e.value = vals[i];
			ret = ns_filter_set_add(t->flt->fs, &e);
		}
		free(vals);
	}
	if (ret)
		ns_tui_message(t, "Cannot add the filter: %s", strerror(-ret));
	ns_tui_refilter(t);
}

/* filter [-v] [-g|-l] EXPRESSION */
static void cmd_filter(struct ns_tui *t, char *rest, int unused)
{
	struct ns_filter_entry e = { .kind = NS_FILTER_ADVANCED, .mode = NS_FILTER_SHOW,
				     .where = NS_FILTER_BOTH };

	for (;;) {
		while (*rest == ' ')
			rest++;
		if (!strncmp(rest, "-v ", 3))
			e.mode = NS_FILTER_HIDE;
		else if (!strncmp(rest, "-g ", 3))
			e.where = NS_FILTER_GRAPH;
		else if (!strncmp(rest, "-l ", 3))
			e.where = NS_FILTER_LIST;
		else
			break;
		rest += 3;
	}
	if (!*rest) {
		ns_tui_message(t, "Usage: filter [-v] [-g|-l] EXPRESSION (as trace-cmd report -F)");
		return;
	}
	e.name = rest;
	ns_tui_filters_begin_change(t);
	if (ns_filter_set_add(t->flt->fs, &e)) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	/* a refused expression comes back with libtraceevent's message, the set as it was */
	ns_tui_refilter(t);
}

/* cpu LIST / pid LIST / task NAME, as on the command line: @kind NS_FILTER_ARG_* */
static void cmd_cli(struct ns_tui *t, char *rest, int kind)
{
	struct ns_filter_args a;
	char err[512];
	int ret;

	ns_filter_args_init(&a);
	if (ns_filter_args_push(&a, kind, rest)) {
		ns_tui_message(t, "Out of memory");
		return;
	}
	ns_tui_filters_begin_change(t);
	ret = ns_filter_args_apply(&a, t->trace, t->flt->fs, 1, err, sizeof(err));
	ns_filter_args_free(&a);
	if (ret)
		ns_tui_message(t, "%s", err);
	ns_tui_refilter(t);
}

/*
 * task NAME: a graph row for each task of that name; given again, when they
 * all have rows, the rows go. The message says how to undo either, and how
 * many rows came when they are more than the graph shows at once.
 */
static void cmd_task(struct ns_tui *t, char *rest, int unused)
{
	int *pids = NULL, n, i, all = 1, changed = 0;

	if (!*rest) {
		ns_tui_message(t, "Usage: task NAME");
		return;
	}
	n = ns_task_pids_by_comm(t->trace, rest, &pids);
	if (n <= 0) {
		free(pids);
		if (n < 0)
			ns_tui_message(t, "Out of memory");
		else
			ns_tui_message(t, "task %s: no task of that name in the trace", rest);
		return;
	}
	for (i = 0; i < n; i++)
		all &= ns_filter_set_has_task_row(t->flt->fs, pids[i]);
	ns_tui_filters_begin_change(t);
	for (i = 0; i < n; i++) {
		if (all)
			changed += !ns_filter_set_remove_task_row(t->flt->fs, pids[i]);
		else if (!ns_filter_set_has_task_row(t->flt->fs, pids[i]))
			changed += !ns_filter_set_add_task_row(t->flt->fs, pids[i]);
	}
	free(pids);
	ns_tui_refilter(t);
	if (all)
		ns_tui_message(t, "%d task row%s of %s removed (:task %s again adds them)", changed,
			       changed == 1 ? "" : "s", rest, rest);
	else if (changed > t->lay.cpu_rows)
		ns_tui_message(t, "%d task rows of %s added, more than fit: :task %s again "
			       "removes them", changed, rest, rest);
	else
		ns_tui_message(t, "%d task row%s of %s added (:task %s again removes them)",
			       changed, changed == 1 ? "" : "s", rest, rest);
}

/* cpurows LIST|all */
static void cmd_cpurows(struct ns_tui *t, char *rest, int unused)
{
	int nr_cpus = ns_trace_nr_cpus(t->trace), *vals = NULL, n, i, cpu;
	char err[128];

	if (!strcmp(rest, "all")) {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			ns_filter_set_hide_cpu(t->flt->fs, cpu, 0);
	} else {
		n = ns_filter_parse_list(rest, &vals, err, sizeof(err));
		if (n < 0) {
			ns_tui_message(t, "cpurows %s", err);
			return;
		}
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			int keep = 0;

			for (i = 0; i < n; i++)
				keep |= vals[i] == cpu;
			ns_filter_set_hide_cpu(t->flt->fs, cpu, !keep);
		}
		free(vals);
	}
	ns_tui_refilter(t);
}

/* N: event number N (the line is one number) */
static void cmd_event_number(struct ns_tui *t, char *num, int unused)
{
	uint64_t n = ns_trace_nr_events(t->trace);
	unsigned long long row;
	char *end;

	row = strtoull(num, &end, 10);
	if (*end || !n) {
		ns_tui_message(t, "Not an event number: %s", num);
		return;
	}
	ns_view_select(&t->view, row < n ? row : n - 1);
	ns_tui_cursor_to_selection(t);
	if (t->view.selected != row)
		ns_tui_message(t, "Event %s is %s; #%llu is the nearest shown", num,
			       row >= n ? "past the end" : "hidden by the filters",
			       (unsigned long long)t->view.selected);
}

/* goto SECS */
static void cmd_goto(struct ns_tui *t, char *rest, int unused)
{
	uint64_t ts;

	if (ns_parse_ts(rest, &ts)) {
		ns_tui_message(t, "Usage: goto SECONDS.USECS, as the Time column");
		return;
	}
	if (ns_view_goto_ns(&t->view, ts))
		ns_tui_message(t, "The list is empty");
	else
		ns_tui_cursor_to_selection(t);
}

/* tasks, events, cpus, filters, streams: @kind enum ns_tui_picker_kind */
static void cmd_picker(struct ns_tui *t, char *rest, int kind)
{
	ns_tui_picker_open(t, kind);
}

/* messages: the history of the status line's messages, whole */
static void cmd_messages(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_messages_open(t, 0);
}

/* stats: the statistics overlay */
static void cmd_stats(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_stats_open(t, 0);
}

/* record: the Record screen */
static void cmd_record(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_record_open(t, 0);
}

static const struct ns_tui_opener *opener(const struct ns_tui *t)
{
	return t->setup ? t->setup->opener : NULL;
}

/* open FILE (@append 0), append FILE (1): the viewer starts again on the files */
static void cmd_open(struct ns_tui *t, char *rest, int append)
{
	const struct ns_tui_opener *o = opener(t);
	char *path = word(&rest), err[512];

	if (!*path) {
		ns_tui_message(t, "Usage: %s FILE", append ? "append" : "open");
		return;
	}
	if (!o) {
		ns_tui_message(t, "%s: only the viewer opens files (not --snapshot or live)",
			       append ? "append" : "open");
		return;
	}
	if (o->open(o->arg, path, append, err, sizeof(err))) {
		ns_tui_message(t, "%s", err);
		return;
	}
	t->quit = 1;
}

/* offset STREAM NS: the stream's file again, its timestamps shifted by NS */
static void cmd_offset(struct ns_tui *t, char *rest, int unused)
{
	const struct ns_tui_opener *o = opener(t);
	char *name = word(&rest), *num = word(&rest), *end, err[512];
	long long ns;
	int stream;

	errno = 0;
	ns = *num ? strtoll(num, &end, 10) : 0;
	if (!*name || !*num || *end || errno) {
		ns_tui_message(t, "Usage: offset STREAM NS (nanoseconds, e.g. -2500000000)");
		return;
	}
	stream = ns_trace_stream_of_name(t->trace, name);
	if (stream < 0) {
		ns_tui_message(t, "offset: no stream named '%s' (the stream picker, P, lists them)",
			       name);
		return;
	}
	if (!o) {
		ns_tui_message(t, "offset: only the viewer opens files (not --snapshot or live)");
		return;
	}
	if (o->offset(o->arg, ns_trace_stream_file(t->trace, stream), ns, err, sizeof(err))) {
		ns_tui_message(t, "%s", err);
		return;
	}
	t->quit = 1;
}

static void cmd_clear(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_clear_filters(t);
}

static void cmd_where(struct ns_tui *t, char *rest, int unused)
{
	int where = parse_where(rest);

	if (where < 0) {
		ns_tui_message(t, "Usage: where graph|list|both");
		return;
	}
	t->flt->where = where;
	ns_tui_message(t, "New filters apply to the %s", ns_tui_where_name(where));
}

static void cmd_help(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_help_open(t, 0);
}

/* save FILE: nurseshark live's recording */
static void cmd_save(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_live_save(t, word(&rest));
}

static void cmd_quit(struct ns_tui *t, char *rest, int unused)
{
	t->quit = 1;
}

static void cmd_fresh(struct ns_tui *t, char *rest, int unused)
{
	ns_tui_fresh_start(t, 0);
}

#define NS_TUI_KINDS	"task|event|system|cpu|stream WHAT [graph|list|both]"

const struct ns_tui_command ns_tui_commands[] = {
	{ "goto", "g", "SECS", "Select the first event at or after SECS, as the Time column "
	  "writes it (10172.572790)", cmd_goto, 0 },
	{ "N", NULL, "", "Select event number N (the # column); a hidden one selects the "
	  "nearest shown", cmd_event_number, 0 },
	{ "filter", "F", "[-v] [-g|-l] EXPR", "Filter as trace-cmd report -F EXPR does; -v "
	  "hides what matches, -g and -l filter the graph or the list only",
	  cmd_filter, 0 },
	{ "show", NULL, NS_TUI_KINDS, "Show only WHAT: a task (pid or name), an event, a "
	  "system, a CPU list or a stream (a buffer's name, top for the top one); in the graph, "
	  "the list or both", cmd_show_hide, NS_FILTER_SHOW },
	{ "hide", NULL, NS_TUI_KINDS, "Hide WHAT, in the same syntax", cmd_show_hide,
	  NS_FILTER_HIDE },
	{ "cpu", NULL, "LIST", "Show only the CPUs of LIST (0,2-3), as --cpu", cmd_cli,
	  NS_FILTER_ARG_CPUS },
	{ "pid", NULL, "LIST", "Show only the pids of LIST, as --pid", cmd_cli,
	  NS_FILTER_ARG_PIDS },
	{ "task", NULL, "NAME", "A graph row for each task named NAME, as --task; again: "
	  "those rows go", cmd_task, 0 },
	{ "latency", NULL, "A B [FIELD|FA,FB]", "A graph row of the latency from each event "
	  "A to the next B with the same FIELD (FA of A equal to FB of B; none: the same pid), "
	  "the longest ending in each column; again: the row goes", ns_tui_cmd_plot_row,
	  NS_PLOT_LATENCY },
	{ "plot", NULL, "EVENT FIELD", "A graph row of a numeric FIELD of EVENT, the greatest "
	  "in each column, the window's least and greatest on the label; again: the row goes",
	  ns_tui_cmd_plot_row, NS_PLOT_FIELD },
	{ "cpurows", NULL, "LIST|all", "The CPU rows the graph shows", cmd_cpurows, 0 },
	{ "tasks", NULL, "", "The task picker", cmd_picker, NS_PICK_TASKS },
	{ "messages", NULL, "", "The status line's last messages, whole, the latest last",
	  cmd_messages, 0 },
	{ "events", NULL, "", "The event picker", cmd_picker, NS_PICK_EVENTS },
	{ "cpus", NULL, "", "The CPU picker", cmd_picker, NS_PICK_CPUS },
	{ "streams", NULL, "", "The stream picker (the buffers of the file)", cmd_picker,
	  NS_PICK_STREAMS },
	{ "filters", NULL, "", "The filters in force, to remove one", cmd_picker,
	  NS_PICK_FILTERS },
	{ "stats", NULL, "", "Statistics over the A-B range or the window (as S)", cmd_stats,
	  0 },
	{ "record", NULL, "", "The Record screen: record the running kernel (or watch it "
	  "live) and open the new trace (as Ctrl-R)", cmd_record, 0 },
	{ "open", NULL, "FILE", "Open FILE instead of what is open (as File > Open): the viewer "
	  "starts again on it, without the filters", cmd_open, 0 },
	{ "append", NULL, "FILE", "Add FILE to what is open, on one timeline (as File > "
	  "Append): the viewer starts again on all, without the filters", cmd_open, 1 },
	{ "offset", NULL, "STREAM NS", "Shift the timestamps of STREAM's file (all its "
	  "buffers) by NS nanoseconds, as --ts-offset after its -i: the viewer starts again",
	  cmd_offset, 0 },
	{ "clear", "nofilter", "", "Clear every filter", cmd_clear, 0 },
	{ "where", NULL, "graph|list|both", "Where new filters apply", cmd_where, 0 },
	{ "save-session", NULL, "[FILE]", "Save the session (view, markers, filters, panes) "
	  "to FILE; without FILE, to the trace's own session file", ns_tui_cmd_save_session, 0 },
	{ "load-session", NULL, "[FILE]", "Load a session from FILE; without FILE, the "
	  "trace's own", ns_tui_cmd_load_session, 0 },
	{ "save", NULL, "FILE", "nurseshark live: write the events held so far as a trace.dat "
	  "(a new file: never over one that is there)", cmd_save, 0 },
	{ "save-filters", NULL, "FILE", "Save the filters to FILE", ns_tui_cmd_save_filters, 0 },
	{ "load-filters", NULL, "FILE", "Replace the filters with those of FILE",
	  ns_tui_cmd_load_filters, 0 },
	{ "fresh", NULL, "", "Start fresh: forget the session restored at start",
	  cmd_fresh, 0 },
	{ "help", NULL, "", "Show the help", cmd_help, 0 },
	{ "quit", "q", "", "Quit", cmd_quit, 0 },
};

const int ns_tui_nr_commands = NS_ARRAY_SIZE(ns_tui_commands);

/* The command named @name (or by its alias), or NULL. */
static const struct ns_tui_command *find(const char *name)
{
	int i;

	for (i = 0; i < ns_tui_nr_commands; i++) {
		const struct ns_tui_command *c = &ns_tui_commands[i];

		if (!strcmp(c->name, name) || (c->alias && !strcmp(c->alias, name)))
			return c;
	}
	return NULL;
}

void ns_tui_command(struct ns_tui *t, const char *line)
{
	char buf[NS_TUI_PROMPT_MAX], *rest = buf, *cmd;
	const struct ns_tui_command *c;

	snprintf(buf, sizeof(buf), "%s", line);
	cmd = word(&rest);
	if (!*cmd)
		return;
	if (isdigit((unsigned char)cmd[0]) && !*rest) {
		cmd_event_number(t, cmd, 0);
		return;
	}
	c = find(cmd);
	if (!c || !strcmp(c->name, "N")) {
		ns_tui_message(t, "Unknown command: %s (F1 lists the commands)", cmd);
		return;
	}
	c->run(t, rest, c->arg);
}

/**
 * ns_tui_complete_command - complete the command name that starts a line
 * @prefix: what is typed of the name
 * @out: the longest completion every match shares (with a blank after a
 *       unique one)
 * @matches: the names that match, blank separated (may be NULL)
 * Returns how many commands match.
 */
int ns_tui_complete_command(const char *prefix, char *out, size_t len, char *matches,
			    size_t matches_len)
{
	size_t plen = strlen(prefix), common = 0, m = 0;
	const char *first = NULL;
	int i, n = 0;

	if (matches && matches_len)
		matches[0] = '\0';
	for (i = 0; i < ns_tui_nr_commands; i++) {
		const char *name = ns_tui_commands[i].name;

		/* N stands for a number; it is not typed */
		if (!strcmp(name, "N") || strncmp(name, prefix, plen))
			continue;
		if (!first) {
			first = name;
			common = strlen(name);
		} else {
			size_t k = plen;

			while (k < common && first[k] == name[k])
				k++;
			common = k;
		}
		if (matches && m < matches_len)
			m += snprintf(matches + m, matches_len - m, "%s%s", n ? " " : "", name);
		n++;
	}
	if (!n)
		snprintf(out, len, "%s", prefix);
	else
		snprintf(out, len, "%.*s%s", (int)common, first, n == 1 ? " " : "");
	return n;
}

/* Text for roff: no character may be taken for a request or an escape. */
static void roff_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

void ns_tui_print_commands_table(FILE *out)
{
	int i;

	fputs(".\\\" generated by `nurseshark --commands-table` from src/tui/commands.c\n", out);
	for (i = 0; i < ns_tui_nr_commands; i++) {
		const struct ns_tui_command *c = &ns_tui_commands[i];

		fputs(".TP\n\\fB", out);
		roff_text(out, c->name);
		fputs("\\fP", out);
		if (c->args[0]) {
			fputs(" \\fI", out);
			roff_text(out, c->args);
			fputs("\\fP", out);
		}
		fputc('\n', out);
		roff_text(out, c->help);
		fputs(".\n", out);
		if (c->alias) {
			fputs("Also \\fB", out);
			roff_text(out, c->alias);
			fputs("\\fP.\n", out);
		}
	}
}
