// SPDX-License-Identifier: GPL-2.0-only
/*
 * nurseshark: the command line. Parses the options, opens the trace (so a
 * bad file is one line on stderr and the terminal is never touched), then
 * hands it to one of: the interactive viewer, --snapshot (the same viewer
 * printed as text, no terminal), or --export (`trace-cmd report` text).
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nurseshark/trace.h"
#include "nurseshark/tui.h"

#ifndef NURSESHARK_VERSION
#define NURSESHARK_VERSION "0.1"
#endif

#define DEFAULT_TRACE "trace.dat"

enum {
	OPT_SNAPSHOT = 256,
	OPT_KEYS,
	OPT_EXPORT,
	OPT_KEYS_TABLE,
	OPT_VERSION,
	OPT_STATS,
};

static const struct option long_options[] = {
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "export", no_argument, NULL, OPT_EXPORT },
	{ "keys-table", no_argument, NULL, OPT_KEYS_TABLE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: nurseshark [-i FILE | FILE]\n"
		"       nurseshark --snapshot COLSxROWS [--keys KEYS] [-i FILE | FILE]\n"
		"       nurseshark --export [-i FILE | FILE]\n"
		"       nurseshark --stats [-i FILE | FILE]\n"
		"\n"
		"A terminal viewer for trace-cmd's trace.dat files (default ./%s).\n"
		"\n"
		"  -i FILE               the trace to read, as in trace-cmd report\n"
		"  --snapshot COLSxROWS  print the screen as text after replaying --keys;\n"
		"                        no terminal needed\n"
		"  --keys KEYS           keys for --snapshot: characters, and <Tab> <Enter>\n"
		"                        <Esc> <Space> <Up> <Down> <Left> <Right> <S-Left>\n"
		"                        <PageUp> <PageDown> <Home> <End> <F1> <C-x> <lt>,\n"
		"                        <Click:X,Y> <WheelUp:X,Y> <Resize:COLSxROWS> ...\n"
		"  --export              print the events as `trace-cmd report` does\n"
		"  --keys-table          print the key bindings as man page source\n"
		"  --stats               load, time 100 redraws of the whole trace off screen,\n"
		"                        print the figures (for make bench)\n"
		"  -h, --help            this help\n"
		"  --version             the version\n"
		"\n"
		"In the viewer, ? or F1 lists every key; q quits.\n", DEFAULT_TRACE);
}

static double now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --stats: the figures `make bench` quotes, one "name value" per line. */
static int print_stats(const char *file, char *err, size_t err_len)
{
	double wall0 = now_ms(CLOCK_MONOTONIC), cpu0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
	struct ns_trace *trace = ns_trace_open(file, err, err_len);
	double load_ms = now_ms(CLOCK_MONOTONIC) - wall0;
	double load_cpu_ms = now_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	double redraw_us = 0;
	struct rusage ru;
	uint64_t n;
	int ret;

	if (!trace)
		return -EINVAL;
	n = ns_trace_nr_events(trace);
	getrusage(RUSAGE_SELF, &ru);
	printf("events %llu\n", (unsigned long long)n);
	printf("index_bytes %zu\n", ns_trace_index_bytes(trace));
	printf("bytes_per_event %.1f\n", n ? (double)ns_trace_index_bytes(trace) / n : 0.0);
	printf("load_ms %.0f\n", load_ms);
	printf("load_cpu_ms %.0f\n", load_cpu_ms);
	printf("load_peak_rss_kib %ld\n", ru.ru_maxrss);
	ret = ns_tui_time_frames(trace, 200, 50, 100, &redraw_us, err, err_len);
	if (!ret)
		printf("redraw_us %.0f\n", redraw_us);
	ns_trace_close(trace);
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

int main(int argc, char **argv)
{
	const char *file = NULL, *keys = NULL, *snapshot = NULL;
	int export = 0, stats = 0, cols = 0, rows = 0, opt, ret;
	struct ns_trace *trace;
	char err[256];

	setlocale(LC_ALL, "");
	argv[0] = "nurseshark";	/* getopt's messages name the program, not its path */
	while ((opt = getopt_long(argc, argv, "i:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			file = optarg;
			break;
		case OPT_SNAPSHOT:
			snapshot = optarg;
			break;
		case OPT_KEYS:
			keys = optarg;
			break;
		case OPT_EXPORT:
			export = 1;
			break;
		case OPT_STATS:
			stats = 1;
			break;
		case OPT_KEYS_TABLE:
			ns_tui_print_keys_table(stdout);
			return fflush(stdout) ? 1 : 0;
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("nurseshark %s\n", NURSESHARK_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'nurseshark --help'.\n");
			return 2;
		}
	}
	if (optind < argc) {
		if (file || optind + 1 < argc) {
			fprintf(stderr, "nurseshark: one trace file at a time\n");
			return 2;
		}
		file = argv[optind];
	}
	if (!file)
		file = DEFAULT_TRACE;
	if (snapshot && parse_size(snapshot, &cols, &rows)) {
		fprintf(stderr, "nurseshark: --snapshot %s: want COLSxROWS, e.g. 80x24\n",
			snapshot);
		return 2;
	}
	if (keys && !snapshot) {
		fprintf(stderr, "nurseshark: --keys needs --snapshot\n");
		return 2;
	}
	if (snapshot && export) {
		fprintf(stderr, "nurseshark: --snapshot and --export do not go together\n");
		return 2;
	}
	if (keys && ns_tui_check_keys(keys, err, sizeof(err))) {
		fprintf(stderr, "nurseshark: --keys: %s\n", err);
		return 2;
	}

	if (stats) {
		ret = print_stats(file, err, sizeof(err));
		if (ret)
			fprintf(stderr, "nurseshark: %s: %s\n", file, err);
		return ret ? 1 : 0;
	}

	trace = ns_trace_open(file, err, sizeof(err));
	if (!trace) {
		fprintf(stderr, "nurseshark: %s: %s\n", file, err);
		return 1;
	}
	if (export) {
		ret = ns_trace_export(trace, stdout, 0, ns_trace_nr_events(trace));
		if (ret)
			snprintf(err, sizeof(err), "%s", strerror(-ret));
	} else if (snapshot) {
		ret = ns_tui_snapshot(trace, cols, rows, keys, stdout, err, sizeof(err));
	} else {
		ret = ns_tui_run(trace, err, sizeof(err));
	}
	if (ret)
		fprintf(stderr, "nurseshark: %s: %s\n", file, err);
	ns_trace_close(trace);
	return ret ? 1 : 0;
}
