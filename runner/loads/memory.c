/* Load 'memory': streams over a buffer of size bytes, mapping and unmapping it (page faults, munmap) */
#include "loadgen.h"

const struct hg_load_ops hg_load_memory = {
	.name = "memory",
	.summary = "streams over a buffer of size bytes, mapping and unmapping it (page faults, munmap)",
	.takes = HG_LP_SIZE | HG_LP_WORKERS,
	.needs = HG_LP_SIZE,
};
