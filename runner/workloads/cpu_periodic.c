/* Workload 'cpu_periodic': never blocks; a job of exec CPU starts when one completes; a period with no completed job is a miss */
#include "workload.h"

const struct hg_workload_ops hg_workload_cpu_periodic = {
	.name = "cpu_periodic",
	.summary = "never blocks; a job of exec CPU starts when one completes; a period with no completed job is a miss",
	.takes = HG_WP_EXEC | HG_WP_PERIOD,
	.needs = HG_WP_EXEC | HG_WP_PERIOD,
	.periodic = true,
	.blocks = false,
};
