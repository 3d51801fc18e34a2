/* `hgrun sweep`: one run per grid point and repeat, each in its own result
 * directory, indexed by sweep.json; --shard K/N for job arrays, --resume
 * to finish an interrupted sweep (docs/cli.md). */
#ifndef HG_SWEEP_CMD_H
#define HG_SWEEP_CMD_H

#include "cli/cli.h"

/* Returns the exit code: 0 when every run passed, 1 when one failed or an
 * expectation failed, 2 invalid scenario, 3 a -o DIR refused, 4 privilege
 * (--strict), 130/143 when a signal stopped the sweep. */
int hg_sweep_command(const struct hg_cli *cli);

#endif
