/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands of hgrun and their help texts (docs/cli.md): `hgrun help
 * COMMAND`, `--help`, and the usage lines errors end with. */
#ifndef HG_HELP_H
#define HG_HELP_H

#include <stdio.h>

enum hg_command { HG_CMD_RUN, HG_CMD_SWEEP, HG_CMD_MERGE, HG_CMD_VALIDATE, HG_CMD_LIST,
		  HG_CMD_CALIBRATE, HG_CMD_SCHEMA, HG_CMD_HOURGLASS, HG_CMD_DOCTOR, HG_CMD_HELP,
		  HG_CMD_VERSION };

/* The help of one command (HG_CMD_HELP: the overview). */
void hg_cli_usage(FILE *out, enum hg_command command);

#endif
