// SPDX-License-Identifier: GPL-2.0-only
/*
 * One event taken apart, for the viewer's detail view: every field of its
 * format (the common ones first) with its raw value and the value as
 * libtraceevent prints it, and where the event sits in the file (its
 * ring-buffer page among its CPU's pages, and the file offsets of both).
 * Read on demand, one event at a time, like the text of format.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/util.h"
#include "trace-int.h"

/* The raw value: the number as stored, or the bytes of an array or string. */
static void raw_value(struct tep_format_field *f, struct tep_record *rec, char *out, size_t len)
{
	unsigned long long v;
	unsigned int off = f->offset, size = f->size, i;
	const unsigned char *data = rec->data;
	size_t n = 0;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* __data_loc: the offset and length of the data, in one 32-bit word */
		if (tep_read_number_field(f, rec->data, &v)) {
			snprintf(out, len, "?");
			return;
		}
		off = v & 0xffff;
		size = v >> 16;
		n = (size_t)snprintf(out, len, "@%u+%u ", off, size);
	} else if (!(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))) {
		if (tep_read_number_field(f, rec->data, &v)) {
			snprintf(out, len, "?");
			return;
		}
		if ((f->flags & TEP_FIELD_IS_SIGNED) && size < 8 && (v & (1ULL << (size * 8 - 1))))
			v |= ~0ULL << (size * 8);	/* sign-extend */
		if (f->flags & TEP_FIELD_IS_SIGNED)
			snprintf(out, len, "%lld (0x%llx)", (long long)v,
				 size < 8 ? v & ((1ULL << (size * 8)) - 1) : v);
		else
			snprintf(out, len, "%llu (0x%llx)", v, v);
		return;
	}
	/* the bytes, in hex, as many as fit */
	for (i = 0; i < size && off + i < (unsigned int)rec->size && n + 4 < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%02x", data[off + i]);
	if (i < size && n + 4 < len)
		snprintf(out + n, len - n, "..");
}

static int add_field(struct ns_event_detail *d, struct tep_format_field *f,
		     struct tep_record *rec, struct trace_seq *s)
{
	struct ns_event_field *ef;

	if (NS_GROW(d->fields, d->fields_cap, (size_t)d->nr_fields + 1))
		return -ENOMEM;
	ef = &d->fields[d->nr_fields++];
	memset(ef, 0, sizeof(*ef));
	snprintf(ef->name, sizeof(ef->name), "%s", f->name);
	snprintf(ef->type, sizeof(ef->type), "%s", f->type ? f->type : "");
	raw_value(f, rec, ef->raw, sizeof(ef->raw));
	trace_seq_reset(s);
	tep_print_field_content(s, rec->data, rec->size, f);
	trace_seq_terminate(s);
	snprintf(ef->printed, sizeof(ef->printed), "%s", s->buffer ? s->buffer : "");
	return 0;
}

/**
 * ns_trace_event_detail - the fields and the place in the file of event (cpu, idx)
 * @d: filled in; its fields array is (re)allocated, free with ns_event_detail_free()
 * Returns 0, -EIO when the event cannot be read back, or -ENOMEM.
 */
int ns_trace_event_detail(struct ns_trace *trace, int cpu, uint64_t idx,
			  struct ns_event_detail *d)
{
	struct tep_format_field *f;
	struct tep_record *rec;
	struct tep_event *ev;
	struct trace_seq s;
	const struct ns_cpu *c;
	int ret = 0, pass;

	if (trace->multi) {
		struct ns_trace *sub = ns_multi_slot(trace, &cpu);

		return sub ? ns_trace_event_detail(sub, cpu, idx, d) : -EIO;
	}
	d->nr_fields = 0;
	d->system[0] = d->name[0] = '\0';
	rec = ns_trace_read(trace, cpu, idx);
	if (!rec)
		return -EIO;
	c = &trace->cpus[cpu];
	d->rec_off = rec->offset;
	d->page_off = rec->offset & ~(uint64_t)(trace->page_size - 1);
	d->page_size = trace->page_size;
	d->nr_pages = c->nr_pages;
	/* its page among the CPU's: the last whose first event is at or before it */
	d->page_nr = ns_cpu_page_of(c, idx);
	trace_seq_init(&s);
	pthread_mutex_lock(&trace->tep_lock);
	ev = tep_find_event_by_record(trace->tep, rec);
	if (ev) {
		snprintf(d->system, sizeof(d->system), "%s", ev->system ? ev->system : "");
		snprintf(d->name, sizeof(d->name), "%s", ev->name ? ev->name : "");
		for (pass = 0; pass < 2 && !ret; pass++) {
			f = pass ? ev->format.fields : ev->format.common_fields;
			for (; f && !ret; f = f->next)
				ret = add_field(d, f, rec, &s);
		}
	}
	pthread_mutex_unlock(&trace->tep_lock);
	trace_seq_destroy(&s);
	ns_trace_read_done(trace, rec);
	return ret;
}

void ns_event_detail_free(struct ns_event_detail *d)
{
	free(d->fields);
	d->fields = NULL;
	d->fields_cap = 0;
	d->nr_fields = 0;
}
