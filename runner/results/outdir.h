/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output directories that never lose results: -o DIR must be new or empty;
 * --force removes only the files hgrun and hgreport write there (and
 * refuses when anything else is there); default directories get a unique
 * name.  A directory is opened once and locked before it is checked, and
 * stays locked until the run (the merge, the sweep) ends: what the check
 * saw is what the run writes into (docs/security.md). */
#ifndef HG_OUTDIR_H
#define HG_OUTDIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/dirlock.h"
#include "results/outdir_walk.h"

/* A directory claimed for writing: open, locked, checked. */
struct hg_outdir {
	int fd;                  /* the directory, -1 when not claimed */
	struct hg_dirlock lock;  /* its lock (HG_DIRLOCK_NAME), held */
	bool created;            /* hgrun made it: removed again when left empty */
	char path[PATH_MAX];     /* as given, for messages */
};

/* -o DIR of a run or of sweep-merge's OUT: made when missing (its parents
 * too), opened once (a link as DIR itself is followed: DIR names the
 * user's choice; nothing below it is), locked with `what` as the holder's
 * text, then checked under the lock: absent, empty, or with force emptied
 * of hgrun's files.  Returns 0 with out claimed, else prints why to err and
 * returns HG_EXIT_USAGE (refused) or HG_EXIT_FAILED (out not claimed).
 * hgrun's files are its names (results, temporaries,
 * load-NAME.out/.err/.yaml, a stress_ng load's load-NAME.tmp/ of any depth,
 * report/, export/) owned by the user running it; a directory another
 * hgrun is writing (its lock file held) is refused. */
int hg_outdir_claim(const char *dir, enum hg_outdir_kind kind, bool force, const char *what,
		    FILE *err, struct hg_outdir *out);
/* Releases the lock, closes the directory, and removes it if hgrun made it
 * and it is still empty.  Fine on one not claimed. */
void hg_outdir_release(struct hg_outdir *out);
/* The same check on the open directory fd (a sweep's, whose lock the
 * caller holds: held_lock, and held_lock2 or NULL).  `shown` names it. */
int hg_outdir_check_at(int fd, const char *shown, enum hg_outdir_kind kind, bool force,
		       FILE *err, const char *held_lock, const char *held_lock2);
/* Takes the lock of one open run directory and removes the files hgrun
 * wrote there (for --resume rerunning an incomplete run); the lock stays
 * held in *lock for the run.  Returns 0 or -errno with why in `why`: -EBUSY
 * when another hgrun writes it, -ENOTEMPTY when it holds anything else
 * (which stays); the lock is not held then. */
int hg_outdir_clear_run_at(int fd, struct hg_dirlock *lock, char *why, size_t why_len);
/* Creates prefix, prefix-2, prefix-3... whichever is new first (mkdir is
 * the arbiter, so two hgrun started in the same second never share one),
 * and opens it as a directory of the user's.  out receives the name.
 * Returns the directory's fd or -errno. */
int hg_outdir_make_unique(const char *prefix, char *out, size_t size);

#endif
