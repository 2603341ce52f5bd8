// SPDX-License-Identifier: MIT
/* The rt-app executor: rt-app workload files run as simulated tasks. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

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
int sim_rt_at(struct sim *s, int g, double t)
{
	return ps_evq_set(&s->q, s->ncores + g, t, EV_RT, g);
}

/* The blocking event at in->ev is over: continue at once, from the queue. */
static int rt_release(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];

	in->state = RT_READY;
	in->nostep = 0;
	return sim_rt_at(s, g, s->now);
}

static int rt_block(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];

	in->state = RT_BLOCKED;
	if (s->tk[in->sid].pu >= 0)
		return sim_dequeue(s, in->sid);
	return 0;
}

static int rt_run(struct sim *s, int g, double work)
{
	struct rt_inst *in = &s->rti[g];
	struct stask *k = &s->tk[in->sid];

	in->state = RT_RUNNING;
	if (k->pu >= 0) {
		int c = s->pu[k->pu].core;

		sim_core_sync(s, c);
		k->work_left = work;
		return sim_core_resched(s, c);
	}
	k->work_left = work;
	return sim_wake(s, in->sid);
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
		r = sim_dequeue(s, in->sid);
		s->r->migrations++;
		if (!r)
			r = sim_wake(s, in->sid);
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
	r = sim_rt_at(s, g, INFINITY); /* its pending step, if any, is void */
	if (!r && s->tk[in->sid].pu >= 0)
		return sim_dequeue(s, in->sid);
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
			return sim_rt_at(s, g, s->now + 1e-6);
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
			return r ? r : sim_rt_at(s, g, s->now + e->dur);
		case PS_RT_SLEEP:
			if (e->dur <= 0)
				break;
			r = rt_block(s, g);
			return r ? r : sim_rt_at(s, g, s->now + e->dur);
		case PS_RT_TIMER:
			if (!rs->init) {
				rs->init = 1;
				rs->t_next = in->ph_start;
			}
			rs->t_next += e->dur;
			rt_record_slack(s, g, rs->t_next - s->now);
			if (s->now < rs->t_next) {
				r = rt_block(s, g);
				return r ? r : sim_rt_at(s, g, rs->t_next);
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
int sim_rt_after(struct sim *s, int g)
{
	int r = rt_step(s, g);

	if (r == 1)
		return rt_end(s, g);
	return r ? r : rt_go(s, g);
}

int sim_on_rt(struct sim *s, int g)
{
	struct rt_inst *in = &s->rti[g];
	struct stask *k = &s->tk[in->sid];
	int r;

	if (in->state == RT_DONE)
		return 0;
	if (k->pu >= 0)
		sim_core_sync(s, s->pu[k->pu].core);
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
	return sim_rt_after(s, g);
}

int sim_on_rt_end(struct sim *s, int item)
{
	const struct rt_item *ri = &s->rtitem[item];
	int g, r = 0;

	for (g = ri->first; g < ri->first + ri->rt->ninst && !r; g++)
		r = rt_end(s, g);
	return r;
}

/* rt-app state: instances, resources, the OS CPU to PU map. */
int sim_rt_setup(struct sim *s)
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
