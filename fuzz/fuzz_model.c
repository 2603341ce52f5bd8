// SPDX-License-Identifier: MIT
/* libFuzzer harness: the model parser never crashes, and an accepted model
 * has finite, non-negative watts and a gain in 0..1. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/power.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[256];
	struct ps_model m;
	int i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ps_model_parse(s, &m, err, sizeof(err)) == 0) {
		if (!(m.smt_gain >= 0 && m.smt_gain <= 1))
			abort();
		for (i = 0; i < PS_LVL_COUNT; i++)
			if (!isfinite(m.active_w[i]) || m.active_w[i] < 0 ||
			    !isfinite(m.idle_w[i]) || m.idle_w[i] < 0)
				abort();
	}
	free(s);
	return 0;
}
