// SPDX-License-Identifier: MIT
/* libFuzzer harness: the calibration recording parser never crashes; an
 * accepted recording has a shape, points with time and finite joules, and
 * fitting it either fails cleanly or gives finite coefficients. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ps/calibrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ps_calib_recording rec;
	struct ps_calib_point pts[PS_CALIB_MAX_POINTS];
	struct ps_calib_fit fit;
	char *s = malloc(size + 1), err[256];
	int i;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (ps_calib_parse(s, &rec, err, sizeof(err)) == 0) {
		if (rec.shape[0] < 1 || rec.n < 2 || rec.n > PS_CALIB_MAX_POINTS)
			abort();
		for (i = 0; i < rec.n; i++) {
			if (!(rec.pts[i].p.seconds > 0) || !isfinite(rec.pts[i].p.joules) ||
			    rec.pts[i].p.joules < 0)
				abort();
			pts[i] = rec.pts[i].p;
		}
		if (ps_calib_fit(pts, rec.n, &fit) == 0 &&
		    (!isfinite(fit.idle_w) || fit.idle_w < 0 || !isfinite(fit.pkg_w) ||
		     !isfinite(fit.core_w) || !isfinite(fit.thread_w)))
			abort();
	}
	free(s);
	return 0;
}
