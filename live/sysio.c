// SPDX-License-Identifier: MIT
/*
 * DOC: small I/O helpers of the live side: files, masks, the log, paths
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
#include <sys/utsname.h>
#include <unistd.h>

#include "live_int.h"

void ps_live_logf(void (*log)(void *, const char *), void *arg, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log(arg, msg);
}

int ps_live_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC), r = 0;
	size_t n = strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		r = -errno;
	close(fd);
	return r;
}

int ps_live_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

static unsigned long long kernel_starttime(const char *root, long long tid)
{
	char path[256], buf[1024];
	struct ps_live_stat st;

	snprintf(path, sizeof(path), "%s/proc/%lld/stat", root, tid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 ||
	    ps_live_parse_stat(buf, &st))
		return 0;
	return st.starttime;
}

/* sched_setaffinity (set) or sched_getaffinity (get) between a byte map and
 * a kernel CPU set of nbits. */
static int mask_io(pid_t tid, unsigned char *bits, int nbits, int set_it)
{
	cpu_set_t *set;
	size_t sz;
	int i, r = 0;

	set = CPU_ALLOC((size_t)nbits);
	if (!set)
		return -ENOMEM;
	sz = CPU_ALLOC_SIZE((size_t)nbits);
	CPU_ZERO_S(sz, set);
	if (set_it) {
		for (i = 0; i < nbits; i++)
			if (bits[i])
				CPU_SET_S((size_t)i, sz, set);
		if (sched_setaffinity(tid, sz, set))
			r = -errno;
	} else {
		if (sched_getaffinity(tid, sz, set))
			r = -errno;
		for (i = 0; i < nbits; i++)
			bits[i] = !r && CPU_ISSET_S((size_t)i, sz, set);
	}
	CPU_FREE(set);
	return r;
}

static int kernel_set_mask(pid_t tid, const unsigned char *bits, int nbits)
{
	return mask_io(tid, (unsigned char *)bits, nbits, 1);
}

static int kernel_get_mask(pid_t tid, unsigned char *bits, int nbits)
{
	return mask_io(tid, bits, nbits, 0);
}

static int kernel_set_cpuset(pid_t tid, size_t size, const cpu_set_t *set)
{
	return sched_setaffinity(tid, size, set) ? -errno : 0;
}

static unsigned long long kernel_now_ticks(const struct ps_live *l)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (unsigned long long)(ps_live_uptime(l) * (double)(hz > 0 ? hz : 100));
}

/* the TIDs of process pid (/proc/PID/task), in *out (malloc'd): how many */
static int kernel_threads(const struct ps_live *l, pid_t pid, pid_t **out)
{
	char path[512];
	struct dirent *de;
	pid_t *v = NULL;
	int n = 0, cap = 0;
	DIR *d;

	*out = NULL;
	ps_live_path(l, path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (n == cap) {
			pid_t *nv = realloc(v, sizeof(*v) * (size_t)(cap = cap ? 2 * cap : 16));

			if (!nv)
				break;
			v = nv;
		}
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	*out = v;
	return n;
}

const struct ps_live_sysops ps_live_sys_kernel = {
	.threads = kernel_threads,
	.get_mask = kernel_get_mask,
	.set_mask = kernel_set_mask,
	.set_cpuset = kernel_set_cpuset,
	.starttime = kernel_starttime,
	.now_ticks = kernel_now_ticks,
};
const struct ps_live_sysops *ps_live_sys = &ps_live_sys_kernel;

int ps_live_set_mask(pid_t tid, const unsigned char *bits, int nbits)
{
	return ps_live_sys->set_mask(tid, bits, nbits);
}

int ps_live_get_mask(pid_t tid, unsigned char *bits, int nbits)
{
	return ps_live_sys->get_mask(tid, bits, nbits);
}

unsigned long long ps_live_starttime(const char *root, long long tid)
{
	return ps_live_sys->starttime(root, tid);
}

unsigned long long ps_live_now_ticks(const struct ps_live *l)
{
	return ps_live_sys->now_ticks(l);
}


void ps_live_path(const struct ps_live *l, char *buf, size_t len, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(buf, len, "%s", strcmp(l->cfg.root, "/") ? l->cfg.root : "");
	if (n >= len)
		n = len - 1;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

struct aff_snap {
	pid_t tid;
	cpu_set_t *set;
};

/*
 * What the reset gives a task: the CPUs of the root cpuset (the online
 * CPUs but isolated ones), where the cgroups below take theirs from when
 * cpuset is turned on or off in the root's subtree_control. 0, or -errno.
 */
static int reset_target(const char *root, cpu_set_t *set, size_t sz)
{
	const char *r = strcmp(root, "/") ? root : "";
	unsigned char bits[PS_LIVE_MAX_CPUS];
	char path[1100], buf[4096];
	int i;

	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/cpuset.cpus.effective", r);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || buf[0] == '\n') {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", r);
		if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
			return -ENOENT;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (ps_cpulist_parse(buf, bits, PS_LIVE_MAX_CPUS))
		return -EINVAL;
	CPU_ZERO_S(sz, set);
	for (i = 0; i < PS_LIVE_MAX_CPUS; i++)
		if (bits[i])
			CPU_SET_S((size_t)i, sz, set);
	return 0;
}

/*
 * Does turning cpuset on or off reset the tasks' masks here? Before Linux
 * 6.2 it does (commit da019032819a keeps a task's own mask since): the
 * kernel's release (root/proc/sys/kernel/osrelease, else uname) below 6.2.
 * An unknown release: yes (putting back what the reset did is the safe
 * side on the kernels that reset; a change then is the rarer case).
 */
static int cpuset_write_resets(const char *root)
{
	char path[1100], buf[128];
	struct utsname u;
	int major = 0, minor = 0;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", strcmp(root, "/") ? root : "");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0) {
		if (uname(&u))
			return 1;
		snprintf(buf, sizeof(buf), "%s", u.release);
	}
	if (sscanf(buf, "%d.%d", &major, &minor) != 2)
		return 1;
	return major < 6 || (major == 6 && minor < 2);
}

/*
 * Write text to file (a cgroup.subtree_control) with every task's affinity
 * recorded before and put back after where the write reset it: before
 * Linux 6.2 (commit da019032819a) enabling or disabling the cpuset
 * controller resets the affinity of the tasks in the cgroups below to their
 * cpuset's CPUs, so a user's taskset would be lost. A task whose mask
 * changed to anything else in the meantime was changed by someone (a
 * taskset during the write): theirs, left as it is.
 */
int ps_live_guarded_write(const char *root, const char *file, const char *text,
			  void (*log)(void *, const char *), void *arg)
{
	char path[1100];
	struct aff_snap *s = NULL;
	size_t sz = CPU_ALLOC_SIZE(PS_LIVE_MAX_CPUS);
	int n = 0, cap = 0, r, fixed = 0, theirs = 0, have_target, i;
	struct dirent *pd, *td;
	cpu_set_t *now, *target;
	DIR *d, *t;

	/* on 6.2 and later the write resets no task's mask: nothing to
	 * record, and any change meanwhile is someone's */
	if (!cpuset_write_resets(root))
		return ps_live_sys->guarded_file_write ?
			       ps_live_sys->guarded_file_write(file, text) :
			       ps_live_write_file(file, text);
	snprintf(path, sizeof(path), "%s/proc", strcmp(root, "/") ? root : "");
	d = opendir(path);
	while (d && (pd = readdir(d))) {
		long pid = strtol(pd->d_name, NULL, 10);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%ld/task", strcmp(root, "/") ? root : "",
			 pid);
		t = opendir(path);
		while (t && (td = readdir(t))) {
			long tid = strtol(td->d_name, NULL, 10);

			if (tid <= 0)
				continue;
			if (n == cap) {
				struct aff_snap *ns = realloc(s, sizeof(*s) * (size_t)(cap ? cap * 2 : 1024));

				if (!ns)
					break;
				s = ns;
				cap = cap ? cap * 2 : 1024;
			}
			s[n].set = CPU_ALLOC(PS_LIVE_MAX_CPUS);
			if (!s[n].set)
				break;
			s[n].tid = (pid_t)tid;
			if (sched_getaffinity((pid_t)tid, sz, s[n].set)) {
				CPU_FREE(s[n].set);
				continue;
			}
			n++;
		}
		if (t)
			closedir(t);
	}
	if (d)
		closedir(d);
	r = ps_live_sys->guarded_file_write ? ps_live_sys->guarded_file_write(file, text) :
					      ps_live_write_file(file, text);
	now = CPU_ALLOC(PS_LIVE_MAX_CPUS);
	target = CPU_ALLOC(PS_LIVE_MAX_CPUS);
	have_target = target && !reset_target(root, target, sz);
	for (i = 0; i < n; i++) {
		if (now && !sched_getaffinity(s[i].tid, sz, now) &&
		    !CPU_EQUAL_S(sz, now, s[i].set)) {
			/* the reset's value, or (unknown: no root cpuset, no
			 * online file) any change: put back; else someone's */
			if (have_target && !CPU_EQUAL_S(sz, now, target))
				theirs++;
			else if (!sched_setaffinity(s[i].tid, sz, s[i].set))
				fixed++;
		}
		CPU_FREE(s[i].set);
	}
	if (now)
		CPU_FREE(now);
	if (target)
		CPU_FREE(target);
	free(s);
	if (fixed)
		ps_live_logf(log, arg, "'%s' in %s reset the affinity of %d task(s) (a kernel "
			     "before 6.2): each put back as it was", text, file, fixed);
	if (theirs)
		ps_live_logf(log, arg, "'%s' in %s: %d task(s) given another mask meanwhile, not "
			     "the reset's: left as they are", text, file, theirs);
	return r;
}

double ps_live_uptime(const struct ps_live *l)
{
	char path[512], buf[128];

	ps_live_path(l, path, sizeof(path), "/proc/uptime");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return strtod(buf, NULL);
}

/* Did any task wait for a CPU since the last call (PSI "some" total)?
 * Without PSI: always yes, and the starved check reads stat. */

/* The cgroup v2 path of process pid (0: ourselves), from /proc/PID/cgroup. */
int ps_live_cgroup_of(const struct ps_live *l, pid_t pid, char *out, size_t len)
{
	char path[512], buf[4096], *p;

	if (pid)
		ps_live_path(l, path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	else
		ps_live_path(l, path, sizeof(path), "/proc/self/cgroup");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	p = strstr(buf, "0::");
	if (!p)
		return -ENOENT;
	p += 3;
	p[strcspn(p, "\n")] = '\0';
	snprintf(out, len, "%s", p);
	return 0;
}
