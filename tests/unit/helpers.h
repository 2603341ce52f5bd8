/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the unit tests. */
#ifndef PS_TEST_HELPERS_H
#define PS_TEST_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "ps/topo.h"

static inline struct ps_topo *load_topo(const char *spec)
{
	struct ps_topo *t = NULL;

	assert_int_equal(ps_topo_load(spec, &t), 0);
	assert_non_null(t);
	return t;
}

/* The path of REL in the source tree (PS_SRCDIR, set by `make unit`; else
 * the working directory), in BUF; returns BUF. */
static inline char *src_path(char *buf, size_t len, const char *rel)
{
	const char *src = getenv("PS_SRCDIR");

	snprintf(buf, len, "%s/%s", src ? src : ".", rel);
	return buf;
}

/* The path of the topology fixture tests/topo/NAME, as src_path(). */
static inline char *topo_path(char *buf, size_t len, const char *name)
{
	const char *src = getenv("PS_SRCDIR");

	snprintf(buf, len, "%s/tests/topo/%s", src ? src : ".", name);
	return buf;
}

/* Write TEXT to DIR/REL, creating the directories on the way. */
static inline void write_file(const char *dir, const char *rel, const char *text)
{
	char path[4096], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/ps-test-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static inline void remove_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#endif
