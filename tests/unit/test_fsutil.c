/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files created in a directory others can write to (runner/base/fsutil.c):
 * a symlink or file planted at the name is never written through, the
 * atomic writer's temporaries cannot be predicted, and a failed write
 * reports the errno of the write. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "base/fsutil.h"

static char dir[PATH_MAX], victim[PATH_MAX + 16];
static int dfd = -1;

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static int victim_intact(void)
{
	char buf[64] = "";
	FILE *f = fopen(victim, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strcmp(buf, "secret\n") == 0;
}

/* A hard link to the victim at the name: unlinked, never truncated. */
static int link_or_skip(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return 1;          /* cross-device or protected: nothing to check */
	int fd = hg_open_new_at(dfd, strrchr(to, '/') + 1, O_WRONLY, 0644);
	if (fd >= 0) {
		if (write(fd, "x", 1) != 1)
			perror("write");
		close(fd);
	}
	unlink(to);
	return victim_intact();
}

/* A symlink planted as load-<name>.out: the file is created in its place. */
static void test_open_new_replaces_symlink(void)
{
	char link[PATH_MAX + 32];
	snprintf(link, sizeof(link), "%s/load-x.out", dir);
	CHECK(symlink(victim, link) == 0, "symlink: %s", strerror(errno));
	int fd = hg_open_new_at(dfd, "load-x.out", O_WRONLY, 0644);
	CHECK(fd >= 0, "hg_open_new_at: %s", strerror(-fd));
	if (fd >= 0) {
		CHECK(write(fd, "out\n", 4) == 4, "write");
		close(fd);
	}
	struct stat st;
	CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode), "load-x.out is a regular file now");
	CHECK(victim_intact(), "the symlink's target was not written");
	unlink(link);
	CHECK(link_or_skip(victim, link), "a hard link's target was not truncated");
}

/* The atomic writer: a symlink at the final name is replaced, not
 * followed; the old predictable temporary (<name>.tmp.<pid>) is not used;
 * no temporary is left behind. */
static void test_atomic_write_ignores_planted_names(void)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/result.json", dir);
	snprintf(tmp, sizeof(tmp), "%s/result.json.tmp.%d", dir, (int)getpid());
	CHECK(symlink(victim, tmp) == 0, "symlink tmp");
	CHECK(symlink(victim, path) == 0, "symlink final");
	int rc = hg_write_buffer_at(dfd, "result.json", "{}\n", 3);
	CHECK(rc == 0, "hg_write_buffer_at: %s", strerror(-rc));
	CHECK(victim_intact(), "neither planted link was written through");
	struct stat st;
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 3,
	      "result.json is the new regular file");
	CHECK(lstat(tmp, &st) == 0 && S_ISLNK(st.st_mode), "the planted temp name was left alone");
	unlink(tmp);
	DIR *d = opendir(dir);
	struct dirent *e;
	int temps = 0;
	while (d && (e = readdir(d)))
		temps += strstr(e->d_name, ".tmp.") != NULL;
	if (d)
		closedir(d);
	CHECK(temps == 0, "%d temporaries left", temps);
}

/* A writer that fails: its errno comes back, not EIO. */
static int fail_enospc(FILE *f, const void *ctx)
{
	(void)f;
	(void)ctx;
	return -ENOSPC;
}

static void test_error_is_the_writers(void)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/other.json", dir);
	int rc = hg_write_atomic_at(dfd, "other.json", fail_enospc, NULL);
	CHECK(rc == -ENOSPC, "rc %d (%s)", rc, strerror(-rc));
	CHECK(access(path, F_OK) != 0, "nothing written on failure");
}

/* A directory renamed away and replaced by a link to the victim's after it
 * was opened: what is written relative to its fd goes where it went,
 * never through the link; hg_still_at tells the swap. */
static void test_swapped_directory(void)
{
	char run[PATH_MAX + 16], away[PATH_MAX + 16], other[PATH_MAX + 16], probe[PATH_MAX + 64];
	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(away, sizeof(away), "%s/run.away", dir);
	snprintf(other, sizeof(other), "%s/other", dir);
	CHECK(mkdir(run, 0755) == 0 && mkdir(other, 0755) == 0, "mkdir");
	int fd = hg_open_own_dir_at(dfd, "run", false, NULL);
	CHECK(fd >= 0, "hg_open_own_dir_at: %s", strerror(-fd));
	CHECK(hg_still_at(dfd, "run", fd), "still at its name before the swap");
	CHECK(rename(run, away) == 0 && symlink(other, run) == 0, "swap");
	CHECK(!hg_still_at(dfd, "run", fd), "the swap is seen");
	CHECK(hg_write_buffer_at(fd, "result.json", "{}\n", 3) == 0, "write after the swap");
	snprintf(probe, sizeof(probe), "%s/result.json", other);
	CHECK(access(probe, F_OK) != 0, "written through the planted link");
	snprintf(probe, sizeof(probe), "%s/result.json", away);
	CHECK(access(probe, F_OK) == 0, "not written where the directory went");
	int again = hg_open_own_dir_at(dfd, "run", false, NULL);
	CHECK(again == -ELOOP || again == -ENOTDIR, "the link is refused: %d", again);
	if (geteuid() == 0) {          /* another user's directory is refused */
		uid_t uid = 0;
		CHECK(chown(other, 4242, 4242) == 0, "chown");
		int theirs = hg_open_own_dir_at(dfd, "other", false, &uid);
		CHECK(theirs == -EPERM && uid == 4242, "another user's directory: %d", theirs);
	}
	if (fd >= 0)
		close(fd);
	unlink(probe);
	unlink(run);
	rmdir(away);
	rmdir(other);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hg-test-fsutil-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	write_text(victim, "secret\n");
	test_open_new_replaces_symlink();
	test_atomic_write_ignores_planted_names();
	test_error_is_the_writers();
	test_swapped_directory();
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	close(dfd);
	rmdir(dir);
	return unit_report("test_fsutil");
}
