// SPDX-License-Identifier: GPL-2.0-only
/*
 * Expressions in the syntax of `trace-cmd report -F`, evaluated by
 * libtraceevent's filter engine on records read back from the file, plus
 * the catalogue of event types the filters and pickers name.
 *
 * One tep filter per expression, as trace-cmd makes one per -F, so that
 * the model can OR them (and negate some) exactly as report does. Most
 * events need no record at all: libtraceevent keeps one filter per event
 * type, and a type the expression does not name never matches, one named
 * without a condition ("sched_switch") always does; only the rest are read.
 *
 * libtraceevent 1.7's filter parser dereferences NULL on some incomplete
 * expressions ("sched_switch: prev_pid =="; trace-cmd report dies on them
 * too), so an expression is first parsed in a child process, as the header
 * is in open.c: a crash there becomes a refusal here.
 *
 * libtracecmd's handle, and with it its tep handle, is replaced when a
 * compressed trace is recycled (see ns_trace_read()). A tep filter holds a
 * reference on the tep handle it was made for, so it stays valid; it is
 * still compiled again for the new handle, so that the old one can go.
 */
#include <errno.h>
#include <regex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include "trace-int.h"

/*
 * A threaded process (nurseshark live: its ring buffer readers) may not
 * fork to try an expression. The probe it is given instead (a process of
 * its own, ns_trace_exprs_set_prober()) is asked once per text; the texts
 * it passed are kept, since live compiles them again for every refresh.
 */
static int (*prober)(const char *text, char *err, size_t err_len);
static struct tep_event_filter *compile(struct tep_handle *tep, const char *text, char *err,
					size_t err_len);
static pthread_mutex_t probed_lock = PTHREAD_MUTEX_INITIALIZER;
static char *probed[NS_TRACE_EXPRS_MAX];
static int nr_probed;

void ns_trace_exprs_set_prober(int (*fn)(const char *text, char *err, size_t err_len))
{
	prober = fn;
}

static int probe_elsewhere(const char *text, char *err, size_t err_len)
{
	int i, ret;

	pthread_mutex_lock(&probed_lock);
	for (i = 0; i < nr_probed; i++) {
		if (!strcmp(probed[i], text)) {
			pthread_mutex_unlock(&probed_lock);
			return 0;
		}
	}
	pthread_mutex_unlock(&probed_lock);
	ret = prober(text, err, err_len);
	pthread_mutex_lock(&probed_lock);
	if (!ret && nr_probed < NS_TRACE_EXPRS_MAX)
		probed[nr_probed] = strdup(text), nr_probed += probed[nr_probed] != NULL;
	pthread_mutex_unlock(&probed_lock);
	return ret;
}

int ns_trace_exprs_probe_local(const char *text, char *err, size_t err_len)
{
	struct tep_handle *tep = tracefs_local_events(NULL);
	struct tep_event_filter *filter;

	if (!tep) {
		snprintf(err, err_len, "cannot read the running kernel's event formats");
		return -EINVAL;
	}
	filter = compile(tep, text, err, err_len);
	if (filter)
		tep_filter_free(filter);
	tep_free(tep);
	return filter ? 0 : -EINVAL;
}

struct ns_trace_exprs {
	struct ns_trace *trace;
	struct tep_handle *tep;		/* the handle the filters were made for */
	int nr;
	char *text[NS_TRACE_EXPRS_MAX];
	struct tep_event_filter *filter[NS_TRACE_EXPRS_MAX];
	/*
	 * Several files: the expressions of each file, and where expression
	 * i is among them (-1: it names no event of that file, so it never
	 * matches there, as report's -F for an event a file lacks).
	 */
	struct ns_trace_exprs **sub;
	int8_t (*at)[NS_TRACE_EXPRS_MAX];
	struct fast *fast[NS_TRACE_EXPRS_MAX];	/* made at the first match */
};

/*
 * Matching a record, faster than tep_filter_match(), with its answers.
 *
 * libtraceevent finds the event's part of a filter with a bsearch() among
 * all the events the filter names (every event of the trace, for ".*:"),
 * then walks the condition, reading each field with tep_read_number(); in
 * Debian's build, which is not optimised, that was 40% of a -F pass over
 * a 28 M-event trace. Here each expression has a table from event type to
 * its part, and the conditions made only of numbers, number fields, fixed
 * size strings, arithmetic, comparisons and && || ! are evaluated here,
 * as libtraceevent's parse-filter.c evaluates them: fields read, signed
 * ones widened with their sign, then compared and computed as unsigned
 * 64-bit numbers; a string field is its bytes up to a NUL or its size. The
 * rest (COMM and CPU, dynamic strings, numbers named as strings, a field
 * that the record is too short for, a file in the other byte order, which
 * no test trace has) is left to tep_filter_match(). One difference, on
 * purpose: a division or modulo by zero, which stops libtraceevent with
 * SIGFPE, is 0 here. tests/unit/test_filter.c compares the two on every
 * event of its traces.
 */
struct fast {
	uint16_t *slot;		/* by event type: 1 + the part's index, 0: none */
	int nr_slots;		/* the highest type named, plus one */
	uint8_t *ours;		/* per part: evaluated here */
	uint8_t *pid_only;	/* per part: of ours, naming no field but common_pid */
	int8_t *pid_off;	/* per pid-only part: common_pid's offset, -1: none named */
};

/*
 * A part that names no field but common_pid needs no record: the index
 * holds every event's common_pid (tep_data_pid()), and the part is tested
 * on a record made of it alone (ns_trace_exprs_match_pid()).
 */
#define PID_REC_MAX	64

static bool pid_only(const struct tep_filter_arg *a)
{
	const struct tep_format_field *fl;

	if (!a)
		return false;
	switch (a->type) {
	case TEP_FILTER_ARG_BOOLEAN:
	case TEP_FILTER_ARG_VALUE:
		return true;
	case TEP_FILTER_ARG_FIELD:
		fl = a->field.field;
		return fl && fl->name && !strcmp(fl->name, "common_pid") && fl->size == 4 &&
		       fl->offset >= 0 && fl->offset + 4 <= PID_REC_MAX;
	case TEP_FILTER_ARG_EXP:
		return pid_only(a->exp.left) && pid_only(a->exp.right);
	case TEP_FILTER_ARG_OP:
		return (a->op.type == TEP_FILTER_OP_NOT || pid_only(a->op.left)) &&
		       pid_only(a->op.right);
	case TEP_FILTER_ARG_NUM:
		return pid_only(a->num.left) && pid_only(a->num.right);
	default:
		return false;
	}
}

/* The offset of the common_pid a pid-only part names (-1: none, a constant). */
static int pid_offset(const struct tep_filter_arg *a)
{
	int l, r;

	if (!a)
		return -1;
	switch (a->type) {
	case TEP_FILTER_ARG_FIELD:
		return a->field.field->offset;
	case TEP_FILTER_ARG_EXP:
		l = pid_offset(a->exp.left), r = pid_offset(a->exp.right);
		break;
	case TEP_FILTER_ARG_OP:
		l = a->op.type == TEP_FILTER_OP_NOT ? -1 : pid_offset(a->op.left);
		r = pid_offset(a->op.right);
		break;
	case TEP_FILTER_ARG_NUM:
		l = pid_offset(a->num.left), r = pid_offset(a->num.right);
		break;
	default:
		return -1;
	}
	return l >= 0 ? l : r;
}

static bool value_ours(const struct tep_filter_arg *a, const struct tep_event *ev)
{
	const struct tep_format_field *fl;

	if (!a)
		return false;
	switch (a->type) {
	case TEP_FILTER_ARG_FIELD:
		fl = a->field.field;
		/* COMM and CPU, libtraceevent's own, belong to no event */
		return fl && fl->event == ev &&
		       (fl->size == 1 || fl->size == 2 || fl->size == 4 || fl->size == 8);
	case TEP_FILTER_ARG_VALUE:
		return a->value.type == TEP_FILTER_NUMBER;
	case TEP_FILTER_ARG_EXP:
		return a->exp.type >= TEP_FILTER_EXP_ADD && a->exp.type <= TEP_FILTER_EXP_XOR &&
		       value_ours(a->exp.left, ev) && value_ours(a->exp.right, ev);
	default:
		return false;
	}
}

static bool test_ours(const struct tep_filter_arg *a, const struct tep_event *ev)
{
	const struct tep_format_field *fl;

	if (!a)
		return false;
	switch (a->type) {
	case TEP_FILTER_ARG_BOOLEAN:
		return true;
	case TEP_FILTER_ARG_OP:
		if (a->op.type == TEP_FILTER_OP_NOT)
			return test_ours(a->op.right, ev);
		return (a->op.type == TEP_FILTER_OP_AND || a->op.type == TEP_FILTER_OP_OR) &&
		       test_ours(a->op.left, ev) && test_ours(a->op.right, ev);
	case TEP_FILTER_ARG_NUM:
		return a->num.type >= TEP_FILTER_CMP_EQ && a->num.type <= TEP_FILTER_CMP_LE &&
		       value_ours(a->num.left, ev) && value_ours(a->num.right, ev);
	case TEP_FILTER_ARG_STR:
		fl = a->str.field;
		return fl && fl->event == ev &&
		       (a->str.val || a->str.type >= TEP_FILTER_CMP_REGEX) &&
		       (fl->flags & TEP_FIELD_IS_STRING) && !(fl->flags & TEP_FIELD_IS_DYNAMIC) &&
		       fl->size > 0 && fl->size < 256 &&
		       a->str.type >= TEP_FILTER_CMP_MATCH && a->str.type <= TEP_FILTER_CMP_NOT_REGEX;
	default:
		return value_ours(a, ev);
	}
}

/* Whether the record holds @fl; if not, libtraceevent reads past it, as report does. */
static bool holds(const struct tep_record *rec, const struct tep_format_field *fl)
{
	return fl->offset >= 0 && (long long)fl->offset + fl->size <= (long long)rec->size;
}

static uint64_t field_value(const struct tep_format_field *fl, const struct tep_record *rec)
{
	const char *p = (const char *)rec->data + fl->offset;
	bool sign = fl->flags & TEP_FIELD_IS_SIGNED;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;

	switch (fl->size) {
	case 1:
		memcpy(&v8, p, 1);
		/* libtraceevent casts to char: no sign where char has none (arm) */
		return sign ? (uint64_t)(int64_t)(char)v8 : v8;
	case 2:
		memcpy(&v16, p, 2);
		return sign ? (uint64_t)(int64_t)(int16_t)v16 : v16;
	case 4:
		memcpy(&v32, p, 4);
		return sign ? (uint64_t)(int64_t)(int32_t)v32 : v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/* A value, as get_arg_value() makes it; *@short_rec if the record lacks a field. */
static uint64_t value_of(const struct tep_filter_arg *a, const struct tep_record *rec,
			 bool *short_rec)
{
	uint64_t l, r;

	if (a->type == TEP_FILTER_ARG_FIELD) {
		if (!holds(rec, a->field.field)) {
			*short_rec = true;
			return 0;
		}
		return field_value(a->field.field, rec);
	}
	if (a->type == TEP_FILTER_ARG_VALUE)
		return a->value.val;
	l = value_of(a->exp.left, rec, short_rec);
	r = value_of(a->exp.right, rec, short_rec);
	switch (a->exp.type) {
	case TEP_FILTER_EXP_ADD:
		return l + r;
	case TEP_FILTER_EXP_SUB:
		return l - r;
	case TEP_FILTER_EXP_MUL:
		return l * r;
	case TEP_FILTER_EXP_DIV:
		return r ? l / r : 0;
	case TEP_FILTER_EXP_MOD:
		return r ? l % r : 0;
	case TEP_FILTER_EXP_RSHIFT:
		return l >> (r & 63);	/* as x86-64 and arm64 shift: by r % 64 */
	case TEP_FILTER_EXP_LSHIFT:
		return l << (r & 63);
	case TEP_FILTER_EXP_AND:
		return l & r;
	case TEP_FILTER_EXP_OR:
		return l | r;
	default:
		return l ^ r;
	}
}

static bool test_str_ours(const struct tep_filter_arg *a, const struct tep_record *rec,
			  bool *short_rec)
{
	const struct tep_format_field *fl = a->str.field;
	const char *p = (const char *)rec->data + fl->offset;
	char buf[256];
	size_t n;

	if (!holds(rec, fl)) {
		*short_rec = true;
		return false;
	}
	n = strnlen(p, (size_t)fl->size);
	switch (a->str.type) {
	case TEP_FILTER_CMP_MATCH:
		return strlen(a->str.val) == n && !memcmp(p, a->str.val, n);
	case TEP_FILTER_CMP_NOT_MATCH:
		return !(strlen(a->str.val) == n && !memcmp(p, a->str.val, n));
	default:
		memcpy(buf, p, n);
		buf[n] = '\0';
		return !regexec(&a->str.reg, buf, 0, NULL, 0) == (a->str.type == TEP_FILTER_CMP_REGEX);
	}
}

static bool test_of(const struct tep_filter_arg *a, const struct tep_record *rec,
		    bool *short_rec)
{
	uint64_t l, r;

	switch (a->type) {
	case TEP_FILTER_ARG_BOOLEAN:
		return a->boolean.value;
	case TEP_FILTER_ARG_OP:
		if (a->op.type == TEP_FILTER_OP_AND)
			return test_of(a->op.left, rec, short_rec) &&
			       test_of(a->op.right, rec, short_rec);
		if (a->op.type == TEP_FILTER_OP_OR)
			return test_of(a->op.left, rec, short_rec) ||
			       test_of(a->op.right, rec, short_rec);
		return !test_of(a->op.right, rec, short_rec);
	case TEP_FILTER_ARG_NUM:
		l = value_of(a->num.left, rec, short_rec);
		r = value_of(a->num.right, rec, short_rec);
		switch (a->num.type) {
		case TEP_FILTER_CMP_EQ:
			return l == r;
		case TEP_FILTER_CMP_NE:
			return l != r;
		case TEP_FILTER_CMP_GT:
			return l > r;
		case TEP_FILTER_CMP_LT:
			return l < r;
		case TEP_FILTER_CMP_GE:
			return l >= r;
		default:
			return l <= r;
		}
	case TEP_FILTER_ARG_STR:
		return test_str_ours(a, rec, short_rec);
	default:
		return value_of(a, rec, short_rec) != 0;
	}
}

static void fast_free(struct fast *fa)
{
	if (fa) {
		free(fa->slot);
		free(fa->ours);
		free(fa->pid_only);
		free(fa->pid_off);
		free(fa);
	}
}

/* Expression @i's table, made on first use; NULL if out of memory. */
static struct fast *fast_of(struct ns_trace_exprs *f, int i)
{
	const struct tep_event_filter *filter = f->filter[i];
	struct fast *fa = f->fast[i];
	bool swap;
	int k;

	if (fa)
		return fa;
	fa = calloc(1, sizeof(*fa));
	if (!fa)
		return NULL;
	for (k = 0; k < filter->filters; k++) {
		int id = filter->event_filters[k].event_id;

		if (id >= 0 && id < NS_EV_TYPE_MAP && id >= fa->nr_slots)
			fa->nr_slots = id + 1;
	}
	fa->slot = calloc((size_t)fa->nr_slots + 1, sizeof(*fa->slot));
	fa->ours = calloc((size_t)filter->filters + 1, 1);
	fa->pid_only = calloc((size_t)filter->filters + 1, 1);
	fa->pid_off = calloc((size_t)filter->filters + 1, 1);
	if (!fa->slot || !fa->ours || !fa->pid_only || !fa->pid_off ||
	    filter->filters >= UINT16_MAX) {
		fast_free(fa);
		return NULL;
	}
	swap = tep_is_file_bigendian(f->tep) != tep_is_local_bigendian(f->tep);
	for (k = 0; k < filter->filters; k++) {
		const struct tep_filter_type *ft = &filter->event_filters[k];

		if (ft->event_id < 0 || ft->event_id >= NS_EV_TYPE_MAP)
			continue;
		fa->slot[ft->event_id] = (uint16_t)(k + 1);
		fa->ours[k] = !swap && ft->event && test_ours(ft->filter, ft->event);
		fa->pid_only[k] = fa->ours[k] && pid_only(ft->filter);
		fa->pid_off[k] = (int8_t)(fa->pid_only[k] ? pid_offset(ft->filter) : -1);
	}
	f->fast[i] = fa;
	return fa;
}

/**
 * ns_trace_exprs_parts_ours - how many events' parts of expression @i are
 * evaluated here rather than by tep_filter_match() (for the tests); -1 if
 * out of memory or @i is not an expression of one file.
 */
int ns_trace_exprs_parts_ours(struct ns_trace_exprs *f, int i)
{
	struct fast *fa = i >= 0 && i < f->nr && !f->sub ? fast_of(f, i) : NULL;
	int k, n = 0;

	if (!fa)
		return -1;
	for (k = 0; k < f->filter[i]->filters; k++)
		n += fa->ours[k];
	return n;
}

/* Whether @rec, of event @type, matches expression @i, as tep_filter_match() says. */
static bool match_one(struct ns_trace_exprs *f, int i, struct tep_record *rec, int type)
{
	struct tep_event_filter *filter = f->filter[i];
	struct fast *fa;
	bool short_rec = false, yes;
	int k;

	if (!filter->filters)
		return true;	/* TEP_ERRNO__NO_FILTER, which report counts as a match */
	fa = fast_of(f, i);
	if (fa && type >= 0 && type < NS_EV_TYPE_MAP) {
		k = type < fa->nr_slots ? fa->slot[type] : 0;
		if (!k)
			return false;	/* TEP_ERRNO__FILTER_NOT_FOUND */
		if (fa->ours[k - 1]) {
			yes = test_of(filter->event_filters[k - 1].filter, rec, &short_rec);
			if (!short_rec)
				return yes;
		}
	}
	switch (tep_filter_match(filter, rec)) {
	case TEP_ERRNO__FILTER_MATCH:
	case TEP_ERRNO__NO_FILTER:
		return true;
	default:
		return false;
	}
}

/* Expression @i's table and its part for events of @type, if pid-only: 1 + its index, else 0. */
static int pid_part(struct ns_trace_exprs *f, int i, int type, struct fast **fap)
{
	struct fast *fa;
	int k;

	if (f->sub || i < 0 || i >= f->nr || !f->filter[i]->filters || type < 0 ||
	    type >= NS_EV_TYPE_MAP)
		return 0;
	fa = f->fast[i] ? f->fast[i] : fast_of(f, i);
	k = fa && type < fa->nr_slots ? fa->slot[type] : 0;
	*fap = fa;
	return k && fa->pid_only[k - 1] ? k : 0;
}

bool ns_trace_exprs_pid_only(struct ns_trace_exprs *f, int i, int type)
{
	struct fast *fa;

	return pid_part(f, i, type, &fa) != 0;
}

int ns_trace_exprs_match_pid(struct ns_trace_exprs *f, int type, int pid, uint64_t want,
			     uint64_t *match)
{
	/* test_of() reads nothing of a pid-only part's record but common_pid */
	uint64_t data[PID_REC_MAX / 8];
	struct tep_record rec = { .data = data, .size = PID_REC_MAX };
	int32_t p = pid;

	*match = 0;
	for (int i = 0; i < f->nr; i++) {
		bool short_rec = false;
		struct fast *fa;
		int k, off;

		if (!(want & (1ull << i)))
			continue;
		k = pid_part(f, i, type, &fa);
		if (!k)
			return -EAGAIN;
		off = fa->pid_off[k - 1];
		if (off >= 0) {
			memcpy((char *)data + off, &p, sizeof(p));
			rec.size = off + 4;
		}
		if (test_of(f->filter[i]->event_filters[k - 1].filter, &rec, &short_rec))
			*match |= 1ull << i;
		if (short_rec)
			return -EAGAIN;
	}
	return 0;
}

struct ns_trace_exprs *ns_trace_exprs_alloc(struct ns_trace *trace)
{
	struct ns_trace_exprs *f = calloc(1, sizeof(*f));
	int k;

	if (f) {
		f->trace = trace;
		f->tep = trace->tep;
	}
	if (f && trace->multi) {
		f->sub = calloc((size_t)trace->multi->nr, sizeof(*f->sub));
		f->at = calloc((size_t)trace->multi->nr, sizeof(*f->at));
		for (k = 0; f->sub && f->at && k < trace->multi->nr; k++)
			if (!(f->sub[k] = ns_trace_exprs_alloc(trace->multi->sub[k])))
				break;
		if (!f->sub || !f->at || k < trace->multi->nr) {
			ns_trace_exprs_free(f);
			return NULL;
		}
	}
	return f;
}

/* Several files: @text for each file that knows its events. */
static int multi_add(struct ns_trace_exprs *f, const char *text, char *err, size_t err_len)
{
	const struct ns_multi *m = f->trace->multi;
	char why[256] = "";
	int k, i, ok = 0;

	if (f->nr >= NS_TRACE_EXPRS_MAX) {
		snprintf(err, err_len, "at most %d filter expressions", NS_TRACE_EXPRS_MAX);
		return -E2BIG;
	}
	for (k = 0; k < m->nr; k++) {
		i = ns_trace_exprs_add(f->sub[k], text, k ? why : err, k ? sizeof(why) : err_len);
		f->at[k][f->nr] = (int8_t)(i >= 0 ? i : -1);
		ok += i >= 0;
	}
	if (!ok) {
		for (k = 0; k < m->nr; k++)	/* taken out again: none took it */
			f->at[k][f->nr] = -1;
		return -EINVAL;
	}
	f->text[f->nr] = strdup(text);
	if (!f->text[f->nr]) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	return f->nr++;
}

void ns_trace_exprs_free(struct ns_trace_exprs *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; f->sub && i < f->trace->multi->nr; i++)
		ns_trace_exprs_free(f->sub[i]);
	free(f->sub);
	free(f->at);
	for (i = 0; i < f->nr; i++) {
		fast_free(f->fast[i]);
		if (f->filter[i])
			tep_filter_free(f->filter[i]);
		free(f->text[i]);
	}
	free(f);
}

/*
 * libtraceevent's message on one line. It draws the expression with a caret
 * under the place, then gives the reason:
 *    (prev_pid == 1
 *    ^
 *   Unbalanced number of '('
 * which becomes "Unbalanced number of '(' (at column 1 of the condition)".
 */
static void one_line(const char *msg, char *err, size_t err_len)
{
	const char *last = NULL, *caret = NULL, *p = msg, *nl;
	size_t len;

	while (*p) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && strspn(p, " ") < len) {
			if (p[strspn(p, " ")] == '^' && strspn(p, " ^") >= len)
				caret = p;
			else
				last = p;
		}
		p += len + (nl ? 1 : 0);
	}
	if (!last) {
		snprintf(err, err_len, "cannot parse the filter");
		return;
	}
	len = strcspn(last, "\n");
	if (caret)
		snprintf(err, err_len, "%.*s (at column %zu of the condition)", (int)len, last,
			 strspn(caret, " "));
	else
		snprintf(err, err_len, "%.*s", (int)len, last);
}

/* Compile @text for the current tep handle; the message of a refusal in @err. */
static struct tep_event_filter *compile(struct tep_handle *tep, const char *text, char *err,
					size_t err_len)
{
	struct tep_event_filter *filter = tep_filter_alloc(tep);
	enum tep_errno ret;

	if (!filter) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	ret = tep_filter_add_filter_str(filter, text);
	if (ret < 0) {
		char msg[TEP_FILTER_ERROR_BUFSZ];

		if (tep_filter_strerror(filter, ret, msg, sizeof(msg)))
			snprintf(msg, sizeof(msg), "cannot parse the filter");
		one_line(msg, err, err_len);
		tep_filter_free(filter);
		return NULL;
	}
	return filter;
}

/*
 * Parse @text in a child first. Returns 0 when it parses, -EINVAL with the
 * message, or -EFAULT when the parser crashed on it.
 */
static int probe(struct tep_handle *tep, const char *text, char *err, size_t err_len)
{
	char msg[512];
	ssize_t n, got = 0;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds))
		return 0;	/* no child: go on without the probe */
	pid = ns_trace_fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		if (errno != EBUSY)
			return 0;
		if (prober)
			return probe_elsewhere(text, err, err_len);
		/* a child of a threaded process may inherit held locks */
		snprintf(err, err_len, "cannot check the filter while other threads run");
		return -EBUSY;
	}
	if (pid == 0) {
		struct tep_event_filter *f;

		/* ns_trace_fork(): a crash dies quietly, no handler touches the tty */
		close(fds[0]);
		f = compile(tep, text, msg, sizeof(msg));
		if (!f && write(fds[1], msg, strlen(msg)) < 0)
			_exit(2);
		_exit(f ? 0 : 1);
	}
	close(fds[1]);
	while ((size_t)got < sizeof(msg) - 1 &&
	       ((n = read(fds[0], msg + got, sizeof(msg) - 1 - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? n : 0;
	msg[got] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status)) {
		snprintf(err, err_len, "libtraceevent's filter parser crashes on it "
			 "(an operand missing?)");
		return -EFAULT;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1) {
		snprintf(err, err_len, "%s", got ? msg : "cannot parse the filter");
		return -EINVAL;
	}
	return 0;
}

int ns_trace_exprs_add(struct ns_trace_exprs *f, const char *text, char *err, size_t err_len)
{
	struct tep_event_filter *filter;
	char *copy;

	if (!text || !*text) {
		snprintf(err, err_len, "empty filter");
		return -EINVAL;
	}
	if (f->sub)
		return multi_add(f, text, err, err_len);
	if (f->nr >= NS_TRACE_EXPRS_MAX) {
		snprintf(err, err_len, "at most %d filter expressions", NS_TRACE_EXPRS_MAX);
		return -E2BIG;
	}
	if (probe(f->tep, text, err, err_len))
		return -EINVAL;
	filter = compile(f->tep, text, err, err_len);
	if (!filter)
		return -EINVAL;
	copy = strdup(text);
	if (!copy) {
		tep_filter_free(filter);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	f->text[f->nr] = copy;
	f->filter[f->nr] = filter;
	return f->nr++;
}

struct ns_trace_exprs *ns_trace_exprs_clone(const struct ns_trace_exprs *f)
{
	struct ns_trace_exprs *c = ns_trace_exprs_alloc(f->trace);
	char err[256];
	int i;

	if (c && f->sub) {
		for (i = 0; i < f->trace->multi->nr; i++) {
			ns_trace_exprs_free(c->sub[i]);
			c->sub[i] = ns_trace_exprs_clone(f->sub[i]);
			if (!c->sub[i]) {
				ns_trace_exprs_free(c);
				return NULL;
			}
		}
		memcpy(c->at, f->at, (size_t)f->trace->multi->nr * sizeof(*f->at));
		for (i = 0; i < f->nr; i++) {
			c->text[i] = strdup(f->text[i]);
			c->nr = i + 1;
			if (!c->text[i]) {
				ns_trace_exprs_free(c);
				return NULL;
			}
		}
		return c;
	}
	for (i = 0; c && i < f->nr; i++) {
		/* checked once already (probe()): compile it again, as it is */
		c->filter[i] = compile(c->tep, f->text[i], err, sizeof(err));
		c->text[i] = strdup(f->text[i]);
		c->nr = i + 1;
		if (!c->filter[i] || !c->text[i]) {
			ns_trace_exprs_free(c);
			return NULL;
		}
	}
	return c;
}

int ns_trace_exprs_check(struct ns_trace *trace, const char *text, char *err, size_t err_len)
{
	struct tep_event_filter *filter;

	if (!text || !*text) {
		snprintf(err, err_len, "empty filter");
		return -EINVAL;
	}
	if (trace->multi) {	/* good if some file takes it */
		char why[256];
		int k;

		for (k = 0; k < trace->multi->nr; k++)
			if (!ns_trace_exprs_check(trace->multi->sub[k], text, k ? why : err,
						  k ? sizeof(why) : err_len))
				return 0;
		return -EINVAL;
	}
	if (probe(trace->tep, text, err, err_len))
		return -EINVAL;
	filter = compile(trace->tep, text, err, err_len);
	if (!filter)
		return -EINVAL;
	tep_filter_free(filter);
	return 0;
}

int ns_trace_exprs_nr(const struct ns_trace_exprs *f)
{
	return f->nr;
}

int ns_trace_exprs_type(const struct ns_trace_exprs *f, int i, int type)
{
	const struct tep_event_filter *filter;
	int k;

	if (i < 0 || i >= f->nr)
		return NS_TRACE_EXPRS_NEVER;
	if (f->sub) {
		/* the first file with events of @type says (they share its format) */
		for (k = 0; k < f->trace->multi->nr; k++) {
			int t = ns_multi_sub_type(f->trace, k, type);

			if (t >= 0)
				return f->at[k][i] < 0 ? NS_TRACE_EXPRS_NEVER :
				       ns_trace_exprs_type(f->sub[k], f->at[k][i], t);
		}
		return NS_TRACE_EXPRS_NEVER;
	}
	filter = f->filter[i];
	/* no event at all in it: report counts every record as matching */
	if (!filter->filters)
		return NS_TRACE_EXPRS_ALWAYS;
	for (k = 0; k < filter->filters; k++) {
		const struct tep_filter_type *ft = &filter->event_filters[k];

		if (ft->event_id != type)
			continue;
		if (ft->filter && ft->filter->type == TEP_FILTER_ARG_BOOLEAN)
			return ft->filter->boolean.value ? NS_TRACE_EXPRS_ALWAYS :
							   NS_TRACE_EXPRS_NEVER;
		return NS_TRACE_EXPRS_MAYBE;
	}
	return NS_TRACE_EXPRS_NEVER;
}

/* The trace's handle was replaced (recycled): make the filters again. */
static int recompile(struct ns_trace_exprs *f)
{
	struct tep_event_filter *n[NS_TRACE_EXPRS_MAX];
	char err[256];
	int i;

	for (i = 0; i < f->nr; i++) {
		n[i] = compile(f->trace->tep, f->text[i], err, sizeof(err));
		if (!n[i]) {
			while (i--)
				tep_filter_free(n[i]);
			return -ENOMEM;
		}
	}
	for (i = 0; i < f->nr; i++) {
		tep_filter_free(f->filter[i]);	/* drops its reference on the old tep */
		f->filter[i] = n[i];
		fast_free(f->fast[i]);
		f->fast[i] = NULL;
	}
	f->tep = f->trace->tep;
	return 0;
}

int ns_trace_exprs_match(struct ns_trace_exprs *f, int cpu, uint64_t idx, uint64_t want,
			 uint64_t *match)
{
	return ns_trace_exprs_match_r(f, NULL, cpu, idx, want, match);
}

int ns_trace_exprs_match_r(struct ns_trace_exprs *f, struct ns_trace_reader *r, int cpu,
			   uint64_t idx, uint64_t want, uint64_t *match)
{
	struct tep_record *rec;
	int i, type, ret = 0;

	*match = 0;
	if (f->sub) {
		int k = ns_multi_file_of_slot(f->trace, cpu);
		uint64_t w = 0, got = 0;

		if (!ns_multi_slot(f->trace, &cpu))
			return -EIO;
		for (i = 0; i < f->nr; i++)
			if ((want & (1ull << i)) && f->at[k][i] >= 0)
				w |= 1ull << f->at[k][i];
		if (!w)
			return 0;
		ret = ns_trace_exprs_match_r(f->sub[k], r ? r->subs[k] : NULL, cpu, idx, w, &got);
		for (i = 0; i < f->nr; i++)
			if (f->at[k][i] >= 0 && (got & (1ull << f->at[k][i])))
				*match |= 1ull << i;
		return ret;
	}
	rec = r ? ns_trace_read_r(r, cpu, idx) : ns_trace_read(f->trace, cpu, idx);
	if (!rec)
		return ns_trace_changed(f->trace) ? -ESTALE : -EIO;
	/* only the screen's reader, alone, sees the handle recycled */
	if (!r && f->tep != f->trace->tep)
		ret = recompile(f);
	/* the type its page said, else where its format says */
	type = ns_trace_read_type_r(r ? r : &(struct ns_trace_reader){ f->trace, NULL, NULL }, rec);
	if (type < 0)
		type = tep_data_type(f->tep, rec);
	for (i = 0; !ret && i < f->nr; i++) {
		if ((want & (1ull << i)) && match_one(f, i, rec, type))
			*match |= 1ull << i;
	}
	if (r)
		ns_trace_read_done_r(r, rec);
	else
		ns_trace_read_done(f->trace, rec);
	return ret;
}

/* ---- the catalogue of event types ---------------------------------------- */

int ns_trace_nr_event_types(const struct ns_trace *trace)
{
	if (trace->multi)
		return trace->multi->nr_types;
	return tep_get_events_count(trace->tep);
}

int ns_trace_event_type_at(const struct ns_trace *trace, int i)
{
	struct tep_event *event;

	if (trace->multi)
		return i >= 0 && i < trace->multi->nr_types ? trace->multi->types[i] : -ERANGE;
	if (i < 0 || i >= tep_get_events_count(trace->tep))
		return -ERANGE;
	event = tep_get_event(trace->tep, i);
	return event ? event->id : -ERANGE;
}

const char *ns_trace_event_system(const struct ns_trace *trace, int type)
{
	struct tep_event *event;

	if (trace->multi) {
		const struct ns_trace *sub = ns_multi_type(trace, &type);

		return sub ? ns_trace_event_system(sub, type) : "";
	}
	event = tep_find_event(trace->tep, type);

	return event && event->system ? event->system : "";
}

int ns_trace_event_type(const struct ns_trace *trace, const char *system, const char *name)
{
	struct tep_event *event;

	if (trace->multi) {
		for (int k = 0; k < trace->multi->nr; k++) {
			int t = ns_trace_event_type(trace->multi->sub[k], system, name);

			if (t >= 0)
				return ns_multi_type_of(trace, k, t);
		}
		return -ENOENT;
	}
	event = tep_find_event_by_name(trace->tep, system, name);

	return event ? event->id : -ENOENT;
}
