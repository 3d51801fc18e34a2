/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict first (docs/results.md, "The verdict"): the expectations'
 * PASS / FAIL in the units they were written in, then the few key
 * findings (CPU each thread set received against what it asked, deadline
 * misses, the worst latency, CPU the scenario did not get).  Built once as
 * result.json `verdict` (which hgreport puts first in report.md) and
 * printed first in the summary. */
#ifndef HG_VERDICT_H
#define HG_VERDICT_H

#include <jansson.h>
#include <stdio.h>

#include "run/runstate.h"

/* {status, headline, expectations: [{thread, metric, pass, value, bound,
 * worst_instance, line}], findings: [line...]}.  New reference. */
json_t *hg_verdict_json(const struct hg_run_state *rs);
/* "verdict: ..." and its lines, then "findings:" and theirs. */
void hg_verdict_print(const json_t *verdict, FILE *out);
/* "expectation failed: " and the verdict's line of each failed expectation
 * (its FAIL left out), for stderr: the same words and numbers as the
 * summary's verdict block. */
void hg_verdict_print_failed(const json_t *verdict, FILE *err);

#endif
