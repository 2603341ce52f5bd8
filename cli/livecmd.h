/* SPDX-License-Identifier: MIT */
/* Shared by run and daemon (cli/livecmd.c). */
#ifndef PS_CLI_LIVECMD_H
#define PS_CLI_LIVECMD_H

#include <signal.h>
#include <stdio.h>

struct ps_live;
struct ps_live_cfg;
struct ps_live_conf;
struct ps_model;

/* run's and daemon's options, as given */
struct ps_cli_live_opts {
	const char *policy, *interval, *backend, *model, *state_dir, *sysfs_root, *config;
	const char *max_changes, *metrics, *plot, *pid, *scx_fallback;
	int dry_run, quiet, foreground, verbose;
};

void ps_cli_live_log(void *arg, const char *msg);
double ps_cli_live_now(void);
int ps_cli_live_read_config(const char *path, int must_exist, struct ps_live_conf *c);
int ps_cli_live_build_cfg(const struct ps_cli_live_opts *o, struct ps_live_cfg *cfg, struct ps_model *m, const char *def_policy);
int ps_cli_live_check_backend(const char *cmd, const struct ps_live_cfg *cfg);
int ps_cli_live_open(struct ps_live_cfg *cfg, struct ps_live **l);
void ps_cli_live_block_signals(sigset_t *set, sigset_t *old);
void ps_cli_live_restore_signals(const sigset_t *old);
int ps_cli_live_wait_signal(const sigset_t *set, double secs, siginfo_t *si);
int ps_cli_live_parse_opts(int argc, char **argv, struct ps_cli_live_opts *o, const char *cmd, void (*usage)(FILE *));

#endif
