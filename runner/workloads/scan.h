/* The scanning loop of cpu_scan and cpu_scan_yield (Hourglass 5.2): the
 * gap loop, touching one cache line of the working set per iteration and
 * counting each full pass as a unit of work.  The working set is the
 * thread's private state (w->priv). */
#ifndef HG_SCAN_H
#define HG_SCAN_H

#include "run/thread.h"
#include "workloads/rows.h"

/* The first member of each scanning workload's parameters. */
struct hg_scan_params {
	uint64_t working_set_bytes;
};

#define HG_SCAN_ROWS HG_ROW_WORKING_SET(struct hg_scan_params, working_set_bytes)

/* Allocates and pre-touches the working set into w->priv. 0 or -ENOMEM. */
int  hg_scan_prepare(struct hg_worker *w);
void hg_scan_cleanup(struct hg_worker *w);
uint64_t hg_scan_footprint(const struct hg_thread_plan *tp, uint64_t active_ns);
/* Scans until `cpu_ns` more CPU has been received (UINT64_MAX: until the
 * thread's finish or the run's stop). */
enum hg_gap_result hg_scan_run_cpu(struct hg_worker *w, uint64_t cpu_ns);

#endif
