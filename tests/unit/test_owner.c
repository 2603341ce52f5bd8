// SPDX-License-Identifier: MIT
/*
 * Property test of mask ownership (issue 23): seeded random interleavings
 * of user `taskset` calls, forks (processes and threads), exits, execs into
 * an excluded command, moves into a container's cgroup, set changes, and a
 * SIGKILL of the enforcer (between intervals or in the middle of one) with
 * a restart that replays its journal, over a small simulated task table.
 *
 * The enforcer is the real code: the affinity backend's apply, release,
 * sweep and after-restore, the journal writer, its compaction and
 * ps_live_restore_journal(), on a real journal file; only the kernel's
 * calls (a thread's mask, a start time, the clock) are the simulation's,
 * through ps_live_sys. The table each interval reads is built the way the
 * /proc scan builds it (what it knew of a thread is carried while the TID
 * has the same start time).
 *
 * Beside it runs a model of the rule, written from the rule and not from
 * the code: a thread is ours when it was recorded on the machine's mask, or
 * born (a thread of its process, or a process of its parent) while a
 * thread of ours was ours, with the set it got from us; it stays ours while
 * its mask is the last set we gave it; anything else is someone else's and
 * is never written. After every interval and every restore each thread's
 * mask must be the model's: the user's left alone, ours on the set, and
 * after a restore ours back on its recorded original (every CPU).
 *
 * A known limit, left out of the generator and said in the output: children
 * born after the last interval when the enforcer is killed (no record: only
 * a clean stop sweeps them).
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "../../live/live_int.h"

#define NCPU 3
#define ONLINE 7 /* CPUs 0-2 */
#define MAXT 96

enum { UNSEEN, OURS, USER };

/* the simulated machine */
struct task {
	pid_t tid, tgid, ppid;
	unsigned long long start;
	int mask;     /* bit c: CPU c */
	int alive, excl, moved;
	/* the model */
	int owner;    /* UNSEEN, OURS, USER */
	int given;    /* OURS: the set we gave it (or it was born with) */
	unsigned long long owned_at;
	int born_ours; /* born while a thread of ours (by the rule) was ours */
	int heir;     /* the connector reported its birth from one of ours */
	int checked;  /* excluded and looked at once */
	int listed;   /* the enforcer has listed it */
	int taken_now, let_now; /* in the last interval: became ours, let go */
};

struct counts_i {
	long taken, let;
};

static struct task T[MAXT];
static int nt;
static unsigned long long now_t;
static pid_t next_id;
static int writes_left = -1; /* SIGKILL after this many mask writes */
static jmp_buf crash;
static cpu_set_t *crash_set;
static int model_set, model_prev; /* the set in force, and the one before */
static int mh_set[4096];           /* the sets applied, and when */
static unsigned long long mh_at[4096];
static int mh_n;
static int trace; /* PS_OWNER_TRACE: every event of every seed, for a failure */
#define TR(...) do { if (trace) print_message(__VA_ARGS__); } while (0)

static struct task *find(pid_t tid)
{
	for (int i = 0; i < nt; i++)
		if (T[i].tid == tid && T[i].alive)
			return &T[i];
	return NULL;
}

static int sim_get(pid_t tid, unsigned char *bits, int nbits)
{
	struct task *t = find(tid);

	if (!t)
		return -ESRCH;
	memset(bits, 0, (size_t)nbits);
	for (int c = 0; c < NCPU; c++)
		bits[c] = (unsigned char)((t->mask >> c) & 1);
	return 0;
}

static int to_mask(const unsigned char *bits, int nbits)
{
	int m = 0;

	for (int c = 0; c < NCPU && c < nbits; c++)
		m |= bits[c] ? 1 << c : 0;
	return m;
}

static int sim_write(pid_t tid, int m)
{
	struct task *t = find(tid);

	if (!t)
		return -ESRCH;
	if (!m)
		return -EINVAL;
	t->mask = m;
	return 0;
}

static int sim_set(pid_t tid, const unsigned char *bits, int nbits)
{
	return sim_write(tid, to_mask(bits, nbits));
}

static int sim_set_cpuset(pid_t tid, size_t size, const cpu_set_t *set)
{
	int m = 0;

	for (int c = 0; c < NCPU; c++)
		m |= CPU_ISSET_S((size_t)c, size, set) ? 1 << c : 0;
	/* the interval's set goes on thread by thread: SIGKILL between two
	 * (the records before it are on disk) */
	if (writes_left == 0) {
		crash_set = (cpu_set_t *)set; /* the code's, freed after the jump */
		longjmp(crash, 1);
	}
	if (writes_left > 0)
		writes_left--;
	return sim_write(tid, m);
}

static unsigned long long sim_start(const char *root, long long tid)
{
	struct task *t = find((pid_t)tid);

	(void)root;
	return t ? t->start : 0;
}

static unsigned long long sim_now(const struct ps_live *l)
{
	(void)l;
	return now_t;
}

static int sim_threads(const struct ps_live *l, pid_t pid, pid_t **out)
{
	int n = 0;

	(void)l;
	*out = malloc(sizeof(**out) * MAXT);
	assert_non_null(*out);
	for (int i = 0; i < nt; i++)
		if (T[i].alive && T[i].tgid == pid)
			(*out)[n++] = T[i].tid;
	return n;
}

static const struct ps_live_sysops sim_ops = {
	.threads = sim_threads,
	.get_mask = sim_get,
	.set_mask = sim_set,
	.set_cpuset = sim_set_cpuset,
	.starttime = sim_start,
	.now_ticks = sim_now,
};

/* --- the enforcer: the real code on a hand-built context */
struct enf {
	struct ps_live *l;
	char dir[64], path[128];
};

static void set_bits(unsigned char *b, int m)
{
	memset(b, 0, PS_LIVE_MAX_CPUS);
	for (int c = 0; c < NCPU; c++)
		b[c] = (unsigned char)((m >> c) & 1);
}

static void enf_start(struct enf *e, const char *dir, int n)
{
	struct ps_live *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	l->cfg.root = "/";
	l->cfg.whole_system = 1;
	l->cfg.name = "daemon";
	l->online = calloc(PS_LIVE_MAX_CPUS, 1);
	l->allowed_os = calloc(PS_LIVE_MAX_CPUS, 1);
	l->scratch = calloc(PS_LIVE_MAX_CPUS, 1);
	l->set_os = calloc(PS_LIVE_MAX_CPUS, 1);
	set_bits(l->online, ONLINE);
	set_bits(l->allowed_os, ONLINE);
	set_bits(l->set_os, ONLINE);
	snprintf(l->online_str, sizeof(l->online_str), "0-%d", NCPU - 1);
	l->be = &ps_live_backend_affinity;
	snprintf(e->dir, sizeof(e->dir), "%s", dir);
	snprintf(e->path, sizeof(e->path), "%s/journal.%d", dir, n);
	snprintf(l->journal_path, sizeof(l->journal_path), "%s", e->path);
	assert_int_equal(ps_live_journal_open(l), 0);
	assert_int_equal(ps_live_journal_line(l, "owner %d 1\n", 1000 + n), 0);
	e->l = l;
	model_set = model_prev = ONLINE;
	mh_n = 0;
}

/* the enforcer is gone (no restore: that is the next one's job) */
static void enf_drop(struct enf *e)
{
	struct ps_live *l = e->l;

	if (l->journal_fd >= 0)
		close(l->journal_fd);
	ps_live_hist_free(l);
	free(l->online);
	free(l->allowed_os);
	free(l->scratch);
	free(l->set_os);
	free(l->thr);
	free(l->nthr);
	free(l);
	e->l = NULL;
}

static int cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	return ps_live_thr_before(y->tgid, y->tid, x->tgid, x->tid) -
	       ps_live_thr_before(x->tgid, x->tid, y->tgid, y->tid);
}

/* A scan: every live thread not in a container, what was known of it
 * carried (as source_proc.c does), sorted by (process, thread) */
static void enf_scan(struct enf *e)
{
	struct ps_live *l = e->l;
	struct thr *n = calloc(MAXT, sizeof(*n));
	int k = 0;

	assert_non_null(n);
	for (int i = 0; i < nt; i++) {
		struct task *t = &T[i];
		struct thr *p = t->alive ? ps_live_find_thr(l, t->tgid, t->tid) : NULL;
		struct thr x;

		if (!t->alive || t->moved)
			continue;
		if (p && p->start != t->start)
			p = NULL;
		memset(&x, 0, sizeof(x));
		x.tid = t->tid;
		x.tgid = t->tgid;
		x.ppid = t->ppid;
		x.start = t->start;
		x.ss_fd = -1;
		if (t->excl) {
			x.excluded = 1;
			x.checked = p && p->excluded && p->checked;
			x.recorded = p && (p->managed == 1 || p->recorded);
			x.theirs = p && ((p->managed == 2 && !p->excluded) || p->theirs);
			x.owned_at = p ? p->owned_at : 0;
			x.managed = 2;
		} else if (p) {
			x.managed = p->managed;
			x.owned_at = p->owned_at;
		}
		n[k++] = x;
	}
	qsort(n, (size_t)k, sizeof(*n), cmp_thr);
	free(l->thr);
	l->thr = n;
	l->thr_n = k;
	l->thr_cap = MAXT;
}

/* --- the model of the rule */
/* a thread of process tgid that is ours, and was since before `start` */
static int ours_in(pid_t tgid, unsigned long long start, const struct task *self)
{
	for (int i = 0; i < nt; i++) {
		const struct task *q = &T[i];

		if (q != self && q->alive && !q->moved && q->tgid == tgid && q->owner == OURS &&
		    !q->excl && q->owned_at <= start)
			return 1;
	}
	return 0;
}

/* t's lineage, as the rule has it at an interval: born of a thread of ours
 * (its process's, or its parent process's) while that one was ours, or
 * reported so at its birth (the connector) */
static int lineage(const struct task *t)
{
	pid_t par = t->tid != t->tgid ? t->tgid : t->ppid;

	return ours_in(par, t->start, t) || t->heir;
}

/* and the set it has is one it got from us: the set on ours now, or the
 * one in force at its birth, or the one before that (born as the set went
 * onto its parent) */
static int got_ours(const struct task *t)
{
	int k;

	if (t->mask == model_set)
		return 1;
	for (k = mh_n - 1; k >= 0 && mh_at[k] > t->start; k--)
		;
	return (k >= 0 && mh_set[k] == t->mask) || (k >= 1 && mh_set[k - 1] == t->mask);
}

/* The model of one interval (from the rule): who is ours now, and the mask
 * each thread must have after it (expect). Threads in (process, thread)
 * order, as the table is: a parent process sorts before its children */
static void model_interval(int set, int changed, int *expect, struct counts_i *c)
{
	int order[MAXT], no = 0;

	for (int i = 0; i < nt; i++) {
		T[i].taken_now = T[i].let_now = 0;
		expect[i] = T[i].mask;
		if (T[i].alive && !T[i].moved)
			order[no++] = i;
	}
	for (int a = 1; a < no; a++)
		for (int b = a; b > 0; b--) {
			const struct task *x = &T[order[b - 1]], *y = &T[order[b]];

			if (ps_live_thr_before(y->tgid, y->tid, x->tgid, x->tid)) {
				int tmp = order[b];

				order[b] = order[b - 1];
				order[b - 1] = tmp;
			}
		}
	for (int k = 0; k < no; k++) {
		struct task *t = &T[order[k]];

		if (t->excl) {
			/* not ours to manage from now on: looked at once */
			if (t->checked)
				continue;
			t->checked = 1;
			if (t->mask != ONLINE &&
			    ((t->owner == OURS && t->mask == t->given) ||
			     (t->owner == UNSEEN && got_ours(t) && lineage(t))))
				expect[t - T] = ONLINE; /* ours, or inherited: back */
			t->owner = USER;
			continue;
		}
		if (t->owner != UNSEEN)
			continue;
		t->listed = 1;
		if (t->mask == ONLINE) {
			t->owner = OURS;
			t->owned_at = now_t;
		} else if (got_ours(t) && lineage(t)) {
			t->owner = OURS;
			t->owned_at = t->start; /* ours since its birth */
		} else {
			t->owner = USER; /* whatever its mask: not ours */
			continue;
		}
		t->given = t->mask;
		t->taken_now = 1;
		c->taken++;
	}
	if (changed && mh_n < 4096) {
		mh_set[mh_n] = set;
		mh_at[mh_n++] = now_t;
	}
	/* the set on ours: a new one whenever its mask is not the set; the
	 * others when the set changes, unless the user changed theirs since
	 * (then they are the user's) */
	for (int k = 0; k < no; k++) {
		struct task *t = &T[order[k]];

		if (t->owner != OURS || t->excl)
			continue;
		if (!t->taken_now) {
			if (!changed)
				continue;
			if (t->mask != t->given) {
				t->owner = USER;
				t->let_now = 1;
				c->let++;
				continue;
			}
		}
		if (t->mask != set)
			expect[t - T] = set;
		t->given = set;
	}
}

/* the code's interval: the scan, then the backend's apply */
static void code_interval(struct enf *e, int set, int changed)
{
	char list[32];

	set_bits(e->l->allowed_os, set);
	snprintf(list, sizeof(list), "set-%d", set);
	enf_scan(e);
	assert_int_equal(e->l->be->apply(e->l, list, changed), 0);
}

/* every live thread's mask as expected (or, where alt is given and not 0,
 * that one: what the rule leaves open) */
static void check_alt(const int *expect, const int *alt, const char *what, unsigned seed)
{
	for (int i = 0; i < nt; i++)
		if (T[i].alive && T[i].mask != expect[i] && (!alt || !alt[i] || T[i].mask != alt[i])) {
			print_message("owner: seed %u, %s: thread %d (process %d, parent %d, born "
				      "%llu): mask %d, the model says %d (set %d, before %d)\n", seed,
				      what, (int)T[i].tid, (int)T[i].tgid, (int)T[i].ppid, T[i].start,
				      T[i].mask, expect[i], model_set, model_prev);
			fail();
		}
}

static void check(const int *expect, const char *what, unsigned seed)
{
	check_alt(expect, NULL, what, seed);
}

static void interval(struct enf *e, int set, struct counts_i *c, unsigned seed)
{
	int expect[MAXT], changed = set != model_set;

	model_interval(set, changed, expect, c);
	code_interval(e, set, changed);
	model_prev = model_set;
	model_set = set;
	check(expect, "interval", seed);
}

/* A restore of e's journal (a restart after SIGKILL, or a clean stop):
 * every thread of ours on a set of ours gets every CPU back (mid: the
 * enforcer died in the middle of an interval: the set before counts too);
 * nothing else is written */
static void restore(struct enf *e, int mid, long *nback, unsigned seed)
{
	int restored = 0, expect[MAXT], alt[MAXT];

	for (int i = 0; i < nt; i++) {
		const struct task *t = &T[i];

		expect[i] = t->mask;
		alt[i] = 0;
		/* (an exec into an excluded command the enforcer has not
		 * seen yet: still ours by its record) */
		if (!t->alive)
			continue;
		/* ours on the set we gave it; stopped mid-change, on the set
		 * before or the new one (a thread let go in that interval
		 * whose mask is the new set cannot be told from ours) */
		if ((t->owner == OURS && t->mask == t->given) ||
		    (mid && t->owner == OURS && (t->mask == model_prev || t->mask == model_set)))
			expect[i] = ONLINE;
		/* let go in the interval the SIGKILL cut, on the new set: as
		 * ours (killed before its release was written) or as the
		 * user's (after) */
		if (mid && t->let_now && t->mask == model_set)
			alt[i] = ONLINE;
	}
	assert_int_equal(ps_live_restore_journal("/", e->path, NULL, NULL, &restored), 0);
	check_alt(expect, alt, mid ? "restore after a SIGKILL mid-interval" : "restore", seed);
	for (int i = 0; i < nt; i++)
		*nback += T[i].alive && expect[i] == ONLINE && T[i].owner == OURS;
}

/* --- the world's events */
static struct task *pick(unsigned *seed, int want_plain)
{
	int c[MAXT], n = 0;

	for (int i = 0; i < nt; i++)
		if (T[i].alive && !T[i].moved && (!want_plain || !T[i].excl))
			c[n++] = i;
	return n ? &T[c[rand_r(seed) % (unsigned)n]] : NULL;
}

static void fork_of(struct enf *e, struct task *p, int thread)
{
	struct task *c;
	const struct thr *pt;

	if (nt == MAXT)
		return;
	c = &T[nt++];
	memset(c, 0, sizeof(*c));
	c->tid = next_id++;
	c->tgid = thread ? p->tgid : c->tid;
	c->ppid = thread ? p->ppid : p->tgid;
	c->start = ++now_t;
	c->mask = p->mask;
	c->alive = 1;
	c->excl = 0;
	/* the connector: a birth from a thread the enforcer holds as its own
	 * (as of its last interval), or from one it was told of */
	pt = e && e->l ? ps_live_find_thr(e->l, p->tgid, p->tid) : NULL;
	if (e && e->l && ((pt && pt->managed == 1) || ps_live_heir(e->l, p->tid))) {
		ps_live_heir_add(e->l, c->tid);
		c->heir = 1;
	}
}

static void exit_process(pid_t tgid)
{
	for (int i = 0; i < nt; i++) {
		if (T[i].tgid == tgid)
			T[i].alive = 0;
		else if (T[i].ppid == tgid && T[i].alive)
			T[i].ppid = 1; /* reparented to init */
	}
}

static void world_reset(void)
{
	memset(T, 0, sizeof(T));
	nt = 0;
	now_t = 100;
	next_id = 100;
	/* a few processes there before the enforcer: on every CPU, or pinned
	 * by their user (CPU 0, which is often the set too) */
	for (int i = 0; i < 6; i++) {
		struct task *t = &T[nt++];

		t->tid = t->tgid = next_id++;
		t->ppid = 1;
		t->start = ++now_t;
		t->mask = i < 4 ? ONLINE : 1;
		t->alive = 1;
	}
}

struct counts {
	long steps, intervals, changes, forks, threads, exits, user, moves, execs, kills, mid,
		restores, back, compactions;
	struct counts_i c;
};

static void one_seed(unsigned seed0, const char *dir, struct counts *n)
{
	struct enf e = { 0 };
	unsigned seed = seed0;
	volatile int gen = 0;
	int steps = 20 + (int)(rand_r(&seed) % 40), expect[MAXT];
	static const int sets[] = { 1, 2, 4, 3, 6, 5, ONLINE };

	world_reset();
	enf_start(&e, dir, gen++);
	for (int s = 0; s < steps; s++) {
		unsigned r = rand_r(&seed) % 100;
		struct task *t;

		n->steps++;
		now_t++;
		if (trace)
			for (int i = 0; i < nt; i++)
				if (T[i].alive)
					TR("   t%d p%d pp%d m%d own%d given%d%s%s\n", (int)T[i].tid,
					   (int)T[i].tgid, (int)T[i].ppid, T[i].mask, T[i].owner,
					   T[i].given, T[i].excl ? " excl" : "", T[i].moved ? " moved" : "");
		TR("step %d r %u set %d\n", s, r, model_set);
		if (r < 30) {
			int set = r < 8 ? model_set : sets[rand_r(&seed) % 7];

			n->changes += set != model_set;
			interval(&e, set, &n->c, seed0);
			n->intervals++;
		} else if (r < 50 && (t = pick(&seed, 0))) {
			int th = rand_r(&seed) % 3 == 0;

			fork_of(&e, t, th);
			n->forks++;
			n->threads += th;
		} else if (r < 62 && (t = pick(&seed, 0))) {
			t->mask = 1 + (int)(rand_r(&seed) % ONLINE); /* taskset */
			n->user++;
		} else if (r < 68 && (t = pick(&seed, 0))) {
			exit_process(t->tgid);
			n->exits++;
		} else if (r < 72 && (t = pick(&seed, 1)) && t->listed) {
			t->excl = 1; /* exec into an excluded command */
			n->execs++;
		} else if (r < 76 && (t = pick(&seed, 0))) {
			/* into a container: the whole process. Its threads
			 * of ours on our set get every CPU back; one never
			 * listed, born of ours with the set it got from us,
			 * too (issue 23 item 4: the daemon looks at a new
			 * process in an excluded cgroup once, before its next
			 * interval); the rest keep theirs */
			int leader_ours = 0;

			for (int i = 0; i < nt; i++) {
				struct task *q = &T[i];

				expect[i] = q->mask;
				if (!q->alive || q->tgid != t->tgid)
					continue;
				if (q->owner == OURS && q->mask == q->given && q->mask == model_set)
					expect[i] = ONLINE;
				if (q->owner != UNSEEN || !got_ours(q))
					continue;
				if (q->tid == q->tgid) {
					leader_ours = lineage(q);
					if (leader_ours)
						expect[i] = ONLINE;
				} else if (leader_ours || lineage(q)) {
					expect[i] = ONLINE;
				}
			}
			for (int i = 0; i < nt; i++)
				if (T[i].alive && T[i].tgid == t->tgid) {
					T[i].owner = USER;
					T[i].moved = 1;
				}
			e.l->be->release(e.l, t->tgid, t->ppid);
			check(expect, "moved into a container", seed0);
			n->moves++;
		} else if (r < 78) {
			assert_int_equal(ps_live_journal_compact(e.l), 0);
			n->compactions++;
		} else if (r < 82) {
			/* SIGKILL, between intervals or in the middle of one
			 * (partway through putting a new set on), and a restart
			 * that replays the journal */
			int mid = rand_r(&seed) % 2;

			if (mid) {
				volatile int set = sets[rand_r(&seed) % 7];

				if (set == model_set)
					set = set == ONLINE ? 1 : ONLINE;
				model_interval(set, 1, expect, &n->c);
				writes_left = (int)(rand_r(&seed) % 4);
				crash_set = NULL;
				if (!setjmp(crash))
					code_interval(&e, set, 1);
				if (crash_set)
					CPU_FREE(crash_set);
				writes_left = -1;
				model_prev = model_set;
				model_set = set;
				n->mid++;
			}
			n->kills++;
			enf_drop(&e);
			restore(&e, mid, &n->back, seed0);
			n->restores++;
			/* a new enforcer: nothing is its own yet */
			for (int i = 0; i < nt; i++) {
				T[i].owner = UNSEEN;
				T[i].heir = T[i].checked = T[i].listed = 0;
			}
			enf_start(&e, dir, gen++);
		}
	}
	/* a clean stop (ps_live_close): the sweep, a birth or two in the
	 * window before the restore, the restore, one more listing and the
	 * threads born of ours in the window, on our set, get every CPU */
	interval(&e, model_set, &n->c, seed0);
	{
		int births = (int)(rand_r(&seed) % 3);
		struct task *t;

		for (int b = 0; b < births && (t = pick(&seed, 1)); b++)
			fork_of(NULL, t, rand_r(&seed) % 2);
		close(e.l->journal_fd);
		e.l->journal_fd = -1;
		restore(&e, 0, &n->back, seed0);
		n->restores++;
		for (int i = 0; i < nt; i++) {
			expect[i] = T[i].mask;
			if (T[i].alive && T[i].owner == UNSEEN && !T[i].excl &&
			    T[i].mask != ONLINE && got_ours(&T[i]) &&
			    lineage(&T[i]))
				expect[i] = ONLINE;
		}
		enf_scan(&e);
		e.l->be->after_restore(e.l);
		check(expect, "after the restore", seed0);
	}
	enf_drop(&e);
	unlink(e.path);
}

static void test_ownership_property(void **state)
{
	struct counts n = { 0 };
	char dir[] = "/dev/shm/ps-owner-XXXXXX", *d;
	const char *env = getenv("PS_OWNER_SEEDS"), *one = getenv("PS_OWNER_SEED");
	unsigned first = one ? (unsigned)strtoul(one, NULL, 10) : 1,
		 count = one ? 1 : env ? (unsigned)strtoul(env, NULL, 10) : 1000;

	(void)state;
	trace = getenv("PS_OWNER_TRACE") != NULL;
	d = mkdtemp(dir);
	if (!d) {
		char tdir[] = "/tmp/ps-owner-XXXXXX";

		d = mkdtemp(tdir);
		assert_non_null(d);
		snprintf(dir, sizeof(dir), "%s", d);
		d = dir;
	}
	ps_live_sys = &sim_ops;
	for (unsigned s = first; s < first + count; s++)
		one_seed(s, d, &n);
	ps_live_sys = &ps_live_sys_kernel;
	rmdir(d);
	print_message("owner: seeds %u-%u: %ld steps: %ld intervals (%ld set changes), %ld "
		      "forks (%ld threads), %ld exits, %ld user tasksets, %ld execs into an "
		      "excluded command, %ld moves into a container, %ld compactions, %ld "
		      "SIGKILLs (%ld mid-interval), %ld restores; %ld threads taken as ours, "
		      "%ld let go as the user's, %ld put back by a restore; every mask as the "
		      "model says\n",
		      first, first + count - 1, n.steps, n.intervals, n.changes, n.forks,
		      n.threads, n.exits, n.user, n.execs, n.moves, n.compactions, n.kills, n.mid,
		      n.restores, n.c.taken, n.c.let, n.back);
	print_message("owner: not generated (a known limit): a child born after the last "
		      "interval when the enforcer is killed (it has no record)\n");
	assert_true(n.c.taken > 0 && n.c.let > 0 && n.back > 0 && n.mid > 0 && n.moves > 0);
}

/* ---- run's tree from cached parents (issue 23 item 9) ---- */

static void put_stat(const char *root, int pid, int ppid, unsigned long long start)
{
	char rel[64], line[512];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(line, sizeof(line),
		 "%d (p%d) S %d %d %d 0 -1 4194304 0 0 0 0 1 1 0 0 20 0 1 0 %llu 1000 10 "
		 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		 pid, pid, ppid, pid, pid, start);
	write_file(root, rel, line);
}

static pid_t tree_seen[16];
static int tree_n;

static int tree_each(struct ps_live *l, pid_t pid)
{
	(void)l;
	if (tree_n < 16)
		tree_seen[tree_n++] = pid;
	return 0;
}

static int in_tree(pid_t pid)
{
	for (int i = 0; i < tree_n; i++)
		if (tree_seen[i] == pid)
			return 1;
	return 0;
}

/*
 * An unrelated process (33) whose parent (41) dies: it is reparented to
 * PID 1, and 41 is reused by a process of run's tree (a grandchild). The
 * scan after that reads 41 afresh (born of ours, the connector says) but
 * took 33's parent from its cache, which still says 41: run took the orphan
 * into its tree and would confine it. A process joining the tree by a
 * cached parent is read again.
 */
static void test_tree_cached_parent(void **state)
{
	char *root = make_tmpdir();
	struct ps_live *l = calloc(1, sizeof(*l));

	(void)state;
	assert_non_null(l);
	l->cfg.root = root;
	l->self = 5;
	l->child = 10;
	put_stat(root, 10, 5, 1000);  /* run's command */
	put_stat(root, 20, 10, 1100); /* its child */
	put_stat(root, 33, 41, 900);  /* another's */
	put_stat(root, 41, 1, 800);   /* and its parent */
	tree_n = 0;
	assert_int_equal(ps_live_members_tree(l, tree_each), 0);
	assert_int_equal(tree_n, 2);
	assert_true(in_tree(10) && in_tree(20));
	l->scans = 1; /* 33 and 41 due for a fresh look at scans 15 and 7: cached now */
	/* 41 exits, 33 goes to PID 1, a grandchild of run's takes PID 41
	 * (the proc connector reports its birth from 20) */
	put_stat(root, 33, 1, 900);
	put_stat(root, 41, 20, 1200);
	ps_live_heir_add(l, 41);
	tree_n = 0;
	assert_int_equal(ps_live_members_tree(l, tree_each), 0);
	assert_true(in_tree(10) && in_tree(20) && in_tree(41));
	assert_false(in_tree(33));
	assert_int_equal(tree_n, 3);
	free(l->procs);
	free(l);
	remove_tree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ownership_property),
		cmocka_unit_test(test_tree_cached_parent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
