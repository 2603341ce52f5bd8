// SPDX-License-Identifier: MIT
/*
 * DOC: files written for the user, without following symbolic links
 *
 * See include/ps/outfile.h. mkostemp() creates with O_CREAT | O_EXCL, which
 * fails on any name that exists, a dangling symbolic link included; the
 * random suffix keeps two writers (or a planted name) apart, and rename()
 * replaces the directory entry, never what a link there points to.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ps/outfile.h"

FILE *ps_out_open(struct ps_outfile *o, const char *path, unsigned mode)
{
	struct stat st;
	int fd, e;

	memset(o, 0, sizeof(*o));
	if (!path || !*path || strlen(path) >= sizeof(o->path)) {
		errno = path && *path ? ENAMETOOLONG : EINVAL;
		return NULL;
	}
	strcpy(o->path, path);
	if (!lstat(path, &st)) {
		if (S_ISLNK(st.st_mode)) {
			errno = ELOOP;
			return NULL;
		}
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
			if (fd < 0)
				return NULL;
			o->in_place = 1;
			o->f = fdopen(fd, "w");
			if (!o->f) {
				e = errno;
				close(fd);
				errno = e;
			}
			return o->f;
		}
	}
	snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fchmod(fd, (mode_t)mode) || !(o->f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(o->tmp);
		errno = e;
		return NULL;
	}
	return o->f;
}

int ps_out_commit(struct ps_outfile *o)
{
	int err = ferror(o->f) ? EIO : 0;

	if (fclose(o->f) && !err)
		err = errno ? errno : EIO;
	o->f = NULL;
	if (o->in_place)
		return -err;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (err)
		unlink(o->tmp);
	return -err;
}

void ps_out_abort(struct ps_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (!o->in_place)
		unlink(o->tmp);
}

/* the length of the valid UTF-8 sequence at s (2 to 4), or 0 */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void ps_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (c >= 0x80 && !n)
			fputc('?', f);
		else
			fwrite(s, 1, (size_t)n, f);
		s += n ? n : 1;
	}
	fputc('"', f);
}
