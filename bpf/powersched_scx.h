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
	__u32 pad;
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
	PS_NR_STAT
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
