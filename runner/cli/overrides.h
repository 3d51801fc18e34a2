/* --set PATH=VALUE: the scenario with values changed from the command line,
 * through the same edit, loader and checks as a sweep grid's point
 * (scenario/sweep.h), with errors that name the option. */
#ifndef HG_OVERRIDES_H
#define HG_OVERRIDES_H

#include <jansson.h>

#include "cli/cli.h"
#include "plan/plan.h"

/* Loads `path` (for_run: also checks its CPUs are online here) with the
 * --set options applied.  Errors are printed to err: the file's own as
 * FILE:LINE:COL, a --set's as "hgrun: --set PATH=VALUE: ...".  keep_file_plan
 * (sweep): check the options, but return the file's own plan (with its
 * sweep: section).  Returns the plan, or NULL with *rc the exit code. */
struct hg_plan *hg_load_with_sets(const struct hg_cli *cli, const char *path, bool for_run,
				  bool keep_file_plan, FILE *err, int *rc);
/* {"PATH": "VALUE", ...} of the --set options (a new reference). */
json_t *hg_sets_json(const struct hg_cli *cli);

#endif
