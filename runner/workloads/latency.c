/* Workload 'latency': sleeps one period on its timer and records each wake-up's lateness */
#include "workload.h"

const struct hg_workload_ops hg_workload_latency = {
	.name = "latency",
	.summary = "sleeps one period on its timer and records each wake-up's lateness",
	.takes = HG_WP_PERIOD | HG_WP_ALIGN,
	.needs = HG_WP_PERIOD,
	.periodic = false,
	.blocks = true,
};
