/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `hgrun help --man [hgrun|scenario]`: the man pages hgrun(1) and
 * hgrun-scenario(5) in roff, made from the help tables and the parameter
 * tables (cli/manpage.c, cli/manpage_scenario.c). */
#ifndef HG_MANPAGE_H
#define HG_MANPAGE_H

#include <stdio.h>

/* which: NULL or "hgrun" (section 1), "scenario" (section 5).  Returns an
 * exit code. */
int hg_manpage_command(FILE *out, FILE *err, const char *which);

#endif
