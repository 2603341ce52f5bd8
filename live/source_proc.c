// SPDX-License-Identifier: MIT
/*
 * DOC: load source "proc": per-thread schedstat from /proc
 *
 * The backend lists the managed processes (members); each process's
 * threads are read into a table sorted by process, then thread, merged
 * with the previous interval's table in two passes: the per-thread deltas
 * and the managed threads' run and wait (how full the set is,
 * ps_demand_saturation()), then each thread's utilization, (run + wait) /
 * wall over the interval, decayed (ps_demand_update()), and the starved
 * rule, which takes a full set (ps_demand_take_runnable()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demand.h"
#include "live_int.h"

static int push_thr(struct ps_live *l, const struct thr *t)
{
	if (l->nthr_n == l->nthr_cap) {
		int cap = l->nthr_cap ? l->nthr_cap * 2 : 256;
		struct thr *n = realloc(l->nthr, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->nthr = n;
		l->nthr_cap = cap;
	}
	l->nthr[l->nthr_n++] = *t;
	return 0;
}

/* Tables are sorted by process, then thread: a process's threads are one run. */
int ps_live_thr_before(pid_t tgid_a, pid_t tid_a, pid_t tgid_b, pid_t tid_b)
{
	return tgid_a < tgid_b || (tgid_a == tgid_b && tid_a < tid_b);
}

static int cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	return ps_live_thr_before(y->tgid, y->tid, x->tgid, x->tid) -
	       ps_live_thr_before(x->tgid, x->tid, y->tgid, y->tid);
}

/* First entry of the old table at or after (tgid, tid). */
int ps_live_lower_bound(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int lo = 0, hi = l->thr_n;

	while (lo < hi) {
		int m = (lo + hi) / 2;

		if (ps_live_thr_before(l->thr[m].tgid, l->thr[m].tid, tgid, tid))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

struct thr *ps_live_find_thr(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int k = ps_live_lower_bound(l, tgid, tid);

	return k < l->thr_n && l->thr[k].tgid == tgid && l->thr[k].tid == tid ? &l->thr[k] :
										 NULL;
}

static int in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

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
static int cgroup_excluded(const struct ps_live *l, pid_t pid)
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

static int read_schedstat(int fd, const char *path, unsigned long long *run,
			  unsigned long long *wait)
{
	char buf[128];
	ssize_t n;

	if (fd >= 0) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			return -ESRCH;
		buf[n] = '\0';
	} else {
		int r = ps_live_read_file(path, buf, sizeof(buf));

		if (r <= 0)
			return r == -EMFILE || r == -ENFILE || r == -ENOMEM ? r : -ESRCH;
	}
	return ps_live_parse_schedstat(buf, run, wait);
}

/* 1: every known thread of pid carried (count unchanged); 0: list them;
 * -errno. */
static int carry_process(struct ps_live *l, pid_t pid)
{
	char path[512], buf[1024];
	struct ps_live_stat st;
	int k = ps_live_lower_bound(l, pid, 0), e = k, r;

	while (e < l->thr_n && l->thr[e].tgid == pid)
		e++;
	if (e - k < 32)
		return 0; /* small: a listing is as cheap as the count */
	ps_live_path(l, path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st) ||
	    st.nr_threads != e - k)
		return 0;
	for (; k < e; k++) {
		struct thr t = l->thr[k];

		t.state_now = 0;
		if (!t.excluded) {
			if (t.ss_fd < 0) /* no descriptor (EMFILE): by path */
				ps_live_path(l, path, sizeof(path), "/proc/%d/task/%d/schedstat",
					(int)pid, (int)t.tid);
			r = read_schedstat(t.ss_fd, path, &t.run_ns, &t.wait_ns);
			if (r == -ESRCH || r == -EINVAL)
				continue; /* gone */
			/* else out of descriptors: kept, with its last figures */
			l->thr[k].ss_fd = -1; /* moved to the new table */
		}
		r = push_thr(l, &t);
		if (r)
			return r;
	}
	return 1;
}

/*
 * Read every thread of process pid into nthr. A thread already known costs
 * one pread of its schedstat; its stat is read when it is new, and again
 * once every 64 scans (a changed scheduling policy, a reused TID).
 */
/*
 * Aggregates first: a process of many threads whose thread count did not
 * change and whose CPU time over the interval (utime + stime of all its
 * threads, one read of /proc/PID/stat) is under AGG_MAX_PU (one PU) is
 * carried whole: its threads are not read, the main thread stands for the
 * process's use. Per-thread figures cannot change the decision much there:
 * however that use is split, it asks for at most one PU. Every AGG_REFRESH scans (spread by PID) the
 * threads are read again, so a thread that replaced another is found.
 */
#define AGG_MIN_THREADS 32
#define AGG_MAX_PU 1.0
#define AGG_REFRESH 64

/* 1: carried on the aggregate; 0: read the threads; *ticks gets the
 * process's CPU ticks (0: not read) */
static int aggregate_process(struct ps_live *l, pid_t pid, unsigned long long *ticks)
{
	char path[512], buf[1024];
	struct ps_live_stat st;
	int k = ps_live_lower_bound(l, pid, 0), e = k, i, r;
	long hz = sysconf(_SC_CLK_TCK);
	const struct thr *m;
	double use;

	*ticks = 0;
	while (e < l->thr_n && l->thr[e].tgid == pid)
		e++;
	if (e - k < AGG_MIN_THREADS || l->full_scan)
		return 0;
	ps_live_path(l, path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st))
		return 0;
	*ticks = st.utime + st.stime;
	/* the main thread is not always first: TIDs wrap around pid_max */
	m = ps_live_find_thr(l, pid, pid);
	if (!l->thr[k].pticks || st.nr_threads != e - k || *ticks < l->thr[k].pticks ||
	    (l->scans + pid) % AGG_REFRESH == 0 || !m || m->start != st.starttime)
		return 0;
	use = (double)(*ticks - l->thr[k].pticks) / (double)(hz > 0 ? hz : 100) /
	      (l->scan_dt > 0 ? l->scan_dt : l->cfg.interval_s);
	if (use >= AGG_MAX_PU)
		return 0;
	for (i = k; i < e; i++) {
		struct thr t = l->thr[i];

		t.agg = 1;
		t.state_now = 0;
		t.pticks = *ticks;
		t.aggu = t.tid == pid ? use : 0;
		l->thr[i].ss_fd = -1; /* moved to the new table */
		r = push_thr(l, &t);
		if (r)
			return r;
	}
	return 1;
}

static int scan_process(struct ps_live *l, pid_t pid)
{
	char path[512], buf[1024], pcomm[64] = "";
	struct dirent *de;
	unsigned long long ticks;
	DIR *d;
	int r = 0, pexcl = 0, first = l->nthr_n;

	r = aggregate_process(l, pid, &ticks);
	if (r)
		return r < 0 ? r : 0;

	/* a process of many threads whose count has not changed: carry its
	 * threads without listing them (a full listing every 8 scans
	 * finds a thread that replaced one that exited) */
	if ((l->scans % 8) && !l->full_scan && (r = carry_process(l, pid)) != 0) {
		for (int i = first; i < l->nthr_n; i++) {
			l->nthr[i].pticks = ticks;
			l->nthr[i].agg = 0;
		}
		return r < 0 ? r : 0;
	}
	/* never PID 1 or a service manager (their children inherit what
	 * they have); comm filters match the process's name, not a thread's */
	if (pid == 1) {
		pexcl = 1;
	} else {
		ps_live_path(l, path, sizeof(path), "/proc/%d/comm", (int)pid);
		if (ps_live_read_file(path, pcomm, sizeof(pcomm)) > 0) {
			pcomm[strcspn(pcomm, "\n")] = '\0';
			pexcl = !strcmp(pcomm, "systemd") ||
				(l->cfg.whole_system &&
				 ((l->cfg.include_comm && l->cfg.include_comm[0] &&
				   !in_list(l->cfg.include_comm, pcomm)) ||
				  in_list(l->cfg.exclude_comm, pcomm)));
		}
	}
	ps_live_path(l, path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0; /* gone */
	while ((de = readdir(d)) && !r) {
		struct ps_live_stat st;
		struct thr t, *p;
		unsigned long long run, wait;
		long tid = strtol(de->d_name, NULL, 10);
		int refresh;

		if (tid <= 0)
			continue;
		p = ps_live_find_thr(l, pid, (pid_t)tid);
		refresh = (tid + l->scans) % 64 == 0 || l->full_scan;
		if (p && !refresh && p->excluded && p->pexcl == pexcl) {
			r = push_thr(l, p);
			continue;
		}
		if (p && !refresh && !pexcl && p->ss_fd >= 0 &&
		    !read_schedstat(p->ss_fd, NULL, &run, &wait)) {
			t = *p;
			t.run_ns = run;
			t.wait_ns = wait;
			t.state_now = 0;
			p->ss_fd = -1; /* moved to the new table */
			r = push_thr(l, &t);
			continue;
		}
		ps_live_path(l, path, sizeof(path), "/proc/%d/task/%ld/stat", (int)pid, tid);
		r = ps_live_read_file(path, buf, sizeof(buf));
		if (r == -EMFILE || r == -ENFILE) {
			r = p ? push_thr(l, p) : 0; /* no descriptor: kept as it was */
			if (p)
				p->ss_fd = -1;
			continue;
		}
		if (r <= 0 || ps_live_parse_stat(buf, &st)) {
			r = 0;
			continue;
		}
		r = 0;
		if (p && p->start != st.starttime)
			p = NULL; /* a new thread with a reused TID */
		memset(&t, 0, sizeof(t));
		t.tid = (pid_t)tid;
		t.tgid = pid;
		t.ppid = st.ppid;
		t.state = st.state;
		t.state_now = 1;
		t.start = st.starttime;
		t.cpu = st.cpu;
		t.ss_fd = -1;
		if (ps_live_is_kthread(&st) || ps_live_is_rt(&st) || pexcl) {
			t.excluded = 1;
			t.pexcl = (char)pexcl;
			t.checked = p && p->excluded && p->checked;
			/* a thread of ours that became one we do not manage (an
			 * exec into an excluded command): recorded, so its set
			 * is given back by record, not guessed from lineage */
			t.recorded = p && (p->managed == 1 || p->recorded);
			/* and one let go as the user's stays theirs */
			t.theirs = p && ((p->managed == 2 && !p->excluded) || p->theirs);
			t.owned_at = p ? p->owned_at : 0;
			t.managed = 2; /* from now on left alone; the journal still
					* puts back what we set before */
			r = push_thr(l, &t);
			continue;
		}
		if (p) {
			t.util = p->util;
			t.managed = p->managed == 2 && p->excluded ? 0 : p->managed;
			t.owned_at = p->owned_at;
			t.ss_fd = p->ss_fd;
			p->ss_fd = -1;
		}
		ps_live_path(l, path, sizeof(path), "/proc/%d/task/%ld/schedstat", (int)pid, tid);
		/* a descriptor kept open while there are plenty left; else the
		 * path each time */
		if (t.ss_fd < 0 && l->nr_ss_fd < l->max_ss_fd) {
			t.ss_fd = open(path, O_RDONLY | O_CLOEXEC);
			l->nr_ss_fd += t.ss_fd >= 0;
		}
		r = read_schedstat(t.ss_fd, path, &t.run_ns, &t.wait_ns);
		if (r == -EMFILE || r == -ENFILE || r == -ENOMEM) {
			/* out of descriptors: the thread is still there and
			 * still ours to track (and to restore): last figures */
			t.run_ns = p ? p->run_ns : 0;
			t.wait_ns = p ? p->wait_ns : 0;
			r = 0;
		} else if (r) {
			if (t.ss_fd >= 0) {
				close(t.ss_fd);
				l->nr_ss_fd--;
			}
			r = 0;
			continue;
		}
		r = push_thr(l, &t);
	}
	closedir(d);
	for (int i = first; i < l->nthr_n; i++) {
		l->nthr[i].pticks = ticks;
		l->nthr[i].agg = 0;
	}
	return r;
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
 * the tree by a cached parent is looked at again first (issue 23 item 9).
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
							       cgroup_excluded(l, pe[i].pid));
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
			 * back (issue 23 item 4) */
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
static int cpu_pressure(struct ps_live *l)
{
	char path[768], buf[512], *p;
	unsigned long long total;
	int r;

	if (l->backend == PS_BACKEND_CGROUP && l->cg_path[0])
		ps_live_path(l, path, sizeof(path), "/sys/fs/cgroup%s/cpu.pressure", l->cg_path);
	else
		ps_live_path(l, path, sizeof(path), "/proc/pressure/cpu");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return 1;
	p = strstr(buf, "some");
	p = p ? strstr(p, "total=") : NULL;
	if (!p)
		return 1;
	total = strtoull(p + 6, NULL, 10);
	r = total != l->psi_prev;
	l->psi_prev = total;
	return r;
}

static int runnable_now(const struct ps_live *l, struct thr *t)
{
	char path[512], buf[1024];
	struct ps_live_stat st;

	ps_live_path(l, path, sizeof(path), "/proc/%d/task/%d/stat", (int)t->tgid, (int)t->tid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st))
		return 0;
	t->state = st.state;
	t->state_now = 1;
	t->cpu = st.cpu;
	return st.state == 'R';
}

/* How full the allowed set was over the last interval: /proc/stat's busy
 * time of its PUs (every task, tick-sampled; ps_live_account_energy() ran
 * before the scan) or the managed threads' own run time (schedstat, exact),
 * whichever says fuller. */
static double set_saturation(struct ps_live *l)
{
	unsigned char *in = l->scratch;
	int i, n = l->topo->nr_pus < PS_LIVE_MAX_CPUS ? l->topo->nr_pus : PS_LIVE_MAX_CPUS;

	for (i = 0; i < n; i++) {
		int os = l->topo->pus[i].os_index;

		in[i] = os >= 0 && os < PS_LIVE_MAX_CPUS && l->allowed_os[os];
	}
	return ps_demand_saturation(l->started ? l->pu_busy : NULL, in, n, l->run_cpus);
}

static int proc_scan(struct ps_live *l, double dt)
{
	double uptime;
	int psi;
	long hz = sysconf(_SC_CLK_TCK);
	int r, i, j;

	l->nthr_n = 0;
	l->scan_dt = dt;
	l->scan_clock += dt;
	r = l->be->members(l, scan_process);
	if (r)
		return r;
	/* members come in PID order mostly, threads in TID order: sort only
	 * when needed */
	for (i = 1; i < l->nthr_n; i++)
		if (cmp_thr(&l->nthr[i - 1], &l->nthr[i]) > 0)
			break;
	if (i < l->nthr_n)
		qsort(l->nthr, (size_t)l->nthr_n, sizeof(*l->nthr), cmp_thr);
	uptime = ps_live_uptime(l);
	if (hz <= 0)
		hz = 100;
	psi = cpu_pressure(l);
	l->psi_now = psi;
	/* first pass: deltas against the previous table, and the managed
	 * threads' run and wait over the interval (how full the set is) */
	l->run_cpus = l->wait_cpus = 0;
	for (i = 0, j = 0; i < l->nthr_n; i++) {
		struct thr *t = &l->nthr[i];
		int counts = t->managed != 2 && !t->excluded;

		while (j < l->thr_n && ps_live_thr_before(l->thr[j].tgid, l->thr[j].tid, t->tgid, t->tid))
			j++;
		t->dr = t->dw = 0;
		t->rz_prev = 0;
		t->seen = j < l->thr_n && l->thr[j].tid == t->tid && l->thr[j].tgid == t->tgid &&
			  l->thr[j].start == t->start;
		if (!t->seen) {
			/* new: its run so far counts towards how full the set is */
			double age = uptime - (double)t->start / (double)hz;

			t->place.avg = t->place.held = -1; /* first sight */
			t->read_at = l->scan_clock;
			l->threads_seen++;
			if (counts)
				l->run_cpus += (double)t->run_ns / 1e9 / (age > dt ? age : dt);
			/* born since the last scan: all its run is within ours */
			if (counts && l->scans)
				l->tree_run_s += (double)t->run_ns / 1e9;
			continue;
		}
		t->place = l->thr[j].place;
		if (t->agg) {
			/* not read: its process's aggregate stands for it, and
			 * the process's utime + stime for its run */
			t->seen = 2;
			t->util = ps_demand_update(l->thr[j].util, 0, 0, dt, PS_DEMAND_WAIT_WEIGHT);
			if (t->aggu > t->util)
				t->util = t->aggu;
			t->r_zero = 0;
			if (counts && t->tid == t->tgid)
				l->run_cpus += t->aggu;
			continue;
		}
		t->dr = t->run_ns >= l->thr[j].run_ns ? t->run_ns - l->thr[j].run_ns : 0;
		t->dw = t->wait_ns >= l->thr[j].wait_ns ? t->wait_ns - l->thr[j].wait_ns : 0;
		if (l->thr[j].agg) {
			/* read again after aggregated scans: its deltas span
			 * all of them */
			double w = l->scan_clock - l->thr[j].read_at;

			if (w < dt)
				w = dt;

			t->seen = 2;
			t->util = ps_demand_update(l->thr[j].util, t->dr, t->dw, w,
						   PS_DEMAND_WAIT_WEIGHT);
			t->r_zero = 0;
			t->read_at = l->scan_clock;
			if (counts) {
				l->run_cpus += (double)t->dr / (w * 1e9);
				l->wait_cpus += (double)t->dw / (w * 1e9);
				l->tree_run_s += (double)t->dr / 1e9;
			}
			continue;
		}
		t->util = l->thr[j].util;
		t->rz_prev = l->thr[j].r_zero;
		t->read_at = l->scan_clock;
		if (counts) {
			l->run_cpus += (double)t->dr / (dt * 1e9);
			l->wait_cpus += (double)t->dw / (dt * 1e9);
			l->tree_run_s += (double)t->dr / 1e9;
		}
	}
	l->sat = set_saturation(l);
	l->settling = 0;
	/* second pass: utilization, run + wait in full (PS_DEMAND_WAIT_WEIGHT);
	 * the set's fullness gates the "tasks queue" rule only */
	for (i = 0; i < l->nthr_n; i++) {
		struct thr *t = &l->nthr[i];
		int falling;

		if (t->seen == 1) {
			t->util = ps_demand_update(t->util, t->dr, t->dw, dt, PS_DEMAND_WAIT_WEIGHT);
			/* runnable and not one ns of CPU over two samples in a row
			 * on a full set: starved (its wait shows only when it
			 * runs), a full PU of demand. One sample is not enough:
			 * a thread that woke just before it looks the same. */
			t->r_zero = !t->dr && !t->dw && ps_demand_take_runnable(l->sat, psi) &&
				    !t->excluded && runnable_now(l, t);
			if (t->r_zero && t->rz_prev)
				t->util = 1;
		} else if (!t->seen) {
			/* first sight: its whole life so far, (run + wait) / age */
			double age = uptime - (double)t->start / (double)hz;

			t->util = age > 0.01 ? ps_demand_update(0, t->run_ns, t->wait_ns, age,
								PS_DEMAND_WAIT_WEIGHT) : 0;
		}
		/* falling: read, asleep over the whole interval (no run, no
		 * wait, not starved), so its figure is the decay of the last
		 * one. The placement follows it at once, and the set is not at
		 * rest while it still counts on its own (ps_demand_quiet()).
		 * Asleep, not merely under its figure: at 100 ms a 0.3 task
		 * reading 0.14 is under the decay too, and that is jitter */
		falling = t->seen == 1 && !t->r_zero && !t->dr && !t->dw && t->util > 0;
		/* a thread its process's aggregate stands for is not read: where
		 * its figure is the decay of its last one (over the aggregate's
		 * share, which only the main thread carries), it falls as an
		 * asleep thread does (held, an idle one stayed up to 16 scans
		 * above it); the main thread's share is a measurement, filtered */
		ps_demand_place(&t->place, t->util, dt, l->scans % PS_DEMAND_PLACE_RESYNC == 0,
				falling || (t->seen == 2 && t->agg && t->util > t->aggu));
		if (falling && t->managed != 2 && !t->excluded && t->place.held >= PS_LIVE_SMALL_UTIL)
			l->settling++;
	}
	/* threads gone: their schedstat descriptors were not carried over */
	for (j = 0; j < l->thr_n; j++)
		if (l->thr[j].ss_fd >= 0) {
			close(l->thr[j].ss_fd);
			l->nr_ss_fd--;
		}
	/* swap tables */
	{
		struct thr *tp = l->thr;
		int cap = l->thr_cap;

		l->thr = l->nthr;
		l->thr_cap = l->nthr_cap;
		l->thr_n = l->nthr_n;
		l->nthr = tp;
		l->nthr_cap = cap;
		l->nthr_n = 0;
	}
	return 0;
}

int ps_live_known_process(const struct ps_live *l, pid_t pid)
{
	int k = ps_live_lower_bound(l, pid, 0);

	return pid > 0 && k < l->thr_n && l->thr[k].tgid == pid;
}

/*
 * Tasks born since the last look: the PIDs (and TIDs, one space) after
 * from up to to, handed out in order. 1 when none can be ours: each is gone
 * already, a kernel thread, or (run) neither a thread nor a child of a
 * process we read; 0 when one may be (the interval scans), or the range
 * wrapped or is a fork storm. A task's /proc/TID/status is read (O(1),
 * whatever its process's size).
 */
#define MAX_BIRTHS 256
static int proc_births_not_ours(struct ps_live *l, long long from, long long to)
{
	char path[512], buf[2048], *p;
	long long t;

	if (to < from || to - from > MAX_BIRTHS)
		return 0;
	for (t = from + 1; t <= to; t++) {
		long tgid = -1, ppid = -1;

		ps_live_path(l, path, sizeof(path), "/proc/%lld/status", t);
		if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
			continue; /* gone: nothing to confine or record */
		p = strstr(buf, "\nTgid:");
		if (p)
			tgid = strtol(p + 6, NULL, 10);
		p = strstr(buf, "\nPPid:");
		if (p)
			ppid = strtol(p + 6, NULL, 10);
		if (tgid < 0 || ppid < 0)
			return 0;
		if (ppid == 2 || tgid == 2)
			continue; /* a kernel thread (kthreadd's child) */
		/* the daemon: any live task may be ours; run: a thread of a
		 * process we read, a child of one, or of one born with it */
		if (l->cfg.whole_system || ps_live_known_process(l, (pid_t)tgid) ||
		    ps_live_known_process(l, (pid_t)ppid) ||
		    (ppid > from && ppid <= to))
			return 0;
	}
	return 1;
}

/* An interval without a scan (ps_demand_quiet()): the daemon still reads
 * the cgroup of each process it manages, so one moved into an excluded
 * cgroup (a container) gets its masks back within an interval. One small
 * read per managed process, none per thread. */
static void proc_quiet(struct ps_live *l)
{
	int i;

	if (!l->cfg.whole_system)
		return;
	for (i = 0; i < l->nprocs; i++) {
		struct proc_ent *e = &l->procs[i];

		if (!e->marked || !cgroup_excluded(l, e->pid))
			continue;
		e->excluded = 1;
		e->marked = 0;
		if (l->be->release)
			l->be->release(l, e->pid, e->ppid);
	}
}

const struct ps_live_source_ops ps_live_source_proc = {
	.name = "proc",
	.scan = proc_scan,
	.runnable = runnable_now,
	.quiet = proc_quiet,
	.births_not_ours = proc_births_not_ours,
};
