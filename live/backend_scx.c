// SPDX-License-Identifier: MIT
/*
 * DOC: the sched_ext backend ("scx")
 *
 * The policy as the kernel's scheduler: bpf/powersched.bpf.c, loaded
 * through its skeleton, places every wakeup of the command's tasks by the
 * decision of the interval, which this file publishes (the allowed CPUs
 * and the policy's order, bpf/powersched_scx.h). No task's mask is
 * written, so there is nothing to record or put back: the command's tasks
 * get policy SCHED_EXT before exec (the partial switch: nothing else on
 * the machine changes scheduler), and when we end, however we end, the
 * kernel drops the scheduler (its link is our file descriptor) and runs
 * them as before.
 *
 * Each interval: the decision is written to the copy of ps_cfg the
 * scheduler is not reading, then the sequence number; the CPUs the
 * scheduler grew into since the last interval are read and cleared (grow
 * fast in the kernel, shrink at the pace of the intervals here).
 *
 * Built with PS_HAVE_SCX (make SCX=1, the default); without it the backend
 * says it is not in this build.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

/* the command enters by itself, before exec (ps_live_scx_child) */
static void scx_set_child(struct ps_live *l, pid_t pid)
{
	(void)l;
	(void)pid;
}

int ps_live_scx_built(void)
{
#ifdef PS_HAVE_SCX
	return 1;
#else
	return 0;
#endif
}

int ps_live_scx_usable(const char *root, char *why, size_t len)
{
	const char *r = root && strcmp(root, "/") ? root : "";
	char path[512], state[64] = "", ops[128] = "";
	int n;

	snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/state", r);
	n = ps_live_read_file(path, state, sizeof(state));
	if (n < 0) {
		snprintf(why, len, "this kernel has no sched_ext (%s: %s; it needs "
			 "CONFIG_SCHED_CLASS_EXT, Linux 6.12 or later)", path, strerror(-n));
		return -ENOENT;
	}
	state[strcspn(state, "\n")] = '\0';
	if (strcmp(state, "disabled")) {
		snprintf(path, sizeof(path), "%s/sys/kernel/sched_ext/root/ops", r);
		if (ps_live_read_file(path, ops, sizeof(ops)) < 0)
			ops[0] = '\0';
		ops[strcspn(ops, "\n")] = '\0';
		snprintf(why, len, "another sched_ext scheduler is loaded (%s, state %s): "
			 "sched_ext runs one at a time", ops[0] ? ops : "name unknown", state);
		return -EBUSY;
	}
	why[0] = '\0';
	return 0;
}

#ifdef PS_HAVE_SCX
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "powersched_scx.h"
#include "powersched_scx_user.h"
#include "powersched.skel.h"

struct ps_live_scx {
	struct ps_scx *skel;
	int link_fd;
	int ncpu;
	int whole;         /* the daemon: full switch, the scope in BPF */
	struct ps_scx_scope scope; /* the scope published last */
	struct ps_scx_load *ld;    /* scan: the entries taken from ps_load */
	__u32 *keys;
	long long grown_n; /* intervals in which the scheduler grew the set */
	int fault_after;   /* test only: intervals before ps_fault is set */
	int applied;       /* intervals applied */
};

/* libbpf's own messages: only its warnings, through our log */
static struct ps_live *libbpf_owner;
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	if (level == LIBBPF_DEBUG || !libbpf_owner)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	buf[strcspn(buf, "\n")] = '\0';
	if (buf[0])
		lg(libbpf_owner, "libbpf: %s", buf);
	return 0;
}

/* The interval's decision: allowed (by OS CPU number) and the policy's
 * order over the online PUs (pack order for power, spread order for
 * performance, as lib/policy.c lays tasks). */
static void publish(struct ps_live *l, const unsigned char *allowed)
{
	struct ps_scx__bss *b = l->scx->skel->bss;
	__u64 next = __atomic_load_n(&b->ps_seq, __ATOMIC_RELAXED) + 1;
	struct ps_scx_cfg *c = &b->ps_cfg[next & 1];
	const int *ord = l->resolved == PS_POLICY_POWER ? l->topo->pack_order :
							  l->topo->spread_order;
	int i, n = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < l->topo->nr_pus && n < PS_SCX_MAX_CPUS; i++) {
		int os = l->topo->pus[ord[i]].os_index;

		if (os >= 0 && os < PS_SCX_MAX_CPUS && os < l->scx->ncpu)
			c->order[n++] = os;
	}
	c->nr_order = (__u32)n;
	c->spread = l->resolved != PS_POLICY_POWER;
	for (i = 0; i < PS_SCX_MAX_CPUS; i++)
		c->sibling[i] = -1;
	for (i = 0; i < l->topo->nr_pus; i++) {
		const struct ps_pu *a = &l->topo->pus[i];

		if (a->core < 0 || a->os_index >= PS_SCX_MAX_CPUS)
			continue;
		for (int k = 0; k < l->topo->nr_pus; k++) {
			const struct ps_pu *q = &l->topo->pus[k];

			if (k != i && q->core == a->core && q->package == a->package &&
			    q->os_index < PS_SCX_MAX_CPUS) {
				c->sibling[a->os_index] = (__s32)q->os_index;
				break;
			}
		}
	}
	for (i = 0; i < PS_SCX_MAX_CPUS && i < PS_LIVE_MAX_CPUS; i++)
		if (allowed[i])
			c->allowed[i / 64] |= 1ULL << (i % 64);
	__atomic_store_n(&b->ps_seq, next, __ATOMIC_RELEASE);
}

/* a configured cgroup path (relative to the v2 mount) as the id the
 * scheduler sees: its directory's inode number; 0 when it does not exist
 * (now: it is looked up again each interval) */
static __u64 cgroup_id(const struct ps_live *l, const char *path)
{
	char full[PS_LIVE_CG_PATH + 64];
	struct stat st;

	ps_live_path(l, full, sizeof(full), "/sys/fs/cgroup%s", path);
	return stat(full, &st) || !S_ISDIR(st.st_mode) ? 0 : (__u64)st.st_ino;
}

static int fill_ids(const struct ps_live *l, const char *const *paths, __u64 *ids)
{
	int n = 0;

	for (; paths && *paths && n < PS_SCX_NR_CG; paths++)
		ids[n++] = cgroup_id(l, *paths);
	return n;
}

/* The daemon's scope from its config (struct ps_scx_scope): published when
 * it differs from the last (the config reloaded, a configured cgroup made
 * or removed). 1 when published. */
static int publish_scope(struct ps_live *l)
{
	struct ps_live_scx *x = l->scx;
	struct ps_scx_scope sc;
	const char *const *w;
	int n;

	memset(&sc, 0, sizeof(sc));
	sc.whole = 1;
	sc.nr_online = (__u32)ps_live_count(l->online, PS_LIVE_MAX_CPUS);
	n = 0;
	for (w = l->cfg.include_comm; w && *w && n < PS_SCX_NR_COMM; w++)
		strncpy(sc.inc_comm[n++], *w, PS_SCX_COMM - 1);
	sc.nr_inc_comm = (__u32)n;
	n = 0;
	for (w = l->cfg.exclude_comm; w && *w && n < PS_SCX_NR_COMM; w++)
		strncpy(sc.exc_comm[n++], *w, PS_SCX_COMM - 1);
	sc.nr_exc_comm = (__u32)n;
	sc.nr_inc_cg = (__u32)fill_ids(l, l->cfg.include_cgroup, sc.inc_cg);
	sc.nr_exc_cg = (__u32)fill_ids(l, l->cfg.exclude_cgroup, sc.exc_cg);
	sc.exclude_containers = (__u32)(l->cfg.exclude_containers != 0);
	sc.self_tgid = (__u32)l->self;
	if (x->whole == 2 && !memcmp(&sc, &x->scope, sizeof(sc)))
		return 0;
	{
		struct ps_scx__bss *b = x->skel->bss;
		__u64 next = __atomic_load_n(&b->ps_scope_seq, __ATOMIC_RELAXED) + 1;

		b->ps_scope[next & 1] = sc;
		__atomic_store_n(&b->ps_scope_seq, next, __ATOMIC_RELEASE);
	}
	x->scope = sc;
	x->whole = 2; /* published once */
	return 1;
}

static int scx_start(struct ps_live *l)
{
	char why[300];
	struct ps_live_scx *s;
	struct bpf_link *ll;
	struct bpf_map *ops;
	int r;

	r = ps_live_scx_usable(l->cfg.root, why, sizeof(why));
	if (r) {
		lg(l, "scx: %s", why);
		return r;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->link_fd = -1;
	s->ncpu = libbpf_num_possible_cpus();
	if (s->ncpu <= 0 || s->ncpu > PS_SCX_MAX_CPUS) {
		lg(l, "scx: %d possible CPUs: this build handles 1 to %d", s->ncpu,
		   PS_SCX_MAX_CPUS);
		free(s);
		return -ERANGE;
	}
	l->scx = s;
	libbpf_owner = l;
	libbpf_set_print(libbpf_print);
	s->skel = ps_scx__open();
	if (!s->skel) {
		r = -errno;
		lg(l, "scx: cannot open the BPF object: %s", strerror(-r));
		goto fail;
	}
	/* libbpf 1.1 knows no struct_ops.s/ section: init (which creates
	 * the queues) is made sleepable here; BPF_F_LINK: registered through
	 * a link, so the kernel drops the scheduler when we go away */
	/* run: the partial switch (the command's tasks only); the daemon:
	 * the full switch, the scope deciding in the scheduler */
	s->whole = l->cfg.whole_system;
	ops = s->whole ? s->skel->maps.ps_ops_all : s->skel->maps.ps_ops;
	if (bpf_program__set_flags(s->skel->progs.ps_init, BPF_F_SLEEPABLE) ||
	    bpf_map__set_autocreate(s->whole ? s->skel->maps.ps_ops : s->skel->maps.ps_ops_all,
				    false) ||
	    bpf_map__set_map_flags(ops, BPF_F_LINK)) {
		r = -EINVAL;
		lg(l, "scx: cannot set the program's flags");
		goto fail;
	}
	/* every online CPU until the first decision */
	publish(l, l->online);
	if (s->whole)
		publish_scope(l);
	/* test only (tests/vm/scx): an error in the scheduler after that many
	 * intervals, to see the kernel drop it and the fallback take over */
	if (getenv("PS_SCX_TEST_FAULT"))
		s->fault_after = atoi(getenv("PS_SCX_TEST_FAULT"));
	if (ps_scx__load(s->skel)) {
		r = -errno;
		lg(l, "scx: cannot load the BPF scheduler: %s", strerror(-r));
		goto fail;
	}
	ll = bpf_map__attach_struct_ops(ops);
	if (!ll) {
		r = -errno;
		lg(l, "scx: cannot register the scheduler: %s", strerror(-r));
		goto fail;
	}
	s->link_fd = bpf_link_create(bpf_map__fd(ops), 0, PS_BPF_STRUCT_OPS,
				     NULL);
	r = s->link_fd < 0 ? -errno : 0;
	/* the link is the registration; libbpf's own object must not
	 * delete the element */
	bpf_link__disconnect(ll);
	bpf_link__destroy(ll);
	if (r) {
		lg(l, "scx: cannot attach the scheduler: %s", strerror(-r));
		goto fail;
	}
	fcntl(s->link_fd, F_SETFD, FD_CLOEXEC);
	l->scx_used = 1;
	if (s->whole) {
		/* the load comes from the scheduler from now on */
		l->src = &ps_live_source_scx;
		lg(l, "scx: the powersched scheduler is loaded (sched_ext, full switch: every "
		   "task of the kernel's fair class; the scope's tasks placed by the policy, the "
		   "others as the kernel would)");
	} else {
		lg(l, "scx: the powersched scheduler is loaded (sched_ext, partial switch: the "
		   "command's tasks only)");
	}
	return 0;
fail:
	if (s->skel)
		ps_scx__destroy(s->skel);
	free(s);
	l->scx = NULL;
	libbpf_owner = NULL;
	return r ? r : -EINVAL;
}

/* The kernel's word on why the scheduler ended, in one line (also kept
 * for status and the metrics). */
static void say_exit(struct ps_live *l)
{
	const struct ps_scx_exit *e = &l->scx->skel->bss->ps_exit_info;
	char reason[PS_SCX_REASON_LEN + 1], msg[PS_SCX_MSG_LEN + 1];

	if (!__atomic_load_n(&e->done, __ATOMIC_ACQUIRE)) {
		lg(l, "scx: the scheduler is unloaded");
		return;
	}
	memcpy(reason, e->reason, PS_SCX_REASON_LEN);
	reason[PS_SCX_REASON_LEN] = '\0';
	memcpy(msg, e->msg, PS_SCX_MSG_LEN);
	msg[PS_SCX_MSG_LEN] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '"')
			*p = ' ';
	/* SCX_EXIT_UNREG (64): unregistered by userspace (us); SYSRQ (67):
	 * SysRq-S; UNREG_BPF, UNREG_KERN (65, 66): ended by the BPF or the
	 * kernel (a CPU going offline); 1024 and up: an error. The kernel
	 * has gone back to its own scheduler at once in every case. */
	l->scx_exit_kind = e->kind;
	snprintf(l->scx_exit, sizeof(l->scx_exit), "%s: kind %d, \"%.100s\"%s%.120s%s",
		 e->kind >= 1024 ? "ended on an error" :
		 e->kind == PS_SCX_EXIT_UNREG || e->kind == PS_SCX_EXIT_SYSRQ ? "unloaded" :
									"ended by the kernel",
		 e->kind, reason,
		 msg[0] ? " (" : "", msg, msg[0] ? ")" : "");
	lg(l, "scx: the scheduler %s", l->scx_exit);
}

static void scx_stop(struct ps_live *l)
{
	if (!l->scx)
		return;
	if (l->scx->link_fd >= 0)
		close(l->scx->link_fd);
	say_exit(l);
	l->scx_ended = 1;
	ps_scx__destroy(l->scx->skel);
	free(l->scx->ld);
	free(l->scx->keys);
	free(l->scx);
	l->scx = NULL;
	libbpf_owner = NULL;
}

static int scx_prepare_child(struct ps_live *l, char *procs_path, size_t len)
{
	(void)l;
	(void)len;
	procs_path[0] = '\0';
	return 0;
}

static int scx_apply(struct ps_live *l, const char *list, int changed)
{
	struct ps_scx__bss *b;
	int i, grew = 0;

	(void)list;
	if (!l->scx)
		return l->cfg.dry_run || l->scx_ended ? 0 : -ENODEV;
	b = l->scx->skel->bss;
	if (l->scx->fault_after > 0 && ++l->scx->applied == l->scx->fault_after)
		__atomic_store_n(&b->ps_fault, 1, __ATOMIC_RELEASE);
	/* the scheduler ended by itself (an error, the watchdog, sysrq):
	 * say so once; the command runs on under the kernel's scheduler */
	if (__atomic_load_n(&b->ps_exit_info.done, __ATOMIC_ACQUIRE)) {
		scx_stop(l);
		return -ENODEV;
	}
	if (l->scx->whole && publish_scope(l))
		lg(l, "scx: the scope changed (config or cgroups): %u process name(s) included, "
		   "%u excluded, %u cgroup(s) included, %u excluded", l->scx->scope.nr_inc_comm,
		   l->scx->scope.nr_exc_comm, l->scx->scope.nr_inc_cg, l->scx->scope.nr_exc_cg);
	if (changed || l->resolved != l->scx_policy)
		publish(l, l->allowed_os);
	l->scx_policy = l->resolved;
	/* what it grew into goes back at each interval: the policy decides
	 * the next set from the load it measured */
	for (i = 0; i < PS_SCX_WORDS; i++) {
		__u64 g = __atomic_exchange_n(&b->ps_grown[i], 0, __ATOMIC_ACQ_REL);

		b->ps_grown_prev[i] = g;
		grew |= g != 0;
	}
	l->scx->grown_n += grew;
	return 0;
}


/*
 * The daemon's load source ("scx"): the scheduler's per-task run and wait
 * (ps_load, a hash map by TID that holds the tasks that ran since the last
 * interval), taken and deleted in batches. The thread table keeps a task
 * while its figure decays (asleep: no entry), so the cost of an interval
 * grows with the tasks that ran lately, not with every thread on the
 * machine; no /proc file is read per thread.
 */
#define PS_SCX_BATCH 4096

struct ps_scx_ent {
	struct ps_scx_load v;
	__u32 tid;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ps_scx_ent *x = a, *y = b;

	return ps_live_thr_before((pid_t)y->v.tgid, (pid_t)y->tid, (pid_t)x->v.tgid, (pid_t)x->tid) -
	       ps_live_thr_before((pid_t)x->v.tgid, (pid_t)x->tid, (pid_t)y->v.tgid, (pid_t)y->tid);
}

/* every entry of ps_load, taken out of it: how many in *out, or -errno */
static int take_load(struct ps_live *l, struct ps_scx_ent **out)
{
	struct ps_live_scx *x = l->scx;
	int fd = bpf_map__fd(x->skel->maps.ps_load), n = 0, first = 1;
	__u32 in = 0, next = 0;
	struct ps_scx_ent *e;

	if (!x->ld) {
		x->ld = calloc(PS_SCX_BATCH, sizeof(*x->ld));
		x->keys = calloc(PS_SCX_BATCH, sizeof(*x->keys));
		if (!x->ld || !x->keys)
			return -ENOMEM;
	}
	e = NULL;
	for (;;) {
		__u32 count = PS_SCX_BATCH;
		int r = bpf_map_lookup_and_delete_batch(fd, first ? NULL : &in, &next, x->keys, x->ld,
							&count, NULL);
		int err = r ? errno : 0;
		struct ps_scx_ent *ne;

		if (r && err != ENOENT) {
			free(e);
			return -err;
		}
		if (count) {
			ne = realloc(e, sizeof(*e) * (size_t)(n + (int)count));
			if (!ne) {
				free(e);
				return -ENOMEM;
			}
			e = ne;
			for (__u32 i = 0; i < count; i++) {
				e[n].v = x->ld[i];
				e[n].tid = x->keys[i];
				n++;
			}
		}
		if (r) /* ENOENT: the last batch */
			break;
		in = next;
		first = 0;
	}
	if (n > 1)
		qsort(e, (size_t)n, sizeof(*e), cmp_ent);
	*out = e;
	return n;
}

static int scx_scan(struct ps_live *l, double dt)
{
	struct ps_scx_ent *e = NULL;
	int n = 0, i = 0, j = 0, r;

	l->nthr_n = 0;
	l->scan_dt = dt;
	l->scan_clock += dt;
	if (l->scx) {
		n = take_load(l, &e);
		if (n < 0)
			return n;
	}
	l->psi_now = ps_live_cpu_pressure(l);
	l->run_cpus = l->wait_cpus = 0;
	/* merge the old table (sorted) with the entries (sorted) */
	while (i < l->thr_n || j < n) {
		struct thr t;
		int old = i < l->thr_n, ent = j < n;

		if (old && ent && l->thr[i].tgid == (pid_t)e[j].v.tgid && l->thr[i].tid == (pid_t)e[j].tid) {
			t = l->thr[i++];
			if (t.start != e[j].v.start_ns) { /* a reused TID */
				memset(&t, 0, sizeof(t));
				old = 0;
			}
		} else if (old && (!ent || ps_live_thr_before(l->thr[i].tgid, l->thr[i].tid,
							      (pid_t)e[j].v.tgid, (pid_t)e[j].tid))) {
			ent = 0;
			t = l->thr[i++];
		} else {
			old = 0;
			memset(&t, 0, sizeof(t));
		}
		t.ss_fd = -1;
		t.state_now = 1;
		t.managed = 1; /* counts (no mask of anybody's is ours) */
		t.dr = t.dw = 0;
		if (ent) {
			t.tid = (pid_t)e[j].tid;
			t.tgid = (pid_t)e[j].v.tgid;
			t.start = e[j].v.start_ns;
			t.cpu = e[j].v.cpu;
			t.dr = e[j].v.run_ns;
			t.dw = e[j].v.wait_ns;
			t.run_ns += t.dr;
			t.wait_ns += t.dw;
			j++;
		}
		if (!old) {
			t.place.avg = t.place.held = -1; /* first sight */
			l->threads_seen++;
		}
		/* a thread that waited a tenth of the interval counts as
		 * runnable (the "tasks queue" rule: ps_demand_take_runnable) */
		t.state = (double)t.dw > dt * 1e8 ? 'R' : 'S';
		l->run_cpus += (double)t.dr / (dt * 1e9);
		l->wait_cpus += (double)t.dw / (dt * 1e9);
		l->tree_run_s += (double)t.dr / 1e9;
		t.util = ps_demand_update(old ? t.util : 0, t.dr, t.dw, dt, PS_DEMAND_WAIT_WEIGHT);
		ps_demand_place(&t.place, t.util, dt, l->scans % PS_DEMAND_PLACE_RESYNC == 0,
				old && !t.dr && !t.dw && t.util > 0);
		/* asleep long enough to count for nothing: out of the table */
		if (!t.dr && !t.dw && t.util < 0.005)
			continue;
		r = ps_live_push_thr(l, &t);
		if (r) {
			free(e);
			return r;
		}
	}
	free(e);
	l->sat = ps_live_set_saturation(l);
	l->settling = 0;
	ps_live_swap_tables(l);
	return 0;
}

static int scx_runnable(const struct ps_live *l, struct thr *t)
{
	(void)l;
	return t->state == 'R';
}

const struct ps_live_source_ops ps_live_source_scx = {
	.name = "scx",
	.scan = scx_scan,
	.runnable = scx_runnable,
};

void ps_live_scx_child(const struct ps_live *l)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (l->backend != PS_BACKEND_SCX)
		return;
	/* inherited by every child it starts; if it fails (the scheduler
	 * ended meanwhile) the command runs under the kernel's scheduler */
	sched_setscheduler(0, PS_SCHED_EXT, &sp);
}

int ps_live_scx_release_policy(struct ps_live *l)
{
	struct sched_param sp = { .sched_priority = 0 };
	int i, n = 0;

	/* the daemon gave no task a policy (the full switch) */
	if (l->cfg.whole_system)
		return 0;
	/* the policy SCHED_EXT we gave the command: when sched_ext is off
	 * the kernel runs such a task as SCHED_OTHER, but a sched_ext
	 * scheduler loaded later (anyone's) would take it. One whose
	 * policy is another now was changed by someone: theirs. */
	for (i = 0; i < l->thr_n; i++)
		if (l->thr[i].managed != 2 && sched_getscheduler(l->thr[i].tid) == PS_SCHED_EXT &&
		    !sched_setscheduler(l->thr[i].tid, SCHED_OTHER, &sp))
			n++;
	return n;
}

#else /* !PS_HAVE_SCX */

/* never chosen: the backend is not in this build */
static int noscx_scan(struct ps_live *l, double dt)
{
	(void)l;
	(void)dt;
	return -ENOTSUP;
}

static int noscx_runnable(const struct ps_live *l, struct thr *t)
{
	(void)l;
	(void)t;
	return 0;
}

const struct ps_live_source_ops ps_live_source_scx = {
	.name = "scx",
	.scan = noscx_scan,
	.runnable = noscx_runnable,
};

int ps_live_scx_release_policy(struct ps_live *l)
{
	(void)l;
	return 0;
}

static int scx_start(struct ps_live *l)
{
	lg(l, "scx: this powersched was built without the sched_ext backend (make SCX=1)");
	return -ENOTSUP;
}

static int scx_prepare_child(struct ps_live *l, char *procs_path, size_t len)
{
	(void)l;
	(void)len;
	procs_path[0] = '\0';
	return -ENOTSUP;
}

static int scx_apply(struct ps_live *l, const char *list, int changed)
{
	(void)l;
	(void)list;
	(void)changed;
	return -ENOTSUP;
}

static void scx_stop(struct ps_live *l)
{
	(void)l;
}

void ps_live_scx_child(const struct ps_live *l)
{
	(void)l;
}
#endif

const struct ps_live_backend_ops ps_live_backend_scx = {
	.name = "scx",
	.label = "scx (sched_ext)",
	.members = ps_live_members_tree,
	.prepare_child = scx_prepare_child,
	.set_child = scx_set_child,
	.apply = scx_apply,
	.start = scx_start,
	.stop = scx_stop,
};
