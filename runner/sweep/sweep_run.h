/* `hgrun sweep`: one run per grid point and repeat, each in its own result
 * directory, indexed by sweep.json; --shard K/N for job arrays, --resume
 * to finish an interrupted sweep (docs/cli.md). */
#ifndef HG_SWEEP_RUN_H
#define HG_SWEEP_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "scenario/sweep.h"

/* What the command line asks of a sweep (cli/cli.c parses it). */
struct hg_sweep_options {
	const char *file;                /* the scenario file */
	const struct hg_override *sets;  /* --set, in order: applied before each point's values */
	size_t n_sets;
	json_t *overrides;               /* the same as {"PATH": "VALUE"} (borrowed) */
	const char *out_dir;             /* -o DIR, or NULL for results/NAME/sweep-STAMP */
	bool force, resume, quiet, strict, kernel_trace;
	bool dry_run;                    /* --list: print the runs, run nothing */
	bool duration_given;
	uint64_t duration_ns;            /* --duration */
	unsigned shard, shards;          /* --shard K/N: runs j with j % N == K (N = 0: all) */
	int argc;
	char **argv;                     /* the command line, for result.json */
};

/* Runs the sweep of `base`, the scenario file's own plan (with its sweep:
 * section; the --set options already checked against it).  Returns the
 * exit code: 0 when every run passed, 1 when one failed, else 5 when one
 * failed an expectation, 2 invalid scenario, 3 a -o DIR refused, 4
 * privilege (--strict), 130/143 when a signal stopped the sweep. */
int hg_sweep_run(struct hg_plan *base, const struct hg_sweep_options *opt);

#endif
