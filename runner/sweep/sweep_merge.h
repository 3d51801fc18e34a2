/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun sweep-merge OUT SHARD_DIR...`: the shards of one sweep, written to
 * different directories, brought together in one (docs/cli.md). */
#ifndef HG_SWEEP_MERGE_H
#define HG_SWEEP_MERGE_H

/* Merges the n shard directories into out.  Returns 0 when OUT holds
 * every run, 1 when some are missing (listed), 3 when the shards are not
 * of one sweep or OUT is not new or empty. */
int hg_sweep_merge(const char *out, char *const *shards, int n);

#endif
