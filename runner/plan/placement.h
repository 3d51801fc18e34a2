/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the run's own threads go: the streaming writer, the watchdog, the
 * load supervisor and the main thread while it waits for the end run on
 * the online CPUs that no thread of the plan may use, when there are such
 * CPUs, so that their wake-ups (the writer's drains, main's signal wait, a
 * load's start or stop) never interrupt a measured CPU (docs/architecture.md, "The threads of a run"). */
#ifndef HG_PLACEMENT_H
#define HG_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>

#include "plan/plan.h"

/* The online CPUs no thread of the plan may run on, into *set; returns
 * how many (0 when the threads may use every CPU). */
int hg_placement_free_cpus(const struct hg_plan *plan, cpu_set_t *set);
/* Moves the calling thread onto those CPUs when there are some, first
 * saving its affinity in *old when old is not NULL; true when it moved. */
bool hg_placement_off_measured(const struct hg_plan *plan, cpu_set_t *old);

#endif
