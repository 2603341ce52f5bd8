// SPDX-License-Identifier: MIT
/*
 * The guest's measuring tool, independent of powersched's own code: reads
 * where threads are (field 39 of /proc/PID/task/TID/stat) and what they may
 * use (Cpus_allowed_list), and the topology from sysfs.
 *   probe place PREFIX    threads of the processes whose name starts with PREFIX:
 *                         "threads=N pkg0=A pkg1=B cores=C shared=S"
 *                         (S: cores holding two of them)
 *   probe masks PREFIX    "N LIST" per distinct Cpus_allowed_list
 *   probe started PREFIX  uptime at which the youngest of those threads was
 *                         created (field 22): exact, however late we look
 *   probe uptime          seconds since boot (two decimals)
 *   probe sleep N         sleep N seconds as "ps-watchdog" (the guest's
 *                         watchdog: no scenario's killall sleep ends it)
 *   probe threads N S     a process "ps-fill" of N threads (and its main
 *                         one) that sleep S seconds: many threads that live
 *   probe as UID NAME S   a process of user UID named NAME (its comm) that
 *                         sleeps S seconds: another user's process with a
 *                         name that means something to a root tool
 *   probe until PREFIX TEXT TIMEOUT_S
 *                         poll "place" every 20 ms until its line starts
 *                         with TEXT; print the uptime then, or "never".
 *                         Started before the event (watch_start), its own
 *                         start-up (seconds in a loaded TCG guest) is not
 *                         in the figure.
 *   probe log PREFIX      every 200 ms, "UPTIME PLACE-LINE busy=K" (until
 *                         killed); one process, so the times are the
 *                         sampling times. K: those threads runnable (run +
 *                         run-queue wait, schedstat) for half the time or
 *                         more since the last sample: the load that has
 *                         arrived (a worker that exists but has not begun
 *                         its loop, seconds in a loaded TCG guest, is not)
 *   probe activity PREFIX MS
 *                         every MS ms until no process named PREFIX is left:
 *                         while such a process has threads besides the main
 *                         one (not while rt-app calibrates), which of those
 *                         threads run (state R) and on which CPU (field 39);
 *                         their run time (schedstat) since the last look is
 *                         put on that CPU. Prints the busy estimate of the
 *                         packages and cores (per core and per package, that
 *                         run time over the span, at most 1 each, summed),
 *                         the same from the samples (spkgs, scores: means of
 *                         the packages and cores holding a running thread),
 *                         and migrations per second (se.nr_migrations):
 *                         and the run time per core, PACKAGE.CORE:SECONDS:
 *                         "samples=N secs=S pkgs=P cores=C spkgs= scores=
 *                         migr_s=M busy=0.3:0.81,1.0:0.80"
 *   probe stats PREFIX MS every MS ms (until killed), what the kernel says
 *                         about those threads over the last period:
 *                         "UPTIME thr=N run=R wait=W R=Q qcpus=C
 *                         some=S full=F busy=B cpus=D pkgs=P allowed=A"
 *                         R, W: their schedstat run and run-queue wait in
 *                         CPUs; Q: how many are in state R now; C: CPUs
 *                         with two or more of them in state R now; S, F:
 *                         PSI cpu some/full of their cgroup (fraction of
 *                         the period); B: busy CPUs of the machine
 *                         (/proc/stat: tick-sampled, it under-reads in a
 *                         TCG guest); D: distinct CPUs they are on now
 *                         (field 39: the CPU each last ran on); P: the
 *                         packages of those CPUs; A: CPUs in the first
 *                         thread's Cpus_allowed_list
 */
#include <pthread.h>
#include <time.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int read_int_sysfs(const char *fmt, int cpu)
{
	char path[128];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), fmt, cpu);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* package and core of each CPU, read once */
static int read_int(const char *fmt, int cpu)
{
	static int cache[2][4096], have[2][4096];
	int k = strstr(fmt, "core_id") != NULL;

	if (cpu < 0 || cpu >= 4096)
		return -1;
	if (!have[k][cpu]) {
		cache[k][cpu] = read_int_sysfs(fmt, cpu);
		have[k][cpu] = 1;
	}
	return cache[k][cpu];
}

struct th {
	long tid;
	unsigned long long runnable; /* schedstat run + wait, ns (collect_sched) */
	int cpu;
	unsigned long long start; /* field 22, clock ticks after boot */
	char mask[256];
};

static int collect_sched; /* collect() reads each thread's schedstat too */

static int collect(const char *prefix, struct th *out, int max, int want_mask)
{
	DIR *p = opendir("/proc"), *t;
	struct dirent *a, *b;
	char path[600], buf[2048];
	int n = 0;

	while (p && (a = readdir(p))) {
		if (a->d_name[0] < '0' || a->d_name[0] > '9')
			continue;
		/* only processes whose own name has the prefix: a third of the
		 * reads, which matters in a TCG guest under load */
		snprintf(path, sizeof(path), "/proc/%s/comm", a->d_name);
		{
			FILE *c = fopen(path, "r");
			char comm[64] = "";

			if (!c)
				continue;
			if (!fgets(comm, sizeof(comm), c))
				comm[0] = '\0';
			fclose(c);
			if (strncmp(comm, prefix, strlen(prefix)))
				continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/task", a->d_name);
		t = opendir(path);
		while (t && (b = readdir(t)) && n < max) {
			FILE *f;
			char *open, *close, *s;
			int field;

			if (b->d_name[0] < '0' || b->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", a->d_name, b->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
			fclose(f);
			open = strchr(buf, '(');
			close = strrchr(buf, ')');
			if (!open || !close || strncmp(open + 1, prefix, strlen(prefix)))
				continue;
			s = close + 2; /* field 3 */
			for (field = 3; field < 39 && s; field++) {
				if (field == 22)
					out[n].start = strtoull(s, NULL, 10);
				s = strchr(s, ' ');
				if (s)
					s++;
			}
			if (!s)
				continue;
			out[n].cpu = atoi(s);
			out[n].tid = atol(b->d_name);
			out[n].runnable = 0;
			out[n].mask[0] = '\0';
			if (collect_sched) {
				unsigned long long r = 0, w = 0;

				snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", a->d_name,
					 b->d_name);
				f = fopen(path, "r");
				if (f) {
					if (fscanf(f, "%llu %llu", &r, &w) != 2)
						r = w = 0;
					fclose(f);
				}
				out[n].runnable = r + w;
			}
			if (want_mask) {
				snprintf(path, sizeof(path), "/proc/%s/task/%s/status", a->d_name,
					 b->d_name);
				f = fopen(path, "r");
				while (f && fgets(buf, sizeof(buf), f))
					if (!strncmp(buf, "Cpus_allowed_list:", 18)) {
						sscanf(buf + 18, "%255s", out[n].mask);
						break;
					}
				if (f)
					fclose(f);
			}
			n++;
		}
		if (t)
			closedir(t);
	}
	if (p)
		closedir(p);
	return n;
}

static double uptime(void)
{
	FILE *f = fopen("/proc/uptime", "r");
	double u = 0;

	if (f) {
		if (fscanf(f, "%lf", &u) != 1)
			u = 0;
		fclose(f);
	}
	return u;
}

static void place(const char *prefix, char *out, size_t len);
static void place_of(const struct th *th, int n, char *out, size_t len);
static void stats(const char *prefix, int ms);

/* nr_migrations of every tracked thread, by TID */
#define ACT_MAX 4096
static long act_tid[ACT_MAX], act_first[ACT_MAX], act_last[ACT_MAX];
static unsigned long long act_run[ACT_MAX]; /* schedstat ns at the last look */
static double cpu_busy[4096];               /* seconds, by CPU */
static int act_n;

static unsigned long long read_runtime(const char *pid, const char *tid)
{
	char path[600];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", pid, tid);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static long read_migrations(const char *pid, const char *tid)
{
	char path[600], line[256];
	FILE *f;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/%s/task/%s/sched", pid, tid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *c = strchr(line, ':');

			if (c)
				v = atol(c + 1);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* One sample: running non-main threads of PREFIX processes. Return: the
 * number of such processes. */
static int activity_sample(const char *prefix, int *pkgs, int *cores, int *threads)
{
	static char core_seen[2][4096];
	DIR *p = opendir("/proc"), *t;
	struct dirent *a, *b;
	char path[600], buf[2048], comm[64];
	int procs = 0, pk[2] = { 0, 0 }, i;

	memset(core_seen, 0, sizeof(core_seen));
	*cores = 0;
	*threads = 0;
	while (p && (a = readdir(p))) {
		FILE *c;

		if (a->d_name[0] < '0' || a->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", a->d_name);
		c = fopen(path, "r");
		if (!c)
			continue;
		if (!fgets(comm, sizeof(comm), c))
			comm[0] = '\0';
		fclose(c);
		if (strncmp(comm, prefix, strlen(prefix)))
			continue;
		procs++;
		snprintf(path, sizeof(path), "/proc/%s/task", a->d_name);
		t = opendir(path);
		while (t && (b = readdir(t))) {
			FILE *f;
			char *close, *s, state;
			int field, cpu, pkg, core;
			long tid = atol(b->d_name), m;
			unsigned long long run;

			if (b->d_name[0] < '0' || b->d_name[0] > '9' || !strcmp(b->d_name, a->d_name))
				continue;
			(*threads)++;
			m = read_migrations(a->d_name, b->d_name);
			run = read_runtime(a->d_name, b->d_name);
			for (i = 0; i < act_n && act_tid[i] != tid; i++)
				;
			if (i == act_n && act_n < ACT_MAX) {
				act_tid[act_n] = tid;
				act_first[act_n] = act_last[act_n] = m;
				act_run[act_n] = 0; /* its run time so far counts */
				act_n++;
			} else if (i < act_n && m >= 0) {
				act_last[i] = m;
			}
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", a->d_name, b->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
			fclose(f);
			close = strrchr(buf, ')');
			if (!close)
				continue;
			state = close[2];
			s = close + 2;
			for (field = 3; field < 39 && s; field++) {
				s = strchr(s, ' ');
				if (s)
					s++;
			}
			if (!s)
				continue;
			cpu = atoi(s);
			/* run time since the last look, on the CPU it is on now */
			if (i < ACT_MAX && cpu >= 0 && cpu < 4096 && run >= act_run[i]) {
				cpu_busy[cpu] += (run - act_run[i]) * 1e-9;
				act_run[i] = run;
			}
			if (state != 'R')
				continue;
			pkg = read_int("/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
			core = read_int("/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
			if (pkg < 0 || pkg > 1 || core < 0 || core >= 4096)
				continue;
			pk[pkg] = 1;
			if (!core_seen[pkg][core]) {
				core_seen[pkg][core] = 1;
				(*cores)++;
			}
		}
		if (t)
			closedir(t);
	}
	if (p)
		closedir(p);
	*pkgs = pk[0] + pk[1];
	return procs;
}

static int activity(const char *prefix, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	double t0 = -1, t1 = 0, spk = 0, sco = 0, waited = uptime();
	long n = 0, mig = 0;
	int i;

	for (;;) {
		int pkgs, cores, threads, procs = activity_sample(prefix, &pkgs, &cores, &threads);
		double now = uptime();

		if (!procs && t0 >= 0)
			break;
		if (!procs && now - waited > 60)
			break; /* it never came */
		if (procs && threads) { /* not while the main thread calibrates */
			if (t0 < 0)
				t0 = now;
			t1 = now;
			n++;
			spk += pkgs;
			sco += cores;
		}
		nanosleep(&ts, NULL);
	}
	double span = t1 > t0 ? t1 - t0 : 0, pk_b[2] = { 0, 0 }, ebusy_pk = 0, ebusy_co = 0;
	static double core_b[2][4096];

	for (i = 0; i < act_n; i++)
		mig += act_last[i] - act_first[i];
	/* busy estimate: per core and per package, the run time of the
	 * threads on its CPUs over the span, at most 1 */
	for (i = 0; i < 4096; i++) {
		int pkg, core;

		if (cpu_busy[i] <= 0)
			continue;
		pkg = read_int("/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
		core = read_int("/sys/devices/system/cpu/cpu%d/topology/core_id", i);
		if (pkg < 0 || pkg > 1 || core < 0 || core >= 4096)
			continue;
		pk_b[pkg] += cpu_busy[i];
		core_b[pkg][core] += cpu_busy[i];
	}
	for (i = 0; span > 0 && i < 2; i++) {
		int c;

		ebusy_pk += pk_b[i] / span > 1 ? 1 : pk_b[i] / span;
		for (c = 0; c < 4096; c++)
			ebusy_co += core_b[i][c] / span > 1 ? 1 : core_b[i][c] / span;
	}
	printf("samples=%ld secs=%.2f pkgs=%.3f cores=%.3f spkgs=%.3f scores=%.3f migr_s=%.2f busy=",
	       n, span, ebusy_pk, ebusy_co, n ? spk / n : 0, n ? sco / n : 0,
	       span > 0 ? mig / span : 0);
	/* the run time per core, for the host to scale: PACKAGE.CORE:SECONDS */
	{
		int c, first = 1;

		for (i = 0; i < 2; i++)
			for (c = 0; c < 4096; c++)
				if (core_b[i][c] > 0) {
					printf("%s%d.%d:%.4f", first ? "" : ",", i, c, core_b[i][c]);
					first = 0;
				}
		printf("%s\n", first ? "none" : "");
	}
	return n ? 0 : 1;
}

static void *fill_thread(void *arg)
{
	struct timespec ts = { (time_t)(long)arg, 0 };

	while (nanosleep(&ts, &ts))
		;
	return NULL;
}

int main(int argc, char **argv)
{
	static struct th th[8192];
	int n, i, j;

	if (argc == 5 && !strcmp(argv[1], "as")) {
		struct timespec ts = { atoi(argv[4]), 0 };
		uid_t uid = (uid_t)atoi(argv[2]);

		if (setgid(uid) || setuid(uid) || prctl(PR_SET_NAME, argv[3]))
			return 1;
		nanosleep(&ts, NULL);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "until")) {
		double end = uptime() + atof(argv[4]);
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		char line[256];
		int polls = 0;

		for (;;) {
			double now = uptime();

			place(argv[2], line, sizeof(line));
			if (getenv("PROBE_DEBUG"))
				fprintf(stderr, "until: %.2f [%s]\n", now, line);
			if (!strncmp(line, argv[3], strlen(argv[3]))) {
				printf("%.2f\n", now);
				return 0;
			}
			polls++;
			if (now > end) {
				printf("never\n");
				fprintf(stderr, "probe until: %d polls, last: %s\n", polls, line);
				return 1;
			}
			nanosleep(&ts, NULL);
		}
	}

	if (argc == 3 && !strcmp(argv[1], "log")) {
		static struct th cur[8192], prev[8192];
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		char line[256];
		double t_prev = 0;
		int n, np = 0, i, k, busy;

		setvbuf(stdout, NULL, _IOLBF, 0);
		collect_sched = 1;
		for (;;) {
			double now = uptime();

			n = collect(argv[2], cur, 8192, 0);
			place_of(cur, n, line, sizeof(line));
			/* runnable half the time or more since the last sample;
			 * a thread first seen now is counted from the next */
			busy = 0;
			for (i = 0; i < n; i++)
				for (k = 0; k < np; k++)
					if (prev[k].tid == cur[i].tid) {
						busy += cur[i].runnable >= prev[k].runnable &&
							(double)(cur[i].runnable - prev[k].runnable) >=
								0.5e9 * (now - t_prev);
						break;
					}
			printf("%.2f %s busy=%d\n", now, line, busy);
			memcpy(prev, cur, sizeof(cur[0]) * (size_t)n);
			np = n;
			t_prev = now;
			nanosleep(&ts, NULL);
		}
	}
	if (argc == 4 && !strcmp(argv[1], "activity"))
		return activity(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "threads")) {
		long n = atol(argv[2]), secs = atol(argv[3]), i;
		pthread_t t;

		prctl(PR_SET_NAME, "ps-fill", 0, 0, 0);
		for (i = 0; i < n; i++)
			if (pthread_create(&t, NULL, fill_thread, (void *)secs))
				return 1;
		fill_thread((void *)secs);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "sleep")) {
		struct timespec ts = { atoi(argv[2]), 0 };

		/* a name no scenario counts, looks for or kills */
		prctl(PR_SET_NAME, "ps-watchdog", 0, 0, 0);
		while (nanosleep(&ts, &ts))
			;
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "uptime")) {
		FILE *f = fopen("/proc/uptime", "r");
		double u = 0;

		if (f && fscanf(f, "%lf", &u) == 1)
			printf("%.2f\n", u);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "stats")) {
		stats(argv[2], atoi(argv[3]) > 0 ? atoi(argv[3]) : 500);
		return 0;
	}
	if (argc != 3)
		return 2;
	n = collect(argv[2], th, 8192, !strcmp(argv[1], "masks"));
	if (!strcmp(argv[1], "place")) {
		char line[256];

		place(argv[2], line, sizeof(line));
		printf("%s\n", line);
		return 0;
	}
	if (!strcmp(argv[1], "started")) {
		unsigned long long last = 0;

		for (i = 0; i < n; i++)
			if (th[i].start > last)
				last = th[i].start;
		printf("%.2f\n", (double)last / (double)sysconf(_SC_CLK_TCK));
		return n ? 0 : 1;
	}
	if (!strcmp(argv[1], "masks")) {
		for (i = 0; i < n; i++) {
			int c = 0, seen = 0;

			for (j = 0; j < i; j++)
				seen |= !strcmp(th[j].mask, th[i].mask);
			if (seen)
				continue;
			for (j = i; j < n; j++)
				c += !strcmp(th[j].mask, th[i].mask);
			printf("%d %s\n", c, th[i].mask);
		}
		return 0;
	}
	return 2;
}

static void place(const char *prefix, char *out, size_t len)
{
	static struct th th[8192];

	place_of(th, collect(prefix, th, 8192, 0), out, len);
}

static void place_of(const struct th *th, int n, char *out, size_t len)
{
	static int per_core[4096][2];
	int pk[2] = { 0, 0 }, cores = 0, shared = 0, i, j;

	{
		memset(per_core, 0, sizeof(per_core));
		for (i = 0; i < n; i++) {
			int pkg = read_int("/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
					   th[i].cpu);
			int core = read_int("/sys/devices/system/cpu/cpu%d/topology/core_id", th[i].cpu);

			if (pkg < 0 || pkg > 1 || core < 0 || core >= 4096)
				continue;
			pk[pkg]++;
			per_core[core][pkg]++;
		}
		for (i = 0; i < 4096; i++)
			for (j = 0; j < 2; j++) {
				cores += per_core[i][j] > 0;
				shared += per_core[i][j] > 1;
			}
		snprintf(out, len, "threads=%d pkg0=%d pkg1=%d cores=%d shared=%d", n, pk[0], pk[1],
			 cores, shared);
	}
}

/* ---- probe stats ---- */

struct st_thr {
	int tid;
	unsigned long long run, wait;
};

static int cmp_tid(const void *a, const void *b)
{
	return ((const struct st_thr *)a)->tid - ((const struct st_thr *)b)->tid;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (int)n;
}

/* PSI totals (us) of a cpu.pressure file: some, full */
static void psi_totals(const char *path, unsigned long long *some, unsigned long long *full)
{
	char buf[512], *p;

	*some = *full = 0;
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return;
	p = strstr(buf, "some");
	p = p ? strstr(p, "total=") : NULL;
	if (p)
		*some = strtoull(p + 6, NULL, 10);
	p = strstr(buf, "full");
	p = p ? strstr(p, "total=") : NULL;
	if (p)
		*full = strtoull(p + 6, NULL, 10);
}

static int count_list(const char *s)
{
	int n = 0, a, b;

	while (*s >= '0' && *s <= '9') {
		a = b = (int)strtol(s, (char **)&s, 10);
		if (*s == '-')
			b = (int)strtol(s + 1, (char **)&s, 10);
		n += b - a + 1;
		if (*s == ',')
			s++;
	}
	return n;
}

static void stats(const char *prefix, int ms)
{
	static struct st_thr prev[8192], cur[8192];
	static unsigned long long cbusy[4096], pbusy[4096];
	static int rq[4096];
	static char statbuf[1 << 18];
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	unsigned long long some0 = 0, full0 = 0, some, full;
	long hz = sysconf(_SC_CLK_TCK);
	double t0 = uptime();
	int nprev = 0, first = 1;
	char cg[600] = "", allowed[256] = "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		DIR *p = opendir("/proc"), *t;
		struct dirent *a, *b;
		char path[700], buf[2048];
		double now = uptime(), dt = now - t0, run = 0, wait = 0, busy = 0;
		int n = 0, nr = 0, qc = 0, distinct = 0, pk_act[2] = { 0, 0 }, i, j;
		static unsigned char on[4096];

		memset(rq, 0, sizeof(rq));
		memset(on, 0, sizeof(on));
		while (p && (a = readdir(p))) {
			char comm[64] = "";

			if (a->d_name[0] < '0' || a->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/comm", a->d_name);
			if (read_text(path, comm, sizeof(comm)) <= 0 ||
			    strncmp(comm, prefix, strlen(prefix)))
				continue;
			if (!cg[0]) {
				char *c;

				snprintf(path, sizeof(path), "/proc/%s/cgroup", a->d_name);
				if (read_text(path, buf, sizeof(buf)) > 0 && (c = strstr(buf, "0::"))) {
					c[3 + strcspn(c + 3, "\n")] = '\0';
					snprintf(cg, sizeof(cg), "/sys/fs/cgroup%s/cpu.pressure",
						 strcmp(c + 3, "/") ? c + 3 : "");
				}
			}
			if (!allowed[0]) {
				FILE *f;

				snprintf(path, sizeof(path), "/proc/%s/status", a->d_name);
				f = fopen(path, "r");
				while (f && fgets(buf, sizeof(buf), f))
					if (!strncmp(buf, "Cpus_allowed_list:", 18)) {
						sscanf(buf + 18, "%255s", allowed);
						break;
					}
				if (f)
					fclose(f);
			}
			snprintf(path, sizeof(path), "/proc/%s/task", a->d_name);
			t = opendir(path);
			while (t && (b = readdir(t)) && n < 8192) {
				char *cl, *s;
				int field, cpu;

				if (b->d_name[0] < '0' || b->d_name[0] > '9')
					continue;
				snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", a->d_name,
					 b->d_name);
				if (read_text(path, buf, sizeof(buf)) <= 0)
					continue;
				cl = strrchr(buf, ')');
				if (!cl || !strstr(buf, prefix))
					continue;
				s = cl + 2;
				if (*s == 'R')
					nr++;
				for (field = 3; field < 39 && s; field++) {
					s = strchr(s, ' ');
					if (s)
						s++;
				}
				if (!s)
					continue;
				cpu = atoi(s);
				if (cpu >= 0 && cpu < 4096) {
					int pkg = read_int("/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
							   cpu);

					if (pkg >= 0 && pkg < 2)
						pk_act[pkg] = 1;
					on[cpu] = 1;
					if (cl[2] == 'R' && ++rq[cpu] == 2)
						qc++;
				}
				snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", a->d_name,
					 b->d_name);
				if (read_text(path, buf, sizeof(buf)) <= 0)
					continue;
				cur[n].tid = atoi(b->d_name);
				if (sscanf(buf, "%llu %llu", &cur[n].run, &cur[n].wait) == 2)
					n++;
			}
			if (t)
				closedir(t);
		}
		if (p)
			closedir(p);
		qsort(cur, (size_t)n, sizeof(cur[0]), cmp_tid);
		for (i = 0, j = 0; i < n; i++) {
			while (j < nprev && prev[j].tid < cur[i].tid)
				j++;
			if (j < nprev && prev[j].tid == cur[i].tid) {
				run += (double)(cur[i].run - prev[j].run) / 1e9;
				wait += (double)(cur[i].wait - prev[j].wait) / 1e9;
			}
		}
		for (i = 0; i < 4096; i++)
			distinct += on[i];
		memcpy(prev, cur, sizeof(cur[0]) * (size_t)n);
		nprev = n;
		psi_totals(cg, &some, &full);
		/* per-CPU busy ticks */
		if (read_text("/proc/stat", statbuf, sizeof(statbuf)) > 0) {
			char *l = statbuf;

			while ((l = strstr(l, "\ncpu"))) {
				unsigned long long v[8] = { 0 }, bz;
				int cpu;

				l += 4;
				if (sscanf(l, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
					   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 ||
				    cpu < 0 || cpu >= 4096)
					continue;
				bz = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
				cbusy[cpu] = bz;
				if (!first && dt > 0) {
					busy += (double)(bz - pbusy[cpu]) / ((double)hz * dt);
				}
				pbusy[cpu] = bz;
			}
		}
		if (!first && dt > 0)
			printf("%.2f thr=%d run=%.2f wait=%.2f R=%d qcpus=%d some=%.2f full=%.2f "
			       "busy=%.2f cpus=%d pkgs=%d allowed=%d\n",
			       now, n, run / dt, wait / dt, nr, qc,
			       (double)(some - some0) / 1e6 / dt, (double)(full - full0) / 1e6 / dt,
			       busy, distinct, pk_act[0] + pk_act[1], count_list(allowed));
		(void)cbusy;
		some0 = some;
		full0 = full;
		first = 0;
		t0 = now;
		cg[0] = allowed[0] = '\0';
		nanosleep(&ts, NULL);
	}
}
