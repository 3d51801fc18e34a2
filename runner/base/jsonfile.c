/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bounded, link-refusing JSON reads (base/jsonfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonfile.h"

json_t *hg_json_parse(const char *data, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		snprintf(err, errlen, "line %d: %s", je.line, je.text);
	return j;
}

json_t *hg_json_read_owned_at(int dir, const char *name, size_t max, uid_t owner, bool *missing,
			      char **text, size_t *len, char *err, size_t errlen)
{
	if (missing)
		*missing = false;
	if (text)
		*text = NULL;
	/* O_NONBLOCK: a FIFO at the name does not block the open (it is then
	 * refused as not a regular file, never read). */
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		if (missing)
			*missing = errno == ENOENT;
		snprintf(err, errlen, "%s", errno == ELOOP ? "a symbolic link, not a file"
			 : strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max ||
	    (owner != (uid_t)-1 && st.st_uid != owner)) {
		if (!S_ISREG(st.st_mode))
			snprintf(err, errlen, "not a regular file");
		else if ((size_t)st.st_size > max)
			snprintf(err, errlen, "larger than %zu MiB: not a file hgrun wrote", max >> 20);
		else
			snprintf(err, errlen, "owned by uid %u, not by uid %u: not a file hgrun wrote "
				 "for this user", (unsigned)st.st_uid, (unsigned)owner);
		close(fd);
		return NULL;
	}
	size_t size = (size_t)st.st_size, got = 0;
	char *buf = malloc(size + 1);
	while (buf && got < size) {
		ssize_t n = read(fd, buf + got, size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	buf[got] = '\0';
	json_t *j = hg_json_parse(buf, got, err, errlen);
	if (j && text) {
		*text = buf;
		*len = got;
	} else {
		free(buf);
	}
	return j;
}

json_t *hg_json_read_at(int dir, const char *name, size_t max, bool *missing, char *err,
			size_t errlen)
{
	return hg_json_read_owned_at(dir, name, max, (uid_t)-1, missing, NULL, NULL, err, errlen);
}
