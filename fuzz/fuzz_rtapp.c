// SPDX-License-Identifier: MIT
/* libFuzzer harness: the rt-app reader never crashes; an accepted file has
 * tasks with phases and events in range, resources that exist and a
 * suspend for every resume. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ps_rtapp *rt;
	char *s = malloc(size + 1), err[320];
	int t, e, r;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	err[0] = '\0';
	r = ps_rtapp_parse(s, size, "fuzz", &rt, err, sizeof(err));
	if (r == 0) {
		if (rt->ntasks < 1 || rt->ninst < rt->ntasks)
			abort();
		for (t = 0; t < rt->ntasks; t++) {
			const struct ps_rt_task *k = &rt->tasks[t];

			if (k->instance < 1 || k->nph < 1 || k->ph_lo + k->nph > rt->nph ||
			    k->cpu_lo + k->ncpu > rt->ncpus || k->loop == 0)
				abort();
		}
		for (e = 0; e < rt->nev; e++) {
			const struct ps_rt_event *v = &rt->ev[e];

			if (v->res >= rt->nres || v->mutex >= rt->nres || !(v->dur >= 0))
				abort();
			if (v->kind == PS_RT_TIMER && !(v->dur > 0))
				abort();
		}
		ps_rtapp_free(rt);
	} else if (r == -EINVAL && !err[0]) {
		abort();
	}
	free(s);
	return 0;
}
