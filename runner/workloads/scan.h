/* The scanning loop of cpu_scan and cpu_scan_yield (Hourglass 5.2): the
 * gap loop, touching one cache line of the working set per iteration and
 * counting each line touched as a unit of work (so units compare across
 * working-set sizes).  pattern: sequential walks the lines in address
 * order; random follows one random cycle through all of them, one
 * dependent load per line (docs/cache.md). */
#ifndef HG_SCAN_H
#define HG_SCAN_H

#include "run/thread.h"

#define HG_SCAN_LINE 64

/* Lines a working set of that many bytes spans (at least 1). */
size_t hg_scan_lines(uint64_t working_set_bytes);
/* Writes into the first word of each of `lines` 64-byte lines of buf the
 * byte offset of the next line of one random cycle through all of them
 * (Sattolo's algorithm, reproducible from seed). */
void hg_scan_chase_build(unsigned char *buf, size_t lines, uint64_t seed);
/* Allocates and pre-touches w->scan (working_set bytes; random: builds
 * the cycle in it).  0 or -ENOMEM. */
int  hg_scan_prepare(struct hg_worker *w);
void hg_scan_cleanup(struct hg_worker *w);
uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns);
/* Scans until `cpu_ns` more CPU has been received (UINT64_MAX: until the
 * thread's finish or the run's stop). */
enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns);

#endif
