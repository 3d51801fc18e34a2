/* Workload 'cpu_scan_yield': cpu_scan that yields after each yield_after of CPU */
#include "workload.h"

const struct hg_workload_ops hg_workload_cpu_scan_yield = {
	.name = "cpu_scan_yield",
	.summary = "cpu_scan that yields after each yield_after of CPU",
	.takes = HG_WP_WORKING_SET | HG_WP_YIELD_AFTER,
	.needs = HG_WP_WORKING_SET | HG_WP_YIELD_AFTER,
	.periodic = false,
	.blocks = false,
};
