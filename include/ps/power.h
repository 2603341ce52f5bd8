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
 * solved by fixed-point iteration. Throughput is delivered work over demanded
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

struct ps_model {
	char name[64];
	double smt_gain;                 /* 0..1 */
	double active_w[PS_LVL_COUNT];
	double idle_w[PS_LVL_COUNT];
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
 * Levels not listed draw 0 W.
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

#endif
