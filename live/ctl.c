// SPDX-License-Identifier: MIT
/*
 * DOC: the live controller loop
 *
 * Each interval: the load source scans the managed threads (the backend
 * says which processes those are), the demand estimate turns their
 * utilization into the tasks the policy sees, ps_policy_decide() picks the
 * allowed set, and the enforcement backend applies it when it changed and
 * the rate limit allows. Then energy is accounted and the status written.
 * The files around this one: source_proc.c (load), backend_cgroup.c and
 * backend_affinity.c (enforcement), journal.c (record and restore),
 * energy.c, status.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "demand.h"
#include "live_int.h"
#include "ps/source.h"

static int read_online(struct ps_live *l, unsigned char *bits)
{
	char path[512], buf[8192];
	int r;

	ps_live_path(l, path, sizeof(path), "/sys/devices/system/cpu/online");
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

	/* made at the first scan even with no thread to place: a scan that
	 * found none (test_f11's stand-in /proc) left the decisions without
	 * arrays, and the policy refused every interval */
	if (l->have_dec && n <= cap)
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

/*
 * The demand estimate: the managed threads' utilization to the tasks the
 * policy sees, in l->util. Under CPU pressure on a full set (the source's
 * l->sat, ps_demand_take_runnable()) a runnable thread counts as a full PU;
 * small threads are pooled (ps_demand_pool()). Return: the number of tasks, or
 * -errno; *demand gets the sum of the threads' raw utilization, *placed the
 * sum of what the placement reads (the filtered figures, pooled chunks).
 */
static int estimate_demand(struct ps_live *l, double *demand, double *placed)
{
	double small = 0;
	int i, n = 0, n0;

	*demand = *placed = 0;
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
	 * again when this scan read the stat already. The placement's figure
	 * too: a raw 1 over a held 0.9 (the filter's average still rising)
	 * had 16 threads placed as 14.6 on a full set */
	if (ps_demand_take_runnable(l->sat, l->psi_now))
		for (i = 0; i < l->thr_n; i++) {
			struct thr *t = &l->thr[i];

			if (t->managed != 2 && !t->excluded && t->util >= PS_LIVE_SMALL_UTIL &&
			    (t->util < 1 || t->place.held < 1) &&
			    (t->state_now ? t->state == 'R' : l->src->runnable(l, t)))
				t->util = t->place.avg = t->place.held = 1;
		}
	/* the demand is the raw figures' sum; the placement reads each
	 * thread's filtered one (ps_demand_place(): jitter inside its band
	 * does not move it) */
	l->place_lag = 0;
	for (i = 0; i < l->thr_n; i++) {
		double u = l->thr[i].place.held >= 0 ? l->thr[i].place.held : l->thr[i].util;

		if (l->thr[i].managed == 2)
			continue;
		*demand += l->thr[i].util;
		l->place_lag += ps_demand_lag(l->thr[i].util, u);
		if (u >= PS_LIVE_SMALL_UTIL) {
			l->util[n++] = u;
			*placed += u;
		} else {
			small += u;
		}
	}
	/* threads below PS_LIVE_SMALL_UTIL count together (demand.h) */
	n0 = n;
	n += ps_demand_pool(small, l->util + n, l->util_cap - n);
	for (i = n0; i < n; i++)
		*placed += l->util[i];
	l->place_lag = fabs(l->place_lag); /* signed over the threads: jitter cancels */
	return n;
}

/* /proc/loadavg's last field: the PID (or TID) last handed out; -1 when
 * unreadable (every interval is then scanned) */
static long long last_pid(const struct ps_live *l)
{
	char path[512], buf[128], *p;

	ps_live_path(l, path, sizeof(path), "/proc/loadavg");
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ' ');
	return p ? strtoll(p + 1, NULL, 10) : -1;
}

/* the largest of n utilizations (the policy's CPU-bound rule looks at it) */
static double largest(const double *u, int n)
{
	double m = 0;

	for (int i = 0; i < n; i++)
		m = u[i] > m ? u[i] : m;
	return m;
}

/* the machine's busy PUs over the interval (ps_live_account_energy()) */
static double busy_pus(const struct ps_live *l)
{
	double b = 0;

	for (int i = 0; i < l->topo->nr_pus; i++)
		b += l->pu_busy[i];
	return b;
}

/* The managed tasks' own CPUs over the interval, where the backend counts
 * them (the cgroup's cpu.stat): l->own_cpus, negative when it does not */
static void own_account(struct ps_live *l, double dt)
{
	double u = l->be && l->be->usage_s ? l->be->usage_s(l) : -1;

	l->own_cpus = u >= 0 && l->own_prev_s >= 0 && u >= l->own_prev_s && dt > 0 ?
			      (u - l->own_prev_s) / dt : -1;
	l->own_prev_s = u;
}

/* May this interval keep the set without reading the load? PS_SCAN_QUIET,
 * or why not (see ps_demand_quiet_why(); the last scan's own figures are
 * in l) */
static int quiet_interval(struct ps_live *l, enum ps_policy pol, long long pid_now, int cn_born)
{
	struct ps_demand_quiet q;
	unsigned char *in = l->scratch;
	int i, n = l->topo->nr_pus < PS_LIVE_MAX_CPUS ? l->topo->nr_pus : PS_LIVE_MAX_CPUS;

	if (!l->started || l->full_scan || l->apply_err || pol != l->resolved ||
	    !l->src->quiet || l->scans < 2)
		return PS_SCAN_CHANGE;
	for (i = 0; i < n; i++) {
		int os = l->topo->pus[i].os_index;

		in[i] = os >= 0 && os < PS_LIVE_MAX_CPUS && l->allowed_os[os];
	}
	q.busy = busy_pus(l);
	q.busy_scan = l->scan_busy;
	q.demand = l->last_demand;
	q.demand_prev = l->prev_demand;
	q.sat = ps_demand_saturation(l->pu_busy, in, n, 0);
	q.at_rest = l->at_rest;
	/* born since the last look: a scan, unless every one of them is gone
	 * or cannot be ours (a kernel thread, another's child); the proc
	 * connector's messages say so when we listen to it */
	q.born = cn_born >= 0 ? cn_born : pid_now < 0 ||
		 (pid_now != l->seen_pid &&
		  !(l->src->births_not_ours && l->src->births_not_ours(l, l->seen_pid, pid_now)));
	q.skipped = l->skipped;
	q.max_skip = ps_demand_max_skip(l->scan_cpu_s, l->cfg.interval_s);
	q.own = l->own_cpus;
	q.own_scan = l->own_scan;
	q.lag = l->place_lag;
	return ps_demand_quiet_why(&q);
}

static void use_backend(struct ps_live *l, enum ps_live_backend b);

/*
 * The sched_ext scheduler ended by itself: the kernel runs the command
 * under its own scheduler already. Our SCHED_EXT goes from the command's
 * threads (in this interval and the next: a thread born in between has it
 * from a parent of ours; one that has it later was given it by someone),
 * then, once, the configured fallback. An unload by a person is obeyed
 * (userspace's, SysRq-S: the kernel's scheduler it is); any other end (an
 * error, the watchdog, the kernel's own, e.g. a CPU going offline) is
 * what the fallback is for.
 */
static void scx_fell(struct ps_live *l)
{
	int obeyed = l->scx_exit_kind == PS_SCX_EXIT_UNREG || l->scx_exit_kind == PS_SCX_EXIT_SYSRQ;
	int n = l->scx_release_left > 0 ? ps_live_scx_release_policy(l) : 0;

	if (n)
		lg(l, "scx: %d thread(s) of the command given back policy SCHED_OTHER", n);
	if (l->scx_fell) {
		if (l->scx_release_left > 0)
			l->scx_release_left--;
		return;
	}
	l->scx_fell = 1;
	l->scx_release_left = 1; /* the next interval's too */
	if (!obeyed && l->cfg.scx_fallback == PS_SCX_FALLBACK_AFFINITY) {
		use_backend(l, PS_BACKEND_AFFINITY);
		/* the next interval applies the set as a change (its applied
		 * record is what restore trusts) after a look at every task */
		l->scx_switched = 1;
		lg(l, "scx: falling back to the affinity backend (scx-fallback affinity): the "
		   "policy's set goes on as the threads' masks");
		return;
	}
	l->scx_failed = !obeyed && l->cfg.scx_fallback == PS_SCX_FALLBACK_FAIL;
	lg(l, "scx: the command runs under the kernel's own scheduler for the rest of the "
	   "run%s", obeyed ? " (the scheduler was unloaded by hand, not ended)" :
	   l->scx_failed ? " (scx-fallback fail: the exit status will say so)" :
	   " (scx-fallback kernel)");
}

static int step(struct ps_live *l, double now_s)
{
	struct ps_decision *out, *prev;
	char list[8192] = "", why[160];
	unsigned char *on = l->scratch;
	enum ps_policy pol = l->cfg.policy;
	double dt = l->started ? now_s - l->last_t : l->cfg.interval_s, demand = 0, placed = 0;
	int r, i, n = 0, changed = 0, grow = 0, held_now = 0, nb = PS_LIVE_MAX_CPUS, cn_born, scan_why;
	long long pid_now;
	struct timespec c0, c1;

	if (dt <= 0)
		dt = l->cfg.interval_s;
	if (!l->started)
		l->start_t = now_s - dt;
	/* the scx backend fell back to affinity in the last interval: its set
	 * goes on the threads as a change, after a look at every task */
	if (l->scx_switched) {
		l->scx_switched = 0;
		memset(l->allowed_os, 0, (size_t)nb);
		l->full_scan = 1;
	}
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
		l->full_scan = 1;                     /* and a fresh look at every task */
		l->cg_written[0] = '\0';
	}
	ps_live_account_energy(l, dt); /* first: the scan's saturation reads its per-PU busy time */
	own_account(l, dt);
	/* the span the next scan reads: since the last one */
	l->span_t += dt;
	l->span_busy += busy_pus(l) * dt;
	l->busy_s += busy_pus(l) * dt;
	l->span_own = l->own_cpus >= 0 && l->span_own >= 0 ? l->span_own + l->own_cpus * dt : -1;
	if (pol == PS_POLICY_AUTO) {
		ps_live_auto_resolve(&l->autos, l->cfg.sysfs_root ? l->cfg.sysfs_root : l->cfg.root,
				     &pol, why, sizeof(why), l->cfg.log, l->cfg.log_arg);
		if (pol != l->resolved || strcmp(why, l->why)) {
			lg(l, "auto: %s (%s)", ps_policy_name(pol), why);
			l->resolved_at = l->intervals;
		}
		snprintf(l->why, sizeof(l->why), "%s", why);
	}
	/* every interval empties the connector's queue, scan or not */
	cn_born = ps_live_procevents_drain(l);
	pid_now = cn_born >= 0 ? 0 : last_pid(l);
	scan_why = quiet_interval(l, pol, pid_now, cn_born);
	if (scan_why == PS_SCAN_QUIET) {
		/* nothing the scan could see would change the set; the births
		 * up to pid_now were looked at */
		l->seen_pid = pid_now;
		l->src->quiet(l);
		l->skipped++;
		l->skips++;
		if (l->cfg.verbose) {
			ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
			lg(l, "[%.2f] t=%.1fs %s: quiet (busy %.2f PUs, %d interval(s) without a scan): allowed %s kept",
			   now_s, now_s - l->start_t, ps_policy_name(pol), busy_pus(l), l->skipped,
			   list);
		}
		l->intervals++;
		l->last_t = now_s;
		ps_live_write_state(l);
		return 0;
	}
	/* a task born from here on is seen by the next interval's check */
	l->seen_pid = pid_now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	r = l->src->scan(l, l->scans ? now_s - l->last_scan_t : dt);
	if (r) {
		/* the births drained above were not read: the next interval
		 * must scan */
		l->cn_births = 1;
		l->full_scan = 1;
		return r;
	}
	/* the scan read its deltas up to now: the next one's begin here even
	 * if this interval fails from here on (one interval's deltas over two
	 * intervals read half) */
	l->last_scan_t = now_s;
	l->at_rest = 0; /* until this interval's decision says so */
	/* what the next intervals are compared with: the busy time and our
	 * own over the span this scan read, as its figures are. After quiet
	 * intervals a load that changed inside the span is read diluted (a
	 * spin begun 0.1 s before a scan spanning 2 s reads 0.05); the
	 * interval after differs from the span's mean and scans, over one
	 * interval. A change that was gone by then (noise) does not. */
	l->scan_busy = l->span_t > 0 ? l->span_busy / l->span_t : busy_pus(l);
	l->own_scan = l->span_t > 0 && l->span_own >= 0 ? l->span_own / l->span_t : -1;
	l->span_t = l->span_busy = l->span_own = 0;
	l->resolved = pol;
	r = ensure_decisions(l, l->thr_n);
	if (r)
		return r;
	r = estimate_demand(l, &demand, &placed);
	if (r < 0)
		return r;
	n = r;
	l->prev_demand = l->scans ? l->last_demand : demand;
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
		held_now = 1;
		changed = 0;
	} else if (changed) {
		l->held = 0;
		memcpy(l->allowed_os, on, (size_t)nb);
		l->mask_changes++;
		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		lg(l, "[%.2f] t=%.1fs %s: %d task(s), demand %.2f (run %.2f wait %.2f full %.2f, placed %.2f, largest %.2f): allowed %s (%d PUs; active %d package(s), %d core(s); placement %s) [read: %s]",
		   now_s, now_s - l->start_t, ps_policy_name(pol), n, demand, l->run_cpus,
		   l->wait_cpus, l->sat, placed, largest(l->util, n), list, out->nr_allowed,
		   out->active[PS_LVL_PACKAGE], out->active[PS_LVL_CORE],
		   out->chosen >= 0 ? ps_cand_name(out->chosen) : "-", ps_scan_why_name(scan_why));
		remember(l, now_s - l->start_t, n, demand, list, out->nr_allowed);
	}
	if (!changed && l->cfg.verbose) {
		ps_cpulist_format(l->allowed_os, nb, list, sizeof(list));
		lg(l, "[%.2f] t=%.1fs %s: %d task(s), demand %.2f (run %.2f wait %.2f full %.2f, placed %.2f): allowed %s (%d PUs) kept [read: %s]",
		   now_s, now_s - l->start_t, ps_policy_name(pol), n, demand, l->run_cpus,
		   l->wait_cpus, l->sat, placed, list, ps_live_count(l->allowed_os, nb),
		   ps_scan_why_name(scan_why));
	}
	l->apply_err = l->be->apply(l, list, changed) != 0;
	if (l->scx_ended)
		scx_fell(l);
	/* the scheduler gone for good (scx-fallback kernel or fail, an
	 * unload by hand): no load is read, and IRQs follow no set */
	if (changed && !l->apply_err && !(l->backend == PS_BACKEND_SCX && l->scx_ended))
		ps_live_park(l, list);
	l->at_rest = !changed && !held_now && !out->low_streak && !l->settling;
	l->scans++;
	l->scan_why[scan_why > 0 && scan_why < PS_SCAN_NR ? scan_why : PS_SCAN_CHANGE]++;
	l->skipped = 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	l->scan_cpu_s = (double)(c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9;
	l->intervals++;
	l->full_scan = 0;
	l->last_t = now_s;
	l->started = 1;
	ps_live_write_state(l);
	return 0;
}

int ps_live_step(struct ps_live *l, double now_s)
{
	int r = step(l, now_s);

	/* an interval that failed did its accounting first (the energy, the
	 * span's busy time): the next one begins here, or it counts this one
	 * again (tests/unit/test_live.c, finding 11) */
	if (r && l->started)
		l->last_t = now_s;
	return r;
}

static void use_backend(struct ps_live *l, enum ps_live_backend b)
{
	/* the daemon's load came from the scheduler (source scx): a mask
	 * backend reads /proc, from a table of its own (the scx source's
	 * entries are no thread of ours to restore) */
	if (b != PS_BACKEND_SCX && l->src == &ps_live_source_scx) {
		l->src = &ps_live_source_proc;
		l->thr_n = 0;
		l->full_scan = 1;
	}
	l->backend = b;
	l->be = b == PS_BACKEND_CGROUP ? &ps_live_backend_cgroup :
		b == PS_BACKEND_SCX ? &ps_live_backend_scx : &ps_live_backend_affinity;
}

int ps_live_reconfigure(struct ps_live *l, const struct ps_live_cfg *cfg)
{
	int r = ps_ratelimit_init(&l->rl, cfg->max_changes, 60);

	if (r)
		return r;
	l->cfg = *cfg;
	/* the new filters apply at the next interval, to every thread */
	l->full_scan = 1;
	if (l->topo && cfg->model)
		ps_topo_set_smt_gain(l->topo, cfg->model->smt_gain);
	l->params.model = cfg->model; /* power chooses by it, as in plan and sim */
	return 0;
}

int ps_live_open(const struct ps_live_cfg *cfg, struct ps_live **out)
{
	struct ps_live *l = calloc(1, sizeof(*l));
	struct rlimit nofile;
	char path[512], why[200]; /* why, when the proc connector is not used */
	int r;

	if (!l)
		return -ENOMEM;
	l->cfg = *cfg;
	l->self = getpid();
	l->journal_fd = -1;
	l->cn_fd = -1;
	l->own_prev_s = l->own_cpus = l->own_scan = -1; /* not counted (yet) */
	l->src = &ps_live_source_proc;
	use_backend(l, PS_BACKEND_AFFINITY);
	ps_policy_params_default(&l->params);
	l->params.model = cfg->model; /* power chooses by it, as in plan and sim */
	/* one schedstat descriptor per managed thread: take the hard limit */
	if (!getrlimit(RLIMIT_NOFILE, &nofile)) {
		l->nofile_cur = nofile.rlim_cur;
		l->have_nofile = 1;
		if (nofile.rlim_cur < nofile.rlim_max) {
			nofile.rlim_cur = nofile.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &nofile))
				nofile.rlim_cur = (rlim_t)l->nofile_cur;
		}
		/* 64 left for everything else (journal, /proc reads, restore) */
		l->max_ss_fd = nofile.rlim_cur > 128 ? (int)(nofile.rlim_cur > (1 << 20) ?
					(1 << 20) : nofile.rlim_cur) - 64 : 0;
	}
	r = ps_ratelimit_init(&l->rl, cfg->max_changes, 60);
	if (r)
		goto fail;
	l->online = calloc(PS_LIVE_MAX_CPUS, 1);
	l->allowed_os = calloc(PS_LIVE_MAX_CPUS, 1);
	l->scratch = calloc(PS_LIVE_MAX_CPUS, 1);
	l->set_os = calloc(PS_LIVE_MAX_CPUS, 1);
	l->cpu_busy = calloc(PS_LIVE_MAX_CPUS, sizeof(*l->cpu_busy));
	l->cpu_total = calloc(PS_LIVE_MAX_CPUS, sizeof(*l->cpu_total));
	r = -ENOMEM;
	if (!l->online || !l->allowed_os || !l->scratch || !l->set_os || !l->cpu_busy || !l->cpu_total)
		goto fail;
	if (mkdir(cfg->state_dir, 0755) && errno != EEXIST) {
		r = -errno;
		goto fail;
	}
	/* what is replayed from here is run as root: the directory must be
	 * ours and writable by no one else (not a symlink either) */
	{
		struct stat st;

		if (lstat(cfg->state_dir, &st)) {
			r = -errno;
			goto fail;
		}
		r = ps_live_check_private(-1, &st, 1);
		if (r) {
			lg(l, "state directory %s: not a directory of ours that only we can "
			   "write (owner uid %u, mode %o): refused", cfg->state_dir,
			   (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
			goto fail;
		}
	}
	ps_live_recover(l);
	r = read_online(l, l->online);
	if (r)
		goto fail;
	ps_cpulist_format(l->online, PS_LIVE_MAX_CPUS, l->online_str, sizeof(l->online_str));
	memcpy(l->allowed_os, l->online, PS_LIVE_MAX_CPUS);
	memcpy(l->set_os, l->online, PS_LIVE_MAX_CPUS);
	r = load_topology(l);
	if (r)
		goto fail;
	/* births: from the proc connector where we may listen to it */
	if (ps_live_procevents_open(l, why, sizeof(why))) {
		if (l->cfg.whole_system || l->cfg.verbose)
			lg(l, "new tasks found from /proc/loadavg's last PID (proc connector: %s)",
			   why);
	} else if (l->cfg.whole_system || l->cfg.verbose) {
		lg(l, "new tasks found from the proc connector");
	}
	ps_live_path(l, path, sizeof(path), "/sys/class/powercap/intel-rapl:0/energy_uj");
	l->have_rapl = access(path, R_OK) == 0;
	if (cfg->backend == PS_BACKEND_AUTO) {
		char unit[256], busy[300];
		/* the mask backend run would use: the cgroup backend where it
		 * can be used and the command is in no systemd unit; in one (a
		 * service, a login session's scope), a cgroup of ours would
		 * take it out of the unit, where the unit's stop and logind's
		 * cleanup no longer reach it: affinity keeps it there */
		int in_unit = !cfg->whole_system && ps_live_cgroup_unit(l, unit, sizeof(unit));
		enum ps_live_backend mask = !cfg->whole_system && !in_unit &&
						    ps_live_cgroup_usable(l) ?
						    PS_BACKEND_CGROUP : PS_BACKEND_AFFINITY;
		/* run's first choice: the scx backend, where this build has it
		 * and the kernel has sched_ext with no scheduler loaded (one
		 * that is: said in one line, and a mask backend) */
		int scx = !cfg->attached && ps_live_scx_built() &&
			  !(cfg->whole_system && cfg->dry_run);

		if (scx) {
			r = ps_live_scx_usable(cfg->root, busy, sizeof(busy));
			if (r == -EBUSY)
				lg(l, "backend: %s; the %s backend instead", busy,
				   mask == PS_BACKEND_CGROUP ? "cgroup" : "affinity");
			scx = !r;
		}
		use_backend(l, scx ? PS_BACKEND_SCX : mask);
		if (!scx && mask == PS_BACKEND_AFFINITY && in_unit && cfg->verbose &&
		    ps_live_cgroup_usable(l))
			lg(l, "backend affinity: the command stays in the unit %s (-b cgroup "
			   "would take it out)", unit);
		if (scx && !cfg->dry_run) {
			r = l->be->start(l);
			if (r) {
				/* chosen, not asked for: a mask backend goes on */
				lg(l, "backend: the scx backend did not load; the %s backend instead",
				   mask == PS_BACKEND_CGROUP ? "cgroup" : "affinity");
				use_backend(l, mask);
			}
		}
	} else {
		use_backend(l, cfg->backend);
		if (l->be->start && !cfg->dry_run) {
			r = l->be->start(l);
			if (r)
				goto fail;
		}
	}
	snprintf(l->journal_path, sizeof(l->journal_path), "%s/journal.%d", cfg->state_dir,
		 (int)l->self);
	snprintf(l->state_path, sizeof(l->state_path), "%s/state.%d.json", cfg->state_dir,
		 (int)l->self);
	if (!cfg->dry_run) {
		r = ps_live_journal_open(l);
		if (r)
			goto fail;
		r = ps_live_journal_line(l, "owner %d %llu\n", (int)l->self,
					 ps_live_starttime(cfg->root, l->self));
		if (!r)
			r = ps_live_journal_sync(l);
		if (r)
			goto fail;
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
	int r = l->be->prepare_child(l, procs_path, len);

	/* a backend asked for by name is not swapped for another */
	if (r && l->cfg.backend != PS_BACKEND_AUTO)
		return r;
	if (r) {
		lg(l, "%s backend not usable (%s): using affinity", l->be->name, strerror(-r));
		use_backend(l, PS_BACKEND_AFFINITY);
		return l->be->prepare_child(l, procs_path, len);
	}
	return 0;
}

void ps_live_child_reset(const struct ps_live *l)
{
	struct rlimit nofile;

	ps_live_scx_child(l);
	if (l->have_nofile && !getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = (rlim_t)l->nofile_cur;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

int ps_live_set_child(struct ps_live *l, pid_t pid)
{
	l->child = pid;
	l->be->set_child(l, pid);
	return 0;
}

void ps_live_scan_next(struct ps_live *l)
{
	l->full_scan = 1;
}

void ps_live_summary(const struct ps_live *l, struct ps_live_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->wall_s = l->started ? l->last_t - l->start_t : 0;
	s->energy_j = l->energy_j;
	s->energy_measured = l->have_rapl;
	s->intervals = l->intervals;
	s->scans = l->scans;
	s->mean_packages = l->intervals > 1 ? l->pkg_sum / (l->intervals - 1) : 0;
	s->mean_cores = l->intervals > 1 ? l->core_sum / (l->intervals - 1) : 0;
	s->mask_changes = l->mask_changes;
	s->machine_busy_s = l->busy_s;
	s->managed_cpu_s = l->tree_run_s;
	s->threads_seen = l->threads_seen;
	s->backend = l->be->label;
	s->scx_failed = l->scx_failed;
	snprintf(s->scx_exit, sizeof(s->scx_exit), "%s", l->scx_exit);
	snprintf(s->policy_why, sizeof(s->policy_why), "%s%s%s%s",
		 ps_policy_name(l->resolved), l->why[0] ? " (" : "", l->why,
		 l->why[0] ? ")" : "");
}

const struct ps_topo *ps_live_topo(const struct ps_live *l)
{
	return l->topo;
}

int ps_live_last(const struct ps_live *l, double *busy, double *allowed, int n)
{
	int i;

	if (!l->topo || n != l->topo->nr_pus)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		unsigned os = l->topo->pus[i].os_index;

		busy[i] = l->pu_busy ? l->pu_busy[i] : 0;
		allowed[i] = os < PS_LIVE_MAX_CPUS && l->allowed_os[os] ? 1 : 0;
	}
	return 0;
}

void ps_live_close(struct ps_live *l)
{
	int restored;

	if (!l)
		return;
	if (l->cfg.verbose && l->intervals) {
		char buf[400] = "";
		int k, at = 0;

		for (k = 1; k < PS_SCAN_NR && at < (int)sizeof(buf); k++)
			if (l->scan_why[k])
				at += snprintf(buf + at, sizeof(buf) - (size_t)at, "%s%s %d",
					       at ? ", " : " (", ps_scan_why_name(k), l->scan_why[k]);
		lg(l, "intervals: %d, %d read the load%s%s", l->intervals, l->scans, buf,
		   at ? ")" : "");
	}
	/* the threads born since the last interval carry our set too; a full
	 * listing (no cached parents) records them for the restore (run and
	 * the daemon alike: else a child forked just before the stop stays
	 * confined) */
	int swept = 0;

	if (l->journal_fd >= 0 && l->started && l->be->sweep) {
		l->full_scan = 1;
		if (!l->src->scan(l, l->cfg.interval_s)) {
			l->be->sweep(l);
			swept = 1;
		}
	}
	/* the restore reads /proc: our descriptors go first (a limit of
	 * open files must not leave a thread confined) */
	for (int k = 0; l->thr && k < l->thr_n; k++)
		if (l->thr[k].ss_fd >= 0) {
			close(l->thr[k].ss_fd);
			l->thr[k].ss_fd = -1;
		}
	ps_live_procevents_close(l);
	if (l->journal_fd >= 0) {
		close(l->journal_fd);
		l->journal_fd = -1;
		if (!ps_live_restore_journal(l->cfg.root, l->journal_path, l->cfg.log,
					     l->cfg.log_arg, &restored) && restored)
			lg(l, "restored %d thread mask(s)", restored);
		/* born between the sweep and its parent's restore, with our
		 * set: one more listing, and those (by lineage) widened */
		if (swept && l->be->after_restore) {
			l->full_scan = 1;
			if (!l->src->scan(l, l->cfg.interval_s))
				l->be->after_restore(l);
		}
	}
	/* sched_ext: the link closed, the kernel's own scheduler again */
	if (l->be && l->be->stop)
		l->be->stop(l);
	if (l->state_path[0])
		unlink(l->state_path);
	/* the metrics file only while it is the one we wrote last: not a
	 * link or a file someone put there since */
	if (l->cfg.metrics_path) {
		struct stat mst;

		if (!lstat(l->cfg.metrics_path, &mst) && S_ISREG(mst.st_mode) && l->metrics_ino &&
		    mst.st_ino == l->metrics_ino && mst.st_dev == l->metrics_dev)
			unlink(l->cfg.metrics_path);
	}
	if (l->have_dec) {
		ps_decision_fini(&l->dec[0]);
		ps_decision_fini(&l->dec[1]);
	}
	for (int k = 0; l->thr && k < l->thr_n; k++)
		if (l->thr[k].ss_fd >= 0)
			close(l->thr[k].ss_fd);
	free(l->procs);
	ps_live_auto_close(&l->autos);
	ps_topo_free(l->topo);
	free(l->online);
	free(l->allowed_os);
	free(l->scratch);
	free(l->set_os);
	ps_live_hist_free(l);
	free(l->cpu_busy);
	free(l->cpu_total);
	free(l->pu_busy);
	free(l->park_irq);
	free(l->thr);
	free(l->nthr);
	free(l->util);
	free(l);
}

