// SPDX-License-Identifier: MIT
/*
 * DOC: the live controller
 *
 * Each interval: find the managed threads (the cgroup's processes, the
 * child's descendants, or every eligible thread of the system), read their
 * schedstat, update their utilization, ask ps_policy_decide() for the
 * allowed set, and apply it when it changed and the rate limit allows.
 * Thread tables are arrays sorted by TID, rebuilt each scan and merged with
 * the previous one. Energy: RAPL package counters when present, otherwise
 * the power model over per-CPU busy time from /proc/stat.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demand.h"
#include "live_int.h"
#include "ps/livectl.h"
#include "ps/source.h"

#define ACTIVE_BUSY 0.25 /* a PU busier than this over an interval is active */
#define NR_RECENT 8
#define NR_APPLIED 32
#define PS_LIVE_STATBUF (256 * 1024) /* /proc/stat of 4096 CPUs fits */

struct thr {
	pid_t tid, tgid, ppid;
	unsigned long long start, run_ns, wait_ns;
	double util;
	int cpu;
	char state;  /* R: running or queued when sampled */
	int state_now; /* state read from stat in this interval's scan */
	int managed; /* 1: ours (journaled), 2: left alone */
	int excluded; /* kernel, real-time or filtered out: never read again */
	int r_zero;   /* runnable with no CPU at all over the last interval */
	int fresh;    /* newly ours, its mask still to be set */
	int seen;     /* this scan: 1 known (dr, dw valid), 0 first sight */
	int rz_prev;  /* this scan: r_zero of the previous interval */
	unsigned long long dr, dw; /* this scan: run and wait over the interval */
	int ss_fd;   /* schedstat kept open (pread each interval), or -1 */
};

struct proc_ent {
	pid_t pid, ppid;
	signed char excluded; /* daemon: in an excluded cgroup; -1 not read yet */
};

struct recent {
	double t_s;
	int nr_tasks, nr_allowed;
	double demand;
	char allowed[256];
};

struct ps_live {
	struct ps_live_cfg cfg;
	struct ps_topo *topo;
	struct ps_decision dec[2];
	int cur, have_dec;
	struct ps_policy_params params;
	enum ps_policy resolved;
	char why[160];
	enum ps_live_backend backend;
	char cg_path[256];     /* our cgroup, relative to the mount ("/powersched-run-1") */
	char cg_written[8192]; /* what cpuset.cpus holds */
	pid_t child;
	pid_t self;
	FILE *journal;
	int journal_dirty;
	char journal_path[512], state_path[512];
	unsigned char *online, *allowed_os, *scratch;
	char online_str[8192];
	struct thr *thr, *nthr;
	int nthr_n, nthr_cap, thr_n, thr_cap;
	double *util;
	int util_cap;
	struct ps_ratelimit rl;
	double last_t, start_t;
	int started;
	/* energy */
	unsigned long long *cpu_busy, *cpu_total;
	double *pu_busy;
	double energy_j, pkg_sum, core_sum;
	unsigned long long rapl_uj;
	int have_rapl;
	int intervals, mask_changes, threads_seen, held;
	struct recent recent[NR_RECENT];
	int nrecent;
	/* masks we applied (affinity backend), to tell inherited from own */
	char *applied[NR_APPLIED];
	int napplied;
	double last_demand;
	unsigned long long psi_prev;
	int psi_now;      /* some task waited for a CPU over the last interval */
	double sat;       /* ps_demand_saturation() of the set, last interval */
	double run_cpus, wait_cpus; /* managed threads' run and wait, in CPUs */
	unsigned long long nofile_cur; /* the soft limit we found, for the child */
	int have_nofile;
	char statbuf[PS_LIVE_STATBUF]; /* /proc/stat, read every interval */
	int pu_of_cpu[PS_LIVE_MAX_CPUS]; /* PU index of an OS CPU, -1: none */
	struct proc_ent *procs;   /* last interval's processes, by pid */
	int nprocs;
};

/* log through the configured callback (ps_live_logf in journal.c) */
#define lg(l, ...) ps_live_logf((l)->cfg.log, (l)->cfg.log_arg, __VA_ARGS__)

static void path_of(const struct ps_live *l, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void path_of(const struct ps_live *l, char *buf, size_t len, const char *fmt, ...)
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

/* ---- the machine ---- */

static int read_online(struct ps_live *l, unsigned char *bits)
{
	char path[512], buf[8192];
	int r;

	path_of(l, path, sizeof(path), "/sys/devices/system/cpu/online");
	r = ps_live_read_file(path, buf, sizeof(buf));
	if (r <= 0)
		return r ? r : -EINVAL;
	return ps_cpulist_parse(buf, bits, PS_LIVE_MAX_CPUS);
}

static int load_topology(struct ps_live *l)
{
	struct ps_topo *t = NULL;
	int r;

	r = ps_topo_load(NULL, &t);
	if (r)
		return r;
	if (l->cfg.model)
		ps_topo_set_smt_gain(t, l->cfg.model->smt_gain);
	if (l->have_dec) {
		ps_decision_fini(&l->dec[0]);
		ps_decision_fini(&l->dec[1]);
		l->have_dec = 0;
	}
	ps_topo_free(l->topo);
	l->topo = t;
	/* OS index to PU index, for the per-interval lookups */
	for (int c = 0; c < PS_LIVE_MAX_CPUS; c++)
		l->pu_of_cpu[c] = -1;
	for (int i = 0; i < t->nr_pus; i++)
		if (t->pus[i].os_index < PS_LIVE_MAX_CPUS)
			l->pu_of_cpu[t->pus[i].os_index] = i;
	free(l->pu_busy);
	l->pu_busy = calloc((size_t)t->nr_pus, sizeof(double));
	return l->pu_busy ? 0 : -ENOMEM;
}

static int ensure_decisions(struct ps_live *l, int n)
{
	int cap = l->have_dec ? l->dec[0].max_tasks : 0;

	if (n <= cap)
		return 0;
	cap = n < 64 ? 64 : n * 2;
	if (l->have_dec) {
		ps_decision_fini(&l->dec[0]);
		ps_decision_fini(&l->dec[1]);
		l->have_dec = 0;
	}
	if (ps_decision_init(&l->dec[0], l->topo, cap))
		return -ENOMEM;
	if (ps_decision_init(&l->dec[1], l->topo, cap)) {
		ps_decision_fini(&l->dec[0]);
		return -ENOMEM;
	}
	l->have_dec = 1;
	l->dec[0].nr_allowed = l->dec[1].nr_allowed = 0; /* no previous decision */
	return 0;
}

/* ---- journal and state file ---- */

static void journal_line(struct ps_live *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void journal_line(struct ps_live *l, const char *fmt, ...)
{
	va_list ap;

	if (!l->journal)
		return;
	va_start(ap, fmt);
	vfprintf(l->journal, fmt, ap);
	va_end(ap);
	l->journal_dirty = 1;
}

/* On disk before anything it records is changed. */
static void journal_sync(struct ps_live *l)
{
	if (!l->journal || !l->journal_dirty)
		return;
	fflush(l->journal);
	fdatasync(fileno(l->journal));
	l->journal_dirty = 0;
}

static int owner_alive(const struct ps_live *l, long long pid, unsigned long long st)
{
	return ps_live_starttime(l->cfg.root, pid) == st && st;
}

/* Journals of powersched processes that are gone: put back what they changed. */
static void recover(struct ps_live *l)
{
	char path[1024], line[1200];
	struct ps_journal_rec rec;
	struct dirent *de;
	DIR *d = opendir(l->cfg.state_dir);
	int restored;

	if (!d)
		return;
	while ((de = readdir(d))) {
		FILE *f;
		int alive = 0;

		if (strncmp(de->d_name, "journal.", 8))
			continue;
		snprintf(path, sizeof(path), "%s/%s", l->cfg.state_dir, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !ps_journal_parse_line(line, &rec) &&
		    rec.kind == 'o')
			alive = owner_alive(l, rec.id, rec.starttime) && rec.id != l->self;
		fclose(f);
		if (alive)
			continue;
		lg(l, "recovering %s, left by a powersched that did not exit cleanly", path);
		if (!ps_live_restore_journal(l->cfg.root, path, l->cfg.log, l->cfg.log_arg,
					     &restored))
			lg(l, "recovered: %d thread mask(s) put back", restored);
		snprintf(path, sizeof(path), "%s/state.%s.json", l->cfg.state_dir,
			 de->d_name + 8);
		unlink(path);
	}
	closedir(d);
}

static void write_state(struct ps_live *l)
{
	char tmp[600], list[8192];
	double pkg_load[256] = { 0 };
	int k, i, np = 0;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", l->state_path);
	f = fopen(tmp, "we");
	if (!f)
		return;
	for (i = 0; i < l->topo->nr_pus; i++)
		if (l->topo->pus[i].package + 1 > np)
			np = l->topo->pus[i].package + 1;
	if (np > 256)
		np = 256;
	for (i = 0; i < l->thr_n; i++) {
		int p = l->thr[i].managed == 1 && l->thr[i].cpu >= 0 &&
			l->thr[i].cpu < PS_LIVE_MAX_CPUS ?
			l->pu_of_cpu[l->thr[i].cpu] : -1;

		if (p >= 0 && l->topo->pus[p].package >= 0 && l->topo->pus[p].package < np)
			pkg_load[l->topo->pus[p].package] += l->thr[i].util;
	}
	fprintf(f, "{\"name\":\"%s\",\"pid\":%d,\"policy\":\"%s\",\"requested\":\"%s\","
		"\"why\":\"%s\",\"backend\":\"%s\",\"interval_s\":%.3f,",
		l->cfg.name, (int)l->self, ps_policy_name(l->resolved),
		ps_policy_name(l->cfg.policy), l->why,
		l->backend == PS_BACKEND_CGROUP ? "cgroup" : "affinity", l->cfg.interval_s);
	ps_cpulist_format(l->allowed_os, PS_LIVE_MAX_CPUS, list, sizeof(list));
	fprintf(f, "\"allowed\":\"%s\",\"online\":\"%s\",\"threads\":%d,\"demand\":%.3f,"
		"\"mask_changes\":%d,\"intervals\":%d,\"energy_j\":%.3f,\"energy\":\"%s\","
		"\"load_per_package\":[",
		list, l->online_str, l->thr_n, l->last_demand, l->mask_changes, l->intervals,
		l->energy_j, l->have_rapl ? "measured (RAPL)" : "modeled from /proc/stat");
	for (k = 0; k < np; k++)
		fprintf(f, "%s%.3f", k ? "," : "", pkg_load[k]);
	fprintf(f, "],\"recent\":[");
	for (k = 0; k < l->nrecent; k++) {
		const struct recent *r = &l->recent[k];

		fprintf(f, "%s{\"t_s\":%.3f,\"tasks\":%d,\"demand\":%.3f,\"nr_allowed\":%d,"
			"\"allowed\":\"%s\"}", k ? "," : "", r->t_s, r->nr_tasks, r->demand,
			r->nr_allowed, r->allowed);
	}
	fprintf(f, "]}\n");
	if (fclose(f) == 0)
		rename(tmp, l->state_path);
}

/* ---- the cgroup backend ---- */

static int cgroup_usable(struct ps_live *l)
{
	char path[512], buf[512];

	path_of(l, path, sizeof(path), "/sys/fs/cgroup/cgroup.controllers");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return strstr(buf, "cpuset") != NULL;
}

/* The cgroup v2 path of process pid (0: ourselves), from /proc/PID/cgroup. */
static int cgroup_of(const struct ps_live *l, pid_t pid, char *out, size_t len)
{
	char path[512], buf[4096], *p;

	if (pid)
		path_of(l, path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	else
		path_of(l, path, sizeof(path), "/proc/self/cgroup");
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

static int cgroup_create(struct ps_live *l)
{
	char path[768], buf[512], origin[512];
	int r;

	if (cgroup_of(l, 0, origin, sizeof(origin)))
		snprintf(origin, sizeof(origin), "/");
	/* a sibling of ours would need the parent's subtree_control; we use
	 * the root, whose processes the no-internal-process rule exempts */
	path_of(l, path, sizeof(path), "/sys/fs/cgroup/cgroup.subtree_control");
	if (ps_live_read_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	if (!strstr(buf, "cpuset")) {
		journal_line(l, "subtree /\n");
		journal_sync(l);
		r = ps_live_write_file(path, "+cpuset");
		if (r) {
			lg(l, "cgroup: cannot enable cpuset in the root cgroup: %s", strerror(-r));
			return r;
		}
	}
	snprintf(l->cg_path, sizeof(l->cg_path), "/powersched-%s-%d", l->cfg.name,
		 (int)l->self);
	journal_line(l, "cgroup %s %s\n", l->cg_path, origin);
	journal_sync(l);
	path_of(l, path, sizeof(path), "/sys/fs/cgroup%s", l->cg_path);
	if (mkdir(path, 0755) && errno != EEXIST) {
		r = -errno;
		lg(l, "cgroup: cannot create %s: %s", path, strerror(-r));
		return r;
	}
	return 0;
}

static int cgroup_apply(struct ps_live *l, const char *list)
{
	char path[768];
	int r;

	if (!strcmp(list, l->cg_written))
		return 0; /* same content: no write */
	path_of(l, path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus", l->cg_path);
	r = ps_live_write_file(path, list);
	if (r) {
		lg(l, "cgroup: writing '%s' to %s: %s", list, path, strerror(-r));
		return r;
	}
	snprintf(l->cg_written, sizeof(l->cg_written), "%s", list);
	return 0;
}

/* ---- scanning ---- */

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
static int thr_before(pid_t tgid_a, pid_t tid_a, pid_t tgid_b, pid_t tid_b)
{
	return tgid_a < tgid_b || (tgid_a == tgid_b && tid_a < tid_b);
}

static int cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	return thr_before(y->tgid, y->tid, x->tgid, x->tid) -
	       thr_before(x->tgid, x->tid, y->tgid, y->tid);
}

/* First entry of the old table at or after (tgid, tid). */
static int lower_bound(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int lo = 0, hi = l->thr_n;

	while (lo < hi) {
		int m = (lo + hi) / 2;

		if (thr_before(l->thr[m].tgid, l->thr[m].tid, tgid, tid))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static struct thr *find_prev(const struct ps_live *l, pid_t tgid, pid_t tid)
{
	int k = lower_bound(l, tgid, tid);

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

/* daemon: not ours, by the cgroup of pid (include-cgroup, exclude-cgroup) */
static int cgroup_excluded(const struct ps_live *l, pid_t pid)
{
	char cg[4096];
	int inc = l->cfg.include_cgroup && l->cfg.include_cgroup[0];

	if (!inc && (!l->cfg.exclude_cgroup || !l->cfg.exclude_cgroup[0]))
		return 0;
	if (cgroup_of(l, pid, cg, sizeof(cg)))
		return 0;
	if (inc && !any_under(cg, l->cfg.include_cgroup))
		return 1;
	return any_under(cg, l->cfg.exclude_cgroup);
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
	} else if (ps_live_read_file(path, buf, sizeof(buf)) <= 0) {
		return -ESRCH;
	}
	return ps_live_parse_schedstat(buf, run, wait);
}

/* 1: every known thread of pid carried (count unchanged); 0: list them;
 * -errno. */
static int carry_process(struct ps_live *l, pid_t pid)
{
	char path[512], buf[1024];
	struct ps_live_stat st;
	int k = lower_bound(l, pid, 0), e = k, r;

	while (e < l->thr_n && l->thr[e].tgid == pid)
		e++;
	if (e - k < 32)
		return 0; /* small: a listing is as cheap as the count */
	path_of(l, path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st) ||
	    st.nr_threads != e - k)
		return 0;
	for (; k < e; k++) {
		struct thr t = l->thr[k];

		t.state_now = 0;
		if (!t.excluded) {
			if (t.ss_fd < 0) /* no descriptor (EMFILE): by path */
				path_of(l, path, sizeof(path), "/proc/%d/task/%d/schedstat",
					(int)pid, (int)t.tid);
			if (read_schedstat(t.ss_fd, path, &t.run_ns, &t.wait_ns))
				continue; /* gone */
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
 * once every 64 intervals (a changed scheduling policy, a reused TID).
 */
static int scan_process(struct ps_live *l, pid_t pid)
{
	char path[512], buf[1024];
	struct dirent *de;
	DIR *d;
	int r = 0;

	/* a process of many threads whose count has not changed: carry its
	 * threads without listing them (a full listing every 8 intervals
	 * finds a thread that replaced one that exited) */
	if ((l->intervals % 8) && (r = carry_process(l, pid)) != 0)
		return r < 0 ? r : 0;
	path_of(l, path, sizeof(path), "/proc/%d/task", (int)pid);
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
		p = find_prev(l, pid, (pid_t)tid);
		refresh = (tid + l->intervals) % 64 == 0;
		if (p && !refresh && p->excluded) {
			r = push_thr(l, p);
			continue;
		}
		if (p && !refresh && p->ss_fd >= 0 &&
		    !read_schedstat(p->ss_fd, NULL, &run, &wait)) {
			t = *p;
			t.run_ns = run;
			t.wait_ns = wait;
			t.state_now = 0;
			p->ss_fd = -1; /* moved to the new table */
			r = push_thr(l, &t);
			continue;
		}
		path_of(l, path, sizeof(path), "/proc/%d/task/%ld/stat", (int)pid, tid);
		if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 ||
		    ps_live_parse_stat(buf, &st))
			continue;
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
		if (ps_live_is_kthread(&st) || ps_live_is_rt(&st) ||
		    (l->cfg.whole_system &&
		     ((l->cfg.include_comm && l->cfg.include_comm[0] &&
		       !in_list(l->cfg.include_comm, st.comm)) ||
		      in_list(l->cfg.exclude_comm, st.comm)))) {
			t.excluded = 1;
			t.managed = 2; /* from now on left alone; the journal still
					* puts back what we set before */
			r = push_thr(l, &t);
			continue;
		}
		if (p) {
			t.util = p->util;
			t.managed = p->managed == 2 && p->excluded ? 0 : p->managed;
			t.ss_fd = p->ss_fd;
			p->ss_fd = -1;
		}
		path_of(l, path, sizeof(path), "/proc/%d/task/%ld/schedstat", (int)pid, tid);
		if (t.ss_fd < 0)
			t.ss_fd = open(path, O_RDONLY | O_CLOEXEC); /* -1 (EMFILE): by path */
		if (read_schedstat(t.ss_fd, path, &t.run_ns, &t.wait_ns)) {
			if (t.ss_fd >= 0)
				close(t.ss_fd);
			continue;
		}
		r = push_thr(l, &t);
	}
	closedir(d);
	return r;
}

static int scan_cgroup(struct ps_live *l)
{
	char path[768];
	char *buf = malloc(1 << 20), *p, *nl;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	path_of(l, path, sizeof(path), "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
	if (ps_live_read_file(path, buf, 1 << 20) < 0)
		buf[0] = '\0';
	for (p = buf; *p && !r; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		if (*p)
			r = scan_process(l, (pid_t)strtol(p, NULL, 10));
	}
	free(buf);
	return r;
}


static int cmp_proc(const void *a, const void *b)
{
	const struct proc_ent *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Every process (affinity backend: the child's descendants, or all). A
 * process's parent (or, for the daemon, its cgroup) is read when it is new
 * and every 16 intervals. */
static int scan_procs(struct ps_live *l)
{
	char path[512], buf[1024];
	struct proc_ent *pe = NULL;
	unsigned char *mark = NULL;
	int n = 0, cap = 0, i, changed, r = 0;
	struct dirent *de;
	DIR *d;

	path_of(l, path, sizeof(path), "/proc");
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
		if (l->nprocs && (pid + l->intervals) % 16)
			old = bsearch(&key, l->procs, (size_t)l->nprocs, sizeof(key), cmp_proc);
		if (old) {
			st.ppid = old->ppid;
		} else if (!l->cfg.whole_system) {
			path_of(l, path, sizeof(path), "/proc/%ld/stat", pid);
			if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 ||
			    ps_live_parse_stat(buf, &st))
				continue;
		} else {
			st.ppid = 0;
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
		pe[n].excluded = old ? old->excluded : -1;
		n++;
	}
	if (n)
		qsort(pe, (size_t)n, sizeof(*pe), cmp_proc);
	mark = calloc((size_t)n + 1, 1);
	if (!mark) {
		r = -ENOMEM;
		goto out;
	}
	if (l->cfg.whole_system) {
		for (i = 0; i < n; i++) {
			/* a process's cgroup is read when it is new (and every 16
			 * intervals), like its parent */
			if (pe[i].excluded < 0)
				pe[i].excluded = (signed char)cgroup_excluded(l, pe[i].pid);
			mark[i] = pe[i].pid != l->self && !pe[i].excluded;
		}
	} else {
		/* descendants of the child: parents sort before children almost
		 * always, so this settles in one or two passes */
		do {
			changed = 0;
			for (i = 0; i < n; i++) {
				struct proc_ent key, *par;

				if (mark[i])
					continue;
				key.pid = pe[i].ppid;
				par = pe[i].pid == l->child ? NULL :
				      bsearch(&key, pe, (size_t)n, sizeof(key), cmp_proc);
				if (pe[i].pid == l->child || (par && mark[par - pe])) {
					mark[i] = 1;
					changed = 1;
				}
			}
		} while (changed);
	}
	for (i = 0; i < n && !r; i++)
		if (mark[i])
			r = scan_process(l, pe[i].pid);
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

/* ---- energy ---- */

static void account_energy(struct ps_live *l, double dt)
{
	char path[512], *buf = l->statbuf, *p;
	struct ps_power pw;
	int i, npk = 0, ncore = 0;

	memset(l->pu_busy, 0, sizeof(double) * (size_t)l->topo->nr_pus);
	path_of(l, path, sizeof(path), "/proc/stat");
	if (ps_live_read_file(path, buf, PS_LIVE_STATBUF) > 0) {
		for (p = strstr(buf, "\ncpu"); p; p = strstr(p + 1, "\ncpu")) {
			unsigned long long v[8] = { 0 }, busy, total;
			int cpu;

			if (sscanf(p + 4, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 ||
			    cpu < 0 || cpu >= PS_LIVE_MAX_CPUS)
				continue;
			busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			total = busy + v[3] + v[4];
			i = l->pu_of_cpu[cpu];
			if (i >= 0 && l->started && total > l->cpu_total[cpu]) {
				l->pu_busy[i] = (double)(busy - l->cpu_busy[cpu]) /
						(double)(total - l->cpu_total[cpu]);
				if (l->pu_busy[i] < 0 || l->pu_busy[i] > 1)
					l->pu_busy[i] = l->pu_busy[i] < 0 ? 0 : 1;
			}
			l->cpu_busy[cpu] = busy;
			l->cpu_total[cpu] = total;
		}
	}
	if (!l->started)
		return;
	if (l->have_rapl) {
		char b[64];
		unsigned long long uj = 0, one;
		int k;

		for (k = 0; k < 64; k++) {
			path_of(l, path, sizeof(path),
				"/sys/class/powercap/intel-rapl:%d/energy_uj", k);
			if (ps_live_read_file(path, b, sizeof(b)) <= 0)
				break;
			one = strtoull(b, NULL, 10);
			uj += one;
		}
		if (uj >= l->rapl_uj)
			l->energy_j += (double)(uj - l->rapl_uj) / 1e6;
		l->rapl_uj = uj; /* a wrap loses one interval */
	} else if (l->cfg.model &&
		   !ps_power_eval(l->topo, l->cfg.model, l->pu_busy, NULL, &pw)) {
		l->energy_j += pw.power_w * dt;
	}
	/* active domains: a PU busy over ACTIVE_BUSY makes its core and package active */
	{
		unsigned char *pk = calloc(1024, 1), *co = calloc(65536, 1);

		if (pk && co) {
			for (i = 0; i < l->topo->nr_pus; i++) {
				const struct ps_pu *u = &l->topo->pus[i];

				if (l->pu_busy[i] < ACTIVE_BUSY)
					continue;
				if (u->package >= 0 && u->package < 1024 && !pk[u->package]) {
					pk[u->package] = 1;
					npk++;
				}
				if (u->core >= 0 && u->core < 65536 && !co[u->core]) {
					co[u->core] = 1;
					ncore++;
				}
			}
		}
		free(pk);
		free(co);
	}
	l->pkg_sum += npk;
	l->core_sum += ncore;
}

/* ---- apply ---- */

static int ps_count(const unsigned char *bits, int n)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += bits[i] != 0;
	return c;
}

static int inherited(const struct ps_live *l, const struct thr *t, const unsigned char *mask)
{
	pid_t parent = t->tid != t->tgid ? t->tgid : t->ppid;
	const struct thr *p = find_prev(l, parent, parent);
	char list[8192];
	int k;

	if (!p || p->managed != 1)
		return 0;
	if (ps_cpulist_format(mask, PS_LIVE_MAX_CPUS, list, sizeof(list)))
		return 0;
	for (k = 0; k < l->napplied; k++)
		if (!strcmp(l->applied[k], list))
			return 1;
	return 0;
}

static void remember_applied(struct ps_live *l, const char *list)
{
	char *c = strdup(list);

	if (!c)
		return;
	if (l->napplied == NR_APPLIED) {
		free(l->applied[0]);
		memmove(l->applied, l->applied + 1, sizeof(l->applied[0]) * (NR_APPLIED - 1));
		l->napplied--;
	}
	l->applied[l->napplied++] = c;
}

static int affinity_apply(struct ps_live *l, int changed)
{
	int i, r, nb = PS_LIVE_MAX_CPUS, fresh = 0;
	cpu_set_t *set = NULL;
	size_t sz = 0;

	/* first the new threads: ours or the user's; journal them, one sync */
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed)
			continue;
		if (ps_live_get_mask(t->tid, l->scratch, nb)) {
			t->managed = 2;
			continue;
		}
		/* the machine's mask, or one of ours inherited from a managed
		 * parent; anything else is the user's */
		if (memcmp(l->scratch, l->online, (size_t)nb) &&
		    memcmp(l->scratch, l->allowed_os, (size_t)nb) && !inherited(l, t, l->scratch)) {
			t->managed = 2;
			lg(l, "thread %d has an affinity of its own, narrower than the "
			   "online CPUs: left alone", (int)t->tid);
			continue;
		}
		if (!l->cfg.dry_run)
			journal_line(l, "task %d %llu %s\n", (int)t->tid, t->start, l->online_str);
		t->managed = 1;
		/* already on the allowed set (inherited): nothing to set */
		t->fresh = memcmp(l->scratch, l->allowed_os, (size_t)nb) != 0;
		fresh += t->fresh;
	}
	journal_sync(l);
	if (l->cfg.dry_run || (!changed && !fresh))
		return 0;
	/* one kernel CPU set for every thread */
	set = CPU_ALLOC((size_t)nb);
	if (!set)
		return -ENOMEM;
	sz = CPU_ALLOC_SIZE((size_t)nb);
	CPU_ZERO_S(sz, set);
	for (i = 0; i < nb; i++)
		if (l->allowed_os[i])
			CPU_SET_S((size_t)i, sz, set);
	for (i = 0; i < l->thr_n; i++) {
		struct thr *t = &l->thr[i];

		if (t->managed != 1 || (!changed && !t->fresh))
			continue;
		t->fresh = 0;
		r = sched_setaffinity(t->tid, sz, set) ? -errno : 0;
		if (r == -ESRCH)
			continue;
		if (r) {
			lg(l, "thread %d: sched_setaffinity: %s; left as it is", (int)t->tid,
			   strerror(-r));
			if (r == -EPERM)
				t->managed = 2;
		}
	}
	CPU_FREE(set);
	return 0;
}

static double read_uptime(const struct ps_live *l)
{
	char path[512], buf[128];

	path_of(l, path, sizeof(path), "/proc/uptime");
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
		path_of(l, path, sizeof(path), "/sys/fs/cgroup%s/cpu.pressure", l->cg_path);
	else
		path_of(l, path, sizeof(path), "/proc/pressure/cpu");
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

	path_of(l, path, sizeof(path), "/proc/%d/task/%d/stat", (int)t->tgid, (int)t->tid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st))
		return 0;
	t->state = st.state;
	t->state_now = 1;
	t->cpu = st.cpu;
	return st.state == 'R';
}

/* How full the allowed set was over the last interval: /proc/stat's busy
 * time of its PUs (every task, tick-sampled) or the managed threads' own
 * run time (schedstat, exact), whichever says fuller. */
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

static int scan(struct ps_live *l, double dt)
{
	double uptime;
	int psi;
	long hz = sysconf(_SC_CLK_TCK);
	int r, i, j;

	l->nthr_n = 0;
	if (l->backend == PS_BACKEND_CGROUP)
		r = scan_cgroup(l);
	else
		r = scan_procs(l);
	if (r)
		return r;
	if (l->nthr_n)
		qsort(l->nthr, (size_t)l->nthr_n, sizeof(*l->nthr), cmp_thr);
	uptime = read_uptime(l);
	if (hz <= 0)
		hz = 100;
	psi = cpu_pressure(l);
	l->psi_now = psi;
	/* deltas against the previous table */
	l->run_cpus = l->wait_cpus = 0;
	for (i = 0, j = 0; i < l->nthr_n; i++) {
		struct thr *t = &l->nthr[i];

		while (j < l->thr_n && thr_before(l->thr[j].tgid, l->thr[j].tid, t->tgid, t->tid))
			j++;
		t->seen = j < l->thr_n && l->thr[j].tid == t->tid && l->thr[j].tgid == t->tgid &&
			  l->thr[j].start == t->start;
		if (!t->seen) {
			/* new: its run so far counts towards how full the set is */
			double age = uptime - (double)t->start / (double)hz;

			l->threads_seen++;
			if (t->managed != 2 && !t->excluded)
				l->run_cpus += (double)t->run_ns / 1e9 / (age > dt ? age : dt);
			continue;
		}
		t->dr = t->run_ns >= l->thr[j].run_ns ? t->run_ns - l->thr[j].run_ns : 0;
		t->dw = t->wait_ns >= l->thr[j].wait_ns ? t->wait_ns - l->thr[j].wait_ns : 0;
		t->util = l->thr[j].util;
		t->rz_prev = l->thr[j].r_zero;
		if (t->managed != 2 && !t->excluded) {
			l->run_cpus += (double)t->dr / (dt * 1e9);
			l->wait_cpus += (double)t->dw / (dt * 1e9);
		}
	}
	l->sat = set_saturation(l);
	/* utilization: run + wait in full (PS_DEMAND_WAIT_WEIGHT); the set's
	 * fullness gates the "tasks queue" rule only */
	for (i = 0; i < l->nthr_n; i++) {
		struct thr *t = &l->nthr[i];

		if (t->seen) {
			t->util = ps_demand_update(t->util, t->dr, t->dw, dt, PS_DEMAND_WAIT_WEIGHT);
			/* runnable and not one ns of CPU over two samples in a row
			 * on a full set: starved (its wait shows only when it
			 * runs), a full PU of demand. One sample is not enough:
			 * a thread that woke just before it looks the same. */
			t->r_zero = !t->dr && !t->dw && ps_demand_take_runnable(l->sat, psi) &&
				    !t->excluded && runnable_now(l, t);
			if (t->r_zero && t->rz_prev)
				t->util = 1;
		} else {
			/* first sight: its whole life so far, (run + wait) / age */
			double age = uptime - (double)t->start / (double)hz;

			t->util = age > 0.01 ?
				ps_demand_update(0, t->run_ns, t->wait_ns, age, PS_DEMAND_WAIT_WEIGHT) : 0;
		}
	}
	/* threads gone: their schedstat descriptors were not carried over */
	for (j = 0; j < l->thr_n; j++)
		if (l->thr[j].ss_fd >= 0)
			close(l->thr[j].ss_fd);
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

static void remember(struct ps_live *l, double t, int ntasks, double demand, const char *list,
		     int nr)
{
	struct recent *r;

	if (l->nrecent == NR_RECENT) {
		memmove(l->recent, l->recent + 1, sizeof(l->recent[0]) * (NR_RECENT - 1));
		l->nrecent--;
	}
	r = &l->recent[l->nrecent++];
	r->t_s = t;
	r->nr_tasks = ntasks;
	r->demand = demand;
	r->nr_allowed = nr;
	snprintf(r->allowed, sizeof(r->allowed), "%.*s", (int)sizeof(r->allowed) - 1, list);
}

int ps_live_step(struct ps_live *l, double now_s)
{
	struct ps_decision *out, *prev;
	char list[8192], why[160];
	unsigned char *on = l->scratch;
	enum ps_policy pol = l->cfg.policy;
	double dt = l->started ? now_s - l->last_t : l->cfg.interval_s, demand = 0, small = 0;
	int r, i, n = 0, changed = 0, grow = 0, nb = PS_LIVE_MAX_CPUS;

	if (dt <= 0)
		dt = l->cfg.interval_s;
	if (!l->started)
		l->start_t = now_s - dt;
	/* hotplug: a new online set means a new topology */
	if (!read_online(l, on) && memcmp(on, l->online, (size_t)nb)) {
		memcpy(l->online, on, (size_t)nb);
		ps_cpulist_format(l->online, nb, l->online_str, sizeof(l->online_str));
		lg(l, "online CPUs changed to %s: reading the topology again", l->online_str);
		r = load_topology(l);
		if (r) {
			lg(l, "topology: %s; keeping the old mask", strerror(-r));
			return 0;
		}
		memset(l->allowed_os, 0, (size_t)nb); /* force a fresh mask */
		l->cg_written[0] = '\0';
	}
	account_energy(l, dt); /* first: the demand reads its per-PU busy time */
	r = scan(l, dt);
	if (r)
		return r;
	if (pol == PS_POLICY_AUTO) {
		ps_source_resolve(l->cfg.sysfs_root ? l->cfg.sysfs_root : l->cfg.root, &pol, why,
				  sizeof(why));
		if (pol != l->resolved || strcmp(why, l->why))
			lg(l, "auto: %s (%s)", ps_policy_name(pol), why);
		snprintf(l->why, sizeof(l->why), "%s", why);
	}
	l->resolved = pol;
	r = ensure_decisions(l, l->thr_n);
	if (r)
		return r;
	if (l->util_cap < l->thr_n) {
		double *u = realloc(l->util, sizeof(double) * (size_t)(l->thr_n + 64));

		if (!u)
			return -ENOMEM;
		l->util = u;
		l->util_cap = l->thr_n + 64;
	}
	/* tasks queue (PSI says some task waited, on a full set): a thread runnable now is
	 * taken at a full PU. Its run + wait under-reads it: the wait it is in
	 * is accounted only when it next runs. Only threads that count on
	 * their own are read (pooled ones have the two-sample rule), and not
	 * again when this scan read the stat already */
	if (ps_demand_take_runnable(l->sat, l->psi_now))
		for (i = 0; i < l->thr_n; i++) {
			struct thr *t = &l->thr[i];

			if (t->managed != 2 && !t->excluded && t->util >= PS_LIVE_SMALL_UTIL &&
			    t->util < 1 && (t->state_now ? t->state == 'R' : runnable_now(l, t)))
				t->util = 1;
		}
	for (i = 0; i < l->thr_n; i++) {
		if (l->thr[i].managed == 2)
			continue;
		demand += l->thr[i].util;
		if (l->thr[i].util >= PS_LIVE_SMALL_UTIL)
			l->util[n++] = l->thr[i].util;
		else
			small += l->thr[i].util;
	}
	/* threads below PS_LIVE_SMALL_UTIL count together (demand.h) */
	n += ps_demand_pool(small, l->util + n, l->util_cap - n);
	l->last_demand = demand;
	prev = &l->dec[l->cur];
	out = &l->dec[!l->cur];
	r = ps_policy_decide(l->topo, pol, l->util, n, &l->params,
			     l->intervals && prev->nr_allowed ? prev : NULL, out);
	if (r)
		return r;
	l->cur = !l->cur;
	memset(on, 0, (size_t)nb);
	for (i = 0; i < l->topo->nr_pus; i++)
		if (out->allowed[i] || !out->nr_allowed)
			on[l->topo->pus[i].os_index] = 1;
	/* never ask for a CPU that is not online */
	for (i = 0; i < nb; i++)
		on[i] &= l->online[i];
	for (i = 0; i < nb; i++) {
		if (on[i] != l->allowed_os[i])
			changed = 1;
		if (on[i] && !l->allowed_os[i])
			grow = 1;
	}
	if (changed && !ps_ratelimit_allow(&l->rl, now_s, grow)) {
		if (!l->held)
			lg(l, "mask change held back: %d changes in the last minute",
			   l->rl.n);
		l->held = 1;
		changed = 0;
	} else if (changed) {
		l->held = 0;
		memcpy(l->allowed_os, on, (size_t)nb);
		l->mask_changes++;
		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		lg(l, "[%.2f] t=%.1fs %s: %d task(s), demand %.2f (run %.2f wait %.2f full %.2f): allowed %s (%d PUs, %d package(s), %d core(s))",
		   now_s, now_s - l->start_t, ps_policy_name(pol), n, demand, l->run_cpus,
		   l->wait_cpus, l->sat, list, out->nr_allowed,
		   out->active[PS_LVL_PACKAGE], out->active[PS_LVL_CORE]);
		remember(l, now_s - l->start_t, n, demand, list, out->nr_allowed);
		if (l->backend == PS_BACKEND_CGROUP && !l->cfg.dry_run)
			cgroup_apply(l, list);
		else
			remember_applied(l, list);
	}
	if (!changed && l->cfg.verbose) {
		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		lg(l, "[%.2f] t=%.1fs %s: %d task(s), demand %.2f (run %.2f wait %.2f full %.2f): allowed %s (%d PUs) kept",
		   now_s, now_s - l->start_t, ps_policy_name(pol), n, demand, l->run_cpus,
		   l->wait_cpus, l->sat, list, ps_count(l->allowed_os, nb));
	}
	if (l->backend == PS_BACKEND_AFFINITY)
		affinity_apply(l, changed);
	l->intervals++;
	l->last_t = now_s;
	l->started = 1;
	write_state(l);
	return 0;
}

/* ---- life cycle ---- */

int ps_live_reconfigure(struct ps_live *l, const struct ps_live_cfg *cfg)
{
	int r = ps_ratelimit_init(&l->rl, cfg->max_changes, 60);

	if (r)
		return r;
	l->cfg = *cfg;
	if (l->topo && cfg->model)
		ps_topo_set_smt_gain(l->topo, cfg->model->smt_gain);
	return 0;
}

int ps_live_open(const struct ps_live_cfg *cfg, struct ps_live **out)
{
	struct ps_live *l = calloc(1, sizeof(*l));
	struct rlimit nofile;
	char path[512];
	int r;

	if (!l)
		return -ENOMEM;
	l->cfg = *cfg;
	l->self = getpid();
	ps_policy_params_default(&l->params);
	/* one schedstat descriptor per managed thread: take the hard limit */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		l->nofile_cur = nofile.rlim_cur;
		l->have_nofile = 1;
		if (nofile.rlim_cur < nofile.rlim_max) {
			nofile.rlim_cur = nofile.rlim_max;
			setrlimit(RLIMIT_NOFILE, &nofile);
		}
	}
	r = ps_ratelimit_init(&l->rl, cfg->max_changes, 60);
	if (r)
		goto fail;
	l->online = calloc(PS_LIVE_MAX_CPUS, 1);
	l->allowed_os = calloc(PS_LIVE_MAX_CPUS, 1);
	l->scratch = calloc(PS_LIVE_MAX_CPUS, 1);
	l->cpu_busy = calloc(PS_LIVE_MAX_CPUS, sizeof(*l->cpu_busy));
	l->cpu_total = calloc(PS_LIVE_MAX_CPUS, sizeof(*l->cpu_total));
	r = -ENOMEM;
	if (!l->online || !l->allowed_os || !l->scratch || !l->cpu_busy || !l->cpu_total)
		goto fail;
	if (mkdir(cfg->state_dir, 0755) && errno != EEXIST) {
		r = -errno;
		goto fail;
	}
	recover(l);
	r = read_online(l, l->online);
	if (r)
		goto fail;
	ps_cpulist_format(l->online, PS_LIVE_MAX_CPUS, l->online_str, sizeof(l->online_str));
	memcpy(l->allowed_os, l->online, PS_LIVE_MAX_CPUS);
	r = load_topology(l);
	if (r)
		goto fail;
	path_of(l, path, sizeof(path), "/sys/class/powercap/intel-rapl:0/energy_uj");
	l->have_rapl = access(path, R_OK) == 0;
	l->backend = cfg->backend;
	if (l->backend == PS_BACKEND_AUTO)
		l->backend = !cfg->whole_system && cgroup_usable(l) ? PS_BACKEND_CGROUP :
								     PS_BACKEND_AFFINITY;
	snprintf(l->journal_path, sizeof(l->journal_path), "%s/journal.%d", cfg->state_dir,
		 (int)l->self);
	snprintf(l->state_path, sizeof(l->state_path), "%s/state.%d.json", cfg->state_dir,
		 (int)l->self);
	if (!cfg->dry_run) {
		l->journal = fopen(l->journal_path, "wxe");
		if (!l->journal) {
			r = -errno;
			goto fail;
		}
		journal_line(l, "owner %d %llu\n", (int)l->self,
			     ps_live_starttime(cfg->root, l->self));
		journal_sync(l);
	}
	l->resolved = cfg->policy == PS_POLICY_AUTO ? PS_POLICY_PERFORMANCE : cfg->policy;
	*out = l;
	return 0;
fail:
	ps_live_close(l);
	return r;
}

int ps_live_prepare_child(struct ps_live *l, char *procs_path, size_t len)
{
	int r;

	procs_path[0] = '\0';
	if (l->backend != PS_BACKEND_CGROUP || l->cfg.dry_run)
		return 0;
	r = cgroup_create(l);
	if (r) {
		lg(l, "cgroup backend not usable (%s): using affinity", strerror(-r));
		l->backend = PS_BACKEND_AFFINITY;
		return 0;
	}
	path_of(l, procs_path, len, "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
	return 0;
}

void ps_live_child_reset(const struct ps_live *l)
{
	struct rlimit nofile;

	if (l->have_nofile && !getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = (rlim_t)l->nofile_cur;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

int ps_live_set_child(struct ps_live *l, pid_t pid)
{
	char path[768], buf[32];

	l->child = pid;
	if (l->backend == PS_BACKEND_CGROUP && l->cg_path[0]) {
		/* the child enters on its own before exec; this covers a race */
		path_of(l, path, sizeof(path), "/sys/fs/cgroup%s/cgroup.procs", l->cg_path);
		snprintf(buf, sizeof(buf), "%d", (int)pid);
		ps_live_write_file(path, buf);
	}
	return 0;
}

void ps_live_summary(const struct ps_live *l, struct ps_live_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->wall_s = l->started ? l->last_t - l->start_t : 0;
	s->energy_j = l->energy_j;
	s->energy_measured = l->have_rapl;
	s->intervals = l->intervals;
	s->mean_packages = l->intervals > 1 ? l->pkg_sum / (l->intervals - 1) : 0;
	s->mean_cores = l->intervals > 1 ? l->core_sum / (l->intervals - 1) : 0;
	s->mask_changes = l->mask_changes;
	s->threads_seen = l->threads_seen;
	s->backend = l->backend == PS_BACKEND_CGROUP ? "cgroup v2 cpuset" : "affinity";
	snprintf(s->policy_why, sizeof(s->policy_why), "%s%s%s%s",
		 ps_policy_name(l->resolved), l->why[0] ? " (" : "", l->why,
		 l->why[0] ? ")" : "");
}

void ps_live_close(struct ps_live *l)
{
	int restored;

	if (!l)
		return;
	if (l->journal) {
		fclose(l->journal);
		l->journal = NULL;
		if (!ps_live_restore_journal(l->cfg.root, l->journal_path, l->cfg.log,
					     l->cfg.log_arg, &restored) && restored)
			lg(l, "restored %d thread mask(s)", restored);
	}
	if (l->state_path[0])
		unlink(l->state_path);
	if (l->have_dec) {
		ps_decision_fini(&l->dec[0]);
		ps_decision_fini(&l->dec[1]);
	}
	for (int k = 0; l->thr && k < l->thr_n; k++)
		if (l->thr[k].ss_fd >= 0)
			close(l->thr[k].ss_fd);
	free(l->procs);
	ps_topo_free(l->topo);
	free(l->online);
	free(l->allowed_os);
	free(l->scratch);
	free(l->cpu_busy);
	free(l->cpu_total);
	free(l->pu_busy);
	free(l->thr);
	free(l->nthr);
	free(l->util);
	while (l->napplied)
		free(l->applied[--l->napplied]);
	free(l);
}
