// SPDX-License-Identifier: MIT
/*
 * DOC: putting back what a journal records
 *
 * Threads get their old mask (when the TID still has the start time it had,
 * so a reused TID is never touched); tasks in a cgroup we made go back to
 * the cgroup they came from, then the cgroup is removed; a controller we
 * enabled is disabled again. Each failure is logged and the rest goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live_int.h"

void ps_live_logf(void (*log)(void *, const char *), void *arg, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log(arg, msg);
}

int ps_live_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;
	size_t n = strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		r = -errno;
	close(fd);
	return r;
}

int ps_live_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

unsigned long long ps_live_starttime(const char *root, long long tid)
{
	char path[256], buf[1024];
	struct ps_live_stat st;

	snprintf(path, sizeof(path), "%s/proc/%lld/stat", root, tid);
	if (ps_live_read_file(path, buf, sizeof(buf)) <= 0 ||
	    ps_live_parse_stat(buf, &st))
		return 0;
	return st.starttime;
}

/* sched_setaffinity (set) or sched_getaffinity (get) between a byte map and
 * a kernel CPU set of nbits. */
static int mask_io(pid_t tid, unsigned char *bits, int nbits, int set_it)
{
	cpu_set_t *set;
	size_t sz;
	int i, r = 0;

	set = CPU_ALLOC((size_t)nbits);
	if (!set)
		return -ENOMEM;
	sz = CPU_ALLOC_SIZE((size_t)nbits);
	CPU_ZERO_S(sz, set);
	if (set_it) {
		for (i = 0; i < nbits; i++)
			if (bits[i])
				CPU_SET_S((size_t)i, sz, set);
		if (sched_setaffinity(tid, sz, set))
			r = -errno;
	} else {
		if (sched_getaffinity(tid, sz, set))
			r = -errno;
		for (i = 0; i < nbits; i++)
			bits[i] = !r && CPU_ISSET_S((size_t)i, sz, set);
	}
	CPU_FREE(set);
	return r;
}

int ps_live_set_mask(pid_t tid, const unsigned char *bits, int nbits)
{
	return mask_io(tid, (unsigned char *)bits, nbits, 1);
}

int ps_live_get_mask(pid_t tid, unsigned char *bits, int nbits)
{
	return mask_io(tid, bits, nbits, 0);
}

/* Move every task of cgroup PATH to ORIGIN and remove PATH. */
static void restore_cgroup(const char *root, const char *path, const char *origin,
			   void (*log)(void *, const char *), void *arg)
{
	char file[1200], dst[1200], *buf, *p, *nl;
	int n, moved = 0, tries, r;

	buf = malloc(1 << 20);
	if (!buf)
		return;
	snprintf(dst, sizeof(dst), "%s/sys/fs/cgroup%s/cgroup.procs", root,
		 strcmp(origin, "/") ? origin : "");
	snprintf(file, sizeof(file), "%s/sys/fs/cgroup%s/cgroup.procs", root, path);
	/* new tasks may be forked while we move: a few passes */
	for (tries = 0; tries < 5; tries++) {
		n = ps_live_read_file(file, buf, 1 << 20);
		if (n <= 0)
			break;
		for (p = buf; *p; p = nl) {
			nl = strchr(p, '\n');
			if (nl)
				*nl++ = '\0';
			else
				nl = p + strlen(p);
			if (!*p)
				continue;
			r = ps_live_write_file(dst, p);
			if (r && r != -ESRCH)
				ps_live_logf(log, arg, "restore: moving %s back to %s: %s", p,
					     origin, strerror(-r));
			else
				moved++;
		}
	}
	free(buf);
	snprintf(file, sizeof(file), "%s/sys/fs/cgroup%s", root, path);
	if (rmdir(file) && errno != ENOENT)
		ps_live_logf(log, arg, "restore: removing cgroup %s: %s", path,
			     strerror(errno));
	else
		ps_live_logf(log, arg, "restore: cgroup %s removed, %d process(es) back in %s",
			     path, moved, origin);
}

int ps_live_restore_journal(const char *root, const char *path,
			    void (*log)(void *arg, const char *msg), void *arg,
			    int *restored)
{
	struct ps_journal_rec rec;
	unsigned char *bits;
	char line[1200];
	int lineno = 0, r, ok = 0, nbits = PS_LIVE_MAX_CPUS;
	FILE *f = fopen(path, "re");

	*restored = 0;
	if (!f)
		return -errno;
	bits = malloc((size_t)nbits);
	if (!bits) {
		fclose(f);
		return -ENOMEM;
	}
	/* threads first (their masks), then cgroups, then controllers, in
	 * reverse of how they were made: three passes over the file */
	for (int pass = 0; pass < 3; pass++) {
		rewind(f);
		lineno = 0;
		while (fgets(line, sizeof(line), f)) {
			lineno++;
			r = ps_journal_parse_line(line, &rec);
			if (r < 0 && pass == 0)
				ps_live_logf(log, arg, "restore: %s line %d: not understood, skipped",
					     path, lineno);
			if (r)
				continue;
			if (pass == 0 && rec.kind == 't') {
				if (ps_live_starttime(root, rec.id) != rec.starttime)
					continue; /* gone, or the TID was reused */
				if (ps_cpulist_parse(rec.a, bits, nbits)) {
					ps_live_logf(log, arg, "restore: %s line %d: bad CPU list '%s'",
						     path, lineno, rec.a);
					continue;
				}
				r = ps_live_set_mask((pid_t)rec.id, bits, nbits);
				if (r && r != -ESRCH)
					ps_live_logf(log, arg, "restore: thread %lld to %s: %s",
						     rec.id, rec.a, strerror(-r));
				else if (!r)
					ok++;
			} else if (pass == 1 && rec.kind == 'c') {
				restore_cgroup(root, rec.a, rec.b, log, arg);
			} else if (pass == 2 && rec.kind == 's') {
				char file[1200];

				snprintf(file, sizeof(file), "%s/sys/fs/cgroup%s/cgroup.subtree_control",
					 root, strcmp(rec.a, "/") ? rec.a : "");
				r = ps_live_write_file(file, "-cpuset");
				if (r)
					ps_live_logf(log, arg, "restore: -cpuset in %s: %s", rec.a,
						     strerror(-r));
			}
		}
	}
	free(bits);
	fclose(f);
	*restored = ok;
	if (unlink(path))
		return -errno;
	return 0;
}
