/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun completion bash|zsh`: the shell completion script on stdout,
 * made from hgrun's tables (cli/complete.c). */
#ifndef HG_COMPLETE_H
#define HG_COMPLETE_H

#include <stdio.h>

/* Returns an exit code (3 for a shell it does not know). */
int hg_completion_command(FILE *out, FILE *err, const char *shell);

#endif
