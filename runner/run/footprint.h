/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How much memory a run will pin: trace rings, wake-up rings, working
 * sets and memory loads, against what the machine has available, so a run
 * that would exhaust memory refuses to start instead. */
#ifndef HG_FOOTPRINT_H
#define HG_FOOTPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

struct hg_footprint {
	uint64_t trace_bytes;      /* gap-trace rings of all threads */
	uint64_t workload_bytes;   /* wake-up rings and histograms, working sets */
	uint64_t load_bytes;       /* memory and io loads' buffers */
	uint64_t total;
	uint64_t available;        /* MemAvailable, 0 when unknown */
};

void hg_footprint_of(const struct hg_plan *plan, struct hg_footprint *f);
/* 0, or -1 with a message naming what to lower when total exceeds the
 * share of available memory a run may take (3/4). */
int hg_footprint_check(const struct hg_footprint *f, const struct hg_plan *plan,
		       char *msg, size_t size);

#endif
