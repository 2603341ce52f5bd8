// SPDX-License-Identifier: MIT
/*
 * DOC: event queue
 *
 * A binary min-heap on (time, sequence): events at the same time come out in
 * the order they went in, so a run is deterministic.
 *
 * Keyed events: a key (a core's completion) has at most one event in the
 * heap. Setting it again moves that event to its new time, with a new
 * sequence number, as if it had been popped and pushed: the heap holds no
 * stale events, so its size is the number of pending events and not the
 * number of times a completion time changed.
 *
 * Lanes: events that come in time order (the releases of a periodic item:
 * each is pushed one period after the release being handled, and adding
 * a period keeps the order because rounding is monotonic) wait in a FIFO,
 * and only the first of each lane is in the heap. Popping it puts the
 * next one of the lane in its place with one sift. An event that would
 * not be the lane's latest goes to the heap as usual, so the order of
 * events is exactly that of one heap; the heap holds one node per lane
 * instead of one per task.
 *
 * Speed: times are compared as integers (a double's bits, mapped so that
 * integer order is numeric order), the smaller child is picked without a
 * branch, and a sentinel after the last node saves the bound check.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

static const struct ps_evn sentinel = { ~0ull, ~0ull, 0, 0, -1, 0 };

/* Integer order = numeric order: flip the sign bit of a positive double,
 * every bit of a negative one; -0.0 is made +0.0 first. */
static inline unsigned long long t_key(double t)
{
	unsigned long long u;

	t += 0.0;
	memcpy(&u, &t, sizeof(u));
	return u ^ ((u >> 63) ? ~0ull : 1ull << 63);
}

static inline double key_time(unsigned long long u)
{
	double t;

	u ^= (u >> 63) ? 1ull << 63 : ~0ull;
	memcpy(&t, &u, sizeof(t));
	return t;
}

int ps_evq_init(struct ps_evq *q, int cap)
{
	q->n = 0;
	q->seq = 0;
	q->pos = NULL;
	q->nkeys = 0;
	q->lanes = NULL;
	q->nlanes = 0;
	q->cap = cap > 16 ? cap : 16;
	q->h = malloc(sizeof(*q->h) * (q->cap + 1));
	if (!q->h)
		return -ENOMEM;
	q->h[0] = sentinel;
	return 0;
}

int ps_evq_keys(struct ps_evq *q, int nkeys)
{
	int i;

	free(q->pos);
	q->pos = malloc(sizeof(int) * (nkeys > 0 ? nkeys : 1));
	if (!q->pos)
		return -ENOMEM;
	q->nkeys = nkeys;
	for (i = 0; i < nkeys; i++)
		q->pos[i] = -1;
	return 0;
}

int ps_evq_lanes(struct ps_evq *q, int nlanes)
{
	int *pos = realloc(q->pos, sizeof(int) * (q->nkeys + nlanes + 1));
	int i;

	if (!pos)
		return -ENOMEM;
	q->pos = pos;
	q->lanes = calloc(nlanes + 1, sizeof(*q->lanes));
	if (!q->lanes)
		return -ENOMEM;
	q->nlanes = nlanes;
	for (i = 0; i < nlanes; i++)
		q->pos[q->nkeys + i] = -1;
	return 0;
}

void ps_evq_fini(struct ps_evq *q)
{
	int i;

	for (i = 0; i < q->nlanes; i++)
		free(q->lanes[i].r);
	free(q->lanes);
	free(q->h);
	free(q->pos);
	q->h = NULL;
	q->pos = NULL;
	q->lanes = NULL;
	q->n = q->cap = q->nkeys = q->nlanes = 0;
}

static inline int before(const struct ps_evn *a, const struct ps_evn *b)
{
	return (a->tk < b->tk) | ((a->tk == b->tk) & (a->seq < b->seq));
}

static inline void put(struct ps_evq *q, int i, const struct ps_evn *e)
{
	q->h[i] = *e;
	if (e->key >= 0)
		q->pos[e->key] = i;
}

static void sift_up(struct ps_evq *q, int i, const struct ps_evn *e)
{
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(e, &q->h[parent]))
			break;
		put(q, i, &q->h[parent]);
		i = parent;
	}
	put(q, i, e);
}

static void sift_down(struct ps_evq *q, int i, const struct ps_evn *e)
{
	for (;;) {
		int c = 2 * i + 1;

		if (c >= q->n)
			break;
		c += before(&q->h[c + 1], &q->h[c]); /* h[n] is the sentinel */
		if (!before(&q->h[c], e))
			break;
		put(q, i, &q->h[c]);
		i = c;
	}
	put(q, i, e);
}

static int grow(struct ps_evq *q)
{
	int cap = q->cap * 2;
	void *p;

	if (q->n < q->cap)
		return 0;
	p = realloc(q->h, sizeof(*q->h) * (cap + 1));
	if (!p)
		return -ENOMEM;
	q->h = p;
	q->cap = cap;
	return 0;
}

/* A new event into the heap (the sentinel kept after the last node). */
static int heap_insert(struct ps_evq *q, const struct ps_evn *e)
{
	if (grow(q))
		return -ENOMEM;
	q->n++;
	q->h[q->n] = sentinel;
	sift_up(q, q->n - 1, e);
	return 0;
}

int ps_evq_push(struct ps_evq *q, double t, int type, int a, unsigned ver)
{
	struct ps_evn e = { t_key(t), q->seq++, type, a, -1, ver };

	return heap_insert(q, &e);
}

/* Take out the event at heap index i. */
static void remove_at(struct ps_evq *q, int i)
{
	struct ps_evn last;

	if (q->h[i].key >= 0)
		q->pos[q->h[i].key] = -1;
	last = q->h[--q->n];
	q->h[q->n] = sentinel;
	if (i == q->n)
		return;
	if (i > 0 && before(&last, &q->h[(i - 1) / 2]))
		sift_up(q, i, &last);
	else
		sift_down(q, i, &last);
}

int ps_evq_set(struct ps_evq *q, int key, double t, int type, int a)
{
	struct ps_evn e = { t_key(t), 0, type, a, key, 0 };
	int i = q->pos[key];

	if (!isfinite(t)) {
		if (i >= 0)
			remove_at(q, i);
		return 0;
	}
	e.seq = q->seq++;
	if (i < 0)
		return heap_insert(q, &e);
	if (i > 0 && before(&e, &q->h[(i - 1) / 2])) {
		sift_up(q, i, &e);
	} else {
		sift_down(q, i, &e);
	}
	return 0;
}

int ps_evq_push_lane(struct ps_evq *q, int lane, double t, int type, int a)
{
	struct ps_evlane *l = &q->lanes[lane];
	struct ps_evn e = { t_key(t), q->seq++, type, a, q->nkeys + lane, 0 };

	if (l->len && before(&e, &l->r[(l->head + l->len - 1) % l->cap])) {
		/* not the latest of its lane: an ordinary event */
		e.key = -1;
		return heap_insert(q, &e);
	}
	if (l->len == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16, i;
		struct ps_evn *r = malloc(sizeof(*r) * cap);

		if (!r)
			return -ENOMEM;
		for (i = 0; i < l->len; i++)
			r[i] = l->r[(l->head + i) % l->cap];
		free(l->r);
		l->r = r;
		l->cap = cap;
		l->head = 0;
	}
	l->r[(l->head + l->len++) % l->cap] = e;
	if (l->len == 1) /* the lane's first: into the heap */
		return heap_insert(q, &e);
	return 0;
}

int ps_evq_pop(struct ps_evq *q, struct ps_ev *out)
{
	const struct ps_evn *h = &q->h[0];

	if (!q->n)
		return -1;
	out->t = key_time(h->tk);
	out->seq = h->seq;
	out->type = h->type;
	out->a = h->a;
	out->ver = h->ver;
	out->key = h->key;
	if (h->key >= q->nkeys) {
		struct ps_evlane *l = &q->lanes[h->key - q->nkeys];

		l->head = (l->head + 1) % l->cap;
		if (--l->len) {
			/* the lane's next takes the root's place */
			struct ps_evn next = l->r[l->head];

			sift_down(q, 0, &next);
			return 0;
		}
	}
	remove_at(q, 0);
	return 0;
}
