/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-thread numbers of a finished run, read by the expectations, the
 * summary and result.json: collected once by results/sink.c. */
#ifndef HG_NUMBERS_H
#define HG_NUMBERS_H

#include <stdint.h>

#include "plan/metrics.h"
#include "run/runstate.h"

/* Fills n (struct hg_thread_numbers, plan/metrics.h) for worker w. */
void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n);

#endif
