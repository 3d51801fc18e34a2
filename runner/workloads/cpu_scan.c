/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'cpu_scan': as cpu, touching a working_set array line by line (pattern); counts lines */
#include "plan/workload.h"
#include "workloads/scan.h"

static void cpu_scan_run(struct hg_worker *w)
{
	hg_scan_run_cpu(w, UINT64_MAX);
}

static const struct hg_param params[] = { HG_SCAN_ROWS, HG_PARAMS_END };

const struct hg_workload_ops hg_workload_cpu_scan = {
	.name = "cpu_scan",
	.summary = "as cpu, touching a working_set array line by line (pattern); counts lines",
	.params = { params, sizeof(struct hg_scan_params) },
	.periodic = false,
	.blocks = false,
	.prepare = hg_scan_prepare,
	.run = cpu_scan_run,
	.cleanup = hg_scan_cleanup,
	.footprint = hg_scan_footprint,
};
