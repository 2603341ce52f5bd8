// SPDX-License-Identifier: MIT
/*
 * The live instances' state files (state.PID.json, written by
 * live/status.c), read for status and for run's look at a daemon's set:
 * one reader, so both see the same files the same way. A state directory
 * may be another user's: a file is opened without following a symbolic
 * link or waiting on a FIFO, and only a regular file is read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int ps_cli_state_name(const char *name, long *pid)
{
	long p = 0;
	int end = 0;

	if (sscanf(name, "state.%ld.json%n", &p, &end) != 1 || name[end] || p <= 0)
		return 0;
	if (pid)
		*pid = p;
	return 1;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ps_cli_state_files(int dfd, char ***out)
{
	int fd = dup(dfd), n = 0, cap = 0;
	char **names = NULL, **bigger;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	if (fd < 0 || !(d = fdopendir(fd))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return -e;
	}
	while ((de = readdir(d))) {
		if (!ps_cli_state_name(de->d_name, NULL))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			bigger = realloc(names, sizeof(*names) * (size_t)cap);
			if (!bigger)
				break;
			names = bigger;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), cmp_names);
	*out = names;
	return n;
}

void ps_cli_state_files_free(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The file's text, NUL-terminated. Return: its length, or -errno. */
static int read_state(int dfd, const char *name, char *buf, size_t len)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	size_t at = 0;
	struct stat st;
	ssize_t r = 1;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (at < len - 1 && (r = read(fd, buf + at, len - 1 - at)) > 0)
		at += (size_t)r;
	close(fd);
	buf[at] = '\0';
	return r < 0 ? -EIO : (int)at;
}

struct json_object *ps_cli_state_load(int dfd, const char *name)
{
	/* a state file's filter lists may be long (a config holds up to
	 * 16 KiB, escaped in JSON): room for the largest there can be */
	static char buf[1 << 18];
	struct json_object *o;

	if (read_state(dfd, name, buf, sizeof(buf)) <= 0)
		return NULL;
	buf[strcspn(buf, "\n")] = '\0';
	o = json_tokener_parse(buf);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}
