/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Walking and removing a directory tree of any depth (a stress-ng
 * stressor's leftovers, an io load's directory) through one directory fd
 * at a time: no recursion and no limit on depth, a bounded number of open
 * fds, links never followed, only the entries of one user touched, and a
 * directory moved during the walk is noticed, never followed up ("..").
 * What is left is counted and the first such entry named, so the caller
 * can say so (docs/security.md, "Cleanup that finishes or says so"). */
#ifndef HG_TREE_H
#define HG_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct hg_tree {
	/* in */
	uid_t uid;              /* only this user's entries are the walk's */
	bool remove;            /* remove them (directories once empty); else look only */
	/* out */
	uint64_t entries;       /* entries seen (the top directory included) */
	uint64_t removed;       /* entries removed */
	uint64_t left;          /* entries not the user's, or that could not be removed */
	uint64_t depth;         /* the deepest level seen (the top is 0) */
	int error;              /* the first errno of a failure (0: none) */
	char first_left[256];   /* the first entry left, relative to the top ("a/b/c") */
};

/* Walks (and with t->remove, removes) the directory `name` in dir, depth
 * first.  The top must be a directory of t->uid, not a link.  Returns 0
 * when every entry was the user's (and, removing, was removed, the top
 * too), else -ENOTEMPTY (something left: t->left, t->first_left) or
 * -errno (the top cannot be opened, or the walk lost its way: a directory
 * was moved meanwhile). */
int hg_tree_walk(int dir, const char *name, struct hg_tree *t);

#endif
