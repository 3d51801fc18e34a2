/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: hgrun [run] SCENARIO | sweep | sweep-merge | validate |
 * list | calibrate | schema (docs/cli.md is the contract). */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/exitcodes.h"
#include "cli/help.h"
#include "scenario/sweep.h"

#define HG_MAX_SETS 64
#define HG_SET_PATH_MAX 256

struct hg_cli {
	enum hg_command command;
	enum hg_command help_for; /* HG_CMD_HELP: the command asked about (HG_CMD_HELP: all) */
	char **files;            /* scenario files (run, sweep: exactly one); sweep-merge: OUT SHARD... */
	int n_files;
	bool resolved;           /* validate --resolved */
	bool json;               /* calibrate, list --json; run --json: a summary object on stdout */
	bool path_only;          /* schema --path */
	bool man;                /* help --man [PAGE]: the man page, PAGE in list_what */
	bool strict;             /* run --strict */
	bool kernel_trace;       /* run, sweep --kernel-trace: as trace.kernel: true */
	bool quiet;              /* run --quiet: no start line, progress or summary; sweep: only failures */
	bool force;              /* run, sweep --force: replace what hgrun wrote in -o DIR */
	bool resume;             /* sweep --resume: run only what -o DIR lacks */
	const char *out_dir;     /* run -o DIR */
	bool duration_given;
	uint64_t duration_ns;    /* run --duration */
	bool cut;                /* --cut: --duration may leave out threads and loads */
	double scale;            /* --scale F: every time of the timeline x F (0: none) */
	struct hg_override sets[HG_MAX_SETS];   /* --set PATH=VALUE, in order */
	char set_paths[HG_MAX_SETS][HG_SET_PATH_MAX]; /* their paths (argv keeps PATH=VALUE whole) */
	size_t n_sets;
	const char *list_what;   /* list [workloads|timers|priorities|loads|metrics]; schema [NAME] */
	unsigned shard, shards;  /* sweep --shard K/N (N = 0: all) */
	bool grid_order;         /* sweep --grid-order */
	bool seed_given;
	uint64_t seed;           /* sweep --seed N */
	bool dry_run;            /* sweep --list: print the runs, run nothing */
	int argc;
	char **argv;          /* the command line as typed (not permuted by getopt) */
};

/* Returns 0, or HG_EXIT_USAGE after printing the problem to err. */
int hg_cli_parse(int argc, char **argv, struct hg_cli *cli, FILE *err);

#endif
