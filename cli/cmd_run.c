// SPDX-License-Identifier: MIT
/*
 * DOC: powersched run
 *
 * Start CMD in a cgroup of ours (or under affinity), or attach to a
 * running process (--pid), manage it and its descendants, pass INT, TERM,
 * HUP, QUIT, USR1 and USR2 on, exit with its status, print a summary.
 * What run shares with daemon (options, config, signals) is in livecmd.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <json.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "livecmd.h"
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"
#include "ps/ppd.h"
#include "ps/sim.h"

/* Is list (a CPU list) the same set as bits? */
static int same_set(const char *list, const unsigned char *bits, unsigned char *tmp)
{
	return list && !ps_cpulist_parse(list, tmp, CPU_SETSIZE) &&
	       !memcmp(tmp, bits, CPU_SETSIZE);
}

/* Did the live daemon whose state file is @o apply the set @mine (its
 * current set or one of its recent ones)? */

static int daemon_applied(struct json_object *o, const unsigned char *mine,
			  unsigned char *tmp)
{
	struct json_object *v, *rec, *e;
	size_t k;

	if (!mine)
		return 1; /* any set */
	if (json_object_object_get_ex(o, "allowed", &v) &&
	    same_set(json_object_get_string(v), mine, tmp))
		return 1;
	if (!json_object_object_get_ex(o, "recent", &rec) ||
	    !json_object_is_type(rec, json_type_array))
		return 0;
	for (k = 0; k < json_object_array_length(rec); k++) {
		e = json_object_array_get_idx(rec, k);
		if (json_object_object_get_ex(e, "allowed", &v) &&
		    same_set(json_object_get_string(v), mine, tmp))
			return 1;
	}
	return 0;
}

/* The PID of a live daemon with state in @dir that applied @mine (NULL:
 * any live daemon), or 0. */

static long daemon_of_set(const char *dir, const unsigned char *mine, unsigned char *tmp)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), i, n;
	char **names;
	long found = 0;

	if (dfd < 0)
		return 0;
	n = ps_cli_state_files(dfd, &names);
	for (i = 0; i < n && !found; i++) {
		struct json_object *o = ps_cli_state_load(dfd, names[i]), *v;
		unsigned long long start;
		long pid;

		if (o && ps_cli_state_name(names[i], &pid) &&
		    json_object_object_get_ex(o, "name", &v) &&
		    json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), "daemon") &&
		    ps_cli_instance_alive(dir, pid, &start) && daemon_applied(o, mine, tmp))
			found = pid;
		json_object_put(o);
	}
	if (n > 0)
		ps_cli_state_files_free(names, n);
	close(dfd);
	return found;
}

/*
 * run started from a shell a running daemon confined inherits the daemon's
 * set, and its command would keep it: run leaves a mask that is not the
 * machine's alone, as the user's. A set is the daemon's when its state
 * file (in our state directory or root's) lists it as its current or a
 * recent one; then run widens itself to the online CPUs before it starts
 * the command, and the daemon leaves run's tree to run. A set of the
 * user's own (taskset) is not a daemon's and is kept.
 */
static void leave_daemon_set(const char *state_dir, int quiet)
{
	unsigned char mine[CPU_SETSIZE], tmp[CPU_SETSIZE], on[CPU_SETSIZE];
	char buf[4096], list[256], msg[800];
	cpu_set_t cur;
	long pid;
	int i;

	if (sched_getaffinity(0, sizeof(cur), &cur) ||
	    ps_cli_read_text("/sys/devices/system/cpu/online", buf, sizeof(buf)) <= 0 ||
	    ps_cpulist_parse(buf, on, CPU_SETSIZE))
		return;
	for (i = 0; i < CPU_SETSIZE; i++)
		mine[i] = CPU_ISSET(i, &cur) != 0;
	if (!memcmp(mine, on, CPU_SETSIZE))
		return;
	pid = daemon_of_set(state_dir, mine, tmp);
	if (!pid && strcmp(state_dir, PS_SYSTEM_STATE_DIR))
		pid = daemon_of_set(PS_SYSTEM_STATE_DIR, mine, tmp);
	if (!pid)
		return;
	CPU_ZERO(&cur);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (on[i])
			CPU_SET(i, &cur);
	ps_cpulist_format(mine, CPU_SETSIZE, list, sizeof(list));
	/* the kernel keeps a mask inside the cpuset: say what it became */
	if (!sched_setaffinity(0, sizeof(cur), &cur) && !sched_getaffinity(0, sizeof(cur), &cur)) {
		for (i = 0; i < CPU_SETSIZE; i++)
			tmp[i] = CPU_ISSET(i, &cur) != 0;
		ps_cpulist_format(tmp, CPU_SETSIZE, buf, sizeof(buf));
		snprintf(msg, sizeof(msg), "started on the set %s of the daemon (pid %ld), "
			 "not the user's: widened to %.200s for the command", list, pid, buf);
		ps_cli_live_log(&quiet, msg);
	}
}

static void usage_run(FILE *f)
{
	fputs("Usage:\n"
	      " powersched run [options] -- CMD [ARGS...]\n"
	      " powersched run [options] --pid PID\n"
	      "\n"
	      "Start CMD and confine it and every descendant to the CPUs the policy\n"
	      "picks, growing and shrinking the set with their load; signals are\n"
	      "passed on; exits with CMD's status and prints a summary on stderr.\n"
	      "Everything is put back as it was when it ends.\n"
	      "\n"
	      "As an ordinary user it needs no privilege: it confines the user's own\n"
	      "processes with sched_setaffinity (a user may not make cgroups under the\n"
	      "root cgroup, and systemd's user manager does not delegate cpuset), and\n"
	      "keeps its journal in $XDG_RUNTIME_DIR/powersched, made 0700 (without\n"
	      "the variable: /run/user/UID/powersched if /run/user/UID is the user's,\n"
	      "else /tmp/powersched-UID); a directory there that is not the user's\n"
	      "own, or that others may write, is refused. The user's next run puts\n"
	      "back what a killed run of theirs left.\n"
	      "\n"
	      "Options:\n"
	      " -p, --policy P        performance, power or auto (default: auto: the\n"
	      "                       power-profiles-daemon profile, else platform_profile,\n"
	      "                       else power on battery and performance on AC or with\n"
	      "                       no battery; on a server that is performance, which\n"
	      "                       saves nothing: ask for power)\n"
	      " -i, --interval D      decision interval (default 500ms)\n"
	      " -b, --backend B       cgroup (v2 cpuset, root only), affinity, scx\n"
	      "                       (sched_ext: the policy as the kernel's scheduler,\n"
	      "                       Linux 6.12+ with sched_ext, root), or auto\n"
	      "                       (default: scx where the kernel has sched_ext and no\n"
	      "                       scheduler of it is loaded, else cgroup when usable\n"
	      "                       and not inside a systemd unit, else affinity;\n"
	      "                       affinity for a user)\n"
	      "     --scx-fallback F  when the scx scheduler ends on an error: affinity\n"
	      "                       (default: the policy goes on as masks), kernel\n"
	      "                       (the kernel's scheduler for the rest of the run)\n"
	      "                       or fail (as kernel, and exit 1 at the end)\n"
	      " -m, --model MODEL     power model (default: the shipped one that fits)\n"
	      "     --max-changes N   mask changes allowed per minute (default 20)\n"
	      "     --state-dir DIR   journal and state files (default /run/powersched\n"
	      "                       for root, $XDG_RUNTIME_DIR/powersched for a user)\n"
	      "     --metrics FILE    Prometheus text file, rewritten each interval\n"
	      "     --pid PID         manage a process that is running, and its\n"
	      "                       descendants, instead of starting one (affinity\n"
	      "                       backend; not with a daemon running): until it\n"
	      "                       ends, or SIGINT/SIGTERM detach; masks put back\n"
	      "     --plot FILE       picture of the run (FILE.png or FILE.svg): per-PU\n"
	      "                       busy and allowed set over time, power\n"
	      "     --sysfs-root DIR  where auto reads power_supply and platform_profile\n"
	      "                       (default /; a host's /sys mounted elsewhere)\n"
	      " -n, --dry-run         decide and log, change nothing\n"
	      " -q, --quiet           no log lines, only the summary\n"
	      " -v, --verbose         log every interval's decision, not only changes\n"
	      " -h, --help            display this help\n",
	      f);
}

static int find_command(const char *cmd)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];
	int denied = 0;

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (p = path;; p = strchr(p, ':') + 1) {
		size_t n = strcspn(p, ":");
		struct stat st;

		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, n ? p : ".", "/", cmd);
		if (!stat(buf, &st) && S_ISREG(st.st_mode)) {
			if (!access(buf, X_OK))
				return 1;
			denied = 1;
		}
		if (!p[n])
			break;
	}
	errno = denied ? EACCES : ENOENT;
	return 0;
}

/* what run --plot draws: every interval's per-PU busy and allowed, power */
struct recording {
	int nr_pus, n, cap, stopped;
	double *busy, *allowed, *power_w, t0, t_last, e_last, w_last;
	/* the command's CPUs per interval: its threads' run time, read at
	 * scans, spread over the intervals since the scan before (a quiet
	 * interval reads nothing); the machine's, from the PUs' busy */
	double *cmd, *machine, cpu_last, *t;
	int scans_last, k_last;
};

static void record(struct recording *rec, struct ps_live *l, double t)
{
	const struct ps_topo *tp = ps_live_topo(l);
	struct ps_live_summary sum;

	if (rec->stopped || !tp)
		return;
	if (!rec->nr_pus) {
		rec->nr_pus = tp->nr_pus;
		rec->t0 = rec->t_last = t;
	}
	if (tp->nr_pus != rec->nr_pus) {
		rec->stopped = 1; /* a hotplug changed the rows: the picture ends here */
		return;
	}
	if (rec->n == rec->cap) {
		int cap = rec->cap ? 2 * rec->cap : 256;
		double *b = realloc(rec->busy, sizeof(double) * (size_t)cap * rec->nr_pus);
		double *a, *p;

		if (b)
			rec->busy = b;
		a = b ? realloc(rec->allowed, sizeof(double) * (size_t)cap * rec->nr_pus) : NULL;
		if (a)
			rec->allowed = a;
		p = a ? realloc(rec->power_w, sizeof(double) * (size_t)cap) : NULL;
		if (p)
			rec->power_w = p;
		for (int k = 0; p && k < 3; k++) {
			double **arr = k == 0 ? &rec->cmd : k == 1 ? &rec->machine : &rec->t;

			p = realloc(*arr, sizeof(double) * (size_t)cap);
			if (p)
				*arr = p;
		}
		if (!p) {
			rec->stopped = 1;
			return;
		}
		rec->cap = cap;
	}
	ps_live_summary(l, &sum);
	if (ps_live_last(l, rec->busy + (size_t)rec->n * rec->nr_pus,
			 rec->allowed + (size_t)rec->n * rec->nr_pus, rec->nr_pus))
		return;
	/* the controller's own interval times (wall_s), which its energy covers:
	 * our clock read after the step would add the step's own jitter */
	rec->power_w[rec->n] = sum.wall_s > rec->w_last ?
			       (sum.energy_j - rec->e_last) / (sum.wall_s - rec->w_last) : 0;
	rec->e_last = sum.energy_j;
	rec->w_last = sum.wall_s;
	rec->t_last = t;
	rec->t[rec->n] = t;
	rec->machine[rec->n] = 0;
	for (int i = 0; i < rec->nr_pus; i++)
		rec->machine[rec->n] += rec->busy[(size_t)rec->n * rec->nr_pus + i];
	rec->cmd[rec->n] = 0;
	if (!rec->n) {
		rec->cpu_last = sum.managed_cpu_s;
		rec->scans_last = sum.scans;
	} else if (sum.scans != rec->scans_last) {
		double span = t - rec->t[rec->k_last],
		       c = span > 0 ? (sum.managed_cpu_s - rec->cpu_last) / span : 0;

		for (int k = rec->k_last + 1; k <= rec->n; k++)
			rec->cmd[k] = c > 0 ? c : 0;
		rec->cpu_last = sum.managed_cpu_s;
		rec->scans_last = sum.scans;
		rec->k_last = rec->n;
	}
	rec->n++;
}

static int plot_recording(const char *path, struct ps_live *l, const struct recording *rec,
			  const struct ps_live_summary *sum, const char *cmd, int attached)
{
	const struct ps_topo *tp = ps_live_topo(l);
	struct ps_plot_run pr;
	char title[400], note[300];
	int r;

	if (rec->n < 2 || !tp || tp->nr_pus != rec->nr_pus)
		return -1;
	memset(&pr, 0, sizeof(pr));
	snprintf(note, sizeof(note), "%s energy %.1f J (mean %.1f W), mean active packages %.2f, "
		 "cores %.2f, mask changes %d", sum->energy_measured ? "measured (RAPL)" : "modeled",
		 sum->energy_j, sum->wall_s > 0 ? sum->energy_j / sum->wall_s : 0,
		 sum->mean_packages, sum->mean_cores, sum->mask_changes);
	/* the first sample has no interval before it */
	pr.name = sum->policy_why;
	pr.note = note;
	pr.bins = rec->n - 1;
	pr.dur_s = rec->t_last - rec->t0;
	pr.busy = rec->busy + rec->nr_pus;
	pr.allowed = rec->allowed + rec->nr_pus;
	pr.power_w = rec->power_w + 1;
	pr.mean_w = pr.dur_s > 0 ? sum->energy_j / sum->wall_s : 0;
	pr.cmd_cpus = rec->cmd + 1;
	pr.machine_cpus = rec->machine + 1;
	pr.nr_cpus = tp->nr_pus;
	pr.cmd_label = attached ? "the process attached to and its descendants" : NULL;
	snprintf(title, sizeof(title), "powersched run: %.120s, on %.100s, backend %s", cmd,
		 tp->desc, sum->backend);
	r = ps_plot_runs(path, tp, &pr, 1, title);
	return r;
}

/* ---- run --pid: attach to a process that is running ---- */

/* The process to attach to, checked before anything starts: a process
 * (not a thread of one) that is there, held by a pidfd from here on (its
 * PID cannot be another's by the time we look at it), not PID 1, not a
 * kernel thread, not ourselves, and (for an ordinary user) the user's own.
 * 0 with *pidfd, or PS_EXIT_USAGE (said, one line). */

static int check_attach(const char *arg, pid_t *out, int *pidfd)
{
	char path[64], buf[1024], *end;
	struct ps_live_stat st;
	struct stat sb;
	long v;
	int fd;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || !*arg || v <= 0 || v > 4194304) {
		ps_err("run: --pid '%s' is not a process ID", arg);
		return PS_EXIT_USAGE;
	}
	if (v == 1 || v == getpid()) {
		ps_err("run: --pid %ld: %s", v, v == 1 ? "never PID 1 (every process inherits "
		       "what it has)" : "that is this powersched");
		return PS_EXIT_USAGE;
	}
	/* a thread's ID: /proc shows it too (not listed), with its process's
	 * Tgid */
	snprintf(path, sizeof(path), "/proc/%ld/status", v);
	if (ps_cli_read_text(path, buf, sizeof(buf)) > 0 && (end = strstr(buf, "\nTgid:")) &&
	    strtol(end + 6, NULL, 10) != v) {
		ps_err("run: --pid %ld: a thread of process %ld, not a process (give its process's)",
		       v, strtol(end + 6, NULL, 10));
		return PS_EXIT_USAGE;
	}
	fd = (int)syscall(SYS_pidfd_open, (pid_t)v, 0);
	if (fd < 0) {
		ps_err("run: --pid %ld: %s", v,
		       errno == ESRCH || errno == ENOENT ? "no such process" :
		       errno == ENOSYS ? "this kernel has no pidfd_open (Linux 5.3 or later)" :
		       strerror(errno));
		return PS_EXIT_USAGE;
	}
	/* read after the pidfd: this is the process it holds, or it is gone */
	snprintf(path, sizeof(path), "/proc/%ld/stat", v);
	if (ps_cli_read_text(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st)) {
		ps_err("run: --pid %ld: no such process", v);
		close(fd);
		return PS_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "/proc/%ld", v);
	if (st.flags & 0x00200000) {
		ps_err("run: --pid %ld: a kernel thread", v);
	} else if (geteuid() && (stat(path, &sb) || sb.st_uid != geteuid())) {
		ps_err("run: --pid %ld: another user's process (only root may attach to it)", v);
	} else {
		*out = (pid_t)v;
		*pidfd = fd;
		return 0;
	}
	close(fd);
	return PS_EXIT_USAGE;
}

int ps_cmd_run(int argc, char **argv)
{
	struct ps_cli_live_opts o;
	struct ps_live_cfg cfg;
	struct ps_live_summary sum;
	struct ps_model m;
	struct ps_live *l = NULL;
	struct rusage ru = { 0 }, ru1;
	char procs[1024];
	sigset_t set, old;
	siginfo_t si;
	pid_t pid;
	int r, status = 0, exited = 0, sig;
	double next, t0;
	struct recording rec;
	struct ps_ppd *hold_bus = NULL;
	unsigned hold_cookie = 0;
	int held = 0;
	/* --pid: the process attached to (not our child), and its pidfd */
	pid_t target = 0;
	int pidfd = -1;
	char what[200];

	r = ps_cli_live_parse_opts(argc, argv, &o, "run", usage_run);
	if (r)
		return r < 0 ? PS_EXIT_OK : r;
	if (o.pid) {
		if (optind < argc) {
			ps_err("run: --pid %s and a command '%s': one or the other", o.pid,
			       argv[optind]);
			return PS_EXIT_USAGE;
		}
		/* cgroup would move the process out of the cgroup its service
		 * or session gave it; scx switches a command's tasks at exec */
		if (o.backend && strcmp(o.backend, "affinity") && strcmp(o.backend, "auto")) {
			ps_err("run: --pid works with the affinity backend only, not '%s'", o.backend);
			return PS_EXIT_USAGE;
		}
		r = check_attach(o.pid, &target, &pidfd);
		if (r)
			return r;
		snprintf(what, sizeof(what), "pid %d", (int)target);
	} else if (optind >= argc) {
		ps_err("run: no command given (powersched run [options] -- CMD ARGS, or --pid PID)");
		return PS_EXIT_USAGE;
	} else {
		snprintf(what, sizeof(what), "%s", argv[optind]);
	}
	memset(&rec, 0, sizeof(rec));
	if (o.plot) {
		size_t pl = strlen(o.plot);

		if (pl < 5 || (strcmp(o.plot + pl - 4, ".png") && strcmp(o.plot + pl - 4, ".svg"))) {
			ps_err("run: plot '%s' must end in .png or .svg", o.plot);
			return PS_EXIT_USAGE;
		}
	}
	r = ps_cli_live_build_cfg(&o, &cfg, &m, "auto");
	if (r)
		return r;
	if (target)
		cfg.backend = PS_BACKEND_AFFINITY;
	/* what can be found wrong now is said now, in one line, before the
	 * command runs: not after it, with a summary of a run that never was */
	if ((o.plot && ps_cli_check_out("run", "plot file", o.plot)) ||
	    (o.metrics && o.metrics[0] && ps_cli_check_out("run", "metrics file", o.metrics)) ||
	    ps_cli_live_check_backend("run", &cfg))
		return PS_EXIT_USAGE;
	if (target) {
		/* the daemon manages every process: the two would set the same
		 * masks (a run's own command it leaves to the run; a process
		 * attached to it cannot tell) */
		long d = daemon_of_set(cfg.state_dir, NULL, NULL);

		if (!d && strcmp(cfg.state_dir, PS_SYSTEM_STATE_DIR))
			d = daemon_of_set(PS_SYSTEM_STATE_DIR, NULL, NULL);
		if (d) {
			ps_err("run: --pid %d: the daemon (pid %ld) manages every process; stop it "
			       "first, or exclude that process's command in its config",
			       (int)target, d);
			return PS_EXIT_USAGE;
		}
	} else if (!find_command(argv[optind])) {
		ps_err("run: cannot run '%s': %s", argv[optind], strerror(errno));
		return errno == ENOENT ? 127 : 126;
	}
	cfg.name = "run";
	cfg.attached = target != 0;
	cfg.log = ps_cli_live_log;
	cfg.log_arg = &o.quiet;
	/* a dry run too: the daemon leaves every run's tree to it */
	if (!target)
		leave_daemon_set(cfg.state_dir, o.quiet);
	ps_cli_live_block_signals(&set, &old);
	r = ps_cli_live_open(&cfg, &l);
	if (r)
		return r;
	if (target) {
		t0 = ps_cli_live_now();
		pid = target;
		ps_live_set_child(l, pid);
		ps_cli_live_log(&o.quiet, o.dry_run ? "attached to the running process (a dry run: no mask "
			 "is changed); SIGINT or SIGTERM detaches" :
			 "attached to the running process; SIGINT or SIGTERM detaches, putting its "
			 "masks back");
		goto attached;
	}
	r = ps_live_prepare_child(l, procs, sizeof(procs));
	if (r) {
		ps_live_summary(l, &sum);
		ps_err("run: backend %s: %s", sum.backend, strerror(-r));
		ps_live_close(l);
		return PS_EXIT_FAIL;
	}
	/* orphans of CMD's tree (a double fork) become our children, so they
	 * stay in the managed tree and are put back at the end */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	t0 = ps_cli_live_now();
	pid = fork();
	if (pid < 0) {
		ps_err("run: fork: %s", strerror(errno));
		ps_live_close(l);
		return PS_EXIT_FAIL;
	}
	if (pid == 0) {
		char me[32];

		if (procs[0]) {
			FILE *f = fopen(procs, "we");

			snprintf(me, sizeof(me), "%d", (int)getpid());
			if (f) {
				fputs(me, f);
				fclose(f);
			}
		}
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		ps_cli_live_restore_signals(&old);
		ps_live_child_reset(l);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "powersched: run: cannot run '%s': %s\n", argv[optind],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	ps_live_set_child(l, pid);
attached:
	/* --policy performance asks power-profiles-daemon to hold performance
	 * while the command runs (released below; the daemon also drops it
	 * when our connection closes, however we exit) */
	if (cfg.policy == PS_POLICY_PERFORMANCE && !cfg.dry_run && !ps_ppd_open(&hold_bus)) {
		char why[300];

		snprintf(why, sizeof(why), "powersched run --policy performance: %.200s", what);
		r = ps_ppd_hold(hold_bus, "performance", why, &hold_cookie);
		if (!r) {
			held = 1;
			ps_cli_live_log(&o.quiet, "power-profiles-daemon: holding the performance profile");
		} else if (r != -ENOENT) {
			char msg[200];

			snprintf(msg, sizeof(msg), "power-profiles-daemon: no hold on performance: %s",
				 strerror(-r));
			ps_cli_live_log(&o.quiet, msg);
		}
	}
	next = ps_cli_live_now() + cfg.interval_s;
	while (!exited) {
		/* attached: the process's end is looked for every 0.1 s */
		sig = ps_cli_live_wait_signal(&set, target && next - ps_cli_live_now() > 0.1 ? 0.1 : next - ps_cli_live_now(), &si);
		if (target) {
			struct pollfd pf = { .fd = pidfd, .events = POLLIN };

			if (sig == SIGINT || sig == SIGTERM || sig == SIGQUIT || sig == SIGHUP) {
				ps_cli_live_log(&o.quiet, "detaching: a signal");
				break; /* the process is not ours to signal */
			}
			if (poll(&pf, 1, 0) == 1) {
				exited = 1;
				break;
			}
			if (sig || ps_cli_live_now() < next)
				continue;
		} else if (sig == SIGCHLD) {
			pid_t w;
			int st;
			struct rusage r1;

			/* the command, and orphans of its tree we adopted */
			while ((w = wait4(-1, &st, WNOHANG, &r1)) > 0)
				if (w == pid) {
					status = st;
					ru = r1;
					exited = 1;
				}
			continue;
		}
		if (sig) {
			/* the terminal sends INT, QUIT and HUP to the whole
			 * foreground group, the command too (SI_KERNEL): not
			 * a second time from us */
			if (!(si.si_code == SI_KERNEL &&
			      (sig == SIGINT || sig == SIGQUIT || sig == SIGHUP)))
				kill(pid, sig); /* passed on */
			continue;
		}
		r = ps_live_step(l, ps_cli_live_now());
		if (r)
			ps_err("run: interval failed: %s", strerror(-r));
		else if (o.plot)
			record(&rec, l, ps_cli_live_now());
		next += cfg.interval_s;
		if (next < ps_cli_live_now())
			next = ps_cli_live_now() + cfg.interval_s;
	}
	/* The CPU time of the command's whole tree: orphans it left (a shell's
	 * background jobs it killed but never waited for) are our children
	 * as subreaper; reap those already ended, giving ones just killed a
	 * moment, and count every reaped descendant (RUSAGE_CHILDREN), not
	 * only the command as wait4 saw it. */
	for (int k = 0; k < 20 && !target; k++) {
		pid_t w;

		while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (w < 0)
			break; /* none left */
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	if (!target && !getrusage(RUSAGE_CHILDREN, &ru1))
		ru = ru1;
	if (pidfd >= 0)
		close(pidfd);
	if (held && !ps_ppd_release(hold_bus, hold_cookie))
		ps_cli_live_log(&o.quiet, "power-profiles-daemon: performance hold released");
	ps_ppd_close(hold_bus);
	if (target || o.plot)
		ps_live_scan_next(l); /* the tree's CPU time is read at scans */
	ps_live_step(l, ps_cli_live_now()); /* the last stretch, for the figures */
	if (o.plot)
		record(&rec, l, ps_cli_live_now());
	ps_live_summary(l, &sum);
	if (o.plot && plot_recording(o.plot, l, &rec, &sum, what, target != 0))
		ps_err("run: plot '%s': cannot write it (%d intervals recorded)", o.plot, rec.n);
	free(rec.busy);
	free(rec.allowed);
	free(rec.power_w);
	free(rec.cmd);
	free(rec.machine);
	free(rec.t);
	ps_live_close(l);
	{
		/* labelled: what the command used, and what the machine did (its
		 * energy and active packages and cores count every task on it) */
		double wall = ps_cli_live_now() - t0,
		       cpu = target ? sum.managed_cpu_s :
			     (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		char share[64] = "";

		if (sum.machine_busy_s > 0.01)
			snprintf(share, sizeof(share), ", %.0f%% of the machine's busy time",
				 100 * (cpu < sum.machine_busy_s ? cpu / sum.machine_busy_s : 1));
		fprintf(stderr,
			"powersched: run summary: policy %s, backend %s, wall %.2f s; the "
			"%s: CPU %.2f s (%.2f CPUs on average%s); the machine: %s energy "
			"%.1f J (mean %.1f W), mean active packages %.2f, cores %.2f; mask "
			"changes %d\n",
			sum.policy_why, sum.backend, wall,
			target ? "process attached to and its descendants, the threads managed "
				 "(from their schedstat)" :
				 "command",
			cpu, wall > 0 ? cpu / wall : 0, share,
			sum.energy_measured ? "measured (RAPL)" : "modeled", sum.energy_j,
			sum.wall_s > 0 ? sum.energy_j / sum.wall_s : 0, sum.mean_packages,
			sum.mean_cores, sum.mask_changes);
		if (sum.scx_exit[0])
			fprintf(stderr, "powersched: run: the sched_ext scheduler %s\n",
				sum.scx_exit);
	}
	if (sum.scx_failed) {
		ps_err("run: the sched_ext scheduler ended on an error (scx-fallback fail): "
		       "exit status 1, not the command's (%d)",
		       WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status));
		return PS_EXIT_FAIL;
	}
	if (WIFSIGNALED(status)) {
		/* die of the same signal (a shell loop stops on Ctrl-C),
		 * without a core of our own */
		struct rlimit nocore = { 0, 0 };
		sigset_t one;

		sig = WTERMSIG(status);
		fflush(NULL);
		setrlimit(RLIMIT_CORE, &nocore);
		signal(sig, SIG_DFL);
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
		return 128 + sig;
	}
	return WEXITSTATUS(status);
}

