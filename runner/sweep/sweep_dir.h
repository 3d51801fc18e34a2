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
/* pNNN and pNNN/rM made (or found) in the open sweep directory as
 * directories of the user's, not links (a pNNN planted in a shared sweep
 * directory as a link to /etc is refused, not followed), and opened: the
 * run's files are then written relative to the run directory's fd, which a
 * rename or a link planted later cannot redirect.  Returns the run
 * directory's fd (the point's in *pfd), or -errno with why. */
int hg_sweep_dir_own_run(int sweep_fd, const char *name, int *pfd, char *why, size_t len);

#endif
