/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace layer: one numeric field of the events of a few types, read back
 * from the file for every event of those types (field_scan.c), for the
 * latency and field plots (model_plots.h). The index says which events are
 * of the types; only those records are read, one after another per CPU.
 */
#ifndef NURSESHARK_TRACE_FIELDS_H
#define NURSESHARK_TRACE_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include "nurseshark/trace.h"

#define NS_TRACE_FIELD_TYPES	2	/* types one scan reads */

/**
 * ns_trace_field_check - does every event of @type have a numeric field @name
 * @name: a field of the event's format, or a common one ("common_pid")
 * @err: the reason when not, naming the event and the field
 *
 * Returns 0; -ENOENT when the event has no such field; -EINVAL when it is
 * an array, a string or dynamic data (no number to plot).
 */
int ns_trace_field_check(struct ns_trace *trace, int type, const char *name, char *err,
			 size_t err_len);

/* One event of a scan: where it is, and its field's value (sign-extended). */
struct ns_trace_field_value {
	uint64_t ts_ns;
	uint64_t idx;		/* in its CPU's events */
	int cpu;
	int which;		/* the index of its type in the scan's @types */
	int64_t value;
};

/**
 * ns_trace_field_scan - every event of @types with the value of its field
 * @types: @n event types (n <= NS_TRACE_FIELD_TYPES); the same type twice
 *         is read once and reported once per entry, in order
 * @fields: the field read for each type (checked by ns_trace_field_check())
 * @fn: called per event, CPU by CPU in each CPU's order; non-zero stops
 *      the scan and is returned
 *
 * For the screen's thread. Returns 0, @fn's non-zero return, -EINVAL for a
 * field that is not a number, or -EIO when an event does not read back.
 */
int ns_trace_field_scan(struct ns_trace *trace, const int *types, const char *const *fields,
			int n, int (*fn)(void *arg, const struct ns_trace_field_value *v),
			void *arg);
/*
 * The same over events [@lo, @hi) of @cpu alone: a scan in slices (the
 * screen's background jobs). For the screen's thread too.
 */
int ns_trace_field_scan_range(struct ns_trace *trace, const int *types, const char *const *fields,
			      int n, int cpu, uint64_t lo, uint64_t hi,
			      int (*fn)(void *arg, const struct ns_trace_field_value *v), void *arg);

#endif
