/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --set PATH=VALUE: the scenario with values changed from the command line,
 * through the same edit, loader and checks as a sweep grid's point
 * (scenario/sweep.h), with errors that name the option. */
#ifndef HG_OVERRIDES_H
#define HG_OVERRIDES_H

#include <jansson.h>

#include "cli/cli.h"
#include "plan/plan.h"
#include "plan/timeline.h"

/* Loads `path` (for_run: also checks its CPUs are online here) with every
 * --set option applied at once, then checks it once (so options that only
 * make sense together, a window moved earlier, work).  Errors are printed
 * to err: the file's own as FILE:LINE:COL, an option's as "hgrun: --set
 * PATH=VALUE: ...".  for_sweep: a --set of a path the grid varies is
 * refused.  text_out (may be NULL): the edited scenario text, sweep:
 * section included, malloc'd.  Returns the plan, or NULL with *rc the exit
 * code. */
struct hg_plan *hg_load_with_sets(const struct hg_cli *cli, const char *path, bool for_run,
				  bool for_sweep, FILE *err, int *rc, char **text_out);
/* --scale (every time of the timeline) or --duration (the end; refused,
 * naming them, when thread sets or loads would start after it, unless
 * --cut).  `what` prefixes messages ("hgrun: " or "hgrun: sweep point
 * p003: "); note (note_size bytes, may be NULL) gets what --duration cut
 * or left out, for result.json's warnings.  Returns 0, or HG_EXIT_USAGE
 * after printing why. */
int hg_apply_length(const struct hg_cli *cli, struct hg_plan *plan, const char *what, FILE *err,
		    char *note, size_t note_size);
/* The same options as plan/timeline.h's struct hg_length. */
struct hg_length hg_cli_length(const struct hg_cli *cli);
/* {"PATH": "VALUE", ...} of the --set options (a new reference). */
json_t *hg_sets_json(const struct hg_cli *cli);

#endif
