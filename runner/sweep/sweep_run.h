/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun sweep`: one run per grid point and repeat, each in its own result
 * directory, indexed by sweep.json; --shard K/N for job arrays, --resume
 * to finish an interrupted sweep (docs/cli.md). */
#ifndef HG_SWEEP_RUN_H
#define HG_SWEEP_RUN_H

#include "plan/plan.h"
#include "sweep/sweep_options.h"

/* Runs the sweep of `base`, the scenario's plan with the --set options
 * applied (opt->text), with its sweep: section.  Returns the
 * exit code: 0 when every run passed, 1 when one failed, else 5 when one
 * failed an expectation, 2 invalid scenario, 3 a -o DIR refused, 4
 * privilege (--strict), 130/143 when a signal stopped the sweep. */
int hg_sweep_run(struct hg_plan *base, const struct hg_sweep_options *opt);

#endif
