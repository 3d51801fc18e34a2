/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Executing a plan: calibrate, lock memory, start the measuring threads on
 * one barrier under the watchdog, wait for the duration or a signal, join,
 * and hand the state to a sink that writes the results (results/). */
#ifndef HG_RUN_H
#define HG_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "run/run_options.h"

/* Returns the exit code of base/exitcodes.h: 0 ok, 1 the run failed, 5 an
 * expectation failed, 2 a CPU of the plan is not online here, 4 privilege
 * missing (strict), 130/143 interrupted by SIGINT/SIGTERM (a result is
 * still written). */
int hg_run(const struct hg_plan *plan, const struct hg_run_options *opt);

#endif
