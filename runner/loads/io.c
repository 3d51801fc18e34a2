/* Load 'io': writes + fsync and reads back files of size bytes in dir */
#include "loadgen.h"

const struct hg_load_ops hg_load_io = {
	.name = "io",
	.summary = "writes + fsync and reads back files of size bytes in dir",
	.takes = HG_LP_SIZE | HG_LP_DIR | HG_LP_WORKERS,
	.needs = HG_LP_SIZE,
};
