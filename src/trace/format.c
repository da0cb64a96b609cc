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
	/* or an evicted chunk of the event index that the file did not give again */
	return atomic_load_explicit(&trace->changed, memory_order_relaxed) ||
	       (trace->evpool && atomic_load(&trace->evpool->error) == -ESTALE);
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
		cur->rd_held = false;
	}
	/* the same event again (its pid and type were asked first): still in the window */
	if (cur->rd_held && cur->rd_idx == idx)
		return &cur->rd_rec;
	cur->rd_held = false;
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
	ns_pages_set_tep_record(&cur->rd_rec, &r);	/* its other fields stay 0 */
	cur->rd_pid = r.pid;
	cur->rd_type = r.type;
	cur->rd_idx = idx;
	cur->rd_held = true;
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
	/* the page says the record's type (the index would read the page again if dropped) */
	if (rec && ns_trace_needs_handle(trace, cur->rd_type)) {
		/* its plugin reads on through libtracecmd: read it there */
		cur->have_next = false;
		rec = ns_trace_read_handle(trace, cpu, rec->offset);
	}
	/*
	 * the index and the file must agree, or we would show another event:
	 * as far as the index holds in memory (ns_ev_ts_agrees())
	 */
	if (rec && !ns_ev_ts_agrees(&trace->cpus[cpu].ev, idx, rec->ts)) {
		ns_trace_read_done_r(r, rec);
		rec = NULL;
	}
	cur->have_next = rec != NULL;
	cur->next_idx = idx + 1;
	return rec;
}

int ns_trace_event_r(struct ns_trace_reader *r, int cpu, uint64_t idx, struct ns_event *ev)
{
	struct ns_trace *trace = r->trace;
	struct tep_record *rec;
	struct ns_cursor *cur;

	if (trace->multi || !trace->pages || cpu < 0 || cpu >= trace->nr_cpus ||
	    idx >= trace->cpus[cpu].nr_events ||
	    ns_ev_chunk_in_memory(&trace->cpus[cpu].ev, idx >> NS_EV_CHUNK_SHIFT))
		return ns_trace_event(trace, cpu, idx, ev);
	rec = ns_trace_read_r(r, cpu, idx);
	if (!rec)	/* the index's answer, and its error */
		return ns_trace_event(trace, cpu, idx, ev);
	cur = cursor_of(r, cpu);
	ev->ts_ns = rec->ts;
	ev->pid = cur->rd_pid;
	ev->type = cur->rd_type;
	ns_trace_read_done_r(r, rec);
	return 0;
}

/**
 * ns_trace_read_type_r - the event type of @rec, which ns_trace_read_r()
 * gave, as its page said; -1 for a record read through libtracecmd.
 */
int ns_trace_read_type_r(struct ns_trace_reader *r, const struct tep_record *rec)
{
	const struct ns_cursor *cur;

	if (rec->cpu < 0 || rec->cpu >= r->trace->nr_cpus)
		return -1;
	cur = cursor_of(r, rec->cpu);
	return rec == &cur->rd_rec && cur->rd_held ? cur->rd_type : -1;
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
 * Chunks of the index it reads again go into buffers of its own, not into
 * the pages it shares with the parent (ns_evpool_share()).
 */
void ns_trace_forked(struct ns_trace *trace)
{
	if (trace->multi)
		for (int k = 0; k < trace->multi->nr; k++)
			ns_trace_forked(trace->multi->sub[k]);
	trace->forked = true;
	ns_evpool_share(trace->evpool, true);
}

void ns_trace_share_pages(struct ns_trace *trace, bool on)
{
	if (trace->multi)
		for (int k = 0; k < trace->multi->nr; k++)
			ns_trace_share_pages(trace->multi->sub[k], on);
	ns_evpool_share(trace->evpool, on);
}

/* Done with a record of ns_trace_read(). */
void ns_trace_read_done(struct ns_trace *trace, struct tep_record *rec)
{
	if (trace->pages)
		ns_trace_read_done_r(&(struct ns_trace_reader){ trace, NULL, NULL }, rec);
	else if (rec)
		tracecmd_free_record(rec);
}

/*
 * Whether event (@cpu, @idx) is at or before row @task->unknown_until, its
 * row not known. The order merges the CPUs by time, then tie rank: where
 * both CPUs are in time order, an event before the naming one in time
 * (or at the same time on a CPU ranked first) comes before it in rows.
 * Otherwise, and at the same time on the same CPU, the row is found
 * (ns_trace_row_of() replays the merge from a checkpoint: the list of an
 * instance buffer's task once paid that for each row it drew).
 */
static bool before_naming(struct ns_trace *trace, const struct ns_task *task, int cpu,
			  uint64_t idx)
{
	int ucpu = task->unknown_cpu;
	struct ns_event e;

	if (ucpu >= 0 && ucpu < trace->nr_cpus && !trace->cpus[cpu].unsorted &&
	    !trace->cpus[ucpu].unsorted && !ns_ev_get(&trace->cpus[cpu].ev, idx, &e)) {
		if (e.ts_ns != task->unknown_ts)
			return e.ts_ns < task->unknown_ts;
		if (cpu != ucpu)
			return ns_trace_tie_rank(trace, cpu) < ns_trace_tie_rank(trace, ucpu);
	}
	return ns_trace_row_of(trace, cpu, idx) <= (uint64_t)task->unknown_until;
}

/* The comm report prints for @pid at @row (row UINT64_MAX: look it up). */
static const char *row_comm(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row, int pid)
{
	const struct ns_task *task = ns_tasks_find(&trace->tasks, pid);

	if (task && task->unknown_until >= 0 &&
	    (row == UINT64_MAX ? before_naming(trace, task, cpu, idx)
			       : row <= (uint64_t)task->unknown_until))
		return "<...>";
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

/* strlen(@src), and @src copied into @dst (@len bytes), cut short if it must. */
static size_t copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (len) {
		size_t k = n < len ? n : len - 1;

		memcpy(dst, src, k);
		dst[k] = '\0';
	}
	return n;
}

/* @v in decimal into @buf (at least 20 bytes), no terminator; returns the length. */
static size_t utoa(uint64_t v, char *buf)
{
	char digits[20];
	size_t n = 0, i;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = digits[n - 1 - i];
	return n;
}

/*
 * The time column as report pads it for a clock in microseconds, without
 * a printf (a search of the whole line prints millions of them): the time
 * in microseconds, rounded to the nearest, as "S.UUUUUU" with the seconds
 * right-aligned in 5 columns. Only over a second: below it libtraceevent
 * versions differ (some print the microseconds alone, in 12 columns), and
 * that is left to libtraceevent. Returns the length, or 0 when it cannot.
 */
static size_t own_time(uint64_t ts, char *buf, size_t len)
{
	char digits[20];
	uint64_t us;
	size_t n, pad, i, at;
	unsigned int frac;

	if (ts > UINT64_MAX - 500)
		return 0;
	us = (ts + 500) / 1000;
	if (us <= 1000000)
		return 0;
	frac = (unsigned int)(us % 1000000);
	n = utoa(us / 1000000, digits);
	pad = n < 5 ? 5 - n : 0;
	if (pad + n + 8 > len)
		return 0;
	memset(buf, ' ', pad);
	memcpy(buf + pad, digits, n);
	at = pad + n;
	buf[at++] = '.';
	for (i = 6; i-- > 0; frac /= 10)
		buf[at + i] = (char)('0' + frac % 10);
	at += 6;
	buf[at] = '\0';
	return at;
}

/*
 * tep_find_event_by_record(), through a small cache by type: libtraceevent
 * keeps only the last event it found, and else searches all the trace's
 * event formats, for each event printed. Under trace->tep_lock.
 */
static struct tep_event *find_event(struct ns_trace *trace, struct tep_record *rec)
{
	int type;
	__typeof__(trace->event_cache[0]) *slot;

	if (rec->size < 0)
		return NULL;
	type = tep_data_type(trace->tep, rec);
	slot = &trace->event_cache[(unsigned int)type % NS_ARRAY_SIZE(trace->event_cache)];
	if (!slot->event || slot->type != type) {
		slot->event = tep_find_event(trace->tep, type);
		slot->type = type;
	}
	return slot->event;
}

/* format.c's one buffer for every event, kept (trace->tep_lock makes it ours), reset */
static struct trace_seq *seq_of(struct ns_trace *trace)
{
	if (!trace->seq_ready) {
		trace_seq_init(&trace->seq);
		trace->seq_ready = true;
	}
	trace_seq_reset(&trace->seq);
	return &trace->seq;
}

/* libtraceevent's time column of @rec (its tep_print_event() format for the clock). */
static size_t tep_time(struct ns_trace *trace, struct tep_record *rec, bool usecs, char *buf,
		       size_t len)
{
	struct trace_seq *s = seq_of(trace);

	tep_print_event(trace->tep, s, rec, usecs ? "%6.1000d" : "%12d", TEP_PRINT_TIME);
	copy_seq(buf, len, s);
	return strlen(buf);
}

/*
 * Does own_time() print what libtraceevent prints, with this trace's tep?
 * Asked once per trace, of @rec (an event libtraceevent knows) at its own
 * time and at times that round up, round down, carry into the seconds and
 * need more than 5 digits of seconds.
 */
static bool own_time_agrees(struct ns_trace *trace, const struct tep_record *rec)
{
	static const uint64_t probes[] = {
		1000000500ull, 1000001499ull, 1999999499ull, 1999999500ull, 10171572790123ull,
		99999999999500ull, 123456789012345678ull, 18446744073709551000ull,
	};
	struct tep_record r = *rec;
	char own[32], lib[32];
	size_t k;

	for (k = 0; k <= NS_ARRAY_SIZE(probes); k++) {
		r.ts = k < NS_ARRAY_SIZE(probes) ? probes[k] : rec->ts;
		if (!own_time(r.ts, own, sizeof(own)))
			continue;
		tep_time(trace, &r, true, lib, sizeof(lib));
		if (strcmp(own, lib))
			return false;
	}
	return true;
}

/* ns_trace_time_text(), @known: libtraceevent knows @rec's event (else it prints no time) */
static size_t time_text(struct ns_trace *trace, struct tep_record *rec, int slot, bool own,
			bool known, char *buf, size_t len)
{
	bool usecs = ns_trace_cpu_in_usecs(trace, slot);
	size_t n;

	if (own && usecs && known && trace->own_time >= 0) {
		if (!trace->own_time)
			trace->own_time = own_time_agrees(trace, rec) ? 1 : -1;
		if (trace->own_time > 0) {
			n = own_time(rec->ts, buf, len);
			if (n)
				return n;
		}
	}
	return tep_time(trace, rec, usecs, buf, len);
}

size_t ns_trace_time_text(struct ns_trace *trace, struct tep_record *rec, int slot, bool own,
			  char *buf, size_t len)
{
	return time_text(trace, rec, slot, own, find_event(trace, rec) != NULL, buf, len);
}

/*
 * The columns libtraceevent prints for @rec (latency if @latency, time,
 * event, info) into @txt; @time_raw gets the time exactly as report pads
 * it (NULL: no time, no latency). The caller holds trace->tep_lock.
 */
static int print_columns(struct ns_trace *trace, struct tep_record *rec, struct ns_event_text *txt,
			 char *time_raw, size_t time_len, bool latency)
{
	struct tep_handle *tep = trace->tep;
	struct trace_seq *s = seq_of(trace);
	struct tep_event *event;
	const char *p;
	size_t n;

	event = find_event(trace, rec);
	txt->latency[0] = '\0';
	if (time_raw) {
		if (latency) {
			tep_print_event(tep, s, rec, "%s", TEP_PRINT_LATENCY);
			copy_seq(txt->latency, sizeof(txt->latency), s);
		}
		time_text(trace, rec, txt->slot, true, event != NULL, time_raw, time_len);
		for (p = time_raw; *p == ' '; p++)
			;
		copy_str(txt->time, sizeof(txt->time), p);
	}

	copy_str(txt->event, sizeof(txt->event), event ? event->name : "(NULL)");

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

int ns_trace_print_locked(struct ns_trace *trace, struct tep_record *rec,
			  struct ns_event_text *txt, char *time_raw, size_t time_len)
{
	return print_columns(trace, rec, txt, time_raw, time_len, true);
}

/* Fill @txt from @rec, event (cpu, idx) at @row (the latency flags if @latency). */
static int format_record(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			 struct tep_record *rec, struct ns_event_text *txt,
			 char *time_raw, size_t time_len, bool latency)
{
	int ret;

	pthread_mutex_lock(&trace->tep_lock);
	txt->pid = ns_trace_ev_pid(trace, cpu, idx);
	txt->cpu = ns_trace_cpu_number(trace, cpu);
	txt->slot = cpu;
	copy_str(txt->comm, sizeof(txt->comm), row_comm(trace, cpu, idx, row, txt->pid));
	ret = print_columns(trace, rec, txt, time_raw, time_len, latency);
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
	ret = format_record(trace, cpu, idx, UINT64_MAX, rec, txt, time_raw, sizeof(time_raw),
			    true);
	ns_trace_read_done(trace, rec);
	return ret;
}

void ns_event_text_free(struct ns_event_text *txt)
{
	free(txt->info);
	txt->info = NULL;
	txt->info_size = 0;
}


/*
 * The event's line as report prints it, after @prefix, without the
 * lost-events line or the newline: "%16s-%-5d [%03d]%s%s: %s: %*s%s" of the
 * comm, pid, cpu, a blank for a microsecond clock, the time as report pads
 * it, the event name padded to 20 and the info. Written out by hand, not by
 * snprintf(): a search of the whole line makes millions of them.
 * Into *@line, (re)allocated to *@size bytes.
 */
static int build_line(struct ns_trace *trace, const struct ns_event_text *txt,
		      const char *time_raw, const char *prefix, char **line, size_t *size)
{
	size_t lp = strlen(prefix), lc = strlen(txt->comm), lt = strlen(time_raw);
	size_t le = strlen(txt->event), li = strlen(txt->info ? txt->info : "");
	bool usecs = ns_trace_cpu_in_usecs(trace, txt->slot);
	char pid[24], cpu[24];
	size_t lpid, lcpu, need, at = 0, pad;

	/* the pid left-aligned in 5, the cpu zero-padded to 3 */
	if (txt->pid >= 0 && txt->cpu >= 0) {
		lpid = utoa((unsigned int)txt->pid, pid);
		lcpu = utoa((unsigned int)txt->cpu, cpu);
	} else {
		lpid = (size_t)snprintf(pid, sizeof(pid), "%d", txt->pid);
		lcpu = (size_t)snprintf(cpu, sizeof(cpu), "%03d", txt->cpu);
	}
	need = lp + (lc > 16 ? lc : 16) + 1 + (lpid > 5 ? lpid : 5) + 2 + (lcpu > 3 ? lcpu : 3) +
	       1 + usecs + lt + 2 + le + 2 + (le < 20 ? 20 - le : 0) + li + 1;
	if (!*line || *size < need) {
		char *p = realloc(*line, need + 64);

		if (!p)
			return -ENOMEM;
		*line = p;
		*size = need + 64;
	}
#define PUT(src, n)	do { memcpy(*line + at, (src), (n)); at += (n); } while (0)
#define PAD(c, n)	do { memset(*line + at, (c), (n)); at += (n); } while (0)
	PUT(prefix, lp);
	PAD(' ', lc < 16 ? 16 - lc : 0);
	PUT(txt->comm, lc);
	PUT("-", 1);
	PUT(pid, lpid);
	PAD(' ', lpid < 5 ? 5 - lpid : 0);
	PUT(" [", 2);
	pad = lcpu < 3 && txt->cpu >= 0 ? 3 - lcpu : 0;
	PAD('0', pad);
	PUT(cpu, lcpu);
	PUT("]", 1);
	if (usecs)
		PUT(" ", 1);
	PUT(time_raw, lt);
	PUT(": ", 2);
	PUT(txt->event, le);
	PUT(": ", 2);
	PAD(' ', le < 20 ? 20 - le : 0);
	PUT(txt->info ? txt->info : "", li);
#undef PUT
#undef PAD
	(*line)[at] = '\0';
	return 0;
}

/*
 * Append to @tb the lines report prints for an event: in a file with
 * instances (or read with others, @prefix), the stream's prefix comes
 * first, before the lost-events line if there is one, then the event's
 * line, built in *@line (*@size bytes).
 */
static int export_line(struct ns_trace *trace, struct ns_textbuf *tb,
		       const struct ns_event_text *txt, const char *time_raw, const char *prefix,
		       char **line, size_t *size)
{
	size_t lp = strlen(prefix), n;
	int ret;

	ret = build_line(trace, txt, time_raw, "", line, size);
	if (ret)
		return ret;
	n = strlen(*line);
	/* the prefix is as long as the longest file name: no fixed buffer */
	if (NS_GROW(tb->p, tb->cap, tb->len + lp + 64 + n + 1))
		return -ENOMEM;
	memcpy(tb->p + tb->len, prefix, lp);
	tb->len += lp;
	if (txt->missed > 0)
		tb->len += (size_t)sprintf(tb->p + tb->len, "CPU:%d [%lld EVENTS DROPPED]\n",
					   txt->cpu, txt->missed);
	else if (txt->missed < 0)
		tb->len += (size_t)sprintf(tb->p + tb->len, "CPU:%d [EVENTS DROPPED]\n", txt->cpu);
	memcpy(tb->p + tb->len, *line, n);
	tb->len += n;
	tb->p[tb->len++] = '\n';
	return 0;
}

static int format_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
		       struct ns_event_text *txt, char **line, size_t *size, bool latency);

/* Several files: the file's line after its stream's name, as report -i A -i B. */
static int multi_format_line(struct ns_trace *trace, int cpu, uint64_t idx,
			     struct ns_event_text *txt, char **line, size_t *size, bool latency)
{
	int slot = cpu, ret, n;
	struct ns_trace *sub = ns_multi_slot(trace, &cpu);
	const char *name = ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, slot));
	size_t len;

	if (!sub)
		return -ENOENT;
	ret = format_line(sub, cpu, idx, UINT64_MAX, txt, line, size, latency);
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

static int format_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
		       struct ns_event_text *txt, char **line, size_t *size, bool latency)
{
	struct tep_record *rec;
	char time_raw[32], prefix[NS_TRACE_PREFIX_LEN];
	int ret;

	if (trace->multi)
		return multi_format_line(trace, cpu, idx, txt, line, size, latency);
	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	ret = format_record(trace, cpu, idx, row, rec, txt, time_raw, sizeof(time_raw), latency);
	ns_trace_read_done(trace, rec);
	if (ret || !line)
		return ret;
	ns_trace_line_prefix(trace, cpu, prefix, sizeof(prefix));
	return build_line(trace, txt, time_raw, prefix, line, size);
}

int ns_trace_format_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			 struct ns_event_text *txt, char **line, size_t *size)
{
	return format_line(trace, cpu, idx, row, txt, line, size, true);
}

int ns_trace_match_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			struct ns_event_text *txt, char **line, size_t *size)
{
	return format_line(trace, cpu, idx, row, txt, line, size, false);
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
	size_t i;

	memset(nm, 0, sizeof(*nm));
	/* nothing to do when the saved cmdlines name every task (namer_comm()) */
	for (i = 0; i < trace->tasks.cap; i++)
		if (trace->tasks.slots[i].pid && trace->tasks.slots[i].unknown_until >= 0)
			break;
	if (i == trace->tasks.cap)
		return;
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

/* A row report prints but the export cuts (NS_EXPORT_CUT): the names its sched event gives. */
static int namer_learn_cut(struct ns_trace *trace, struct namer *nm, int cpu, uint64_t idx)
{
	int type;
	struct tep_record *rec;

	if (!nm->known)
		return 0;
	type = ns_trace_ev_type(trace, cpu, idx);
	if (!ns_sched_names_type(&nm->sched, type))
		return 0;
	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	namer_learn(trace, nm, rec);
	ns_trace_read_done(trace, rec);
	return 0;
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
	char *line;			/* export_line()'s */
	size_t line_size;
	struct ns_textbuf out;		/* ns_export_print()'s */
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
	int say;

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
		if (!x->shown)
			break;
		say = x->shown(x->arg, x->row);
		if (say == NS_EXPORT_CUT) {
			int ret = namer_learn_cut(x->trace, &x->nm, x->pos[x->i].cpu,
						  x->pos[x->i].idx);

			if (ret)
				return ret;
		} else if (say) {
			break;
		}
	}
	*cpu = x->pos[x->i].cpu;
	if (ts)
		*ts = ns_trace_ev_ts(x->trace, *cpu, x->pos[x->i].idx);
	return 1;
}

/*
 * Append the row ns_export_peek() gave to @tb as report prints it, after
 * @prefix (NULL: the file's own), and go past it.
 */
int ns_export_line(struct ns_export *x, struct ns_textbuf *tb, const char *prefix)
{
	struct ns_trace *trace = x->trace;
	struct ns_pos pos = x->pos[x->i];
	char time_raw[32], own[NS_TRACE_PREFIX_LEN];
	struct tep_record *rec;
	int ret;

	rec = ns_trace_read(trace, pos.cpu, pos.idx);
	if (!rec)
		return ns_trace_changed(trace) ? -ESTALE : -EIO;
	ret = format_record(trace, pos.cpu, pos.idx, x->row, rec, &x->txt, time_raw,
			    sizeof(time_raw), false);
	if (x->shown) {
		namer_comm(trace, &x->nm, &x->txt);
		namer_learn(trace, &x->nm, rec);
	}
	ns_trace_read_done(trace, rec);
	if (ret)
		return ret;
	if (!prefix) {
		ns_trace_line_prefix(trace, x->txt.slot, own, sizeof(own));
		prefix = own;
	}
	ret = export_line(trace, tb, &x->txt, time_raw, prefix, &x->line, &x->line_size);
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

	x->out.len = 0;
	ret = ns_export_line(x, &x->out, prefix);
	if (!ret && fwrite(x->out.p, 1, x->out.len, out) != x->out.len)
		ret = -EIO;
	return ret;
}

void ns_export_end(struct ns_export *x)
{
	if (!x)
		return;
	free(x->nm.known);
	free(x->line);
	free(x->out.p);
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

int ns_trace_info_gate(struct ns_trace *trace, struct ns_text_gate *gate, int cpu, uint64_t idx)
{
	int ret;

	if (trace->multi) {
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		return sub ? ns_trace_info_gate(sub, gate, cpu, idx) : NS_GATE_MAYBE;
	}
	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events)
		return NS_GATE_MAYBE;
	pthread_mutex_lock(&trace->tep_lock);
	ret = ns_text_gate_info(gate, trace, ns_trace_ev_type(trace, cpu, idx));
	pthread_mutex_unlock(&trace->tep_lock);
	return ret;
}

/*
 * ns_trace_line_gate() in a file's trace, whose line comes after @outer
 * (the file's name in a trace of several). The line's head is what
 * build_line() writes with an empty info, from the index: the time from
 * the index's timestamp by own_time(), once it is known to agree with
 * libtraceevent (else, and for an event after lost ones, MAYBE).
 */
static int line_gate(struct ns_trace *trace, struct ns_text_gate *gate, int cpu, uint64_t idx,
		     uint64_t row, const char *outer, char **line, size_t *size)
{
	char time_raw[32], prefix[NS_TRACE_PREFIX_LEN + 256];
	struct ns_event_text txt = { 0 };
	const char *name;
	struct ns_event ev;
	size_t lo;
	int ret = NS_GATE_MAYBE;

	if (trace->multi) {
		int slot = cpu;
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		if (!sub)
			return NS_GATE_MAYBE;
		snprintf(prefix, sizeof(prefix), "%s: ",
			 ns_trace_stream_name(trace, ns_trace_cpu_stream(trace, slot)));
		if (strlen(prefix) + 1 >= sizeof(prefix) - NS_TRACE_PREFIX_LEN)
			return NS_GATE_MAYBE;
		return line_gate(sub, gate, cpu, idx, UINT64_MAX, prefix, line, size);
	}
	if (cpu < 0 || cpu >= trace->nr_cpus || idx >= trace->cpus[cpu].nr_events ||
	    !ns_trace_cpu_in_usecs(trace, cpu) || ns_trace_missed_before(trace, cpu, idx))
		return NS_GATE_MAYBE;
	if (ns_ev_get(&trace->cpus[cpu].ev, idx, &ev))
		return NS_GATE_MAYBE;
	lo = strlen(outer);
	memcpy(prefix, outer, lo);
	ns_trace_line_prefix(trace, cpu, prefix + lo, sizeof(prefix) - lo);

	pthread_mutex_lock(&trace->tep_lock);
	name = ns_text_gate_event(gate, trace, ev.type);
	if (trace->own_time > 0 && name && own_time(ev.ts_ns, time_raw, sizeof(time_raw))) {
		txt.pid = ev.pid;
		txt.cpu = ns_trace_cpu_number(trace, cpu);
		txt.slot = cpu;
		copy_str(txt.comm, sizeof(txt.comm), row_comm(trace, cpu, idx, row, ev.pid));
		copy_str(txt.event, sizeof(txt.event), name);
		if (!build_line(trace, &txt, time_raw, prefix, line, size))
			ret = ns_text_gate_line(gate, trace, ev.type, *line, strlen(*line));
	}
	pthread_mutex_unlock(&trace->tep_lock);
	return ret;
}

int ns_trace_line_gate(struct ns_trace *trace, struct ns_text_gate *gate, int cpu, uint64_t idx,
		       uint64_t row, char **line, size_t *size)
{
	return line_gate(trace, gate, cpu, idx, row, "", line, size);
}
