/* Load 'fork': a fork/exit storm */
#include "loadgen.h"

const struct hg_load_ops hg_load_fork = {
	.name = "fork",
	.summary = "a fork/exit storm",
	.takes = HG_LP_WORKERS,
	.needs = 0,
};
