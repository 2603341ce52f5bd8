/* SPDX-License-Identifier: MIT */
/* Internal to sim/: the simulation's state, shared by its rooms. */
#ifndef PS_SIM_ENGINE_H
#define PS_SIM_ENGINE_H

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

/* Least-loaded tree: a PU's nr or allowed bit changed. */
static inline void ll_mark(struct sim *s, int p)
{
	if (!s->ll_dirty[p]) {
		s->ll_dirty[p] = 1;
		s->ll_list[s->ll_n++] = p;
	}
}

/* runqueue.c */
int sim_next_set(const unsigned long long *b, int nbits, int from);
void sim_ll_pull(struct sim *s, int i);
void sim_ll_fix(struct sim *s);
int sim_first_nr_ge(const struct sim *s, int node, int lo, int hi, int from, int thr);
void sim_add_to_bins(const struct sim *s, double *arr, size_t stride, size_t off, double a, double b, double v);
void sim_account(struct sim *s, double now);
void sim_core_sync(struct sim *s, int c);
int sim_core_resched(struct sim *s, int c);
int sim_enqueue(struct sim *s, int i, int p);
int sim_dequeue(struct sim *s, int i);
void sim_allowed_to_bins(struct sim *s, double now);

/* placement.c */
int sim_movable(const struct sim *s, int p, int to);
int sim_migrate(struct sim *s, int i, int p);
int sim_legacy_packs(const struct sim *s);
int sim_wake(struct sim *s, int i);
int sim_balance_stock(struct sim *s);
int sim_balance_legacy(struct sim *s);
int sim_build_slots(struct sim *s);
void sim_apply_allowed(struct sim *s, const unsigned char *allowed);
int sim_evict(struct sim *s);

/* rtexec.c */
int sim_rt_at(struct sim *s, int g, double t);
int sim_rt_after(struct sim *s, int g);
int sim_on_rt(struct sim *s, int g);
int sim_on_rt_end(struct sim *s, int item);
int sim_rt_setup(struct sim *s);

#endif
