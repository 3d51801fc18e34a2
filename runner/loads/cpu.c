/* Load 'cpu': spinning workers (workers: 0 = one per online CPU) */
#include "loadgen.h"

const struct hg_load_ops hg_load_cpu = {
	.name = "cpu",
	.summary = "spinning workers (workers: 0 = one per online CPU)",
	.takes = HG_LP_WORKERS,
	.needs = 0,
};
