/* The contract between bpf/powersched.bpf.c and its loader: the decision
 * userspace publishes, what the scheduler gives back. Included by the BPF
 * side after vmlinux.h and by userspace after <linux/types.h>; both see the
 * same layout (fixed-size __u64/__s32 fields only). */
#ifndef PS_SCX_H
#define PS_SCX_H

#define PS_SCX_MAX_CPUS 1024
#define PS_SCX_WORDS (PS_SCX_MAX_CPUS / 64)

/* DSQ ids of our own (below SCX_DSQ_FLAG_BUILTIN): the set's shared queue,
 * and the queue for tasks that may run on no CPU of the set */
#define PS_SCX_DSQ_SET 0x5053ULL
#define PS_SCX_DSQ_FALLBACK 0x5054ULL

/* One decision of userspace. The loader keeps two copies and publishes a
 * new one by writing the copy the scheduler is not reading, then storing
 * ps_seq (the scheduler reads ps_cfg[ps_seq & 1]); the scheduler never
 * computes the policy, it only walks what is here. */
struct ps_scx_cfg {
	__u64 allowed[PS_SCX_WORDS]; /* bitmap: the interval's CPUs */
	__s32 order[PS_SCX_MAX_CPUS]; /* CPU ids, the policy's order */
	__u32 nr_order; /* valid entries of order[] */
	__u32 spread; /* 1: performance (spread order), 0: power (pack) */
	__s32 sibling[PS_SCX_MAX_CPUS]; /* another PU of the CPU's core, or -1 */
};

/* counters the scheduler keeps (ps_stat[]); userspace only reads them */
enum ps_scx_stat {
	PS_ST_DIRECT, /* select_cpu put the task on an idle allowed CPU */
	PS_ST_SET, /* enqueue queued the task on the set's DSQ */
	PS_ST_PINNED, /* single-CPU task sent to its own CPU */
	PS_ST_FALLBACK, /* task with no CPU in allowed: fallback DSQ */
	PS_ST_LAST, /* only task of an allowed/grown CPU: kept local */
	PS_ST_KICK, /* an idle allowed CPU kicked for a queued task */
	PS_ST_GROW, /* a CPU beyond allowed marked grown and kicked */
	PS_ST_DISP_SET, /* dispatch moved a task from the set's DSQ */
	PS_ST_DISP_FALLBACK, /* dispatch moved a task from the fallback DSQ */
	PS_ST_BAD_CPU, /* an order[] entry out of range (skipped) */
	PS_ST_SET_WAKE, /* of PS_ST_SET: enqueued on a wake-up (the rest:
			   slice ended while another task took the CPU) */
	PS_ST_STRAY, /* a task that may use the set started running on a
			CPU outside allowed ∪ grown, the previous ones
			included (see ps_running); should stay 0 */
	PS_ST_REENQ, /* enqueue of a task handed back by the kernel
			(SCX_ENQ_REENQ: it lost its CPU to a higher class) */
	PS_ST_OUT, /* daemon: a task out of the policy's scope, placed as
		      the kernel would */
	PS_ST_LOAD_FULL, /* ps_load full: a task's run not counted */
	PS_ST_MOVE, /* alone at the end of its slice, moved to a better CPU
		       of the order (power: earlier; performance: an idle
		       core, its sibling busy) */
	PS_NR_STAT
};

/* The daemon's scope (ps_scope[ps_scope_seq & 1], published as ps_cfg
 * is). With whole = 0 (run: the partial switch) every task the scheduler
 * sees is the command's and the rest is unused. With whole = 1 (the
 * daemon: the full switch, every fair task comes to the scheduler) a task
 * is the policy's when it is no kernel thread, not PID 1 or a process
 * named systemd, has no affinity of its own (its mask spans nr_online
 * CPUs), is in no `powersched run`'s tree (an ancestor of that name other
 * than self_tgid, or a cgroup named powersched-run*), its process's name is in inc_comm (when any is given) and not in
 * exc_comm, and its cgroup (v2) is under one of inc_cg (when any) and
 * under none of exc_cg nor, with exclude_containers, a container's
 * (machine.slice, docker*, kubepods*, lxc*, libpod*). Any other task is
 * placed as the kernel would. Cgroups are by id (the directory's inode
 * number on the v2 mount); userspace resolves the configured paths. */
#define PS_SCX_NR_COMM 64
#define PS_SCX_NR_CG 64
#define PS_SCX_COMM 16
struct ps_scx_scope {
	__u32 whole;
	__u32 nr_online;
	__u32 nr_inc_comm, nr_exc_comm;
	__u32 nr_inc_cg, nr_exc_cg;
	__u32 exclude_containers;
	__u32 self_tgid; /* the daemon: not a run's tree (see under_a_run) */
	char inc_comm[PS_SCX_NR_COMM][PS_SCX_COMM];
	char exc_comm[PS_SCX_NR_COMM][PS_SCX_COMM];
	__u64 inc_cg[PS_SCX_NR_CG];
	__u64 exc_cg[PS_SCX_NR_CG];
};

/* The load, per task of the policy's (daemon): what it ran and waited
 * since userspace last took its entry from ps_load (a hash map by TID,
 * read and deleted each interval, so it holds only the tasks that ran
 * since: an idle task costs nothing). start_ns tells a reused TID. */
#define PS_SCX_LOAD_MAX 65536
struct ps_scx_load {
	__u32 tgid;
	__s32 cpu;
	__u64 run_ns;
	__u64 wait_ns;
	__u64 start_ns;
};

#define PS_SCX_REASON_LEN 128
#define PS_SCX_MSG_LEN 1024

/* what ops.exit() was told: kind (SCX_EXIT_*), the kernel's reason and
 * message, bounded; done is 1 once exit ran */
struct ps_scx_exit {
	__s32 kind;
	__s32 exit_cpu;
	__s64 exit_code;
	__u64 done;
	char reason[PS_SCX_REASON_LEN];
	char msg[PS_SCX_MSG_LEN];
};

#endif
