/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-thread numbers of a finished run, read by the expectations, the
 * summary and result.json: collected once by results/sink.c. */
#ifndef HG_NUMBERS_H
#define HG_NUMBERS_H

#include <stddef.h>
#include <stdint.h>

#include "plan/metrics.h"
#include "run/runstate.h"

/* Fills n (struct hg_thread_numbers, plan/metrics.h) for worker w. */
void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n);

/* "3194 of 10000 wake-up slots skipped (31.9%)" for a latency thread of
 * align: absolute that skipped slots whose time had passed, "" for none. */
void hg_skipped_words(const struct hg_worker *w, char *buf, size_t size);
/* A warning per thread that skipped slots, saying what the skipped ones
 * count as (latency's skipped_slots). */
void hg_skipped_warn(struct hg_run_state *rs);

#endif
