// SPDX-License-Identifier: GPL-2.0-only
/*
 * The selected event's scheduling context, for the marker bar ("pid 1234
 * waking lat 5.388us by work2.sh-15974") and for the keys that jump
 * from it: to the event that woke its task (sched_waking where recorded,
 * else the wakeup), to the wakeup, to the switch-in and the switch-out of
 * the run the event belongs to (or waits for), and the one that puts A and
 * B on the wakeup latency. The task timelines (model_sched.h) are built
 * once, on first use, over the whole trace without the list's filters: a
 * task's state is a fact of the trace, not of what the list shows.
 */
#include <errno.h>
#include <string.h>

#include "nurseshark/model_sched.h"
#include "nurseshark/trace_sched.h"
#include "tui-int.h"

/**
 * ns_tui_sched_timelines - the task timelines, built on first use
 * (also for the states of task rows); NULL when they cannot be built
 * (said once).
 */
struct ns_sched *ns_tui_sched_timelines(struct ns_tui *t)
{
	char err[160] = "";

	if (t->sched || t->sched_failed)
		return t->sched;
	t->sched = ns_sched_build(t->trace, NULL, err, sizeof(err));
	if (!t->sched) {
		t->sched_failed = 1;
		ns_tui_message(t, "Scheduling context: %s", err[0] ? err : "cannot be built");
	}
	return t->sched;
}

void ns_tui_sched_free(struct ns_tui *t)
{
	ns_sched_free(t->sched);
	t->sched = NULL;
}

/* The selected event's context: 0 with @pid, @ctx and @kind (enum ns_sched_kind), or -1. */
static int selected_ctx(struct ns_tui *t, int *pid, struct ns_sched_ctx *ctx, int *kind)
{
	struct ns_sched *s;
	struct ns_sched_event ev;
	struct ns_pos pos;

	if (!ns_trace_nr_events(t->trace) || t->view.selected_cpu < 0)
		return -1;
	s = ns_tui_sched_timelines(t);
	if (!s || ns_trace_rows(t->trace, t->view.selected, 1, &pos) != 1)
		return -1;
	if (ns_sched_event_ctx(t->trace, s, pos.cpu, pos.idx, pid, ctx))
		return -1;
	*kind = ns_trace_sched_read(t->trace, pos.cpu, pos.idx, &ev) ? NS_SCHED_NONE : ev.kind;
	return 0;
}

/*
 * The context in one of its forms, from the fullest to the most compact
 * (@form 0 to NS_CTX_FORMS - 1): "pid 15 running lat 41.171us by gzip-17054",
 * the waker by pid ("... by 17054"), "pid 15 running 41.171us <17054",
 * "pid 15 running 41.171us", "15 running 41.171us <17054", "15 running
 * 41.171us", "pid 15 running". Each keeps "pid N" first where it can, so
 * that a list step from one form to another sends few bytes.
 */
#define NS_CTX_FORMS 7

static void ctx_form(struct ns_tui *t, int pid, const struct ns_sched_ctx *ctx, int kind,
		     int form, char *buf, size_t len)
{
	static const struct {
		const char *pid, *lat, *by;	/* NULL: left out */
	} forms[NS_CTX_FORMS] = {
		{ "pid ", " lat ", " by " }, { "pid ", " lat ", " by " },
		{ "pid ", " ", " <" }, { "pid ", " ", NULL },
		{ "", " ", " <" }, { "", " ", NULL }, { "pid ", NULL, NULL },
	};
	char waker[48] = "", lat[32] = "";
	const char *state = ns_task_state_name(ctx->state);
	bool with_lat = (kind == NS_SCHED_SWITCH || kind == NS_SCHED_WAKEUP ||
			 kind == NS_SCHED_WAKEUP_NEW) && ctx->latency_ns >= 0 && forms[form].lat;

	if (with_lat)
		snprintf(lat, sizeof(lat), "%s%lld.%03lldus", forms[form].lat,
			 (long long)(ctx->latency_ns / 1000), (long long)(ctx->latency_ns % 1000));
	if (with_lat && ctx->waker >= 0 && forms[form].by) {
		size_t n = (size_t)snprintf(waker, sizeof(waker), "%s", forms[form].by);

		if (form == 0)
			ns_tui_task_label(t, ctx->waker, waker + n, sizeof(waker) - n);
		else
			snprintf(waker + n, sizeof(waker) - n, "%d", ctx->waker);
	}
	snprintf(buf, len, "%s%d %s%s%s", forms[form].pid, pid, state, lat, waker);
}

/**
 * ns_tui_sched_ctx_fit - the bar's words on the selected event's task
 * @t: the screen state
 * @buf: where they go ("" when the event has no scheduling context)
 * @len: its size
 * @width: the columns they must fit in; 0 or less: no limit, the full form
 *
 * "pid 15 running lat 41.171us by gzip-17054": its state then and, for a
 * switch-in or a wakeup, its wakeup latency and who woke it. Where the full
 * form is wider than @width, the most of it that fits (ctx_form(); the
 * detail view says it in full).
 */
void ns_tui_sched_ctx_fit(struct ns_tui *t, char *buf, size_t len, int width)
{
	struct ns_sched_ctx ctx;
	int pid, kind, form;

	buf[0] = '\0';
	if (selected_ctx(t, &pid, &ctx, &kind))
		return;
	for (form = 0; form < NS_CTX_FORMS; form++) {
		ctx_form(t, pid, &ctx, kind, form, buf, len);
		if (width <= 0 || (int)strlen(buf) <= width)
			break;
	}
}

static void select_ref(struct ns_tui *t, const struct ns_sched_ref *r)
{
	ns_view_select(&t->view, ns_trace_row_of(t->trace, r->cpu, r->idx));
	ns_tui_cursor_to_selection(t);
}

static const char *const ref_name[] = {
	[NS_TUI_SCHED_WAKER] = "waking",
	[NS_TUI_SCHED_WAKEUP] = "wakeup",
	[NS_TUI_SCHED_SWITCH_IN] = "switch-in",
	[NS_TUI_SCHED_SWITCH_OUT] = "switch-out",
};

/* goto-waker, goto-wakeup, goto-switch-in, goto-switch-out: @which enum ns_tui_sched_jump */
void ns_tui_act_sched_jump(struct ns_tui *t, int which)
{
	struct ns_sched_ctx ctx;
	const struct ns_sched_ref *r;
	int pid, kind;

	if (selected_ctx(t, &pid, &ctx, &kind)) {
		ns_tui_message(t, "No scheduling context for this event");
		return;
	}
	switch (which) {
	case NS_TUI_SCHED_WAKER:
		/* the waker's own call, where sched_waking was recorded */
		r = ctx.waking.cpu >= 0 ? &ctx.waking : &ctx.wakeup;
		break;
	case NS_TUI_SCHED_WAKEUP:
		r = &ctx.wakeup;
		break;
	case NS_TUI_SCHED_SWITCH_IN:
		r = &ctx.switch_in;
		break;
	default:
		r = &ctx.switch_out;
	}
	if (r->cpu < 0) {
		ns_tui_message(t, "No %s of pid %d in the trace here", ref_name[which], pid);
		return;
	}
	select_ref(t, r);
}

/* latency-markers: A on the wakeup, B on the switch-in it led to */
void ns_tui_act_latency_markers(struct ns_tui *t, int unused)
{
	struct ns_sched_ctx ctx;
	int pid, kind;

	if (selected_ctx(t, &pid, &ctx, &kind) || ctx.wakeup.cpu < 0 || ctx.switch_in.cpu < 0) {
		ns_tui_message(t, "No wakeup latency around this event");
		return;
	}
	select_ref(t, &ctx.wakeup);
	if (ns_view_set_marker(&t->view, NS_MARKER_A)) {
		ns_tui_message(t, "Markers not set: no event in the list (the filters hide them all)");
		return;
	}
	select_ref(t, &ctx.switch_in);
	ns_view_set_marker(&t->view, NS_MARKER_B);
}

/**
 * ns_tui_sched_ctx_text - the selected event's scheduling context in full
 * @t: the screen state
 * @buf: where it goes ("" when the event has none)
 * @len: its size
 */
void ns_tui_sched_ctx_text(struct ns_tui *t, char *buf, size_t len)
{
	ns_tui_sched_ctx_fit(t, buf, len, 0);
}

/**
 * ns_tui_drops_in_window - the events after lost events in the graph's
 * window, over the CPUs with a row (the ! marks it can show)
 */
uint64_t ns_tui_drops_in_window(const struct ns_tui *t)
{
	int cpu, nr_cpus = ns_trace_nr_cpus(t->trace);
	uint64_t n = 0;

	for (cpu = 0; cpu < nr_cpus; cpu++)
		if (!t->flt || ns_tui_row_of_cpu(t, cpu) >= 0)
			n += ns_trace_cpu_drops_between(t->trace, cpu, t->view.start_ns,
							t->view.end_ns);
	return n;
}

/*
 * next-drop, prev-drop (@dir 1, -1): the nearest row after lost events
 * after (before) the selected one, on any CPU, as report's lines with
 * [N EVENTS DROPPED] follow one another.
 */
void ns_tui_act_drop_jump(struct ns_tui *t, int dir)
{
	int cpu, nr_cpus = ns_trace_nr_cpus(t->trace), found = 0;
	uint64_t sel = t->view.selected, best = 0, k, idx;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		for (k = 0; !ns_trace_cpu_drop(t->trace, cpu, k, &idx, NULL); k++) {
			uint64_t row = ns_trace_row_of(t->trace, cpu, idx);

			if (t->view.selected_cpu >= 0 && (dir > 0 ? row <= sel : row >= sel))
				continue;
			if (t->view.selected_cpu < 0 && dir < 0)
				continue;
			if (!found || (dir > 0 ? row < best : row > best))
				best = row;
			found = 1;
		}
	}
	if (!found) {
		ns_tui_message(t, "No lost events %s", dir > 0 ? "after this event" :
			       "before this event");
		return;
	}
	ns_view_select(&t->view, best);
	ns_tui_cursor_to_selection(t);
}
