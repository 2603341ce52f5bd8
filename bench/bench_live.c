// SPDX-License-Identifier: MIT
/*
 * Overhead of the live enforcer: powersched run (affinity backend, 500 ms
 * interval, power policy) manages one process of N threads that each wake
 * every P ms for a few microseconds of work; we read powersched's own CPU
 * time (its threads' schedstat run time) over 20 s after a warm-up and
 * print it as a share of one CPU, with how many intervals read the load
 * (the others were quiet: docs/live.md). Cases: 1,000, 10,000 and
 * 30,000 threads waking once a second, and 1,000 waking ten times a second
 * (issue 9's targets: under 0.2% at 10,000, under 0.5% for the last).
 *   usage: bench_live [PATH/TO/powersched [N PERIOD_MS [BACKEND]]]
 * (the host's cgroup v1 leaves affinity; tests/vm/scenarios/bench.sh runs
 * both backends in the guest)
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEASURE_S 20

static volatile int stop;
static long period_ms;

static void *worker(void *arg)
{
	struct timespec ts = { period_ms / 1000, (period_ms % 1000) * 1000000L };
	struct timespec first = { 0, (long)((unsigned long)(size_t)arg % 1000) * 1000000L };
	volatile unsigned long x = 0;
	int i;

	nanosleep(&first, NULL); /* spread the wake-ups over a second */
	while (!stop) {
		for (i = 0; i < 2000; i++) /* a few microseconds */
			x += (unsigned long)i;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static int run_workers(int nr, int seconds)
{
	pthread_t *t = calloc((size_t)nr, sizeof(*t));
	pthread_attr_t attr;
	int i, n = 0;

	if (!t)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 32 * 1024);
	for (i = 0; i < nr; i++)
		if (!pthread_create(&t[i], &attr, worker, (void *)(size_t)(i * 7919)))
			n++;
	if (n < nr)
		fprintf(stderr, "bench_live: %d of %d threads made\n", n, nr);
	sleep((unsigned)seconds);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return n == nr ? 0 : 1;
}

/* CPU time of every thread of pid, in seconds: the first field of each
 * /proc/PID/task/TID/schedstat (nanoseconds; utime + stime would count in
 * 10 ms ticks, too coarse for a few scans) */
static double cpu_s(pid_t pid)
{
	char path[96], buf[256];
	unsigned long long ns, sum = 0;
	struct dirent *de;
	int n = 0;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/schedstat", (int)pid, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%llu", &ns) == 1) {
			sum += ns;
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n ? (double)sum / 1e9 : -1;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* intervals and scans from the run's state file in dir (0 when not found),
 * and how it learns of new tasks (births: "?" when not found) */
static void scans_of(const char *dir, int *intervals, int *scans, char *births, size_t len)
{
	char path[600], buf[65536], *p;
	struct dirent *de;
	DIR *d = opendir(dir);
	FILE *f;
	size_t n;

	*intervals = *scans = 0;
	snprintf(births, len, "?");
	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "state.", 6) && strstr(de->d_name, ".json") &&
		    !strstr(de->d_name, ".tmp"))
			break;
	if (de) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (f) {
			n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = '\0';
			fclose(f);
			p = strstr(buf, "\"intervals\":");
			if (p)
				*intervals = atoi(p + 12);
			p = strstr(buf, "\"scans\":");
			if (p)
				*scans = atoi(p + 8);
			p = strstr(buf, "\"births\":\"");
			if (p)
				snprintf(births, len, "%.*s", (int)strcspn(p + 10, "\""), p + 10);
		}
	}
	closedir(d);
}

static int one_case(const char *ps, const char *self, int nr, long period, const char *backend)
{
	/* the state directory on tmpfs, as /run/powersched is */
	char dir[] = "/dev/shm/ps-bench-live.XXXXXX", secs[16], ns[16], ps_[16], births[32];
	int warmup = nr >= 10000 ? 8 : 3, status, iv0, sc0, iv1, sc1;
	double c0, c1, t0, t1;
	pid_t pid;

	if (access("/dev/shm", W_OK))
		memcpy(dir, "/tmp/ps-bench-live.XXXXXX", sizeof("/tmp/ps-bench-live.XXXXXX"));
	if (!mkdtemp(dir)) {
		perror("bench_live");
		return 1;
	}
	snprintf(secs, sizeof(secs), "%d", warmup + MEASURE_S + 1);
	snprintf(ns, sizeof(ns), "%d", nr);
	snprintf(ps_, sizeof(ps_), "%ld", period);
	pid = fork();
	if (pid == 0) {
		execl(ps, ps, "run", "--backend", backend, "--policy", "power", "--interval",
		      "500ms", "--quiet", "--state-dir", dir, "--", self, "--worker", ns, ps_,
		      secs, (char *)NULL);
		perror("exec powersched");
		_exit(127);
	}
	sleep((unsigned)warmup);
	c0 = cpu_s(pid);
	t0 = mono();
	scans_of(dir, &iv0, &sc0, births, sizeof(births));
	sleep(MEASURE_S);
	c1 = cpu_s(pid);
	t1 = mono();
	scans_of(dir, &iv1, &sc1, births, sizeof(births));
	waitpid(pid, &status, 0);
	rmdir(dir);
	if (c0 < 0 || c1 < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_live: the run of %d threads failed (status %d)\n", nr,
			status);
		return 1;
	}
	printf("live: powersched run (%s) managing %d threads waking every %ld ms, 500 ms "
	       "interval: %.3f s of CPU in %.1f s wall = %.3f%% of one CPU (%d of %d "
	       "intervals read the load; new tasks from %s)\n",
	       backend, nr, period, c1 - c0, t1 - t0, 100 * (c1 - c0) / (t1 - t0), sc1 - sc0, iv1 - iv0,
	       births);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { int nr; long period; } cases[] = {
		{ 1000, 1000 }, { 10000, 1000 }, { 30000, 1000 }, { 1000, 100 },
	};
	const char *ps = argc > 1 ? argv[1] : "build/powersched";
	char self[4096];
	ssize_t n;
	size_t i;
	int r = 0;

	if (argc == 5 && !strcmp(argv[1], "--worker")) {
		period_ms = atol(argv[3]);
		return run_workers(atoi(argv[2]), atoi(argv[4]));
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		perror("bench_live");
		return 1;
	}
	self[n] = '\0';
	if (argc == 4 || argc == 5)
		return one_case(ps, self, atoi(argv[2]), atol(argv[3]),
				argc == 5 ? argv[4] : "affinity");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		r |= one_case(ps, self, cases[i].nr, cases[i].period, "affinity");
	return r;
}
