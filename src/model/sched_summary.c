// SPDX-License-Identifier: GPL-2.0-only
/*
 * `nurseshark --summary`: the scheduling statistics of a range (sched.c)
 * printed as tab-separated tables for scripts, each preceded by a line
 * "# NAME" and a header line of column names. The columns are a promise to
 * users (man/nurseshark.1, SUMMARY): new columns go at the end of a table,
 * new tables after the others. The command line of --summary is read here
 * too, so that main.c only hands it over.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/filter.h"
#include "nurseshark/model.h"
#include "nurseshark/model_sched.h"
#include "nurseshark/trace_sched.h"

/* Seconds as the list prints them, or with nanoseconds. */
static const char *fmt_s(char *buf, size_t len, uint64_t ns, int ns_digits)
{
	if (!ns_digits)
		return ns_fmt_ts(buf, len, ns);
	snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
	return buf;
}

static void put_lat_avg_max(FILE *out, const struct ns_sched_lat *l, bool with_ts, int ns_digits)
{
	char ts[48];

	if (!l->n) {
		fputs(with_ts ? "\t-\t-\t-" : "\t-\t-", out);
		return;
	}
	fprintf(out, "\t%" PRIu64 "\t%" PRIu64, l->sum_ns / l->n, l->max_ns);
	if (with_ts)
		fprintf(out, "\t%s", fmt_s(ts, sizeof(ts), l->max_ts, ns_digits));
}

static void put_lat_row(FILE *out, const char *name, const struct ns_sched_lat *l, int ns_digits)
{
	char a[48], b[48];

	if (!l->n) {
		fprintf(out, "%s\t0\t-\t-\t-\t-\t-\n", name);
		return;
	}
	fprintf(out, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%s\t%" PRIu64 "\t%s\n", name, l->n,
		l->sum_ns / l->n, l->min_ns, fmt_s(a, sizeof(a), l->min_ts, ns_digits), l->max_ns,
		fmt_s(b, sizeof(b), l->max_ts, ns_digits));
}

/* A share of the range, 0.0000 to 1.0000. */
static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

int ns_sched_summary_print(struct ns_trace *trace, const struct ns_sched_stats *st, FILE *out,
			   int ns_digits)
{
	uint64_t last = ns_trace_last_ns(trace);
	uint64_t end = st->t1 < last ? st->t1 : last;
	uint64_t span = end > st->t0 ? end - st->t0 : 0;	/* a range past the trace: 0 */
	char a[48], b[48];
	size_t i;
	int c;
	fprintf(out, "# range\nt0\tt1\tspan_ns\n%s\t%s\t%" PRIu64 "\n",
		fmt_s(a, sizeof(a), st->t0, ns_digits), fmt_s(b, sizeof(b), st->t1, ns_digits),
		span);
	fputs("# tasks\npid\tcomm\tcpu_ns\truns\trunnable_ns\tsleep_ns\tblocked_ns\twakeups\t"
	      "wakeup_avg_ns\twakeup_max_ns\twakeup_max_ts\twaking_avg_ns\twaking_max_ns\n", out);
	for (i = 0; i < st->nr_tasks; i++) {
		const struct ns_sched_task *t = &st->tasks[i];

		fprintf(out, "%d\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			"\t%" PRIu64, t->pid, ns_trace_task_comm(trace, t->pid),
			t->state_ns[NS_TS_RUNNING], t->runs,
			t->state_ns[NS_TS_WAKING] + t->state_ns[NS_TS_PREEMPTED],
			t->state_ns[NS_TS_SLEEPING] + t->state_ns[NS_TS_IDLE],
			t->state_ns[NS_TS_BLOCKED], t->wakeups);
		put_lat_avg_max(out, &t->wakeup, true, ns_digits);
		put_lat_avg_max(out, &t->waking, false, ns_digits);
		fputc('\n', out);
	}
	fputs("# cpus\ncpu\tbusy_ns\tidle_ns\tbusy_share\tidle_share\tswitches\tdrops\t"
	      "lost_events\tevents\tstream\n", out);
	for (c = 0; c < st->nr_cpus; c++) {
		const struct ns_sched_cpu *p = &st->cpus[c];
		const char *name = ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, p->cpu));

		/* the CPU as its buffer numbers it, and the buffer as --buffer names it */
		fprintf(out, "%d\t%" PRIu64 "\t%" PRIu64 "\t%.4f\t%.4f\t%" PRIu64 "\t%" PRIu64
			"\t%lld\t%" PRIu64 "\t%s\n", ns_trace_cpu_number(trace, p->cpu), p->busy_ns,
			p->idle_ns, share(p->busy_ns, span), share(p->idle_ns, span), p->switches,
			p->drops, p->lost, p->events, *name ? name : NS_TRACE_TOP_NAME);
	}
	fputs("# events\nsystem\tevent\tcount\n", out);
	for (i = 0; i < st->nr_types; i++)
		fprintf(out, "%s\t%s\t%" PRIu64 "\n",
			ns_trace_event_system(trace, st->types[i].type),
			ns_trace_event_name(trace, st->types[i].type), st->types[i].count);
	fputs("# latency\nkind\tcount\tavg_ns\tmin_ns\tmin_ts\tmax_ns\tmax_ts\n", out);
	put_lat_row(out, "wakeup", &st->wakeup[0], ns_digits);
	put_lat_row(out, "wakeup_rt", &st->wakeup[1], ns_digits);
	put_lat_row(out, "waking", &st->waking, ns_digits);
	return fflush(out) || ferror(out) ? -EIO : 0;
}

/* "10172.533502" -> ns; @digits: the decimals given. 0 or -EINVAL. */
static int parse_seconds(const char *s, const char *end, uint64_t *ns, int *digits)
{
	uint64_t sec = 0, frac = 0;
	int n = 0;
	const char *p = s;

	if (p == end)
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000000 - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*p - '0');
	}
	if (p == s && (p == end || *p != '.'))
		return -EINVAL;
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, n++)
			if (n < 9)
				frac = frac * 10 + (uint64_t)(*p - '0');
			else if (*p != '0')
				return -EINVAL;	/* below a nanosecond */
	}
	if (p != end)
		return -EINVAL;
	*digits = n;
	for (; n < 9; n++)
		frac *= 10;
	*ns = sec * 1000000000 + frac;
	return 0;
}

int ns_sched_parse_range(const char *text, uint64_t *t0, uint64_t *t1, int *ns_digits,
			 char *err, size_t err_len)
{
	const char *comma = strchr(text, ',');
	const char *end = text + strlen(text);
	int d0 = 0, d1 = 0;

	*t0 = 0;
	*t1 = UINT64_MAX;
	if (!comma || (comma > text && parse_seconds(text, comma, t0, &d0)) ||
	    (comma + 1 < end && parse_seconds(comma + 1, end, t1, &d1))) {
		snprintf(err, err_len, "'%s': want T0,T1 in seconds (10172.5,10172.75; "
			 "either may be left out)", text);
		return -EINVAL;
	}
	if (*t1 <= *t0) {
		snprintf(err, err_len, "'%s': T1 must come after T0", text);
		return -EINVAL;
	}
	*ns_digits = d0 > 6 || d1 > 6;
	return 0;
}

int ns_sched_summary_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--summary"))
			return 1;
	return 0;
}

enum { SUM_SUMMARY = 256, SUM_RANGE, SUM_CPU, SUM_PID, SUM_TASK };

static const struct option summary_options[] = {
	{ "summary", no_argument, NULL, SUM_SUMMARY },
	{ "range", required_argument, NULL, SUM_RANGE },
	{ "cpu", required_argument, NULL, SUM_CPU },
	{ "pid", required_argument, NULL, SUM_PID },
	{ "task", required_argument, NULL, SUM_TASK },
	{ NULL, 0, NULL, 0 },
};

static int summary_run(const char *file, const struct ns_filter_args *fargs, const char *range)
{
	uint64_t t0 = 0, t1 = UINT64_MAX;
	struct ns_sched_stats *st = NULL;
	struct ns_filter_set *fs = NULL;
	struct ns_trace *trace;
	int ns_digits = 0, ret;
	char err[768];

	if (range && ns_sched_parse_range(range, &t0, &t1, &ns_digits, err, sizeof(err))) {
		fprintf(stderr, "nurseshark: --range %s\n", err);
		return 2;
	}
	/* the sched events kept as the file is indexed: it is read once */
	trace = ns_trace_open_sched(file, err, sizeof(err));
	if (!trace) {
		fprintf(stderr, "nurseshark: %s: %s\n", file, err);
		return 1;
	}
	fs = ns_filter_set_alloc();
	if (!fs) {
		fprintf(stderr, "nurseshark: out of memory\n");
		ret = 1;
		goto out;
	}
	/* as --export: --pid and --task narrow the list (here: the task table) */
	if (ns_filter_args_apply(fargs, trace, fs, 0, err, sizeof(err))) {
		fprintf(stderr, "nurseshark: %s\n", err);
		ret = 2;
		goto out;
	}
	ret = ns_sched_stats_build(trace, fs, t0, t1, &st, err, sizeof(err));
	if (!ret)
		ret = ns_sched_summary_print(trace, st, stdout, ns_digits);
	if (ret) {
		fprintf(stderr, "nurseshark: %s: %s\n", file,
			ret == -EIO && !err[0] ? "cannot write the summary" : err);
		ret = 1;
	}
out:
	ns_sched_stats_free(st);
	ns_filter_set_free(fs);
	ns_trace_close(trace);
	return ret;
}

int ns_sched_summary_main(int argc, char **argv)
{
	const char *file = NULL, *range = NULL;
	struct ns_filter_args fargs;
	int opt, ret, kind;

	ns_filter_args_init(&fargs);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:F:v", summary_options, NULL)) != -1) {
		switch (opt) {
		case SUM_SUMMARY:
			continue;
		case SUM_RANGE:
			range = optarg;
			continue;
		case 'i':
			file = optarg;
			continue;
		case SUM_CPU:
			kind = NS_FILTER_ARG_CPUS;
			break;
		case SUM_PID:
			kind = NS_FILTER_ARG_PIDS;
			break;
		case SUM_TASK:
			kind = NS_FILTER_ARG_TASK;
			break;
		case 'F':
			kind = NS_FILTER_ARG_EXPR;
			break;
		case 'v':
			kind = NS_FILTER_ARG_NEGATE;
			break;
		default:
			fprintf(stderr, "nurseshark: --summary takes --range T0,T1, --cpu, --pid, "
				"--task, -F, -v and one FILE\n");
			ns_filter_args_free(&fargs);
			return 2;
		}
		if (ns_filter_args_push(&fargs, kind, optarg)) {
			fprintf(stderr, "nurseshark: out of memory\n");
			ns_filter_args_free(&fargs);
			return 1;
		}
	}
	if (optind < argc) {
		if (file || optind + 1 < argc) {
			fprintf(stderr, "nurseshark: one trace file at a time\n");
			ns_filter_args_free(&fargs);
			return 2;
		}
		file = argv[optind];
	}
	ret = summary_run(file ? file : "trace.dat", &fargs, range);
	ns_filter_args_free(&fargs);
	return ret;
}
