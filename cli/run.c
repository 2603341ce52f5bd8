// SPDX-License-Identifier: MIT
/*
 * DOC: powersched run and daemon
 *
 * run: start CMD in a cgroup of ours (or under affinity), manage it and its
 * descendants, pass INT, TERM, HUP, QUIT, USR1 and USR2 on, exit with its
 * status, print a summary. daemon: manage the eligible threads of the
 * system, reload the config on SIGHUP, put everything back on TERM or INT.
 * Signals are taken synchronously (sigtimedwait), so no handler runs at an
 * awkward moment. status is in status.c.
 */
#include <dirent.h>
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
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"
#include "ps/ppd.h"
#include "ps/sim.h"


struct opts {
	const char *policy, *interval, *backend, *model, *state_dir, *sysfs_root, *config;
	const char *max_changes, *metrics, *plot, *pid;
	int dry_run, quiet, foreground, verbose;
};

static void log_line(void *arg, const char *msg)
{
	const int *quiet = arg;

	if (!*quiet)
		fprintf(stderr, "powersched: %s\n", msg);
}

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
	static char buf[1 << 18]; /* a state file, as status reads it */
	char path[1100];
	struct dirent **de;
	long found = 0;
	int i, n = scandir(dir, &de, NULL, alphasort);

	for (i = 0; i < n; i++) {
		struct json_object *o = NULL, *v;
		unsigned long long start;
		long pid = 0;
		int end = 0;

		/* state.PID.json and nothing else (not its .tmp) */
		if (sscanf(de[i]->d_name, "state.%ld.json%n", &pid, &end) != 1 ||
		    de[i]->d_name[end])
			pid = 0;
		if (!found && pid > 0 &&
		    snprintf(path, sizeof(path), "%s/%s", dir, de[i]->d_name) > 0 &&
		    ps_cli_read_text(path, buf, sizeof(buf)) > 0 &&
		    (o = json_tokener_parse(buf)) &&
		    json_object_object_get_ex(o, "name", &v) &&
		    json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), "daemon") &&
		    ps_cli_instance_alive(dir, pid, &start) && daemon_applied(o, mine, tmp))
			found = pid;
		json_object_put(o);
		free(de[i]);
	}
	if (n > 0)
		free(de);
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
		log_line(&quiet, msg);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
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
	      "                       (default: cgroup when usable, affinity for a user)\n"
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

static void usage_daemon(FILE *f)
{
	fputs("Usage:\n"
	      " powersched daemon [options]\n"
	      "\n"
	      "Manage the eligible threads of the whole system (not kernel threads,\n"
	      "not real-time ones, not ones with an affinity of their own) with\n"
	      "sched_setaffinity. SIGHUP reloads the config; SIGTERM and SIGINT put\n"
	      "every mask back and exit.\n"
	      "\n"
	      "Options:\n"
	      " -c, --config FILE     config (default /etc/powersched/daemon.conf; a\n"
	      "                       missing default file means the defaults)\n"
	      " -p, --policy P        overrides the config's policy (default: auto, as\n"
	      "                       for run: performance on a server unless asked)\n"
	      " -i, --interval D      overrides the config's interval\n"
	      "     --max-changes N   overrides the config's max-changes\n"
	      " -m, --model MODEL     power model (default: the shipped one that fits)\n"
	      "     --state-dir DIR   journal and state files (default /run/powersched;\n"
	      "                       a user's: as for run)\n"
	      "     --metrics FILE    overrides the config's metrics file\n"
	      "     --sysfs-root DIR  where auto reads power_supply and platform_profile\n"
	      " -f, --foreground      stay in the foreground (the only mode: for systemd)\n"
	      " -n, --dry-run         decide and log, change nothing\n"
	      " -q, --quiet           no log lines\n"
	      " -v, --verbose         log every interval's decision, not only changes\n"
	      " -h, --help            display this help\n"
	      "\n"
	      "Config lines: policy P | interval D | max-changes N | metrics FILE |\n"
	      "  include-comm NAME... | exclude-comm NAME... |\n"
	      "  include-cgroup PATH... | exclude-cgroup PATH... |\n"
	      "  exclude-containers yes|no (default yes)\n",
	      f);
}

/* ---- config file (parsed by the library: ps_live_conf_parse) ---- */

static int read_config(const char *path, int must_exist, struct ps_live_conf *c)
{
	static char text[PS_LIVE_CONF_MAX + 2];
	char err[300];
	ssize_t n;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (!must_exist && errno == ENOENT) {
			ps_live_conf_parse("", 0, c, err, sizeof(err));
			return 0;
		}
		ps_err("config '%s': %s", path, strerror(errno));
		return PS_EXIT_USAGE;
	}
	/* one byte more than the most allowed: a longer file is refused,
	 * not cut */
	while (len < sizeof(text) && (n = read(fd, text + len, sizeof(text) - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (ps_live_conf_parse(text, len, c, err, sizeof(err))) {
		ps_err("config '%s'%s %s", path, strncmp(err, "line ", 5) ? ":" : "", err);
		return PS_EXIT_USAGE;
	}
	return 0;
}

/* ---- shared option handling ---- */

static int build_cfg(const struct opts *o, struct ps_live_cfg *cfg, struct ps_model *m,
		     const char *def_policy)
{
	const char *pol = o->policy ? o->policy : def_policy;
	char *end;
	long mc;

	memset(cfg, 0, sizeof(*cfg));
	if (ps_cli_policy(pol, &cfg->policy))
		return PS_EXIT_USAGE;
	if (ps_duration_parse(o->interval ? o->interval : "500ms", &cfg->interval_s) ||
	    cfg->interval_s < 0.01 || cfg->interval_s > 3600) {
		ps_err("interval '%s' is not a time from 10ms to 1h", o->interval);
		return PS_EXIT_USAGE;
	}
	/* a user may not make cgroups under the root cgroup, and systemd's
	 * user manager does not delegate cpuset (252: pids memory cpu) */
	if (!o->backend || !strcmp(o->backend, "auto"))
		cfg->backend = geteuid() ? PS_BACKEND_AFFINITY : PS_BACKEND_AUTO;
	else if (!strcmp(o->backend, "cgroup"))
		cfg->backend = PS_BACKEND_CGROUP;
	else if (!strcmp(o->backend, "affinity"))
		cfg->backend = PS_BACKEND_AFFINITY;
	else if (!strcmp(o->backend, "scx"))
		cfg->backend = PS_BACKEND_SCX;
	else {
		ps_err("unknown backend '%s' (cgroup, affinity, scx or auto)", o->backend);
		return PS_EXIT_USAGE;
	}
	mc = PS_LIVE_DEFAULT_MAX_CHANGES;
	if (o->max_changes) {
		errno = 0;
		mc = strtol(o->max_changes, &end, 10);
		if (errno || *end || !*o->max_changes || mc < 2 || mc > 256) {
			ps_err("max-changes '%s' is not a whole number from 2 to 256",
			       o->max_changes);
			return PS_EXIT_USAGE;
		}
	}
	cfg->max_changes = (int)mc;
	if (o->model) {
		if (ps_cli_model(o->model, m))
			return PS_EXIT_USAGE;
	} else {
		/* as plan and sim: the shipped model that fits this machine */
		struct ps_topo *t;
		char why[200];
		int r;

		if (ps_cli_topo(NULL, &t))
			return PS_EXIT_FAIL;
		r = ps_cli_model_for(NULL, t, m, why, sizeof(why));
		ps_topo_free(t);
		if (r)
			return r;
	}
	cfg->model = m;
	cfg->root = "/";
	cfg->sysfs_root = o->sysfs_root;
	if (o->state_dir) {
		cfg->state_dir = o->state_dir;
	} else {
		static char dir[1024];

		if (ps_cli_state_dir(dir, sizeof(dir), 1))
			return PS_EXIT_FAIL;
		cfg->state_dir = dir;
	}
	cfg->metrics_path = o->metrics && o->metrics[0] ? o->metrics : NULL;
	cfg->dry_run = o->dry_run;
	cfg->verbose = o->verbose;
	return 0;
}

/* A backend asked for by name must be usable: only the default falls back
 * (to affinity, saying so). 0, or 1 (said). */
static int check_backend(const char *cmd, const struct ps_live_cfg *cfg)
{
	char buf[512];
	int n;

	if (cfg->backend == PS_BACKEND_SCX && !cfg->dry_run) {
		if (ps_live_scx_usable("/", buf, sizeof(buf))) {
			ps_err("%s: backend scx: %s", cmd, buf);
			return 1;
		}
		return 0;
	}
	if (cfg->backend != PS_BACKEND_CGROUP || cfg->dry_run)
		return 0;
	n = ps_cli_read_text("/sys/fs/cgroup/cgroup.controllers", buf, sizeof(buf));
	if (n <= 0) {
		ps_err("%s: backend cgroup needs cgroup v2 at /sys/fs/cgroup: no "
		       "cgroup.controllers there (a cgroup v1 or hybrid host?); use -b affinity",
		       cmd);
		return 1;
	}
	if (!strstr(buf, "cpuset")) {
		ps_err("%s: backend cgroup needs the cpuset controller: "
		       "/sys/fs/cgroup/cgroup.controllers lists only '%.*s'; use -b affinity",
		       cmd, (int)strcspn(buf, "\n"), buf);
		return 1;
	}
	return 0;
}

/* Whether execvp() could find and run CMD, as it searches PATH (the exec
 * itself still reports what changes in between). 1, or 0 with errno. */
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

static int open_live(struct ps_live_cfg *cfg, struct ps_live **l)
{
	int r = ps_live_open(cfg, l);

	if (r) {
		ps_err("cannot start: %s (state directory %s)", strerror(-r), cfg->state_dir);
		return PS_EXIT_FAIL;
	}
	return 0;
}

/* the dispositions ignore_sync_signals() changed, for the child */
static struct sigaction old_pipe, old_xfsz;

/*
 * Every signal whose default is to end the process is taken (and passed on
 * or acted on) or ignored: powersched must never die with masks and
 * cgroups left behind. SIGPIPE and SIGXFSZ come from our own writes (a
 * closed stderr pipe, a file limit): ignored, the write fails instead.
 */
static void block_signals(sigset_t *set, sigset_t *old)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
		SIGCHLD, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGXCPU,
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
	};
	struct sigaction ign;
	size_t i;
	int s;

	sigemptyset(set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	for (s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
	sigprocmask(SIG_BLOCK, set, old);
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigaction(SIGXFSZ, &ign, &old_xfsz);
}

/* in the child: the signal state powersched was started with */
static void restore_signals(const sigset_t *old)
{
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Wait up to secs for a signal; 0 on timeout. */
static int wait_signal(const sigset_t *set, double secs, siginfo_t *si)
{
	struct timespec ts;
	int s;

	if (secs < 0)
		secs = 0;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	memset(si, 0, sizeof(*si));
	s = sigtimedwait(set, si, &ts);
	return s < 0 ? 0 : s;
}

/* ---- run ---- */

static const struct option run_opts[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "interval", required_argument, NULL, 'i' },
	{ "backend", required_argument, NULL, 'b' },
	{ "model", required_argument, NULL, 'm' },
	{ "max-changes", required_argument, NULL, 'M' },
	{ "state-dir", required_argument, NULL, 'S' },
	{ "sysfs-root", required_argument, NULL, 'R' },
	{ "metrics", required_argument, NULL, 'X' },
	{ "plot", required_argument, NULL, 'P' },
	{ "pid", required_argument, NULL, 'A' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* the daemon's: what its --help lists (a run-only option is refused, not
 * taken and ignored) */
static const struct option daemon_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "policy", required_argument, NULL, 'p' },
	{ "interval", required_argument, NULL, 'i' },
	{ "model", required_argument, NULL, 'm' },
	{ "max-changes", required_argument, NULL, 'M' },
	{ "state-dir", required_argument, NULL, 'S' },
	{ "sysfs-root", required_argument, NULL, 'R' },
	{ "metrics", required_argument, NULL, 'X' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_opts(int argc, char **argv, struct opts *o, const char *cmd,
		      void (*usage)(FILE *))
{
	int daemon = !strcmp(cmd, "daemon");
	const struct option *opts = daemon ? daemon_opts : run_opts;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0; /* one line of ours, not getopt's two */
	while ((c = getopt_long(argc, argv, daemon ? "+:c:p:i:m:nqvfh" : "+:p:i:b:m:nqvh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'p': o->policy = optarg; break;
		case 'i': o->interval = optarg; break;
		case 'b': o->backend = optarg; break;
		case 'm': o->model = optarg; break;
		case 'c': o->config = optarg; break;
		case 'M': o->max_changes = optarg; break;
		case 'S': o->state_dir = optarg; break;
		case 'R': o->sysfs_root = optarg; break;
		case 'X': o->metrics = optarg; break;
		case 'P': o->plot = optarg; break;
		case 'A': o->pid = optarg; break;
		case 'n': o->dry_run = 1; break;
		case 'q': o->quiet = 1; break;
		case 'v': o->verbose = 1; break;
		case 'f': o->foreground = 1; break;
		case 'h': usage(stdout); return -1;
		default:
			return ps_cli_bad_option(cmd, c, argv, opts);
		}
	}
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
	struct opts o;
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

	r = parse_opts(argc, argv, &o, "run", usage_run);
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
	r = build_cfg(&o, &cfg, &m, "auto");
	if (r)
		return r;
	if (target)
		cfg.backend = PS_BACKEND_AFFINITY;
	/* what can be found wrong now is said now, in one line, before the
	 * command runs: not after it, with a summary of a run that never was */
	if ((o.plot && ps_cli_check_out("run", "plot file", o.plot)) ||
	    (o.metrics && o.metrics[0] && ps_cli_check_out("run", "metrics file", o.metrics)) ||
	    check_backend("run", &cfg))
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
	cfg.log = log_line;
	cfg.log_arg = &o.quiet;
	/* a dry run too: the daemon leaves every run's tree to it */
	if (!target)
		leave_daemon_set(cfg.state_dir, o.quiet);
	block_signals(&set, &old);
	r = open_live(&cfg, &l);
	if (r)
		return r;
	if (target) {
		t0 = now_s();
		pid = target;
		ps_live_set_child(l, pid);
		log_line(&o.quiet, o.dry_run ? "attached to the running process (a dry run: no mask "
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
	t0 = now_s();
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
		restore_signals(&old);
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
			log_line(&o.quiet, "power-profiles-daemon: holding the performance profile");
		} else if (r != -ENOENT) {
			char msg[200];

			snprintf(msg, sizeof(msg), "power-profiles-daemon: no hold on performance: %s",
				 strerror(-r));
			log_line(&o.quiet, msg);
		}
	}
	next = now_s() + cfg.interval_s;
	while (!exited) {
		/* attached: the process's end is looked for every 0.1 s */
		sig = wait_signal(&set, target && next - now_s() > 0.1 ? 0.1 : next - now_s(), &si);
		if (target) {
			struct pollfd pf = { .fd = pidfd, .events = POLLIN };

			if (sig == SIGINT || sig == SIGTERM || sig == SIGQUIT || sig == SIGHUP) {
				log_line(&o.quiet, "detaching: a signal");
				break; /* the process is not ours to signal */
			}
			if (poll(&pf, 1, 0) == 1) {
				exited = 1;
				break;
			}
			if (sig || now_s() < next)
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
		r = ps_live_step(l, now_s());
		if (r)
			ps_err("run: interval failed: %s", strerror(-r));
		else if (o.plot)
			record(&rec, l, now_s());
		next += cfg.interval_s;
		if (next < now_s())
			next = now_s() + cfg.interval_s;
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
		log_line(&o.quiet, "power-profiles-daemon: performance hold released");
	ps_ppd_close(hold_bus);
	if (target || o.plot)
		ps_live_scan_next(l); /* the tree's CPU time is read at scans */
	ps_live_step(l, now_s()); /* the last stretch, for the figures */
	if (o.plot)
		record(&rec, l, now_s());
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
		double wall = now_s() - t0,
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

/* ---- daemon ---- */

static int daemon_cfg(const struct opts *o, struct ps_live_conf *dc, struct ps_live_cfg *cfg,
		      struct ps_model *m)
{
	const char *path = o->config ? o->config : "/etc/powersched/daemon.conf";
	struct opts eff = *o;
	int r = read_config(path, o->config != NULL, dc);

	if (r)
		return r;
	if (!eff.policy && dc->policy[0])
		eff.policy = dc->policy;
	if (!eff.interval && dc->interval[0])
		eff.interval = dc->interval;
	if (!eff.max_changes && dc->max_changes[0])
		eff.max_changes = dc->max_changes;
	if (!eff.metrics && dc->metrics[0])
		eff.metrics = dc->metrics;
	eff.backend = "affinity";
	r = build_cfg(&eff, cfg, m, "auto");
	if (r)
		return r;
	if (eff.metrics && eff.metrics[0] && ps_cli_check_out("daemon", "metrics file", eff.metrics))
		return PS_EXIT_USAGE;
	cfg->name = "daemon";
	cfg->whole_system = 1;
	cfg->include_comm = (const char *const *)dc->inc;
	cfg->exclude_comm = (const char *const *)dc->exc;
	cfg->include_cgroup = (const char *const *)dc->incg;
	cfg->exclude_cgroup = (const char *const *)dc->excg;
	cfg->exclude_containers = dc->exclude_containers;
	cfg->quiet_parked = dc->quiet_parked;
	return 0;
}

int ps_cmd_daemon(int argc, char **argv)
{
	static struct ps_live_conf dc[2];
	struct opts o;
	struct ps_live_cfg cfg, ncfg;
	struct ps_model m[2];
	struct ps_live *l = NULL;
	sigset_t set, old;
	siginfo_t si;
	int r, cur = 0, sig, stop = 0;
	double next;

	r = parse_opts(argc, argv, &o, "daemon", usage_daemon);
	if (r)
		return r < 0 ? PS_EXIT_OK : r;
	if (optind < argc) {
		ps_err("daemon: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	r = daemon_cfg(&o, &dc[cur], &cfg, &m[cur]);
	if (r)
		return r;
	cfg.log = log_line;
	cfg.log_arg = &o.quiet;
	block_signals(&set, &old);
	r = open_live(&cfg, &l);
	if (r)
		return r;
	log_line(&o.quiet, "daemon started");
	next = now_s();
	while (!stop) {
		sig = wait_signal(&set, next - now_s(), &si);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGQUIT) {
			stop = 1;
		} else if (sig == SIGHUP) {
			/* a bad new config keeps the old one */
			if (!daemon_cfg(&o, &dc[!cur], &ncfg, &m[!cur])) {
				ncfg.log = log_line;
				ncfg.log_arg = &o.quiet;
				if (!ps_live_reconfigure(l, &ncfg)) {
					cur = !cur;
					cfg = ncfg; /* the new interval too */
					log_line(&o.quiet, "SIGHUP: config reloaded");
				}
			} else {
				log_line(&o.quiet, "SIGHUP: config not reloaded, keeping the old one");
			}
		} else if (!sig) {
			r = ps_live_step(l, now_s());
			if (r)
				ps_err("daemon: interval failed: %s", strerror(-r));
			next += cfg.interval_s;
			if (next < now_s())
				next = now_s() + cfg.interval_s;
		}
	}
	ps_live_close(l);
	log_line(&o.quiet, cfg.dry_run ? "daemon stopped (a dry run: no mask was changed)" :
		 "daemon stopped, every mask put back");
	return PS_EXIT_OK;
}

static void usage_restore(FILE *f)
{
	fputs("Usage:\n"
	      " powersched restore [options]\n"
	      "\n"
	      "Put back what a run or daemon that did not exit cleanly changed (killed,\n"
	      "or stopped by systemd after TimeoutStopSec): replay the journals of\n"
	      "instances that are gone, as the next run or daemon would at its start.\n"
	      "A journal whose instance still runs is left alone. The unit runs it as\n"
	      "ExecStopPost.\n"
	      "\n"
	      "Options:\n"
	      "     --state-dir DIR   the state directory (default: yours; root's is\n"
	      "                       " PS_SYSTEM_STATE_DIR ")\n"
	      " -q, --quiet           say nothing when there was nothing to put back\n"
	      " -h, --help            display this help\n"
	      "\n"
	      "Exit status: 0 (also when there was nothing to put back), 1 when the\n"
	      "state directory is not private to you, 2 for bad usage.\n",
	      f);
}

int ps_cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL;
	char def[1024];
	int c, quiet = 0, loud = 0, journals, threads, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': dir = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage_restore(stdout); return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("restore", c, argv, opts);
		}
	}
	if (optind < argc) {
		ps_err("restore: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	if (!dir) {
		/* the name only: whether it is there and private is
		 * ps_live_restore_dir()'s to say, as for --state-dir */
		ps_cli_state_dir(def, sizeof(def), 0);
		dir = def;
	}
	r = ps_live_restore_dir(dir, log_line, &loud, &journals, &threads);
	if (r == -ENOENT) {
		if (!quiet)
			fprintf(stderr, "powersched: restore: nothing to put back (no state "
				"directory %s)\n", dir);
		return PS_EXIT_OK;
	}
	if (r) {
		ps_err("restore: state directory %s: %s", dir,
		       r == -EPERM ? "not a directory of yours that only you can write: refused" :
				     strerror(-r));
		return PS_EXIT_FAIL;
	}
	if (journals)
		fprintf(stderr, "powersched: restore: %d journal(s) of instances that are gone "
			"replayed, %d thread mask(s) put back\n", journals, threads);
	else if (!quiet)
		fprintf(stderr, "powersched: restore: nothing to put back in %s\n", dir);
	return PS_EXIT_OK;
}
