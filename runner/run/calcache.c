/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counter's rate kept for the boot (run/calcache.h).  One line:
 *   hgrun-calibration 1 BOOT_ID COUNTER HZ HZ_ERROR_PPM SAMPLES SPAN_NS BRACKET_NS */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "run/calcache.h"

#define NAME "calibration"
#define MAGIC "hgrun-calibration"
#define FORMAT 1

static int cache_dir(char *dir, size_t size)
{
	const char *env = getenv("HGRUN_CALIBRATION_CACHE");
	if (env && strcmp(env, "off") == 0)
		return -ENOENT;
	if (env && env[0])
		snprintf(dir, size, "%s", env);
	else if (geteuid() == 0)
		snprintf(dir, size, "/run/hgrun");
	else if ((env = getenv("XDG_RUNTIME_DIR")) && env[0] == '/')
		snprintf(dir, size, "%s/hgrun", env);
	else
		return -ENOENT;
	return 0;
}

/* Ours and writable by nobody else. */
static bool trusted(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

static int boot_id(char *id, size_t size)
{
	int n = hg_read_first_line("/proc/sys/kernel/random/boot_id", id, size);
	return n > 0 ? 0 : -ENOENT;
}

int hg_calcache_read(const char *counter, struct hg_calcache *c)
{
	char dir[PATH_MAX - 32], id[64], line[512];
	int rc = cache_dir(dir, sizeof(dir));
	if (rc || (rc = boot_id(id, sizeof(id))))
		return rc;
	int dfd = hg_open_dir(dir);
	if (dfd < 0)
		return dfd;
	struct stat st;
	int fd = -1;
	if (fstat(dfd, &st) != 0 || !trusted(&st))
		rc = -EPERM;
	else if ((fd = openat(dfd, NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		rc = -errno;
	else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !trusted(&st))
		rc = -EPERM;
	close(dfd);
	if (rc) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	ssize_t n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return -ESTALE;
	line[n] = '\0';
	char magic[32], file_id[64], file_counter[32];
	int format;
	if (sscanf(line, "%31s %d %63s %31s %lf %lf %u %lf %lf", magic, &format, file_id,
		   file_counter, &c->hz, &c->hz_error_ppm, &c->samples, &c->span_ns,
		   &c->bracket_ns) != 9 ||
	    strcmp(magic, MAGIC) != 0 || format != FORMAT || strcmp(file_id, id) != 0 ||
	    strcmp(file_counter, counter) != 0 || !(c->hz > 0) || !(c->hz_error_ppm >= 0))
		return -ESTALE;
	return 0;
}

static int write_line(FILE *f, const void *ctx)
{
	const char *line = ctx;
	return fputs(line, f) < 0 ? -EIO : 0;
}

int hg_calcache_write(const char *counter, const struct hg_calcache *c)
{
	char dir[PATH_MAX - 32], id[64], line[512];
	int rc = cache_dir(dir, sizeof(dir));
	if (rc || (rc = boot_id(id, sizeof(id))))
		return rc;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return -errno;
	int dfd = hg_open_dir(dir);
	if (dfd < 0)
		return dfd;
	struct stat st;
	if (fstat(dfd, &st) != 0 || !trusted(&st)) {
		close(dfd);
		return -EPERM;
	}
	snprintf(line, sizeof(line), "%s %d %s %s %.6f %.6f %u %.0f %.3f\n", MAGIC, FORMAT, id,
		 counter, c->hz, c->hz_error_ppm, c->samples, c->span_ns, c->bracket_ns);
	rc = hg_write_atomic_at(dfd, NAME, write_line, line);
	close(dfd);
	return rc;
}
