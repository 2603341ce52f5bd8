/* SPDX-License-Identifier: MIT */
/*
 * DOC: load lists
 *
 * "16x1.0" is 16 tasks at utilization 1.0; "4x0.3,2x1.0" joins groups; a bare
 * "0.5" is one task. Counts are 1..PS_LOAD_MAX_TASKS in all, utilizations in
 * (0, 1]. No spaces.
 */
#ifndef PS_LOADSPEC_H
#define PS_LOADSPEC_H

#include <stddef.h>

#define PS_LOAD_MAX_TASKS 1000000

/**
 * ps_load_parse() - parse a load list
 * @s: the list
 * @util: receives a malloc'd array of utilizations (free it)
 * @nr: receives the number of tasks
 * @err: receives a one-line reason naming the bad value
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL (nothing allocated), -ENOMEM.
 */
int ps_load_parse(const char *s, double **util, int *nr, char *err,
		  size_t errlen);

#endif
