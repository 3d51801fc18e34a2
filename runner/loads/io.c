/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Load 'io': writes a file of size bytes with write + fsync, reads it back
 * from the device (page cache dropped), unlinks it, again (the I/O stress of
 * the Abeni study).  Files live in a fresh directory under dir (default
 * /var/tmp, which is disk-backed where /tmp may be tmpfs), removed by hgrun
 * at the end even if the process was killed mid-write.  The directory's name
 * holds hgrun's pid (hgrun-io-<pid>-<name>-XXXXXX): one left by an hgrun
 * that was SIGKILLed is removed by the next io load that uses the same dir,
 * once that pid is gone. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/plan.h"
#include "loads/rows.h"

#define DEFAULT_DIR "/var/tmp"

struct params {
	uint64_t size_bytes;
	char *dir;
	uint64_t workers, stagger_ns;
};

static const struct hg_param params[] = {
	HG_LOAD_ROW_SIZE(struct params, size_bytes, "bytes written, fsynced and read back per file"),
	{ .name = "dir", .kind = HG_PARAM_STRING, .offset = offsetof(struct params, dir),
	  .min = 1, .def = DEFAULT_DIR,
	  .help = "the files go in a fresh directory under dir (disk-backed, unlike a tmpfs /tmp)" },
	HG_LOAD_ROW_WORKERS(struct params, workers),
	HG_LOAD_ROW_STAGGER(struct params, stagger_ns),
	HG_PARAMS_END
};

enum { C_FILES, C_WRITTEN, C_READ };
#define CHUNK (1u << 20)

#define PREFIX "hgrun-io-"

/* The pid in an io directory's name, or 0 when the name is not one. */
static pid_t owner_pid(const char *name)
{
	if (strncmp(name, PREFIX, strlen(PREFIX)) != 0)
		return 0;
	char *end;
	long pid = strtol(name + strlen(PREFIX), &end, 10);
	return pid > 0 && *end == '-' ? (pid_t)pid : 0;
}

/* Empties and removes one stale directory, never following a link. */
static void remove_stale(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	unlinkat(parent, name, AT_REMOVEDIR);
}

/* Directories of io loads whose hgrun is gone (SIGKILL, power cut), ours
 * only (same owner), are removed. */
static void remove_leftovers(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	while (d && (e = readdir(d))) {
		pid_t pid = owner_pid(e->d_name);
		if (!pid || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode) && st.st_uid == geteuid())
			remove_stale(dirfd(d), e->d_name);
	}
	if (d)
		closedir(d);
}

static int io_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	const struct params *p = l->plan->params;
	const char *dir = p->dir;
	char path[PATH_MAX];
	remove_leftovers(dir);
	if (snprintf(path, sizeof(path), "%s/" PREFIX "%d-%s-XXXXXX", dir, (int)getpid(),
		     l->plan->name) >=
	    (int)sizeof(path)) {
		snprintf(err, errlen, "dir '%s' is too long", dir);
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(path)) {
		int e = errno;
		snprintf(err, errlen, "cannot create a directory in '%s': %s (dir: must be a writable directory)",
			 dir, strerror(e));
		return -e;
	}
	l->priv = strdup(path);
	if (!l->priv) {
		rmdir(path);
		return -ENOMEM;
	}
	return 0;
}

static int write_file(const char *path, const char *buf, uint64_t size, struct hg_load_slot *slot)
{
	int fd = hg_open_new(path, O_WRONLY, 0600);
	if (fd < 0)
		return hg_load_fail(slot, "open %s: %s", path, strerror(-fd));
	for (uint64_t done = 0; done < size;) {
		size_t n = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return hg_load_fail(slot, "write %s: %s", path, strerror(errno));
		}
		done += (uint64_t)w;
		hg_load_add(slot, C_WRITTEN, (uint64_t)w);
	}
	int rc = fsync(fd) == 0 ? 0 : hg_load_fail(slot, "fsync %s: %s", path, strerror(errno));
	close(fd);
	return rc;
}

static int read_file(const char *path, char *buf, struct hg_load_slot *slot)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return hg_load_fail(slot, "open %s: %s", path, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);   /* read from the device */
	ssize_t n;
	while ((n = read(fd, buf, CHUNK)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			hg_load_add(slot, C_READ, (uint64_t)n);
	int rc = n == 0 ? 0 : hg_load_fail(slot, "read %s: %s", path, strerror(errno));
	close(fd);
	return rc;
}

static int io_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/w%u", (const char *)l->priv, proc);
	char *buf = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return hg_load_fail(slot, "mmap: %s", strerror(errno));
	memset(buf, 0x5a, CHUNK);
	for (;;) {
		if (write_file(path, buf, ((const struct params *)l->plan->params)->size_bytes, slot) != 0 ||
		    read_file(path, buf, slot) != 0)
			return 1;
		unlink(path);
		hg_load_add(slot, C_FILES, 1);
	}
	return 0;
}

/* Everything in the directory (files of killed processes too), then it. */
static void io_cleanup(struct hg_load_run *l)
{
	char *dir = l->priv;
	if (!dir)
		return;
	hg_empty_dir(dir);
	rmdir(dir);
	free(dir);
	l->priv = NULL;
}

/* The default dir; another one is judged when the load starts. */
static bool io_supported(char *why, size_t size)
{
	if (access(DEFAULT_DIR, W_OK) == 0)
		return true;
	snprintf(why, size, "%s: %s (give the load a writable dir)", DEFAULT_DIR, strerror(errno));
	return false;
}

static bool io_trust_note(const struct hg_load_plan *lp, const char *user, char *buf,
			  size_t size)
{
	const struct params *p = lp->params;
	snprintf(buf, size, "writes files outside the result directory, in %s", p->dir);
	return true;
}

const struct hg_load_ops hg_load_io = {
	.name = "io",
	.summary = "writes + fsync and reads back files of size bytes in dir",
	.params = { params, sizeof(struct params) },
	.supported = io_supported,
	.trust_note = io_trust_note,
	.counters = { "files", "bytes_written", "bytes_read" },
	.prepare = io_prepare,
	.run = io_run,
	.cleanup = io_cleanup,
};
