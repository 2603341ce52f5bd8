/* SPDX-License-Identifier: MIT */
/*
 * DOC: the live side's demand estimate (pure: no I/O, no clock)
 *
 * A thread's demand is what it ran plus, only in so far as the allowed set
 * had no idle time left, what it waited on a run queue. On a packed set with
 * room to spare, a task waits for its PU's other task now and then (that is
 * what packing costs, and what stress-ng's short duty cycles meet at every
 * wake-up); that wait is not work the set lacks room for, and counting it
 * grew the set for nothing. When the set is full (no idle), run alone stops
 * growing with the load and the wait is the only sign of how much more the
 * threads want: it counts in full.
 */
#ifndef PS_LIVE_DEMAND_H
#define PS_LIVE_DEMAND_H

/* Mean busy fraction of the allowed PUs at or below which the set had room
 * (waits are the packing's): the policy's own target fill. */
#define PS_DEMAND_ROOM_BUSY 0.8
/* At or above this the set is full: waits count in full. */
#define PS_DEMAND_FULL_BUSY 0.95
/* The weight live gives the wait in ps_demand_update(). Measured in the
 * guest, stress-ng's duty-cycled workers (--cpu-load) lengthen their sleep
 * by the time they waited: with the wait weighted by the set's saturation,
 * 32 workers at 10% read 0.03 each once packed, the set fell to 1-2 PUs
 * (plan: 4) and their bogo-ops to -44% of stock; packing fed on itself.
 * Counted in full, run + wait stays near what a worker would use alone. */
#define PS_DEMAND_WAIT_WEIGHT 1.0
/* From this saturation on, a thread runnable right now while PSI says
 * something waited is taken at a full PU (the "tasks queue" rule). */
#define PS_DEMAND_QUEUE_SAT 0.5

/**
 * ps_demand_saturation() - how full the allowed set was over an interval
 * @busy: busy fraction of each PU over the interval (0..1, /proc/stat), @nr
 *        entries; NULL when not known (the first interval)
 * @allowed: 1 for each PU of the allowed set, @nr entries
 * @nr: PUs
 * @run_cpus: run time of the managed threads over the interval, in CPUs
 *            (schedstat: exact, where tick-sampled /proc/stat may not be)
 *
 * The set's busy fraction is the larger of the mean of @busy over it and
 * @run_cpus / its size.
 *
 * Return: 0 when that is at most PS_DEMAND_ROOM_BUSY, 1 at
 * PS_DEMAND_FULL_BUSY or more, linear between; 0 for an empty set.
 */
double ps_demand_saturation(const double *busy, const unsigned char *allowed, int nr,
			    double run_cpus);

/**
 * ps_demand_update() - one thread's utilization for the policy
 * @prev: its utilization after the previous interval
 * @run_ns: time it ran over the interval
 * @wait_ns: time it waited on a run queue over the interval
 * @dt_s: the interval, in seconds
 * @sat: ps_demand_saturation() of the set it was confined to
 *
 * The sample is (run + @sat x wait) / interval, clamped to [0, 1]; the
 * result is max(sample, @prev x 2^(-dt / PS_LIVE_HALF_LIFE_S)): it rises at
 * once and decays with the half-life. @sat 1 is the former run + wait.
 *
 * Return: the new utilization; @prev when @dt_s is not positive.
 */
double ps_demand_update(double prev, unsigned long long run_ns, unsigned long long wait_ns,
			double dt_s, double sat);

/**
 * ps_demand_take_runnable() - whether a thread runnable right now counts
 * at a full PU (the "tasks queue" rule)
 * @sat: ps_demand_saturation() of the set
 * @psi_moved: PSI cpu "some" of the cgroup (or the system) moved over the
 *             interval: some task waited for a CPU
 *
 * State R in /proc is running or queued; a queued thread's wait is
 * accounted only when it next runs, so on a full set a thread seen R is
 * taken at 1.0 to grow at once. On a set with room, PSI moves as soon as
 * two wake-ups meet (1% "some" for 16 x 30% on 11 PUs in the guest) and
 * most R threads are running: no.
 *
 * Return: 1 when @psi_moved and @sat >= PS_DEMAND_QUEUE_SAT, else 0.
 */
int ps_demand_take_runnable(double sat, int psi_moved);

/* Pooled small threads are handed to the policy in tasks of at most this:
 * small enough that it packs them as it packs the threads they stand for
 * (32 workers at 0.09 in tasks of 1.0 took whole cores; plan packs them
 * eight to a PU). */
#define PS_DEMAND_POOL_CHUNK (2 * PS_LIVE_SMALL_UTIL)

/**
 * ps_demand_pool() - tasks for the threads under PS_LIVE_SMALL_UTIL
 * @small: the sum of their utilizations
 * @out: where to append the tasks
 * @max: room in @out
 *
 * Tasks of PS_DEMAND_POOL_CHUNK, the last one holding the rest; none while
 * what is left is under PS_LIVE_SMALL_UTIL (a sleeping parent or a thousand
 * idle threads do not each ask for headroom).
 *
 * Return: the number of tasks written (at most @max).
 */
int ps_demand_pool(double small, double *out, int max);

#endif
