// SPDX-License-Identifier: MIT
/*
 * Each shipped model against the measured figures its file cites, within
 * 5%, printed. Loads as the sources measured them: active idle (no task);
 * SPECpower's 10% and 100% (every PU at 0.1 / 1.0, spread by the OS, so
 * performance's placement); a package at full load (every PU at 1.0).
 */
#include <math.h>

#include "helpers.h"
#include "ps/policy.h"
#include "ps/power.h"

struct point {
	const char *model, *topo, *what, *source;
	double util;  /* every PU at this; 0: idle */
	double watts; /* measured */
};

static const struct point points[] = {
	{ "xeon-e5-2680-2s", "pack:2 core:8 pu:2", "active idle", "SPECpower Dell R620", 0, 54.1 },
	{ "xeon-e5-2680-2s", "pack:2 core:8 pu:2", "10% load", "SPECpower Dell R620", 0.1, 78.4 },
	{ "xeon-e5-2680-2s", "pack:2 core:8 pu:2", "100% load", "SPECpower Dell R620", 1.0, 243 },
	{ "xeon-scalable-2s", "pack:2 core:28 pu:2", "active idle", "SPECpower Dell R640", 0, 55 },
	{ "xeon-scalable-2s", "pack:2 core:28 pu:2", "10% load", "SPECpower Dell R640", 0.1, 125 },
	{ "xeon-scalable-2s", "pack:2 core:28 pu:2", "100% load", "SPECpower Dell R640", 1.0, 469 },
	{ "epyc-7313p-1s", "epyc-7313p-1s.xml", "package idle", "AnandTech, Milan", 0, 100 },
	{ "epyc-7313p-1s", "epyc-7313p-1s.xml", "package full load", "AMD, 155 W TDP", 1.0, 155 },
	{ "laptop-i7-1260p", "hybrid-laptop-i7-1260p.xml", "package idle (C10)", "turbostat reports", 0, 1.0 },
	{ "laptop-i7-1260p", "hybrid-laptop-i7-1260p.xml", "package all cores busy", "Intel ARK, 64 W max turbo", 1.0, 64 },
};

static void test_sources(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		const struct point *pt = &points[i];
		char path[4096], err[256];
		struct ps_policy_params par;
		struct ps_decision d;
		struct ps_topo *t;
		struct ps_model m;
		struct ps_power pw;
		double u[256];
		int n, k;

		if (strstr(pt->topo, ".xml"))
			topo_path(path, sizeof(path), pt->topo);
		else
			snprintf(path, sizeof(path), "%s", pt->topo);
		t = load_topo(path);
		assert_int_equal(ps_model_load(pt->model, &m, err, sizeof(err)), 0);
		assert_int_equal(ps_model_check(&m, t, err, sizeof(err)), 0);
		ps_topo_set_smt_gain(t, m.smt_gain);
		n = pt->util > 0 ? t->nr_pus : 0;
		assert_true(n <= 256);
		for (k = 0; k < n; k++)
			u[k] = pt->util;
		ps_policy_params_default(&par);
		par.model = &m;
		assert_int_equal(ps_decision_init(&d, t, 256), 0);
		assert_int_equal(ps_policy_decide(t, PS_POLICY_PERFORMANCE, u, n, &par, NULL, &d), 0);
		assert_int_equal(ps_power_eval(t, &m, d.pu_load, NULL, &pw), 0);
		printf("%-17s %-24s model %7.1f W, measured %6.1f W (%s): %+5.1f%%\n",
		       pt->model, pt->what, pw.power_w, pt->watts, pt->source,
		       100 * (pw.power_w - pt->watts) / pt->watts);
		assert_true(fabs(pw.power_w - pt->watts) <= 0.05 * pt->watts);
		ps_decision_fini(&d);
		ps_topo_free(t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
