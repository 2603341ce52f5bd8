// SPDX-License-Identifier: MIT
/*
 * The randomized matrix: power chooses by the model, so on every topology
 * and with every shipped model, power's modeled watts are never above
 * performance's, and where the load fits under the target fill its modeled
 * throughput is not below performance's. 1,000 loads per topology and
 * model (1-64 tasks, utilizations in (0, 1]); a failure prints the case.
 */
#include <math.h>

#include "helpers.h"
#include "ps/policy.h"
#include "ps/power.h"

#define LOADS 1000
#define MAXT 64

static const char *const synthetic[] = {
	"pack:2 core:8 pu:2",
	"pack:4 numa:1 core:16 pu:2",
	"group:2 pack:2 core:4 pu:2",
};

/* lstopo XML fixtures under tests/topo/ */
static const char *const fixtures[] = {
	"epyc-7313p-1s.xml",
	"hybrid-laptop-i7-1260p.xml",
};

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

static void print_case(const char *topo, const char *model, const double *u,
		       int n)
{
	int i;

	fprintf(stderr, "case: --topology '%s' --model %s --load ", topo, model);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%.6f", i ? "," : "", u[i]);
	fprintf(stderr, "\n");
}

static void run_matrix(const char *spec, const char *label, int *cases,
		       int *fit_cases)
{
	struct ps_topo *t = load_topo(spec);
	struct ps_decision perf, pow;
	struct ps_policy_params p;
	const char *const *names;
	unsigned seed = 12345;
	double u[MAXT];

	assert_int_equal(ps_decision_init(&perf, t, MAXT), 0);
	assert_int_equal(ps_decision_init(&pow, t, MAXT), 0);
	for (names = ps_model_builtin_names(); *names; names++) {
		struct ps_model m;
		char err[256];
		int k;

		assert_int_equal(ps_model_load(*names, &m, err, sizeof(err)), 0);
		if (ps_model_check(&m, t, err, sizeof(err)))
			continue; /* a model of kinds this machine has not */
		ps_topo_set_smt_gain(t, m.smt_gain);
		ps_policy_params_default(&p);
		p.model = &m;
		for (k = 0; k < LOADS; k++) {
			struct ps_power a, b;
			int n = 1 + (int)(rnd(&seed) % MAXT), i, fits;
			int shape = (int)(rnd(&seed) % 4);

			for (i = 0; i < n; i++) {
				double x = (1 + rnd(&seed) % 1000) / 1000.0;

				/* light, mixed, heavy and CPU-bound loads */
				u[i] = shape == 0 ? x * 0.3 : shape == 1 ? x :
				       shape == 2 ? 0.5 + x / 2 : 1.0;
				if (u[i] <= 0)
					u[i] = 0.001;
			}
			assert_int_equal(ps_policy_decide(t, PS_POLICY_PERFORMANCE, u, n,
							  &p, NULL, &perf), 0);
			assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, n, &p,
							  NULL, &pow), 0);
			assert_int_equal(ps_power_eval(t, &m, perf.pu_load, NULL, &a), 0);
			assert_int_equal(ps_power_eval(t, &m, pow.pu_load, NULL, &b), 0);
			fits = !pow.overloaded;
			for (i = 0; i < n; i++)
				fits &= u[i] <= p.target_fill;
			if (b.power_w > a.power_w * (1 + 1e-9) ||
			    (fits && b.throughput < a.throughput - 1e-9)) {
				fprintf(stderr, "power %.3f W tp %.4f (%s), performance %.3f W tp %.4f\n",
					b.power_w, b.throughput, ps_cand_name(pow.chosen),
					a.power_w, a.throughput);
				print_case(label, *names, u, n);
				fail();
			}
			(*cases)++;
			*fit_cases += fits;
		}
	}
	ps_decision_fini(&perf);
	ps_decision_fini(&pow);
	ps_topo_free(t);
}

static void test_matrix(void **state)
{
	int cases = 0, fit = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(synthetic) / sizeof(synthetic[0]); i++)
		run_matrix(synthetic[i], synthetic[i], &cases, &fit);
	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		char path[4096];

		topo_path(path, sizeof(path), fixtures[i]);
		run_matrix(path, path, &cases, &fit);
	}
	printf("matrix: %d loads x models, %d of them fitting the target fill: "
	       "power <= performance in watts on all, throughput >= on the fitting\n",
	       cases, fit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
