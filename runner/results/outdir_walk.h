/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What in a result or sweep directory is hgrun's own (results/outdir_walk.c):
 * the walk --force, --resume and the -o check share.  Only names hgrun or
 * hgreport write, in files and directories of the user running it, one
 * directory level at a time through directory fds. */
#ifndef HG_OUTDIR_WALK_H
#define HG_OUTDIR_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum hg_outdir_kind {
	HG_OUTDIR_RUN,          /* a run's directory */
	HG_OUTDIR_SWEEP,        /* a sweep's */
	HG_OUTDIR_MERGE,        /* sweep-merge's OUT: walked as a sweep's */
};

/* What a walk found that hgrun did not write, for the message. */
struct hg_outdir_walk {
	bool remove;             /* remove hgrun's names as they are seen */
	uid_t uid;               /* only files of this user are hgrun's */
	const char *held;        /* the lock file this process holds in the top directory */
	const char *held2;       /* and another (a shard's index lock), or NULL */
	size_t ours, foreign;
	char foreign_names[256];
	char busy[512];          /* a directory another hgrun is writing, and who */
	int error;               /* first removal error (-errno) */
};

/* Walks the open directory dir (not closed) as a directory of `kind`:
 * counts hgrun's own entries (w->ours) and others (w->foreign, the first
 * named), removing hgrun's with w->remove.  w->uid is set here. */
void hg_outdir_walk(struct hg_outdir_walk *w, int dir, enum hg_outdir_kind kind);

#endif
