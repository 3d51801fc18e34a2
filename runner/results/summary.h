/* The summary printed after a run: per thread what it got. */
#ifndef HG_SUMMARY_H
#define HG_SUMMARY_H

#include <stdio.h>

#include "run/runstate.h"


void hg_summary_print(const struct hg_run_state *rs, FILE *out);

#endif
