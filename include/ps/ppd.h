/* SPDX-License-Identifier: MIT */
/*
 * DOC: power-profiles-daemon
 *
 * auto follows the profile the user picked in their desktop: the
 * ActiveProfile property of power-profiles-daemon (and of tuned-ppd, which
 * serves the same API) on the system bus, read with sd-bus. The name
 * org.freedesktop.UPower.PowerProfiles at /org/freedesktop/UPower/PowerProfiles
 * is asked first, then the older net.hadess.PowerProfiles at
 * /net/hadess/PowerProfiles (the only one Debian 12's 0.12 owns). Changes
 * arrive as PropertiesChanged signals, taken only from the name's owner, and
 * are read by ps_ppd_poll() without blocking; a daemon that starts or stops
 * later is seen through NameOwnerChanged. Nothing here starts the daemon (no
 * D-Bus activation).
 */
#ifndef PS_PPD_H
#define PS_PPD_H

#include <stddef.h>
#include "ps/policy.h"

struct ps_ppd;

/**
 * ps_ppd_open() - connect to the system bus and read the profile
 * @out: the connection; a daemon need not be running
 *
 * Return: 0, or -errno when there is no system bus (then *out is NULL).
 */
int ps_ppd_open(struct ps_ppd **out);

/**
 * ps_ppd_poll() - take what arrived on the bus, without blocking
 * @p: from ps_ppd_open()
 * @profile: receives the active profile ("power-saver", "balanced",
 *           "performance"), or "" when no daemon answers
 * @len: size of @profile
 * @name: receives the bus name that answered (static), or NULL
 *
 * Return: 0, or -errno when the bus connection is lost (the profile is then
 * ""; a later poll connects again).
 */
int ps_ppd_poll(struct ps_ppd *p, char *profile, size_t len, const char **name);

/**
 * ps_ppd_map() - what a profile means for auto
 * @profile: a profile name
 * @out: PS_POLICY_POWER for power-saver, PS_POLICY_PERFORMANCE for performance
 *
 * Return: 1 when the profile decides; 0 for balanced, "" or anything else
 * (the platform_profile and AC/battery rules decide then).
 */
int ps_ppd_map(const char *profile, enum ps_policy *out);

/**
 * ps_ppd_resolve() - resolve auto from a profile read, the one rule for all
 * @profile: what ps_ppd_poll() gave ("" or NULL: no daemon answered)
 * @root: the sysfs root for ps_source_resolve() (NULL: /)
 * @out: receives power or performance
 * @why: receives the reason ("power-profiles-daemon profile power-saver",
 *       or ps_source_resolve()'s, with "; power-profiles-daemon balanced"
 *       when a daemon answered without deciding)
 * @len: size of @why
 *
 * Return: the source that decided: "power-profiles-daemon",
 * "platform_profile" or "power_supply" (static).
 */
const char *ps_ppd_resolve(const char *profile, const char *root, enum ps_policy *out,
			   char *why, size_t len);

/**
 * ps_ppd_resolve_once() - auto as run and daemon resolve it, once
 * @root, @out, @why, @len: as ps_ppd_resolve()
 *
 * Reads the profile from the system bus (no bus or no daemon: the files
 * decide) and resolves it with ps_ppd_resolve(): what plan previews is what
 * run applies. With @root other than / (a test tree, another machine's
 * /sys) the bus is not asked: the files under @root decide.
 * Return: as ps_ppd_resolve().
 */
const char *ps_ppd_resolve_once(const char *root, enum ps_policy *out, char *why, size_t len);

/**
 * ps_ppd_hold() - ask the daemon to hold a profile while we run
 * @p: from ps_ppd_open()
 * @profile: "performance" or "power-saver"
 * @reason: shown by powerprofilesctl
 * @cookie: receives the hold's cookie, for ps_ppd_release()
 *
 * The daemon drops the hold by itself when our bus connection closes (an
 * exit of any kind), so a killed powersched leaves no hold behind.
 * Each name is asked in turn, allowing 10 s for an answer (polkit decides
 * first). Return: 0, -ENOENT when no daemon owns a name, -EACCES when
 * polkit refuses, -ETIMEDOUT, -errno.
 */
int ps_ppd_hold(struct ps_ppd *p, const char *profile, const char *reason,
		unsigned *cookie);

/** ps_ppd_release() - release a hold; 0 or -errno */
int ps_ppd_release(struct ps_ppd *p, unsigned cookie);

/** ps_ppd_close() - drop the connection; NULL is fine */
void ps_ppd_close(struct ps_ppd *p);

#endif
