// SPDX-License-Identifier: MIT
/*
 * Durations (issue 24 item 10): a bare number is seconds, as sleep(1),
 * timeout(1) and systemd take it, wherever a duration is parsed (sim -d,
 * -i and --snapshot, run and daemon -i, daemon.conf's interval, workload
 * periods and sizes, trace times); junk is still refused. And the load
 * list's errors name what is wrong with a count (item 7).
 */
#include <errno.h>
#include <math.h>

#include "helpers.h"
#include "ps/loadspec.h"
#include "ps/sim.h"

static void expect_secs(const char *s, double want)
{
	double d = -1;

	if (ps_duration_parse(s, &d))
		fail_msg("'%s' refused", s);
	if (fabs(d - want) > 1e-12 * want)
		fail_msg("'%s' is %g s, not %g s", s, d, want);
}

static void test_bare_seconds(void **state)
{
	(void)state;
	expect_secs("10", 10);
	expect_secs("0.5", 0.5);
	expect_secs(".25", 0.25);
	expect_secs("1.", 1);
	expect_secs("3600", 3600);
	expect_secs("10000000", 1e7);
	/* units as before */
	expect_secs("10s", 10);
	expect_secs("500ms", 0.5);
	expect_secs("2m", 120);
	expect_secs("1h", 3600);
	expect_secs("100ns", 1e-7);
}

static void test_junk(void **state)
{
	static const char *const junk[] = {
		"", "10x", "-1", "-1s", "+1", "1e999", "1e3", "1e3s", "0", "0s", "0.0",
		".", "..", "1.2.3", "inf", "nan", "0x10", " 10", "10 ", "10 s", "s",
		"ms", "10ss", "10sec", "10000001", "99999999999999999999",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		double d = -1;

		if (ps_duration_parse(junk[i], &d) != -EINVAL)
			fail_msg("'%s' accepted as %g s", junk[i], d);
	}
}

/* a periodic item's period and a Poisson item's size take bare seconds too */
static void test_workload_bare(void **state)
{
	struct ps_workload w;
	char err[256];

	(void)state;
	assert_int_equal(ps_workload_parse("periodic:2:0.5:0.01+poisson:100/s:0.002", &w, err,
					   sizeof(err)), 0);
	assert_int_equal(w.nitems, 2);
	assert_float_equal(w.items[0].period, 0.01, 1e-15);
	assert_float_equal(w.items[1].size, 0.002, 1e-15);
	ps_workload_free(&w);
}

static void expect_load_err(const char *s, const char *needle)
{
	double *u = NULL;
	char err[160] = "";
	int n = 0;

	assert_int_equal(ps_load_parse(s, &u, &n, err, sizeof(err)), -EINVAL);
	assert_null(u);
	if (!strstr(err, needle))
		fail_msg("error '%s' for '%s' does not say '%s'", err, s, needle);
}

static void test_load_counts(void **state)
{
	(void)state;
	expect_load_err("2000000x0.1", "'2000000x0.1': more than 1000000 tasks");
	expect_load_err("99999999999999999999x0.5", "more than 1000000 tasks");
	expect_load_err("0x0.3", "'0x0.3': a count of 0 tasks is not allowed");
	expect_load_err("4x0.3,0x1", "'0x1': a count of 0");
	expect_load_err("600000x0.5,600000x0.5", "more than 1000000 tasks in all");
	/* the rest as before */
	expect_load_err("4y0.3", "'4y0.3': expected COUNTxUTIL");
	expect_load_err("16x1.5", "utilization must be in (0,1]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_seconds),
		cmocka_unit_test(test_junk),
		cmocka_unit_test(test_workload_bare),
		cmocka_unit_test(test_load_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
