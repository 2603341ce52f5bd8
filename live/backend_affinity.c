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

/* mask (a byte map) is one of the sets we applied */
static int is_applied(const struct ps_live *l, const unsigned char *mask)
{
	char list[8192];
	int k;

	if (ps_cpulist_format(mask, PS_LIVE_MAX_CPUS, list, sizeof(list)))
		return 0;
	for (k = 0; k < l->napplied; k++)
		if (!strcmp(l->applied[k], list))
			return 1;
	return 0;
}

/* A mask we applied came from a parent we confined: from a managed
 * parent, or from one since gone (an orphan reparented to init or to run,
 * its subreaper: a double fork). Either way it is ours to put back. */
static int inherited(const struct ps_live *l, const struct thr *t, const unsigned char *mask)
{
	(void)t;
	return is_applied(l, mask);
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

/*
 * A thread we never manage (kernel, real-time, a service manager, filtered
 * out) that carries a mask we applied got it from a parent we confined:
 * widen it to the online CPUs the first time it is seen.
 */
static void release_excluded(struct ps_live *l, struct thr *t)
{
	int nb = PS_LIVE_MAX_CPUS;

	t->checked = 1;
	if (l->cfg.dry_run || !l->napplied || ps_live_get_mask(t->tid, l->scratch, nb) ||
	    !memcmp(l->scratch, l->online, (size_t)nb) || !is_applied(l, l->scratch))
		return;
	if (!ps_live_set_mask(t->tid, l->online, nb))
		lg(l, "thread %d (not ours to manage) had a set we applied, inherited: "
		   "widened to %s", (int)t->tid, l->online_str);
}

/* Process pid left our care (moved into an excluded cgroup): every thread
 * of it on a set we applied gets the online CPUs back (what it had). */
static void aff_release(struct ps_live *l, pid_t pid)
{
	char path[512];
	struct dirent *de;
	int nb = PS_LIVE_MAX_CPUS, n = 0;
	DIR *d;

	if (l->cfg.dry_run)
		return;
	ps_live_path(l, path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0 || ps_live_get_mask((pid_t)tid, l->scratch, nb) ||
		    !is_applied(l, l->scratch))
			continue;
		n += !ps_live_set_mask((pid_t)tid, l->online, nb);
	}
	closedir(d);
	if (n)
		lg(l, "process %d is no longer ours (an excluded cgroup): %d thread(s) back on %s",
		   (int)pid, n, l->online_str);
}

static int affinity_apply(struct ps_live *l, int changed)
{
	int i, r, nb = PS_LIVE_MAX_CPUS, fresh = 0, jr = 0;
	cpu_set_t *set = NULL;
	size_t sz = 0;

	/* first the new threads: ours or the user's; journal them, one sync;
	 * a thread whose record is not on disk is not touched (3: journaled,
	 * not yet synced) */
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		t->newrec = 0; /* this call's, set below */
		if (t->excluded && !t->checked)
			release_excluded(l, t);
		if (t->managed || jr)
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
		if (!l->cfg.dry_run) {
			jr = ps_live_journal_line(l, "task %d %llu %s\n", (int)t->tid, t->start,
						  l->online_str);
			if (jr)
				continue;
		}
		t->managed = 3;
		t->newrec = 1;
		/* already on the allowed set (inherited, or every PU when the
		 * set is every PU): nothing to set */
		t->fresh = memcmp(l->scratch, l->allowed_os, (size_t)nb) != 0;
	}
	/* a new set: its record first, so a restore can tell our masks from
	 * the user's */
	if (changed && !l->cfg.dry_run && !jr) {
		char list[8192];

		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		jr = ps_live_journal_line(l, "applied %s\n", list);
	}
	if (!jr)
		jr = ps_live_journal_sync(l);
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed != 3)
			continue;
		t->managed = jr ? 0 : 1; /* not on disk: tried again next time */
		if (jr)
			t->fresh = 0;
		fresh += t->fresh;
	}
	if (jr && !l->cfg.dry_run) {
		/* a thread we could not record that carries our set got it
		 * from a parent we confined: it goes back to the online CPUs
		 * now, since nothing would put it back later */
		int widened = 0;

		for (i = 0; i < l->thr_n; i++) {
			struct thr *t = &l->thr[i];

			if (t->managed || ps_live_get_mask(t->tid, l->scratch, nb) ||
			    !memcmp(l->scratch, l->online, (size_t)nb) || !is_applied(l, l->scratch))
				continue;
			widened += !ps_live_set_mask(t->tid, l->online, nb);
		}
		if (widened)
			lg(l, "journal not writable: %d inherited thread(s) put back on %s", widened,
			   l->online_str);
	}
	if (jr && changed) {
		/* the new set is not recorded: it is not applied */
		memcpy(l->allowed_os, l->set_os, (size_t)nb);
		changed = 0;
	}
	if (l->journal_tasks > 256 && l->journal_tasks > 2 * l->thr_n && !jr) {
		r = ps_live_journal_compact(l);
		if (r)
			lg(l, "journal: compaction failed: %s", strerror(-r));
	}
	if (l->cfg.dry_run || (!changed && !fresh))
		return jr;
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

		if (t->managed != 1)
			continue;
		/* recorded just now: what it has is what was read a moment ago
		 * (the new set, or a mask to replace with it), never a mask we
		 * gave it before. Compared with the interval before's set, a
		 * thread born on every PU as the set grew to every PU read as
		 * changed by the user, and was let go (issue 23, item 2) */
		if (t->newrec) {
			t->newrec = 0;
			if (!t->fresh)
				continue;
		} else if (!changed && !t->fresh) {
			continue;
		}
		/* never clobber: a mask that is no longer the one we set (or
		 * inherited) is the user's from now on */
		if (!t->fresh && !ps_live_get_mask(t->tid, l->scratch, nb) &&
		    memcmp(l->scratch, l->set_os, (size_t)nb)) {
			char now[256];

			t->managed = 2;
			ps_cpulist_format(l->scratch, nb, now, sizeof(now));
			lg(l, "thread %d: its mask was changed to %s since we set it: the "
			   "user's now, let go", (int)t->tid, now);
			continue;
		}
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
	memcpy(l->set_os, l->allowed_os, (size_t)nb);
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

/* run's final sweep: journal the threads born since the last interval
 * (they carry our set, inherited) so the restore puts them back too */
static int aff_sweep(struct ps_live *l)
{
	return affinity_apply(l, 0);
}

const struct ps_live_backend_ops ps_live_backend_affinity = {
	.name = "affinity",
	.label = "affinity",
	.members = ps_live_members_tree,
	.prepare_child = aff_prepare_child,
	.set_child = aff_set_child,
	.apply = aff_apply,
	.sweep = aff_sweep,
	.release = aff_release,
};
