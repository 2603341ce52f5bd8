// SPDX-License-Identifier: MIT
/*
 * DOC: helpers shared by the subcommands
 */
#include <errno.h>
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

void ps_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
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
	char err[256];

	if (!ps_model_check(m, topo, err, sizeof(err)))
		return PS_EXIT_OK;
	ps_err("model '%s': %s", name, err);
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
	FILE *f;

	*start = starttime_of(pid);
	if (!*start)
		return 0;
	snprintf(path, sizeof(path), "%s/journal.%ld", dir, pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	if (ps_journal_parse_line(line, &rec) || rec.kind != 'o')
		return 1;
	return rec.id == pid && rec.starttime == *start;
}
