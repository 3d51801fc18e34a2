/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One line on each key of the scenario format (cli/help_scenario.c). */
#ifndef HG_HELP_SCENARIO_H
#define HG_HELP_SCENARIO_H

/* The line on `key` of `part` ("scenario", "trace", "thread", "reservation",
 * "load", "expect", "sweep"), or NULL when there is none. */
const char *hg_scenario_key_help(const char *part, const char *key);

#endif
