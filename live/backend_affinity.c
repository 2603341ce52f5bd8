// SPDX-License-Identifier: MIT
/*
 * DOC: enforcement backend "affinity": sched_setaffinity per thread
 *
 * A thread is journaled (its mask before) the first time it is seen, then
 * set; one kernel CPU set serves every thread of an interval. A thread with
 * a mask of its own (narrower than the online CPUs, and not one we set on
 * its parent) is left alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

static int inherited(const struct ps_live *l, const struct thr *t, const unsigned char *mask)
{
	pid_t parent = t->tid != t->tgid ? t->tgid : t->ppid;
	const struct thr *p = ps_live_find_thr(l, parent, parent);
	char list[8192];
	int k;

	if (!p || p->managed != 1)
		return 0;
	if (ps_cpulist_format(mask, PS_LIVE_MAX_CPUS, list, sizeof(list)))
		return 0;
	for (k = 0; k < l->napplied; k++)
		if (!strcmp(l->applied[k], list))
			return 1;
	return 0;
}

static void remember_applied(struct ps_live *l, const char *list)
{
	char *c = strdup(list);

	if (!c)
		return;
	if (l->napplied == NR_APPLIED) {
		free(l->applied[0]);
		memmove(l->applied, l->applied + 1, sizeof(l->applied[0]) * (NR_APPLIED - 1));
		l->napplied--;
	}
	l->applied[l->napplied++] = c;
}

static int affinity_apply(struct ps_live *l, int changed)
{
	int i, r, nb = PS_LIVE_MAX_CPUS, fresh = 0;
	cpu_set_t *set = NULL;
	size_t sz = 0;

	/* first the new threads: ours or the user's; journal them, one sync */
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed)
			continue;
		if (ps_live_get_mask(t->tid, l->scratch, nb)) {
			t->managed = 2;
			continue;
		}
		/* the machine's mask, or one of ours inherited from a managed
		 * parent; anything else is the user's */
		if (memcmp(l->scratch, l->online, (size_t)nb) &&
		    memcmp(l->scratch, l->allowed_os, (size_t)nb) && !inherited(l, t, l->scratch)) {
			t->managed = 2;
			lg(l, "thread %d has an affinity of its own, narrower than the "
			   "online CPUs: left alone", (int)t->tid);
			continue;
		}
		if (!l->cfg.dry_run)
			ps_live_journal_line(l, "task %d %llu %s\n", (int)t->tid, t->start, l->online_str);
		t->managed = 1;
		/* already on the allowed set (inherited): nothing to set */
		t->fresh = memcmp(l->scratch, l->allowed_os, (size_t)nb) != 0;
		fresh += t->fresh;
	}
	ps_live_journal_sync(l);
	if (l->cfg.dry_run || (!changed && !fresh))
		return 0;
	/* one kernel CPU set for every thread */
	set = CPU_ALLOC((size_t)nb);
	if (!set)
		return -ENOMEM;
	sz = CPU_ALLOC_SIZE((size_t)nb);
	CPU_ZERO_S(sz, set);
	for (i = 0; i < nb; i++)
		if (l->allowed_os[i])
			CPU_SET_S((size_t)i, sz, set);
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed != 1 || (!changed && !t->fresh))
			continue;
		t->fresh = 0;
		r = sched_setaffinity(t->tid, sz, set) ? -errno : 0;
		if (r == -ESRCH)
			continue;
		if (r) {
			lg(l, "thread %d: sched_setaffinity: %s; left as it is", (int)t->tid,
			   strerror(-r));
			if (r == -EPERM)
				t->managed = 2;
		}
	}
	CPU_FREE(set);
	return 0;
}

static int aff_prepare_child(struct ps_live *l, char *procs_path, size_t len)
{
	(void)l;
	(void)len;
	procs_path[0] = '\0';
	return 0;
}

static void aff_set_child(struct ps_live *l, pid_t pid)
{
	(void)l;
	(void)pid;
}

static int aff_apply(struct ps_live *l, const char *list, int changed)
{
	if (changed)
		remember_applied(l, list);
	return affinity_apply(l, changed);
}

const struct ps_live_backend_ops ps_live_backend_affinity = {
	.name = "affinity",
	.label = "affinity",
	.members = ps_live_members_tree,
	.prepare_child = aff_prepare_child,
	.set_child = aff_set_child,
	.apply = aff_apply,
};
