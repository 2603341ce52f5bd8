// SPDX-License-Identifier: MIT
/* libFuzzer harness: the trace parser never crashes; an accepted trace has
 * non-decreasing times, tasks in range and positive work. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ps_wl_item it;
	char *s = malloc(size + 1), err[320];
	int i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ps_trace_parse(s, "fuzz", &it, err, sizeof(err)) == 0) {
		for (i = 0; i < it.nev; i++) {
			if (it.ev[i].task < 0 || it.ev[i].task > PS_TRACE_MAX_TASK ||
			    !(it.ev[i].work > 0) || it.ev[i].t < 0 ||
			    (i && it.ev[i].t < it.ev[i - 1].t))
				abort();
			if (it.ev[i].task >= it.ntrace_tasks)
				abort();
		}
		free(it.ev);
	}
	free(s);
	return 0;
}
