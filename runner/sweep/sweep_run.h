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
#include "plan/timeline.h"
#include "scenario/sweep.h"

/* What the command line asks of a sweep (cli/cli.c parses it). */
struct hg_sweep_options {
	const char *file;                /* the scenario file */
	char *text;                      /* its text with the --set options applied (borrowed):
					  * each point's values are applied to it */
	size_t n_sets;                   /* how many --set options there were */
	json_t *overrides;               /* them, as {"PATH": "VALUE"} (borrowed) */
	const char *out_dir;             /* -o DIR, or NULL for results/NAME/sweep-STAMP */
	bool force, resume, quiet, strict, kernel_trace;
	bool dry_run;                    /* --list: print the runs, run nothing */
	struct hg_length length;         /* --duration, --cut, --scale (plan/timeline.h) */
	unsigned shard, shards;          /* --shard K/N (N = 0: all runs; sweep/sweep_order.h) */
	bool grid_order;                 /* --grid-order: points in grid order, not shuffled */
	bool seed_given;
	uint64_t seed;                   /* --seed N: the order's seed */
	int argc;
	char **argv;                     /* the command line, for result.json */
};

/* Runs the sweep of `base`, the scenario's plan with the --set options
 * applied (opt->text), with its sweep: section.  Returns the
 * exit code: 0 when every run passed, 1 when one failed, else 5 when one
 * failed an expectation, 2 invalid scenario, 3 a -o DIR refused, 4
 * privilege (--strict), 130/143 when a signal stopped the sweep. */
int hg_sweep_run(struct hg_plan *base, const struct hg_sweep_options *opt);

#endif
