// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event text on demand: an event is read back from the file only when it is
 * shown or exported, and its columns are printed by libtraceevent (plugins
 * loaded) with the very calls and formats `trace-cmd report` uses, so that
 * both print the same characters. Reading consecutive events of a CPU goes
 * through tracecmd_read_data(); a jump goes through tracecmd_read_at().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pages.h"
#include "trace-int.h"
#include "nurseshark/trace_sched.h"

/*
 * The file changed under us (cut shorter, or recorded over under the same
 * name while we show it): from then on every read fails with -ESTALE and
 * the screen says so (ns_trace_changed()), and the index, which is in
 * memory, still serves counts, times and tasks. The fast reader notices it
 * as a short pread(). libtracecmd maps the pages of an uncompressed file,
 * where a touch past the new end is SIGBUS: the file's size is checked
 * before each read through libtracecmd (a cut between the check and the
 * read still kills us there; the fast reader, which reads all but the
 * events trace-cmd's own plugins print, cannot be killed so).
 */
int ns_trace_read_failed(struct ns_trace *trace, int err)
{
	if (err == -ESTALE)
		atomic_store(&trace->changed, true);
	return err;
}

bool ns_trace_changed(const struct ns_trace *trace)
{
	if (trace->multi) {
		for (int k = 0; k < trace->multi->nr; k++)
			if (ns_trace_changed(trace->multi->sub[k]))
				return true;
		return false;
	}
	return atomic_load_explicit(&trace->changed, memory_order_relaxed);
}

/* Before a read through libtracecmd: false if the file changed (and remembered). */
static bool file_intact(struct ns_trace *trace)
{
	struct stat st;
	bool shrank;

	if (ns_trace_changed(trace))
		return false;
	if (trace->pages)
		shrank = ns_pages_file_shrank(trace->pages);
	else
		shrank = stat(trace->path, &st) || st.st_size < trace->file_size;
	if (shrank)
		ns_trace_read_failed(trace, -ESTALE);
	return !shrank;
}

/* Event (cpu, idx) from the fast reader: the (idx - first)-th record of its page. */
static struct tep_record *read_pages(struct ns_trace *trace, struct ns_cursor *cur, int cpu,
				     uint64_t idx, size_t window)
{
	const struct ns_cpu *c = &trace->cpus[cpu];
	struct ns_pages_record r;
	uint64_t p, skip;
	int ret;

	if (!cur->rd) {
		cur->rd = ns_pages_iter_open(trace->pages, cpu, 0, UINT64_MAX);
		if (!cur->rd)
			return NULL;
		ns_pages_iter_window(cur->rd, window);
		cur->have_next = false;
	}
	if (!cur->have_next || cur->next_idx != idx) {
		p = ns_cpu_page_of(c, idx);
		/* page offsets grow by a page per page from the CPU's first */
		ns_pages_iter_seek(cur->rd, (c->pages[p].offset -
					     ns_pages_page_offset(trace->pages, cpu, 0)) /
				   (uint64_t)trace->page_size, UINT64_MAX);
		for (skip = idx - c->pages[p].first_idx; skip; skip--) {
			ret = ns_pages_iter_next(cur->rd, &r);
			if (ret != 1)
				goto fail;
		}
	}
	cur->have_next = false;
	ret = ns_pages_iter_next(cur->rd, &r);
	if (ret != 1)
		goto fail;
	cur->rd_rec = ns_pages_tep_record(&r);
	return &cur->rd_rec;
fail:
	ns_trace_read_failed(trace, ret);
	return NULL;
}

/*
 * trace-cmd's own handlers of the ftrace events (function_graph's entry
 * looks ahead for its return) read the records that follow from the
 * libtracecmd handle the record came from: those are read there.
 */
bool ns_trace_needs_handle(struct ns_trace *trace, int type)
{
	uint8_t v;

	if (type < 0 || type >= NS_EV_TYPE_MAP)
		return false;
	/* a byte per type, looked up once (by any thread: the same byte): 1 no, 2 yes */
	v = atomic_load_explicit(&trace->handle_types[type], memory_order_relaxed);
	if (!v) {
		v = !strcmp(ns_trace_event_system(trace, type), "ftrace") ? 2 : 1;
		atomic_store_explicit(&trace->handle_types[type], v, memory_order_relaxed);
	}
	return v == 2;
}

/* The record at libtracecmd's offset @off, from libtracecmd (free it there). */
struct tep_record *ns_trace_read_handle(struct ns_trace *trace, int cpu, uint64_t off)
{
	struct tracecmd_input *handle;
	struct tep_record *rec;
	int rcpu = -1;

	pthread_mutex_lock(&trace->handle_lock);
	/*
	 * Not while indexing, nor while other readers run: they use the tep
	 * that a recycle replaces. A forked copy opens its own (it shares the
	 * file offset of the parent's descriptor otherwise).
	 */
	if (((trace->compressed && trace->bytes_read > NS_RECYCLE_BYTES) || trace->forked) &&
	    !trace->indexing &&
	    !atomic_load_explicit(&trace->nr_readers_in_use, memory_order_acquire)) {
		trace->forked = false;
		if (ns_trace_recycle(trace)) {
			pthread_mutex_unlock(&trace->handle_lock);
			return NULL;
		}
	}
	handle = trace->handle && file_intact(trace) ? ns_trace_buffer_handle(trace, cpu) : NULL;
	rec = handle ? tracecmd_read_at(handle, off, &rcpu) : NULL;
	if (rec && rcpu != ns_trace_cpu_number(trace, cpu)) {
		tracecmd_free_record(rec);
		rec = NULL;
	}
	if (rec)
		ns_trace_count_page(trace, &trace->cpus[cpu],
				    off & ~(uint64_t)(trace->page_size - 1));
	pthread_mutex_unlock(&trace->handle_lock);
	return rec;
}

/**
 * ns_trace_read - read event (cpu, idx) back from the file
 * Returns a record to hand back with ns_trace_read_done() before the next
 * call (the handle may be recycled then, the page unmapped), or NULL.
 */
struct tep_record *ns_trace_read(struct ns_trace *trace, int cpu, uint64_t idx)
{
	struct ns_cpu *c;
	struct tep_record *rec;
	int rcpu = -1;

	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events)
		return NULL;
	c = &trace->cpus[cpu];
	if (trace->pages)
		return ns_trace_read_r(&(struct ns_trace_reader){ trace, NULL, NULL }, cpu, idx);
	/* the libtracecmd path: its one handle, for the screen's thread only */
	if (trace->compressed && trace->bytes_read > NS_RECYCLE_BYTES && ns_trace_recycle(trace))
		return NULL;
	if (!trace->handle || !file_intact(trace))
		return NULL;
	if (c->cur.have_next && c->cur.next_idx == idx) {
		rec = tracecmd_read_data(trace->handle, cpu);
	} else {
		uint64_t off = c->pages[ns_cpu_page_of(c, idx)].offset + c->page_offs[idx];

		rec = tracecmd_read_at(trace->handle, off, &rcpu);
		if (rec && rcpu != cpu) {
			tracecmd_free_record(rec);
			rec = NULL;
		}
	}
	if (rec)
		ns_trace_count_page(trace, c, rec->offset & ~(uint64_t)(trace->page_size - 1));
	/* the index and the file must agree, or we would show another event */
	if (rec && rec->ts != ns_ev_ts(&c->ev, idx)) {
		ns_trace_read_done(trace, rec);
		rec = NULL;
	}
	c->cur.have_next = rec != NULL;
	c->cur.next_idx = idx + 1;
	return rec;
}

static struct ns_cursor *cursor_of(struct ns_trace_reader *r, int cpu)
{
	return r->cur ? &r->cur[cpu] : &r->trace->cpus[cpu].cur;
}

/* ns_trace_read() for @r, in files the fast reader reads (r->cur NULL: the screen's). */
struct tep_record *ns_trace_read_r(struct ns_trace_reader *r, int cpu, uint64_t idx)
{
	struct ns_trace *trace = r->trace;
	struct ns_cursor *cur;
	struct tep_record *rec;

	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events ||
	    !trace->pages || ns_trace_changed(trace))
		return NULL;
	cur = cursor_of(r, cpu);
	/*
	 * The screen's list jumps about: it reads a little of the file at a
	 * time (64 KiB: a jump copies no more than it shows; list page steps
	 * and redraws on big.dat as v6 measured as with a 256 KiB mmap()). A
	 * reader of its own reads on: more at a time, fewer pread()s, in a
	 * buffer per CPU and reader (so not too much more).
	 */
	rec = read_pages(trace, cur, cpu, idx, r->cur ? 1u << 20 : 64u << 10);
	/* the index knows the record's type */
	if (rec && ns_trace_needs_handle(trace, ns_ev_type(&trace->cpus[cpu].ev, idx))) {
		/* its plugin reads on through libtracecmd: read it there */
		cur->have_next = false;
		rec = ns_trace_read_handle(trace, cpu, rec->offset);
	}
	/* the index and the file must agree, or we would show another event */
	if (rec && rec->ts != ns_ev_ts(&trace->cpus[cpu].ev, idx)) {
		ns_trace_read_done_r(r, rec);
		rec = NULL;
	}
	cur->have_next = rec != NULL;
	cur->next_idx = idx + 1;
	return rec;
}

void ns_trace_read_done_r(struct ns_trace_reader *r, struct tep_record *rec)
{
	if (rec && rec != &cursor_of(r, rec->cpu)->rd_rec) {
		pthread_mutex_lock(&r->trace->handle_lock);
		tracecmd_free_record(rec);
		pthread_mutex_unlock(&r->trace->handle_lock);
	}
}

/*
 * A reader's thread prints and filters with the trace's tep, unlocked: only
 * once fill_tep_tables() (index.c) has made what libtraceevent makes lazily.
 */
bool ns_trace_can_make_readers(const struct ns_trace *trace)
{
	if (trace->multi) {
		for (int k = 0; k < trace->multi->nr; k++)
			if (!ns_trace_can_make_readers(trace->multi->sub[k]))
				return false;
		return true;
	}
	return trace->pages && trace->tep_shared;
}

struct ns_trace_reader *ns_trace_reader_new(struct ns_trace *trace)
{
	struct ns_trace_reader *r;

	if (!ns_trace_can_make_readers(trace))
		return NULL;
	if (trace->multi) {
		int k;

		r = calloc(1, sizeof(*r));
		if (r)
			r->subs = calloc((size_t)trace->multi->nr, sizeof(*r->subs));
		if (!r || !r->subs) {
			free(r);
			return NULL;
		}
		r->trace = trace;
		for (k = 0; k < trace->multi->nr; k++) {
			r->subs[k] = ns_trace_reader_new(trace->multi->sub[k]);
			if (!r->subs[k]) {
				ns_trace_reader_free(r);
				return NULL;
			}
		}
		return r;
	}
	r = calloc(1, sizeof(*r));
	if (r)
		r->cur = calloc(trace->nr_cpus + 1, sizeof(*r->cur));
	if (!r || !r->cur) {
		free(r);
		return NULL;
	}
	r->trace = trace;
	atomic_fetch_add_explicit(&trace->nr_readers_in_use, 1, memory_order_acq_rel);
	return r;
}

void ns_trace_reader_free(struct ns_trace_reader *r)
{
	int cpu;

	if (!r)
		return;
	if (r->subs) {
		for (cpu = 0; cpu < r->trace->multi->nr; cpu++)
			ns_trace_reader_free(r->subs[cpu]);
		free(r->subs);
		free(r);
		return;
	}
	for (cpu = 0; cpu < r->trace->nr_cpus; cpu++)
		if (r->cur[cpu].rd)
			ns_pages_iter_close(r->cur[cpu].rd);
	atomic_fetch_sub_explicit(&r->trace->nr_readers_in_use, 1, memory_order_acq_rel);
	free(r->cur);
	free(r);
}

/*
 * In a child process of fork(): it may read events with the trace it
 * inherited, but libtracecmd's handle shares the parent's file descriptor
 * (and so its offset): the child opens its own before it reads through it.
 */
void ns_trace_forked(struct ns_trace *trace)
{
	if (trace->multi)
		for (int k = 0; k < trace->multi->nr; k++)
			ns_trace_forked(trace->multi->sub[k]);
	trace->forked = true;
}

/* Done with a record of ns_trace_read(). */
void ns_trace_read_done(struct ns_trace *trace, struct tep_record *rec)
{
	if (trace->pages)
		ns_trace_read_done_r(&(struct ns_trace_reader){ trace, NULL, NULL }, rec);
	else if (rec)
		tracecmd_free_record(rec);
}

/* The comm report prints for @pid at @row (row UINT64_MAX: look it up). */
static const char *row_comm(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row, int pid)
{
	const struct ns_task *task = ns_tasks_find(&trace->tasks, pid);

	if (task && task->unknown_until >= 0) {
		if (row == UINT64_MAX)
			row = ns_trace_row_of(trace, cpu, idx);
		if (row <= (uint64_t)task->unknown_until)
			return "<...>";
	}
	return tep_data_comm_from_pid(trace->tep, pid);
}

const char *ns_trace_row_comm(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row)
{
	if (trace->multi) {
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		return sub ? ns_trace_row_comm(sub, cpu, idx, UINT64_MAX) : "";
	}
	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events)
		return "";
	return row_comm(trace, cpu, idx, row, ns_trace_ev_pid(trace, cpu, idx));
}

static void copy_seq(char *dst, size_t len, struct trace_seq *s)
{
	trace_seq_terminate(s);
	snprintf(dst, len, "%s", s->buffer);
	trace_seq_reset(s);
}

/*
 * The columns libtraceevent prints for @rec (latency, time, event, info)
 * into @txt; @time_raw gets the time exactly as report pads it. The
 * caller holds trace->tep_lock.
 */
int ns_trace_print_locked(struct ns_trace *trace, struct tep_record *rec,
			  struct ns_event_text *txt, char *time_raw, size_t time_len)
{
	struct tep_handle *tep = trace->tep;
	struct trace_seq *s = &trace->seq;
	struct tep_event *event;
	const char *p;
	size_t n;

	/* one buffer for every event, kept (the lock makes it ours) */
	if (!trace->seq_ready) {
		trace_seq_init(s);
		trace->seq_ready = true;
	}
	trace_seq_reset(s);
	if (time_raw) {
		tep_print_event(tep, s, rec, "%s", TEP_PRINT_LATENCY);
		copy_seq(txt->latency, sizeof(txt->latency), s);

		tep_print_event(tep, s, rec,
				ns_trace_cpu_in_usecs(trace, txt->slot) ? "%6.1000d" : "%12d",
				TEP_PRINT_TIME);
		copy_seq(time_raw, time_len, s);
		for (p = time_raw; *p == ' '; p++)
			;
		snprintf(txt->time, sizeof(txt->time), "%s", p);
	}

	event = tep_find_event_by_record(tep, rec);
	snprintf(txt->event, sizeof(txt->event), "%s", event ? event->name : "(NULL)");

	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	n = s->len;
	/* report drops one trailing newline from the line */
	if (n && s->buffer[n - 1] == '\n')
		n--;
	if (txt->info_size < n + 1) {
		char *ni = realloc(txt->info, n + 1);

		if (!ni)
			return -ENOMEM;
		txt->info = ni;
		txt->info_size = n + 1;
	}
	memcpy(txt->info, s->buffer, n);
	txt->info[n] = '\0';
	return 0;
}

/* Fill @txt from @rec, event (cpu, idx) at @row. */
static int format_record(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			 struct tep_record *rec, struct ns_event_text *txt,
			 char *time_raw, size_t time_len)
{
	int ret;

	pthread_mutex_lock(&trace->tep_lock);
	txt->pid = ns_trace_ev_pid(trace, cpu, idx);
	txt->cpu = ns_trace_cpu_number(trace, cpu);
	txt->slot = cpu;
	snprintf(txt->comm, sizeof(txt->comm), "%s", row_comm(trace, cpu, idx, row, txt->pid));
	ret = ns_trace_print_locked(trace, rec, txt, time_raw, time_len);
	pthread_mutex_unlock(&trace->tep_lock);
	txt->missed = ns_trace_missed_before(trace, cpu, idx);
	return ret;
}

int ns_trace_format_info(struct ns_trace *trace, int cpu, uint64_t idx, struct ns_event_text *txt)
{
	struct tep_record *rec;
	int ret;

	if (trace->multi) {
		int slot = cpu;
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		ret = sub ? ns_trace_format_info(sub, cpu, idx, txt) : -ENOENT;
		txt->slot = slot;
		return ret;
	}

	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	pthread_mutex_lock(&trace->tep_lock);
	txt->pid = ns_trace_ev_pid(trace, cpu, idx);
	txt->cpu = ns_trace_cpu_number(trace, cpu);
	txt->slot = cpu;
	ret = ns_trace_print_locked(trace, rec, txt, NULL, 0);
	pthread_mutex_unlock(&trace->tep_lock);
	ns_trace_read_done(trace, rec);
	return ret;
}

int ns_trace_format(struct ns_trace *trace, int cpu, uint64_t idx, struct ns_event_text *txt)
{
	struct tep_record *rec;
	char time_raw[32];
	int ret;

	if (trace->multi) {
		int slot = cpu;
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		ret = sub ? ns_trace_format(sub, cpu, idx, txt) : -ENOENT;
		txt->slot = slot;
		return ret;
	}

	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	ret = format_record(trace, cpu, idx, UINT64_MAX, rec, txt, time_raw, sizeof(time_raw));
	ns_trace_read_done(trace, rec);
	return ret;
}

void ns_event_text_free(struct ns_event_text *txt)
{
	free(txt->info);
	txt->info = NULL;
	txt->info_size = 0;
}

/* Several files: the file's line after its stream's name, as report -i A -i B. */
static int multi_format_line(struct ns_trace *trace, int cpu, uint64_t idx,
			     struct ns_event_text *txt, char **line, size_t *size)
{
	int slot = cpu, ret, n;
	struct ns_trace *sub = ns_multi_slot(trace, &cpu);
	const char *name = ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, slot));
	size_t len;

	if (!sub)
		return -ENOENT;
	ret = ns_trace_format_line(sub, cpu, idx, UINT64_MAX, txt, line, size);
	txt->slot = slot;
	if (ret || !line)
		return ret;
	len = strlen(name) + 2;
	n = (int)strlen(*line);
	if ((size_t)n + len + 1 > *size) {
		char *p = realloc(*line, (size_t)n + len + 1);

		if (!p)
			return -ENOMEM;
		*line = p;
		*size = (size_t)n + len + 1;
	}
	memmove(*line + len, *line, (size_t)n + 1);
	memcpy(*line, name, len - 2);
	memcpy(*line + len - 2, ": ", 2);
	return 0;
}

int ns_trace_format_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			 struct ns_event_text *txt, char **line, size_t *size)
{
	struct tep_record *rec;
	char time_raw[32], prefix[NS_TRACE_PREFIX_LEN];
	size_t len;
	int ret, n;

	if (trace->multi)
		return multi_format_line(trace, cpu, idx, txt, line, size);
	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	ret = format_record(trace, cpu, idx, row, rec, txt, time_raw, sizeof(time_raw));
	ns_trace_read_done(trace, rec);
	if (ret || !line)
		return ret;
	len = strlen(txt->event);
	ns_trace_line_prefix(trace, cpu, prefix, sizeof(prefix));
	/* export_line()'s event line, without the lost-events line or the newline */
	for (;;) {
		n = snprintf(*line, *line ? *size : 0, "%s%16s-%-5d [%03d]%s%s: %s: %*s%s", prefix,
			     txt->comm, txt->pid, txt->cpu,
			     ns_trace_cpu_in_usecs(trace, cpu) ? " " : "", time_raw,
			     txt->event, len < 20 ? (int)(20 - len) : 0, "", txt->info);
		if (n < 0)
			return -EIO;
		if (*line && (size_t)n < *size)
			return 0;
		free(*line);
		*size = (size_t)n + 64;
		*line = malloc(*size);
		if (!*line) {
			*size = 0;
			return -ENOMEM;
		}
	}
}

/*
 * Which tasks report has named when it prints only some events: its sched
 * plugin registers a task's comm as it prints a sched_switch (prev and
 * next), sched_wakeup or sched_wakeup_new that names it, and a task the
 * saved cmdlines lack is "<...>" until then. Unfiltered, that is the row
 * kept in struct ns_task; filtered, it is the first such event printed.
 */
struct namer {
	struct sched_fields sched;
	uint8_t *known;			/* a bit per pid named so far */
	int max_pid;
};

static void namer_init(struct ns_trace *trace, struct namer *nm)
{
	memset(nm, 0, sizeof(*nm));
	ns_sched_fields_find(trace->tep, &nm->sched);
	nm->max_pid = 1 << 22;		/* the kernel's PID_MAX_LIMIT */
	nm->known = calloc(nm->max_pid / 8, 1);
}

static void namer_learn(struct ns_trace *trace, struct namer *nm, struct tep_record *rec)
{
	struct ns_sched_name names[2];
	int n, i;

	if (!nm->known)
		return;
	n = ns_sched_names(&nm->sched, tep_data_type(trace->tep, rec), rec, names);
	for (i = 0; i < n; i++)
		if (names[i].registers && names[i].pid >= 0 && names[i].pid < nm->max_pid)
			nm->known[names[i].pid / 8] |= 1 << (names[i].pid % 8);
}

static void namer_comm(struct ns_trace *trace, const struct namer *nm, struct ns_event_text *txt)
{
	const struct ns_task *task = ns_tasks_find(&trace->tasks, txt->pid);
	int known;

	if (!nm->known || !task || task->unknown_until < 0)
		return;
	known = txt->pid < nm->max_pid && (nm->known[txt->pid / 8] >> (txt->pid % 8)) & 1;
	snprintf(txt->comm, sizeof(txt->comm), "%s",
		 known ? tep_data_comm_from_pid(trace->tep, txt->pid) : "<...>");
}

/*
 * An export in steps (ns_export_begin()): the rows [row, end) that
 * @shown shows, fetched ahead by pos[] in the merged order.
 */
struct ns_export {
	struct ns_trace *trace;
	int (*shown)(const void *arg, uint64_t row);
	const void *arg;
	struct namer nm;
	struct ns_event_text txt;
	struct ns_textbuf line;		/* ns_export_print()'s */
	uint64_t row, end;		/* the row of pos[i], the end */
	size_t i, got;
	struct ns_pos pos[1024];
};

struct ns_export *ns_export_begin(struct ns_trace *trace, uint64_t first_row, uint64_t end_row,
				  int (*shown)(const void *arg, uint64_t row), const void *arg)
{
	struct ns_export *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->trace = trace;
	x->shown = shown;
	x->arg = arg;
	x->row = first_row;
	x->end = end_row < trace->nr_events ? end_row : trace->nr_events;
	if (shown)
		namer_init(trace, &x->nm);
	return x;
}

/* The next row shown: 1 with its slot and time, 0 at the end, or a negative errno. */
int ns_export_peek(struct ns_export *x, int *cpu, uint64_t *ts)
{
	for (;; x->i++, x->row++) {
		if (x->row >= x->end)
			return 0;
		if (x->i == x->got) {
			size_t want = x->end - x->row < NS_ARRAY_SIZE(x->pos) ?
				x->end - x->row : NS_ARRAY_SIZE(x->pos);

			x->i = 0;
			x->got = ns_trace_rows(x->trace, x->row, want, x->pos);
			if (!x->got)
				return -EIO;
		}
		if (!x->shown || x->shown(x->arg, x->row))
			break;
	}
	*cpu = x->pos[x->i].cpu;
	if (ts)
		*ts = ns_trace_ev_ts(x->trace, *cpu, x->pos[x->i].idx);
	return 1;
}

/* Room for @n more bytes in @tb. */
static int tb_room(struct ns_textbuf *tb, size_t n)
{
	return NS_GROW(tb->p, tb->cap, tb->len + n);
}

/* Append @n bytes of @s (room made before). */
static inline void tb_put(struct ns_textbuf *tb, const char *s, size_t n)
{
	memcpy(tb->p + tb->len, s, n);
	tb->len += n;
}

static inline void tb_pad(struct ns_textbuf *tb, char c, size_t n)
{
	memset(tb->p + tb->len, c, n);
	tb->len += n;
}

/* The decimal digits of @v into the end of @buf[24]: the first digit. */
static char *digits(unsigned long long v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/*
 * Report's event line, "%16s-%-5d [%03d]%s%s: %s: %*s%s\n" with its time
 * column as libtraceevent's TEP_PRINT_TIME prints it ("%6.1000d": the
 * microseconds rounded, "%5llu.%06llu"; "%12d": the raw count, "%12llu"),
 * written by hand: the printf()s were most of an export's time. The info
 * column is libtraceevent's, in @info (@info_len bytes).
 */
static int put_event_line(struct ns_textbuf *tb, const char *comm, int pid, int cpu,
			  bool in_usecs, unsigned long long ts, const char *event,
			  const char *info, size_t info_len)
{
	size_t comm_len = strlen(comm), ev_len = strlen(event), tn;
	char num[24], *d, *end = num + sizeof(num), tm[48], *t = tm;
	size_t n;

	/* the time column, after the space report puts before microseconds */
	if (in_usecs) {
		unsigned long long us = (ts + 500) / 1000;

		*t++ = ' ';
		d = digits(us / 1000000, end);
		n = (size_t)(end - d);
		for (; n < 5; n++)
			*t++ = ' ';
		t = mempcpy(t, d, (size_t)(end - d));
		*t++ = '.';
		d = digits(us % 1000000, end);
		for (n = (size_t)(end - d); n < 6; n++)
			*t++ = '0';
		t = mempcpy(t, d, (size_t)(end - d));
	} else {
		d = digits(ts, end);
		for (n = (size_t)(end - d); n < 12; n++)
			*t++ = ' ';
		t = mempcpy(t, d, (size_t)(end - d));
	}
	tn = (size_t)(t - tm);
	if (pid < 0 || cpu < 0)	/* not what a trace holds: printf() says it as report */
		goto slow;
	if (tb_room(tb, comm_len + ev_len + info_len + tn + 64))
		return -ENOMEM;
	if (comm_len < 16)
		tb_pad(tb, ' ', 16 - comm_len);
	tb_put(tb, comm, comm_len);
	tb->p[tb->len++] = '-';
	d = digits((unsigned)pid, end);
	n = (size_t)(end - d);
	tb_put(tb, d, n);
	if (n < 5)
		tb_pad(tb, ' ', 5 - n);
	tb_put(tb, " [", 2);
	d = digits((unsigned)cpu, end);
	n = (size_t)(end - d);
	if (n < 3)
		tb_pad(tb, '0', 3 - n);
	tb_put(tb, d, n);
	tb->p[tb->len++] = ']';
	tb_put(tb, tm, tn);
	tb_put(tb, ": ", 2);
	tb_put(tb, event, ev_len);
	tb_put(tb, ": ", 2);
	if (ev_len < 20)
		tb_pad(tb, ' ', 20 - ev_len);
	tb_put(tb, info, info_len);
	tb->p[tb->len++] = '\n';
	return 0;
slow:
	for (;;) {
		int w = snprintf(tb->p ? tb->p + tb->len : NULL, tb->cap - tb->len,
				 "%16s-%-5d [%03d]%.*s: %s: %*s%.*s\n", comm, pid, cpu, (int)tn, tm,
				 event, ev_len < 20 ? (int)(20 - ev_len) : 0, "", (int)info_len, info);

		if (w < 0)
			return -EIO;
		if ((size_t)w < tb->cap - tb->len) {
			tb->len += (size_t)w;
			return 0;
		}
		if (tb_room(tb, (size_t)w + 1))
			return -ENOMEM;
	}
}

/*
 * Append the row ns_export_peek() gave to @tb as report prints it, after
 * @prefix (NULL: the file's own), and go past it. In a file with
 * instances (or read with others, @prefix) the stream's prefix comes
 * first, before the lost-events line if there is one.
 */
int ns_export_line(struct ns_export *x, struct ns_textbuf *tb, const char *prefix)
{
	struct ns_trace *trace = x->trace;
	struct ns_pos pos = x->pos[x->i];
	struct ns_event_text *txt = &x->txt;
	char own[NS_TRACE_PREFIX_LEN];
	struct trace_seq *s = &trace->seq;
	struct tep_record *rec;
	struct tep_event *event;
	long long missed;
	size_t n;
	int ret, cpu;

	rec = ns_trace_read(trace, pos.cpu, pos.idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	if (!prefix) {
		ns_trace_line_prefix(trace, pos.cpu, own, sizeof(own));
		prefix = own;
	}
	n = strlen(prefix);
	if (tb_room(tb, n + 64)) {
		ns_trace_read_done(trace, rec);
		return -ENOMEM;
	}
	tb_put(tb, prefix, n);
	cpu = ns_trace_cpu_number(trace, pos.cpu);
	missed = ns_trace_missed_before(trace, pos.cpu, pos.idx);
	if (missed > 0)
		tb->len += (size_t)sprintf(tb->p + tb->len, "CPU:%d [%lld EVENTS DROPPED]\n", cpu,
					   missed);
	else if (missed < 0)
		tb->len += (size_t)sprintf(tb->p + tb->len, "CPU:%d [EVENTS DROPPED]\n", cpu);

	pthread_mutex_lock(&trace->tep_lock);
	txt->pid = ns_trace_ev_pid(trace, pos.cpu, pos.idx);
	snprintf(txt->comm, sizeof(txt->comm), "%s",
		 row_comm(trace, pos.cpu, pos.idx, x->row, txt->pid));
	if (x->shown) {
		namer_comm(trace, &x->nm, txt);
		namer_learn(trace, &x->nm, rec);
	}
	if (!trace->seq_ready) {
		trace_seq_init(s);
		trace->seq_ready = true;
	}
	trace_seq_reset(s);
	event = tep_find_event_by_record(trace->tep, rec);
	tep_print_event(trace->tep, s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(s);
	n = s->len;
	/* report drops one trailing newline from the line */
	if (n && s->buffer[n - 1] == '\n')
		n--;
	ret = put_event_line(tb, txt->comm, txt->pid, cpu, ns_trace_cpu_in_usecs(trace, pos.cpu),
			     rec->ts, event ? event->name : "(NULL)", s->buffer, n);
	pthread_mutex_unlock(&trace->tep_lock);
	ns_trace_read_done(trace, rec);
	if (ret)
		return ret;
	x->i++;
	x->row++;
	return 0;
}

/* Print the row ns_export_peek() gave, after @prefix (NULL: the file's own), and go past it. */
int ns_export_print(struct ns_export *x, FILE *out, const char *prefix)
{
	int ret;

	x->line.len = 0;
	ret = ns_export_line(x, &x->line, prefix);
	if (!ret && fwrite(x->line.p, 1, x->line.len, out) != x->line.len)
		ret = -EIO;
	return ret;
}

void ns_export_end(struct ns_export *x)
{
	if (!x)
		return;
	free(x->nm.known);
	free(x->line.p);
	ns_event_text_free(&x->txt);
	free(x);
}

/* What report's header line says of the CPUs: the top buffer's. */
int ns_trace_report_cpus(const struct ns_trace *trace)
{
	return trace->pages ? ns_pages_top_cpus(trace->pages) : trace->nr_cpus;
}

int ns_trace_export(struct ns_trace *trace, FILE *out, uint64_t first_row, uint64_t end_row)
{
	return ns_trace_export_shown(trace, out, first_row, end_row, NULL, NULL);
}

int ns_trace_export_shown(struct ns_trace *trace, FILE *out, uint64_t first_row, uint64_t end_row,
			  int (*shown)(const void *arg, uint64_t row), const void *arg)
{
	struct ns_export *x;
	int ret, cpu;

	if (trace->multi)
		return -ENOTSUP;	/* ns_trace_export_files() */
	x = ns_export_begin(trace, first_row, end_row, shown, arg);
	if (!x)
		return -ENOMEM;
	fprintf(out, "cpus=%d\n", ns_trace_report_cpus(trace));
	while ((ret = ns_export_peek(x, &cpu, NULL)) == 1 && !(ret = ns_export_print(x, out, NULL)))
		;
	ns_export_end(x);
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	return ret;
}
