/* SPDX-License-Identifier: MIT */
/*
 * Internal to the live side: the controller's context and the two small
 * tables of operations it is built from, a load source and an enforcement
 * backend, plus the helpers its files share.
 */
#ifndef PS_LIVE_INT_H
#define PS_LIVE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "demand.h"
#include "ps/live.h"
#include "ps/livectl.h"
#include "ps/policy.h"

#define PS_LIVE_MAX_CPUS 4096

#define ACTIVE_BUSY 0.25 /* a PU busier than this over an interval is active */
#define NR_RECENT 8
/* the sets a restore accepts as ours: the last applied, and the one before
 * (a stop in the middle of a change) */
#define NR_KEEP_APPLIED 2
#define PS_LIVE_NR_HEIRS 4096
#define PS_LIVE_NR_EXECS 256
#define PS_LIVE_NR_HIST 32
#define PS_LIVE_STATBUF (256 * 1024) /* /proc/stat of 4096 CPUs fits */

struct thr {
	pid_t tid, tgid, ppid;
	unsigned long long start, run_ns, wait_ns;
	double util;
	struct ps_place place; /* util as the placement reads it (demand.h) */
	int cpu;
	char state;  /* R: running or queued when sampled */
	int state_now; /* state read from stat in this interval's scan */
	int managed; /* 1: ours (journaled), 2: left alone, 3: journaled, not synced */
	int excluded; /* kernel, real-time or filtered out: never read again */
	int r_zero;   /* runnable with no CPU at all over the last interval */
	int fresh;    /* newly ours, its mask still to be set */
	int newrec;   /* recorded in this apply: its mask, read then, is the
		       * one it has (not the set of the interval before) */
	int checked;  /* excluded: looked at for a mask of ours once */
	int recorded; /* excluded now, ours (recorded) until then */
	int theirs;   /* excluded now, the user's (let go) until then */
	unsigned long long owned_at; /* ours since (start-time clock: ticks
				      * since boot): its record, or its birth
				      * when it was born of a thread of ours */
	char pexcl;   /* excluded by its process (PID 1, a manager, comm) */
	char agg;     /* carried on its process's aggregate: not read this scan */
	double read_at; /* l->scan_clock at its last schedstat read */
	unsigned long long pticks; /* its process's utime + stime at this scan */
	double aggu;  /* main thread of an aggregated process: the process's use */
	int seen;     /* this scan: 0 first sight, 1 known (dr, dw valid), 2 known,
		       * carried on or just back from its process's aggregate */
	int rz_prev;  /* this scan: r_zero of the previous interval */
	unsigned long long dr, dw; /* this scan: run and wait over the interval */
	int ss_fd;   /* schedstat kept open (pread each interval), or -1 */
};

struct proc_ent {
	pid_t pid, ppid;
	unsigned long long start; /* 0: not read (daemon) */
	signed char marked;       /* managed in that scan */
	signed char excluded; /* daemon: in an excluded cgroup; -1 not read yet */
	signed char inst;     /* daemon: a `powersched run` (its tree is its own) */
	signed char young;    /* daemon: first seen in the last scan */
	pid_t attached;       /* daemon: a run's --pid (its tree is that run's) */
};

struct recent {
	double t_s;
	int nr_tasks, nr_allowed;
	double demand;
	char allowed[256];
};

struct ps_live_source_ops;
struct ps_live_backend_ops;

/* auto: power-profiles-daemon first, then the sysfs rules (live/auto.c) */
struct ps_ppd;
struct ps_live_auto {
	struct ps_ppd *ppd;
	int tried;        /* the bus was tried once */
	int said;         /* "no power-profiles-daemon" logged once */
	const char *source; /* "power-profiles-daemon", "platform_profile",
			     * "power_supply" (static) */
};
void ps_live_auto_resolve(struct ps_live_auto *a, const char *sysfs_root,
			  enum ps_policy *out, char *why, size_t len,
			  void (*log)(void *, const char *), void *log_arg);
void ps_live_auto_close(struct ps_live_auto *a);

struct ps_live {
	struct ps_live_cfg cfg;
	const struct ps_live_source_ops *src;  /* where load comes from */
	const struct ps_live_backend_ops *be;  /* how a set is enforced */
	struct ps_topo *topo;
	struct ps_decision dec[2];
	int cur, have_dec;
	struct ps_policy_params params;
	enum ps_policy resolved;
	char why[160];
	struct ps_live_auto autos; /* live/auto.c */
	int metrics_err;           /* the last metrics write's error, logged once */
	unsigned long long metrics_dev, metrics_ino; /* the file we wrote last */
	enum ps_live_backend backend;
	struct ps_live_scx *scx;   /* backend_scx.c: the loaded scheduler, or NULL */
	enum ps_policy scx_policy; /* the policy whose order it was given last */
	int scx_used;              /* the scx backend was loaded in this run */
	int scx_ended;             /* ... and has ended (error, watchdog, sysrq) */
	int scx_exit_kind;         /* SCX_EXIT_* of that end; >= 1024: an error */
	int scx_fell;              /* the fallback was taken */
	int scx_release_left;      /* intervals that still release SCHED_EXT */
	int scx_switched;          /* fell back to affinity: the next interval
				    * applies the set as a change */
	int scx_failed;            /* ... and it is fail: exit non-zero */
	char scx_exit[300];        /* that end in words, for the log and status */
	char cg_path[256];     /* our cgroup, relative to the mount ("/powersched-run-1") */
	char cg_written[8192]; /* what cpuset.cpus holds */
	unsigned char cg_limit[PS_LIVE_MAX_CPUS]; /* the origin's CPUs (AllowedCPUs) */
	int have_cg_limit;
	pid_t child;
	double tree_run_s; /* the managed threads' run time since the start
			    * (schedstat, at scans), ps_live_summary() */
	pid_t self;
	int journal_fd;          /* O_APPEND, one write per record; -1: none */
	int journal_dirty, journal_err;
	long journal_size;       /* bytes of complete records */
	int journal_tasks;       /* task records in it (compaction) */
	int journal_applied;     /* applied records in it (compaction) */
	char journal_path[512], state_path[512];
	unsigned char *online, *allowed_os, *scratch;
	unsigned char *set_os;   /* affinity: the set on the managed threads now */
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
	int resolved_at; /* the interval auto last changed its answer or reason in */
	struct recent recent[NR_RECENT];
	int nrecent;
	double last_demand;
	double place_lag;   /* how far it is behind the load (ps_demand_quiet()) */
	unsigned long long psi_prev;
	int psi_now;      /* some task waited for a CPU over the last interval */
	double sat;       /* ps_demand_saturation() of the set, last interval */
	double run_cpus, wait_cpus; /* managed threads' run and wait, in CPUs */
	unsigned long long nofile_cur; /* the soft limit we found, for the child */
	int have_nofile;
	char statbuf[PS_LIVE_STATBUF]; /* /proc/stat, read every interval */
	int pu_of_cpu[PS_LIVE_MAX_CPUS]; /* PU index of an OS CPU, -1: none */
	int nr_ss_fd, max_ss_fd; /* schedstat descriptors open, and the most */
	int full_scan;            /* list every process afresh (no cache) */
	double scan_dt;           /* this scan's interval, seconds */
	/* quiet intervals (ps_demand_quiet()): the scan is skipped */
	int scans, skipped;       /* scans made; intervals skipped in a row */
	long long skips;          /* intervals skipped in all */
	double busy_s;            /* the machine's busy CPU-seconds since the start */
	int scan_why[PS_SCAN_NR]; /* scans by reason (enum ps_scan_why) */
	double scan_clock;        /* seconds covered by scans so far */
	double last_scan_t;       /* when the last scan ran (ps_live_step's clock) */
	double scan_busy;         /* the machine's busy PUs over the span the last scan read */
	double prev_demand;       /* demand at the scan before the last */
	int at_rest;              /* the last scan: no change, none held, no shrink pending */
	double own_prev_s;        /* be->usage_s() at the last interval; negative: none */
	double own_cpus;          /* managed tasks' CPUs over this interval; negative: unknown */
	double own_scan;          /* the same over the last scan's span */
	double span_t, span_busy, span_own; /* since the last scan: seconds, busy PUs x
					     * seconds, own CPUs x seconds (negative:
					     * not counted throughout) */
	int settling;             /* threads of the last scan counted on their own
				   * whose figure is still falling to their load */
	int apply_err;            /* the last apply left something undone */
	/* births from the proc connector (procevents.c); -1: from loadavg */
	int cn_fd;
	int cn_births;            /* a birth that may be ours not yet scanned */
	long long cn_events, cn_lost; /* messages read; overflows of the socket */
	long long seen_pid;       /* /proc/loadavg's last PID when births were last
				   * looked at (a scan, or a quiet interval) */
	double scan_cpu_s;        /* CPU time the last scan and decision took */
	double pkg_load[256];     /* managed threads' utilization per package (last scan) */
	/* quiet-parked (parked.c): per IRQ and for the workqueue and default
	 * masks, 0 not taken yet, 1 ours (journaled), 2 theirs or not movable */
	unsigned char *park_irq;
	signed char park_wq, park_def;
	int park_said, park_said_jr, park_said_none;
	char park_last[8192];     /* the set we wrote last */
	struct proc_ent *procs;   /* last interval's processes, by pid */
	int nprocs;
	/* lineage: TIDs the proc connector saw born of a thread of ours (a
	 * ring; the parent may be gone by the next scan) */
	/* affinity: the sets we applied, and when (start-time ticks), the
	 * last PS_LIVE_NR_HIST: the set a child got from its parent is the
	 * one in force at its birth */
	struct { char *list; unsigned long long at; } hist[PS_LIVE_NR_HIST];
	int nhist;
	pid_t heirs[PS_LIVE_NR_HEIRS];
	/* processes that exec'd since the last scan (the connector; a ring
	 * that, full, makes the scan look at every process afresh) */
	pid_t execs[PS_LIVE_NR_EXECS];
	int nexecs;
	int nheirs;               /* written so far (the ring's next slot, mod) */
};

/* log through the configured callback */
#define lg(l, ...) ps_live_logf((l)->cfg.log, (l)->cfg.log_arg, __VA_ARGS__)

/**
 * struct ps_live_source_ops - a load source
 * @name: as in the docs and logs
 * @scan: read the managed threads (the backend's members) into l->thr with
 *        their utilization over dt seconds; 0 or -errno
 * @runnable: is thread t runnable now (also refreshes t->state, t->cpu)
 * @quiet: an interval without a scan: what must still be looked at each
 *         interval (NULL: nothing)
 * @births_not_ours: tasks from..to (PIDs, exclusive, inclusive) were born
 *         since the last look: 1 when none of them can be ours, else 0
 */
struct ps_live_source_ops {
	const char *name;
	int (*scan)(struct ps_live *l, double dt);
	int (*runnable)(const struct ps_live *l, struct thr *t);
	void (*quiet)(struct ps_live *l);
	int (*births_not_ours)(struct ps_live *l, long long from, long long to);
};

/**
 * struct ps_live_backend_ops - an enforcement backend
 * @name: short name (status file)
 * @label: for the run summary
 * @members: call each(l, pid) for every process it manages; 0 or -errno
 * @prepare_child: run: make what the child joins before exec; fill procs
 *                 with the cgroup.procs path or ""; 0 or -errno
 * @set_child: run: the child's PID is known
 * @apply: the allowed set changed to list (changed = 1) or not; put it on
 *         the managed tasks (new ones too); its journal records first
 * @sweep: at the end: record what the last interval did not see (or NULL)
 * @release: process pid (of parent ppid) is no longer managed, or was
 *           never listed (born into an excluded cgroup): what is ours of
 *           it back (or NULL)
 */
struct ps_live_backend_ops {
	const char *name;
	const char *label;
	int (*members)(struct ps_live *l, int (*each)(struct ps_live *, pid_t));
	int (*prepare_child)(struct ps_live *l, char *procs, size_t len);
	void (*set_child)(struct ps_live *l, pid_t pid);
	int (*apply)(struct ps_live *l, const char *list, int changed);
	int (*sweep)(struct ps_live *l);
	void (*release)(struct ps_live *l, pid_t pid, pid_t ppid);
	/* after the journal's restore, on a fresh scan: threads born of ours
	 * since the final sweep, with our set, get theirs back (or NULL) */
	void (*after_restore)(struct ps_live *l);
	/* CPU seconds the managed tasks have used so far, exact and in one
	 * read whatever their number (cgroup: cpu.stat usage_usec); negative
	 * when it cannot be read. NULL: the backend has no such count */
	double (*usage_s)(struct ps_live *l);
	/* at the start (not in a dry run): load what the backend needs;
	 * 0 or -errno (or NULL) */
	int (*start)(struct ps_live *l);
	/* at the end: unload it (or NULL) */
	void (*stop)(struct ps_live *l);
};

extern const struct ps_live_source_ops ps_live_source_proc;
/* backend_scx.c: the daemon's load from the scheduler (per task, ps_load) */
extern const struct ps_live_source_ops ps_live_source_scx;
/* source_proc.c, shared with the scx source: did some task wait for a CPU
 * since the last call (PSI; 1 when unreadable); how full the allowed set
 * was over the last interval */
int ps_live_cpu_pressure(struct ps_live *l);
double ps_live_set_saturation(struct ps_live *l);
extern const struct ps_live_backend_ops ps_live_backend_cgroup;
extern const struct ps_live_backend_ops ps_live_backend_affinity;
extern const struct ps_live_backend_ops ps_live_backend_scx;
/* backend_scx.c: in the child, before exec: policy SCHED_EXT (scx only) */
void ps_live_scx_child(const struct ps_live *l);
/* the command's threads of policy SCHED_EXT (ours) back to SCHED_OTHER:
 * how many */
int ps_live_scx_release_policy(struct ps_live *l);

/* parked.c: IRQs and unbound workqueues follow the new set list */
#define PS_LIVE_MAX_IRQ 65536
#define PS_LIVE_PARK_BATCH 4096
void ps_live_park(struct ps_live *l, const char *list);

/* sysio.c: the kernel calls the ownership and journal code makes, behind
 * one table, so that a test drives that same code over a simulated task
 * table (tests/unit/test_owner.c); ps_live_sys is the kernel's otherwise */
#include <sched.h>
struct ps_live_sysops {
	int (*get_mask)(pid_t tid, unsigned char *bits, int nbits);
	int (*set_mask)(pid_t tid, const unsigned char *bits, int nbits);
	int (*set_cpuset)(pid_t tid, size_t size, const cpu_set_t *set);
	unsigned long long (*starttime)(const char *root, long long tid);
	unsigned long long (*now_ticks)(const struct ps_live *l);
	/* the TIDs of process pid, malloc'd in *out: how many */
	int (*threads)(const struct ps_live *l, pid_t pid, pid_t **out);
	/* ps_live_guarded_write()'s write (NULL: ps_live_write_file()): a
	 * test makes the kernel's reset and a user's taskset happen there */
	int (*guarded_file_write)(const char *path, const char *text);
};
extern const struct ps_live_sysops ps_live_sys_kernel;
extern const struct ps_live_sysops *ps_live_sys;

/* sysio.c */
void ps_live_logf(void (*log)(void *, const char *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 0 or -errno */
int ps_live_write_file(const char *path, const char *text);
/* bytes read (NUL-terminated) or -errno */
int ps_live_read_file(const char *path, char *buf, size_t len);
/* start time of a TID, 0 when it is gone */
unsigned long long ps_live_starttime(const char *root, long long tid);
int ps_live_set_mask(pid_t tid, const unsigned char *bits, int nbits);
int ps_live_get_mask(pid_t tid, unsigned char *bits, int nbits);
/* write text to file, putting back every task affinity it reset */
int ps_live_guarded_write(const char *root, const char *file, const char *text,
			  void (*log)(void *, const char *), void *arg);
/* root-relative path: the configured root, then fmt */
void ps_live_path(const struct ps_live *l, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* journal.c: the writer and recovery of stale journals */
/* 0, or -errno: the record is not on disk, so its change must not happen */
int ps_live_journal_line(struct ps_live *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ps_live_journal_sync(struct ps_live *l);
int ps_live_journal_open(struct ps_live *l);
int ps_live_journal_compact(struct ps_live *l);
/* compact when the journal holds much more than it must; 0 or -errno */
int ps_live_journal_tidy(struct ps_live *l);
void ps_live_recover(struct ps_live *l);
/* fd (or st) is a regular file (want_dir: a directory) owned by us and
 * writable by no one else; 0 or -EPERM */
struct stat;
int ps_live_check_private(int fd, const struct stat *st, int want_dir);

/* source_proc.c: the thread tables (shared with the affinity backend) */
int ps_live_push_thr(struct ps_live *l, const struct thr *t);
/* the table just read (nthr) becomes the table (thr), the old one the next
 * to fill */
void ps_live_swap_tables(struct ps_live *l);
int ps_live_cmp_thr(const void *a, const void *b);
int ps_live_cgroup_excluded(const struct ps_live *l, pid_t pid);
int ps_live_thr_before(pid_t tgid_a, pid_t tid_a, pid_t tgid_b, pid_t tid_b);
int ps_live_lower_bound(const struct ps_live *l, pid_t tgid, pid_t tid);
/* a process with threads in the table (managed or read) */
int ps_live_known_process(const struct ps_live *l, pid_t pid);

/* procevents.c: the proc connector. open: 0 listening, else -errno and why;
 * drain: 1 when a task that may be ours was born (or messages were lost)
 * since the last drain, 0 none, -1 not open; close: idempotent */
int ps_live_procevents_open(struct ps_live *l, char *why, size_t len);
int ps_live_procevents_drain(struct ps_live *l);
void ps_live_procevents_close(struct ps_live *l);
struct thr *ps_live_find_thr(const struct ps_live *l, pid_t tgid, pid_t tid);
int ps_live_members_cgroup(struct ps_live *l, int (*each)(struct ps_live *, pid_t));
int ps_live_members_tree(struct ps_live *l, int (*each)(struct ps_live *, pid_t));

/* ownership (backend_affinity.c). born_of_ours: thread t was made by a
 * thread of ours while that one was ours (its lineage), so a set of ours
 * it carries is inherited from us; now_ticks: now, in start-time ticks */
int ps_live_born_of_ours(const struct ps_live *l, const struct thr *t);
unsigned long long ps_live_now_ticks(const struct ps_live *l);
/* free the set history (ps_live_close) */
void ps_live_hist_free(struct ps_live *l);
/* procevents.c: a birth of a thread of ours, from the connector; heir:
 * is tid one (backend_affinity.c) */
void ps_live_heir_add(struct ps_live *l, pid_t tid);
int ps_live_heir(const struct ps_live *l, pid_t tid);
/* source_proc.c: seconds since boot (the configured root's /proc/uptime) */
double ps_live_uptime(const struct ps_live *l);

/* backend_cgroup.c */
int ps_live_cgroup_usable(struct ps_live *l);
/* Is our cgroup inside a systemd unit (a component named *.service or
 * *.scope)? 1 with its innermost such name in unit, else 0. */
int ps_live_cgroup_unit(struct ps_live *l, char *unit, size_t len);
/* room for a cgroup path (the kernel's PATH_MAX) */
#define PS_LIVE_CG_PATH 4096
int ps_live_cgroup_of(const struct ps_live *l, pid_t pid, char *out, size_t len);

/* energy.c */
void ps_live_account_energy(struct ps_live *l, double dt);

/* status.c */
void ps_live_write_state(struct ps_live *l);


/* what the metrics file says (live/metrics.c), the state file's figures */
/* SCX_EXIT_* of the kernel (include/linux/sched/ext.h, 6.12 to 7.2): an
 * unload by userspace or SysRq-S; others (65 by the BPF, 66 by the kernel,
 * e.g. a CPU going offline, 1024 and up errors) are not a person's choice */
#define PS_SCX_EXIT_UNREG 64
#define PS_SCX_EXIT_SYSRQ 67

struct ps_live_figures {
	const char *process;              /* "run" or "daemon" */
	const char *policy, *requested;   /* resolved, asked for */
	const char *source;               /* what decided the policy */
	int nr_allowed, nr_online, threads;
	const int *active, *total;        /* per level, PS_LVL_COUNT each */
	long decisions, mask_changes;
	long scans;                       /* intervals that read the load */
	double energy_j, demand;
	int energy_measured;
	const char *scx_state;            /* sched_ext's state, or NULL: not used */
	int scx_exit_kind;                /* how it ended (0: it has not) */
};
/* written atomically (a temporary file renamed over path); 0 or -errno */
int ps_live_metrics_write(const char *path, const struct ps_live_figures *f);

#endif
