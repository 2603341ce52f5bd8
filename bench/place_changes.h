/* SPDX-License-Identifier: MIT */
/*
 * place_changes(): the power placement, chained on its previous decision
 * as live does, over PLACE_INTERVALS intervals of PLACE_DT_S, for n tasks
 * whose measured utilization is drawn uniformly in [lo, hi] each interval
 * (a fixed sequence), read raw or through the live side's per-thread
 * filter (ps_demand_place()); returns how many times the allowed set
 * changed after the first PLACE_SKIP intervals, or -1. Shared by
 * bench/bench_place.c and tests/unit/test_demand.c.
 */
#ifndef PS_BENCH_PLACE_CHANGES_H
#define PS_BENCH_PLACE_CHANGES_H

#include <string.h>

#include "ps/policy.h"
#include "ps/power.h"
#include "../live/demand.h"

#define PLACE_INTERVALS 60
#define PLACE_SKIP 5
#define PLACE_DT_S 0.5

static inline int place_changes(const struct ps_topo *t, const struct ps_model *m, int n,
				double lo, double hi, int filtered)
{
	struct ps_decision a, b, *d = &a, *prev = NULL;
	struct ps_policy_params par;
	struct ps_place pl[64];
	double u[64];
	unsigned seed = 12345;
	int it, i, c = 0;

	if (n > 64)
		return -1;
	ps_policy_params_default(&par);
	par.model = m;
	if (ps_decision_init(&a, t, 64) || ps_decision_init(&b, t, 64))
		return -1;
	for (i = 0; i < n; i++)
		pl[i].avg = pl[i].held = -1;
	for (it = 0; it < PLACE_INTERVALS; it++) {
		for (i = 0; i < n; i++) {
			double x;

			seed = seed * 1103515245u + 12345u;
			x = lo + (hi - lo) * (double)((seed >> 8) & 0xffff) / 65535.0;
			u[i] = filtered ? ps_demand_place(&pl[i], x, PLACE_DT_S, it % PS_DEMAND_PLACE_RESYNC == 0, 0) : x;
		}
		if (ps_policy_decide(t, PS_POLICY_POWER, u, n, &par, prev, d))
			return -1;
		if (prev && it >= PLACE_SKIP && memcmp(d->allowed, prev->allowed, (size_t)t->nr_pus))
			c++;
		prev = d;
		d = d == &a ? &b : &a;
	}
	ps_decision_fini(&a);
	ps_decision_fini(&b);
	return c;
}

#endif
