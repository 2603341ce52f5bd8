// SPDX-License-Identifier: MIT
/*
 * DOC: powersched plan
 *
 * For a topology and a load, the placement each policy chooses, with power,
 * throughput and energy per unit of work from the model, and the change
 * against performance.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ps/loadspec.h"
#include "ps/ppd.h"
#include "ps/source.h"

struct plan {
	enum ps_policy requested;
	char why[160];
	struct ps_decision d;
	struct ps_power pw;
};

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      " powersched plan --load LIST [options]\n"
	      "\n"
	      "Show the placement each policy chooses for a load: a per-CPU table\n"
	      "grouped by package and core, the active domains, modeled power,\n"
	      "throughput and energy per unit of work, and the change against\n"
	      "performance. Without --policy, all three side by side.\n"
	      "\n"
	      "Options:\n"
	      " -l, --load LIST        tasks and utilizations: 16x1.0, 4x0.3,2x1.0\n"
	      " -p, --policy POLICY    performance, power or auto (default: all three)\n"
	      " -t, --topology TOPO    hwloc synthetic description (\"pack:2 core:8 pu:2\")\n"
	      "                        or lstopo XML file; default: this machine\n"
	      " -m, --model MODEL      power model file or built-in name (default: the\n"
	      "                        shipped model that fits the topology, else generic)\n"
	      "     --sysfs-root DIR   where auto reads power_supply and platform_profile\n"
	      "                        (default: /); with /, auto follows\n"
	      "                        power-profiles-daemon first, as run does\n"
	      " -j, --json             print JSON\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Built-in models:",
	      f);
	for (const char *const *n = ps_model_builtin_names(); *n; n++)
		fprintf(f, " %s", *n);
	fputs("\n\nExit status: 0 ok, 1 runtime failure, 2 bad usage or input.\n", f);
}

static int plan_make(const struct ps_topo *topo, const struct ps_model *m,
		     enum ps_policy req, const char *root, const double *util,
		     int n, struct plan *p)
{
	enum ps_policy pol = req;
	struct ps_policy_params params;
	int r;

	ps_policy_params_default(&params);
	params.model = m;

	p->requested = req;
	p->why[0] = '\0';
	if (req == PS_POLICY_AUTO)
		ps_ppd_resolve_once(root, &pol, p->why, sizeof(p->why));
	r = ps_decision_init(&p->d, topo, n);
	if (!r)
		r = ps_policy_decide(topo, pol, util, n, &params, NULL, &p->d);
	if (!r)
		r = ps_power_eval(topo, m, p->d.pu_load, NULL, &p->pw);
	return r;
}

static double pct(double v, double base)
{
	return base != 0 ? 100.0 * (v - base) / base : 0.0;
}

/* Tasks of each PU, as lists: first[pu]..first[pu+1] into ids. */
static int group_tasks(const struct ps_topo *topo, const struct ps_decision *d,
		       int **first_out, int **ids_out)
{
	int *first = calloc(topo->nr_pus + 1, sizeof(int));
	int *ids = malloc(sizeof(int) * (d->nr_tasks + 1));
	int *pos, i;

	if (!first || !ids) {
		free(first);
		free(ids);
		return -1;
	}
	for (i = 0; i < d->nr_tasks; i++)
		first[d->task_pu[i] + 1]++;
	for (i = 0; i < topo->nr_pus; i++)
		first[i + 1] += first[i];
	pos = calloc(topo->nr_pus, sizeof(int));
	if (!pos) {
		free(first);
		free(ids);
		return -1;
	}
	for (i = 0; i < d->nr_tasks; i++) {
		int pu = d->task_pu[i];

		ids[first[pu] + pos[pu]++] = i;
	}
	free(pos);
	*first_out = first;
	*ids_out = ids;
	return 0;
}

static void print_policy_name(FILE *f, const struct plan *p, int width)
{
	char buf[64];

	if (p->requested == PS_POLICY_AUTO)
		snprintf(buf, sizeof(buf), "auto->%s", ps_policy_name(p->d.policy));
	else
		snprintf(buf, sizeof(buf), "%s", ps_policy_name(p->d.policy));
	fprintf(f, "%*s", width, buf);
}

static int print_text(const struct ps_topo *topo, const struct ps_model *m,
		      const struct plan *plans, int np, const struct plan *perf,
		      const double *util, int n)
{
	static const enum ps_level show[] = {
		PS_LVL_MACHINE, PS_LVL_GROUP, PS_LVL_PACKAGE, PS_LVL_DIE,
		PS_LVL_NUMA,    PS_LVL_L3,    PS_LVL_L2,      PS_LVL_CORE,
		PS_LVL_PU,
	};
	double sum = 0;
	int **cnt, i, j, k, prev_pkg = -2;

	for (i = 0; i < n; i++)
		sum += util[i];
	printf("topology: %s (%d PUs), model: %s, load: %d tasks, sum %.2f\n",
	       topo->desc, topo->nr_pus, m->name, n, sum);
	for (i = 0; i < np; i++)
		if (plans[i].requested == PS_POLICY_AUTO)
			printf("auto: %s (%s)\n", ps_policy_name(plans[i].d.policy),
			       plans[i].why);

	cnt = calloc(np, sizeof(*cnt));
	for (k = 0; cnt && k < np; k++) {
		cnt[k] = calloc(topo->nr_pus, sizeof(int));
		if (!cnt[k])
			break;
		for (i = 0; i < plans[k].d.nr_tasks; i++)
			cnt[k][plans[k].d.task_pu[i]]++;
	}
	if (!cnt || k < np) {
		for (k = 0; cnt && k < np; k++)
			free(cnt[k]);
		free(cnt);
		return -1;
	}
	printf("\n%7s %5s %5s", "package", "core", "cpu");
	for (k = 0; k < np; k++)
		print_policy_name(stdout, &plans[k], 22);
	printf("\n%19s", "");
	for (k = 0; k < np; k++)
		printf("%11s %7s   ", "nr_running", "load");
	printf("\n");
	for (i = 0; i < topo->nr_pus; i++) {
		const struct ps_pu *pu = &topo->pus[i];

		if (pu->package != prev_pkg && i)
			printf("\n");
		prev_pkg = pu->package;
		printf("%7d %5d %5u", pu->package, pu->core, pu->os_index);
		for (k = 0; k < np; k++) {
			const struct ps_decision *d = &plans[k].d;
			printf("%11d%c%7.2f   ", cnt[k][i],
			       d->allowed[i] ? ' ' : 'x', d->pu_load[i]);
		}
		printf("\n");
	}
	for (k = 0; k < np; k++)
		free(cnt[k]);
	free(cnt);
	printf("(x: not in the allowed set)\n\n%-22s", "");
	for (k = 0; k < np; k++)
		print_policy_name(stdout, &plans[k], 20);
	printf("\n");
	for (j = 0; j < (int)(sizeof(show) / sizeof(show[0])); j++) {
		char lbl[32];

		if (!plans[0].d.total[show[j]])
			continue;
		snprintf(lbl, sizeof(lbl), "active %s", ps_level_name(show[j]));
		printf("%-22s", lbl);
		for (k = 0; k < np; k++) {
			char v[32];

			snprintf(v, sizeof(v), "%d/%d", plans[k].d.active[show[j]],
				 plans[k].d.total[show[j]]);
			printf("%20s", v);
		}
		printf("\n");
	}
	printf("%-22s", "allowed PUs");
	for (k = 0; k < np; k++)
		printf("%20d", plans[k].d.nr_allowed);
	printf("\n%-22s", "power (W)");
	for (k = 0; k < np; k++)
		printf("%20.1f", plans[k].pw.power_w);
	printf("\n%-22s", "throughput");
	for (k = 0; k < np; k++)
		printf("%20.3f", plans[k].pw.throughput);
	printf("\n%-22s", "energy/work (J/unit)");
	for (k = 0; k < np; k++)
		printf("%20.2f", plans[k].pw.energy_per_work);
	printf("\n");
	for (k = 0; k < np; k++) {
		const struct plan *p = &plans[k];
		char dp[16], dt[16], de[16];

		if (p->d.policy == PS_POLICY_PERFORMANCE)
			continue;
		printf("%s vs performance: power %s (%.1f W %s), throughput %s, "
		       "energy/work %s%s; placement: %s\n",
		       p->requested == PS_POLICY_AUTO ? "auto" : ps_policy_name(p->d.policy),
		       ps_cli_pct(dp, sizeof(dp), pct(p->pw.power_w, perf->pw.power_w)),
		       p->pw.power_w <= perf->pw.power_w ?
			       perf->pw.power_w - p->pw.power_w :
			       p->pw.power_w - perf->pw.power_w,
		       p->pw.power_w <= perf->pw.power_w ? "saved" : "more",
		       ps_cli_pct(dt, sizeof(dt), pct(p->pw.throughput, perf->pw.throughput)),
		       ps_cli_pct(de, sizeof(de), pct(p->pw.energy_per_work,
						      perf->pw.energy_per_work)),
		       p->d.overloaded ? " (load exceeds the machine at target fill: all PUs used)" : "",
		       ps_cand_name(p->d.chosen));
	}
	printf("(1 unit of work = one task running for 1 s alone on a core; "
	       "throughput 1.0 = every task at full speed)\n");
	return 0;
}

static void print_json_meta(const struct ps_topo *topo, const struct ps_model *m,
			    int n)
{
	printf("\"topology\":");
	ps_json_str(stdout, topo->desc);
	printf(",\"model\":");
	ps_json_str(stdout, m->name);
	printf(",\"nr_pus\":%d,\"nr_tasks\":%d,", topo->nr_pus, n);
}

/* One plan as a JSON object; with @m, the run's topology and model inside. */
static int print_json_plan(const struct ps_topo *topo, const struct plan *p,
			   const struct plan *perf, const struct ps_model *m)
{
	int *first, *ids, i, j, l, comma = 0;

	if (group_tasks(topo, &p->d, &first, &ids))
		return -1;
	printf("{");
	if (m)
		print_json_meta(topo, m, p->d.nr_tasks);
	printf("\"policy\":");
	ps_json_str(stdout, ps_policy_name(p->d.policy));
	printf(",\"requested\":");
	ps_json_str(stdout, ps_policy_name(p->requested));
	if (p->requested == PS_POLICY_AUTO) {
		printf(",\"reason\":");
		ps_json_str(stdout, p->why);
	}
	printf(",\"cpus\":[");
	for (i = 0; i < topo->nr_pus; i++) {
		const struct ps_pu *pu = &topo->pus[i];

		printf("%s{\"pu\":%u,\"core\":%d,\"package\":%d,\"allowed\":%s,"
		       "\"load\":%.4f,\"nr_tasks\":%d,\"tasks\":[",
		       i ? "," : "", pu->os_index, pu->core, pu->package,
		       p->d.allowed[i] ? "true" : "false", p->d.pu_load[i],
		       first[i + 1] - first[i]);
		for (j = first[i]; j < first[i + 1]; j++)
			printf("%s%d", j > first[i] ? "," : "", ids[j]);
		printf("]}");
	}
	printf("],\"allowed\":[");
	for (i = 0; i < topo->nr_pus; i++)
		if (p->d.allowed[i])
			printf("%s%u", comma++ ? "," : "", topo->pus[i].os_index);
	printf("],\"active_packages\":%d,\"active_cores\":%d,\"active\":{",
	       p->d.active[PS_LVL_PACKAGE], p->d.active[PS_LVL_CORE]);
	for (l = 0, comma = 0; l < PS_LVL_COUNT; l++)
		if (p->d.total[l])
			printf("%s\"%s\":{\"active\":%d,\"total\":%d}", comma++ ? "," : "",
			       ps_level_name(l), p->d.active[l], p->d.total[l]);
	printf("},\"placement\":");
	ps_json_str(stdout, ps_cand_name(p->d.chosen));
	printf(",\"overloaded\":%s,\"power_w\":%.4f,\"throughput\":%.6f,"
	       "\"work\":%.6f,\"demand\":%.6f,\"energy_per_work\":%.6f,"
	       "\"vs_performance\":{\"power_pct\":%.3f,\"throughput_pct\":%.3f,"
	       "\"energy_per_work_pct\":%.3f}}",
	       p->d.overloaded ? "true" : "false", p->pw.power_w, p->pw.throughput,
	       p->pw.work, p->pw.demand, p->pw.energy_per_work,
	       pct(p->pw.power_w, perf->pw.power_w),
	       pct(p->pw.throughput, perf->pw.throughput),
	       pct(p->pw.energy_per_work, perf->pw.energy_per_work));
	free(first);
	free(ids);
	return 0;
}

int ps_cmd_plan(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "load", required_argument, NULL, 'l' },
		{ "policy", required_argument, NULL, 'p' },
		{ "topology", required_argument, NULL, 't' },
		{ "model", required_argument, NULL, 'm' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *load = NULL, *policy = NULL, *tspec = NULL;
	const char *model = NULL, *root = "/";
	struct plan plans[3], perf;
	enum ps_policy reqs[3] = { PS_POLICY_PERFORMANCE, PS_POLICY_POWER,
				   PS_POLICY_AUTO };
	struct ps_topo *topo = NULL;
	struct ps_model m;
	double *util = NULL;
	char picked[128] = "";
	int json = 0, np = 3, n = 0, c, r, k, rc = PS_EXIT_OK;
	char err[256];

	memset(plans, 0, sizeof(plans));
	memset(&perf, 0, sizeof(perf));
	optind = 1;
	while ((c = getopt_long(argc, argv, ":l:p:t:m:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'l': load = optarg; break;
		case 'p': policy = optarg; break;
		case 't': tspec = optarg; break;
		case 'm': model = optarg; break;
		case 'R': root = optarg; break;
		case 'j': json = 1; break;
		case 'h': usage(stdout); return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("plan", c, argv, opts);
		}
	}
	if (optind < argc) {
		ps_err("plan: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	if (!load) {
		ps_err("plan: --load is required (for example --load 16x1.0)");
		return PS_EXIT_USAGE;
	}
	if (strcmp(root, "/") && ps_cli_check_dir("plan", "--sysfs-root", root))
		return PS_EXIT_USAGE;
	if (policy) {
		r = ps_cli_policy(policy, &reqs[0]);
		if (r)
			return r;
		np = 1;
	}
	r = ps_load_parse(load, &util, &n, err, sizeof(err));
	if (r) {
		ps_err("%s", r == -ENOMEM ? "load: out of memory" : err);
		return r == -ENOMEM ? PS_EXIT_FAIL : PS_EXIT_USAGE;
	}
	rc = ps_cli_topo(tspec, &topo);
	if (!rc)
		rc = ps_cli_model_for(model, topo, &m, picked, sizeof(picked));
	if (rc)
		goto out;
	ps_topo_set_smt_gain(topo, m.smt_gain);

	if (plan_make(topo, &m, PS_POLICY_PERFORMANCE, root, util, n, &perf))
		goto fail;
	for (k = 0; k < np; k++)
		if (plan_make(topo, &m, reqs[k], root, util, n, &plans[k]))
			goto fail;
	if (!json) {
		if (picked[0])
			printf("model %s picked: %s (--model to choose)\n", m.name, picked);
		if (print_text(topo, &m, plans, np, &perf, util, n))
			goto fail;
	} else if (np == 1) {
		if (print_json_plan(topo, &plans[0], &perf, &m))
			goto fail;
		printf("\n");
	} else {
		printf("{");
		print_json_meta(topo, &m, n);
		printf("\"plans\":[");
		for (k = 0; k < np; k++) {
			if (k)
				printf(",");
			if (print_json_plan(topo, &plans[k], &perf, NULL))
				goto fail;
		}
		printf("]}\n");
	}
	goto out;
fail:
	ps_err("plan: out of memory");
	rc = PS_EXIT_FAIL;
out:
	for (k = 0; k < 3; k++)
		ps_decision_fini(&plans[k].d);
	ps_decision_fini(&perf.d);
	ps_topo_free(topo);
	free(util);
	return rc;
}
