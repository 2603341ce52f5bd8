// SPDX-License-Identifier: MIT
/*
 * The kernel's placement model: where a waking task goes and what balance
 * moves. A difference from the real kernel is fixed here.
 *
 * Kernel model, inside the allowed PUs:
 *  - wake-up: the previous PU if its core is idle; else the first idle core,
 *    searched domain by domain from the previous PU's LLC (the smallest
 *    domain holding it and another core) up to the machine; else the
 *    previous PU if idle; else the first idle PU, searched the same way;
 *    else the least loaded PU (a tournament tree, O(log P) per change).
 *  - a PU going idle pulls a task from a PU running two or more (new-idle
 *    balance);
 *  - every balance period: a task moves from a PU with two or more to an
 *    idle core, then to an idle PU, else to the least loaded PU if that runs
 *    two fewer; a core with two busy siblings hands one task to an idle
 *    core. At most 64 moves; only PUs and cores that can give a task are
 *    visited (bitmaps, and the least-loaded tree's max), so a balanced
 *    machine costs O(P / 64) words per balance, not O(P);
 *  - between groups of cores (the LLCs of a package, the packages of a
 *    machine), every PU-count ms: half the difference in runnable tasks
 *    moves to the least busy group with an idle allowed PU
 *    (balance_groups()).
 * Legacy mode (the 2012 knobs) replaces the balance with packing toward a
 * target: packages in order, each filled to its capacity in tasks. That
 * capacity is the 2.6.3x arithmetic: DIV_ROUND_CLOSEST(cpu_power, 1024)
 * with a core of two siblings worth smt_gain 1178 (kernel/sched.c,
 * SD_SIBLING_INIT; update_sg_lb_stats in kernel/sched_fair.c), so an
 * 8-core SMT package holds round(8 x 1.15) = 9 tasks, not 16: the seeds'
 * bug. "fixed" counts each sibling as a slot. smt=0 fills one task per core;
 * smt>=1 fills siblings (fixed) or cores then siblings (broken). Level 2 of
 * either knob also steers wake-ups to the target (the wake-up biasing of
 * sched_mc_power_savings=2); level 1 packs only when balancing.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "engine.h"

/* First i in [lo, hi) with a[i] & b[i], or -1. */
static int first_both(const struct sim *s, const unsigned long long *a,
		      const unsigned long long *b, int lo, int hi)
{
	int w;

	if (lo >= hi)
		return -1;
	for (w = lo >> 6; w <= (hi - 1) >> 6; w++) {
		unsigned long long x = a[w] & b[w];

		if (w == lo >> 6)
			x &= ~0ull << (lo & 63);
		if (w == (hi - 1) >> 6 && ((hi & 63) != 0))
			x &= ~0ull >> (64 - (hi & 63));
		if (x)
			return (w << 6) + __builtin_ctzll(x);
	}
	(void)s;
	return -1;
}

/*
 * The first allowed PU set in b, domain by domain: the LLC of near (the
 * smallest domain holding it and another core), then each domain above,
 * in each the PUs not yet searched, after the child's range then before
 * it. Without near, the whole machine in order.
 */
static int search(const struct sim *s, const unsigned long long *b, int near)
{
	const struct ps_domain *doms = s->t->doms;
	int d, r;

	if (near < 0)
		return first_both(s, s->allowed, b, 0, s->t->nr_pus);
	d = s->pu[near].llc;
	r = first_both(s, s->allowed, b, doms[d].pu_lo, doms[d].pu_hi);
	while (r < 0 && doms[d].parent >= 0) {
		int lo = doms[d].pu_lo, hi = doms[d].pu_hi;

		d = doms[d].parent;
		r = first_both(s, s->allowed, b, hi, doms[d].pu_hi);
		if (r < 0)
			r = first_both(s, s->allowed, b, doms[d].pu_lo, lo);
	}
	return r;
}

static int rt_allows(const struct sim *s, int i, int p)
{
	const struct rt_inst *in;

	if (s->tk[i].rt < 0)
		return 1;
	in = &s->rti[s->tk[i].rt];
	return !in->has_aff || bit_get(in->aff, p);
}

/* An rt-app task pinned outside the allowed set stays where it is. */
static int rt_may_leave(const struct sim *s, int i)
{
	const struct rt_inst *in;
	int w;

	if (s->tk[i].rt < 0)
		return 1;
	in = &s->rti[s->tk[i].rt];
	if (!in->has_aff)
		return 1;
	for (w = 0; w < s->nwords; w++)
		if (in->aff[w] & s->allowed[w])
			return 1;
	return 0;
}

/*
 * The first task on p's runqueue that may run on to (not pinned away from
 * it by its rt-app cpus), or -1. Without pinned tasks: p's head.
 */
int sim_movable(const struct sim *s, int p, int to)
{
	int i;

	for (i = s->pu[p].head; i >= 0; i = s->tk[i].next)
		if (rt_allows(s, i, to))
			return i;
	return -1;
}

int sim_migrate(struct sim *s, int i, int p)
{
	int r;

	if (!rt_allows(s, i, p))
		return 0; /* pinned by its rt-app cpus */
	r = sim_dequeue(s, i);

	s->r->migrations++;
	return r ? r : sim_enqueue(s, i, p);
}

/*
 * The allowed PU with the fewest tasks: near if it is one of them, else
 * the first. O(log P) per PU changed since the last call.
 */
static int least_loaded(struct sim *s, int near)
{
	sim_ll_fix(s);
	if (s->ll_min[1] == INT_MAX)
		return -1;
	if (near >= 0 && bit_get(s->allowed, near) && s->pu[near].nr == s->ll_min[1])
		return near;
	return s->ll_arg[1];
}

static int legacy_level2(const struct sim *s)
{
	return s->cfg->pol.mode == PS_SIM_LEGACY &&
	       (s->cfg->pol.mc == 2 || s->cfg->pol.smt == 2);
}

int sim_legacy_packs(const struct sim *s)
{
	return s->cfg->pol.mode == PS_SIM_LEGACY &&
	       (s->cfg->pol.mc || s->cfg->pol.smt);
}

static int select_pu(struct sim *s, int i)
{
	int prev = s->tk[i].prev_pu, p, k;

	if (legacy_level2(s) && sim_legacy_packs(s)) {
		/* wake-up biasing: the first idle slot of the target order */
		for (k = 0; k < s->nslot; k++)
			if (s->pu[s->slot[k]].nr == 0)
				return s->slot[k];
	}
	if (prev >= 0 && bit_get(s->allowed, prev) && bit_get(s->idle_core, prev))
		return prev;
	p = s->n_idle_core ? search(s, s->idle_core, prev) : -1;
	if (p >= 0)
		return p;
	if (prev >= 0 && bit_get(s->allowed, prev) && bit_get(s->idle_pu, prev))
		return prev;
	p = s->n_idle_pu ? search(s, s->idle_pu, prev) : -1;
	if (p >= 0)
		return p;
	return least_loaded(s, prev);
}

/*
 * An rt-app task with cpus: inside them, the allowed ones if any (else the
 * cpus alone, as sched_setaffinity outside a cpuset's CPUs would leave it),
 * an idle core first, then an idle PU, then the least loaded.
 */
static int rt_pick(const struct sim *s, int i)
{
	const struct rt_inst *in = &s->rti[s->tk[i].rt];
	int pass, p, best = -1, prev = s->tk[i].prev_pu;

	for (pass = 0; pass < 2 && best < 0; pass++) {
		int need_allowed = pass == 0;

		if (prev >= 0 && bit_get(in->aff, prev) &&
		    (!need_allowed || bit_get(s->allowed, prev)) && !s->pu[prev].nr &&
		    bit_get(s->idle_core, prev))
			return prev;
		for (p = 0; p < s->t->nr_pus; p++) {
			if (!bit_get(in->aff, p) || (need_allowed && !bit_get(s->allowed, p)))
				continue;
			if (best < 0 || (bit_get(s->idle_core, p) && !bit_get(s->idle_core, best)) ||
			    (bit_get(s->idle_core, p) == bit_get(s->idle_core, best) &&
			     s->pu[p].nr < s->pu[best].nr))
				best = p;
		}
	}
	return best;
}

/*
 * The stock search (idle core from the previous PU's LLC up, idle PU, then
 * the least-loaded tree) knows nothing of rt-app cpus: the PU it finds may
 * be outside a pinned task's cpus (the tree's least-loaded PU often is).
 * Then the task falls back to rt_pick(), a scan restricted to its cpus.
 */
int sim_wake(struct sim *s, int i)
{
	int p = select_pu(s, i);

	if (p < 0 || !rt_allows(s, i, p))
		p = rt_pick(s, i);
	return sim_enqueue(s, i, p);
}

static int balance_groups(struct sim *s);

/*
 * Stock periodic balance inside the allowed set, at most 64 moves. Its cost
 * does not grow with the machine when nothing is to be done: PUs running
 * two or more are a bitmap, cores with two busy siblings another, and with
 * no idle PU left only PUs with two more tasks than the least loaded can
 * give one, found by a descent of the least-loaded tree (O(log P) each).
 */
int sim_balance_stock(struct sim *s)
{
	const int P = s->t->nr_pus;
	int moves = 0, c, r = 0, p = 0;

	/* a PU running two or more: give one to an idle core, else idle PU,
	 * else to the least loaded if that has two fewer; PUs in order, each
	 * looked at again after a move */
	while (s->n_over && !r && moves < 64) {
		int to, i;

		if (s->n_idle_core || s->n_idle_pu) {
			p = sim_next_set(s->over, P, p);
			if (p < 0)
				break;
			to = s->n_idle_core ? search(s, s->idle_core, p) : -1;
			if (to < 0)
				to = search(s, s->idle_pu, p);
			if (to < 0)
				break; /* cannot happen: the counts say one is idle */
		} else {
			int thr;

			sim_ll_fix(s);
			if (s->ll_min[1] == INT_MAX)
				break;
			thr = s->ll_min[1] + 2 > 2 ? s->ll_min[1] + 2 : 2;
			p = sim_first_nr_ge(s, 1, 0, s->ll_leaves, p, thr);
			if (p < 0)
				break;
			to = least_loaded(s, p);
		}
		/* rt-app cpus may pin all of p's tasks away from to: next PU */
		i = sim_movable(s, p, to);
		if (i < 0) {
			p++;
			continue;
		}
		r = sim_migrate(s, i, to);
		moves++;
	}
	/* two busy siblings while a core is idle: spread */
	for (c = sim_next_set(s->core2, s->ncores, 0); c >= 0 && !r && moves < 64;
	     c = sim_next_set(s->core2, s->ncores, c + 1)) {
		int to = s->n_idle_core ? search(s, s->idle_core, s->core[c].lo) : -1, i = -1;

		if (to < 0)
			break;
		for (p = s->core[c].hi - 1; p >= s->core[c].lo; p--)
			if (s->pu[p].nr && (i = sim_movable(s, p, to)) >= 0)
				break;
		if (i < 0)
			continue; /* pinned by rt-app cpus */
		r = sim_migrate(s, i, to);
		moves++;
	}
	return r ? r : balance_groups(s);
}

/*
 * Between groups of cores (the LLCs of a package, the packages of a
 * machine, NUMA nodes), at each such domain's own interval (its PU count
 * in ms, the kernel's sd->min_interval), as Linux 6.1's load_balance():
 * with an idle allowed PU in the least busy group and two or more runnable
 * tasks more in the busiest, half the difference moves (prefer_sibling:
 * the child level shares a cache), to an idle core first. The source is
 * the busiest group's first PU of the most tasks (find_busiest_queue()). A
 * task waiting there moves at once (a PU whose waiting tasks are all
 * pinned away is passed over, the kernel's redo without it); a task
 * running alone cannot be detached, so the look fails, and only when more
 * than cache_nice_tries + 2 looks in a row have failed (3; 4 between NUMA
 * nodes) does an active balance move it, one task, unless it is pinned
 * away (out_one_pinned: it stays, and so does the count). A balanced
 * look, a move and an all-pinned look reset the count. Between NUMA nodes
 * an imbalance of two tasks or fewer is left while the idler node runs
 * fewer than grp_imb tasks (adjust_numa_imbalance()). So a few busy tasks
 * that fit one package are spread over both, as the kernel does.
 */
static int balance_groups(struct sim *s)
{
	const struct ps_domain *doms = s->t->doms;
	int g, r = 0;

	for (g = 0; g < s->ngrp && !r; g++) {
		const struct ps_domain *D = &doms[s->grp[g]];
		int numa = s->grp_imb[g] > 0, k, hi = -1, lo = -1, n, moved = 0;

		/* the tolerance: now is a sum of balance periods */
		if (s->now + 1e-9 < s->grp_next[g])
			continue;
		s->grp_next[g] = s->now + 1e-3 * (D->pu_hi - D->pu_lo);
		for (k = 0; k < D->nr_children; k++) {
			int c = D->children[k];

			if (hi < 0 || s->dom_nr[c] > s->dom_nr[hi])
				hi = c;
			if ((lo < 0 || s->dom_nr[c] < s->dom_nr[lo]) &&
			    first_both(s, s->allowed, s->idle_pu, doms[c].pu_lo,
				       doms[c].pu_hi) >= 0)
				lo = c;
		}
		n = lo >= 0 ? (s->dom_nr[hi] - s->dom_nr[lo]) / 2 : 0;
		if (numa && n > 0 && n <= 2 && s->dom_nr[lo] + 1 <= s->grp_imb[g])
			n = 0;
		if (n <= 0)
			s->grp_fail[g] = 0;
		for (; n > 0 && !r; n--) {
			int to, from = -1, p, i;

			to = first_both(s, s->allowed, s->idle_core, doms[lo].pu_lo, doms[lo].pu_hi);
			if (to < 0)
				to = first_both(s, s->allowed, s->idle_pu, doms[lo].pu_lo,
						doms[lo].pu_hi);
			if (to < 0)
				break;
			for (p = doms[hi].pu_lo; p < doms[hi].pu_hi; p++)
				if (s->pu[p].nr > (from < 0 ? 0 : s->pu[from].nr))
					from = p;
			if (from < 0)
				break;
			if (s->pu[from].nr >= 2) {
				/* a waiting task that may go, from the busiest
				 * PU or the next of two or more that has one */
				for (p = from, i = -1; p < doms[hi].pu_hi && i < 0; p++)
					if (s->pu[p].nr >= 2)
						i = sim_movable(s, p, to);
				if (i < 0) {
					s->grp_fail[g] = 0; /* out_all_pinned */
					break;
				}
				s->grp_fail[g] = 0;
				moved = 1;
				r = sim_migrate(s, i, to);
				continue;
			}
			/* running alone: nothing to detach, the look failed
			 * (unless something moved: then it did not) */
			if (moved || ++s->grp_fail[g] <= 2 + (numa ? 2 : 1))
				break;
			i = sim_movable(s, from, to);
			if (i < 0)
				break; /* out_one_pinned */
			s->grp_fail[g] = 0;
			r = sim_migrate(s, i, to);
			break; /* an active balance moves one task */
		}
	}
	return r;
}

/* Legacy balance: move tasks toward the first R slots of the fill order. */
int sim_balance_legacy(struct sim *s)
{
	int R = 0, p, k, r = 0, moves = 0, i;

	for (p = 0; p < s->t->nr_pus; p++) {
		R += s->pu[p].nr;
		s->target[p] = 0;
	}
	for (k = 0; k < R; k++)
		s->target[s->slot[k % s->nslot]]++;
	for (p = 0; p < s->t->nr_pus && !r && moves < 64; p++) {
		while (s->pu[p].nr > s->target[p] && !r) {
			int to = -1, q;

			for (k = 0; k < s->nslot; k++) {
				q = s->slot[k];
				if (s->pu[q].nr < s->target[q]) {
					to = q;
					break;
				}
			}
			if (to < 0)
				break;
			/* rt-app cpus may pin p's tasks away from to */
			i = sim_movable(s, p, to);
			if (i < 0)
				break;
			r = sim_migrate(s, i, to);
			moves++;
		}
	}
	return r;
}

/* The legacy fill order: packages in order, each up to its capacity. */
int sim_build_slots(struct sim *s)
{
	const struct ps_topo *t = s->t;
	const struct ps_sim_policy *pol = &s->cfg->pol;
	int *used = calloc(t->nr_pus, sizeof(int));
	int d, n = 0, p, i;

	s->slot = malloc(sizeof(int) * t->nr_pus);
	s->target = malloc(sizeof(int) * t->nr_pus);
	if (!used || !s->slot || !s->target) {
		free(used);
		return -ENOMEM;
	}
	for (d = 0; d < t->nr_doms; d++) {
		const struct ps_domain *dom = &t->doms[d];
		int cores = 0, smt_cores = 0, cap, sib, maxsib = 1;
		long power = 0;

		if (!(dom->types & (1u << PS_LVL_PACKAGE)))
			continue;
		for (p = dom->pu_lo; p < dom->pu_hi; p++) {
			int k = t->pus[p].nr_siblings;

			if (p == t->doms[t->pus[p].dom].pu_lo || k == 1) {
				cores++;
				smt_cores += k > 1;
				power += k > 1 ? 1178 : 1024;
			}
			if (k > maxsib)
				maxsib = k;
		}
		if (pol->smt >= 1 && pol->fixed)
			cap = dom->nr_pus;
		else if (pol->smt >= 1)
			cap = (int)((power + 512) / 1024); /* DIV_ROUND_CLOSEST */
		else
			cap = cores;
		(void)smt_cores;
		/* siblings first (fixed smt), else one per core then siblings */
		if (pol->smt >= 1 && pol->fixed) {
			for (p = dom->pu_lo; p < dom->pu_hi && cap > 0; p++, cap--) {
				s->slot[n++] = p;
				used[p] = 1;
			}
		} else {
			for (sib = 0; sib < maxsib && cap > 0; sib++)
				for (p = dom->pu_lo; p < dom->pu_hi && cap > 0; p++)
					if (p - t->doms[t->pus[p].dom].pu_lo == sib ||
					    (t->pus[p].nr_siblings == 1 && sib == 0)) {
						s->slot[n++] = p;
						used[p] = 1;
						cap--;
					}
		}
	}
	for (i = 0; i < t->nr_pus; i++) {
		p = t->spread_order[i];
		if (!used[p])
			s->slot[n++] = p;
	}
	s->nslot = n;
	free(used);
	return 0;
}

void sim_apply_allowed(struct sim *s, const unsigned char *allowed)
{
	int p, changed = 0;

	for (p = 0; p < s->t->nr_pus; p++)
		if (bit_get(s->allowed, p) != !!allowed[p])
			changed = 1;
	if (!changed)
		return;
	sim_account(s, s->now);
	sim_allowed_to_bins(s, s->now);
	s->r->mask_changes++;
	s->nr_allowed = 0;
	for (p = 0; p < s->t->nr_pus; p++) {
		if (bit_get(s->allowed, p) != !!allowed[p])
			ll_mark(s, p);
		if (allowed[p]) {
			bit_set(s->allowed, p);
			s->nr_allowed++;
		} else {
			bit_clr(s->allowed, p);
		}
	}
	s->n_idle_pu = s->n_idle_core = 0;
	for (p = 0; p < s->nwords; p++) {
		s->n_idle_pu += __builtin_popcountll(s->allowed[p] & s->idle_pu[p]);
		s->n_idle_core += __builtin_popcountll(s->allowed[p] & s->idle_core[p]);
	}
}

/* Tasks on PUs no longer allowed move, as a cpuset write makes them. */
int sim_evict(struct sim *s)
{
	int p, r = 0;

	for (p = 0; p < s->t->nr_pus && !r; p++) {
		int i = s->pu[p].head;

		if (bit_get(s->allowed, p))
			continue;
		while (!r && i >= 0) {
			int nx = s->tk[i].next;

			if (rt_may_leave(s, i)) {
				r = sim_dequeue(s, i);
				s->r->migrations++;
				if (!r)
					r = sim_wake(s, i);
			}
			i = nx;
		}
	}
	return r;
}
