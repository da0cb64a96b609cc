/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace layer: opens a trace.dat read-only through libtracecmd and keeps a
 * compact index of every event, per CPU, plus the merged order in which
 * `trace-cmd report` prints them. No curses, no configuration here.
 *
 * Time is always in nanoseconds of the file's clock (uint64_t, suffix _ns).
 * An event is addressed either by (cpu, idx) -- its index in that CPU's
 * array -- or by its row, its position in the merged order (row 0 is the
 * first line after "cpus=N" in `trace-cmd report`).
 */
#ifndef NURSESHARK_TRACE_H
#define NURSESHARK_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>

struct ns_trace;

/* What the index knows of one event (it keeps it in 8 bytes, see events.c). */
struct ns_event {
	uint64_t ts_ns;
	int32_t pid;
	int32_t type;		/* libtraceevent event id */
};

/* How a run began (struct ns_run's kind). */
enum ns_run_kind {
	NS_RUN_SWITCH,		/* a sched_switch switched its task in */
	NS_RUN_UNSEEN,		/* its task had an event where no switch-in said it ran */
	NS_RUN_LOST,		/* pid -1: events were lost here; who ran is not known */
};

/*
 * A span of time during which one task ran on a CPU. Run i lasts from
 * runs[i].start_ns until runs[i + 1].start_ns; the last run lasts until
 * ns_trace_last_ns(). A sched_switch starts a run of its next_pid; an event
 * of a task other than the one running starts a run of its task
 * (NS_RUN_UNSEEN: every event is recorded by the task running, so its
 * switch-in was not recorded: at the CPU's first events, after lost events,
 * in a trace without sched_switch); events lost before an event make a run
 * of pid -1 (NS_RUN_LOST) from the CPU's event before them. runs[0] starts
 * at the CPU's first event. Example: events a(pid 5) switch(5->7) b(pid 7)
 * [lost] c(pid 9) give runs 5 at a, 7 at switch, -1 at b, 9 at c.
 */
struct ns_run {
	uint64_t start_ns;
	int32_t pid;
	int32_t kind;		/* enum ns_run_kind */
};

/* Position of an event in its CPU's array. */
struct ns_pos {
	int cpu;
	uint64_t idx;
};

/* The columns of one event as `trace-cmd report` prints them. */
struct ns_event_text {
	char comm[64];		/* "<idle>", "<...>" when unknown, as report */
	int pid;
	int cpu;		/* in its stream, as report prints it */
	int slot;		/* the index's cpu (see the streams below) */
	char latency[16];	/* "d..2." as report -l prints it */
	char time[32];		/* "10171.572790" (seconds.microseconds) */
	char event[64];		/* event name, "(NULL)" for an unknown id */
	char *info;		/* may hold newlines (stack traces); owned */
	size_t info_size;
	long long missed;	/* events lost just before this one: >0 count,
				 * -1 unknown count, 0 none */
};

/**
 * ns_trace_open - open a trace.dat file read-only and index it
 * @path: the file
 * @err: buffer for a one-line reason on failure (no file name in it)
 * @err_len: size of @err
 *
 * Returns the handle, or NULL with @err filled in.
 */
struct ns_trace *ns_trace_open(const char *path, char *err, size_t err_len);
void ns_trace_close(struct ns_trace *trace);

/*
 * Opening in the background, for the screen: ns_trace_open_async() reads
 * the header and returns at once, with the events being indexed by
 * threads of its own where the fast reader reads the file (else it
 * indexes them before it returns, as ns_trace_open()). Until
 * ns_trace_wait() has returned 0, use only ns_trace_loading(),
 * ns_trace_preview(), ns_trace_cpu_nr_events() and the events it counts
 * (ns_trace_event(), ns_trace_ev_*(), ns_trace_cpu_lower_bound()),
 * ns_trace_path(), ns_trace_nr_cpus() and ns_trace_close(), which stops
 * the indexing.
 */
struct ns_trace_progress {
	uint64_t first_ns, last_ns;	/* the trace's span, known from the start */
	uint64_t done_pages, total_pages;	/* ring-buffer pages indexed, of all */
	uint64_t events;		/* indexed so far */
};

struct ns_trace *ns_trace_open_async(const char *path, char *err, size_t err_len);

/*
 * What an open can be asked besides; all zero: ns_trace_open_async(). Only
 * tests ask anything today. @hold_index lets a test see the trace half
 * indexed for as long as it needs (tests/loading.sh, through the binary's
 * --test-hold-index): after each CPU's first page, an indexing thread
 * waits while @hold_index(@hold_arg) returns true, asking every
 * millisecond; closing the trace ends the wait.
 */
struct ns_trace_open_opts {
	bool (*hold_index)(void *arg);
	void *hold_arg;
	/*
	 * The file was just written by this process (nurseshark live, whose
	 * reader threads forbid the fork): no child opens it first.
	 */
	bool trusted;
	/*
	 * The buffers to read by name ("top": the top buffer), as --buffer
	 * asks; @nr_buffers 0: every buffer of the file. The names must
	 * outlive the open.
	 */
	const char *const *buffers;
	int nr_buffers;
	/*
	 * Several files (--buffer NAME with -i A -i B): of @buffers, only
	 * those the file has are read; a file with none of them is read
	 * whole. ns_trace_reads_buffer() tells which names were found.
	 */
	bool buffers_if_present;
	/*
	 * --ts-offset NS: @ts_offset replaces the offset the file's own DATE
	 * and OFFSET options give every timestamp, as tracecmd_set_ts_offset()
	 * does for `trace-cmd report -i FILE --ts-offset NS`.
	 */
	bool has_ts_offset;
	long long ts_offset;
	/*
	 * Nothing is on the screen and the process may end on a damaged file:
	 * the child that opens it first runs beside our own open, and a crash
	 * of ours prints the child's reason ("nurseshark: PATH: REASON") and
	 * exits with status 1 (open.c). Else the child's open comes first.
	 */
	bool exit_on_crash;
	/*
	 * --index-memory: bytes for the event index's chunks (0: the default,
	 * ns_trace_default_index_memory(); UINT64_MAX: all of them). Past it,
	 * chunks not used lately are dropped and read again from the file
	 * when needed (src/trace/events.c).
	 */
	uint64_t index_memory;
	/*
	 * --test-index-rounds: index in this many stretches of time whatever
	 * the budget (src/trace/index.c's rounds; 0: as the budget says).
	 */
	int index_rounds;
};

/* ns_trace_open_async() with @opts (NULL: none). */
struct ns_trace *ns_trace_open_async_opts(const char *path, const struct ns_trace_open_opts *opts,
					  char *err, size_t err_len);
/* While indexing goes on: true, and how far it is in @prog (may be NULL). */
bool ns_trace_loading(const struct ns_trace *trace, struct ns_trace_progress *prog);
/* Wait for the index: 0, or a negative errno with the reason in @err. */
int ns_trace_wait(struct ns_trace *trace, char *err, size_t err_len);
/*
 * Rows [@first_row, @first_row + @n) of the list, read straight from the
 * file (see preview.c): fills @out (free each with ns_event_text_free()),
 * returns how many (fewer at the end), or a negative errno; -ENOTSUP when
 * the file is read through libtracecmd (which indexes before the screen).
 */
int ns_trace_preview(struct ns_trace *trace, uint64_t first_row, size_t n,
		     struct ns_event_text *out);

const char *ns_trace_path(const struct ns_trace *trace);
int ns_trace_nr_cpus(const struct ns_trace *trace);
uint64_t ns_trace_nr_events(const struct ns_trace *trace);
/* First and last event timestamp over all CPUs (0, 0 for an empty trace). */
uint64_t ns_trace_first_ns(const struct ns_trace *trace);
uint64_t ns_trace_last_ns(const struct ns_trace *trace);
/* Bytes of memory held by the index (events, runs, order checkpoints). */
size_t ns_trace_index_bytes(const struct ns_trace *trace);
/* How many times a chunk of the index was dropped and read again from the file. */
uint64_t ns_trace_chunk_reloads(const struct ns_trace *trace);
/* The stretches of time the index was built in (index.c's rounds; 1: the CPUs whole). */
int ns_trace_index_rounds(const struct ns_trace *trace);

/* The limits on this process's memory (memory.c), UINT64_MAX for none. */
struct ns_memory_limits {
	uint64_t cgroup;		/* the least memory.max of our cgroup and its parents */
	uint64_t address_space;		/* ulimit -v */
	uint64_t available;		/* MemAvailable */
};

void ns_memory_limits(struct ns_memory_limits *l);
/* the event index's budget by default, at most; a share's least, whatever the limits */
#define NS_INDEX_MEMORY_DEFAULT	(32ull << 20)
#define NS_MEMORY_SHARE_FLOOR	(16ull << 20)
/*
 * What one consumer of memory may take by default: a quarter of the least
 * limit, at least NS_MEMORY_SHARE_FLOOR (UINT64_MAX: no limit known).
 */
uint64_t ns_memory_share(void);
/* The event index's budget when --index-memory is not given: the share, at most 32 MiB. */
uint64_t ns_trace_default_index_memory(void);
/* Set malloc() up for long-lived big blocks: first thing in main(). */
void ns_memory_setup(void);
/* Which limit memory ran out under, for a message: "ulimit -v of 1024 MB"... */
void ns_memory_limit_text(char *buf, size_t len);
/* "out of memory under LIMIT" into @err (ns_set_err()), instead of strerror(ENOMEM). */
void ns_set_nomem(char *err, size_t err_len);

/*
 * Streams (streams.c): the buffers of the file read, the top buffer first,
 * then each instance (trace-cmd record -B NAME) in the file's order. Their
 * CPUs are numbered one after the other, so every "cpu" of this header is
 * a slot of one stream: 0 .. ns_trace_nr_cpus() - 1 over all of them.
 * Without instances there is one stream and a slot is the CPU.
 */
#define NS_TRACE_TOP_NAME "top"	/* how --buffer names the top buffer */
int ns_trace_nr_streams(const struct ns_trace *trace);
/* The buffer's name, "" for the top buffer. */
const char *ns_trace_stream_name(const struct ns_trace *trace, int stream);
int ns_trace_cpu_stream(const struct ns_trace *trace, int cpu);
/* The CPU's number in its stream, as report prints it. */
int ns_trace_cpu_number(const struct ns_trace *trace, int cpu);
/* A stream's first slot, and in *@nr_cpus (may be NULL) how many it has. */
int ns_trace_stream_first_cpu(const struct ns_trace *trace, int stream, int *nr_cpus);
/* The stream named @name ("top" for the top buffer), or -ENOENT. */
int ns_trace_stream_of_name(const struct ns_trace *trace, const char *name);
/*
 * Whether the buffer @name ("top": the top buffer) is read, by the file
 * or, of several files, by any of them.
 */
bool ns_trace_reads_buffer(const struct ns_trace *trace, const char *name);
/*
 * Every buffer of the file, read or not (--buffer left it out, or it is an
 * instance of a v6 file): the top buffer (0, named "") then the instances.
 */
int ns_trace_file_nr_buffers(const struct ns_trace *trace);
/* Buffer @i's name in @buf ("" for the top buffer). */
void ns_trace_file_buffer_name(const struct ns_trace *trace, int i, char *buf, size_t len);
/* "CPU1" for the top buffer's, "b1 CPU1" for an instance's (its name cut to 8). */
#define NS_TRACE_LABEL_NAME_W 8
void ns_trace_cpu_label(const struct ns_trace *trace, int cpu, char *buf, size_t len);

/* Events of @cpu, indexed 0 .. count - 1 in the order its ring buffer holds them. */
uint64_t ns_trace_cpu_nr_events(const struct ns_trace *trace, int cpu);
/* Event @idx of @cpu: 0, or -ENOENT (and @ev untouched) out of range. */
int ns_trace_event(const struct ns_trace *trace, int cpu, uint64_t idx, struct ns_event *ev);
/* One field of event @idx of @cpu; both must be in range. */
uint64_t ns_trace_ev_ts(const struct ns_trace *trace, int cpu, uint64_t idx);
int ns_trace_ev_pid(const struct ns_trace *trace, int cpu, uint64_t idx);
int ns_trace_ev_type(const struct ns_trace *trace, int cpu, uint64_t idx);
const struct ns_run *ns_trace_cpu_runs(const struct ns_trace *trace, int cpu,
				       uint64_t *count);

/*
 * Does a timestamp of @cpu go back (a damaged file, odd clocks)? Then the
 * lower bound of a time is not a cut of the CPU's events in time.
 */
bool ns_trace_cpu_unsorted(const struct ns_trace *trace, int cpu);
/* Index of the first event of @cpu with ts_ns >= @ts_ns (count if none). */
uint64_t ns_trace_cpu_lower_bound(const struct ns_trace *trace, int cpu, uint64_t ts_ns);
/*
 * Without reading events: *@lo <= ns_trace_cpu_lower_bound(@ts_ns) <= *@hi,
 * from the index's per-group first and last timestamps (equal where they
 * tell it exactly).
 */
void ns_trace_cpu_lower_bound_range(const struct ns_trace *trace, int cpu, uint64_t ts_ns,
				    uint64_t *lo, uint64_t *hi);
/*
 * Whether @cpu has an event with @a <= ts_ns < @b: what
 * ns_trace_cpu_lower_bound(@a) says, read from the per-group timestamps
 * unless [@a, @b) lies inside one group of events.
 */
bool ns_trace_cpu_any_event(const struct ns_trace *trace, int cpu, uint64_t a, uint64_t b);

/**
 * ns_trace_rows - positions of consecutive rows in the merged order
 * @first_row: the first row wanted
 * @n: how many
 * @out: filled with up to @n positions
 *
 * Returns how many were filled (fewer at the end of the trace).
 */
size_t ns_trace_rows(const struct ns_trace *trace, uint64_t first_row, size_t n,
		     struct ns_pos *out);
/*
 * Where slot @cpu's event goes among events of equal timestamps: the lower
 * rank first (report's order of its buffers: every file's top buffer in
 * the command line's order, then each file's instances; then the lower CPU).
 */
int ns_trace_tie_rank(const struct ns_trace *trace, int cpu);
/*
 * ns_trace_rows_before - how many events of each CPU come before row @row of
 * the merged order, into @consumed (ns_trace_nr_cpus() counts), known
 * without reading an event where @row is a multiple of ns_trace_order_stride()
 * or the number of rows. Returns false (and fills nothing) for other rows.
 */
bool ns_trace_rows_before(const struct ns_trace *trace, uint64_t row, uint64_t *consumed);
uint64_t ns_trace_order_stride(void);
/* The row of an event given by its position. */
uint64_t ns_trace_row_of(const struct ns_trace *trace, int cpu, uint64_t idx);
/* The first row whose timestamp is >= @ts_ns (nr_events if none). */
uint64_t ns_trace_row_at_ns(const struct ns_trace *trace, uint64_t ts_ns);
/* The event at a row, with its position if @pos: 0, or -ENOENT past the end. */
int ns_trace_row_event(const struct ns_trace *trace, uint64_t row, struct ns_pos *pos,
		       struct ns_event *ev);

/* Name of a task for labels: the last comm seen for the pid, "<idle>" for 0. */
const char *ns_trace_task_comm(const struct ns_trace *trace, int pid);
/*
 * The comm the Task column shows for an event, without reading it ("<...>"
 * as report); @row is the event's row, or UINT64_MAX to look it up.
 */
const char *ns_trace_row_comm(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row);
/* Name of an event type ("sched_switch"), "(NULL)" if unknown. */
const char *ns_trace_event_name(const struct ns_trace *trace, int type);

/**
 * ns_trace_changed - whether the file changed under us since it was opened
 *
 * Cut shorter or written over (a trace recorded again under the same name
 * while we show it): from the first read that finds it so, every read of an
 * event fails with -ESTALE (ns_trace_format() and the others), and the
 * index, which is in memory, still serves counts, times and tasks. Tell the
 * user NS_TRACE_CHANGED_MSG; reopening the file shows the new trace.
 */
bool ns_trace_changed(const struct ns_trace *trace);
#define NS_TRACE_CHANGED_MSG "the file changed under us (cut or recorded over): reopen it"

/**
 * ns_trace_format - the text of one event, column by column
 * @txt: filled in; txt->info is (re)allocated, free it with ns_event_text_free()
 *
 * Returns 0, or a negative errno when the record cannot be read back
 * (-ESTALE: the file changed under us, see ns_trace_changed()).
 */
int ns_trace_format(struct ns_trace *trace, int cpu, uint64_t idx,
		    struct ns_event_text *txt);
void ns_event_text_free(struct ns_event_text *txt);
/* Only the pid, cpu, event and info of @txt (what a search of Info needs): faster. */
int ns_trace_format_info(struct ns_trace *trace, int cpu, uint64_t idx, struct ns_event_text *txt);
/*
 * ns_trace_format() of the event at @row (UINT64_MAX: look it up), plus the
 * whole line as `trace-cmd report` prints it (no newline, no lost-events
 * line) in *line, (re)allocated to *size bytes; @line NULL: no line.
 */
int ns_trace_format_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			 struct ns_event_text *txt, char **line, size_t *size);
/*
 * ns_trace_format_line() without the latency flags (@txt's left empty):
 * report's line does not hold them, so a search of the whole line, which
 * reads millions of lines, need not print them.
 */
int ns_trace_match_line(struct ns_trace *trace, int cpu, uint64_t idx, uint64_t row,
			struct ns_event_text *txt, char **line, size_t *size);

/*
 * A search's text (ignoring case if @icase) against what events' formats
 * can print (src/trace/gate.c): a search that looks for the text, or for
 * its absence, asks the gate first and reads and prints only the events
 * it cannot answer for. NULL when the text is empty or too long.
 */
struct ns_text_gate;
struct ns_text_gate *ns_text_gate_new(const char *text, bool icase);
void ns_text_gate_free(struct ns_text_gate *gate);
enum { NS_GATE_NO, NS_GATE_YES, NS_GATE_MAYBE };
/* Can the info of event (cpu, idx) hold the text? NS_GATE_NO or NS_GATE_MAYBE. */
int ns_trace_info_gate(struct ns_trace *trace, struct ns_text_gate *gate, int cpu, uint64_t idx);
/*
 * Can report's line of event (cpu, idx) at @row (UINT64_MAX: look it up)
 * hold the text (the line of ns_trace_match_line(), lost-events note not
 * included)? NS_GATE_YES, NS_GATE_NO, or NS_GATE_MAYBE (print it to know).
 * Known from the index and the event's format, without reading the event.
 * *@line (*@size bytes) is a buffer it may (re)allocate.
 */
int ns_trace_line_gate(struct ns_trace *trace, struct ns_text_gate *gate, int cpu, uint64_t idx,
		       uint64_t row, char **line, size_t *size);

/* One field of an event (fields.c): its raw value and as libtraceevent prints it. */
struct ns_event_field {
	char name[48];
	char type[48];
	char raw[80];		/* "120 (0x78)", or an array's bytes in hex */
	char printed[256];
};

/* An event taken apart for the detail view (ns_trace_event_detail()). */
struct ns_event_detail {
	char system[64];
	char name[64];
	struct ns_event_field *fields;	/* the common fields first */
	int nr_fields;
	size_t fields_cap;
	uint64_t rec_off;		/* file offset of the record */
	uint64_t page_off;		/* file offset of its ring-buffer page */
	uint64_t page_nr, nr_pages;	/* that page among its CPU's pages */
	int page_size;
};

int ns_trace_event_detail(struct ns_trace *trace, int cpu, uint64_t idx,
			  struct ns_event_detail *d);
void ns_event_detail_free(struct ns_event_detail *d);

/**
 * ns_trace_export - print rows [@first_row, @end_row) as `trace-cmd report`
 * @out: where to write; the "cpus=N" header line comes first
 *
 * Returns 0 or a negative errno.
 */
int ns_trace_export(struct ns_trace *trace, FILE *out, uint64_t first_row,
		    uint64_t end_row);
/*
 * What an export's @shown callback says of a row. report registers the names
 * sched events give as it prints them, so a row a filter hides (report -F,
 * --cpu) names no task in the rows after it, and a task it alone named is
 * printed "<...>" there. A stream filter has no report option: it cuts
 * report's output by buffer, and a row it alone hides (NS_EXPORT_CUT) still
 * names tasks, as in report's whole output.
 */
#define NS_EXPORT_HIDDEN	0
#define NS_EXPORT_SHOWN		1
#define NS_EXPORT_CUT		2
/* The same, only the rows for which @shown(@arg, row) returns NS_EXPORT_SHOWN. */
int ns_trace_export_shown(struct ns_trace *trace, FILE *out, uint64_t first_row, uint64_t end_row,
			  int (*shown)(const void *arg, uint64_t row), const void *arg);

/* ---- several files: files.c ---- */

/* The name `trace-cmd report -i A -i B` gives a file: its base name. */
const char *ns_trace_file_label(const struct ns_trace *trace);
/**
 * ns_trace_export_files - print @n traces as `trace-cmd report -i A -i B ...`
 * @traces: each opened with its own --ts-offset and indexed, in the
 *	    command line's order
 * @shown, @args: as ns_trace_export_shown(), @args[k] for @traces[k]
 *	    (@shown NULL: every row)
 *
 * A "cpus=N" line per file, then every file's rows merged in time order,
 * each after its file's prefix. Returns 0 or a negative errno.
 */
int ns_trace_export_files(struct ns_trace *const *traces, int n, FILE *out,
			  int (*shown)(const void *arg, uint64_t row), const void *const *args);

/*
 * Several files on one timeline (multi.c), as `trace-cmd report -i A -i B`
 * and KernelShark's File > Append: each file is opened with its own
 * @opts[k] (its --ts-offset, its --buffer) and indexed in parallel, and
 * the trace returned shows them all: each buffer of each file a stream,
 * named after the file's base name ("a.dat", "a.dat:b1" for an instance),
 * slots one file after the other, event types one catalogue (by system and
 * name), rows merged in time order (ties to the earlier file). Used as any
 * trace opened by ns_trace_open_async(); ns_trace_path() gives the first
 * file's path. @opts may be NULL.
 */
#define NS_TRACE_MAX_FILES 64
struct ns_trace *ns_trace_open_files_async(const char *const *paths,
					   const struct ns_trace_open_opts *opts, int n,
					   char *err, size_t err_len);
/*
 * The files as traces of their own (ns_trace_export_files()), indexed in
 * parallel: 0 with @out[0..n) each to ns_trace_wait() and close, or -1
 * with the reason in @err about file *@failed (and nothing left open).
 */
int ns_trace_open_each(const char *const *paths, const struct ns_trace_open_opts *opts, int n,
		       struct ns_trace **out, int *failed, char *err, size_t err_len);
/* How many files the trace shows (1 for a trace of one file). */
int ns_trace_nr_files(const struct ns_trace *trace);
/* File @k's path, and the file a stream belongs to. */
const char *ns_trace_file_path(const struct ns_trace *trace, int k);
int ns_trace_stream_file(const struct ns_trace *trace, int stream);
/* File @k's --ts-offset: true with it in *@ns, false when it has none. */
bool ns_trace_file_ts_offset(const struct ns_trace *trace, int k, long long *ns);

/* ---- filter expressions (report -F) and the event catalogue: exprs.c ---- */

#define NS_TRACE_EXPRS_MAX	64	/* expressions in one struct ns_trace_exprs */

/* What an expression says about every event of a type, before reading one. */
enum ns_trace_exprs_verdict {
	NS_TRACE_EXPRS_NEVER,		/* the expression does not name the type */
	NS_TRACE_EXPRS_ALWAYS,		/* named without a condition, or no event named */
	NS_TRACE_EXPRS_MAYBE,		/* the record must be read and tested */
};

/*
 * A list of expressions in the syntax of `trace-cmd report -F`
 * ("sched/sched_switch: prev_pid == 0 || next_comm =~ \"^gzip\""), each
 * compiled by libtraceevent as report compiles one -F.
 */
struct ns_trace_exprs;

struct ns_trace_exprs *ns_trace_exprs_alloc(struct ns_trace *trace);
void ns_trace_exprs_free(struct ns_trace_exprs *f);

/**
 * ns_trace_exprs_add - compile one expression
 * @err: libtraceevent's message when it refuses the expression
 * Returns the expression's index (0, 1, ...), or -EINVAL, -E2BIG, -ENOMEM.
 */
int ns_trace_exprs_add(struct ns_trace_exprs *f, const char *text, char *err,
		       size_t err_len);
/* Compile @text and throw it away: 0, or -EINVAL with the message in @err. */
int ns_trace_exprs_check(struct ns_trace *trace, const char *text, char *err, size_t err_len);
int ns_trace_exprs_nr(const struct ns_trace_exprs *f);
/*
 * Each expression is first tried in a child, since libtraceevent's parser
 * crashes on some; a threaded process may not fork, and gives @fn instead:
 * 0, -EINVAL with the message, or -EFAULT when the parser crashed. Texts
 * @fn passed are not tried again.
 */
void ns_trace_exprs_set_prober(int (*fn)(const char *text, char *err, size_t err_len));
/* Compile @text against the running kernel's event formats (tracefs): 0 or -EINVAL. */
int ns_trace_exprs_probe_local(const char *text, char *err, size_t err_len);
/* enum ns_trace_exprs_verdict of expression @i for events of @type. */
int ns_trace_exprs_type(const struct ns_trace_exprs *f, int i, int type);

/**
 * ns_trace_exprs_match - test one event against some of the expressions
 * @want: bit i set: test expression i
 * @match: bit i set when expression i matches (as report counts a match)
 *
 * The event is read back from the file once. Returns 0 or a negative errno.
 */
int ns_trace_exprs_match(struct ns_trace_exprs *f, int cpu, uint64_t idx, uint64_t want,
			 uint64_t *match);

/*
 * A reader of the trace's events for another thread than the screen's:
 * each thread that reads events at the same time as others needs its own
 * (and the CPUs it reads are its own: one reader, one thread). NULL when
 * out of memory or when the file is read through libtracecmd, whose one
 * handle serves one thread.
 */
struct ns_trace_reader;
/*
 * Whether ns_trace_reader_new() can give readers: the fast page reader reads
 * the file, and libtraceevent's lazy tables were filled for threads to share.
 */
bool ns_trace_can_make_readers(const struct ns_trace *trace);
struct ns_trace_reader *ns_trace_reader_new(struct ns_trace *trace);
void ns_trace_reader_free(struct ns_trace_reader *r);
/*
 * The same expressions compiled again: libtraceevent's filters keep a
 * scratch buffer in each expression, so each thread matches with its own.
 */
struct ns_trace_exprs *ns_trace_exprs_clone(const struct ns_trace_exprs *f);
/*
 * ns_trace_event() for a pass that reads the events through @r anyway: where
 * the event's chunk of the index was dropped, its page is read through @r
 * (which then gives the same record again without reading it) rather than
 * read twice, once more for the index.
 */
int ns_trace_event_r(struct ns_trace_reader *r, int cpu, uint64_t idx, struct ns_event *ev);
/*
 * Does expression @i's part for events of @type name no field but
 * common_pid (and is it evaluated by our own code)? Then the event's pid
 * from the index answers it: ns_trace_exprs_match_pid() tests @want's
 * expressions so, without reading the event (0, or -EAGAIN when one of
 * them needs the record after all). Not for a trace of several files.
 */
bool ns_trace_exprs_pid_only(struct ns_trace_exprs *f, int i, int type);
int ns_trace_exprs_match_pid(struct ns_trace_exprs *f, int type, int pid, uint64_t want,
			     uint64_t *match);
/* ns_trace_exprs_match() reading through @r (NULL: the screen's reader). */
int ns_trace_exprs_match_r(struct ns_trace_exprs *f, struct ns_trace_reader *r, int cpu,
			   uint64_t idx, uint64_t want, uint64_t *match);

/*
 * Call in the child after fork() before it reads events: the child then
 * opens the file again for libtracecmd (only if it needs it), since a
 * descriptor's offset is shared with the parent. Only fork() with no
 * other thread running (no indexing, no filter pass).
 */
void ns_trace_forked(struct ns_trace *trace);
/*
 * In the parent, while a child of fork() that reads the trace lives (@on
 * true after the fork, false once it is reaped): the index then loads
 * chunks only into buffers of its own, as the child does, so that neither
 * copies the pages they share (src/trace/events.c, ns_evpool_share()).
 */
void ns_trace_share_pages(struct ns_trace *trace, bool on);

/*
 * fork(), refused (-1, errno EBUSY) while the process has another thread;
 * the child gets the default action of fatal and quit signals (fork.c).
 * Every fork() of the project goes through it.
 */
pid_t ns_trace_fork(void);
/* The threads of this process (/proc/self/task), or -1 if it cannot say. */
int ns_trace_nr_threads(void);

/* Event types the trace's formats define, enumerated by i < nr. */
int ns_trace_nr_event_types(const struct ns_trace *trace);
int ns_trace_event_type_at(const struct ns_trace *trace, int i);
/* The system of an event type ("sched"), "" if unknown. */
const char *ns_trace_event_system(const struct ns_trace *trace, int type);
/* The type of system/name (@system NULL: any system), or -ENOENT. */
int ns_trace_event_type(const struct ns_trace *trace, const char *system, const char *name);

#endif
