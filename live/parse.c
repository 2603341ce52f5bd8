// SPDX-License-Identifier: MIT
/*
 * DOC: parsers and pure helpers of the live side
 *
 * /proc stat and schedstat lines, CPU lists, journal lines, the decayed
 * utilization and the mask-change rate limit. No I/O here.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/live.h"

#define PF_KTHREAD_FLAG 0x00200000UL /* include/linux/sched.h */

int ps_live_parse_stat(const char *text, struct ps_live_stat *out)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	const char *p;
	char *end;
	unsigned long long v;
	int field;
	size_t n;

	if (!open || !close || close < open)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || v == 0 || v > 0x7fffffff)
		return -EINVAL;
	out->tid = (pid_t)v;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, n);
	out->comm[n] = '\0';
	p = close + 1;
	if (*p != ' ' || !p[1])
		return -EINVAL;
	out->state = p[1];
	p += 2;
	/* fields 4.. are numbers separated by single spaces */
	for (field = 4; field <= 41 && *p; field++) {
		if (*p != ' ')
			return -EINVAL;
		p++;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (*p == '-') /* a few fields may be negative: skip them */
			v = 0, end = (char *)p + strspn(p, "-0123456789");
		else if (errno || end == p)
			return -EINVAL;
		switch (field) {
		case 4: out->ppid = (pid_t)v; break;
		case 9: out->flags = (unsigned long)v; break;
		case 14: out->utime = v; break;
		case 15: out->stime = v; break;
		case 20: out->nr_threads = (int)v; break;
		case 22: out->starttime = v; break;
		case 39: out->cpu = (int)v; break;
		case 41: out->rt_policy = (unsigned)v; break;
		default: break;
		}
		p = end;
	}
	return field > 41 ? 0 : -EINVAL;
}

/*
 * A mountinfo line: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] -
 * FSTYPE SOURCE SUPER_OPTIONS; procfs gives hidepid= and gid= in the last.
 */
int ps_live_parse_proc_mount(const char *mountinfo, long *gid)
{
	const char *line = mountinfo;
	int hidden = 0;

	*gid = -1;
	while (line && *line) {
		const char *end = strchr(line, '\n'), *p;
		char mnt[16] = "", fstype[16] = "", opts[256] = "";
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[1024];

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			p = strstr(buf, " - ");
			if (p && sscanf(buf, "%*s %*s %*s %*s %15s", mnt) == 1 &&
			    sscanf(p + 3, "%15s %*s %255s", fstype, opts) == 2 &&
			    !strcmp(mnt, "/proc") && !strcmp(fstype, "proc")) {
				char *save = NULL, *o;
				long g = -1;

				hidden = 0;
				for (o = strtok_r(opts, ",", &save); o;
				     o = strtok_r(NULL, ",", &save)) {
					if (!strncmp(o, "hidepid=", 8))
						hidden = strcmp(o + 8, "0") && strcmp(o + 8, "off");
					else if (!strncmp(o, "gid=", 4)) {
						char *e;

						errno = 0;
						g = strtol(o + 4, &e, 10);
						if (errno || *e || e == o + 4 || g < 0)
							g = -1;
					}
				}
				*gid = g;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return hidden;
}

int ps_live_parse_schedstat(const char *text, unsigned long long *run_ns,
			    unsigned long long *wait_ns)
{
	char *end;

	/* strtoull, not sscanf: this runs for every thread every interval */
	errno = 0;
	*run_ns = strtoull(text, &end, 10);
	if (errno || end == text || *end != ' ')
		return -EINVAL;
	text = end + 1;
	*wait_ns = strtoull(text, &end, 10);
	if (errno || end == text)
		return -EINVAL;
	return 0;
}

int ps_live_is_kthread(const struct ps_live_stat *s)
{
	return (s->flags & PF_KTHREAD_FLAG) != 0;
}

int ps_live_is_rt(const struct ps_live_stat *s)
{
	/* SCHED_FIFO 1, SCHED_RR 2, SCHED_DEADLINE 6 (uapi/linux/sched.h) */
	return s->rt_policy == 1 || s->rt_policy == 2 || s->rt_policy == 6;
}

double ps_live_util_update(double prev, unsigned long long run_ns,
			   unsigned long long wait_ns, double dt_s)
{
	double d, decayed;

	if (!(dt_s > 0))
		return prev;
	d = (double)(run_ns + wait_ns) / (dt_s * 1e9);
	if (d > 1)
		d = 1;
	decayed = prev * exp2(-dt_s / PS_LIVE_HALF_LIFE_S);
	return d > decayed ? d : decayed;
}

int ps_ratelimit_init(struct ps_ratelimit *rl, int max, double window_s)
{
	if (max < 1 || max > (int)(sizeof(rl->t) / sizeof(rl->t[0])) ||
	    !(window_s > 0))
		return -EINVAL;
	memset(rl, 0, sizeof(*rl));
	rl->max = max;
	rl->window_s = window_s;
	return 0;
}

int ps_ratelimit_allow(struct ps_ratelimit *rl, double now_s, int grow)
{
	int k = 0;

	while (k < rl->n && rl->t[k] <= now_s - rl->window_s)
		k++;
	memmove(rl->t, rl->t + k, (size_t)(rl->n - k) * sizeof(rl->t[0]));
	rl->n -= k;
	if (rl->n >= rl->max || (!grow && rl->n + 1 >= rl->max))
		return 0;
	rl->t[rl->n++] = now_s;
	return 1;
}

int ps_live_count(const unsigned char *bits, int n)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += bits[i] != 0;
	return c;
}

int ps_cpulist_parse(const char *s, unsigned char *bits, int nbits)
{
	const char *p = s;
	char *end;
	long a, b;

	memset(bits, 0, (size_t)nbits);
	while (*p && *p != '\n') {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a > b || b >= nbits)
			return -EINVAL;
		while (a <= b)
			bits[a++] = 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int ps_cpulist_format(const unsigned char *bits, int nbits, char *out,
		      size_t outlen)
{
	size_t len = 0;
	int i = 0, j, w;

	if (!outlen)
		return -EINVAL;
	out[0] = '\0';
	while (i < nbits) {
		if (!bits[i]) {
			i++;
			continue;
		}
		for (j = i; j + 1 < nbits && bits[j + 1]; j++)
			;
		if (j == i)
			w = snprintf(out + len, outlen - len, "%s%d", len ? "," : "", i);
		else
			w = snprintf(out + len, outlen - len, "%s%d-%d", len ? "," : "",
				     i, j);
		if (w < 0 || (size_t)w >= outlen - len)
			return -ENOSPC;
		len += (size_t)w;
		i = j + 1;
	}
	return 0;
}

int ps_cpumask_parse_hex(const char *s, unsigned char *bits, int nbits)
{
	size_t len = strcspn(s, "\n"), i;
	int cpu = 0, digits = 0;

	if (!len || nbits <= 0 || (s[len] == '\n' && s[len + 1]))
		return -EINVAL;
	memset(bits, 0, (size_t)nbits);
	/* from the last digit (CPUs 0-3) back: groups of 8 digits, the first
	 * (most significant) one 1 to 8 */
	for (i = len; i-- > 0;) {
		int d, k;

		if (s[i] == ',') {
			if (digits != 8 || !i)
				return -EINVAL;
			digits = 0;
			continue;
		}
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -EINVAL;
		if (++digits > 8)
			return -EINVAL;
		for (k = 0; k < 4; k++, cpu++) {
			if (!(d & (1 << k)))
				continue;
			if (cpu >= nbits)
				return -EINVAL;
			bits[cpu] = 1;
		}
	}
	return 0;
}

int ps_cpumask_format_hex(const unsigned char *bits, int nbits, char *out, size_t outlen)
{
	int top = 0, w, i, k;
	size_t len = 0;

	if (!outlen)
		return -EINVAL;
	for (i = 0; i < nbits; i++)
		if (bits[i])
			top = i;
	/* words of 32 CPUs, the highest one holding a set CPU first */
	for (w = top / 32; w >= 0; w--) {
		unsigned long v = 0;
		int n;

		for (k = 0; k < 32; k++)
			if (w * 32 + k < nbits && bits[w * 32 + k])
				v |= 1UL << k;
		n = snprintf(out + len, outlen - len, "%s%08lx", w == top / 32 ? "" : ",", v);
		if (n < 0 || (size_t)n >= outlen - len)
			return -ENOSPC;
		len += (size_t)n;
	}
	return 0;
}

/* an absolute cgroup path with no "." or ".." component */
static int cgroup_path_ok(const char *p)
{
	if (p[0] != '/')
		return 0;
	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
	}
	return 1;
}

/* The next space-separated word of *p into out (cap bytes with its NUL):
 * 0, or -EINVAL when there is none or it does not fit (never cut). */
static int word(const char **p, char *out, size_t cap)
{
	const char *s = *p + strspn(*p, " \t");
	size_t n = strcspn(s, " \t\n");

	if (!n || n >= cap)
		return -EINVAL;
	memcpy(out, s, n);
	out[n] = '\0';
	*p = s + n;
	return 0;
}

/* nothing but blanks up to the end of the line */
static int at_end(const char *p)
{
	p += strspn(p, " \t");
	return !*p || *p == '\n';
}

/* "ID STARTTIME" into out, and *p past them */
static int id_start(const char **p, struct ps_journal_rec *out)
{
	int n = 0;

	if (sscanf(*p, "%lld %llu%n", &out->id, &out->starttime, &n) != 2 || out->id <= 0)
		return -EINVAL;
	*p += n;
	return 0;
}

int ps_journal_parse_line(const char *line, struct ps_journal_rec *out)
{
	char kind[16];
	int n = 0;

	out->kind = 0;
	out->id = 0;
	out->starttime = 0;
	out->a[0] = out->b[0] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	if (!*line || *line == '\n' || *line == '#')
		return 1;
	if (sscanf(line, "%15s %n", kind, &n) != 1)
		return -EINVAL;
	line += n;
	if (!strcmp(kind, "owner")) {
		out->kind = 'o';
		if (sscanf(line, "%lld %llu", &out->id, &out->starttime) != 2 ||
		    out->id <= 0)
			return -EINVAL;
	} else if (!strcmp(kind, "task")) {
		out->kind = 't';
		if (id_start(&line, out) || word(&line, out->a, sizeof(out->a)) || !at_end(line))
			return -EINVAL;
	} else if (!strcmp(kind, "release")) {
		out->kind = 'r';
		if (id_start(&line, out) || !at_end(line))
			return -EINVAL;
	} else if (!strcmp(kind, "done")) {
		out->kind = 'e';
		if (!at_end(line))
			return -EINVAL;
	} else if (!strcmp(kind, "applied")) {
		out->kind = 'a';
		if (word(&line, out->a, sizeof(out->a)) || !at_end(line))
			return -EINVAL;
	} else if (!strcmp(kind, "cgroup")) {
		size_t len;

		out->kind = 'c';
		/* ORIGIN is the rest of the line: a cgroup name may hold spaces.
		 * PATH is one of ours, right under the root: "/powersched-NAME" */
		if (word(&line, out->a, sizeof(out->a)) ||
		    strncmp(out->a, "/powersched-", 12) || !out->a[12] ||
		    strchr(out->a + 1, '/') || strstr(out->a, ".."))
			return -EINVAL;
		line += strspn(line, " \t");
		len = strcspn(line, "\n");
		if (line[0] != '/' || len >= sizeof(out->b))
			return -EINVAL;
		memcpy(out->b, line, len);
		out->b[len] = '\0';
		if (!cgroup_path_ok(out->b))
			return -EINVAL;
	} else if (!strcmp(kind, "irq")) {
		out->kind = 'i';
		if (sscanf(line, "%lld%n", &out->id, &n) != 1 || out->id < 0 || out->id > 1 << 24)
			return -EINVAL;
		line += n;
		if (word(&line, out->a, sizeof(out->a)) || !at_end(line))
			return -EINVAL;
	} else if (!strcmp(kind, "wqmask") || !strcmp(kind, "irqdefault")) {
		out->kind = kind[0] == 'w' ? 'w' : 'd';
		if (word(&line, out->a, sizeof(out->a)) || !at_end(line) ||
		    strspn(out->a, "0123456789abcdefABCDEF,") != strlen(out->a))
			return -EINVAL;
	} else if (!strcmp(kind, "subtree")) {
		out->kind = 's';
		/* only the root's: that is the one place we enable cpuset */
		if (word(&line, out->a, sizeof(out->a)) || strcmp(out->a, "/"))
			return -EINVAL;
		if (!at_end(line) && (word(&line, out->b, sizeof(out->b)) ||
				      strcmp(out->b, "shared") || !at_end(line)))
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	return 0;
}
