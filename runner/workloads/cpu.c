/* Workload 'cpu': runs whenever it can, recording the gap trace */
#include "workload.h"

const struct hg_workload_ops hg_workload_cpu = {
	.name = "cpu",
	.summary = "runs whenever it can, recording the gap trace",
	.takes = 0,
	.needs = 0,
	.periodic = false,
	.blocks = false,
};
