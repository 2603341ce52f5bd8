// SPDX-License-Identifier: MIT
/* libFuzzer harness: the live side's parsers (a /proc stat line, a CPU
 * list, a journal line, /proc/self/mountinfo) never crash; a CPU list that parses formats back to
 * the same set; a journal line of any length is read whole or refused,
 * never cut, and one that parses writes back the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/live.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char a[256], b[256];
	struct ps_live_stat st;
	/* two records of 32 KB: static, not on the fuzzer's stack */
	static struct ps_journal_rec rec_s, back_s;
	struct ps_journal_rec *rec = &rec_s, *back = &back_s;
	char *s = malloc(size + 1), out[2048];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	(void)ps_live_parse_stat(s, &st);
	/* a journal record of any length: read whole or refused, never cut;
	 * one that parses writes back to a line that parses the same */
	if (ps_journal_parse_line(s, rec) == 0) {
		size_t n = strlen(rec->a);

		if (n >= sizeof(rec->a) || strlen(rec->b) >= sizeof(rec->b) ||
		    (n && !strstr(s, rec->a)))
			abort();
		if (rec->kind == 't' || rec->kind == 'a' || rec->kind == 'r') {
			char *line = NULL;
			int k = rec->kind == 't' ?
				asprintf(&line, "task %lld %llu %s\n", rec->id, rec->starttime, rec->a) :
				rec->kind == 'a' ? asprintf(&line, "applied %s\n", rec->a) :
				asprintf(&line, "release %lld %llu\n", rec->id, rec->starttime);

			if (k < 0 || ps_journal_parse_line(line, back) || back->kind != rec->kind ||
			    back->id != rec->id || back->starttime != rec->starttime ||
			    strcmp(back->a, rec->a))
				abort();
			free(line);
		}
	}
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
