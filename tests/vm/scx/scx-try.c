/* scx-try: load bpf/powersched.bpf.c (through its skeleton), publish one
 * decision (the CPUs' order, the allowed set), run a command under it with
 * policy SCHED_EXT, and report what the scheduler saw; then unload it and
 * print what the kernel said on exit. A test tool for the sched_ext backend,
 * built against Debian 12's libbpf 1.1 (static) for a 7.2 kernel.
 *
 * usage: scx-try [--order LIST] [--allowed LIST] [--interval MS]
 *                [--switch MS:LIST] [--no-link] -- CMD [ARG...]
 *   LIST: CPU ids, "0,4,1-3" (order keeps the given order; allowed is a set)
 *   --order     the policy's order of CPUs (default: 0..nproc-1)
 *   --allowed   the CPUs of the interval (default: all of --order)
 *   --interval  how often the grown bitmap is read and cleared (100 ms)
 *   --switch    after MS ms, publish LIST as the new allowed set
 *   --no-link   register the ops the libbpf 1.1 way (map update, no
 *               link): the scheduler then outlives this process
 *   --sample-from MS  from MS ms on, every 500 ms, note the CPU (from
 *               /proc/PID/task/TID/stat) of every running task of policy
 *               SCHED_EXT (with the partial switch: the command's), and
 *               print how many samples each CPU had
 *   --sample-comm PREFIX  sample only tasks whose comm starts with PREFIX
 *               (a check about one program, not whatever else of the
 *               command happens to run: a shell or taskset before exec)
 * Lines on stdout start with "scx-try: "; errors are one line on stderr.
 * Exit status: the command's (128+N for signal N), 1 on an error of ours.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "powersched_scx.h"
#include "powersched_scx_user.h"
#include "powersched.skel.h"

static const char *const stat_names[] = {
	"direct", "set", "pinned", "fallback", "last", "kick", "grow", "disp_set", "disp_fallback", "bad_cpu",
	"set_wake", "stray", "reenq", "out", "load_full", "move",
};
_Static_assert(sizeof(stat_names) / sizeof(stat_names[0]) == PS_NR_STAT, "a name for each counter");

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("scx-try: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("scx-try: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* "0,4,1-3" -> out[] in the order given; returns the count, -1 if bad */
static int parse_list(const char *s, int *out, int max, int ncpu)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (long c = a; c <= b; c++) {
			if (c >= ncpu || n >= max)
				return -1;
			for (int i = 0; i < n; i++)
				if (out[i] == c)
					return -1;
			out[n++] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return n;
}

/* a bitmap as "0-3,6" */
static void fmt_mask(const __u64 *bm, int ncpu, char *buf, size_t len)
{
	size_t off = 0;
	int c = 0;

	buf[0] = 0;
	while (c < ncpu) {
		int a;

		if (!((bm[c / 64] >> (c % 64)) & 1)) {
			c++;
			continue;
		}
		a = c;
		while (c + 1 < ncpu && ((bm[(c + 1) / 64] >> ((c + 1) % 64)) & 1))
			c++;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%d", off ? "," : "", a);
		if (c > a)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "-%d", c);
		c++;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

static void read_sysfs(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* publish a decision: write the copy not in force, then the sequence */
static void publish(struct ps_scx__bss *b, const int *order, int nr_order, const int *allowed, int nr_allowed)
{
	__u64 next = __atomic_load_n(&b->ps_seq, __ATOMIC_RELAXED) + 1;
	struct ps_scx_cfg *c = &b->ps_cfg[next & 1];

	memset(c, 0, sizeof(*c));
	for (int i = 0; i < nr_order; i++)
		c->order[i] = order[i];
	c->nr_order = (__u32)nr_order;
	for (int i = 0; i < nr_allowed; i++)
		c->allowed[allowed[i] / 64] |= 1ULL << (allowed[i] % 64);
	__atomic_store_n(&b->ps_seq, next, __ATOMIC_RELEASE);
}

/* one look at where the running SCHED_EXT tasks are: hist[cpu]++ for
 * each task in state R with policy 7 (/proc/PID/task/TID/stat: field 3
 * state, 39 processor, 41 policy); returns the samples taken */
static long sample_cpus(long *hist, int ncpu, const char *comm)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[600];
		DIR *td;
		struct dirent *t;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		td = opendir(path);
		if (!td)
			continue;
		while ((t = readdir(td))) {
			char buf[1024], *p;
			int fd, len, field = 3, cpu = -1, policy = -1;
			char state = 0;

			if (!isdigit((unsigned char)t->d_name[0]))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", e->d_name, t->d_name);
			fd = open(path, O_RDONLY);
			if (fd < 0)
				continue;
			len = (int)read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (len <= 0)
				continue;
			buf[len] = 0;
			p = strrchr(buf, ')');
			if (!p)
				continue;
			if (comm) {
				char *o = strchr(buf, '(');

				if (!o || o > p || strncmp(o + 1, comm, strlen(comm)))
					continue;
			}
			for (p = strtok(p + 1, " "); p; p = strtok(NULL, " "), field++) {
				if (field == 3)
					state = p[0];
				else if (field == 39)
					cpu = atoi(p);
				else if (field == 41) {
					policy = atoi(p);
					break;
				}
			}
			if (state == 'R' && policy == PS_SCHED_EXT && cpu >= 0 && cpu < ncpu) {
				hist[cpu]++;
				n++;
			}
		}
		closedir(td);
	}
	closedir(d);
	return n;
}

static volatile sig_atomic_t got_signal;
static void on_signal(int sig)
{
	got_signal = sig;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void usage(void)
{
	fprintf(stderr, "usage: scx-try [--order LIST] [--allowed LIST] [--interval MS] [--switch MS:LIST] [--sample-from MS] [--sample-comm PREFIX] [--no-link] -- CMD [ARG...]\n");
	exit(2);
}

static void print_exit(const struct ps_scx_exit *e)
{
	char reason[PS_SCX_REASON_LEN + 1], msg[PS_SCX_MSG_LEN + 1];

	memcpy(reason, e->reason, PS_SCX_REASON_LEN);
	reason[PS_SCX_REASON_LEN] = 0;
	memcpy(msg, e->msg, PS_SCX_MSG_LEN);
	msg[PS_SCX_MSG_LEN] = 0;
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '"')
			*p = ' ';
	say("exit kind=%d code=%lld reason=\"%s\" msg=\"%s\"", e->kind, (long long)e->exit_code, reason, msg);
}

int main(int argc, char **argv)
{
	static int order[PS_SCX_MAX_CPUS], allowed[PS_SCX_MAX_CPUS], sw_allowed[PS_SCX_MAX_CPUS];
	static long hist[PS_SCX_MAX_CPUS];
	const char *sample_comm = NULL;
	int nr_order = -1, nr_allowed = -1, nr_sw = -1, interval = 100, sw_ms = -1, use_link = 1, sample_from = -1;
	const char *order_s = NULL, *allowed_s = NULL;
	int ncpu = libbpf_num_possible_cpus();
	char state[64], ops[128], buf[8192];
	int argi = 1;

	if (ncpu <= 0 || ncpu > PS_SCX_MAX_CPUS)
		die("%d possible CPUs: this build handles 1 to %d", ncpu, PS_SCX_MAX_CPUS);
	for (; argi < argc; argi++) {
		const char *a = argv[argi];

		if (!strcmp(a, "--")) {
			argi++;
			break;
		} else if (!strcmp(a, "--order") && argi + 1 < argc) {
			order_s = argv[++argi];
		} else if (!strcmp(a, "--allowed") && argi + 1 < argc) {
			allowed_s = argv[++argi];
		} else if (!strcmp(a, "--interval") && argi + 1 < argc) {
			interval = atoi(argv[++argi]);
			if (interval < 1 || interval > 60000)
				die("--interval: 1 to 60000 ms");
		} else if (!strcmp(a, "--switch") && argi + 1 < argc) {
			const char *v = argv[++argi], *colon = strchr(v, ':');

			sw_ms = atoi(v);
			if (!colon || sw_ms < 0 || (nr_sw = parse_list(colon + 1, sw_allowed, PS_SCX_MAX_CPUS, ncpu)) <= 0)
				die("--switch MS:LIST: bad value '%s'", v);
		} else if (!strcmp(a, "--sample-comm") && argi + 1 < argc) {
			sample_comm = argv[++argi];
		} else if (!strcmp(a, "--sample-from") && argi + 1 < argc) {
			sample_from = atoi(argv[++argi]);
			if (sample_from < 0)
				die("--sample-from: MS >= 0");
		} else if (!strcmp(a, "--no-link")) {
			use_link = 0;
		} else {
			usage();
		}
	}
	if (argi >= argc)
		usage();
	if (order_s) {
		nr_order = parse_list(order_s, order, PS_SCX_MAX_CPUS, ncpu);
		if (nr_order <= 0)
			die("--order: bad CPU list '%s' (ids below %d, each once)", order_s, ncpu);
	} else {
		for (nr_order = 0; nr_order < ncpu; nr_order++)
			order[nr_order] = nr_order;
	}
	if (allowed_s) {
		nr_allowed = parse_list(allowed_s, allowed, PS_SCX_MAX_CPUS, ncpu);
		if (nr_allowed <= 0)
			die("--allowed: bad CPU list '%s' (ids below %d, each once)", allowed_s, ncpu);
	} else {
		memcpy(allowed, order, sizeof(int) * (size_t)nr_order);
		nr_allowed = nr_order;
	}

	/* sched_ext there, and free? */
	if (access("/sys/kernel/sched_ext/state", R_OK) != 0)
		die("this kernel has no sched_ext (/sys/kernel/sched_ext/state: %s); it needs CONFIG_SCHED_CLASS_EXT=y", strerror(errno));
	read_sysfs("/sys/kernel/sched_ext/state", state, sizeof(state));
	if (strcmp(state, "disabled")) {
		read_sysfs("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops));
		die("sched_ext is busy: state '%s', scheduler '%s' loaded; unload it first", state, ops[0] ? ops : "?");
	}

	struct ps_scx *skel = ps_scx__open();
	if (!skel)
		die("cannot open the BPF object: %s", strerror(errno));
	/* libbpf 1.1 knows no struct_ops.s/ section: init is made sleepable
	 * here; with BPF_F_LINK the map is registered through a link, so the
	 * kernel drops the scheduler when this process goes away */
	/* the partial switch (ps_ops); the daemon's full switch (ps_ops_all)
	 * is not made */
	if (bpf_map__set_autocreate(skel->maps.ps_ops_all, false))
		die("cannot leave out ps_ops_all");
	if (bpf_program__set_flags(skel->progs.ps_init, BPF_F_SLEEPABLE))
		die("cannot make init sleepable");
	if (use_link && bpf_map__set_map_flags(skel->maps.ps_ops, BPF_F_LINK))
		die("cannot set BPF_F_LINK on the ops map");
	publish(skel->bss, order, nr_order, allowed, nr_allowed);
	if (ps_scx__load(skel))
		die("cannot load the BPF scheduler (the verifier's log is above): %s", strerror(errno));

	struct bpf_link *ll = bpf_map__attach_struct_ops(skel->maps.ps_ops);
	int link_fd = -1;

	if (!ll)
		die("cannot register the ops map: %s", strerror(errno));
	if (use_link) {
		link_fd = bpf_link_create(bpf_map__fd(skel->maps.ps_ops), 0, PS_BPF_STRUCT_OPS, NULL);
		if (link_fd < 0) {
			int e = errno;

			bpf_link__destroy(ll);
			die("cannot attach the scheduler (BPF_LINK_CREATE struct_ops): %s", strerror(e));
		}
		/* the map update above only readied it; the link is the
		 * registration, and libbpf's link object must not delete the
		 * element */
		bpf_link__disconnect(ll);
		bpf_link__destroy(ll);
		ll = NULL;
	}
	read_sysfs("/sys/kernel/sched_ext/state", state, sizeof(state));
	read_sysfs("/sys/kernel/sched_ext/root/ops", ops, sizeof(ops));
	{
		char al[4096];
		size_t off = 0;

		fmt_mask(skel->bss->ps_cfg[skel->bss->ps_seq & 1].allowed, ncpu, al, sizeof(al));
		buf[0] = 0;
		for (int i = 0; i < nr_order && off < sizeof(buf) - 16; i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d", i ? "," : "", order[i]);
		say("attached %s (%s), state %s, order %s, allowed %s, seq %llu", ops[0] ? ops : "?",
		    use_link ? "link" : "map, no link", state, buf, al, (unsigned long long)skel->bss->ps_seq);
	}

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* the command is made SCHED_EXT by this process while it waits on a
	 * pipe before exec: it then wakes up under this scheduler (through
	 * ops.select_cpu), never running as an ext task where the fork put it;
	 * its children inherit the policy */
	int go[2];
	if (pipe(go))
		die("pipe: %s", strerror(errno));
	pid_t child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		char b;

		if (link_fd >= 0)
			close(link_fd);
		close(go[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(go[0], &b, 1) != 1)
			_exit(127); /* the loader failed: it said why */
		close(go[0]);
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "scx-try: error: cannot run %s: %s\n", argv[argi], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	{
		struct sched_param sp = { .sched_priority = 0 };
		char path[64], buf[512];

		/* wait until it sleeps on the pipe (state S): switched while
		 * running, it would go on as our task on the CPU it forked on
		 * until it blocks */
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)child);
		for (int i = 0; i < 2000; i++) {
			int fd = open(path, O_RDONLY), len = -1;
			char *p;

			if (fd >= 0) {
				len = (int)read(fd, buf, sizeof(buf) - 1);
				close(fd);
			}
			if (len > 0) {
				buf[len] = 0;
				p = strrchr(buf, ')');
				if (p && p[1] == ' ' && p[2] == 'S')
					break;
			}
			usleep(1000);
		}
		if (sched_setscheduler(child, PS_SCHED_EXT, &sp)) {
			int e = errno;

			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			die("sched_setscheduler(%d, SCHED_EXT): %s", (int)child, strerror(e));
		}
		if (write(go[1], "g", 1) != 1)
			die("cannot start the command: %s", strerror(errno));
		close(go[1]);
	}
	say("command pid %d under SCHED_EXT", (int)child);

	/* the command's first task as the scheduler's task storage has it
	 * (read through a pidfd while the task lives) */
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	struct { __u64 started, runtime_ns; } tv = { 0, 0 };
	long long tv_at = -1;
	__u64 grown_seen[PS_SCX_WORDS] = { 0 };
	long intervals = 0, grew = 0, samples = 0, looks = 0;
	long long t0 = now_ms(), next = t0, last_look = -1000000;
	int status = 0, exited_early = 0;

	for (;;) {
		pid_t w = waitpid(child, &status, WNOHANG);
		bool any = false;

		if (w == child)
			break;
		if (w < 0 && errno != EINTR)
			die("waitpid: %s", strerror(errno));
		if (got_signal) {
			kill(child, got_signal);
			got_signal = 0;
		}
		/* intervals on a fixed beat, whatever the work in them took */
		next += interval;
		if (next < now_ms())
			next = now_ms();
		{
			long long d = next - now_ms();
			struct timespec ts = { (time_t)(d / 1000), (long)(d % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
		intervals++;
		/* the interval: read and clear what grew (and say what was
		 * cleared, for the scheduler's stray check) */
		for (int i = 0; i < PS_SCX_WORDS; i++) {
			__u64 g = __atomic_exchange_n(&skel->bss->ps_grown[i], 0, __ATOMIC_ACQ_REL);

			__atomic_store_n(&skel->bss->ps_grown_prev[i], g, __ATOMIC_RELEASE);
			grown_seen[i] |= g;
			any |= g != 0;
		}
		/* a look costs (every task's stat file): every 500 ms only */
		if (sample_from >= 0 && now_ms() - t0 >= sample_from && now_ms() - last_look >= 500) {
			last_look = now_ms();
			samples += sample_cpus(hist, ncpu, sample_comm);
			looks++;
		}
		grew += any;
		if (pidfd >= 0 && bpf_map_lookup_elem(bpf_map__fd(skel->maps.ps_tasks), &pidfd, &tv) == 0)
			tv_at = now_ms() - t0;
		if (sw_ms >= 0 && now_ms() - t0 >= sw_ms) {
			char al[4096];

			publish(skel->bss, order, nr_order, sw_allowed, nr_sw);
			fmt_mask(skel->bss->ps_cfg[skel->bss->ps_seq & 1].allowed, ncpu, al, sizeof(al));
			say("switched at %lld ms: allowed %s, seq %llu", now_ms() - t0, al, (unsigned long long)skel->bss->ps_seq);
			sw_ms = -1;
		}
		if (!exited_early && __atomic_load_n(&skel->bss->ps_exit_info.done, __ATOMIC_ACQUIRE)) {
			say("the scheduler exited while the command ran:");
			print_exit(&skel->bss->ps_exit_info);
			exited_early = 1;
		}
	}
	say("command exited after %lld ms: %s %d", now_ms() - t0, WIFEXITED(status) ? "status" : "signal",
	    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	if (tv_at >= 0)
		say("command pid %d: runtime_ns=%llu in the task storage at %lld ms", (int)child,
		    (unsigned long long)tv.runtime_ns, tv_at);
	else
		say("command pid %d: not in the task storage (pidfd %d)", (int)child, pidfd);
	if (pidfd >= 0)
		close(pidfd);

	/* what the kernel saw */
	{
		size_t off = 0;
		__u64 total = 0;

		buf[0] = 0;
		for (int c = 0; c < ncpu; c++) {
			__u64 ns = __atomic_load_n(&skel->bss->ps_busy_ns[c], __ATOMIC_RELAXED);

			total += ns;
			if (ns && off < sizeof(buf) - 32)
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, " %d=%llu", c, (unsigned long long)ns);
		}
		say("busy_ns total=%llu%s", (unsigned long long)total, buf);
	}
	{
		char g[4096];

		for (int i = 0; i < PS_SCX_WORDS; i++)
			grown_seen[i] |= __atomic_exchange_n(&skel->bss->ps_grown[i], 0, __ATOMIC_ACQ_REL);
		fmt_mask(grown_seen, ncpu, g, sizeof(g));
		say("grown %s (in %ld of %ld intervals of %d ms)", g, grew, intervals, interval);
	}
	if (sample_from >= 0) {
		size_t off = 0;

		buf[0] = 0;
		for (int c = 0; c < ncpu; c++)
			if (hist[c] && off < sizeof(buf) - 32)
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d:%ld", off ? "," : "", c, hist[c]);
		say("samples %ld in %ld looks from %d ms%s%s, cpu:count %s", samples, looks, sample_from,
		    sample_comm ? " of comm " : "", sample_comm ? sample_comm : "", off ? buf : "none");
	}
	{
		size_t off = 0;

		for (int i = 0; i < PS_NR_STAT; i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, " %s=%llu", stat_names[i],
						(unsigned long long)skel->bss->ps_stat[i]);
		say("stats%s stray_ns=%llu", buf, (unsigned long long)skel->bss->ps_stray_ns);
	}

	/* unload: closing the link (or deleting the map's element) is the
	 * unregistration; the kernel runs ops.exit before it returns */
	if (link_fd >= 0)
		close(link_fd);
	else if (ll)
		bpf_link__destroy(ll);
	for (int i = 0; i < 100 && !__atomic_load_n(&skel->bss->ps_exit_info.done, __ATOMIC_ACQUIRE); i++)
		usleep(10000);
	read_sysfs("/sys/kernel/sched_ext/state", state, sizeof(state));
	if (__atomic_load_n(&skel->bss->ps_exit_info.done, __ATOMIC_ACQUIRE))
		print_exit(&skel->bss->ps_exit_info);
	else
		say("exit info missing: ops.exit did not run within 1 s");
	say("state after unload %s", state);
	ps_scx__destroy(skel);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}
