/* What a userspace loader of bpf/powersched.bpf.c needs beside libbpf on
 * Debian 12 (libbpf 1.1, the 6.1 uapi headers): the skeleton's type names
 * and the 7.2 uapi values those headers lack. Include after <bpf/libbpf.h>
 * and powersched_scx.h, before powersched.skel.h. */
#ifndef PS_SCX_USER_H
#define PS_SCX_USER_H

/* the skeleton names the BTF types of the object */
typedef __u64 u64;
typedef __u32 u32;
typedef __s32 s32;

/* not in Debian 12's <linux/bpf.h> (6.1): values of the 7.2 uapi */
#ifndef BPF_F_LINK
#define BPF_F_LINK (1U << 13)
#endif
#define PS_BPF_STRUCT_OPS 44 /* enum bpf_attach_type BPF_STRUCT_OPS */
#define PS_SCHED_EXT 7       /* policy SCHED_EXT (include/uapi/linux/sched.h) */

#endif
