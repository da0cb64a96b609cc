/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the record layer share: a recorded buffer (the top
 * instance or a named one), its per-CPU readers, the tracing state saved
 * before recording, and the few libtracecmd writing functions this layer
 * calls. libtracecmd 1.3 exports those from its library but declares them
 * only in a header it does not install (trace-cmd-private.h), so they are
 * declared here with the signatures of that version, like the readers'
 * private declarations in src/trace/trace-int.h.
 */
#ifndef NS_RECORD_INT_H
#define NS_RECORD_INT_H

#include <stdatomic.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <tracefs.h>

struct kbuffer;
struct tracecmd_output;
struct tracecmd_option;

/* The list of event globs whose formats go into the file ("sys/event"). */
struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;
};

/* trace-cmd's option ids (enum tracecmd_option_id) that the recorder writes. */
enum {
	NS_REC_OPT_CPUSTAT = 2,
	NS_REC_OPT_TRACECLOCK = 4,
	NS_REC_OPT_UNAME = 5,
	NS_REC_OPT_VERSION = 9,
	NS_REC_OPT_TRACEID = 11,
};

struct tracecmd_output *tracecmd_output_create_fd(int fd);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle, unsigned short id,
					    int size, const void *data);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_write_cpus(struct tracecmd_output *handle, int cpus);
int tracecmd_write_options(struct tracecmd_output *handle);
int tracecmd_write_cpu_data(struct tracecmd_output *handle, int cpus, char * const *cpu_data_files,
			    const char *buff_name);
void tracecmd_output_close(struct tracecmd_output *handle);

/* One CPU's ring buffer: where it is read and the temp file it goes to. */
struct ns_rec_cpu {
	int rfd;			/* trace_pipe_raw, non-blocking */
	struct tracefs_cpu *tcpu;
	int wfd;			/* the temp file of its pages */
	char *path;
	_Atomic unsigned long long bytes;	/* added by its reader, read by the screen */
	_Atomic unsigned long long events;
	unsigned long long lost_start;	/* overrun + dropped when recording started */
	unsigned long long lost;	/* since then */
	char *stats;			/* per_cpu/cpuN/stats when recording stopped */
	int page_size;			/* a sub-buffer's bytes: the file's page size */
	void *page;			/* one sub-buffer read */
	struct kbuffer *kbuf;		/* to count its events */
	struct ns_rec_mem *mem;		/* live: the pages are held here, not in the file */
	double next_partial_ms;		/* live: when a partial page may be read again */
};

/* live reads a CPU's partial page at most this often (the screen's 100 ms) */
#define NS_REC_PARTIAL_MS 50

/*
 * live: one CPU's pages held in memory, oldest first, a ring of them; the
 * reader thread appends, the main thread drops the oldest (--keep) and
 * copies them out for a snapshot, both under @lock.
 */
struct ns_rec_mem {
	pthread_mutex_t lock;
	void **pages;
	unsigned long long *ts;		/* each page's timestamp (its header) */
	unsigned int *nev;		/* each page's events */
	size_t head, n, cap;
	unsigned long long events;	/* held */
	unsigned long long trimmed;	/* events dropped by --keep */
};

/* The state of one instance that recording changes, to put back after. */
struct ns_rec_saved {
	bool valid;
	int events_all;		/* events/enable read "1" */
	char **enabled;		/* else "system/event" of each enabled event */
	char *clock;		/* the clock in brackets */
	ssize_t *kb;		/* per-CPU buffer sizes, or NULL when -b was not given */
	int tracing_on;
	char *tracer;		/* current_tracer when it was not "nop", else NULL */
	long subbuf_kb;		/* buffer_subbuf_size_kb, when --subbuf-size was given; else 0 */
};

struct ns_rec_buffer {
	char *name;			/* NULL for the top instance */
	struct tracefs_instance *inst;	/* NULL for the top instance */
	bool created;			/* we created the instance: destroy it after */
	char **specs;			/* -e arguments as given */
	char **events;			/* what they match: "system/event" */
	bool all;
	long kb;			/* -b, or 0 */
	long subbuf_kb;			/* --subbuf-size, or 0 */
	int page_size;			/* a sub-buffer's bytes while recording (ns_rec_setup) */
	char *clock;			/* -C, or NULL */
	char *clock_text;		/* trace_clock while recording */
	char *clock_name;		/* the clock in its brackets */
	struct ns_rec_saved saved;
	char *frozen;			/* the writer's tracing directory (output.c) */
	int ncpus;
	struct ns_rec_cpu *cpus;
};

/* state.c */
/* tracefs's file of the sub-buffer size (Linux 6.8 on) */
#define NS_REC_SUBBUF_FILE "buffer_subbuf_size_kb"
int ns_rec_resolve_events(struct ns_rec_buffer *buf, char *err, size_t errlen);
int ns_rec_save_state(struct ns_rec_buffer *buf, char *err, size_t errlen);
int ns_rec_setup(struct ns_rec_buffer *buf, char *err, size_t errlen);
int ns_rec_restore_state(struct ns_rec_buffer *buf);

/* output.c */
int ns_rec_open_cpus(struct ns_rec_buffer *buf, const char *tmp_prefix, char *err, size_t errlen);
int ns_rec_drain_cpu(struct ns_rec_cpu *c, int cpu, bool flush, char *err, size_t errlen);
int ns_rec_mem_init(struct ns_rec_buffer *buf, char *err, size_t errlen);
void ns_rec_mem_trim(struct ns_rec_buffer *bufs, int nbufs, unsigned long long keep_events,
		     unsigned long long keep_ns);
int ns_rec_mem_dump(struct ns_rec_buffer *buf, char *err, size_t errlen);
void ns_rec_read_lost(struct ns_rec_buffer *buf, bool start);
void ns_rec_close_cpus(struct ns_rec_buffer *buf);
int ns_rec_write_file(struct ns_rec_buffer *bufs, int nbufs, int fd, const char *version,
		      bool quick, char *err, size_t errlen);

#endif /* NS_RECORD_INT_H */
