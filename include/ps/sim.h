/* SPDX-License-Identifier: MIT */
/*
 * DOC: simulator
 *
 * A discrete-event simulation of tasks on a topology: an event queue (not a
 * loop over ticks), a model of the kernel scheduler that places runnable
 * tasks inside the allowed PUs, and the same ps_policy_decide() the live
 * enforcer calls, choosing the allowed set every interval from the
 * utilization the simulator tracked. Power comes from the power model.
 *
 * Time is in seconds (double). Work is in units of one second of a task
 * running alone on a core.
 */
#ifndef PS_SIM_H
#define PS_SIM_H

#include <stddef.h>
#include "ps/policy.h"
#include "ps/power.h"
#include "ps/topo.h"

enum ps_wl_kind { PS_WL_CPU, PS_WL_PERIODIC, PS_WL_POISSON, PS_WL_TRACE, PS_WL_RTAPP };

/* rt-app events the simulator models (see ps_rtapp_parse()) */
enum ps_rt_kind {
	PS_RT_RUN,       /* calibrated work: dur seconds of one task alone on a core */
	PS_RT_RUNTIME,   /* busy for dur seconds of wall time */
	PS_RT_SLEEP,
	PS_RT_TIMER,     /* res: timer; dur: period; abs: absolute mode */
	PS_RT_SUSPEND,   /* res: a suspend name */
	PS_RT_RESUME,
	PS_RT_LOCK,      /* res: mutex */
	PS_RT_UNLOCK,
	PS_RT_WAIT,      /* res: condition, mutex: its mutex */
	PS_RT_SIGNAL,
	PS_RT_BROADCAST,
	PS_RT_SYNC,      /* signal res, then wait on it */
	PS_RT_BARRIER,   /* res: barrier */
	PS_RT_YIELD,
};

/* resource kinds; a name is one resource per kind */
enum ps_rt_res_kind { PS_RT_R_TIMER, PS_RT_R_SUSPEND, PS_RT_R_MUTEX,
		      PS_RT_R_COND, PS_RT_R_BARRIER };

struct ps_rt_event {
	enum ps_rt_kind kind;
	double dur;     /* seconds */
	int res, mutex; /* resource indices, -1 when none */
	int abs;        /* timer: absolute mode */
};

struct ps_rt_phase {
	int loop;        /* >= 1 */
	int ev_lo, nev;  /* into ps_rtapp.ev */
	int cpu_lo, ncpu;/* into ps_rtapp.cpus; ncpu 0: the task's */
	char name[64];
};

struct ps_rt_task {
	char name[64];
	int instance;    /* >= 1 */
	long loop;       /* -1: forever */
	double delay;    /* seconds before the first event */
	int cpu_lo, ncpu;/* into ps_rtapp.cpus; ncpu 0: every CPU */
	int ph_lo, nph;  /* into ps_rtapp.ph */
};

struct ps_rt_res {
	char name[64];
	enum ps_rt_res_kind kind;
	int unique;      /* timer named unique...: one per task instance */
	int users;       /* barrier: task instances that use it */
};

/* An rt-app file, as read. */
struct ps_rtapp {
	char path[256];
	double duration;      /* seconds, < 0: until every task ends */
	int cumulative_slack;
	int ntasks, ninst;    /* task objects; their instances in all */
	struct ps_rt_task *tasks;
	int nph, nev, ncpus, nres;
	struct ps_rt_phase *ph;
	struct ps_rt_event *ev;
	int *cpus;            /* OS CPU numbers */
	struct ps_rt_res *res;
};

/**
 * ps_rtapp_parse() - read an rt-app JSON file's text
 * @text: the text (NUL-terminated)
 * @len: its length
 * @name: the file name for errors
 * @out: the workload; free it with ps_rtapp_free()
 * @err: one line naming the task and the key that is wrong or not modeled
 *
 * rt-app's grammar (its tutorial): global (duration, calibration,
 * default_policy and keys that only steer rt-app's own logging), tasks with
 * instance, loop, delay, cpus, priority, phases and the events run,
 * runtime, sleep, timer, suspend, resume, lock, unlock, wait, signal,
 * broad(cast), sync, barrier, yield. Event keys match by prefix as rt-app
 * matches them ("run1" is a run) and repeated keys keep their order.
 *
 * Return: 0, -EINVAL, -ENOMEM.
 */
int ps_rtapp_parse(const char *text, size_t len, const char *name,
		   struct ps_rtapp **out, char *err, size_t errlen);

/** ps_rtapp_free() - free what ps_rtapp_parse() returned (NULL is fine). */
void ps_rtapp_free(struct ps_rtapp *rt);


struct ps_trace_ev {
	double t;      /* seconds */
	int task;      /* 0..PS_TRACE_MAX_TASK */
	double work;   /* seconds of work added; the task runs until done */
};

#define PS_WL_MAX_ITEMS 16
#define PS_WL_MAX_TASKS 100000
#define PS_TRACE_MAX_TASK 65535

struct ps_wl_item {
	enum ps_wl_kind kind;
	int n;            /* cpu, periodic: tasks */
	double duty;      /* periodic: 0 < duty <= 1 */
	double period;    /* periodic: seconds */
	double rate;      /* poisson: arrivals per second */
	double size;      /* poisson: work per job, seconds */
	struct ps_trace_ev *ev; /* trace: sorted by time */
	int nev;
	int ntrace_tasks; /* trace: highest task id + 1 */
	struct ps_rtapp *rt; /* rtapp: the file */
};

struct ps_workload {
	int nitems;
	struct ps_wl_item items[PS_WL_MAX_ITEMS];
};

/**
 * ps_workload_parse() - parse "cpu:4+periodic:8:0.3:10ms+poisson:200/s:2ms+trace:F"
 * @s: the description
 * @out: the workload; free it with ps_workload_free()
 * @err: receives a one-line reason naming the bad part (and a trace's line)
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL, -ENOENT (trace file unreadable), -ENOMEM.
 */
int ps_workload_parse(const char *s, struct ps_workload *out, char *err,
		      size_t errlen);

/**
 * ps_trace_parse() - parse a trace's text
 * @text: lines "TIME TASK run WORK", TIME and WORK durations (10ms, 1.5s,
 *        250us, 100ns), TASK 0..65535, times non-decreasing; '#' comments
 * @name: the file name for errors
 *
 * Return: 0, -EINVAL (@err names the line), -ENOMEM.
 */
int ps_trace_parse(const char *text, const char *name, struct ps_wl_item *out,
		   char *err, size_t errlen);

/** ps_workload_free() - free what ps_workload_parse() allocated. */
void ps_workload_free(struct ps_workload *w);

/**
 * ps_duration_parse() - "10ms", "2s", "1.5us", "100ns", "1h", "3m" to seconds;
 * a bare number ("10", "0.5") is seconds
 * Return: 0, or -EINVAL for an unknown unit, a bad number (signs,
 * exponents, spaces), a value <= 0 or one above 1e7 s.
 */
int ps_duration_parse(const char *s, double *out);

/* How the simulated machine chooses placements. */
enum ps_sim_mode {
	PS_SIM_POLICY,   /* powersched's policy picks the allowed set */
	PS_SIM_KERNEL,   /* the kernel model alone, every PU allowed */
	PS_SIM_LEGACY,   /* the 2012 kernel's power-savings knobs */
};

struct ps_sim_policy {
	enum ps_sim_mode mode;
	enum ps_policy policy;  /* PS_SIM_POLICY: performance or power */
	int mc, smt;            /* PS_SIM_LEGACY: 0..2 each */
	int fixed;              /* PS_SIM_LEGACY: sibling counts as a full slot */
	char name[48];          /* as given, for reports */
};

/**
 * ps_sim_policy_parse() - performance, power, auto, kernel, or
 * legacy:mc=N,smt=M[,fixed]
 * @root: sysfs root auto reads; @why gets auto's reason
 * Return: 0 or -EINVAL (@err names the bad part).
 */
int ps_sim_policy_parse(const char *s, const char *root,
			struct ps_sim_policy *out, char *why, size_t whylen,
			char *err, size_t errlen);

struct ps_sim_config {
	const struct ps_topo *topo;
	const struct ps_model *model;
	const struct ps_workload *wl;
	struct ps_sim_policy pol;
	double duration;        /* seconds > 0 */
	double interval;        /* policy interval, seconds (default 0.1) */
	double balance;         /* kernel periodic balance, seconds (default 0.004) */
	double snapshot;        /* time of the per-CPU table, < 0 for the end */
	unsigned long long seed;
	int bins;               /* timeline columns for pictures, 0 for none */
	void (*progress)(double frac, void *arg);
	void *progress_arg;
};

struct ps_sim_snapshot_cpu {
	int nr;                 /* runnable tasks */
	int ntasks_listed;
	int tasks[8];           /* their ids, up to 8 */
	int allowed;
};

struct ps_sim_result {
	double energy_j;        /* integrated from the PU busy states */
	double power_w;         /* energy / duration */
	double work;            /* units delivered */
	double demand;          /* units released (CPU-bound: duration each) */
	double throughput;      /* work per second */
	double work_left;       /* units released but not done at the end */
	double work_given;      /* released work of finite jobs */
	double work_done_finite;/* of that, done */
	double model_energy_j;  /* the model's energy of the observed placement */
	double oracle_energy_j; /* the best candidate placement each interval */
	double oracle_power_w;
	double oracle_work;     /* the demand the oracle's placements deliver */
	double model_work;      /* the work the model gives the observed placement */
	double vs_oracle_pct;   /* model J per work against the oracle's, % */
	double latency_p50_ms, latency_p99_ms, latency_max_ms;
	long jobs_done;
	long deadline_misses;
	long periods;           /* periodic jobs released */
	long migrations;
	long mask_changes;
	long intervals;
	long events;
	double mean_active_packages, mean_active_cores, mean_allowed_pus;
	/* rt-app timers: one activation per timer event, slack as rt-app logs it */
	long activations;
	long neg_slack;         /* activations with slack < 0 */
	double slack_p1_ms, slack_p50_ms, slack_min_ms;
	long nslack;            /* per activation, in time order */
	double *slack_s;        /* slack, seconds */
	double *slack_t;        /* when the timer event ran */
	int *slack_task;        /* rt-app instance: numbered over the rtapp items
				 * in order, each file's tasks in order, each
				 * task's instances in order */
	double *pu_busy_s;      /* per PU index */
	struct ps_sim_snapshot_cpu *snap; /* per PU index */
	double snap_t;
	int bins;
	double *bin_busy;       /* bins x nr_pus, busy fraction */
	double *bin_power_w;    /* bins */
	double *bin_oracle_w;   /* bins */
	double *bin_allowed;    /* bins x nr_pus, fraction of the bin allowed */
};

/**
 * ps_sim_run() - run one simulation
 * Return: 0, -EINVAL for a bad configuration, -ENOMEM.
 */
int ps_sim_run(const struct ps_sim_config *cfg, struct ps_sim_result *res);

/** ps_sim_result_free() - free the arrays of a result. */
void ps_sim_result_free(struct ps_sim_result *res);

#endif
