/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The man page hgrun-scenario(5) (cli/manpage_scenario.c). */
#ifndef HG_MANPAGE_SCENARIO_H
#define HG_MANPAGE_SCENARIO_H

#include <stdio.h>

void hg_manpage_scenario(FILE *out);

#endif
