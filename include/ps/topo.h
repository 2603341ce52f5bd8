/* SPDX-License-Identifier: MIT */
/*
 * DOC: topology
 *
 * Our own domain tree, built from hwloc. Every hwloc object that groups PUs
 * (core, caches, die, group, package, machine) becomes a domain, except that
 * objects spanning exactly the same PUs are merged into one domain that
 * records all their types (a Core with its private L1/L2 is one domain, a
 * Package with its L3 and NUMA node is one domain). No level is special-cased
 * by name: the policy only sees a tree of domains with PU counts.
 *
 * PUs are numbered 0..nr_pus-1 in depth-first order, so every domain owns a
 * contiguous range [pu_lo, pu_hi) of that order.
 */
#ifndef PS_TOPO_H
#define PS_TOPO_H

#include <hwloc.h>

/* Types a domain can carry; data for the power model, never for the policy. */
enum ps_level {
	PS_LVL_MACHINE,
	PS_LVL_PACKAGE,
	PS_LVL_DIE,
	PS_LVL_GROUP,
	PS_LVL_NUMA,
	PS_LVL_L5,
	PS_LVL_L4,
	PS_LVL_L3,
	PS_LVL_L2,
	PS_LVL_L1,
	PS_LVL_CORE,
	PS_LVL_PU,
	PS_LVL_COUNT
};

struct ps_domain {
	int parent;           /* index into topo->doms, -1 for the root */
	int depth;            /* root is 0 */
	unsigned types;       /* bit (1u << enum ps_level) per merged type */
	int logical;          /* hwloc logical index of the topmost merged object */
	int pu_lo, pu_hi;     /* PUs in depth-first order, [pu_lo, pu_hi) */
	int nr_children;      /* sub-domains only, PUs are not domains */
	int *children;        /* indices into topo->doms */
	int nr_pus;           /* placement slots: a sibling is a full slot */
	double capacity;      /* throughput in cores: 1 + smt_gain per extra sibling */
	hwloc_bitmap_t cpuset; /* OS indexes of its PUs */
};

struct ps_pu {
	unsigned os_index;
	int dom;              /* the innermost domain holding this PU */
	int core;             /* hwloc logical index of its Core, -1 if none */
	int package;          /* hwloc logical index of its Package, -1 if none */
	int nr_siblings;      /* PUs sharing its innermost domain if that is a Core, else 1 */
	int kind;             /* index into topo->kinds: 0 the most energy-efficient */
};

#define PS_MAX_KINDS 8

/*
 * A CPU kind as hwloc reports it (hwloc_cpukinds_get_info()): ranked by
 * efficiency, lowest (most energy-efficient, least performant) first. The
 * name is hwloc's "CoreType" info (IntelAtom, IntelCore) when given, else
 * "kind<N>" with N its rank. A machine hwloc gives no kinds has one, "any".
 */
struct ps_kind {
	char name[32];
	int efficiency;       /* hwloc's value, -1 if unknown */
	int nr_pus;
};

struct ps_topo {
	int nr_doms;
	struct ps_domain *doms; /* doms[0] is the root, parents precede children */
	int nr_pus;
	struct ps_pu *pus;
	int *spread_order;    /* PU indices, widest domains first (performance);
			       * on a machine with several kinds, the first PU
			       * of every core by kind, most performant first,
			       * then second siblings (as Linux's ITMT) */
	int *pack_order;      /* PU indices, fewest domains first, within the
			       * smallest domain of cores one PU per core
			       * before any sibling (power) */
	int *pack_rank;       /* position of each PU index in pack_order */
	int *fill_order;      /* depth-first, largest first: siblings first */
	int nr_kinds;         /* >= 1 */
	struct ps_kind kinds[PS_MAX_KINDS];
	double smt_gain;      /* last given to ps_topo_set_smt_gain() */
	int max_depth;
	char desc[128];       /* what it was built from, for reports */
	int *child_store;     /* one allocation behind every children array */
};

/**
 * ps_topo_load() - build the domain tree
 * @spec: NULL for this machine (honours HWLOC_FSROOT), a synthetic
 *        description ("pack:2 core:8 pu:2"), or a path to an lstopo XML file
 * @out: receives a new tree; free it with ps_topo_free()
 *
 * Return: 0, -EINVAL for a malformed description or XML file, -ENOENT for a
 * file that cannot be read, -ENOMEM.
 */
int ps_topo_load(const char *spec, struct ps_topo **out);

/**
 * ps_topo_from_hwloc() - build the domain tree from a loaded hwloc topology
 * @t: a loaded topology; only read, the caller still owns it
 * @out: receives a new tree
 *
 * Return: 0, -EINVAL if it has no PU, -ENOMEM.
 */
int ps_topo_from_hwloc(hwloc_topology_t t, struct ps_topo **out);

/** ps_topo_free() - free a tree from ps_topo_load(); NULL is allowed. */
void ps_topo_free(struct ps_topo *topo);

/**
 * ps_topo_set_smt_gain() - recompute every domain's capacity for a gain
 * (the throughput a second sibling adds to a core, 0..1; 0 until set). The
 * power policy uses it to keep partial loads within a shared core's capacity.
 */
void ps_topo_set_smt_gain(struct ps_topo *topo, double smt_gain);

/** ps_level_name() - lower-case name of a level ("package", "l2", "pu"). */
const char *ps_level_name(enum ps_level lvl);

/** ps_domain_level() - the outermost type a domain carries. */
enum ps_level ps_domain_level(const struct ps_domain *d);

/**
 * ps_topo_find_pu() - PU index of an OS index
 * Return: the index in topo->pus, or -ENOENT.
 */
int ps_topo_find_pu(const struct ps_topo *topo, unsigned os_index);

#endif
