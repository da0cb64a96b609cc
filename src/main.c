// SPDX-License-Identifier: GPL-2.0-only
/*
 * nurseshark: the command line. Parses the options, opens the trace (so a
 * bad file is one line on stderr and the terminal is never touched), then
 * hands it to one of: the interactive viewer, --snapshot (the same viewer
 * printed as text, no terminal), or --export (`trace-cmd report` text).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nurseshark/filter.h"
#include "nurseshark/model_sched.h"
#include "nurseshark/model_search.h"
#include "nurseshark/record.h"
#include "nurseshark/session.h"
#include "nurseshark/trace.h"
#include "nurseshark/tui.h"
#include "nurseshark/util.h"

#ifndef NURSESHARK_VERSION
#define NURSESHARK_VERSION "0.1"
#endif

#define DEFAULT_TRACE "trace.dat"

enum {
	OPT_SNAPSHOT = 256,
	OPT_KEYS,
	OPT_EXPORT,
	OPT_KEYS_TABLE,
	OPT_COMMANDS_TABLE,
	OPT_VERSION,
	OPT_STATS,
	OPT_CPU,
	OPT_PID,
	OPT_TASK,
	OPT_NO_SESSION,
	OPT_FILTERS,
	OPT_CONFIG,
	OPT_CHECK_CONFIG,
	OPT_PRINT_CONFIG,
	OPT_TEST_HOLD_INDEX,
	OPT_TEST_INDEX_ROUNDS,
	OPT_TEST_RECORD_STAGE,
	OPT_BUFFER,
	OPT_TS_OFFSET,
	OPT_INDEX_MEMORY,
};

static const struct option long_options[] = {
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "export", no_argument, NULL, OPT_EXPORT },
	{ "keys-table", no_argument, NULL, OPT_KEYS_TABLE },
	{ "commands-table", no_argument, NULL, OPT_COMMANDS_TABLE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "task", required_argument, NULL, OPT_TASK },
	{ "session", required_argument, NULL, 's' },
	{ "no-session", no_argument, NULL, OPT_NO_SESSION },
	{ "filters", required_argument, NULL, OPT_FILTERS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
	{ "print-config", no_argument, NULL, OPT_PRINT_CONFIG },
	{ "buffer", required_argument, NULL, OPT_BUFFER },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "index-memory", required_argument, NULL, OPT_INDEX_MEMORY },
	/* for tests/loading.sh only: not in --help; the man page says so */
	{ "test-hold-index", required_argument, NULL, OPT_TEST_HOLD_INDEX },
	{ "test-index-rounds", required_argument, NULL, OPT_TEST_INDEX_ROUNDS },
	/* for tests/recordstop.sh only: handed to the Record screen's recording */
	{ "test-record-stage", required_argument, NULL, OPT_TEST_RECORD_STAGE },
	{ NULL, 0, NULL, 0 },
};

/* strerror(@e) into @err; for ENOMEM, which limit was hit. */
static void errno_text(char *err, size_t err_len, int e)
{
	if (e == ENOMEM)
		ns_set_nomem(err, err_len);
	else
		snprintf(err, err_len, "%s", strerror(e));
}

/*
 * A reason that ends in strerror(ENOMEM), from whichever layer: that with
 * the limit that was hit instead ("out of memory under ulimit -v of 1024 MB").
 */
static void nomem_names_limit(char *err, size_t err_len)
{
	const char *bare = strerror(ENOMEM);
	size_t len = strlen(err), n = strlen(bare);

	if (len >= n && !strcmp(err + len - n, bare))
		ns_set_nomem(err + len - n, err_len - (len - n));
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: nurseshark [FILTERS] [-i FILE [--ts-offset NS]]... | FILE...\n"
		"       nurseshark --snapshot COLSxROWS [--keys KEYS] [-i FILE]... | FILE...\n"
		"       nurseshark --export [FILTERS] [-i FILE [--ts-offset NS]]... | FILE...\n"
		"       nurseshark --stats [-i FILE [--ts-offset NS]]... | FILE...\n"
		"       nurseshark --summary [--range T0,T1] [FILTERS] [-i FILE | FILE]\n"
		"       nurseshark record [OPTIONS] [-- COMMAND ARGS...]  (record --help)\n"
		"       nurseshark live [OPTIONS] [--keep EVENTS|SECSs]  (live --help)\n"
		"       nurseshark live --duration SECS --export|--snapshot COLSxROWS [OPTIONS]\n"
		"\n"
		"A terminal viewer for trace-cmd's trace.dat files (default ./%s).\n"
		"\n"
		"  -i FILE               the trace to read, as in trace-cmd report; several\n"
		"                        (-i A -i B, or A B) are shown on one timeline, and\n"
		"                        --export merges them as trace-cmd report -i A -i B\n"
		"  --ts-offset NS        add NS nanoseconds to the timestamps of the -i FILE\n"
		"                        before it (instead of the file's own offset)\n"
		"  --index-memory SIZE|all\n"
		"                        memory for the event index (8M, 512M, 2G): past it,\n"
		"                        parts not used lately are read again from the file\n"
		"                        when needed (same results, slower jumps); default\n"
		"                        32M, or a quarter of the least of the cgroup's\n"
		"                        memory.max, ulimit -v and the memory available if\n"
		"                        less (at least 16M); all: keep all\n"
		"  --buffer NAME         read only the buffers named (repeat it): an instance\n"
		"                        (trace-cmd record -B NAME) or top; default: all;\n"
		"                        several files: in each file that has it\n"
		"  --snapshot COLSxROWS  print the screen as text after replaying --keys;\n"
		"                        no terminal needed\n"
		"  --keys KEYS           keys for --snapshot: characters, and <Tab> <Enter>\n"
		"                        <Esc> <Space> <Up> <Down> <Left> <Right> <S-Left>\n"
		"                        <PageUp> <PageDown> <Home> <End> <F1> <C-x> <lt>,\n"
		"                        <Click:X,Y> <WheelUp:X,Y> <Resize:COLSxROWS> ...\n"
		"  --export              print the events as `trace-cmd report` does (those\n"
		"                        the filters show)\n"
		"  --summary             print scheduling statistics as tab-separated tables\n"
		"  --range T0,T1         --summary: only [T0, T1), in seconds\n"
		"\n"
		"Filters, as in trace-cmd report:\n"
		"  --cpu LIST            only the CPUs of LIST (0,2-5), in graph and list\n"
		"  --pid LIST            a task row for each pid (--export: only their events)\n"
		"  --task NAME           a task row for each task named NAME (--export: only\n"
		"                        their events)\n"
		"  -F FILTER             only the events FILTER matches (report -F syntax:\n"
		"                        'sched/sched_switch: prev_pid == 0'); several are OR-ed\n"
		"  -v                    the -F after it hide the events they match\n"
		"\n"
		"Sessions and settings (INI files, see nurseshark.ini(5)):\n"
		"  -s, --session FILE    restore the session saved in FILE (its trace unless\n"
		"                        one is named)\n"
		"  --no-session          neither restore nor save the trace's own session\n"
		"  --filters FILE        the filters saved in FILE (:save-filters)\n"
		"  --config FILE         read FILE instead of config.ini\n"
		"  --check-config        report the problems of config.ini (and of -s and\n"
		"                        --filters) on stderr and exit: 1 if there are any\n"
		"  --print-config        print config.ini with every setting at its default\n"
		"\n"
		"  --keys-table          print the key bindings as man page source\n"
		"  --commands-table      print the : commands as man page source\n"
		"  --stats               load, time redraws, zoom, pan and list page steps off\n"
		"                        screen, a search of every event's info, then of\n"
		"                        its whole line, for $NS_BENCH_SEARCH and a filter\n"
		"                        by $NS_BENCH_FILTER (-F syntax; either empty: not\n"
		"                        done), print the figures (for make bench)\n"
		"  -h, --help            this help\n"
		"  --version             the version\n"
		"\n"
		"In the viewer, F1 (or h in the list) lists every key; q quits.\n", DEFAULT_TRACE);
}

static double main_start_ms;	/* CLOCK_MONOTONIC when main() began */

static double now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * --stats: the figures `make bench` quotes, one "name value" per line. What
 * it searches for and filters by comes from the environment, so that
 * tests/bench.sh can give the same text to `trace-cmd report | grep` and the
 * same expression to `trace-cmd report -F`: NS_BENCH_SEARCH (a text no line
 * holds, so that every event is read; searched for in the info column, then
 * in the whole line; empty: no search) and NS_BENCH_FILTER
 * (an -F expression; empty: no filter). NS_BENCH_TASK_KEYS (--keys syntax,
 * e.g. ":task gzip<Enter>"; empty: none) adds task rows before the zoom and
 * pan steps are timed a second time, as task_step_*.
 */
#define STATS_SEARCH	"nurseshark-bench-no-such-text"
#define STATS_FILTER	".*: common_pid == 1"

static const char *stats_env(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v ? v : dflt;
}

/*
 * A search over every row, in the TUI's steps, of one column (@what
 * "search": the info, as before) or of the whole line as `trace-cmd
 * report` prints it (@what "search_line": what `/TEXT` looks at).
 */
static int stats_search(struct ns_trace *trace, const char *text, int column, const char *what,
			char *err, size_t err_len)
{
	struct ns_search_spec spec = { .column = column, .mode = NS_SEARCH_CONTAINS };
	struct ns_search_job *job = NULL;
	struct ns_search *s;
	uint64_t done = 0, total = 0;
	double t0;
	int ret;

	if (strlen(text) >= sizeof(spec.text)) {
		snprintf(err, err_len, "NS_BENCH_SEARCH: longer than %zu bytes", sizeof(spec.text) - 1);
		return -EINVAL;
	}
	snprintf(spec.text, sizeof(spec.text), "%s", text);
	s = ns_search_compile(&spec, err, err_len);
	if (!s)
		return -EINVAL;
	t0 = now_ms(CLOCK_MONOTONIC);
	job = ns_search_begin(trace, NULL, s, 0, 0);
	ret = job ? 0 : -ENOMEM;
	while (!ret)
		ret = ns_search_step(job, 512);
	if (ret == 1 || ret == -ENOENT) {
		ns_search_progress(job, &done, &total);
		printf("%s_ms %.0f\n", what, now_ms(CLOCK_MONOTONIC) - t0);
		printf("%s_events %llu\n", what, (unsigned long long)done);
		printf("%s_found %d\n", what, ret == 1);
		ret = 0;
	} else {
		snprintf(err, err_len, "the search: %s", strerror(-ret));
	}
	ns_search_job_free(job);
	ns_search_free(s);
	return ret;
}

/* An -F expression applied as --export applies it: the list's rows. */
static int stats_filter(struct ns_trace *trace, const char *expr, char *err, size_t err_len)
{
	struct ns_filter_set *fs = ns_filter_set_alloc();
	struct ns_visible *vis = NULL;
	struct ns_filter_args a;
	double t0 = now_ms(CLOCK_MONOTONIC);
	uint64_t reloads = ns_trace_chunk_reloads(trace);
	int ret;

	ns_filter_args_init(&a);
	ret = fs ? ns_filter_args_push(&a, NS_FILTER_ARG_EXPR, expr) : -ENOMEM;
	if (!ret)
		ret = ns_filter_args_apply(&a, trace, fs, 0, err, err_len);
	if (!ret)
		ret = ns_visible_build(trace, fs, &vis, err, err_len);
	if (!ret) {
		printf("filter_ms %.0f\n", now_ms(CLOCK_MONOTONIC) - t0);
		printf("filter_rows %llu\n", (unsigned long long)
		       ns_visible_list_count(vis, ns_trace_nr_events(trace)));
		printf("filter_bytes %zu\n", ns_visible_bytes(vis));
		printf("filter_chunk_reloads %llu\n",
		       (unsigned long long)(ns_trace_chunk_reloads(trace) - reloads));
	} else if (ret == -ENOMEM) {
		ns_set_nomem(err, err_len);
	}
	ns_visible_free(vis);
	ns_filter_args_free(&a);
	ns_filter_set_free(fs);
	return ret;
}

/*
 * Several files with --buffer: each reads the buffers named that it has
 * (opts.buffers_if_present), and a name none of them has is an error,
 * naming the files. Returns 0, or -ENOENT with the reason in @err.
 */
static int buffers_found(const struct ns_trace_open_opts *opts, const char *const *paths,
			 int nr_paths, struct ns_trace *const *traces, int nr, char *err,
			 size_t err_len)
{
	for (int b = 0; b < opts->nr_buffers; b++) {
		bool found = false;
		size_t len;

		for (int k = 0; k < nr && !found; k++)
			found = ns_trace_reads_buffer(traces[k], opts->buffers[b]);
		if (found)
			continue;
		snprintf(err, err_len, "--buffer %s: no buffer of that name in", opts->buffers[b]);
		for (int k = 0; k < nr_paths; k++) {
			len = strlen(err);
			snprintf(err + len, err_len - len, "%s%s", k == 0 ? " " :
				 k == nr_paths - 1 ? " or " : ", ", paths[k]);
		}
		return -ENOENT;
	}
	return 0;
}

/*
 * The figures of the @n files of @paths, each opened with its @opts: one
 * file as the viewer opens it, several as one trace on one timeline, as
 * the viewer shows `nurseshark A B` (their events and streams summed).
 */
static int print_stats(const char *const *paths, const struct ns_trace_open_opts *opts, int n,
		       char *err, size_t err_len)
{
	double wall0 = now_ms(CLOCK_MONOTONIC), cpu0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
	/* as the viewer opens it: the loading screen's first frame, then the index */
	struct ns_trace *trace = n > 1 ? ns_trace_open_files_async(paths, opts, n, err, err_len) :
		ns_trace_open_async_opts(paths[0], opts, err, err_len);
	int frame = trace ? ns_tui_loading_snapshot(trace, 200, 50, NULL, err, err_len) : -EINVAL;
	double first_frame_ms = now_ms(CLOCK_MONOTONIC) - main_start_ms;
	int waited = trace && !frame ? ns_trace_wait(trace, err, err_len) : -EINVAL;
	double load_ms = now_ms(CLOCK_MONOTONIC) - wall0;
	double load_cpu_ms = now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	const char *search = stats_env("NS_BENCH_SEARCH", STATS_SEARCH);
	const char *filter = stats_env("NS_BENCH_FILTER", STATS_FILTER);
	const char *task_keys = stats_env("NS_BENCH_TASK_KEYS", "");
	struct ns_tui_step_stats st;
	double redraw_us = 0;
	struct rusage ru;
	uint64_t nr;
	int ret;

	if (!trace)
		return -EINVAL;
	if (!frame && !waited && n > 1)
		waited = buffers_found(opts, paths, n, &trace, 1, err, err_len);
	if (frame || waited) {
		ns_trace_close(trace);
		return frame ? frame : waited;
	}
	nr = ns_trace_nr_events(trace);
	getrusage(RUSAGE_SELF, &ru);
	printf("events %llu\n", (unsigned long long)nr);
	printf("files %d\n", ns_trace_nr_files(trace));
	printf("streams %d\n", ns_trace_nr_streams(trace));
	printf("index_bytes %zu\n", ns_trace_index_bytes(trace));
	printf("bytes_per_event %.1f\n", nr ? (double)ns_trace_index_bytes(trace) / nr : 0.0);
	printf("index_rounds %d\n", ns_trace_index_rounds(trace));
	printf("load_ms %.0f\n", load_ms);
	printf("first_frame_ms %.0f\n", first_frame_ms);
	printf("load_cpu_ms %.0f\n", load_cpu_ms);
	printf("load_peak_rss_kib %ld\n", ru.ru_maxrss);
	ret = ns_tui_time_frames(trace, 200, 50, 100, &redraw_us, err, err_len);
	if (!ret)
		printf("redraw_us %.0f\n", redraw_us);
	if (!ret)
		ret = ns_tui_time_steps(trace, 200, 50, NULL, &st, err, err_len);
	if (!ret) {
		printf("step_levels %d\n", st.step_levels);
		printf("step_redraws %d\n", st.step_redraws);
		printf("step_redraw_us_max %.0f\n", st.step_us_max);
		printf("step_redraw_us_max_raw %.0f\n", st.step_us_raw_max);
		printf("step_redraw_us_median %.0f\n", st.step_us_median);
		printf("list_pages %d\n", st.list_pages);
		printf("list_page_us_max %.0f\n", st.page_us_max);
		printf("list_page_us_max_raw %.0f\n", st.page_us_raw_max);
		printf("list_page_us_median %.0f\n", st.page_us_median);
	}
	fflush(stdout);		/* the figures so far, should a later one fail */
	if (!ret && *task_keys) {
		uint64_t reloads = ns_trace_chunk_reloads(trace);

		ret = ns_tui_time_steps(trace, 200, 50, task_keys, &st, err, err_len);
		if (!ret) {
			printf("task_step_rows %d\n", st.task_rows);
			printf("task_step_redraw_us_max %.0f\n", st.step_us_max);
			printf("task_step_redraw_us_median %.0f\n", st.step_us_median);
			printf("task_step_chunk_reloads %llu\n",
			       (unsigned long long)(ns_trace_chunk_reloads(trace) - reloads));
		}
	}
	if (!ret) {
		/*
		 * the task timelines, as the marker bar builds them; past their
		 * share of memory they are not built, which is said, not fatal
		 */
		char why[256] = "";
		double t0 = now_ms(CLOCK_MONOTONIC);
		struct ns_sched *s = ns_sched_build(trace, NULL, why, sizeof(why));

		if (s) {
			printf("sched_timelines_ms %.0f\n", now_ms(CLOCK_MONOTONIC) - t0);
			printf("sched_timelines_bytes %llu\n",
			       (unsigned long long)ns_sched_bytes(s));
			printf("sched_timelines_peak_bytes %llu\n",
			       (unsigned long long)ns_sched_peak_bytes(s));
		} else {
			printf("sched_timelines_error %s\n", why);
		}
		ns_sched_free(s);
		fflush(stdout);
	}
	if (!ret) {
		/* the statistics overlay over the whole trace, as S builds it */
		struct ns_sched_stats *sst = NULL;
		double t0 = now_ms(CLOCK_MONOTONIC);

		ret = ns_sched_stats_build(trace, NULL, 0, UINT64_MAX, &sst, err, err_len);
		if (!ret)
			printf("stats_overlay_ms %.0f\n", now_ms(CLOCK_MONOTONIC) - t0);
		ns_sched_stats_free(sst);
		sst = NULL;
		/*
		 * and over the trace's second half, the dearest half: a range is
		 * read from the trace's start, to know each task's state at t0
		 */
		if (!ret) {
			uint64_t a = ns_trace_first_ns(trace), b = ns_trace_last_ns(trace);

			t0 = now_ms(CLOCK_MONOTONIC);
			ret = ns_sched_stats_build(trace, NULL, a + (b - a) / 2, b + 1, &sst, err,
						   err_len);
			if (!ret)
				printf("stats_overlay_half_ms %.0f\n", now_ms(CLOCK_MONOTONIC) - t0);
			ns_sched_stats_free(sst);
		}
	}
	fflush(stdout);
	if (!ret && *search)
		ret = stats_search(trace, search, NS_SEARCH_INFO, "search", err, err_len);
	fflush(stdout);
	if (!ret && *search)
		ret = stats_search(trace, search, NS_SEARCH_ANY, "search_line", err, err_len);
	fflush(stdout);
	if (!ret && *filter)
		ret = stats_filter(trace, filter, err, err_len);
	if (!ret) {
		/* the whole run's peak: load, redraws, search and filter */
		getrusage(RUSAGE_SELF, &ru);
		printf("peak_rss_kib %ld\n", ru.ru_maxrss);
	}
	ns_trace_close(trace);
	return ret;
}

/*
 * The rows --export prints: those the list shows (vis). Where stream
 * filters hide some of the list's rows, names is the list without them:
 * a row it shows and vis hides is one report prints and the stream filter
 * cuts, whose sched event still names tasks (NS_EXPORT_CUT).
 */
struct export_rows {
	struct ns_visible *vis, *names;	/* NULL: every row */
	bool cut;			/* stream filters hide rows: names says which */
};

static int shown_row(const void *arg, uint64_t row)
{
	const struct export_rows *er = arg;

	if (ns_visible_row(er->vis, row))
		return NS_EXPORT_SHOWN;
	return er->cut && ns_visible_row(er->names, row) ? NS_EXPORT_CUT : NS_EXPORT_HIDDEN;
}

static void export_rows_free(struct export_rows *er)
{
	ns_visible_free(er->vis);
	ns_visible_free(er->names);
	er->vis = er->names = NULL;
	er->cut = false;
}

/* @er's passes of @filters on @trace: 0, or -1 with the reason in @err. */
static int export_rows_build(struct ns_trace *trace, const struct ns_filter_set *filters,
			     struct export_rows *er, char *err, size_t err_len)
{
	struct ns_filter_set *cut = NULL;
	struct ns_filter_entry e;
	bool streams = false;
	int i, ret;

	memset(er, 0, sizeof(*er));
	if (ns_visible_build(trace, filters, &er->vis, err, err_len))
		return -1;
	if (!ns_visible_list_filtered(er->vis))
		return 0;
	for (i = 0; i < ns_filter_set_nr_entries(filters); i++) {
		ns_filter_set_entry(filters, i, &e);
		streams |= e.kind == NS_FILTER_STREAM && (e.where & NS_FILTER_LIST);
	}
	if (!streams)
		return 0;
	cut = ns_filter_set_alloc();
	if (!cut || ns_filter_set_copy(cut, filters)) {
		ns_filter_set_free(cut);
		ns_set_nomem(err, err_len);
		export_rows_free(er);
		return -1;
	}
	for (i = ns_filter_set_nr_entries(cut) - 1; i >= 0; i--) {
		ns_filter_set_entry(cut, i, &e);
		if (e.kind == NS_FILTER_STREAM)
			ns_filter_set_remove(cut, i);
	}
	ret = ns_visible_build(trace, cut, &er->names, err, err_len);
	ns_filter_set_free(cut);
	if (ret) {
		export_rows_free(er);
		return -1;
	}
	er->cut = true;
	return 0;
}

/* --export: what the list shows, as `trace-cmd report` prints it. */
static int export_shown(struct ns_trace *trace, const struct ns_filter_set *filters, char *err,
			size_t err_len)
{
	struct export_rows er;
	int ret;

	if (export_rows_build(trace, filters, &er, err, err_len))
		return 1;
	ret = ns_trace_export_shown(trace, stdout, 0, ns_trace_nr_events(trace),
				    ns_visible_list_filtered(er.vis) ? shown_row : NULL, &er);
	if (ret)
		errno_text(err, err_len, -ret);
	export_rows_free(&er);
	return ret;
}

static int parse_size(const char *s, int *cols, int *rows)
{
	char *end;
	long c, r;

	c = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X'))
		return -EINVAL;
	s = end + 1;
	r = strtol(s, &end, 10);
	if (end == s || *end || c < 1 || r < 1 || c > 1000 || r > 1000)
		return -EINVAL;
	*cols = (int)c;
	*rows = (int)r;
	return 0;
}

#define NS_MAX_BUFFERS	64	/* --buffer options */
#define NS_MAX_FILES	64	/* -i FILE options, or FILE arguments */

/*
 * A trace named on the command line, with its --ts-offset and, with
 * several files, its own -F: as in trace-cmd report, an -F belongs to the
 * -i before it (before any -i: to the first), and -v to every -F after it.
 */
struct cmdline_file {
	const char *path;
	bool has_ts_offset;
	long long ts_offset;
	struct ns_filter_args exprs;	/* -F and -v */
	bool negated;			/* exprs holds the -v */
};

/* What the command line asks for. */
struct cmdline {
	const char *file, *keys, *snapshot;
	const char *session_file, *filters_file, *config_file;
	const char *hold_file;		/* --test-hold-index */
	int index_rounds;		/* --test-index-rounds */
	const char *record_stage;	/* --test-record-stage, for the Record screen's run */
	const char *buffers[NS_MAX_BUFFERS];	/* --buffer */
	int nr_buffers;
	struct cmdline_file files[NS_MAX_FILES];	/* -i or FILE; file is files[0].path */
	int nr_files;
	struct ns_filter_args common;	/* several files: --cpu, --pid, --task, for each */
	bool negate;			/* -v was given */
	bool named;			/* the trace was named (-i or FILE) */
	bool export, stats, no_session, check_config;
	bool cmdline_filters;		/* --cpu, --pid, --task, -F or -v */
	bool interactive;		/* the viewer, not --snapshot, --export or --stats */
	int cols, rows;			/* --snapshot */
	uint64_t index_memory;		/* --index-memory: bytes, UINT64_MAX all, 0 default */
	struct ns_filter_args fargs;
};

/* Exit statuses: 1 for a file or memory error, 2 for a command-line error. */
#define EXIT_USAGE	2
#define GO_ON		(-1)		/* not an exit status: main() goes on */

/* The kind of a filter option of the command line. */
static int filter_arg_kind(int opt)
{
	switch (opt) {
	case OPT_CPU:
		return NS_FILTER_ARG_CPUS;
	case OPT_PID:
		return NS_FILTER_ARG_PIDS;
	case OPT_TASK:
		return NS_FILTER_ARG_TASK;
	case 'F':
		return NS_FILTER_ARG_EXPR;
	}
	return NS_FILTER_ARG_NEGATE;	/* -v */
}

/* --ts-offset NS: for the -i FILE before it, as in trace-cmd report. 0 or -1. */
static int parse_ts_offset(struct cmdline *cl, const char *arg)
{
	char *end;
	long long v;

	if (!cl->nr_files) {
		fprintf(stderr, "nurseshark: --ts-offset must come after -i FILE\n");
		return -1;
	}
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (end == arg || *end || errno) {
		fprintf(stderr, "nurseshark: --ts-offset %s: want nanoseconds, e.g. -2500000000\n",
			arg);
		return -1;
	}
	cl->files[cl->nr_files - 1].has_ts_offset = true;
	cl->files[cl->nr_files - 1].ts_offset = v;
	return 0;
}

/* A filter option kept for the files too: 0 or -ENOMEM. */
static int push_file_filter(struct cmdline *cl, int opt, const char *arg)
{
	struct cmdline_file *f = &cl->files[cl->nr_files ? cl->nr_files - 1 : 0];

	if (opt != 'F' && opt != 'v')
		return ns_filter_args_push(&cl->common, filter_arg_kind(opt), arg);
	if (opt == 'v') {
		cl->negate = true;
		return 0;
	}
	/* report's -v is one flag for every -F after it, whatever file */
	if (cl->negate && !f->negated && ns_filter_args_push(&f->exprs, NS_FILTER_ARG_NEGATE, NULL))
		return -ENOMEM;
	f->negated = cl->negate;
	return ns_filter_args_push(&f->exprs, NS_FILTER_ARG_EXPR, arg);
}

/* --index-memory SIZE|all: bytes (K, M, G: binary multiples), or UINT64_MAX. 0 or -1. */
static int parse_index_memory(const char *arg, uint64_t *bytes)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!strcmp(arg, "all")) {
		*bytes = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno || arg[0] == '-')
		goto bad;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 0:
		break;
	default:
		goto bad;
	}
	if (*end && end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
		goto bad;
	if (!v || v > (UINT64_MAX >> 1) >> shift)
		goto bad;
	*bytes = (uint64_t)v << shift;
	return 0;
bad:
	fprintf(stderr, "nurseshark: --index-memory %s: want a size (8M, 512M, 2G) or all\n",
		arg);
	return -1;
}

/* Parse argv into @cl: GO_ON, or the exit status (--help, --version, an error). */
static int parse_cmdline(int argc, char **argv, struct cmdline *cl)
{
	char err[256];
	int opt;

	while ((opt = getopt_long(argc, argv, "i:hF:vs:", long_options, NULL)) != -1) {
		switch (opt) {
		case OPT_CPU:
		case OPT_PID:
		case OPT_TASK:
		case 'F':
		case 'v':
			cl->cmdline_filters = true;
			if (ns_filter_args_push(&cl->fargs, filter_arg_kind(opt), optarg) ||
			    push_file_filter(cl, opt, optarg)) {
				fprintf(stderr, "nurseshark: out of memory\n");
				return 1;
			}
			break;
		case 'i':
			if (cl->nr_files == NS_MAX_FILES) {
				fprintf(stderr, "nurseshark: over %d trace files\n", NS_MAX_FILES);
				return EXIT_USAGE;
			}
			cl->files[cl->nr_files++].path = optarg;
			break;
		case OPT_TS_OFFSET:
			if (parse_ts_offset(cl, optarg))
				return EXIT_USAGE;
			break;
		case OPT_INDEX_MEMORY:
			if (parse_index_memory(optarg, &cl->index_memory))
				return EXIT_USAGE;
			break;
		case 's':
			cl->session_file = optarg;
			break;
		case OPT_NO_SESSION:
			cl->no_session = true;
			break;
		case OPT_FILTERS:
			cl->filters_file = optarg;
			break;
		case OPT_CONFIG:
			cl->config_file = optarg;
			break;
		case OPT_CHECK_CONFIG:
			cl->check_config = true;
			break;
		case OPT_PRINT_CONFIG:
			ns_tui_print_config(stdout);
			return fflush(stdout) ? 1 : 0;
		case OPT_SNAPSHOT:
			cl->snapshot = optarg;
			break;
		case OPT_TEST_HOLD_INDEX:
			cl->hold_file = optarg;
			break;
		case OPT_TEST_INDEX_ROUNDS:
			cl->index_rounds = atoi(optarg);
			break;
		case OPT_TEST_RECORD_STAGE:
			cl->record_stage = optarg;
			break;
		case OPT_BUFFER:
			if (cl->nr_buffers == NS_MAX_BUFFERS) {
				fprintf(stderr, "nurseshark: over %d --buffer\n", NS_MAX_BUFFERS);
				return EXIT_USAGE;
			}
			cl->buffers[cl->nr_buffers++] = optarg;
			break;
		case OPT_KEYS:
			cl->keys = optarg;
			break;
		case OPT_EXPORT:
			cl->export = true;
			break;
		case OPT_STATS:
			cl->stats = true;
			break;
		case OPT_KEYS_TABLE:
			ns_tui_print_keys_table(stdout);
			return fflush(stdout) ? 1 : 0;
		case OPT_COMMANDS_TABLE:
			ns_tui_print_commands_table(stdout);
			return fflush(stdout) ? 1 : 0;
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("nurseshark %s\n", NURSESHARK_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'nurseshark --help'.\n");
			return EXIT_USAGE;
		}
	}
	if (optind < argc && cl->nr_files) {
		fprintf(stderr, "nurseshark: name the traces with -i or after the options, "
			"not both\n");
		return EXIT_USAGE;
	}
	for (; optind < argc; optind++) {
		if (cl->nr_files == NS_MAX_FILES) {
			fprintf(stderr, "nurseshark: over %d trace files\n", NS_MAX_FILES);
			return EXIT_USAGE;
		}
		cl->files[cl->nr_files++].path = argv[optind];
	}
	if (cl->nr_files)
		cl->file = cl->files[0].path;
	cl->named = cl->file != NULL;
	if (!cl->file)
		cl->file = DEFAULT_TRACE;
	if (cl->snapshot && parse_size(cl->snapshot, &cl->cols, &cl->rows)) {
		fprintf(stderr, "nurseshark: --snapshot %s: want COLSxROWS, e.g. 80x24\n",
			cl->snapshot);
		return EXIT_USAGE;
	}
	if (cl->keys && !cl->snapshot) {
		fprintf(stderr, "nurseshark: --keys needs --snapshot\n");
		return EXIT_USAGE;
	}
	if (cl->snapshot && cl->export) {
		fprintf(stderr, "nurseshark: --snapshot and --export do not go together\n");
		return EXIT_USAGE;
	}
	if (cl->keys && ns_tui_check_keys(cl->keys, err, sizeof(err))) {
		fprintf(stderr, "nurseshark: --keys: %s\n", err);
		return EXIT_USAGE;
	}
	cl->interactive = !cl->snapshot && !cl->export && !cl->stats;
	return GO_ON;
}

/* --check-config: the problems of config.ini, -s and --filters on stderr. */
static int check_config(const struct cmdline *cl, struct ns_files *files)
{
	struct ns_filter_set *fs;
	int nr;

	if (cl->filters_file) {
		fs = ns_filter_set_alloc();
		if (fs)
			ns_filters_read(fs, cl->filters_file, &files->problems);
		ns_filter_set_free(fs);
	}
	nr = ns_diag_count(&files->problems);
	ns_diag_print(&files->problems, stderr, "nurseshark: ");
	if (!nr)
		printf("%s: no problems\n", files->config.path ? files->config.path :
		       "config.ini (none: the defaults)");
	return nr ? 1 : 0;
}

/*
 * config.ini and sessions. --snapshot and --export read no file they are
 * not named and keep nothing, so that scripts, tests and `make docs` give
 * the same output whatever is in $HOME. Returns GO_ON or the exit status.
 */
static int read_files(struct cmdline *cl, struct ns_files *files,
		      const struct ns_config_schema *schema)
{
	if (cl->interactive || cl->check_config || cl->config_file)
		ns_files_read_config(files, schema, cl->config_file);
	if (cl->check_config)	/* the viewer finds these itself when it binds the keys */
		ns_tui_config_check(&files->config, &files->problems);
	if (cl->session_file && ns_files_read_session(files, cl->session_file) &&
	    !cl->check_config) {
		ns_diag_print(&files->problems, stderr, "nurseshark: ");
		return 1;
	}
	if (cl->check_config)
		return check_config(cl, files);
	/* a session names its trace: that one, unless another is named */
	if (files->have_session && !cl->named && files->session.trace.path)
		cl->file = files->session.trace.path;
	/* its files ([files]: several, or offsets), the same way */
	if (files->have_session && !cl->named && files->session.nr_files) {
		const struct ns_session *s = &files->session;

		for (int k = 0; k < s->nr_files && k < NS_MAX_FILES; k++) {
			cl->files[k].path = s->files[k].id.path;
			cl->files[k].has_ts_offset = s->files[k].has_ts_offset;
			cl->files[k].ts_offset = s->files[k].ts_offset;
			cl->nr_files = k + 1;
		}
		cl->file = cl->files[0].path;
	}
	return GO_ON;
}

/*
 * The offsets of a session ([files], saved from --ts-offset or :offset) for
 * the files the command line gives none, file by file in order, when its
 * files are the ones open. Returns whether one was taken.
 */
static bool session_offsets(struct cmdline *cl, const struct ns_files *files)
{
	const struct ns_session *s = &files->session;
	bool taken = false;
	int k;

	if (!files->have_session || !cl->nr_files || s->nr_files != cl->nr_files)
		return false;
	for (k = 0; k < s->nr_files; k++) {
		char *abs = realpath(cl->files[k].path, NULL);
		bool same = abs && !strcmp(abs, s->files[k].id.path);

		free(abs);
		if (!same)
			return false;
	}
	for (k = 0; k < s->nr_files; k++) {
		if (cl->files[k].has_ts_offset || !s->files[k].has_ts_offset)
			continue;
		cl->files[k].has_ts_offset = true;
		cl->files[k].ts_offset = s->files[k].ts_offset;
		taken = true;
	}
	return taken;
}

/* --test-hold-index FILE: indexing waits while FILE is not there. */
static bool hold_file_absent(void *file)
{
	return access(file, F_OK) != 0;
}

/*
 * How the command line's file @k is opened (k 0 when it names one FILE
 * without -i): its --ts-offset, the --buffer names (several files: those
 * each has), --index-memory and --test-hold-index; @exit_on_crash as
 * struct ns_trace_open_opts says (no screen yet: a damaged file may end us).
 */
static struct ns_trace_open_opts open_opts(const struct cmdline *cl, int k, bool exit_on_crash)
{
	return (struct ns_trace_open_opts){
		.hold_index = cl->hold_file ? hold_file_absent : NULL,
		.hold_arg = (void *)cl->hold_file,
		.buffers = cl->buffers,
		.nr_buffers = cl->nr_buffers,
		.buffers_if_present = cl->nr_files > 1,
		.has_ts_offset = k < cl->nr_files && cl->files[k].has_ts_offset,
		.ts_offset = k < cl->nr_files ? cl->files[k].ts_offset : 0,
		.exit_on_crash = exit_on_crash,
		.index_memory = cl->index_memory,
		.index_rounds = cl->index_rounds,
	};
}

/* buffers_found() for the files of the command line, opened as one @trace */
static int several_buffers(const struct cmdline *cl, struct ns_trace *trace, char *err,
			   size_t err_len)
{
	const struct ns_trace_open_opts opts = open_opts(cl, 0, false);
	const char *paths[NS_MAX_FILES];

	if (cl->nr_files < 2)
		return 0;
	for (int k = 0; k < cl->nr_files; k++)
		paths[k] = cl->files[k].path;
	return buffers_found(&opts, paths, cl->nr_files, &trace, 1, err, err_len);
}

/*
 * Open the trace; the viewer shows it while it is indexed (see loading.c).
 * Returns GO_ON with *@trace, or the exit status with the reason in @err
 * (none: quit on the loading screen).
 */
static int open_trace(const struct cmdline *cl, struct ns_trace **trace, bool first, char *err,
		      size_t err_len)
{
	/* the first open, before the screen: a damaged file may end us */
	struct ns_trace_open_opts opts = open_opts(cl, 0, first);
	int ret;

	if (cl->nr_files > 1) {
		struct ns_trace_open_opts each[NS_MAX_FILES];
		const char *paths[NS_MAX_FILES];

		for (int k = 0; k < cl->nr_files; k++) {
			each[k] = open_opts(cl, k, first);
			paths[k] = cl->files[k].path;
		}
		*trace = ns_trace_open_files_async(paths, each, cl->nr_files, err, err_len);
	} else {
		*trace = ns_trace_open_async_opts(cl->file, &opts, err, err_len);
	}
	if (!*trace)
		return 1;
	if (!cl->interactive) {
		if (!ns_trace_wait(*trace, err, err_len) && !several_buffers(cl, *trace, err, err_len))
			return GO_ON;
		ns_trace_close(*trace);
		*trace = NULL;
		return 1;
	}
	ret = ns_tui_run_loading(*trace, err, err_len);
	if (ret == 0 && (ns_trace_wait(*trace, err, err_len) ||
			 several_buffers(cl, *trace, err, err_len)))
		ret = -EIO;
	if (ret > 0)
		err[0] = '\0';		/* quit while loading */
	return ret ? (ret < 0 ? 1 : 0) : GO_ON;
}

/*
 * A session that read some buffers of the file only (--buffer) brings that
 * choice back when the command line makes none: the trace is opened again
 * with them (the session only comes to be known once the trace is open).
 * What changed in the file's buffers is said when the session is applied.
 */
static int session_buffers(struct cmdline *cl, struct ns_files *files, struct ns_trace **trace,
			   char *err, size_t err_len)
{
	int n;

	if (!files->have_session || cl->nr_buffers)
		return GO_ON;
	n = ns_session_buffer_choice(&files->session, *trace, NULL, NULL, cl->buffers,
				     NS_MAX_BUFFERS);
	if (n <= 0)
		return GO_ON;
	ns_trace_close(*trace);
	*trace = NULL;
	cl->nr_buffers = n;
	return open_trace(cl, trace, false, err, err_len);
}

/*
 * The filters the viewer starts with: --filters, then the command line's,
 * else the session's. Returns GO_ON with *@filters, or the exit status with
 * the reason in @err (empty: in the problems of @files).
 */
static int start_filters(struct cmdline *cl, struct ns_files *files, struct ns_trace *trace,
			 struct ns_filter_set **filters, char *err, size_t err_len)
{
	*filters = ns_filter_set_alloc();
	if (!*filters || ns_filter_set_hide_empty_cpus(*filters, trace))
		goto nomem;
	if (cl->filters_file && ns_files_read_filters(files, trace, *filters, cl->filters_file))
		return 1;
	/* --export has no graph: --pid and --task narrow its list instead */
	if (ns_filter_args_apply(&cl->fargs, trace, *filters, !cl->export, err, err_len))
		return EXIT_USAGE;
	/* the command line's filters (--filters, -F, --cpu...) win over a session's */
	if (ns_files_restore_filters(files, trace, *filters,
				     cl->cmdline_filters || cl->filters_file))
		goto nomem;
	return GO_ON;
nomem:
	ns_set_nomem(err, err_len);
	return 1;
}

/*
 * --export of several files, as `trace-cmd report -i A -i B`: each is
 * opened and indexed in turn (its CPUs in parallel), gets the command
 * line's filters, and their rows are merged. Returns 0, or the
 * exit status with the reason in @err and the file it is about in *@about.
 */
static int export_files(struct cmdline *cl, struct ns_files *files, char *err, size_t err_len,
			const char **about)
{
	struct ns_trace *traces[NS_MAX_FILES] = { 0 };
	struct ns_filter_set *fs[NS_MAX_FILES] = { 0 };
	struct export_rows er[NS_MAX_FILES] = { 0 };
	const void *args[NS_MAX_FILES];
	bool filtered = false;
	struct ns_trace_open_opts opts[NS_MAX_FILES];
	const char *paths[NS_MAX_FILES];
	int k, status = 0, ret;

	for (k = 0; k < cl->nr_files; k++) {
		opts[k] = open_opts(cl, k, true);	/* --export: no screen */
		paths[k] = cl->files[k].path;
	}
	/* indexed all at once */
	if (ns_trace_open_each(paths, opts, cl->nr_files, traces, &k, err, err_len)) {
		*about = cl->files[k].path;
		status = 1;
	}
	for (k = 0; k < cl->nr_files && !status; k++) {
		if (ns_trace_wait(traces[k], err, err_len)) {
			*about = cl->files[k].path;
			status = 1;
		}
	}
	if (!status && buffers_found(opts, paths, cl->nr_files, traces, cl->nr_files, err,
				     err_len))
		status = 1;
	for (k = 0; k < cl->nr_files && !status; k++) {
		fs[k] = ns_filter_set_alloc();
		if (!fs[k] || ns_filter_set_hide_empty_cpus(fs[k], traces[k])) {
			ns_set_nomem(err, err_len);
			status = 1;
		} else if (cl->filters_file &&
			   ns_files_read_filters(files, traces[k], fs[k], cl->filters_file)) {
			ns_diag_print(&files->problems, stderr, "nurseshark: ");
			status = 1;
		} else if (ns_filter_args_apply(&cl->common, traces[k], fs[k], 0, err, err_len) ||
			   ns_filter_args_apply(&cl->files[k].exprs, traces[k], fs[k], 0, err,
						err_len)) {
			*about = cl->files[k].path;
			status = EXIT_USAGE;
		} else if (export_rows_build(traces[k], fs[k], &er[k], err, err_len)) {
			*about = cl->files[k].path;
			status = 1;
		} else {
			filtered |= ns_visible_list_filtered(er[k].vis) != 0;
			args[k] = &er[k];
		}
	}
	if (!status) {
		ret = ns_trace_export_files(traces, cl->nr_files, stdout,
					    filtered ? shown_row : NULL, args);
		if (ret) {
			errno_text(err, err_len, -ret);
			status = 1;
		}
	}
	for (k = 0; k < cl->nr_files; k++) {
		export_rows_free(&er[k]);
		ns_filter_set_free(fs[k]);
		ns_trace_close(traces[k]);
	}
	return status;
}

/*
 * The viewer's Record screen (src/tui/record_screen.c) reaches the kernel
 * through src/record by these. When it starts a recording, the viewer
 * quits (its session saved, the terminal given back) and main() runs
 * `nurseshark record` in a child on the terminal, with its progress line
 * and Ctrl-C to stop, then replaces itself with the viewer on the new
 * file; live the same, then the viewer on the trace it was showing.
 */
enum { REC_NONE, REC_RECORD, REC_LIVE };

struct record_request {
	struct ns_record_settings settings;
	char *path;		/* record.ini, where the settings are kept; NULL: not kept */
	char save_error[512];	/* why they were not kept */
	const char *test_stage;	/* --test-record-stage STAGE:FILE, passed on */
	int start;		/* REC_* */
	char **argv;		/* main()'s, as given: the way back to this viewer */
};

static struct record_request record_rq;

static char **rec_systems(void *arg, char *err, size_t err_len)
{
	if (ns_record_check(NULL, err, err_len))
		return NULL;
	return ns_record_event_systems(err, err_len);
}

static char **rec_events(void *arg, const char *system)
{
	return ns_record_system_events(system);
}

static char **rec_clocks(void *arg, char **current)
{
	return ns_record_clocks(current);
}

static void rec_free_list(void *arg, char **list)
{
	ns_record_list_free(list);
}

static int rec_check(void *arg, const char *output, char *err, size_t err_len)
{
	return ns_record_check(output, err, err_len);
}

static void rec_remember(void *arg)
{
	struct record_request *rq = arg;

	if (rq->path && ns_record_settings_save(&rq->settings, rq->path, rq->save_error,
						 sizeof(rq->save_error)) == 0)
		rq->save_error[0] = '\0';
}

static void rec_start(void *arg, int live)
{
	((struct record_request *)arg)->start = live ? REC_LIVE : REC_RECORD;
}

static const struct ns_tui_recorder recorder = {
	.systems = rec_systems, .events = rec_events, .clocks = rec_clocks,
	.free_list = rec_free_list, .check = rec_check, .settings = &record_rq.settings,
	.remember = rec_remember, .start = rec_start, .arg = &record_rq,
};

/* The settings remembered, if any (their problems go to @d). */
static void record_settings_load(struct record_request *rq, struct ns_diag *d)
{
	char err[256];

	ns_record_settings_init(&rq->settings);
	rq->path = ns_record_settings_path(err, sizeof(err));
	if (rq->path && !access(rq->path, F_OK))
		ns_record_settings_read(&rq->settings, rq->path, d);
}

/*
 * `nurseshark record ... ` is about to open the viewer on its file: its
 * options become the Record screen's settings, so that Ctrl-R there records
 * again the same way. What cannot be kept is said, and the viewer opens.
 */
static void record_viewing(const struct ns_record_used *u, void *arg)
{
	struct record_request rq = { 0 };
	struct ns_record_settings *s = &rq.settings;
	struct ns_diag d;
	char err[512];

	ns_diag_init(&d);
	record_settings_load(&rq, &d);	/* problems: the file is replaced anyway */
	ns_diag_free(&d);
	if (!rq.path)
		return;
	snprintf(s->events, sizeof(s->events), "%s", u->events);
	s->buffer_kb = u->kb;
	snprintf(s->clock, sizeof(s->clock), "%s", u->clock);
	snprintf(s->buffers, sizeof(s->buffers), "%s", u->buffers);
	snprintf(s->command, sizeof(s->command), "%s", u->command);
	s->duration = u->duration;
	snprintf(s->output, sizeof(s->output), "%s", u->output);
	if (strlen(u->events) >= sizeof(s->events) || strlen(u->buffers) >= sizeof(s->buffers) ||
	    strlen(u->command) >= sizeof(s->command) || strlen(u->output) >= sizeof(s->output) ||
	    strlen(u->clock) >= sizeof(s->clock))
		fprintf(stderr, "nurseshark: record: the options are too long for the Record "
			"screen's settings; Ctrl-R offers the last ones\n");
	else if (ns_record_settings_save(s, rq.path, err, sizeof(err)))
		fprintf(stderr, "nurseshark: warning: the Record screen's settings were not kept: "
			"%s\n", err);
	free(rq.path);
}

/* Run /proc/self/exe with @argv on the terminal; its exit status (1 when it could not run). */
static int run_child(char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	posix_spawnattr_t attr;
	sigset_t dfl;
	int status = 0, ret;
	pid_t pid;

	/* Ctrl-C is the child's: it stops the recording, and we wait for it to finish */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGQUIT);
	ret = posix_spawnattr_init(&attr);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	if (!ret)
		ret = posix_spawn(&pid, "/proc/self/exe", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (ret) {
		fprintf(stderr, "nurseshark: cannot start %s: %s\n", argv[1], strerror(ret));
		status = 1;
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		/* as a shell says it: 130 for a child Ctrl-C ended */
		status = WIFEXITED(status) ? WEXITSTATUS(status) :
			 WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return status;
}

/* The Record screen's start, once the viewer has quit. Returns only on an error. */
static int run_record_request(struct record_request *rq)
{
	struct ns_record_settings *s = &rq->settings;
	char events[sizeof(s->events)], buffers[sizeof(s->buffers)], kb[32], duration[32];
	/* a word of events is 2 bytes at least, of buffers 2 with its blank */
	char *argv[sizeof(events) + sizeof(buffers) / 2 + 16], *save = NULL, *w;
	int n = 0, status;

	snprintf(events, sizeof(events), "%s", s->events);
	argv[n++] = "nurseshark";
	argv[n++] = rq->start == REC_LIVE ? "live" : "record";
	for (w = strtok_r(events, " \t", &save); w && n < (int)NS_ARRAY_SIZE(argv) - 16;
	     w = strtok_r(NULL, " \t", &save)) {
		argv[n++] = "-e";
		argv[n++] = w;
	}
	if (s->buffer_kb > 0) {
		snprintf(kb, sizeof(kb), "%ld", s->buffer_kb);
		argv[n++] = "-b";
		argv[n++] = kb;
	}
	if (s->clock[0]) {
		argv[n++] = "-C";
		argv[n++] = s->clock;
	}
	/* the instances' options after the top's (a -b after -B is the instance's) */
	snprintf(buffers, sizeof(buffers), "%s", s->buffers);
	for (w = strtok_r(buffers, " \t", &save); w && n < (int)NS_ARRAY_SIZE(argv) - 16;
	     w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	if (rq->start == REC_RECORD) {
		argv[n++] = "--no-view";
		argv[n++] = "-o";
		argv[n++] = s->output;
		if (s->duration > 0) {
			snprintf(duration, sizeof(duration), "%g", s->duration);
			argv[n++] = "--duration";
			argv[n++] = duration;
		}
		fprintf(stderr, "nurseshark: recording into %s; Ctrl-C stops, then the viewer "
			"opens it\n", s->output);
	}
	if (rq->test_stage) {
		argv[n++] = "--test-record-stage";
		argv[n++] = (char *)rq->test_stage;
	}
	if (s->command[0]) {
		argv[n++] = "--";
		argv[n++] = "sh";
		argv[n++] = "-c";
		argv[n++] = s->command;
	}
	argv[n] = NULL;
	status = run_child(argv);
	/* Ctrl-C is one way to end live, as q is */
	if (rq->start == REC_LIVE && status == 128 + SIGINT)
		status = 0;
	if (rq->start == REC_RECORD && !status) {
		execl("/proc/self/exe", "nurseshark", "--", s->output, (char *)NULL);
		fprintf(stderr, "nurseshark: cannot start the viewer: %s\n", strerror(errno));
		return 1;
	}
	if (status && isatty(STDIN_FILENO)) {
		int c;

		/* stopped before it started (it said so above, and put the state back) */
		if (status == 128 + SIGINT)
			fprintf(stderr, "nurseshark: nothing recorded; Enter goes back to the "
				"viewer\n");
		else
			fprintf(stderr, "nurseshark: %s failed (above); Enter goes back to the "
				"viewer\n", argv[1]);
		while ((c = getchar()) != EOF && c != '\n')
			;
	}
	execv("/proc/self/exe", rq->argv);
	fprintf(stderr, "nurseshark: cannot start the viewer again: %s\n", strerror(errno));
	return 1;
}

/*
 * :open, :append and :offset (src/tui/commands.c): the files the viewer
 * starts again on once it has quit, each with its --ts-offset, and the
 * options that say how it runs (--no-session, --config). The filters are
 * not carried over: a file's session brings its own back.
 */
struct reopen_request {
	bool want;
	int nr;
	char *paths[NS_MAX_FILES];
	bool has_ts_offset[NS_MAX_FILES];
	long long ts_offset[NS_MAX_FILES];
	const struct cmdline *cl;
};

static struct reopen_request reopen_rq;

static void reopen_init(struct reopen_request *rq, const struct cmdline *cl)
{
	int k;

	rq->cl = cl;
	rq->nr = cl->nr_files ? cl->nr_files : 1;
	for (k = 0; k < rq->nr; k++) {
		rq->paths[k] = strdup(cl->nr_files ? cl->files[k].path : cl->file);
		rq->has_ts_offset[k] = cl->nr_files && cl->files[k].has_ts_offset;
		rq->ts_offset[k] = cl->nr_files ? cl->files[k].ts_offset : 0;
	}
}

static void reopen_free(struct reopen_request *rq)
{
	for (int k = 0; k < NS_MAX_FILES; k++) {
		free(rq->paths[k]);
		rq->paths[k] = NULL;
	}
}

static int reopen_open(void *arg, const char *path, bool append, char *err, size_t err_len)
{
	struct reopen_request *rq = arg;
	char *copy;
	int k;

	if (access(path, R_OK)) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (append && rq->nr == NS_MAX_FILES) {
		snprintf(err, err_len, "append: over %d trace files", NS_MAX_FILES);
		return -1;
	}
	copy = strdup(path);
	if (!copy) {
		ns_set_nomem(err, err_len);
		return -1;
	}
	if (!append) {
		for (k = 0; k < rq->nr; k++) {
			free(rq->paths[k]);
			rq->paths[k] = NULL;
		}
		rq->nr = 0;
	}
	rq->paths[rq->nr] = copy;
	rq->has_ts_offset[rq->nr] = false;
	rq->ts_offset[rq->nr++] = 0;
	rq->want = true;
	return 0;
}

static int reopen_offset(void *arg, int file, long long ns, char *err, size_t err_len)
{
	struct reopen_request *rq = arg;

	if (file < 0 || file >= rq->nr || !rq->paths[file]) {
		snprintf(err, err_len, "offset: no such file");
		return -1;
	}
	rq->has_ts_offset[file] = true;
	rq->ts_offset[file] = ns;
	rq->want = true;
	return 0;
}

static const struct ns_tui_opener opener = {
	.open = reopen_open, .offset = reopen_offset, .arg = &reopen_rq,
};

/* The viewer again on the files asked. Returns only on an error. */
static int run_reopen_request(struct reopen_request *rq)
{
	char *argv[6 + 4 * NS_MAX_FILES + 1], offsets[NS_MAX_FILES][32];
	int n = 0, k;

	argv[n++] = "nurseshark";
	if (rq->cl->no_session)
		argv[n++] = "--no-session";
	if (rq->cl->config_file) {
		argv[n++] = "--config";
		argv[n++] = (char *)rq->cl->config_file;
	}
	for (k = 0; k < rq->nr; k++) {
		argv[n++] = "-i";
		argv[n++] = rq->paths[k];
		if (rq->has_ts_offset[k]) {
			snprintf(offsets[k], sizeof(offsets[k]), "%lld", rq->ts_offset[k]);
			argv[n++] = "--ts-offset";
			argv[n++] = offsets[k];
		}
	}
	argv[n] = NULL;
	execv("/proc/self/exe", argv);
	fprintf(stderr, "nurseshark: cannot start the viewer again: %s\n", strerror(errno));
	return 1;
}

/* The viewer, --snapshot or --export, with what main() set up: 0 or a negative errno. */
static int show(const struct cmdline *cl, struct ns_files *files, struct ns_trace *trace,
		struct ns_filter_set *filters, char *err, size_t err_len)
{
	struct ns_tui_setup setup = {
		.filters = filters,
		.config = &files->config,
		.session = files->have_session ? &files->session : NULL,
		.session_name = files->session_name,
		.trace_id = &files->trace_id,
		.session_key = files->session_key,
		.fresh_filters = files->fresh,
		.problems = &files->problems,
	};

	if (files->auto_path) {
		setup.at_exit = ns_files_at_exit;
		setup.at_exit_arg = files;
	}
	if (cl->interactive) {
		record_settings_load(&record_rq, &files->problems);
		setup.recorder = &recorder;
		reopen_init(&reopen_rq, cl);
		setup.opener = &opener;
	}
	if (cl->export)
		return export_shown(trace, filters, err, err_len);
	if (cl->snapshot)
		return ns_tui_snapshot_setup(trace, &setup, cl->cols, cl->rows, cl->keys, stdout,
					     err, err_len);
	return ns_tui_run_setup(trace, &setup, err, err_len);
}

/*
 * nurseshark live on the screen: src/record records into memory and hands
 * the recording here; each refresh of the screen is the recording so far
 * written as a trace.dat into live's own directory and opened as any trace.
 * At most a few are open at once (the one shown, the next); each file goes
 * when the screen lets its trace go.
 */
#define LIVE_SLOTS 3

struct live_view {
	struct ns_record_live *rec;
	struct ns_trace *open[LIVE_SLOTS];
	unsigned seq;
};

/* The recording so far as a trace.dat of our own at @path (created here). */
static int live_write(struct live_view *lv, const char *path, bool quick, char *err,
		      size_t err_len)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0) {
		snprintf(err, err_len, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	if (ns_record_live_write(lv->rec, fd, quick, err, err_len)) {
		unlink(path);
		return -1;
	}
	return 0;
}

static struct ns_trace *live_refresh(void *arg, char *err, size_t err_len)
{
	const struct ns_trace_open_opts opts = { .trusted = true };
	struct live_view *lv = arg;
	struct ns_trace *trace;
	char path[4096];
	int slot;

	for (slot = 0; slot < LIVE_SLOTS && lv->open[slot]; slot++)
		;
	if (slot == LIVE_SLOTS) {
		snprintf(err, err_len, "too many snapshots open");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/view-%u.dat", ns_record_live_dir(lv->rec), lv->seq++);
	if (live_write(lv, path, true, err, err_len))
		return NULL;
	trace = ns_trace_open_async_opts(path, &opts, err, err_len);
	if (trace && ns_trace_wait(trace, err, err_len)) {
		ns_trace_close(trace);
		trace = NULL;
	}
	if (!trace) {
		unlink(path);
		return NULL;
	}
	lv->open[slot] = trace;
	return trace;
}

static void live_release(void *arg, struct ns_trace *trace)
{
	struct live_view *lv = arg;
	char *path = strdup(ns_trace_path(trace));

	for (int i = 0; i < LIVE_SLOTS; i++)
		if (lv->open[i] == trace)
			lv->open[i] = NULL;
	ns_trace_close(trace);
	if (path)
		unlink(path);
	free(path);
}

/*
 * "123456" below a million, then "1.23M": the status line's right half
 * (40 columns at 80) holds "PAUSED 8.01M ev 1.00M held 999999 lost".
 */
static void live_count(char *buf, size_t len, unsigned long long n)
{
	if (n < 1000000)
		snprintf(buf, len, "%llu", n);
	else
		snprintf(buf, len, "%.2fM", (double)n / 1e6);
}

static void live_status(void *arg, char *buf, size_t len)
{
	struct live_view *lv = arg;
	struct ns_record_live_stats st;
	char ev[32], held[32], lost[32];

	ns_record_live_stats(lv->rec, &st);
	if (st.error[0]) {
		snprintf(buf, len, "stopped: %s", st.error);
		return;
	}
	live_count(ev, sizeof(ev), st.events);
	live_count(held, sizeof(held), st.held);
	live_count(lost, sizeof(lost), st.lost);
	/* the oldest were let go (--keep): say how many are held of the read */
	if (st.trimmed)
		snprintf(buf, len, "%s ev %s held %s lost", ev, held, lost);
	else
		snprintf(buf, len, "%s ev %s lost", ev, lost);
}

/* :save FILE: a new snapshot, saved as a new file by the rules of savefile.c. */
static int live_save(void *arg, const char *path, char *err, size_t err_len)
{
	struct live_view *lv = arg;
	char tmp[4096];
	struct stat st;
	char *data = NULL;
	int fd, ret;

	snprintf(tmp, sizeof(tmp), "%s/save-%u.dat", ns_record_live_dir(lv->rec), lv->seq++);
	if (live_write(lv, tmp, false, err, err_len))
		return -EIO;
	fd = open(tmp, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 || fstat(fd, &st) ? -errno : 0;
	if (!ret) {
		data = malloc(st.st_size ? (size_t)st.st_size : 1);
		if (!data)
			ret = -ENOMEM;
	}
	for (off_t done = 0; !ret && done < st.st_size;) {
		ssize_t n = read(fd, data + done, (size_t)(st.st_size - done));

		if (n <= 0)
			ret = n < 0 ? -errno : -EIO;
		done += n > 0 ? n : 0;
	}
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	if (ret)
		errno_text(err, err_len, -ret);
	else
		ret = ns_savefile_write(path, data, (size_t)st.st_size, NULL, err, err_len);
	free(data);
	return ret;
}

/* The screen of nurseshark live: config.ini's keys and colours, no session. */
/*
 * live's filter probe: the reader threads forbid fork(), so an expression
 * is tried in /proc/self/exe started afresh (NURSESHARK_PROBE_FILTER, see
 * main()), against the running kernel's formats, which are the trace's.
 */
static int live_probe(const char *text, char *err, size_t err_len)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "nurseshark", NULL }, msg[512], *env_text = NULL;
	char **env = NULL;
	ssize_t n, got = 0;
	int fds[2], status, ret, nenv = 0, i;
	pid_t pid;

	for (nenv = 0; environ[nenv]; nenv++)
		;
	env = calloc((size_t)nenv + 2, sizeof(*env));
	if (!env || asprintf(&env_text, "NURSESHARK_PROBE_FILTER=%s", text) < 0) {
		free(env);
		ns_set_nomem(err, err_len);
		return -EINVAL;
	}
	for (i = 0; i < nenv; i++)
		env[i] = environ[i];
	env[i] = env_text;
	if (pipe(fds)) {
		free(env);
		free(env_text);
		snprintf(err, err_len, "cannot try the filter: %s", strerror(errno));
		return -EINVAL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	ret = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	free(env);
	free(env_text);
	if (ret) {
		close(fds[0]);
		snprintf(err, err_len, "cannot try the filter: %s", strerror(ret));
		return -EINVAL;
	}
	while ((size_t)got < sizeof(msg) - 1 &&
	       ((n = read(fds[0], msg + got, sizeof(msg) - 1 - got)) > 0 || (n < 0 && errno == EINTR)))
		got += n > 0 ? n : 0;
	msg[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -EINVAL;
	if (WIFSIGNALED(status)) {
		snprintf(err, err_len, "libtraceevent's filter parser crashes on it "
			 "(an operand missing?)");
		return -EFAULT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, err_len, "%s", got ? msg : "cannot parse the filter");
		return -EINVAL;
	}
	return 0;
}

/* The child of live_probe(): the verdict on $NURSESHARK_PROBE_FILTER. */
static int probe_filter_main(const char *text)
{
	char err[512] = "";

	if (ns_trace_exprs_probe_local(text, err, sizeof(err))) {
		fputs(err, stdout);
		return 1;
	}
	return 0;
}

static int live_run(void *arg, struct ns_record_live *rec, char *err, size_t err_len)
{
	struct live_view lv = { .rec = rec };
	const struct ns_tui_live live = {
		.newer = live_refresh, .release = live_release, .status = live_status,
		.save = live_save, .arg = &lv,
	};
	struct ns_config_schema schema;
	struct ns_filter_set *filters;
	struct ns_trace *trace;
	struct ns_files files;
	int ret = -1;

	setlocale(LC_ALL, "");
	ns_tui_config_schema(&schema);
	if (ns_files_init(&files, &schema)) {
		ns_set_nomem(err, err_len);
		return -1;
	}
	ns_files_read_config(&files, &schema, NULL);
	filters = ns_filter_set_alloc();
	trace = filters ? live_refresh(&lv, err, err_len) : NULL;
	if (!filters && !err[0])
		ns_set_nomem(err, err_len);
	if (trace) {
		struct ns_tui_setup setup = {
			.filters = filters,
			.config = &files.config,
			.problems = &files.problems,
			.live = &live,
		};

		ret = ns_tui_run_setup(trace, &setup, err, err_len) ? -1 : 0;
		ns_tui_end();
	}
	for (int i = 0; i < LIVE_SLOTS; i++)
		if (lv.open[i])
			live_release(&lv, lv.open[i]);
	ns_filter_set_free(filters);
	ns_files_free(&files);
	return ret;
}

int main(int argc, char **argv)
{
	const struct ns_record_live_ui live_ui = { .run = live_run };
	struct cmdline cl = { 0 };
	struct ns_config_schema schema;
	struct ns_files files;
	bool have_files = false, problems = false;
	struct ns_filter_set *filters = NULL;
	struct ns_trace *trace = NULL;
	const char *about = NULL;	/* the file an error is about */
	char err[768] = "";
	int status, ret;

	ns_memory_setup();
	if (getenv("NURSESHARK_PROBE_FILTER"))	/* live_probe()'s child */
		return probe_filter_main(getenv("NURSESHARK_PROBE_FILTER"));
	if (argc > 1 && !strcmp(argv[1], "record"))
		return ns_record_main(argc - 1, argv + 1, record_viewing, NULL);
	if (argc > 1 && !strcmp(argv[1], "live")) {
		ns_trace_exprs_set_prober(live_probe);
		return ns_record_live_main(argc - 1, argv + 1, &live_ui);
	}
	main_start_ms = now_ms(CLOCK_MONOTONIC);
	setlocale(LC_ALL, "");
	if (ns_sched_summary_wanted(argc, argv))	/* reads its own options */
		return ns_sched_summary_main(argc, argv);
	argv[0] = "nurseshark";	/* getopt's messages name the program, not its path */
	/* the way back to this viewer after the Record screen's live (getopt permutes argv) */
	record_rq.argv = calloc((size_t)argc + 1, sizeof(char *));
	if (record_rq.argv)
		memcpy(record_rq.argv, argv, sizeof(char *) * (size_t)argc);
	ns_filter_args_init(&cl.fargs);
	status = parse_cmdline(argc, argv, &cl);
	if (status != GO_ON)
		goto out;
	record_rq.test_stage = cl.record_stage;
	ns_tui_config_schema(&schema);
	if (ns_files_init(&files, &schema)) {
		ns_set_nomem(err, sizeof(err));
		status = 1;
		goto out;
	}
	have_files = true;
	status = read_files(&cl, &files, &schema);
	if (status != GO_ON)
		goto out;
	if (cl.nr_files > 1 && cl.export) {
		status = export_files(&cl, &files, err, sizeof(err), &about);
		goto out;
	}
	if (cl.stats) {
		struct ns_trace_open_opts opts[NS_MAX_FILES];
		const char *paths[NS_MAX_FILES] = { cl.file };
		int n = cl.nr_files ? cl.nr_files : 1;

		for (int k = 0; k < n; k++) {
			opts[k] = open_opts(&cl, k, true);	/* as the viewer's first open */
			if (cl.nr_files)
				paths[k] = cl.files[k].path;
		}
		ret = print_stats(paths, opts, n, err, sizeof(err));
		status = ret ? 1 : 0;
		goto out_file;
	}
	if (cl.nr_files > 1) {
		/* several files: their session first, for its offsets */
		const char *paths[NS_MAX_FILES];

		for (int k = 0; k < cl.nr_files; k++)
			paths[k] = cl.files[k].path;
		ret = ns_files_traces(&files, paths, cl.nr_files, cl.interactive &&
				      !cl.no_session && !cl.session_file &&
				      files.config.session_restore,
				      cl.interactive && !cl.no_session && files.config.session_save);
		if (ret)
			ns_diag_add(&files.problems, cl.file, 0, "%s: the session is not kept",
				    strerror(-ret));
		session_offsets(&cl, &files);
	}
	status = open_trace(&cl, &trace, true, err, sizeof(err));
	if (status != GO_ON)
		goto out_file;
	if (cl.nr_files < 2) {
		ret = ns_files_trace(&files, cl.file, cl.interactive && !cl.no_session &&
				     !cl.session_file && files.config.session_restore,
				     cl.interactive && !cl.no_session && files.config.session_save);
		if (ret)
			ns_diag_add(&files.problems, cl.file, 0, "%s: the session is not kept",
				    strerror(-ret));
		/* one file with an offset in its session: opened again with it */
		if (!cl.nr_files) {
			cl.files[0].path = cl.file;
			cl.nr_files = 1;
		}
		if (session_offsets(&cl, &files)) {
			ns_trace_close(trace);
			trace = NULL;
			status = open_trace(&cl, &trace, false, err, sizeof(err));
			if (status != GO_ON)
				goto out_file;
		}
		status = session_buffers(&cl, &files, &trace, err, sizeof(err));
		if (status != GO_ON)
			goto out_file;
	}
	status = start_filters(&cl, &files, trace, &filters, err, sizeof(err));
	if (status == EXIT_USAGE)
		goto out;		/* the message names its option */
	problems = status == 1 && !err[0];
	if (status != GO_ON)
		goto out;
	ret = show(&cl, &files, trace, filters, err, sizeof(err));
	status = ret ? 1 : 0;
	if (ret)
		goto out_file;
	err[0] = '\0';
	goto out;
out_file:
	/* the file's name before the reason, as for every error about the trace */
	about = cl.nr_files > 1 ? NULL : cl.file;	/* several: the reason names it */
out:
	ns_tui_end();		/* the terminal back before any message */
	if (problems)
		ns_diag_print(&files.problems, stderr, "nurseshark: ");
	else if (err[0]) {
		nomem_names_limit(err, sizeof(err));
		fprintf(stderr, "nurseshark: %s%s%s\n", about ? about : "", about ? ": " : "", err);
	}
	/* what became of the session, in a word */
	if (have_files && files.save_failed)
		fprintf(stderr, "nurseshark: warning: the session was not saved: %s\n",
			files.save_error);
	else if (have_files && cl.interactive && status == 0 && files.state_error[0])
		fprintf(stderr, "nurseshark: warning: %s\n", files.state_error);
	ns_filter_set_free(filters);
	ns_filter_args_free(&cl.fargs);
	ns_filter_args_free(&cl.common);
	for (int k = 0; k < NS_MAX_FILES; k++)
		ns_filter_args_free(&cl.files[k].exprs);
	ns_trace_close(trace);
	if (have_files)
		ns_files_free(&files);
	if (record_rq.save_error[0])
		fprintf(stderr, "nurseshark: warning: the Record screen's settings were not kept: "
			"%s\n", record_rq.save_error);
	if (status == 0 && record_rq.start && record_rq.argv)
		status = run_record_request(&record_rq);
	else if (status == 0 && reopen_rq.want)
		status = run_reopen_request(&reopen_rq);
	reopen_free(&reopen_rq);
	free(record_rq.argv);
	free(record_rq.path);
	return status;
}
