// SPDX-License-Identifier: MIT
/* power-profiles-daemon: what each profile means for auto, and no bus. */
#include "helpers.h"

#include <stdlib.h>

#include "ps/ppd.h"

static void test_map(void **state)
{
	enum ps_policy p = PS_POLICY_AUTO;

	(void)state;
	assert_int_equal(ps_ppd_map("power-saver", &p), 1);
	assert_int_equal(p, PS_POLICY_POWER);
	assert_int_equal(ps_ppd_map("performance", &p), 1);
	assert_int_equal(p, PS_POLICY_PERFORMANCE);
	p = PS_POLICY_AUTO;
	/* balanced, none, and what a later daemon may add fall through */
	assert_int_equal(ps_ppd_map("balanced", &p), 0);
	assert_int_equal(ps_ppd_map("", &p), 0);
	assert_int_equal(ps_ppd_map("Performance", &p), 0);
	assert_int_equal(ps_ppd_map("low-power", &p), 0);
	assert_int_equal(p, PS_POLICY_AUTO);
}

/* a system bus that is not there: an error, no connection, no crash */
static void test_no_bus(void **state)
{
	struct ps_ppd *p = (struct ps_ppd *)1;

	(void)state;
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/ps-test-bus", 1);
	assert_true(ps_ppd_open(&p) < 0);
	assert_null(p);
	ps_ppd_close(NULL);
	unsetenv("DBUS_SYSTEM_BUS_ADDRESS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_no_bus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
