/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parameter rows several workloads take (plan/param.h): each workload's
 * table lists them with the offset into its own struct, so `period` means
 * the same, with the same range and help, wherever it appears.  A key only
 * one workload takes is written in that workload's file. */
#ifndef HG_WORKLOAD_ROWS_H
#define HG_WORKLOAD_ROWS_H

#include <stddef.h>

#include "plan/keys.h"
#include "plan/param.h"

#define HG_ROW_PERIOD(type, member, help_text) \
	{ .name = HG_KEY_PERIOD, .kind = HG_PARAM_DURATION, .offset = offsetof(type, member), \
	  .min = 10000, .required = true, .help = help_text }

#define HG_ROW_EXEC(type, member) \
	{ .name = HG_KEY_EXEC, .kind = HG_PARAM_EXEC, .offset = offsetof(type, member), \
	  .required = true, \
	  .help = "CPU time each job must receive: a duration, a list cycled per job, " \
		  "or {dist: uniform|normal, ...}; at most the period" }

#define HG_ROW_WORKING_SET(type, member) \
	{ .name = "working_set", .kind = HG_PARAM_SIZE, .offset = offsetof(type, member), \
	  .min = 64, .min_why = "one cache line", .required = true, \
	  .help = "bytes of the array scanned, one cache line per step" }

#define HG_ROW_YIELD_AFTER(type, member) \
	{ .name = HG_KEY_YIELD_AFTER, .kind = HG_PARAM_DURATION, .offset = offsetof(type, member), \
	  .min = 1, .required = true, .help = "CPU time received between two sched_yield() calls" }

#endif
