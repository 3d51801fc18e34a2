/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directory locks (base/dirlock.h): a POSIX record lock (fcntl F_SETLK,
 * whole file) on a lock file created without following links, owned by us
 * and with one link, checked after locking to still be the file at its
 * name.  Not flock(): a flock belongs to the open file, which the load
 * processes hgrun forks would inherit and hold after hgrun died; a record
 * lock belongs to the process and is never inherited. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/fsutil.h"

/* Whether fd is a lock file hgrun may use: a regular file of ours with one
 * link (a planted hard link to another file is never written). */
static bool ours(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	       st.st_uid == geteuid();
}

static bool still_at_name(int dir, const char *name, int fd)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && fstatat(dir, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int lock_file(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	return fcntl(fd, F_SETLK, &fl);
}

static void read_holder(int fd, char *holder, size_t len)
{
	if (!holder || !len)
		return;
	ssize_t n = pread(fd, holder, len - 1, 0);
	holder[n > 0 ? n : 0] = '\0';
	holder[strcspn(holder, "\n")] = '\0';
	if (!holder[0])
		snprintf(holder, len, "a process that has not said who it is yet");
}

static void write_holder(int fd, const char *what)
{
	char host[256] = "?", text[512], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	gethostname(host, sizeof(host) - 1);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	int n = snprintf(text, sizeof(text), "pid %d on %s since %s: %s\n", (int)getpid(), host,
			 stamp, what ? what : "hgrun");
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	if (ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, text, (size_t)n, 0);
}

int hg_dirlock_take_at(int dir, const char *name, const char *what,
		       struct hg_dirlock *lock, char *holder, size_t holder_len)
{
	lock->dir = lock->fd = -1;
	if (!hg_plain_name(name) || strlen(name) >= sizeof(lock->name))
		return -EINVAL;
	for (int tries = 0; tries < 16; tries++) {
		int fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != ELOOP && errno != EACCES)
			return -errno;
		if (fd < 0 || !ours(fd)) {
			/* A link, or another user's file at our name (another user's
			 * hgrun, or planted): refused while a process holds it, else
			 * replaced; never written through. */
			if (fd >= 0)
				close(fd);
			if (hg_dirlock_busy_at(dir, name, holder, holder_len))
				return -EBUSY;
			if (unlinkat(dir, name, 0) < 0 && errno != ENOENT)
				return -errno;
			continue;
		}
		if (lock_file(fd) < 0) {
			int e = errno;
			bool busy = e == EAGAIN || e == EACCES;
			if (busy)
				read_holder(fd, holder, holder_len);
			close(fd);
			return busy ? -EBUSY : -e;
		}
		if (!still_at_name(dir, name, fd)) {   /* its holder removed it meanwhile */
			close(fd);
			continue;
		}
		write_holder(fd, what);
		lock->dir = fcntl(dir, F_DUPFD_CLOEXEC, 0);
		lock->fd = fd;
		snprintf(lock->name, sizeof(lock->name), "%s", name);
		return 0;
	}
	return -EAGAIN;
}

int hg_dirlock_take(const char *dir, const char *name, const char *what,
		    struct hg_dirlock *lock, char *holder, size_t holder_len)
{
	int d = hg_open_dir(dir);
	if (d < 0) {
		lock->dir = lock->fd = -1;
		return d;
	}
	int rc = hg_dirlock_take_at(d, name, what, lock, holder, holder_len);
	close(d);
	return rc;
}

void hg_dirlock_release(struct hg_dirlock *lock)
{
	if (!lock || lock->fd < 0)
		return;
	if (lock->dir >= 0 && still_at_name(lock->dir, lock->name, lock->fd))
		unlinkat(lock->dir, lock->name, 0);
	close(lock->fd);
	if (lock->dir >= 0)
		close(lock->dir);
	lock->fd = lock->dir = -1;
}

bool hg_dirlock_busy_at(int dir, const char *name, char *holder, size_t holder_len)
{
	/* F_GETLK asks without taking (closing an fd of a file whose lock this
	 * process holds would release it); a link is never followed. */
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	bool busy = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fcntl(fd, F_GETLK, &fl) == 0 &&
		    fl.l_type != F_UNLCK;
	if (busy)
		read_holder(fd, holder, holder_len);
	close(fd);
	return busy;
}
