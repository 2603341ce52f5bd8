// SPDX-License-Identifier: MIT
/*
 * DOC: load source "proc": per-thread schedstat from /proc
 *
 * The backend lists the managed processes (members, live/members.c); each
 * process's threads are read into a table sorted by process, then thread
 * (live/threads.c), merged with the previous interval's table in two
 * passes: the per-thread deltas and the managed threads' run and wait (how
 * full the set is, ps_demand_saturation()), then each thread's
 * utilization, (run + wait) / wall over the interval, decayed
 * (ps_demand_update()), and the starved rule, which takes a full set
 * (ps_demand_take_runnable()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demand.h"
#include "live_int.h"

static int in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
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
		r = ps_live_push_thr(l, &t);
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
		r = ps_live_push_thr(l, &t);
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
			r = ps_live_push_thr(l, p);
			continue;
		}
		if (p && !refresh && !pexcl && p->ss_fd >= 0 &&
		    !read_schedstat(p->ss_fd, NULL, &run, &wait)) {
			t = *p;
			t.run_ns = run;
			t.wait_ns = wait;
			t.state_now = 0;
			p->ss_fd = -1; /* moved to the new table */
			r = ps_live_push_thr(l, &t);
			continue;
		}
		ps_live_path(l, path, sizeof(path), "/proc/%d/task/%ld/stat", (int)pid, tid);
		r = ps_live_read_file(path, buf, sizeof(buf));
		if (r == -EMFILE || r == -ENFILE) {
			r = p ? ps_live_push_thr(l, p) : 0; /* no descriptor: kept as it was */
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
			r = ps_live_push_thr(l, &t);
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
		r = ps_live_push_thr(l, &t);
	}
	closedir(d);
	for (int i = first; i < l->nthr_n; i++) {
		l->nthr[i].pticks = ticks;
		l->nthr[i].agg = 0;
	}
	return r;
}

int ps_live_cpu_pressure(struct ps_live *l)
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
double ps_live_set_saturation(struct ps_live *l)
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
		if (ps_live_cmp_thr(&l->nthr[i - 1], &l->nthr[i]) > 0)
			break;
	if (i < l->nthr_n)
		qsort(l->nthr, (size_t)l->nthr_n, sizeof(*l->nthr), ps_live_cmp_thr);
	uptime = ps_live_uptime(l);
	if (hz <= 0)
		hz = 100;
	psi = ps_live_cpu_pressure(l);
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
	l->sat = ps_live_set_saturation(l);
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
	ps_live_swap_tables(l);
	return 0;
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

		if (!e->marked || !ps_live_cgroup_excluded(l, e->pid))
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
