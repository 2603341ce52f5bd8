// SPDX-License-Identifier: MIT
/*
 * DOC: powersched calibrate
 *
 * Spin threads on chosen PUs of this machine (none for idle; then at
 * several counts along the fill order (siblings first), the pack order
 * (cores first, fewest packages) and the spread order), read the RAPL
 * package energy counters before and after each point, fit a model
 * (include/ps/calibrate.h) and write it, with the residual of every point.
 * --record keeps the raw counters; --fit fits such a recording again
 * without measuring.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ps/calibrate.h"
#include "ps/outfile.h"

#define MAX_POINTS PS_CALIB_MAX_POINTS

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      " powersched calibrate [options]\n"
	      "\n"
	      "Measure this machine's package power with RAPL while threads spin\n"
	      "packed and spread at several counts, fit a power model and write\n"
	      "it, with the residual of every point.\n"
	      "\n"
	      "Options:\n"
	      " -o, --output FILE      the model file (default: calibrated.model)\n"
	      " -s, --seconds S        time per point (default: 2)\n"
	      "     --record FILE      also write the raw counters of every point\n"
	      "     --fit FILE         fit a recording made with --record; measure nothing\n"
	      "     --sysfs-root DIR   where /sys/class/powercap is read (default: /)\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Exit status: 0 ok, 1 no RAPL or a runtime failure, 2 bad usage or input.\n",
	      f);
}

struct spinner {
	pthread_t th;
	unsigned cpu;
	atomic_int *stop;
	unsigned long long loops;
};

static void *spin(void *arg)
{
	struct spinner *s = arg;
	unsigned long long n = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!atomic_load_explicit(s->stop, memory_order_relaxed))
		n++;
	s->loops = n;
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Packages, cores and threads busy when the first k PUs of @ord spin. */
static void shape_of(const struct ps_topo *t, const int *ord, int k,
		     struct ps_calib_point *p)
{
	unsigned char *busy = calloc(t->nr_pus, 1);
	int i, d;

	p->packages = p->cores = 0;
	p->threads = k;
	if (!busy)
		return;
	for (i = 0; i < k; i++)
		busy[ord[i]] = 1;
	for (d = 0; d < t->nr_doms; d++) {
		const struct ps_domain *dom = &t->doms[d];
		int any = 0;

		for (i = dom->pu_lo; i < dom->pu_hi && !any; i++)
			any = busy[i];
		if (!any)
			continue;
		p->packages += !!(dom->types & (1u << PS_LVL_PACKAGE));
		p->cores += !!(dom->types & (1u << PS_LVL_CORE));
	}
	free(busy);
}


static int measure(const struct ps_topo *t, const struct ps_rapl *r,
		   const int *ord, int k, double secs, struct ps_calib_rec_point *m)
{
	struct spinner sp[1024];
	atomic_int stop = 0;
	double t0, t1, loops = 0;
	int i, started = 0, rc = 0;

	if (k > 1024)
		k = 1024;
	m->nd = r->n;
	for (i = 0; i < r->n; i++)
		m->max[i] = r->max_uj[i];
	if (ps_rapl_read(r, m->start))
		return -EIO;
	t0 = now_s();
	for (i = 0; i < k; i++) {
		sp[i].cpu = t->pus[ord[i]].os_index;
		sp[i].stop = &stop;
		sp[i].loops = 0;
		if (pthread_create(&sp[i].th, NULL, spin, &sp[i])) {
			rc = -EAGAIN;
			break;
		}
		started++;
	}
	if (!rc) {
		struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	atomic_store(&stop, 1);
	for (i = 0; i < started; i++) {
		pthread_join(sp[i].th, NULL);
		loops += sp[i].loops;
	}
	t1 = now_s();
	if (rc)
		return rc;
	if (ps_rapl_read(r, m->end))
		return -EIO;
	shape_of(t, ord, k, &m->p);
	m->p.seconds = t1 - t0;
	m->p.joules = 0;
	for (i = 0; i < r->n; i++)
		m->p.joules += ps_rapl_joules(m->start[i], m->end[i], m->max[i]);
	m->rate = k ? loops / k / m->p.seconds : 0;
	m->kind = k == 2 && t->pus[ord[0]].nr_siblings > 1 &&
		  t->pus[ord[0]].dom == t->pus[ord[1]].dom ? 2 :
		  k > 0 && m->p.cores == k ? 1 : 0;
	return 0;
}

static void record_line(FILE *f, const struct ps_calib_rec_point *m)
{
	int i;

	fprintf(f, "point %s %d %d %d %.6f %.6g %d", m->p.label, m->p.packages,
		m->p.cores, m->p.threads, m->p.seconds, m->rate, m->kind);
	for (i = 0; i < m->nd; i++)
		fprintf(f, " %llu:%llu:%llu", (unsigned long long)m->start[i],
			(unsigned long long)m->end[i], (unsigned long long)m->max[i]);
	fputc('\n', f);
}

#define RECORDING_MAX (1 << 20)

/* A recording file (powersched-calibrate(1)) into @rec. */
static int read_recording(const char *path, struct ps_calib_recording *rec,
			  char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int r;

	if (!f) {
		snprintf(err, errlen, "cannot read '%.200s': %s", path, strerror(errno));
		return -ENOENT;
	}
	buf = malloc(RECORDING_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -ENOENT;
	}
	n = fread(buf, 1, RECORDING_MAX + 1, f);
	fclose(f);
	if (n > RECORDING_MAX || memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%.200s: over %d bytes or a NUL byte", path, RECORDING_MAX);
		free(buf);
		return -EINVAL;
	}
	buf[n] = '\0';
	r = ps_calib_parse(buf, rec, err, errlen);
	free(buf);
	if (r) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%.200s: %.300s", path, err);
		snprintf(err, errlen, "%s", tmp);
	}
	return r;
}

/* Sets of the first k PUs along three orders, duplicates left out. */
static int plan_points(const struct ps_topo *t, const int **ords, int *ks)
{
	const int *order[3] = { t->fill_order, t->pack_order, t->spread_order };
	int counts[5], nc = 0, n = 0, cores = 0, i, o, c, d;

	for (d = 0; d < t->nr_doms; d++)
		cores += !!(t->doms[d].types & (1u << PS_LVL_CORE));
	if (!cores)
		cores = t->nr_pus;
	{
		int want[5] = { 1, 2, cores / 2, cores, t->nr_pus };

		for (i = 0; i < 5; i++) {
			int dup = want[i] < 1 || want[i] > t->nr_pus;

			for (c = 0; c < nc && !dup; c++)
				dup = counts[c] == want[i];
			if (!dup)
				counts[nc++] = want[i];
		}
	}
	for (c = 0; c < nc; c++)
		for (o = 0; o < 3; o++) {
			int dup = 0, q;

			for (q = 0; q < n && !dup; q++) {
				int j, same = ks[q] == counts[c];

				if (!same)
					continue;
				/* the same set of PUs, in any order */
				for (j = 0; j < counts[c] && same; j++) {
					int k2, found = 0;

					for (k2 = 0; k2 < counts[c] && !found; k2++)
						found = ords[q][k2] == order[o][j];
					same = found;
				}
				dup = same;
			}
			if (!dup) {
				ords[n] = order[o];
				ks[n++] = counts[c];
			}
		}
	return n;
}

int ps_cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "seconds", required_argument, NULL, 's' },
		{ "record", required_argument, NULL, 'r' },
		{ "fit", required_argument, NULL, 'f' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const oname[3] = { "siblings", "packed", "spread" };
	const char *out = "calibrated.model", *record = NULL, *fitfile = NULL;
	const char *root = "/";
	static struct ps_calib_recording rec;
	struct ps_calib_rec_point *ms = rec.pts;
	struct ps_calib_point pts[MAX_POINTS];
	struct ps_calib_fit fit;
	struct ps_topo *t = NULL;
	struct ps_model check;
	double secs = 2, r1 = 0, r2 = 0, gain = -1;
	int *shape = rec.shape, n = 0, c, i, rc = PS_EXIT_OK;
	char err[512], src[256], text[4096], *end;
	struct ps_outfile of;
	FILE *f;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 's':
			errno = 0;
			secs = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(secs >= 0.01 && secs <= 600)) {
				ps_err("calibrate: --seconds '%s' is not a number in 0.01..600", optarg);
				return PS_EXIT_USAGE;
			}
			break;
		case 'r': record = optarg; break;
		case 'f': fitfile = optarg; break;
		case 'R': root = optarg; break;
		case 'h': usage(stdout); return PS_EXIT_OK;
		default:
			return ps_cli_bad_option("calibrate", c, argv, opts);
		}
	}
	if (optind < argc) {
		ps_err("calibrate: unexpected argument '%s'", argv[optind]);
		return PS_EXIT_USAGE;
	}
	/* the paths, before any measuring */
	if (ps_cli_check_out("calibrate", "output file", out) ||
	    (record && ps_cli_check_out("calibrate", "recording", record)) ||
	    (!fitfile && strcmp(root, "/") && ps_cli_check_dir("calibrate", "--sysfs-root", root)))
		return PS_EXIT_USAGE;
	if (fitfile) {
		int r = read_recording(fitfile, &rec, err, sizeof(err));

		n = rec.n;
		if (r) {
			ps_err("calibrate: %s", err);
			return r == -ENOENT ? PS_EXIT_FAIL : PS_EXIT_USAGE;
		}
		snprintf(src, sizeof(src), "Fitted again from the recording %.200s.", fitfile);
	} else {
		struct ps_rapl rapl;
		const int *ords[MAX_POINTS];
		int ks[MAX_POINTS], np, d;

		if (ps_rapl_find(root, &rapl)) {
			ps_err("calibrate: no RAPL package energy counter under %s/sys/class/powercap (intel-rapl:*/energy_uj)",
			       strcmp(root, "/") ? root : "");
			return PS_EXIT_FAIL;
		}
		rc = ps_cli_topo(NULL, &t);
		if (rc)
			return PS_EXIT_FAIL;
		shape[0] = shape[1] = 0;
		shape[2] = t->nr_pus;
		for (d = 0; d < t->nr_doms; d++) {
			shape[0] += !!(t->doms[d].types & (1u << PS_LVL_PACKAGE));
			shape[1] += !!(t->doms[d].types & (1u << PS_LVL_CORE));
		}
		np = plan_points(t, ords, ks);
		printf("calibrate: %d RAPL package domain(s); %d points of %.3g s\n",
		       rapl.n, np + 1, secs);
		fflush(stdout);
		for (i = -1; i < np && n < MAX_POINTS; i++) {
			struct ps_calib_rec_point *m = &ms[n];
			int o;

			memset(m, 0, sizeof(*m));
			if (measure(t, &rapl, i < 0 ? t->pack_order : ords[i], i < 0 ? 0 : ks[i],
				    secs, m)) {
				ps_err("calibrate: measuring failed (threads or %s)", rapl.path[0]);
				ps_topo_free(t);
				return PS_EXIT_FAIL;
			}
			o = i < 0 ? 0 : ords[i] == t->fill_order ? 0 :
			    ords[i] == t->pack_order ? 1 : 2;
			if (i < 0)
				snprintf(m->p.label, sizeof(m->p.label), "idle");
			else
				snprintf(m->p.label, sizeof(m->p.label), "%s-%d", oname[o], ks[i]);
			n++;
		}
		ps_topo_free(t);
		snprintf(src, sizeof(src), "Measured by powersched calibrate, %d points of %.3g s.",
			 n, secs);
	}
	for (i = 0; i < n; i++) {
		pts[i] = ms[i].p;
		if (ms[i].kind == 1 && ms[i].rate > 0 && (r1 == 0 || ms[i].p.threads == 1))
			r1 = ms[i].rate;
		if (ms[i].kind == 2 && ms[i].rate > 0)
			r2 = ms[i].rate;
	}
	if (r1 > 0 && r2 > 0) {
		gain = 2 * r2 / r1 - 1;
		if (gain < 0)
			gain = 0;
	}
	if (ps_calib_fit(pts, n, &fit)) {
		ps_err("calibrate: the points do not determine a fit");
		return PS_EXIT_FAIL;
	}
	if (record) {
		f = ps_out_open(&of, record, 0644);
		if (!f) {
			ps_err("calibrate: cannot write '%s': %s", record,
			       errno == ELOOP ? "a symbolic link: not followed" : strerror(errno));
			return PS_EXIT_FAIL;
		}
		fprintf(f, "# powersched calibrate recording\nmachine %d %d %d\n",
			shape[0], shape[1], shape[2]);
		for (i = 0; i < n; i++)
			record_line(f, &ms[i]);
		if (ps_out_commit(&of)) {
			ps_err("calibrate: cannot write '%s'", record);
			return PS_EXIT_FAIL;
		}
	}
	printf("%-14s %4s %5s %7s %9s %9s %9s\n", "point", "pkgs", "cores", "threads",
	       "measured", "model", "residual");
	for (i = 0; i < n; i++) {
		double w = pts[i].joules / pts[i].seconds;

		printf("%-14s %4d %5d %7d %8.2fW %8.2fW %+8.2fW\n", pts[i].label,
		       pts[i].packages, pts[i].cores, pts[i].threads, w,
		       w - pts[i].residual_w, pts[i].residual_w);
	}
	printf("fit: W = %.2f + %.2f x packages + %.2f x cores + %.2f x threads; "
	       "residual RMS %.2f W%s; SMT gain %s\n",
	       fit.idle_w, fit.pkg_w, fit.core_w, fit.thread_w, fit.rms_w,
	       fit.clamped ? " (negative coefficients set to 0)" : "",
	       gain >= 0 ? "measured" : "0.25 (estimate: no sibling pair measured)");
	if (ps_calib_model(&fit, shape[0], shape[1], shape[2], gain, src, text,
			   sizeof(text)) ||
	    ps_model_parse(text, &check, err, sizeof(err))) {
		ps_err("calibrate: the fitted model does not parse: %s", err);
		return PS_EXIT_FAIL;
	}
	f = ps_out_open(&of, out, 0644);
	if (!f || fputs(text, f) < 0 || ps_out_commit(&of)) {
		if (f && of.f)
			ps_out_abort(&of);
		ps_err("calibrate: cannot write '%s': %s", out,
		       !f && errno == ELOOP ? "a symbolic link: not followed" : strerror(errno));
		return PS_EXIT_FAIL;
	}
	printf("model written to %s\n", out);
	return rc;
}
