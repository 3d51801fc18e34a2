/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun hourglass ARGS...`: a Hourglass 0.5 command line as a scenario
 * (docs/scenario.md, "From Hourglass command lines"). */
#ifndef HG_CLI_HOURGLASS_H
#define HG_CLI_HOURGLASS_H

#include <stdio.h>

/* ARGS (what follows `hgrun hourglass`) -> scenario YAML on out, each
 * mapping that is not one to one on err; an exit code (3: bad ARGS;
 * 2: the YAML, still written, does not validate: its errors on err). */
int hg_hourglass_command(int argc, char **argv, FILE *out, FILE *err);

#endif
