/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scenario's expectations judged against the run's numbers
 * (docs/scenario.md, expect:). */
#ifndef HG_EXPECT_H
#define HG_EXPECT_H


#include "run/runstate.h"


/* Evaluates plan->expects into rs->expectations, sets rs->expect_failed. */
void hg_expect_evaluate(struct hg_run_state *rs);
/* Failed ones are named on stderr from the verdict (results/verdict.h). */

#endif
