/* Workload 'cpu_yield': as cpu, yielding each time it has received yield_after of CPU */
#include "workload.h"

const struct hg_workload_ops hg_workload_cpu_yield = {
	.name = "cpu_yield",
	.summary = "as cpu, yielding each time it has received yield_after of CPU",
	.takes = HG_WP_YIELD_AFTER,
	.needs = HG_WP_YIELD_AFTER,
	.periodic = false,
	.blocks = false,
};
