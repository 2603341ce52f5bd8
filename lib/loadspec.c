// SPDX-License-Identifier: MIT
/*
 * DOC: load list parser
 *
 * Grammar: LIST := GROUP ("," GROUP)* ; GROUP := [COUNT "x"] UTIL, COUNT a
 * decimal integer >= 1, UTIL a decimal number in (0, 1]. Errors name the
 * group that is wrong.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/loadspec.h"

static int parse_group(const char *g, size_t len, long *count, double *util)
{
	char buf[64], *x, *end;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, g, len);
	buf[len] = '\0';
	*count = 1;
	x = strchr(buf, 'x');
	if (x) {
		if (x == buf || buf[0] < '0' || buf[0] > '9')
			return -1;
		errno = 0;
		*count = strtol(buf, &end, 10);
		if (errno || end != x || *count < 1 || *count > PS_LOAD_MAX_TASKS)
			return -1;
		x++;
	} else {
		x = buf;
	}
	/* digits and one dot only: no signs, exponents, hex, inf or nan */
	if (!*x || strspn(x, "0123456789.") != strlen(x))
		return -1;
	errno = 0;
	*util = strtod(x, &end);
	if (errno || *end)
		return -1;
	if (!(*util > 0 && *util <= 1))
		return -2;
	return 0;
}

int ps_load_parse(const char *s, double **util, int *nr, char *err,
		  size_t errlen)
{
	long total = 0;
	const char *p;
	double *u;
	int pass, n = 0;

	if (!s || !*s) {
		snprintf(err, errlen, "empty load list");
		return -EINVAL;
	}
	/* pass 0 checks and counts, pass 1 fills */
	for (pass = 0, u = NULL; pass < 2; pass++) {
		for (p = s;;) {
			size_t len = strcspn(p, ",");
			double v;
			long c;
			int r = parse_group(p, len, &c, &v);

			if (r) {
				snprintf(err, errlen, r == -2 ?
					 "load '%.*s': utilization must be in (0,1]" :
					 "load '%.*s': expected COUNTxUTIL such as 16x1.0",
					 (int)(len > 40 ? 40 : len), p);
				return -EINVAL;
			}
			if (pass == 0) {
				total += c;
				if (total > PS_LOAD_MAX_TASKS) {
					snprintf(err, errlen,
						 "load '%s': more than %d tasks",
						 s, PS_LOAD_MAX_TASKS);
					return -EINVAL;
				}
			} else {
				while (c--)
					u[n++] = v;
			}
			if (!p[len])
				break;
			p += len + 1;
		}
		if (pass == 0) {
			u = malloc(sizeof(double) * total);
			if (!u)
				return -ENOMEM;
		}
	}
	*util = u;
	*nr = n;
	return 0;
}
