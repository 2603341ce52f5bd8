// SPDX-License-Identifier: MIT
/*
 * DOC: the one knob
 *
 * Pure functions: the same decision for the same input, no I/O. One decision
 * costs O(T + T log P) for T tasks on P PUs per candidate placement: tasks
 * are radix-sorted on a 16-bit key of their utilization, a tournament tree
 * over the PUs (in spread order) finds the least loaded PU, block maxima
 * (in a candidate's order) the first bin a task fits; each candidate is
 * priced in one ps_power_ws, by the PUs it uses and their domains (the idle
 * rest of the machine summed once per decision).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ps/policy.h"

#define PS_NR_XORD 5

void ps_policy_params_default(struct ps_policy_params *p)
{
	p->target_fill = PS_DEFAULT_TARGET_FILL;
	p->shrink_after = PS_DEFAULT_SHRINK_AFTER;
	p->model = NULL;
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

/* The orders candidates walk; kinds' orders are the pack order by kind. */
enum { XO_PACK, XO_FILL, XO_SPREAD, XO_EFF, XO_PERFK };

static void kind_order(const struct ps_topo *t, int efficient_first, int *out)
{
	int n = 0, k, i;

	for (k = 0; k < t->nr_kinds; k++) {
		int want = efficient_first ? k : t->nr_kinds - 1 - k;

		for (i = 0; i < t->nr_pus; i++)
			if (t->pus[t->pack_order[i]].kind == want)
				out[n++] = t->pack_order[i];
	}
}

static void build_xorders(const struct ps_topo *t, int *ord, int *rank)
{
	int n = t->nr_pus, o, i;

	memcpy(ord + XO_PACK * n, t->pack_order, sizeof(int) * n);
	memcpy(ord + XO_FILL * n, t->fill_order, sizeof(int) * n);
	memcpy(ord + XO_SPREAD * n, t->spread_order, sizeof(int) * n);
	kind_order(t, 1, ord + XO_EFF * n);
	kind_order(t, 0, ord + XO_PERFK * n);
	for (o = 0; o < PS_NR_XORD; o++)
		for (i = 0; i < n; i++)
			rank[o * n + ord[o * n + i]] = i;
}

static const char *const cand_names[PS_CAND_COUNT] = {
	[PS_CAND_PACK] = "pack",
	[PS_CAND_FILL] = "siblings-first",
	[PS_CAND_SPREAD] = "spread-packed",
	[PS_CAND_EFF] = "efficient-first",
	[PS_CAND_PERF_KIND] = "performant-first",
	[PS_CAND_ONE_PACK] = "one-per-pu",
	[PS_CAND_ONE_EFF] = "one-per-pu-efficient",
	[PS_CAND_PACK_LOW] = "pack-lowest-clock",
	[PS_CAND_PACK_MID] = "pack-second-clock",
	[PS_CAND_PERFORMANCE] = "performance",
};

const char *ps_cand_name(int cand)
{
	if (cand < 0 || cand >= PS_CAND_COUNT)
		return "?";
	return cand_names[cand];
}

int ps_decision_init(struct ps_decision *d, const struct ps_topo *topo,
		     int max_tasks)
{
	int n = topo->nr_pus, s = 1, i;

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
	d->ctask_ = calloc(max_tasks + 1, sizeof(int));
	d->cload_ = calloc(n, sizeof(double));
	d->cap_ = calloc(n, sizeof(double));
	d->xord_ = calloc((size_t)PS_NR_XORD * n, sizeof(int));
	d->xrank_ = calloc((size_t)PS_NR_XORD * n, sizeof(int));
	d->clo_ = calloc(2 * (size_t)n + 1, sizeof(int));
	if (!d->task_pu || !d->order_ || !d->tmp_ || !d->pu_load ||
	    !d->allowed || !d->seg_ || !d->key_ || !d->win_ || !d->ctask_ ||
	    !d->cload_ || !d->cap_ || !d->xord_ || !d->xrank_ || !d->clo_) {
		ps_decision_fini(d);
		return -ENOMEM;
	}
	build_xorders(topo, d->xord_, d->xrank_);
	for (i = 0; i < n; i++) {
		int k = topo->pus[i].nr_siblings;

		d->clo_[i] = k > 1 ? topo->doms[topo->pus[i].dom].pu_lo : i;
		d->clo_[n + i] = k > 1 ? k : 1;
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
	free(d->ctask_);
	free(d->cload_);
	free(d->cap_);
	free(d->xord_);
	free(d->xrank_);
	free(d->clo_);
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

/*
 * First fit over ranks: block maxima with a fanout of 32. Level 0 holds a
 * value per rank, each level above the maximum of 32 entries below; the top
 * level has at most 32. A query scans the top level for the first entry
 * >= x and then one block of 32 per level down; an update recomputes one
 * block per level, and stops where a maximum did not change. Short linear
 * scans of adjacent doubles beat a binary tree's chain of dependent loads.
 */
#define FF_FAN 32
#define FF_MAX_LEVELS 8

struct ff {
	double *lv[FF_MAX_LEVELS];
	int size[FF_MAX_LEVELS];
	int nl;
};

/* Maximum of v[lo, hi): four chains, not one long one. */
static double block_max(const double *v, int lo, int hi)
{
	double m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
	int j;

	for (j = lo; j + 4 <= hi; j += 4) {
		m0 = max2(m0, v[j]);
		m1 = max2(m1, v[j + 1]);
		m2 = max2(m2, v[j + 2]);
		m3 = max2(m3, v[j + 3]);
	}
	for (; j < hi; j++)
		m0 = max2(m0, v[j]);
	return max2(max2(m0, m1), max2(m2, m3));
}

/* Lay the levels out in @mem (room for 2 * nrank + 32 * levels doubles). */
static void ff_init(struct ff *f, double *mem, const double *leaf, int n)
{
	int l = 0, i;

	f->lv[0] = mem;
	f->size[0] = n;
	memcpy(mem, leaf, sizeof(double) * n);
	while (f->size[l] > FF_FAN && l + 1 < FF_MAX_LEVELS) {
		int m = (f->size[l] + FF_FAN - 1) / FF_FAN;

		f->lv[l + 1] = f->lv[l] + f->size[l];
		f->size[l + 1] = m;
		for (i = 0; i < m; i++) {
			int lo = i * FF_FAN, hi = lo + FF_FAN;

			if (hi > f->size[l])
				hi = f->size[l];
			f->lv[l + 1][i] = block_max(f->lv[l], lo, hi);
		}
		l++;
	}
	f->nl = l + 1;
}

static int ff_first_ge(const struct ff *f, double x)
{
	int l = f->nl - 1, lo = 0, hi = f->size[l], i;

	for (;;) {
		const double *v = f->lv[l];

		for (i = lo; i < hi && v[i] < x; i++)
			;
		if (i == hi)
			return -1;
		if (l == 0)
			return i;
		l--;
		lo = i * FF_FAN;
		hi = lo + FF_FAN < f->size[l] ? lo + FF_FAN : f->size[l];
	}
}

static void ff_set(struct ff *f, int r, double v)
{
	double old = f->lv[0][r];
	int l;

	f->lv[0][r] = v;
	for (l = 1; l < f->nl; l++) {
		int b = r / FF_FAN, lo = b * FF_FAN, hi = lo + FF_FAN;
		double top = f->lv[l][b], mx;

		if (v >= top) {
			mx = v;           /* the changed entry is the new maximum */
		} else if (old < top) {
			break;            /* it was not the maximum and is not now */
		} else {
			if (hi > f->size[l - 1])
				hi = f->size[l - 1];
			mx = block_max(f->lv[l - 1], lo, hi);
		}
		if (mx == top)
			break; /* nothing above changes */
		f->lv[l][b] = mx;
		old = top;
		v = mx;
		r = b;
	}
}

/*
 * Biggest task first to the least loaded PU, ties to the earliest rank.
 * A tournament tree whose nodes hold the winner's load and rank (ld[node],
 * win[node]: the least load below node, the leftmost on ties), so the pick
 * is win[1] and an update replays one path reading only the sibling at each
 * level; the compares compile to conditional moves, not branches. While
 * every PU is still empty the pick is simply the next rank.
 */
static void assign_balanced(const struct ps_topo *topo, const int *rank_pu,
			    const double *util, int n, struct ps_decision *d)
{
	int s = d->seg_n_, *win = d->win_, first, i;
	double *ld = d->seg_; /* ranks past nr_pus never win */

	first = n < topo->nr_pus ? n : topo->nr_pus;
	for (i = 0; i < s; i++) {
		ld[s + i] = i < topo->nr_pus ? 0.0 : INFINITY;
		win[s + i] = i;
	}
	for (i = 0; i < first; i++) {
		int t = d->order_[i], pu = rank_pu[i];

		d->task_pu[t] = pu;
		d->pu_load[pu] = util[t];
		ld[s + i] = util[t];
	}
	for (i = s - 1; i >= 1; i--) {
		int r = ld[2 * i + 1] < ld[2 * i];

		ld[i] = ld[2 * i + r];
		win[i] = win[2 * i + r];
	}
	for (i = first; i < n; i++) {
		int t = d->order_[i], r = win[1], pos = s + r;
		int pu = rank_pu[r], cr = r;
		double cl;

		d->task_pu[t] = pu;
		d->pu_load[pu] += util[t];
		cl = d->pu_load[pu];
		ld[pos] = cl;
		while (pos > 1) {
			int odd = pos & 1, sr = win[pos ^ 1], lr, rr, take;
			double sl = ld[pos ^ 1], lld, rld;

			lld = odd ? sl : cl;
			lr = odd ? sr : cr;
			rld = odd ? cl : sl;
			rr = odd ? cr : sr;
			take = rld < lld;
			cl = take ? rld : lld;
			cr = take ? rr : lr;
			pos >>= 1;
			ld[pos] = cl;
			win[pos] = cr;
		}
	}
	memset(d->allowed, 1, topo->nr_pus);
	d->nr_allowed = topo->nr_pus;
}

/*
 * Room left on a PU for a partial task: its own headroom (fill - load) and,
 * for SMT siblings, what the core's throughput leaves: k busy siblings
 * deliver 1 + g (k-1) (g the SMT gain), not k, so the core's summed load may
 * not pass that. Opening an idle sibling counts it among the k. core_scale
 * is 1, or for a candidate held to a low clock that clock's reach: the
 * core then delivers that share of it.
 */
static double pu_room(const struct ps_topo *topo, const double *load,
		      const double *cap, double fill, double core_scale,
		      const int *clo, int pu)
{
	int lo = clo[pu], nsib = clo[topo->nr_pus + pu], k = 0, q;
	double c = cap ? cap[pu] : 1.0;
	double room = fill * c - load[pu], sum = 0, core;

	if (nsib <= 1)
		return room;
	for (q = lo; q < lo + nsib; q++) {
		sum += load[q];
		k += q == pu || load[q] > 0;
	}
	core = core_scale * c * (1 + topo->smt_gain * (k - 1)) - sum;
	return core < room ? core : room;
}

/*
 * Tasks above the fill first, one empty PU each along the pack order (a
 * sibling is a full slot for them); then the others first-fit-decreasing
 * into the room pu_room() leaves, along the same order.
 * Return: PUs used (the highest rank + 1), or -1 if the load does not fit.
 */
static int assign_packed(const struct ps_topo *topo, const double *util, int n,
			 double fill, double core_scale, const int *order,
			 const int *rank,
			 const double *cap, struct ps_decision *d)
{
	int P = topo->nr_pus, used = 0, own = 0, i, r;
	double *room;
	struct ff ff;

	for (i = 0; i < n; i++) {
		int t = d->order_[i];

		if (util[t] <= fill)
			continue;
		if (own == topo->nr_pus)
			return -1;
		d->task_pu[t] = order[own];
		d->pu_load[order[own++]] = util[t];
	}
	used = own;
	/* the leaves are built in place at the end of seg_, then laid out */
	room = d->seg_ + d->seg_n_;
	for (r = 0; r < P; r++)
		room[r] = r < own ? -INFINITY :
			  pu_room(topo, d->pu_load, cap, fill, core_scale, d->clo_,
				  order[r]);
	ff_init(&ff, d->seg_, room, P);
	for (i = 0; i < n; i++) {
		int t = d->order_[i], pu, q, lo, hi;

		if (util[t] > fill)
			continue;
		/* 1e-9: sums such as 8 x 0.1 must still fit a fill of 0.8 */
		r = ff_first_ge(&ff, util[t] - 1e-9);
		if (r < 0)
			return -1;
		pu = order[r];
		d->task_pu[t] = pu;
		d->pu_load[pu] += util[t];
		if (r + 1 > used)
			used = r + 1;
		lo = d->clo_[pu];
		hi = lo + d->clo_[topo->nr_pus + pu];
		for (q = lo; q < hi; q++) {
			int rq = rank[q];
			double v;

			if (rq < own)
				continue;
			v = pu_room(topo, d->pu_load, cap, fill, core_scale, d->clo_, q);
			if (v != ff.lv[0][rq])
				ff_set(&ff, rq, v);
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

static void swap_cand(struct ps_decision *d)
{
	int *ti = d->task_pu;
	double *tl = d->pu_load;

	d->task_pu = d->ctask_;
	d->ctask_ = ti;
	d->pu_load = d->cload_;
	d->cload_ = tl;
}

/*
 * A prefix of the pack order that ends among second threads (every core of
 * its group has one task or more) is taken to the end of the group: the
 * siblings of a group are opened together. The placement is the same (the
 * model prices it, not the set); the set no longer follows each sibling
 * that first-fit needs or not as readings jitter (bench_place: 20 tasks
 * read in 0.09-0.21 went through 10 to 17 PUs, 10 changes in 55
 * intervals, packed within the lowest clock's reach).
 */
static int whole_siblings(const struct ps_topo *topo, const int *order, int keep)
{
	const struct ps_pu *pu;
	const struct ps_domain *g;
	int last;

	if (keep <= 0 || keep >= topo->nr_pus)
		return keep;
	last = order[keep - 1];
	pu = &topo->pus[last];
	if (pu->nr_siblings <= 1 || topo->doms[pu->dom].pu_lo == last ||
	    topo->doms[pu->dom].parent < 0)
		return keep;
	g = &topo->doms[topo->doms[pu->dom].parent];
	while (keep < topo->nr_pus && order[keep] >= g->pu_lo && order[keep] < g->pu_hi) {
		const struct ps_pu *q = &topo->pus[order[keep]];

		/* second threads only: a core of one thread (a sibling
		 * offline, another kind) after them is a core the model
		 * did not price (found in review) */
		if (q->nr_siblings <= 1 || topo->doms[q->dom].pu_lo == order[keep])
			break;
		keep++;
	}
	return keep;
}

/* Above this many tasks per PU only the pack order and performance compete. */
#define FULL_CANDIDATES_TASKS_PER_PU 4

/*
 * Power by the model: see the DOC in include/ps/policy.h. Each candidate is
 * placed into d->task_pu/pu_load; the best so far is kept in ctask_/cload_
 * by swapping the arrays, so nothing is copied per candidate.
 */
static int decide_by_model(const struct ps_topo *topo, const double *util,
			   int n, const struct ps_policy_params *params,
			   const struct ps_decision *prev, struct ps_decision *d,
			   struct ps_power_ws *ws)
{
	const struct ps_model *m = params->model;
	int P = topo->nr_pus, best = -1, best_ord = 0, best_used = 0;
	double fill = params->target_fill, best_w = INFINITY, perf_tp = 1, perf_w = INFINITY;
	double other_w = INFINITY; /* the cheapest other candidate that serves, undiscounted */
	double idle_w = 0;
	/* the previous interval's placement, kept while within the margin */
	int kept = prev && prev->policy == PS_POLICY_POWER ? prev->chosen : -1;
	double umax = 0;
	static const int cand_seq[PS_CAND_COUNT] = {
		PS_CAND_PERFORMANCE, PS_CAND_PACK, PS_CAND_FILL, PS_CAND_SPREAD,
		PS_CAND_EFF, PS_CAND_PERF_KIND, PS_CAND_ONE_PACK, PS_CAND_ONE_EFF,
		PS_CAND_PACK_LOW, PS_CAND_PACK_MID,
	};
	int fits, full, c, ci, i, keep;
	struct ps_power pw;

	for (i = 0; i < n; i++)
		umax = umax > util[i] ? umax : util[i];
	{
		/* one model lookup per kind, not per PU */
		double kcap[PS_MAX_KINDS];
		int seen = 0;

		for (i = 0; i < P; i++) {
			int k = topo->pus[i].kind;

			if (!(seen & (1 << k))) {
				kcap[k] = ps_model_pu_capacity(m, topo, i);
				seen |= 1 << k;
			}
			d->cap_[i] = kcap[k];
		}
	}
	/* the machine idle: the keep margin is a share of what a placement
	 * adds to it (see below); only read with a previous placement */
	if (kept >= 0) {
		memset(d->pu_load, 0, sizeof(double) * P);
		if (ps_power_ws_eval(ws, d->pu_load, NULL, &pw))
			return -EINVAL;
		idle_w = pw.power_w;
	}
	full = n <= FULL_CANDIDATES_TASKS_PER_PU * P || n <= 512;
	fits = -1; /* known after the pack candidate */
	d->chosen = -1;
	for (ci = 0; ci < PS_CAND_COUNT; ci++) {
		int ord = 0, used = 0, ok;

		c = cand_seq[ci];

		memset(d->pu_load, 0, sizeof(double) * P);
		switch (c) {
		case PS_CAND_PERFORMANCE:
			ord = XO_SPREAD;
			assign_balanced(topo, topo->spread_order, util, n, d);
			used = n < P ? n : P;
			break;
		case PS_CAND_ONE_PACK:
		case PS_CAND_ONE_EFF:
			if (n > P || !full ||
			    (c == PS_CAND_ONE_EFF && topo->nr_kinds < 2))
				continue;
			ord = c == PS_CAND_ONE_PACK ? XO_PACK : XO_EFF;
			for (i = 0; i < n; i++) {
				int pu = d->xord_[ord * P + i];

				d->task_pu[d->order_[i]] = pu;
				d->pu_load[pu] = util[d->order_[i]];
			}
			used = n;
			break;
		case PS_CAND_PACK_LOW:
		case PS_CAND_PACK_MID: {
			/* the pack order at a lower fill: each PU's share,
			 * and each core's, within a low clock's reach (32 x
			 * 0.1 at 0.8 a PU raised the package's clock: 97 W
			 * against 77 W for four tasks a core) */
			double f = ps_model_state_reach(m, topo,
							c == PS_CAND_PACK_LOW ? 0 : 1);

			if (!full || !(f > 0) || f >= fill - 1e-9)
				continue;
			ord = XO_PACK;
			used = assign_packed(topo, util, n, f, f, d->xord_ + ord * P,
					     d->xrank_ + ord * P, d->cap_, d);
			if (used < 0)
				continue;
			break;
		}
		default:
			if (c != PS_CAND_PACK && !full)
				continue;
			if ((c == PS_CAND_EFF || c == PS_CAND_PERF_KIND) &&
			    topo->nr_kinds < 2)
				continue;
			ord = c == PS_CAND_PACK ? XO_PACK : c == PS_CAND_FILL ? XO_FILL :
			      c == PS_CAND_SPREAD ? XO_SPREAD : c == PS_CAND_EFF ?
			      XO_EFF : XO_PERFK;
			used = assign_packed(topo, util, n, fill, 1.0, d->xord_ + ord * P,
					     d->xrank_ + ord * P, d->cap_, d);
			if (c == PS_CAND_PACK)
				fits = used >= 0 && umax < PS_CPU_BOUND_UTIL;
			if (used < 0) {
				if (c == PS_CAND_PACK) {
					/* does not fit: performance's own, in ctask_ */
					swap_cand(d);
					d->overloaded = 1;
					d->nr_needed = P;
					d->chosen = PS_CAND_PERFORMANCE;
					memset(d->allowed, 1, P);
					d->nr_allowed = P;
					count_active(topo, d);
					return 0;
				}
				continue;
			}
			break;
		}
		if (ps_power_ws_eval(ws, d->pu_load, NULL, &pw))
			return -EINVAL;
		if (c == PS_CAND_PERFORMANCE) {
			perf_tp = pw.throughput;
			perf_w = pw.power_w;
			ok = 1;
		} else if (fits) {
			/* fits is known: the pack candidate comes second */
			ok = pw.throughput >= (perf_tp < 1 ? perf_tp : 1) - 1e-9;
		} else {
			/* CPU-bound threads: every candidate gives each task
			 * above the fill a PU of its own; the lowest watts wins */
			ok = 1;
		}
		if (ok && c != PS_CAND_PERFORMANCE && pw.power_w < other_w)
			other_w = pw.power_w;
		/* near-ties: the previous interval's placement, while it serves
		 * and costs no more than performance's, is compared at its
		 * watts less PS_KEEP_MARGIN of what it adds to the idle
		 * machine: another must save more than that
		 * to take its place (measured utilizations jitter, and
		 * candidates a watt apart traded places with them). Not
		 * performance's own: at light load every saving is under the
		 * margin (1-3% of the machine's watts), so power, once there,
		 * stayed there for good on a set that saves nothing (32 x 0.1
		 * in the guest: 17-22 PUs of the spread order where the
		 * cheapest takes 16 on one package) */
		if (c == kept && c != PS_CAND_PERFORMANCE && ok && pw.power_w <= perf_w &&
		    pw.throughput >= (perf_tp < 1 ? perf_tp : 1) - 1e-9)
			pw.power_w -= PS_KEEP_MARGIN * (pw.power_w - idle_w);
		/* ties: the pack order before performance, else the earlier */
		if (ok && (best < 0 || pw.power_w < best_w - 1e-9 * best_w ||
			   (best == PS_CAND_PERFORMANCE &&
			    pw.power_w <= best_w + 1e-9 * best_w))) {
			best_w = pw.power_w;
			best = c;
			best_ord = ord;
			best_used = used;
			swap_cand(d);
		}
	}
	swap_cand(d); /* the best is in task_pu/pu_load again */
	d->chosen = best;
	d->nr_needed = best_used;
	keep = best_used > 0 ? best_used : 1;
	/* every other placement costs more: leave the kernel every PU, as
	 * performance does (its prefix of the spread order is only the
	 * model's picture of what the kernel does with them). Not on a tie
	 * (an idle machine prices every candidate alike: every PU was kept
	 * for good after an overload); a tie goes to the pack order above,
	 * and performance is never held by the keep margin, so its prefix
	 * is left only for a difference within the 1e-9 of the two tests */
	if (best == PS_CAND_PERFORMANCE && perf_w < other_w * (1 - 1e-9))
		keep = P;
	else if (best_ord == XO_PACK)
		keep = whole_siblings(topo, d->xord_ + XO_PACK * P, keep);
	memset(d->allowed, 0, P);
	for (i = 0; i < keep; i++)
		d->allowed[d->xord_[best_ord * P + i]] = 1;
	d->nr_allowed = keep;
	/* hysteresis: a smaller set inside the previous one waits shrink_after
	 * intervals (a set that is not inside it is taken at once) */
	if (prev && prev->policy == PS_POLICY_POWER && keep < prev->nr_allowed &&
	    prev->nr_allowed <= P && prev->low_streak + 1 < params->shrink_after) {
		for (i = 0; i < P; i++)
			if (d->allowed[i] && !prev->allowed[i])
				break;
		if (i == P) {
			memcpy(d->allowed, prev->allowed, P);
			d->nr_allowed = prev->nr_allowed;
			d->low_streak = prev->low_streak + 1;
		}
	}
	count_active(topo, d);
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
	out->chosen = policy == PS_POLICY_PERFORMANCE ? PS_CAND_PERFORMANCE : PS_CAND_PACK;
	memset(out->pu_load, 0, sizeof(double) * topo->nr_pus);
	sort_tasks(util, nr_tasks, out->order_, out->tmp_, out->key_);

	if (policy == PS_POLICY_PERFORMANCE) {
		assign_balanced(topo, topo->spread_order, util, nr_tasks, out);
		out->nr_needed = topo->nr_pus;
		count_active(topo, out);
		return 0;
	}

	if (params->model) {
		/* one workspace for the candidates: each is priced by the PUs
		 * it uses, the idle rest of the machine summed once */
		struct ps_power_ws *ws = ps_power_ws_new(topo, params->model);
		int r;

		if (!ws)
			return -ENOMEM;
		r = decide_by_model(topo, util, nr_tasks, params, prev, out, ws);
		ps_power_ws_free(ws);
		return r;
	}
	used = assign_packed(topo, util, nr_tasks, params->target_fill, 1.0,
			     topo->pack_order, topo->pack_rank, NULL, out);
	if (used < 0) {
		memset(out->pu_load, 0, sizeof(double) * topo->nr_pus);
		assign_balanced(topo, topo->spread_order, util, nr_tasks, out);
		out->overloaded = 1;
		out->chosen = PS_CAND_PERFORMANCE;
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
