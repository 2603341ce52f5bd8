// SPDX-License-Identifier: MIT
/* The one knob on several topologies: placement properties, not snapshots. */
#include <errno.h>
#include <math.h>

#include "helpers.h"
#include "ps/policy.h"
#include "ps/power.h"

static const char *const topologies[] = {
	"pack:2 core:8 pu:2",          /* the seeds' Xeon */
	"group:2 pack:2 core:4 pu:2",  /* s390-like books */
	"pack:4 numa:1 core:16 pu:2",  /* NUMA per package */
	"pack:1 core:4 pu:1",          /* laptop without SMT */
	"pack:2 die:2 l2:2 core:2 pu:4", /* dies, clusters, SMT4 */
};
#define NTOPO (int)(sizeof(topologies) / sizeof(topologies[0]))

struct fixture {
	struct ps_topo *t;
	struct ps_decision d;
	double util[4096];
};

static void decide(struct fixture *f, enum ps_policy p, double u, int n)
{
	int i;

	for (i = 0; i < n; i++)
		f->util[i] = u;
	assert_int_equal(ps_policy_decide(f->t, p, f->util, n, NULL, NULL, &f->d), 0);
}

static void setup(struct fixture *f, const char *spec)
{
	f->t = load_topo(spec);
	assert_int_equal(ps_decision_init(&f->d, f->t, 4096), 0);
}

static void teardown(struct fixture *f)
{
	ps_decision_fini(&f->d);
	ps_topo_free(f->t);
}

/* Every task sits on an allowed PU, and pu_load is the sum of its tasks. */
static void check_consistent(const struct fixture *f)
{
	double sum[4096] = { 0 };
	int i;

	for (i = 0; i < f->d.nr_tasks; i++) {
		int pu = f->d.task_pu[i];

		assert_true(pu >= 0 && pu < f->t->nr_pus);
		assert_true(f->d.allowed[pu]);
		sum[pu] += f->util[i];
	}
	for (i = 0; i < f->t->nr_pus; i++)
		assert_float_equal(sum[i], f->d.pu_load[i], 1e-9);
}

static int tasks_on_pu(const struct fixture *f, int pu)
{
	int i, n = 0;

	for (i = 0; i < f->d.nr_tasks; i++)
		n += f->d.task_pu[i] == pu;
	return n;
}

static void test_seeds_power_16(void **state)
{
	struct fixture f;
	int i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	decide(&f, PS_POLICY_POWER, 1.0, 16);
	check_consistent(&f);
	/* the 16 PUs of package 0, one task each: both siblings of 8 cores */
	for (i = 0; i < 32; i++) {
		assert_int_equal(tasks_on_pu(&f, i), f.t->pus[i].package == 0);
		assert_int_equal(f.d.allowed[i], f.t->pus[i].package == 0);
	}
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_int_equal(f.d.active[PS_LVL_CORE], 8);
	assert_int_equal(f.d.nr_allowed, 16);
	teardown(&f);
}

static void test_seeds_performance_16(void **state)
{
	struct fixture f;
	int per_pkg[2] = { 0 }, per_core[16] = { 0 }, i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	decide(&f, PS_POLICY_PERFORMANCE, 1.0, 16);
	check_consistent(&f);
	for (i = 0; i < 16; i++) {
		const struct ps_pu *pu = &f.t->pus[f.d.task_pu[i]];

		per_pkg[pu->package]++;
		per_core[pu->core]++;
	}
	assert_int_equal(per_pkg[0], 8);
	assert_int_equal(per_pkg[1], 8);
	for (i = 0; i < 16; i++)
		assert_int_equal(per_core[i], 1);
	assert_int_equal(f.d.nr_allowed, 32);
	assert_int_equal(f.d.active[PS_LVL_CORE], 16);
	teardown(&f);
}

static void test_light_load(void **state)
{
	struct fixture f;
	int i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	decide(&f, PS_POLICY_POWER, 0.3, 4);
	check_consistent(&f);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_true(f.d.active[PS_LVL_PU] <= 2);
	assert_true(f.d.nr_allowed <= 2);
	/* packed, no PU above the 0.8 target fill */
	for (i = 0; i < 32; i++)
		assert_true(f.d.pu_load[i] <= 0.8 + 1e-9);
	decide(&f, PS_POLICY_PERFORMANCE, 0.3, 4);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 2);
	assert_int_equal(f.d.active[PS_LVL_CORE], 4);
	teardown(&f);
}

/*
 * On every topology, for loads from 1 task to twice the PUs:
 * performance uses min(n, PUs) PUs and never puts a second task on a core
 * while another core is empty; power's PUs are a prefix of the pack order,
 * the fewest packages that hold them, and never two tasks at 1.0 on a PU.
 * With no SMT gain set (0), the capacity rule for partial tasks is off.
 */
static void test_all_topologies(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < NTOPO; k++) {
		struct fixture f;
		int n;

		setup(&f, topologies[k]);
		for (n = 1; n <= 2 * f.t->nr_pus; n++) {
			int pkgs = f.d.total[PS_LVL_PACKAGE], i, used;

			decide(&f, PS_POLICY_PERFORMANCE, 1.0, n);
			check_consistent(&f);
			pkgs = f.d.total[PS_LVL_PACKAGE];
			used = f.d.active[PS_LVL_PU];
			assert_int_equal(used, n < f.t->nr_pus ? n : f.t->nr_pus);
			if (n <= f.d.total[PS_LVL_CORE])
				assert_int_equal(f.d.active[PS_LVL_CORE], n);
			if (n >= pkgs)
				assert_int_equal(f.d.active[PS_LVL_PACKAGE], pkgs);

			decide(&f, PS_POLICY_POWER, 1.0, n);
			check_consistent(&f);
			if (n <= f.t->nr_pus) {
				int per_pkg = f.t->nr_pus / pkgs;

				for (i = 0; i < f.t->nr_pus; i++)
					assert_int_equal(tasks_on_pu(&f, f.t->pack_order[i]),
							 i < n);
				for (i = 0; i < n; i++)
					assert_true(f.d.allowed[f.t->pack_order[i]]);
				assert_int_equal(f.d.nr_allowed, n);
				assert_int_equal(f.d.active[PS_LVL_PACKAGE],
						 (n + per_pkg - 1) / per_pkg);
				assert_false(f.d.overloaded);
			} else {
				assert_true(f.d.overloaded);
				assert_int_equal(f.d.nr_allowed, f.t->nr_pus);
			}
		}
		teardown(&f);
	}
}

static void test_fill_headroom(void **state)
{
	struct fixture f;
	int i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	/* 10 tasks at 0.4: two per PU at the 0.8 fill, so 5 PUs */
	decide(&f, PS_POLICY_POWER, 0.4, 10);
	assert_int_equal(f.d.nr_allowed, 5);
	/* 8 x 0.1 sums to 0.8 in floating point only approximately: one PU */
	decide(&f, PS_POLICY_POWER, 0.1, 8);
	assert_int_equal(f.d.nr_allowed, 1);
	/* 0.81 is above the fill: a PU of its own each */
	decide(&f, PS_POLICY_POWER, 0.81, 3);
	assert_int_equal(f.d.nr_allowed, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(tasks_on_pu(&f, f.t->pack_order[i]), 1);
	teardown(&f);
}

/* Within the package a new core opens before a sibling is loaded. */
static void test_cores_before_siblings(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	ps_topo_set_smt_gain(f.t, 0.25);
	decide(&f, PS_POLICY_POWER, 1.0, 2);
	assert_int_not_equal(f.t->pus[f.d.task_pu[0]].core,
			     f.t->pus[f.d.task_pu[1]].core);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	decide(&f, PS_POLICY_POWER, 1.0, 9);
	assert_int_equal(f.d.active[PS_LVL_CORE], 8); /* the 9th is a sibling */
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	teardown(&f);
}

/*
 * Partial tasks share a core only within its throughput: at gain 0.25 two
 * busy siblings deliver 1.25 cores, so two 0.6 tasks (1.2) may share one
 * and two 0.7 tasks (1.4) may not; with no gain, not even 0.6 + 0.6.
 */
static void test_smt_capacity(void **state)
{
	struct fixture f;
	int per_core[16] = { 0 }, i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	ps_topo_set_smt_gain(f.t, 0.25);
	decide(&f, PS_POLICY_POWER, 0.7, 16);
	check_consistent(&f);
	for (i = 0; i < 16; i++)
		per_core[f.t->pus[f.d.task_pu[i]].core]++;
	for (i = 0; i < 16; i++)
		assert_int_equal(per_core[i], 1);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 2);
	decide(&f, PS_POLICY_POWER, 0.6, 16);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_int_equal(f.d.active[PS_LVL_CORE], 8);
	for (i = 0; i < 32; i++)
		assert_true(f.d.pu_load[i] <= 0.8 + 1e-9);
	ps_topo_set_smt_gain(f.t, 0.0);
	decide(&f, PS_POLICY_POWER, 0.6, 16);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 2);
	assert_int_equal(f.d.active[PS_LVL_CORE], 16);
	/* tasks at 1.0 take siblings as full slots whatever the gain */
	decide(&f, PS_POLICY_POWER, 1.0, 16);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_int_equal(f.d.active[PS_LVL_PU], 16);
	teardown(&f);
}

static void test_mixed_sizes(void **state)
{
	struct fixture f;
	int i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	/* 2 x 1.0 own PUs; 4 x 0.3 pack into two more */
	for (i = 0; i < 4; i++)
		f.util[i] = 0.3;
	f.util[4] = f.util[5] = 1.0;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 6, NULL,
					  NULL, &f.d), 0);
	assert_int_equal(f.d.nr_allowed, 4);
	assert_int_equal(f.d.task_pu[4] != f.d.task_pu[5], 1);
	for (i = 0; i < 4; i++)
		assert_int_not_equal(f.d.task_pu[i], f.d.task_pu[4]);
	teardown(&f);
}

static void test_hysteresis(void **state)
{
	struct ps_decision a, b;
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_policy_params p;
	double u[20];
	int i;

	(void)state;
	ps_policy_params_default(&p);
	assert_int_equal(p.shrink_after, 3);
	assert_int_equal(ps_decision_init(&a, t, 20), 0);
	assert_int_equal(ps_decision_init(&b, t, 20), 0);
	for (i = 0; i < 20; i++)
		u[i] = 1.0;
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 20, &p, NULL, &a), 0);
	assert_int_equal(a.nr_allowed, 20);
	/* load drops to 4: kept at 20 for two intervals, shrinks on the third */
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 4, &p, &a, &b), 0);
	assert_int_equal(b.nr_allowed, 20);
	assert_int_equal(b.nr_needed, 4);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 4, &p, &b, &a), 0);
	assert_int_equal(a.nr_allowed, 20);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 4, &p, &a, &b), 0);
	assert_int_equal(b.nr_allowed, 4);
	/* growth is immediate */
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 18, &p, &b, &a), 0);
	assert_int_equal(a.nr_allowed, 18);
	/* a rise in the middle of a low streak resets it */
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 2, &p, &a, &b), 0);
	assert_int_equal(b.nr_allowed, 18);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 18, &p, &b, &a), 0);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, u, 2, &p, &a, &b), 0);
	assert_int_equal(b.nr_allowed, 18);
	assert_int_equal(b.low_streak, 1);
	ps_decision_fini(&a);
	ps_decision_fini(&b);
	/* after an overload (40 full tasks on 32 PUs: every PU allowed) the
	 * set does not drop at once either: all 32 for two more intervals */
	assert_int_equal(ps_decision_init(&a, t, 40), 0);
	assert_int_equal(ps_decision_init(&b, t, 40), 0);
	{
		double big[40];

		for (i = 0; i < 40; i++)
			big[i] = 1.0;
		assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, big, 40, &p, NULL, &a), 0);
		assert_true(a.overloaded);
		assert_int_equal(a.nr_allowed, 32);
		assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, big, 2, &p, &a, &b), 0);
		assert_int_equal(b.nr_allowed, 32);
		assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, big, 2, &p, &b, &a), 0);
		assert_int_equal(a.nr_allowed, 32);
		assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, big, 2, &p, &a, &b), 0);
		assert_int_equal(b.nr_allowed, 2);
	}
	ps_decision_fini(&a);
	ps_decision_fini(&b);
	ps_topo_free(t);
}

static void test_deterministic(void **state)
{
	struct fixture f;
	int first[64], i, k;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	for (k = 0; k < 2; k++) {
		for (i = 0; i < 64; i++)
			f.util[i] = 0.05 + (i * 37 % 19) / 20.0;
		assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 64,
						  NULL, NULL, &f.d), 0);
		check_consistent(&f);
		for (i = 0; i < 64; i++) {
			if (k == 0)
				first[i] = f.d.task_pu[i];
			else
				assert_int_equal(first[i], f.d.task_pu[i]);
		}
	}
	teardown(&f);
}

static void test_no_tasks(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	decide(&f, PS_POLICY_POWER, 1.0, 0);
	assert_int_equal(f.d.nr_allowed, 1); /* never an empty set */
	assert_int_equal(f.d.active[PS_LVL_PU], 0);
	teardown(&f);
}

static void test_bad_input(void **state)
{
	struct fixture f;
	struct ps_policy_params p;
	enum ps_policy pol;

	(void)state;
	setup(&f, "pack:1 core:2 pu:2");
	f.util[0] = 1.5;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 1, NULL,
					  NULL, &f.d), -EINVAL);
	f.util[0] = 0.0;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_PERFORMANCE, f.util, 1,
					  NULL, NULL, &f.d), -EINVAL);
	f.util[0] = NAN;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 1, NULL,
					  NULL, &f.d), -EINVAL);
	f.util[0] = 0.5;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_AUTO, f.util, 1, NULL,
					  NULL, &f.d), -EINVAL);
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 5000,
					  NULL, NULL, &f.d), -EINVAL);
	ps_policy_params_default(&p);
	p.target_fill = 1.2;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 1, &p,
					  NULL, &f.d), -EINVAL);
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 1, NULL,
					  &f.d, &f.d), -EINVAL);
	assert_int_equal(ps_policy_parse("powersave", &pol), -EINVAL);
	assert_int_equal(ps_policy_parse("", &pol), -EINVAL);
	assert_int_equal(ps_policy_parse("auto", &pol), 0);
	assert_int_equal(pol, PS_POLICY_AUTO);
	teardown(&f);
}

/* Power by the model: the cases the issue names, checked by reasoning. */
static void decide_m(struct fixture *f, enum ps_policy p, const struct ps_model *m,
		     double u, int n)
{
	struct ps_policy_params par;
	int i;

	ps_policy_params_default(&par);
	par.model = m;
	for (i = 0; i < n; i++)
		f->util[i] = u;
	assert_int_equal(ps_policy_decide(f->t, p, f->util, n, &par, NULL, &f->d), 0);
}

static void test_model_choice(void **state)
{
	struct ps_model m;
	struct fixture f;
	char err[256], path[4096];
	int i;

	(void)state;
	/* 2 x 0.3 on two cores: time-sharing one PU keeps it busy 0.6 and
	 * the package busy 0.6; two cores overlap (package busy 0.51), so
	 * generic's 8 W package makes two PUs the cheaper */
	setup(&f, "pack:1 core:2 pu:1");
	assert_int_equal(ps_model_load("generic", &m, err, sizeof(err)), 0);
	decide_m(&f, PS_POLICY_POWER, &m, 0.3, 2);
	check_consistent(&f);
	assert_int_not_equal(f.d.task_pu[0], f.d.task_pu[1]);
	teardown(&f);

	/* the seeds' machine and model: 16 CPU-bound threads fill the 16 PUs
	 * of one package; 2 of them take the lowest watts, which is the two
	 * siblings of one core (a sibling is a full slot): one core's 10.25 W
	 * saved against 1.25 cores of work instead of 2 */
	setup(&f, "pack:2 core:8 pu:2");
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_POWER, &m, 1.0, 16);
	check_consistent(&f);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_int_equal(f.d.active[PS_LVL_PU], 16);
	for (i = 0; i < 16; i++)
		assert_int_equal(tasks_on_pu(&f, f.d.task_pu[i]), 1);
	decide_m(&f, PS_POLICY_POWER, &m, 1.0, 2);
	assert_int_equal(f.t->pus[f.d.task_pu[0]].core, f.t->pus[f.d.task_pu[1]].core);
	assert_int_not_equal(f.d.task_pu[0], f.d.task_pu[1]);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	teardown(&f);

	/* the hybrid laptop: 4 x 0.2 on E-cores under power, on P-cores one
	 * per core under performance; 8 CPU-bound: the 4 P-cores first */
	setup(&f, topo_path(path, sizeof(path), "hybrid-laptop-i7-1260p.xml"));
	assert_int_equal(ps_model_load("laptop-i7-1260p", &m, err, sizeof(err)), 0);
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_POWER, &m, 0.2, 4);
	for (i = 0; i < 4; i++)
		assert_string_equal(f.t->kinds[f.t->pus[f.d.task_pu[i]].kind].name, "IntelAtom");
	decide_m(&f, PS_POLICY_PERFORMANCE, &m, 0.2, 4);
	for (i = 0; i < 4; i++) {
		assert_string_equal(f.t->kinds[f.t->pus[f.d.task_pu[i]].kind].name, "IntelCore");
		assert_int_equal(tasks_on_pu(&f, f.d.task_pu[i]), 1);
	}
	assert_int_equal(f.d.active[PS_LVL_CORE], 4);
	decide_m(&f, PS_POLICY_PERFORMANCE, &m, 1.0, 8);
	for (i = 0; i < 8; i += 2) /* PUs 0, 2, 4, 6: each P-core's first */
		assert_int_equal(tasks_on_pu(&f, i), 1);
	teardown(&f);
}

/*
 * Near-ties (PS_KEEP_MARGIN). 16 x 0.22 on the seeds' machine and model:
 * one package (16 PUs, both siblings of 8 cores: one-per-pu, 78.45 W) is
 * the cheapest, 1.4% under performance's two (79.55 W). With one-per-pu
 * as the previous interval's placement, it stays. With performance before,
 * one-per-pu is taken: performance's placement is never held by the
 * margin (at light load every saving is under 2%, and power stayed on
 * performance's prefix for good: 32 x 0.1 in the guest, issue 12).
 * Whatever the previous choice, the watts taken are never above
 * performance's nor 2% above the best, and every task is served in full.
 */
static void test_keep_margin(void **state)
{
	struct ps_policy_params par;
	struct ps_decision prev;
	struct ps_power pw, perf;
	struct ps_model m;
	struct fixture f;
	char err[256];
	double best_w;
	int c, first, i;

	(void)state;
	setup(&f, "pack:2 core:8 pu:2");
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	assert_int_equal(ps_decision_init(&prev, f.t, 64), 0);
	ps_policy_params_default(&par);
	par.model = &m;
	for (i = 0; i < 16; i++)
		f.util[i] = 0.22;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_PERFORMANCE, f.util, 16, &par, NULL,
					  &f.d), 0);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &perf), 0);
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, NULL, &f.d), 0);
	first = f.d.chosen;
	assert_int_equal(first, PS_CAND_ONE_PACK);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pw), 0);
	best_w = pw.power_w;
	assert_true(best_w < perf.power_w && best_w > perf.power_w * (1 - PS_KEEP_MARGIN));
	/* its own previous choice: the same again */
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, NULL, &prev), 0);
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, &prev, &f.d), 0);
	assert_int_equal(f.d.chosen, first);
	/* performance's placement before: not held, one package */
	prev.chosen = PS_CAND_PERFORMANCE;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, &prev, &f.d), 0);
	assert_int_equal(f.d.chosen, first);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	/* any previous choice: within the margin, never above performance */
	for (c = 0; c < PS_CAND_COUNT; c++) {
		prev.chosen = c;
		assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, &prev, &f.d), 0);
		check_consistent(&f);
		assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pw), 0);
		assert_true(pw.power_w <= best_w / (1 - PS_KEEP_MARGIN) + 1e-9);
		assert_true(pw.power_w <= perf.power_w + 1e-9);
		assert_true(pw.throughput >= 1 - 1e-9);
		assert_true(f.d.chosen == c || f.d.chosen == first);
	}
	/* a saving over the margin is taken: pack (FFD onto fewer cores,
	 * both siblings, at a higher package clock) costs ~28% more here */
	prev.chosen = PS_CAND_PACK;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 16, &par, &prev, &f.d), 0);
	assert_int_equal(f.d.chosen, first);
	/* the margin is a share of what a placement adds to the idle
	 * machine (54.1 W here), not of its total: 25 x 0.108 one a PU costs
	 * 75.97 W, the low-clock packing 74.86 W, 1.5% less (under 2% of the
	 * total, which held one-per-pu for good in the guest) and 5% of what
	 * one-per-pu adds to idle: taken */
	for (i = 0; i < 25; i++)
		f.util[i] = 0.108;
	prev.chosen = PS_CAND_ONE_PACK;
	assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 25, &par, &prev, &f.d), 0);
	assert_int_equal(f.d.chosen, PS_CAND_PACK_LOW);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	ps_decision_fini(&prev);
	teardown(&f);
}

/*
 * When nothing saves power the choice is performance's own placement, and
 * power then allows every PU, as performance does. 20 x 0.3 on the seeds'
 * machine: 16 cores at the lowest clock, 4 of them doubled (89.5 W), beat
 * one task per PU along the pack order (8 cores doubled: throughput 0.94
 * against 0.97, it does not serve) and every packing onto fewer cores
 * (the package-wide clock rises). 32 x 0.3 on four NUMA nodes was such a
 * case (restricted to performance's 32 PUs, the sim's kernel drew 3.0%
 * more than performance) until the low-clock packing: one task a core on
 * two nodes, 1.8% under performance by the model. 16 x 0.3 on the seeds'
 * machine is a tie: the low-clock packing places one task a core on both
 * packages, as performance does, and a tie goes to the pack order (24
 * PUs: package 0 whole, the first thread of package 1's cores). 16 x 0.22
 * (test_keep_margin) packs: its set stays 16.
 */
static void test_performance_choice_allows_all(void **state)
{
	struct ps_model m;
	struct fixture f;
	struct ps_power pw, pf;
	char err[256];
	int i;

	(void)state;
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	setup(&f, "pack:2 core:8 pu:2");
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_POWER, &m, 0.3, 20);
	check_consistent(&f);
	assert_int_equal(f.d.chosen, PS_CAND_PERFORMANCE);
	assert_int_equal(f.d.nr_allowed, 32);
	for (i = 0; i < 32; i++)
		assert_true(f.d.allowed[i]);
	assert_int_equal(f.d.nr_needed, 20);
	/* the tie: performance's watts, a smaller set */
	decide_m(&f, PS_POLICY_PERFORMANCE, &m, 0.3, 16);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pf), 0);
	decide_m(&f, PS_POLICY_POWER, &m, 0.3, 16);
	check_consistent(&f);
	assert_int_equal(f.d.chosen, PS_CAND_PACK_LOW);
	assert_int_equal(f.d.nr_allowed, 24);
	assert_int_equal(f.d.active[PS_LVL_CORE], 16);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pw), 0);
	assert_true(fabs(pw.power_w - pf.power_w) < 1e-6 * pf.power_w);
	teardown(&f);

	setup(&f, "pack:4 numa:1 core:16 pu:2");
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_PERFORMANCE, &m, 0.3, 32);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pf), 0);
	decide_m(&f, PS_POLICY_POWER, &m, 0.3, 32);
	check_consistent(&f);
	assert_int_equal(f.d.chosen, PS_CAND_PACK_LOW);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 2);
	assert_int_equal(f.d.active[PS_LVL_CORE], 32);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pw), 0);
	assert_true(pw.power_w < pf.power_w * 0.99);
	assert_true(pw.throughput >= pf.throughput - 1e-9);
	teardown(&f);

	setup(&f, "pack:2 core:8 pu:2");
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_POWER, &m, 0.22, 16);
	assert_int_equal(f.d.chosen, PS_CAND_ONE_PACK);
	assert_int_equal(f.d.nr_allowed, 16);
	teardown(&f);
}

/*
 * A pack-order set that ends on a second thread takes the group's other
 * second threads, and nothing after them. tests/topo/partial-smt-1x8.xml:
 * one package of 8 cores, the second thread of cores 4-7 offline (made by
 * `lstopo-no-graphics -i "pack:1 core:8 pu:2" --restrict 0x000055ff --of
 * xml`): the pack order is 0, 2, 4, 6, 1, 3, 5, 7, then the single-thread
 * cores. 6 x 0.4 goes one a PU on the first six; the set is cores 0-3
 * whole (8 PUs). The first version of the rule ran on to the end of the
 * package (12 PUs: 4 idle cores the model never priced; found in review).
 */
static void test_whole_siblings(void **state)
{
	struct ps_model m;
	struct fixture f;
	char err[256], path[4096];
	int i;

	(void)state;
	setup(&f, topo_path(path, sizeof(path), "partial-smt-1x8.xml"));
	assert_int_equal(f.t->nr_pus, 12);
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	decide_m(&f, PS_POLICY_POWER, &m, 0.4, 6);
	check_consistent(&f);
	assert_int_equal(f.d.chosen, PS_CAND_ONE_PACK);
	assert_int_equal(f.d.nr_needed, 6);
	assert_int_equal(f.d.nr_allowed, 8);
	for (i = 0; i < 12; i++)
		assert_int_equal(f.d.allowed[i], i < 8);
	teardown(&f);
}

/*
 * Packing at a low clock. 32 x 0.1 on the seeds' machine (package-wide
 * clock, states at 0.444, 0.667 and 1.0 of 2.7 GHz): one task a PU costs
 * 78.2 W; the pack order at the fill 0.8 puts 8 tasks on each of 4 PUs,
 * and the package's clock goes to the top (97.4 W). Within the lowest
 * state's reach (0.444 / 1.25 = 0.355 a PU; a core's two threads deliver
 * 0.444 x 1.25, so 0.444 between them after the headroom) four tasks go
 * to a core, all 32 on package 0's 16 PUs at the lowest clock: 77.0 W,
 * at full throughput. Live then read the same load as 16 tasks of 0.2 (threads
 * under 0.1 are pooled), which chose the same 16 PUs: plan and live
 * disagreed by 16 PUs before (issue 12's 32 x 10%).
 */
static void test_pack_low_clock(void **state)
{
	struct ps_model m;
	struct fixture f;
	struct ps_power pw, one;
	char err[256];
	int i, c;

	(void)state;
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	setup(&f, "pack:2 core:8 pu:2");
	assert_true(fabs(ps_model_state_reach(&m, f.t, 0) - 0.444 / 1.25) < 1e-12);
	assert_true(fabs(ps_model_state_reach(&m, f.t, 1) - 0.667 / 1.25) < 1e-12);
	assert_true(ps_model_state_reach(&m, f.t, 2) < 0); /* the top state */
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	/* one task a PU, priced by hand: the candidate it must beat */
	memset(f.d.pu_load, 0, sizeof(double) * 32);
	for (i = 0; i < 32; i++)
		f.d.pu_load[i] = 0.1;
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &one), 0);
	decide_m(&f, PS_POLICY_POWER, &m, 0.1, 32);
	check_consistent(&f);
	assert_int_equal(f.d.chosen, PS_CAND_PACK_LOW);
	assert_int_equal(f.d.nr_allowed, 16);
	assert_int_equal(f.d.active[PS_LVL_PACKAGE], 1);
	for (c = 0; c < 16; c += 2) /* each core within the lowest clock's reach */
		assert_true(f.d.pu_load[c] + f.d.pu_load[c + 1] <= 0.444 + 1e-9);
	assert_int_equal(ps_power_eval(f.t, &m, f.d.pu_load, NULL, &pw), 0);
	assert_true(pw.power_w < one.power_w - 1.0);
	assert_true(pw.throughput >= 1 - 1e-9);
	teardown(&f);

	/* no performance states (the generic model): no such candidate */
	assert_int_equal(ps_model_load("generic", &m, err, sizeof(err)), 0);
	setup(&f, "pack:2 core:8 pu:2");
	assert_true(ps_model_state_reach(&m, f.t, 0) < 0);
	teardown(&f);
}

/*
 * Found by the guest's faults scenario (full /run) when the rule above
 * first took every tie: 400 threads born at once read as load that does
 * not fit (performance, every PU), then went idle. An idle machine
 * prices every candidate alike, and performance, the previous choice,
 * was kept on the tie: every PU for good, the threads never confined.
 * On a tie the set is performance's own few PUs and shrinks after the
 * hysteresis, as before the rule.
 */
static void test_idle_after_overload_shrinks(void **state)
{
	struct ps_policy_params par;
	struct ps_decision d[2];
	struct ps_model m;
	struct fixture f;
	char err[256];
	int i, k, cur = 0, n;

	(void)state;
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	setup(&f, "pack:2 core:8 pu:2");
	ps_topo_set_smt_gain(f.t, m.smt_gain);
	ps_policy_params_default(&par);
	par.model = &m;
	for (n = 0; n <= 2; n += 2) {
		assert_int_equal(ps_decision_init(&d[0], f.t, 64), 0);
		assert_int_equal(ps_decision_init(&d[1], f.t, 64), 0);
		for (i = 0; i < 64; i++)
			f.util[i] = 1.0;
		assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, 64, &par,
						  NULL, &d[cur]), 0);
		assert_int_equal(d[cur].chosen, PS_CAND_PERFORMANCE);
		assert_int_equal(d[cur].nr_allowed, 32);
		for (i = 0; i < n; i++)
			f.util[i] = 0.01;
		for (k = 0; k < par.shrink_after + 2; k++) {
			assert_int_equal(ps_policy_decide(f.t, PS_POLICY_POWER, f.util, n, &par,
							  &d[cur], &d[!cur]), 0);
			cur = !cur;
		}
		assert_true(d[cur].nr_allowed <= (n ? n : 1));
		ps_decision_fini(&d[0]);
		ps_decision_fini(&d[1]);
	}
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds_power_16),
		cmocka_unit_test(test_seeds_performance_16),
		cmocka_unit_test(test_light_load),
		cmocka_unit_test(test_all_topologies),
		cmocka_unit_test(test_fill_headroom),
		cmocka_unit_test(test_cores_before_siblings),
		cmocka_unit_test(test_smt_capacity),
		cmocka_unit_test(test_mixed_sizes),
		cmocka_unit_test(test_hysteresis),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_no_tasks),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_model_choice),
		cmocka_unit_test(test_keep_margin),
		cmocka_unit_test(test_performance_choice_allows_all),
		cmocka_unit_test(test_pack_low_clock),
		cmocka_unit_test(test_whole_siblings),
		cmocka_unit_test(test_idle_after_overload_shrinks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
