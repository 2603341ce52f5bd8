/* SPDX-License-Identifier: MIT */
/*
 * DOC: what auto looks at
 *
 * ps_source_resolve() turns "auto" into power or performance from files under
 * a root path (normally "/"), so it is tested on directory trees:
 *  1. ACPI platform_profile (sys/firmware/acpi/platform_profile): low-power or
 *     quiet gives power, performance gives performance; balanced and its
 *     variants fall through.
 *  2. sys/class/power_supply/<name>: a Mains, USB or USB_* supply with
 *     online=1 means AC: performance. A system battery (type Battery, scope
 *     not Device) whose status is Discharging with no AC online: power.
 *  3. Otherwise (no battery at all, or a battery that is not discharging):
 *     performance.
 * It reads only; a missing or unreadable file is "not there".
 */
#ifndef PS_SOURCE_H
#define PS_SOURCE_H

#include <stddef.h>
#include "ps/policy.h"

/**
 * ps_source_resolve() - resolve auto
 * @root: the root the sysfs paths are under ("/" on a live machine)
 * @out: PS_POLICY_POWER or PS_POLICY_PERFORMANCE
 * @why: receives a short reason ("battery BAT0 discharging, AC offline")
 * @whylen: size of @why
 *
 * Return: 0 (it always decides), -EINVAL for a NULL root.
 */
int ps_source_resolve(const char *root, enum ps_policy *out, char *why,
		      size_t whylen);

#endif
