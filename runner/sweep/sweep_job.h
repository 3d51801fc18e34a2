/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One sweep as it runs: shared by sweep/sweep_run.c, which runs it, and
 * sweep/sweep_dir.c, which prepares its directory; no one else. */
#ifndef HG_SWEEP_JOB_H
#define HG_SWEEP_JOB_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

#include "base/dirlock.h"
#include "plan/plan.h"
#include "sweep/sweep_order.h"
#include "sweep/sweep_options.h"

struct hg_sweep_job {
	const struct hg_sweep_options *opt;
	struct hg_plan *base;
	char *text;                 /* the scenario text, with the --set options applied */
	json_t *sets;               /* --set as {"PATH": "VALUE"} (borrowed) */
	size_t n_points, n_runs;
	struct hg_sweep_order order;  /* this shard's runs, in the order they run */
	char note[1024];              /* the last point's warnings (result.json): what
					 --duration cut, optional loads left out */
	char id[65];                /* the sweep's id (sweep/sweep_index.h, hg_sweep_id) */
	char dir[PATH_MAX];         /* its name, for messages */
	int dir_fd;                 /* the sweep directory: every write is relative to it */
	struct hg_dirlock lock;     /* the sweep's (or the shard's) lock in dir */
};

#endif
