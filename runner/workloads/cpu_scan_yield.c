/* Workload 'cpu_scan_yield': cpu_scan that yields after each yield_after of CPU */
#include "plan/workload.h"
#include "workloads/scan.h"

static void cpu_scan_yield_run(struct hg_worker *w)
{
	while (hg_scan_run_cpu(w, w->plan->workload.yield_after_ns) == HG_GAP_REACHED)
		hg_worker_yield(w);
}

const struct hg_workload_ops hg_workload_cpu_scan_yield = {
	.name = "cpu_scan_yield",
	.summary = "cpu_scan that yields after each yield_after of CPU",
	.takes = HG_WP_WORKING_SET | HG_WP_YIELD_AFTER | HG_WP_PATTERN,
	.needs = HG_WP_WORKING_SET | HG_WP_YIELD_AFTER,
	.periodic = false,
	.blocks = false,
	.prepare = hg_scan_prepare,
	.run = cpu_scan_yield_run,
	.cleanup = hg_scan_cleanup,
	.footprint = hg_scan_footprint,
};
