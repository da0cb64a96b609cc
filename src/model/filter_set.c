// SPDX-License-Identifier: GPL-2.0-only
/*
 * The filter set as plain data (see include/nurseshark/filter.h, the
 * contract with sessions): a small array of entries, the task rows in the
 * order they were added, the plot rows' lines, a bit array of hidden CPU rows
 * and the last search.
 * Sets hold tens of entries, so every lookup is a linear scan; what makes
 * filtering fast on millions of events is the visibility pass (visible.c),
 * which compiles a set once per change.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nurseshark/filter.h"
#include "nurseshark/util.h"

struct entry {
	int kind, mode, where, value;
	char *name;
};

struct ns_filter_set {
	uint64_t generation;
	struct entry *entries;
	int nr_entries;
	size_t cap_entries;
	int *task_rows;
	int nr_task_rows;
	size_t cap_task_rows;
	char **plot_rows;
	int nr_plot_rows;
	size_t cap_plot_rows;
	uint8_t *hidden_cpus;	/* one byte per CPU: simple, and CPUs are few */
	int nr_hidden_alloc;
	struct ns_search_spec search;
};

struct ns_filter_set *ns_filter_set_alloc(void)
{
	return calloc(1, sizeof(struct ns_filter_set));
}

void ns_filter_set_free(struct ns_filter_set *fs)
{
	if (!fs)
		return;
	ns_filter_set_clear_entries(fs);
	free(fs->entries);
	free(fs->task_rows);
	while (fs->nr_plot_rows)
		free(fs->plot_rows[--fs->nr_plot_rows]);
	free(fs->plot_rows);
	free(fs->hidden_cpus);
	free(fs);
}

uint64_t ns_filter_set_generation(const struct ns_filter_set *fs)
{
	return fs->generation;
}

int ns_filter_set_nr_entries(const struct ns_filter_set *fs)
{
	return fs->nr_entries;
}

int ns_filter_set_entry(const struct ns_filter_set *fs, int i, struct ns_filter_entry *out)
{
	const struct entry *e;

	if (i < 0 || i >= fs->nr_entries)
		return -ERANGE;
	e = &fs->entries[i];
	out->kind = e->kind;
	out->mode = e->mode;
	out->where = e->where;
	out->value = e->value;
	out->name = e->name;
	return 0;
}

static int has_name(int kind)
{
	return kind == NS_FILTER_EVENT || kind == NS_FILTER_SYSTEM || kind == NS_FILTER_ADVANCED ||
	       kind == NS_FILTER_STREAM;
}

static int same_target(const struct entry *a, const struct ns_filter_entry *b)
{
	if (a->kind != b->kind)
		return 0;
	if (has_name(a->kind))
		return strcmp(a->name, b->name) == 0;
	return a->value == b->value;
}

int ns_filter_set_add(struct ns_filter_set *fs, const struct ns_filter_entry *e)
{
	struct entry *n;
	int i;

	if (e->kind < 0 || e->kind >= NS_NR_FILTER_KINDS || e->mode < 0 ||
	    e->mode >= NS_NR_FILTER_MODES || !(e->where & NS_FILTER_BOTH) ||
	    (e->where & ~NS_FILTER_BOTH))
		return -EINVAL;
	if (has_name(e->kind) ? !e->name || !e->name[0] : e->value < 0)
		return -EINVAL;
	for (i = 0; i < fs->nr_entries; i++) {
		struct entry *old = &fs->entries[i];

		if (!same_target(old, e))
			continue;
		/*
		 * Expressions may be both shown and hidden (report -F x -v -F x);
		 * for a task, an event, a CPU or a stream the later choice wins.
		 */
		if (old->mode == e->mode) {
			old->where |= e->where;
			fs->generation++;
			return 0;
		}
		if (e->kind != NS_FILTER_ADVANCED) {
			old->mode = e->mode;
			old->where = e->where;
			fs->generation++;
			return 0;
		}
	}
	if (NS_GROW(fs->entries, fs->cap_entries, (size_t)fs->nr_entries + 1))
		return -ENOMEM;
	n = &fs->entries[fs->nr_entries];
	n->kind = e->kind;
	n->mode = e->mode;
	n->where = e->where;
	n->value = has_name(e->kind) ? 0 : e->value;
	n->name = NULL;
	if (has_name(e->kind)) {
		n->name = strdup(e->name);
		if (!n->name)
			return -ENOMEM;
	}
	fs->nr_entries++;
	fs->generation++;
	return 0;
}

int ns_filter_set_remove(struct ns_filter_set *fs, int i)
{
	if (i < 0 || i >= fs->nr_entries)
		return -ERANGE;
	free(fs->entries[i].name);
	memmove(&fs->entries[i], &fs->entries[i + 1],
		(fs->nr_entries - i - 1) * sizeof(fs->entries[0]));
	fs->nr_entries--;
	fs->generation++;
	return 0;
}

void ns_filter_set_clear_entries(struct ns_filter_set *fs)
{
	int i;

	for (i = 0; i < fs->nr_entries; i++)
		free(fs->entries[i].name);
	fs->nr_entries = 0;
	fs->generation++;
}

int ns_filter_set_copy(struct ns_filter_set *dst, const struct ns_filter_set *src)
{
	struct ns_filter_entry e;
	int i, ret;

	if (dst == src)
		return 0;
	ns_filter_set_clear_entries(dst);
	dst->nr_task_rows = 0;
	while (dst->nr_plot_rows)
		free(dst->plot_rows[--dst->nr_plot_rows]);
	for (i = 0; i < dst->nr_hidden_alloc; i++)
		dst->hidden_cpus[i] = 0;
	for (i = 0; i < src->nr_entries; i++) {
		ns_filter_set_entry(src, i, &e);
		/* add() would merge; copy entry by entry instead */
		ret = ns_filter_set_add(dst, &e);
		if (ret)
			return ret;
	}
	for (i = 0; i < src->nr_task_rows; i++) {
		ret = ns_filter_set_add_task_row(dst, src->task_rows[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < src->nr_plot_rows; i++) {
		ret = ns_filter_set_add_plot_row(dst, src->plot_rows[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < src->nr_hidden_alloc; i++) {
		ret = ns_filter_set_hide_cpu(dst, i, src->hidden_cpus[i]);
		if (ret)
			return ret;
	}
	dst->search = src->search;
	dst->generation++;
	return 0;
}

int ns_filter_set_same_entries(const struct ns_filter_set *a, const struct ns_filter_set *b)
{
	int i;

	if (a->nr_entries != b->nr_entries)
		return 0;
	for (i = 0; i < a->nr_entries; i++) {
		const struct entry *x = &a->entries[i], *y = &b->entries[i];

		if (x->kind != y->kind || x->mode != y->mode || x->where != y->where ||
		    x->value != y->value || (x->name || y->name) != (x->name && y->name) ||
		    (x->name && strcmp(x->name, y->name)))
			return 0;
	}
	return 1;
}

int ns_filter_set_nr_task_rows(const struct ns_filter_set *fs)
{
	return fs->nr_task_rows;
}

int ns_filter_set_task_row(const struct ns_filter_set *fs, int i)
{
	return i >= 0 && i < fs->nr_task_rows ? fs->task_rows[i] : -1;
}

int ns_filter_set_has_task_row(const struct ns_filter_set *fs, int pid)
{
	int i;

	for (i = 0; i < fs->nr_task_rows; i++)
		if (fs->task_rows[i] == pid)
			return 1;
	return 0;
}

int ns_filter_set_add_task_row(struct ns_filter_set *fs, int pid)
{
	if (pid < 0)
		return -EINVAL;
	if (ns_filter_set_has_task_row(fs, pid))
		return 0;
	if (NS_GROW(fs->task_rows, fs->cap_task_rows, (size_t)fs->nr_task_rows + 1))
		return -ENOMEM;
	fs->task_rows[fs->nr_task_rows++] = pid;
	fs->generation++;
	return 0;
}

int ns_filter_set_remove_task_row(struct ns_filter_set *fs, int pid)
{
	int i;

	for (i = 0; i < fs->nr_task_rows; i++) {
		if (fs->task_rows[i] != pid)
			continue;
		memmove(&fs->task_rows[i], &fs->task_rows[i + 1],
			(fs->nr_task_rows - i - 1) * sizeof(int));
		fs->nr_task_rows--;
		fs->generation++;
		return 0;
	}
	return -ENOENT;
}

int ns_filter_set_nr_plot_rows(const struct ns_filter_set *fs)
{
	return fs->nr_plot_rows;
}

const char *ns_filter_set_plot_row(const struct ns_filter_set *fs, int i)
{
	return i >= 0 && i < fs->nr_plot_rows ? fs->plot_rows[i] : NULL;
}

int ns_filter_set_has_plot_row(const struct ns_filter_set *fs, const char *line)
{
	int i;

	for (i = 0; i < fs->nr_plot_rows; i++)
		if (!strcmp(fs->plot_rows[i], line))
			return 1;
	return 0;
}

int ns_filter_set_add_plot_row(struct ns_filter_set *fs, const char *line)
{
	char *copy;

	if (!line || !*line)
		return -EINVAL;
	if (ns_filter_set_has_plot_row(fs, line))
		return 0;
	if (NS_GROW(fs->plot_rows, fs->cap_plot_rows, (size_t)fs->nr_plot_rows + 1))
		return -ENOMEM;
	copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	fs->plot_rows[fs->nr_plot_rows++] = copy;
	fs->generation++;
	return 0;
}

int ns_filter_set_remove_plot_row(struct ns_filter_set *fs, const char *line)
{
	int i;

	for (i = 0; i < fs->nr_plot_rows; i++) {
		if (strcmp(fs->plot_rows[i], line))
			continue;
		free(fs->plot_rows[i]);
		memmove(&fs->plot_rows[i], &fs->plot_rows[i + 1],
			(fs->nr_plot_rows - i - 1) * sizeof(char *));
		fs->nr_plot_rows--;
		fs->generation++;
		return 0;
	}
	return -ENOENT;
}

int ns_filter_set_cpu_hidden(const struct ns_filter_set *fs, int cpu)
{
	return cpu >= 0 && cpu < fs->nr_hidden_alloc && fs->hidden_cpus[cpu];
}

int ns_filter_set_hide_cpu(struct ns_filter_set *fs, int cpu, int hidden)
{
	if (cpu < 0 || cpu >= (1 << 20))
		return -EINVAL;
	if (cpu >= fs->nr_hidden_alloc) {
		int ncap = cpu + 64;
		uint8_t *n;

		if (!hidden)
			return 0;
		n = realloc(fs->hidden_cpus, ncap);
		if (!n)
			return -ENOMEM;
		memset(n + fs->nr_hidden_alloc, 0, ncap - fs->nr_hidden_alloc);
		fs->hidden_cpus = n;
		fs->nr_hidden_alloc = ncap;
	}
	if (fs->hidden_cpus[cpu] != !!hidden) {
		fs->hidden_cpus[cpu] = !!hidden;
		fs->generation++;
	}
	return 0;
}

int ns_filter_set_cpu_limit(const struct ns_filter_set *fs)
{
	int cpu;

	for (cpu = fs->nr_hidden_alloc; cpu > 0; cpu--)
		if (fs->hidden_cpus[cpu - 1])
			return cpu;
	return 0;
}

int ns_filter_set_saved_search(const struct ns_filter_set *fs, struct ns_search_spec *out)
{
	if (!fs->search.text[0])
		return -ENOENT;
	*out = fs->search;
	return 0;
}

int ns_filter_set_save_search(struct ns_filter_set *fs, const struct ns_search_spec *spec)
{
	if (!spec) {
		memset(&fs->search, 0, sizeof(fs->search));
		return 0;
	}
	if (spec->column < 0 || spec->column >= NS_NR_SEARCH_COLUMNS || spec->mode < 0 ||
	    spec->mode >= NS_NR_SEARCH_MODES || !memchr(spec->text, 0, sizeof(spec->text)))
		return -EINVAL;
	fs->search = *spec;
	/* the search does not change what is visible: no new generation */
	return 0;
}

/* ---- names -------------------------------------------------------------- */

static const char *const kind_names[NS_NR_FILTER_KINDS] = {
	"task", "event", "system", "cpu", "advanced", "stream",
};
static const char *const mode_names[NS_NR_FILTER_MODES] = { "show", "hide" };
static const char *const where_names[NS_FILTER_BOTH + 1] = { NULL, "graph", "list", "both" };
static const char *const column_names[NS_NR_SEARCH_COLUMNS] = {
	"any", "task", "pid", "cpu", "event", "info", "stream",
};
static const char *const smode_names[NS_NR_SEARCH_MODES] = {
	"contains", "exact", "not-contains", "regex",
};

static int lookup(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return i;
	return -1;
}

#define NAME_OF(tab, v) ((v) >= 0 && (v) < (int)NS_ARRAY_SIZE(tab) ? tab[v] : NULL)

const char *ns_filter_kind_name(int kind)
{
	return NAME_OF(kind_names, kind);
}

int ns_filter_kind_from_name(const char *name)
{
	return lookup(kind_names, NS_NR_FILTER_KINDS, name);
}

const char *ns_filter_mode_name(int mode)
{
	return NAME_OF(mode_names, mode);
}

int ns_filter_mode_from_name(const char *name)
{
	return lookup(mode_names, NS_NR_FILTER_MODES, name);
}

const char *ns_filter_where_name(int where)
{
	return NAME_OF(where_names, where);
}

int ns_filter_where_from_name(const char *name)
{
	return lookup(where_names, NS_FILTER_BOTH + 1, name);
}

const char *ns_search_column_name(int column)
{
	return NAME_OF(column_names, column);
}

int ns_search_column_from_name(const char *name)
{
	return lookup(column_names, NS_NR_SEARCH_COLUMNS, name);
}

const char *ns_search_mode_name(int mode)
{
	return NAME_OF(smode_names, mode);
}

int ns_search_mode_from_name(const char *name)
{
	return lookup(smode_names, NS_NR_SEARCH_MODES, name);
}
