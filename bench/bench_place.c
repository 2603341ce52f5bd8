// SPDX-License-Identifier: MIT
/*
 * DOC: bench_place
 *
 * How often the power placement changes when the measured utilizations
 * jitter and the load does not: the live side's per-thread filter
 * (ps_demand_place(), live/demand.h) against the raw figures. For 2 to 32
 * tasks at mean loads 0.15 to 0.8, each task's reading drawn uniformly in
 * mean +- 0.06 and mean +- 0.1 every 500 ms interval (a fixed sequence),
 * 60 intervals, the first 5 not counted, the policy chained on its previous
 * decision as live does, on the seeds' machine ("pack:2 core:8 pu:2", the
 * Xeon E5-2680 model). Prints the changes of the allowed set per case as
 * "raw/filtered" and the totals. The guest measured +-0.04 to +-0.07 for
 * stress-ng's duty-cycled workers (docs/testing.md, "Light load in the
 * guest").
 */
#include <stdio.h>

#include "place_changes.h"

int main(void)
{
	static const int ns[] = { 2, 4, 6, 8, 12, 16, 20, 24, 32 };
	static const double means[] = { 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8 };
	static const double jit[] = { 0.06, 0.1 };
	struct ps_topo *t = NULL;
	struct ps_model m;
	char err[256];
	unsigned k, i, j;

	if (ps_topo_load("pack:2 core:8 pu:2", &t) ||
	    ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err))) {
		fprintf(stderr, "bench_place: setup failed\n");
		return 1;
	}
	ps_topo_set_smt_gain(t, m.smt_gain);
	for (k = 0; k < sizeof(jit) / sizeof(jit[0]); k++) {
		int tr = 0, tf = 0;

		printf("placement changes in %d intervals of %.0f ms, readings uniform in mean +- %.2f (raw/filtered)\n",
		       PLACE_INTERVALS - PLACE_SKIP, PLACE_DT_S * 1e3, jit[k]);
		printf("tasks");
		for (j = 0; j < sizeof(means) / sizeof(means[0]); j++)
			printf("  %6.2f", means[j]);
		printf("\n");
		for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			printf("%5d", ns[i]);
			for (j = 0; j < sizeof(means) / sizeof(means[0]); j++) {
				double lo = means[j] - jit[k], hi = means[j] + jit[k];
				int r = place_changes(t, &m, ns[i], lo, hi, 0), f = place_changes(t, &m, ns[i], lo, hi, 1);

				if (r < 0 || f < 0) {
					fprintf(stderr, "bench_place: the policy failed\n");
					return 1;
				}
				printf("  %3d/%-2d", r, f);
				tr += r;
				tf += f;
			}
			printf("\n");
		}
		printf("total: %d raw, %d filtered (%d cases)\n\n", tr, tf,
		       (int)(sizeof(ns) / sizeof(ns[0]) * sizeof(means) / sizeof(means[0])));
	}
	ps_topo_free(t);
	return 0;
}
