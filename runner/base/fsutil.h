/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small file-system helpers shared by the result writers.  Everything
 * hgrun writes or removes is named relative to a directory fd opened once
 * and checked (docs/security.md): a directory swapped for a link after it
 * was opened is never written through. */
#ifndef HG_FSUTIL_H
#define HG_FSUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* mkdir -p (the parents of a directory the user named).  0 or -errno. */
int hg_mkdirs(const char *path);
/* The bytes an unprivileged writer may still put on the file system of
 * the open fd, or -1 when it cannot be told. */
int64_t hg_free_bytes_fd(int fd);
/* Reads the first line of a (sysfs, procfs) file into buf without its
 * newline and trailing blanks.  Returns its length, or -errno (buf is then ""). */
int hg_read_first_line(const char *path, char *buf, size_t size);

/* Creates the plain name anew in dir for writing (flags: O_WRONLY or
 * O_RDWR, plus others): what is there is unlinked, then the file is created
 * with O_EXCL and O_NOFOLLOW, so a symlink or file planted in a shared
 * directory is never written through.  Returns the fd or -errno. */
int hg_open_new_at(int dir, const char *name, int flags, mode_t mode);
/* The same as a stdio stream (mode 0644); NULL with errno set. */
FILE *hg_fopen_new_at(int dir, const char *name);

/* Writes the plain name in dir through a temporary file beside it, with an
 * unpredictable name created O_EXCL|O_NOFOLLOW: fn writes the content
 * (returning 0 or -errno), then fsync and renameat over the name (a link
 * planted there is replaced, never followed).  A failure leaves no
 * temporary file and the old file untouched.  Returns 0 or -errno. */
int hg_write_atomic_at(int dir, const char *name, int (*fn)(FILE *f, const void *ctx),
		       const void *ctx);
/* The same for a buffer. */
int hg_write_buffer_at(int dir, const char *name, const char *data, size_t len);

/* A plain name inside a directory: not empty, not "." or "..", no '/',
 * at most NAME_MAX bytes.  Names read from files (sweep.json's runs) are
 * checked with it before any path is built from them. */
bool hg_plain_name(const char *name);
/* Opens path as a directory, refusing a symbolic link as its last
 * component (O_DIRECTORY | O_NOFOLLOW).  Returns the fd or -errno. */
int hg_open_dir(const char *path);
/* Opens the plain name inside dir as a directory without following a
 * link (create: mkdirat it first when missing, mode 0777 less umask).
 * Returns the fd or -errno (-ELOOP or -ENOTDIR for a link or a file). */
int hg_open_dir_at(int dir, const char *name, bool create);
/* The same, and the directory must be the user's (euid): another user's
 * is -EPERM (its uid in *uid when uid is not NULL).  What hgrun writes
 * into below a directory others may write to is opened this way. */
int hg_open_own_dir_at(int dir, const char *name, bool create, uid_t *uid);
/* Whether the plain name in dir is still the directory open as fd (the
 * same device and inode, not a link): false once it was renamed away or
 * replaced. */
bool hg_still_at(int dir, const char *name, int fd);

/* The program `name` as execvp would find it: the first executable
 * `DIR/name` of PATH's absolute directories (PATH unset or empty:
 * /usr/local/bin:/usr/bin:/bin), into path; false when there is none. */
bool hg_find_program(const char *name, char *path, size_t size);

#endif
