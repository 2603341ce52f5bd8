/* SPDX-License-Identifier: MIT */
/* Internal helpers of the live side, shared by its files. */
#ifndef PS_LIVE_INT_H
#define PS_LIVE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#include "ps/live.h"
#include "ps/policy.h"

#define PS_LIVE_MAX_CPUS 4096

void ps_live_logf(void (*log)(void *, const char *), void *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 0 or -errno */
int ps_live_write_file(const char *path, const char *text);
/* bytes read (NUL-terminated) or -errno */
int ps_live_read_file(const char *path, char *buf, size_t len);
/* start time of a TID, 0 when it is gone */
unsigned long long ps_live_starttime(const char *root, long long tid);
int ps_live_set_mask(pid_t tid, const unsigned char *bits, int nbits);
int ps_live_get_mask(pid_t tid, unsigned char *bits, int nbits);

/* auto: power-profiles-daemon first, then the sysfs rules (live/auto.c) */
struct ps_ppd;
struct ps_live_auto {
	struct ps_ppd *ppd;
	int tried;        /* the bus was tried once */
	int said;         /* "no power-profiles-daemon" logged once */
	const char *source; /* "power-profiles-daemon", "platform_profile",
			     * "power_supply" (static) */
};
void ps_live_auto_resolve(struct ps_live_auto *a, const char *sysfs_root,
			  enum ps_policy *out, char *why, size_t len,
			  void (*log)(void *, const char *), void *log_arg);
void ps_live_auto_close(struct ps_live_auto *a);

/* what the metrics file says (live/metrics.c), the state file's figures */
struct ps_live_figures {
	const char *process;              /* "run" or "daemon" */
	const char *policy, *requested;   /* resolved, asked for */
	const char *source;               /* what decided the policy */
	int nr_allowed, nr_online, threads;
	const int *active, *total;        /* per level, PS_LVL_COUNT each */
	long decisions, mask_changes;
	double energy_j, demand;
	int energy_measured;
};
/* written atomically (a temporary file renamed over path); 0 or -errno */
int ps_live_metrics_write(const char *path, const struct ps_live_figures *f);

#endif
