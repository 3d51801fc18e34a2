/* Executing a plan: calibrate, lock memory, start the measuring threads on
 * one barrier under the watchdog, wait for the duration or a signal, join,
 * write the results, evaluate expectations, print the summary. */
#ifndef HG_RUN_H
#define HG_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "plan.h"

struct hg_run_options {
	const char *out_dir;      /* NULL: results/<name>/<UTC time>/ */
	bool strict;              /* missing privilege: exit 4 instead of a warning */
	bool quiet;               /* no summary */
	int argc;                 /* the command line, for result.json */
	char **argv;
	json_t *sweep_point;      /* borrowed; NULL = null */
	FILE *out;                /* summary; NULL = stdout */
	FILE *err;                /* errors; NULL = stderr */
};

/* Returns the exit code of DESIGN.md: 0 ok, 1 run or expectation failed,
 * 2 a CPU of the plan is not online here, 4 privilege missing (strict),
 * 130/143 interrupted by SIGINT/SIGTERM (a result is still written). */
int hg_run(const struct hg_plan *plan, const struct hg_run_options *opt);

#endif
