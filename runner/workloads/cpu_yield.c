/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'cpu_yield': as cpu, yielding each time it has received yield_after of CPU */
#include "plan/workload.h"
#include "run/thread.h"
#include "workloads/rows.h"

struct params {
	uint64_t yield_after_ns;
};

static const struct hg_param params[] = {
	HG_ROW_YIELD_AFTER(struct params, yield_after_ns),
	HG_PARAMS_END
};

/* Each slice is CPU received since the last yield (gaps inside a slice do
 * not count), then the interval closes as `yielded` and sched_yield(). */
static void cpu_yield_run(struct hg_worker *w)
{
	const struct params *p = w->plan->workload.params;
	while (hg_worker_run_cpu(w, p->yield_after_ns) == HG_GAP_REACHED)
		hg_worker_yield(w);
}

const struct hg_workload_ops hg_workload_cpu_yield = {
	.name = "cpu_yield",
	.summary = "as cpu, yielding each time it has received yield_after of CPU",
	.params = { params, sizeof(struct params) },
	.periodic = false,
	.blocks = false,
	.run = cpu_yield_run,
};
