/* SPDX-License-Identifier: MIT */
/* Internal helpers of the live side, shared by its files. */
#ifndef PS_LIVE_INT_H
#define PS_LIVE_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#include "ps/live.h"

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

#endif
