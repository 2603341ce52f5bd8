/* SPDX-License-Identifier: MIT */
/* Internal to lib/: what topo_hwloc.c hands to topo.c. */
#ifndef PS_TOPO_INT_H
#define PS_TOPO_INT_H

#include "ps/topo.h"

/* Compute orders and capacities once the tree and PUs are in place. */
int ps_topo_finish(struct ps_topo *topo);

#endif
