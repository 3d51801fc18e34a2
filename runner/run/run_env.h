/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run asks of the machine beyond its threads, and what it warns
 * about: real-time throttling, an unstable counter, memory locking, the
 * PM QoS hold, the real-time grants.  Internal to run/run.c. */
#ifndef HG_RUN_ENV_H
#define HG_RUN_ENV_H

#include <stdbool.h>
#include <stdio.h>

#include "run/runstate.h"

/* Some thread asks for FIFO/RR or a reservation. */
bool hg_run_plan_has_rt(const struct hg_plan *plan);
/* Warnings known before the threads start (TSC, RT throttling). */
void hg_run_warn_environment(struct hg_run_state *rs);
/* cpu_dma_latency held from the start gate; 0, or exit 4 under --strict. */
int hg_run_hold_pmqos(struct hg_run_state *rs, FILE *err);
/* mlockall(MCL_CURRENT) at the gate; 0, or exit 4 under --strict. */
int hg_run_lock_memory(struct hg_run_state *rs, FILE *err);
/* Some thread was granted FIFO, RR or DEADLINE. */
bool hg_run_any_rt_granted(const struct hg_run_state *rs);

#endif
