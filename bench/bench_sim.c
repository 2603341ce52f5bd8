// SPDX-License-Identifier: MIT
/*
 * DOC: bench_sim
 *
 * Simulator speed on one core: one simulated hour of 64 periodic tasks
 * (30% duty, 10 ms period) on "pack:2 core:8 pu:2" under power, and the
 * events per second that took. Targets: under 10 s, at least 5 million
 * events per second.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ps/sim.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	const char *spec = "pack:2 core:8 pu:2", *wspec = "periodic:64:0.3:10ms";
	struct ps_sim_config c;
	struct ps_sim_result r;
	struct ps_workload w;
	struct ps_topo *t;
	struct ps_model m;
	char err[256], why[64];
	double t0, wall;

	if (ps_topo_load(spec, &t) || ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)) ||
	    ps_workload_parse(wspec, &w, err, sizeof(err))) {
		fprintf(stderr, "bench_sim: setup failed\n");
		return 1;
	}
	ps_topo_set_smt_gain(t, m.smt_gain);
	memset(&c, 0, sizeof(c));
	c.topo = t;
	c.model = &m;
	c.wl = &w;
	c.duration = 3600;
	c.interval = 0.1;
	c.balance = 0.004;
	c.snapshot = -1;
	c.seed = 1;
	if (ps_sim_policy_parse("power", "/", &c.pol, why, sizeof(why), err, sizeof(err)))
		return 1;
	t0 = now_s();
	if (ps_sim_run(&c, &r)) {
		fprintf(stderr, "bench_sim: run failed\n");
		return 1;
	}
	wall = now_s() - t0;
	printf("sim %s, %s, power, 1 simulated hour: %.2f s wall, %ld events, "
	       "%.2f million events/s on one core\n",
	       spec, wspec, wall, r.events, r.events / wall / 1e6);
	ps_sim_result_free(&r);
	ps_workload_free(&w);
	ps_topo_free(t);
	return 0;
}
