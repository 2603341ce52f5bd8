// SPDX-License-Identifier: MIT
/*
 * The thread table and lineage. Each scan reads the managed threads into a
 * table sorted by process, then thread (a process's threads are one run),
 * and looks up the previous scan's table by binary search. Heirs are the
 * threads the proc connector saw born of one of ours between scans: a ring
 * of their TIDs, so a child forked and gone before a scan is still known
 * as ours when a scan meets it.
 */
#include <errno.h>
#include <stdlib.h>

#include "live_int.h"

int ps_live_push_thr(struct ps_live *l, const struct thr *t)
{
	if (l->nthr_n == l->nthr_cap) {
		int cap = l->nthr_cap ? l->nthr_cap * 2 : 256;
		struct thr *n = realloc(l->nthr, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->nthr = n;
		l->nthr_cap = cap;
	}
	l->nthr[l->nthr_n++] = *t;
	return 0;
}

/* Tables are sorted by process, then thread: a process's threads are one run. */
int ps_live_thr_before(pid_t tgid_a, pid_t tid_a, pid_t tgid_b, pid_t tid_b)
{
	return tgid_a < tgid_b || (tgid_a == tgid_b && tid_a < tid_b);
}

int ps_live_cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	return ps_live_thr_before(y->tgid, y->tid, x->tgid, x->tid) -
	       ps_live_thr_before(x->tgid, x->tid, y->tgid, y->tid);
}

/* First entry of the old table at or after (tgid, tid). */
int ps_live_lower_bound(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int lo = 0, hi = l->thr_n;

	while (lo < hi) {
		int m = (lo + hi) / 2;

		if (ps_live_thr_before(l->thr[m].tgid, l->thr[m].tid, tgid, tid))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

struct thr *ps_live_find_thr(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int k = ps_live_lower_bound(l, tgid, tid);

	return k < l->thr_n && l->thr[k].tgid == tgid && l->thr[k].tid == tid ? &l->thr[k] :
										 NULL;
}

int ps_live_heir(const struct ps_live *l, pid_t tid)
{
	int i, n = l->nheirs < PS_LIVE_NR_HEIRS ? l->nheirs : PS_LIVE_NR_HEIRS;

	for (i = 0; i < n; i++)
		if (l->heirs[i] == tid)
			return 1;
	return 0;
}

void ps_live_heir_add(struct ps_live *l, pid_t tid)
{
	l->heirs[l->nheirs++ % PS_LIVE_NR_HEIRS] = tid;
	if (l->nheirs == 2 * PS_LIVE_NR_HEIRS)
		l->nheirs = PS_LIVE_NR_HEIRS; /* full: the ring goes on, no overflow */
}

void ps_live_swap_tables(struct ps_live *l)
{
	struct thr *tp = l->thr;
	int cap = l->thr_cap;

	l->thr = l->nthr;
	l->thr_cap = l->nthr_cap;
	l->thr_n = l->nthr_n;
	l->nthr = tp;
	l->nthr_cap = cap;
	l->nthr_n = 0;
}
