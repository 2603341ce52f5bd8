// SPDX-License-Identifier: MIT
/*
 * What run and daemon share: their options, the config and its defaults,
 * opening the controller, and signals. Signals are taken synchronously
 * (sigtimedwait), so no handler runs at an awkward moment.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "livecmd.h"
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"
#include "ps/sim.h"

void ps_cli_live_log(void *arg, const char *msg)
{
	const int *quiet = arg;

	if (!*quiet)
		fprintf(stderr, "powersched: %s\n", msg);
}

double ps_cli_live_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int ps_cli_live_read_config(const char *path, int must_exist, struct ps_live_conf *c)
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

int ps_cli_live_build_cfg(const struct ps_cli_live_opts *o, struct ps_live_cfg *cfg, struct ps_model *m,
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
	if (o->scx_fallback && (cfg->backend == PS_BACKEND_CGROUP ||
				(cfg->backend == PS_BACKEND_AFFINITY && o->backend &&
				 strcmp(o->backend, "auto")))) {
		ps_err("--scx-fallback goes with the scx backend, not '%s'", o->backend);
		return PS_EXIT_USAGE;
	}
	if (!o->scx_fallback || !strcmp(o->scx_fallback, "affinity")) {
		cfg->scx_fallback = PS_SCX_FALLBACK_AFFINITY;
	} else if (!strcmp(o->scx_fallback, "kernel")) {
		cfg->scx_fallback = PS_SCX_FALLBACK_KERNEL;
	} else if (!strcmp(o->scx_fallback, "fail")) {
		cfg->scx_fallback = PS_SCX_FALLBACK_FAIL;
	} else {
		ps_err("unknown scx-fallback '%s' (affinity, kernel or fail)", o->scx_fallback);
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

int ps_cli_live_check_backend(const char *cmd, const struct ps_live_cfg *cfg)
{
	char buf[512];
	int n;

	if (cfg->backend == PS_BACKEND_SCX && !ps_live_scx_built()) {
		ps_err("%s: backend scx: this powersched was built without it (make SCX=1 "
		       "needs clang, libbpf and bpftool)", cmd);
		return 1;
	}
	if (cfg->backend == PS_BACKEND_SCX && !cfg->dry_run) {
		if (geteuid()) {
			ps_err("%s: backend scx needs root (loading a BPF scheduler)", cmd);
			return 1;
		}
		if (ps_live_scx_usable("/", buf, sizeof(buf))) {
			ps_err("%s: backend scx: %s", cmd, buf);
			return 1;
		}
		return 0;
	}
	if (cfg->backend != PS_BACKEND_CGROUP || cfg->dry_run)
		return 0;
	if (geteuid()) {
		ps_err("%s: backend cgroup needs root: its cgroup is under the root cgroup, "
		       "which only root may write (a user's run uses -b affinity)", cmd);
		return 1;
	}
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

int ps_cli_live_open(struct ps_live_cfg *cfg, struct ps_live **l)
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
void ps_cli_live_block_signals(sigset_t *set, sigset_t *old)
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
void ps_cli_live_restore_signals(const sigset_t *old)
{
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Wait up to secs for a signal; 0 on timeout. */
int ps_cli_live_wait_signal(const sigset_t *set, double secs, siginfo_t *si)
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
	{ "scx-fallback", required_argument, NULL, 'F' },
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
	{ "backend", required_argument, NULL, 'b' },
	{ "scx-fallback", required_argument, NULL, 'F' },
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

int ps_cli_live_parse_opts(int argc, char **argv, struct ps_cli_live_opts *o, const char *cmd,
		      void (*usage)(FILE *))
{
	int daemon = !strcmp(cmd, "daemon");
	const struct option *opts = daemon ? daemon_opts : run_opts;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0; /* one line of ours, not getopt's two */
	while ((c = getopt_long(argc, argv, daemon ? "+:c:p:i:b:m:nqvfh" : "+:p:i:b:m:nqvh", opts,
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
		case 'F': o->scx_fallback = optarg; break;
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
