// SPDX-License-Identifier: MIT
/*
 * DOC: simulator policy names
 *
 * performance, power, auto (resolved once, from the sysfs root), kernel (the
 * kernel model with every PU allowed), legacy:mc=N,smt=M[,fixed].
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ps/sim.h"
#include "ps/source.h"

static int parse_level(const char *s, const char *key, int *out)
{
	size_t l = strlen(key);

	if (strncmp(s, key, l) || s[l] != '=' || s[l + 1] < '0' || s[l + 1] > '2' ||
	    s[l + 2])
		return -1;
	*out = s[l + 1] - '0';
	return 0;
}

int ps_sim_policy_parse(const char *s, const char *root,
			struct ps_sim_policy *out, char *why, size_t whylen,
			char *err, size_t errlen)
{
	char buf[64], *p, *save = NULL;
	int have_mc = 0, have_smt = 0;

	memset(out, 0, sizeof(*out));
	if (why && whylen)
		why[0] = '\0';
	if (!s || strlen(s) >= sizeof(out->name)) {
		snprintf(err, errlen, "unknown policy '%.40s'", s ? s : "");
		return -EINVAL;
	}
	strcpy(out->name, s);
	if (!strcmp(s, "kernel")) {
		out->mode = PS_SIM_KERNEL;
		return 0;
	}
	if (!ps_policy_parse(s, &out->policy)) {
		out->mode = PS_SIM_POLICY;
		if (out->policy == PS_POLICY_AUTO)
			ps_source_resolve(root ? root : "/", &out->policy, why, whylen);
		return 0;
	}
	if (strncmp(s, "legacy:", 7)) {
		snprintf(err, errlen,
			 "unknown policy '%s' (performance, power, auto, kernel, legacy:mc=N,smt=M[,fixed])",
			 s);
		return -EINVAL;
	}
	out->mode = PS_SIM_LEGACY;
	snprintf(buf, sizeof(buf), "%s", s + 7);
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (!parse_level(p, "mc", &out->mc) && !have_mc)
			have_mc = 1;
		else if (!parse_level(p, "smt", &out->smt) && !have_smt)
			have_smt = 1;
		else if (!strcmp(p, "fixed") && !out->fixed)
			out->fixed = 1;
		else {
			snprintf(err, errlen,
				 "unknown legacy mode '%s': '%s' (mc=0..2, smt=0..2, fixed)",
				 s, p);
			return -EINVAL;
		}
	}
	if (!have_mc || !have_smt) {
		snprintf(err, errlen, "unknown legacy mode '%s': needs mc=N and smt=M", s);
		return -EINVAL;
	}
	return 0;
}
