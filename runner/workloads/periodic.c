/* Workload 'periodic': each period, runs until exec of CPU is received, then sleeps on its timer */
#include "workload.h"

const struct hg_workload_ops hg_workload_periodic = {
	.name = "periodic",
	.summary = "each period, runs until exec of CPU is received, then sleeps on its timer",
	.takes = HG_WP_EXEC | HG_WP_PERIOD,
	.needs = HG_WP_EXEC | HG_WP_PERIOD,
	.periodic = true,
	.blocks = true,
};
