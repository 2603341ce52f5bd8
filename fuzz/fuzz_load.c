// SPDX-License-Identifier: MIT
/* libFuzzer harness: the load list parser never crashes, and what it
 * accepts is a valid load (1..max tasks, each in (0,1]). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/loadspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[128];
	double *u = NULL;
	int n = 0, i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ps_load_parse(s, &u, &n, err, sizeof(err)) == 0) {
		if (n < 1 || n > PS_LOAD_MAX_TASKS)
			abort();
		for (i = 0; i < n; i++)
			if (!(u[i] > 0 && u[i] <= 1))
				abort();
		free(u);
	} else if (!memchr(err, '\0', sizeof(err)) || u) {
		abort();
	}
	free(s);
	return 0;
}
