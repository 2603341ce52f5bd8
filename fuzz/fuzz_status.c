// SPDX-License-Identifier: MIT
/* libFuzzer harness: status's text formatter (cli/cmd_status.c) given any state
 * file never crashes: whatever JSON, of whatever types, json-c makes of the
 * input is printed as a block (to /dev/null). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/common.c"
#include "../cli/statefile.c"
#include "../cli/cmd_status.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct status_ctx c = { .bullet = "*" };
	static int quiet;
	struct json_object *o;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	if (!quiet) {
		quiet = 1;
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	memcpy(s, data, size);
	s[size] = '\0';
	o = json_tokener_parse(s);
	if (o && json_object_is_type(o, json_type_object))
		print_block(&c, "/nonexistent", "state.1.json", o);
	json_object_put(o);
	free(s);
	return 0;
}
