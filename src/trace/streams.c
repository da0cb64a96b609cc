// SPDX-License-Identifier: GPL-2.0-only
/*
 * Streams: the buffers of a trace.dat shown together. A file recorded
 * with instances (trace-cmd record -B NAME) has a top buffer and a buffer
 * per instance, each with its own CPUs, clock and lost events. The fast
 * reader numbers the CPUs of all the buffers it reads one after the other
 * (slots, pages.h): everything else in the index keeps calling a slot a
 * cpu, so the index holds no stream per event, and the merged order ties
 * to the lower slot, as `trace-cmd report` ties to the earlier handle and
 * then to the lower CPU. Here the slots are named for people: the stream
 * a slot belongs to, its CPU in that stream, and the prefix report gives
 * each line of a file with instances. Example, a top buffer of 2 CPUs and
 * an instance b1 of 1: slots 0, 1 are the top's CPU0 and CPU1, slot 2 is
 * b1's CPU0, labelled "b1 CPU0", and report prints its lines "b1: ...".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pages.h"
#include "trace-int.h"

int ns_trace_nr_streams(const struct ns_trace *trace)
{
	if (trace->multi)
		return trace->multi->first_stream[trace->multi->nr];
	return trace->pages ? ns_pages_nr_buffers(trace->pages) : 1;
}

const char *ns_trace_stream_name(const struct ns_trace *trace, int stream)
{
	const struct ns_pages_buffer *b = trace->pages ? ns_pages_buffer(trace->pages, stream) :
		NULL;

	if (trace->multi)
		return stream >= 0 && stream < ns_trace_nr_streams(trace) ?
			trace->multi->stream_name[stream] : "";
	return b ? b->name : "";
}

int ns_trace_cpu_stream(const struct ns_trace *trace, int cpu)
{
	if (trace->multi) {
		int k = ns_multi_file_of_slot(trace, cpu);

		return trace->multi->first_stream[k] +
		       ns_trace_cpu_stream(trace->multi->sub[k], cpu - trace->multi->first_slot[k]);
	}
	return trace->pages ? ns_pages_cpu_buffer(trace->pages, cpu) : 0;
}

int ns_trace_cpu_number(const struct ns_trace *trace, int cpu)
{
	if (trace->multi) {
		int k = ns_multi_file_of_slot(trace, cpu);

		return ns_trace_cpu_number(trace->multi->sub[k], cpu - trace->multi->first_slot[k]);
	}
	return trace->pages ? ns_pages_cpu_id(trace->pages, cpu) : cpu;
}

int ns_trace_stream_first_cpu(const struct ns_trace *trace, int stream, int *nr_cpus)
{
	const struct ns_pages_buffer *b = trace->pages ? ns_pages_buffer(trace->pages, stream) :
		NULL;

	if (trace->multi) {
		const struct ns_multi *m = trace->multi;
		int k = ns_trace_stream_file(trace, stream), first;

		if (stream < 0 || stream >= ns_trace_nr_streams(trace)) {
			if (nr_cpus)
				*nr_cpus = 0;
			return 0;
		}
		first = ns_trace_stream_first_cpu(m->sub[k], stream - m->first_stream[k], nr_cpus);
		return m->first_slot[k] + first;
	}
	if (!b) {
		if (nr_cpus)
			*nr_cpus = stream ? 0 : trace->nr_cpus;
		return 0;
	}
	if (nr_cpus)
		*nr_cpus = b->nr_cpus;
	return b->first_cpu;
}

bool ns_trace_reads_buffer(const struct ns_trace *trace, const char *name)
{
	if (trace->multi) {
		for (int k = 0; k < trace->multi->nr; k++)
			if (ns_trace_reads_buffer(trace->multi->sub[k], name))
				return true;
		return false;
	}
	return ns_trace_stream_of_name(trace, name) >= 0;
}

int ns_trace_stream_of_name(const struct ns_trace *trace, const char *name)
{
	int s;

	for (s = 0; s < ns_trace_nr_streams(trace); s++) {
		const char *n = ns_trace_stream_name(trace, s);

		if (!strcmp(name, *n ? n : NS_TRACE_TOP_NAME))
			return s;
	}
	return -ENOENT;
}

/*
 * Every buffer the file has, read or not (--buffer, a v6 file's instances):
 * libtracecmd's list of the file's instances after the top buffer. Under
 * the handle's lock, as a read may replace the handle (a recycle).
 */
int ns_trace_file_nr_buffers(const struct ns_trace *trace)
{
	struct ns_trace *t = (struct ns_trace *)trace;	/* the lock only */
	int n;

	if (trace->multi)	/* --buffer and sessions choose buffers of one file */
		return ns_trace_nr_streams(trace);

	pthread_mutex_lock(&t->handle_lock);
	n = t->handle ? tracecmd_buffer_instances(t->handle) : 0;
	pthread_mutex_unlock(&t->handle_lock);
	return 1 + (n > 0 ? n : 0);
}

void ns_trace_file_buffer_name(const struct ns_trace *trace, int i, char *buf, size_t len)
{
	struct ns_trace *t = (struct ns_trace *)trace;
	const char *name = NULL;

	if (trace->multi) {
		snprintf(buf, len, "%s", ns_trace_stream_name(trace, i));
		return;
	}
	pthread_mutex_lock(&t->handle_lock);
	if (i > 0 && t->handle && i - 1 < tracecmd_buffer_instances(t->handle))
		name = tracecmd_buffer_instance_name(t->handle, i - 1);
	snprintf(buf, len, "%s", name ? name : "");
	pthread_mutex_unlock(&t->handle_lock);
}

void ns_trace_cpu_label(const struct ns_trace *trace, int cpu, char *buf, size_t len)
{
	const char *name = ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, cpu));
	size_t n = strlen(name);

	/* several files: "a CPU0" for a.dat's, "a:b1 CPU0" for its instance b1's */
	if (trace->multi) {
		const char *dot = strstr(name, ".dat");

		/* "a.dat#2:b1" (a second a.dat's instance b1): "a#2:b1" */
		if (dot && (dot[4] == '\0' || dot[4] == ':' || dot[4] == '#'))
			n = (size_t)(dot - name);
		else
			dot = NULL;
		snprintf(buf, len, "%.*s%.*s CPU%d", (int)(n < NS_TRACE_LABEL_NAME_W ? n :
			 NS_TRACE_LABEL_NAME_W), name, NS_TRACE_LABEL_NAME_W + 1,
			 dot ? dot + 4 : "", ns_trace_cpu_number(trace, cpu));
		return;
	}
	/* the top buffer's rows keep their plain names */
	if (*name)
		snprintf(buf, len, "%.*s CPU%d", NS_TRACE_LABEL_NAME_W, name,
			 ns_trace_cpu_number(trace, cpu));
	else
		snprintf(buf, len, "CPU%d", ns_trace_cpu_number(trace, cpu));
}

/* Whether the times of @cpu's stream print as seconds.microseconds. */
bool ns_trace_cpu_in_usecs(const struct ns_trace *trace, int cpu)
{
	const struct ns_pages_buffer *b, *top;

	if (!trace->pages)
		return trace->in_usecs;
	b = ns_pages_buffer(trace->pages, ns_pages_cpu_buffer(trace->pages, cpu));
	top = ns_pages_buffer(trace->pages, 0);
	/* libtracecmd decided for the top buffer's clock: so for every buffer of that clock */
	if (!b || !b->name[0] || (top && !top->name[0] && !strcmp(top->clock, b->clock)))
		return trace->in_usecs;
	return b->in_usecs;
}

/*
 * What report prints before each line of a file with instances: the
 * instance's name right-aligned to the longest one of the file and ": ",
 * or as many blanks for the top buffer; "" without instances.
 */
void ns_trace_line_prefix(const struct ns_trace *trace, int cpu, char *buf, size_t len)
{
	int width = trace->pages ? ns_pages_name_width(trace->pages) : 0;
	const char *name = ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, cpu));

	if (!width)
		buf[0] = '\0';
	else if (*name)
		snprintf(buf, len, "%*s: ", width, name);
	else
		snprintf(buf, len, "%*s  ", width, "");
}

/*
 * libtracecmd's handle for reading @cpu's records back (trace-cmd's own
 * plugins read on through it): the trace's for the top buffer, else one
 * opened for the instance the first time. Under trace->handle_lock.
 */
struct tracecmd_input *ns_trace_buffer_handle(struct ns_trace *trace, int cpu)
{
	int b = ns_trace_cpu_stream(trace, cpu), i, n;
	const char *name = ns_trace_stream_name(trace, b);

	if (!*name || !trace->handle)
		return trace->handle;
	if (!trace->buf_handles) {
		trace->buf_handles = calloc((size_t)ns_trace_nr_streams(trace),
					    sizeof(*trace->buf_handles));
		if (!trace->buf_handles)
			return NULL;
	}
	if (trace->buf_handles[b])
		return trace->buf_handles[b];
	n = tracecmd_buffer_instances(trace->handle);
	for (i = 0; i < n; i++) {
		const char *in = tracecmd_buffer_instance_name(trace->handle, i);

		if (in && !strcmp(in, name)) {
			ns_trace_handles_lock();
			trace->buf_handles[b] = tracecmd_buffer_instance_handle(trace->handle, i);
			ns_trace_handles_unlock();
			break;
		}
	}
	return trace->buf_handles[b];
}

void ns_trace_close_buffer_handles(struct ns_trace *trace)
{
	int b;

	if (!trace->buf_handles)
		return;
	for (b = 0; b < ns_trace_nr_streams(trace); b++)
		ns_trace_handle_close(trace->buf_handles[b]);
	free(trace->buf_handles);
	trace->buf_handles = NULL;
}

/*
 * --ts-offset on a handle of the trace's file: instance handles made from
 * it later (ns_trace_buffer_handle()) copy its offset, as in report.
 */
void ns_trace_set_ts_offset(const struct ns_trace *trace, struct tracecmd_input *handle)
{
	if (trace->opts.has_ts_offset)
		tracecmd_set_ts_offset(handle, trace->opts.ts_offset);
}
