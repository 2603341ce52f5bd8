// SPDX-License-Identifier: MIT
/* The journal: its lines, and restore (what is put back, what is left as
 * the user's, a journal that is not trusted or torn). */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "ps/live.h"
#include "ps/liveconf.h"
#include "ps/livectl.h"
#include "../../live/live_int.h"

static void test_journal_lines(void **state)
{
	struct ps_journal_rec r;

	(void)state;
	assert_int_equal(ps_journal_parse_line("owner 12 345\n", &r), 0);
	assert_int_equal(r.kind, 'o');
	assert_int_equal(r.id, 12);
	assert_int_equal(r.starttime, 345);
	assert_int_equal(ps_journal_parse_line("task 99 7 0-31\n", &r), 0);
	assert_int_equal(r.kind, 't');
	assert_string_equal(r.a, "0-31");
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-5 /user.slice\n", &r), 0);
	assert_int_equal(r.kind, 'c');
	assert_string_equal(r.b, "/user.slice");
	/* an origin with spaces is the rest of the line, its newline not in it */
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-5 /my jobs/a b\n", &r), 0);
	assert_string_equal(r.a, "/powersched-run-5");
	assert_string_equal(r.b, "/my jobs/a b");
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-5\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-5 rel\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("subtree /\n", &r), 0);
	assert_int_equal(r.kind, 's');
	assert_int_equal(ps_journal_parse_line("\n", &r), 1);
	assert_int_equal(ps_journal_parse_line("# note\n", &r), 1);
	assert_int_equal(ps_journal_parse_line("task x 7 0-3\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("task 0 7 0-3\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup relative /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("frobnicate 1\n", &r), -EINVAL);
	/* quiet-parked's records */
	assert_int_equal(ps_journal_parse_line("irq 24 0-31\n", &r), 0);
	assert_int_equal(r.kind, 'i');
	assert_int_equal(r.id, 24);
	assert_string_equal(r.a, "0-31");
	assert_int_equal(ps_journal_parse_line("wqmask ffffffff\n", &r), 0);
	assert_int_equal(r.kind, 'w');
	assert_string_equal(r.a, "ffffffff");
	assert_int_equal(ps_journal_parse_line("irqdefault 1,00000000\n", &r), 0);
	assert_int_equal(r.kind, 'd');
	assert_int_equal(ps_journal_parse_line("irq -1 0-3\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("irq 5\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("wqmask ff;rm\n", &r), -EINVAL);
}

static unsigned long long own_starttime(pid_t tid)
{
	char path[64], buf[2048];
	struct ps_live_stat st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	assert_non_null(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_int_equal(ps_live_parse_stat(buf, &st), 0);
	return st.starttime;
}

static void count_log(void *arg, const char *msg)
{
	(void)msg;
	++*(int *)arg;
}

/* The real kernel: narrow our own mask, restore from a journal. */
static void test_restore_real_thread(void **state)
{
	char *dir = make_tmpdir(), path[4096], text[512];
	pid_t tid = gettid();
	cpu_set_t all, one, now;
	int restored = -1, logs = 0, ncpu;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	ncpu = CPU_COUNT(&all);
	if (ncpu < 2) {
		free(dir);
		skip();
		return;
	}
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	/* journal: our thread's old mask (all), a reused TID (wrong start time)
	 * that must not be touched, and a line that is not understood */
	{
		char list[256] = "";
		int c, first = 1;

		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &all)) {
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
					 "%s%d", first ? "" : ",", c);
				first = 0;
			}
		/* the set we applied: the one CPU the thread is on now */
		for (c = 0; !CPU_ISSET(c, &one); c++)
			;
		snprintf(text, sizeof(text),
			 "owner 1 1\napplied %d\ntask %d %llu %s\ntask %d %llu 0\nbogus\n", c,
			 (int)tid, own_starttime(tid), list, (int)tid, own_starttime(tid) + 1);
	}
	write_file(dir, "journal.1", text);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	assert_int_equal(ps_live_restore_journal("/", path, count_log, &logs, &restored), 0);
	assert_int_equal(restored, 1);
	assert_int_equal(logs, 1); /* the bogus line */
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &all));
	/* the journal is gone once read through */
	assert_int_equal(access(path, F_OK), -1);
	remove_tree(dir);
	free(dir);
}

/* A record's mask is the machine's: restored as the CPUs online now, not
 * the list online when it was written (a CPU brought online since was
 * never given back; issue 23 item 9). The journal says CPU 0 alone was
 * online then; the thread must come back on every online CPU. */
static void test_i23_restore_online_now(void **state)
{
	char *dir = make_tmpdir(), path[4096], text[512];
	pid_t tid = gettid();
	cpu_set_t all, one, now;
	int restored = -1, c;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	{
		/* the test's own mask must be the machine's (not under a
		 * taskset): that is what the restore gives back */
		char on[4096] = "";
		unsigned char bits[CPU_SETSIZE];
		cpu_set_t online;
		FILE *f = fopen("/sys/devices/system/cpu/online", "r");

		assert_non_null(f);
		assert_non_null(fgets(on, sizeof(on), f));
		fclose(f);
		assert_int_equal(ps_cpulist_parse(on, bits, CPU_SETSIZE), 0);
		CPU_ZERO(&online);
		for (c = 0; c < CPU_SETSIZE; c++)
			if (bits[c])
				CPU_SET(c, &online);
		if (CPU_COUNT(&all) < 2 || !CPU_EQUAL(&all, &online)) {
			free(dir);
			skip();
			return;
		}
	}
	for (c = 0; !CPU_ISSET(c, &all); c++)
		;
	CPU_ZERO(&one);
	CPU_SET(c, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	snprintf(text, sizeof(text), "owner 1 1\napplied %d\ntask %d %llu %d\n", c, (int)tid,
		 own_starttime(tid), c);
	write_file(dir, "journal.1", text);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	assert_int_equal(ps_live_restore_journal("/", path, NULL, NULL, &restored), 0);
	assert_int_equal(restored, 1);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &all));
	remove_tree(dir);
	free(dir);
}

/* The kernel's hex cpumasks (the workqueue mask, default_smp_affinity):
 * 32-bit words, most significant first. */
static void test_restore_parked_tree(void **state)
{
	char *root = make_tmpdir(), path[4096], buf[64];
	int restored = -1, logs = 0;
	FILE *f;

	(void)state;
	write_file(root, "proc/irq/5/smp_affinity_list", "0-3\n");
	write_file(root, "proc/irq/6/smp_affinity_list", "7\n");
	write_file(root, "proc/irq/7/smp_affinity_list", "0-31\n");
	write_file(root, "proc/irq/default_smp_affinity", "0000000f\n");
	write_file(root, "sys/devices/virtual/workqueue/cpumask", "0000000f\n");
	write_file(root, "state/journal.3",
		   "owner 3 1\napplied 0-3\nwqmask ffffffff\nirqdefault ffffffff\n"
		   "irq 5 0-31\nirq 6 0-31\nirq 7 0-31\nirq 8 0-31\n");
	snprintf(path, sizeof(path), "%s/state/journal.3", root);
	assert_int_equal(ps_live_restore_journal(root, path, count_log, &logs, &restored), 0);
	assert_int_equal(restored, 3); /* IRQ 5, the workqueue mask, the default */
	assert_int_equal(logs, 1);     /* IRQ 6: theirs */
#define READ_BACK(rel, want)                                                      \
	do {                                                                      \
		snprintf(path, sizeof(path), "%s/%s", root, rel);                 \
		f = fopen(path, "r");                                             \
		assert_non_null(f);                                               \
		assert_non_null(fgets(buf, sizeof(buf), f));                      \
		fclose(f);                                                        \
		buf[strcspn(buf, "\n")] = '\0';                                   \
		assert_string_equal(buf, want);                                   \
	} while (0)
	READ_BACK("proc/irq/5/smp_affinity_list", "0-31");
	READ_BACK("proc/irq/6/smp_affinity_list", "7");
	READ_BACK("proc/irq/7/smp_affinity_list", "0-31");
	READ_BACK("sys/devices/virtual/workqueue/cpumask", "ffffffff");
	READ_BACK("proc/irq/default_smp_affinity", "ffffffff");
#undef READ_BACK
	remove_tree(root);
	free(root);
}

/* A tree standing in for cgroupfs: tasks go back to their cgroup. */
static void test_restore_cgroup_tree(void **state)
{
	char *root = make_tmpdir(), path[4096], buf[64] = "";
	int restored = -1, logs = 0;
	FILE *f;

	(void)state;
	write_file(root, "sys/fs/cgroup/cgroup.procs", "");
	/* the origin's name has a space: it is a name a user may choose */
	write_file(root, "sys/fs/cgroup/my jobs/cgroup.procs", "");
	write_file(root, "sys/fs/cgroup/powersched-run-9/cgroup.procs", "4321\n");
	write_file(root, "state/journal.9", "owner 9 1\ncgroup /powersched-run-9 /my jobs\n");
	snprintf(path, sizeof(path), "%s/state/journal.9", root);
	assert_int_equal(ps_live_restore_journal(root, path, count_log, &logs, &restored), 0);
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/my jobs/cgroup.procs", root);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "4321");
	assert_true(logs >= 1); /* what it did, or that rmdir failed on a plain tree */
	remove_tree(root);
	free(root);
}


/*
 * The origin cgroup is gone (a unit's cgroup removed after its stop): the
 * processes go to its nearest parent that exists, else the root, never
 * stay under our cpuset at every retry.
 */
static void test_restore_cgroup_origin_gone(void **state)
{
	char *root = make_tmpdir(), path[4096], buf[64] = "";
	int restored = -1, logs = 0, k;
	const char *journal[] = {
		"owner 9 1\ncgroup /powersched-run-9 /app.slice/gone.service\n",
		"owner 9 1\ncgroup /powersched-run-9 /also/gone\n",
	};
	const char *want[] = { "sys/fs/cgroup/app.slice/cgroup.procs", "sys/fs/cgroup/cgroup.procs" };
	FILE *f;

	(void)state;
	for (k = 0; k < 2; k++) {
		write_file(root, "sys/fs/cgroup/cgroup.procs", "");
		write_file(root, "sys/fs/cgroup/app.slice/cgroup.procs", "");
		write_file(root, "sys/fs/cgroup/powersched-run-9/cgroup.procs", "4321\n");
		write_file(root, "state/journal.9", journal[k]);
		snprintf(path, sizeof(path), "%s/state/journal.9", root);
		assert_int_equal(ps_live_restore_journal(root, path, count_log, &logs, &restored), 0);
		snprintf(path, sizeof(path), "%s/%s", root, want[k]);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		assert_string_equal(buf, "4321");
	}
	remove_tree(root);
	free(root);
}

/* the CPU list of a cpu_set_t */
static void set_list(const cpu_set_t *set, char *out, size_t len)
{
	int c, first = 1;

	out[0] = '\0';
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set)) {
			snprintf(out + strlen(out), len - strlen(out), "%s%d", first ? "" : ",", c);
			first = 0;
		}
}

/* Our thread on one CPU (the first it may use), the whole set in all;
 * 0, or 1 when there are fewer than 2 CPUs. */
static int pin_first(cpu_set_t *all, cpu_set_t *one)
{
	assert_int_equal(sched_getaffinity(0, sizeof(*all), all), 0);
	if (CPU_COUNT(all) < 2)
		return 1;
	CPU_ZERO(one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, all)) {
			CPU_SET(c, one);
			break;
		}
	assert_int_equal(sched_setaffinity(0, sizeof(*one), one), 0);
	return 0;
}

/* issue 14 finding 2: a journal that is a symlink, or writable by others,
 * is not replayed (it named our thread and would have set its mask) */
static void test_f2_journal_not_trusted(void **state)
{
	char *dir = make_tmpdir(), path[4096], link[4096], text[1024], la[256], lo[256];
	pid_t tid = gettid();
	cpu_set_t all, one, now;
	int restored = -1, logs = 0;

	(void)state;
	if (pin_first(&all, &one)) {
		free(dir);
		skip();
		return;
	}
	set_list(&all, la, sizeof(la));
	set_list(&one, lo, sizeof(lo));
	snprintf(text, sizeof(text), "owner 1 1\napplied %s\ntask %d %llu %s\n", lo, (int)tid,
		 own_starttime(tid), la);
	write_file(dir, "target", text);
	snprintf(path, sizeof(path), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/journal.1", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_true(ps_live_restore_journal("/", link, count_log, &logs, &restored) < 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &one));
	assert_int_equal(access(link, F_OK), 0); /* not removed either */
	/* group-writable */
	unlink(link);
	write_file(dir, "journal.2", text);
	snprintf(path, sizeof(path), "%s/journal.2", dir);
	assert_int_equal(chmod(path, 0666), 0);
	assert_true(ps_live_restore_journal("/", path, count_log, &logs, &restored) < 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &one));
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	remove_tree(dir);
	free(dir);
}

/* issue 14 finding 2: record paths are ours (/powersched-*) and never
 * climb out with ".." */
static void test_f2_record_paths(void **state)
{
	struct ps_journal_rec r;

	(void)state;
	assert_int_equal(ps_journal_parse_line("cgroup /../etc /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /etc /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-x/../../a /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-.. /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched- /\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-1 /a/../b\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-1 /a/./b\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-1 /a/..\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("cgroup /powersched-run-1 /a..b/c\n", &r), 0);
	assert_int_equal(ps_journal_parse_line("subtree /a\n", &r), -EINVAL);
	assert_int_equal(ps_journal_parse_line("subtree / shared\n", &r), 0);
	assert_string_equal(r.b, "shared");
	assert_int_equal(ps_journal_parse_line("subtree / other\n", &r), -EINVAL);
}

/* issue 14 finding 5: a torn last line ("task T S 0-1" cut to "... 0") is
 * never acted on */
static void test_f5_torn_last_line(void **state)
{
	char *dir = make_tmpdir(), path[4096], text[1024], la[256];
	pid_t tid = gettid();
	cpu_set_t all, now;
	int restored = -1, logs = 0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	if (CPU_COUNT(&all) < 2) {
		free(dir);
		skip();
		return;
	}
	set_list(&all, la, sizeof(la));
	/* the thread has a set we applied (all), so a whole record would be
	 * put back: the cut one must not */
	snprintf(text, sizeof(text), "owner 1 1\napplied %s\ntask %d %llu 0", la, (int)tid,
		 own_starttime(tid));
	write_file(dir, "journal.1", text);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	assert_int_equal(ps_live_restore_journal("/", path, count_log, &logs, &restored), 0);
	assert_int_equal(restored, 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &all));
	assert_true(logs >= 1); /* named what it skipped */
	remove_tree(dir);
	free(dir);
}

/* issue 9 item 3: a mask the user changed since we set it is not restored
 * over (the journal's applied sets say which masks are ours) */
static void test_user_mask_not_restored(void **state)
{
	char *dir = make_tmpdir(), path[4096], text[1024], la[256];
	pid_t tid = gettid();
	cpu_set_t all, one, now;
	int restored = -1, logs = 0, c;

	(void)state;
	if (pin_first(&all, &one)) {
		free(dir);
		skip();
		return;
	}
	set_list(&all, la, sizeof(la));
	/* we applied "the last CPU"; the thread is on the first: the user's */
	for (c = CPU_SETSIZE - 1; !CPU_ISSET(c, &all); c--)
		;
	snprintf(text, sizeof(text), "owner 1 1\napplied %d\ntask %d %llu %s\n", c, (int)tid,
		 own_starttime(tid), la);
	write_file(dir, "journal.1", text);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	assert_int_equal(ps_live_restore_journal("/", path, count_log, &logs, &restored), 0);
	assert_int_equal(restored, 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	assert_true(CPU_EQUAL(&now, &one));
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	remove_tree(dir);
	free(dir);
}

/* pin_first, then the whole set as a list in la and the CPU we are on in
 * *c0; 1 when there are fewer than 2 CPUs */
static int pin_first_list(cpu_set_t *all, cpu_set_t *one, char *la, size_t len, int *c0)
{
	if (pin_first(all, one))
		return 1;
	set_list(all, la, len);
	for (*c0 = 0; !CPU_ISSET(*c0, one); ++*c0)
		;
	return 0;
}

/* restore_text: write text as a journal, replay it; restored count, and
 * whether our thread is back on every CPU (then it is set there again for
 * the next test either way) */
static int restore_text(const char *text, const cpu_set_t *all, int *back)
{
	char *dir = make_tmpdir(), path[4096];
	cpu_set_t now;
	int restored = -1, logs = 0;

	write_file(dir, "journal.1", text);
	snprintf(path, sizeof(path), "%s/journal.1", dir);
	assert_int_equal(ps_live_restore_journal("/", path, count_log, &logs, &restored), 0);
	assert_int_equal(sched_getaffinity(0, sizeof(now), &now), 0);
	*back = CPU_EQUAL(&now, all);
	assert_int_equal(sched_setaffinity(0, sizeof(*all), all), 0);
	remove_tree(dir);
	free(dir);
	return restored;
}

/* issue 23 item 5: the set in force is the last applied record, however
 * many came before it (the 65th was never read: the mask stayed, the
 * journal was deleted); and only the last sets count, not every set ever
 * applied: a thread on a set of long ago was put there by the user */
static void test_i23_applied_any_number(void **state)
{
	char la[256], *text;
	pid_t tid = gettid();
	cpu_set_t all, one;
	int c0, c1, back = 0, k;
	size_t len = 0, cap = 1 << 16;

	(void)state;
	if (pin_first_list(&all, &one, la, sizeof(la), &c0)) {
		skip();
		return;
	}
	for (c1 = c0 + 1; !CPU_ISSET(c1, &all); c1++)
		;
	text = malloc(cap);
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len, "owner 1 1\ntask %d %llu %s\n", (int)tid,
				own_starttime(tid), la);
	for (k = 0; k < 64; k++)
		len += (size_t)snprintf(text + len, cap - len, "applied %d\n", c1);
	snprintf(text + len, cap - len, "applied %d\n", c0);
	assert_int_equal(restore_text(text, &all, &back), 1);
	assert_true(back);
	/* on c0, applied first; the last two sets were c1: the user's */
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	snprintf(text, cap, "owner 1 1\ntask %d %llu %s\napplied %d\napplied %d\napplied %d\n",
		 (int)tid, own_starttime(tid), la, c0, c1, c1);
	assert_int_equal(restore_text(text, &all, &back), 0);
	assert_false(back);
	free(text);
}

/* issue 23 item 6: a thread let go as the user's (its release record) is
 * not put back from its old task record, though its mask is our set; a
 * task record after the release (ours again) is */
static void test_i23_released_not_restored(void **state)
{
	char la[256], text[1024];
	pid_t tid = gettid();
	unsigned long long st = own_starttime(tid);
	cpu_set_t all, one;
	int c0, back = 0;

	(void)state;
	if (pin_first_list(&all, &one, la, sizeof(la), &c0)) {
		skip();
		return;
	}
	snprintf(text, sizeof(text), "owner 1 1\ntask %d %llu %s\napplied %d\nrelease %d %llu\n",
		 (int)tid, st, la, c0, (int)tid, st);
	assert_int_equal(restore_text(text, &all, &back), 0);
	assert_false(back);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	snprintf(text, sizeof(text),
		 "owner 1 1\ntask %d %llu %s\nrelease %d %llu\ntask %d %llu %s\napplied %d\n",
		 (int)tid, st, la, (int)tid, st, (int)tid, st, la, c0);
	assert_int_equal(restore_text(text, &all, &back), 1);
	assert_true(back);
}

/* issue 23 item 8: fields of any length a machine can have. A record
 * whose CPU list is ~9,700 characters (every even CPU of 4096, the longest
 * list ps_cpulist_format writes) is read whole and acted on; a field
 * longer than a record can hold is not a record (never cut to fit) */
static void test_i23_long_fields(void **state)
{
	static struct ps_journal_rec r;
	char la[256], *list, *text;
	pid_t tid = gettid();
	cpu_set_t all, one;
	int c0, back = 0;
	size_t len = 0, cap = 1 << 16;

	(void)state;
	list = malloc(cap);
	text = malloc(cap);
	assert_non_null(list);
	assert_non_null(text);
	for (int c = 0; c < 4096; c += 2)
		len += (size_t)snprintf(list + len, cap - len, "%s%d", c ? "," : "", c);
	assert_true(len > 9000 && len < PS_JOURNAL_FIELD);
	snprintf(text, cap, "applied %s\n", list);
	assert_int_equal(ps_journal_parse_line(text, &r), 0);
	assert_string_equal(r.a, list);
	snprintf(text, cap, "task 7 8 %s\n", list);
	assert_int_equal(ps_journal_parse_line(text, &r), 0);
	assert_string_equal(r.a, list);
	/* too long for a field: refused whole, not cut */
	memset(list, '1', PS_JOURNAL_FIELD + 10);
	list[PS_JOURNAL_FIELD + 10] = '\0';
	snprintf(text, cap, "applied %s\n", list);
	assert_int_equal(ps_journal_parse_line(text, &r), -EINVAL);
	snprintf(text, cap, "task 7 8 0-3 trailing\n");
	assert_int_equal(ps_journal_parse_line(text, &r), -EINVAL);
	/* a real restore: our thread's record holds every CPU here, then
	 * every odd CPU up to 4095 written out (a long list the kernel takes:
	 * it keeps the CPUs that exist) */
	if (pin_first_list(&all, &one, la, sizeof(la), &c0)) {
		free(list);
		free(text);
		skip();
		return;
	}
	len = (size_t)snprintf(list, cap, "%s", la);
	for (int c = 1; c < 4096; c += 2)
		if (c >= CPU_SETSIZE || !CPU_ISSET(c, &all))
			len += (size_t)snprintf(list + len, cap - len, ",%d", c);
	assert_true(len > 1200);
	snprintf(text, cap, "owner 1 1\napplied %d\ntask %d %llu %s\n", c0, (int)tid,
		 own_starttime(tid), list);
	assert_int_equal(restore_text(text, &all, &back), 1);
	assert_true(back);
	free(list);
	free(text);
}

/* issue 14 finding 6: a restore that failed (the cgroup could not be
 * removed) keeps its record; cpuset stays on at the root while another
 * instance's cgroup is there */
static void test_f6_failed_restore_kept(void **state)
{
	char *root = make_tmpdir(), path[4096], buf[256] = "";
	int restored = -1, logs = 0;
	FILE *f;

	(void)state;
	write_file(root, "sys/fs/cgroup/cgroup.procs", "");
	write_file(root, "sys/fs/cgroup/cgroup.subtree_control", "cpuset\n");
	write_file(root, "sys/fs/cgroup/powersched-run-2/cgroup.procs", "");
	/* a plain directory holding a file: rmdir fails */
	write_file(root, "sys/fs/cgroup/powersched-run-9/cgroup.procs", "");
	write_file(root, "state/journal.9", "owner 9 1\nsubtree /\ncgroup /powersched-run-9 /\n");
	snprintf(path, sizeof(path), "%s/state/journal.9", root);
	assert_int_equal(ps_live_restore_journal(root, path, count_log, &logs, &restored), 0);
	f = fopen(path, "r");
	assert_non_null(f); /* kept */
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "cgroup /powersched-run-9 /\n"));
	snprintf(path, sizeof(path), "%s/sys/fs/cgroup/cgroup.subtree_control", root);
	f = fopen(path, "r");
	assert_non_null(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, "cpuset\n"); /* no -cpuset written */
	remove_tree(root);
	free(root);
}

/* issue 14 finding 10: the config parser is strict (size, NUL, one value,
 * name length) and nothing of a bad file is used */

/*
 * ps_live_guarded_write(): on a kernel before 6.2, turning cpuset on or
 * off in the root's subtree_control resets the masks of the tasks below to
 * the root cpuset's CPUs. The write's reset is put back; a mask someone
 * changed to anything else during the write (a user's taskset) is theirs
 * and kept. The write is the test's: it makes both happen, on real tasks.
 */
static pid_t gw_kid[4];
static cpu_set_t gw_during[4];
static int gw_change[4];

static int gw_write(const char *path, const char *text)
{
	int i;

	(void)path;
	(void)text;
	for (i = 0; i < 4; i++)
		if (gw_change[i] && sched_setaffinity(gw_kid[i], sizeof(cpu_set_t), &gw_during[i]))
			return -errno;
	return 0;
}

static void two_cpus(cpu_set_t *s, int a, int b)
{
	CPU_ZERO(s);
	CPU_SET(a, s);
	if (b >= 0)
		CPU_SET(b, s);
}

static void test_guarded_write_user_change_kept(void **state)
{
	struct ps_live_sysops ops = ps_live_sys_kernel;
	char root[] = "/tmp/ps-gw-XXXXXX", path[512], rel[512];
	cpu_set_t all, before[4], got;
	int c0 = -1, c1 = -1, i, logs = 0;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &all)) {
			if (c0 < 0)
				c0 = i;
			else if (c1 < 0)
				c1 = i;
		}
	if (c1 < 0)
		skip(); /* one CPU: no mask to change */
	assert_non_null(mkdtemp(root));
	/* what the reset gives: the root cpuset's CPUs, here (no cgroup2
	 * root under this root) the online ones: c0 and c1 */
	snprintf(rel, sizeof(rel), "%d,%d\n", c0, c1);
	write_file(root, "sys/devices/system/cpu/online", rel);
	/* a kernel that resets (before 6.2) */
	write_file(root, "proc/sys/kernel/osrelease", "6.1.0-41-amd64\n");
	two_cpus(&before[0], c0, -1); /* reset to c0,c1: put back to c0 */
	two_cpus(&gw_during[0], c0, c1);
	two_cpus(&before[1], c0, c1); /* a user's taskset to c1: theirs */
	two_cpus(&gw_during[1], c1, -1);
	two_cpus(&before[2], c1, -1); /* a user's taskset to c0: theirs */
	two_cpus(&gw_during[2], c0, -1);
	two_cpus(&before[3], c0, -1); /* untouched: stays */
	for (i = 0; i < 4; i++) {
		gw_change[i] = i < 3;
		gw_kid[i] = fork();
		assert_true(gw_kid[i] >= 0);
		if (!gw_kid[i]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
		assert_int_equal(sched_setaffinity(gw_kid[i], sizeof(cpu_set_t), &before[i]), 0);
		/* the fake root's /proc lists these four tasks alone */
		snprintf(path, sizeof(path), "mkdir -p %s/proc/%d/task/%d", root, (int)gw_kid[i],
			 (int)gw_kid[i]);
		assert_int_equal(system(path), 0);
	}
	ops.guarded_file_write = gw_write;
	ps_live_sys = &ops;
	i = ps_live_guarded_write(root, "/nonexistent/cgroup.subtree_control", "+cpuset",
				  count_log, &logs);
	ps_live_sys = &ps_live_sys_kernel;
	assert_int_equal(i, 0);
	assert_int_equal(sched_getaffinity(gw_kid[0], sizeof(got), &got), 0);
	assert_true(CPU_EQUAL(&got, &before[0]));
	assert_int_equal(sched_getaffinity(gw_kid[1], sizeof(got), &got), 0);
	assert_true(CPU_EQUAL(&got, &gw_during[1]));
	assert_int_equal(sched_getaffinity(gw_kid[2], sizeof(got), &got), 0);
	assert_true(CPU_EQUAL(&got, &gw_during[2]));
	assert_int_equal(sched_getaffinity(gw_kid[3], sizeof(got), &got), 0);
	assert_true(CPU_EQUAL(&got, &before[3]));
	assert_int_equal(logs, 2); /* one put back, two left as theirs */
	/* 6.2 and later reset nothing: every change is someone's, even one
	 * to the root cpuset's CPUs, and nothing is said */
	write_file(root, "proc/sys/kernel/osrelease", "6.2.0\n");
	for (i = 0; i < 4; i++)
		assert_int_equal(sched_setaffinity(gw_kid[i], sizeof(cpu_set_t), &before[i]), 0);
	ps_live_sys = &ops;
	i = ps_live_guarded_write(root, "/nonexistent/cgroup.subtree_control", "+cpuset",
				  count_log, &logs);
	ps_live_sys = &ps_live_sys_kernel;
	assert_int_equal(i, 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(sched_getaffinity(gw_kid[i], sizeof(got), &got), 0);
		assert_true(CPU_EQUAL(&got, gw_change[i] ? &gw_during[i] : &before[i]));
	}
	assert_int_equal(logs, 2);
	for (i = 0; i < 4; i++) {
		kill(gw_kid[i], SIGKILL);
		waitpid(gw_kid[i], NULL, 0);
	}
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_lines),
		cmocka_unit_test(test_guarded_write_user_change_kept),
		cmocka_unit_test(test_restore_real_thread),
		cmocka_unit_test(test_restore_cgroup_tree),
		cmocka_unit_test(test_restore_cgroup_origin_gone),
		cmocka_unit_test(test_restore_parked_tree),
		cmocka_unit_test(test_f2_journal_not_trusted),
		cmocka_unit_test(test_f2_record_paths),
		cmocka_unit_test(test_f5_torn_last_line),
		cmocka_unit_test(test_user_mask_not_restored),
		cmocka_unit_test(test_i23_applied_any_number),
		cmocka_unit_test(test_i23_released_not_restored),
		cmocka_unit_test(test_i23_long_fields),
		cmocka_unit_test(test_f6_failed_restore_kept),
		cmocka_unit_test(test_i23_restore_online_now),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
