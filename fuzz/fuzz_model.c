// SPDX-License-Identifier: MIT
/* libFuzzer harness: the model parser never crashes, and an accepted model
 * has finite, non-negative watts, a gain in 0..1, kinds with a capacity in
 * (0, 4], rising pstate tables that end at 1; evaluating it on a small
 * machine gives finite, non-negative watts and a throughput in [0, 1]. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/power.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_table(const struct ps_pstates *t)
{
	int j;

	if (t->n < 0 || t->n > PS_MAX_PSTATES || (t->n && t->cap[t->n - 1] != 1.0))
		abort();
	for (j = 0; j < t->n; j++)
		if (!(t->cap[j] > 0 && t->cap[j] <= 1) || !(t->watts[j] >= 0) ||
		    !isfinite(t->watts[j]) ||
		    (j && (t->cap[j] <= t->cap[j - 1] || t->watts[j] < t->watts[j - 1])))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ps_topo *topo;
	static const double dem[8] = { 0.3, 0.9, 0, 0, 1.0, 0, 0.05, 0 };
	char *s = malloc(size + 1), err[256];
	struct ps_model m;
	struct ps_power p;
	int i;

	if (!s)
		return 0;
	if (!topo && ps_topo_load("pack:2 core:2 pu:2", &topo))
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	if (ps_model_parse(s, &m, err, sizeof(err)) == 0) {
		if (!(m.smt_gain >= 0 && m.smt_gain <= 1))
			abort();
		for (i = 0; i < PS_LVL_COUNT; i++)
			if (!isfinite(m.active_w[i]) || m.active_w[i] < 0 ||
			    !isfinite(m.idle_w[i]) || m.idle_w[i] < 0)
				abort();
		if (m.nr_kinds < 0 || m.nr_kinds > PS_MAX_KINDS)
			abort();
		for (i = 0; i < m.nr_kinds; i++) {
			if (!(m.kinds[i].capacity > 0 && m.kinds[i].capacity <= 4))
				abort();
			check_table(&m.kinds[i].ps);
		}
		check_table(&m.ps);
		if (ps_power_eval(topo, &m, dem, NULL, &p) == 0 &&
		    (!isfinite(p.power_w) || p.power_w < 0 ||
		     !(p.throughput >= 0 && p.throughput <= 1 + 1e-9)))
			abort();
	}
	free(s);
	return 0;
}
