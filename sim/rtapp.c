// SPDX-License-Identifier: MIT
/*
 * DOC: rt-app workload reader
 *
 * Reads an rt-app JSON file (the grammar of rt-app 1.0's tutorial) with
 * json-c, as rt-app itself does. json-c keeps the last of repeated keys in
 * one object, while rt-app files repeat "run" and "sleep" on purpose
 * (rt-app's workgen renames them before rt-app reads the file). So a first
 * pass, over strings, comments and brackets only, gives every repeat a
 * hidden suffix ("\u0001" and its count); json-c then parses the whole
 * grammar, and names in errors are shown without the suffix.
 */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/sim.h"

#define RT_MAX_BYTES (16 << 20)
#define RT_MAX_DEPTH 64
#define RT_MAX_EVENTS 1000000
#define RT_MAX_US 1e10 /* 10000 s */

struct keyref {
	const char *p;
	size_t len;
	int count;
};

struct frame {
	int is_obj;
	struct keyref *keys;
	int nkeys, cap;
};

static int push_key(struct frame *f, const char *p, size_t len, int *count)
{
	int i;

	for (i = 0; i < f->nkeys; i++)
		if (f->keys[i].len == len && !memcmp(f->keys[i].p, p, len)) {
			*count = ++f->keys[i].count;
			return 0;
		}
	if (f->nkeys == f->cap) {
		int cap = f->cap ? f->cap * 2 : 8;
		void *q = realloc(f->keys, sizeof(*f->keys) * cap);

		if (!q)
			return -ENOMEM;
		f->keys = q;
		f->cap = cap;
	}
	f->keys[f->nkeys].p = p;
	f->keys[f->nkeys].len = len;
	f->keys[f->nkeys].count = 1;
	f->nkeys++;
	*count = 1;
	return 0;
}

/*
 * Copy text to *out with repeated keys of one object renamed KEY\u0001N.
 * Malformed text is copied as it is: json-c reports it.
 */
static int rename_repeats(const char *t, size_t n, char **out, char *err,
			  size_t errlen, const char *name)
{
	struct frame st[RT_MAX_DEPTH];
	size_t i = 0, o = 0;
	/* a renamed key ("" and ':' at least) grows by at most 18 bytes */
	char *b = malloc(7 * n + 64);
	int depth = 0, r = 0, k, bare;

	if (!b)
		return -ENOMEM;
	memset(st, 0, sizeof(st));
	while (i < n) {
		char c = t[i];

		if (c == '/' && i + 1 < n && t[i + 1] == '/') {
			while (i < n && t[i] != '\n')
				b[o++] = t[i++];
			continue;
		}
		if (c == '/' && i + 1 < n && t[i + 1] == '*') {
			b[o++] = t[i++];
			b[o++] = t[i++];
			while (i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/'))
				b[o++] = t[i++];
			continue;
		}
		if (c == '{' || c == '[') {
			if (depth == RT_MAX_DEPTH) {
				snprintf(err, errlen, "rtapp '%s': nested deeper than %d",
					 name, RT_MAX_DEPTH);
				r = -EINVAL;
				goto out;
			}
			st[depth].is_obj = c == '{';
			st[depth].nkeys = 0;
			depth++;
			b[o++] = t[i++];
			continue;
		}
		if (c == '}' || c == ']') {
			if (depth > 0)
				depth--;
			b[o++] = t[i++];
			continue;
		}
		if (c == '"') {
			size_t s0 = i++, j;

			while (i < n && t[i] != '"') {
				if (t[i] == '\\' && i + 1 < n)
					i++;
				i++;
			}
			if (i < n)
				i++; /* the closing quote */
			for (j = i; j < n && strchr(" \t\r\n", t[j]); j++)
				;
			k = 1;
			/* workgen's shorthand: a bare "suspend" suspends on the task */
			bare = depth > 0 && st[depth - 1].is_obj && j < n &&
			       (t[j] == ',' || t[j] == '}') && i - s0 >= 9 &&
			       !strncmp(t + s0, "\"suspend", 8) && t[i - 1] == '"';
			if (depth > 0 && st[depth - 1].is_obj && j < n &&
			    (t[j] == ':' || bare) && i - s0 >= 2 && t[i - 1] == '"') {
				r = push_key(&st[depth - 1], t + s0, i - s0, &k);
				if (r)
					goto out;
			}
			if (k > 1) {
				memcpy(b + o, t + s0, i - s0 - 1);
				o += i - s0 - 1;
				o += (size_t)sprintf(b + o, "\\u0001%d\"", k);
			} else {
				memcpy(b + o, t + s0, i - s0);
				o += i - s0;
			}
			if (bare)
				o += (size_t)sprintf(b + o, ":\"\"");
			continue;
		}
		b[o++] = t[i++];
	}
	b[o] = '\0';
out:
	for (k = 0; k < RT_MAX_DEPTH; k++)
		free(st[k].keys);
	if (r)
		free(b);
	else
		*out = b;
	return r;
}

/* A key as the file spells it: without the repeat suffix. */
static const char *shown(const char *key, char *buf, size_t len)
{
	size_t l = strcspn(key, "\001");

	if (l >= len)
		l = len - 1;
	memcpy(buf, key, l);
	buf[l] = '\0';
	return buf;
}

struct rd {
	struct ps_rtapp *rt;
	const char *file;
	char *err;
	size_t errlen;
	int capph, capev, capcpu, capres;
	int task; /* the task being read, for errors */
};

#define GROW(arr, n, cap)                                              \
	do {                                                           \
		if ((n) == (cap)) {                                    \
			int nc_ = (cap) ? (cap) * 2 : 16;              \
			void *q_ = realloc((arr), sizeof(*(arr)) * nc_); \
			if (!q_)                                       \
				return -ENOMEM;                        \
			(arr) = q_;                                    \
			(cap) = nc_;                                   \
		}                                                      \
	} while (0)

static int bad(struct rd *d, const char *key, const char *fmt, const char *what)
{
	char kb[64];
	const char *task = d->task >= 0 ? d->rt->tasks[d->task].name : NULL;

	if (task)
		snprintf(d->err, d->errlen, "rtapp '%s': task '%s': key '%s': %s%s",
			 d->file, task, shown(key, kb, sizeof(kb)), fmt, what ? what : "");
	else
		snprintf(d->err, d->errlen, "rtapp '%s': key '%s': %s%s", d->file,
			 shown(key, kb, sizeof(kb)), fmt, what ? what : "");
	return -EINVAL;
}

static int get_int(struct rd *d, const char *key, struct json_object *v,
		   long lo, long hi, long *out)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return bad(d, key, "expected a whole number", NULL);
	x = json_object_get_int64(v);
	if (x < lo || x > hi) {
		char m[96];

		snprintf(m, sizeof(m), "%lld is out of range (%ld..%ld)", (long long)x,
			 lo, hi);
		return bad(d, key, m, NULL);
	}
	*out = (long)x;
	return 0;
}

static int find_res(struct rd *d, const char *name, enum ps_rt_res_kind kind,
		    int *out)
{
	struct ps_rtapp *rt = d->rt;
	int i;

	if (strlen(name) >= sizeof(rt->res[0].name)) {
		snprintf(d->err, d->errlen, "rtapp '%s': task '%s': name '%.40s...' is longer than 63 characters",
			 d->file, rt->tasks[d->task].name, name);
		return -EINVAL;
	}
	for (i = 0; i < rt->nres; i++)
		if (rt->res[i].kind == kind && !strcmp(rt->res[i].name, name)) {
			*out = i;
			return 0;
		}
	GROW(rt->res, rt->nres, d->capres);
	memset(&rt->res[rt->nres], 0, sizeof(rt->res[0]));
	strcpy(rt->res[rt->nres].name, name);
	rt->res[rt->nres].kind = kind;
	rt->res[rt->nres].unique = kind == PS_RT_R_TIMER && !strncmp(name, "unique", 6);
	*out = rt->nres++;
	return 0;
}

static int get_name(struct rd *d, const char *key, struct json_object *v,
		    enum ps_rt_res_kind kind, int *out)
{
	const char *s;

	if (!json_object_is_type(v, json_type_string))
		return bad(d, key, "expected a name (a string)", NULL);
	s = json_object_get_string(v);
	if (!*s && kind == PS_RT_R_SUSPEND)
		s = d->rt->tasks[d->task].name; /* workgen fills in the task's */
	if (!*s)
		return bad(d, key, "empty name", NULL);
	return find_res(d, s, kind, out);
}

static int get_cpus(struct rd *d, const char *key, struct json_object *v,
		    int *lo, int *n)
{
	struct ps_rtapp *rt = d->rt;
	size_t i, len;

	if (!json_object_is_type(v, json_type_array) ||
	    !(len = json_object_array_length(v)))
		return bad(d, key, "expected a list of CPU numbers like [0, 2]", NULL);
	*lo = rt->ncpus;
	for (i = 0; i < len; i++) {
		long c;
		int r = get_int(d, key, json_object_array_get_idx(v, i), 0, 4095, &c);

		if (r)
			return r;
		GROW(rt->cpus, rt->ncpus, d->capcpu);
		rt->cpus[rt->ncpus++] = (int)c;
	}
	*n = (int)len;
	return 0;
}

static int event_key(const char *k, enum ps_rt_kind *kind)
{
	static const struct { const char *p; enum ps_rt_kind k; } ev[] = {
		{ "runtime", PS_RT_RUNTIME }, { "run", PS_RT_RUN },
		{ "sleep", PS_RT_SLEEP },     { "timer", PS_RT_TIMER },
		{ "suspend", PS_RT_SUSPEND }, { "resume", PS_RT_RESUME },
		{ "lock", PS_RT_LOCK },       { "unlock", PS_RT_UNLOCK },
		{ "wait", PS_RT_WAIT },       { "signal", PS_RT_SIGNAL },
		{ "broad", PS_RT_BROADCAST }, { "sync", PS_RT_SYNC },
		{ "barrier", PS_RT_BARRIER }, { "yield", PS_RT_YIELD },
	};
	size_t i;

	for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (!strncmp(k, ev[i].p, strlen(ev[i].p))) {
			*kind = ev[i].k;
			return 0;
		}
	return -1;
}

static int parse_event(struct rd *d, const char *key, struct json_object *v,
		       enum ps_rt_kind kind)
{
	struct ps_rtapp *rt = d->rt;
	struct ps_rt_event *e;
	long x = 0;
	int r = 0;

	if (rt->nev >= RT_MAX_EVENTS)
		return bad(d, key, "more than a million events", NULL);
	GROW(rt->ev, rt->nev, d->capev);
	e = &rt->ev[rt->nev];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->res = e->mutex = -1;
	switch (kind) {
	case PS_RT_RUN:
	case PS_RT_RUNTIME:
	case PS_RT_SLEEP:
		r = get_int(d, key, v, 0, (long)RT_MAX_US, &x);
		e->dur = x * 1e-6;
		break;
	case PS_RT_TIMER: {
		struct json_object *ref = NULL, *per = NULL, *mode = NULL;

		if (!json_object_is_type(v, json_type_object))
			return bad(d, key, "expected { \"ref\": NAME, \"period\": US }", NULL);
		json_object_object_foreach(v, tk, tv) {
			if (!strcmp(tk, "ref"))
				ref = tv;
			else if (!strcmp(tk, "period"))
				per = tv;
			else if (!strcmp(tk, "mode"))
				mode = tv;
			else
				return bad(d, tk, "not a timer key (ref, period, mode)", NULL);
		}
		if (!ref || !per)
			return bad(d, key, "a timer needs ref and period", NULL);
		r = get_name(d, key, ref, PS_RT_R_TIMER, &e->res);
		if (!r)
			r = get_int(d, key, per, 1, (long)RT_MAX_US, &x);
		e->dur = x * 1e-6;
		if (!r && mode) {
			const char *m = json_object_is_type(mode, json_type_string) ?
					json_object_get_string(mode) : "";

			if (!strcmp(m, "absolute"))
				e->abs = 1;
			else if (strcmp(m, "relative"))
				return bad(d, key, "timer mode is relative or absolute", NULL);
		}
		break;
	}
	case PS_RT_SUSPEND:
	case PS_RT_RESUME:
		r = get_name(d, key, v, PS_RT_R_SUSPEND, &e->res);
		break;
	case PS_RT_LOCK:
	case PS_RT_UNLOCK:
		r = get_name(d, key, v, PS_RT_R_MUTEX, &e->res);
		break;
	case PS_RT_SIGNAL:
	case PS_RT_BROADCAST:
		r = get_name(d, key, v, PS_RT_R_COND, &e->res);
		break;
	case PS_RT_BARRIER:
		r = get_name(d, key, v, PS_RT_R_BARRIER, &e->res);
		break;
	case PS_RT_WAIT:
	case PS_RT_SYNC: {
		struct json_object *ref = NULL, *mu = NULL;

		if (!json_object_is_type(v, json_type_object))
			return bad(d, key, "expected { \"ref\": NAME, \"mutex\": NAME }", NULL);
		json_object_object_foreach(v, wk, wv) {
			if (!strcmp(wk, "ref"))
				ref = wv;
			else if (!strcmp(wk, "mutex"))
				mu = wv;
			else
				return bad(d, wk, "not a wait key (ref, mutex)", NULL);
		}
		if (!ref || !mu)
			return bad(d, key, "needs ref and mutex", NULL);
		r = get_name(d, key, ref, PS_RT_R_COND, &e->res);
		if (!r)
			r = get_name(d, key, mu, PS_RT_R_MUTEX, &e->mutex);
		break;
	}
	case PS_RT_YIELD:
		break; /* its string is not used */
	}
	if (!r)
		rt->nev++;
	return r;
}

/* The events (and loop, cpus) of one phase object or a task's direct events. */
static int parse_phase(struct rd *d, struct json_object *o, const char *pname,
		       int task_level)
{
	struct ps_rtapp *rt = d->rt;
	struct ps_rt_phase *ph;
	int r;

	GROW(rt->ph, rt->nph, d->capph);
	ph = &rt->ph[rt->nph];
	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", pname);
	ph->name[strcspn(ph->name, "\001")] = '\0';
	ph->loop = 1;
	ph->ev_lo = rt->nev;
	json_object_object_foreach(o, k, v) {
		enum ps_rt_kind kind;
		long x = 0;

		if (task_level && (!strcmp(k, "instance") || !strcmp(k, "loop") ||
				   !strcmp(k, "delay") || !strcmp(k, "cpus") ||
				   !strcmp(k, "priority") || !strcmp(k, "policy")))
			continue; /* read by parse_task() */
		if (!task_level && !strcmp(k, "loop")) {
			r = get_int(d, k, v, 1, INT_MAX, &x);
			if (r)
				return r;
			ph = &rt->ph[rt->nph];
			ph->loop = (int)x;
			continue;
		}
		if (!task_level && !strcmp(k, "cpus")) {
			int lo, n;

			r = get_cpus(d, k, v, &lo, &n);
			if (r)
				return r;
			ph = &rt->ph[rt->nph];
			ph->cpu_lo = lo;
			ph->ncpu = n;
			continue;
		}
		if (!strncmp(k, "mem", 3) || !strncmp(k, "iorun", 5))
			return bad(d, k, "memory and I/O events are not modeled", NULL);
		if (event_key(k, &kind))
			return bad(d, k, "not an rt-app event the simulator models", NULL);
		r = parse_event(d, k, v, kind);
		if (r)
			return r;
	}
	ph = &rt->ph[rt->nph];
	ph->nev = rt->nev - ph->ev_lo;
	rt->nph++;
	return 0;
}

static int policy_ok(struct rd *d, const char *key, struct json_object *v)
{
	const char *s = json_object_is_type(v, json_type_string) ?
			json_object_get_string(v) : "";

	if (!strcmp(s, "SCHED_OTHER"))
		return 0;
	return bad(d, key, "only SCHED_OTHER is modeled, not ", s[0] ? s : "this");
}

static int parse_task(struct rd *d, const char *name, struct json_object *o)
{
	struct ps_rtapp *rt = d->rt;
	struct ps_rt_task *t = &rt->tasks[d->task];
	struct json_object *phases = NULL;
	int r;

	memset(t, 0, sizeof(*t));
	if (strcspn(name, "\001") >= sizeof(t->name)) {
		snprintf(d->err, d->errlen, "rtapp '%s': task name '%.40s...' is longer than 63 characters",
			 d->file, name);
		return -EINVAL;
	}
	shown(name, t->name, sizeof(t->name));
	t->instance = 1;
	t->loop = -1;
	t->ph_lo = rt->nph;
	if (!json_object_is_type(o, json_type_object))
		return bad(d, name, "a task is an object", NULL);
	json_object_object_foreach(o, k, v) {
		long x = 0;

		r = 0;
		if (!strcmp(k, "instance")) {
			r = get_int(d, k, v, 1, PS_WL_MAX_TASKS, &x);
			t->instance = (int)x;
		} else if (!strcmp(k, "loop")) {
			r = get_int(d, k, v, -1, LONG_MAX, &x);
			if (!r && x == 0)
				return bad(d, k, "0 loops: the task would do nothing", NULL);
			t->loop = x;
		} else if (!strcmp(k, "delay")) {
			r = get_int(d, k, v, 0, (long)RT_MAX_US, &x);
			t->delay = x * 1e-6;
		} else if (!strcmp(k, "cpus")) {
			r = get_cpus(d, k, v, &t->cpu_lo, &t->ncpu);
		} else if (!strcmp(k, "priority")) {
			/* SCHED_OTHER's nice: read, not weighed (see the man page) */
			r = get_int(d, k, v, -20, 19, &x);
		} else if (!strcmp(k, "policy")) {
			r = policy_ok(d, k, v);
		} else if (!strcmp(k, "phases")) {
			phases = v;
		} else if (!strncmp(k, "dl-", 3) || !strncmp(k, "util_", 5) ||
			   !strcmp(k, "taskgroup")) {
			return bad(d, k, "not modeled", NULL);
		}
		if (r)
			return r;
	}
	if (phases) {
		if (!json_object_is_type(phases, json_type_object))
			return bad(d, "phases", "expected an object of phases", NULL);
		json_object_object_foreach(o, k2, v2) {
			enum ps_rt_kind kind;

			if (!strcmp(k2, "phases") || !strcmp(k2, "instance") ||
			    !strcmp(k2, "loop") || !strcmp(k2, "delay") ||
			    !strcmp(k2, "cpus") || !strcmp(k2, "priority") ||
			    !strcmp(k2, "policy"))
				continue;
			(void)v2;
			if (!event_key(k2, &kind))
				return bad(d, k2, "events go inside phases when a task has phases", NULL);
			return bad(d, k2, "not a task key", NULL);
		}
		json_object_object_foreach(phases, pk, pv) {
			if (!json_object_is_type(pv, json_type_object))
				return bad(d, pk, "a phase is an object", NULL);
			r = parse_phase(d, pv, pk, 0);
			if (r)
				return r;
		}
	} else {
		r = parse_phase(d, o, "phase0", 1);
		if (r)
			return r;
	}
	t = &rt->tasks[d->task];
	t->nph = rt->nph - t->ph_lo;
	if (!t->nph)
		return bad(d, "phases", "no phases", NULL);
	{
		int p, nev = 0;

		for (p = t->ph_lo; p < t->ph_lo + t->nph; p++)
			nev += rt->ph[p].nev;
		if (!nev)
			return bad(d, name, "the task has no events", NULL);
	}
	return 0;
}

static int parse_global(struct rd *d, struct json_object *g)
{
	static const char *const logging[] = {
		"logdir", "log_basename", "log_size", "ftrace", "gnuplot",
		"lock_pages", "io_device", "mem_buffer_size", "pi_enabled", "frag",
	};
	int r = 0;

	if (!json_object_is_type(g, json_type_object))
		return bad(d, "global", "expected an object", NULL);
	json_object_object_foreach(g, k, v) {
		size_t i;
		long x = 0;

		if (!strcmp(k, "duration")) {
			r = get_int(d, k, v, -1, 10000000, &x);
			if (!r && x == 0)
				return bad(d, k, "0 s: nothing would run", NULL);
			d->rt->duration = x;
		} else if (!strcmp(k, "calibration")) {
			/* every PU of the model is alike: run N is N us of work */
			if (!json_object_is_type(v, json_type_string) &&
			    !json_object_is_type(v, json_type_int))
				return bad(d, k, "expected \"CPUn\" or ns per loop", NULL);
		} else if (!strcmp(k, "default_policy")) {
			r = policy_ok(d, k, v);
		} else if (!strcmp(k, "cumulative_slack")) {
			if (!json_object_is_type(v, json_type_boolean))
				return bad(d, k, "expected true or false", NULL);
			d->rt->cumulative_slack = json_object_get_boolean(v);
			if (d->rt->cumulative_slack)
				return bad(d, k, "true is not modeled (slack is per timer event)", NULL);
		} else {
			for (i = 0; i < sizeof(logging) / sizeof(logging[0]); i++)
				if (!strcmp(k, logging[i]))
					break;
			if (i == sizeof(logging) / sizeof(logging[0]))
				return bad(d, k, "not a global key the simulator knows", NULL);
		}
		if (r)
			return r;
	}
	return 0;
}

/* Every resumed name is suspended on; barrier users are counted. */
static int cross_check(struct rd *d)
{
	struct ps_rtapp *rt = d->rt;
	int t, p, e;

	for (t = 0; t < rt->ntasks; t++) {
		const struct ps_rt_task *tk = &rt->tasks[t];

		for (p = tk->ph_lo; p < tk->ph_lo + tk->nph; p++)
			for (e = rt->ph[p].ev_lo; e < rt->ph[p].ev_lo + rt->ph[p].nev; e++) {
				const struct ps_rt_event *ev = &rt->ev[e];
				int t2, p2, e2, found = 0, seen = 0;

				if (ev->kind == PS_RT_BARRIER) {
					/* once per task instance that uses it */
					for (e2 = rt->ph[tk->ph_lo].ev_lo; e2 < e; e2++)
						if (rt->ev[e2].kind == PS_RT_BARRIER &&
						    rt->ev[e2].res == ev->res)
							seen = 1;
					if (!seen)
						rt->res[ev->res].users += tk->instance;
				}
				if (ev->kind != PS_RT_RESUME)
					continue;
				for (t2 = 0; t2 < rt->ntasks && !found; t2++) {
					const struct ps_rt_task *u = &rt->tasks[t2];

					for (p2 = u->ph_lo; p2 < u->ph_lo + u->nph; p2++)
						for (e2 = rt->ph[p2].ev_lo;
						     e2 < rt->ph[p2].ev_lo + rt->ph[p2].nev; e2++)
							if (rt->ev[e2].kind == PS_RT_SUSPEND &&
							    rt->ev[e2].res == ev->res)
								found = 1;
				}
				if (!found) {
					snprintf(d->err, d->errlen,
						 "rtapp '%s': task '%s': key 'resume': no task suspends on '%s'",
						 d->file, tk->name, rt->res[ev->res].name);
					return -EINVAL;
				}
			}
	}
	return 0;
}

void ps_rtapp_free(struct ps_rtapp *rt)
{
	if (!rt)
		return;
	free(rt->tasks);
	free(rt->ph);
	free(rt->ev);
	free(rt->cpus);
	free(rt->res);
	free(rt);
}

static int line_of(const char *t, size_t off)
{
	int l = 1;
	size_t i;

	for (i = 0; i < off && t[i]; i++)
		l += t[i] == '\n';
	return l;
}

int ps_rtapp_parse(const char *text, size_t len, const char *name,
		   struct ps_rtapp **out, char *err, size_t errlen)
{
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL, *tasks = NULL, *global = NULL;
	struct ps_rtapp *rt;
	struct rd d;
	char *fixed = NULL;
	int r;
	long ninst = 0;

	*out = NULL;
	if (len > RT_MAX_BYTES || memchr(text, '\0', len)) {
		snprintf(err, errlen, "rtapp '%s': over 16 MiB or not text", name);
		return -EINVAL;
	}
	r = rename_repeats(text, len, &fixed, err, errlen, name);
	if (r)
		return r;
	tok = json_tokener_new_ex(RT_MAX_DEPTH + 2);
	if (!tok) {
		free(fixed);
		return -ENOMEM;
	}
	root = json_tokener_parse_ex(tok, fixed, (int)strlen(fixed) + 1);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		enum json_tokener_error je = json_tokener_get_error(tok);

		snprintf(err, errlen, "rtapp '%s': line %d: malformed JSON: %s", name,
			 line_of(fixed, json_tokener_get_parse_end(tok)),
			 je == json_tokener_continue ? "unexpected end" :
			 json_tokener_error_desc(je));
		json_object_put(root);
		json_tokener_free(tok);
		free(fixed);
		return -EINVAL;
	}
	{
		size_t end = json_tokener_get_parse_end(tok);

		while (fixed[end] && strchr(" \t\r\n", fixed[end]))
			end++;
		if (fixed[end]) {
			snprintf(err, errlen, "rtapp '%s': line %d: text after the end of the JSON",
				 name, line_of(fixed, end));
			json_object_put(root);
			json_tokener_free(tok);
			free(fixed);
			return -EINVAL;
		}
	}
	json_tokener_free(tok);
	rt = calloc(1, sizeof(*rt));
	if (!rt) {
		json_object_put(root);
		free(fixed);
		return -ENOMEM;
	}
	snprintf(rt->path, sizeof(rt->path), "%s", name);
	rt->duration = -1;
	memset(&d, 0, sizeof(d));
	d.rt = rt;
	d.file = name;
	d.err = err;
	d.errlen = errlen;
	d.task = -1;
	r = -EINVAL;
	if (!json_object_is_type(root, json_type_object)) {
		snprintf(err, errlen, "rtapp '%s': the top level is not an object", name);
		goto fail;
	}
	json_object_object_foreach(root, k, v) {
		if (!strcmp(k, "tasks")) {
			tasks = v;
		} else if (!strcmp(k, "global")) {
			global = v;
		} else if (strcmp(k, "resources")) {
			bad(&d, k, "not a top-level key (tasks, global, resources)", NULL);
			goto fail;
		}
	}
	if (!tasks || !json_object_is_type(tasks, json_type_object) ||
	    !json_object_object_length(tasks)) {
		snprintf(err, errlen, "rtapp '%s': key 'tasks': missing, or not an object of tasks",
			 name);
		goto fail;
	}
	if (global && (r = parse_global(&d, global)))
		goto fail;
	r = -ENOMEM;
	rt->tasks = calloc(json_object_object_length(tasks), sizeof(*rt->tasks));
	if (!rt->tasks)
		goto fail;
	{
		json_object_object_foreach(tasks, tk, tv) {
			d.task = rt->ntasks;
			r = parse_task(&d, tk, tv);
			if (r)
				goto fail;
			ninst += rt->tasks[rt->ntasks].instance;
			rt->ntasks++;
			if (ninst > PS_WL_MAX_TASKS) {
				bad(&d, "instance", "more than 100000 task instances in all", NULL);
				r = -EINVAL;
				goto fail;
			}
		}
	}
	rt->ninst = (int)ninst;
	d.task = -1;
	r = cross_check(&d);
	if (r)
		goto fail;
	json_object_put(root);
	free(fixed);
	*out = rt;
	return 0;
fail:
	json_object_put(root);
	free(fixed);
	ps_rtapp_free(rt);
	return r;
}
