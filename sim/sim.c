// SPDX-License-Identifier: MIT
/*
 * DOC: the simulation
 *
 * A discrete-event simulation of tasks on a topology, the kernel placing
 * them and the policy choosing the PUs they may use. Its rooms:
 *  - runqueue.c: run queues, bitmaps, the least-loaded tree, and time
 *    (progress, energy, busy time and the picture's bins);
 *  - placement.c: the kernel's model: wake-up placement, balance, the
 *    legacy knobs and the cpuset write of a new allowed set;
 *  - rtexec.c: the rt-app executor (phases, events, resources);
 *  - sim.c (here): the event loop, the workload items' events, the
 *    interval that applies the policy, setup and results.
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

#include "engine.h"

/* splitmix64: small, fast, and the same on every machine */
static double rnd(struct sim *s)
{
	unsigned long long z = (s->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((z >> 11) + 0.5) / 9007199254740992.0;
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

/* A task's pending work ran out. */
static int complete(struct sim *s, int i)
{
	const struct ps_wl_item *it = &s->cfg->wl->items[s->tk[i].item];
	int r;

	if (s->tk[i].rt >= 0) {
		s->tk[i].work_left = 0;
		return sim_rt_after(s, s->tk[i].rt); /* its next event */
	}
	r = sim_dequeue(s, i);

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

	sim_core_sync(s, c);
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
		r = sim_core_resched(s, c);
	/* new-idle balance: an idle allowed PU pulls from one running two */
	if (!r && s->n_over > 0 && !sim_legacy_packs(s)) {
		for (p = s->core[c].lo; p < s->core[c].hi && !r; p++) {
			int from, i;

			if (s->pu[p].nr || !bit_get(s->allowed, p))
				continue;
			/* the first task that may run on p (rt-app cpus) */
			for (from = sim_next_set(s->over, s->t->nr_pus, 0), i = -1;
			     from >= 0 && (i = sim_movable(s, from, p)) < 0;
			     from = sim_next_set(s->over, s->t->nr_pus, from + 1))
				;
			if (i >= 0)
				r = sim_migrate(s, i, p);
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

		sim_core_sync(s, c);
		if (s->tk[i].work_left > 1e-9 * it->period) {
			s->r->deadline_misses++;
			s->misses_iv++;
		}
		s->tk[i].work_left += w;
		r = sim_core_resched(s, c);
	} else {
		s->tk[i].work_left = w;
		r = sim_wake(s, i);
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
	r = sim_wake(s, i);
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

			sim_core_sync(s, c);
			s->tk[i].work_left += e->work;
			r = sim_core_resched(s, c);
		} else {
			s->tk[i].work_left = e->work;
			s->tk[i].release_t = s->now;
			r = sim_wake(s, i);
		}
	}
	if (!r && s->trace_pos[item] < it->nev)
		r = ps_evq_push(&s->q, it->ev[s->trace_pos[item]].t, EV_TRACE, item, 0);
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
		sim_core_sync(s, c);
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
	 * the policy's energy per work can never be under it (the candidates
	 * alone, at fill 1.0 of the asked demand, are beaten by 2.2% on
	 * docs/simulator.md's second example: a bound must not be).
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
			sim_add_to_bins(s, s->r->bin_oracle_w, 1, 0, s->iv_start, s->now, bound_w);
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
		sim_apply_allowed(s, out->allowed);
		r = sim_evict(s);
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
		sim_ll_pull(s, i);
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
	if (s->cfg->pol.mode == PS_SIM_LEGACY && sim_build_slots(s))
		return -ENOMEM;
	e = sim_rt_setup(s);
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

				r = k < 0 ? -ENOMEM : sim_wake(s, k);
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
				r = sim_rt_at(s, ri->first + i, w->rt->tasks[in->task].delay);
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
		sim_core_sync(s, c);
	sim_account(s, D);
	sim_allowed_to_bins(s, D);
	for (p = 0; p < s->t->nr_pus; p++)
		if (s->pu[p].nr) {
			r->pu_busy_s[p] += D - s->pu[p].busy_since;
			if (r->bins)
				sim_add_to_bins(s, r->bin_busy, s->t->nr_pus, p,
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
			r = sim_legacy_packs(&s) ? sim_balance_legacy(&s) : sim_balance_stock(&s);
			if (!r)
				r = ps_evq_push(&s.q, s.now + cfg->balance, EV_BALANCE, 0, 0);
			break;
		case EV_INTERVAL: r = on_interval(&s); break;
		case EV_RT: r = sim_on_rt(&s, e.a); break;
		case EV_RT_END: r = sim_on_rt_end(&s, e.a); break;
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
