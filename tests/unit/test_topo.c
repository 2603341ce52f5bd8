// SPDX-License-Identifier: MIT
/* Domain tree from hwloc: levels, merging, capacities, orders, errors. */
#include <errno.h>
#include <unistd.h>
#include <hwloc.h>

#include "helpers.h"

static int count_level(const struct ps_topo *t, enum ps_level l)
{
	int i, n = 0;

	for (i = 0; i < t->nr_doms; i++)
		n += !!(t->doms[i].types & (1u << l));
	return n;
}

static void test_seeds_machine(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	int i;

	(void)state;
	assert_int_equal(t->nr_pus, 32);
	assert_int_equal(count_level(t, PS_LVL_PACKAGE), 2);
	assert_int_equal(count_level(t, PS_LVL_CORE), 16);
	assert_int_equal(count_level(t, PS_LVL_MACHINE), 1);
	/* machine, 2 packages, 16 cores: nothing else groups PUs */
	assert_int_equal(t->nr_doms, 19);
	for (i = 0; i < t->nr_pus; i++) {
		assert_int_equal(t->pus[i].nr_siblings, 2);
		assert_int_equal(t->pus[i].package, i / 16);
		assert_int_equal(t->pus[i].core, i / 2);
		assert_int_equal(t->pus[i].os_index, i);
	}
	assert_int_equal(t->doms[0].pu_lo, 0);
	assert_int_equal(t->doms[0].pu_hi, 32);
	ps_topo_free(t);
}

static void test_merge_same_span(void **state)
{
	/* a numa node per package and an L3 per package merge into it */
	struct ps_topo *t = load_topo("pack:4 numa:1 l3:1 core:16 pu:2");
	int i;

	(void)state;
	assert_int_equal(t->nr_doms, 1 + 4 + 64);
	for (i = 0; i < t->nr_doms; i++) {
		const struct ps_domain *d = &t->doms[i];

		if (d->types & (1u << PS_LVL_PACKAGE)) {
			assert_true(d->types & (1u << PS_LVL_NUMA));
			assert_true(d->types & (1u << PS_LVL_L3));
			assert_int_equal(ps_domain_level(d), PS_LVL_PACKAGE);
			assert_int_equal(d->nr_pus, 32);
			assert_int_equal(d->nr_children, 16);
		}
	}
	ps_topo_free(t);
}

static void test_group_levels(void **state)
{
	/* s390-like: books (groups) of packages; an L2 shared by 2 cores */
	struct ps_topo *t = load_topo("group:2 pack:2 l2:2 core:2 pu:2");

	(void)state;
	assert_int_equal(t->nr_pus, 32);
	assert_int_equal(count_level(t, PS_LVL_GROUP), 2);
	assert_int_equal(count_level(t, PS_LVL_PACKAGE), 4);
	assert_int_equal(count_level(t, PS_LVL_L2), 8);
	assert_int_equal(count_level(t, PS_LVL_CORE), 16);
	assert_int_equal(t->max_depth, 4); /* machine, group, package, l2, core */
	ps_topo_free(t);
}

static void test_capacity_smt(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	struct ps_topo *n = load_topo("pack:2 core:8 pu:1");

	(void)state;
	ps_topo_set_smt_gain(t, 0.25);
	ps_topo_set_smt_gain(n, 0.25);
	/* 8 cores x (1 + 0.25) per package; without SMT 8 cores */
	assert_float_equal(t->doms[1].capacity, 10.0, 1e-9);
	assert_int_equal(t->doms[1].nr_pus, 16);
	assert_float_equal(t->doms[0].capacity, 20.0, 1e-9);
	assert_float_equal(n->doms[1].capacity, 8.0, 1e-9);
	assert_int_equal(n->doms[1].nr_pus, 8);
	assert_int_equal(n->pus[0].nr_siblings, 1);
	/* a gain of 1 makes a sibling a full core */
	ps_topo_set_smt_gain(t, 1.0);
	assert_float_equal(t->doms[0].capacity, 32.0, 1e-9);
	ps_topo_free(t);
	ps_topo_free(n);
}

static void test_orders(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2");
	int i;

	(void)state;
	/* fill: depth-first, both siblings of a core, then the next core */
	for (i = 0; i < 32; i++)
		assert_int_equal(t->fill_order[i], i);
	/* pack: package 0 first; in it one PU of each core, then the siblings */
	for (i = 0; i < 32; i++) {
		int pkg = i / 16, j = i % 16;

		assert_int_equal(t->pack_order[i], pkg * 16 + (j < 8 ? 2 * j : 2 * (j - 8) + 1));
		assert_int_equal(t->pack_rank[t->pack_order[i]], i);
	}
	/* spread: alternate packages, one PU per core before any sibling */
	assert_int_equal(t->pus[t->spread_order[0]].package, 0);
	assert_int_equal(t->pus[t->spread_order[1]].package, 1);
	for (i = 0; i < 16; i++) {
		int j;

		for (j = 0; j < i; j++)
			assert_int_not_equal(t->pus[t->spread_order[i]].core,
					     t->pus[t->spread_order[j]].core);
	}
	ps_topo_free(t);
}

/*
 * QEMU (-smp 32,sockets=2,cores=8,threads=2, the guest of tests/vm) reports
 * an L1 per SMT thread: Core > L1d > L1i > PU. lstopo's XML from that guest
 * (Debian's 6.1 kernel, hwloc 2.9) must read as the same machine as "pack:2
 * core:8 pu:2": each PU's domain the core, with its sibling; the same
 * orders. Read before, each thread was a core of its own: no SMT cost, and
 * live packed what plan (on the synthetic shape) spread.
 */
static void test_per_thread_l1(void **state)
{
	struct ps_topo *t = load_topo("pack:2 core:8 pu:2"), *q;
	char path[512];
	int i;

	(void)state;
	topo_path(path, sizeof(path), "qemu-2x8x2-l1-per-thread.xml");
	assert_int_equal(ps_topo_load(path, &q), 0);
	assert_int_equal(q->nr_pus, 32);
	assert_int_equal(count_level(q, PS_LVL_PACKAGE), 2);
	assert_int_equal(count_level(q, PS_LVL_CORE), 16);
	for (i = 0; i < 32; i++) {
		assert_int_equal(q->pus[i].nr_siblings, 2);
		assert_true(q->doms[q->pus[i].dom].types & (1u << PS_LVL_CORE));
		assert_int_equal(q->pus[i].os_index, t->pus[i].os_index);
		assert_int_equal(q->pus[i].core, t->pus[i].core);
		assert_int_equal(q->pus[i].package, t->pus[i].package);
		assert_int_equal(q->pack_order[i], t->pack_order[i]);
		assert_int_equal(q->spread_order[i], t->spread_order[i]);
		assert_int_equal(q->fill_order[i], t->fill_order[i]);
	}
	ps_topo_free(q);
	ps_topo_free(t);
}

static void test_xml_roundtrip(void **state)
{
	hwloc_topology_t h;
	struct ps_topo *t;
	char path[] = "/tmp/ps-topo-XXXXXX.xml";
	int fd;

	(void)state;
	assert_int_equal(hwloc_topology_init(&h), 0);
	assert_int_equal(hwloc_topology_set_synthetic(h, "pack:2 core:4 pu:2"), 0);
	assert_int_equal(hwloc_topology_load(h), 0);
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(hwloc_topology_export_xml(h, path, 0), 0);
	hwloc_topology_destroy(h);
	t = load_topo(path);
	assert_int_equal(t->nr_pus, 16);
	assert_int_equal(count_level(t, PS_LVL_PACKAGE), 2);
	assert_int_equal(count_level(t, PS_LVL_CORE), 8);
	ps_topo_free(t);
	unlink(path);
}

static void test_bad_specs(void **state)
{
	struct ps_topo *t = NULL;
	char path[] = "/tmp/ps-bad-XXXXXX.xml";
	int fd;

	(void)state;
	assert_int_equal(ps_topo_load("pack:x core:8", &t), -EINVAL);
	assert_int_equal(ps_topo_load("pack:2 bogus:3 pu:2", &t), -EINVAL);
	assert_int_equal(ps_topo_load("nonsense", &t), -EINVAL);
	assert_int_equal(ps_topo_load("/nonexistent/machine.xml", &t), -ENOENT);
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "<topology><object", 17), 17);
	close(fd);
	assert_int_equal(ps_topo_load(path, &t), -EINVAL);
	unlink(path);
	assert_null(t);
}

static void test_this_machine(void **state)
{
	struct ps_topo *t = load_topo(NULL);

	(void)state;
	assert_true(t->nr_pus >= 1);
	assert_true(t->nr_pus <= sysconf(_SC_NPROCESSORS_CONF));
	assert_int_equal(ps_topo_find_pu(t, t->pus[0].os_index), 0);
	assert_int_equal(ps_topo_find_pu(t, 1u << 30), -ENOENT);
	ps_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeds_machine),
		cmocka_unit_test(test_merge_same_span),
		cmocka_unit_test(test_group_levels),
		cmocka_unit_test(test_capacity_smt),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_per_thread_l1),
		cmocka_unit_test(test_xml_roundtrip),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
