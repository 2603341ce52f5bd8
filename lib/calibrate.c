// SPDX-License-Identifier: MIT
/*
 * DOC: RAPL counters and the calibration fit
 *
 * See include/ps/calibrate.h. The fit solves the 4 x 4 normal equations by
 * Gaussian elimination with partial pivoting, after dropping columns that
 * do not vary independently of the constant (all zero, or equal to it).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps/calibrate.h"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;
	unsigned long long x;

	if (read_line(path, buf, sizeof(buf)))
		return -EIO;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EIO;
	*v = x;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int ps_rapl_find(const char *root, struct ps_rapl *out)
{
	char dir[400], names[PS_RAPL_MAX][64];
	struct dirent *e;
	int n = 0, i;
	DIR *d;

	memset(out, 0, sizeof(*out));
	if (strlen(root) > 300)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/sys/class/powercap", root);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((e = readdir(d)) && n < PS_RAPL_MAX) {
		char p[700], name[64], nm[64];

		/* intel-rapl:0 (a package), not intel-rapl:0:0 (a subzone) */
		if (strlen(e->d_name) >= sizeof(nm))
			continue;
		memcpy(nm, e->d_name, strlen(e->d_name) + 1);
		if (strncmp(nm, "intel-rapl:", 11) || strchr(nm + 11, ':'))
			continue;
		snprintf(p, sizeof(p), "%s/%s/name", dir, nm);
		if (!read_line(p, name, sizeof(name)) && strncmp(name, "package", 7))
			continue; /* psys, dram: not a package */
		memcpy(names[n++], nm, sizeof(nm));
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (i = 0; i < n; i++) {
		char p[700];
		uint64_t v;

		snprintf(out->path[out->n], sizeof(out->path[0]), "%.390s/%.63s/energy_uj",
			 dir, names[i]);
		if (read_u64(out->path[out->n], &v))
			continue;
		snprintf(p, sizeof(p), "%.390s/%.63s/max_energy_range_uj", dir, names[i]);
		if (read_u64(p, &out->max_uj[out->n]))
			out->max_uj[out->n] = 0;
		out->n++;
	}
	return out->n ? 0 : -ENOENT;
}

int ps_rapl_read(const struct ps_rapl *r, uint64_t *uj)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (read_u64(r->path[i], &uj[i]))
			return -EIO;
	return 0;
}

double ps_rapl_joules(uint64_t start, uint64_t end, uint64_t max_uj)
{
	if (end >= start)
		return (double)(end - start) / 1e6;
	if (!max_uj || start > max_uj)
		return 0;
	return (double)(max_uj - start + end + 1) / 1e6;
}

/* Solve a k x k system in place (a row-major, k <= 4); 0 or -1 singular. */
static int solve(double a[4][4], double *b, int k)
{
	int i, j, r;

	for (i = 0; i < k; i++) {
		int p = i;

		for (r = i + 1; r < k; r++)
			if (fabs(a[r][i]) > fabs(a[p][i]))
				p = r;
		if (fabs(a[p][i]) < 1e-12)
			return -1;
		if (p != i) {
			double t;

			for (j = 0; j < k; j++) {
				t = a[i][j];
				a[i][j] = a[p][j];
				a[p][j] = t;
			}
			t = b[i];
			b[i] = b[p];
			b[p] = t;
		}
		for (r = i + 1; r < k; r++) {
			double f = a[r][i] / a[i][i];

			for (j = i; j < k; j++)
				a[r][j] -= f * a[i][j];
			b[r] -= f * b[i];
		}
	}
	for (i = k - 1; i >= 0; i--) {
		for (j = i + 1; j < k; j++)
			b[i] -= a[i][j] * b[j];
		b[i] /= a[i][i];
	}
	return 0;
}

static void row(const struct ps_calib_point *p, double x[4])
{
	x[0] = 1;
	x[1] = p->packages;
	x[2] = p->cores;
	x[3] = p->threads;
}

int ps_calib_fit(struct ps_calib_point *pts, int n, struct ps_calib_fit *fit)
{
	double coef[4] = { 0 }, a[4][4], b[4];
	int use[4] = { 1, 0, 0, 0 }, col[4], k = 0, i, j, c, q;
	double ss = 0;

	if (n < 2)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!(pts[i].seconds > 0) || !(pts[i].joules >= 0))
			return -EINVAL;
	/* a column is used when it varies, and not in lockstep with an
	 * earlier used one (threads == cores when every core ran one) */
	for (c = 1; c < 4; c++) {
		double x0[4], xi[4];

		row(&pts[0], x0);
		for (i = 1; i < n; i++) {
			row(&pts[i], xi);
			if (xi[c] != x0[c])
				use[c] = 1;
		}
		for (j = 1; j < c && use[c]; j++) {
			int same = use[j];

			for (i = 0; i < n && same; i++) {
				row(&pts[i], xi);
				same = xi[c] == xi[j];
			}
			if (same)
				use[c] = 0;
		}
	}
	for (c = 0; c < 4; c++)
		if (use[c])
			col[k++] = c;
	for (;;) {
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		for (i = 0; i < n; i++) {
			double x[4], w = pts[i].joules / pts[i].seconds;

			row(&pts[i], x);
			for (j = 0; j < k; j++) {
				for (q = 0; q < k; q++)
					a[j][q] += x[col[j]] * x[col[q]];
				b[j] += x[col[j]] * w;
			}
		}
		if (!solve(a, b, k))
			break;
		if (k == 1)
			return -EINVAL;
		k--; /* degenerate: drop the last column and try again */
	}
	for (j = 0; j < k; j++)
		coef[col[j]] = b[j];
	fit->clamped = 0;
	for (c = 0; c < 4; c++)
		if (coef[c] < 0) {
			coef[c] = 0;
			fit->clamped++;
		}
	fit->idle_w = coef[0];
	fit->pkg_w = coef[1];
	fit->core_w = coef[2];
	fit->thread_w = coef[3];
	for (i = 0; i < n; i++) {
		double x[4], w = pts[i].joules / pts[i].seconds, m = 0;

		row(&pts[i], x);
		for (c = 0; c < 4; c++)
			m += coef[c] * x[c];
		pts[i].residual_w = w - m;
		ss += pts[i].residual_w * pts[i].residual_w;
	}
	fit->rms_w = sqrt(ss / n);
	return 0;
}

int ps_calib_model(const struct ps_calib_fit *fit, int packages, int cores,
		   int pus, double smt_gain, const char *source, char *buf,
		   size_t len)
{
	double idle = packages > 0 ? fit->idle_w / packages : fit->idle_w;
	int r;

	r = snprintf(buf, len,
		     "# powersched power model fitted by powersched calibrate: PACKAGE\n"
		     "# watts (RAPL package domains; the platform is not included).\n"
		     "# %s\n"
		     "# Fit: W = %.3f + %.3f x packages + %.3f x cores + %.3f x threads\n"
		     "# (watts; residual RMS %.3f W; %d coefficient(s) below 0 set to 0).\n"
		     "name calibrated\n"
		     "fits %d %d %d\n"
		     "# %s\n"
		     "smt_gain %.3f\n"
		     "# every busy thread (fitted)\n"
		     "level pu %.3f 0\n"
		     "# every busy core (fitted); a core's idle share is in its package's\n"
		     "level core %.3f 0\n"
		     "# package busy / idle: idle is the fitted idle over the packages\n"
		     "level package %.3f %.3f\n",
		     source, fit->idle_w, fit->pkg_w, fit->core_w, fit->thread_w,
		     fit->rms_w, fit->clamped, packages, cores, pus,
		     smt_gain >= 0 ? "measured from the spin loops' rates with one and two siblings busy"
				   : "no SMT pair measured: 0.25, an estimate (Intel: up to 30%; numad: 20%)",
		     smt_gain >= 0 ? (smt_gain > 1 ? 1.0 : smt_gain) : 0.25,
		     fit->thread_w, fit->core_w, idle + fit->pkg_w, idle);
	return r < 0 || (size_t)r >= len ? -ENOSPC : 0;
}

static int parse_point(char *line, int lineno, struct ps_calib_rec_point *m,
		       char *err, size_t errlen)
{
	char label[32], *tok, *save = NULL;
	int used = 0, i;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "point %31s %d %d %d %lf %lf %d%n", label, &m->p.packages,
		   &m->p.cores, &m->p.threads, &m->p.seconds, &m->rate, &m->kind,
		   &used) != 7 || m->p.packages < 0 || m->p.cores < 0 ||
	    m->p.threads < 0 || m->p.packages > 100000 || m->p.cores > 100000 ||
	    m->p.threads > 100000 || !(m->p.seconds > 0 && m->p.seconds < 1e6) ||
	    !(m->rate >= 0 && m->rate < 1e15) || m->kind < 0 || m->kind > 2) {
		snprintf(err, errlen, "line %d: not a point or machine line: '%.60s'",
			 lineno, line);
		return -EINVAL;
	}
	snprintf(m->p.label, sizeof(m->p.label), "%s", label);
	for (tok = strtok_r(line + used, " \t\r", &save), i = 0; tok;
	     tok = strtok_r(NULL, " \t\r", &save), i++) {
		unsigned long long a, b, c;
		char extra;

		if (i == PS_RAPL_MAX || strchr(tok, '-') ||
		    sscanf(tok, "%llu:%llu:%llu%c", &a, &b, &c, &extra) != 3) {
			snprintf(err, errlen, "line %d: counter '%.40s' is not START:END:MAX",
				 lineno, tok);
			return -EINVAL;
		}
		m->start[i] = a;
		m->end[i] = b;
		m->max[i] = c;
		m->p.joules += ps_rapl_joules(a, b, c);
	}
	m->nd = i;
	if (!i) {
		snprintf(err, errlen, "line %d: no counter", lineno);
		return -EINVAL;
	}
	return 0;
}

int ps_calib_parse(const char *text, struct ps_calib_recording *out, char *err,
		   size_t errlen)
{
	const char *p = text;
	int lineno = 0;

	memset(out->shape, 0, sizeof(out->shape));
	out->n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[1024];
		int a, b, c;
		char extra;

		lineno++;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "line %d: longer than %zu characters", lineno,
				 sizeof(line) - 1);
			return -EINVAL;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl ? 1 : 0);
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (!strncmp(line, "machine ", 8)) {
			if (sscanf(line, "machine %d %d %d %c", &a, &b, &c, &extra) != 3 ||
			    a < 1 || b < 1 || c < 1 || a > 100000 || b > 100000 || c > 100000) {
				snprintf(err, errlen, "line %d: machine needs PACKAGES CORES PUS: '%.60s'",
					 lineno, line);
				return -EINVAL;
			}
			out->shape[0] = a;
			out->shape[1] = b;
			out->shape[2] = c;
			continue;
		}
		if (out->n == PS_CALIB_MAX_POINTS) {
			snprintf(err, errlen, "line %d: more than %d points", lineno,
				 PS_CALIB_MAX_POINTS);
			return -EINVAL;
		}
		if (parse_point(line, lineno, &out->pts[out->n], err, errlen))
			return -EINVAL;
		out->n++;
	}
	if (!out->shape[0] || out->n < 2) {
		snprintf(err, errlen, "needs a machine line and two points or more");
		return -EINVAL;
	}
	return 0;
}
