/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands of hgrun and their help (docs/cli.md): `hgrun help
 * COMMAND`, `--help`, the usage lines errors end with, the man page and the
 * shell completion, all from the tables of cli/help_text.c. */
#ifndef HG_HELP_H
#define HG_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "cli/help_text.h"

/* The overview's paragraph, the exit codes and the pointer to the docs. */
extern const char hg_help_description[];
extern const char hg_help_exit_codes[];

/* The help of one command (HG_CMD_HELP: the overview). */
void hg_cli_usage(FILE *out, enum hg_command command);

/* `text` wrapped at `width` columns, each line after the first indented by
 * `indent` spaces (the first continues where the caller left it at `col`). */
void hg_help_wrap(FILE *out, const char *text, int col, int indent, int width);

#endif
