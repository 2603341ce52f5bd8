/* SPDX-License-Identifier: MIT */
/*
 * DOC: the live controller
 *
 * One context, no globals. ps_live_open() puts back what an earlier,
 * killed powersched left in the state directory, reads the topology and
 * starts a journal; ps_live_step() is one interval: scan the managed
 * threads, track their utilization, decide with the policy, apply the
 * allowed set (cgroup v2 cpuset or affinity), account energy, write the
 * state file; ps_live_close() puts every thread and cgroup back as it was
 * and removes the journal.
 */
#ifndef PS_LIVECTL_H
#define PS_LIVECTL_H

#include <sys/types.h>

#include "ps/live.h"
#include "ps/policy.h"
#include "ps/power.h"

enum ps_live_backend {
	PS_BACKEND_AUTO,
	PS_BACKEND_CGROUP,
	PS_BACKEND_AFFINITY,
	PS_BACKEND_SCX,       /* sched_ext: live/backend_scx.c */
};

/* what run does when its sched_ext scheduler ends on an error (the kernel
 * has taken its own scheduler back for the command already) */
enum ps_scx_fallback {
	PS_SCX_FALLBACK_AFFINITY, /* place by masks for the rest of the run */
	PS_SCX_FALLBACK_KERNEL,   /* leave the command to the kernel's scheduler */
	PS_SCX_FALLBACK_FAIL,     /* as kernel, and exit non-zero at the end */
};

/**
 * ps_live_scx_usable() - may the sched_ext backend load here?
 * @root: "/" (or a test's root)
 * @why: receives, when not, one line saying why (no sched_ext in this
 *       kernel, or another sched_ext scheduler loaded, named)
 * @len: size of @why
 *
 * Return: 0, -ENOENT (no sched_ext) or -EBUSY (another scheduler).
 */
int ps_live_scx_usable(const char *root, char *why, size_t len);

/** ps_live_scx_built() - 1 when this build has the sched_ext backend */
int ps_live_scx_built(void);

struct ps_live_cfg {
	const char *root;        /* "/" */
	const char *sysfs_root;  /* auto reads power supplies under it; NULL: root */
	const char *state_dir;   /* "/run/powersched" */
	const char *metrics_path; /* Prometheus text file, or NULL (live/metrics.c) */
	const char *name;        /* "run" or "daemon": state file name */
	enum ps_policy policy;   /* may be auto: re-resolved every interval */
	double interval_s;
	enum ps_live_backend backend;
	int max_changes;         /* per minute */
	const struct ps_model *model;
	int dry_run;             /* decide and log, change nothing */
	int verbose;             /* log every interval, not only changes */
	int whole_system;        /* daemon: every eligible thread */
	int attached;            /* run --pid: a process of someone's, not our child */
	const char *const *include_comm; /* NULL-terminated; NULL: all */
	const char *const *exclude_comm;
	const char *const *include_cgroup; /* cgroups (and below); NULL: all */
	const char *const *exclude_cgroup; /* cgroups (and below) */
	int exclude_containers;  /* daemon: machine.slice, docker, kubepods, lxc,
				  * libpod cgroups (and below) left alone */
	int quiet_parked;        /* daemon: IRQs, the default IRQ affinity and the
				  * unbound workqueue mask follow the set */
	enum ps_scx_fallback scx_fallback;
	void (*log)(void *arg, const char *msg);
	void *log_arg;
};

struct ps_live;

/** ps_live_open() - recover stale journals, read the topology, start ours.
 * Return: 0, -errno (the state directory cannot be made, no topology). */
int ps_live_open(const struct ps_live_cfg *cfg, struct ps_live **out);

/** ps_live_prepare_child() - for run: the cgroup a child will join, made
 * now (cgroup backend), so the child can enter it before exec.
 * @procs_path: receives the cgroup.procs path, or "" for affinity. */
int ps_live_prepare_child(struct ps_live *l, char *procs_path, size_t len);

/** ps_live_child_reset() - in the child, before exec: give back what
 * ps_live_open() changed in the process (the open-files soft limit). */
void ps_live_child_reset(const struct ps_live *l);

/** ps_live_set_child() - for run: manage this process and its descendants */
int ps_live_set_child(struct ps_live *l, pid_t pid);

/** ps_live_step() - one interval; now_s from CLOCK_MONOTONIC. */
int ps_live_step(struct ps_live *l, double now_s);

/** ps_live_reconfigure() - a new configuration (SIGHUP); same state dir */
int ps_live_reconfigure(struct ps_live *l, const struct ps_live_cfg *cfg);

struct ps_live_summary {
	double wall_s;
	double energy_j;
	int energy_measured;     /* 1: RAPL, 0: modeled from /proc/stat */
	double mean_packages;
	double mean_cores;
	int mask_changes;
	int intervals;
	int scans;               /* intervals that read the load */
	int threads_seen;
	double machine_busy_s;   /* busy CPU-seconds of the whole machine (/proc/stat) */
	double managed_cpu_s;    /* CPU-seconds of the managed threads since the start,
				  * from their schedstat at the scans (a thread's last
				  * stretch before it ends is missed) */
	const char *backend;
	char policy_why[200];
	int scx_failed;          /* the scheduler ended on an error and the
				  * fallback is fail: exit non-zero */
	char scx_exit[300];      /* how the sched_ext scheduler ended, or "" */
};

/**
 * ps_live_restore_dir() - replay the journals of instances that are gone
 * @state_dir: a state directory (ours, private: checked as at a start)
 * @log: where each replay is said; @arg its argument
 * @journals: receives the number of journals replayed
 * @threads: receives the masks put back
 *
 * What the next run or daemon would do at its start, now: after a stop
 * that outlasted systemd's TimeoutStopSec, or by hand. A journal whose
 * owner still runs is left alone.
 * Return: 0, or -errno for the directory (-EPERM: not private to us).
 */
int ps_live_restore_dir(const char *state_dir, void (*log)(void *, const char *), void *arg,
			int *journals, int *threads);

/** ps_live_scan_next() - make the next step read the load, quiet or not
 * (run --pid's last step: the tree's CPU time up to its end) */
void ps_live_scan_next(struct ps_live *l);

/** ps_live_summary() - figures so far */
void ps_live_summary(const struct ps_live *l, struct ps_live_summary *s);

struct ps_topo;
/** ps_live_topo() - the topology in use (read again after a hotplug) */
const struct ps_topo *ps_live_topo(const struct ps_live *l);

/**
 * ps_live_last() - the last interval, per PU index of ps_live_topo()
 * @busy: n values, the PU's busy fraction (from /proc/stat)
 * @allowed: n values, 1 when the PU is in the allowed set, else 0
 * @n: the topology's nr_pus
 * Return: 0, -EINVAL when n is not the topology's PU count.
 */
int ps_live_last(const struct ps_live *l, double *busy, double *allowed, int n);

/** ps_live_close() - restore everything, remove journal and state file */
void ps_live_close(struct ps_live *l);

#endif
