// SPDX-License-Identifier: MIT
/*
 * DOC: event queue
 *
 * A binary min-heap on (time, sequence): events at the same time come out in
 * the order they went in, so a run is deterministic.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim_int.h"

int ps_evq_init(struct ps_evq *q, int cap)
{
	q->n = 0;
	q->seq = 0;
	q->cap = cap > 16 ? cap : 16;
	q->h = malloc(sizeof(*q->h) * q->cap);
	return q->h ? 0 : -ENOMEM;
}

void ps_evq_fini(struct ps_evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}

static inline int before(const struct ps_ev *a, const struct ps_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int ps_evq_push(struct ps_evq *q, double t, int type, int a, unsigned ver)
{
	struct ps_ev e = { t, q->seq++, type, a, ver };
	int i;

	if (q->n == q->cap) {
		int cap = q->cap * 2;
		void *p = realloc(q->h, sizeof(*q->h) * cap);

		if (!p)
			return -ENOMEM;
		q->h = p;
		q->cap = cap;
	}
	i = q->n++;
	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(&e, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = e;
	return 0;
}

int ps_evq_pop(struct ps_evq *q, struct ps_ev *out)
{
	struct ps_ev last;
	int i = 0;

	if (!q->n)
		return -1;
	*out = q->h[0];
	last = q->h[--q->n];
	for (;;) {
		int c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(&q->h[c + 1], &q->h[c]))
			c++;
		if (!before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
	return 0;
}
