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

/* One group. Return: 0, -1 malformed, -2 utilization outside (0,1], -3 a
 * count of 0, -4 a count above PS_LOAD_MAX_TASKS. */
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
		if (end != x)
			return -1;
		if (errno == ERANGE || *count > PS_LOAD_MAX_TASKS)
			return -4;
		if (errno || *count < 1)
			return -3;
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
				int l = (int)(len > 40 ? 40 : len);

				if (r == -2)
					snprintf(err, errlen, "load '%.*s': utilization must "
						 "be in (0,1]", l, p);
				else if (r == -3)
					snprintf(err, errlen, "load '%.*s': a count of 0 tasks "
						 "is not allowed (1 or more)", l, p);
				else if (r == -4)
					snprintf(err, errlen, "load '%.*s': more than %d "
						 "tasks, the most a load may have", l, p,
						 PS_LOAD_MAX_TASKS);
				else
					snprintf(err, errlen, "load '%.*s': expected "
						 "COUNTxUTIL such as 16x1.0", l, p);
				return -EINVAL;
			}
			if (pass == 0) {
				total += c;
				if (total > PS_LOAD_MAX_TASKS) {
					snprintf(err, errlen,
						 "load '%s': more than %d tasks in all, "
						 "the most a load may have",
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
