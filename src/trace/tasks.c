// SPDX-License-Identifier: GPL-2.0-only
/*
 * The task table: pid -> the last comm sched events gave it, and from which
 * row on `trace-cmd report` knows its name. An open-addressing hash keyed by
 * pid; pid 0 (idle) is never stored, so 0 marks an empty slot.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace-int.h"

static size_t slot_of(int pid, size_t cap)
{
	return ((uint32_t)pid * 2654435761u) & (cap - 1);
}

static int rehash(struct ns_tasks *tasks, size_t ncap)
{
	struct ns_task *nslots = calloc(ncap, sizeof(*nslots));
	size_t i, j;

	if (!nslots)
		return -ENOMEM;
	for (i = 0; i < tasks->cap; i++) {
		if (!tasks->slots[i].pid)
			continue;
		for (j = slot_of(tasks->slots[i].pid, ncap); nslots[j].pid; j = (j + 1) & (ncap - 1))
			;
		nslots[j] = tasks->slots[i];
	}
	free(tasks->slots);
	tasks->slots = nslots;
	tasks->cap = ncap;
	return 0;
}

/**
 * ns_tasks_get - the entry of @pid, created (comm empty) when @create
 * Returns NULL for pid <= 0, when absent and !@create, or out of memory.
 */
struct ns_task *ns_tasks_get(struct ns_tasks *tasks, int pid, bool create)
{
	size_t i;

	if (pid <= 0)
		return NULL;
	if (tasks->cap) {
		for (i = slot_of(pid, tasks->cap); tasks->slots[i].pid; i = (i + 1) & (tasks->cap - 1))
			if (tasks->slots[i].pid == pid)
				return &tasks->slots[i];
	}
	if (!create)
		return NULL;
	if ((tasks->count + 1) * 4 > tasks->cap * 3 &&
	    rehash(tasks, tasks->cap ? tasks->cap * 2 : 256))
		return NULL;
	for (i = slot_of(pid, tasks->cap); tasks->slots[i].pid; i = (i + 1) & (tasks->cap - 1))
		;
	memset(&tasks->slots[i], 0, sizeof(tasks->slots[i]));
	tasks->slots[i].pid = pid;
	tasks->slots[i].unknown_until = -1;
	tasks->slots[i].unknown_cpu = -1;
	tasks->count++;
	return &tasks->slots[i];
}

const struct ns_task *ns_tasks_find(const struct ns_tasks *tasks, int pid)
{
	return ns_tasks_get((struct ns_tasks *)tasks, pid, false);
}

void ns_tasks_free(struct ns_tasks *tasks)
{
	free(tasks->slots);
	memset(tasks, 0, sizeof(*tasks));
}
