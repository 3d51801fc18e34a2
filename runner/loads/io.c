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
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>


#include "base/fsutil.h"
#include "base/tree.h"
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

/* The load's directory: `name` in the user's dir (`parent`), opened once
 * as a directory of the user's; the processes make and remove their files
 * relative to it, so a name swapped for a link meanwhile leads nowhere. */
struct iodir {
	int parent, fd;
	char name[NAME_MAX + 1];
	char shown[PATH_MAX];       /* dir/name, for messages */
	bool tidied;
};

/* Directories of io loads whose hgrun is gone (SIGKILL, power cut), ours
 * only (same owner), are removed, whatever depth (base/tree.h). */
static void remove_leftovers(int parent)
{
	int fd = fcntl(parent, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	struct stat st;
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d))) {
		pid_t pid = owner_pid(e->d_name);
		if (!pid || pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		struct hg_tree t = { .uid = geteuid(), .remove = true };
		if (fstatat(parent, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISDIR(st.st_mode) && st.st_uid == geteuid())
			hg_tree_walk(parent, e->d_name, &t);
	}
	if (d)
		closedir(d);
}

/* A new PREFIX<pid>-<name>-XXXXXX of mode 0700 in parent, opened. */
static int make_dir(struct iodir *io, const char *load)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int tries = 0; tries < 64; tries++) {
		unsigned char r[6];
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EIO;
		int len = snprintf(io->name, sizeof(io->name), PREFIX "%d-%.180s-", (int)getpid(), load);
		for (int i = 0; i < 6 && len + i + 1 < (int)sizeof(io->name); i++)
			io->name[len + i] = letters[r[i] % (sizeof(letters) - 1)];
		io->name[len + 6] = '\0';
		if (mkdirat(io->parent, io->name, 0700) == 0)
			return hg_open_own_dir_at(io->parent, io->name, false, NULL);
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

static int io_prepare(struct hg_load_run *l, char *err, size_t errlen)
{
	const struct params *p = l->plan->params;
	struct iodir *io = calloc(1, sizeof(*io));
	if (!io)
		return -ENOMEM;
	io->fd = -1;
	/* dir is the user's choice: a link as dir is followed, once. */
	io->parent = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = io->parent < 0 ? -errno : 0;
	if (!rc) {
		remove_leftovers(io->parent);
		io->fd = rc = make_dir(io, l->plan->name);
	}
	if (rc < 0) {
		snprintf(err, errlen, "cannot create a directory in '%s': %s (dir: must be a "
			 "writable directory)", p->dir, strerror(-rc));
		if (io->parent >= 0)
			close(io->parent);
		free(io);
		return rc;
	}
	snprintf(io->shown, sizeof(io->shown), "%s/%s", p->dir, io->name);
	l->priv = io;
	return 0;
}

static int write_file(int dir, const char *name, const char *buf, uint64_t size,
		      struct hg_load_slot *slot)
{
	int fd = hg_open_new_at(dir, name, O_WRONLY, 0600);
	if (fd < 0)
		return hg_load_fail(slot, "open %s: %s", name, strerror(-fd));
	for (uint64_t done = 0; done < size;) {
		size_t n = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return hg_load_fail(slot, "write %s: %s", name, strerror(errno));
		}
		done += (uint64_t)w;
		hg_load_add(slot, C_WRITTEN, (uint64_t)w);
	}
	int rc = fsync(fd) == 0 ? 0 : hg_load_fail(slot, "fsync %s: %s", name, strerror(errno));
	close(fd);
	return rc;
}

static int read_file(int dir, const char *name, char *buf, struct hg_load_slot *slot)
{
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return hg_load_fail(slot, "open %s: %s", name, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);   /* read from the device */
	ssize_t n;
	while ((n = read(fd, buf, CHUNK)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			hg_load_add(slot, C_READ, (uint64_t)n);
	int rc = n == 0 ? 0 : hg_load_fail(slot, "read %s: %s", name, strerror(errno));
	close(fd);
	return rc;
}

static int io_run(struct hg_load_run *l, unsigned proc, struct hg_load_slot *slot)
{
	const struct iodir *io = l->priv;
	char name[32];
	snprintf(name, sizeof(name), "w%u", proc);
	char *buf = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return hg_load_fail(slot, "mmap: %s", strerror(errno));
	memset(buf, 0x5a, CHUNK);
	for (;;) {
		if (write_file(io->fd, name, buf, ((const struct params *)l->plan->params)->size_bytes,
			       slot) != 0 ||
		    read_file(io->fd, name, buf, slot) != 0)
			return 1;
		unlinkat(io->fd, name, 0);
		hg_load_add(slot, C_FILES, 1);
	}
	return 0;
}

/* Everything in the directory (files of killed processes too), then it;
 * what cannot go is said (it is outside the result directory: a warning,
 * not a file of the run). */
static const char *io_tidy(struct hg_load_run *l, json_t *warnings)
{
	struct iodir *io = l->priv;
	if (!io || io->tidied)
		return NULL;
	io->tidied = true;
	close(io->fd);
	io->fd = -1;
	struct hg_tree t = { .uid = geteuid(), .remove = true };
	int rc = hg_tree_walk(io->parent, io->name, &t);
	if (rc && rc != -ENOENT && warnings)
		json_array_append_new(warnings, json_sprintf(
			"its directory %s could not be removed (%s%s): remove it by hand", io->shown,
			t.left ? "left: " : strerror(-rc), t.left ? t.first_left : ""));
	return NULL;
}

static void io_cleanup(struct hg_load_run *l)
{
	struct iodir *io = l->priv;
	if (!io)
		return;
	io_tidy(l, NULL);
	close(io->parent);
	free(io);
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
	.tidy = io_tidy,
};
