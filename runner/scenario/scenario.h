/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loading a scenario file, all stages: libyaml syntax, shape check,
 * libcyaml into structs, resolve, check.  `plugins` are the workloads,
 * timers and loads its names may refer to (cli/ passes every plugin
 * compiled in: cli/plugins.h). */
#ifndef HG_SCENARIO_H
#define HG_SCENARIO_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "plan/plugins.h"
#include "scenario/diag.h"

/* Returns the plan, or NULL with errors in d (d->file is set to path). */
struct hg_plan *hg_scenario_load(const char *path, const struct hg_plugins *plugins,
				 struct hg_diags *d);
/* As hg_scenario_load, plus what only the machine that runs it can tell
 * (CPUs that are not online here). */
struct hg_plan *hg_scenario_load_for_run(const char *path, const struct hg_plugins *plugins,
					 struct hg_diags *d);
/* The programs the plan's loads run that are not on PATH here
 * (hg_load_missing_tool), one line each on out, at loads[N].type of the
 * file at path (FILE:LINE:COL: note: loads[N].type: ...).  For validate
 * (run false) each is a note; for a run each is an error, or a note that
 * the run leaves the load out when it is optional.  Returns the number of
 * errors (a run must not start: exit 4). */
size_t hg_scenario_tool_notes(const char *path, const struct hg_plan *plan, bool run, FILE *out);
/* The same from text; `name` stands for the file in messages. */
struct hg_plan *hg_scenario_load_string(const char *name, const char *text,
					const struct hg_plugins *plugins, struct hg_diags *d);

#endif
