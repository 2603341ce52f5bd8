// SPDX-License-Identifier: MIT
/*
 * Members: the processes a backend manages. run: its command's tree (the
 * command, its descendants, orphans reparented to run, and for run --pid
 * the attached tree); the daemon: every process but the excluded ones
 * (exclude-comm, exclude-cgroup, containers, another user's processes for
 * a user's daemon, the trees other runs manage); the cgroup backend: the
 * processes of its cgroup. The load source reads the members' threads.
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

/* cgroup path p is dir or below it ("/a/b" is under "/a", not "/ab") */
static int under_cgroup(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(p, dir, n) && (p[n] == '\0' || p[n] == '/');
}

static int any_under(const char *p, const char *const *dirs)
{
	for (; dirs && *dirs; dirs++)
		if (under_cgroup(p, *dirs))
			return 1;
	return 0;
}

/* a container's cgroup: a component machine.slice, or one whose name
 * starts with docker, kubepods, lxc or libpod (as systemd-machined,
 * Docker, Kubernetes, LXC and Podman name them) */

static int container_cgroup(const char *p)
{
	static const char *const pre[] = { "docker", "kubepods", "lxc", "libpod", NULL };

	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n == 13 && !strncmp(p, "machine.slice", 13))
			return 1;
		for (int k = 0; pre[k]; k++)
			if (n >= strlen(pre[k]) && !strncmp(p, pre[k], strlen(pre[k])))
				return 1;
		p += n;
	}
	return 0;
}

/* daemon: not ours, by the cgroup of pid (include-cgroup, exclude-cgroup,
 * containers) */

int ps_live_cgroup_excluded(const struct ps_live *l, pid_t pid)
{
	char cg[4096];
	int inc = l->cfg.include_cgroup && l->cfg.include_cgroup[0];

	if (!inc && (!l->cfg.exclude_cgroup || !l->cfg.exclude_cgroup[0]) &&
	    !l->cfg.exclude_containers)
		return 0;
	if (ps_live_cgroup_of(l, pid, cg, sizeof(cg)))
		return 0;
	if (inc && !any_under(cg, l->cfg.include_cgroup))
		return 1;
	if (l->cfg.exclude_containers && container_cgroup(cg))
		return 1;
	return any_under(cg, l->cfg.exclude_cgroup);
}

/* An ordinary user's daemon: another user's process is not its to look at
 * or manage (it could not set its mask anyway), and is left as if excluded.
 * The owner is /proc/PID's: the process's effective uid (root's for a
 * process that is not dumpable, such as a setuid program: excluded too). */

static int other_users(const struct ps_live *l, pid_t pid)
{
	char path[512];
	struct stat st;
	uid_t me = geteuid();

	if (!me)
		return 0;
	ps_live_path(l, path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) || st.st_uid != me;
}

int ps_live_members_cgroup(struct ps_live *l, int (*each)(struct ps_live *, pid_t))
{
	char path[768];
	char *buf = malloc(1 << 20), *p, *nl;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
	if (ps_live_read_file(path, buf, 1 << 20) < 0)
		buf[0] = '\0';
	for (p = buf; *p && !r; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		if (*p)
			r = each(l, (pid_t)strtol(p, NULL, 10));
	}
	free(buf);
	return r;
}

/* May this process read every /proc/PID: in group @gid, or CAP_SYS_PTRACE? */
static int sees_all(struct ps_live *l, long gid)
{
	char path[PATH_MAX], buf[4096], *p;
	gid_t g[256];
	int n, i;

	if (gid >= 0) {
		if ((long)getegid() == gid)
			return 1;
		n = getgroups(256, g);
		for (i = 0; i < n; i++)
			if ((long)g[i] == gid)
				return 1;
	}
	ps_live_path(l, path, sizeof(path), "/proc/self/status");
	if (ps_live_read_file(path, buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "\nCapEff:")))
		return (strtoull(p + 9, NULL, 16) >> 19) & 1; /* CAP_SYS_PTRACE */
	return 0;
}

/*
 * /proc mounted with hidepid= hides other users' processes from a daemon
 * that is root with CAP_SYS_NICE only (its unit's capabilities) unless it
 * is in the mount's gid= group: it would manage a handful of processes and
 * look as if it worked. Say so once, with what to do.
 */
static void warn_hidden(struct ps_live *l, int seen)
{
	char path[PATH_MAX], *buf = NULL;
	struct group *gr;
	size_t len = 0, cap = 0;
	long gid;
	FILE *f;

	/* the whole file: one read() of a seq_file gives about a page, and a
	 * /proc mounted over another comes later in it */
	ps_live_path(l, path, sizeof(path), "/proc/self/mountinfo");
	f = fopen(path, "re");
	if (!f)
		return;
	while (cap < (8u << 20)) {
		char *nb = realloc(buf, cap ? cap * 2 : 65536);
		size_t n;

		if (!nb)
			break;
		buf = nb;
		cap = cap ? cap * 2 : 65536;
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (len < cap - 1)
			break; /* end of file (or an error): what was read */
	}
	fclose(f);
	if (!buf)
		return;
	buf[len] = '\0';
	if (len > 0 && ps_live_parse_proc_mount(buf, &gid) && !sees_all(l, gid)) {
		gr = gid >= 0 ? getgrgid((gid_t)gid) : NULL;
		if (gr)
			lg(l, "/proc is mounted with hidepid and gid=%ld (group %s): other "
			   "users' processes are hidden, %d seen: give powersched that group "
			   "(SupplementaryGroups=%s in a drop-in: systemctl edit powersched)",
			   gid, gr->gr_name, seen, gr->gr_name);
		else if (gid >= 0)
			lg(l, "/proc is mounted with hidepid and gid=%ld: other users' "
			   "processes are hidden, %d seen: give powersched group %ld "
			   "(SupplementaryGroups= in a drop-in: systemctl edit powersched)",
			   gid, seen, gid);
		else
			lg(l, "/proc is mounted with hidepid and no gid=: other users' "
			   "processes are hidden, %d seen: remount it with gid=GROUP and "
			   "give powersched that group (SupplementaryGroups=)", seen);
	}
	free(buf);
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Mark the trees rooted at the processes that are another `powersched run`
 * (@l NULL: pe[].inst) or at run's command @child (and what is reparented
 * to us, its subreaper: a double fork). Parents sort before children
 * almost always, so this settles in one or two passes.
 */
#define NR_ATTACHED 64

static int in_pids(const pid_t *pids, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

static void mark_tree(const struct proc_ent *pe, int n, unsigned char *mark,
		      const struct ps_live *l, pid_t child)
{
	/* the daemon: the processes runs attached to (--pid), gathered once
	 * (a few runs: not a pass over every process for each process) */
	pid_t attached[NR_ATTACHED];
	int i, changed, nattached = 0;

	for (i = 0; !l && i < n && nattached < NR_ATTACHED; i++)
		if (pe[i].inst > 0 && pe[i].attached > 0)
			attached[nattached++] = pe[i].attached;

	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			struct proc_ent key;
			const struct proc_ent *par;
			/* run: its child; attached (--pid), also a process of
			 * the tree that was orphaned (it goes to init, not to
			 * us: we are no subreaper of it) while it is the same
			 * process, and one the connector saw born of ours.
			 * The daemon: every run, and what a run attached to */
			int root = l ? pe[i].pid == child ||
					       (l->cfg.attached && (pe[i].marked ||
								    ps_live_heir(l, pe[i].pid))) :
				       pe[i].inst > 0 || in_pids(attached, nattached, pe[i].pid);

			/* never ourselves (run --pid of a shell we run under) */
			if (mark[i] || (l && pe[i].pid == l->self))
				continue;
			key.pid = pe[i].ppid;
			par = root ? NULL : bsearch(&key, pe, (size_t)n, sizeof(key), cmp_proc);
			if (root || (par && mark[par - pe]) ||
			    (l && child && pe[i].ppid == l->self)) {
				mark[i] = 1;
				changed = 1;
			}
		}
	} while (changed);
}

/*
 * run's tree, from parents cached over up to 16 scans: a process joining
 * the tree by a cached parent is looked at again first.
 * Its parent may have died since (it was reparented) and the parent's PID
 * been reused by a process of the tree, or the PID itself be another
 * process's now: the tree is marked again with what /proc says now.
 */
static void mark_tree_checked(struct ps_live *l, struct proc_ent *pe, int n, unsigned char *mark)
{
	char path[512], buf[1024];
	int i, again;

	do {
		again = 0;
		memset(mark, 0, (size_t)n + 1);
		mark_tree(pe, n, mark, l, l->child);
		for (i = 0; i < n; i++) {
			struct ps_live_stat st;

			if (!mark[i] || pe[i].marked || pe[i].young)
				continue;
			pe[i].young = 1; /* read now: once */
			ps_live_path(l, path, sizeof(path), "/proc/%d/stat", (int)pe[i].pid);
			if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st)) {
				pe[i].ppid = 0; /* gone: in no tree */
				again = 1;
			} else if (st.ppid != pe[i].ppid || (pe[i].start && st.starttime != pe[i].start)) {
				pe[i].ppid = st.ppid;
				pe[i].start = st.starttime;
				again = 1;
			}
		}
	} while (again);
}

/* Was @pid (started at @start) marked in the last scan? */
static signed char prev_marked(const struct ps_live *l, pid_t pid, unsigned long long start)
{
	struct proc_ent key, *p;

	key.pid = pid;
	p = l->nprocs ? bsearch(&key, l->procs, (size_t)l->nprocs, sizeof(key), cmp_proc) : NULL;
	return p && p->marked && (!p->start || p->start == start) ? p->marked : 0;
}

/* Is @pid a `powersched run` (its name, and "run" its first argument)?
 * *attached: the PID it was given with --pid, or 0 */

static int is_run_instance(const struct ps_live *l, pid_t pid, pid_t *attached)
{
	char path[PATH_MAX], buf[4096];
	size_t a0;
	int len;

	*attached = 0;
	ps_live_path(l, path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || strcmp(buf, "powersched\n"))
		return 0;
	ps_live_path(l, path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	len = ps_live_read_file(path, buf, sizeof(buf));
	if (len <= 0)
		return 0;
	/* argv[0] NUL argv[1] NUL ... (buf[len] is a NUL) */
	a0 = strnlen(buf, (size_t)len);
	if (!(a0 + 1 < (size_t)len && !strcmp(buf + a0 + 1, "run")))
		return 0;
	/* run --pid N (or --pid=N) before any "--": its tree is N's */
	for (size_t at = a0 + 5; at < (size_t)len; at += strlen(buf + at) + 1) {
		const char *a = buf + at, *v = NULL;

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--pid") && at + strlen(a) + 1 < (size_t)len)
			v = a + strlen(a) + 1;
		else if (!strncmp(a, "--pid=", 6))
			v = a + 6;
		if (v) {
			long n = strtol(v, NULL, 10);

			*attached = n > 1 && n < 4194305 ? (pid_t)n : 0;
			break;
		}
	}
	return 1;
}


/* Every process (affinity backend: the child's descendants, or all). A
 * process's parent (or, for the daemon, its cgroup) is read when it is new
 * and every 16 scans. */

static int same_process(const struct ps_live *l, const struct proc_ent *e)
{
	const struct thr *t = ps_live_find_thr(l, e->pid, e->pid);
	char buf[128];

	if (t && t->ss_fd >= 0)
		return pread(t->ss_fd, buf, sizeof(buf), 0) > 0;
	return e->start && ps_live_starttime(l->cfg.root, e->pid) == e->start;
}

/* pid exec'd since the last scan (every process, when more did than the
 * ring holds) */

static int execed(const struct ps_live *l, pid_t pid)
{
	if (l->nexecs > PS_LIVE_NR_EXECS)
		return 1;
	for (int i = 0; i < l->nexecs; i++)
		if (l->execs[i] == pid)
			return 1;
	return 0;
}

int ps_live_members_tree(struct ps_live *l, int (*each)(struct ps_live *, pid_t))
{
	char path[512], buf[1024];
	struct proc_ent *pe = NULL;
	unsigned char *mark = NULL;
	int n = 0, cap = 0, i, r = 0;
	struct dirent *de;
	DIR *d;

	ps_live_path(l, path, sizeof(path), "/proc");
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct ps_live_stat st;
		struct proc_ent key, *old = NULL;
		long pid = strtol(de->d_name, NULL, 10);

		if (pid <= 0)
			continue;
		key.pid = (pid_t)pid;
		/* cached, unless due, exec'd, or born of ours (the proc
		 * connector: a PID may have been reused since) */
		if (l->nprocs && (pid + l->scans) % 16 && !l->full_scan && !execed(l, (pid_t)pid) &&
		    !ps_live_heir(l, (pid_t)pid))
			old = bsearch(&key, l->procs, (size_t)l->nprocs, sizeof(key), cmp_proc);
		/* a cached process we manage, or a run whose tree we leave,
		 * must still be the same one (a reused PID is another's): its
		 * main thread's schedstat
		 * descriptor still reads, or its start time is the same */
		if (old && (old->marked || old->inst > 0) && !same_process(l, old))
			old = NULL;
		if (old) {
			st.ppid = old->ppid;
		} else {
			/* new (or due for a fresh look): its parent, for run's
			 * tree and, in the daemon, for another run's */
			ps_live_path(l, path, sizeof(path), "/proc/%ld/stat", pid);
			if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 ||
			    ps_live_parse_stat(buf, &st))
				continue;
		}
		if (n == cap) {
			struct proc_ent *np;

			cap = cap ? cap * 2 : 1024;
			np = realloc(pe, (size_t)cap * sizeof(*pe));
			if (!np) {
				r = -ENOMEM;
				goto out;
			}
			pe = np;
		}
		pe[n].pid = (pid_t)pid;
		pe[n].ppid = st.ppid;
		pe[n].start = old ? old->start : st.starttime;
		/* last scan's, until below (a process due for a fresh look
		 * keeps it while it is the same one) */
		pe[n].marked = old ? old->marked : prev_marked(l, (pid_t)pid, st.starttime);
		pe[n].excluded = old ? old->excluded : -1;
		/* a run is forked, then execs: seen between the two it is
		 * not one yet, so a process is looked at again the scan after
		 * it was first seen (its command comes after the exec) */
		pe[n].young = !old;
		if (old && !old->young) {
			pe[n].inst = old->inst;
			pe[n].attached = old->attached;
		} else {
			pe[n].inst = l->cfg.whole_system && pid != l->self &&
				     is_run_instance(l, (pid_t)pid, &pe[n].attached);
		}
		n++;
	}
	if (n)
		qsort(pe, (size_t)n, sizeof(*pe), cmp_proc);
	if (l->cfg.whole_system && !l->scans)
		warn_hidden(l, n);
	mark = calloc((size_t)n + 1, 1);
	if (!mark) {
		r = -ENOMEM;
		goto out;
	}
	if (l->cfg.whole_system) {
		/* a `powersched run` and its tree are that run's: it chose a
		 * policy for its command, and the daemon leaves them alone */
		int runs = 0;

		for (i = 0; i < n; i++)
			runs += pe[i].inst > 0;
		if (runs)
			mark_tree(pe, n, mark, NULL, 0);
		l->nexecs = 0;
		for (i = 0; i < n; i++) {
			/* a process's cgroup is read when it is new (and every 16
			 * scans), like its parent; one we manage, every
			 * interval (proc_quiet() when there is no scan) */
			int first_look = pe[i].excluded < 0;

			if (pe[i].excluded < 0 || pe[i].marked)
				pe[i].excluded = (signed char)(other_users(l, pe[i].pid) ||
							       ps_live_cgroup_excluded(l, pe[i].pid));
			/* a process of ours that moved into an excluded cgroup
			 * (a container): its masks back now, not at exit */
			if (pe[i].marked && pe[i].excluded && l->be->release)
				l->be->release(l, pe[i].pid, pe[i].ppid);
			/* one of ours now in a run's tree (a shell of ours that
			 * exec'd `powersched run`, its command): run's from
			 * now on, and what we set on it goes back now */
			else if (pe[i].marked && mark[i] && l->be->release)
				l->be->release(l, pe[i].pid, pe[i].ppid);
			/* new, and born into an excluded cgroup (a container a
			 * runtime of ours started): never listed, so its masks
			 * are looked at once, and one inherited from us goes
			 * back: a container would keep our set for good */
			else if (first_look && pe[i].excluded && l->nhist && l->be->release &&
				 !(l->nprocs && bsearch(&pe[i], l->procs, (size_t)l->nprocs,
							sizeof(pe[i]), cmp_proc)))
				l->be->release(l, pe[i].pid, pe[i].ppid);
			mark[i] = pe[i].pid != l->self && !pe[i].excluded && !mark[i];
		}
	} else {
		mark_tree_checked(l, pe, n, mark);
	}
	for (i = 0; i < n && !r; i++) {
		pe[i].marked = mark[i];
		if (mark[i])
			r = each(l, pe[i].pid);
	}
out:
	closedir(d);
	free(l->procs);
	l->procs = r ? NULL : pe;
	l->nprocs = r ? 0 : n;
	if (r)
		free(pe);
	free(mark);
	return r;
}

int ps_live_known_process(const struct ps_live *l, pid_t pid)
{
	int k = ps_live_lower_bound(l, pid, 0);

	return pid > 0 && k < l->thr_n && l->thr[k].tgid == pid;
}
