/* SPDX-License-Identifier: MIT */
/*
 * Writing a file a user named (metrics, plots, models, logs), as root too:
 * into a new temporary file beside it, created with O_EXCL (so never a file
 * or a symbolic link that is there already: another user's link in /tmp is
 * not followed), renamed over the name at the end. A symbolic link at the
 * name itself is refused, not followed and not replaced; a device or a
 * FIFO there (/dev/null) is written in place, opened with O_NOFOLLOW.
 */
#ifndef PS_OUTFILE_H
#define PS_OUTFILE_H

#include <limits.h>
#include <stdio.h>

struct ps_outfile {
	FILE *f;
	int in_place;         /* a device or FIFO: no temporary, no rename */
	char tmp[PATH_MAX + 16];
	char path[PATH_MAX];
};

/* o->f open for writing (mode for the new file), or NULL with errno set
 * (ELOOP: path is a symbolic link; ENAMETOOLONG) */
FILE *ps_out_open(struct ps_outfile *o, const char *path, unsigned mode);
/* close and rename into place: 0, or -errno (the temporary removed) */
int ps_out_commit(struct ps_outfile *o);
/* close and remove the temporary (a failed write) */
void ps_out_abort(struct ps_outfile *o);

/* A JSON string literal: quotes, backslashes and control characters
 * escaped, a byte that is not UTF-8 written as '?' (names from files and
 * configs may hold any byte; what is written must stay JSON) */
void ps_json_str(FILE *f, const char *s);

#endif
