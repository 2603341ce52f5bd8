/* powersched's sched_ext backend ("scx"): a BPF scheduler that places the
 * tasks of SCHED_EXT policy on the CPUs userspace decided for the interval.
 *
 * Userspace computes the policy (lib/: power packs, performance spreads)
 * and publishes its decision in ps_cfg (see powersched_scx.h): the CPUs in
 * the policy's order, and the bitmap of CPUs allowed this interval. This
 * program never computes a policy; it walks that order:
 *
 *  - select_cpu: the CPU the task last ran on, when allowed and its whole
 *    core is idle, or else the first CPU of order[] that is allowed, in
 *    p->cpus_ptr and idle, gets the task on its local DSQ at once.
 *  - enqueue: a task that can run on no allowed CPU (a `taskset -c 5`
 *    task when 0-3 are allowed) is placed as the kernel would, inside its
 *    own mask only: a single-CPU task on its CPU's local DSQ, any other on
 *    the fallback DSQ (which every CPU serves, and a CPU only takes a task
 *    whose mask holds it). Every other task goes on the set's shared DSQ.
 *  - grow fast: when a task is queued on the set's DSQ and no CPU of
 *    allowed ∩ p->cpus_ptr is idle, the next CPU of order[] beyond the
 *    allowed ones (in p->cpus_ptr, not grown yet, or grown and idle) is
 *    marked in ps_grown and kicked; a grown CPU serves the set's DSQ like
 *    an allowed one. One CPU per queued task at most. Userspace reads and
 *    clears ps_grown each interval, which is how the set shrinks again: a
 *    task alone on a CPU that is neither allowed nor grown any more is not
 *    kept there at the end of its slice (SCX_OPS_ENQ_LAST) but queued on
 *    the set's DSQ for an allowed CPU.
 *  - dispatch: an allowed or grown CPU moves one task of the set's DSQ to
 *    its local DSQ; then any CPU serves the fallback DSQ.
 *  - a task of the set is put on a local DSQ with SCX_ENQ_IMMED: when a
 *    higher class (the fair class, partial switch) takes its CPU, the
 *    kernel hands it back to enqueue (SCX_ENQ_REENQ) instead of keeping it
 *    there, so it never resumes on a CPU that left the set meanwhile.
 *  - running/stopping: busy nanoseconds per CPU (ps_busy_ns) and per task
 *    (task storage), the load as the kernel saw it, for userspace.
 *  - exit: the kernel's exit kind, reason and message, kept in
 *    ps_exit_info for userspace to read after the scheduler is gone.
 *
 * Partial switch: only tasks whose policy is SCHED_EXT (7) are ours; every
 * other task on the machine keeps the kernel's own scheduler (which, being
 * the fair class, runs before ours on a CPU both want).
 *
 * Built for the kernel's BTF (vmlinux.h of Debian sid's 7.2) with
 * -DBPF_NO_KFUNC_PROTOTYPES: the kfuncs used are declared below. For
 * libbpf 1.1 (Debian 12) the ops are in SEC(".struct_ops") and init is made
 * sleepable by the loader (bpf_program__set_flags) before load.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "powersched_scx.h"

char _license[] SEC("license") = "GPL";

/* kfuncs (kernel/sched/ext/ext.c, idle.c; kernel/bpf/cpumask.c, helpers.c
 * of 7.2). The ___v2 forms are the documented ones in 7.2; the unsuffixed
 * forms are marked COMPAT there. */
extern bool bpf_cpumask_test_cpu(u32 cpu, const struct cpumask *cpumask) __ksym;
extern s32 scx_bpf_create_dsq(u64 dsq_id, s32 node) __ksym;
extern bool scx_bpf_dsq_insert___v2(struct task_struct *p, u64 dsq_id, u64 slice,
				    u64 enq_flags) __ksym;
extern bool scx_bpf_dsq_move_to_local___v2(u64 dsq_id, u64 enq_flags) __ksym;
extern bool scx_bpf_test_and_clear_cpu_idle(s32 cpu) __ksym;
extern s32 scx_bpf_pick_idle_cpu(const struct cpumask *cpus_allowed, u64 flags) __ksym;
extern void scx_bpf_kick_cpu(s32 cpu, u64 flags) __ksym;
extern u32 scx_bpf_nr_cpu_ids(void) __ksym;
extern s32 scx_bpf_task_cpu(const struct task_struct *p) __ksym;
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
extern void scx_bpf_error_bstr(char *fmt, unsigned long long *data, u32 data__sz) __ksym;
extern const struct cpumask *scx_bpf_get_idle_cpumask(void) __ksym;
extern const struct cpumask *scx_bpf_get_idle_smtmask(void) __ksym;
extern void scx_bpf_put_idle_cpumask(const struct cpumask *idle_mask) __ksym;
extern s32 scx_bpf_select_cpu_dfl(struct task_struct *p, s32 prev_cpu, u64 wake_flags,
				  bool *is_idle) __ksym;

#define PS_PF_KTHREAD 0x00200000 /* include/linux/sched.h */

/* --- shared with userspace (.bss, mapped by the skeleton) --- */
struct ps_scx_cfg ps_cfg[2];
u64 ps_seq; /* ps_cfg[ps_seq & 1] is the decision in force */
u64 ps_grown[PS_SCX_WORDS];
u64 ps_grown_prev[PS_SCX_WORDS]; /* userspace: what it cleared last */
u64 ps_busy_ns[PS_SCX_MAX_CPUS];
u64 ps_stat[PS_NR_STAT];
struct ps_scx_exit ps_exit_info;
u32 ps_nr_cpus; /* nr_cpu_ids, set in init */
u64 ps_stray_ns; /* run time of PS_ST_STRAY starts */
/* test only: set by the loader (PS_SCX_TEST_FAULT in its environment) to
 * make dispatch report an error, as a bug of ours would: the kernel then
 * drops the scheduler and userspace falls back as configured */
u32 ps_fault;
/* the daemon's scope (powersched_scx.h): two copies, as ps_cfg */
struct ps_scx_scope ps_scope[2];
u64 ps_scope_seq;
u32 ps_disp_turn[PS_SCX_MAX_CPUS]; /* dispatch: which DSQ a CPU serves first */

struct ps_task {
	u64 started; /* when it last started running, ns */
	u64 runtime_ns; /* total run time under this scheduler */
	u64 stray; /* this run started outside allowed ∪ grown */
	u64 ready_at; /* when it last became runnable (0: running or asleep) */
	u64 wait_ns; /* waited since its last entry in ps_load */
	/* the scope, cached: valid while the scope's seq, the process's
	 * name and the cgroup are those it was computed for */
	u64 scope_seq, comm0, comm1, cgid;
	u32 scope_ok; /* 0: not computed, 1: the policy's, 2: out of scope */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ps_task);
} ps_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PS_SCX_LOAD_MAX);
	__type(key, u32);
	__type(value, struct ps_scx_load);
} ps_load SEC(".maps");

#define PS_OP(name, args...) SEC("struct_ops/" #name) BPF_PROG(name, ##args)

/* An index the verifier can bound: clang may test one copy of a value and
 * index with another (the test is then lost on the verifier), so an index
 * is made opaque to the compiler and masked right where it is used. The
 * mask never changes a value that passed its range test. */
#define ps_opaque(x) asm volatile("" : "+r"(x))
static __always_inline u32 cpu_idx(u32 cpu)
{
	ps_opaque(cpu);
	return cpu & (PS_SCX_MAX_CPUS - 1);
}

static __always_inline void stat_inc(u32 i)
{
	if (i < PS_NR_STAT)
		__sync_fetch_and_add(&ps_stat[i], 1);
}

static __always_inline const struct ps_scx_cfg *cfg_now(void)
{
	u64 seq = *(volatile u64 *)&ps_seq;

	return &ps_cfg[seq & 1];
}

static __always_inline bool bit_test(const u64 *bm, s32 cpu)
{
	u32 c;

	if (cpu < 0 || cpu >= PS_SCX_MAX_CPUS)
		return false;
	c = cpu_idx(cpu);
	return (bm[c / 64] >> (c % 64)) & 1;
}

/* order[i] as a CPU the kfuncs accept, or -1 */
static __always_inline s32 order_cpu(const struct ps_scx_cfg *c, int i)
{
	s32 cpu;

	if (i < 0 || i >= PS_SCX_MAX_CPUS)
		return -1;
	cpu = c->order[cpu_idx(i)];
	if (cpu < 0 || cpu >= PS_SCX_MAX_CPUS || (u32)cpu >= ps_nr_cpus) {
		stat_inc(PS_ST_BAD_CPU);
		return -1;
	}
	return cpu;
}

static __always_inline int order_len(const struct ps_scx_cfg *c)
{
	u32 n = c->nr_order;

	return n < PS_SCX_MAX_CPUS ? (int)n : PS_SCX_MAX_CPUS;
}

static __always_inline bool is_allowed(const struct ps_scx_cfg *c, s32 cpu)
{
	return bit_test(c->allowed, cpu);
}

static __always_inline bool is_grown(s32 cpu)
{
	return bit_test(ps_grown, cpu);
}

/* --- the daemon's scope (powersched_scx.h: struct ps_scx_scope) --- */

static __always_inline const struct ps_scx_scope *scope_now(u64 *seq)
{
	u64 s = *(volatile u64 *)&ps_scope_seq;

	*seq = s;
	return &ps_scope[s & 1];
}

static __always_inline bool whole_machine(void)
{
	u64 seq;

	return scope_now(&seq)->whole;
}

/* name (16 bytes, zero-padded) in the first n of list */
static __always_inline bool comm_in(const char (*list)[PS_SCX_COMM], u32 n, u64 c0, u64 c1)
{
	struct bpf_iter_num it;
	bool yes = false;
	int *v;

	bpf_iter_num_new(&it, 0, n < PS_SCX_NR_COMM ? (int)n : PS_SCX_NR_COMM);
	while ((v = bpf_iter_num_next(&it))) {
		u32 i = (u32)*v;
		const u64 *w;

		ps_opaque(i);
		w = (const u64 *)list[i & (PS_SCX_NR_COMM - 1)];
		if (w[0] == c0 && w[1] == c1) {
			yes = true;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	return yes;
}

static __always_inline bool id_in(const u64 *list, u32 n, u64 id)
{
	struct bpf_iter_num it;
	bool yes = false;
	int *v;

	bpf_iter_num_new(&it, 0, n < PS_SCX_NR_CG ? (int)n : PS_SCX_NR_CG);
	while ((v = bpf_iter_num_next(&it))) {
		u32 i = (u32)*v;

		ps_opaque(i);
		if (list[i & (PS_SCX_NR_CG - 1)] == id) {
			yes = true;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	return yes;
}

static __always_inline bool prefix(const char *nm, const char *pre, int n)
{
	for (int k = 0; k < n; k++)
		if (nm[k] != pre[k])
			return false;
	return true;
}

/* a cgroup's name as systemd-machined, Docker, Kubernetes, LXC and Podman
 * name a container's (as live/members.c reads paths) */
static __always_inline bool container_name(const char *nm)
{
	return prefix(nm, "machine.slice", 14) || prefix(nm, "docker", 6) ||
	       prefix(nm, "kubepods", 8) || prefix(nm, "lxc", 3) || prefix(nm, "libpod", 6);
}

#define PS_CG_DEPTH 32

/* the cgroup rules of the scope, walking from kn up to the root */
static __always_inline bool cgroup_ok(const struct ps_scx_scope *s, struct kernfs_node *kn)
{
	bool inc = !s->nr_inc_cg, exc = false;
	struct bpf_iter_num it;
	int *v;

	bpf_iter_num_new(&it, 0, PS_CG_DEPTH);
	while ((v = bpf_iter_num_next(&it))) {
		u64 id;

		if (!kn)
			break;
		id = BPF_CORE_READ(kn, id);
		if (!inc && id_in(s->inc_cg, s->nr_inc_cg, id))
			inc = true;
		if (id_in(s->exc_cg, s->nr_exc_cg, id))
			exc = true;
		{
			char nm[16] = {};

			bpf_probe_read_kernel_str(nm, sizeof(nm), BPF_CORE_READ(kn, name));
			/* a container's, or a run's own (powersched-run-N) */
			if ((s->exclude_containers && container_name(nm)) ||
			    prefix(nm, "powersched-run", 14))
				exc = true;
		}
		if (exc)
			break;
		kn = BPF_CORE_READ(kn, __parent);
	}
	bpf_iter_num_destroy(&it);
	return inc && !exc;
}

#define PS_ANC_DEPTH 16

/* p is in the tree of a `powersched run` other than the daemon (run is its
 * command's subreaper, so orphans stay under it): that run's, not ours */
static __always_inline bool under_a_run(struct task_struct *p, u32 self)
{
	struct task_struct *a = p;
	struct bpf_iter_num it;
	bool yes = false;
	int *v;

	bpf_iter_num_new(&it, 0, PS_ANC_DEPTH);
	while ((v = bpf_iter_num_next(&it))) {
		u64 c[2] = {};
		u32 tg;

		a = BPF_CORE_READ(a, real_parent);
		if (!a)
			break;
		tg = (u32)BPF_CORE_READ(a, tgid);
		if (tg <= 1)
			break;
		bpf_probe_read_kernel_str(c, sizeof(c), &a->comm);
		if (tg != self && prefix((const char *)c, "powersched", 11)) {
			yes = true;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	return yes;
}

/* Is p the policy's? Always under run (partial switch: only the command's
 * tasks come here). For the daemon, the rule of struct ps_scx_scope; the
 * answer is kept in t (NULL: not kept) while the scope, the process's name
 * and the cgroup stay those it was computed for. */
static __always_inline bool policy_task(struct task_struct *p, struct ps_task *t)
{
	u64 seq, comm[2] = {}, cgid;
	const struct ps_scx_scope *s = scope_now(&seq);
	struct task_struct *lead;
	struct kernfs_node *kn;
	bool ok;

	if (!s->whole)
		return true;
	if (p->flags & PS_PF_KTHREAD)
		return false;
	/* an affinity of its own (a taskset, a cpuset): the kernel's way,
	 * inside its mask; not cached (a migration-disabled moment) */
	if (p->nr_cpus_allowed < (int)s->nr_online)
		return false;
	lead = BPF_CORE_READ(p, group_leader);
	if (lead)
		bpf_probe_read_kernel_str(comm, sizeof(comm), &lead->comm);
	kn = BPF_CORE_READ(p, cgroups, dfl_cgrp, kn);
	cgid = kn ? BPF_CORE_READ(kn, id) : 0;
	if (t && t->scope_ok && t->scope_seq == seq && t->comm0 == comm[0] && t->comm1 == comm[1] &&
	    t->cgid == cgid)
		return t->scope_ok == 1;
	/* never PID 1 or a service manager (their children inherit what they
	 * have), as the mask backends */
	ok = p->tgid != 1 && !prefix((const char *)comm, "systemd", 8) &&
	     !under_a_run(p, s->self_tgid) &&
	     (!s->nr_inc_comm || comm_in(s->inc_comm, s->nr_inc_comm, comm[0], comm[1])) &&
	     !comm_in(s->exc_comm, s->nr_exc_comm, comm[0], comm[1]) && cgroup_ok(s, kn);
	if (t) {
		t->scope_seq = seq;
		t->comm0 = comm[0];
		t->comm1 = comm[1];
		t->cgid = cgid;
		t->scope_ok = ok ? 1 : 2;
	}
	return ok;
}

/* A slice in proportion to the task's weight (nice 0: 100, the default
 * slice), within 1/8 and 8 times it: the queues are first in, first out,
 * so a task's share among the ones waiting with it follows its nice
 * roughly, as the fair class would give it (not exactly: no vruntime) */
static __always_inline u64 slice_of(struct task_struct *p)
{
	u64 w = p->scx.weight, sl = SCX_SLICE_DFL * w / 100;

	if (sl < SCX_SLICE_DFL / 8)
		sl = SCX_SLICE_DFL / 8;
	if (sl > SCX_SLICE_DFL * 8)
		sl = SCX_SLICE_DFL * 8;
	return sl;
}

static __always_inline struct ps_task *task_of(struct task_struct *p)
{
	return bpf_task_storage_get(&ps_tasks, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
}

/* The walks of order[] use the kernel's open-coded number iterator: the
 * verifier checks the body until its states converge, not once per turn
 * (a plain loop of up to 1024 turns overflows its jump history). Each walk
 * ends with bpf_iter_num_destroy before its function returns. */

/* the first CPU of order[] that is allowed, in p's mask and idle (its idle
 * bit taken), or -1; *first: the first allowed CPU in p's mask, or -1.
 * Performance (spread) looks first for a CPU whose whole core is idle:
 * idle cores first, then idle siblings */
static __always_inline s32 idle_in_set(const struct ps_scx_cfg *c, struct task_struct *p, s32 *first)
{
	struct bpf_iter_num it;
	s32 found = -1, f = -1;
	int *v;

	if (c->spread) {
		const struct cpumask *smt = scx_bpf_get_idle_smtmask();

		bpf_iter_num_new(&it, 0, order_len(c));
		while ((v = bpf_iter_num_next(&it))) {
			s32 cpu = order_cpu(c, *v);

			if (cpu < 0 || !is_allowed(c, cpu) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr) ||
			    !bpf_cpumask_test_cpu(cpu, smt))
				continue;
			if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
				found = cpu;
				break;
			}
		}
		bpf_iter_num_destroy(&it);
		scx_bpf_put_idle_cpumask(smt);
	}
	bpf_iter_num_new(&it, 0, order_len(c));
	while ((v = bpf_iter_num_next(&it))) {
		s32 cpu = order_cpu(c, *v);

		if (cpu < 0 || !is_allowed(c, cpu) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		if (f < 0)
			f = cpu;
		if (found >= 0)
			break;
		if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
			found = cpu;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	*first = f;
	return found;
}

/* true when p's mask holds a CPU of the set */
static __always_inline bool may_use_set(const struct ps_scx_cfg *c, struct task_struct *p)
{
	struct bpf_iter_num it;
	bool yes = false;
	int *v;

	bpf_iter_num_new(&it, 0, order_len(c));
	while ((v = bpf_iter_num_next(&it))) {
		s32 cpu = order_cpu(c, *v);

		if (cpu >= 0 && is_allowed(c, cpu) && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			yes = true;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	return yes;
}

/* growing: the first CPU of order[] beyond the allowed ones, in p's mask,
 * that is not grown yet (*fresh = true) or grown and idle (its idle bit
 * taken, *fresh = false); -1 if none */
static __always_inline s32 grow_target(const struct ps_scx_cfg *c, struct task_struct *p, bool *fresh)
{
	struct bpf_iter_num it;
	s32 found = -1;
	bool fr = false;
	int *v;

	bpf_iter_num_new(&it, 0, order_len(c));
	while ((v = bpf_iter_num_next(&it))) {
		s32 cpu = order_cpu(c, *v);

		if (cpu < 0 || is_allowed(c, cpu) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		if (!is_grown(cpu)) {
			fr = true;
			found = cpu;
			break;
		}
		if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
			found = cpu;
			break;
		}
		/* grown and busy: look further */
	}
	bpf_iter_num_destroy(&it);
	*fresh = fr;
	return found;
}

/* A task alone on cur at the end of its slice (no wakeup comes for a task
 * that never sleeps): a better CPU of the set for it now, by the policy's
 * order, idle (its idle bit taken), or -1 to stay. Power (pack): the first
 * idle CPU of the order before cur. Performance (spread): when cur's
 * sibling is busy, the first CPU of the order whose whole core is idle.
 * This is what places CPU-bound tasks as the kernel's load balancing
 * would, by the order instead. */
static __always_inline s32 better_cpu(const struct ps_scx_cfg *c, struct task_struct *p, s32 cur)
{
	struct bpf_iter_num it;
	const struct cpumask *m;
	s32 found = -1, sib;
	int *v;

	if (cur < 0 || cur >= PS_SCX_MAX_CPUS)
		return -1;
	if (c->spread) {
		sib = c->sibling[cpu_idx(cur)];
		if (sib < 0 || sib >= PS_SCX_MAX_CPUS)
			return -1;
		m = scx_bpf_get_idle_cpumask();
		if (bpf_cpumask_test_cpu(sib, m)) {
			scx_bpf_put_idle_cpumask(m);
			return -1; /* the core is its alone */
		}
		scx_bpf_put_idle_cpumask(m);
		m = scx_bpf_get_idle_smtmask();
		bpf_iter_num_new(&it, 0, order_len(c));
		while ((v = bpf_iter_num_next(&it))) {
			s32 cpu = order_cpu(c, *v);

			if (cpu < 0 || cpu == cur || !is_allowed(c, cpu) ||
			    !bpf_cpumask_test_cpu(cpu, p->cpus_ptr) || !bpf_cpumask_test_cpu(cpu, m))
				continue;
			if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
				found = cpu;
				break;
			}
		}
		bpf_iter_num_destroy(&it);
		scx_bpf_put_idle_cpumask(m);
		return found;
	}
	bpf_iter_num_new(&it, 0, order_len(c));
	while ((v = bpf_iter_num_next(&it))) {
		s32 cpu = order_cpu(c, *v);

		if (cpu == cur)
			break;
		if (cpu < 0 || !is_allowed(c, cpu) || !bpf_cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
			found = cpu;
			break;
		}
	}
	bpf_iter_num_destroy(&it);
	return found;
}

/* A waking task goes back to the CPU it last ran on when that CPU is
 * allowed, in its mask, and its whole core is idle (its idle bit taken),
 * else -1. Both orders put the first threads of the set's cores before
 * their siblings, so an idle core of the set is theirs to use before a
 * busy core's sibling (the walk can still take that sibling when its
 * first thread is the idle one: this does not). Going back keeps its
 * cache instead of moving it to an earlier CPU of the order at every
 * wakeup (rt-app's three-small: 58-70 migrations a second that way under
 * both policies, 3-6 under the affinity backend). */
static __always_inline s32 prev_if_whole(const struct ps_scx_cfg *c, struct task_struct *p, s32 prev)
{
	const struct cpumask *smt;
	bool whole;

	if (prev < 0 || prev >= PS_SCX_MAX_CPUS || !is_allowed(c, prev) ||
	    !bpf_cpumask_test_cpu(prev, p->cpus_ptr))
		return -1;
	smt = scx_bpf_get_idle_smtmask();
	whole = bpf_cpumask_test_cpu(prev, smt);
	scx_bpf_put_idle_cpumask(smt);
	if (whole && scx_bpf_test_and_clear_cpu_idle(prev))
		return prev;
	return -1;
}

s32 PS_OP(ps_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	const struct ps_scx_cfg *c = cfg_now();
	s32 first, cpu;

	if (!policy_task(p, task_of(p))) {
		/* out of scope (daemon): the kernel's own choice */
		bool idle = false;

		cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &idle);
		if (idle)
			scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL, slice_of(p), 0);
		stat_inc(PS_ST_OUT);
		return cpu;
	}
	cpu = prev_if_whole(c, p, prev_cpu);
	if (cpu < 0)
		cpu = idle_in_set(c, p, &first);

	if (cpu >= 0) {
		scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL, slice_of(p), SCX_ENQ_IMMED);
		stat_inc(PS_ST_DIRECT);
		return cpu;
	}
	/* no allowed CPU idle: enqueue() queues it; wake it up on a CPU of
	 * the set rather than on prev_cpu, which may be outside it */
	return first >= 0 ? first : prev_cpu;
}

/* the task was queued on the set's DSQ: wake the idle CPU of allowed ∩
 * cpus_ptr found (idle >= 0), or else grow (the rule at the top) */
static __always_inline void kick_or_grow(const struct ps_scx_cfg *c, struct task_struct *p, s32 idle)
{
	bool fresh;
	s32 cpu;

	if (idle >= 0) {
		scx_bpf_kick_cpu(idle, SCX_KICK_IDLE);
		stat_inc(PS_ST_KICK);
		return;
	}
	cpu = grow_target(c, p, &fresh);
	if (cpu < 0)
		return;
	if (fresh) {
		__sync_fetch_and_or(&ps_grown[cpu_idx(cpu) / 64], 1ULL << (cpu_idx(cpu) % 64));
		stat_inc(PS_ST_GROW);
	} else {
		stat_inc(PS_ST_KICK);
	}
	scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
}

void PS_OP(ps_enqueue, struct task_struct *p, u64 enq_flags)
{
	const struct ps_scx_cfg *c = cfg_now();
	s32 cpu = scx_bpf_task_cpu(p), first, idle;
	u64 fl = enq_flags & ~SCX_ENQ_IMMED; /* IMMED is for local DSQs only */

	if (enq_flags & SCX_ENQ_REENQ)
		stat_inc(PS_ST_REENQ);
	/* a single-CPU task (taskset -c 5, a per-CPU kthread) runs on its
	 * CPU, whatever the set (select_cpu is never called for it) */
	if (p->nr_cpus_allowed == 1 && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
		scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL_ON | cpu, slice_of(p), fl);
		stat_inc(PS_ST_PINNED);
		return;
	}
	if (!policy_task(p, task_of(p))) {
		/* out of scope (daemon): kept where it is when alone, else
		 * the shared queue every CPU serves, inside its mask */
		stat_inc(PS_ST_OUT);
		if ((enq_flags & SCX_ENQ_LAST) && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
			scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL, slice_of(p), fl);
			return;
		}
		scx_bpf_dsq_insert___v2(p, PS_SCX_DSQ_FALLBACK, slice_of(p), fl);
		cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
		if (cpu >= 0)
			scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}
	/* alone at the end of its slice (SCX_ENQ_LAST) on a CPU still
	 * allowed or grown, or a task with no CPU of the set in its mask:
	 * it goes on where it is (no CPU is idle for it, or it would not be
	 * the last); on a CPU that left the set it is queued for the set */
	if ((enq_flags & SCX_ENQ_LAST) && bpf_cpumask_test_cpu(cpu, p->cpus_ptr)) {
		if (is_allowed(c, cpu) || is_grown(cpu)) {
			s32 to = better_cpu(c, p, cpu);

			if (to >= 0) {
				scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL_ON | to, slice_of(p), fl);
				scx_bpf_kick_cpu(to, SCX_KICK_IDLE);
				stat_inc(PS_ST_MOVE);
				return;
			}
			scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL, slice_of(p), fl | SCX_ENQ_IMMED);
			stat_inc(PS_ST_LAST);
			return;
		}
		if (!may_use_set(c, p)) {
			scx_bpf_dsq_insert___v2(p, SCX_DSQ_LOCAL, slice_of(p), fl);
			stat_inc(PS_ST_LAST);
			return;
		}
	}
	idle = idle_in_set(c, p, &first);
	if (first < 0) {
		/* no CPU of the set in its mask: the kernel's way, inside
		 * its mask, through the fallback DSQ */
		scx_bpf_dsq_insert___v2(p, PS_SCX_DSQ_FALLBACK, slice_of(p), fl);
		stat_inc(PS_ST_FALLBACK);
		cpu = scx_bpf_pick_idle_cpu(p->cpus_ptr, 0);
		if (cpu >= 0)
			scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
		return;
	}
	scx_bpf_dsq_insert___v2(p, PS_SCX_DSQ_SET, slice_of(p), fl);
	stat_inc(PS_ST_SET);
	if (enq_flags & SCX_ENQ_WAKEUP)
		stat_inc(PS_ST_SET_WAKE);
	kick_or_grow(c, p, idle);
}

void PS_OP(ps_dispatch, s32 cpu, struct task_struct *prev)
{
	const struct ps_scx_cfg *c = cfg_now();

	if (*(volatile u32 *)&ps_fault) {
		static char fmt[] = "powersched: test fault (PS_SCX_TEST_FAULT)";
		unsigned long long none[1] = { 0 };

		scx_bpf_error_bstr(fmt, none, sizeof(none));
		return;
	}
	/* a CPU of the set serves the set's queue, then the shared one; it
	 * takes the shared one first every other time, so that a set kept
	 * full never starves a task out of scope (daemon) */
	if (cpu >= 0 && cpu < PS_SCX_MAX_CPUS &&
	    (ps_disp_turn[cpu_idx(cpu)]++ & 1) &&
	    scx_bpf_dsq_move_to_local___v2(PS_SCX_DSQ_FALLBACK, 0)) {
		stat_inc(PS_ST_DISP_FALLBACK);
		return;
	}
	if (is_allowed(c, cpu) || is_grown(cpu)) {
		if (scx_bpf_dsq_move_to_local___v2(PS_SCX_DSQ_SET, SCX_ENQ_IMMED)) {
			stat_inc(PS_ST_DISP_SET);
			return;
		}
	}
	if (scx_bpf_dsq_move_to_local___v2(PS_SCX_DSQ_FALLBACK, 0))
		stat_inc(PS_ST_DISP_FALLBACK);
}

/* running: the start of a run. A task that may use the set starting on a
 * CPU that is in none of allowed, grown, the previous decision's allowed
 * and what userspace cleared from grown last is a stray: the scheduler's
 * own check of its confinement (the previous ones count because userspace
 * changes them while a placement made with them is on its way to the
 * CPU). A pinned task, or one with no CPU of the set in its mask, runs
 * where its mask says and is no stray. */
void PS_OP(ps_running, struct task_struct *p)
{
	struct ps_task *t = task_of(p);
	u64 seq = *(volatile u64 *)&ps_seq, now = bpf_ktime_get_ns(), w;
	const struct ps_scx_cfg *c = &ps_cfg[seq & 1], *prev = &ps_cfg[(seq + 1) & 1];
	s32 cpu = scx_bpf_task_cpu(p);

	if (!t)
		return;
	t->started = 0;
	t->stray = 0;
	w = t->ready_at;
	t->ready_at = 0;
	if (!policy_task(p, t))
		return;
	t->started = now;
	/* the wait since it became runnable (the daemon's load) */
	if (w && now > w)
		t->wait_ns += now - w;
	if (p->nr_cpus_allowed > 1 && !is_allowed(c, cpu) && !is_grown(cpu) && !is_allowed(prev, cpu) &&
	    !bit_test(ps_grown_prev, cpu) && may_use_set(c, p)) {
		t->stray = 1;
		stat_inc(PS_ST_STRAY);
	}
}

/* the daemon's load: p ran d ns on cpu, and waited t->wait_ns before */
static __always_inline void load_add(struct task_struct *p, struct ps_task *t, u32 cpu, u64 d)
{
	u32 tid = (u32)p->pid;
	struct ps_scx_load *v = bpf_map_lookup_elem(&ps_load, &tid), n = {};

	if (v) {
		__sync_fetch_and_add(&v->run_ns, d);
		if (t->wait_ns)
			__sync_fetch_and_add(&v->wait_ns, t->wait_ns);
		v->cpu = (s32)cpu;
		t->wait_ns = 0;
		return;
	}
	n.tgid = (u32)p->tgid;
	n.cpu = (s32)cpu;
	n.run_ns = d;
	n.wait_ns = t->wait_ns;
	n.start_ns = p->start_time;
	if (bpf_map_update_elem(&ps_load, &tid, &n, BPF_NOEXIST))
		stat_inc(PS_ST_LOAD_FULL);
	else
		t->wait_ns = 0;
}

void PS_OP(ps_stopping, struct task_struct *p, bool runnable)
{
	struct ps_task *t = bpf_task_storage_get(&ps_tasks, p, 0, 0);
	u32 cpu = scx_bpf_task_cpu(p);
	u64 now = bpf_ktime_get_ns(), d;

	if (!t || !t->started || now < t->started)
		return;
	d = now - t->started;
	t->started = 0;
	t->runtime_ns += d;
	if (runnable)
		t->ready_at = now; /* preempted: waiting again from now */
	if (t->stray)
		__sync_fetch_and_add(&ps_stray_ns, d);
	if (cpu < PS_SCX_MAX_CPUS)
		__sync_fetch_and_add(&ps_busy_ns[cpu_idx(cpu)], d);
	if (whole_machine())
		load_add(p, t, cpu, d);
}

/* runnable: it waits for a CPU from now (the daemon's load counts it) */
void PS_OP(ps_runnable, struct task_struct *p, u64 enq_flags)
{
	struct ps_task *t = task_of(p);

	if (t)
		t->ready_at = bpf_ktime_get_ns();
}

/* sleepable: the loader sets BPF_F_SLEEPABLE (libbpf 1.1 has no
 * struct_ops.s/ section), scx_bpf_create_dsq may allocate */
s32 PS_OP(ps_init)
{
	s32 err;

	ps_nr_cpus = scx_bpf_nr_cpu_ids();
	err = scx_bpf_create_dsq(PS_SCX_DSQ_SET, -1);
	if (err)
		return err;
	return scx_bpf_create_dsq(PS_SCX_DSQ_FALLBACK, -1);
}

void PS_OP(ps_exit, struct scx_exit_info *ei)
{
	ps_exit_info.kind = ei->kind;
	ps_exit_info.exit_cpu = ei->exit_cpu;
	ps_exit_info.exit_code = ei->exit_code;
	if (ei->reason)
		bpf_probe_read_kernel_str(ps_exit_info.reason, sizeof(ps_exit_info.reason), ei->reason);
	if (ei->msg)
		bpf_probe_read_kernel_str(ps_exit_info.msg, sizeof(ps_exit_info.msg), ei->msg);
	__sync_fetch_and_add(&ps_exit_info.done, 1);
}

/* the callbacks, the same in both maps below */
#define PS_OPS_CALLBACKS                             \
	.select_cpu = (void *)ps_select_cpu,         \
	.enqueue = (void *)ps_enqueue,               \
	.dispatch = (void *)ps_dispatch,             \
	.runnable = (void *)ps_runnable,             \
	.running = (void *)ps_running,               \
	.stopping = (void *)ps_stopping,             \
	.init = (void *)ps_init,                     \
	.exit = (void *)ps_exit,                     \
	.name = "powersched"

/* run's: the partial switch (only tasks of policy SCHED_EXT, its
 * command's) */
SEC(".struct_ops")
struct sched_ext_ops ps_ops = {
	PS_OPS_CALLBACKS,
	.flags = SCX_OPS_SWITCH_PARTIAL | SCX_OPS_ENQ_LAST,
};

/* the daemon's: the full switch (every fair task comes here; the scope
 * says which are the policy's). The loader creates one of the two. */
SEC(".struct_ops")
struct sched_ext_ops ps_ops_all = {
	PS_OPS_CALLBACKS,
	.flags = SCX_OPS_ENQ_LAST,
};
