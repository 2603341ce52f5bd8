// SPDX-License-Identifier: MIT
/*
 * DOC: the daemon config parser (strict; see include/ps/liveconf.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/liveconf.h"
#include "ps/policy.h"
#include "ps/sim.h"

static int add_words(char *rest, char **list, int *n, int comm, int lineno, char *err,
		     size_t errlen)
{
	char *w, *save = NULL;

	for (w = strtok_r(rest, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (*n >= PS_LIVE_CONF_MAX_LIST) {
			snprintf(err, errlen, "line %d: more than %d names", lineno,
				 PS_LIVE_CONF_MAX_LIST);
			return -EINVAL;
		}
		if (comm && strlen(w) > PS_LIVE_COMM_MAX) {
			snprintf(err, errlen, "line %d: command name '%.64s' is longer than %d "
				 "characters (a comm never is)", lineno, w, PS_LIVE_COMM_MAX);
			return -EINVAL;
		}
		if (!comm && w[0] != '/') {
			snprintf(err, errlen, "line %d: cgroup path '%.200s' does not start with /",
				 lineno, w);
			return -EINVAL;
		}
		list[(*n)++] = w;
		list[*n] = NULL;
	}
	return 0;
}

/* one word into out (of len), or an error */
static int one_value(const char *key, char *rest, char *out, size_t len, int lineno,
		     char *err, size_t errlen)
{
	size_t n = strcspn(rest, " \t");

	if (!n || rest[n + strspn(rest + n, " \t")]) {
		snprintf(err, errlen, "line %d: %s takes one value, not '%.100s'", lineno, key,
			 rest);
		return -EINVAL;
	}
	if (n >= len) {
		snprintf(err, errlen, "line %d: %s value '%.100s' is too long", lineno, key, rest);
		return -EINVAL;
	}
	memcpy(out, rest, n);
	out[n] = '\0';
	return 0;
}

int ps_live_conf_parse(const char *text, size_t len, struct ps_live_conf *c, char *err,
		       size_t errlen)
{
	char *line, *next, *key, *rest;
	int lineno = 0;
	const char *nul;

	memset(c, 0, sizeof(*c));
	c->exclude_containers = 1;
	err[0] = '\0';
	if (len > PS_LIVE_CONF_MAX) {
		snprintf(err, errlen, "larger than %d bytes", PS_LIVE_CONF_MAX);
		return -EINVAL;
	}
	nul = memchr(text, '\0', len);
	if (nul) {
		snprintf(err, errlen, "a NUL byte at offset %zu (not a text file)",
			 (size_t)(nul - text));
		return -EINVAL;
	}
	memcpy(c->buf, text, len);
	c->buf[len] = '\0';
	for (line = c->buf; line; line = next) {
		char *hash;
		double d;
		enum ps_policy p;
		int r = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		key = line + strspn(line, " \t\r");
		rest = key + strcspn(key, " \t\r");
		if (*rest)
			*rest++ = '\0';
		rest += strspn(rest, " \t");
		rest[strcspn(rest, "\r")] = '\0';
		while (*rest && strchr(" \t", rest[strlen(rest) - 1]))
			rest[strlen(rest) - 1] = '\0';
		if (!*key)
			continue;
		if (!strcmp(key, "policy")) {
			r = one_value(key, rest, c->policy, sizeof(c->policy), lineno, err, errlen);
			if (!r && ps_policy_parse(c->policy, &p)) {
				snprintf(err, errlen, "line %d: unknown policy '%s'", lineno, c->policy);
				r = -EINVAL;
			}
		} else if (!strcmp(key, "interval")) {
			r = one_value(key, rest, c->interval, sizeof(c->interval), lineno, err,
				      errlen);
			if (!r && ps_duration_parse(c->interval, &d)) {
				snprintf(err, errlen, "line %d: bad interval '%s'", lineno,
					 c->interval);
				r = -EINVAL;
			}
		} else if (!strcmp(key, "max-changes")) {
			char *end;
			long v;

			r = one_value(key, rest, c->max_changes, sizeof(c->max_changes), lineno,
				      err, errlen);
			if (!r) {
				errno = 0;
				v = strtol(c->max_changes, &end, 10);
				if (errno || *end || v < 2 || v > 256) {
					snprintf(err, errlen, "line %d: max-changes '%s' is not a "
						 "whole number from 2 to 256", lineno, c->max_changes);
					r = -EINVAL;
				}
			}
		} else if (!strcmp(key, "backend")) {
			r = one_value(key, rest, c->backend, sizeof(c->backend), lineno, err,
				      errlen);
			if (!r && strcmp(c->backend, "auto") && strcmp(c->backend, "scx") &&
			    strcmp(c->backend, "affinity")) {
				snprintf(err, errlen, "line %d: backend '%s' is not auto, scx or "
					 "affinity", lineno, c->backend);
				r = -EINVAL;
			}
		} else if (!strcmp(key, "scx-fallback")) {
			r = one_value(key, rest, c->scx_fallback, sizeof(c->scx_fallback), lineno,
				      err, errlen);
			if (!r && strcmp(c->scx_fallback, "affinity") &&
			    strcmp(c->scx_fallback, "kernel") && strcmp(c->scx_fallback, "fail")) {
				snprintf(err, errlen, "line %d: scx-fallback '%s' is not affinity, "
					 "kernel or fail", lineno, c->scx_fallback);
				r = -EINVAL;
			}
		} else if (!strcmp(key, "metrics")) {
			r = one_value(key, rest, c->metrics, sizeof(c->metrics), lineno, err,
				      errlen);
			if (!r && c->metrics[0] != '/') {
				snprintf(err, errlen, "line %d: metrics file '%s' is not an "
					 "absolute path", lineno, c->metrics);
				r = -EINVAL;
			}
		} else if (!strcmp(key, "exclude-containers")) {
			char v[8];

			r = one_value(key, rest, v, sizeof(v), lineno, err, errlen);
			if (!r && strcmp(v, "yes") && strcmp(v, "no")) {
				snprintf(err, errlen, "line %d: exclude-containers '%s' is not yes "
					 "or no", lineno, v);
				r = -EINVAL;
			}
			if (!r)
				c->exclude_containers = !strcmp(v, "yes");
		} else if (!strcmp(key, "quiet-parked")) {
			char v[8];

			r = one_value(key, rest, v, sizeof(v), lineno, err, errlen);
			if (!r && strcmp(v, "yes") && strcmp(v, "no")) {
				snprintf(err, errlen, "line %d: quiet-parked '%s' is not yes or no",
					 lineno, v);
				r = -EINVAL;
			}
			if (!r)
				c->quiet_parked = !strcmp(v, "yes");
		} else if (!strcmp(key, "include-comm")) {
			r = add_words(rest, c->inc, &c->ninc, 1, lineno, err, errlen);
		} else if (!strcmp(key, "exclude-comm")) {
			r = add_words(rest, c->exc, &c->nexc, 1, lineno, err, errlen);
		} else if (!strcmp(key, "include-cgroup")) {
			r = add_words(rest, c->incg, &c->nincg, 0, lineno, err, errlen);
		} else if (!strcmp(key, "exclude-cgroup")) {
			r = add_words(rest, c->excg, &c->nexcg, 0, lineno, err, errlen);
		} else {
			snprintf(err, errlen, "line %d: unknown setting '%.100s'", lineno, key);
			r = -EINVAL;
		}
		if (r)
			return r;
	}
	return 0;
}
