/* SPDX-License-Identifier: MIT */
/* Shared by the powersched subcommands: exit codes, errors, JSON strings. */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "ps/policy.h"
#include "ps/power.h"
#include "ps/outfile.h"
#include "ps/topo.h"

#define PS_EXIT_OK 0
#define PS_EXIT_FAIL 1
#define PS_EXIT_USAGE 2

/* "powersched: <what>: <why>" on stderr. */
void ps_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct option;
/*
 * An option getopt_long() refused, as one line on stderr: "powersched:
 * <cmd>: unknown option '--bogus' (see powersched <cmd> --help)", or
 * ambiguous, missing its value, or given a value it does not take. Parse
 * with ':' first in the short options (after a '+'), so that getopt
 * prints nothing itself and returns ':' for a missing value; pass what it
 * returned as @c and the command's long options as @opts.
 * Return: PS_EXIT_USAGE.
 */
int ps_cli_bad_option(const char *cmd, int c, char *const argv[],
		      const struct option *opts);

/*
 * Paths checked before a command starts its work (one line naming the
 * option's @what, the path and the reason, and PS_EXIT_USAGE; else 0):
 * ps_cli_check_dir(), a directory that exists (--sysfs-root, --state-dir);
 * ps_cli_check_out(), a file written at the end (--plot, --output): its
 * directory exists and may be written in, and the name itself is not a
 * directory or a symbolic link (ps_out_open() refuses links).
 */
int ps_cli_check_dir(const char *cmd, const char *what, const char *path);
int ps_cli_check_out(const char *cmd, const char *what, const char *path);

/* A change in percent as "+1.5%" or "-0.3%"; one that rounds to zero at
 * one decimal is "+0.0%", never "-0.0%". Return: @buf. */
char *ps_cli_pct(char *buf, size_t len, double pct);


/* Load a topology/model/policy argument; print the error and return 2. */
int ps_cli_topo(const char *spec, struct ps_topo **out);
int ps_cli_model(const char *name, struct ps_model *m);
/* A model's kinds against the topology: 0, or one line and PS_EXIT_USAGE. */
int ps_cli_model_check(const char *name, const struct ps_model *m,
		       const struct ps_topo *topo);
/*
 * The model of --model NAME, or with NAME NULL the shipped model that fits
 * the topology (ps_model_pick(); @why then says why, else it is empty).
 */
int ps_cli_model_for(const char *name, const struct ps_topo *topo,
		     struct ps_model *m, char *why, size_t whylen);
int ps_cli_policy(const char *s, enum ps_policy *p);

/* The state directory of root (run, daemon, status) */
#define PS_SYSTEM_STATE_DIR "/run/powersched"

/*
 * The default state directory of this user: PS_SYSTEM_STATE_DIR for root;
 * $XDG_RUNTIME_DIR/powersched for others, or /run/user/UID/powersched when
 * the variable is unset and that directory is the user's, else
 * /tmp/powersched-UID. With create, a user's directory is made 0700 and
 * checked to be a directory of their own that no one else may write
 * (error printed). Return: 0, 1 (error, printed); without create, -errno
 * when it is missing or not such a directory (nothing printed).
 */
int ps_cli_state_dir(char *out, size_t len, int create);

/* A file's text (at most len - 1 bytes, NUL-terminated): its length, -errno. */
int ps_cli_read_text(const char *path, char *buf, size_t len);
/*
 * State files (cli/statefile.c), in the directory open at @dfd:
 * ps_cli_state_name(), 1 when @name is one (state.PID.json, not its .tmp),
 * its PID in *pid; ps_cli_state_files(), their names sorted into a
 * malloc'd array (how many, or -errno; ps_cli_state_files_free() frees
 * it); ps_cli_state_load(), one parsed (a JSON object, else NULL; the
 * caller puts it), opened without following a link and only if a regular
 * file.
 */
struct json_object;
int ps_cli_state_name(const char *name, long *pid);
int ps_cli_state_files(int dfd, char ***out);
void ps_cli_state_files_free(char **names, int n);
struct json_object *ps_cli_state_load(int dfd, const char *name);
/*
 * 1 when the instance of @pid whose files are in @dir is alive: its
 * journal's owner line names its start time (a reused PID has another; a
 * dry run has no journal: the PID alone). *start: its start time, 0 gone.
 */
int ps_cli_instance_alive(const char *dir, long pid, unsigned long long *start);

int ps_cmd_plan(int argc, char **argv);
int ps_cmd_list(int argc, char **argv);
int ps_cmd_sim(int argc, char **argv);
int ps_cmd_run(int argc, char **argv);
int ps_cmd_daemon(int argc, char **argv);
int ps_cmd_status(int argc, char **argv);
int ps_cmd_calibrate(int argc, char **argv);
int ps_cmd_restore(int argc, char **argv);

/* One run in a picture: per-PU busy fraction (and allowed set) over time
 * in equal bins, and power. */
struct ps_plot_run {
	const char *name;          /* "power", "legacy:mc=0,smt=1", "run" */
	const char *note;          /* after the name, or NULL */
	int bins;
	double dur_s;              /* the bins cover 0 .. dur_s */
	const double *busy;        /* bins x nr_pus, 0..1 */
	const double *allowed;     /* bins x nr_pus, fraction allowed, or NULL */
	const double *power_w;     /* bins */
	const double *oracle_w;    /* bins, or NULL */
	double mean_w, oracle_mean_w;
	/* run: CPUs busy per bin, the command's (its threads) and the whole
	 * machine's, drawn in a chart of their own below power; or NULL */
	const double *cmd_cpus, *machine_cpus;
	const char *cmd_label; /* "the command" (NULL), "the process attached to" */
	int nr_cpus; /* that chart's scale */
};

/* One panel per run on one time axis, power overlaid; .png or .svg by the
 * name. 0 or -1. */
int ps_plot_runs(const char *path, const struct ps_topo *t, const struct ps_plot_run *runs,
		 int n, const char *title);

#endif
