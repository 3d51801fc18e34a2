/* mkdir -p and atomic whole-file writes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"

int hg_mkdirs(const char *path)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

void hg_empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

int hg_write_atomic_with(const char *path, int (*fn)(FILE *f, const void *ctx),
			 const void *ctx)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -errno;
	int rc = fn(f, ctx);
	if (fflush(f) != 0 || ferror(f))
		rc = rc ? rc : -EIO;
	if (!rc && fsync(fileno(f)) < 0)
		rc = -errno;
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

struct buffer {
	const char *data;
	size_t len;
};

static int write_buffer(FILE *f, const void *ctx)
{
	const struct buffer *b = ctx;
	return fwrite(b->data, 1, b->len, f) == b->len ? 0 : -EIO;
}

int hg_write_atomic(const char *path, const char *data, size_t len)
{
	struct buffer b = { data, len };
	return hg_write_atomic_with(path, write_buffer, &b);
}
