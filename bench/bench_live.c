// SPDX-License-Identifier: MIT
/*
 * Overhead of the live enforcer: powersched run (affinity backend, 500 ms
 * interval) manages a process of 1,000 threads that wake every 100 ms for
 * a little work; we read powersched's own CPU time (utime + stime, fields
 * 14 and 15 of /proc/PID/stat) over 20 s after a 2 s warm-up and print it
 * as a share of one CPU.
 *   usage: bench_live [PATH/TO/powersched]   (default build/powersched)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NR_THREADS 1000
#define WARMUP_S 2
#define MEASURE_S 20

static volatile int stop;

static void *worker(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	volatile unsigned long x = 0;
	int i;

	(void)arg;
	while (!stop) {
		for (i = 0; i < 20000; i++)
			x += (unsigned long)i;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static int run_workers(int seconds)
{
	pthread_t *t = calloc(NR_THREADS, sizeof(*t));
	pthread_attr_t attr;
	int i, n = 0;

	if (!t)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < NR_THREADS; i++)
		if (!pthread_create(&t[i], &attr, worker, NULL))
			n++;
	sleep((unsigned)seconds);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return n == NR_THREADS ? 0 : 1;
}

static double cpu_s(pid_t pid)
{
	char path[64], buf[2048], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f;
	int field;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	p += 2; /* field 3 */
	for (field = 3; field < 14 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *ps = argc > 1 ? argv[1] : "build/powersched";
	/* the state directory on tmpfs, as /run/powersched is */
	char self[4096], secs[16], dir[] = "/dev/shm/ps-bench-live.XXXXXX";
	double c0, c1, t0, t1;
	ssize_t n;
	pid_t pid;
	int status;

	if (argc == 3 && !strcmp(argv[1], "--worker"))
		return run_workers(atoi(argv[2]));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (access("/dev/shm", W_OK))
		memcpy(dir, "/tmp/ps-bench-live.XXXXXX", sizeof("/tmp/ps-bench-live.XXXXXX"));
	if (n <= 0 || !mkdtemp(dir)) {
		perror("bench_live");
		return 1;
	}
	self[n] = '\0';
	snprintf(secs, sizeof(secs), "%d", WARMUP_S + MEASURE_S + 1);
	pid = fork();
	if (pid == 0) {
		execl(ps, ps, "run", "--backend", "affinity", "--policy", "power", "--interval",
		      "500ms", "--quiet", "--state-dir", dir, "--", self, "--worker", secs,
		      (char *)NULL);
		perror("exec powersched");
		_exit(127);
	}
	sleep(WARMUP_S);
	c0 = cpu_s(pid);
	t0 = mono();
	sleep(MEASURE_S);
	c1 = cpu_s(pid);
	t1 = mono();
	waitpid(pid, &status, 0);
	rmdir(dir);
	if (c0 < 0 || c1 < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench_live: the run failed (status %d)\n", status);
		return 1;
	}
	printf("live: powersched run managing %d threads at a 500 ms interval: %.3f s of CPU "
	       "in %.1f s wall = %.2f%% of one CPU\n",
	       NR_THREADS, c1 - c0, t1 - t0, 100 * (c1 - c0) / (t1 - t0));
	return 0;
}
