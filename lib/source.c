// SPDX-License-Identifier: MIT
/*
 * DOC: resolving auto
 *
 * Reads a few sysfs attributes under a root path; see include/ps/source.h for
 * the rules. Sources of the attribute meanings: the kernel's
 * Documentation/ABI/testing/sysfs-class-power (type, online, status, scope)
 * and sysfs-platform_profile (low-power, cool, quiet, balanced,
 * balanced-performance, performance).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ps/source.h"

/* First line of ROOT/REL into buf without the newline; -1 if unreadable. */
static int read_attr(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	size_t n;

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	return 0;
}

static int resolve_profile(const char *root, enum ps_policy *out, char *why,
			   size_t whylen)
{
	char prof[64];

	if (read_attr(root, "sys/firmware/acpi/platform_profile", prof,
		      sizeof(prof)))
		return 0;
	if (!strcmp(prof, "low-power") || !strcmp(prof, "quiet") ||
	    !strcmp(prof, "cool")) {
		*out = PS_POLICY_POWER;
		snprintf(why, whylen, "platform_profile is %s", prof);
		return 1;
	}
	if (!strcmp(prof, "performance")) {
		*out = PS_POLICY_PERFORMANCE;
		snprintf(why, whylen, "platform_profile is performance");
		return 1;
	}
	return 0;
}

static int is_ac_type(const char *type)
{
	return !strcmp(type, "Mains") || !strncmp(type, "USB", 3);
}

int ps_source_resolve(const char *root, enum ps_policy *out, char *why,
		      size_t whylen)
{
	char rel[512], val[64], ac[128] = "", bat[128] = "";
	int have_battery = 0, discharging = 0, ac_online = 0;
	char dirpath[4096];
	struct dirent *e;
	DIR *dir;

	if (!root || !out)
		return -EINVAL;
	if (resolve_profile(root, out, why, whylen))
		return 0;

	snprintf(dirpath, sizeof(dirpath), "%s/sys/class/power_supply", root);
	dir = opendir(dirpath);
	while (dir && (e = readdir(dir))) {
		char type[64];

		if (e->d_name[0] == '.' || strlen(e->d_name) > 200)
			continue;
		snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/type", e->d_name);
		if (read_attr(root, rel, type, sizeof(type)))
			continue;
		if (is_ac_type(type)) {
			snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/online",
				 e->d_name);
			if (!read_attr(root, rel, val, sizeof(val)) && !strcmp(val, "1")) {
				ac_online = 1;
				snprintf(ac, sizeof(ac), "%.100s", e->d_name);
			}
		} else if (!strcmp(type, "Battery")) {
			/* a mouse's or headset's battery says scope Device */
			snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/scope",
				 e->d_name);
			if (!read_attr(root, rel, val, sizeof(val)) &&
			    !strcmp(val, "Device"))
				continue;
			have_battery = 1;
			snprintf(rel, sizeof(rel), "sys/class/power_supply/%s/status",
				 e->d_name);
			if (!read_attr(root, rel, val, sizeof(val)) &&
			    !strcmp(val, "Discharging") && !discharging) {
				discharging = 1;
				snprintf(bat, sizeof(bat), "%.100s", e->d_name);
			}
		}
	}
	if (dir)
		closedir(dir);

	if (ac_online) {
		*out = PS_POLICY_PERFORMANCE;
		snprintf(why, whylen, "on AC (%s online)", ac);
	} else if (discharging) {
		*out = PS_POLICY_POWER;
		snprintf(why, whylen, "on battery (%s discharging, no AC online)", bat);
	} else if (have_battery) {
		*out = PS_POLICY_PERFORMANCE;
		snprintf(why, whylen, "battery present but not discharging");
	} else {
		*out = PS_POLICY_PERFORMANCE;
		snprintf(why, whylen, "no battery found");
	}
	return 0;
}
