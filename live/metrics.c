// SPDX-License-Identifier: MIT
/*
 * DOC: metrics for Prometheus
 *
 * The figures of the state file in the Prometheus text exposition format
 * (version 0.0.4), for node_exporter's textfile collector: written to
 * PATH.tmp in the same directory and renamed over PATH each interval, so a
 * scrape never sees half a file. Metric and label names follow Prometheus'
 * naming practice (base units, _total for counters).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "live_int.h"
#include "ps/outfile.h"
#include "ps/topo.h"

/* a label value: backslash, double quote and newline escaped */
static void label(FILE *f, const char *v)
{
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(FILE *f, const struct ps_live_figures *x, const char *name,
		   const char *extra_key, const char *extra_val, double v)
{
	fprintf(f, "%s{process=\"", name);
	label(f, x->process);
	fputc('"', f);
	if (extra_key) {
		fprintf(f, ",%s=\"", extra_key);
		label(f, extra_val);
		fputc('"', f);
	}
	fprintf(f, "} %.17g\n", v);
}

int ps_live_metrics_write(const char *path, const struct ps_live_figures *x)
{
	struct ps_outfile o;
	FILE *f;
	int k;

	/* a new temporary file, renamed over path: a link planted at
	 * path.tmp (or at path) by another user is never followed */
	f = ps_out_open(&o, path, 0644);
	if (!f)
		return -errno;
	head(f, "powersched_allowed_pus", "gauge",
	     "Logical CPUs (PUs) the policy allows the managed threads now.");
	sample(f, x, "powersched_allowed_pus", NULL, NULL, x->nr_allowed);
	head(f, "powersched_online_pus", "gauge", "Logical CPUs online.");
	sample(f, x, "powersched_online_pus", NULL, NULL, x->nr_online);
	head(f, "powersched_active_domains", "gauge",
	     "Domains of each topology level holding a task in the last decision.");
	for (k = 0; k < PS_LVL_COUNT; k++)
		if (x->total[k] > 0)
			sample(f, x, "powersched_active_domains", "level",
			       ps_level_name((enum ps_level)k), x->active[k]);
	head(f, "powersched_domains", "gauge", "Domains of each topology level.");
	for (k = 0; k < PS_LVL_COUNT; k++)
		if (x->total[k] > 0)
			sample(f, x, "powersched_domains", "level",
			       ps_level_name((enum ps_level)k), x->total[k]);
	head(f, "powersched_policy_info", "gauge",
	     "The policy in force (1), what was asked for, and what decided it.");
	fprintf(f, "powersched_policy_info{process=\"");
	label(f, x->process);
	fprintf(f, "\",policy=\"");
	label(f, x->policy);
	fprintf(f, "\",requested=\"");
	label(f, x->requested);
	fprintf(f, "\",source=\"");
	label(f, x->source);
	fprintf(f, "\"} 1\n");
	head(f, "powersched_decisions_total", "counter", "Policy decisions (intervals) made.");
	sample(f, x, "powersched_decisions_total", NULL, NULL, (double)x->decisions);
	head(f, "powersched_scans_total", "counter",
	     "Intervals that read the load; the others were quiet (nothing could change).");
	sample(f, x, "powersched_scans_total", NULL, NULL, (double)x->scans);
	head(f, "powersched_mask_changes_total", "counter", "Changes of the allowed set applied.");
	sample(f, x, "powersched_mask_changes_total", NULL, NULL, (double)x->mask_changes);
	head(f, "powersched_energy_joules_total", "counter",
	     "Energy since start: measured (RAPL) or modeled from CPU busy time.");
	sample(f, x, "powersched_energy_joules_total", "method",
	       x->energy_measured ? "measured" : "modeled", x->energy_j);
	head(f, "powersched_demand_cpus", "gauge",
	     "Summed utilization of the managed threads, in CPUs.");
	sample(f, x, "powersched_demand_cpus", NULL, NULL, x->demand);
	head(f, "powersched_threads", "gauge", "Threads seen in the last interval.");
	sample(f, x, "powersched_threads", NULL, NULL, x->threads);
	if (x->scx_state) {
		head(f, "powersched_scx_loaded", "gauge",
		     "1 while our sched_ext scheduler places the tasks (backend scx).");
		sample(f, x, "powersched_scx_loaded", "state", x->scx_state,
		       !x->scx_exit_kind && !strcmp(x->scx_state, "enabled"));
		head(f, "powersched_scx_exit_kind", "gauge",
		     "How the sched_ext scheduler ended (SCX_EXIT_*; 1024 and up: an "
		     "error), 0 while it runs.");
		sample(f, x, "powersched_scx_exit_kind", NULL, NULL, x->scx_exit_kind);
	}
	return ps_out_commit(&o);
}
