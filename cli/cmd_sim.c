// SPDX-License-Identifier: MIT
/*
 * DOC: powersched sim
 *
 * Runs the simulator for one policy, or several over the same workload and
 * seed (--compare), and prints a report, JSON, a per-CPU table at a chosen
 * instant, and a picture.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ps/outfile.h"
#include "ps/sim.h"

#define MAX_COMPARE 12

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      " powersched sim --workload W [options]\n"
	      "\n"
	      "Simulate tasks on a topology under a policy, with a model of the\n"
	      "kernel scheduler placing them inside the allowed PUs, and report\n"
	      "energy, power, work, latency, deadline misses and the oracle.\n"
	      "\n"
	      "Options:\n"
	      " -w, --workload W       items joined with '+':\n"
	      "                          cpu:N                   N always-running threads\n"
	      "                          periodic:N:DUTY:PERIOD  N tasks, DUTY x PERIOD of work\n"
	      "                                                  every PERIOD, due by the next\n"
	      "                          poisson:RATE/s:SIZE     jobs of SIZE work, Poisson arrivals\n"
	      "                          trace:FILE              lines 'TIME TASK run WORK'\n"
	      "                          rtapp:FILE.json         an rt-app workload file\n"
	      " -p, --policy P         performance, power, auto, kernel (the kernel model\n"
	      "                        alone), legacy:mc=N,smt=M[,fixed] (N, M in 0..2);\n"
	      "                        default performance, the baseline the others are\n"
	      "                        compared with\n"
	      " -c, --compare P1,P2    several policies, same workload and seed, side by side\n"
	      " -t, --topology TOPO    synthetic description or lstopo XML (default: this machine)\n"
	      " -d, --duration D       simulated time: 10 (seconds), 500ms, 1h (default 10s)\n"
	      " -s, --seed S           random seed (default 1)\n"
	      " -m, --model MODEL      power model file or built-in name (default: the\n"
	      "                        shipped model that fits the topology, else generic)\n"
	      " -i, --interval D       policy interval (default 100ms)\n"
	      "     --snapshot T       time of the per-CPU table (default: the end)\n"
	      "     --plot FILE        picture: FILE.png or FILE.svg (cairo)\n"
	      "     --sysfs-root DIR   where auto looks (default: /)\n"
	      "     --slack-log FILE   rt-app timer activations, one a line: time,\n"
	      "                        task, instance, slack in us (first policy)\n"
	      " -j, --json             print JSON\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Durations take ns, us, ms, s, m or h; a bare number is seconds. Work is\n"
	      "in seconds of one task alone on a core. Exit status: 0 ok, 1 runtime\n"
	      "failure, 2 bad input.\n",
	      f);
}

struct run {
	struct ps_sim_policy pol;
	char why[160];
	struct ps_sim_result res;
};

static void progress(double frac, void *arg)
{
	const char *name = arg;

	fprintf(stderr, "\rpowersched sim: %s %3.0f%%", name, 100 * frac);
	if (frac >= 1)
		fputc('\n', stderr);
}

static void print_snapshot_text(const struct ps_topo *t, const struct run *r)
{
	int p, prev_pkg = -2;

	printf("\ncpu table at t=%.3f s (%s); busy: PU time used over the run\n"
	       "%7s %5s %5s %10s %9s  %s\n", r->res.snap_t, r->pol.name, "package",
	       "core", "cpu", "nr_running", "busy_s", "tasks");
	for (p = 0; p < t->nr_pus; p++) {
		const struct ps_sim_snapshot_cpu *c = &r->res.snap[p];
		int k;

		if (t->pus[p].package != prev_pkg && p)
			printf("\n");
		prev_pkg = t->pus[p].package;
		printf("%7d %5d %5u %9d%c %9.3f ", t->pus[p].package, t->pus[p].core,
		       t->pus[p].os_index, c->nr, c->allowed ? ' ' : 'x',
		       r->res.pu_busy_s[p]);
		for (k = 0; k < c->ntasks_listed; k++)
			printf(" %d", c->tasks[k]);
		if (c->nr > c->ntasks_listed)
			printf(" ...");
		printf("\n");
	}
	printf("(x: not in the allowed set)\n");
}

static void print_report(const struct run *r, double dur)
{
	const struct ps_sim_result *s = &r->res;
	char pct[16];

	printf("policy %s%s%s%s\n", r->pol.name, r->why[0] ? " (" : "", r->why,
	       r->why[0] ? ")" : "");
	printf("  energy %.1f J, mean power %.2f W; oracle (a bound, under the model) "
	       "%.2f W\n", s->energy_j, s->power_w, s->oracle_power_w);
	printf("  model energy per work of this placement %.3f J, the oracle's %.3f J: "
	       "%s above it\n",
	       s->model_work > 0 ? s->model_energy_j / s->model_work : 0,
	       s->oracle_work > 0 ? s->oracle_energy_j / s->oracle_work : 0,
	       ps_cli_pct(pct, sizeof(pct), s->vs_oracle_pct));
	printf("  work %.3f units (%.3f per s), energy per unit of work %.3f J\n",
	       s->work, s->throughput, s->work > 0 ? s->energy_j / s->work : 0);
	if (s->jobs_done)
		printf("  jobs %ld, latency p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
		       s->jobs_done, s->latency_p50_ms, s->latency_p99_ms, s->latency_max_ms);
	else
		printf("  jobs 0, latency - (no job finished)\n");
	printf("  deadline misses %ld of %ld periodic jobs\n", s->deadline_misses,
	       s->periods);
	printf("  mean active packages %.2f, cores %.2f, allowed PUs %.1f over %.3g s\n",
	       s->mean_active_packages, s->mean_active_cores, s->mean_allowed_pus, dur);
	printf("  migrations %ld, mask changes %ld, events %ld\n", s->migrations,
	       s->mask_changes, s->events);
	if (s->activations)
		printf("  rt-app timer activations %ld, negative slack %ld (%.1f%%); "
		       "slack min %.3f ms, p1 %.3f ms, p50 %.3f ms\n",
		       s->activations, s->neg_slack,
		       100.0 * s->neg_slack / s->activations, s->slack_min_ms,
		       s->slack_p1_ms, s->slack_p50_ms);
}

/* The rows of print_compare(), and how each shows its value */
enum cell { CELL_REAL, CELL_COUNT, CELL_LATENCY, CELL_PCT };

static const struct {
	const char *name;
	enum cell kind;
} compare_rows[] = {
	{ "energy (J)", CELL_REAL },         { "power (W)", CELL_REAL },
	{ "oracle power (W)", CELL_REAL },   { "J/work vs oracle", CELL_PCT },
	{ "work (units)", CELL_REAL },       { "energy/work (J)", CELL_REAL },
	{ "latency p50 (ms)", CELL_LATENCY }, { "latency p99 (ms)", CELL_LATENCY },
	{ "deadline misses", CELL_COUNT },   { "active packages", CELL_REAL },
	{ "active cores", CELL_REAL },       { "migrations", CELL_COUNT },
	{ "mask changes", CELL_COUNT },
};

/* the value of compare_rows[@i] for a run */
static double compare_value(int i, const struct ps_sim_result *s)
{
	switch (i) {
	case 0: return s->energy_j;
	case 1: return s->power_w;
	case 2: return s->oracle_power_w;
	case 3: return s->vs_oracle_pct;
	case 4: return s->work;
	case 5: return s->work > 0 ? s->energy_j / s->work : 0;
	case 6: return s->latency_p50_ms;
	case 7: return s->latency_p99_ms;
	case 8: return s->deadline_misses;
	case 9: return s->mean_active_packages;
	case 10: return s->mean_active_cores;
	case 11: return s->migrations;
	default: return s->mask_changes;
	}
}

/*
 * One column per run, the ratio to the baseline beside each value: counts
 * as whole numbers, latency "-" for a run in which no job finished (there
 * is none to measure), the distance to the oracle as a signed percentage.
 */
static void print_compare(struct run *runs, int n, int base)
{
	int k, i;

	printf("%-20s", "");
	for (k = 0; k < n; k++)
		printf("%24s", runs[k].pol.name);
	printf("\n");
	for (i = 0; i < (int)(sizeof(compare_rows) / sizeof(compare_rows[0])); i++) {
		enum cell kind = compare_rows[i].kind;

		printf("%-20s", compare_rows[i].name);
		for (k = 0; k < n; k++) {
			const struct ps_sim_result *s = &runs[k].res, *b = &runs[base].res;
			double v = compare_value(i, s), bv = compare_value(i, b);
			char cell[64], ratio[24] = "";

			if (kind == CELL_LATENCY && !b->jobs_done)
				bv = 0;
			if (bv != 0 && k != base)
				snprintf(ratio, sizeof(ratio), " (x%.3f)", v / bv);
			if (kind == CELL_PCT)
				ps_cli_pct(cell, sizeof(cell), v);
			else if (kind == CELL_LATENCY && !s->jobs_done)
				snprintf(cell, sizeof(cell), "-");
			else if (kind == CELL_COUNT)
				snprintf(cell, sizeof(cell), "%.0f%s", v, ratio);
			else
				snprintf(cell, sizeof(cell), "%.2f%s", v, ratio);
			printf("%24s", cell);
		}
		printf("\n");
	}
	for (k = 0; k < n && runs[k].res.jobs_done; k++)
		;
	printf("(x: ratio to %s%s)\n", runs[base].pol.name,
	       k < n ? "; latency -: no job finished" : "");
}

static void json_run(const struct ps_topo *t, const struct run *r)
{
	const struct ps_sim_result *s = &r->res;
	int p, k;

	printf("{\"policy\":");
	ps_json_str(stdout, r->pol.name);
	if (r->why[0]) {
		printf(",\"reason\":");
		ps_json_str(stdout, r->why);
	}
	printf(",\"energy_j\":%.6f,\"power_w\":%.6f,\"work\":%.6f,\"throughput\":%.6f,"
	       "\"energy_per_work\":%.6f,\"demand\":%.6f,\"work_given\":%.6f,"
	       "\"work_done_finite\":%.6f,\"work_left\":%.6f,"
	       "\"latency_p50_ms\":%.6f,\"latency_p99_ms\":%.6f,\"latency_max_ms\":%.6f,"
	       "\"jobs\":%ld,\"deadline_misses\":%ld,\"periods\":%ld,"
	       "\"oracle_power_w\":%.6f,\"oracle_energy_j\":%.6f,\"model_energy_j\":%.6f,"
	       "\"model_work\":%.6f,\"oracle_work\":%.6f,\"vs_oracle_pct\":%.4f,"
	       "\"mean_active_packages\":%.6f,\"mean_active_cores\":%.6f,"
	       "\"mean_allowed_pus\":%.6f,\"migrations\":%ld,\"mask_changes\":%ld,"
	       "\"intervals\":%ld,\"events\":%ld,\"activations\":%ld,"
	       "\"neg_slack\":%ld,\"neg_slack_pct\":%.4f,\"slack_min_ms\":%.6f,"
	       "\"slack_p1_ms\":%.6f,\"slack_p50_ms\":%.6f,\"snapshot_t\":%.6f,\"cpus\":[",
	       s->energy_j, s->power_w, s->work, s->throughput,
	       s->work > 0 ? s->energy_j / s->work : 0, s->demand, s->work_given,
	       s->work_done_finite, s->work_left, s->latency_p50_ms,
	       s->latency_p99_ms, s->latency_max_ms, s->jobs_done,
	       s->deadline_misses, s->periods, s->oracle_power_w,
	       s->oracle_energy_j, s->model_energy_j, s->model_work, s->oracle_work,
	       s->vs_oracle_pct, s->mean_active_packages,
	       s->mean_active_cores, s->mean_allowed_pus, s->migrations,
	       s->mask_changes, s->intervals, s->events, s->activations,
	       s->neg_slack, s->activations ? 100.0 * s->neg_slack / s->activations : 0,
	       s->slack_min_ms, s->slack_p1_ms, s->slack_p50_ms, s->snap_t);
	for (p = 0; p < t->nr_pus; p++) {
		const struct ps_sim_snapshot_cpu *c = &s->snap[p];

		printf("%s{\"pu\":%u,\"core\":%d,\"package\":%d,\"allowed\":%s,"
		       "\"nr_running\":%d,\"busy_s\":%.6f,\"tasks\":[",
		       p ? "," : "", t->pus[p].os_index, t->pus[p].core,
		       t->pus[p].package, c->allowed ? "true" : "false", c->nr,
		       s->pu_busy_s[p]);
		for (k = 0; k < c->ntasks_listed; k++)
			printf("%s%d", k ? "," : "", c->tasks[k]);
		printf("]}");
	}
	printf("]}");
}

/* Name an rt-app instance numbered as ps_sim_result.slack_task says. */
static void rt_name(const struct ps_workload *wl, int g, const char **task,
		    int *inst)
{
	int it, t;

	*task = "?";
	*inst = 0;
	for (it = 0; it < wl->nitems; it++) {
		const struct ps_rtapp *rt = wl->items[it].rt;

		if (wl->items[it].kind != PS_WL_RTAPP)
			continue;
		for (t = 0; t < rt->ntasks; t++) {
			if (g < rt->tasks[t].instance) {
				*task = rt->tasks[t].name;
				*inst = g;
				return;
			}
			g -= rt->tasks[t].instance;
		}
	}
}

static int write_slack_log(const char *path, const struct ps_workload *wl,
			   const struct ps_sim_result *r)
{
	struct ps_outfile o;
	FILE *f = ps_out_open(&o, path, 0644);
	long i;

	if (!f)
		return -1;
	fprintf(f, "# time_s task instance slack_us\n");
	for (i = 0; i < r->nslack; i++) {
		const char *task;
		int inst;

		rt_name(wl, r->slack_task[i], &task, &inst);
		fprintf(f, "%.6f %s %d %.0f\n", r->slack_t[i], task, inst,
			1e6 * r->slack_s[i]);
	}
	return ps_out_commit(&o) ? -1 : 0;
}

static int split_list(char *s, char **out, int max)
{
	int n = 0;
	char *save = NULL, *p;

	for (p = strtok_r(s, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		/* legacy modes have commas of their own: glue mc=,smt=,fixed */
		if (n && (!strncmp(p, "smt=", 4) || !strcmp(p, "fixed")) &&
		    !strncmp(out[n - 1], "legacy:", 7)) {
			p[-1] = ',';
			continue;
		}
		if (n == max)
			return -1;
		out[n++] = p;
	}
	return n;
}

int ps_cmd_sim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "policy", required_argument, NULL, 'p' },
		{ "compare", required_argument, NULL, 'c' },
		{ "topology", required_argument, NULL, 't' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "model", required_argument, NULL, 'm' },
		{ "interval", required_argument, NULL, 'i' },
		{ "snapshot", required_argument, NULL, 'S' },
		{ "plot", required_argument, NULL, 'P' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "slack-log", required_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *wspec = NULL, *policy = NULL, *tspec = NULL, *model = NULL;
	const char *root = "/", *plot = NULL, *dspec = "10s", *ispec = "100ms";
	const char *snapspec = NULL, *slacklog = NULL;
	char *compare = NULL, *names[MAX_COMPARE], err[320], *end;
	const char *compare_arg = NULL;
	struct run runs[MAX_COMPARE];
	struct ps_sim_config cfg;
	struct ps_workload wl;
	struct ps_topo *topo = NULL;
	struct ps_model m;
	char picked[128] = "";
	unsigned long long seed = 1;
	int json = 0, n = 1, k, c, rc = 0, base = 0, have_wl = 0;
	double dur, iv, snap = -1;

	memset(runs, 0, sizeof(runs));
	memset(&wl, 0, sizeof(wl));
	optind = 1;
	while ((c = getopt_long(argc, argv, ":w:p:c:t:d:s:m:i:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'w': wspec = optarg; break;
		case 'p': policy = optarg; break;
		case 'c': free(compare); compare = strdup(optarg); compare_arg = optarg; break;
		case 't': tspec = optarg; break;
		case 'd': dspec = optarg; break;
		case 'i': ispec = optarg; break;
		case 'm': model = optarg; break;
		case 'S': snapspec = optarg; break;
		case 'P': plot = optarg; break;
		case 'R': root = optarg; break;
		case 'L': slacklog = optarg; break;
		case 'j': json = 1; break;
		case 's':
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-') {
				ps_err("sim: seed '%s' is not a whole number >= 0", optarg);
				free(compare);
				return PS_EXIT_USAGE;
			}
			break;
		case 'h': usage(stdout); free(compare); return PS_EXIT_OK;
		default:
			free(compare);
			return ps_cli_bad_option("sim", c, argv, opts);
		}
	}
	rc = PS_EXIT_USAGE;
	if (optind < argc) {
		ps_err("sim: unexpected argument '%s'", argv[optind]);
		goto out;
	}
	if (!wspec) {
		ps_err("sim: --workload is required (for example --workload cpu:16)");
		goto out;
	}
	if (policy && compare) {
		ps_err("sim: give --policy or --compare, not both");
		goto out;
	}
	if (ps_duration_parse(dspec, &dur)) {
		ps_err("sim: duration '%s' is not a time above 0 and up to 1e7 s, such as 10 "
		       "(seconds), 10s or 500ms", dspec);
		goto out;
	}
	if (ps_duration_parse(ispec, &iv)) {
		ps_err("sim: interval '%s' is not a time above 0 and up to 1e7 s, such as "
		       "0.1 (seconds) or 100ms", ispec);
		goto out;
	}
	if (snapspec && ps_duration_parse(snapspec, &snap) && strcmp(snapspec, "0")) {
		ps_err("sim: snapshot '%s' is not a time such as 5 (seconds) or 500ms", snapspec);
		goto out;
	}
	if (snapspec && !strcmp(snapspec, "0"))
		snap = 0;
	if (snap > dur) {
		ps_err("sim: snapshot '%s' is after the end of the run (%s)", snapspec, dspec);
		goto out;
	}
	if (plot) {
		size_t l = strlen(plot);

		if (l < 5 || (strcmp(plot + l - 4, ".png") && strcmp(plot + l - 4, ".svg"))) {
			ps_err("sim: plot '%s' must end in .png or .svg", plot);
			goto out;
		}
	}
	/* the paths, before any simulating */
	if ((plot && ps_cli_check_out("sim", "plot file", plot)) ||
	    (slacklog && ps_cli_check_out("sim", "slack log", slacklog)) ||
	    (strcmp(root, "/") && ps_cli_check_dir("sim", "--sysfs-root", root)))
		goto out;
	if (compare) {
		n = split_list(compare, names, MAX_COMPARE);
		if (n <= 0) {
			ps_err("sim: compare list '%s' is empty or longer than %d", compare_arg,
			       MAX_COMPARE);
			goto out;
		}
	} else {
		names[0] = (char *)(policy ? policy : "performance");
	}
	for (k = 0; k < n; k++) {
		if (ps_sim_policy_parse(names[k], root, &runs[k].pol, runs[k].why,
					sizeof(runs[k].why), err, sizeof(err))) {
			ps_err("sim: %s", err);
			goto out;
		}
		if (runs[k].pol.mode == PS_SIM_POLICY &&
		    runs[k].pol.policy == PS_POLICY_PERFORMANCE && !runs[k].why[0] &&
		    base == 0 && strcmp(runs[0].pol.name, "performance"))
			base = k;
	}
	k = ps_workload_parse(wspec, &wl, err, sizeof(err));
	if (k) {
		ps_err("sim: %s", k == -ENOMEM ? "out of memory" : err);
		rc = k == -ENOMEM ? PS_EXIT_FAIL : PS_EXIT_USAGE;
		goto out;
	}
	have_wl = 1;
	rc = ps_cli_topo(tspec, &topo);
	if (!rc)
		rc = ps_cli_model_for(model, topo, &m, picked, sizeof(picked));
	if (rc)
		goto out;
	ps_topo_set_smt_gain(topo, m.smt_gain);

	memset(&cfg, 0, sizeof(cfg));
	cfg.topo = topo;
	cfg.model = &m;
	cfg.wl = &wl;
	cfg.duration = dur;
	cfg.interval = iv;
	cfg.balance = 0.004; /* CFS balances a small domain every few ms */
	cfg.snapshot = snap;
	cfg.seed = seed;
	cfg.bins = plot ? 600 : 0;
	for (k = 0; k < n; k++) {
		int r;

		cfg.pol = runs[k].pol;
		cfg.bins = plot ? 600 : 0;
		cfg.progress = isatty(2) && dur >= 60 ? progress : NULL;
		cfg.progress_arg = runs[k].pol.name;
		r = ps_sim_run(&cfg, &runs[k].res);
		if (r) {
			ps_err("sim: %s: %s", runs[k].pol.name,
			       r == -ENOMEM ? "out of memory" :
			       "bad configuration (an rt-app cpus list names no CPU of this topology?)");
			rc = r == -ENOMEM ? PS_EXIT_FAIL : PS_EXIT_USAGE;
			goto out;
		}
	}
	if (plot) {
		struct ps_plot_run pr[MAX_COMPARE];
		char title[400], notes[MAX_COMPARE][200];

		memset(pr, 0, sizeof(pr));
		for (k = 0; k < n; k++) {
			const struct ps_sim_result *x = &runs[k].res;

			snprintf(notes[k], sizeof(notes[k]),
				 "%s%s%smean %.1f W, work %.1f, %.2f J per unit of work, "
				 "active packages %.2f, cores %.2f",
				 runs[k].why[0] ? "(" : "", runs[k].why, runs[k].why[0] ? ") " : "",
				 x->power_w, x->work, x->work > 0 ? x->energy_j / x->work : 0,
				 x->mean_active_packages, x->mean_active_cores);
			pr[k].name = runs[k].pol.name;
			pr[k].note = notes[k];
			pr[k].bins = x->bins;
			pr[k].dur_s = dur;
			pr[k].busy = x->bin_busy;
			pr[k].allowed = x->bin_allowed;
			pr[k].power_w = x->bin_power_w;
			pr[k].oracle_w = n == 1 ? x->bin_oracle_w : NULL;
			pr[k].mean_w = x->power_w;
			pr[k].oracle_mean_w = x->oracle_power_w;
		}
		snprintf(title, sizeof(title), "powersched sim: %s, %s, model %s, seed %llu",
			 topo->desc, wspec, m.name, seed);
		if (ps_plot_runs(plot, topo, pr, n, title)) {
			ps_err("sim: plot '%s': cannot write it", plot);
			rc = PS_EXIT_FAIL;
			goto out;
		}
	}
	if (slacklog && write_slack_log(slacklog, &wl, &runs[0].res)) {
		ps_err("sim: slack log '%s': cannot write it", slacklog);
		rc = PS_EXIT_FAIL;
		goto out;
	}
	if (json) {
		printf("{\"topology\":");
		ps_json_str(stdout, topo->desc);
		printf(",\"workload\":");
		ps_json_str(stdout, wspec);
		printf(",\"model\":");
		ps_json_str(stdout, m.name);
		printf(",\"duration_s\":%.6f,\"seed\":%llu,", dur, seed);
		if (n == 1) {
			printf("\"run\":");
			json_run(topo, &runs[0]);
		} else {
			printf("\"baseline\":");
			ps_json_str(stdout, runs[base].pol.name);
			printf(",\"runs\":[");
			for (k = 0; k < n; k++) {
				if (k)
					printf(",");
				json_run(topo, &runs[k]);
			}
			printf("]");
		}
		printf("}\n");
	} else {
		if (picked[0])
			printf("model %s picked: %s (--model to choose)\n", m.name, picked);
		printf("sim: topology %s (%d PUs), workload %s, model %s, %.3g s, seed %llu\n",
		       topo->desc, topo->nr_pus, wspec, m.name, dur, seed);
		if (n == 1) {
			print_report(&runs[0], dur);
		} else {
			for (k = 0; k < n; k++)
				if (runs[k].why[0])
					printf("%s: %s\n", runs[k].pol.name, runs[k].why);
			print_compare(runs, n, base);
		}
		for (k = 0; k < n; k++)
			if (snapspec || n == 1)
				print_snapshot_text(topo, &runs[k]);
	}
	rc = PS_EXIT_OK;
out:
	for (k = 0; k < MAX_COMPARE; k++)
		ps_sim_result_free(&runs[k].res);
	if (have_wl)
		ps_workload_free(&wl);
	ps_topo_free(topo);
	free(compare);
	return rc;
}
