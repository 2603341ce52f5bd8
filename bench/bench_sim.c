// SPDX-License-Identifier: MIT
/*
 * DOC: bench_sim
 *
 * Simulator speed on one core, and how it grows with size: a table of
 * events per second and peak memory for 32, 256 and 1,024 PUs with 64,
 * 1,000 and 10,000 periodic tasks under the power policy (model
 * xeon-e5-2680-2s, 100 ms interval, 4 ms balance).
 *
 * Topologies: "pack:2 core:8 pu:2" (the seeds' Xeon), "pack:2 l3:8 core:8
 * pu:2" (2 x 64 cores, an L3 per 8 cores, as on a 2-socket EPYC) and
 * "pack:8 core:64 pu:2". Each task releases DUTY x 10 ms of work every
 * 10 ms, DUTY = min(0.3, 0.6 x PUs / tasks), so the demand is 60% of the
 * machine or 0.3 per task, whichever is less. The simulated time of a cell
 * is chosen for about 8 million events (at least 2 s), so each cell takes
 * a second or two.
 *
 * Each cell runs in a child process of its own, so that the peak resident
 * memory it reports (getrusage ru_maxrss) is that cell's and not the largest
 * so far. Events per second are per second of the process's CPU time (the
 * simulator is one thread): wall time on a shared machine counts others'
 * work too; both are printed. Targets: at least 5 million events per second in every cell; under
 * 200 MB for 1,024 PUs with 10,000 tasks.
 *
 * usage: bench_sim [ANY]            the table (make bench passes a path)
 *        bench_sim --cell PUS TASKS one cell, in this process (for perf)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ps/sim.h"

#define TARGET_EVENTS 8e6

static const int pus_list[] = { 32, 256, 1024 };
static const int tasks_list[] = { 64, 1000, 10000 };

struct cell {
	double cpu_s;
	double wall_s;
	double sim_s;
	long events;
	long maxrss_kb;
	int ok;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *topo_of(int pus)
{
	switch (pus) {
	case 32:
		return "pack:2 core:8 pu:2";
	case 256:
		return "pack:2 l3:8 core:8 pu:2";
	case 1024:
		return "pack:8 core:64 pu:2";
	}
	return NULL;
}

static double duty_of(int pus, int tasks)
{
	double d = 0.6 * pus / tasks;

	return d < 0.3 ? d : 0.3;
}

static int run_cell(int pus, int tasks, struct cell *out)
{
	const char *spec = topo_of(pus);
	struct ps_sim_config c;
	struct ps_sim_result r;
	struct ps_workload w;
	struct ps_topo *t;
	struct ps_model m;
	struct rusage ru;
	char err[256], why[64], wspec[64];
	double t0, c0;

	memset(out, 0, sizeof(*out));
	if (!spec)
		return -1;
	snprintf(wspec, sizeof(wspec), "periodic:%d:%.6f:10ms", tasks,
		 duty_of(pus, tasks));
	if (ps_topo_load(spec, &t))
		return -1;
	if (ps_model_load("xeon-e5-2680-2s", &m, err, sizeof(err)) ||
	    ps_workload_parse(wspec, &w, err, sizeof(err))) {
		ps_topo_free(t);
		return -1;
	}
	ps_topo_set_smt_gain(t, m.smt_gain);
	memset(&c, 0, sizeof(c));
	c.topo = t;
	c.model = &m;
	c.wl = &w;
	/* a release and a completion per task and period, 100 periods/s */
	c.duration = TARGET_EVENTS / (200.0 * tasks);
	if (c.duration < 2)
		c.duration = 2;
	c.interval = 0.1;
	c.balance = 0.004;
	c.snapshot = -1;
	c.seed = 1;
	if (ps_sim_policy_parse("power", "/", &c.pol, why, sizeof(why), err,
				sizeof(err)))
		return -1;
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (ps_sim_run(&c, &r))
		return -1;
	out->cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	out->wall_s = clock_s(CLOCK_MONOTONIC) - t0;
	out->sim_s = c.duration;
	out->events = r.events;
	getrusage(RUSAGE_SELF, &ru);
	out->maxrss_kb = ru.ru_maxrss;
	out->ok = 1;
	ps_sim_result_free(&r);
	ps_workload_free(&w);
	ps_topo_free(t);
	return 0;
}

/* One cell in a child, its figures back through a pipe. */
static int fork_cell(int pus, int tasks, struct cell *out)
{
	int fd[2], st;
	pid_t pid;
	ssize_t n;

	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct cell c;

		close(fd[0]);
		run_cell(pus, tasks, &c);
		n = write(fd[1], &c, sizeof(c));
		_exit(n == (ssize_t)sizeof(c) && c.ok ? 0 : 1);
	}
	close(fd[1]);
	n = read(fd[0], out, sizeof(*out));
	close(fd[0]);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) ||
	    n != (ssize_t)sizeof(*out))
		return -1;
	return 0;
}

static void print_cell(int pus, int tasks, const struct cell *c)
{
	double meps = c->events / c->cpu_s / 1e6;

	printf("%5d %6d %9.6f %7.1f %10ld %6.2f %6.2f %9.2f %8.1f  %s\n", pus,
	       tasks, duty_of(pus, tasks), c->sim_s, c->events, c->cpu_s,
	       c->wall_s, meps,
	       c->maxrss_kb / 1024.0,
	       meps >= 5 ? "ok" : "below 5 M/s");
}

int main(int argc, char **argv)
{
	size_t i, j;
	int bad = 0;

	if (argc == 4 && !strcmp(argv[1], "--cell")) {
		struct cell c;
		int pus = atoi(argv[2]), tasks = atoi(argv[3]);

		if (run_cell(pus, tasks, &c)) {
			fprintf(stderr, "bench_sim: cell %s %s failed\n", argv[2], argv[3]);
			return 1;
		}
		print_cell(pus, tasks, &c);
		return 0;
	}
	printf("sim, power policy, periodic tasks (10 ms period), model "
	       "xeon-e5-2680-2s, one core\n"
	       "PUs: 32 = pack:2 core:8 pu:2, 256 = pack:2 l3:8 core:8 pu:2, "
	       "1024 = pack:8 core:64 pu:2\n");
	printf("%5s %6s %9s %7s %10s %6s %6s %9s %8s\n", "PUs", "tasks", "duty",
	       "sim s", "events", "cpu s", "wall s", "M ev/s", "peak MB");
	for (i = 0; i < sizeof(pus_list) / sizeof(pus_list[0]); i++) {
		for (j = 0; j < sizeof(tasks_list) / sizeof(tasks_list[0]); j++) {
			struct cell c;

			if (fork_cell(pus_list[i], tasks_list[j], &c)) {
				fprintf(stderr, "bench_sim: cell %d PUs %d tasks failed\n",
					pus_list[i], tasks_list[j]);
				return 1;
			}
			print_cell(pus_list[i], tasks_list[j], &c);
			bad += c.events / c.cpu_s < 5e6;
		}
	}
	printf("M ev/s: events per second of the process's CPU time "
	       "(CLOCK_PROCESS_CPUTIME_ID; one thread, so one core; wall time\n"
	       "is longer when other work shares the machine). peak MB: the "
	       "cell's own process, getrusage ru_maxrss\n");
	if (bad)
		printf("%d cell(s) below 5 million events/s\n", bad);
	return 0;
}
