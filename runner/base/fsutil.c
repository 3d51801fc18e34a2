/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mkdir -p, files created relative to a directory fd without following
 * links, and atomic whole-file writes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/fsutil.h"

int hg_read_first_line(const char *path, char *buf, size_t size)
{
	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	int rc = 0;
	if (!fgets(buf, (int)size, f))
		rc = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (rc)
		return rc;
	size_t len = strcspn(buf, "\n");
	while (len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	return (int)len;
}

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

int hg_open_new_at(int dir, const char *name, int flags, mode_t mode)
{
	/* Remove what is there (a stale file, or a link planted by someone who
	 * can write to the directory), then create: O_EXCL fails rather than
	 * write through anything planted again in between, and O_NOFOLLOW
	 * refuses a symlink as the last component. */
	if (!hg_plain_name(name))
		return -EINVAL;
	if (unlinkat(dir, name, 0) < 0 && errno != ENOENT)
		return -errno;
	int fd = openat(dir, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

FILE *hg_fopen_new_at(int dir, const char *name)
{
	int fd = hg_open_new_at(dir, name, O_WRONLY, 0644);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/* A temporary name nobody can guess: "<base>.tmp.<random>" created with
 * O_EXCL relative to the directory's fd; its fd, or -errno. */
static int open_temp(int dir, const char *base, char name[NAME_MAX + 1])
{
	for (int tries = 0; tries < 32; tries++) {
		unsigned char r[8];
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EIO;
		if (snprintf(name, NAME_MAX + 1, "%.200s.tmp.%02x%02x%02x%02x%02x%02x%02x%02x", base,
			     r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]) > NAME_MAX)
			return -ENAMETOOLONG;
		int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

int hg_write_atomic_at(int dir, const char *name, int (*fn)(FILE *f, const void *ctx),
		       const void *ctx)
{
	char tmp[NAME_MAX + 1];
	if (!hg_plain_name(name))
		return -EINVAL;
	int fd = open_temp(dir, name, tmp);
	if (fd < 0)
		return fd;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int rc = -errno;
		close(fd);
		unlinkat(dir, tmp, 0);
		return rc;
	}
	/* The errno of the write that failed is the one reported ("No space
	 * left on device"), not a guess. */
	errno = 0;
	int rc = fn(f, ctx);
	if (fflush(f) != 0 || ferror(f))
		rc = rc ? rc : -(errno ? errno : EIO);
	if (!rc && fsync(fileno(f)) < 0)
		rc = -errno;
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	/* renameat replaces a link planted at the final name, never its target. */
	if (!rc && renameat(dir, tmp, dir, name) < 0)
		rc = -errno;
	if (rc)
		unlinkat(dir, tmp, 0);
	return rc;
}

struct buffer {
	const char *data;
	size_t len;
};

static int write_buffer(FILE *f, const void *ctx)
{
	const struct buffer *b = ctx;
	return fwrite(b->data, 1, b->len, f) == b->len ? 0 : -(errno ? errno : EIO);
}

int hg_write_buffer_at(int dir, const char *name, const char *data, size_t len)
{
	struct buffer b = { data, len };
	return hg_write_atomic_at(dir, name, write_buffer, &b);
}

bool hg_plain_name(const char *name)
{
	size_t len = name ? strnlen(name, NAME_MAX + 1) : 0;
	return len > 0 && len <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

int hg_open_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int hg_open_dir_at(int dir, const char *name, bool create)
{
	if (!hg_plain_name(name))
		return -EINVAL;
	if (create && mkdirat(dir, name, 0777) < 0 && errno != EEXIST)
		return -errno;
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int hg_open_own_dir_at(int dir, const char *name, bool create, uid_t *uid)
{
	int fd = hg_open_dir_at(dir, name, create);
	struct stat st;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (uid)
		*uid = st.st_uid;
	if (st.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

bool hg_still_at(int dir, const char *name, int fd)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && fstatat(dir, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

bool hg_find_program(const char *name, char *path, size_t size)
{
	const char *env = getenv("PATH");
	const char *dirs = env && env[0] ? env : "/usr/local/bin:/usr/bin:/bin";
	for (const char *d = dirs; d; d = strchr(d, ':') ? strchr(d, ':') + 1 : NULL) {
		size_t len = strcspn(d, ":");
		struct stat st;
		if (len == 0 || d[0] != '/')        /* relative entries are not searched */
			continue;
		if (snprintf(path, size, "%.*s/%s", (int)len, d, name) >= (int)size)
			continue;
		if (access(path, X_OK) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

int64_t hg_free_bytes_fd(int fd)
{
	struct statvfs v;
	return fstatvfs(fd, &v) == 0 ? (int64_t)((uint64_t)v.f_bavail * v.f_frsize) : -1;
}
