/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the streaming writer (results/stream.c) has counted of one
 * measuring thread through its rings: read by the progress line, the CPU
 * check, checkpoints and result.json.  Data only. */
#ifndef HG_TOTALS_H
#define HG_TOTALS_H

#include <stdint.h>

#include "base/stats.h"

struct hg_thread_totals {
	uint64_t intervals, gaps, cpu_ns, wakeups;
	uint64_t trace_written, latency_written;
	struct hg_histogram lat_all;       /* every wake-up seen (latency workloads) */
	uint64_t gap_max_ns;
	/* intervals on a CPU outside the thread's cpus (one taken offline) */
	uint64_t outside_intervals, outside_ns;
	int outside_cpu;
};

#endif
