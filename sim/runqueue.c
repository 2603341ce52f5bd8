// SPDX-License-Identifier: MIT
/*
 * Run queues and time: who runs where, how fast, and what it costs.
 *
 * Tasks share a PU fairly (processor sharing: n runnable tasks each get 1/n
 * of it); k busy siblings of a core each run at (1 + g (k-1)) / k, g the
 * model's smt_gain. Progress is computed lazily per core when something on
 * it changes, and the next completion on a core is one keyed event of the
 * queue, moved when that time changes.
 *
 * Bitmaps (idle PUs, idle cores, PUs running two or more, cores with two
 * busy siblings) and a tournament tree of run queue lengths let the
 * placement in placement.c find a PU without a pass over every PU.
 */
#include <limits.h>
#include <math.h>

#include "engine.h"

/* First i >= from with bit i set in b (nbits bits), or -1. */
int sim_next_set(const unsigned long long *b, int nbits, int from)
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

void sim_ll_pull(struct sim *s, int i)
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
void sim_ll_fix(struct sim *s)
{
	int k;

	for (k = 0; k < s->ll_n; k++) {
		int p = s->ll_list[k], i = s->ll_leaves + p;

		s->ll_dirty[p] = 0;
		s->ll_min[i] = bit_get(s->allowed, p) ? s->pu[p].nr : INT_MAX;
		s->ll_max[i] = s->pu[p].nr;
		for (i /= 2; i >= 1; i /= 2)
			sim_ll_pull(s, i);
	}
	s->ll_n = 0;
}

/* Leftmost PU >= from with nr >= thr, or -1: a descent of the max tree. */
int sim_first_nr_ge(const struct sim *s, int node, int lo, int hi, int from,
		       int thr)
{
	int mid, r;

	if (hi <= from || s->ll_max[node] < thr)
		return -1;
	if (hi - lo == 1)
		return lo < s->t->nr_pus ? lo : -1;
	mid = (lo + hi) / 2;
	r = sim_first_nr_ge(s, 2 * node, lo, mid, from, thr);
	return r >= 0 ? r : sim_first_nr_ge(s, 2 * node + 1, mid, hi, from, thr);
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
void sim_add_to_bins(const struct sim *s, double *arr, size_t stride,
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
void sim_account(struct sim *s, double now)
{
	double dt = now - s->t_acc;

	if (dt <= 0)
		return;
	s->r->energy_j += s->p_now * dt;
	s->pkg_time += s->act_pkg * dt;
	s->core_time += s->act_core * dt;
	s->allowed_time += s->nr_allowed * dt;
	if (s->r->bins)
		sim_add_to_bins(s, s->r->bin_power_w, 1, 0, s->t_acc, now, s->p_now);
	s->t_acc = now;
}

static void pu_busy_flip(struct sim *s, int pu, int busy)
{
	const struct ps_topo *t = s->t;
	const struct ps_model *m = s->m;
	int sign = busy ? 1 : -1, d;

	sim_account(s, s->now);
	s->p_now += sign * (m->active_w[PS_LVL_PU] - m->idle_w[PS_LVL_PU]);
	if (bit_get(s->allowed, pu))
		s->n_idle_pu -= sign;
	if (busy) {
		s->pu[pu].busy_since = s->now;
		bit_clr(s->idle_pu, pu);
	} else {
		s->r->pu_busy_s[pu] += s->now - s->pu[pu].busy_since;
		if (s->r->bins)
			sim_add_to_bins(s, s->r->bin_busy, s->t->nr_pus, pu,
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

void sim_core_sync(struct sim *s, int c)
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

int sim_core_resched(struct sim *s, int c)
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

int sim_enqueue(struct sim *s, int i, int p)
{
	int c = s->pu[p].core;

	sim_core_sync(s, c);
	rq_add(s, i, p);
	return sim_core_resched(s, c);
}

int sim_dequeue(struct sim *s, int i)
{
	int c = s->pu[s->tk[i].pu].core;

	sim_core_sync(s, c);
	rq_del(s, i);
	return sim_core_resched(s, c);
}

/* The allowed set's time into the picture's bins, up to now. */
void sim_allowed_to_bins(struct sim *s, double now)
{
	int p;

	if (!s->r->bins || now <= s->allowed_since)
		return;
	for (p = 0; p < s->t->nr_pus; p++)
		if (bit_get(s->allowed, p))
			sim_add_to_bins(s, s->r->bin_allowed, s->t->nr_pus, p, s->allowed_since,
				    now, 1.0);
	s->allowed_since = now;
}
