// SPDX-License-Identifier: MIT
/*
 * DOC: powersched daemon
 *
 * Manage the eligible threads of the system, reload the config on SIGHUP,
 * put everything back on TERM or INT.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cli.h"
#include "livecmd.h"
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"

static void usage_daemon(FILE *f)
{
	fputs("Usage:\n"
	      " powersched daemon [options]\n"
	      "\n"
	      "Manage the eligible threads of the whole system (not kernel threads,\n"
	      "not real-time ones, not ones with an affinity of their own): with the\n"
	      "scx backend the policy is the kernel's scheduler (sched_ext, every\n"
	      "wakeup placed, no mask written); with affinity, by sched_setaffinity.\n"
	      "SIGHUP reloads the config; SIGTERM and SIGINT put every mask back (or\n"
	      "unload the scheduler) and exit.\n"
	      "\n"
	      "Options:\n"
	      " -c, --config FILE     config (default /etc/powersched/daemon.conf; a\n"
	      "                       missing default file means the defaults)\n"
	      " -p, --policy P        overrides the config's policy (default: auto, as\n"
	      "                       for run: performance on a server unless asked)\n"
	      " -i, --interval D      overrides the config's interval\n"
	      " -b, --backend B       scx, affinity or auto (the default: scx where the\n"
	      "                       kernel has sched_ext and no scheduler is loaded,\n"
	      "                       else affinity); overrides the config's backend\n"
	      "     --scx-fallback F  when the scheduler ends on an error: affinity (the\n"
	      "                       default: the policy goes on by masks), kernel (the\n"
	      "                       kernel's scheduler) or fail (exit 1)\n"
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
	      "  backend auto|scx|affinity | scx-fallback affinity|kernel|fail |\n"
	      "  include-comm NAME... | exclude-comm NAME... |\n"
	      "  include-cgroup PATH... | exclude-cgroup PATH... |\n"
	      "  exclude-containers yes|no (default yes)\n",
	      f);
}

/* ---- config file (parsed by the library: ps_live_conf_parse) ---- */

static int daemon_cfg(const struct ps_cli_live_opts *o, struct ps_live_conf *dc, struct ps_live_cfg *cfg,
		      struct ps_model *m)
{
	const char *path = o->config ? o->config : "/etc/powersched/daemon.conf";
	struct ps_cli_live_opts eff = *o;
	int r = ps_cli_live_read_config(path, o->config != NULL, dc);

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
	if (!eff.backend)
		eff.backend = dc->backend[0] ? dc->backend : "auto";
	if (!eff.scx_fallback && dc->scx_fallback[0])
		eff.scx_fallback = dc->scx_fallback;
	if (!strcmp(eff.backend, "cgroup")) {
		ps_err("daemon: backend 'cgroup' is run's (a cgroup of its command): the daemon's "
		       "are auto, scx and affinity");
		return PS_EXIT_USAGE;
	}
	r = ps_cli_live_build_cfg(&eff, cfg, m, "auto");
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
	struct ps_cli_live_opts o;
	struct ps_live_cfg cfg, ncfg;
	struct ps_model m[2];
	struct ps_live *l = NULL;
	sigset_t set, old;
	siginfo_t si;
	int r, cur = 0, sig, stop = 0, scx;
	double next;

	r = ps_cli_live_parse_opts(argc, argv, &o, "daemon", usage_daemon);
	if (r)
		return r < 0 ? PS_EXIT_OK : r;
	if (optind < argc) {
		ps_err("daemon: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	r = daemon_cfg(&o, &dc[cur], &cfg, &m[cur]);
	if (r)
		return r;
	if (ps_cli_live_check_backend("daemon", &cfg))
		return PS_EXIT_USAGE;
	cfg.log = ps_cli_live_log;
	cfg.log_arg = &o.quiet;
	ps_cli_live_block_signals(&set, &old);
	r = ps_cli_live_open(&cfg, &l);
	if (r)
		return r;
	ps_cli_live_log(&o.quiet, "daemon started");
	next = ps_cli_live_now();
	while (!stop) {
		sig = ps_cli_live_wait_signal(&set, next - ps_cli_live_now(), &si);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGQUIT) {
			stop = 1;
		} else if (sig == SIGHUP) {
			/* a bad new config keeps the old one */
			if (!daemon_cfg(&o, &dc[!cur], &ncfg, &m[!cur])) {
				ncfg.log = ps_cli_live_log;
				ncfg.log_arg = &o.quiet;
				if (ncfg.backend != cfg.backend || ncfg.scx_fallback != cfg.scx_fallback)
					ps_cli_live_log(&o.quiet, "SIGHUP: backend and scx-fallback are "
							"kept as they were (a restart changes them)");
				ncfg.backend = cfg.backend;
				ncfg.scx_fallback = cfg.scx_fallback;
				if (!ps_live_reconfigure(l, &ncfg)) {
					cur = !cur;
					cfg = ncfg; /* the new interval too */
					ps_cli_live_log(&o.quiet, "SIGHUP: config reloaded");
				}
			} else {
				ps_cli_live_log(&o.quiet, "SIGHUP: config not reloaded, keeping the old one");
			}
		} else if (!sig) {
			struct ps_live_summary su;

			r = ps_live_step(l, ps_cli_live_now());
			if (r)
				ps_err("daemon: interval failed: %s", strerror(-r));
			/* the scheduler ended on an error, scx-fallback fail */
			ps_live_summary(l, &su);
			if (su.scx_failed) {
				ps_err("daemon: the sched_ext scheduler ended on an error (%s) and "
				       "scx-fallback is fail: exiting 1", su.scx_exit);
				stop = 2;
			}
			next += cfg.interval_s;
			if (next < ps_cli_live_now())
				next = ps_cli_live_now() + cfg.interval_s;
		}
	}
	{
		struct ps_live_summary su;

		ps_live_summary(l, &su);
		scx = su.backend && !strncmp(su.backend, "scx", 3);
	}
	ps_live_close(l);
	if (stop == 2)
		return PS_EXIT_FAIL;
	ps_cli_live_log(&o.quiet, cfg.dry_run ? "daemon stopped (a dry run: no mask was changed)" :
			scx ? "daemon stopped, the scheduler unloaded" :
			"daemon stopped, every mask put back");
	return PS_EXIT_OK;
}
