/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'cpu_scan_yield': cpu_scan that yields after each yield_after of CPU */
#include "plan/workload.h"
#include "workloads/scan.h"

struct params {
	struct hg_scan_params scan;     /* first: hg_scan_* read it */
	uint64_t yield_after_ns;
};

static const struct hg_param params[] = {
	HG_SCAN_ROWS,
	HG_ROW_YIELD_AFTER(struct params, yield_after_ns),
	HG_PARAMS_END
};

static void cpu_scan_yield_run(struct hg_worker *w)
{
	const struct params *p = w->plan->workload.params;
	while (hg_scan_run_cpu(w, p->yield_after_ns) == HG_GAP_REACHED)
		hg_worker_yield(w);
}

const struct hg_workload_ops hg_workload_cpu_scan_yield = {
	.name = "cpu_scan_yield",
	.summary = "cpu_scan that yields after each yield_after of CPU",
	.params = { params, sizeof(struct params) },
	.periodic = false,
	.blocks = false,
	.prepare = hg_scan_prepare,
	.run = cpu_scan_yield_run,
	.cleanup = hg_scan_cleanup,
	.footprint = hg_scan_footprint,
};
