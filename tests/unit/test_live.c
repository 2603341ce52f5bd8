// SPDX-License-Identifier: MIT
/* The live side's parsers, utilization, rate limit, config and sched_ext check. */
#include <errno.h>
#include <sched.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"
#include "ps/power.h"
#include "../../live/live_int.h"

/* A stat line as Linux 6.1 prints it, with a comm holding ") (" */
static const char *stat_line =
	"4242 (we (ird) x) R 4200 4242 4200 34816 4242 4194304 120 0 0 0 "
	"150 20 0 0 20 0 1 0 987654 10000000 300 18446744073709551615 1 1 0 0 0 0 0 "
	"0 0 0 0 0 17 5 0 0 0 0 0\n";

static void test_parse_stat(void **state)
{
	struct ps_live_stat st;

	(void)state;
	assert_int_equal(ps_live_parse_stat(stat_line, &st), 0);
	assert_int_equal(st.tid, 4242);
	assert_string_equal(st.comm, "we (ird) x");
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.ppid, 4200);
	assert_int_equal(st.flags, 4194304);
	assert_int_equal(st.nr_threads, 1);     /* field 20 */
	assert_int_equal(st.starttime, 987654); /* field 22 */
	assert_int_equal(st.cpu, 5);            /* field 39 */
	assert_int_equal(st.rt_policy, 0);      /* field 41 */
	assert_false(ps_live_is_kthread(&st));
	assert_false(ps_live_is_rt(&st));
}

static void test_parse_stat_kthread_rt(void **state)
{
	struct ps_live_stat st;
	char line[600];

	(void)state;
	/* kthreadd-like: PF_KTHREAD (0x00200000 = 2097152) in field 9 */
	snprintf(line, sizeof(line),
		 "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 3 0 0 "
		 "18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 0 1 0 0 0 0 0\n");
	assert_int_equal(ps_live_parse_stat(line, &st), 0);
	assert_true(ps_live_is_kthread(&st));
	/* SCHED_FIFO (1) in field 41 */
	snprintf(line, sizeof(line),
		 "77 (rt) S 1 77 77 0 -1 4194560 0 0 0 0 0 0 0 0 -51 0 1 0 30 0 0 "
		 "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 2 50 1 0 0 0\n");
	assert_int_equal(ps_live_parse_stat(line, &st), 0);
	assert_true(ps_live_is_rt(&st));
	assert_int_equal(st.cpu, 2);
}

static void test_parse_stat_bad(void **state)
{
	struct ps_live_stat st;

	(void)state;
	assert_int_equal(ps_live_parse_stat("", &st), -EINVAL);
	assert_int_equal(ps_live_parse_stat("12 no parens R 1", &st), -EINVAL);
	assert_int_equal(ps_live_parse_stat("12 (short) R 1 2 3", &st), -EINVAL);
	assert_int_equal(ps_live_parse_stat("x (a) R 1 2 3", &st), -EINVAL);
	assert_int_equal(ps_live_parse_stat("0 (a) R 1 2 3", &st), -EINVAL);
}

static void test_schedstat(void **state)
{
	unsigned long long run, wait;

	(void)state;
	assert_int_equal(ps_live_parse_schedstat("123456789 2000 17\n", &run, &wait), 0);
	assert_int_equal(run, 123456789ULL);
	assert_int_equal(wait, 2000);
	assert_int_equal(ps_live_parse_schedstat("garbage", &run, &wait), -EINVAL);
}

static void test_util(void **state)
{
	double u;

	(void)state;
	/* 250 ms on CPU and 250 ms queued in 500 ms: demand 1.0 at once */
	u = ps_live_util_update(0, 250000000ULL, 250000000ULL, 0.5);
	assert_float_equal(u, 1.0, 1e-9);
	/* more than the interval (clock skew) is clamped to 1 */
	assert_float_equal(ps_live_util_update(0, 900000000ULL, 0, 0.5), 1.0, 1e-9);
	/* idle for one half-life: half; for two: a quarter */
	u = ps_live_util_update(1.0, 0, 0, PS_LIVE_HALF_LIFE_S);
	assert_float_equal(u, 0.5, 1e-9);
	u = ps_live_util_update(u, 0, 0, PS_LIVE_HALF_LIFE_S);
	assert_float_equal(u, 0.25, 1e-9);
	/* a new sample above the decayed value wins */
	assert_float_equal(ps_live_util_update(0.25, 300000000ULL, 0, 0.5), 0.6, 1e-9);
	/* no time passed: unchanged */
	assert_float_equal(ps_live_util_update(0.7, 5, 5, 0), 0.7, 1e-12);
}

static void test_ratelimit_bound(void **state)
{
	struct ps_ratelimit rl;
	int k, allowed = 0, in_window, i;
	double times[4096];

	(void)state;
	assert_int_equal(ps_ratelimit_init(&rl, 0, 60), -EINVAL);
	assert_int_equal(ps_ratelimit_init(&rl, 257, 60), -EINVAL);
	assert_int_equal(ps_ratelimit_init(&rl, 6, 60), 0);
	/* a load that flaps every half second for 10 minutes, alternating
	 * grow and shrink: never more than 6 changes in any 60 s */
	for (k = 0; k < 1200; k++) {
		double t = k * 0.5;

		if (ps_ratelimit_allow(&rl, t, k % 2 == 0))
			times[allowed++] = t;
	}
	for (i = 0; i < allowed; i++) {
		int j;

		in_window = 0;
		for (j = i; j < allowed && times[j] < times[i] + 60; j++)
			in_window++;
		assert_true(in_window <= 6);
	}
	/* and the limit is used: 10 windows of 6 at most, well over 1 per window */
	assert_true(allowed >= 10 * 5);
	assert_true(allowed <= 11 * 6);
}

static void test_ratelimit_grow_after_shrink(void **state)
{
	struct ps_ratelimit rl;

	(void)state;
	assert_int_equal(ps_ratelimit_init(&rl, 3, 60), 0);
	assert_true(ps_ratelimit_allow(&rl, 0, 1));  /* 1 used */
	assert_true(ps_ratelimit_allow(&rl, 1, 0));  /* shrink: leaves one */
	assert_false(ps_ratelimit_allow(&rl, 2, 0)); /* a shrink may not take the last */
	assert_true(ps_ratelimit_allow(&rl, 3, 1));  /* the grow still can */
	assert_false(ps_ratelimit_allow(&rl, 4, 1)); /* now full */
	/* after the window, the first change falls out */
	assert_true(ps_ratelimit_allow(&rl, 60.5, 1));
}

static void test_cpulist(void **state)
{
	unsigned char b[64];
	char out[128];

	(void)state;
	assert_int_equal(ps_cpulist_parse("0-3,8,10-11\n", b, 64), 0);
	assert_true(b[0] && b[3] && !b[4] && b[8] && !b[9] && b[10] && b[11] && !b[12]);
	assert_int_equal(ps_cpulist_format(b, 64, out, sizeof(out)), 0);
	assert_string_equal(out, "0-3,8,10-11");
	assert_int_equal(ps_cpulist_parse("", b, 64), 0);
	assert_int_equal(ps_cpulist_format(b, 64, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(ps_cpulist_parse("3-1", b, 64), -EINVAL);
	assert_int_equal(ps_cpulist_parse("1,,2", b, 64), -EINVAL);
	assert_int_equal(ps_cpulist_parse("64", b, 64), -EINVAL);
	assert_int_equal(ps_cpulist_parse("1-", b, 64), -EINVAL);
	assert_int_equal(ps_cpulist_parse("a", b, 64), -EINVAL);
	assert_int_equal(ps_cpulist_parse("0-63", b, 64), 0);
	assert_int_equal(ps_cpulist_format(b, 64, out, 4), -ENOSPC);
}

static void test_cpumask_hex(void **state)
{
	unsigned char b[64], c[64];
	char out[64];
	int i;

	(void)state;
	assert_int_equal(ps_cpumask_parse_hex("ff\n", b, 64), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(b[i], i < 8);
	assert_int_equal(ps_cpumask_parse_hex("1,00000000", b, 64), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(b[i], i == 32);
	assert_int_equal(ps_cpumask_parse_hex("00000001,0000000F", b, 64), 0);
	assert_int_equal(b[0] + b[1] + b[2] + b[3] + b[32], 5);
	assert_int_equal(ps_cpumask_parse_hex("", b, 64), -EINVAL);
	assert_int_equal(ps_cpumask_parse_hex(",ff", b, 64), -EINVAL);
	assert_int_equal(ps_cpumask_parse_hex("ff,", b, 64), -EINVAL);
	assert_int_equal(ps_cpumask_parse_hex("1,ff", b, 64), -EINVAL);   /* a short word */
	assert_int_equal(ps_cpumask_parse_hex("1ffffffff", b, 64), -EINVAL); /* 9 digits in a word: the kernel refuses it too */
	assert_int_equal(ps_cpumask_parse_hex("fg", b, 64), -EINVAL);
	assert_int_equal(ps_cpumask_parse_hex("100", b, 8), -EINVAL);     /* CPU 8 of 8 */
	assert_int_equal(ps_cpumask_parse_hex("0100", b, 9), 0);
	/* format: as the kernel writes it; and back */
	memset(b, 0, sizeof(b));
	assert_int_equal(ps_cpumask_format_hex(b, 64, out, sizeof(out)), 0);
	assert_string_equal(out, "00000000");
	for (i = 0; i < 8; i++)
		b[i] = 1;
	assert_int_equal(ps_cpumask_format_hex(b, 64, out, sizeof(out)), 0);
	assert_string_equal(out, "000000ff");
	b[32] = 1;
	assert_int_equal(ps_cpumask_format_hex(b, 64, out, sizeof(out)), 0);
	assert_string_equal(out, "00000001,000000ff");
	assert_int_equal(ps_cpumask_parse_hex(out, c, 64), 0);
	assert_memory_equal(b, c, 64);
	assert_int_equal(ps_cpumask_format_hex(b, 64, out, 10), -ENOSPC);
}

/* quiet-parked's records, put back from a tree standing in for /proc and
 * /sys (the guest's daemon scenario does it on the real files): an IRQ on
 * a set we applied goes back, one changed since is theirs, one never moved
 * is left without a word, and the hex workqueue mask goes back as it was
 * written. */
/*
 * Finding 9: /proc mounted hidepid=invisible,gid=G hides other users'
 * processes from the daemon. The mount is read from mountinfo lines as
 * Linux 6.1 writes them (procfs's own options last).
 */
static void test_f9_proc_mount(void **state)
{
	long gid = 0;

	(void)state;
	/* a plain /proc: nothing hidden */
	assert_int_equal(ps_live_parse_proc_mount(
		"21 26 0:20 / /proc rw,relatime - proc proc rw\n", &gid), 0);
	assert_int_equal(gid, -1);
	/* hidepid with the group that sees all */
	assert_int_equal(ps_live_parse_proc_mount(
		"25 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"21 25 0:20 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc "
		"rw,gid=998,hidepid=invisible\n"
		"30 21 0:27 / /proc/sys/fs/binfmt_misc rw,relatime shared:13 - autofs "
		"systemd-1 rw,fd=29,hidepid=invisible\n", &gid), 1);
	assert_int_equal(gid, 998);
	/* the last /proc mount counts (a remount without hidepid on top) */
	assert_int_equal(ps_live_parse_proc_mount(
		"21 25 0:20 / /proc rw - proc proc rw,hidepid=2\n"
		"40 21 0:31 / /proc rw - proc proc rw,hidepid=off\n", &gid), 0);
	assert_int_equal(gid, -1);
	assert_int_equal(ps_live_parse_proc_mount(
		"21 25 0:20 / /proc rw - proc proc rw,hidepid=noaccess", &gid), 1);
	assert_int_equal(gid, -1);
	/* not procfs on /proc, or procfs elsewhere: not ours */
	assert_int_equal(ps_live_parse_proc_mount(
		"21 25 0:20 / /proc rw - tmpfs tmpfs rw,hidepid=2\n"
		"22 25 0:21 / /mnt/proc rw - proc proc rw,hidepid=2,gid=5\n", &gid), 0);
	/* a bad gid is no gid; garbage is no mount */
	assert_int_equal(ps_live_parse_proc_mount(
		"21 25 0:20 / /proc rw - proc proc rw,gid=12x,hidepid=invisible\n", &gid), 1);
	assert_int_equal(gid, -1);
	assert_int_equal(ps_live_parse_proc_mount("", &gid), 0);
	assert_int_equal(ps_live_parse_proc_mount("/proc - proc\n\n - \n", &gid), 0);
}

/*
 * Review finding: an interval that failed after its accounting (the
 * modeled energy, the span's busy time) left the last interval's end
 * where the last good one put it, so the next interval counted the failed
 * one again. A stand-in root whose /proc is gone for one interval (the
 * scan's opendir fails): /proc/stat's counters do not move, so the model
 * prices every second at the machine's idle watts, and the energy over
 * the intervals 100 -> 103 s is three seconds of it, not four.
 */
static void say(void *arg, const char *msg)
{
	(void)arg;
	print_message("%s\n", msg);
}

static void test_f11_failed_interval_counted_once(void **state)
{
	char *root = make_tmpdir(), proc[4200], off[4200], dir[4200];
	struct ps_live_cfg cfg;
	struct ps_live_summary s;
	struct ps_live *l = NULL;
	struct ps_model m;
	struct ps_power idle;
	const struct ps_topo *t;
	double *zero;
	char err[256];

	(void)state;
	assert_int_equal(ps_model_load("generic", &m, err, sizeof(err)), 0);
	write_file(root, "proc/stat", "cpu  0 0 0 0 0 0 0 0\n");
	write_file(root, "proc/uptime", "100.00 100.00\n");
	write_file(root, "proc/loadavg", "0.00 0.00 0.00 1/100 4242\n");
	{ /* the topology is this machine's (hwloc): its online CPUs */
		char on[4096] = "";
		FILE *f = fopen("/sys/devices/system/cpu/online", "r");

		assert_non_null(f);
		assert_non_null(fgets(on, sizeof(on), f));
		fclose(f);
		write_file(root, "sys/devices/system/cpu/online", on);
	}
	snprintf(dir, sizeof(dir), "%s/state", root);
	memset(&cfg, 0, sizeof(cfg));
	cfg.root = root;
	cfg.state_dir = dir;
	cfg.name = "run";
	cfg.policy = PS_POLICY_POWER;
	cfg.interval_s = 1;
	cfg.backend = PS_BACKEND_AFFINITY;
	cfg.max_changes = 60;
	cfg.model = &m;
	cfg.dry_run = 1;
	cfg.log = say;
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	t = ps_live_topo(l);
	zero = calloc((size_t)t->nr_pus, sizeof(double));
	assert_non_null(zero);
	assert_int_equal(ps_power_eval(t, &m, zero, NULL, &idle), 0);
	assert_true(idle.power_w > 0);
	assert_int_equal(ps_live_step(l, 100.0), 0);
	assert_int_equal(ps_live_step(l, 101.0), 0);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(off, sizeof(off), "%s/proc.off", root);
	assert_int_equal(rename(proc, off), 0);
	assert_int_not_equal(ps_live_step(l, 102.0), 0); /* the scan fails */
	assert_int_equal(rename(off, proc), 0);
	assert_int_equal(ps_live_step(l, 103.0), 0);
	ps_live_summary(l, &s);
	assert_int_equal(s.energy_measured, 0);
	assert_float_equal(s.energy_j, idle.power_w * 3.0, 1e-6 * idle.power_w);
	ps_live_close(l);
	free(zero);
	remove_tree(root);
	free(root);
}

static void test_f10_config_strict(void **state)
{
	static struct ps_live_conf c;
	static char big[PS_LIVE_CONF_MAX + 2];
	char err[300];
	const char nul[] = "policy power\n\0policy lazy\n";

	(void)state;
	assert_int_equal(ps_live_conf_parse("policy power\nexclude-comm sshd qemu-system-x86\n",
					    47, &c, err, sizeof(err)), 0);
	assert_string_equal(c.policy, "power");
	assert_int_equal(c.nexc, 2);
	assert_string_equal(c.exc[1], "qemu-system-x86");
	assert_null(c.exc[2]);
	assert_int_equal(c.exclude_containers, 1);
	/* a comm is at most 15 characters: a longer name can never match */
	assert_int_equal(ps_live_conf_parse("exclude-comm qemu-system-x86_64\n", 32, &c, err,
					    sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "line 1: command name 'qemu-system-x86_64'"));
	/* text after a NUL is not silently ignored */
	assert_int_equal(ps_live_conf_parse(nul, sizeof(nul) - 1, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NUL byte at offset 13"));
	/* a file past the limit is refused, not cut */
	memset(big, '#', sizeof(big));
	assert_int_equal(ps_live_conf_parse(big, PS_LIVE_CONF_MAX, &c, err, sizeof(err)), 0);
	assert_int_equal(ps_live_conf_parse(big, PS_LIVE_CONF_MAX + 1, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "larger than 16383 bytes"));
	/* one value, not cut after it was checked */
	assert_int_equal(ps_live_conf_parse("policy power save\n", 18, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "policy takes one value"));
	assert_int_equal(ps_live_conf_parse("interval 1000000000000000000000000000000000s\n", 45,
					    &c, err, sizeof(err)), -EINVAL);
	assert_int_equal(ps_live_conf_parse("max-changes 1\n", 14, &c, err, sizeof(err)), -EINVAL);
	assert_int_equal(ps_live_conf_parse("exclude-containers no\n", 22, &c, err, sizeof(err)), 0);
	assert_int_equal(c.exclude_containers, 0);
	assert_int_equal(c.quiet_parked, 0); /* off unless asked for */
	assert_int_equal(ps_live_conf_parse("quiet-parked yes\n", 17, &c, err, sizeof(err)), 0);
	assert_int_equal(c.quiet_parked, 1);
	assert_int_equal(ps_live_conf_parse("quiet-parked maybe\n", 19, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "quiet-parked 'maybe' is not yes or no"));
	assert_int_equal(ps_live_conf_parse("exclude-cgroup rel\n", 19, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "cgroup path 'rel' does not start with /"));
	/* the daemon's backend and its fallback (issue 22) */
	assert_int_equal(ps_live_conf_parse("backend scx\nscx-fallback kernel\n", 32, &c, err,
					    sizeof(err)), 0);
	assert_string_equal(c.backend, "scx");
	assert_string_equal(c.scx_fallback, "kernel");
	assert_int_equal(ps_live_conf_parse("policy power\n", 13, &c, err, sizeof(err)), 0);
	assert_string_equal(c.backend, ""); /* not given: auto */
	assert_string_equal(c.scx_fallback, "");
	assert_int_equal(ps_live_conf_parse("backend cgroup\n", 15, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "line 1: backend 'cgroup' is not auto, scx or affinity"));
	assert_int_equal(ps_live_conf_parse("scx-fallback later\n", 19, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "scx-fallback 'later' is not affinity, kernel or fail"));
	assert_int_equal(ps_live_conf_parse("backend scx affinity\n", 21, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "backend takes one value"));
}

/* -b scx: no sched_ext, another scheduler (named), or free; under a root */
static void test_scx_usable(void **state)
{
	char root[] = "/tmp/ps-scx-root.XXXXXX", path[256], why[300], cmd[300];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(ps_live_scx_usable(root, why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "this kernel has no sched_ext"));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/kernel/sched_ext/root", root);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/state", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("enabled\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/root/ops", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("scx_lavd\n", f);
	fclose(f);
	assert_int_equal(ps_live_scx_usable(root, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "another sched_ext scheduler is loaded (scx_lavd, state enabled)"));
	snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/state", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("disabled\n", f);
	fclose(f);
	assert_int_equal(ps_live_scx_usable(root, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* a file of the stand-in tree, its first line (without the newline) */
static void read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

struct logged {
	int n;
	char all[4096];
};

static void keep_log(void *arg, const char *msg)
{
	struct logged *g = arg;

	g->n++;
	snprintf(g->all + strlen(g->all), sizeof(g->all) - strlen(g->all), "%s\n", msg);
}

/* A stand-in root for a run from inside a systemd unit's cgroup, the
 * unit's and its slice's limits set. */
static char *unit_root(char *ours, size_t len)
{
	char *root = make_tmpdir(), on[4096] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");

	assert_non_null(f);
	assert_non_null(fgets(on, sizeof(on), f));
	fclose(f);
	write_file(root, "sys/devices/system/cpu/online", on);
	write_file(root, "proc/stat", "cpu  0 0 0 0 0 0 0 0\n");
	write_file(root, "proc/uptime", "100.00 100.00\n");
	write_file(root, "proc/loadavg", "0.00 0.00 0.00 1/100 4242\n");
	write_file(root, "proc/self/cgroup", "0::/system.slice/app.service\n");
	write_file(root, "sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
	write_file(root, "sys/fs/cgroup/cgroup.subtree_control", "cpuset cpu memory pids\n");
	/* the unit: no task limit of its own, a memory limit, half a CPU */
	write_file(root, "sys/fs/cgroup/system.slice/app.service/pids.max", "max\n");
	write_file(root, "sys/fs/cgroup/system.slice/app.service/memory.max", "1000000\n");
	write_file(root, "sys/fs/cgroup/system.slice/app.service/cpu.max", "50000 100000\n");
	write_file(root, "sys/fs/cgroup/system.slice/app.service/cpu.weight", "200\n");
	/* its slice: a tighter task and memory limit, a memory.high */
	write_file(root, "sys/fs/cgroup/system.slice/pids.max", "64\n");
	write_file(root, "sys/fs/cgroup/system.slice/memory.max", "500000\n");
	write_file(root, "sys/fs/cgroup/system.slice/memory.high", "800000\n");
	write_file(root, "sys/fs/cgroup/system.slice/cpu.max", "max 100000\n");
	write_file(root, "sys/fs/cgroup/system.slice/cpu.weight", "50\n");
	/* our cgroup, as the kernel makes it (no memory.high: say the
	 * controller file is missing) */
	snprintf(ours, len, "sys/fs/cgroup/powersched-run-%d", (int)getpid());
	{
		const char *f2[] = { "pids.max", "memory.max", "cpu.max", "cpu.weight", "cgroup.procs" };
		/* empty: a write here does not truncate, as the kernel's
		 * files need not */
		const char *v[] = { "", "", "", "", "" };
		char rel[600];

		for (int i = 0; i < 5; i++) {
			snprintf(rel, sizeof(rel), "%s/%s", ours, f2[i]);
			write_file(root, rel, v[i]);
		}
	}
	return root;
}

static void unit_cfg(struct ps_live_cfg *cfg, char *root, char *dir, size_t len,
		     struct ps_model *m, struct logged *g)
{
	snprintf(dir, len, "%s/state", root);
	memset(cfg, 0, sizeof(*cfg));
	cfg->root = root;
	cfg->state_dir = dir;
	cfg->name = "run";
	cfg->policy = PS_POLICY_POWER;
	cfg->interval_s = 1;
	cfg->max_changes = 60;
	cfg->model = m;
	cfg->log = keep_log;
	cfg->log_arg = g;
}

/*
 * run inside a systemd unit (issue 23 item 9): by default the command stays
 * in its unit (the affinity backend: a cgroup of ours would take it out of
 * the unit, where systemd's stop and logind's cleanup no longer reach it);
 * asked for the cgroup backend, it says so, and copies each limit as the
 * tightest of the unit's and its slice's (the slice's TasksMax and
 * MemoryMax hold for the unit too), saying which one it could not copy.
 */
static void test_i23_cgroup_in_unit(void **state)
{
	char ours[512], dir[4200], rel[700], v[256], err[256];
	struct ps_live_cfg cfg;
	struct ps_live *l = NULL;
	struct logged g = { 0, "" };
	struct ps_model m;
	char *root;

	(void)state;
	assert_int_equal(ps_model_load("generic", &m, err, sizeof(err)), 0);
	root = unit_root(ours, sizeof(ours));
	unit_cfg(&cfg, root, dir, sizeof(dir), &m, &g);
	cfg.backend = PS_BACKEND_AUTO;
	cfg.dry_run = 1;
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(l->backend, PS_BACKEND_AFFINITY);
	ps_live_close(l);
	/* outside any unit, the same machine's default is the cgroup */
	write_file(root, "proc/self/cgroup", "0::/\n");
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(l->backend, PS_BACKEND_CGROUP);
	ps_live_close(l);
	write_file(root, "proc/self/cgroup", "0::/system.slice/app.service\n");

	cfg.backend = PS_BACKEND_CGROUP;
	cfg.dry_run = 0;
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(ps_live_prepare_child(l, dir, sizeof(dir)), 0);
	snprintf(rel, sizeof(rel), "%s/pids.max", ours);
	read_line(root, rel, v, sizeof(v));
	assert_string_equal(v, "64"); /* the slice's */
	snprintf(rel, sizeof(rel), "%s/memory.max", ours);
	read_line(root, rel, v, sizeof(v));
	assert_string_equal(v, "500000"); /* the slice's, tighter */
	snprintf(rel, sizeof(rel), "%s/cpu.max", ours);
	read_line(root, rel, v, sizeof(v));
	assert_string_equal(v, "50000 100000"); /* the unit's */
	snprintf(rel, sizeof(rel), "%s/cpu.weight", ours);
	read_line(root, rel, v, sizeof(v));
	assert_string_equal(v, "200"); /* the unit's own: a weight is relative */
	assert_non_null(strstr(g.all, "leaves /system.slice/app.service (the unit app.service)"));
	assert_non_null(strstr(g.all, "memory.high '800000' of /system.slice not copied"));
	ps_live_close(l);
	remove_tree(root);
	free(root);
}

/*
 * run's default backend where the kernel has sched_ext (issue 22): the scx
 * backend when no sched_ext scheduler is loaded; with one loaded (here
 * scx_lavd), a mask backend and one line naming it. A daemon's is never
 * scx (it manages others' tasks by masks).
 */
static void test_scx_default(void **state)
{
	char ours[512], dir[4200], err[256];
	struct ps_live_cfg cfg;
	struct ps_live *l = NULL;
	struct logged g = { 0, "" };
	struct ps_model m;
	char *root;

	(void)state;
	if (!ps_live_scx_built())
		skip();
	assert_int_equal(ps_model_load("generic", &m, err, sizeof(err)), 0);
	root = unit_root(ours, sizeof(ours));
	write_file(root, "proc/self/cgroup", "0::/\n");
	unit_cfg(&cfg, root, dir, sizeof(dir), &m, &g);
	cfg.backend = PS_BACKEND_AUTO;
	cfg.dry_run = 1;
	write_file(root, "sys/kernel/sched_ext/state", "disabled\n");
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(l->backend, PS_BACKEND_SCX);
	ps_live_close(l);
	write_file(root, "sys/kernel/sched_ext/state", "enabled\n");
	write_file(root, "sys/kernel/sched_ext/root/ops", "scx_lavd\n");
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(l->backend, PS_BACKEND_CGROUP);
	assert_non_null(strstr(g.all, "another sched_ext scheduler is loaded (scx_lavd, "
				      "state enabled): sched_ext runs one at a time; the cgroup "
				      "backend instead"));
	ps_live_close(l);
	write_file(root, "sys/kernel/sched_ext/state", "disabled\n");
	cfg.whole_system = 1;
	cfg.name = "daemon";
	assert_int_equal(ps_live_open(&cfg, &l), 0);
	assert_int_equal(l->backend, PS_BACKEND_AFFINITY);
	ps_live_close(l);
	remove_tree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_stat_kthread_rt),
		cmocka_unit_test(test_parse_stat_bad),
		cmocka_unit_test(test_schedstat),
		cmocka_unit_test(test_f11_failed_interval_counted_once),
		cmocka_unit_test(test_util),
		cmocka_unit_test(test_ratelimit_bound),
		cmocka_unit_test(test_ratelimit_grow_after_shrink),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_cpumask_hex),
		cmocka_unit_test(test_f9_proc_mount),
		cmocka_unit_test(test_f10_config_strict),
		cmocka_unit_test(test_scx_usable),
		cmocka_unit_test(test_i23_cgroup_in_unit),
		cmocka_unit_test(test_scx_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
