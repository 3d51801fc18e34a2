/* Workload 'cpu_yield': as cpu, yielding each time it has received yield_after of CPU */
#include "plan/workload.h"
#include "run/thread.h"

/* Each slice is CPU received since the last yield (gaps inside a slice do
 * not count), then the interval closes as `yielded` and sched_yield(). */
static void cpu_yield_run(struct hg_worker *w)
{
	while (hg_worker_run_cpu(w, w->plan->workload.yield_after_ns) == HG_GAP_REACHED)
		hg_worker_yield(w);
}

const struct hg_workload_ops hg_workload_cpu_yield = {
	.name = "cpu_yield",
	.summary = "as cpu, yielding each time it has received yield_after of CPU",
	.takes = HG_WP_YIELD_AFTER,
	.needs = HG_WP_YIELD_AFTER,
	.periodic = false,
	.blocks = false,
	.run = cpu_yield_run,
};
