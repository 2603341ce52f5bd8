// SPDX-License-Identifier: MIT
/*
 * DOC: the simulation
 *
 * Tasks share a PU fairly (processor sharing: n runnable tasks each get 1/n
 * of it); k busy siblings of a core each run at (1 + g (k-1)) / k, g the
 * model's smt_gain. Progress is computed lazily per core when something on
 * it changes, and the next completion on a core is one keyed event of the
 * queue, moved when that time changes.
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
 *
 * Policy mode: every interval the tracked utilization goes to
 * ps_policy_decide(); the allowed set it returns is applied at once (tasks
 * on PUs taken away move). Utilization is the PU time a task received over
 * the interval, decayed: u = max(sample, (u + sample) / 2). Jobs of a
 * Poisson or trace item count together, split into tasks of at most 1.0,
 * and so do tasks under 0.005 each (10,000 tasks of 0.002 are 20 PUs of
 * load, not none).
 * Deadline misses in an interval are pressure: the next decision may not
 * have fewer PUs than twice the set that missed, held for 10 intervals,
 * doubling each time misses come back.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

enum {
	EV_END,
	EV_PERIODIC,
	EV_POISSON,
	EV_TRACE,
	EV_COMPLETE,
	EV_BALANCE,
	EV_INTERVAL,
	EV_SNAPSHOT,
	EV_RT,         /* an rt-app task instance's next step */
	EV_RT_END,     /* an rt-app file's global duration ran out */
};

struct stask {
	double work_left;  /* INFINITY: CPU-bound */
	double last_t;
	double rate;
	double cpu_iv;     /* PU time received this interval */
	double util;
	double release_t;  /* when the pending work arrived (latency) */
	int pu;            /* -1 when not runnable */
	int prev_pu;
	int item;
	int next, prevq;   /* runqueue links */
	int free_next;     /* job pool */
	int rt;            /* rt-app instance, -1 for other tasks */
};

/* rt-app: one task instance running its phases' events */
enum { RT_READY, RT_RUNNING, RT_BLOCKED, RT_DONE };

struct rt_inst {
	int item, task, local, sid;
	int ph, phl, ev;       /* phase, its loop count, event */
	long loop;
	double ph_start;       /* start of the phase's current loop */
	int state, started, nostep;
	int wnext;             /* wait-queue link */
	int want_mutex;        /* after a condition's wake-up, -1 */
	double rel_iv;         /* work released this interval */
	unsigned long long *aff; /* allowed PUs; NULL: all */
	int has_aff;
};

struct rt_res_state {
	int owner;             /* mutex */
	int qh, qt;            /* FIFO of waiting instances */
	int arrived;           /* barrier */
	int init;              /* timer */
	double t_next;
};

struct rt_item {
	const struct ps_rtapp *rt;
	int first;             /* its first instance in sim.rti */
	struct rt_res_state *res;  /* nres, shared */
	struct rt_res_state *ures; /* ninst x nres, unique timers */
};

struct spu {
	int head, nr;
	int core;
	int llc;           /* smallest domain holding it and another core */
	double busy_since;
	double work_iv;
};

struct score {
	int lo, hi;        /* PU indices */
	int nbusy;
	double pending_t;  /* time of the queued completion event, or inf */
};

struct sim {
	const struct ps_sim_config *cfg;
	const struct ps_topo *t;
	const struct ps_model *m;
	struct ps_sim_result *r;
	struct ps_evq q;
	double now;
	unsigned long long rng;

	struct stask *tk;
	int ntk, captk, free_head;
	int *item_base;    /* first task of each item */
	double *item_cpu_iv, *item_rel_iv;
	int *trace_pos;

	struct spu *pu;
	struct score *core;
	int ncores;
	int nwords;
	unsigned long long *allowed, *idle_pu, *idle_core;
	unsigned long long *over;  /* PUs with nr >= 2 */
	unsigned long long *core2; /* cores with two or more busy PUs */
	int n_over;        /* PUs with nr >= 2 */
	int n_idle_pu, n_idle_core; /* allowed idle PUs, allowed PUs of idle cores */

	/* least loaded: a tournament tree over PUs, leaves fixed lazily */
	int ll_leaves;
	int *ll_min;       /* min nr over allowed PUs (INT_MAX: none) */
	int *ll_arg;       /* its leftmost PU */
	int *ll_max;       /* max nr over all PUs */
	int *ll_list, ll_n;
	unsigned char *ll_dirty;

	/* power: current watts, and per-domain busy PU counts */
	double p_now, t_acc;
	int *dom_busy;

	/* balance between groups of cores (LLCs, packages): per domain its
	 * runnable tasks; the domains whose children each hold two or more
	 * cores, and when each is balanced next */
	int *dom_nr;
	int *grp, ngrp;
	double *grp_next;
	int *grp_fail;     /* looks in a row that could not move a task */
	int *grp_imb;      /* between NUMA nodes: the kernel's imb_numa_nr, else 0 */
	int act_pkg, act_core;
	double pkg_time, core_time, allowed_time;
	double allowed_since;   /* the allowed set's bins are filled up to here */
	int nr_allowed;

	/* legacy */
	int *slot;         /* legacy fill order of PUs */
	int nslot;
	int *target;       /* per PU, scratch */

	/* policy */
	struct ps_decision dec[2];
	int cur;
	struct ps_policy_params params;
	double *uin;
	int cap_in;        /* size of uin and odem */
	int floor_pus, floor_left, floor_hold;
	long misses_iv;
	struct ps_oracle *oracle;
	double *odem;
	double *pu_dem;
	struct ps_power_ws *pw_ws; /* prices each interval's run by its busy PUs */

	double *lat;
	long nlat, caplat;

	/* rt-app */
	struct rt_inst *rti;
	int nrti;
	struct rt_item *rtitem;    /* per workload item */
	int *os2pu, nos;
	long capslack;
	double iv_start;
	double bin_w;
};

/* splitmix64: small, fast, and the same on every machine */
static double rnd(struct sim *s)
{
	unsigned long long z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((z >> 11) + 0.5) / 9007199254740992.0;
}

static inline void bit_set(unsigned long long *b, int i)
{
	b[i >> 6] |= 1ull << (i & 63);
}

static inline void bit_clr(unsigned long long *b, int i)
{
	b[i >> 6] &= ~(1ull << (i & 63));
}

static inline int bit_get(const unsigned long long *b, int i)
{
	return (b[i >> 6] >> (i & 63)) & 1;
}

/* First i >= from with bit i set in b (nbits bits), or -1. */
static int next_set(const unsigned long long *b, int nbits, int from)
{
	int w, nw = (nbits + 63) >> 6;
	unsigned long long x;

	if (from >= nbits)
		return -1;
	w = from >> 6;
	x = b[w] & (~0ull << (from & 63));
	for (;;) {
		if (x)
			return (w << 6) + __builtin_ctzll(x);
		if (++w >= nw)
			return -1;
		x = b[w];
	}
}

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

/* Least-loaded tree: a PU's nr or allowed bit changed. */
static inline void ll_mark(struct sim *s, int p)
{
	if (!s->ll_dirty[p]) {
		s->ll_dirty[p] = 1;
		s->ll_list[s->ll_n++] = p;
	}
}

static inline void ll_pull(struct sim *s, int i)
{
	int l = 2 * i, r = 2 * i + 1;

	if (s->ll_min[l] <= s->ll_min[r]) {
		s->ll_min[i] = s->ll_min[l];
		s->ll_arg[i] = s->ll_arg[l];
	} else {
		s->ll_min[i] = s->ll_min[r];
		s->ll_arg[i] = s->ll_arg[r];
	}
	s->ll_max[i] = s->ll_max[l] > s->ll_max[r] ? s->ll_max[l] : s->ll_max[r];
}

/* Bring the tree up to date: O(log P) per PU changed since the last look. */
static void ll_fix(struct sim *s)
{
	int k;

	for (k = 0; k < s->ll_n; k++) {
		int p = s->ll_list[k], i = s->ll_leaves + p;

		s->ll_dirty[p] = 0;
		s->ll_min[i] = bit_get(s->allowed, p) ? s->pu[p].nr : INT_MAX;
		s->ll_max[i] = s->pu[p].nr;
		for (i /= 2; i >= 1; i /= 2)
			ll_pull(s, i);
	}
	s->ll_n = 0;
}

/* Leftmost PU >= from with nr >= thr, or -1: a descent of the max tree. */
static int first_nr_ge(const struct sim *s, int node, int lo, int hi, int from,
		       int thr)
{
	int mid, r;

	if (hi <= from || s->ll_max[node] < thr)
		return -1;
	if (hi - lo == 1)
		return lo < s->t->nr_pus ? lo : -1;
	mid = (lo + hi) / 2;
	r = first_nr_ge(s, 2 * node, lo, mid, from, thr);
	return r >= 0 ? r : first_nr_ge(s, 2 * node + 1, mid, hi, from, thr);
}

static double smt_speed(double g, int k)
{
	return k <= 1 ? 1.0 : (1 + g * (k - 1)) / k;
}

/*
 * Add v x (time in bin) to arr[k * stride + off] for each bin k that [a, b)
 * covers. The bin index advances by integer, not by dividing the time again:
 * (k + 1) * w / w can round back to k.
 */
static void add_to_bins(const struct sim *s, double *arr, size_t stride,
			size_t off, double a, double b, double v)
{
	int k = (int)(a / s->bin_w);

	for (; a < b && k < s->r->bins; k++) {
		double e = (k + 1) * s->bin_w;

		if (e > b || k == s->r->bins - 1)
			e = b;
		if (e > a) {
			arr[(size_t)k * stride + off] += v * (e - a);
			a = e;
		}
	}
}

/* Bring time forward: energy and domain-activity integrals, and bins. */
static void account(struct sim *s, double now)
{
	double dt = now - s->t_acc;

	if (dt <= 0)
		return;
	s->r->energy_j += s->p_now * dt;
	s->pkg_time += s->act_pkg * dt;
	s->core_time += s->act_core * dt;
	s->allowed_time += s->nr_allowed * dt;
	if (s->r->bins)
		add_to_bins(s, s->r->bin_power_w, 1, 0, s->t_acc, now, s->p_now);
	s->t_acc = now;
}

static void pu_busy_flip(struct sim *s, int pu, int busy)
{
	const struct ps_topo *t = s->t;
	const struct ps_model *m = s->m;
	int sign = busy ? 1 : -1, d;

	account(s, s->now);
	s->p_now += sign * (m->active_w[PS_LVL_PU] - m->idle_w[PS_LVL_PU]);
	if (bit_get(s->allowed, pu))
		s->n_idle_pu -= sign;
	if (busy) {
		s->pu[pu].busy_since = s->now;
		bit_clr(s->idle_pu, pu);
	} else {
		s->r->pu_busy_s[pu] += s->now - s->pu[pu].busy_since;
		if (s->r->bins)
			add_to_bins(s, s->r->bin_busy, s->t->nr_pus, pu,
				    s->pu[pu].busy_since, s->now, 1.0);
		bit_set(s->idle_pu, pu);
	}
	for (d = t->pus[pu].dom; d >= 0; d = t->doms[d].parent) {
		int before = s->dom_busy[d] > 0, after, l;

		s->dom_busy[d] += sign;
		after = s->dom_busy[d] > 0;
		if (before == after)
			break; /* ancestors see no change either */
		for (l = 0; l < PS_LVL_PU; l++)
			if (t->doms[d].types & (1u << l))
				s->p_now += sign * (m->active_w[l] - m->idle_w[l]);
		if (t->doms[d].types & (1u << PS_LVL_PACKAGE))
			s->act_pkg += sign;
		if (t->doms[d].types & (1u << PS_LVL_CORE))
			s->act_core += sign;
	}
}

static void core_sync(struct sim *s, int c)
{
	struct score *co = &s->core[c];
	int p;

	for (p = co->lo; p < co->hi; p++) {
		int i;

		for (i = s->pu[p].head; i >= 0; i = s->tk[i].next) {
			struct stask *k = &s->tk[i];
			double dt = s->now - k->last_t, done;

			if (dt <= 0)
				continue;
			done = k->rate * dt;
			if (done > k->work_left)
				done = k->work_left;
			k->work_left -= done;
			s->r->work += done;
			if (isfinite(k->work_left))
				s->r->work_done_finite += done;
			s->pu[p].work_iv += done;
			k->cpu_iv += dt / s->pu[p].nr;
			if (k->item >= 0)
				s->item_cpu_iv[k->item] += dt / s->pu[p].nr;
			k->last_t = s->now;
		}
	}
}

static int core_resched(struct sim *s, int c)
{
	struct score *co = &s->core[c];
	double speed = smt_speed(s->m->smt_gain, co->nbusy), next = INFINITY;
	int p;

	for (p = co->lo; p < co->hi; p++) {
		int i;

		for (i = s->pu[p].head; i >= 0; i = s->tk[i].next) {
			struct stask *k = &s->tk[i];

			k->rate = speed / s->pu[p].nr;
			if (isfinite(k->work_left)) {
				double tc = s->now + k->work_left / k->rate;

				if (tc < next)
					next = tc;
			}
		}
	}
	if (next == co->pending_t)
		return 0; /* the queued event is still right */
	co->pending_t = next;
	return ps_evq_set(&s->q, c, next, EV_COMPLETE, c);
}

static void set_core_idle_bits(struct sim *s, int c, int idle)
{
	int p;

	for (p = s->core[c].lo; p < s->core[c].hi; p++) {
		if (bit_get(s->allowed, p))
			s->n_idle_core += idle ? 1 : -1;
		if (idle)
			bit_set(s->idle_core, p);
		else
			bit_clr(s->idle_core, p);
	}
}

/* Runqueue insert/remove without rescheduling the core. */
static void rq_add(struct sim *s, int i, int p)
{
	struct spu *u = &s->pu[p];
	struct stask *k = &s->tk[i];
	int d;

	k->pu = p;
	k->prevq = -1;
	k->next = u->head;
	if (u->head >= 0)
		s->tk[u->head].prevq = i;
	u->head = i;
	k->last_t = s->now;
	ll_mark(s, p);
	for (d = s->t->pus[p].dom; d >= 0; d = s->t->doms[d].parent)
		s->dom_nr[d]++;
	if (++u->nr == 1) {
		pu_busy_flip(s, p, 1);
		if (s->core[u->core].nbusy++ == 0)
			set_core_idle_bits(s, u->core, 0);
		else if (s->core[u->core].nbusy == 2)
			bit_set(s->core2, u->core);
	} else if (u->nr == 2) {
		s->n_over++;
		bit_set(s->over, p);
	}
}

static void rq_del(struct sim *s, int i)
{
	struct stask *k = &s->tk[i];
	struct spu *u = &s->pu[k->pu];
	int d;

	if (k->prevq >= 0)
		s->tk[k->prevq].next = k->next;
	else
		u->head = k->next;
	if (k->next >= 0)
		s->tk[k->next].prevq = k->prevq;
	k->prev_pu = k->pu;
	ll_mark(s, k->pu);
	for (d = s->t->pus[k->pu].dom; d >= 0; d = s->t->doms[d].parent)
		s->dom_nr[d]--;
	if (--u->nr == 0) {
		pu_busy_flip(s, k->pu, 0);
		if (--s->core[u->core].nbusy == 0)
			set_core_idle_bits(s, u->core, 1);
		else if (s->core[u->core].nbusy == 1)
			bit_clr(s->core2, u->core);
	} else if (u->nr == 1) {
		s->n_over--;
		bit_clr(s->over, k->pu);
	}
	k->pu = -1;
}

static int enqueue(struct sim *s, int i, int p)
{
	int c = s->pu[p].core;

	core_sync(s, c);
	rq_add(s, i, p);
	return core_resched(s, c);
}

static int dequeue(struct sim *s, int i)
{
	int c = s->pu[s->tk[i].pu].core;

	core_sync(s, c);
	rq_del(s, i);
	return core_resched(s, c);
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
static int movable(const struct sim *s, int p, int to)
{
	int i;

	for (i = s->pu[p].head; i >= 0; i = s->tk[i].next)
		if (rt_allows(s, i, to))
			return i;
	return -1;
}

static int migrate(struct sim *s, int i, int p)
{
	int r;

	if (!rt_allows(s, i, p))
		return 0; /* pinned by its rt-app cpus */
	r = dequeue(s, i);

	s->r->migrations++;
	return r ? r : enqueue(s, i, p);
}

/*
 * The allowed PU with the fewest tasks: near if it is one of them, else
 * the first. O(log P) per PU changed since the last call.
 */
static int least_loaded(struct sim *s, int near)
{
	ll_fix(s);
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

static int legacy_packs(const struct sim *s)
{
	return s->cfg->pol.mode == PS_SIM_LEGACY &&
	       (s->cfg->pol.mc || s->cfg->pol.smt);
}

static int select_pu(struct sim *s, int i)
{
	int prev = s->tk[i].prev_pu, p, k;

	if (legacy_level2(s) && legacy_packs(s)) {
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
static int wake(struct sim *s, int i)
{
	int p = select_pu(s, i);

	if (p < 0 || !rt_allows(s, i, p))
		p = rt_pick(s, i);
	return enqueue(s, i, p);
}

static void record_latency(struct sim *s, double v)
{
	if (s->nlat == s->caplat) {
		long cap = s->caplat ? s->caplat * 2 : 4096;
		double *p = realloc(s->lat, sizeof(double) * cap);

		if (!p)
			return; /* latency list stays as it is; counted below */
		s->lat = p;
		s->caplat = cap;
	}
	s->lat[s->nlat++] = v;
}

static int new_task(struct sim *s, int item, double work)
{
	int i;

	if (s->free_head >= 0) {
		i = s->free_head;
		s->free_head = s->tk[i].free_next;
	} else {
		if (s->ntk == s->captk) {
			int cap = s->captk * 2;
			void *p = realloc(s->tk, sizeof(*s->tk) * cap);

			if (!p)
				return -1;
			s->tk = p;
			s->captk = cap;
		}
		i = s->ntk++;
	}
	memset(&s->tk[i], 0, sizeof(s->tk[i]));
	s->tk[i].item = item;
	s->tk[i].work_left = work;
	s->tk[i].pu = s->tk[i].prev_pu = -1;
	s->tk[i].release_t = s->now;
	s->tk[i].free_next = -2; /* in use */
	s->tk[i].rt = -1;
	return i;
}

static int rt_after(struct sim *s, int g);

/* A task's pending work ran out. */
static int complete(struct sim *s, int i)
{
	const struct ps_wl_item *it = &s->cfg->wl->items[s->tk[i].item];
	int r;

	if (s->tk[i].rt >= 0) {
		s->tk[i].work_left = 0;
		return rt_after(s, s->tk[i].rt); /* its next event */
	}
	r = dequeue(s, i);

	s->tk[i].work_left = 0;
	if (it->kind == PS_WL_POISSON || it->kind == PS_WL_TRACE) {
		record_latency(s, s->now - s->tk[i].release_t);
		s->r->jobs_done++;
	}
	if (it->kind == PS_WL_POISSON) {
		s->tk[i].free_next = s->free_head;
		s->free_head = i;
	}
	return r;
}

static int on_complete(struct sim *s, int c)
{
	int p, r = 0, done[64], n = 0, more = 1;

	core_sync(s, c);
	while (more && !r) {
		more = 0;
		n = 0;
		for (p = s->core[c].lo; p < s->core[c].hi; p++) {
			int i;

			for (i = s->pu[p].head; i >= 0; i = s->tk[i].next) {
				double w = s->tk[i].work_left;

				if (w <= 1e-12 && n < 64)
					done[n++] = i;
				else if (w <= 1e-12)
					more = 1;
			}
		}
		for (p = 0; p < n && !r; p++)
			r = complete(s, done[p]);
	}
	/* also after completions: an rt-app task may stay with no work */
	if (!r)
		r = core_resched(s, c);
	/* new-idle balance: an idle allowed PU pulls from one running two */
	if (!r && s->n_over > 0 && !legacy_packs(s)) {
		for (p = s->core[c].lo; p < s->core[c].hi && !r; p++) {
			int from, i;

			if (s->pu[p].nr || !bit_get(s->allowed, p))
				continue;
			/* the first task that may run on p (rt-app cpus) */
			for (from = next_set(s->over, s->t->nr_pus, 0), i = -1;
			     from >= 0 && (i = movable(s, from, p)) < 0;
			     from = next_set(s->over, s->t->nr_pus, from + 1))
				;
			if (i >= 0)
				r = migrate(s, i, p);
		}
	}
	return r;
}

static int on_periodic(struct sim *s, int i)
{
	const struct ps_wl_item *it = &s->cfg->wl->items[s->tk[i].item];
	double w = it->duty * it->period;
	int r = 0;

	s->r->periods++;
	if (s->tk[i].pu >= 0) {
		int c = s->pu[s->tk[i].pu].core;

		core_sync(s, c);
		if (s->tk[i].work_left > 1e-9 * it->period) {
			s->r->deadline_misses++;
			s->misses_iv++;
		}
		s->tk[i].work_left += w;
		r = core_resched(s, c);
	} else {
		s->tk[i].work_left = w;
		r = wake(s, i);
	}
	s->r->work_given += w;
	s->item_rel_iv[s->tk[i].item] += w;
	if (!r)
		r = ps_evq_push_lane(&s->q, s->tk[i].item, s->now + it->period,
				     EV_PERIODIC, i);
	return r;
}

static int on_poisson(struct sim *s, int item)
{
	const struct ps_wl_item *it = &s->cfg->wl->items[item];
	int i = new_task(s, item, it->size), r;

	if (i < 0)
		return -ENOMEM;
	s->r->work_given += it->size;
	s->item_rel_iv[item] += it->size;
	r = wake(s, i);
	if (!r)
		r = ps_evq_push(&s->q, s->now - log(rnd(s)) / it->rate, EV_POISSON,
				item, 0);
	return r;
}

static int on_trace(struct sim *s, int item)
{
	const struct ps_wl_item *it = &s->cfg->wl->items[item];
	int r = 0;

	while (!r && s->trace_pos[item] < it->nev &&
	       it->ev[s->trace_pos[item]].t <= s->now) {
		const struct ps_trace_ev *e = &it->ev[s->trace_pos[item]++];
		int i = s->item_base[item] + e->task;

		s->r->work_given += e->work;
		s->item_rel_iv[item] += e->work;
		if (s->tk[i].pu >= 0) {
			int c = s->pu[s->tk[i].pu].core;

			core_sync(s, c);
			s->tk[i].work_left += e->work;
			r = core_resched(s, c);
		} else {
			s->tk[i].work_left = e->work;
			s->tk[i].release_t = s->now;
			r = wake(s, i);
		}
	}
	if (!r && s->trace_pos[item] < it->nev)
		r = ps_evq_push(&s->q, it->ev[s->trace_pos[item]].t, EV_TRACE, item, 0);
	return r;
}

/*
 * rt-app tasks. An instance walks its phases' events: run and runtime keep
 * it runnable (run: that much work at the PU's speed; runtime: that much
 * wall time however little it gets), sleep and timer block it until a
 * time, suspend, lock, wait and barrier block it on a FIFO queue, and the
 * rest take no time. A blocked instance released by another is continued
 * from the event queue, at the same instant, so that chains of wake-ups do
 * not recurse. yield takes no time: PUs are shared fairly already.
 */
static struct rt_res_state *rt_res(struct sim *s, const struct rt_inst *in, int res)
{
	struct rt_item *ri = &s->rtitem[in->item];

	if (ri->rt->res[res].unique)
		return &ri->ures[(size_t)in->local * ri->rt->nres + res];
	return &ri->res[res];
}

static void rt_q_push(struct sim *s, struct rt_res_state *rs, int g)
{
	s->rti[g].wnext = -1;
	if (rs->qt >= 0)
		s->rti[rs->qt].wnext = g;
	else
		rs->qh = g;
	rs->qt = g;
}

static int rt_q_pop(struct sim *s, struct rt_res_state *rs)
{
	int g = rs->qh;

	if (g >= 0) {
		rs->qh = s->rti[g].wnext;
		if (rs->qh < 0)
			rs->qt = -1;
	}
	return g;
}

/*
 * The instance's one pending step, a keyed event (key ncores + g): a new
 * time replaces the pending one, INFINITY removes it.
 */
static int rt_at(struct sim *s, int g, double t)
{
	return ps_evq_set(&s->q, s->ncores + g, t, EV_RT, g);
}

/* The blocking event at in->ev is over: continue at once, from the queue. */
static int rt_release(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];

	in->state = RT_READY;
	in->nostep = 0;
	return rt_at(s, g, s->now);
}

static int rt_block(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];

	in->state = RT_BLOCKED;
	if (s->tk[in->sid].pu >= 0)
		return dequeue(s, in->sid);
	return 0;
}

static int rt_run(struct sim *s, int g, double work)
{
	struct rt_inst *in = &s->rti[g];
	struct stask *k = &s->tk[in->sid];

	in->state = RT_RUNNING;
	if (k->pu >= 0) {
		int c = s->pu[k->pu].core;

		core_sync(s, c);
		k->work_left = work;
		return core_resched(s, c);
	}
	k->work_left = work;
	return wake(s, in->sid);
}

/* A mutex is free or handed to its first waiter. */
static int rt_unlock(struct sim *s, struct rt_res_state *ms)
{
	int j = rt_q_pop(s, ms);

	ms->owner = j;
	return j >= 0 ? rt_release(s, j) : 0;
}

/* A condition's waiter woke: it takes its mutex back before going on. */
static int rt_cond_woken(struct sim *s, int j)
{
	struct rt_inst *in = &s->rti[j];
	struct rt_res_state *ms = rt_res(s, in, in->want_mutex);

	in->want_mutex = -1;
	if (ms->owner < 0) {
		ms->owner = j;
		return rt_release(s, j);
	}
	rt_q_push(s, ms, j);
	return 0;
}

/* The instance's affinity for its current phase; move it if it must. */
static int rt_set_aff(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	const struct ps_rtapp *rt = s->rtitem[in->item].rt;
	const struct ps_rt_task *t = &rt->tasks[in->task];
	const struct ps_rt_phase *ph = &rt->ph[t->ph_lo + in->ph];
	int lo = ph->ncpu ? ph->cpu_lo : t->cpu_lo, n = ph->ncpu ? ph->ncpu : t->ncpu;
	int k, p = s->tk[in->sid].pu, r = 0;

	in->has_aff = n > 0;
	if (!n)
		return 0;
	memset(in->aff, 0, sizeof(unsigned long long) * s->nwords);
	for (k = lo; k < lo + n; k++)
		if (rt->cpus[k] < s->nos && s->os2pu[rt->cpus[k]] >= 0)
			bit_set(in->aff, s->os2pu[rt->cpus[k]]);
	if (p >= 0 && !bit_get(in->aff, p)) {
		r = dequeue(s, in->sid);
		s->r->migrations++;
		if (!r)
			r = wake(s, in->sid);
	}
	return r;
}

/* Past the current event. Return: 1 when the task has ended, <0 error. */
static int rt_step(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	const struct ps_rtapp *rt = s->rtitem[in->item].rt;
	const struct ps_rt_task *t = &rt->tasks[in->task];

	in->ev++;
	while (in->ev >= rt->ph[t->ph_lo + in->ph].nev) {
		in->ev = 0;
		if (++in->phl >= rt->ph[t->ph_lo + in->ph].loop ||
		    !rt->ph[t->ph_lo + in->ph].nev) {
			in->phl = 0;
			if (++in->ph >= t->nph) {
				in->ph = 0;
				in->loop++;
				if (t->loop >= 0 && in->loop >= t->loop)
					return 1;
			}
			if (t->nph > 1) {
				int r = rt_set_aff(s, g);

				if (r)
					return r;
			}
		}
		in->ph_start = s->now;
	}
	return 0;
}

static int rt_end(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	int r;

	in->state = RT_DONE;
	r = rt_at(s, g, INFINITY); /* its pending step, if any, is void */
	if (!r && s->tk[in->sid].pu >= 0)
		return dequeue(s, in->sid);
	return r;
}

static void rt_record_slack(struct sim *s, int g, double slack)
{
	struct ps_sim_result *r = s->r;

	r->activations++;
	if (slack < 0)
		r->neg_slack++;
	if (r->nslack == s->capslack) {
		long cap = s->capslack ? s->capslack * 2 : 4096;
		double *a, *b;
		int *c;

		if (cap > (1L << 24))
			return; /* counted, not listed */
		a = realloc(r->slack_s, sizeof(double) * cap);
		if (a)
			r->slack_s = a;
		b = realloc(r->slack_t, sizeof(double) * cap);
		if (b)
			r->slack_t = b;
		c = realloc(r->slack_task, sizeof(int) * cap);
		if (c)
			r->slack_task = c;
		if (!a || !b || !c)
			return;
		s->capslack = cap;
	}
	r->slack_s[r->nslack] = slack;
	r->slack_t[r->nslack] = s->now;
	r->slack_task[r->nslack] = g;
	r->nslack++;
}

/* Run the instance's events from the current one until it must wait. */
static int rt_go(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	const struct ps_rtapp *rt = s->rtitem[in->item].rt;
	const struct ps_rt_task *t = &rt->tasks[in->task];
	int steps, r = 0, j;

	for (steps = 0; !r; steps++) {
		const struct ps_rt_event *e;
		struct rt_res_state *rs;

		if (in->state == RT_DONE)
			return 0;
		if (steps >= 10000) {
			/* events that take no time, forever: go on a little later */
			in->nostep = 1;
			return rt_at(s, g, s->now + 1e-6);
		}
		e = &rt->ev[rt->ph[t->ph_lo + in->ph].ev_lo + in->ev];
		rs = e->res >= 0 ? rt_res(s, in, e->res) : NULL;
		switch (e->kind) {
		case PS_RT_RUN:
		case PS_RT_RUNTIME:
			if (e->dur <= 0)
				break;
			in->rel_iv += e->dur;
			s->item_rel_iv[in->item] += e->dur;
			s->r->work_given += e->kind == PS_RT_RUN ? e->dur : 0;
			if (e->kind == PS_RT_RUN)
				return rt_run(s, g, e->dur);
			r = rt_run(s, g, INFINITY);
			return r ? r : rt_at(s, g, s->now + e->dur);
		case PS_RT_SLEEP:
			if (e->dur <= 0)
				break;
			r = rt_block(s, g);
			return r ? r : rt_at(s, g, s->now + e->dur);
		case PS_RT_TIMER:
			if (!rs->init) {
				rs->init = 1;
				rs->t_next = in->ph_start;
			}
			rs->t_next += e->dur;
			rt_record_slack(s, g, rs->t_next - s->now);
			if (s->now < rs->t_next) {
				r = rt_block(s, g);
				return r ? r : rt_at(s, g, rs->t_next);
			}
			if (!e->abs)
				rs->t_next = s->now; /* relative: missed, start again */
			break;
		case PS_RT_SUSPEND:
		case PS_RT_BARRIER:
			if (e->kind == PS_RT_BARRIER &&
			    ++rs->arrived >= rt->res[e->res].users) {
				rs->arrived = 0;
				while (!r && (j = rt_q_pop(s, rs)) >= 0)
					r = rt_release(s, j);
				break;
			}
			rt_q_push(s, rs, g);
			return rt_block(s, g);
		case PS_RT_RESUME:
			while (!r && (j = rt_q_pop(s, rs)) >= 0)
				r = rt_release(s, j);
			break;
		case PS_RT_LOCK:
			if (rs->owner < 0) {
				rs->owner = g;
				break;
			}
			rt_q_push(s, rs, g);
			return rt_block(s, g);
		case PS_RT_UNLOCK:
			if (rs->owner == g)
				r = rt_unlock(s, rs);
			break;
		case PS_RT_SIGNAL:
		case PS_RT_BROADCAST:
			while (!r && (j = rt_q_pop(s, rs)) >= 0) {
				r = rt_cond_woken(s, j);
				if (e->kind == PS_RT_SIGNAL)
					break;
			}
			break;
		case PS_RT_SYNC:
		case PS_RT_WAIT: {
			struct rt_res_state *ms = rt_res(s, in, e->mutex);

			if (e->kind == PS_RT_SYNC && (j = rt_q_pop(s, rs)) >= 0)
				r = rt_cond_woken(s, j);
			if (!r && ms->owner == g)
				r = rt_unlock(s, ms);
			if (r)
				return r;
			in->want_mutex = e->mutex;
			rt_q_push(s, rs, g);
			return rt_block(s, g);
		}
		case PS_RT_YIELD:
			break;
		}
		if (r)
			return r;
		r = rt_step(s, g);
		if (r == 1)
			return rt_end(s, g);
	}
	return r;
}

/* The current event is done: the next one. */
static int rt_after(struct sim *s, int g)
{
	int r = rt_step(s, g);

	if (r == 1)
		return rt_end(s, g);
	return r ? r : rt_go(s, g);
}

static int on_rt(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	struct stask *k = &s->tk[in->sid];
	int r;

	if (in->state == RT_DONE)
		return 0;
	if (k->pu >= 0)
		core_sync(s, s->pu[k->pu].core);
	if (!in->started) {
		in->started = 1;
		in->ph_start = s->now;
		r = rt_set_aff(s, g);
		return r ? r : rt_go(s, g);
	}
	if (in->nostep) {
		in->nostep = 0;
		return rt_go(s, g);
	}
	return rt_after(s, g);
}

static int on_rt_end(struct sim *s, int item)
{
	const struct rt_item *ri = &s->rtitem[item];
	int g, r = 0;

	for (g = ri->first; g < ri->first + ri->rt->ninst && !r; g++)
		r = rt_end(s, g);
	return r;
}

/*
 * Stock periodic balance inside the allowed set, at most 64 moves. Its cost
 * does not grow with the machine when nothing is to be done: PUs running
 * two or more are a bitmap, cores with two busy siblings another, and with
 * no idle PU left only PUs with two more tasks than the least loaded can
 * give one, found by a descent of the least-loaded tree (O(log P) each).
 */
static int balance_groups(struct sim *s);

static int balance_stock(struct sim *s)
{
	const int P = s->t->nr_pus;
	int moves = 0, c, r = 0, p = 0;

	/* a PU running two or more: give one to an idle core, else idle PU,
	 * else to the least loaded if that has two fewer; PUs in order, each
	 * looked at again after a move */
	while (s->n_over && !r && moves < 64) {
		int to, i;

		if (s->n_idle_core || s->n_idle_pu) {
			p = next_set(s->over, P, p);
			if (p < 0)
				break;
			to = s->n_idle_core ? search(s, s->idle_core, p) : -1;
			if (to < 0)
				to = search(s, s->idle_pu, p);
			if (to < 0)
				break; /* cannot happen: the counts say one is idle */
		} else {
			int thr;

			ll_fix(s);
			if (s->ll_min[1] == INT_MAX)
				break;
			thr = s->ll_min[1] + 2 > 2 ? s->ll_min[1] + 2 : 2;
			p = first_nr_ge(s, 1, 0, s->ll_leaves, p, thr);
			if (p < 0)
				break;
			to = least_loaded(s, p);
		}
		/* rt-app cpus may pin all of p's tasks away from to: next PU */
		i = movable(s, p, to);
		if (i < 0) {
			p++;
			continue;
		}
		r = migrate(s, i, to);
		moves++;
	}
	/* two busy siblings while a core is idle: spread */
	for (c = next_set(s->core2, s->ncores, 0); c >= 0 && !r && moves < 64;
	     c = next_set(s->core2, s->ncores, c + 1)) {
		int to = s->n_idle_core ? search(s, s->idle_core, s->core[c].lo) : -1, i = -1;

		if (to < 0)
			break;
		for (p = s->core[c].hi - 1; p >= s->core[c].lo; p--)
			if (s->pu[p].nr && (i = movable(s, p, to)) >= 0)
				break;
		if (i < 0)
			continue; /* pinned by rt-app cpus */
		r = migrate(s, i, to);
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
						i = movable(s, p, to);
				if (i < 0) {
					s->grp_fail[g] = 0; /* out_all_pinned */
					break;
				}
				s->grp_fail[g] = 0;
				moved = 1;
				r = migrate(s, i, to);
				continue;
			}
			/* running alone: nothing to detach, the look failed
			 * (unless something moved: then it did not) */
			if (moved || ++s->grp_fail[g] <= 2 + (numa ? 2 : 1))
				break;
			i = movable(s, from, to);
			if (i < 0)
				break; /* out_one_pinned */
			s->grp_fail[g] = 0;
			r = migrate(s, i, to);
			break; /* an active balance moves one task */
		}
	}
	return r;
}

/* Legacy balance: move tasks toward the first R slots of the fill order. */
static int balance_legacy(struct sim *s)
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
			i = movable(s, p, to);
			if (i < 0)
				break;
			r = migrate(s, i, to);
			moves++;
		}
	}
	return r;
}

/* The legacy fill order: packages in order, each up to its capacity. */
static int build_slots(struct sim *s)
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

/* The allowed set's time into the picture's bins, up to now. */
static void allowed_to_bins(struct sim *s, double now)
{
	int p;

	if (!s->r->bins || now <= s->allowed_since)
		return;
	for (p = 0; p < s->t->nr_pus; p++)
		if (bit_get(s->allowed, p))
			add_to_bins(s, s->r->bin_allowed, s->t->nr_pus, p, s->allowed_since,
				    now, 1.0);
	s->allowed_since = now;
}

static void apply_allowed(struct sim *s, const unsigned char *allowed)
{
	int p, changed = 0;

	for (p = 0; p < s->t->nr_pus; p++)
		if (bit_get(s->allowed, p) != !!allowed[p])
			changed = 1;
	if (!changed)
		return;
	account(s, s->now);
	allowed_to_bins(s, s->now);
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
static int evict(struct sim *s)
{
	int p, r = 0;

	for (p = 0; p < s->t->nr_pus && !r; p++) {
		int i = s->pu[p].head;

		if (bit_get(s->allowed, p))
			continue;
		while (!r && i >= 0) {
			int nx = s->tk[i].next;

			if (rt_may_leave(s, i)) {
				r = dequeue(s, i);
				s->r->migrations++;
				if (!r)
					r = wake(s, i);
			}
			i = nx;
		}
	}
	return r;
}

static int push_chunks(double *out, int n, int max, double total)
{
	while (total > 1e-6 && n < max) {
		double c = total > 1.0 ? 1.0 : total;

		out[n++] = c;
		total -= c;
	}
	return n;
}

static int on_interval(struct sim *s)
{
	const struct ps_workload *wl = s->cfg->wl;
	double dt = s->now - s->iv_start;
	struct ps_power pw;
	double op, small = 0;
	int c, i, n = 0, no = 0, r, p, it;

	if (dt <= 0)
		return 0;
	for (c = 0; c < s->ncores; c++)
		core_sync(s, c);
	/* the model's energy of what ran, and the oracle's for what was asked */
	for (p = 0; p < s->t->nr_pus; p++) {
		s->pu_dem[p] = s->pu[p].work_iv / dt;
		s->pu[p].work_iv = 0;
	}
	r = ps_power_ws_eval(s->pw_ws, s->pu_dem, NULL, &pw);
	if (r)
		return r;
	s->r->model_energy_j += pw.power_w * dt;

	for (it = 0; it < wl->nitems; it++) {
		const struct ps_wl_item *w = &wl->items[it];

		if (w->kind == PS_WL_CPU) {
			for (i = 0; i < w->n && no < s->cap_in; i++)
				s->odem[no++] = 1.0;
		} else if (w->kind == PS_WL_PERIODIC) {
			for (i = 0; i < w->n && no < s->cap_in; i++)
				s->odem[no++] = w->duty;
		} else if (w->kind == PS_WL_RTAPP) {
			/* each instance's released work, a task of its own */
			const struct rt_item *ri = &s->rtitem[it];

			for (i = ri->first; i < ri->first + w->n; i++) {
				double d = s->rti[i].rel_iv / dt;

				s->rti[i].rel_iv = 0;
				if (d > 1e-6 && no < s->cap_in)
					s->odem[no++] = d > 1 ? 1 : d;
			}
		} else {
			no = push_chunks(s->odem, no, s->cap_in, s->item_rel_iv[it] / dt);
		}
		s->item_rel_iv[it] = 0;
	}
	r = ps_oracle_power(s->oracle, s->odem, no, &op);
	if (r)
		return r;
	/*
	 * The oracle is a bound: each interval, the lower energy per work of
	 * the candidate family's best placement for what was asked and of
	 * the placement that ran, charged for the work that ran. Summed so,
	 * the policy's energy per work can never be under it (issue 24 item
	 * 3: the candidates alone, at fill 1.0 of the asked demand, were
	 * beaten by 2.2% on docs/simulator.md's second example, a negative distance
	 * to "the limit").
	 */
	{
		double ow = 0, bound_w;

		for (i = 0; i < no; i++)
			ow += s->odem[i];
		if (pw.work > 0 && ow > 0 && op / ow < pw.power_w / pw.work)
			bound_w = op / ow * pw.work;
		else if (pw.work > 0)
			bound_w = pw.power_w; /* the placement that ran was the best */
		else
			bound_w = op < pw.power_w ? op : pw.power_w; /* nothing done */
		s->r->oracle_energy_j += bound_w * dt;
		s->r->oracle_work += pw.work * dt;
		if (s->r->bins)
			add_to_bins(s, s->r->bin_oracle_w, 1, 0, s->iv_start, s->now, bound_w);
	}
	s->r->model_work += pw.work * dt;

	/* tracked utilization */
	for (it = 0; it < wl->nitems; it++) {
		const struct ps_wl_item *w = &wl->items[it];
		int base = s->item_base[it];

		if (w->kind == PS_WL_CPU || w->kind == PS_WL_PERIODIC ||
		    w->kind == PS_WL_TRACE || w->kind == PS_WL_RTAPP) {
			int cnt = w->kind == PS_WL_TRACE ? w->ntrace_tasks : w->n;

			for (i = base; i < base + cnt; i++) {
				struct stask *k = &s->tk[i];
				double smp = k->cpu_iv / dt;

				k->util = smp > (k->util + smp) / 2 ? smp : (k->util + smp) / 2;
				k->cpu_iv = 0;
				if (k->util < 0.005)
					small += k->util;
				else if (n < s->cap_in)
					s->uin[n++] = k->util > 1 ? 1 : k->util;
			}
		} else {
			n = push_chunks(s->uin, n, s->cap_in, s->item_cpu_iv[it] / dt);
		}
		s->item_cpu_iv[it] = 0;
	}
	/* tasks too small to count alone count together, as jobs do */
	if (small >= 0.005)
		n = push_chunks(s->uin, n, s->cap_in, small);
	for (i = 0; i < s->ntk; i++)
		s->tk[i].cpu_iv = 0;
	s->r->intervals++;

	if (s->cfg->pol.mode == PS_SIM_POLICY) {
		struct ps_decision *prev = &s->dec[s->cur], *out = &s->dec[!s->cur];

		if (s->misses_iv) {
			int want = 2 * s->nr_allowed;

			s->floor_hold = s->floor_hold ? s->floor_hold * 2 : 10;
			if (s->floor_hold > 10000)
				s->floor_hold = 10000;
			s->floor_pus = want > s->t->nr_pus ? s->t->nr_pus : want;
			s->floor_left = s->floor_hold;
		} else if (s->floor_left > 0 && --s->floor_left == 0) {
			s->floor_pus = 0;
		}
		if (n > out->max_tasks)
			n = out->max_tasks;
		r = ps_policy_decide(s->t, s->cfg->pol.policy, s->uin, n, &s->params,
				     s->r->intervals > 1 ? prev : NULL, out);
		if (r)
			return r;
		if (s->floor_pus > out->nr_allowed && !out->overloaded) {
			/* pressure: extend the pack-order prefix */
			for (i = out->nr_allowed; i < s->floor_pus; i++)
				out->allowed[s->t->pack_order[i]] = 1;
			out->nr_allowed = s->floor_pus;
		}
		s->cur = !s->cur;
		apply_allowed(s, out->allowed);
		r = evict(s);
		if (r)
			return r;
	}
	s->misses_iv = 0;
	s->iv_start = s->now;
	/* k x interval, not now + interval: no drift past the end */
	return ps_evq_push(&s->q, (s->r->intervals + 1) * s->cfg->interval,
			   EV_INTERVAL, 0, 0);
}

static void take_snapshot(struct sim *s)
{
	int p;

	s->r->snap_t = s->now;
	for (p = 0; p < s->t->nr_pus; p++) {
		struct ps_sim_snapshot_cpu *c = &s->r->snap[p];
		int i, k = 0;

		c->nr = s->pu[p].nr;
		c->allowed = bit_get(s->allowed, p);
		for (i = s->pu[p].head; i >= 0 && k < 8; i = s->tk[i].next)
			c->tasks[k++] = i;
		c->ntasks_listed = k;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double percentile(const double *v, long n, double q)
{
	long i;

	if (n == 0)
		return 0;
	i = (long)ceil(q * n) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return v[i];
}

/* rt-app state: instances, resources, the OS CPU to PU map. */
static int rt_setup(struct sim *s)
{
	const struct ps_workload *wl = s->cfg->wl;
	int it, n = 0, p, g = 0, k;

	for (it = 0; it < wl->nitems; it++)
		if (wl->items[it].kind == PS_WL_RTAPP)
			n += wl->items[it].rt->ninst;
	if (!n)
		return 0;
	s->rtitem = calloc(wl->nitems, sizeof(*s->rtitem));
	s->rti = calloc(n, sizeof(*s->rti));
	for (p = 0; p < s->t->nr_pus; p++)
		if ((int)s->t->pus[p].os_index + 1 > s->nos)
			s->nos = (int)s->t->pus[p].os_index + 1;
	s->os2pu = malloc(sizeof(int) * (s->nos + 1));
	if (!s->rtitem || !s->rti || !s->os2pu)
		return -ENOMEM;
	for (k = 0; k < s->nos; k++)
		s->os2pu[k] = -1;
	for (p = 0; p < s->t->nr_pus; p++)
		s->os2pu[s->t->pus[p].os_index] = p;
	s->nrti = n;
	for (it = 0; it < wl->nitems; it++) {
		const struct ps_rtapp *rt = wl->items[it].rt;
		struct rt_item *ri = &s->rtitem[it];
		int t, i;

		if (wl->items[it].kind != PS_WL_RTAPP)
			continue;
		ri->rt = rt;
		ri->first = g;
		ri->res = calloc(rt->nres + 1, sizeof(*ri->res));
		ri->ures = calloc((size_t)rt->ninst * rt->nres + 1, sizeof(*ri->ures));
		if (!ri->res || !ri->ures)
			return -ENOMEM;
		for (k = 0; k < rt->nres; k++)
			ri->res[k].owner = ri->res[k].qh = ri->res[k].qt = -1;
		for (k = 0; k < rt->ninst * rt->nres; k++)
			ri->ures[k].owner = ri->ures[k].qh = ri->ures[k].qt = -1;
		for (t = 0; t < rt->ntasks; t++) {
			const struct ps_rt_task *tk = &rt->tasks[t];
			int ph, c, any;

			/* every cpus list must name a PU of this topology */
			for (ph = -1; ph < tk->nph; ph++) {
				int lo = ph < 0 ? tk->cpu_lo : rt->ph[tk->ph_lo + ph].cpu_lo;
				int nc = ph < 0 ? tk->ncpu : rt->ph[tk->ph_lo + ph].ncpu;

				for (c = lo, any = !nc; c < lo + nc; c++)
					if (rt->cpus[c] < s->nos && s->os2pu[rt->cpus[c]] >= 0)
						any = 1;
				if (!any)
					return -EINVAL;
			}
			for (i = 0; i < tk->instance; i++, g++) {
				struct rt_inst *in = &s->rti[g];

				in->item = it;
				in->task = t;
				in->local = g - ri->first;
				in->wnext = in->want_mutex = -1;
				in->aff = calloc(s->nwords, 8);
				if (!in->aff)
					return -ENOMEM;
			}
		}
	}
	return 0;
}

static int setup(struct sim *s)
{
	const struct ps_topo *t = s->t;
	const struct ps_workload *wl = s->cfg->wl;
	struct ps_sim_result *r = s->r;
	int ntasks = 0, it, p, c, d, i, e;

	for (it = 0; it < wl->nitems; it++) {
		const struct ps_wl_item *w = &wl->items[it];

		ntasks += w->kind == PS_WL_TRACE ? w->ntrace_tasks :
			  w->kind == PS_WL_POISSON ? 0 : w->n;
	}
	s->captk = ntasks + 1024;
	s->tk = calloc(s->captk, sizeof(*s->tk));
	s->item_base = calloc(wl->nitems + 1, sizeof(int));
	s->item_cpu_iv = calloc(wl->nitems + 1, sizeof(double));
	s->item_rel_iv = calloc(wl->nitems + 1, sizeof(double));
	s->trace_pos = calloc(wl->nitems + 1, sizeof(int));
	s->pu = calloc(t->nr_pus, sizeof(*s->pu));
	s->core = calloc(t->nr_pus, sizeof(*s->core));
	s->nwords = (t->nr_pus + 63) / 64;
	s->allowed = calloc(s->nwords, 8);
	s->idle_pu = calloc(s->nwords, 8);
	s->idle_core = calloc(s->nwords, 8);
	s->over = calloc(s->nwords, 8);
	s->core2 = calloc(s->nwords, 8);
	for (s->ll_leaves = 1; s->ll_leaves < t->nr_pus; s->ll_leaves *= 2)
		;
	s->ll_min = malloc(sizeof(int) * 2 * s->ll_leaves);
	s->ll_arg = malloc(sizeof(int) * 2 * s->ll_leaves);
	s->ll_max = malloc(sizeof(int) * 2 * s->ll_leaves);
	s->ll_list = malloc(sizeof(int) * t->nr_pus);
	s->ll_dirty = calloc(t->nr_pus, 1);
	s->dom_busy = calloc(t->nr_doms, sizeof(int));
	s->dom_nr = calloc(t->nr_doms, sizeof(int));
	s->grp = calloc(t->nr_doms, sizeof(int));
	s->grp_next = calloc(t->nr_doms, sizeof(double));
	s->grp_fail = calloc(t->nr_doms, sizeof(int));
	s->grp_imb = calloc(t->nr_doms, sizeof(int));
	s->pu_dem = calloc(t->nr_pus, sizeof(double));
	s->pw_ws = ps_power_ws_new(t, s->m);
	r->pu_busy_s = calloc(t->nr_pus, sizeof(double));
	r->snap = calloc(t->nr_pus, sizeof(*r->snap));
	if (!s->tk || !s->item_base || !s->item_cpu_iv || !s->item_rel_iv ||
	    !s->trace_pos || !s->pu || !s->core || !s->allowed || !s->idle_pu ||
	    !s->idle_core || !s->dom_busy || !s->dom_nr || !s->grp || !s->grp_next || !s->grp_fail || !s->grp_imb || !s->pu_dem || !s->pw_ws || !r->pu_busy_s || !r->snap ||
	    !s->over || !s->core2 || !s->ll_min || !s->ll_arg || !s->ll_max ||
	    !s->ll_list || !s->ll_dirty)
		return -ENOMEM;
	/* least loaded: every PU allowed with no task; padding never wins */
	for (i = 0; i < s->ll_leaves; i++) {
		int k = s->ll_leaves + i;

		s->ll_min[k] = i < t->nr_pus ? 0 : INT_MAX;
		s->ll_arg[k] = i < t->nr_pus ? i : t->nr_pus - 1;
		s->ll_max[k] = 0;
	}
	for (i = s->ll_leaves - 1; i >= 1; i--)
		ll_pull(s, i);
	if (s->cfg->bins > 0) {
		r->bins = s->cfg->bins;
		s->bin_w = s->cfg->duration / r->bins;
		r->bin_busy = calloc((size_t)r->bins * t->nr_pus, sizeof(double));
		r->bin_power_w = calloc(r->bins, sizeof(double));
		r->bin_oracle_w = calloc(r->bins, sizeof(double));
		r->bin_allowed = calloc((size_t)r->bins * t->nr_pus, sizeof(double));
		if (!r->bin_busy || !r->bin_power_w || !r->bin_oracle_w || !r->bin_allowed)
			return -ENOMEM;
	}
	/* cores: runs of PUs sharing an innermost Core domain */
	for (p = 0, c = 0; p < t->nr_pus; c++) {
		int k = t->pus[p].nr_siblings > 1 ? t->pus[p].nr_siblings : 1;

		s->core[c].lo = p;
		s->core[c].hi = p + k;
		s->core[c].pending_t = INFINITY;
		for (i = p; i < p + k; i++)
			s->pu[i].core = c;
		p += k;
	}
	s->ncores = c;
	for (p = 0; p < t->nr_pus; p++) {
		const struct score *co = &s->core[s->pu[p].core];

		s->pu[p].head = -1;
		/* the LLC: up from its core until the domain holds more */
		for (d = t->pus[p].dom; t->doms[d].parent >= 0 &&
		     t->doms[d].pu_lo >= co->lo && t->doms[d].pu_hi <= co->hi;
		     d = t->doms[d].parent)
			;
		s->pu[p].llc = d;
		bit_set(s->allowed, p);
		bit_set(s->idle_pu, p);
		bit_set(s->idle_core, p);
	}
	s->nr_allowed = t->nr_pus;
	s->n_idle_pu = s->n_idle_core = t->nr_pus;
	/* groups of cores: children have larger indices, so bottom-up */
	for (d = t->nr_doms - 1; d >= 0; d--) {
		for (e = 0; e < t->doms[d].nr_children; e++) {
			const struct ps_domain *ch = &t->doms[t->doms[d].children[e]];

			if (s->pu[ch->pu_lo].core == s->pu[ch->pu_hi - 1].core)
				break; /* a child of one core */
		}
		if (t->doms[d].nr_children >= 2 && e == t->doms[d].nr_children) {
			const struct ps_domain *ch = &t->doms[t->doms[d].children[0]];

			/* children that are NUMA nodes: an imbalance is
			 * allowed up to an eighth of a node's PUs (its LLCs
			 * when it has several; topology.c, imb_numa_nr) */
			if (ch->types & (1u << PS_LVL_NUMA)) {
				int llcs = 0, j;

				for (j = ch->pu_lo; j < ch->pu_hi; j++)
					llcs += j == ch->pu_lo || s->pu[j].llc != s->pu[j - 1].llc;
				s->grp_imb[s->ngrp] = llcs > 1 ? llcs :
					(ch->pu_hi - ch->pu_lo) / 8 > 1 ? (ch->pu_hi - ch->pu_lo) / 8 : 1;
			}
			s->grp[s->ngrp++] = d;
		}
	}
	/* all idle: every level at its idle watts */
	s->p_now = t->nr_pus * s->m->idle_w[PS_LVL_PU];
	for (d = 0; d < t->nr_doms; d++)
		for (e = 0; e < PS_LVL_PU; e++)
			if (t->doms[d].types & (1u << e))
				s->p_now += s->m->idle_w[e];

	s->free_head = -1;
	s->cap_in = s->captk;
	s->uin = malloc(sizeof(double) * s->cap_in);
	s->odem = malloc(sizeof(double) * s->cap_in);
	if (!s->uin || !s->odem)
		return -ENOMEM;
	if (ps_oracle_new(t, s->m, s->cap_in, &s->oracle))
		return -ENOMEM;
	if (s->cfg->pol.mode == PS_SIM_POLICY) {
		if (ps_decision_init(&s->dec[0], t, s->cap_in) ||
		    ps_decision_init(&s->dec[1], t, s->cap_in))
			return -ENOMEM;
		ps_policy_params_default(&s->params);
		s->params.model = s->m; /* power chooses by the model */
	}
	if (s->cfg->pol.mode == PS_SIM_LEGACY && build_slots(s))
		return -ENOMEM;
	e = rt_setup(s);
	if (e)
		return e;
	if (ps_evq_init(&s->q, 4 * ntasks + 64) || ps_evq_keys(&s->q, s->ncores + s->nrti))
		return -ENOMEM;
	return ps_evq_lanes(&s->q, wl->nitems);
}

static int start_tasks(struct sim *s)
{
	const struct ps_workload *wl = s->cfg->wl;
	int it, i, r = 0;

	for (it = 0; it < wl->nitems && !r; it++) {
		const struct ps_wl_item *w = &wl->items[it];

		s->item_base[it] = s->ntk;
		switch (w->kind) {
		case PS_WL_CPU:
			for (i = 0; i < w->n && !r; i++) {
				int k = new_task(s, it, INFINITY);

				r = k < 0 ? -ENOMEM : wake(s, k);
			}
			break;
		case PS_WL_PERIODIC:
			for (i = 0; i < w->n && !r; i++) {
				int k = new_task(s, it, 0);

				if (k < 0)
					return -ENOMEM;
				/* phases spread over the period, from the seed */
				r = ps_evq_push(&s->q, rnd(s) * w->period, EV_PERIODIC, k, 0);
			}
			break;
		case PS_WL_POISSON:
			r = ps_evq_push(&s->q, -log(rnd(s)) / w->rate, EV_POISSON, it, 0);
			break;
		case PS_WL_TRACE:
			for (i = 0; i < w->ntrace_tasks; i++)
				if (new_task(s, it, 0) < 0)
					return -ENOMEM;
			if (w->nev)
				r = ps_evq_push(&s->q, w->ev[0].t, EV_TRACE, it, 0);
			break;
		case PS_WL_RTAPP: {
			const struct rt_item *ri = &s->rtitem[it];

			for (i = 0; i < w->rt->ninst && !r; i++) {
				struct rt_inst *in = &s->rti[ri->first + i];
				int k = new_task(s, it, 0);

				if (k < 0)
					return -ENOMEM;
				s->tk[k].rt = ri->first + i;
				in->sid = k;
				r = rt_at(s, ri->first + i, w->rt->tasks[in->task].delay);
			}
			if (!r && w->rt->duration > 0)
				r = ps_evq_push(&s->q, w->rt->duration, EV_RT_END, it, 0);
			break;
		}
		}
	}
	return r;
}

static void teardown(struct sim *s)
{
	int i;

	free(s->tk);
	free(s->item_base);
	free(s->item_cpu_iv);
	free(s->item_rel_iv);
	free(s->trace_pos);
	free(s->pu);
	free(s->core);
	free(s->allowed);
	free(s->idle_pu);
	free(s->idle_core);
	free(s->over);
	free(s->core2);
	free(s->ll_min);
	free(s->ll_arg);
	free(s->ll_max);
	free(s->ll_list);
	free(s->ll_dirty);
	free(s->dom_busy);
	free(s->dom_nr);
	free(s->grp);
	free(s->grp_next);
	free(s->grp_fail);
	free(s->grp_imb);
	free(s->pu_dem);
	ps_power_ws_free(s->pw_ws);
	free(s->uin);
	free(s->odem);
	free(s->slot);
	free(s->target);
	free(s->lat);
	if (s->rtitem) {
		int it;

		for (it = 0; it < s->cfg->wl->nitems; it++) {
			free(s->rtitem[it].res);
			free(s->rtitem[it].ures);
		}
	}
	for (i = 0; s->rti && i < s->nrti; i++)
		free(s->rti[i].aff);
	free(s->rti);
	free(s->rtitem);
	free(s->os2pu);
	ps_oracle_free(s->oracle);
	ps_decision_fini(&s->dec[0]);
	ps_decision_fini(&s->dec[1]);
	ps_evq_fini(&s->q);
}

static void finish(struct sim *s)
{
	struct ps_sim_result *r = s->r;
	const double D = s->cfg->duration;
	int c, p, i;

	s->now = D;
	for (c = 0; c < s->ncores; c++)
		core_sync(s, c);
	account(s, D);
	allowed_to_bins(s, D);
	for (p = 0; p < s->t->nr_pus; p++)
		if (s->pu[p].nr) {
			r->pu_busy_s[p] += D - s->pu[p].busy_since;
			if (r->bins)
				add_to_bins(s, r->bin_busy, s->t->nr_pus, p,
					    s->pu[p].busy_since, D, 1.0);
		}
	for (i = 0; i < s->ntk; i++)
		if (s->tk[i].free_next == -2 && isfinite(s->tk[i].work_left))
			r->work_left += s->tk[i].work_left;
	r->power_w = r->energy_j / D;
	r->throughput = r->work / D;
	r->demand = r->work_given;
	for (i = 0; i < s->cfg->wl->nitems; i++)
		if (s->cfg->wl->items[i].kind == PS_WL_CPU)
			r->demand += s->cfg->wl->items[i].n * D;
	r->oracle_power_w = r->oracle_energy_j / D;
	if (r->model_work > 0 && r->oracle_work > 0 && r->oracle_energy_j > 0)
		r->vs_oracle_pct = 100.0 * ((r->model_energy_j / r->model_work) /
					    (r->oracle_energy_j / r->oracle_work) - 1);
	r->mean_active_packages = s->pkg_time / D;
	r->mean_active_cores = s->core_time / D;
	r->mean_allowed_pus = s->allowed_time / D;
	if (s->nlat)
		qsort(s->lat, s->nlat, sizeof(double), cmp_double);
	r->latency_p50_ms = 1e3 * percentile(s->lat, s->nlat, 0.50);
	r->latency_p99_ms = 1e3 * percentile(s->lat, s->nlat, 0.99);
	r->latency_max_ms = s->nlat ? 1e3 * s->lat[s->nlat - 1] : 0;
	if (r->nslack) {
		double *v = malloc(sizeof(double) * r->nslack);

		if (v) {
			memcpy(v, r->slack_s, sizeof(double) * r->nslack);
			qsort(v, r->nslack, sizeof(double), cmp_double);
			r->slack_min_ms = 1e3 * v[0];
			r->slack_p1_ms = 1e3 * percentile(v, r->nslack, 0.01);
			r->slack_p50_ms = 1e3 * percentile(v, r->nslack, 0.50);
			free(v);
		}
	}
	for (p = 0; r->bins && p < r->bins; p++) {
		int q;

		r->bin_power_w[p] /= s->bin_w;
		r->bin_oracle_w[p] /= s->bin_w;
		for (q = 0; q < s->t->nr_pus; q++) {
			r->bin_busy[(size_t)p * s->t->nr_pus + q] /= s->bin_w;
			r->bin_allowed[(size_t)p * s->t->nr_pus + q] /= s->bin_w;
		}
	}
}

int ps_sim_run(const struct ps_sim_config *cfg, struct ps_sim_result *res)
{
	struct sim s;
	struct ps_ev e;
	int r, snapped = 0;
	double next_progress = 0;

	if (!cfg || !cfg->topo || !cfg->model || !cfg->wl || !(cfg->duration > 0) ||
	    !(cfg->interval > 0) || !(cfg->balance > 0) || cfg->bins < 0 ||
	    (cfg->pol.mode == PS_SIM_POLICY && cfg->pol.policy == PS_POLICY_AUTO))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.t = cfg->topo;
	s.m = cfg->model;
	s.r = res;
	s.rng = cfg->seed;
	r = setup(&s);
	if (!r)
		r = start_tasks(&s);
	if (!r)
		r = ps_evq_push(&s.q, cfg->interval, EV_INTERVAL, 0, 0);
	if (!r)
		r = ps_evq_push(&s.q, cfg->balance, EV_BALANCE, 0, 0);
	if (!r && cfg->snapshot >= 0 && cfg->snapshot <= cfg->duration)
		r = ps_evq_push(&s.q, cfg->snapshot, EV_SNAPSHOT, 0, 0);
	while (!r && !ps_evq_pop(&s.q, &e)) {
		if (e.t > cfg->duration)
			break;
		s.now = e.t;
		res->events++;
		switch (e.type) {
		case EV_PERIODIC: r = on_periodic(&s, e.a); break;
		case EV_POISSON: r = on_poisson(&s, e.a); break;
		case EV_TRACE: r = on_trace(&s, e.a); break;
		case EV_COMPLETE:
			s.core[e.a].pending_t = INFINITY;
			r = on_complete(&s, e.a);
			break;
		case EV_BALANCE:
			r = legacy_packs(&s) ? balance_legacy(&s) : balance_stock(&s);
			if (!r)
				r = ps_evq_push(&s.q, s.now + cfg->balance, EV_BALANCE, 0, 0);
			break;
		case EV_INTERVAL: r = on_interval(&s); break;
		case EV_RT: r = on_rt(&s, e.a); break;
		case EV_RT_END: r = on_rt_end(&s, e.a); break;
		case EV_SNAPSHOT:
			take_snapshot(&s);
			snapped = 1;
			break;
		}
		if (cfg->progress && s.now >= next_progress) {
			cfg->progress(s.now / cfg->duration, cfg->progress_arg);
			next_progress = s.now + cfg->duration / 100;
		}
	}
	if (!r && cfg->duration - s.iv_start > 1e-9) {
		s.now = cfg->duration; /* the last, partial interval */
		r = on_interval(&s);
	}
	if (!r) {
		finish(&s);
		if (!snapped)
			take_snapshot(&s);
	}
	teardown(&s);
	if (r)
		ps_sim_result_free(res);
	return r;
}

void ps_sim_result_free(struct ps_sim_result *res)
{
	free(res->pu_busy_s);
	free(res->snap);
	free(res->bin_busy);
	free(res->bin_power_w);
	free(res->bin_oracle_w);
	free(res->bin_allowed);
	res->pu_busy_s = NULL;
	res->snap = NULL;
	res->bin_busy = res->bin_power_w = res->bin_oracle_w = res->bin_allowed = NULL;
	free(res->slack_s);
	free(res->slack_t);
	free(res->slack_task);
	res->slack_s = res->slack_t = NULL;
	res->slack_task = NULL;
}
