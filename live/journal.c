// SPDX-License-Identifier: MIT
/*
 * DOC: putting back what a journal records
 *
 * Threads get their old mask (when the TID still has the start time it had,
 * so a reused TID is never touched); tasks in a cgroup we made go back to
 * the cgroup they came from, then the cgroup is removed; a controller we
 * enabled is disabled again. Each failure is logged and the rest goes on.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

void ps_live_journal_line(struct ps_live *l, const char *fmt, ...)
{
	va_list ap;

	if (!l->journal)
		return;
	va_start(ap, fmt);
	vfprintf(l->journal, fmt, ap);
	va_end(ap);
	l->journal_dirty = 1;
}

/* On disk before anything it records is changed. */
void ps_live_journal_sync(struct ps_live *l)
{
	if (!l->journal || !l->journal_dirty)
		return;
	fflush(l->journal);
	fdatasync(fileno(l->journal));
	l->journal_dirty = 0;
}

static int owner_alive(const struct ps_live *l, long long pid, unsigned long long st)
{
	return ps_live_starttime(l->cfg.root, pid) == st && st;
}

/* Journals of powersched processes that are gone: put back what they changed. */
void ps_live_recover(struct ps_live *l)
{
	char path[1024], line[1200];
	struct ps_journal_rec rec;
	struct dirent *de;
	DIR *d = opendir(l->cfg.state_dir);
	int restored;

	if (!d)
		return;
	while ((de = readdir(d))) {
		FILE *f;
		int alive = 0;

		if (strncmp(de->d_name, "journal.", 8))
			continue;
		snprintf(path, sizeof(path), "%s/%s", l->cfg.state_dir, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !ps_journal_parse_line(line, &rec) &&
		    rec.kind == 'o')
			alive = owner_alive(l, rec.id, rec.starttime) && rec.id != l->self;
		fclose(f);
		if (alive)
			continue;
		lg(l, "recovering %s, left by a powersched that did not exit cleanly", path);
		if (!ps_live_restore_journal(l->cfg.root, path, l->cfg.log, l->cfg.log_arg,
					     &restored))
			lg(l, "recovered: %d thread mask(s) put back", restored);
		snprintf(path, sizeof(path), "%s/state.%s.json", l->cfg.state_dir,
			 de->d_name + 8);
		unlink(path);
	}
	closedir(d);
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
