/* SPDX-License-Identifier: MIT */
/*
 * DOC: the live side: load tracking, enforcement, journal, rate limit
 *
 * Every path is under a root (normally "/") so tests can point at trees.
 *
 * Load: each interval, a thread's demand is (run + wait) / wall over the
 * interval, from /proc/PID/task/TID/schedstat (time on CPU, time waiting on
 * a runqueue, in ns), clamped to [0, 1] (the wait counted in full,
 * PS_DEMAND_WAIT_WEIGHT in live/demand.h): a thread that queues shows the
 * demand it would have on a PU of its own, so the set grows when tasks
 * queue. How full the allowed set was (ps_demand_saturation()) gates only
 * the "tasks queue" rule (a runnable thread at a full PU). The utilization
 * the policy sees is u = max(demand, u_prev x 2^(-dt / half_life)),
 * half-life PS_LIVE_HALF_LIFE_S (100 ms): it rises at once and keeps 3% of
 * itself after a 500 ms interval of rest: the smoothing is the policy's own
 * hysteresis (shrink only after 3 low intervals) keeps the set from
 * flapping. Threads under PS_LIVE_SMALL_UTIL are pooled into tasks of
 * PS_DEMAND_POOL_CHUNK (none while their sum is under PS_LIVE_SMALL_UTIL),
 * so a sleeping parent or a thousand idle threads do not each ask for
 * headroom of their own.
 *
 * Enforcement: cgroup v2 cpuset (a cgroup powersched creates and owns;
 * cpuset.cpus written only when its content changes) or sched_setaffinity
 * per thread. Kernel threads, real-time threads and threads already
 * narrower than the online CPUs are never touched.
 *
 * Journal: before anything is changed, what it was goes to a file under the
 * state directory (a thread's mask, a cgroup created, a controller enabled),
 * flushed, so a later start can put it back after a SIGKILL.
 */
#ifndef PS_LIVE_H
#define PS_LIVE_H

#include <stddef.h>
#include <sys/types.h>

#define PS_LIVE_HALF_LIFE_S 0.1
/* Threads below this utilization are summed before the policy sees them. */
#define PS_LIVE_SMALL_UTIL 0.1
#define PS_LIVE_DEFAULT_MAX_CHANGES 20 /* per minute */

/* One thread's raw counters. */
struct ps_live_stat {
	pid_t tid;
	pid_t ppid;
	unsigned long long starttime; /* field 22 of stat, clock ticks */
	unsigned long flags;          /* field 9 */
	unsigned long long utime, stime; /* fields 14, 15, clock ticks (all threads
					  * of a process in /proc/PID/stat) */
	int nr_threads;               /* field 20 (of the process) */
	unsigned rt_policy;           /* field 41 */
	int cpu;                      /* field 39 */
	char state;
	char comm[32];
};

/**
 * ps_live_parse_stat() - parse one /proc/PID/task/TID/stat line
 * @text: the contents
 * @out: the fields above
 *
 * Return: 0, or -EINVAL for a line that is not a stat line.
 */
int ps_live_parse_stat(const char *text, struct ps_live_stat *out);

/**
 * ps_live_parse_proc_mount() - how /proc is mounted, from the text of
 * /proc/self/mountinfo: the last "proc" file system mounted on /proc
 * @mountinfo: the file's contents, NUL-terminated
 * @gid: receives its gid= option (the group that sees every process), -1
 *       when it has none
 *
 * Return: 1 when it hides other users' processes (hidepid= other than 0
 * or off), 0 when it does not or no such mount is listed.
 */
int ps_live_parse_proc_mount(const char *mountinfo, long *gid);

/**
 * ps_live_parse_schedstat() - "RUN_NS WAIT_NS SLICES" to run and wait ns
 * Return: 0 or -EINVAL.
 */
int ps_live_parse_schedstat(const char *text, unsigned long long *run_ns,
			    unsigned long long *wait_ns);

/** ps_live_is_kthread() - PF_KTHREAD in a stat's flags */
int ps_live_is_kthread(const struct ps_live_stat *s);

/** ps_live_is_rt() - SCHED_FIFO, SCHED_RR or SCHED_DEADLINE */
int ps_live_is_rt(const struct ps_live_stat *s);

/**
 * ps_live_util_update() - the decayed utilization
 * @prev: last value (0 for a new thread)
 * @run_ns, @wait_ns: deltas over the interval
 * @dt_s: the interval's wall time in seconds (> 0)
 *
 * Return: max(min(1, (run + wait) / dt), prev x 2^(-dt / half-life)).
 */
double ps_live_util_update(double prev, unsigned long long run_ns,
			   unsigned long long wait_ns, double dt_s);

/*
 * Rate limit on mask changes: at most max changes in any window of
 * window_s seconds. A shrink also needs one change left after it, so a grow
 * is never blocked by the shrink before it.
 */
struct ps_ratelimit {
	int max;
	double window_s;
	int n;           /* entries in t */
	double t[256];   /* times of the changes in the window, oldest first */
};

/** ps_ratelimit_init() - max changes (1..256) per window_s seconds */
int ps_ratelimit_init(struct ps_ratelimit *rl, int max, double window_s);

/**
 * ps_ratelimit_allow() - may a change happen at now_s?
 * @grow: 1 for a change that adds PUs, 0 for one that only removes them
 * Return: 1 (and the change is counted) or 0.
 */
int ps_ratelimit_allow(struct ps_ratelimit *rl, double now_s, int grow);

/** ps_live_count() - how many of the n CPUs in bits are set */
int ps_live_count(const unsigned char *bits, int n);

/**
 * ps_cpulist_parse() - "0-3,8,10-11" to a bitmap of up to nbits CPUs
 * Return: 0, -EINVAL for a malformed list or a CPU >= nbits.
 */
int ps_cpulist_parse(const char *s, unsigned char *bits, int nbits);

/** ps_cpulist_format() - a bitmap of nbits as "0-3,8"; "" for none */
int ps_cpulist_format(const unsigned char *bits, int nbits, char *out,
		      size_t outlen);

/**
 * ps_cpumask_parse_hex() - the kernel's hex cpumask ("ff", "1,00000000":
 * 32-bit words, most significant first, comma-separated) to a bitmap
 * Return: 0, -EINVAL for anything else or a set CPU >= nbits.
 */
int ps_cpumask_parse_hex(const char *s, unsigned char *bits, int nbits);

/** ps_cpumask_format_hex() - a bitmap as the kernel writes one: 8 hex digits
 * per 32 CPUs, comma-separated, most significant first. 0 or -ENOSPC. */
int ps_cpumask_format_hex(const unsigned char *bits, int nbits, char *out, size_t outlen);

/*
 * Journal records, one a line:
 *   owner PID STARTTIME
 *   task TID STARTTIME CPULIST      (a thread's mask before we set it)
 *   applied CPULIST                 (a set we put on threads, before we did)
 *   cgroup PATH ORIGIN              (we created PATH; tasks go back to ORIGIN,
 *                                    the rest of the line: it may hold spaces)
 *   subtree / [shared]              (we wrote +cpuset to the root's
 *                                    cgroup.subtree_control; shared: another
 *                                    instance did and we rely on it)
 *   irq N CPULIST                   (IRQ N's smp_affinity_list before we set it)
 *   wqmask HEX                      (the unbound workqueue cpumask before)
 *   irqdefault HEX                  (/proc/irq/default_smp_affinity before)
 *   done                            (every thread of ours has the last
 *                                    applied set: a restore takes that set
 *                                    alone, else the one before it too)
 *   release TID STARTTIME           (a thread of a task record is no longer
 *                                    ours: the user changed its mask, or we
 *                                    gave it back; never restored)
 * A PATH is "/powersched-NAME" (one component under the root, no ".."); an
 * ORIGIN is absolute with no "." or ".." component; anything else is not a
 * record. A line without its newline (torn) is never acted on.
 */
/* A field's room: a CPU list of 4096 CPUs at its longest ("0,2,...,4094"
 * is 9,685 characters) and a cgroup path (PATH_MAX). A longer field makes
 * the line not a record (never cut to fit) */
#define PS_JOURNAL_FIELD 16384
struct ps_journal_rec {
	char kind; /* 'o', 't', 'a', 'c', 's', 'i', 'w', 'd', 'r', 'e' (done) */
	long long id;
	unsigned long long starttime;
	char a[PS_JOURNAL_FIELD];
	char b[PS_JOURNAL_FIELD];
};

/**
 * ps_journal_parse_line() - one line of a journal
 * Return: 0, 1 for a blank or comment line, -EINVAL for anything else.
 */
int ps_journal_parse_line(const char *line, struct ps_journal_rec *out);

/**
 * ps_live_restore_journal() - put back everything a journal records
 * @root: filesystem root
 * @path: the journal
 * @log: called with one line per action and per failure (may be NULL)
 * @restored: receives the number of threads whose mask was set back
 *
 * The journal must be a regular file owned by us and writable by no one
 * else (opened with O_NOFOLLOW). Threads that are gone (or whose start time
 * differs: a reused TID) are skipped, and so are threads whose mask is no
 * longer one the journal says we applied (the user's since). Failures are
 * logged and the rest goes on; the journal is removed when everything was
 * put back, else rewritten with what was not.
 *
 * Return: 0, or -errno when the journal cannot be read.
 */
int ps_live_restore_journal(const char *root, const char *path,
			    void (*log)(void *arg, const char *msg), void *arg,
			    int *restored);

#endif
