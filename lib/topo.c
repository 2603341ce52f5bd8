// SPDX-License-Identifier: MIT
/*
 * DOC: domain tree helpers
 *
 * What is computed once per topology: level names, capacities, and the two
 * PU orders the policy walks (spread for performance, pack for power). Both
 * orders are built by the same recursion over the tree, at every level, with
 * no level named.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ps/topo.h"
#include "topo_int.h"

static const char *const level_names[PS_LVL_COUNT] = {
	[PS_LVL_MACHINE] = "machine", [PS_LVL_PACKAGE] = "package",
	[PS_LVL_DIE] = "die",         [PS_LVL_GROUP] = "group",
	[PS_LVL_NUMA] = "numa",       [PS_LVL_L5] = "l5",
	[PS_LVL_L4] = "l4",           [PS_LVL_L3] = "l3",
	[PS_LVL_L2] = "l2",           [PS_LVL_L1] = "l1",
	[PS_LVL_CORE] = "core",       [PS_LVL_PU] = "pu",
};

/* Which merged type names a domain in reports: structure before caches. */
static const enum ps_level name_priority[] = {
	PS_LVL_MACHINE, PS_LVL_PACKAGE, PS_LVL_DIE, PS_LVL_GROUP, PS_LVL_CORE,
	PS_LVL_NUMA,    PS_LVL_L5,      PS_LVL_L4,  PS_LVL_L3,    PS_LVL_L2,
	PS_LVL_L1,      PS_LVL_PU,
};

const char *ps_level_name(enum ps_level lvl)
{
	if ((unsigned)lvl >= PS_LVL_COUNT)
		return "?";
	return level_names[lvl];
}

enum ps_level ps_domain_level(const struct ps_domain *d)
{
	size_t i;

	for (i = 0; i < sizeof(name_priority) / sizeof(name_priority[0]); i++)
		if (d->types & (1u << name_priority[i]))
			return name_priority[i];
	return PS_LVL_GROUP;
}

void ps_topo_free(struct ps_topo *topo)
{
	int i;

	if (!topo)
		return;
	for (i = 0; i < topo->nr_doms; i++)
		hwloc_bitmap_free(topo->doms[i].cpuset);
	free(topo->child_store);
	free(topo->doms);
	free(topo->pus);
	free(topo->spread_order);
	free(topo->pack_order);
	free(topo->fill_order);
	free(topo->pack_rank);
	free(topo);
}

void ps_topo_set_smt_gain(struct ps_topo *topo, double smt_gain)
{
	int i, j;

	topo->smt_gain = smt_gain;
	for (i = 0; i < topo->nr_doms; i++) {
		struct ps_domain *d = &topo->doms[i];

		d->capacity = 0;
		for (j = d->pu_lo; j < d->pu_hi; j++) {
			int k = topo->pus[j].nr_siblings;

			d->capacity += (1.0 + smt_gain * (k - 1)) / k;
		}
	}
}

int ps_topo_find_pu(const struct ps_topo *topo, unsigned os_index)
{
	int i;

	for (i = 0; i < topo->nr_pus; i++)
		if (topo->pus[i].os_index == os_index)
			return i;
	return -ENOENT;
}

/* An item of a domain: a sub-domain or a PU held directly, as a PU range. */
struct item {
	int lo, hi;
};

static int item_cmp_size(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int sx = x->hi - x->lo, sy = y->hi - y->lo;

	if (sx != sy)
		return sy - sx; /* largest first */
	return x->lo - y->lo;
}

static int collect_items(const struct ps_topo *topo, int d, struct item *it)
{
	const struct ps_domain *dom = &topo->doms[d];
	int n = 0, c = 0, pu = dom->pu_lo;

	/* children cover ranges in PU order; PUs between them are direct */
	while (pu < dom->pu_hi) {
		if (c < dom->nr_children &&
		    topo->doms[dom->children[c]].pu_lo == pu) {
			const struct ps_domain *ch = &topo->doms[dom->children[c]];

			it[n].lo = ch->pu_lo;
			it[n].hi = ch->pu_hi;
			pu = ch->pu_hi;
			c++;
		} else {
			it[n].lo = pu;
			it[n].hi = pu + 1;
			pu++;
		}
		n++;
	}
	return n;
}

/*
 * Fill ord[dom->pu_lo .. pu_hi) with the domain's PUs in order.
 * spread: take from the item with the lowest share already taken
 * (taken/size), ties to the first: widest domains first at every level.
 * pack: items largest first, each item's PUs all before the next's.
 */
static int build_order(const struct ps_topo *topo, int d, int spread, int *ord,
		       int *tmp)
{
	const struct ps_domain *dom = &topo->doms[d];
	int n_items = dom->pu_hi - dom->pu_lo;
	struct item *it;
	int *taken;
	int i, n, c, out;

	it = malloc(sizeof(*it) * n_items);
	taken = calloc(n_items, sizeof(*taken));
	if (!it || !taken) {
		free(it);
		free(taken);
		return -ENOMEM;
	}
	n = collect_items(topo, d, it);
	for (c = 0; c < dom->nr_children; c++) {
		int r = build_order(topo, dom->children[c], spread, ord, tmp);

		if (r) {
			free(it);
			free(taken);
			return r;
		}
	}
	for (i = 0; i < n; i++)
		if (it[i].hi - it[i].lo == 1)
			ord[it[i].lo] = it[i].lo;

	out = dom->pu_lo;
	if (spread) {
		for (; out < dom->pu_hi; out++) {
			int best = -1;

			for (i = 0; i < n; i++) {
				int sz = it[i].hi - it[i].lo;

				if (taken[i] == sz)
					continue;
				if (best < 0 ||
				    (long)taken[i] * (it[best].hi - it[best].lo) <
					    (long)taken[best] * sz)
					best = i;
			}
			tmp[out] = ord[it[best].lo + taken[best]];
			taken[best]++;
		}
	} else {
		qsort(it, n, sizeof(*it), item_cmp_size);
		for (i = 0; i < n; i++) {
			int p;

			for (p = it[i].lo; p < it[i].hi; p++)
				tmp[out++] = ord[p];
		}
	}
	memcpy(ord + dom->pu_lo, tmp + dom->pu_lo,
	       sizeof(int) * (dom->pu_hi - dom->pu_lo));
	free(it);
	free(taken);
	return 0;
}

/*
 * Within each smallest domain that groups cores, the first PU of every core
 * before any second sibling: siblings share a core's throughput, so a new
 * core is opened before a sibling is loaded (the power model prices a busy
 * sibling at (1 + g) / 2 of a core). Runs of PUs are taken from @in.
 */
static void siblings_last(const struct ps_topo *t, const int *in, int *out)
{
	int i = 0, n = 0;

	while (i < t->nr_pus) {
		int p = in[i];
		int parent = t->doms[t->pus[p].dom].parent;
		int j = i, s;

		while (j < t->nr_pus && t->pus[in[j]].nr_siblings > 1 &&
		       t->doms[t->pus[in[j]].dom].parent == parent)
			j++;
		if (j == i) {
			out[n++] = p;
			i++;
			continue;
		}
		for (s = 0; s < t->pus[p].nr_siblings; s++) {
			int k;

			for (k = i; k < j; k++)
				if (in[k] - t->doms[t->pus[in[k]].dom].pu_lo == s)
					out[n++] = in[k];
		}
		i = j;
	}
}

/*
 * Several kinds: performance takes the first PU of every core, most
 * performant kind first, then the second siblings; within each class the
 * spread order stays (a stable pass per class, O(kinds x PUs)).
 */
static void kinds_first(struct ps_topo *t)
{
	int *out = malloc(sizeof(int) * t->nr_pus), n = 0, k, i, sib;

	if (!out)
		return; /* keep the plain spread order */
	for (sib = 0; sib < 2; sib++)
		for (k = t->nr_kinds - 1; k >= 0; k--)
			for (i = 0; i < t->nr_pus; i++) {
				int p = t->spread_order[i];
				int second = t->pus[p].nr_siblings > 1 &&
					     p != t->doms[t->pus[p].dom].pu_lo;

				if (second == sib && t->pus[p].kind == k)
					out[n++] = p;
			}
	memcpy(t->spread_order, out, sizeof(int) * t->nr_pus);
	free(out);
}

int ps_topo_finish(struct ps_topo *topo)
{
	int *tmp;
	int r;

	topo->spread_order = malloc(sizeof(int) * topo->nr_pus);
	topo->pack_order = malloc(sizeof(int) * topo->nr_pus);
	tmp = malloc(sizeof(int) * topo->nr_pus);
	if (!topo->spread_order || !topo->pack_order || !tmp) {
		free(tmp);
		return -ENOMEM;
	}
	topo->fill_order = malloc(sizeof(int) * topo->nr_pus);
	topo->pack_rank = malloc(sizeof(int) * topo->nr_pus);
	if (!topo->fill_order || !topo->pack_rank) {
		free(tmp);
		return -ENOMEM;
	}
	r = build_order(topo, 0, 1, topo->spread_order, tmp);
	if (!r)
		r = build_order(topo, 0, 0, topo->fill_order, tmp);
	free(tmp);
	if (r)
		return r;
	siblings_last(topo, topo->fill_order, topo->pack_order);
	if (topo->nr_kinds > 1)
		kinds_first(topo);
	for (r = 0; r < topo->nr_pus; r++)
		topo->pack_rank[topo->pack_order[r]] = r;
	r = 0;
	ps_topo_set_smt_gain(topo, 0.0);
	return 0;
}
