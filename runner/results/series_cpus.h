/* SPDX-License-Identifier: GPL-2.0-or-later */
/* series.jsonl's CPU lines (docs/results.md): per series interval and per
 * CPU of the scenario, the interrupts it took, from /proc/interrupts read
 * when the lines are written.  Owned by results/series.c. */
#ifndef HG_SERIES_CPUS_H
#define HG_SERIES_CPUS_H

#include <jansson.h>
#include <stdint.h>

#include "run/runstate.h"

struct hg_series_cpus;

/* Reads the counts at the start; NULL when /proc/interrupts cannot be read
 * (then there are no CPU lines) or out of memory. */
struct hg_series_cpus *hg_series_cpus_open(const struct hg_run_state *rs);
/* The line of the scenario CPU after *cpu (-1 to start an interval: reads
 * /proc/interrupts once), NULL after the last one (or for a NULL c). */
json_t *hg_series_cpus_next(struct hg_series_cpus *c, const struct hg_run_state *rs,
			    int64_t end, int64_t span, int *cpu);
void hg_series_cpus_close(struct hg_series_cpus *c);

#endif
