// SPDX-License-Identifier: MIT
/*
 * DOC: enforcement backend "affinity": sched_setaffinity per thread
 *
 * A thread is journaled (its mask before) the first time it is seen, then
 * set; one kernel CPU set serves every thread of an interval.
 *
 * Whose a mask is follows from what we recorded, never from a value that
 * happens to match ours. A thread is ours when we recorded it (TID and start
 * time, in the journal before its mask changed) or when it was born of a
 * thread of ours while that one was ours (its lineage: its own process's
 * threads, its parent process's, a birth the proc connector reported from
 * one of ours, or, for run, a process reparented to run); it stays ours
 * while its mask is the last set we gave it. Any other thread is someone
 * else's, whatever its mask: a `taskset -c 0` started before us keeps its
 * CPU 0 when our set is 0 too.
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

int ps_live_born_of_ours(const struct ps_live *l, const struct thr *t)
{
	/* made by a thread of its own process, or (a process's first
	 * thread) of its parent process */
	pid_t par = t->tid != t->tgid ? t->tgid : t->ppid;
	int i;

	/* run: a process reparented to run (its subreaper) descends from
	 * run's command */
	if (!l->cfg.whole_system && l->child && t->tid == t->tgid && t->tid != l->child &&
	    t->ppid == l->self)
		return 1;
	for (i = ps_live_lower_bound(l, par, 0); i < l->thr_n && l->thr[i].tgid == par; i++) {
		const struct thr *p = &l->thr[i];

		if (p != t && (p->managed == 1 || p->managed == 3) && p->owned_at <= t->start)
			return 1;
	}
	return ps_live_heir(l, t->tid);
}

/* Thread t carries our set because a thread of ours gave it: its lineage,
 * and its mask the set its parent had from us when it was born (a parent
 * the user changed gives its children the user's mask, and they are the
 * user's): the set in force at its birth, or the one before (born while
 * the set was going onto its parent), or the set on our threads now */
static int got_ours(const struct ps_live *l, const struct thr *t, const unsigned char *mask)
{
	char list[PS_JOURNAL_FIELD];
	int k;

	if (!memcmp(mask, l->set_os, PS_LIVE_MAX_CPUS))
		return 1;
	if (ps_cpulist_format(mask, PS_LIVE_MAX_CPUS, list, sizeof(list)))
		return 0;
	for (k = l->nhist - 1; k >= 0 && l->hist[k].at > t->start; k--)
		;
	return (k >= 0 && !strcmp(l->hist[k].list, list)) ||
	       (k >= 1 && !strcmp(l->hist[k - 1].list, list));
}

static int inherited(const struct ps_live *l, const struct thr *t, const unsigned char *mask)
{
	return ps_live_born_of_ours(l, t) && got_ours(l, t, mask);
}

static void hist_push(struct ps_live *l, const char *list)
{
	char *c = strdup(list);

	if (!c)
		return;
	if (l->nhist == PS_LIVE_NR_HIST) {
		free(l->hist[0].list);
		memmove(l->hist, l->hist + 1, sizeof(l->hist[0]) * (PS_LIVE_NR_HIST - 1));
		l->nhist--;
	}
	l->hist[l->nhist].list = c;
	l->hist[l->nhist++].at = ps_live_now_ticks(l);
}

void ps_live_hist_free(struct ps_live *l)
{
	while (l->nhist)
		free(l->hist[--l->nhist].list);
}

/* Thread t is no longer ours: its record says so, so that no restore puts
 * back what is the user's now (a failed write is logged by the journal; the
 * restore's mask rule still holds for it) */
static void release_rec(struct ps_live *l, const struct thr *t)
{
	if (!l->cfg.dry_run)
		(void)ps_live_journal_line(l, "release %d %llu\n", (int)t->tid, t->start);
}

/* t leaves our care as the user's: its release record, and never ours
 * again (not managed, no record to act on, theirs if it is excluded) */
static void let_go(struct ps_live *l, struct thr *t)
{
	release_rec(l, t);
	t->managed = 2;
	t->recorded = 0;
	t->theirs = 1;
}

/*
 * A thread we never manage (real-time, a service manager, filtered out)
 * that was born of a thread of ours, with our set still on it, got the set
 * from us: widen it to the online CPUs the first time it is seen. One that
 * merely has a mask equal to a set of ours (a kernel thread, a `taskset`
 * started before us) is not ours and is never written.
 */
static void release_excluded(struct ps_live *l, struct thr *t)
{
	int nb = PS_LIVE_MAX_CPUS;

	t->checked = 1;
	if (l->cfg.dry_run || ps_live_get_mask(t->tid, l->scratch, nb))
		return;
	/* recorded by us until it became one we do not manage (an exec into
	 * an excluded command): on the last set we gave it, it gets its CPUs
	 * back; either way it leaves our care, and its record says so (no
	 * restore may take back what the user gives it from now on) */
	if (t->recorded) {
		if (!memcmp(l->scratch, l->set_os, (size_t)nb) &&
		    memcmp(l->scratch, l->online, (size_t)nb) &&
		    !ps_live_set_mask(t->tid, l->online, nb))
			lg(l, "thread %d (ours, not to manage now): widened to %s", (int)t->tid,
			   l->online_str);
		let_go(l, t);
		return;
	}
	if (t->theirs || !l->nhist || !memcmp(l->scratch, l->online, (size_t)nb) ||
	    !inherited(l, t, l->scratch))
		return;
	if (!ps_live_set_mask(t->tid, l->online, nb))
		lg(l, "thread %d (not ours to manage) had a set we applied, inherited: "
		   "widened to %s", (int)t->tid, l->online_str);
}

/* Process pid left our care (moved into an excluded cgroup): each thread
 * of it that is ours (recorded, or born of ours) and still on the last set
 * we gave it gets the online CPUs back (what it had); a thread of it with a
 * mask of its own keeps it. */
static void aff_release(struct ps_live *l, pid_t pid, pid_t ppid)
{
	pid_t *tids = NULL;
	int nb = PS_LIVE_MAX_CPUS, n = 0, nt, k, leader_ours = 0;

	if (l->cfg.dry_run)
		return;
	nt = ps_live_sys->threads(l, pid, &tids);
	for (k = 0; k < nt; k++) {
		long tid = tids[k];
		struct thr *t = ps_live_find_thr(l, pid, (pid_t)tid);
		struct thr fresh;
		int ours;

		if (tid <= 0 || ps_live_get_mask((pid_t)tid, l->scratch, nb))
			continue;
		if (!t) {
			/* not listed by us (born since the last scan, or born
			 * into the excluded cgroup): its lineage decides; a
			 * thread of a process whose first thread was ours by
			 * lineage, with the set, is too */
			memset(&fresh, 0, sizeof(fresh));
			fresh.tid = (pid_t)tid;
			fresh.tgid = pid;
			fresh.ppid = ppid;
			fresh.start = ps_live_starttime(l->cfg.root, tid);
			if (!fresh.start || !got_ours(l, &fresh, l->scratch))
				continue;
			ours = (tid != pid && leader_ours) || ps_live_born_of_ours(l, &fresh);
			if (tid == pid)
				leader_ours = ours;
			if (!ours)
				continue;
		} else if (t->managed != 1 && !t->recorded) {
			continue;
		} else if (memcmp(l->scratch, l->set_os, (size_t)nb)) {
			/* ours by record, the user's mask now: it leaves our
			 * care as theirs, and no restore may take it back */
			let_go(l, t);
			continue;
		}
		if (ps_live_set_mask((pid_t)tid, l->online, nb))
			continue;
		n++;
		/* given back: no restore puts it back again over what the
		 * user may give it from now on */
		if (t)
			let_go(l, t);
	}
	free(tids);
	if (n)
		lg(l, "process %d is no longer ours (an excluded cgroup, or a run's tree): "
		   "%d thread(s) back on %s",
		   (int)pid, n, l->online_str);
}

/* Threads with no record of ours (new ones, and ones we do not manage)
 * that were born of a thread of ours and carry a set of ours: the online
 * CPUs, when no record will put them back (the journal cannot be written;
 * after the restore). The user's (managed 2, not excluded) are skipped.
 * How many were set. */
static int widen_unrecorded(struct ps_live *l)
{
	int i, nb = PS_LIVE_MAX_CPUS, n = 0;

	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed == 1 || t->managed == 3 || t->recorded || t->theirs ||
		    (t->managed == 2 && !t->excluded) || ps_live_get_mask(t->tid, l->scratch, nb) ||
		    !memcmp(l->scratch, l->online, (size_t)nb) || !inherited(l, t, l->scratch))
			continue;
		n += !ps_live_set_mask(t->tid, l->online, nb);
	}
	return n;
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
		/* the machine's mask, or one of ours inherited from a thread
		 * of ours (its lineage; a parent process sorts first, so it is
		 * recorded above when it is new too); anything else is the
		 * user's, even when it equals our set */
		if (memcmp(l->scratch, l->online, (size_t)nb) && !inherited(l, t, l->scratch)) {
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
		/* ours since now (its record), or since its birth when it
		 * was born of ours: its own children then are ours too */
		t->owned_at = memcmp(l->scratch, l->online, (size_t)nb) ? t->start :
									   ps_live_now_ticks(l);
		t->managed = 3;
		t->newrec = 1;
		/* already on the allowed set (inherited, or every PU when the
		 * set is every PU): nothing to set */
		t->fresh = memcmp(l->scratch, l->allowed_os, (size_t)nb) != 0;
	}
	/* a new set: its record first, so a restore can tell our masks from
	 * the user's */
	if (changed && !l->cfg.dry_run && !jr) {
		char list[PS_JOURNAL_FIELD];

		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		jr = ps_live_journal_line(l, "applied %s\n", list);
		if (!jr)
			hist_push(l, list);
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
		int widened = widen_unrecorded(l);

		if (widened)
			lg(l, "journal not writable: %d inherited thread(s) put back on %s", widened,
			   l->online_str);
	}
	if (jr && changed) {
		/* the new set is not recorded: it is not applied */
		memcpy(l->allowed_os, l->set_os, (size_t)nb);
		changed = 0;
	}
	if (!jr)
		(void)ps_live_journal_tidy(l);
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
		 * gave it before: compared with the interval before's set, a
		 * thread born on every PU as the set grew to every PU would read
		 * as changed by the user, and be let go */
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

			ps_cpulist_format(l->scratch, nb, now, sizeof(now));
			lg(l, "thread %d: its mask was changed to %s since we set it: the "
			   "user's now, let go", (int)t->tid, now);
			let_go(l, t);
			continue;
		}
		t->fresh = 0;
		r = ps_live_sys->set_cpuset(t->tid, sz, set);
		if (r == -ESRCH)
			continue;
		if (r) {
			lg(l, "thread %d: sched_setaffinity: %s; left as it is", (int)t->tid,
			   strerror(-r));
			if (r == -EPERM)
				let_go(l, t);
		}
	}
	CPU_FREE(set);
	/* every thread of ours has the new set (or was let go): a restore
	 * needs no older set than this one (no sync: lost, the restore
	 * takes the one before too) */
	if (changed)
		(void)ps_live_journal_line(l, "done\n");
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
	(void)list;
	return affinity_apply(l, changed);
}

/* run's final sweep: journal the threads born since the last interval
 * (they carry our set, inherited) so the restore puts them back too */
static int aff_sweep(struct ps_live *l)
{
	return affinity_apply(l, 0);
}

/* After the restore: a thread we did not record (born since the final
 * sweep) that was born of a thread of ours and carries a set of ours got
 * it from us: the online CPUs, as its parent now has */
static void aff_after_restore(struct ps_live *l)
{
	int n;

	if (l->cfg.dry_run)
		return;
	n = widen_unrecorded(l);
	if (n)
		lg(l, "%d thread(s) born as we stopped, with our set: back on %s", n,
		   l->online_str);
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
	.after_restore = aff_after_restore,
};
