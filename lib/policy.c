// SPDX-License-Identifier: MIT
/*
 * DOC: the one knob
 *
 * Pure functions: the same decision for the same input, no I/O. One decision
 * costs O(T + T log P) for T tasks on P PUs: tasks are radix-sorted on a
 * 16-bit key of their utilization, and a segment tree over the PUs (in spread
 * or pack order) finds the least loaded PU, or the first bin a task fits.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps/policy.h"

void ps_policy_params_default(struct ps_policy_params *p)
{
	p->target_fill = PS_DEFAULT_TARGET_FILL;
	p->shrink_after = PS_DEFAULT_SHRINK_AFTER;
}

int ps_policy_parse(const char *s, enum ps_policy *out)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "performance"))
		*out = PS_POLICY_PERFORMANCE;
	else if (!strcmp(s, "power"))
		*out = PS_POLICY_POWER;
	else if (!strcmp(s, "auto"))
		*out = PS_POLICY_AUTO;
	else
		return -EINVAL;
	return 0;
}

const char *ps_policy_name(enum ps_policy p)
{
	switch (p) {
	case PS_POLICY_PERFORMANCE: return "performance";
	case PS_POLICY_POWER: return "power";
	case PS_POLICY_AUTO: return "auto";
	}
	return "?";
}

int ps_decision_init(struct ps_decision *d, const struct ps_topo *topo,
		     int max_tasks)
{
	int n = topo->nr_pus, s = 1;

	if (max_tasks < 0)
		return -EINVAL;
	while (s < n)
		s <<= 1;
	memset(d, 0, sizeof(*d));
	d->max_tasks = max_tasks;
	d->seg_n_ = s;
	d->task_pu = calloc(max_tasks + 1, sizeof(int));
	d->order_ = calloc(max_tasks + 1, sizeof(int));
	d->tmp_ = calloc((max_tasks > n ? max_tasks : n) + 1, sizeof(int));
	d->pu_load = calloc(n, sizeof(double));
	d->allowed = calloc(n, 1);
	d->seg_ = calloc(2 * s, sizeof(double));
	d->key_ = calloc(max_tasks + 1, sizeof(unsigned short));
	d->win_ = calloc(2 * s, sizeof(int));
	if (!d->task_pu || !d->order_ || !d->tmp_ || !d->pu_load ||
	    !d->allowed || !d->seg_ || !d->key_ || !d->win_) {
		ps_decision_fini(d);
		return -ENOMEM;
	}
	return 0;
}

void ps_decision_fini(struct ps_decision *d)
{
	free(d->task_pu);
	free(d->order_);
	free(d->tmp_);
	free(d->pu_load);
	free(d->allowed);
	free(d->seg_);
	free(d->key_);
	free(d->win_);
	memset(d, 0, sizeof(*d));
}

/*
 * Tasks by utilization, largest first; stable, two 8-bit radix passes over a
 * 16-bit key computed once per task.
 */
static void sort_tasks(const double *util, int n, int *order, int *tmp,
		       unsigned short *key)
{
	int count[256], pass, i;

	for (i = 0; i < n; i++) {
		order[i] = i;
		key[i] = (unsigned short)(65535u - (unsigned)lrint(util[i] * 65535.0));
	}
	for (pass = 0; pass < 2; pass++) {
		int shift = pass * 8, pos = 0;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(key[order[i]] >> shift) & 255]++;
		for (i = 0; i < 256; i++) {
			int c = count[i];

			count[i] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(key[order[i]] >> shift) & 255]++] = order[i];
		memcpy(order, tmp, sizeof(int) * n);
	}
}

/* Values here are never NaN, so a plain compare (libm's fmax is a call). */
static inline double max2(double a, double b)
{
	return a > b ? a : b;
}

/* A max segment tree over ranks: seg[s + rank] is a leaf, seg[1] the root. */
static void seg_set(double *seg, int s, int leaf, double v)
{
	int i = s + leaf;

	seg[i] = v;
	for (i >>= 1; i >= 1; i >>= 1) {
		double m = max2(seg[2 * i], seg[2 * i + 1]);

		if (seg[i] == m)
			break; /* nothing above changes */
		seg[i] = m;
	}
}

/* Leftmost leaf whose value is >= x, or -1. */
static int seg_first_ge(const double *seg, int s, double x)
{
	int i = 1;

	if (seg[1] < x)
		return -1;
	while (i < s)
		i = seg[2 * i] >= x ? 2 * i : 2 * i + 1;
	return i - s;
}

/*
 * Biggest task first to the least loaded PU, ties to the earliest rank.
 * A tournament tree: win[node] is the rank with the least load below node
 * (the leftmost on ties), so the pick is win[1] and an update replays one
 * path; the compares compile to conditional moves, not branches. While every
 * PU is still empty the pick is simply the next rank.
 */
static void assign_balanced(const struct ps_topo *topo, const int *rank_pu,
			    const double *util, int n, struct ps_decision *d)
{
	int s = d->seg_n_, *win = d->win_, first, i;
	double *load = d->seg_; /* per rank; ranks past nr_pus never win */

	first = n < topo->nr_pus ? n : topo->nr_pus;
	for (i = 0; i < s; i++) {
		load[i] = i < topo->nr_pus ? 0.0 : INFINITY;
		win[s + i] = i;
	}
	for (i = 0; i < first; i++) {
		int t = d->order_[i], pu = rank_pu[i];

		d->task_pu[t] = pu;
		d->pu_load[pu] = util[t];
		load[i] = util[t];
	}
	for (i = s - 1; i >= 1; i--) {
		int a = win[2 * i], b = win[2 * i + 1];

		win[i] = load[b] < load[a] ? b : a;
	}
	for (i = first; i < n; i++) {
		int t = d->order_[i], r = win[1], node;
		int pu = rank_pu[r];

		d->task_pu[t] = pu;
		d->pu_load[pu] += util[t];
		load[r] = d->pu_load[pu];
		for (node = (s + r) >> 1; node >= 1; node >>= 1) {
			int a = win[2 * node], b = win[2 * node + 1];

			win[node] = load[b] < load[a] ? b : a;
		}
	}
	memset(d->allowed, 1, topo->nr_pus);
	d->nr_allowed = topo->nr_pus;
}

/*
 * Room left on a PU for a partial task: its own headroom (fill - load) and,
 * for SMT siblings, what the core's throughput leaves: k busy siblings
 * deliver 1 + g (k-1) (g the SMT gain), not k, so the core's summed load may
 * not pass that. Opening an idle sibling counts it among the k.
 */
static double pu_room(const struct ps_topo *topo, const double *load,
		      double fill, int pu)
{
	int lo, hi, k = 0, q;
	double room = fill - load[pu], sum = 0, core;

	if (topo->pus[pu].nr_siblings <= 1)
		return room;
	lo = topo->doms[topo->pus[pu].dom].pu_lo;
	hi = lo + topo->pus[pu].nr_siblings;
	for (q = lo; q < hi; q++) {
		sum += load[q];
		k += q == pu || load[q] > 0;
	}
	core = 1 + topo->smt_gain * (k - 1) - sum;
	return core < room ? core : room;
}

/*
 * Tasks above the fill first, one empty PU each along the pack order (a
 * sibling is a full slot for them); then the others first-fit-decreasing
 * into the room pu_room() leaves, along the same order.
 * Return: PUs used (the highest rank + 1), or -1 if the load does not fit.
 */
static int assign_packed(const struct ps_topo *topo, const double *util, int n,
			 double fill, struct ps_decision *d)
{
	int s = d->seg_n_, used = 0, own = 0, i, r;

	for (i = 0; i < n; i++) {
		int t = d->order_[i];

		if (util[t] <= fill)
			continue;
		if (own == topo->nr_pus)
			return -1;
		d->task_pu[t] = topo->pack_order[own];
		d->pu_load[topo->pack_order[own++]] = util[t];
	}
	used = own;
	for (r = 0; r < s; r++)
		d->seg_[s + r] = r < topo->nr_pus ?
			(r < own ? -INFINITY :
			 pu_room(topo, d->pu_load, fill, topo->pack_order[r])) :
			-INFINITY;
	for (r = s - 1; r >= 1; r--)
		d->seg_[r] = max2(d->seg_[2 * r], d->seg_[2 * r + 1]);
	for (i = 0; i < n; i++) {
		int t = d->order_[i], pu, q, lo, hi;

		if (util[t] > fill)
			continue;
		/* 1e-9: sums such as 8 x 0.1 must still fit a fill of 0.8 */
		r = seg_first_ge(d->seg_, s, util[t] - 1e-9);
		if (r < 0)
			return -1;
		pu = topo->pack_order[r];
		d->task_pu[t] = pu;
		d->pu_load[pu] += util[t];
		if (r + 1 > used)
			used = r + 1;
		lo = topo->pus[pu].nr_siblings > 1 ? topo->doms[topo->pus[pu].dom].pu_lo : pu;
		hi = lo + (topo->pus[pu].nr_siblings > 1 ? topo->pus[pu].nr_siblings : 1);
		for (q = lo; q < hi; q++) {
			int rq = topo->pack_rank[q];

			if (rq >= own)
				seg_set(d->seg_, s, rq, pu_room(topo, d->pu_load, fill, q));
		}
	}
	return used;
}

static void count_active(const struct ps_topo *topo, struct ps_decision *d)
{
	int *pre = d->tmp_, i, b;

	memset(d->active, 0, sizeof(d->active));
	memset(d->total, 0, sizeof(d->total));
	memset(pre, 0, sizeof(int) * (topo->nr_pus + 1));
	for (i = 0; i < d->nr_tasks; i++)
		pre[d->task_pu[i] + 1] = 1;
	for (i = 0; i < topo->nr_pus; i++) {
		d->active[PS_LVL_PU] += pre[i + 1];
		pre[i + 1] += pre[i];
	}
	d->total[PS_LVL_PU] = topo->nr_pus;
	for (i = 0; i < topo->nr_doms; i++) {
		const struct ps_domain *dom = &topo->doms[i];
		int busy = pre[dom->pu_hi] - pre[dom->pu_lo] > 0;

		for (b = 0; b < PS_LVL_PU; b++) {
			if (!(dom->types & (1u << b)))
				continue;
			d->total[b]++;
			d->active[b] += busy;
		}
	}
}

static int check_input(const struct ps_topo *topo, enum ps_policy policy,
		       const double *util, int n,
		       const struct ps_policy_params *p,
		       const struct ps_decision *out)
{
	int i;

	if (policy != PS_POLICY_PERFORMANCE && policy != PS_POLICY_POWER)
		return -EINVAL;
	if (n < 0 || n > out->max_tasks || (n && !util))
		return -EINVAL;
	if (!(p->target_fill > 0 && p->target_fill <= 1))
		return -EINVAL;
	if (!out->allowed || out->seg_n_ < topo->nr_pus)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(util[i] > 0 && util[i] <= 1)) /* also catches NaN */
			return -EINVAL;
	return 0;
}

int ps_policy_decide(const struct ps_topo *topo, enum ps_policy policy,
		     const double *util, int nr_tasks,
		     const struct ps_policy_params *params,
		     const struct ps_decision *prev, struct ps_decision *out)
{
	struct ps_policy_params defaults;
	int used, keep, i;

	if (!params) {
		ps_policy_params_default(&defaults);
		params = &defaults;
	}
	if (check_input(topo, policy, util, nr_tasks, params, out) || prev == out)
		return -EINVAL;

	out->policy = policy;
	out->nr_tasks = nr_tasks;
	out->overloaded = 0;
	out->low_streak = 0;
	memset(out->pu_load, 0, sizeof(double) * topo->nr_pus);
	sort_tasks(util, nr_tasks, out->order_, out->tmp_, out->key_);

	if (policy == PS_POLICY_PERFORMANCE) {
		assign_balanced(topo, topo->spread_order, util, nr_tasks, out);
		out->nr_needed = topo->nr_pus;
		count_active(topo, out);
		return 0;
	}

	used = assign_packed(topo, util, nr_tasks, params->target_fill, out);
	if (used < 0) {
		memset(out->pu_load, 0, sizeof(double) * topo->nr_pus);
		assign_balanced(topo, topo->spread_order, util, nr_tasks, out);
		out->overloaded = 1;
		out->nr_needed = topo->nr_pus;
		count_active(topo, out);
		return 0;
	}
	out->nr_needed = used;
	keep = used > 0 ? used : 1; /* an allowed set is never empty */
	/* hysteresis, after an overloaded interval too (all PUs were allowed):
	 * a spike does not make the set flap */
	if (prev && prev->policy == PS_POLICY_POWER &&
	    keep < prev->nr_allowed && prev->nr_allowed <= topo->nr_pus &&
	    prev->low_streak + 1 < params->shrink_after) {
		keep = prev->nr_allowed;
		out->low_streak = prev->low_streak + 1;
	}
	memset(out->allowed, 0, topo->nr_pus);
	for (i = 0; i < keep; i++)
		out->allowed[topo->pack_order[i]] = 1;
	out->nr_allowed = keep;
	count_active(topo, out);
	return 0;
}
