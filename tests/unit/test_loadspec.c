// SPDX-License-Identifier: MIT
/* The load list parser: what it accepts, and that errors name the value. */
#include <errno.h>

#include "helpers.h"
#include "ps/loadspec.h"

static void test_good(void **state)
{
	double *u;
	char err[128];
	int n;

	(void)state;
	assert_int_equal(ps_load_parse("16x1.0", &u, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 16);
	assert_float_equal(u[0], 1.0, 0);
	assert_float_equal(u[15], 1.0, 0);
	free(u);
	assert_int_equal(ps_load_parse("4x0.3,2x1.0,0.5", &u, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 7);
	assert_float_equal(u[3], 0.3, 1e-12);
	assert_float_equal(u[4], 1.0, 0);
	assert_float_equal(u[6], 0.5, 0);
	free(u);
	assert_int_equal(ps_load_parse("1x.25", &u, &n, err, sizeof(err)), 0);
	assert_float_equal(u[0], 0.25, 0);
	free(u);
}

static void expect_bad(const char *s, const char *needle)
{
	double *u = NULL;
	char err[128] = "";
	int n = -1;

	assert_int_equal(ps_load_parse(s, &u, &n, err, sizeof(err)), -EINVAL);
	assert_null(u);
	if (!strstr(err, needle))
		fail_msg("error '%s' for '%s' does not name '%s'", err, s, needle);
}

static void test_bad(void **state)
{
	(void)state;
	expect_bad("", "empty");
	expect_bad("16x1.5", "'16x1.5': utilization must be in (0,1]");
	expect_bad("4x0", "'4x0'");
	expect_bad("4x0.3,", "''");
	expect_bad("4x0.3,,2x1", "''");
	expect_bad("0x0.5", "'0x0.5'");
	expect_bad("-2x0.5", "'-2x0.5'");
	expect_bad("x0.5", "'x0.5'");
	expect_bad("4x", "'4x'");
	expect_bad("4y0.3", "'4y0.3'");
	expect_bad("4x0.3.3", "'4x0.3.3'");
	expect_bad("4x1e-1", "'4x1e-1'");
	expect_bad("4xnan", "'4xnan'");
	expect_bad("4x 0.3", "'4x 0.3'");
	expect_bad("1000001x0.5", "'1000001x0.5'");
	expect_bad("600000x0.5,600000x0.5", "more than 1000000 tasks");
	expect_bad("99999999999999999999x0.5", "99999999999999999999");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
