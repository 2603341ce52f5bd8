/* SPDX-License-Identifier: MIT */
/* Internal to sim/: the event queue and the oracle. */
#ifndef PS_SIM_INT_H
#define PS_SIM_INT_H

#include "ps/sim.h"

struct ps_ev {
	double t;
	unsigned long long seq; /* FIFO among equal times */
	int type;
	int a;
	unsigned ver;
	int key;      /* -1, or the key of a keyed event */
};

/* A heap node: the time as an integer that orders the same way. */
struct ps_evn {
	unsigned long long tk;
	unsigned long long seq;
	int type;
	int a;
	int key;
	unsigned ver;
};

/* A FIFO of events in (time, sequence) order; its head is in the heap. */
struct ps_evlane {
	struct ps_evn *r;
	int head, len, cap;
};

struct ps_evq {
	struct ps_evn *h;   /* h[n] is a sentinel later than any event */
	struct ps_evlane *lanes;
	int nlanes;
	int n, cap;
	unsigned long long seq;
	int *pos;     /* heap index of each key's (then lane's) event, or -1 */
	int nkeys;
};

int ps_evq_init(struct ps_evq *q, int cap);
/* Allow keys 0..nkeys-1 for ps_evq_set(). Return: 0, -ENOMEM. */
int ps_evq_keys(struct ps_evq *q, int nkeys);
/*
 * Allow lanes 0..nlanes-1 for ps_evq_push_lane() (after ps_evq_keys()).
 * Return: 0, -ENOMEM.
 */
int ps_evq_lanes(struct ps_evq *q, int nlanes);
void ps_evq_fini(struct ps_evq *q);
/*
 * Push an event that is usually the latest of its lane (a periodic item:
 * each release is pushed one period after the one being handled, so they
 * come in time order). Same order of events as ps_evq_push(); cheaper,
 * because a lane is one node of the heap. Return: 0, -ENOMEM.
 */
int ps_evq_push_lane(struct ps_evq *q, int lane, double t, int type, int a);
int ps_evq_push(struct ps_evq *q, double t, int type, int a, unsigned ver);
/*
 * The one event of @key, at @t (as if pushed now: last among equal times);
 * it replaces the key's pending event. An infinite @t removes it.
 * Return: 0, -ENOMEM.
 */
int ps_evq_set(struct ps_evq *q, int key, double t, int type, int a);
/* Pop the earliest event (ties: first pushed). Return: 0, or -1 if empty. */
int ps_evq_pop(struct ps_evq *q, struct ps_ev *out);

/*
 * The lowest modeled power, over a family of candidate placements, that
 * delivers a per-task demand (each in (0,1]): for each of three PU orders
 * (pack, spread, and depth-first with siblings first), every prefix size k,
 * tasks first-fit-decreasing into the k PUs at fill 1.0. A candidate that
 * delivers at least 99.9% of the demand qualifies; if none does, the one
 * that delivers most. Return: 0, -ENOMEM.
 */
struct ps_oracle;
int ps_oracle_new(const struct ps_topo *t, const struct ps_model *m,
		  int max_tasks, struct ps_oracle **out);
void ps_oracle_free(struct ps_oracle *o);
int ps_oracle_power(struct ps_oracle *o, const double *demand, int n,
		    double *power_w);

#endif
