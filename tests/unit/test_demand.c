// SPDX-License-Identifier: MIT
/* The live side's demand estimate: the set's saturation, and a thread's
 * utilization from its run and wait (live/demand.c). */
#include <math.h>

#include "helpers.h"
#include "ps/live.h"
#include "ps/policy.h"
#include "ps/power.h"
#include "../../live/demand.h"
#include "../../bench/place_changes.h"

#define MS 1000000ULL /* ns */

static void test_saturation_bounds(void **state)
{
	double busy[16];
	unsigned char in[16] = { 0 };
	int i;

	(void)state;
	for (i = 0; i < 8; i++)
		in[i] = 1;
	/* 16 x 0.3 on 8 PUs: 60% busy, room left: 0 */
	for (i = 0; i < 16; i++)
		busy[i] = i < 8 ? 0.6 : 1.0; /* PUs outside the set do not count */
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 0, 1e-12);
	/* exactly the policy's target fill: still room */
	for (i = 0; i < 8; i++)
		busy[i] = PS_DEMAND_ROOM_BUSY;
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 0, 1e-12);
	/* half-way between 0.8 and 0.95 */
	for (i = 0; i < 8; i++)
		busy[i] = 0.875;
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 0.5, 1e-9);
	/* no idle left: full */
	for (i = 0; i < 8; i++)
		busy[i] = 1.0;
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 1, 1e-12);
	/* mean over the set: four idle and four busy PUs are half busy */
	for (i = 0; i < 8; i++)
		busy[i] = i < 4 ? 0 : 1;
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 0, 1e-12);
	/* bad figures clamp: NaN counts 0, 7 counts 1 */
	for (i = 0; i < 8; i++)
		busy[i] = i & 1 ? NAN : 7;
	assert_float_equal(ps_demand_saturation(busy, in, 16, 0), 0, 1e-12);
	/* an empty set or no PUs: 0, never a division by zero */
	memset(in, 0, sizeof(in));
	assert_float_equal(ps_demand_saturation(busy, in, 16, 5), 0, 1e-12);
	assert_float_equal(ps_demand_saturation(busy, NULL, 16, 5), 0, 1e-12);
	assert_float_equal(ps_demand_saturation(busy, in, 0, 5), 0, 1e-12);
}

static void test_saturation_from_run(void **state)
{
	double busy[8];
	unsigned char in[8];
	int i;

	(void)state;
	memset(in, 1, sizeof(in));
	/* no /proc/stat figure yet: the threads' run alone */
	assert_float_equal(ps_demand_saturation(NULL, in, 8, 4.8), 0, 1e-12);
	assert_float_equal(ps_demand_saturation(NULL, in, 8, 8.0), 1, 1e-12);
	/* /proc/stat under-reads (tick sampling in a TCG guest said 1.3 CPUs
	 * for 4.8 of run): the larger figure wins, both ways */
	for (i = 0; i < 8; i++)
		busy[i] = 0.16;
	assert_float_equal(ps_demand_saturation(busy, in, 8, 7.8), 1, 1e-12);
	for (i = 0; i < 8; i++)
		busy[i] = 1.0; /* others' tasks fill the set */
	assert_float_equal(ps_demand_saturation(busy, in, 8, 1.0), 1, 1e-12);
}

static void test_update(void **state)
{
	(void)state;
	/* 150 ms run and 40 ms waiting for a shared PU in 500 ms, set with
	 * room: 0.3, the wait is the packing's */
	assert_float_equal(ps_demand_update(0, 150 * MS, 40 * MS, 0.5, 0), 0.3, 1e-9);
	/* the same on a full set: the wait counts, 0.38 */
	assert_float_equal(ps_demand_update(0, 150 * MS, 40 * MS, 0.5, 1), 0.38, 1e-9);
	/* half full: half the wait */
	assert_float_equal(ps_demand_update(0, 150 * MS, 40 * MS, 0.5, 0.5), 0.34, 1e-9);
	/* two CPU-bound threads sharing a PU of a full set: 1.0 each */
	assert_float_equal(ps_demand_update(0, 250 * MS, 250 * MS, 0.5, 1), 1.0, 1e-9);
	/* more than the interval (counters read a little apart): clamped */
	assert_float_equal(ps_demand_update(0, 450 * MS, 250 * MS, 0.5, 1), 1.0, 1e-12);
	/* decay: one half-life of rest halves it; a higher sample wins */
	assert_float_equal(ps_demand_update(0.8, 0, 0, PS_LIVE_HALF_LIFE_S, 0), 0.4, 1e-9);
	assert_float_equal(ps_demand_update(0.2, 50 * MS, 0, 0.1, 0), 0.5, 1e-9);
	/* no time passed, or a bad saturation */
	assert_float_equal(ps_demand_update(0.7, 5, 5, 0, 1), 0.7, 1e-12);
	assert_float_equal(ps_demand_update(0, 100 * MS, 100 * MS, 0.5, 9), 0.4, 1e-9);
	assert_float_equal(ps_demand_update(0, 100 * MS, 100 * MS, 0.5, -1), 0.2, 1e-9);
	assert_float_equal(ps_demand_update(0, 100 * MS, 100 * MS, 0.5, NAN), 0.2, 1e-9);
	/* saturation 1 is the former estimate, run + wait */
	assert_float_equal(ps_demand_update(0.25, 300 * MS, 100 * MS, 0.5, 1),
			   ps_live_util_update(0.25, 300 * MS, 100 * MS, 0.5), 1e-12);
}

static void test_place(void **state)
{
	struct ps_place p = { -1, -1 };
	double x;
	int i;

	(void)state;
	/* first sight: taken as it is, the average not begun */
	assert_float_equal(ps_demand_place(&p, 0.3, 0.5, 0, 0), 0.3, 1e-12);
	assert_true(p.avg < 0);
	/* the second reading, the first over a whole interval: taken too,
	 * though within the jump (stress-ng's workers first read at 0.8,
	 * then spin: 1) */
	assert_float_equal(ps_demand_place(&p, 0.36, 0.5, 0, 0), 0.36, 1e-12);
	assert_float_equal(p.avg, 0.36, 1e-12);
	p.avg = p.held = 0.3;
	/* within the band: held, while the average moves */
	assert_float_equal(ps_demand_place(&p, 0.38, 0.5, 0, 0), 0.3, 1e-12);
	assert_true(p.avg > 0.3 && p.avg < 0.38);
	/* one half-life moves the average half-way */
	p.avg = p.held = 0.2;
	ps_demand_place(&p, 0.4, PS_DEMAND_PLACE_HALF_LIFE_S, 0, 0);
	assert_float_equal(p.avg, 0.3, 1e-12);
	assert_float_equal(p.held, 0.3, 1e-12); /* 0.1 apart: taken */
	/* a rise of the jump or more: at once (load arriving) */
	p.avg = p.held = 0.3;
	assert_float_equal(ps_demand_place(&p, 0.3 + PS_DEMAND_PLACE_JUMP, 0.5, 0, 0),
			   0.3 + PS_DEMAND_PLACE_JUMP, 1e-12);
	assert_float_equal(p.avg, 0.3 + PS_DEMAND_PLACE_JUMP, 1e-12);
	/* so is a fall of the jump or more (a task gone to sleep) */
	p.avg = p.held = 0.9;
	assert_float_equal(ps_demand_place(&p, 0.1, 0.5, 0, 0), 0.1, 1e-12);
	/* a smaller fall is followed within seconds: 0.4 to 0.3, held for
	 * the first 500 ms, within the band of 0.3 after 3 s */
	p.avg = p.held = 0.4;
	assert_float_equal(ps_demand_place(&p, 0.3, 0.5, 0, 0), 0.4, 1e-12);
	for (i = 0; i < 5; i++)
		ps_demand_place(&p, 0.3, 0.5, 0, 0);
	assert_true(p.held < 0.3 + 0.1 / 8 + PS_DEMAND_PLACE_BAND + 1e-9);
	assert_true(p.held < 0.4 - 1e-9);
	/* a held figure just inside the band from a steady load: kept until
	 * a resync, then the average */
	p.avg = p.held = 0.30;
	for (i = 0; i < 10; i++)
		assert_float_equal(ps_demand_place(&p, 0.345, 0.5, 0, 0), 0.30, 1e-12);
	x = ps_demand_place(&p, 0.345, 0.5, 1, 0);
	assert_float_equal(x, p.avg, 1e-12);
	assert_true(fabs(x - 0.345) < 0.001);
	/* the band is at most a quarter of the held figure: a 10% thread
	 * held at 0.06 (the guest's 32 workers at 10%, read low early) is
	 * not kept there until the resync, 16 scans later: within 2 s it is
	 * held at 0.082 (the average's 0.082 after two intervals, a band of
	 * 0.015 away), and at rest at most a quarter of itself under the
	 * reading (0.8 of it or more) */
	assert_float_equal(ps_demand_place_band(0.06), 0.015, 1e-12);
	assert_float_equal(ps_demand_place_band(0.5), PS_DEMAND_PLACE_BAND, 0);
	assert_float_equal(ps_demand_place_band(-1), PS_DEMAND_PLACE_BAND, 0);
	p.avg = p.held = 0.06;
	for (i = 0; i < 4; i++)
		x = ps_demand_place(&p, 0.104, 0.5, 0, 0);
	assert_true(x > 0.08);
	for (i = 0; i < 40; i++)
		x = ps_demand_place(&p, 0.104, 0.5, 0, 0);
	assert_true(x >= 0.104 / (1 + PS_DEMAND_PLACE_BAND_REL) - 1e-9);
	/* no interval: the sample as it is */
	p.avg = p.held = 0.5;
	assert_float_equal(ps_demand_place(&p, 0.2, 0, 0, 0), 0.2, 1e-12);
	assert_float_equal(ps_demand_place(&p, 0.7, NAN, 0, 0), 0.7, 1e-12);
}

/* CI's finding in tests/cli/metrics.sh: a shell that forked a busy child
 * and waits for it, first read at a full PU (its fork and exec are its
 * whole life so far), then no run at all. Its raw figure halves every
 * PS_LIVE_HALF_LIFE_S; held, it stopped at 0.25 (a fall of less than the
 * jump) and took a second PU for over a second. Marked falling (asleep
 * through the interval, its figure the decay: source_proc.c), it is
 * followed. */
static void test_place_sleeper(void **state)
{
	struct ps_place asleep = { -1, -1 }, running = { -1, -1 };
	double u = 1, dt = 0.1;
	int i;

	(void)state;
	assert_float_equal(ps_demand_place(&asleep, u, dt, 0, 0), 1, 1e-12);
	assert_float_equal(ps_demand_place(&asleep, u, dt, 0, 0), 1, 1e-12); /* measured */
	running = asleep;
	for (i = 0; i < 4; i++) {
		u = ps_demand_update(u, 0, 0, dt, PS_DEMAND_WAIT_WEIGHT);
		assert_true(u > 0); /* asleep, and its figure not yet nothing */
		assert_float_equal(ps_demand_place(&asleep, u, dt, 0, 1), u, 1e-12); /* falling */
		ps_demand_place(&running, u, dt, 0, 0);
	}
	/* 400 ms: 1/16 of a PU, pooled with the small ones */
	assert_float_equal(u, 1.0 / 16, 1e-9);
	assert_true(asleep.held < PS_LIVE_SMALL_UTIL);
	/* the same figures not marked falling (measured, as jitter is): held
	 * where the jump left them (0.25), the filter's hold */
	assert_float_equal(running.held, 0.25, 1e-12);
	/* awake again (a timer longer than the interval): its reading is
	 * taken as it is, not averaged up from the decay (review: 0.15 was
	 * held near 0, as if pooled, until the resync and after) */
	assert_float_equal(ps_demand_place(&asleep, 0.15, 0.5, 0, 0), 0.15, 1e-12);
	assert_true(asleep.held >= PS_LIVE_SMALL_UTIL);
	assert_float_equal(asleep.avg, 0.15, 1e-12);
}

/* the jitter measured in the guest (docs/testing.md, "Light load in the
 * guest"): raw, the
 * placement flips between candidates; filtered, it stays */
static void test_place_steadies(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_model m;
	char err[256];
	int raw, filt;

	(void)state;
	assert_int_equal(ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)), 0);
	ps_topo_set_smt_gain(t, m.smt_gain);
	/* 60 intervals of 500 ms, the first 5 not counted */
	raw = place_changes(t, &m, 8, 0.47, 0.55, 0);
	filt = place_changes(t, &m, 8, 0.47, 0.55, 1);
	print_message("8 x 0.47-0.55: %d placement changes raw, %d filtered\n", raw, filt);
	assert_true(raw >= 5);
	assert_true(filt <= 1);
	raw = place_changes(t, &m, 16, 0.25, 0.38, 0);
	filt = place_changes(t, &m, 16, 0.25, 0.38, 1);
	print_message("16 x 0.25-0.38: %d placement changes raw, %d filtered\n", raw, filt);
	assert_true(raw >= 5);
	assert_true(filt <= 1);
	ps_topo_free(t);
}

static void test_take_runnable(void **state)
{
	(void)state;
	/* the guest's 16 x 30% on 11 PUs: PSI some moved (1%), set 44% busy */
	assert_int_equal(ps_demand_take_runnable(0, 1), 0);
	assert_int_equal(ps_demand_take_runnable(PS_DEMAND_QUEUE_SAT - 0.01, 1), 0);
	/* 32 CPU-bound on 16 PUs: full, and PSI moved */
	assert_int_equal(ps_demand_take_runnable(1, 1), 1);
	assert_int_equal(ps_demand_take_runnable(PS_DEMAND_QUEUE_SAT, 1), 1);
	/* full but nothing waited */
	assert_int_equal(ps_demand_take_runnable(1, 0), 0);
}

/* End to end through the policy: 16 workers at 30% packed on 11 PUs of one
 * package, each waiting 60 ms per 500 ms for a PU's other worker. Run alone
 * gives plan's 8 PUs; run + wait (0.42 each: one per PU) gives 16. */
static void test_packing_wait_is_not_demand(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_decision d;
	double busy[32] = { 0 }, util[16], sat;
	unsigned char in[32] = { 0 };
	int i, nr_light, nr_full;

	(void)state;
	for (i = 0; i < 11; i++) {
		in[i] = 1;
		busy[i] = 4.8 / 11;
	}
	sat = ps_demand_saturation(busy, in, 32, 4.8);
	assert_float_equal(sat, 0, 1e-12);
	for (i = 0; i < 16; i++)
		util[i] = ps_demand_update(0.3, 150 * MS, 60 * MS, 0.5, sat);
	assert_int_equal(ps_decision_init(&d, t, 16), 0);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, util, 16, NULL, NULL, &d), 0);
	nr_light = d.nr_allowed;
	assert_int_equal(nr_light, 8); /* plan --load 16x0.3 --policy power */
	for (i = 0; i < 16; i++)
		util[i] = ps_live_util_update(0.3, 150 * MS, 60 * MS, 0.5);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, util, 16, NULL, NULL, &d), 0);
	assert_int_equal(d.nr_allowed, 16); /* what counting the wait did */
	/* 16 CPU-bound threads squeezed onto 8 PUs: run 8.0 of 8, full; each
	 * ran 250 and waited 250 ms: 1.0 each, and the set must grow */
	memset(in, 0, sizeof(in));
	for (i = 0; i < 8; i++) {
		in[i] = 1;
		busy[i] = 1.0;
	}
	sat = ps_demand_saturation(busy, in, 32, 8.0);
	assert_float_equal(sat, 1, 1e-12);
	for (i = 0; i < 16; i++)
		util[i] = ps_demand_update(0.5, 250 * MS, 250 * MS, 0.5, sat);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, util, 16, NULL, NULL, &d), 0);
	nr_full = d.nr_allowed;
	assert_true(nr_full >= 16);
	ps_decision_fini(&d);
	ps_topo_free(t);
}

static void test_pool(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_decision d;
	double out[64];
	int n, i;

	(void)state;
	/* under the threshold: nothing */
	assert_int_equal(ps_demand_pool(0.06, out, 64), 0);
	/* 0.5: five tasks of 0.1 (sums of small threads are not exact) */
	n = ps_demand_pool(0.5, out, 64);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		assert_float_equal(out[i], 0.1, 1e-9);
	/* 0.25: 0.1, 0.1 and the rest, 0.05 (half a task: kept) */
	assert_int_equal(ps_demand_pool(0.25, out, 64), 3);
	assert_float_equal(out[2], 0.05, 1e-9);
	/* 0.24: the rest, 0.04, dropped */
	assert_int_equal(ps_demand_pool(0.24, out, 64), 2);
	/* 4 workers at 10% read a little under (each is pooled, being under
	 * 0.1): 4 tasks, as plan has them (found in review: 3, 0.092 lost) */
	assert_int_equal(ps_demand_pool(0.098 + 0.098 + 0.098 + 0.098, out, 64), 4);
	assert_float_equal(out[3], 0.092, 1e-9);
	/* no more than the room given */
	assert_int_equal(ps_demand_pool(10, out, 3), 3);
	assert_int_equal(ps_demand_pool(10, out, 0), 0);
	/* the guest's 32 workers at 0.09: 2.88 pooled; the policy packs the
	 * tasks as plan packs 32 x 0.09 (4 PUs), where tasks of 1.0 each
	 * took a PU of their own and more */
	n = ps_demand_pool(32 * 0.09, out, 64);
	assert_int_equal(n, 29); /* 28 x 0.1 and the rest, 0.08 */
	assert_int_equal(ps_decision_init(&d, t, 64), 0);
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, out, n, NULL, NULL, &d), 0);
	i = d.nr_allowed;
	for (n = 0; n < 32; n++)
		out[n] = 0.09;
	assert_int_equal(ps_policy_decide(t, PS_POLICY_POWER, out, 32, NULL, NULL, &d), 0);
	assert_int_equal(i, d.nr_allowed);
	ps_decision_fini(&d);
	ps_topo_free(t);
}

/* A quiet interval: the set at rest, nothing born, room on the set, busy
 * and demand steady; each of those alone makes it scan. */
static void test_quiet(void **state)
{
	const struct ps_demand_quiet base = {
		.busy = 4.8, .busy_scan = 4.7, .demand = 5.0, .demand_prev = 5.1, .sat = 0,
		.at_rest = 1, .born = 0, .skipped = 3, .max_skip = 15,
		.own = -1, .own_scan = -1, .lag = 0,
	};
	struct ps_demand_quiet q;

	(void)state;
	assert_int_equal(ps_demand_quiet(&base), 1);
	assert_int_equal(ps_demand_quiet(NULL), 0);
	/* the reason is the first rule that asks, in the documented order: a
	 * birth under a saturated set is a birth (the test of a child's scan
	 * in tests/cli/live.sh relies on it under stress-ng) */
	assert_int_equal(ps_demand_quiet_why(&base), PS_SCAN_QUIET);
	assert_int_equal(ps_demand_quiet_why(NULL), PS_SCAN_CHANGE);
	q = base;
	q.sat = 1;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_SATURATED);
	q.born = 1;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_BIRTH);
	q.at_rest = 0;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_CHANGE);
	q = base;
	q.skipped = 15;
	q.sat = 1;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_FORCED);
	q = base;
	q.busy = 9;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_BUSY);
	q.lag = 1;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_LAG);
	q = base;
	q.demand = 9;
	assert_int_equal(ps_demand_quiet_why(&q), PS_SCAN_DEMAND);
	assert_string_equal(ps_scan_why_name(PS_SCAN_SATURATED), "saturated");
	assert_string_equal(ps_scan_why_name(PS_SCAN_NR), "?");
	q = base;
	q.at_rest = 0; /* the last scan changed the set, or a shrink is pending */
	assert_int_equal(ps_demand_quiet(&q), 0);
	q = base;
	q.born = 1; /* a task was created: it may be ours, unjournaled */
	assert_int_equal(ps_demand_quiet(&q), 0);
	q = base;
	q.skipped = 15; /* the forced scan */
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.skipped = 14;
	assert_int_equal(ps_demand_quiet(&q), 1);
	q = base;
	q.sat = 0.01; /* over ROOM_BUSY: tasks may queue */
	assert_int_equal(ps_demand_quiet(&q), 0);
	/* busy: 10% of 4.7 is 0.47 */
	q = base;
	q.busy = 4.7 + 0.46;
	assert_int_equal(ps_demand_quiet(&q), 1);
	q.busy = 4.7 + 0.48;
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.busy = 4.7 - 0.48; /* a drop counts as much as a rise */
	assert_int_equal(ps_demand_quiet(&q), 0);
	/* the managed tasks' own CPUs (the cgroup backend's cpu.stat): a
	 * spin of ours starting as another's stops leaves the machine's busy
	 * time as it was, not ours */
	q = base;
	q.own_scan = 0.02;
	q.own = 1.0;
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.own = 0.2; /* within a quarter PU */
	assert_int_equal(ps_demand_quiet(&q), 1);
	q.own = -1; /* counted at the scan, not now: scan */
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.own = 0.02;
	q.own_scan = -1; /* counted now, not over the scan's span: scan */
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.own = NAN;
	assert_int_equal(ps_demand_quiet(&q), 0);
	/* the placement's figures behind the load (held by its filter): a
	 * scan moves them. The test guest read 16 threads at 1 held at 0.8 to
	 * 0.95; quiet, such a lag lasts until the forced scan (8 s at 500 ms,
	 * what CI's guest kept both packages for) */
	q = base;
	q.lag = 16 * (1 - 0.8 - PS_DEMAND_PLACE_BAND);
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.lag = 0.2; /* within a quarter PU */
	assert_int_equal(ps_demand_quiet(&q), 1);
	q.lag = -1; /* not known */
	assert_int_equal(ps_demand_quiet(&q), 1);
	q.lag = NAN;
	assert_int_equal(ps_demand_quiet(&q), 0);
	/* small loads: a quarter PU, not 10% of 0.3 */
	q = base;
	q.busy_scan = 0.3;
	q.busy = 0.54;
	assert_int_equal(ps_demand_quiet(&q), 1);
	q.busy = 0.56;
	assert_int_equal(ps_demand_quiet(&q), 0);
	/* demand still moving between the last two scans */
	q = base;
	q.demand = 5.1 + 0.52;
	assert_int_equal(ps_demand_quiet(&q), 0);
	q.demand = NAN;
	assert_int_equal(ps_demand_quiet(&q), 0);
	q = base;
	q.busy = NAN;
	assert_int_equal(ps_demand_quiet(&q), 0);
}

/* One thread's lag, and the set's: a lag all one way adds up (the guest's
 * 16 workers at 1 held at 0.8), jitter around the held figures cancels,
 * pooled threads add nothing. */
static void test_lag(void **state)
{
	unsigned seed = 7;
	double sum = 0, unsigned_sum = 0;
	int i;

	(void)state;
	assert_float_equal(ps_demand_lag(1.0, 0.8), 0.2 - PS_DEMAND_PLACE_BAND, 1e-12);
	assert_float_equal(ps_demand_lag(0.8, 1.0), -(0.2 - PS_DEMAND_PLACE_BAND), 1e-12);
	assert_float_equal(ps_demand_lag(0.52, 0.5), 0, 0); /* inside the band */
	assert_float_equal(ps_demand_lag(0.09, 0.0), 0, 0); /* both pooled */
	assert_float_equal(ps_demand_lag(0.15, 0.0), 0.15, 1e-12); /* counts on its own;
								    * held 0: no band */
	assert_float_equal(ps_demand_lag(0.15, 0.1), 0.025, 1e-12); /* band 0.025 */
	assert_float_equal(ps_demand_lag(NAN, 0.5), 0, 0);
	for (i = 0; i < 16; i++)
		sum += ps_demand_lag(1.0, 0.8);
	assert_true(sum > PS_DEMAND_QUIET_PU); /* scans */
	/* threads of 0.3 held at 0.3, read uniformly in 0.2 .. 0.4: half of
	 * each reading's spread lies beyond the band, 0.025 on average, so
	 * unsigned N of them add up to 0.0125 N (0.8 at 64: every interval
	 * would scan); signed, to 0 with a spread of 0.02 sqrt(N): 0.08 at 16
	 * (quiet: 0.25 is three spreads), 0.16 at 64 (mostly quiet) */
	sum = 0;
	for (i = 0; i < 64; i++) {
		double x;

		seed = seed * 1103515245u + 12345u;
		x = 0.2 + 0.2 * (double)((seed >> 8) & 0xffff) / 65535.0;
		sum += ps_demand_lag(x, 0.3);
		unsigned_sum += fabs(ps_demand_lag(x, 0.3));
		if (i == 15) {
			print_message("16 jittering threads: lag %.3f signed, %.3f unsigned\n",
				      sum, unsigned_sum);
			assert_true(fabs(sum) <= PS_DEMAND_QUIET_PU);
		}
	}
	print_message("64 jittering threads: lag %.3f signed, %.3f unsigned\n", sum, unsigned_sum);
	assert_true(unsigned_sum > 2 * PS_DEMAND_QUIET_PU);
	assert_true(fabs(sum) < unsigned_sum / 2);
}

/* The forced scans' period: 15 skipped by default; a dear scan spaces them
 * to PS_DEMAND_QUIET_BUDGET of a CPU, at most PS_DEMAND_QUIET_MAX_S apart. */
static void test_max_skip(void **state)
{
	(void)state;
	assert_int_equal(ps_demand_max_skip(0, 0.5), 15);
	assert_int_equal(ps_demand_max_skip(0.001, 0.5), 15); /* 1 ms: 0.0125% at 16 */
	/* 25 ms at 500 ms: 0.1% needs a scan per 50 intervals, 49 skipped */
	assert_int_equal(ps_demand_max_skip(0.025, 0.5), 49);
	/* 10 ms at 1 s: 10 intervals would do, the default 15 stays */
	assert_int_equal(ps_demand_max_skip(0.010, 1.0), 15);
	/* 1 s a scan: capped at 120 s apart */
	assert_int_equal(ps_demand_max_skip(1.0, 0.5), 239);
	assert_int_equal(ps_demand_max_skip(1.0, 10.0), 15); /* cap 11 < 15: 15 */
	assert_int_equal(ps_demand_max_skip(NAN, 0.5), 15);
	assert_int_equal(ps_demand_max_skip(0.025, 0), 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturation_bounds),
		cmocka_unit_test(test_saturation_from_run),
		cmocka_unit_test(test_update),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_place_sleeper),
		cmocka_unit_test(test_place_steadies),
		cmocka_unit_test(test_take_runnable),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_packing_wait_is_not_demand),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_lag),
		cmocka_unit_test(test_max_skip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
