// SPDX-License-Identifier: MIT
/* auto over directory trees standing in for sysfs. */
#include <errno.h>

#include "helpers.h"
#include "ps/source.h"

static enum ps_policy resolve(const char *root, char *why, size_t len)
{
	enum ps_policy p = PS_POLICY_AUTO;

	assert_int_equal(ps_source_resolve(root, &p, why, len), 0);
	assert_true(p == PS_POLICY_POWER || p == PS_POLICY_PERFORMANCE);
	return p;
}

static void supply(const char *root, const char *name, const char *type,
		   const char *attr, const char *val)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/type", name);
	write_file(root, rel, type);
	snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/%s", name, attr);
	write_file(root, rel, val);
}

static void test_battery_discharging(void **state)
{
	char *root = make_tmpdir(), why[160];

	(void)state;
	supply(root, "AC", "Mains\n", "online", "0\n");
	supply(root, "BAT0", "Battery\n", "status", "Discharging\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_POWER);
	assert_non_null(strstr(why, "BAT0"));
	/* plug in: AC online wins */
	supply(root, "AC", "Mains\n", "online", "1\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	assert_non_null(strstr(why, "AC"));
	remove_tree(root);
	free(root);
}

static void test_no_battery(void **state)
{
	char *root = make_tmpdir(), why[160];

	(void)state;
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	assert_string_equal(why, "no battery found");
	/* a wireless mouse's battery is not the system's */
	supply(root, "hidpp_battery_0", "Battery\n", "status", "Discharging\n");
	write_file(root, "sys/class/power_supply/hidpp_battery_0/scope", "Device\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	assert_string_equal(why, "no battery found");
	remove_tree(root);
	free(root);
}

static void test_battery_charging_no_ac_entry(void **state)
{
	char *root = make_tmpdir(), why[160];

	(void)state;
	supply(root, "BAT1", "Battery\n", "status", "Full\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	/* USB-C power delivery counts as AC */
	supply(root, "BAT1", "Battery\n", "status", "Discharging\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_POWER);
	supply(root, "ucsi-source-psy-USBC000:001", "USB\n", "online", "1\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	remove_tree(root);
	free(root);
}

static void test_platform_profile(void **state)
{
	char *root = make_tmpdir(), why[160];

	(void)state;
	supply(root, "AC", "Mains\n", "online", "1\n");
	write_file(root, "sys/firmware/acpi/platform_profile", "low-power\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_POWER);
	assert_non_null(strstr(why, "low-power"));
	write_file(root, "sys/firmware/acpi/platform_profile", "balanced\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	assert_non_null(strstr(why, "AC"));
	supply(root, "AC", "Mains\n", "online", "0\n");
	supply(root, "BAT0", "Battery\n", "status", "Discharging\n");
	write_file(root, "sys/firmware/acpi/platform_profile", "performance\n");
	assert_int_equal(resolve(root, why, sizeof(why)), PS_POLICY_PERFORMANCE);
	remove_tree(root);
	free(root);
}

static void test_laptop_trees(void **state)
{
	char path[4096], why[160];

	(void)state;
	src_path(path, sizeof(path), "tests/sysfs/laptop-on-battery");
	assert_int_equal(resolve(path, why, sizeof(why)), PS_POLICY_POWER);
	src_path(path, sizeof(path), "tests/sysfs/laptop-on-ac");
	assert_int_equal(resolve(path, why, sizeof(why)), PS_POLICY_PERFORMANCE);
}

static void test_null_root(void **state)
{
	enum ps_policy p;
	char why[8];

	(void)state;
	assert_int_equal(ps_source_resolve(NULL, &p, why, sizeof(why)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_battery_discharging),
		cmocka_unit_test(test_no_battery),
		cmocka_unit_test(test_battery_charging_no_ac_entry),
		cmocka_unit_test(test_platform_profile),
		cmocka_unit_test(test_laptop_trees),
		cmocka_unit_test(test_null_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
