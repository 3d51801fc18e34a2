/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The directory of a sweep: prepared once before the first run, and each
 * run's pNNN/rM below it (sweep/sweep_dir.c). */
#ifndef HG_SWEEP_DIR_H
#define HG_SWEEP_DIR_H

#include <stddef.h>

struct hg_sweep_job;

/* -o DIR (checked and locked) or a new results/NAME/sweep-STAMP (locked),
 * with sweep.json written into it (j->dir).  Returns 0 or the exit code
 * after printing why to stderr. */
int hg_sweep_dir_prepare(struct hg_sweep_job *j);
/* SWEEP_DIR/pNNN and SWEEP_DIR/pNNN/rM made (or found) as directories of
 * our own, not links: the run's files are then written by path below
 * directories nobody else can swap (a pNNN planted in a shared sweep
 * directory as a link to /etc is refused, not followed).  0, or -errno
 * with why. */
int hg_sweep_dir_own_run(const char *sweep_dir, const char *name, char *why, size_t len);

#endif
