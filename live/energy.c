// SPDX-License-Identifier: MIT
/*
 * DOC: energy accounting of the live side
 *
 * RAPL package counters when present, otherwise the power model over
 * per-CPU busy time from /proc/stat; the mean active packages and cores.
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
#include "ps/power.h"

void ps_live_account_energy(struct ps_live *l, double dt)
{
	char path[512], *buf = l->statbuf, *p;
	struct ps_power pw;
	int i, npk = 0, ncore = 0;

	memset(l->pu_busy, 0, sizeof(double) * (size_t)l->topo->nr_pus);
	ps_live_path(l, path, sizeof(path), "/proc/stat");
	if (ps_live_read_file(path, buf, PS_LIVE_STATBUF) > 0) {
		for (p = strstr(buf, "\ncpu"); p; p = strstr(p + 1, "\ncpu")) {
			unsigned long long v[8] = { 0 }, busy, total;
			int cpu;

			if (sscanf(p + 4, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 5 ||
			    cpu < 0 || cpu >= PS_LIVE_MAX_CPUS)
				continue;
			busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			total = busy + v[3] + v[4];
			i = l->pu_of_cpu[cpu];
			if (i >= 0 && l->started && total > l->cpu_total[cpu]) {
				l->pu_busy[i] = (double)(busy - l->cpu_busy[cpu]) /
						(double)(total - l->cpu_total[cpu]);
				if (l->pu_busy[i] < 0 || l->pu_busy[i] > 1)
					l->pu_busy[i] = l->pu_busy[i] < 0 ? 0 : 1;
			}
			l->cpu_busy[cpu] = busy;
			l->cpu_total[cpu] = total;
		}
	}
	if (!l->started)
		return;
	if (l->have_rapl) {
		char b[64];
		unsigned long long uj = 0, one;
		int k;

		for (k = 0; k < 64; k++) {
			ps_live_path(l, path, sizeof(path),
				"/sys/class/powercap/intel-rapl:%d/energy_uj", k);
			if (ps_live_read_file(path, b, sizeof(b)) <= 0)
				break;
			one = strtoull(b, NULL, 10);
			uj += one;
		}
		if (uj >= l->rapl_uj)
			l->energy_j += (double)(uj - l->rapl_uj) / 1e6;
		l->rapl_uj = uj; /* a wrap loses one interval */
	} else if (l->cfg.model &&
		   !ps_power_eval(l->topo, l->cfg.model, l->pu_busy, NULL, &pw)) {
		l->energy_j += pw.power_w * dt;
	}
	/* active domains: a PU busy over ACTIVE_BUSY makes its core and package active */
	{
		unsigned char *pk = calloc(1024, 1), *co = calloc(65536, 1);

		if (pk && co) {
			for (i = 0; i < l->topo->nr_pus; i++) {
				const struct ps_pu *u = &l->topo->pus[i];

				if (l->pu_busy[i] < ACTIVE_BUSY)
					continue;
				if (u->package >= 0 && u->package < 1024 && !pk[u->package]) {
					pk[u->package] = 1;
					npk++;
				}
				if (u->core >= 0 && u->core < 65536 && !co[u->core]) {
					co[u->core] = 1;
					ncore++;
				}
			}
		}
		free(pk);
		free(co);
	}
	l->pkg_sum += npk;
	l->core_sum += ncore;
}
