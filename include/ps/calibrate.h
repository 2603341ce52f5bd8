/* SPDX-License-Identifier: MIT */
/*
 * DOC: calibration from RAPL
 *
 * `powersched calibrate` spins threads on chosen PUs (packed and spread, at
 * several counts, and none for idle), reads the package energy counters of
 * Intel RAPL (also exposed by AMD since Linux 5.8) before and after each
 * point, and fits a model to what it measured. This part is the library:
 * finding and reading the counters under a root, and the fit; the CLI
 * spins and writes.
 *
 * The fit. Each point p has a_p active packages, c_p active cores, t_p busy
 * threads and a measured mean power W_p (joules over seconds, summed over
 * package domains). Least squares over
 *
 *   W_p = I + A_pkg a_p + A_core c_p + A_thr t_p
 *
 * (a coefficient whose column is all zero, such as A_thr on a machine of
 * one thread per core measured one per core, is fixed at 0). The model:
 * package idle = I / packages, package active = idle + A_pkg, core active =
 * A_core (idle 0: RAPL cannot tell a core's idle share from its package's),
 * pu active = A_thr; negative coefficients are set to 0 and reported. The
 * SMT gain comes from the spin loops' rates: g = 2 r2 / r1 - 1, r1 the rate
 * of a thread alone on a core and r2 of one of two siblings busy together.
 */
#ifndef PS_CALIBRATE_H
#define PS_CALIBRATE_H

#include <stddef.h>
#include <stdint.h>

#include "ps/power.h"

#define PS_RAPL_MAX 16

struct ps_rapl {
	int n;                          /* package domains found */
	char path[PS_RAPL_MAX][512];    /* .../energy_uj */
	uint64_t max_uj[PS_RAPL_MAX];   /* max_energy_range_uj, 0 if unknown */
};

/**
 * ps_rapl_find() - the package domains under ROOT/sys/class/powercap
 * @root: "/" or a tree standing in for it
 * @out: the domains (intel-rapl:N whose name is package-N, or, with no
 *       name file, intel-rapl:N without a second colon)
 *
 * Return: 0, -ENOENT if there is none.
 */
int ps_rapl_find(const char *root, struct ps_rapl *out);

/**
 * ps_rapl_read() - every domain's counter, in microjoules
 * Return: 0, or -EIO when one cannot be read.
 */
int ps_rapl_read(const struct ps_rapl *r, uint64_t *uj);

/**
 * ps_rapl_joules() - joules between two readings of one domain, across one
 * wrap of the counter (max_uj; without it a decrease reads as 0)
 */
double ps_rapl_joules(uint64_t start, uint64_t end, uint64_t max_uj);

struct ps_calib_point {
	char label[32];       /* "idle", "packed 4", "spread 4" */
	int packages, cores, threads;
	double seconds;
	double joules;        /* summed over the package domains */
	double residual_w;    /* set by the fit: measured minus fitted watts */
};

struct ps_calib_fit {
	double idle_w, pkg_w, core_w, thread_w;
	int clamped;          /* coefficients that came out negative */
	double rms_w;
};

/**
 * ps_calib_fit() - least squares over the points, residuals into them
 * Return: 0, -EINVAL for fewer than two points or no time measured.
 */
int ps_calib_fit(struct ps_calib_point *pts, int n, struct ps_calib_fit *fit);

#define PS_CALIB_MAX_POINTS 64

/* One measured point as recorded: its shape, spin rate and raw counters. */
struct ps_calib_rec_point {
	struct ps_calib_point p; /* joules: summed over the counters */
	double rate;             /* spin loops per second per thread */
	int kind;                /* 2: two siblings of one core; 1: every
				  * thread alone on its core; 0: other */
	int nd;
	uint64_t start[PS_RAPL_MAX], end[PS_RAPL_MAX], max[PS_RAPL_MAX];
};

struct ps_calib_recording {
	int shape[3];            /* packages, cores, PUs */
	int n;
	struct ps_calib_rec_point pts[PS_CALIB_MAX_POINTS];
};

/**
 * ps_calib_parse() - read a recording (powersched-calibrate(1), --record)
 * @text: NUL-terminated
 * @out: the points, joules computed from the counters (one wrap allowed)
 * @err: one line naming the line and value on error
 *
 * Return: 0, -EINVAL for a malformed recording.
 */
int ps_calib_parse(const char *text, struct ps_calib_recording *out, char *err,
		   size_t errlen);

/**
 * ps_calib_model() - the model text for a fit
 * @fit: from ps_calib_fit()
 * @packages, @cores, @pus: the machine's shape (the fits line)
 * @smt_gain: measured, or a negative value for the 0.25 estimate
 * @source: one line saying where and when it was measured
 * @buf, @len: the text; it parses with ps_model_parse()
 *
 * Return: 0, or -ENOSPC if @buf is too small.
 */
int ps_calib_model(const struct ps_calib_fit *fit, int packages, int cores,
		   int pus, double smt_gain, const char *source, char *buf,
		   size_t len);

#endif
