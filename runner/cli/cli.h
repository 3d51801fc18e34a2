/* The command line: hgrun [run] SCENARIO | validate | list | calibrate. */
#ifndef HG_CLI_H
#define HG_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/exitcodes.h"


enum hg_command { HG_CMD_RUN, HG_CMD_SWEEP, HG_CMD_VALIDATE, HG_CMD_LIST,
		  HG_CMD_CALIBRATE, HG_CMD_HELP, HG_CMD_VERSION };

struct hg_cli {
	enum hg_command command;
	char **files;            /* scenario files (run: exactly one) */
	int n_files;
	bool resolved;           /* validate --resolved */
	bool json;               /* calibrate --json, list --json */
	bool strict;             /* run --strict */
	bool quiet;              /* run --quiet: no start line, progress or summary */
	const char *out_dir;     /* run -o DIR */
	bool duration_given;
	uint64_t duration_ns;    /* run --duration */
	const char *list_what;   /* list [workloads|timers|priorities|loads|metrics] */
	unsigned shard, shards;  /* sweep --shard K/N: runs j with j % N == K (N = 0: all) */
	bool dry_run;            /* sweep --list: print the runs, run nothing */
	int argc;
	char **argv;
};

/* Returns 0, or HG_EXIT_USAGE after printing the problem to err. */
int hg_cli_parse(int argc, char **argv, struct hg_cli *cli, FILE *err);
void hg_cli_usage(FILE *out);

#endif
