/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The summary printed after a run: per thread what it got. */
#ifndef HG_SUMMARY_H
#define HG_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

#include "run/runstate.h"


void hg_summary_print(const struct hg_run_state *rs, FILE *out);

/* The same as one object for scripts (`hgrun run --json`, docs/cli.md):
 * {format, verdict, exit_status, headline, scenario, complete, interrupted_by,
 * result_dir, result, threads, loads, expectations, findings, warnings}.  Its
 * exit_status and verdict are the run's as known here; the caller sets
 * the final ones with hg_summary_json_exit.  New reference. */
json_t *hg_summary_json(const struct hg_run_state *rs);
/* Sets exit_status and verdict ("ok", "expectation_failed", "failed",
 * "invalid", "usage", "not_granted", "interrupted") of a summary object,
 * or makes one (summary NULL: the run did not get that far). */
json_t *hg_summary_json_exit(json_t *summary, int exit_status);


#endif
