/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scanning loop of cpu_scan and cpu_scan_yield (Hourglass 5.2): the
 * gap loop, touching one cache line of the working set per iteration and
 * counting each line touched as a unit of work (so units compare across
 * working-set sizes).  pattern: sequential walks the lines in address
 * order; random follows one random cycle through all of them, one
 * dependent load per line (docs/cache.md).  The working set is the
 * thread's private state (w->priv). */
#ifndef HG_SCAN_H
#define HG_SCAN_H

#include "run/thread.h"
#include "workloads/rows.h"

#define HG_SCAN_LINE 64

enum hg_scan_pattern { HG_SCAN_SEQUENTIAL, HG_SCAN_RANDOM };
extern const char *const hg_scan_patterns[];

/* The first member of each scanning workload's parameters. */
struct hg_scan_params {
	uint64_t working_set_bytes;
	unsigned pattern;               /* enum hg_scan_pattern */
};

#define HG_SCAN_ROWS \
	HG_ROW_WORKING_SET(struct hg_scan_params, working_set_bytes), \
	{ .name = "pattern", .kind = HG_PARAM_ENUM, \
	  .offset = offsetof(struct hg_scan_params, pattern), .choices = hg_scan_patterns, \
	  .def = "sequential", \
	  .help = "sequential: lines in address order (the prefetcher hides memory); random: " \
		  "one random cycle through every line, one dependent load per line" }

/* Lines a working set of that many bytes spans (at least 1). */
size_t hg_scan_lines(uint64_t working_set_bytes);
/* Writes into the first word of each of `lines` 64-byte lines of buf the
 * byte offset of the next line of one random cycle through all of them
 * (Sattolo's algorithm, reproducible from seed). */
void hg_scan_chase_build(unsigned char *buf, size_t lines, uint64_t seed);
/* Allocates and pre-touches the working set into w->priv (random: builds
 * the cycle in it).  0 or -ENOMEM. */
int  hg_scan_prepare(struct hg_worker *w);
void hg_scan_cleanup(struct hg_worker *w);
uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns);
/* Scans until `cpu_ns` more CPU has been received (UINT64_MAX: until the
 * thread's finish or the run's stop). */
enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns);

#endif
