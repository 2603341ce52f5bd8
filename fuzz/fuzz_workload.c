// SPDX-License-Identifier: MIT
/* libFuzzer harness: the workload parser never crashes, and what it accepts
 * is in range. Inputs naming a trace file are skipped (they would read
 * files); fuzz_trace covers the trace parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ps_workload w;
	char *s = malloc(size + 1), err[320];
	int i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!strstr(s, "trace") && ps_workload_parse(s, &w, err, sizeof(err)) == 0) {
		if (w.nitems < 1 || w.nitems > PS_WL_MAX_ITEMS)
			abort();
		for (i = 0; i < w.nitems; i++) {
			const struct ps_wl_item *it = &w.items[i];

			if (it->kind == PS_WL_PERIODIC &&
			    (!(it->duty > 0 && it->duty <= 1) || !(it->period > 0)))
				abort();
			if (it->kind == PS_WL_POISSON && (!(it->rate > 0) || !(it->size > 0)))
				abort();
			if ((it->kind == PS_WL_CPU || it->kind == PS_WL_PERIODIC) && it->n < 1)
				abort();
		}
		ps_workload_free(&w);
	}
	free(s);
	return 0;
}
