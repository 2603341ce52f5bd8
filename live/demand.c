// SPDX-License-Identifier: MIT
/*
 * DOC: demand estimate of the live side (see demand.h); no I/O here.
 */
#include <math.h>

#include "demand.h"
#include "ps/live.h"

double ps_demand_saturation(const double *busy, const unsigned char *allowed, int nr,
			    double run_cpus)
{
	double sum = 0, mean;
	int i, n = 0;

	if (!allowed || nr <= 0)
		return 0;
	for (i = 0; i < nr; i++) {
		if (!allowed[i])
			continue;
		/* a NaN or out-of-range figure counts as its nearest bound */
		if (busy)
			sum += busy[i] > 1 ? 1 : busy[i] > 0 ? busy[i] : 0;
		n++;
	}
	if (!n)
		return 0;
	mean = sum / n;
	if (run_cpus / n > mean)
		mean = run_cpus / n;
	if (mean <= PS_DEMAND_ROOM_BUSY)
		return 0;
	if (mean >= PS_DEMAND_FULL_BUSY)
		return 1;
	return (mean - PS_DEMAND_ROOM_BUSY) / (PS_DEMAND_FULL_BUSY - PS_DEMAND_ROOM_BUSY);
}

double ps_demand_update(double prev, unsigned long long run_ns, unsigned long long wait_ns,
			double dt_s, double sat)
{
	double d, decayed;

	if (!(dt_s > 0))
		return prev;
	if (!(sat > 0))
		sat = 0;
	else if (sat > 1)
		sat = 1;
	d = ((double)run_ns + sat * (double)wait_ns) / (dt_s * 1e9);
	if (d > 1)
		d = 1;
	decayed = prev * exp2(-dt_s / PS_LIVE_HALF_LIFE_S);
	return d > decayed ? d : decayed;
}

double ps_demand_place_band(double held)
{
	double rel = PS_DEMAND_PLACE_BAND_REL * held;

	return rel >= 0 && rel < PS_DEMAND_PLACE_BAND ? rel : PS_DEMAND_PLACE_BAND;
}

double ps_demand_place(struct ps_place *p, double now, double dt_s, int resync, int falling)
{
	/* first sight (a life of a few ms) or a fall (a decay, not a reading):
	 * held, and the average begins at the next reading */
	if (!(p->held >= 0) || falling) {
		p->held = now;
		p->avg = -1;
		return now;
	}
	if (!(p->avg >= 0) || fabs(now - p->held) >= PS_DEMAND_PLACE_JUMP || !(dt_s > 0)) {
		p->avg = p->held = now;
		return now;
	}
	p->avg += (now - p->avg) * (1 - exp2(-dt_s / PS_DEMAND_PLACE_HALF_LIFE_S));
	if (resync || fabs(p->avg - p->held) > ps_demand_place_band(p->held))
		p->held = p->avg;
	return p->held;
}

int ps_demand_take_runnable(double sat, int psi_moved)
{
	return psi_moved && sat >= PS_DEMAND_QUEUE_SAT;
}

int ps_demand_pool(double small, double *out, int max)
{
	int n = 0;

	if (!(small >= PS_LIVE_SMALL_UTIL - 1e-9))
		return 0; /* a sleeping parent, idle threads: no task */
	/* 1e-9: 0.5 made of small sums is five tasks, not four */
	while (small >= PS_DEMAND_POOL_CHUNK - 1e-9 && n < max) {
		out[n++] = small > PS_DEMAND_POOL_CHUNK ? PS_DEMAND_POOL_CHUNK : small;
		small -= PS_DEMAND_POOL_CHUNK;
	}
	/* the rest, if half a task or more: 4 threads at 0.098 are 4 tasks */
	if (small >= PS_DEMAND_POOL_CHUNK / 2 - 1e-9 && n < max)
		out[n++] = small;
	return n;
}

double ps_demand_lag(double raw, double held)
{
	double d = raw - held, x;

	if (!(raw >= PS_LIVE_SMALL_UTIL || held >= PS_LIVE_SMALL_UTIL))
		return 0; /* both pooled (or NaN) */
	x = fabs(d) - ps_demand_place_band(held);
	if (!(x > 0))
		return 0;
	return d > 0 ? x : -x;
}

static int within(double now, double then)
{
	double tol = PS_DEMAND_QUIET_REL * fabs(then);

	if (tol < PS_DEMAND_QUIET_PU)
		tol = PS_DEMAND_QUIET_PU;
	return fabs(now - then) <= tol; /* NaN: no */
}

const char *ps_scan_why_name(int why)
{
	static const char *const names[PS_SCAN_NR] = {
		"quiet", "change", "birth", "forced", "saturated", "own_load", "lag",
		"machine_load", "demand",
	};

	return why >= 0 && why < PS_SCAN_NR ? names[why] : "?";
}

int ps_demand_quiet_why(const struct ps_demand_quiet *q)
{
	if (!q || !q->at_rest)
		return PS_SCAN_CHANGE;
	if (q->born)
		return PS_SCAN_BIRTH;
	if (q->skipped >= q->max_skip)
		return PS_SCAN_FORCED;
	if (!(q->sat <= 0))
		return PS_SCAN_SATURATED;
	/* the managed tasks' own CPU time, where the backend counts it: a
	 * change of ours that another's hides in the machine's busy time */
	if (!(q->own < 0 && q->own_scan < 0) && !within(q->own, q->own_scan))
		return PS_SCAN_OWN;
	/* the placement's figures still catching up with the load */
	if (!(q->lag < 0) && !(q->lag <= PS_DEMAND_QUIET_PU))
		return PS_SCAN_LAG;
	if (!within(q->busy, q->busy_scan))
		return PS_SCAN_BUSY;
	if (!within(q->demand, q->demand_prev))
		return PS_SCAN_DEMAND;
	return PS_SCAN_QUIET;
}

int ps_demand_quiet(const struct ps_demand_quiet *q)
{
	return ps_demand_quiet_why(q) == PS_SCAN_QUIET;
}

int ps_demand_max_skip(double scan_cpu_s, double interval_s)
{
	double n, cap;

	if (!(interval_s > 0))
		return PS_DEMAND_QUIET_MAX_SKIP;
	cap = floor(PS_DEMAND_QUIET_MAX_S / interval_s) - 1;
	if (!(scan_cpu_s > 0))
		scan_cpu_s = 0;
	/* one scan per n + 1 intervals costs scan / ((n + 1) x interval) */
	n = ceil(scan_cpu_s / (PS_DEMAND_QUIET_BUDGET * interval_s)) - 1;
	if (n > cap)
		n = cap;
	return n > PS_DEMAND_QUIET_MAX_SKIP ? (int)n : PS_DEMAND_QUIET_MAX_SKIP;
}
