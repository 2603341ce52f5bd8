/* SPDX-License-Identifier: MIT */
/*
 * DOC: power model
 *
 * Watts of a placement from per-level figures. For every level type (see
 * enum ps_level) a model gives active_w, drawn while any PU below a domain of
 * that type runs, and idle_w, drawn while none does (its deepest idle state).
 * For the pu level, active_w is the extra power of each running hardware
 * thread. A domain carrying several types (a core with its L2) draws the sum.
 *
 * With b(x) the busy fraction of x (0..1):
 *
 *   P = sum_pu b(pu) * pu.active_w
 *     + sum_dom [ b(dom) * active_w(dom) + (1 - b(dom)) * idle_w(dom) ]
 *
 *   b(dom) = 1 - prod_child (1 - b(child))   (busy periods independent)
 *
 * SMT: with k busy threads on a core, each runs at s(k) = (1 + g (k-1)) / k
 * of a lone thread (g = smt_gain, the throughput a sibling adds). A PU with
 * demand D (summed utilization) whose siblings are busy n = sum b(others)
 * of the time runs at s(1 + n) (linear between integers), so
 *
 *   b(pu) = min(1, D / s),   work(pu) = b(pu) * s
 *
 * solved by fixed-point iteration (closed form for two siblings).
 *
 * Model v2 (all optional; a file without them gives the numbers above):
 *
 * CPU kinds. Each PU has a kind (hwloc cpukinds, see ps_topo). A kind line
 * gives the kind's capacity c_k (work per second at its top state, against
 * a reference core 1.0) and its core watts busy/idle, which replace the
 * core level's for cores of that kind. A kind-blind model on a machine with
 * several kinds: the most performant kind is the reference (capacity 1, the
 * core level's watts); each rank below it multiplies capacity by 0.6 and
 * busy core watts by 0.3 (PS_KIND_DEFAULT_*; an estimate: intel_pstate's
 * hybrid scaling 78741/100000 work per MHz times a ~0.75 clock ratio gives
 * ~0.6; an E-core's active power is a fraction of a P-core's).
 *
 * Performance states. A table per kind (or one for all): state j has
 * capacity fraction f_j (increasing, the last 1.0) and busy core watts W_j.
 * A frequency domain is a core or a package (freq_domain). As schedutil,
 * the state of a domain is the lowest j with
 *
 *   f_j >= 1.25 * max_{pu in domain} min(1, D(pu) / c_k(pu))
 *
 * (the top state if none). A PU then runs at speed c_k * f_j: demand D is
 * scaled to D / (c_k f_j) before the SMT solve above, and its work is
 * multiplied by c_k f_j. A busy core draws W_j instead of its active watts.
 *
 * Coordinated idle. For the level L of a coordinated_idle line, a domain
 * of L reaches its IDLE_W only while every domain of L is idle; while any
 * other works it draws SHALLOW_W. With q_i = prod_{j != i} (1 - b_j):
 *
 *   P(dom_i) = b_i ACTIVE_W + (1 - b_i) (q_i IDLE_W + (1 - q_i) SHALLOW_W)
 *
 * Throughput is delivered work over demanded
 * work (1.0 = every task at full speed on a core of its own); energy per work
 * is P over delivered work per second, in joules per second of single-thread
 * work (J/unit). Where the model has to guess it guesses against packing:
 * independent busy periods keep a packed core busier, and the SMT slowdown
 * applies whenever siblings overlap.
 */
#ifndef PS_POWER_H
#define PS_POWER_H

#include <stdio.h>
#include "ps/topo.h"

#define PS_MAX_PSTATES 16

/* A performance-state table: capacity fraction of the top state, watts. */
struct ps_pstates {
	int n;
	double cap[PS_MAX_PSTATES]; /* increasing, the last is 1.0 */
	double watts[PS_MAX_PSTATES]; /* core active watts, non-decreasing */
};

struct ps_model_kind {
	char name[32];        /* as the topology's kind (hwloc CoreType) */
	double capacity;      /* work per second at the top state, reference 1 */
	double active_w;      /* core watts busy at the top state */
	double idle_w;        /* core watts idle */
	struct ps_pstates ps; /* n == 0: the model's table (pstate all) */
	int line;             /* where it was given, for errors */
};

struct ps_model {
	char name[64];
	double smt_gain;                 /* 0..1 */
	double active_w[PS_LVL_COUNT];
	double idle_w[PS_LVL_COUNT];
	int nr_kinds;                    /* 0: kind-blind */
	struct ps_model_kind kinds[PS_MAX_KINDS];
	struct ps_pstates ps;            /* pstate all; n == 0: none */
	int freq_scope;                  /* PS_LVL_CORE or PS_LVL_PACKAGE */
	int coord_level;                 /* -1, or the level of coordinated idle */
	double coord_shallow_w;          /* its idle watts while another works */
	int fits[3];                     /* packages, cores, PUs it is for; 0: any */
};

struct ps_power {
	double power_w;
	double demand;          /* summed utilization asked */
	double work;            /* delivered single-thread work per second */
	double throughput;      /* work / demand, 1 for no load */
	double energy_per_work; /* J per unit of work; 0 when no work */
};

/**
 * ps_model_parse() - read a model from text
 * @text: the file's contents, NUL-terminated
 * @out: the model
 * @err: receives a one-line reason on error ("line 3: unknown level 'foo'")
 * @errlen: size of @err
 *
 * Format, one statement a line, '#' to the end of a line is a comment:
 *   name NAME
 *   smt_gain G                (0 <= G <= 1)
 *   level LEVEL ACTIVE_W IDLE_W   (LEVEL as ps_level_name(); watts >= 0)
 *   kind NAME CAPACITY CORE_ACTIVE_W CORE_IDLE_W
 *   pstate KIND|all CAPACITY_FRACTION CORE_ACTIVE_W   (ascending)
 *   freq_domain core|package
 *   coordinated_idle LEVEL SHALLOW_IDLE_W
 *   fits PACKAGES CORES PUS       (the machine shape it was made for)
 * Levels not listed draw 0 W. See powersched-model(5).
 *
 * Return: 0 or -EINVAL.
 */
int ps_model_parse(const char *text, struct ps_model *out, char *err,
		   size_t errlen);

/**
 * ps_model_load() - read a model file, or a built-in model by name
 * Return: 0, -ENOENT for an unreadable file, -EINVAL for a malformed one
 * (@err says which line and value).
 */
int ps_model_load(const char *path_or_name, struct ps_model *out, char *err,
		  size_t errlen);

/** ps_model_builtin() - the text of a shipped model, or NULL. */
const char *ps_model_builtin(const char *name);

/** ps_model_builtin_names() - NULL-terminated list of shipped model names. */
const char *const *ps_model_builtin_names(void);

/* Default for a kind-blind model on a machine with several kinds. */
#define PS_KIND_DEFAULT_CAPACITY_STEP 0.6
#define PS_KIND_DEFAULT_WATTS_STEP 0.3

/**
 * ps_model_check() - does the model fit the topology
 * Return: 0, or -EINVAL with @err naming a kind line whose kind the
 * topology does not have ("line 7: kind 'IntelAtom' is not in the
 * topology (it has: any)").
 */
int ps_model_check(const struct ps_model *m, const struct ps_topo *topo,
		   char *err, size_t errlen);

/**
 * ps_model_fits() - is the model made for this topology: its fits line
 * matches the topology's packages, cores and PUs, and every kind it names
 * is there. A model without a fits line fits nothing.
 */
int ps_model_fits(const struct ps_model *m, const struct ps_topo *topo);

/**
 * ps_model_pick() - the first shipped model that fits @topo, else "generic"
 * @why: receives why, for the user ("fits 2 packages, 16 cores, 32 PUs",
 *       or "no shipped model fits 1 package, 2 cores, 2 PUs")
 */
const char *ps_model_pick(const struct ps_topo *topo, char *why, size_t whylen);

/**
 * ps_model_pu_capacity() - work per second of a PU running alone at its
 * kind's highest performance state, in units of the reference core (1.0)
 */
double ps_model_pu_capacity(const struct ps_model *m,
			    const struct ps_topo *topo, int pu);

/* schedutil's headroom: a frequency domain runs at the lowest performance
 * state whose capacity is at least this times its busiest PU's
 * utilization (Linux's map_util_perf(), util + util / 4) */
#define PS_SCHEDUTIL_HEADROOM 1.25

/**
 * ps_model_state_reach() - the utilization of a PU, as a fraction of its
 * capacity, up to which the model runs it at performance state @j or a
 * lower one: the lowest such bound over the kinds of @topo that have a
 * state @j below their top one (capacity / PS_SCHEDUTIL_HEADROOM).
 * Return: the bound, or -1 when no kind has such a state (no tables, or
 * @j is every kind's top state).
 */
double ps_model_state_reach(const struct ps_model *m,
			    const struct ps_topo *topo, int j);

/**
 * ps_power_eval() - power and work of a per-PU demand
 * @topo: the machine
 * @m: the model
 * @pu_demand: summed utilization per PU index (may exceed 1)
 * @pu_busy: if not NULL, receives the busy fraction per PU index
 * @out: the figures
 *
 * Return: 0, or -EINVAL for a negative demand.
 */
int ps_power_eval(const struct ps_topo *topo, const struct ps_model *m,
		  const double *pu_demand, double *pu_busy,
		  struct ps_power *out);

/**
 * struct ps_power_ws - a workspace for pricing many demands of one machine
 * under one model: ps_power_ws_eval() costs O(busy PUs x depth), not
 * O(PUs + domains), because the machine's idle watts are summed once here.
 * It keeps pointers to @topo and @m, which must outlive it unchanged.
 */
struct ps_power_ws;

/** ps_power_ws_new() - a workspace for @topo under @m; NULL without memory */
struct ps_power_ws *ps_power_ws_new(const struct ps_topo *topo,
				    const struct ps_model *m);
void ps_power_ws_free(struct ps_power_ws *ws);

/**
 * ps_power_ws_eval() - ps_power_eval() in a workspace: the same figures
 * (the same formulas, summed in another order)
 */
int ps_power_ws_eval(struct ps_power_ws *ws, const double *pu_demand,
		     double *pu_busy, struct ps_power *out);

#endif
