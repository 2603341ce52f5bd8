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
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_int.h"

int ps_live_journal_line(struct ps_live *l, const char *fmt, ...)
{
	char *buf = NULL;
	va_list ap;
	ssize_t w;
	int n, r = 0;

	if (l->journal_fd < 0)
		return l->cfg.dry_run ? 0 : -EBADF;
	/* a record of any length (a CPU list of a large machine): never cut */
	va_start(ap, fmt);
	n = vasprintf(&buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (!n || buf[n - 1] != '\n') {
		free(buf);
		return -EINVAL;
	}
	/* one write(2) per record (O_APPEND): a record is never split, and a
	 * short write is cut off again so no torn line stays behind */
	w = write(l->journal_fd, buf, (size_t)n);
	if (w != n) {
		r = w < 0 ? -errno : -ENOSPC;
		if (w > 0 && ftruncate(l->journal_fd, l->journal_size))
			r = -errno;
		if (!l->journal_err)
			lg(l, "journal %s: %s; nothing it would cover is changed",
			   l->journal_path, w > 0 ? "short write (disk full or file size limit)" :
			   strerror(-r));
		l->journal_err = 1;
		free(buf);
		return r;
	}
	if (l->journal_err)
		lg(l, "journal %s: writable again", l->journal_path);
	l->journal_err = 0;
	l->journal_size += n;
	l->journal_dirty = 1;
	if (!strncmp(buf, "task ", 5))
		l->journal_tasks++;
	else if (!strncmp(buf, "applied ", 8))
		l->journal_applied++;
	free(buf);
	return 0;
}

/* Compact when task records outnumber the threads (threads come and go)
 * or the sets applied pile up (a varying load): the journal stays the size
 * of what it must hold. 0, or -errno (logged) */
int ps_live_journal_tidy(struct ps_live *l)
{
	int r;

	if (l->journal_fd < 0 || l->journal_err ||
	    !((l->journal_tasks > 256 && l->journal_tasks > 2 * l->thr_n) ||
	      l->journal_applied > 64))
		return 0;
	r = ps_live_journal_compact(l);
	if (r)
		lg(l, "journal: compaction failed: %s", strerror(-r));
	return r;
}

/* On disk before anything it records is changed. */
int ps_live_journal_sync(struct ps_live *l)
{
	if (l->journal_fd < 0 || !l->journal_dirty)
		return 0;
	if (fdatasync(l->journal_fd)) {
		int r = -errno;

		if (!l->journal_err)
			lg(l, "journal %s: fdatasync: %s; nothing it would cover is changed",
			   l->journal_path, strerror(-r));
		l->journal_err = 1;
		return r;
	}
	l->journal_dirty = 0;
	return 0;
}

int ps_live_journal_open(struct ps_live *l)
{
	l->journal_fd = open(l->journal_path,
			     O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (l->journal_fd < 0)
		return -errno;
	l->journal_size = 0;
	return 0;
}

static int cmp_tid_start(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* a release record: thread (tid, start) is no longer ours from line on */
struct released {
	long long tid;
	unsigned long long start;
	int line;
};

/* add release record r (at line) to *rl: 0, or -ENOMEM */
static int released_add(struct released **rl, int *n, int *cap, const struct ps_journal_rec *r,
			int line)
{
	if (*n == *cap) {
		int nc = *cap ? 2 * *cap : 64;
		struct released *nr = realloc(*rl, sizeof(**rl) * (size_t)nc);

		if (!nr)
			return -ENOMEM;
		*rl = nr;
		*cap = nc;
	}
	(*rl)[*n].tid = r->id;
	(*rl)[*n].start = r->starttime;
	(*rl)[(*n)++].line = line;
	return 0;
}

/* released after line `line` (a record at a later line) */
static int released_after(const struct released *rl, int n, long long tid,
			  unsigned long long start, int line)
{
	for (int i = 0; i < n; i++)
		if (rl[i].tid == tid && rl[i].start == start && rl[i].line > line)
			return 1;
	return 0;
}

/*
 * Rewrite the journal with the records still needed: every record that is
 * not a thread's or a set's, the last NR_KEEP_APPLIED "applied" ones (what
 * a restore reads), and a task record only while its thread is managed (a
 * released thread's record goes, and its release with it). A new file,
 * synced, renamed over the old one: a crash leaves one or the other, both
 * complete.
 */
int ps_live_journal_compact(struct ps_live *l)
{
	char tmp[600], *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned long long *keys = NULL, key[2];
	struct ps_journal_rec *recp = NULL;
	struct released *rel = NULL;
	int i, nk = 0, fd = -1, r = 0, napplied = 0, seen_applied = 0, ntasks = 0;
	int lineno, nrel = 0, relcap = 0;
	long size = 0;
	FILE *f;

	if (l->journal_fd < 0)
		return 0;
	keys = malloc(sizeof(*keys) * 2 * ((size_t)l->thr_n + 1));
	recp = malloc(sizeof(*recp));
	if (!keys || !recp) {
		free(keys);
		free(recp);
		return -ENOMEM;
	}
	for (i = 0; i < l->thr_n; i++)
		if (l->thr[i].managed == 1) {
			keys[2 * nk] = (unsigned long long)l->thr[i].tid;
			keys[2 * nk + 1] = l->thr[i].start;
			nk++;
		}
	qsort(keys, (size_t)nk, sizeof(*keys) * 2, cmp_tid_start);
	f = fopen(l->journal_path, "re");
	if (!f) {
		r = -errno;
		goto out;
	}
	for (lineno = 1; getline(&line, &cap, f) > 0; lineno++) {
		if (ps_journal_parse_line(line, recp))
			continue;
		napplied += recp->kind == 'a';
		if (recp->kind == 'r' && released_add(&rel, &nrel, &relcap, recp, lineno)) {
			r = -ENOMEM;
			fclose(f);
			goto out;
		}
	}
	rewind(f);
	snprintf(tmp, sizeof(tmp), "%s.new", l->journal_path);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = -errno;
		fclose(f);
		goto out;
	}
	for (lineno = 1; (got = getline(&line, &cap, f)) > 0; lineno++) {
		size_t n = (size_t)got;

		if (line[n - 1] != '\n' || strlen(line) != n || ps_journal_parse_line(line, recp))
			continue;
		if (recp->kind == 'r')
			continue;
		/* a task record while its thread is ours: managed, and not
		 * released since (the table can be a scan old) */
		if (recp->kind == 't') {
			key[0] = (unsigned long long)recp->id;
			key[1] = recp->starttime;
			if (!bsearch(key, keys, (size_t)nk, sizeof(*keys) * 2, cmp_tid_start) ||
			    released_after(rel, nrel, recp->id, recp->starttime, lineno))
				continue;
			ntasks++;
		}
		if (recp->kind == 'a' && seen_applied++ < napplied - NR_KEEP_APPLIED)
			continue;
		/* a done goes with the applied record before it */
		if (recp->kind == 'e' && seen_applied <= napplied - NR_KEEP_APPLIED)
			continue;
		if (write(fd, line, n) != (ssize_t)n) {
			r = errno ? -errno : -ENOSPC;
			break;
		}
		size += (long)n;
	}
	fclose(f);
	if (!r && fdatasync(fd))
		r = -errno;
	if (!r && rename(tmp, l->journal_path))
		r = -errno;
	if (r) {
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(l->journal_fd);
	l->journal_fd = fd;
	l->journal_size = size;
	l->journal_tasks = ntasks;
	l->journal_applied = napplied < NR_KEEP_APPLIED ? napplied : NR_KEEP_APPLIED;
	l->journal_dirty = 0;
out:
	free(keys);
	free(recp);
	free(rel);
	free(line);
	return r;
}

int ps_live_check_private(int fd, const struct stat *st_in, int want_dir)
{
	struct stat st;

	if (st_in)
		st = *st_in;
	else if (fstat(fd, &st))
		return -errno;
	if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return -EPERM;
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	if (!want_dir && st.st_nlink != 1)
		return -EPERM;
	return 0;
}

/* Journals of powersched processes that are gone, in STATE_DIR: put back
 * what they changed (self: our own PID, whose journal is never replayed).
 * *journals counts those replayed, *threads the masks put back. */
static void recover_dir(const char *root, const char *state_dir, long long self,
			void (*log)(void *, const char *), void *arg, int *journals,
			int *threads)
{
	char path[1024], line[1200];
	struct ps_journal_rec rec;
	struct dirent *de;
	DIR *d = opendir(state_dir);
	int restored;

	if (!d)
		return;
	while ((de = readdir(d))) {
		FILE *f;
		int alive = 0, fd;

		if (strncmp(de->d_name, "journal.", 8) || strchr(de->d_name + 8, '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", state_dir, de->d_name);
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || ps_live_check_private(fd, NULL, 0)) {
			ps_live_logf(log, arg, "%s: not a regular file of ours, private to us: "
				     "not replayed", path);
			if (fd >= 0)
				close(fd);
			continue;
		}
		f = fdopen(fd, "r");
		if (!f) {
			close(fd);
			continue;
		}
		if (fgets(line, sizeof(line), f) && !ps_journal_parse_line(line, &rec) &&
		    rec.kind == 'o')
			alive = ps_live_starttime(root, rec.id) == rec.starttime && rec.starttime &&
				rec.id != self;
		fclose(f);
		if (alive)
			continue;
		ps_live_logf(log, arg, "recovering %s, left by a powersched that did not exit "
			     "cleanly", path);
		if (!ps_live_restore_journal(root, path, log, arg, &restored)) {
			ps_live_logf(log, arg, "recovered: %d thread mask(s) put back", restored);
			*threads += restored;
		}
		++*journals;
		snprintf(path, sizeof(path), "%s/state.%s.json", state_dir, de->d_name + 8);
		unlink(path);
	}
	closedir(d);
}

void ps_live_recover(struct ps_live *l)
{
	int j = 0, t = 0;

	recover_dir(l->cfg.root, l->cfg.state_dir, l->self, l->cfg.log, l->cfg.log_arg, &j, &t);
}

int ps_live_restore_dir(const char *state_dir, void (*log)(void *, const char *), void *arg,
			int *journals, int *threads)
{
	struct stat st;
	int r;

	*journals = *threads = 0;
	if (lstat(state_dir, &st))
		return -errno;
	/* what is replayed is run as root: the directory must be ours and
	 * writable by no one else (not a symlink either), as at a start */
	r = ps_live_check_private(-1, &st, 1);
	if (r)
		return r;
	recover_dir("/", state_dir, (long long)getpid(), log, arg, journals, threads);
	return 0;
}

/* Move every task of cgroup PATH to ORIGIN and remove PATH: 0, or -errno
 * when the cgroup is still there. */
static int restore_cgroup(const char *root, const char *path, const char *origin,
			  void (*log)(void *, const char *), void *arg)
{
	char file[PS_JOURNAL_FIELD + 64], dst[PS_JOURNAL_FIELD + 64], *buf, *p, *nl;
	char to[PS_JOURNAL_FIELD + 8];
	int n, moved = 0, elsewhere = 0, tries, r;

	buf = malloc(1 << 20);
	if (!buf)
		return -ENOMEM;
	snprintf(to, sizeof(to), "%s", origin);
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
			/*
			 * Into the origin; when it is gone (removed since, e.g.
			 * a unit's cgroup after its stop) or takes no
			 * processes (it has controllers for children now), its
			 * nearest parent that does, up to the root, which
			 * always does: never left under our narrow cpuset.
			 */
			for (;;) {
				snprintf(dst, sizeof(dst), "%s/sys/fs/cgroup%s/cgroup.procs", root,
					 strcmp(to, "/") ? to : "");
				r = ps_live_write_file(dst, p);
				if ((r != -ENOENT && r != -EBUSY && r != -EOPNOTSUPP) ||
				    !strcmp(to, "/"))
					break;
				*strrchr(to, '/') = '\0';
				if (!to[0])
					snprintf(to, sizeof(to), "/");
			}
			if (r && r != -ESRCH)
				ps_live_logf(log, arg, "restore: moving %s back to %s: %s", p,
					     to, strerror(-r));
			else
				moved++;
			elsewhere += !r && strcmp(to, origin);
		}
	}
	free(buf);
	if (elsewhere)
		ps_live_logf(log, arg, "restore: cgroup %s is gone or takes no processes: %d "
			     "process(es) moved to %s, its nearest parent that takes them",
			     origin, elsewhere, to);
	snprintf(file, sizeof(file), "%s/sys/fs/cgroup%s", root, path);
	if (rmdir(file) && errno != ENOENT) {
		r = -errno;
		ps_live_logf(log, arg, "restore: removing cgroup %s: %s", path, strerror(-r));
		return r;
	}
	ps_live_logf(log, arg, "restore: cgroup %s removed, %d process(es) back in %s",
		     path, moved, to);
	return 0;
}

/* Another powersched cgroup under the root (not skip): its instance still
 * needs cpuset there. */
static int other_instance_cgroup(const char *root, const char *skip)
{
	char dir[1100];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup", root);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		found = !strncmp(de->d_name, "powersched-", 11) &&
			de->d_type == DT_DIR && (!skip || strcmp(de->d_name, skip + 1));
	closedir(d);
	return found;
}

/*
 * quiet-parked: an IRQ's affinity, the unbound workqueue mask or the
 * default IRQ affinity back to what it was, while it holds a set we applied
 * (else it was changed since: theirs). 1 put back, 0 left, -errno failed.
 */
static int restore_parked(const char *root, const struct ps_journal_rec *rec,
			  char *const *applied, int napplied, unsigned char *bits,
			  void (*log)(void *arg, const char *msg), void *arg)
{
	char path[600], raw[8192], now[8192], what[64];
	int hex = rec->kind != 'i', i, r;

	if (rec->kind == 'i') {
		snprintf(path, sizeof(path), "%s/proc/irq/%lld/smp_affinity_list",
			 strcmp(root, "/") ? root : "", rec->id);
		snprintf(what, sizeof(what), "IRQ %lld", rec->id);
	} else {
		snprintf(path, sizeof(path), "%s%s", strcmp(root, "/") ? root : "",
			 rec->kind == 'w' ? "/sys/devices/virtual/workqueue/cpumask" :
					    "/proc/irq/default_smp_affinity");
		snprintf(what, sizeof(what), "%s", rec->kind == 'w' ? "the workqueue cpumask" :
				 "the default IRQ affinity");
	}
	r = ps_live_read_file(path, raw, sizeof(raw));
	if (r <= 0)
		return 0; /* gone (an IRQ freed) */
	raw[strcspn(raw, "\n")] = '\0';
	if (!strcmp(raw, rec->a))
		return 0; /* as it was (never moved: a managed IRQ) */
	if ((hex ? ps_cpumask_parse_hex(raw, bits, PS_LIVE_MAX_CPUS) :
		   ps_cpulist_parse(raw, bits, PS_LIVE_MAX_CPUS)) ||
	    ps_cpulist_format(bits, PS_LIVE_MAX_CPUS, now, sizeof(now)))
		return 0;
	for (i = 0; i < napplied && strcmp(applied[i], now); i++)
		;
	if (i == napplied) {
		if (strcmp(raw, rec->a))
			ps_live_logf(log, arg, "restore: %s has %s, not a set we applied: "
				     "theirs, left as it is", what, raw);
		return 0;
	}
	r = ps_live_write_file(path, rec->a);
	if (r) {
		ps_live_logf(log, arg, "restore: %s to %s: %s", what, rec->a, strerror(-r));
		return r;
	}
	return 1;
}

/* OR the CPUs online now under @root into @bits (nothing when it cannot be
 * read: the recorded list alone) */
static void online_now(const char *root, unsigned char *bits, int nbits)
{
	char file[PATH_MAX], buf[4096];
	unsigned char *on = malloc((size_t)nbits);

	snprintf(file, sizeof(file), "%s/sys/devices/system/cpu/online", root);
	if (on && ps_live_read_file(file, buf, sizeof(buf)) > 0 &&
	    !ps_cpulist_parse(buf, on, nbits))
		for (int i = 0; i < nbits; i++)
			bits[i] |= on[i];
	free(on);
}

int ps_live_restore_journal(const char *root, const char *path,
			    void (*log)(void *arg, const char *msg), void *arg,
			    int *restored)
{
	struct ps_journal_rec *recp;
	unsigned char *bits, *cur;
	char *line = NULL, *applied[NR_KEEP_APPLIED] = { NULL }, *kept = NULL, *mine = NULL;
	char *now = NULL;
	struct released *rel = NULL;
	size_t kept_len = 0, cap = 0;
	ssize_t got;
	int lineno = 0, r, ok = 0, nbits = PS_LIVE_MAX_CPUS, napplied = 0, fd, i, nfail = 0;
	int nrel = 0, relcap = 0, done = 0;
	FILE *f;

	*restored = 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	r = ps_live_check_private(fd, NULL, 0);
	if (r) {
		ps_live_logf(log, arg, "restore: %s is not a regular file of ours, private "
			     "to us: not replayed", path);
		close(fd);
		return r;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	bits = malloc((size_t)nbits);
	cur = malloc((size_t)nbits);
	recp = malloc(sizeof(*recp));
	now = malloc(PS_JOURNAL_FIELD);
	if (!bits || !cur || !recp || !now) {
		free(bits);
		free(cur);
		free(recp);
		free(now);
		fclose(f);
		return -ENOMEM;
	}
	/* threads first (their masks), then cgroups, then controllers, in
	 * reverse of how they were made; before them, the last sets we
	 * applied and the threads let go: a thread is put back only while its
	 * mask is the last set we applied (or the one before, when we stopped
	 * in the middle of a change) and it was not let go since (else the
	 * user changed it, and it is theirs). Lines of any length */
	for (int pass = -1; pass < 3; pass++) {
		rewind(f);
		lineno = 0;
		while ((got = getline(&line, &cap, f)) > 0) {
			size_t len = (size_t)got;
			int fail = 0;

			lineno++;
			if (line[len - 1] != '\n' || strlen(line) != len) {
				/* torn (power lost mid-write), or a NUL in it:
				 * never acted on */
				if (pass == 0)
					ps_live_logf(log, arg, "restore: %s line %d: incomplete, "
						     "skipped", path, lineno);
				continue;
			}
			r = ps_journal_parse_line(line, recp);
			if (r < 0 && pass == 0)
				ps_live_logf(log, arg, "restore: %s line %d: not understood, skipped",
					     path, lineno);
			if (r)
				continue;
			if (pass == -1 && recp->kind == 'a') {
				/* the last NR_KEEP_APPLIED, oldest first */
				char *c = strdup(recp->a);

				if (!c)
					continue;
				if (napplied == NR_KEEP_APPLIED) {
					free(applied[0]);
					memmove(applied, applied + 1,
						sizeof(applied[0]) * (NR_KEEP_APPLIED - 1));
					napplied--;
				}
				applied[napplied++] = c;
				done = 0;
			} else if (pass == -1 && recp->kind == 'e') {
				done = napplied > 0;
			} else if (pass == -1 && recp->kind == 'r') {
				/* out of memory: restored, then, as before */
				(void)released_add(&rel, &nrel, &relcap, recp, lineno);
			} else if (pass == -1 && recp->kind == 'c') {
				free(mine);
				mine = strdup(recp->a);
			} else if (pass == 0 && recp->kind == 'o') {
				fail = 1; /* kept at the top of a kept journal */
			} else if (pass == 0 && recp->kind == 'r') {
				fail = 1; /* kept with the task records it answers */
			} else if (pass == 0 && recp->kind == 't') {
				if (ps_live_starttime(root, recp->id) != recp->starttime)
					continue; /* gone, or the TID was reused */
				if (released_after(rel, nrel, recp->id, recp->starttime, lineno))
					continue; /* let go as the user's, or given back */
				if (ps_cpulist_parse(recp->a, bits, nbits)) {
					ps_live_logf(log, arg, "restore: %s line %d: bad CPU list '%s'",
						     path, lineno, recp->a);
					continue;
				}
				if (ps_live_get_mask((pid_t)recp->id, cur, nbits) ||
				    ps_cpulist_format(cur, nbits, now, PS_JOURNAL_FIELD))
					continue;
				/* a record's mask is the machine's (the online CPUs
				 * when it was written): the machine's now, with the
				 * CPUs brought online since */
				online_now(root, bits, nbits);
				/* done after the last set: that set alone (every
				 * thread of ours had it); else the one before too */
				for (i = done ? napplied - 1 : 0;
				     i >= 0 && i < napplied && strcmp(applied[i], now); i++)
					;
				if (i < 0 || i >= napplied) {
					if (strcmp(now, recp->a))
						ps_live_logf(log, arg, "restore: thread %lld has %s, not "
							     "a set we applied: the user's, left as it is",
							     recp->id, now);
					continue;
				}
				r = ps_live_set_mask((pid_t)recp->id, bits, nbits);
				if (r && r != -ESRCH) {
					ps_live_logf(log, arg, "restore: thread %lld to %s: %s",
						     recp->id, recp->a, strerror(-r));
					fail = 1;
				} else if (!r) {
					ok++;
				}
			} else if (pass == 0 && (recp->kind == 'i' || recp->kind == 'w' || recp->kind == 'd')) {
				r = restore_parked(root, recp, applied, napplied, bits, log, arg);
				fail = r < 0;
				ok += r > 0;
			} else if (pass == 1 && recp->kind == 'c') {
				fail = restore_cgroup(root, recp->a, recp->b, log, arg) != 0;
			} else if (pass == 2 && recp->kind == 's') {
				char file[1200];

				/* cpuset stays on while another instance's cgroup
				 * needs it (that one turns it off when it ends) */
				if (other_instance_cgroup(root, mine)) {
					ps_live_logf(log, arg, "restore: cpuset left on in %s: another "
						     "powersched cgroup is there", recp->a);
					continue;
				}
				snprintf(file, sizeof(file), "%s/sys/fs/cgroup/cgroup.subtree_control",
					 root);
				r = ps_live_guarded_write(root, file, "-cpuset", log, arg);
				if (r) {
					ps_live_logf(log, arg, "restore: -cpuset in %s: %s", recp->a,
						     strerror(-r));
					fail = 1;
				}
			}
			if (fail) {
				char *k;

				nfail += recp->kind != 'o' && recp->kind != 'r';
				k = realloc(kept, kept_len + len + 1);

				if (k) {
					kept = k;
					memcpy(kept + kept_len, line, len + 1);
					kept_len += len;
				}
			}
		}
	}
	for (i = 0; i < napplied; i++)
		free(applied[i]);
	free(bits);
	free(cur);
	free(recp);
	free(now);
	free(rel);
	free(mine);
	free(line);
	fclose(f);
	*restored = ok;
	/* a record that could not be put back stays, for a later start; the
	 * owner line alone means nothing is left */
	if (kept && nfail) {
		char tmp[1100];
		int w;

		snprintf(tmp, sizeof(tmp), "%s.new", path);
		unlink(tmp);
		w = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		r = w < 0 ? -errno : 0;
		if (!r && (write(w, kept, kept_len) != (ssize_t)kept_len || fdatasync(w)))
			r = -EIO;
		if (w >= 0)
			close(w);
		if (!r && rename(tmp, path))
			r = -errno;
		free(kept);
		ps_live_logf(log, arg, "restore: %s kept with what could not be put back%s", path,
			     r ? " (rewriting it failed: kept whole)" : "");
		return 0;
	}
	free(kept);
	if (unlink(path))
		return -errno;
	return 0;
}
