// SPDX-License-Identifier: MIT
/* libFuzzer harness: the live side's parsers (a /proc stat line, a CPU
 * list, a journal line, /proc/self/mountinfo) never crash; a CPU list that parses formats back to
 * the same set. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/live.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char a[256], b[256];
	struct ps_live_stat st;
	struct ps_journal_rec rec;
	char *s = malloc(size + 1), out[2048];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)ps_live_parse_stat(s, &st);
	(void)ps_journal_parse_line(s, &rec);
	{
		long gid;

		if (ps_live_parse_proc_mount(s, &gid) < 0)
			abort();
	}
	/* a hex cpumask that parses formats back to the same CPUs */
	if (ps_cpumask_parse_hex(s, a, 256) == 0) {
		if (ps_cpumask_format_hex(a, 256, out, sizeof(out)) ||
		    ps_cpumask_parse_hex(out, b, 256) || memcmp(a, b, sizeof(a)))
			abort();
	}
	if (ps_cpulist_parse(s, a, 256) == 0) {
		if (ps_cpulist_format(a, 256, out, sizeof(out)) ||
		    ps_cpulist_parse(out, b, 256) || memcmp(a, b, sizeof(a)))
			abort();
	}
	free(s);
	return 0;
}
