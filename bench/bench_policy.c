// SPDX-License-Identifier: MIT
/*
 * DOC: bench_policy
 *
 * Time of one ps_policy_decide() for 10,000 tasks on "pack:8 core:64 pu:2"
 * (1,024 PUs), both policies, with mixed utilizations; power chooses by the
 * shipped generic model (its candidates and their modeled watts are part of
 * the time). Prints the median and the worst of many runs and the candidate
 * power took; the target is under 1 ms. Then the same for 100 tasks (every
 * candidate is built at that size).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ps/policy.h"
#include "ps/power.h"

#define NTASKS 10000
#define RUNS 200

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static double util[NTASKS], ms[RUNS];
	const char *spec = "pack:8 core:64 pu:2";
	struct ps_decision d;
	struct ps_policy_params params;
	struct ps_model m;
	struct ps_topo *t;
	unsigned seed = 1;
	char err[256];
	int i, p, sz;

	if (ps_topo_load(spec, &t) || ps_decision_init(&d, t, NTASKS) ||
	    ps_model_load("generic", &m, err, sizeof(err))) {
		fprintf(stderr, "bench_policy: setup failed\n");
		return 1;
	}
	ps_topo_set_smt_gain(t, m.smt_gain);
	ps_policy_params_default(&params);
	params.model = &m;
	for (sz = 0; sz < 2; sz++)
	for (p = 0; p < 2; p++) {
		int ntasks = sz ? 100 : NTASKS;
		enum ps_policy pol = p ? PS_POLICY_POWER : PS_POLICY_PERFORMANCE;
		/* light (fits the machine) and heavy (does not) loads */
		double scale[2] = { sz ? 1.0 : 0.1, 1.0 };
		int s;

		for (s = 0; s < 2; s++) {
			for (i = 0; i < ntasks; i++) {
				seed = seed * 1103515245u + 12345u;
				util[i] = scale[s] * (0.01 + 0.99 * ((seed >> 8) & 0xffff) / 65535.0);
				if (util[i] > 1)
					util[i] = 1;
			}
			for (i = 0; i < RUNS; i++) {
				double t0 = now_ms();

				if (ps_policy_decide(t, pol, util, ntasks, &params, NULL, &d)) {
					fprintf(stderr, "bench_policy: decide failed\n");
					return 1;
				}
				ms[i] = now_ms() - t0;
			}
			qsort(ms, RUNS, sizeof(ms[0]), cmp);
			printf("policy %-11s %s, %d tasks, %d PUs (%s): one decision median %.3f ms, "
			       "max %.3f ms over %d runs, %d PUs allowed%s%s%s\n",
			       ps_policy_name(pol), s ? "heavy" : "light", ntasks,
			       t->nr_pus, spec, ms[RUNS / 2], ms[RUNS - 1], RUNS,
			       d.nr_allowed, d.overloaded ? " (overloaded)" : "",
			       pol == PS_POLICY_POWER ? ", chose " : "",
			       pol == PS_POLICY_POWER ? ps_cand_name(d.chosen) : "");
		}
	}
	ps_decision_fini(&d);
	ps_topo_free(t);
	return 0;
}
