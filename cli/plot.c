// SPDX-License-Identifier: MIT
/*
 * DOC: pictures (cairo)
 *
 * One heatmap panel per run (a policy of a simulation, or what a live run
 * measured), all on one time axis in seconds: one row per PU, rows grouped
 * by package (a gap and a "package N" label) and core (siblings adjacent,
 * "core N" beside them), white (idle) to dark red (busy), grey hatching
 * where a PU was outside the allowed set. Under them, the power of every
 * run overlaid in one chart with watts on its axis (and the oracle's,
 * dashed, for a single simulated run), and a colour legend.
 *
 * Whatever the number of bins, what is drawn is at the picture's own
 * resolution: a heatmap is an image of one column per horizontal pixel
 * (the bins that fall in it averaged), a power line at most two points
 * per pixel (the lowest and highest of its bins, so a peak keeps its
 * height). An SVG thus stays well under 1 MB for any duration and up to a
 * dozen runs, instead of a rectangle per bin and PU (15 MB for three runs
 * of 600 bins on 32 PUs).
 */
#include <cairo.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ps/outfile.h"
#include "ps/sim.h"

#define W 1200.0
#define LEFT 118.0
#define RIGHT 24.0
#define TITLE_H 34.0
#define PANEL_HEAD 22.0
#define PANEL_GAP 14.0
#define PKG_GAP 6.0
#define AXIS_H 34.0
#define POW_H 200.0
#define LEGEND_H 58.0
#define BOTTOM 12.0

/* distinct line colours for the power curves (Okabe-Ito palette) */
static const double line_rgb[][3] = {
	{ 0.00, 0.45, 0.70 }, { 0.90, 0.60, 0.00 }, { 0.00, 0.62, 0.45 },
	{ 0.80, 0.40, 0.70 }, { 0.34, 0.71, 0.91 }, { 0.84, 0.37, 0.00 },
	{ 0.00, 0.00, 0.00 }, { 0.94, 0.89, 0.26 },
};
#define NR_LINE (int)(sizeof(line_rgb) / sizeof(line_rgb[0]))

/* a tick step of 1, 2 or 5 x 10^k giving about n ticks over span */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	if (span <= 0)
		return 1;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void fmt_num(char *buf, size_t len, double v, double step)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	snprintf(buf, len, "%.*f", dec, v);
}

static void text(cairo_t *cr, double x, double y, const char *s, double size,
		 int align) /* align: 0 left, 1 right, 2 centre */
{
	cairo_text_extents_t e;

	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	if (align == 1)
		x -= e.x_advance;
	else if (align == 2)
		x -= e.x_advance / 2;
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

static void busy_rgb(double v, double *r, double *g, double *b)
{
	if (v < 0)
		v = 0;
	if (v > 1)
		v = 1;
	*r = 1 - 0.45 * v;
	*g = 1 - 0.95 * v;
	*b = 1 - 0.92 * v;
}

static int nr_packages(const struct ps_topo *t)
{
	int p, n = 0, prev = -2;

	for (p = 0; p < t->nr_pus; p++)
		if (t->pus[p].package != prev) {
			n++;
			prev = t->pus[p].package;
		}
	return n;
}

static double rows_h(const struct ps_topo *t)
{
	double row = floor(224.0 / t->nr_pus);

	if (row > 16)
		row = 16;
	if (row < 1)
		row = 1;

	return row * t->nr_pus + PKG_GAP * (nr_packages(t) - 1);
}

/* vertical grid lines and, when labels, tick labels under y */
static void time_axis(cairo_t *cr, double y0, double y1, double dur, int labels)
{
	double pw = W - LEFT - RIGHT, step = nice_step(dur, 10), s;
	char buf[32];

	for (s = 0; s <= dur * (1 + 1e-9); s += step) {
		double x = LEFT + pw * s / dur;

		cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.25);
		cairo_set_line_width(cr, 0.6);
		cairo_move_to(cr, x, y0);
		cairo_line_to(cr, x, y1);
		cairo_stroke(cr);
		if (labels) {
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_set_line_width(cr, 1);
			cairo_move_to(cr, x, y1);
			cairo_line_to(cr, x, y1 + 4);
			cairo_stroke(cr);
			fmt_num(buf, sizeof(buf), s, step);
			text(cr, x, y1 + 15, buf, 10, 2);
		}
	}
	if (labels) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, LEFT + pw / 2, y1 + 29, "time (s)", 11, 2);
	}
}

/* mean busy PUs of a package over the run */
static double pkg_busy(const struct ps_topo *t, const struct ps_plot_run *run, int pkg)
{
	double sum = 0;
	int p, b;

	for (p = 0; p < t->nr_pus; p++)
		if (t->pus[p].package == pkg)
			for (b = 0; b < run->bins; b++)
				sum += run->busy[(size_t)b * t->nr_pus + p];
	return run->bins ? sum / run->bins : 0;
}

/* bins [*b0, *b1) of @bins that column @c of @cols covers: its own when
 * there are more, else the one under its middle */
static void col_bins(int c, int cols, int bins, int *b0, int *b1)
{
	if (bins > cols) {
		*b0 = (int)((long long)c * bins / cols);
		*b1 = (int)((long long)(c + 1) * bins / cols);
	} else {
		*b0 = (int)((c + 0.5) * bins / cols);
		*b1 = *b0 + 1;
	}
	if (*b1 <= *b0)
		*b1 = *b0 + 1;
}

/* An A8 image @cols x @h * (p1 - p0) of one of a run's per-PU series
 * (busy, or allowed with @allowed): NULL when every pixel is 0. */
static cairo_surface_t *heat_mask(const struct ps_topo *t, const struct ps_plot_run *run,
				  int allowed, int p0, int p1, int cols, int h)
{
	const double *v = allowed ? run->allowed : run->busy;
	cairo_surface_t *img;
	unsigned char *data;
	int c, p, i, b, b0, b1, stride, any = 0;

	if (!v)
		return NULL;
	img = cairo_image_surface_create(CAIRO_FORMAT_A8, cols, h * (p1 - p0));
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(img);
		return NULL;
	}
	cairo_surface_flush(img);
	data = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (c = 0; c < cols; c++) {
		col_bins(c, cols, run->bins, &b0, &b1);
		for (p = p0; p < p1; p++) {
			double sum = 0, a;
			unsigned char px;

			for (b = b0; b < b1; b++)
				sum += v[(size_t)b * t->nr_pus + p];
			a = sum / (b1 - b0);
			/* the hatching of PU time outside the allowed set */
			if (allowed)
				a = a < 0.999 ? 0.55 * (1 - a) : 0;
			px = (unsigned char)lround(255 * (a < 0 ? 0 : a > 1 ? 1 : a));
			any |= px;
			for (i = 0; i < h; i++)
				data[(size_t)stride * ((p - p0) * h + i) + c] = px;
		}
	}
	cairo_surface_mark_dirty(img);
	if (!any) {
		cairo_surface_destroy(img);
		return NULL;
	}
	return img;
}

/*
 * The heatmap rows of PUs [p0, p1) (one package: adjacent, no gap) at y,
 * @width pixels wide, @row high each, at one column per pixel: white, the
 * busy colour through a mask of the busy fraction (busy_rgb() is white
 * blended with its 100% colour by the fraction), then the grey of the time
 * outside the allowed set through a mask of its own. A mask is an 8-bit
 * grey PNG in an SVG, a third of a colour image and mostly runs.
 */
static void heat_rows(cairo_t *cr, const struct ps_topo *t, const struct ps_plot_run *run,
		      int p0, int p1, double y, double width, double row)
{
	int cols = (int)lround(width), h = (int)lround(row), pass;
	double r, g, b;

	if (cols < 1 || h < 1 || p1 <= p0)
		return;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, LEFT, y, cols, h * (p1 - p0));
	cairo_fill(cr);
	for (pass = 0; pass < 2; pass++) {
		cairo_surface_t *m = heat_mask(t, run, pass, p0, p1, cols, h);

		if (!m)
			continue;
		busy_rgb(1, &r, &g, &b);
		if (pass)
			r = g = b = 0.35;
		cairo_set_source_rgb(cr, r, g, b);
		cairo_mask_surface(cr, m, LEFT, y);
		cairo_surface_destroy(m);
	}
}

/*
 * A power series along [x0, x0 + width]: with more bins than pixels, each
 * pixel's lowest and highest bin, in the order they came (a peak keeps its
 * height); else one point per bin, at its middle.
 */
static void power_line(cairo_t *cr, const double *v, int bins, double x0, double width,
		       double y, double maxw)
{
	int cols = (int)ceil(width), c, b, b0, b1;

	if (bins <= cols) {
		for (b = 0; b < bins; b++) {
			double x = x0 + (b + 0.5) * width / bins, yy = y + POW_H * (1 - v[b] / maxw);

			if (b)
				cairo_line_to(cr, x, yy);
			else
				cairo_move_to(cr, x, yy);
		}
		return;
	}
	for (c = 0; c < cols; c++) {
		int lo, hi, first, second;

		col_bins(c, cols, bins, &b0, &b1);
		if (b0 >= bins)
			break;
		if (b1 > bins)
			b1 = bins;
		lo = hi = b0;
		for (b = b0 + 1; b < b1; b++) {
			if (v[b] < v[lo])
				lo = b;
			if (v[b] > v[hi])
				hi = b;
		}
		first = lo < hi ? lo : hi;
		second = lo < hi ? hi : lo;
		if (c)
			cairo_line_to(cr, x0 + c + 0.25, y + POW_H * (1 - v[first] / maxw));
		else
			cairo_move_to(cr, x0 + c + 0.25, y + POW_H * (1 - v[first] / maxw));
		cairo_line_to(cr, x0 + c + 0.75, y + POW_H * (1 - v[second] / maxw));
	}
}

static double panel(cairo_t *cr, const struct ps_topo *t, const struct ps_plot_run *run,
		    int idx, double y, double dur)
{
	double pw = W - LEFT - RIGHT, row = (rows_h(t) - PKG_GAP * (nr_packages(t) - 1)) / t->nr_pus;
	double y0;
	int p, q, prev_pkg = -2, prev_core = -2, pkg_drawn = -2;
	char buf[300];

	cairo_set_source_rgb(cr, line_rgb[idx % NR_LINE][0], line_rgb[idx % NR_LINE][1],
			     line_rgb[idx % NR_LINE][2]);
	cairo_rectangle(cr, LEFT, y + 6, 10, 10);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	snprintf(buf, sizeof(buf), "%s", run->name);
	text(cr, LEFT + 16, y + 16, buf, 12, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	if (run->note && run->note[0]) {
		cairo_text_extents_t e;

		cairo_set_font_size(cr, 12);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       CAIRO_FONT_WEIGHT_BOLD);
		cairo_text_extents(cr, buf, &e);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       CAIRO_FONT_WEIGHT_NORMAL);
		text(cr, LEFT + 16 + e.x_advance + 10, y + 16, run->note, 11, 0);
	}
	y += PANEL_HEAD;
	y0 = y;
	for (p = 0; p < t->nr_pus; p++) {
		const struct ps_pu *u = &t->pus[p];

		if (u->package != prev_pkg) {
			if (prev_pkg != -2)
				y += PKG_GAP;
			prev_pkg = u->package;
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
					       CAIRO_FONT_WEIGHT_BOLD);
			snprintf(buf, sizeof(buf), "package %d", u->package);
			text(cr, 4, y + 9, buf, 10, 0);
			cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
					       CAIRO_FONT_WEIGHT_NORMAL);
			/* how much of it was busy, on average: the number a reader wants */
			snprintf(buf, sizeof(buf), "%.1f PUs busy", pkg_busy(t, run, u->package));
			text(cr, 4, y + 21, buf, 8, 0);
		}
		/* a core's label beside its first sibling, when there is room */
		if (u->core != prev_core) {
			prev_core = u->core;
			if (u->core >= 0 && row * u->nr_siblings >= 8) {
				cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
				snprintf(buf, sizeof(buf), "core %d", u->core);
				text(cr, LEFT - 6, y + row * u->nr_siblings / 2 + 3,
				     buf, row * u->nr_siblings >= 12 ? 9 : 7, 1);
			}
		}
		if (u->package != pkg_drawn) {
			pkg_drawn = u->package;
			for (q = p; q < t->nr_pus && t->pus[q].package == u->package; q++)
				;
			heat_rows(cr, t, run, p, q, y, pw * run->dur_s / dur, row);
		}
		/* a thin line between cores */
		if (p + 1 < t->nr_pus && t->pus[p + 1].core != u->core &&
		    t->pus[p + 1].package == u->package) {
			cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.35);
			cairo_set_line_width(cr, 0.5);
			cairo_move_to(cr, LEFT, y + row);
			cairo_line_to(cr, LEFT + pw, y + row);
			cairo_stroke(cr);
		}
		y += row;
	}
	time_axis(cr, y0, y, dur, 0);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, LEFT, y0, pw, y - y0);
	cairo_stroke(cr);
	return y;
}

/* A chart's frame at y: its title, horizontal lines every step up to top
 * with their values (and unit), the time axis and the box */
static void chart_frame(cairo_t *cr, double y, double dur, const char *title, double top,
			double step, const char *unit)
{
	double pw = W - LEFT - RIGHT, s;
	char buf[64];

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	text(cr, LEFT, y - 6, title, 12, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	for (s = 0; s <= top * (1 + 1e-9); s += step) {
		double yy = y + POW_H * (1 - s / top);

		cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.25);
		cairo_set_line_width(cr, 0.6);
		cairo_move_to(cr, LEFT, yy);
		cairo_line_to(cr, LEFT + pw, yy);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		fmt_num(buf, sizeof(buf), s, step);
		strncat(buf, unit, sizeof(buf) - strlen(buf) - 1);
		text(cr, LEFT - 6, yy + 4, buf, 10, 1);
	}
	time_axis(cr, y, y + POW_H, dur, 1);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, LEFT, y, pw, POW_H);
	cairo_stroke(cr);
}

static void power_chart(cairo_t *cr, const struct ps_plot_run *runs, int n, double y,
			double dur)
{
	double pw = W - LEFT - RIGHT, maxw = 0, step;
	int k, b;

	for (k = 0; k < n; k++)
		for (b = 0; b < runs[k].bins; b++) {
			if (runs[k].power_w[b] > maxw)
				maxw = runs[k].power_w[b];
			if (runs[k].oracle_w && runs[k].oracle_w[b] > maxw)
				maxw = runs[k].oracle_w[b];
		}
	if (maxw <= 0)
		maxw = 1;
	step = nice_step(maxw * 1.05, 5);
	maxw = ceil(maxw * 1.05 / step) * step;
	chart_frame(cr, y, dur, n > 1 ? "power, every run on the same axes" : "power", maxw, step,
		    " W");
	for (k = 0; k < n; k++) {
		const struct ps_plot_run *r = &runs[k];
		int pass;

		for (pass = 0; pass < (r->oracle_w ? 2 : 1); pass++) {
			const double *v = pass ? r->oracle_w : r->power_w;
			const double dash[] = { 6, 4 };

			cairo_set_source_rgb(cr, line_rgb[(k + pass * 2) % NR_LINE][0],
					     line_rgb[(k + pass * 2) % NR_LINE][1],
					     line_rgb[(k + pass * 2) % NR_LINE][2]);
			cairo_set_line_width(cr, 1.8);
			cairo_set_dash(cr, dash, pass ? 2 : 0, 0);
			power_line(cr, v, r->bins, LEFT, pw * r->dur_s / dur, y, maxw);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
	}
}

/* run: the CPUs the command kept busy and the CPUs the whole machine did,
 * per interval, on one scale (0 to the machine's CPUs) */
static void cpus_chart(cairo_t *cr, const struct ps_plot_run *r, double y, double dur)
{
	double pw = W - LEFT - RIGHT, top = r->nr_cpus > 0 ? r->nr_cpus : 1, step, cm = 0, mm = 0;
	static const double grey[3] = { 0.55, 0.55, 0.55 };
	const double *v[2] = { r->machine_cpus, r->cmd_cpus };
	const double *rgb[2] = { grey, line_rgb[0] };
	char buf[160];
	int b, k;

	for (b = 0; b < r->bins; b++) {
		cm += r->cmd_cpus[b] / r->bins;
		mm += r->machine_cpus[b] / r->bins;
	}
	step = nice_step(top, 4);
	snprintf(buf, sizeof(buf), "CPUs busy: %s (blue, mean %.2f) and the whole "
		 "machine (grey, mean %.2f)", r->cmd_label ? r->cmd_label : "the command", cm, mm);
	chart_frame(cr, y, dur, buf, top, step, "");
	for (k = 0; k < 2; k++) {
		cairo_set_source_rgb(cr, rgb[k][0], rgb[k][1], rgb[k][2]);
		cairo_set_line_width(cr, k ? 1.8 : 2.6);
		power_line(cr, v[k], r->bins, LEFT, pw * r->dur_s / dur, y, top);
		cairo_stroke(cr);
	}
}

static void legend(cairo_t *cr, const struct ps_plot_run *runs, int n, double y)
{
	double x = LEFT, r, g, b;
	int k, i, any_allowed = 0;
	char buf[200];
	cairo_text_extents_t e;

	/* busy scale */
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, x, y + 11, "PU busy:", 10, 0);
	x += 52;
	for (i = 0; i < 100; i++) {
		busy_rgb(i / 99.0, &r, &g, &b);
		cairo_set_source_rgb(cr, r, g, b);
		cairo_rectangle(cr, x + i * 1.2, y + 2, 1.3, 11);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_rectangle(cr, x, y + 2, 120, 11);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, x, y + 25, "0%", 9, 0);
	text(cr, x + 120, y + 25, "100%", 9, 1);
	x += 140;
	for (k = 0; k < n; k++)
		any_allowed |= runs[k].allowed != NULL;
	if (any_allowed) {
		busy_rgb(0, &r, &g, &b);
		cairo_set_source_rgb(cr, r, g, b);
		cairo_rectangle(cr, x, y + 2, 14, 11);
		cairo_fill(cr);
		cairo_set_source_rgba(cr, 0.35, 0.35, 0.35, 0.55);
		cairo_rectangle(cr, x, y + 2, 14, 11);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, x + 18, y + 11, "outside the allowed set", 10, 0);
		x += 150;
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, LEFT, y + 40, "Rows: one per PU (logical CPU); the rows of a core are its SMT "
	     "siblings; packages apart.", 10, 0);
	/* power lines */
	for (k = 0; k < n; k++) {
		cairo_set_source_rgb(cr, line_rgb[k % NR_LINE][0], line_rgb[k % NR_LINE][1],
				     line_rgb[k % NR_LINE][2]);
		cairo_set_line_width(cr, 2.5);
		if (x > W - RIGHT - 200) {
			x = LEFT + 192;
			y += 18;
		}
		cairo_move_to(cr, x, y + 8);
		cairo_line_to(cr, x + 22, y + 8);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%s, mean %.1f W", runs[k].name, runs[k].mean_w);
		text(cr, x + 27, y + 12, buf, 10, 0);
		cairo_set_font_size(cr, 10);
		cairo_text_extents(cr, buf, &e);
		x += 27 + e.x_advance + 18;
		if (runs[k].oracle_w) {
			const double dash[] = { 6, 4 };

			cairo_set_source_rgb(cr, line_rgb[(k + 2) % NR_LINE][0],
					     line_rgb[(k + 2) % NR_LINE][1],
					     line_rgb[(k + 2) % NR_LINE][2]);
			cairo_set_dash(cr, dash, 2, 0);
			cairo_move_to(cr, x, y + 8);
			cairo_line_to(cr, x + 22, y + 8);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			cairo_set_source_rgb(cr, 0, 0, 0);
			snprintf(buf, sizeof(buf), "oracle (a bound: best energy per work each interval), mean %.1f W",
				 runs[k].oracle_mean_w);
			text(cr, x + 27, y + 12, buf, 10, 0);
			cairo_text_extents(cr, buf, &e);
			x += 27 + e.x_advance + 18;
		}
	}
}

/* cairo's stream writer: into our file */
static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int ps_plot_runs(const char *path, const struct ps_topo *t, const struct ps_plot_run *runs,
		 int n, const char *title)
{
	double panel_h = PANEL_HEAD + rows_h(t), dur = 0;
	int cpus = n == 1 && runs[0].cmd_cpus && runs[0].machine_cpus;
	double h = TITLE_H + n * (panel_h + PANEL_GAP) + 24 + POW_H + AXIS_H + LEGEND_H + BOTTOM +
		   (cpus ? 24 + POW_H + AXIS_H : 0);
	size_t l = strlen(path);
	struct ps_outfile out;
	cairo_surface_t *sf;
	cairo_t *cr;
	double y;
	int rc = 0, k;

	for (k = 0; k < n; k++) {
		if (runs[k].bins <= 0 || runs[k].dur_s <= 0)
			return -1;
		if (runs[k].dur_s > dur)
			dur = runs[k].dur_s;
	}
	if (n <= 0)
		return -1;
	/* through our own file (a new temporary renamed into place): cairo's
	 * writers open path with fopen(), which follows a planted link */
	if (!ps_out_open(&out, path, 0644))
		return -1;
	if (l > 4 && !strcmp(path + l - 4, ".svg"))
		sf = cairo_svg_surface_create_for_stream(to_file, out.f, W, h);
	else
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)ceil(h));
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(sf);
		ps_out_abort(&out);
		return -1;
	}
	cr = cairo_create(sf);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	text(cr, 4, 22, title, 14, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	y = TITLE_H;
	for (k = 0; k < n; k++)
		y = panel(cr, t, &runs[k], k, y, dur) + PANEL_GAP;
	y += 24;
	power_chart(cr, runs, n, y, dur);
	if (cpus) {
		y += POW_H + AXIS_H + 24;
		cpus_chart(cr, &runs[0], y, dur);
	}
	legend(cr, runs, n, y + POW_H + AXIS_H + 6);
	cairo_destroy(cr);
	if (l > 4 && !strcmp(path + l - 4, ".png"))
		rc = cairo_surface_write_to_png_stream(sf, to_file, out.f) == CAIRO_STATUS_SUCCESS ?
			     0 : -1;
	cairo_surface_finish(sf);
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	cairo_surface_destroy(sf);
	if (rc) {
		ps_out_abort(&out);
		return rc;
	}
	return ps_out_commit(&out) ? -1 : 0;
}
