/* SPDX-License-Identifier: MIT */
/*
 * DOC: the daemon's config file (powersched-daemon(8))
 *
 * One setting a line, '#' starts a comment. Strict: a file larger than
 * PS_LIVE_CONF_MAX bytes, a NUL byte, an unknown setting, a value that does
 * not parse, a setting that takes one value given more, a command name
 * longer than 15 characters (a comm never is), a cgroup path that is not
 * absolute, a metrics file that is not absolute: each is an error naming the line and the value, and nothing of
 * the file is used.
 */
#ifndef PS_LIVECONF_H
#define PS_LIVECONF_H

#include <stddef.h>

#define PS_LIVE_CONF_MAX 16383
#define PS_LIVE_CONF_MAX_LIST 64
#define PS_LIVE_COMM_MAX 15 /* TASK_COMM_LEN - 1 */

struct ps_live_conf {
	char policy[32], interval[32], max_changes[16];
	char backend[16];      /* auto, scx or affinity ("": auto) */
	char scx_fallback[16]; /* affinity, kernel or fail ("": affinity) */
	char metrics[1024]; /* the Prometheus text file, an absolute path */
	/* NULL-terminated lists pointing into buf */
	char *inc[PS_LIVE_CONF_MAX_LIST + 1], *exc[PS_LIVE_CONF_MAX_LIST + 1];
	char *incg[PS_LIVE_CONF_MAX_LIST + 1], *excg[PS_LIVE_CONF_MAX_LIST + 1];
	int ninc, nexc, nincg, nexcg;
	int exclude_containers; /* 1 (default) or 0 */
	int quiet_parked;       /* 0 (default) or 1: IRQs and unbound workqueues
				 * on the allowed set too */
	char buf[PS_LIVE_CONF_MAX + 1];
};

/**
 * ps_live_conf_parse() - parse a daemon config
 * @text: the file's bytes (need not be NUL-terminated)
 * @len: their number
 * @c: receives the settings (empty strings and lists for those not given)
 * @err: receives "line N: what is wrong with 'VALUE'" on error
 * @errlen: its size
 *
 * Return: 0, or -EINVAL with @err set.
 */
int ps_live_conf_parse(const char *text, size_t len, struct ps_live_conf *c, char *err,
		       size_t errlen);

#endif
