/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Did each thread run where the scenario put it?  Warnings for CPUs taken
 * offline during the run and for intervals on a CPU outside a thread's
 * cpus, from the streaming writer's counts. */
#ifndef HG_CPUCHECK_H
#define HG_CPUCHECK_H

#include <sched.h>
#include <stdbool.h>

#include "results/totals.h"
#include "run/runstate.h"

/* tot: per thread (rs->n_workers).  Returns whether some thread ran
 * outside its cpus. */
bool hg_cpucheck_warn(struct hg_run_state *rs, const cpu_set_t *online_at_start,
		      const struct hg_thread_totals *tot);

#endif
