// SPDX-License-Identifier: MIT
/*
 * DOC: resolving auto while running
 *
 * The profile the user picked in power-profiles-daemon decides when it says
 * power-saver (power) or performance (performance); balanced, no daemon or
 * no system bus leave it to ps_source_resolve() (platform_profile, then
 * AC/battery), and so does a --sysfs-root other than / (the daemon is this
 * machine's, the files another tree's). The bus is opened on the first use; its absence is logged
 * once, and so is the daemon going away or coming back.
 */
#include <stdio.h>
#include <string.h>

#include "live_int.h"
#include "ps/ppd.h"

void ps_live_auto_resolve(struct ps_live_auto *a, const char *sysfs_root,
			  enum ps_policy *out, char *why, size_t len,
			  void (*log)(void *, const char *), void *log_arg)
{
	char prof[32] = "";
	const char *name = NULL;
	int r;

	if (!a->tried) {
		a->tried = 1;
		/* files of another tree (--sysfs-root, a test): this
		 * machine's daemon is not theirs */
		if (sysfs_root && strcmp(sysfs_root, "/")) {
			ps_live_logf(log, log_arg, "power-profiles-daemon: not asked: the files "
				     "under %s decide auto", sysfs_root);
			r = 1;
		} else {
			r = ps_ppd_open(&a->ppd);
		}
		if (r < 0)
			ps_live_logf(log, log_arg,
				     "power-profiles-daemon: no system bus (%s): not followed",
				     strerror(-r));
	}
	if (a->ppd) {
		ps_ppd_poll(a->ppd, prof, sizeof(prof), &name);
		if (!prof[0] && !a->said)
			ps_live_logf(log, log_arg,
				     "power-profiles-daemon: not running: platform_profile and AC/battery decide auto");
		else if (prof[0] && a->said)
			ps_live_logf(log, log_arg, "power-profiles-daemon: answers on %s", name);
		a->said = !prof[0];
	}
	a->source = ps_ppd_resolve(prof, sysfs_root, out, why, len);
}

void ps_live_auto_close(struct ps_live_auto *a)
{
	ps_ppd_close(a->ppd);
	a->ppd = NULL;
}
