// SPDX-License-Identifier: MIT
/*
 * DOC: the oracle
 *
 * The limit each report compares against: for an interval's per-task demand,
 * the lowest power under the model among candidate placements that deliver
 * the work. Candidates: three PU orders (the pack order, the spread order,
 * and the depth-first order that fills both siblings of a core first), every prefix size k from the least that can hold the demand to
 * all PUs, tasks placed first-fit-decreasing at fill 1.0. This is the
 * placement family that matters under this model (which domains are open and
 * whether siblings share); it is not an exhaustive search. Results are cached
 * for a repeated demand.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

struct ps_oracle {
	const struct ps_topo *t;
	const struct ps_model *m;
	int max_tasks;
	int *orders[3];
	double *pu_dem;
	double *sorted;
	double *last;
	int nlast;
	double last_power;
};

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

int ps_oracle_new(const struct ps_topo *t, const struct ps_model *m,
		  int max_tasks, struct ps_oracle **out)
{
	struct ps_oracle *o = calloc(1, sizeof(*o));
	int k;

	if (!o)
		return -ENOMEM;
	o->t = t;
	o->m = m;
	o->max_tasks = max_tasks;
	for (k = 0; k < 3; k++)
		o->orders[k] = malloc(sizeof(int) * t->nr_pus);
	o->pu_dem = malloc(sizeof(double) * t->nr_pus);
	o->sorted = malloc(sizeof(double) * (max_tasks + 1));
	o->last = malloc(sizeof(double) * (max_tasks + 1));
	o->nlast = -1;
	if (!o->orders[0] || !o->orders[1] || !o->orders[2] || !o->pu_dem ||
	    !o->sorted || !o->last) {
		ps_oracle_free(o);
		return -ENOMEM;
	}
	memcpy(o->orders[0], t->pack_order, sizeof(int) * t->nr_pus);
	memcpy(o->orders[1], t->spread_order, sizeof(int) * t->nr_pus);
	memcpy(o->orders[2], t->fill_order, sizeof(int) * t->nr_pus);
	*out = o;
	return 0;
}

void ps_oracle_free(struct ps_oracle *o)
{
	int k;

	if (!o)
		return;
	for (k = 0; k < 3; k++)
		free(o->orders[k]);
	free(o->pu_dem);
	free(o->sorted);
	free(o->last);
	free(o);
}

int ps_oracle_power(struct ps_oracle *o, const double *demand, int n,
		    double *power_w)
{
	const struct ps_topo *t = o->t;
	double best = INFINITY, best_work = -1, best_any = INFINITY, sum = 0;
	int k, ord, i, kmin;

	if (n > o->max_tasks)
		return -EINVAL;
	if (n == o->nlast && !memcmp(demand, o->last, sizeof(double) * n)) {
		*power_w = o->last_power;
		return 0;
	}
	memcpy(o->sorted, demand, sizeof(double) * n);
	qsort(o->sorted, n, sizeof(double), cmp_desc);
	for (i = 0; i < n; i++)
		sum += o->sorted[i];
	kmin = (int)ceil(sum - 1e-9);
	if (kmin < 1)
		kmin = 1;
	for (ord = 0; ord < 3; ord++) {
		for (k = kmin; k <= t->nr_pus; k++) {
			struct ps_power pw;
			int fits = 1;

			memset(o->pu_dem, 0, sizeof(double) * t->nr_pus);
			for (i = 0; i < n; i++) {
				int j;

				for (j = 0; j < k; j++) {
					double *d = &o->pu_dem[o->orders[ord][j]];

					if (*d + o->sorted[i] <= 1.0 + 1e-9) {
						*d += o->sorted[i];
						break;
					}
				}
				if (j == k) {
					fits = 0;
					break;
				}
			}
			if (!fits)
				continue;
			if (ps_power_eval(t, o->m, o->pu_dem, NULL, &pw))
				return -ENOMEM;
			if (pw.work >= 0.999 * sum && pw.power_w < best)
				best = pw.power_w;
			if (pw.work > best_work + 1e-9 ||
			    (fabs(pw.work - best_work) <= 1e-9 && pw.power_w < best_any)) {
				best_work = pw.work;
				best_any = pw.power_w;
			}
		}
	}
	if (!isfinite(best))
		best = best_any;
	if (!isfinite(best)) {
		/* more demand than PUs: every PU full */
		for (i = 0; i < t->nr_pus; i++)
			o->pu_dem[i] = 1.0;
		struct ps_power pw;

		if (ps_power_eval(t, o->m, o->pu_dem, NULL, &pw))
			return -ENOMEM;
		best = pw.power_w;
	}
	memcpy(o->last, demand, sizeof(double) * n);
	o->nlast = n;
	o->last_power = best;
	*power_w = best;
	return 0;
}
