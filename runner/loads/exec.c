/* Load 'exec': runs a shell command line, output captured, killed at stop */
#include "loadgen.h"

const struct hg_load_ops hg_load_exec = {
	.name = "exec",
	.summary = "runs a shell command line, output captured, killed at stop",
	.takes = HG_LP_COMMAND,
	.needs = HG_LP_COMMAND,
};
