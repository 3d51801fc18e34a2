/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parameter rows several loads take (plan/param.h), each listed in the
 * load's own table with the offset into its own struct.  A key only one
 * load takes is written in that load's file. */
#ifndef HG_LOAD_ROWS_H
#define HG_LOAD_ROWS_H

#include <stddef.h>

#include "plan/keys.h"
#include "plan/param.h"

#define HG_LOAD_WORKERS_MAX 1024

#define HG_LOAD_ROW_WORKERS(type, member) \
	{ .name = HG_KEY_WORKERS, .kind = HG_PARAM_UINT, .offset = offsetof(type, member), \
	  .min = 1, .max = HG_LOAD_WORKERS_MAX, .def = "1", .help = "processes, each doing the load" }

/* Worker i starts its work at the load's start + i * stagger (docs/loads.md,
 * "Staggered workers"); read by loads/process.c, checked by
 * scenario/resolve_loads.c, scaled by plan/timeline.c. */
#define HG_LOAD_ROW_STAGGER(type, member) \
	{ .name = HG_KEY_STAGGER, .kind = HG_PARAM_DURATION, .offset = offsetof(type, member), \
	  .max = 86400000000000ull, .def = "0s", .help = "worker i starts at the load's start " \
	  "+ i * stagger (Dougan's staggered readers); 0s: all at once" }

#define HG_LOAD_ROW_SIZE(type, member, help_text) \
	{ .name = "size", .kind = HG_PARAM_SIZE, .offset = offsetof(type, member), \
	  .min = 4096, .required = true, .help = help_text }

/* A program's stdout and stderr (loads/keeper.h). */
#define HG_LOAD_ROW_OUTPUT_MAX(type, member) \
	{ .name = "output_max", .kind = HG_PARAM_SIZE, .offset = offsetof(type, member), \
	  .def = "64MiB", .help = "bytes of its stdout and of its stderr kept in load-NAME.out " \
	  "and .err; the rest is read and discarded" }

#endif
