// SPDX-License-Identifier: MIT
/*
 * DOC: powersched status
 *
 * Reads the state file each run and daemon rewrites every interval
 * (state.PID.json in its state directory) and prints one block per
 * instance, the way systemctl status does, or the files as a JSON array
 * (--json, the files' objects as they are, with the uid and user whose
 * directory held them). Without --state-dir it reads the caller's own
 * directory and, for a user, root's as well when it can; root reads its
 * own and every ordinary user's (/run/user/UID/powersched, or the
 * /tmp/powersched-UID fallback), without following a link, each instance
 * shown with its user. Exit status 3 when an instance shown is not
 * running (killed, its files left behind), as systemctl status.
 * What the state file does not hold is found from the system: whether the
 * instance is alive (the journal's owner line against /proc/PID/stat), for
 * how long, which command a run manages (its child), and how many packages
 * and cores the allowed CPUs span (this machine's topology).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <locale.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ps/live.h"

#define MAX_CPUS 4096
/* an instance shown is not running (systemctl status: "program is not
 * running"; LSB's init-script status code) */
#define STATUS_EXIT_NOT_RUNNING 3

static void usage_status(FILE *f)
{
	fputs("Usage:\n"
	      " powersched status [--json] [--state-dir DIR]\n"
	      "\n"
	      "What each running powersched (run or daemon) is doing, one block per\n"
	      "instance: what it manages, the resolved policy and why, the allowed\n"
	      "CPUs out of the online ones, the packages and cores they span, the\n"
	      "demand, mask changes, energy (measured or modeled) and uptime.\n"
	      "\n"
	      "Without --state-dir: root reads /run/powersched and every user's\n"
	      "state directory (/run/user/UID/powersched), naming the user; a user\n"
	      "reads their own (see powersched run --help) and root's, when\n"
	      "readable, so the system daemon shows too.\n"
	      "\n"
	      "Options:\n"
	      " -j, --json            the state files as a JSON array, as they are,\n"
	      "                       with the uid and user whose directory held each\n"
	      "     --state-dir DIR   read only this directory\n"
	      " -h, --help            display this help\n"
	      "\n"
	      "Exit status: 0 every instance shown is running (or none is); 2 bad\n"
	      "usage or a --state-dir that cannot be read; 3 an instance shown is\n"
	      "not running (killed: its files left for the next run to put back).\n",
	      f);
}

struct status_ctx {
	const char *bullet;
	struct ps_topo *topo; /* this machine, loaded at the first need */
	int topo_tried;
	int n;                 /* instances shown */
	int dead;              /* of them, not running */
	const char *user;      /* whose directory, when not the caller's, or NULL */
	const char *alive_dir; /* the directory's journals (as opened), or NULL: dir */
};

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

/* ", 12 with the set busy, 2 at a start or change": why intervals read the
 * load (the state file's scan_why, in its order), or "" */
static void scan_reasons(struct json_object *o, char *buf, size_t len)
{
	static const struct {
		const char *key, *text;
	} why[] = {
		{ "change", "at a start or change" },
		{ "birth", "at a birth" },
		{ "forced", "as the periodic look" },
		{ "saturated", "with the set busy" },
		{ "own_load", "as its own load moved" },
		{ "lag", "with the placement catching up" },
		{ "machine_load", "as the machine's load moved" },
		{ "demand", "as the demand moved" },
	};
	struct json_object *w, *v;
	size_t i, at = 0;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, "scan_why", &w) || !json_object_is_type(w, json_type_object))
		return;
	for (i = 0; i < sizeof(why) / sizeof(why[0]) && at < len; i++) {
		int n;

		if (!json_object_object_get_ex(w, why[i].key, &v) ||
		    (n = json_object_get_int(v)) <= 0)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s %d %s", at ? "," : ":", n, why[i].text);
	}
}

/* append to buf (NUL-terminated, never past len); control characters of
 * @s shown as ? */
static void app(char *buf, size_t len, const char *s)
{
	size_t at = strlen(buf);

	for (; *s && at + 1 < len; s++)
		buf[at++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	buf[at] = '\0';
}

/* "include-comm a b; exclude-cgroup /x; containers excluded": the
 * daemon's filters from the state file, or "" when the file has none (an
 * older powersched's) */
static void filters_text(struct json_object *o, char *buf, size_t len)
{
	static const struct {
		const char *key, *text;
	} lists[] = {
		{ "include_comm", "include-comm" },
		{ "exclude_comm", "exclude-comm" },
		{ "include_cgroup", "include-cgroup" },
		{ "exclude_cgroup", "exclude-cgroup" },
	};
	struct json_object *fl, *a, *v;
	size_t i, k, n;

	buf[0] = '\0';
	if (!json_object_object_get_ex(o, "filters", &fl) || !json_object_is_type(fl, json_type_object))
		return;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (!json_object_object_get_ex(fl, lists[i].key, &a) ||
		    !json_object_is_type(a, json_type_array) || !(n = json_object_array_length(a)))
			continue;
		app(buf, len, lists[i].text);
		for (k = 0; k < n; k++) {
			const char *e = json_object_get_string(json_object_array_get_idx(a, k));

			app(buf, len, " ");
			app(buf, len, e ? e : "");
		}
		app(buf, len, "; ");
	}
	if (json_object_object_get_ex(fl, "exclude_containers", &v))
		app(buf, len, json_object_get_boolean(v) ? "containers excluded" : "containers included");
}

static double jnum(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_double(v);
}

/* "1h 2min", "3min 4s", "5.2s" */
static void fmt_dur(double s, char *out, size_t len)
{
	long t = (long)s;

	if (s < 60)
		snprintf(out, len, "%.1fs", s);
	else if (t < 3600)
		snprintf(out, len, "%ldmin %lds", t / 60, t % 60);
	else if (t < 86400)
		snprintf(out, len, "%ldh %ldmin", t / 3600, t % 3600 / 60);
	else
		snprintf(out, len, "%ldd %ldh", t / 86400, t % 86400 / 3600);
}

static double uptime_of(unsigned long long start)
{
	char buf[128];
	long hz = sysconf(_SC_CLK_TCK);

	if (ps_cli_read_text("/proc/uptime", buf, sizeof(buf)) <= 0)
		return -1;
	if (hz <= 0)
		hz = 100;
	return strtod(buf, NULL) - (double)start / (double)hz;
}

/* The process a run manages with its descendants: the one its state file
 * names (its command, or the process it attached to), while that is there,
 * else the run's child; and its command line. */
static long child_of(long pid, long named, char *cmd, size_t len)
{
	char path[300], buf[1024];
	struct ps_live_stat st;
	struct dirent *de;
	long found = 0;
	DIR *d = NULL;

	cmd[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld", named);
	if (named > 0 && !access(path, F_OK))
		found = named;
	else
		d = opendir("/proc");
	while (d && !found && (de = readdir(d))) {
		long p = strtol(de->d_name, NULL, 10);

		if (p <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", p);
		if (ps_cli_read_text(path, buf, sizeof(buf)) > 0 && !ps_live_parse_stat(buf, &st) &&
		    st.ppid == pid)
			found = p;
	}
	if (d)
		closedir(d);
	if (found) {
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "/proc/%ld/cmdline", found);
		f = fopen(path, "re");
		n = f ? fread(cmd, 1, len - 1, f) : 0;
		if (f)
			fclose(f);
		cmd[n] = '\0';
		/* arguments joined by spaces, control characters shown as '?' */
		while (n && !cmd[n - 1])
			n--;
		cmd[n] = '\0';
		for (size_t i = 0; i < n; i++)
			if (!cmd[i])
				cmd[i] = ' ';
			else if ((unsigned char)cmd[i] < 0x20 || cmd[i] == 0x7f)
				cmd[i] = '?';
		if (n > 60)
			snprintf(cmd + 57, len - 57, "...");
	}
	return found;
}

/* Packages and cores the allowed CPUs span, on this machine's topology. */
static int span(struct status_ctx *c, const char *list, int *npk, int *ncore)
{
	unsigned char *bits = calloc(MAX_CPUS, 1), *pk = NULL, *co = NULL;
	int i, r = -1;

	*npk = *ncore = 0;
	if (!c->topo_tried) {
		c->topo_tried = 1;
		if (ps_topo_load(NULL, &c->topo))
			c->topo = NULL;
	}
	if (!bits || !c->topo || ps_cpulist_parse(list, bits, MAX_CPUS))
		goto out;
	pk = calloc((size_t)c->topo->nr_pus + 1, 1);
	co = calloc((size_t)c->topo->nr_pus + 1, 1);
	if (!pk || !co)
		goto out;
	for (i = 0; i < c->topo->nr_pus; i++) {
		const struct ps_pu *u = &c->topo->pus[i];
		int p = u->package >= 0 && u->package < c->topo->nr_pus ? u->package : 0;
		int k = u->core >= 0 && u->core < c->topo->nr_pus ? u->core : i;

		if (u->os_index >= MAX_CPUS || !bits[u->os_index])
			continue;
		*npk += !pk[p];
		*ncore += !co[k];
		pk[p] = co[k] = 1;
	}
	r = 0;
out:
	free(bits);
	free(pk);
	free(co);
	return r;
}

static int count_cpus(const char *list)
{
	unsigned char *bits = calloc(MAX_CPUS, 1);
	int i, n = 0;

	if (bits && !ps_cpulist_parse(list, bits, MAX_CPUS))
		for (i = 0; i < MAX_CPUS; i++)
			n += bits[i];
	free(bits);
	return n;
}

#define LINE(label, ...) do { printf("%13s ", label); printf(__VA_ARGS__); putchar('\n'); } while (0)

static const char *plural(double n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void print_block(struct status_ctx *c, const char *dir, const char *file,
			struct json_object *o)
{
	struct json_object *scx;
	const char *name = jstr(o, "name"), *pol = jstr(o, "policy");
	const char *req = jstr(o, "requested"), *why = jstr(o, "why");
	const char *allowed = jstr(o, "allowed"), *online = jstr(o, "online");
	long pid = (long)jnum(o, "pid");
	double interval = jnum(o, "interval_s"), energy = jnum(o, "energy_j");
	int intervals = (int)jnum(o, "intervals"), threads = (int)jnum(o, "threads");
	int nmask = (int)jnum(o, "mask_changes"), na = count_cpus(allowed);
	int no = count_cpus(online), npk, ncore, alive;
	unsigned long long start;
	struct json_object *arr;
	char cmd[128], dur[32], buf[512];
	double up, acc;

	alive = ps_cli_instance_alive(c->alive_dir ? c->alive_dir : dir, pid, &start);
	printf("%s%s powersched %s, pid %ld\n", c->n ? "\n" : "", c->bullet, name, pid);
	if (c->user)
		LINE("User:", "%s", c->user);
	up = alive ? uptime_of(start) : -1;
	if (up >= 0) {
		fmt_dur(up, dur, sizeof(dur));
		int scans = (int)jnum(o, "scans");
		char reasons[400];

		scan_reasons(o, reasons, sizeof(reasons));
		LINE("State:", "active for %s (%d interval%s of %.3g s: %d read the load%s%s",
		     dur, intervals, intervals == 1 ? "" : "s", interval, scans, reasons,
		     scans < intervals ? "; the others were quiet)" : ")");
	} else {
		LINE("State:", "not running: it did not exit cleanly (killed?); the next "
		     "run or daemon with this state directory puts back what it changed");
		c->dead++;
	}
	if (!strcmp(name, "daemon")) {
		char filt[1024];
		struct json_object *u;
		long uid = json_object_object_get_ex(o, "euid", &u) ? json_object_get_int(u) : 0;
		struct passwd *pw = uid > 0 ? getpwuid((uid_t)uid) : NULL;

		if (uid > 0)
			LINE("Manages:", "the eligible threads of user %s's processes (%d thread%s "
			     "scanned)", pw ? pw->pw_name : "?", threads, plural(threads, "", "s"));
		else
			LINE("Manages:", "the eligible threads of the whole system (%d thread%s "
			     "scanned)", threads, plural(threads, "", "s"));
		filters_text(o, filt, sizeof(filt));
		if (filt[0])
			LINE("Filters:", "%s", filt);
	} else {
		struct json_object *a;
		int attached = json_object_object_get_ex(o, "attached", &a) &&
			       json_object_get_boolean(a);
		long child = alive ? child_of(pid, (long)jnum(o, "child"), cmd, sizeof(cmd)) : 0;

		if (child && attached)
			LINE("Manages:", "pid %ld (%s), attached to with --pid, and its descendants: "
			     "%d thread%s", child, cmd[0] ? cmd : "?", threads, plural(threads, "", "s"));
		else if (child)
			LINE("Manages:", "pid %ld (%s) and its descendants: %d thread%s", child,
			     cmd[0] ? cmd : "?", threads, plural(threads, "", "s"));
		else
			LINE("Manages:", "a command and its descendants: %d thread%s", threads,
			     plural(threads, "", "s"));
	}
	if (!strcmp(req, pol))
		LINE("Policy:", "%s%s%s%s", pol, why[0] ? " (" : "", why, why[0] ? ")" : "");
	else
		LINE("Policy:", "%s, resolved by %s: %s", pol, req, why[0] ? why : "?");
	LINE("Backend:", "%s", !strcmp(jstr(o, "backend"), "cgroup") ? "cgroup v2 cpuset" :
	     !strcmp(jstr(o, "backend"), "scx") ?
		     "scx (sched_ext: the policy places each wakeup in the kernel)" :
		     "affinity (sched_setaffinity per thread)");
	if (json_object_object_get_ex(o, "scx", &scx) && json_object_is_type(scx, json_type_object)) {
		/* the kernel's word, and how ours ended if it did */
		int fell = json_object_get_boolean(json_object_object_get(scx, "fell_back"));

		if (jstr(scx, "exit")[0])
			LINE("Scheduler:", "%s; sched_ext %s now%s%s", jstr(scx, "exit"),
			     jstr(scx, "state"), fell ? ", fell back to " : "",
			     fell ? jstr(scx, "fallback") : "");
		else
			LINE("Scheduler:", "sched_ext %s, %s loaded (on an error: %s)",
			     jstr(scx, "state"), jstr(scx, "ops")[0] ? jstr(scx, "ops") : "none",
			     jstr(scx, "fallback"));
	}
	if (!strcmp(jstr(o, "births"), "proc connector"))
		LINE("New tasks:", "from the proc connector (%.0f messages read, %.0f lost)",
		     jnum(o, "proc_events"), jnum(o, "proc_events_lost"));
	else if (jstr(o, "births")[0])
		LINE("New tasks:", "from /proc/loadavg's last PID and /proc/TID/status");
	LINE("Allowed CPUs:", "%s of %s (%d of %d)", allowed[0] ? allowed : "none",
	     online[0] ? online : "?", na, no);
	if (!span(c, allowed, &npk, &ncore))
		LINE("Active:", "%d package%s, %d core%s", npk, plural(npk, "", "s"), ncore,
		     plural(ncore, "", "s"));
	buf[0] = '\0';
	if (json_object_object_get_ex(o, "load_per_package", &arr) &&
	    json_object_is_type(arr, json_type_array)) {
		size_t k, n = json_object_array_length(arr), used = 0;

		for (k = 0; k < n && used < sizeof(buf) - 40; k++)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%.2f",
						 k ? ", " : "; per package: ",
						 json_object_get_double(
							 json_object_array_get_idx(arr, k)));
	}
	LINE("Demand:", "%.2f CPUs%s", jnum(o, "demand"), buf);
	LINE("Mask changes:", "%d", nmask);
	acc = intervals > 1 ? (intervals - 1) * interval : 0;
	if (acc > 0)
		LINE("Energy:", "%.1f J in %.1f s (mean %.1f W), %s", energy, acc, energy / acc,
		     jstr(o, "energy"));
	else
		LINE("Energy:", "%.1f J, %s", energy, jstr(o, "energy"));
	if (json_object_object_get_ex(o, "recent", &arr) &&
	    json_object_is_type(arr, json_type_array)) {
		size_t k, n = json_object_array_length(arr);

		/* the last 3 mask changes, oldest first */
		for (k = n > 3 ? n - 3 : 0; k < n; k++) {
			struct json_object *r = json_object_array_get_idx(arr, k);
			int tasks = (int)jnum(r, "tasks"), nr = (int)jnum(r, "nr_allowed");

			LINE(k == (n > 3 ? n - 3 : 0) ? "Last changes:" : "",
			     "at %.1fs: %d task%s, demand %.2f: allowed %s (%d PU%s)",
			     jnum(r, "t_s"), tasks, plural(tasks, "", "s"), jnum(r, "demand"),
			     jstr(r, "allowed"), nr, plural(nr, "", "s"));
		}
	}
	LINE("State file:", "%s/%s", dir, file);
	c->n++;
}

/*
 * Every state file of the directory open at @dfd (@dir: its path), in
 * order: a block each, or with @json its object with the uid and user
 * whose directory it is added. Instances found not running are counted in
 * c->dead. Return: instances shown, -errno when the directory cannot be
 * read.
 */
static int show_fd(struct status_ctx *c, int dfd, const char *dir, int json)
{
	char **names, user[128], uname[64] = "", fddir[64];
	struct passwd *pw;
	struct stat st;
	int i, n, shown = 0;

	if (fstat(dfd, &st))
		return -errno;
	n = ps_cli_state_files(dfd, &names);
	if (n < 0)
		return n;
	pw = getpwuid(st.st_uid);
	if (pw)
		snprintf(uname, sizeof(uname), "%s", pw->pw_name);
	if (pw)
		snprintf(user, sizeof(user), "%s (uid %u)", uname, (unsigned)st.st_uid);
	else
		snprintf(user, sizeof(user), "uid %u (no such user)", (unsigned)st.st_uid);
	/* the journals beside the files, in the directory opened, whatever
	 * its path names by now */
	snprintf(fddir, sizeof(fddir), "/proc/self/fd/%d", dfd);
	c->alive_dir = fddir;
	c->user = st.st_uid != geteuid() ? user : NULL;
	for (i = 0; i < n; i++) {
		struct json_object *o = ps_cli_state_load(dfd, names[i]);

		if (o) {
			if (json) {
				unsigned long long start;
				struct json_object *pid;

				if (!json_object_object_get_ex(o, "pid", &pid) ||
				    !ps_cli_instance_alive(fddir, (long)json_object_get_int64(pid),
							   &start))
					c->dead++;
				json_object_object_add(o, "uid", json_object_new_int64(st.st_uid));
				json_object_object_add(o, "user",
						       json_object_new_string(uname));
				printf("%s%s", c->n ? "," : "",
				       json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							JSON_C_TO_STRING_NOSLASHESCAPE));
				c->n++;
			} else {
				print_block(c, dir, names[i], o);
			}
			shown++;
		}
		json_object_put(o);
	}
	ps_cli_state_files_free(names, n);
	c->alive_dir = NULL;
	c->user = NULL;
	return shown;
}

/* The directory @dir (following links: the caller's own choice, or root's
 * /run/powersched), shown. Return: as show_fd(). */
static int show_dir(struct status_ctx *c, const char *dir, int json)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r;

	if (dfd < 0)
		return -errno;
	r = show_fd(c, dfd, dir, json);
	close(dfd);
	return r;
}

/* UIDs, ascending */
static int cmp_uid(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Root: the state directories of ordinary users' runs (ps_cli_state_dir():
 * /run/user/UID/powersched, or /tmp/powersched-UID when a user has no
 * runtime directory), each opened a step at a time without following a
 * symbolic link, and shown only when it is a directory of UID's that no
 * one else may write in (as a user's own status would read it). A user
 * whose $XDG_RUNTIME_DIR is elsewhere is not found. Return: instances shown.
 */
static int show_user_dirs(struct status_ctx *c, int json)
{
	static const struct {
		const char *base, *prefix, *sub;
	} where[] = {
		{ "/run/user", "", "powersched" },
		{ "/tmp", "powersched-", NULL },
	};
	const int fl = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	size_t w;
	int shown = 0;

	for (w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		size_t plen = strlen(where[w].prefix);
		unsigned long uids[1024];
		int base = open(where[w].base, fl), n = 0, i;
		struct dirent *de;
		DIR *d;

		if (base < 0)
			continue;
		d = fdopendir(dup(base));
		while (d && (de = readdir(d)) && n < (int)(sizeof(uids) / sizeof(uids[0]))) {
			const char *u = de->d_name + plen;
			char *end;

			if (strncmp(de->d_name, where[w].prefix, plen) || !isdigit((unsigned char)*u))
				continue;
			errno = 0;
			uids[n] = strtoul(u, &end, 10);
			if (!errno && !*end && uids[n] != 0 && uids[n] < (uid_t)-1)
				n++;
		}
		if (d)
			closedir(d);
		qsort(uids, (size_t)n, sizeof(uids[0]), cmp_uid);
		for (i = 0; i < n; i++) {
			char name[64], path[256];
			struct stat st;
			int fd, sub;

			snprintf(name, sizeof(name), "%s%lu", where[w].prefix, uids[i]);
			fd = openat(base, name, fl);
			if (fd >= 0 && where[w].sub) {
				sub = openat(fd, where[w].sub, fl);
				close(fd);
				fd = sub;
			}
			if (fd < 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s%s%s", where[w].base, name,
				 where[w].sub ? "/" : "", where[w].sub ? where[w].sub : "");
			if (!fstat(fd, &st) && st.st_uid == (uid_t)uids[i] && !(st.st_mode & 022)) {
				int r = show_fd(c, fd, path, json);

				shown += r > 0 ? r : 0;
			}
			close(fd);
		}
		close(base);
	}
	return shown;
}

int ps_cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct status_ctx c = { .bullet = "*" };
	const char *dirs[2] = { NULL, NULL }, *given = NULL;
	char own[1024], none[2200] = "";
	int json = 0, ch, k, r, unreadable = -1, users = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "+:jh", opts, NULL)) != -1) {
		switch (ch) {
		case 'j': json = 1; break;
		case 'S': given = optarg; break;
		case 'h': usage_status(stdout); return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("status", ch, argv, opts);
		}
	}
	if (optind < argc) {
		ps_err("status: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	if (given) {
		/* the caller named it: one that cannot be read is an error, not
		 * "nothing is running" */
		int dfd;

		if (ps_cli_check_dir("status", "--state-dir", given))
			return PS_EXIT_USAGE;
		dfd = open(given, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0 || access(given, R_OK | X_OK)) {
			ps_err("status: --state-dir '%s': %s", given, strerror(errno));
			if (dfd >= 0)
				close(dfd);
			return PS_EXIT_USAGE;
		}
		close(dfd);
		dirs[0] = given;
	} else if (!geteuid()) {
		dirs[0] = PS_SYSTEM_STATE_DIR;
		users = 1;
	} else {
		/* the user's own (one that is not, is not read), then root's */
		r = ps_cli_state_dir(own, sizeof(own), 0);
		if (r == -EPERM || r == -ENOTDIR) {
			dirs[0] = PS_SYSTEM_STATE_DIR;
		} else {
			dirs[0] = own;
			dirs[1] = PS_SYSTEM_STATE_DIR;
		}
	}
	setlocale(LC_CTYPE, "");
	if (!strcmp(nl_langinfo(CODESET), "UTF-8"))
		c.bullet = "\u25cf";
	if (json)
		printf("[");
	for (k = 0; k < 2 && dirs[k]; k++) {
		r = show_dir(&c, dirs[k], json);
		if (r == -EACCES)
			unreadable = k;
		snprintf(none + strlen(none), sizeof(none) - strlen(none), "%s%s",
			 k ? " or " : "", dirs[k]);
	}
	if (users) {
		show_user_dirs(&c, json);
		snprintf(none + strlen(none), sizeof(none) - strlen(none),
			 " or a user's /run/user/UID/powersched");
	}
	if (json)
		printf("]\n");
	else if (!c.n)
		printf("no powersched is running (no state in %s)\n", none);
	if (!json && unreadable >= 0)
		printf("(%s is not readable by this user: its instances not shown)\n",
		       dirs[unreadable]);
	ps_topo_free(c.topo);
	return c.dead ? STATUS_EXIT_NOT_RUNNING : PS_EXIT_OK;
}
