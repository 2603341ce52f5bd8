// SPDX-License-Identifier: MIT
/* The calibration fit and the RAPL counters (a directory tree stands in
 * for /sys here: a parsing test; the CLI test runs real threads). */
#include <errno.h>
#include <math.h>

#include "helpers.h"
#include "ps/calibrate.h"

/* Points from W = 5 + 2 p + 1.5 c + 0.25 t recover the law exactly. */
static void test_fit_recovers_law(void **state)
{
	struct ps_calib_point pts[6] = {
		{ "idle", 0, 0, 0, 1, 0, 0 }, { "a", 1, 1, 1, 2, 0, 0 },
		{ "b", 1, 1, 2, 1, 0, 0 },    { "c", 1, 2, 2, 1, 0, 0 },
		{ "d", 2, 2, 2, 1, 0, 0 },    { "e", 2, 4, 8, 3, 0, 0 },
	};
	struct ps_calib_fit fit;
	char text[4096], err[256];
	struct ps_model m;
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		pts[i].joules = pts[i].seconds * (5 + 2 * pts[i].packages +
						  1.5 * pts[i].cores + 0.25 * pts[i].threads);
	assert_int_equal(ps_calib_fit(pts, 6, &fit), 0);
	assert_float_equal(fit.idle_w, 5, 1e-9);
	assert_float_equal(fit.pkg_w, 2, 1e-9);
	assert_float_equal(fit.core_w, 1.5, 1e-9);
	assert_float_equal(fit.thread_w, 0.25, 1e-9);
	assert_true(fit.rms_w < 1e-9);
	assert_int_equal(ps_calib_model(&fit, 2, 4, 8, -1, "test", text, sizeof(text)), 0);
	assert_int_equal(ps_model_parse(text, &m, err, sizeof(err)), 0);
	assert_float_equal(m.idle_w[PS_LVL_PACKAGE], 2.5, 1e-3);
	assert_float_equal(m.active_w[PS_LVL_PACKAGE], 4.5, 1e-3);
	assert_float_equal(m.smt_gain, 0.25, 0); /* the estimate, none measured */
	assert_int_equal(m.fits[0], 2);
}

/*
 * One thread per core on a one-package machine: threads move with cores
 * and packages with "any thread", so those columns are left out (0) and the
 * rest fits; a noisy point shows as its residual.
 */
static void test_fit_degenerate_columns(void **state)
{
	struct ps_calib_point pts[4] = {
		{ "idle", 0, 0, 0, 1, 3, 0 }, { "1", 1, 1, 1, 1, 7, 0 },
		{ "2", 1, 2, 2, 1, 11, 0 },   { "4", 1, 4, 4, 1, 18.5, 0 },
	};
	struct ps_calib_fit fit;

	(void)state;
	assert_int_equal(ps_calib_fit(pts, 4, &fit), 0);
	assert_float_equal(fit.thread_w, 0, 0);
	assert_true(fit.rms_w > 0.01); /* 7, 11, 18.5 are not on one line */
	assert_int_equal(fit.clamped, 0);
	assert_float_equal(pts[0].residual_w + pts[1].residual_w + pts[2].residual_w +
			   pts[3].residual_w, 0, 1e-9); /* least squares with a constant */
	assert_int_equal(ps_calib_fit(pts, 1, &fit), -EINVAL);
	pts[1].seconds = 0;
	assert_int_equal(ps_calib_fit(pts, 4, &fit), -EINVAL);
}

static void test_rapl_counters(void **state)
{
	char *dir = make_tmpdir();
	struct ps_rapl r;
	uint64_t uj[PS_RAPL_MAX];

	(void)state;
	assert_int_equal(ps_rapl_find(dir, &r), -ENOENT);
	write_file(dir, "sys/class/powercap/intel-rapl:1/name", "package-1\n");
	write_file(dir, "sys/class/powercap/intel-rapl:1/energy_uj", "200\n");
	write_file(dir, "sys/class/powercap/intel-rapl:0/name", "package-0\n");
	write_file(dir, "sys/class/powercap/intel-rapl:0/energy_uj", "100\n");
	write_file(dir, "sys/class/powercap/intel-rapl:0/max_energy_range_uj", "1000\n");
	write_file(dir, "sys/class/powercap/intel-rapl:0:0/name", "core\n");
	write_file(dir, "sys/class/powercap/intel-rapl:0:0/energy_uj", "7\n");
	write_file(dir, "sys/class/powercap/intel-rapl:2/name", "psys\n");
	write_file(dir, "sys/class/powercap/intel-rapl:2/energy_uj", "9\n");
	assert_int_equal(ps_rapl_find(dir, &r), 0);
	assert_int_equal(r.n, 2); /* the packages, in order; no subzone, no psys */
	assert_int_equal(ps_rapl_read(&r, uj), 0);
	assert_int_equal(uj[0], 100);
	assert_int_equal(uj[1], 200);
	assert_int_equal(r.max_uj[0], 1000);
	assert_int_equal(r.max_uj[1], 0);
	/* across the wrap: 900 -> 100 with a range of 1000 is 201 uJ */
	assert_float_equal(ps_rapl_joules(900, 100, 1000), 201e-6, 1e-15);
	assert_float_equal(ps_rapl_joules(100, 900, 1000), 800e-6, 1e-15);
	assert_float_equal(ps_rapl_joules(900, 100, 0), 0, 0);
	write_file(dir, "sys/class/powercap/intel-rapl:1/energy_uj", "x\n");
	assert_int_equal(ps_rapl_read(&r, uj), -EIO);
	remove_tree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_recovers_law),
		cmocka_unit_test(test_fit_degenerate_columns),
		cmocka_unit_test(test_rapl_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
