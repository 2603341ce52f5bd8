// SPDX-License-Identifier: MIT
/*
 * The model's arithmetic, checked against sums done by hand in the comments,
 * and the model file parser.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "ps/policy.h"
#include "ps/power.h"

/* pu 1/0, core 10/1, package 5/2, machine 3/3, SMT gain 0.5 */
static const char *const tiny_model =
	"# a model with round numbers\n"
	"name tiny\n"
	"smt_gain 0.5\n"
	"level pu 1 0\n"
	"level core 10 1   # trailing comment\n"
	"level package 5 2\n"
	"\n"
	"level machine 3 3\n";

static void eval(const char *spec, const double *dem, struct ps_power *out)
{
	struct ps_topo *t = load_topo(spec);
	struct ps_model m;
	char err[128];

	assert_int_equal(ps_model_parse(tiny_model, &m, err, sizeof(err)), 0);
	assert_int_equal(ps_power_eval(t, &m, dem, NULL, out), 0);
	ps_topo_free(t);
}

static void test_one_core_arithmetic(void **state)
{
	struct ps_power p;
	double d[2];

	(void)state;
	/* idle: core 1 + package 2 + machine 3 */
	d[0] = d[1] = 0;
	eval("pack:1 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 6.0, 1e-9);
	assert_float_equal(p.throughput, 1.0, 1e-12);
	assert_float_equal(p.energy_per_work, 0.0, 1e-12);

	/* one thread busy: pu 1 + core 10 + package 5 + machine 3 = 19 */
	d[0] = 1;
	eval("pack:1 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 19.0, 1e-9);
	assert_float_equal(p.work, 1.0, 1e-9);
	assert_float_equal(p.energy_per_work, 19.0, 1e-9);

	/* both siblings busy: each at (1 + 0.5) / 2 = 0.75; 2 + 10 + 5 + 3 */
	d[1] = 1;
	eval("pack:1 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 20.0, 1e-9);
	assert_float_equal(p.work, 1.5, 1e-9);
	assert_float_equal(p.throughput, 0.75, 1e-9);
	assert_float_equal(p.energy_per_work, 20.0 / 1.5, 1e-9);

	/* half busy: 0.5*1 + (0.5*10 + 0.5*1) + (0.5*5 + 0.5*2) + 3 = 12.5 */
	d[0] = 0.5;
	d[1] = 0;
	eval("pack:1 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 12.5, 1e-9);
	assert_float_equal(p.throughput, 1.0, 1e-9);
}

static void test_smt_fixed_point(void **state)
{
	struct ps_power p;
	double d[2] = { 0.3, 0.3 }, b[2];
	struct ps_topo *t = load_topo("pack:1 core:1 pu:2");
	struct ps_model m;
	char err[128];
	/*
	 * Each runs at s = 1 - 0.25 b (the sibling is busy b of the time), so
	 * b = 0.3 / s gives 0.25 b^2 - b + 0.3 = 0, b = 2 (1 - sqrt(0.7)).
	 */
	double want = 2 * (1 - sqrt(0.7));

	(void)state;
	assert_int_equal(ps_model_parse(tiny_model, &m, err, sizeof(err)), 0);
	assert_int_equal(ps_power_eval(t, &m, d, b, &p), 0);
	assert_float_equal(b[0], want, 1e-9);
	assert_float_equal(b[1], want, 1e-9);
	/* the work asked is delivered: the core has room */
	assert_float_equal(p.work, 0.6, 1e-9);
	assert_float_equal(p.throughput, 1.0, 1e-9);
	/* core busy 1 - (1-b)^2 */
	assert_float_equal(p.power_w,
			   2 * want * 1 +
				   (1 - (1 - want) * (1 - want)) * 9 + 1 +
				   (1 - (1 - want) * (1 - want)) * 3 + 2 + 3,
			   1e-9);
	ps_topo_free(t);
}

static void test_overload(void **state)
{
	struct ps_power p;
	double d[1] = { 3.0 };

	(void)state;
	/* three tasks' worth on one PU without SMT: busy 1, work 1 of 3 */
	eval("pack:1 core:1 pu:1", d, &p);
	assert_float_equal(p.work, 1.0, 1e-9);
	assert_float_equal(p.throughput, 1.0 / 3, 1e-9);
	d[0] = -1;
	{
		struct ps_topo *t = load_topo("pack:1 core:1 pu:1");
		struct ps_model m;
		char err[128];

		assert_int_equal(ps_model_parse(tiny_model, &m, err, sizeof(err)), 0);
		assert_int_equal(ps_power_eval(t, &m, d, NULL, &p), -EINVAL);
		ps_topo_free(t);
	}
}

/* Packages are independent: two idle packages cost twice the idle watts. */
static void test_two_packages(void **state)
{
	struct ps_power p;
	double d[4] = { 1, 0, 0, 0 };

	(void)state;
	/* busy pkg: pu 1 + core 10 + package 5; idle pkg: core 1 + package 2; machine 3 */
	eval("pack:2 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 16 + 3 + 3, 1e-9);
	/* machine busy 1 - (1-0.5)(1-0.5) = 0.75 with two half-busy packages */
	d[0] = 0.5;
	d[2] = 0.5;
	eval("pack:2 core:1 pu:2", d, &p);
	assert_float_equal(p.power_w, 2 * (0.5 + 5.5 + 3.5) + 3, 1e-9);
}

/*
 * The workspace prices a demand from the busy PUs up, on top of the idle
 * machine summed once. Two packages of two single-PU cores, tiny model:
 * idle = 4 cores x 1 + 2 packages x 2 + machine 3 = 11 W. One PU busy adds
 * its PU (1 - 0), its core (10 - 1) and its package (5 - 2), the machine
 * staying at 3: 24 W. One PU on each package: 11 + 2 x 13 = 37 W.
 */
static void test_workspace_arithmetic(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:2 pu:1");
	struct ps_power_ws *ws;
	struct ps_model m;
	struct ps_power p;
	double d[4] = { 0, 0, 0, 0 }, b[4];
	char err[128];

	(void)state;
	assert_int_equal(ps_model_parse(tiny_model, &m, err, sizeof(err)), 0);
	ws = ps_power_ws_new(t, &m);
	assert_non_null(ws);
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), 0);
	assert_float_equal(p.power_w, 11.0, 1e-9);
	d[1] = 1;
	assert_int_equal(ps_power_ws_eval(ws, d, b, &p), 0);
	assert_float_equal(p.power_w, 24.0, 1e-9);
	assert_float_equal(b[0], 0, 0);
	assert_float_equal(b[1], 1, 1e-12);
	d[3] = 1;
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), 0);
	assert_float_equal(p.power_w, 37.0, 1e-9);
	/* half busy on one PU: 11 + 0.5 x 13 */
	d[1] = 0;
	d[3] = 0.5;
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), 0);
	assert_float_equal(p.power_w, 17.5, 1e-9);
	assert_float_equal(p.work, 0.5, 1e-12);
	/* a bad demand is refused and leaves the workspace usable */
	d[2] = NAN;
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), -EINVAL);
	d[2] = -1;
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), -EINVAL);
	d[2] = 0;
	assert_int_equal(ps_power_ws_eval(ws, d, NULL, &p), 0);
	assert_float_equal(p.power_w, 17.5, 1e-9);
	ps_power_ws_free(ws);
	ps_topo_free(t);
}

/*
 * One workspace used for many demands in a row gives what a fresh one gives
 * for each: nothing of one evaluation (the touched domains, their idle
 * products, performance states) leaks into the next. Shipped models with
 * performance states, per-package frequency, coordinated idle and two CPU
 * kinds, on their machines; sparse, dense, overloaded and idle demands.
 */
static void test_workspace_reuse(void **state)
{
	static const struct { const char *model, *topo; } cases[] = {
		{ "xeon-e5-2680-2s", "pack:2 core:8 pu:2" },
		{ "xeon-scalable-2s", "pack:2 core:4 pu:2" },
		{ "laptop-i7-1260p", "hybrid-laptop-i7-1260p.xml" },
		{ "epyc-7313p-1s", "epyc-7313p-1s.xml" },
	};
	unsigned seed = 7;
	size_t c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char path[4096], err[128];
		struct ps_topo *t;
		struct ps_model m;
		struct ps_power_ws *ws;
		double *d, *b1, *b2;
		int it, i, P;

		if (strstr(cases[c].topo, ".xml"))
			topo_path(path, sizeof(path), cases[c].topo);
		else
			snprintf(path, sizeof(path), "%s", cases[c].topo);
		t = load_topo(path);
		assert_int_equal(ps_model_load(cases[c].model, &m, err, sizeof(err)), 0);
		ws = ps_power_ws_new(t, &m);
		assert_non_null(ws);
		P = t->nr_pus;
		d = calloc((size_t)P, sizeof(double));
		b1 = calloc((size_t)P, sizeof(double));
		b2 = calloc((size_t)P, sizeof(double));
		assert_non_null(d);
		assert_non_null(b1);
		assert_non_null(b2);
		for (it = 0; it < 400; it++) {
			/* busy share: 0, 5%, 30%, 100% of the PUs, some above 1 */
			double share = (double[]){ 0, 0.05, 0.3, 1.0 }[it % 4];
			struct ps_power a, w;

			for (i = 0; i < P; i++) {
				double r = rand_r(&seed) / (double)RAND_MAX;

				d[i] = rand_r(&seed) / (double)RAND_MAX < share ?
				       (r < 0.1 ? 1 + 10 * r : r) : 0;
			}
			assert_int_equal(ps_power_eval(t, &m, d, b1, &a), 0);
			assert_int_equal(ps_power_ws_eval(ws, d, b2, &w), 0);
			assert_float_equal(w.power_w, a.power_w, 1e-9 * a.power_w);
			assert_float_equal(w.work, a.work, 1e-9);
			assert_float_equal(w.demand, a.demand, 1e-9);
			for (i = 0; i < P; i++)
				assert_float_equal(b2[i], b1[i], 1e-12);
		}
		free(d);
		free(b1);
		free(b2);
		ps_power_ws_free(ws);
		ps_topo_free(t);
	}
}

static void test_seeds_saving(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_decision perf, pow;
	struct ps_power a, b;
	struct ps_model m;
	double u[16];
	char err[128];
	int i;

	(void)state;
	for (i = 0; i < 16; i++)
		u[i] = 1.0;
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	assert_int_equal(ps_decision_init(&perf, t, 16), 0);
	assert_int_equal(ps_decision_init(&pow, t, 16), 0);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_PERFORMANCE, u, 16, NULL, NULL, &perf), 0);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 16, NULL, NULL, &pow), 0);
	assert_int_equal(ps_power_eval(t, &m, perf.pu_load, NULL, &a), 0);
	assert_int_equal(ps_power_eval(t, &m, pow.pu_load, NULL, &b), 0);
	/* refit model (SPECpower R620), both at the top performance state
	 * (package-wide clock, busiest CPU at 1.0):
	 * performance 16 x 10.25 (cores) + 16 x 0.5 (threads) + 2 x 10.2
	 * (packages) + 42.5 (platform) = 234.9 W; power, one package:
	 * 8 x 10.25 + 8 x 0.1 (idle cores) + 16 x 0.5 + 10.2 + 9 (the idle
	 * package stays shallow: coordinated idle) + 42.5 = 152.5 W */
	assert_float_equal(a.power_w, 234.9, 1e-6);
	assert_float_equal(b.power_w, 152.5, 1e-6);
	assert_float_equal(b.throughput, 1.25 / 2, 1e-9);
	ps_decision_fini(&perf);
	ps_decision_fini(&pow);
	ps_topo_free(t);
}

static void expect_parse_error(const char *text, const char *needle)
{
	struct ps_model m;
	char err[256] = "";

	assert_int_equal(ps_model_parse(text, &m, err, sizeof(err)), -EINVAL);
	if (!strstr(err, needle))
		fail_msg("error '%s' does not name '%s'", err, needle);
}

static void test_model_errors(void **state)
{
	char big[700];

	(void)state;
	expect_parse_error("smt_gain 0.2\nlevel cpu 1 0\n", "line 2: unknown level 'cpu'");
	expect_parse_error("smt_gain 1.5\nlevel pu 1 0\n", "smt_gain '1.5'");
	expect_parse_error("smt_gain x\n", "line 1");
	expect_parse_error("smt_gain 0.2\nlevel core 1\n", "line 2: level core");
	expect_parse_error("smt_gain 0.2\nlevel core 1 -2\n", "-2");
	expect_parse_error("smt_gain 0.2\nlevel core 1 2 3\n", "line 2");
	expect_parse_error("smt_gain 0.2\nlevel core nan 2\n", "nan");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\nlevel core 2 2\n", "given twice");
	expect_parse_error("smt_gain 0.2\nwatts 3\n", "unknown statement 'watts'");
	expect_parse_error("level core 1 1\n", "no smt_gain");
	expect_parse_error("smt_gain 0.2\n", "no level");
	expect_parse_error("", "no smt_gain");
	/* model v2: kinds, pstates, frequency domains, coordinated idle */
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\npstate IntelAtom 1 2\n",
			   "line 3: unknown kind 'IntelAtom'");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\nkind IntelCore 1 -5 0.1\n",
			   "line 3: kind IntelCore needs CAPACITY (0..4] CORE_ACTIVE_W CORE_IDLE_W (watts >= 0), got '1 -5 0.1'");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\npstate all 0.5 3\npstate all 0.4 4\n",
			   "line 4: pstate all 0.4 4 is not above the previous");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\npstate all 0.5 3\npstate all 1 2\n",
			   "line 4: pstate all 1 2 is not above");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\npstate all 0.5 3\n",
			   "the last capacity is 0.5, not 1");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\nfreq_domain socket\n",
			   "line 3: freq_domain 'socket'");
	expect_parse_error("smt_gain 0.2\nlevel core 1 1\ncoordinated_idle package -1\n",
			   "line 3: coordinated_idle package needs");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	expect_parse_error(big, "line 1: longer than");
}

static void test_model_files(void **state)
{
	const char *const *names = ps_model_builtin_names();
	char path[] = "/tmp/ps-model-XXXXXX";
	struct ps_model m;
	char err[256];
	int fd, n = 0;

	(void)state;
	for (; *names; names++, n++) {
		assert_int_equal(ps_model_load(*names, &m, err, sizeof(err)), 0);
		assert_string_equal(m.name, *names);
		assert_true(m.smt_gain > 0 && m.smt_gain <= 0.3);
		if (m.nr_kinds)
			assert_true(m.kinds[0].active_w > m.kinds[0].idle_w);
		else
			assert_true(m.active_w[PS_LVL_CORE] > m.idle_w[PS_LVL_CORE]);
	}
	assert_true(n >= 2);
	assert_int_equal(ps_model_load("/nonexistent/x.model", &m, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.model"));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, tiny_model, strlen(tiny_model)), (ssize_t)strlen(tiny_model));
	close(fd);
	assert_int_equal(ps_model_load(path, &m, err, sizeof(err)), 0);
	assert_string_equal(m.name, "tiny");
	assert_float_equal(m.active_w[PS_LVL_CORE], 10, 0);
	assert_float_equal(m.idle_w[PS_LVL_PACKAGE], 2, 0);
	assert_float_equal(m.active_w[PS_LVL_L3], 0, 0);
	unlink(path);
}

/* A kind the topology lacks is named with its line; kinds it has pass. */
static void test_model_kinds_topology(void **state)
{
	const char *text = "smt_gain 0.2\nlevel core 1 1\n\nkind IntelAtom 0.6 1 0.1\n";
	char err[256], path[4096];
	struct ps_topo *t = load_topo("pack:1 core:4 pu:2"), *h;
	struct ps_model m;

	(void)state;
	assert_int_equal(ps_model_parse(text, &m, err, sizeof(err)), 0);
	assert_int_equal(ps_model_check(&m, t, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 4: kind 'IntelAtom' is not in the topology (it has: any)");
	topo_path(path, sizeof(path), "hybrid-laptop-i7-1260p.xml");
	h = load_topo(path);
	assert_int_equal(h->nr_kinds, 2);
	assert_string_equal(h->kinds[0].name, "IntelAtom");
	assert_int_equal(ps_model_check(&m, h, err, sizeof(err)), 0);
	/* capacity by kind: the model's for IntelAtom (PU 8 is an E-core),
	 * the default 1 for the most performant kind the model leaves out */
	assert_float_equal(ps_model_pu_capacity(&m, h, 8), 0.6, 1e-12);
	assert_float_equal(ps_model_pu_capacity(&m, h, 0), 1.0, 1e-12);
	ps_topo_free(t);
	ps_topo_free(h);
}

/*
 * Performance states chosen as schedutil, package-wide: one PU at 0.3 on
 * a 1-package, 2-core machine asks 1.25 x 0.3 = 0.375, so the 0.5 state;
 * the core runs half as fast, so it is busy 0.6 of the time at 3 W.
 * Coordinated idle: an idle package next to a busy one draws SHALLOW_W.
 */
static void test_pstates_and_coordinated_idle(void **state)
{
	const char *text = "smt_gain 0\nlevel core 8 0\nlevel package 0 10\n"
			   "pstate all 0.5 3\npstate all 1 8\nfreq_domain package\n"
			   "coordinated_idle package 4\n";
	struct ps_topo *t = load_topo("pack:2 core:2 pu:1");
	double d[4] = { 0.3, 0, 0, 0 }, b[4];
	struct ps_model m;
	struct ps_power p;
	char err[256];

	(void)state;
	assert_int_equal(ps_model_parse(text, &m, err, sizeof(err)), 0);
	assert_int_equal(ps_power_eval(t, &m, d, b, &p), 0);
	assert_float_equal(b[0], 0.6, 1e-12);
	/* core 0.6 x 3 W; package 0 idle 0.4 of the time while package 1 is
	 * idle too (10 W); package 1: idle, but deep only while package 0 is
	 * idle (0.4 x 10 + 0.6 x 4) */
	assert_float_equal(p.power_w, 0.6 * 3 + 0.4 * 10 + (0.4 * 10 + 0.6 * 4), 1e-9);
	assert_float_equal(p.throughput, 1.0, 1e-12);
	/* 0.5 asks 0.625: the top state, busy 0.5 at 8 W */
	d[0] = 0.5;
	assert_int_equal(ps_power_eval(t, &m, d, b, &p), 0);
	assert_float_equal(b[0], 0.5, 1e-12);
	ps_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_kinds_topology),
		cmocka_unit_test(test_pstates_and_coordinated_idle),
		cmocka_unit_test(test_one_core_arithmetic),
		cmocka_unit_test(test_smt_fixed_point),
		cmocka_unit_test(test_overload),
		cmocka_unit_test(test_two_packages),
		cmocka_unit_test(test_seeds_saving),
		cmocka_unit_test(test_workspace_arithmetic),
		cmocka_unit_test(test_workspace_reuse),
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_model_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
