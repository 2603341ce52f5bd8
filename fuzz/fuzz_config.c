// SPDX-License-Identifier: MIT
/* libFuzzer harness: the daemon config parser never crashes, never reads
 * past the bytes given, and what it accepts holds to its promises: names
 * at most 15 characters, cgroup paths absolute, the lists terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/liveconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ps_live_conf c;
	char err[300];
	char *copy = malloc(size ? size : 1); /* exactly size bytes: ASan sees overreads */
	int k;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (ps_live_conf_parse(copy, size, &c, err, sizeof(err)) == 0) {
		if (c.ninc > PS_LIVE_CONF_MAX_LIST || c.inc[c.ninc] || c.exc[c.nexc] ||
		    c.incg[c.nincg] || c.excg[c.nexcg])
			abort();
		for (k = 0; k < c.ninc; k++)
			if (strlen(c.inc[k]) > PS_LIVE_COMM_MAX)
				abort();
		for (k = 0; k < c.nexc; k++)
			if (strlen(c.exc[k]) > PS_LIVE_COMM_MAX)
				abort();
		for (k = 0; k < c.nexcg; k++)
			if (c.excg[k][0] != '/')
				abort();
	} else if (!err[0]) {
		abort(); /* an error always says what */
	}
	free(copy);
	return 0;
}
