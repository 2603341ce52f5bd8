/* SPDX-License-Identifier: MIT */
/*
 * DOC: policy
 *
 * The one knob. ps_policy_decide() is pure: no I/O, no globals, no clock.
 * It takes a topology, per-task utilization (0..1] and, optionally, the
 * previous decision (for hysteresis) and fills a decision: the allowed PUs,
 * the PU of every task, and how many domains of each level are active.
 *
 * performance: every PU is allowed; tasks go, biggest first, to the least
 *   loaded PU, ties broken by the spread order (widest domains first, one task
 *   per core before any sibling), which is what Linux's load balancer aims at.
 * power: tasks are packed first-fit-decreasing into PU-sized bins of capacity
 *   target_fill; a task above target_fill gets a PU of its own. The bins are
 *   laid on the first PUs of the pack order (every PU of a domain before the
 *   next domain, at every level), so the set is the fewest domains at every
 *   level. A loaded SMT sibling is a full slot. When the load does not fit
 *   the machine, every PU is allowed and tasks are balanced as performance.
 *   With a model (params->model), that packing is one of a few candidates
 *   and power takes the one of lowest modeled watts that serves the demand:
 *   packed along the pack order (cores before siblings), along the fill
 *   order (siblings first), along the spread order (every domain open), one
 *   task per PU along the pack order (no time-sharing), the same along the
 *   kinds' orders (efficient kinds first, performant first) on a machine
 *   with several kinds, packed along the pack order with each PU's share
 *   of the tasks under the fill kept within the reach of the model's
 *   lowest performance state (a task above it takes a PU of its own, as
 *   above the fill), and of the second (ps_model_state_reach(): the clock a busier PU would raise is
 *   package-wide on some machines), and performance's own placement. When every task is
 *   below PS_CPU_BOUND_UTIL and the packing fits, a candidate serves the
 *   demand if its modeled throughput is at least performance's (a periodic
 *   task at 0.82 has slack to lose: two of them on the siblings of one core
 *   would never catch up); otherwise (CPU-bound threads, which take any
 *   CPU they are given) every candidate gives each task above the fill a PU
 *   of its own (a sibling is a full slot, the seeds' rule) and the lowest
 *   watts wins. Performance's own placement always serves, so by the
 *   model power never draws more than performance. The allowed set is a prefix of
 *   the chosen candidate's order; when performance's own placement is the
 *   choice and every other candidate that serves costs more, every PU, as
 *   performance allows (not on a tie: an idle machine prices all alike).
 * auto is resolved by ps_source_resolve() before calling ps_policy_decide().
 */
#ifndef PS_POLICY_H
#define PS_POLICY_H

#include "ps/power.h"
#include "ps/topo.h"

enum ps_policy {
	PS_POLICY_PERFORMANCE,
	PS_POLICY_POWER,
	PS_POLICY_AUTO,
};

/*
 * Default target fill of a PU in power mode: 0.80. EAS stops packing when a
 * CPU passes 80% (overutilized threshold, kernel/sched/fair.c, fits_capacity
 * margin 1280/1024); schedutil asks 25% headroom (1/1.25 = 0.8).
 */
#define PS_DEFAULT_TARGET_FILL 0.80
/* A task read above this utilization is taken for CPU-bound (it would use
 * any CPU it is given); at or below it, power serves it in full. Chosen,
 * not derived: a periodic task just above the fill must still get a core
 * (rt-app's 80% tasks read 0.808 over a 100 ms interval holding 6.25 of
 * their 16 ms periods), while a task slowed by a busy sibling reads its
 * run time, not its work (a 0.6 task at 0.625 speed reads 0.96), which the
 * policy cannot tell from a CPU-bound thread: at 0.90 and 0.95 the light-load
 * matrix's 8 x 0.6 cells fell more than 5% from the oracle, at 0.85 every
 * check holds. numad's node target is the same 85%. */
#define PS_CPU_BOUND_UTIL 0.85

/* Power, with a previous decision: its placement (candidate) is kept while
 * it serves the load, costs no more than performance's and is within this
 * share of the best candidate's watts above the idle machine's (the share
 * was of the total until 2026-12-04: at light load every saving is under
 * 2% of that, and the first packing taken held for good). Measured utilizations jitter from
 * one interval to the next, and candidates a watt apart traded places with
 * them: 16 x 0.3 in the test guest went between one package (16 PUs, 1.4%
 * less by the model) and two at each crossing of the SMT serve threshold,
 * a mask change each time for nothing. Performance's own placement is not
 * held so: light load's savings are all under this share, and power that
 * had once taken it stayed on its set for good. */
#define PS_KEEP_MARGIN 0.02
/* Intervals of low load before power mode shrinks its set (grow is at once). */
#define PS_DEFAULT_SHRINK_AFTER 3

struct ps_policy_params {
	double target_fill;   /* (0, 1]: fill of a PU before another is used */
	int shrink_after;     /* intervals; 0 or 1 shrinks at once */
	/* power chooses by this model; NULL: the pack order alone, as before */
	const struct ps_model *model;
};

struct ps_decision {
	enum ps_policy policy; /* as decided: never PS_POLICY_AUTO */
	int max_tasks;
	int nr_tasks;
	int *task_pu;          /* PU index (into topo->pus) of each task */
	double *pu_load;       /* summed utilization per PU index */
	unsigned char *allowed; /* per PU index: 1 if allowed */
	int nr_allowed;
	int nr_needed;         /* PUs the load needs, before hysteresis */
	int low_streak;        /* intervals the need stayed below nr_allowed */
	int overloaded;        /* the load did not fit at target_fill */
	int active[PS_LVL_COUNT]; /* domains of each level holding a task */
	int total[PS_LVL_COUNT];  /* domains of each level */
	/* scratch, sized at init; never read by callers */
	int *order_;
	int *tmp_;
	double *seg_;
	unsigned short *key_;
	int *win_;
	int seg_n_;
	int *ctask_;            /* candidate task_pu */
	double *cload_;         /* candidate pu_load */
	double *cap_;           /* capacity of each PU for the model */
	int *xord_;             /* candidate orders, PS_NR_XORD x nr_pus */
	int *xrank_;            /* position of each PU in them */
	int *clo_;              /* per PU: first PU of its core; then sibling counts */
	int chosen;             /* placement taken (PS_CAND_*), for reports */
};

/* Candidates of the model-driven power choice. */
enum ps_cand {
	PS_CAND_PACK,        /* FFD along the pack order */
	PS_CAND_FILL,        /* FFD along the fill order: siblings first */
	PS_CAND_SPREAD,      /* FFD along the spread order */
	PS_CAND_EFF,         /* FFD, efficient kinds first */
	PS_CAND_PERF_KIND,   /* FFD, performant kinds first */
	PS_CAND_ONE_PACK,    /* one task per PU along the pack order */
	PS_CAND_ONE_EFF,     /* one task per PU, efficient kinds first */
	PS_CAND_PACK_LOW,    /* FFD along the pack order, each PU within
				the lowest performance state's reach */
	PS_CAND_PACK_MID,    /* the same within the second state's reach */
	PS_CAND_PERFORMANCE, /* performance's own placement */
	PS_CAND_COUNT
};

/** ps_cand_name() - short name of a candidate ("pack", "performance"). */
const char *ps_cand_name(int cand);

/** ps_policy_params_default() - target fill 0.80, shrink after 3 intervals,
 * no model. */
void ps_policy_params_default(struct ps_policy_params *p);

/**
 * ps_policy_parse() - "performance", "power" or "auto" to an enum
 * Return: 0, or -EINVAL for anything else.
 */
int ps_policy_parse(const char *s, enum ps_policy *out);

/** ps_policy_name() - the knob value's name. */
const char *ps_policy_name(enum ps_policy p);

/**
 * ps_decision_init() - allocate a decision for up to @max_tasks tasks
 * Return: 0, -EINVAL for max_tasks < 0, -ENOMEM.
 */
int ps_decision_init(struct ps_decision *d, const struct ps_topo *topo,
		     int max_tasks);

/** ps_decision_fini() - free what ps_decision_init() allocated. */
void ps_decision_fini(struct ps_decision *d);

/**
 * ps_policy_decide() - the placement for a load
 * @topo: the machine
 * @policy: performance or power (auto must be resolved first)
 * @util: utilization of each task, each in (0, 1]
 * @nr_tasks: number of tasks, at most out->max_tasks
 * @params: NULL for the defaults
 * @prev: the previous decision on the same topology, or NULL
 * @out: initialised for @topo; may not be @prev
 *
 * Return: 0, or -EINVAL for auto, a bad utilization, too many tasks or bad
 * parameters (out is then left as it was); -ENOMEM when a model's pricing
 * finds no memory (out then holds no decision).
 */
int ps_policy_decide(const struct ps_topo *topo, enum ps_policy policy,
		     const double *util, int nr_tasks,
		     const struct ps_policy_params *params,
		     const struct ps_decision *prev, struct ps_decision *out);

#endif
