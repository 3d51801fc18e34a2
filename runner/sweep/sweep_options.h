/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What cli/ gives a sweep (sweep/sweep_run.h). */
#ifndef HG_SWEEP_OPTIONS_H
#define HG_SWEEP_OPTIONS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plugins.h"
#include "plan/timeline.h"

/* What the command line asks of a sweep (cli/cli.c parses it). */
struct hg_sweep_options {
	const char *file;                /* the scenario file */
	const struct hg_plugins *plugins;  /* what each point's scenario may name */
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

#endif
