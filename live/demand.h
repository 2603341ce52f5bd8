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

/* The placement's view of a thread (ps_demand_place()). Measured
 * utilization jitters from one interval to the next (stress-ng's 30%
 * workers read 0.25-0.38, its 50% ones 0.47-0.55, in the guest), and the
 * model's cost has steps in it (a task at 0.25 on a busy SMT sibling is
 * served in full, at 0.28 it is not; a package-wide clock follows its
 * busiest core and moves the package's watts by ~6%), so with the raw
 * figures the placement went between two candidates interval after
 * interval (4 mask changes in 6 s for 8 x 50%), beyond what the
 * policy's 2% keep margin absorbs. The placement reads, per thread, an
 * exponential average of half-life PS_DEMAND_PLACE_HALF_LIFE_S (two
 * intervals at the default 500 ms), held until it moves by more than
 * PS_DEMAND_PLACE_BAND; a move of PS_DEMAND_PLACE_JUMP or more either way
 * is taken at once (load arriving, the "tasks queue" rule's full PU, a
 * task gone to sleep: what the raw figure would have shown, so the grow
 * and shrink paths are as fast as before; a shell that forked a busy child
 * and now waits for it held 2 PUs for a second in tests/cli/metrics.sh
 * when only rises were). A thread asleep over the whole interval (no run,
 * no wait: its figure is the decay of the last one) is followed at once:
 * its figure halves every PS_LIVE_HALF_LIFE_S, and a fall under the jump
 * (0.25 to nothing) was held for the second or more the average takes to
 * pass under PS_LIVE_SMALL_UTIL. CI's run of tests/cli/metrics.sh found a
 * waiting shell held at 0.25 and a second PU with it for 1.2 s. Jitter is
 * untouched: a periodic task runs in every interval. The reading after
 * a fall is taken as it is too (the fall's figure was a decay, not a
 * reading): averaged up from nothing, a thread that woke at 0.15 was held
 * near 0 (about 0.29 x its load after the 16-scan resync), so threads on
 * timers longer than the interval were read low for good (found in
 * review). (A first version
 * took any figure under its decay, which at 100 ms intervals is a 0.3 task
 * reading 0.14: jitter, let through.) A thread's first reading is its
 * whole life so far (a fork, an exec, a wait for the set: a few ms, not a
 * load), so the second, the first over a whole interval, is taken as it
 * is and the average begins there: in the test guest stress-ng's 16
 * workers, first read under 1, were held there while they spun at 1
 * (within the jump), placed as 12.9 to 14.6 against a demand of 14 to 16,
 * and the policy spreads 16 tasks under the fill over both packages;
 * rt-app's 32 tasks of 10% first read at 0.085 stayed pooled until the
 * resync 16 scans later. bench/bench_place
 * runs the policy alone (9 task counts x 8 mean loads, uniform jitter, 55
 * intervals each, the 2 x 8 x 2 Xeon model): placement changes 395 raw
 * against 29 filtered at +-0.06, 322 against 105 at +-0.1 (current figures:
 * docs/speed.md, bench_place); the unit test
 * test_place_steadies holds the two cases seen in the guest. The set's
 * demand and the quiet-interval test keep the raw figures: growth on
 * queueing is not delayed. */
#define PS_DEMAND_PLACE_HALF_LIFE_S 1.0
#define PS_DEMAND_PLACE_BAND 0.05
/* The band is at most this share of the held figure: 0.05 is half of a
 * 10% thread, and 32 stress-ng workers at 10% in the guest were placed as
 * 2.5-2.9 against a demand of 3.4-3.9 (each held up to 0.05 under its
 * reading from the second one on; the resync comes 16 scans later), so
 * live's set was 10-13 PUs where plan's for the same load is 16. Their
 * jitter (0.09-0.11, and the average's far less) stays inside 0.025. */
#define PS_DEMAND_PLACE_BAND_REL 0.25
#define PS_DEMAND_PLACE_JUMP 0.25
/* Every this many scans every thread's held figure takes its average (all
 * at once: the placement may move for it once per 16 scans at most), so
 * none stays up to a band away from its load for good (a first sight that
 * read 0.06 for a 0.104 task kept it pooled as "small"). */
#define PS_DEMAND_PLACE_RESYNC 16

/* a thread's figure for the placement: the average and what is held */
struct ps_place {
	double avg;  /* exponential average; negative: never measured */
	double held; /* what the placement reads */
};

/**
 * ps_demand_place_band() - how far a thread's average may move from its
 * held figure before the held figure takes it: PS_DEMAND_PLACE_BAND, or
 * PS_DEMAND_PLACE_BAND_REL of @held when that is less (a negative @held,
 * not yet read: PS_DEMAND_PLACE_BAND).
 */
double ps_demand_place_band(double held);

/**
 * ps_demand_place() - a thread's utilization as the placement reads it
 * @p: its state after the previous scan (both negative at first sight)
 * @now: its utilization from this scan (ps_demand_update())
 * @dt_s: seconds since the previous scan
 * @resync: take the average as the held figure whatever the band
 * @falling: @now is the decay of the last figure, not a measurement (the
 *           thread slept through the interval)
 *
 * At first sight (@p->held negative), and when @falling, the held figure
 * becomes @now and the average is not begun; at the next call, when @now
 * is PS_DEMAND_PLACE_JUMP or more from @p->held (either way), or when
 * @dt_s is not a positive number: both become @now. Otherwise the average moves towards @now by
 * 1 - 2^(-@dt_s / PS_DEMAND_PLACE_HALF_LIFE_S) of the way, and the held
 * figure takes it when they are more than ps_demand_place_band() apart, or
 * when @resync is set.
 *
 * Return: the held figure.
 */
double ps_demand_place(struct ps_place *p, double now, double dt_s, int resync, int falling);

/**
 * ps_demand_update() - one thread's utilization for the policy
 * @prev: its utilization after the previous interval
 * @run_ns: time it ran over the interval
 * @wait_ns: time it waited on a run queue over the interval
 * @dt_s: the interval, in seconds
 * @sat: ps_demand_saturation() of the set it was confined to
 *
 * The sample is (run + @sat x wait) / interval, clamped to [0, 1]; the
 * result is max(sample, @prev x 2^(-dt / PS_LIVE_HALF_LIFE_S)): it rises at once and decays with the
 * half-life. @sat 1 is the former run + wait.
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
 * several to a PU). Tasks of 0.2 were still coarser than the threads
 * near the threshold: 4 workers at 10% read as 2 tasks of 0.2 took 2 PUs
 * in the guest, where plan (and the model: 61.7 W against 62.2 W) puts
 * one a PU on 4. */
#define PS_DEMAND_POOL_CHUNK PS_LIVE_SMALL_UTIL

/**
 * ps_demand_lag() - how far one thread's placement figure is behind its load
 * @raw: its raw utilization (ps_demand_update())
 * @held: the figure the placement read (ps_demand_place())
 *
 * Summed over the threads, the set's lag (struct ps_demand_quiet's @lag
 * is the sum's size): signed, so symmetric jitter cancels while a lag all
 * one way (load arriving under the filter) adds up. Unsigned, the jitter
 * beyond the band added up linearly, 0.0125 a thread at +-0.1 (half of
 * each reading's spread is beyond the band, 0.025 on average), so 20 such
 * threads would have scanned every interval (found in review). Signed, its
 * spread grows as 0.02 x sqrt(N): a set of a hundred or more threads
 * jittering by +-0.1 still scans often, as every interval did before the
 * quiet ones.
 *
 * Return: @raw - @held less ps_demand_place_band(@held) towards 0 (0 inside the
 * band), or 0 when neither figure counts on its own (both under
 * PS_LIVE_SMALL_UTIL: pooled) or either is NaN.
 */
double ps_demand_lag(double raw, double held);

/**
 * ps_demand_pool() - tasks for the threads under PS_LIVE_SMALL_UTIL
 * @small: the sum of their utilizations
 * @out: where to append the tasks
 * @max: room in @out
 *
 * Tasks of PS_DEMAND_POOL_CHUNK, and one of the rest when that is half a
 * chunk or more; none when @small is under PS_LIVE_SMALL_UTIL (a sleeping
 * parent or a thousand idle threads do not each ask for headroom).
 *
 * Return: the number of tasks written (at most @max).
 */
int ps_demand_pool(double small, double *out, int max);

/*
 * Quiet intervals: the load source is not read when nothing it could see
 * would change the decision. Those are the intervals a scan costs most for
 * nothing: a server's thousands of idle threads are read each interval only
 * to find that they still sleep. Every PS_DEMAND_QUIET_MAX_SKIP + 1-th
 * interval is scanned regardless (a changed split of the same total).
 */
#define PS_DEMAND_QUIET_MAX_SKIP 15
/* ...or more where a scan is dear: the forced scans cost at most this share
 * of one CPU (a scan's own CPU time over the budget gives the intervals
 * between them; 30,000 threads in one process take ~25 ms a scan on the
 * test host, mostly the kernel summing them for /proc/PID/stat), but never
 * more than PS_DEMAND_QUIET_MAX_S apart */
#define PS_DEMAND_QUIET_BUDGET 0.001
#define PS_DEMAND_QUIET_MAX_S 120.0
/* Change of the machine's busy PUs (or of the demand between the last two
 * scans) below which an interval counts as quiet: the larger of these. A
 * quarter PU is under what any step of the policy turns on (a task under
 * PS_LIVE_SMALL_UTIL x 2 is pooled with others); 10% of the load is the
 * tick-sampling noise of /proc/stat at 100 Hz over a 500 ms interval on a
 * few busy PUs. */
#define PS_DEMAND_QUIET_PU 0.25
#define PS_DEMAND_QUIET_REL 0.10

/**
 * struct ps_demand_quiet - what says whether an interval may skip its scan
 * @busy: busy PUs of the whole machine over this interval (/proc/stat)
 * @busy_scan: its mean over the span the last scan read (the intervals
 *             since the scan before it: the span its figures are from)
 * @demand: the managed threads' demand at the last scan
 * @demand_prev: at the scan before it
 * @sat: ps_demand_saturation() of the allowed set over this interval
 * @at_rest: the last scan changed nothing, held nothing back, the
 *           policy was not counting towards a shrink (low_streak 0), and no
 *           thread that counts on its own had a falling figure (asleep:
 *           it passes under PS_LIVE_SMALL_UTIL within a few intervals at
 *           100 ms, at once at 500 ms, and frees a PU: without it, a
 *           shell gone to sleep keeps a second PU through 14 quiet
 *           intervals, tests/cli/live.sh)
 * @born: a task (process or thread) that may be ours was created since the
 *        last look (/proc/loadavg's last PID moved, and the source could not
 *        rule the new ones out)
 * @skipped: intervals skipped since the last scan
 * @max_skip: ps_demand_max_skip()
 * @own: CPUs the managed tasks used over this interval, exact (the cgroup
 *       backend's cpu.stat usage_usec); negative when the backend cannot
 *       say
 * @own_scan: its mean over the span the last scan read
 * @lag: how far the placement's figures were behind the load at the last
 *       scan: the size of the sum of ps_demand_lag() over the threads. The set is not
 *       at rest while it is over PS_DEMAND_QUIET_PU: only a scan moves a
 *       held figure. CI's guest once kept 16 busy threads on both
 *       packages for 8.1 s, the forced-scan period; inferred (that run's
 *       log was not kept): held under the fill, they are spread by the
 *       policy, the set has room and the busy time is steady, so every
 *       interval is quiet until the forced scan. Small threads add
 *       nothing and jitter cancels, so idle servers and many jittering
 *       threads stay quiet (a sum of held figures against the demand, the
 *       first form, was not: the pool's dropped remainder, and CI's
 *       bench_live at 10,000 idle threads read the load in 18 of 40
 *       intervals, not 2). Negative: not known (no rule). */
struct ps_demand_quiet {
	double busy, busy_scan, demand, demand_prev, sat;
	int at_rest, born, skipped, max_skip;
	double own, own_scan, lag;
};

/*
 * Why an interval read the load: the first rule of ps_demand_quiet_why()
 * that asked for it. Counted per reason in the state file and said by
 * `status` and `run -v`, so a person (and a test) can tell the rule's
 * scans from a fault: on a machine whose other load saturates the allowed
 * set, every interval reads, by the rule (our threads may be among those
 * waiting, and only their own figures say so).
 */
enum ps_scan_why {
	PS_SCAN_QUIET = 0,  /* no scan */
	PS_SCAN_CHANGE,     /* a start, a change of set, policy or topology, an error */
	PS_SCAN_BIRTH,      /* a task that may be ours was born */
	PS_SCAN_FORCED,     /* the periodic look (ps_demand_max_skip()) */
	PS_SCAN_SATURATED,  /* the allowed set was busy: ours may be waiting */
	PS_SCAN_OWN,        /* the managed tasks' own CPU time moved */
	PS_SCAN_LAG,        /* the placement's figures behind the load */
	PS_SCAN_BUSY,       /* the machine's busy time moved */
	PS_SCAN_DEMAND,     /* the demand moved between the last two scans */
	PS_SCAN_NR
};

/** ps_scan_why_name() - a reason's key in the state file ("saturated") */
const char *ps_scan_why_name(int why);

/**
 * ps_demand_quiet_why() - ps_demand_quiet()'s answer with its reason
 * @q: the figures; NULL reads as a change
 *
 * Return: PS_SCAN_QUIET when the interval may skip its scan, else the
 * first rule that asks for one (enum ps_scan_why, in the order above).
 */
int ps_demand_quiet_why(const struct ps_demand_quiet *q);

/**
 * ps_demand_max_skip() - intervals that may be skipped in a row
 * @scan_cpu_s: CPU time the last scan took, in seconds
 * @interval_s: the interval, in seconds
 *
 * PS_DEMAND_QUIET_MAX_SKIP, or more when that would spend more than
 * PS_DEMAND_QUIET_BUDGET of a CPU on forced scans; never so many that
 * scans are more than PS_DEMAND_QUIET_MAX_S apart (nor fewer than the
 * default for that).
 *
 * Return: the number of intervals.
 */
int ps_demand_max_skip(double scan_cpu_s, double interval_s);

/**
 * ps_demand_quiet() - may this interval keep the set without a scan?
 * @q: the figures above
 *
 * Yes when the set is at rest, no task was born, the set has room (@sat 0:
 * no task can be queueing for want of a PU), the machine's busy time and
 * the last two demands each moved less than the larger of
 * PS_DEMAND_QUIET_PU and PS_DEMAND_QUIET_REL of their size, so did @own
 * against @own_scan where the backend measures it (both negative: it does
 * not; one alone: no), @lag (where known) is at most PS_DEMAND_QUIET_PU,
 * and fewer than
 * @max_skip intervals were skipped in a row. Any NaN says no.
 *
 * Return: 1 to skip the scan, 0 to scan.
 */
int ps_demand_quiet(const struct ps_demand_quiet *q);

#endif
