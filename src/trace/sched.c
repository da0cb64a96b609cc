// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sched events that matter beyond their text: sched_switch says who runs
 * next (the runs of the index), and sched_switch, sched_wakeup and
 * sched_wakeup_new name tasks, which libtraceevent's sched_switch plugin
 * registers as it prints them (first name wins; report shows "<...>" for a
 * task the saved cmdlines lack until then). The index and the filtered
 * export both ask this one place which tasks a record names, so that their
 * rules cannot drift apart.
 */
#include <string.h>

#include "trace-int.h"

static struct tep_format_field *field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

/**
 * ns_sched_fields_find - where @tep's sched events keep their fields
 * Events or fields the trace lacks are NULL.
 */
void ns_sched_fields_find(struct tep_handle *tep, struct sched_fields *sf)
{
	struct tep_event *ev;

	memset(sf, 0, sizeof(*sf));
	sf->sw = tep_find_event_by_name(tep, "sched", "sched_switch");
	sf->wakeup = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	sf->wakeup_new = tep_find_event_by_name(tep, "sched", "sched_wakeup_new");
	sf->prev_pid = field(sf->sw, "prev_pid");
	sf->prev_comm = field(sf->sw, "prev_comm");
	sf->next_pid = field(sf->sw, "next_pid");
	sf->next_comm = field(sf->sw, "next_comm");
	sf->wk_pid = field(sf->wakeup, "pid");
	sf->wk_comm = field(sf->wakeup, "comm");
	sf->wkn_pid = field(sf->wakeup_new, "pid");
	sf->wkn_comm = field(sf->wakeup_new, "comm");
	ev = tep_find_event_by_name(tep, "ftrace", "kernel_stack");
	sf->stack_type[0] = ev ? ev->id : -1;
	ev = tep_find_event_by_name(tep, "ftrace", "user_stack");
	sf->stack_type[1] = ev ? ev->id : -1;
	if (!sf->prev_pid || !sf->next_pid)
		sf->sw = NULL;
}

static int read_int(struct tep_format_field *f, struct tep_record *rec, int *val)
{
	unsigned long long v;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return -1;
	if (tep_read_number_field(f, rec->data, &v))
		return -1;
	*val = (int)v;
	return 0;
}

static void read_comm(struct tep_format_field *f, struct tep_record *rec, char *out, size_t len)
{
	size_t n;

	out[0] = '\0';
	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return;
	n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;
	memcpy(out, (char *)rec->data + f->offset, n);
	out[n] = '\0';
}

static void name(struct ns_sched_name *n, struct tep_format_field *pid_f,
		 struct tep_format_field *comm_f, struct tep_record *rec)
{
	n->registers = comm_f && !read_int(pid_f, rec, &n->pid);
	if (!n->registers)
		n->pid = -1;
	read_comm(comm_f, rec, n->comm, sizeof(n->comm));
}

/**
 * ns_sched_names - the tasks a record of type @type names
 * @out: [0] prev and [1] next of a sched_switch, [0] the woken task of a
 *       wakeup; out->registers says the plugin registers that name (the
 *       record has the comm field), out->pid is -1 if unreadable
 * Returns how many entries were filled (0, 1 or 2): 2 is a sched_switch.
 */
int ns_sched_names(const struct sched_fields *sf, int type, struct tep_record *rec,
		   struct ns_sched_name out[2])
{
	if (sf->sw && type == sf->sw->id) {
		name(&out[0], sf->prev_pid, sf->prev_comm, rec);
		name(&out[1], sf->next_pid, sf->next_comm, rec);
		/* the runs need the pids even without comm fields */
		if (read_int(sf->prev_pid, rec, &out[0].pid) ||
		    read_int(sf->next_pid, rec, &out[1].pid))
			return 0;
		return 2;
	}
	if (sf->wakeup && type == sf->wakeup->id) {
		name(&out[0], sf->wk_pid, sf->wk_comm, rec);
		return 1;
	}
	if (sf->wakeup_new && type == sf->wakeup_new->id) {
		name(&out[0], sf->wkn_pid, sf->wkn_comm, rec);
		return 1;
	}
	return 0;
}
