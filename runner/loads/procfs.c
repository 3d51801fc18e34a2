/* Load 'procfs': reads /proc files in a loop */
#include "loadgen.h"

const struct hg_load_ops hg_load_procfs = {
	.name = "procfs",
	.summary = "reads /proc files in a loop",
	.takes = HG_LP_WORKERS,
	.needs = 0,
};
