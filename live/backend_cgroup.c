// SPDX-License-Identifier: MIT
/*
 * DOC: enforcement backend "cgroup": a cgroup v2 cpuset of our own
 *
 * run's command starts in a cgroup powersched creates (journaled before),
 * and cpuset.cpus is written only when its content changes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

int ps_live_cgroup_usable(struct ps_live *l)
{
	char path[512], buf[512];

	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup/cgroup.controllers");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return strstr(buf, "cpuset") != NULL;
}

/* a cgroup of another powersched instance under the root */
static int other_instance(const struct ps_live *l)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int found = 0;

	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup");
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		found = !strncmp(de->d_name, "powersched-", 11) && de->d_type == DT_DIR;
	closedir(d);
	return found;
}

int ps_live_cgroup_unit(struct ps_live *l, char *unit, size_t len)
{
	char origin[PS_LIVE_CG_PATH], *c, *next;
	int found = 0;

	if (len)
		unit[0] = '\0';
	if (ps_live_cgroup_of(l, 0, origin, sizeof(origin)))
		return 0;
	/* the innermost component that is a systemd unit's */
	for (c = origin; c && *c; c = next) {
		size_t n;

		while (*c == '/')
			c++;
		next = strchr(c, '/');
		n = next ? (size_t)(next - c) : strlen(c);
		if ((n > 8 && !strncmp(c + n - 8, ".service", 8)) ||
		    (n > 6 && !strncmp(c + n - 6, ".scope", 6))) {
			found = 1;
			if (len)
				snprintf(unit, len, "%.*s", (int)n, c);
		}
	}
	return found;
}

/* "max", or a number: the tighter of two limits (a missing one: none) */
static int tighter(const char *a, const char *b)
{
	if (!strncmp(b, "max", 3))
		return 0;
	if (!a[0] || !strncmp(a, "max", 3))
		return 1;
	return strtoull(b, NULL, 10) < strtoull(a, NULL, 10);
}

/* cpu.max "QUOTA PERIOD": the share of a CPU it allows (max: infinity) */
static double cpu_share(const char *s)
{
	double q, per;

	if (!s[0] || !strncmp(s, "max", 3) || sscanf(s, "%lf %lf", &q, &per) != 2 || per <= 0)
		return 1e300;
	return q / per;
}

/*
 * Our cgroup is under the root, so the limits of the cgroup the command
 * came from, and of the slices above it, do not hold there: copy the ones
 * a task escapes most (process count, memory, CPU bandwidth), each the
 * tightest of the origin and its ancestors (a unit's TasksMax may be its
 * slice's), and keep the allowed CPUs inside the origin's. A copy is a
 * limit of its own, not a share of the origin's: the command gets as much
 * again as its caller had (documented). A limit that cannot be copied
 * (its controller is off in the root's subtree_control) is said, not
 * skipped in silence.
 */
static void copy_limits(struct ps_live *l, const char *origin)
{
	static const char *const files[] = { "pids.max", "memory.max", "memory.high",
		"memory.swap.max", "cpu.max", "cpu.weight", NULL };
	char src[PS_LIVE_CG_PATH + 64], dst[1024], buf[256], best[256], from[PS_LIVE_CG_PATH];
	char at[PS_LIVE_CG_PATH];
	int k;

	memset(l->cg_limit, 0, PS_LIVE_MAX_CPUS);
	l->have_cg_limit = 0;
	if (!strcmp(origin, "/"))
		return;
	for (k = 0; files[k]; k++) {
		int weight = !strcmp(files[k], "cpu.weight");

		best[0] = '\0';
		/* the origin, then each parent up to (not) the root; a weight
		 * is relative to its siblings: the origin's alone */
		snprintf(at, sizeof(at), "%s", origin);
		while (at[0] && strcmp(at, "/")) {
			ps_live_path(l, src, sizeof(src), "/sys/fs/cgroup%s/%s", at, files[k]);
			if (ps_live_read_file(src, buf, sizeof(buf)) > 0) {
				buf[strcspn(buf, "\n")] = '\0';
				if (!strcmp(files[k], "cpu.max") ?
					    cpu_share(buf) < cpu_share(best) :
					    weight ? !best[0] : tighter(best, buf)) {
					snprintf(best, sizeof(best), "%s", buf);
					snprintf(from, sizeof(from), "%s", at);
				}
			}
			if (weight)
				break;
			*strrchr(at, '/') = '\0';
		}
		if (!best[0] || !strncmp(best, "max", 3) || (weight && !strcmp(best, "100")))
			continue;
		ps_live_path(l, dst, sizeof(dst), "/sys/fs/cgroup%s/%s", l->cg_path, files[k]);
		if (access(dst, W_OK))
			lg(l, "cgroup: %s '%s' of %s not copied: no %s in our cgroup (its "
			   "controller is off in the root's cgroup.subtree_control)",
			   files[k], best, from, files[k]);
		else if (ps_live_write_file(dst, best))
			lg(l, "cgroup: copying %s '%s' from %s: not possible", files[k], best, from);
		else
			lg(l, "cgroup: %s %s copied from %s", files[k], best, from);
	}
	ps_live_path(l, src, sizeof(src), "/sys/fs/cgroup%s/cpuset.cpus.effective", origin);
	if (ps_live_read_file(src, buf, sizeof(buf)) > 0 && buf[0] != '\n' &&
	    !ps_cpulist_parse(buf, l->cg_limit, PS_LIVE_MAX_CPUS))
		l->have_cg_limit = 1;
}

static int cgroup_create(struct ps_live *l)
{
	char path[768], buf[512], origin[PS_LIVE_CG_PATH], unit[256];
	int r;

	if (ps_live_cgroup_of(l, 0, origin, sizeof(origin)))
		snprintf(origin, sizeof(origin), "/");
	if (ps_live_cgroup_unit(l, unit, sizeof(unit)))
		lg(l, "cgroup: the command leaves %s (the unit %s) for a cgroup of ours: the "
		   "unit's stop and logind's cleanup no longer reach it (-b affinity keeps "
		   "it there)", origin, unit);
	/* a sibling of ours would need the parent's subtree_control; we use
	 * the root, whose processes the no-internal-process rule exempts */
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup/cgroup.subtree_control");
	if (ps_live_read_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	if (!strstr(buf, "cpuset")) {
		/* on before 6.2 this resets the affinity of every task below
		 * the root: the guarded write records them and puts back each
		 * one it changed */
		r = ps_live_journal_line(l, "subtree /\n");
		if (!r)
			r = ps_live_journal_sync(l);
		if (r)
			return r;
		r = ps_live_guarded_write(l->cfg.root, path, "+cpuset", l->cfg.log,
					  l->cfg.log_arg);
		if (r) {
			lg(l, "cgroup: cannot enable cpuset in the root cgroup: %s", strerror(-r));
			return r;
		}
	} else if (other_instance(l)) {
		/* another powersched turned it on and turns it off when it
		 * ends, unless we are still there: then we do */
		r = ps_live_journal_line(l, "subtree / shared\n");
		if (r)
			return r;
	}
	snprintf(l->cg_path, sizeof(l->cg_path), "/powersched-%s-%d", l->cfg.name,
		 (int)l->self);
	r = ps_live_journal_line(l, "cgroup %s %s\n", l->cg_path, origin);
	if (!r)
		r = ps_live_journal_sync(l);
	if (r)
		return r;
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s", l->cg_path);
	if (mkdir(path, 0755) && errno != EEXIST) {
		r = -errno;
		lg(l, "cgroup: cannot create %s: %s", path, strerror(-r));
		return r;
	}
	copy_limits(l, origin);
	return 0;
}

static int cgroup_apply(struct ps_live *l, const char *list)
{
	static char lim[8192];
	char path[768];
	int r;

	/* never wider than the CPUs the command's own cgroup allows */
	if (l->have_cg_limit && !ps_cpulist_parse(list, l->scratch, PS_LIVE_MAX_CPUS)) {
		int any = 0;

		for (int i = 0; i < PS_LIVE_MAX_CPUS; i++)
			any |= l->scratch[i] &= l->cg_limit[i];
		ps_cpulist_format(any ? l->scratch : l->cg_limit, PS_LIVE_MAX_CPUS, lim,
				  sizeof(lim));
		list = lim;
	}
	if (!strcmp(list, l->cg_written))
		return 0; /* same content: no write */
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus", l->cg_path);
	r = ps_live_write_file(path, list);
	if (r) {
		lg(l, "cgroup: writing '%s' to %s: %s", list, path, strerror(-r));
		return r;
	}
	snprintf(l->cg_written, sizeof(l->cg_written), "%s", list);
	return 0;
}

static int cg_prepare_child(struct ps_live *l, char *procs_path, size_t len)
{
	int r;

	procs_path[0] = '\0';
	if (l->cfg.dry_run)
		return 0;
	r = cgroup_create(l);
	if (r)
		return r;
	ps_live_path(l, procs_path, len, "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
	return 0;
}

static void cg_set_child(struct ps_live *l, pid_t pid)
{
	char path[768], buf[32];

	if (!l->cg_path[0])
		return;
	/* the child enters on its own before exec; this covers a race */
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	ps_live_write_file(path, buf);
}

static int cg_apply(struct ps_live *l, const char *list, int changed)
{
	if (!changed || l->cfg.dry_run)
		return 0;
	return cgroup_apply(l, list);
}

/* cpu.stat's usage_usec: every task's CPU time in our cgroup, the exited
 * ones' included (cgroup v2 keeps it without the cpu controller) */
static double cg_usage_s(struct ps_live *l)
{
	char path[512], buf[1024], *p;

	if (!l->cg_path[0])
		return -1;
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s/cpu.stat", l->cg_path);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "usage_usec ");
	return p ? (double)strtoull(p + 11, NULL, 10) / 1e6 : -1;
}

const struct ps_live_backend_ops ps_live_backend_cgroup = {
	.name = "cgroup",
	.label = "cgroup v2 cpuset",
	.members = ps_live_members_cgroup,
	.prepare_child = cg_prepare_child,
	.set_child = cg_set_child,
	.apply = cg_apply,
	.usage_s = cg_usage_s,
};
