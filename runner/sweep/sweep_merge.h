/* `hgrun sweep-merge OUT SHARD_DIR...`: the shards of one sweep, written to
 * different directories, brought together in one (docs/cli.md). */
#ifndef HG_MERGE_CMD_H
#define HG_MERGE_CMD_H

#include "cli/cli.h"

/* Returns 0 when OUT holds every run, 1 when some are missing (listed),
 * 3 when the shards are not of one sweep or OUT is not new or empty. */
int hg_merge_command(const struct hg_cli *cli);

#endif
