/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output directories that never lose results: -o DIR must be new or empty;
 * --force removes only the files hgrun and hgreport write there (and
 * refuses when anything else is there); default directories get a unique
 * name. */
#ifndef HG_OUTDIR_H
#define HG_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum hg_outdir_kind { HG_OUTDIR_RUN, HG_OUTDIR_SWEEP };

/* Checks -o DIR before anything is written.  Returns 0 when it may be
 * used (absent, empty, or, with force, emptied of hgrun's files), else
 * prints why to err and returns HG_EXIT_USAGE (or HG_EXIT_FAILED when a
 * removal fails).  hgrun's files are its names (results, temporaries,
 * load-NAME.out/.err/.yaml, a stress_ng load's load-NAME.tmp/, report/,
 * export/) owned by the user running it; a directory
 * another hgrun is writing (its lock file held) is refused.  held_lock:
 * the lock file the caller holds in DIR (a sweep's), or NULL: DIR's lock
 * is taken for the check and released after it. */
int hg_outdir_prepare(const char *dir, enum hg_outdir_kind kind, bool force, FILE *err,
		      const char *held_lock);
/* Removes the files of one run directory that hgrun wrote (for --resume
 * rerunning an incomplete run), holding its lock meanwhile.  Returns 0 or
 * -errno with why in `why`: -EBUSY when another hgrun writes it, -ENOTEMPTY
 * when it holds anything else (which stays). */
int hg_outdir_clear_run(const char *dir, char *why, size_t why_len);
/* Creates prefix, prefix-2, prefix-3... whichever is new first (mkdir is
 * the arbiter, so two hgrun started in the same second never share one).
 * out receives the name.  Returns 0 or -errno. */
int hg_outdir_make_unique(const char *prefix, char *out, size_t size);

#endif
