// SPDX-License-Identifier: MIT
/*
 * DOC: quiet parked CPUs (daemon, "quiet-parked yes")
 *
 * When the allowed set changes, the IRQs, the affinity new IRQs get
 * (/proc/irq/default_smp_affinity) and the unbound workqueue cpumask
 * (/sys/devices/virtual/workqueue/cpumask) follow it, so the CPUs outside
 * the set are not woken for interrupts or kworkers either. Each is
 * journaled (its value before) the first time, the journal synced, then
 * written. One is taken only while it is unpinned (it covers every online
 * CPU) or still holds the set we wrote last: what an administrator pinned
 * is theirs, and so is what they change while we run (let go, logged).
 * irqbalance, when it runs, owns IRQ affinity: the IRQs are left to it
 * (logged once), the workqueue mask still follows. An IRQ the kernel will
 * not move (managed, per-CPU) refuses the write and stays as it was. The
 * restore (journal.c) puts each back only while it holds a set we applied.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "live_int.h"

/* the two hex masks: their file, journal record and name in the log */
static const struct {
	const char *path, *rec, *what;
} hexfiles[2] = {
	{ "/sys/devices/virtual/workqueue/cpumask", "wqmask", "workqueue cpumask" },
	{ "/proc/irq/default_smp_affinity", "irqdefault", "default IRQ affinity" },
};

/* Is irqbalance running? A process named so, of root's: a name alone is
 * anyone's to take (an ordinary user's process called irqbalance would
 * turn IRQ parking off for everyone), and irqbalance runs as
 * root. The owner of /proc/PID is the process's effective uid. */
static int irqbalance_runs(const struct ps_live *l)
{
	char path[512], comm[32];
	struct dirent *de;
	struct stat st;
	int found = 0;
	DIR *d;

	ps_live_path(l, path, sizeof(path), "/proc");
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		ps_live_path(l, path, sizeof(path), "/proc/%.20s/comm", de->d_name);
		if (ps_live_read_file(path, comm, sizeof(comm)) <= 0 ||
		    strcmp(comm, "irqbalance\n"))
			continue;
		ps_live_path(l, path, sizeof(path), "/proc/%.20s", de->d_name);
		found = !stat(path, &st) && st.st_uid == 0;
	}
	closedir(d);
	return found;
}

/* mask covers every online CPU */
static int covers_online(const struct ps_live *l, const unsigned char *mask)
{
	for (int i = 0; i < PS_LIVE_MAX_CPUS; i++)
		if (l->online[i] && !mask[i])
			return 0;
	return 1;
}

/*
 * What one affinity file holds now, as a CPU list (now) and its raw text
 * (raw); hex: the file is a hex cpumask, else a CPU list. 0 or -errno.
 */
static int read_aff(const struct ps_live *l, const char *path, int hex, char *raw, size_t rlen,
		    char *now, size_t nlen)
{
	unsigned char *bits = l->scratch;
	int r = ps_live_read_file(path, raw, rlen);

	if (r <= 0)
		return r ? r : -EINVAL;
	raw[strcspn(raw, "\n")] = '\0';
	r = hex ? ps_cpumask_parse_hex(raw, bits, PS_LIVE_MAX_CPUS) :
		  ps_cpulist_parse(raw, bits, PS_LIVE_MAX_CPUS);
	if (r)
		return r;
	return ps_cpulist_format(bits, PS_LIVE_MAX_CPUS, now, nlen);
}

/* 1: ours to set (first time: unpinned; since: still what we wrote) */
static int ours(struct ps_live *l, signed char *state, const char *now, const char *what)
{
	if (*state == 2)
		return 0;
	if (*state == 0) {
		if (ps_cpulist_parse(now, l->scratch, PS_LIVE_MAX_CPUS) ||
		    !covers_online(l, l->scratch)) {
			*state = 2; /* pinned before we came: theirs */
			return 0;
		}
		return 1;
	}
	if (strcmp(now, l->park_last)) {
		lg(l, "%s: changed to %s since we set it: theirs now, let go", what, now);
		*state = 2;
		return 0;
	}
	return 1;
}

static signed char *irq_state(struct ps_live *l, long irq)
{
	if (irq < 0 || irq >= PS_LIVE_MAX_IRQ)
		return NULL;
	if (!l->park_irq) {
		l->park_irq = calloc(PS_LIVE_MAX_IRQ, 1);
		if (!l->park_irq)
			return NULL;
	}
	return (signed char *)&l->park_irq[irq];
}

void ps_live_park(struct ps_live *l, const char *list)
{
	char path[512], raw[8192], now[8192], hexset[1100], what[64];
	int irqs[PS_LIVE_PARK_BATCH];
	int nirq = 0, i, k, r, moved = 0, jr = 0, take[2] = { 0, 0 }, new_rec = 0;
	int first_err = 0;
	signed char *hst[2] = { &l->park_wq, &l->park_def };
	struct dirent *de;
	DIR *d;

	if (!l->cfg.quiet_parked || l->cfg.dry_run || !l->cfg.whole_system)
		return;
	if (ps_cpumask_format_hex(l->allowed_os, PS_LIVE_MAX_CPUS, hexset, sizeof(hexset)))
		return;
	/* the restore's rule needs the set among the applied ones (the
	 * affinity backend wrote it already) */
	if (l->backend != PS_BACKEND_AFFINITY)
		jr = ps_live_journal_line(l, "applied %s\n", list);

	/* the unbound workqueues and new IRQs' default */
	for (k = 0; k < 2; k++) {
		ps_live_path(l, path, sizeof(path), "%s", hexfiles[k].path);
		if (jr || read_aff(l, path, 1, raw, sizeof(raw), now, sizeof(now)) ||
		    !ours(l, hst[k], now, hexfiles[k].what))
			continue;
		take[k] = 1;
		if (!*hst[k]) {
			jr = ps_live_journal_line(l, "%s %s\n", hexfiles[k].rec, raw);
			new_rec = 1;
		}
	}
	/* every IRQ, unless irqbalance is in charge */
	if (irqbalance_runs(l)) {
		if (!l->park_said)
			lg(l, "quiet-parked: irqbalance runs and owns IRQ affinity: IRQs left to "
			   "it (the workqueue mask still follows the set)");
		l->park_said = 1;
	} else {
		ps_live_path(l, path, sizeof(path), "/proc/irq");
		d = opendir(path);
		while (d && !jr && (de = readdir(d)) && nirq < PS_LIVE_PARK_BATCH) {
			char *end;
			long irq = strtol(de->d_name, &end, 10);
			signed char *st;

			if (*end || end == de->d_name || !(st = irq_state(l, irq)))
				continue;
			ps_live_path(l, path, sizeof(path), "/proc/irq/%ld/smp_affinity_list", irq);
			snprintf(what, sizeof(what), "IRQ %ld", irq);
			if (read_aff(l, path, 0, raw, sizeof(raw), now, sizeof(now)) ||
			    !ours(l, st, now, what))
				continue;
			if (!strcmp(now, list))
				continue; /* on the set already */
			if (!*st) {
				jr = ps_live_journal_line(l, "irq %ld %s\n", irq, raw);
				new_rec = 1;
			}
			irqs[nirq++] = (int)irq;
		}
		if (d)
			closedir(d);
	}
	if (!jr)
		jr = ps_live_journal_sync(l);
	if (jr) {
		if (new_rec || !l->park_said_jr)
			lg(l, "quiet-parked: journal not writable (%s): IRQs and workqueues "
			   "left as they are", strerror(-jr));
		l->park_said_jr = 1;
		return;
	}
	/* recorded: now set */
	for (k = 0; k < 2; k++) {
		if (!take[k])
			continue;
		ps_live_path(l, path, sizeof(path), "%s", hexfiles[k].path);
		r = ps_live_write_file(path, hexset);
		*hst[k] = r ? 2 : 1;
		if (r)
			lg(l, "quiet-parked: %s %s: %s", hexfiles[k].what, hexset, strerror(-r));
	}
	for (i = 0; i < nirq; i++) {
		signed char *st = irq_state(l, irqs[i]);

		ps_live_path(l, path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		r = ps_live_write_file(path, list);
		/* a managed or per-CPU IRQ refuses (EIO, EINVAL): not movable,
		 * it stays as it was and is not ours */
		*st = r ? 2 : 1;
		moved += !r;
		if (r && !first_err)
			first_err = r;
	}
	if (nirq && !moved && !l->park_said_none) {
		/* EROFS, EACCES, EPERM: not the IRQs, our rights (the shipped
		 * unit's ProtectKernelTunables, no CAP_SYS_ADMIN) */
		lg(l, "quiet-parked: none of %d IRQ(s) could be moved (first: %s)", nirq,
		   strerror(-first_err));
		l->park_said_none = 1;
	}
	snprintf(l->park_last, sizeof(l->park_last), "%s", list);
	/* with the cgroup backend, each set adds an applied record here */
	if (l->backend != PS_BACKEND_AFFINITY)
		(void)ps_live_journal_tidy(l);
	if (moved || take[0])
		lg(l, "quiet-parked: %d IRQ(s)%s on %s", moved,
		   l->park_wq == 1 ? " and the unbound workqueues" : "", list);
}
