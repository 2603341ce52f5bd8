// SPDX-License-Identifier: MIT
/*
 * DOC: the status file, state.PID.json, rewritten every interval
 *
 * Written to a temporary file and renamed, so a reader never sees half.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"
#include "ps/outfile.h"

/* the same figures for Prometheus (live/metrics.c), when a path is set */
/* sched_ext's state as the kernel says it ("enabled", "disabled", ...) */
static void read_scx_state(const struct ps_live *l, char *st, size_t len, char *ops,
			   size_t olen)
{
	char path[600];

	ps_live_path(l, path, sizeof(path), "/sys/kernel/sched_ext/state");
	if (ps_live_read_file(path, st, len) <= 0)
		snprintf(st, len, "none");
	st[strcspn(st, "\n")] = '\0';
	ps_live_path(l, path, sizeof(path), "/sys/kernel/sched_ext/root/ops");
	if (ps_live_read_file(path, ops, olen) <= 0)
		ops[0] = '\0';
	ops[strcspn(ops, "\n")] = '\0';
}

static void write_metrics(struct ps_live *l, const char *scx_state)
{
	static const int none[PS_LVL_COUNT];
	const struct ps_decision *d = l->have_dec ? &l->dec[l->cur] : NULL;
	struct ps_live_figures x = {
		.process = l->cfg.name,
		.policy = ps_policy_name(l->resolved),
		.requested = ps_policy_name(l->cfg.policy),
		.source = l->cfg.policy != PS_POLICY_AUTO ? "configured" :
			  l->autos.source ? l->autos.source : "none",
		.nr_allowed = ps_live_count(l->allowed_os, PS_LIVE_MAX_CPUS),
		.nr_online = ps_live_count(l->online, PS_LIVE_MAX_CPUS),
		.threads = l->thr_n,
		.active = d ? d->active : none,
		.total = d ? d->total : none,
		.decisions = l->intervals,
		.scans = l->scans,
		.mask_changes = l->mask_changes,
		.energy_j = l->energy_j,
		.demand = l->last_demand,
		.energy_measured = l->have_rapl,
		.scx_state = l->scx_used ? scx_state : NULL,
		.scx_exit_kind = l->scx_exit_kind,
	};
	int r;

	if (!l->cfg.metrics_path)
		return;
	r = ps_live_metrics_write(l->cfg.metrics_path, &x);
	if (!r) {
		struct stat mst;

		/* ours to remove at the end while it is still this file */
		if (!lstat(l->cfg.metrics_path, &mst)) {
			l->metrics_dev = mst.st_dev;
			l->metrics_ino = mst.st_ino;
		}
	}
	if (r && r != l->metrics_err)
		lg(l, "metrics '%s': %s", l->cfg.metrics_path,
		   r == -ELOOP ? "a symbolic link: not followed, not written" : strerror(-r));
	l->metrics_err = r;
}

static void put_json_list(FILE *f, const char *key, const char *const *list)
{
	fprintf(f, "\"%s\":[", key);
	for (int i = 0; list && list[i]; i++) {
		if (i)
			fputc(',', f);
		ps_json_str(f, list[i]);
	}
	fputc(']', f);
}

void ps_live_write_state(struct ps_live *l)
{
	char tmp[600], list[8192], scx_st[64] = "", scx_ops[128] = "";
	double *pkg_load = l->pkg_load;
	int k, i, np = 0, fd;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", l->state_path);
	/* a fresh file, never one that is there already (nor a symlink) */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	for (i = 0; i < l->topo->nr_pus; i++)
		if (l->topo->pus[i].package + 1 > np)
			np = l->topo->pus[i].package + 1;
	if (np > 256)
		np = 256;
	/* per thread, so only when the threads were read (a quiet interval
	 * keeps the last scan's figures) */
	for (i = 0; i < (l->skipped ? 0 : np); i++)
		pkg_load[i] = 0;
	for (i = 0; i < (l->skipped ? 0 : l->thr_n); i++) {
		/* ours: 1 or 3 (affinity) or 0 (in our cgroup); 2 is left alone */
		int p = l->thr[i].managed != 2 && l->thr[i].cpu >= 0 &&
			l->thr[i].cpu < PS_LIVE_MAX_CPUS ?
			l->pu_of_cpu[l->thr[i].cpu] : -1;

		if (p >= 0 && l->topo->pus[p].package >= 0 && l->topo->pus[p].package < np)
			pkg_load[l->topo->pus[p].package] += l->thr[i].util;
	}
	fprintf(f, "{\"name\":\"%s\",\"pid\":%d,\"policy\":\"%s\",\"requested\":\"%s\","
		"\"why\":", l->cfg.name, (int)l->self, ps_policy_name(l->resolved),
		ps_policy_name(l->cfg.policy));
	ps_json_str(f, l->why);
	fprintf(f, ",\"backend\":\"%s\",\"interval_s\":%.3f,", l->be->name, l->cfg.interval_s);
	ps_cpulist_format(l->allowed_os, PS_LIVE_MAX_CPUS, list, sizeof(list));
	fprintf(f, "\"allowed\":\"%s\",\"online\":\"%s\",\"threads\":%d,\"demand\":%.3f,"
		"\"mask_changes\":%d,\"intervals\":%d,\"scans\":%d,\"resolved_at\":%d,\"energy_j\":%.3f,\"energy\":\"%s\","
		"\"load_per_package\":[",
		list, l->online_str, l->thr_n, l->last_demand, l->mask_changes, l->intervals, l->scans, l->resolved_at,
		l->energy_j, l->have_rapl ? "measured (RAPL)" : "modeled from /proc/stat");
	for (k = 0; k < np; k++)
		fprintf(f, "%s%.3f", k ? "," : "", pkg_load[k]);
	fprintf(f, "],\"births\":\"%s\",\"proc_events\":%lld,\"proc_events_lost\":%lld",
		l->cn_fd >= 0 ? "proc connector" : "loadavg", l->cn_events, l->cn_lost);
	fprintf(f, ",\"scan_why\":{");
	for (k = 1; k < PS_SCAN_NR; k++)
		fprintf(f, "%s\"%s\":%d", k > 1 ? "," : "", ps_scan_why_name(k), l->scan_why[k]);
	fprintf(f, "}");
	/* run: the process it manages with its descendants (its command, or
	 * the one it was attached to with --pid) */
	fprintf(f, ",\"child\":%d,\"attached\":%s", (int)l->child,
		l->cfg.attached ? "true" : "false");
	/* what the daemon looks at: its filters, and whose processes (an
	 * ordinary user's instance: that user's alone) */
	fprintf(f, ",\"euid\":%u,\"filters\":{", (unsigned)geteuid());
	put_json_list(f, "include_comm", l->cfg.include_comm);
	fputc(',', f);
	put_json_list(f, "exclude_comm", l->cfg.exclude_comm);
	fputc(',', f);
	put_json_list(f, "include_cgroup", l->cfg.include_cgroup);
	fputc(',', f);
	put_json_list(f, "exclude_cgroup", l->cfg.exclude_cgroup);
	fprintf(f, ",\"exclude_containers\":%s}", l->cfg.exclude_containers ? "true" : "false");
	/* the sched_ext scheduler, when this run loaded one: the kernel's
	 * state, the scheduler it names, and how ours ended */
	if (l->scx_used) {
		static const char *const fb[] = { "affinity", "kernel", "fail" };

		read_scx_state(l, scx_st, sizeof(scx_st), scx_ops, sizeof(scx_ops));
		fprintf(f, ",\"scx\":{\"state\":");
		ps_json_str(f, scx_st);
		fprintf(f, ",\"ops\":");
		ps_json_str(f, scx_ops);
		fprintf(f, ",\"exit_kind\":%d,\"exit\":", l->scx_exit_kind);
		ps_json_str(f, l->scx_exit);
		fprintf(f, ",\"fallback\":\"%s\",\"fell_back\":%s}",
			fb[l->cfg.scx_fallback <= PS_SCX_FALLBACK_FAIL ? l->cfg.scx_fallback : 0],
			l->scx_fell ? "true" : "false");
	}
	fprintf(f, ",\"recent\":[");
	for (k = 0; k < l->nrecent; k++) {
		const struct recent *r = &l->recent[k];

		fprintf(f, "%s{\"t_s\":%.3f,\"tasks\":%d,\"demand\":%.3f,\"nr_allowed\":%d,"
			"\"allowed\":\"%s\"}", k ? "," : "", r->t_s, r->nr_tasks, r->demand,
			r->nr_allowed, r->allowed);
	}
	fprintf(f, "]}\n");
	if (fclose(f) == 0)
		rename(tmp, l->state_path);
	write_metrics(l, scx_st);
}
