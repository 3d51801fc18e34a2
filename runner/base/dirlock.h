/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One writer per directory: a lock file, HG_DIRLOCK_NAME in a run
 * directory or a sweep directory, locked (fcntl F_SETLK, a POSIX record
 * lock: it works over NFS too, and fork does not pass it on) for as long as
 * hgrun writes there.  The kernel releases it when its holder dies, even by
 * SIGKILL, so a lock left by a killed hgrun is taken over by the next one at
 * once; the file's text (who holds it) is only for the message a second
 * writer gets:
 *
 *   hgrun: -o DIR: another hgrun is writing there (pid 4242 on node7 since
 *   2026-11-25T15:02:11Z: hgrun run s.yaml); wait for it to end, or choose
 *   another directory
 *
 * The holder removes the file when it is done (it still holds the lock, and
 * a taker checks that the file it locked is still the one at the name). */
#ifndef HG_DIRLOCK_H
#define HG_DIRLOCK_H

#include <stdbool.h>
#include <stddef.h>

#define HG_DIRLOCK_NAME ".hgrun-lock"
/* Shards of one sweep hold this one, in the sweep directory, only while
 * each reads, checks and writes sweep.json (sweep/sweep_dir.c). */
#define HG_DIRLOCK_INDEX ".hgrun-lock-index"

struct hg_dirlock {
	int dir;                /* the directory, -1 when not held */
	int fd;                 /* the lock file */
	char name[64];
};

/* Takes dir's lock file `name` (HG_DIRLOCK_NAME, or a shard's), recording
 * `what` (the command).  0 when held; -EBUSY when another process holds it
 * (its text in holder); another -errno otherwise (the directory cannot be
 * opened or written). */
int hg_dirlock_take(const char *dir, const char *name, const char *what,
		    struct hg_dirlock *lock, char *holder, size_t holder_len);
/* The same, relative to an open directory fd (not kept: dup'ed). */
int hg_dirlock_take_at(int dir, const char *name, const char *what,
		       struct hg_dirlock *lock, char *holder, size_t holder_len);
/* Removes the file and releases the lock.  A lock not held is fine. */
void hg_dirlock_release(struct hg_dirlock *lock);
/* Whether `name` in dir is held by another live process now (holder's
 * text into holder); false when free or absent.  Never on a lock this
 * process holds through another fd: a record lock is the process's, and
 * closing any fd of its file would release it. */
bool hg_dirlock_busy_at(int dir, const char *name, char *holder, size_t holder_len);

#endif
