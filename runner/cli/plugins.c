/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of cli/plugins.h, from the registries of workloads/, timers/
 * and loads/. */
#include "cli/plugins.h"
#include "loads/registry.h"
#include "timers/registry.h"
#include "workloads/registry.h"

const struct hg_plugins hg_builtin_plugins = {
	.workloads = hg_workloads,
	.n_workloads = HG_N_WORKLOADS,
	.timers = hg_timers,
	.n_timers = HG_N_TIMERS,
	.loads = hg_loads,
	.n_loads = HG_N_LOADS,
	/* docs/scenario.md: a thread without workload.type runs cpu, one
	 * without a timer sleeps on absolute */
	.default_workload = &hg_workload_cpu,
	.default_timer = &hg_timer_absolute,
};
