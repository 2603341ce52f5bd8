// SPDX-License-Identifier: MIT
/*
 * DOC: hwloc to domain tree
 *
 * The only file that calls hwloc's discovery. Walks the normal children of
 * every object: an object spanning the same PUs as the domain above it is
 * merged into that domain (its type recorded), any other object with PUs
 * opens a new domain, except below a core (a per-thread cache is not a
 * domain: the core's PUs are its SMT siblings). NUMA nodes (memory children in hwloc 2) are merged into
 * the domain with the same PUs. I/O and Misc objects hold no PUs and are not
 * looked at.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ps/topo.h"
#include "topo_int.h"

struct builder {
	hwloc_topology_t t;
	struct ps_topo *topo;
	int cap_doms, cap_pus;
};

static int type_to_level(hwloc_obj_type_t type, enum ps_level *lvl)
{
	switch (type) {
	case HWLOC_OBJ_MACHINE: *lvl = PS_LVL_MACHINE; return 0;
	case HWLOC_OBJ_PACKAGE: *lvl = PS_LVL_PACKAGE; return 0;
	case HWLOC_OBJ_DIE: *lvl = PS_LVL_DIE; return 0;
	case HWLOC_OBJ_GROUP: *lvl = PS_LVL_GROUP; return 0;
	case HWLOC_OBJ_NUMANODE: *lvl = PS_LVL_NUMA; return 0;
	case HWLOC_OBJ_L5CACHE: *lvl = PS_LVL_L5; return 0;
	case HWLOC_OBJ_L4CACHE: *lvl = PS_LVL_L4; return 0;
	case HWLOC_OBJ_L3CACHE: case HWLOC_OBJ_L3ICACHE: *lvl = PS_LVL_L3; return 0;
	case HWLOC_OBJ_L2CACHE: case HWLOC_OBJ_L2ICACHE: *lvl = PS_LVL_L2; return 0;
	case HWLOC_OBJ_L1CACHE: case HWLOC_OBJ_L1ICACHE: *lvl = PS_LVL_L1; return 0;
	case HWLOC_OBJ_CORE: *lvl = PS_LVL_CORE; return 0;
	case HWLOC_OBJ_PU: *lvl = PS_LVL_PU; return 0;
	default: return -1;
	}
}

static int new_domain(struct builder *b, int parent, hwloc_obj_t obj)
{
	struct ps_topo *topo = b->topo;
	struct ps_domain *d;
	enum ps_level lvl;

	if (topo->nr_doms == b->cap_doms) {
		int cap = b->cap_doms ? b->cap_doms * 2 : 64;
		void *p = realloc(topo->doms, sizeof(*topo->doms) * cap);

		if (!p)
			return -ENOMEM;
		topo->doms = p;
		b->cap_doms = cap;
	}
	d = &topo->doms[topo->nr_doms];
	memset(d, 0, sizeof(*d));
	d->cpuset = hwloc_bitmap_dup(obj->cpuset);
	if (!d->cpuset)
		return -ENOMEM;
	d->parent = parent;
	d->depth = parent < 0 ? 0 : topo->doms[parent].depth + 1;
	if (d->depth > topo->max_depth)
		topo->max_depth = d->depth;
	if (type_to_level(obj->type, &lvl) == 0)
		d->types = 1u << lvl;
	d->logical = (int)obj->logical_index;
	d->pu_lo = topo->nr_pus;
	return topo->nr_doms++;
}

static void merge_numa(struct builder *b, hwloc_obj_t obj, int dom)
{
	hwloc_obj_t m;

	for (m = obj->memory_first_child; m; m = m->next_sibling) {
		if (m->type == HWLOC_OBJ_NUMANODE && m->cpuset &&
		    hwloc_bitmap_isequal(m->cpuset, b->topo->doms[dom].cpuset))
			b->topo->doms[dom].types |= 1u << PS_LVL_NUMA;
		else if (m->type == HWLOC_OBJ_MEMCACHE)
			merge_numa(b, m, dom);
	}
}

static int add_pu(struct builder *b, hwloc_obj_t obj, int dom)
{
	struct ps_topo *topo = b->topo;
	struct ps_pu *pu;
	hwloc_obj_t a;

	if (topo->nr_pus == b->cap_pus)
		return -EINVAL; /* more PUs than hwloc counted: cannot happen */
	pu = &topo->pus[topo->nr_pus++];
	pu->os_index = obj->os_index;
	pu->dom = dom;
	a = hwloc_get_ancestor_obj_by_type(b->t, HWLOC_OBJ_CORE, obj);
	pu->core = a ? (int)a->logical_index : -1;
	a = hwloc_get_ancestor_obj_by_type(b->t, HWLOC_OBJ_PACKAGE, obj);
	pu->package = a ? (int)a->logical_index : -1;
	return 0;
}

static int walk(struct builder *b, hwloc_obj_t obj, int dom)
{
	hwloc_obj_t c;
	int r;

	merge_numa(b, obj, dom);
	for (c = obj->first_child; c; c = c->next_sibling) {
		enum ps_level lvl;
		int nd;

		if (!c->cpuset || hwloc_bitmap_iszero(c->cpuset))
			continue;
		if (c->type == HWLOC_OBJ_PU) {
			r = add_pu(b, c, dom);
			if (r)
				return r;
			continue;
		}
		if (hwloc_bitmap_isequal(c->cpuset, b->topo->doms[dom].cpuset)) {
			if (type_to_level(c->type, &lvl) == 0)
				b->topo->doms[dom].types |= 1u << lvl;
			r = walk(b, c, dom);
			if (r)
				return r;
			continue;
		}
		/* below a core nothing opens a domain: a cache of one SMT
		 * thread (QEMU reports an L1 per thread: Core > L1d > L1i >
		 * PU) would otherwise stand between the core and its PUs,
		 * and the siblings would read as cores of their own */
		if (b->topo->doms[dom].types & (1u << PS_LVL_CORE)) {
			r = walk(b, c, dom);
			if (r)
				return r;
			continue;
		}
		nd = new_domain(b, dom, c);
		if (nd < 0)
			return nd;
		r = walk(b, c, nd);
		if (r)
			return r;
		b->topo->doms[nd].pu_hi = b->topo->nr_pus;
	}
	return 0;
}

static int link_children(struct ps_topo *topo)
{
	int i, *next;

	topo->child_store = malloc(sizeof(int) * (topo->nr_doms + 1));
	next = calloc(topo->nr_doms, sizeof(int));
	if (!topo->child_store || !next) {
		free(next);
		return -ENOMEM;
	}
	for (i = 1; i < topo->nr_doms; i++)
		topo->doms[topo->doms[i].parent].nr_children++;
	for (i = 0, next[0] = 0; i < topo->nr_doms; i++) {
		topo->doms[i].children = topo->child_store + next[i];
		if (i + 1 < topo->nr_doms)
			next[i + 1] = next[i] + topo->doms[i].nr_children;
		topo->doms[i].nr_children = 0;
	}
	/* parents precede children, so children are added in PU order */
	for (i = 1; i < topo->nr_doms; i++) {
		struct ps_domain *p = &topo->doms[topo->doms[i].parent];

		p->children[p->nr_children++] = i;
	}
	for (i = 0; i < topo->nr_doms; i++)
		topo->doms[i].nr_pus = topo->doms[i].pu_hi - topo->doms[i].pu_lo;
	for (i = 0; i < topo->nr_pus; i++) {
		const struct ps_domain *d = &topo->doms[topo->pus[i].dom];

		topo->pus[i].nr_siblings =
			(d->types & (1u << PS_LVL_CORE)) ? d->pu_hi - d->pu_lo : 1;
	}
	free(next);
	return 0;
}

/*
 * CPU kinds, ranked as hwloc ranks them. More kinds than PS_MAX_KINDS, or
 * kinds that do not cover every PU, read as one kind: the model then treats
 * every core alike, which is what it did before kinds existed.
 */
static void read_kinds(hwloc_topology_t t, struct ps_topo *topo)
{
	int n = hwloc_cpukinds_get_nr(t, 0), k, i, covered = 0;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	topo->nr_kinds = 1;
	snprintf(topo->kinds[0].name, sizeof(topo->kinds[0].name), "any");
	topo->kinds[0].efficiency = -1;
	topo->kinds[0].nr_pus = topo->nr_pus;
	for (i = 0; i < topo->nr_pus; i++)
		topo->pus[i].kind = 0;
	if (!set || n < 2 || n > PS_MAX_KINDS) {
		hwloc_bitmap_free(set);
		return;
	}
	for (k = 0; k < n; k++) {
		struct hwloc_info_s *infos = NULL;
		unsigned nr_infos = 0, j;
		int eff = -1;
		const char *name = NULL;

		if (hwloc_cpukinds_get_info(t, k, set, &eff, &nr_infos, &infos, 0))
			break;
		for (j = 0; j < nr_infos; j++)
			if (!strcmp(infos[j].name, "CoreType"))
				name = infos[j].value;
		if (name)
			snprintf(topo->kinds[k].name, sizeof(topo->kinds[k].name), "%s", name);
		else
			snprintf(topo->kinds[k].name, sizeof(topo->kinds[k].name), "kind%d", k);
		topo->kinds[k].efficiency = eff;
		topo->kinds[k].nr_pus = 0;
		for (i = 0; i < topo->nr_pus; i++)
			if (hwloc_bitmap_isset(set, topo->pus[i].os_index)) {
				topo->pus[i].kind = k;
				topo->kinds[k].nr_pus++;
				covered++;
			}
	}
	hwloc_bitmap_free(set);
	if (k < n || covered != topo->nr_pus) {
		topo->kinds[0].nr_pus = topo->nr_pus;
		for (i = 0; i < topo->nr_pus; i++)
			topo->pus[i].kind = 0;
		return;
	}
	topo->nr_kinds = n;
}

int ps_topo_from_hwloc(hwloc_topology_t t, struct ps_topo **out)
{
	struct builder b = { .t = t };
	hwloc_obj_t root = hwloc_get_root_obj(t);
	int nr = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	int r;

	if (nr <= 0 || !root->cpuset || hwloc_bitmap_iszero(root->cpuset))
		return -EINVAL;
	b.topo = calloc(1, sizeof(*b.topo));
	if (!b.topo)
		return -ENOMEM;
	b.cap_pus = nr;
	b.topo->pus = calloc(nr, sizeof(*b.topo->pus));
	r = b.topo->pus ? 0 : -ENOMEM;
	if (!r) {
		r = new_domain(&b, -1, root);
		if (r > 0)
			r = -EINVAL;
	}
	if (!r)
		r = walk(&b, root, 0);
	if (!r) {
		b.topo->doms[0].pu_hi = b.topo->nr_pus;
		r = b.topo->nr_pus ? 0 : -EINVAL;
	}
	if (!r)
		r = link_children(b.topo);
	if (!r) {
		read_kinds(t, b.topo);
		r = ps_topo_finish(b.topo);
	}
	if (r) {
		ps_topo_free(b.topo);
		return r;
	}
	*out = b.topo;
	return 0;
}

static int is_file(const char *spec)
{
	struct stat st;

	return stat(spec, &st) == 0 && S_ISREG(st.st_mode);
}

int ps_topo_load(const char *spec, struct ps_topo **out)
{
	hwloc_topology_t t;
	int r;

	if (hwloc_topology_init(&t))
		return -ENOMEM;
	if (spec && is_file(spec)) {
		r = hwloc_topology_set_xml(t, spec) ? -EINVAL : 0;
	} else if (spec && strchr(spec, ':')) {
		r = hwloc_topology_set_synthetic(t, spec) ? -EINVAL : 0;
	} else if (spec) {
		/* neither a file nor a synthetic description */
		r = strstr(spec, ".xml") ? -ENOENT : -EINVAL;
	} else {
		r = 0;
	}
	if (!r && hwloc_topology_load(t))
		r = -EINVAL;
	if (!r)
		r = ps_topo_from_hwloc(t, out);
	if (!r)
		snprintf((*out)->desc, sizeof((*out)->desc), "%s",
			 spec ? spec : "this machine");
	hwloc_topology_destroy(t);
	return r;
}
