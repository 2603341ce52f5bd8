// SPDX-License-Identifier: MIT
/*
 * DOC: pictures of a simulation (cairo)
 *
 * Top: per-PU occupancy over time as a heatmap, one row per PU, rows grouped
 * by package (a gap between packages) and core (siblings adjacent). Bottom:
 * modeled power over time, with the oracle's power dashed.
 */
#include <cairo.h>
#include <cairo-svg.h>
#include <string.h>

#include "cli.h"
#include "ps/sim.h"

#define W 1100.0
#define LEFT 80.0
#define RIGHT 20.0
#define TOP 40.0
#define HEAT_H 420.0
#define GAP 40.0
#define POW_H 180.0
#define BOTTOM 40.0

static void draw(cairo_t *cr, const struct ps_topo *t,
		 const struct ps_sim_result *r, const char *policy,
		 const char *workload)
{
	int npk = 0, p, b, prev = -2;
	double rowh, y, pw = W - LEFT - RIGHT, maxw = 0, bw;
	char buf[256];

	for (p = 0; p < t->nr_pus; p++)
		if (t->pus[p].package != prev) {
			npk++;
			prev = t->pus[p].package;
		}
	rowh = (HEAT_H - 6.0 * (npk - 1)) / t->nr_pus;
	bw = pw / r->bins;

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 14);
	snprintf(buf, sizeof(buf), "powersched sim: %s, policy %s, %s — PU occupancy",
		 t->desc, policy, workload);
	cairo_move_to(cr, LEFT, 24);
	cairo_show_text(cr, buf);
	cairo_set_font_size(cr, 11);

	y = TOP;
	prev = -2;
	for (p = 0; p < t->nr_pus; p++) {
		if (t->pus[p].package != prev) {
			if (prev != -2)
				y += 6;
			prev = t->pus[p].package;
			cairo_set_source_rgb(cr, 0, 0, 0);
			snprintf(buf, sizeof(buf), "package %d", prev);
			cairo_move_to(cr, 4, y + 10);
			cairo_show_text(cr, buf);
		}
		for (b = 0; b < r->bins; b++) {
			double v = r->bin_busy[(size_t)b * t->nr_pus + p];

			if (v > 1)
				v = 1;
			/* white (idle) to dark red (busy) */
			cairo_set_source_rgb(cr, 1 - 0.3 * v, 1 - 0.95 * v, 1 - 0.95 * v);
			cairo_rectangle(cr, LEFT + b * bw, y, bw + 0.5, rowh);
			cairo_fill(cr);
		}
		y += rowh;
	}
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, LEFT, TOP, pw, y - TOP);
	cairo_stroke(cr);

	/* power */
	y += GAP;
	for (b = 0; b < r->bins; b++) {
		if (r->bin_power_w[b] > maxw)
			maxw = r->bin_power_w[b];
		if (r->bin_oracle_w[b] > maxw)
			maxw = r->bin_oracle_w[b];
	}
	if (maxw <= 0)
		maxw = 1;
	maxw *= 1.1;
	cairo_rectangle(cr, LEFT, y, pw, POW_H);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	snprintf(buf, sizeof(buf), "%.0f W", maxw);
	cairo_move_to(cr, 4, y + 10);
	cairo_show_text(cr, buf);
	cairo_move_to(cr, 4, y + POW_H);
	cairo_show_text(cr, "0 W");
	snprintf(buf, sizeof(buf), "power (solid), oracle (dashed); mean %.1f W, "
		 "oracle %.1f W; time runs left to right over the whole run",
		 r->power_w, r->oracle_power_w);
	cairo_move_to(cr, LEFT, y + POW_H + 18);
	cairo_show_text(cr, buf);
	cairo_set_source_rgb(cr, 0.1, 0.2, 0.7);
	cairo_set_line_width(cr, 1.5);
	for (b = 0; b < r->bins; b++) {
		double x = LEFT + (b + 0.5) * bw;
		double yy = y + POW_H * (1 - r->bin_power_w[b] / maxw);

		if (b)
			cairo_line_to(cr, x, yy);
		else
			cairo_move_to(cr, x, yy);
	}
	cairo_stroke(cr);
	{
		const double dash[] = { 5, 4 };

		cairo_set_dash(cr, dash, 2, 0);
		cairo_set_source_rgb(cr, 0.1, 0.6, 0.2);
		for (b = 0; b < r->bins; b++) {
			double x = LEFT + (b + 0.5) * bw;
			double yy = y + POW_H * (1 - r->bin_oracle_w[b] / maxw);

			if (b)
				cairo_line_to(cr, x, yy);
			else
				cairo_move_to(cr, x, yy);
		}
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
}

int ps_plot_sim(const char *path, const struct ps_topo *t,
		const struct ps_sim_result *r, const char *policy,
		const char *workload)
{
	double h = TOP + HEAT_H + GAP + POW_H + BOTTOM;
	size_t l = strlen(path);
	cairo_surface_t *sf;
	cairo_t *cr;
	int rc = 0;

	if (!r->bins)
		return -1;
	if (l > 4 && !strcmp(path + l - 4, ".svg"))
		sf = cairo_svg_surface_create(path, W, h);
	else
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)h);
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(sf);
		return -1;
	}
	cr = cairo_create(sf);
	draw(cr, t, r, policy, workload);
	cairo_destroy(cr);
	if (l > 4 && !strcmp(path + l - 4, ".png"))
		rc = cairo_surface_write_to_png(sf, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
	cairo_surface_finish(sf);
	if (cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	cairo_surface_destroy(sf);
	return rc;
}
