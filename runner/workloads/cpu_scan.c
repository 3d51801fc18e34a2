/* Workload 'cpu_scan': as cpu, sequentially touching a working_set array; counts passes */
#include "workload.h"

const struct hg_workload_ops hg_workload_cpu_scan = {
	.name = "cpu_scan",
	.summary = "as cpu, sequentially touching a working_set array; counts passes",
	.takes = HG_WP_WORKING_SET,
	.needs = HG_WP_WORKING_SET,
	.periodic = false,
	.blocks = false,
};
