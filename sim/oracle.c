// SPDX-License-Identifier: MIT
/*
 * DOC: the oracle
 *
 * The candidates of the bound each report compares against: for an
 * interval's per-task demand, the lowest power under the model among
 * candidate placements that deliver the work (sim.c makes it a bound by
 * taking, each interval, the lower energy per work of this and of the
 * placement that ran). Candidates: three PU orders (the pack order, the spread order,
 * and the depth-first order that fills both siblings of a core first), every prefix size k from the least that can hold the demand to
 * all PUs, tasks placed first-fit-decreasing at fill 1.0. This is the
 * placement family that matters under this model (which domains are open and
 * whether siblings share); it is not an exhaustive search. Results are cached
 * for a repeated demand.
 *
 * Cost: first-fit gives the same placement for every prefix that holds the
 * demand (see ps_oracle_power()), so an order is one candidate: one
 * first-fit over the whole order, a min-tree finding the first PU with room
 * in O(log P), and one evaluation of the model. A new demand costs
 * O(n log n + n log P + model), not the O(P x n x P) of trying each prefix.
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
	double *tree;      /* min-tree of PU demand over one order's positions */
	int leaves;        /* power of two >= nr_pus */
	double *sorted;
	double *last;
	int nlast;
	double last_power;
	struct ps_power_ws *ws; /* prices an order's placement by its busy PUs */
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
	for (o->leaves = 1; o->leaves < t->nr_pus; o->leaves *= 2)
		;
	o->tree = malloc(sizeof(double) * 2 * o->leaves);
	o->sorted = malloc(sizeof(double) * (max_tasks + 1));
	o->last = malloc(sizeof(double) * (max_tasks + 1));
	o->nlast = -1;
	o->ws = ps_power_ws_new(t, m);
	if (!o->orders[0] || !o->orders[1] || !o->orders[2] || !o->pu_dem ||
	    !o->tree || !o->sorted || !o->last || !o->ws) {
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
	free(o->tree);
	free(o->sorted);
	free(o->last);
	ps_power_ws_free(o->ws);
	free(o);
}

/* Leftmost position j with dem[j] + v <= 1 + 1e-9, or -1: the min-tree is
 * exact because x -> fl(x + v) is monotonic. */
static int ffd_find(const struct ps_oracle *o, double v)
{
	const double lim = 1.0 + 1e-9;
	int i = 1;

	if (!(o->tree[1] + v <= lim))
		return -1;
	while (i < o->leaves)
		i = o->tree[2 * i] + v <= lim ? 2 * i : 2 * i + 1;
	return i - o->leaves;
}

static void ffd_add(struct ps_oracle *o, int j, double v)
{
	int i = j + o->leaves;

	o->tree[i] += v;
	for (i /= 2; i >= 1; i /= 2) {
		double l = o->tree[2 * i], r = o->tree[2 * i + 1];

		o->tree[i] = l < r ? l : r;
	}
}

/*
 * First-fit decreasing of o->sorted into the PUs of one order. Return: 1 and
 * o->pu_dem filled, or 0 if some task finds no PU with room.
 */
static int ffd(struct ps_oracle *o, const int *order, int n)
{
	const struct ps_topo *t = o->t;
	int i, j;

	for (i = 0; i < 2 * o->leaves; i++)
		o->tree[i] = INFINITY;
	for (j = 0; j < t->nr_pus; j++)
		o->tree[o->leaves + j] = 0;
	for (i = o->leaves - 1; i >= 1; i--)
		o->tree[i] = o->tree[2 * i] < o->tree[2 * i + 1] ?
			     o->tree[2 * i] : o->tree[2 * i + 1];
	for (i = 0; i < n; i++) {
		j = ffd_find(o, o->sorted[i]);
		if (j < 0)
			return 0;
		ffd_add(o, j, o->sorted[i]);
	}
	for (j = 0; j < t->nr_pus; j++)
		o->pu_dem[order[j]] = o->tree[o->leaves + j];
	return 1;
}

int ps_oracle_power(struct ps_oracle *o, const double *demand, int n,
		    double *power_w)
{
	const struct ps_topo *t = o->t;
	double best = INFINITY, best_work = -1, best_any = INFINITY, sum = 0;
	int ord, i, kmin;

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
	/*
	 * Every prefix k of an order that first-fit holds gives the same
	 * placement: a task goes to the first PU with room, so if it found one
	 * among the first k it finds the same one among the first k + 1. The
	 * prefixes of an order are therefore one candidate, the first-fit into
	 * the whole order, valid when some prefix of at least kmin PUs exists.
	 */
	for (ord = 0; ord < 3 && kmin <= t->nr_pus; ord++) {
		struct ps_power pw;

		if (!ffd(o, o->orders[ord], n))
			continue;
		if (ps_power_ws_eval(o->ws, o->pu_dem, NULL, &pw))
			return -ENOMEM;
		if (pw.work >= 0.999 * sum && pw.power_w < best)
			best = pw.power_w;
		if (pw.work > best_work + 1e-9 ||
		    (fabs(pw.work - best_work) <= 1e-9 && pw.power_w < best_any)) {
			best_work = pw.work;
			best_any = pw.power_w;
		}
	}
	if (!isfinite(best))
		best = best_any;
	if (!isfinite(best)) {
		/* more demand than PUs: every PU full */
		struct ps_power pw;

		for (i = 0; i < t->nr_pus; i++)
			o->pu_dem[i] = 1.0;
		if (ps_power_ws_eval(o->ws, o->pu_dem, NULL, &pw))
			return -ENOMEM;
		best = pw.power_w;
	}
	memcpy(o->last, demand, sizeof(double) * n);
	o->nlast = n;
	o->last_power = best;
	*power_w = best;
	return 0;
}
