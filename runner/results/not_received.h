/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU the scenario did not get (docs/results.md, "CPU the scenario did not
 * get"): from the gap trace alone, per CPU and per phase, the time no
 * scenario thread ran on a CPU while one of them wanted it, that is, while
 * a thread whose interval there ended preempted waited to run again.  Fed
 * by the streaming writer with every interval, in bounded memory (a
 * sliding window of 50 us bins per CPU, folded into per-phase totals). */
#ifndef HG_NOT_RECEIVED_H
#define HG_NOT_RECEIVED_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/binfile.h"

struct hg_run_state;
struct hg_not_received;

#define HG_NR_BIN_NS 50000            /* bin width */
#define HG_NR_WARN_SHARE 0.05          /* of the CPU time wanted on a CPU in a phase */
#define HG_NR_WARN_MIN_NS 10000000     /* ... and at least this much */

/* NULL when out of memory (then nothing is measured). */
struct hg_not_received *hg_nr_new(const struct hg_run_state *rs);
/* One interval of thread `thread` (records of a thread come in time order). */
void hg_nr_interval(struct hg_not_received *nr, const struct hg_bin_interval *r);
/* Folds the bins that end before upto_ns (from time zero) into the totals;
 * INT64_MAX at the end. */
void hg_nr_fold(struct hg_not_received *nr, int64_t upto_ns);
/* Over the whole run and every CPU: the CPU time the threads received
 * and the time not received (false without data). */
bool hg_nr_total(const struct hg_not_received *nr, uint64_t *received, uint64_t *missed);
/* result.json `cpu_not_received` (a new reference; null without data). */
json_t *hg_nr_json(const struct hg_not_received *nr);
/* Warns (hg_run_warn) of each CPU and phase above the threshold in which
 * nothing else of the scenario (no load) could run there. */
void hg_nr_warn(const struct hg_not_received *nr, struct hg_run_state *rs);
void hg_nr_free(struct hg_not_received *nr);

#endif
