// SPDX-License-Identifier: MIT
/*
 * DOC: workload and trace parsers
 *
 * Workloads are items joined with '+':
 *   cpu:N                     N threads that always run (like ebizzy)
 *   periodic:N:DUTY:PERIOD    N tasks releasing DUTY x PERIOD of work every
 *                             PERIOD, due by the next release
 *   poisson:RATE/s:SIZE       jobs of SIZE work arriving as a Poisson process
 *   trace:FILE                a trace file (see ps_trace_parse())
 *   rtapp:FILE                an rt-app JSON file (see ps_rtapp_parse())
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/sim.h"

static int parse_number(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strspn(buf, "0123456789.") != len)
		return -1;
	errno = 0;
	*out = strtod(buf, &end);
	if (errno || *end || !isfinite(*out))
		return -1;
	return 0;
}

int ps_duration_parse(const char *s, double *out)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		{ "s", 1.0 },   { "m", 60.0 },  { "h", 3600.0 },
	};
	size_t len = strspn(s, "0123456789.");
	size_t i;
	double v;

	if (parse_number(s, len, &v))
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		/* a bare number is seconds, as for sleep(1) and systemd */
		if (!strcmp(s + len, units[i].u) || (!s[len] && units[i].mul == 1.0)) {
			v *= units[i].mul;
			if (!(v > 0) || v > 1e7)
				return -EINVAL;
			*out = v;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_count(const char *s, int max, int *out)
{
	char *end;
	long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/* Split s at ':' into at most n fields (in place). */
static int split(char *s, char **f, int n)
{
	int k = 0;

	f[k++] = s;
	for (; *s; s++) {
		if (*s == ':') {
			if (k == n)
				return n + 1;
			*s = '\0';
			f[k++] = s + 1;
		}
	}
	return k;
}

#define TRACE_MAX_BYTES (64 << 20)

int ps_trace_parse(const char *text, const char *name, struct ps_wl_item *out,
		   char *err, size_t errlen)
{
	const char *p = text;
	int cap = 0, lineno = 0, maxtask = -1;
	struct ps_trace_ev *ev = NULL;
	double last = 0;
	int n = 0;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[256], ts[64], task[64], verb[64], work[64], extra[8];
		char *hash;
		int k;

		lineno++;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "trace '%s' line %d: longer than %zu characters",
				 name, lineno, sizeof(line) - 1);
			goto bad;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl ? 1 : 0);
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		k = sscanf(line, "%63s %63s %63s %63s %7s", ts, task, verb, work, extra);
		if (k <= 0)
			continue;
		if (n == cap) {
			int nc = cap ? cap * 2 : 256;
			void *q = realloc(ev, sizeof(*ev) * nc);

			if (!q) {
				free(ev);
				return -ENOMEM;
			}
			ev = q;
			cap = nc;
		}
		if (k != 4 || strcmp(verb, "run")) {
			snprintf(err, errlen,
				 "trace '%s' line %d: expected 'TIME TASK run WORK', got '%.60s'",
				 name, lineno, line);
			goto bad;
		}
		if (ps_duration_parse(ts, &ev[n].t) && strcmp(ts, "0")) {
			snprintf(err, errlen, "trace '%s' line %d: bad time '%s'", name,
				 lineno, ts);
			goto bad;
		}
		if (!strcmp(ts, "0"))
			ev[n].t = 0;
		if (ev[n].t < last) {
			snprintf(err, errlen, "trace '%s' line %d: time '%s' goes backwards",
				 name, lineno, ts);
			goto bad;
		}
		if (parse_count(task, PS_TRACE_MAX_TASK + 1, &ev[n].task) &&
		    strcmp(task, "0")) {
			snprintf(err, errlen, "trace '%s' line %d: bad task '%s' (0..%d)",
				 name, lineno, task, PS_TRACE_MAX_TASK);
			goto bad;
		}
		if (!strcmp(task, "0"))
			ev[n].task = 0;
		if (ev[n].task > PS_TRACE_MAX_TASK) {
			snprintf(err, errlen, "trace '%s' line %d: bad task '%s' (0..%d)",
				 name, lineno, task, PS_TRACE_MAX_TASK);
			goto bad;
		}
		if (ps_duration_parse(work, &ev[n].work)) {
			snprintf(err, errlen, "trace '%s' line %d: bad work '%s'", name,
				 lineno, work);
			goto bad;
		}
		last = ev[n].t;
		if (ev[n].task > maxtask)
			maxtask = ev[n].task;
		n++;
	}
	memset(out, 0, sizeof(*out));
	out->kind = PS_WL_TRACE;
	out->ev = ev;
	out->nev = n;
	out->ntrace_tasks = maxtask + 1;
	return 0;
bad:
	free(ev);
	return -EINVAL;
}

/* The file's bytes, at most TRACE_MAX_BYTES + 1 of them (one more than
 * allowed, so a caller can tell a longer file), NUL-terminated at
 * TRACE_MAX_BYTES at the latest; *buf to be freed. */
static int slurp(const char *path, const char *what, char **buf, size_t *n, char *err,
		 size_t errlen)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "%s '%s': %s", what, path, strerror(errno));
		return -ENOENT;
	}
	*buf = malloc(TRACE_MAX_BYTES + 1);
	if (!*buf) {
		fclose(f);
		return -ENOMEM;
	}
	*n = fread(*buf, 1, TRACE_MAX_BYTES + 1, f);
	fclose(f);
	(*buf)[*n > TRACE_MAX_BYTES ? TRACE_MAX_BYTES : *n] = '\0';
	return 0;
}

static int load_trace(const char *path, struct ps_wl_item *it, char *err,
		      size_t errlen)
{
	char *buf;
	size_t n;
	int r = slurp(path, "trace", &buf, &n, err, errlen);

	if (r)
		return r;
	if (n > TRACE_MAX_BYTES || memchr(buf, '\0', n)) {
		snprintf(err, errlen, "trace '%s': over 64 MiB or not text", path);
		free(buf);
		return -EINVAL;
	}
	r = ps_trace_parse(buf, path, it, err, errlen);
	free(buf);
	return r;
}

static int load_rtapp(const char *path, struct ps_wl_item *it, int *ntasks,
		      char *err, size_t errlen)
{
	char *buf;
	size_t n;
	int r = slurp(path, "rtapp", &buf, &n, err, errlen);

	if (r)
		return r;
	r = ps_rtapp_parse(buf, n, path, &it->rt, err, errlen);
	free(buf);
	if (r)
		return r;
	it->kind = PS_WL_RTAPP;
	it->n = it->rt->ninst;
	*ntasks += it->n;
	if (*ntasks > PS_WL_MAX_TASKS) {
		snprintf(err, errlen, "rtapp '%s': more than %d tasks in all", path,
			 PS_WL_MAX_TASKS);
		return -EINVAL;
	}
	return 0;
}

static int parse_item(char *s, struct ps_wl_item *it, int *ntasks, char *err,
		      size_t errlen)
{
	char whole[160], *f[5];
	int k;

	snprintf(whole, sizeof(whole), "%s", s);
	memset(it, 0, sizeof(*it));
	if (!strncmp(s, "trace:", 6)) {
		if (!s[6]) {
			snprintf(err, errlen, "workload 'trace:': no file");
			return -EINVAL;
		}
		return load_trace(s + 6, it, err, errlen);
	}
	if (!strncmp(s, "rtapp:", 6)) {
		if (!s[6]) {
			snprintf(err, errlen, "workload 'rtapp:': no file");
			return -EINVAL;
		}
		return load_rtapp(s + 6, it, ntasks, err, errlen);
	}
	k = split(s, f, 4);
	if (!strcmp(f[0], "cpu")) {
		it->kind = PS_WL_CPU;
		if (k != 2 || parse_count(f[1], PS_WL_MAX_TASKS, &it->n))
			goto bad;
		*ntasks += it->n;
	} else if (!strcmp(f[0], "periodic")) {
		it->kind = PS_WL_PERIODIC;
		if (k != 4 || parse_count(f[1], PS_WL_MAX_TASKS, &it->n) ||
		    parse_number(f[2], strlen(f[2]), &it->duty) ||
		    !(it->duty > 0 && it->duty <= 1) ||
		    ps_duration_parse(f[3], &it->period) || it->period < 1e-6)
			goto bad;
		*ntasks += it->n;
	} else if (!strcmp(f[0], "poisson")) {
		size_t l;

		it->kind = PS_WL_POISSON;
		if (k != 3)
			goto bad;
		l = strlen(f[1]);
		if (l < 3 || strcmp(f[1] + l - 2, "/s") ||
		    parse_number(f[1], l - 2, &it->rate) || !(it->rate > 0) ||
		    it->rate > 1e7 || ps_duration_parse(f[2], &it->size) ||
		    it->size < 1e-7)
			goto bad;
	} else {
		snprintf(err, errlen,
			 "workload '%s': unknown kind '%s' (cpu, periodic, poisson, trace, rtapp)",
			 whole, f[0]);
		return -EINVAL;
	}
	if (*ntasks > PS_WL_MAX_TASKS) {
		snprintf(err, errlen, "workload '%s': more than %d tasks in all", whole,
			 PS_WL_MAX_TASKS);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "workload '%s': expected %s", whole,
		 it->kind == PS_WL_CPU ? "cpu:N" :
		 it->kind == PS_WL_PERIODIC ? "periodic:N:DUTY:PERIOD (0<DUTY<=1, PERIOD like 10ms)" :
		 "poisson:RATE/s:SIZE (like poisson:200/s:2ms)");
	return -EINVAL;
}

void ps_workload_free(struct ps_workload *w)
{
	int i;

	for (i = 0; i < w->nitems; i++) {
		free(w->items[i].ev);
		ps_rtapp_free(w->items[i].rt);
	}
	w->nitems = 0;
}

int ps_workload_parse(const char *s, struct ps_workload *out, char *err,
		      size_t errlen)
{
	char *copy, *p, *save = NULL;
	int ntasks = 0, r = 0;

	memset(out, 0, sizeof(*out));
	if (!s || !*s) {
		snprintf(err, errlen, "empty workload");
		return -EINVAL;
	}
	if (s[0] == '+' || s[strlen(s) - 1] == '+' || strstr(s, "++")) {
		snprintf(err, errlen, "workload '%s': empty item", s);
		return -EINVAL;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (p = strtok_r(copy, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
		if (out->nitems == PS_WL_MAX_ITEMS) {
			snprintf(err, errlen, "workload: more than %d items", PS_WL_MAX_ITEMS);
			r = -EINVAL;
			break;
		}
		r = parse_item(p, &out->items[out->nitems], &ntasks, err, errlen);
		if (r)
			break;
		out->nitems++;
	}
	free(copy);
	if (r)
		ps_workload_free(out);
	return r;
}
