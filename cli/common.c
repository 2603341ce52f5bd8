// SPDX-License-Identifier: MIT
/*
 * DOC: helpers shared by the subcommands
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ps/live.h"

void ps_err(const char *fmt, ...)
{
	va_list ap;

	fputs("powersched: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* the long option @arg (without "--" and any "=value") names: exactly, or
 * as the prefix of one; NULL when none or several (*nmatch: how many) */
static const struct option *long_opt(const char *arg, const struct option *opts,
				     int *nmatch)
{
	size_t len = strcspn(arg, "=");
	const struct option *o, *found = NULL;

	*nmatch = 0;
	for (o = opts; o->name; o++) {
		if (strncmp(o->name, arg, len))
			continue;
		if (strlen(o->name) == len) {
			*nmatch = 1;
			return o;
		}
		found = o;
		++*nmatch;
	}
	return *nmatch == 1 ? found : NULL;
}

int ps_cli_bad_option(const char *cmd, int c, char *const argv[],
		      const struct option *opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int islong = !strncmp(arg, "--", 2) && arg[2], nmatch = 0;
	const struct option *o = islong ? long_opt(arg + 2, opts, &nmatch) : NULL;
	int len = islong ? (int)strcspn(arg, "=") : 0;

	/* glibc: optopt is 0 for a long option it could not name, else the
	 * option's character (a short option's, or the long option's val);
	 * a short option's error can leave optind on the argument before it */
	if (islong && !optopt && nmatch > 1) {
		char list[256] = "";
		size_t at = 0;

		for (o = opts; o->name && at < sizeof(list); o++)
			if (!strncmp(o->name, arg + 2, (size_t)len - 2))
				at += (size_t)snprintf(list + at, sizeof(list) - at, "%s--%s",
						       at ? ", " : "", o->name);
		ps_err("%s: option '%.*s' is ambiguous (%s)", cmd, len, arg, list);
	} else if (islong && !optopt) {
		ps_err("%s: unknown option '%.*s' (see powersched %s --help)", cmd, len, arg,
		       cmd);
	} else if (o && o->val == optopt && c == ':') {
		ps_err("%s: option '--%s' needs a value (see powersched %s --help)", cmd,
		       o->name, cmd);
	} else if (o && o->val == optopt && arg[len] == '=') {
		ps_err("%s: option '--%s' takes no value, got '%s'", cmd, o->name, arg);
	} else if (c == ':') {
		ps_err("%s: option '-%c' needs a value (see powersched %s --help)", cmd, optopt,
		       cmd);
	} else if (optopt > 0x20 && optopt < 0x7f) {
		ps_err("%s: unknown option '-%c' (see powersched %s --help)", cmd, optopt, cmd);
	} else {
		ps_err("%s: unknown option '%s' (see powersched %s --help)", cmd, arg, cmd);
	}
	return PS_EXIT_USAGE;
}

int ps_cli_check_dir(const char *cmd, const char *what, const char *path)
{
	struct stat st;

	if (!*path) {
		ps_err("%s: %s '': an empty path", cmd, what);
		return PS_EXIT_USAGE;
	}
	if (stat(path, &st)) {
		ps_err("%s: %s '%s': %s", cmd, what, path, strerror(errno));
		return PS_EXIT_USAGE;
	}
	if (!S_ISDIR(st.st_mode)) {
		ps_err("%s: %s '%s': not a directory", cmd, what, path);
		return PS_EXIT_USAGE;
	}
	return 0;
}

int ps_cli_check_out(const char *cmd, const char *what, const char *path)
{
	char copy[PATH_MAX], *dir;
	struct stat st;

	if (!*path || strlen(path) >= sizeof(copy)) {
		ps_err("%s: %s '%.200s': %s", cmd, what, path,
		       *path ? "the path is too long" : "an empty path");
		return PS_EXIT_USAGE;
	}
	if (!lstat(path, &st) && (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
		ps_err("%s: %s '%s': %s", cmd, what, path, S_ISDIR(st.st_mode) ?
		       "a directory" : "a symbolic link: not followed");
		return PS_EXIT_USAGE;
	}
	strcpy(copy, path);
	dir = dirname(copy);
	if (stat(dir, &st))
		; /* errno says why */
	else if (!S_ISDIR(st.st_mode))
		errno = ENOTDIR;
	else if (!access(dir, W_OK | X_OK))
		return 0;
	ps_err("%s: %s '%s': directory '%s': %s", cmd, what, path, dir, strerror(errno));
	return PS_EXIT_USAGE;
}

char *ps_cli_pct(char *buf, size_t len, double pct)
{
	/* what "%.1f" would round to zero prints as +0.0 */
	if (fabs(pct) < 0.05 || isnan(pct))
		pct = 0;
	snprintf(buf, len, "%+.1f%%", pct);
	return buf;
}


int ps_cli_topo(const char *spec, struct ps_topo **out)
{
	int r = ps_topo_load(spec, out);

	if (r == -ENOENT)
		ps_err("topology '%s': no such file", spec);
	else if (r == -ENOMEM)
		ps_err("topology: out of memory");
	else if (r && spec)
		ps_err("topology '%s': not a valid hwloc synthetic description "
		       "(\"pack:2 core:8 pu:2\") or lstopo XML file", spec);
	else if (r)
		ps_err("topology of this machine: hwloc could not read it");
	return r ? (r == -ENOMEM ? PS_EXIT_FAIL : PS_EXIT_USAGE) : 0;
}

int ps_cli_model(const char *name, struct ps_model *m)
{
	char err[256];
	int r = ps_model_load(name, m, err, sizeof(err));

	if (r == -ENOMEM) {
		ps_err("model: out of memory");
		return PS_EXIT_FAIL;
	}
	if (r == -ENOENT && !strchr(name, '/')) {
		/* a name: say which names there are */
		char list[512] = "";
		size_t at = 0;
		int e = access(name, R_OK) ? errno : EIO;

		for (const char *const *n = ps_model_builtin_names(); *n && at < sizeof(list); n++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
					       at ? ", " : "", *n);
		ps_err("model '%s': not a built-in model (%s) nor a readable file (%s)", name,
		       list, strerror(e));
		return PS_EXIT_USAGE;
	}
	if (r) {
		ps_err("model '%s': %s", name, err);
		return PS_EXIT_USAGE;
	}
	return 0;
}

int ps_cli_policy(const char *s, enum ps_policy *p)
{
	if (ps_policy_parse(s, p)) {
		ps_err("unknown policy '%s' (performance, power or auto)", s);
		return PS_EXIT_USAGE;
	}
	return 0;
}

int ps_cli_model_check(const char *name, const struct ps_model *m,
		       const struct ps_topo *topo)
{
	char err[256], kinds[160] = "", where[160];
	size_t at = 0;
	int i, k;

	if (!ps_model_check(m, topo, err, sizeof(err)))
		return PS_EXIT_OK;
	for (i = 0; i < m->nr_kinds && at < sizeof(kinds); i++)
		at += (size_t)snprintf(kinds + at, sizeof(kinds) - at, "%s%s", i ? ", " : "",
				       m->kinds[i].name);
	/* hwloc gives no kinds for a synthetic description (and for a machine
	 * whose cores are all alike): the topology has the one kind "any" */
	if (strcmp(topo->desc, "this machine"))
		snprintf(where, sizeof(where), "topology '%s'", topo->desc);
	else
		snprintf(where, sizeof(where), "this machine");
	if (topo->nr_kinds == 1 && !strcmp(topo->kinds[0].name, "any")) {
		ps_err("model '%s' is for a CPU with several kinds of core (%s), and %s "
		       "has one kind only%s: give the topology of such a machine (an "
		       "lstopo --of xml file), or a model without kinds (generic)", name,
		       kinds, where, strchr(topo->desc, ':') ? " (a synthetic description "
		       "cannot name kinds)" : "");
		return PS_EXIT_USAGE;
	}
	for (i = 0; i < m->nr_kinds; i++) {
		for (k = 0; k < topo->nr_kinds; k++)
			if (!strcmp(m->kinds[i].name, topo->kinds[k].name))
				break;
		if (k == topo->nr_kinds)
			break;
	}
	at = 0;
	for (k = 0; k < topo->nr_kinds && at < sizeof(err); k++)
		at += (size_t)snprintf(err + at, sizeof(err) - at, "%s%s", k ? ", " : "",
				       topo->kinds[k].name);
	ps_err("model '%s': its kind '%s' (line %d) is not a kind of core of %s (%s): "
	       "give a model written for that machine, or one without kinds (generic)",
	       name, i < m->nr_kinds ? m->kinds[i].name : "?",
	       i < m->nr_kinds ? m->kinds[i].line : 0, where, err);
	return PS_EXIT_USAGE;
}

int ps_cli_model_for(const char *name, const struct ps_topo *topo,
		     struct ps_model *m, char *why, size_t whylen)
{
	int rc;

	why[0] = '\0';
	if (!name)
		name = ps_model_pick(topo, why, whylen);
	rc = ps_cli_model(name, m);
	if (!rc)
		rc = ps_cli_model_check(name, m, topo);
	return rc;
}

/* a directory of uid's own that no one else may write into */
static int own_private_dir(const char *path, uid_t uid)
{
	struct stat st;

	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != uid || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

int ps_cli_state_dir(char *out, size_t len, int create)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	uid_t uid = geteuid();
	char run_user[64];
	struct stat st;
	int r;

	if (!uid) {
		snprintf(out, len, "%s", PS_SYSTEM_STATE_DIR);
		return 0;
	}
	snprintf(run_user, sizeof(run_user), "/run/user/%u", (unsigned)uid);
	/* the spec: a relative XDG_RUNTIME_DIR is to be ignored */
	if (xdg && xdg[0] == '/')
		snprintf(out, len, "%s/powersched", xdg);
	else if (!own_private_dir(run_user, uid))
		snprintf(out, len, "%s/powersched", run_user);
	else
		snprintf(out, len, "/tmp/powersched-%u", (unsigned)uid);
	if (!create)
		return own_private_dir(out, uid);
	if (mkdir(out, 0700) && errno != EEXIST) {
		ps_err("cannot create the state directory %s: %s", out, strerror(errno));
		return 1;
	}
	r = own_private_dir(out, uid);
	if (r == -EPERM && !lstat(out, &st)) {
		ps_err("state directory %s is not yours alone (owner uid %u, mode %04o): "
		       "not used", out, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		return 1;
	}
	if (r) {
		ps_err("state directory %s: %s", out, strerror(-r));
		return 1;
	}
	return 0;
}

int ps_cli_read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return (int)n;
}

static unsigned long long starttime_of(long pid)
{
	char path[64], buf[1024];
	struct ps_live_stat st;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (ps_cli_read_text(path, buf, sizeof(buf)) <= 0 || ps_live_parse_stat(buf, &st))
		return 0;
	return st.starttime;
}

/* 1: the instance is alive. Its journal's owner line names its start time
 * (a reused PID has another); a dry run has no journal: the PID alone. */
int ps_cli_instance_alive(const char *dir, long pid, unsigned long long *start)
{
	char path[1100], line[1200];
	struct ps_journal_rec rec;
	struct stat st;
	FILE *f;
	int fd;

	*start = starttime_of(pid);
	if (!*start)
		return 0;
	snprintf(path, sizeof(path), "%s/journal.%ld", dir, pid);
	/* not through a link, not waiting on a FIFO: root's status reads the
	 * directories of users too */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		struct stat dst, pst;
		char comm[32] = "";
		FILE *c;

		if (fd >= 0)
			close(fd);
		/* no journal we may read (a dry run keeps none; another
		 * user's is private): not the PID alone, which any process
		 * may have (a planted dead instance with a live PID would
		 * show "active"), but a process called powersched
		 * of the directory's owner, which nobody else can fake */
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		c = fopen(path, "re");
		if (c) {
			if (!fgets(comm, sizeof(comm), c))
				comm[0] = '\0';
			fclose(c);
		}
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		return !strcmp(comm, "powersched\n") && !stat(dir, &dst) && !stat(path, &pst) &&
		       pst.st_uid == dst.st_uid;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	if (ps_journal_parse_line(line, &rec) || rec.kind != 'o')
		return 1;
	return rec.id == pid && rec.starttime == *start;
}
