/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plugins a scenario may name, as one value: the tables of workloads/,
 * timers/ and loads/ (their registry.h), which cli/ hands to the loader
 * (cli/plugins.c).  The loader (scenario/) knows the plugins only through
 * their contracts (plan/workload.h, plan/timer.h, plan/load.h) and this
 * table, so it links none of them. */
#ifndef HG_PLUGINS_H
#define HG_PLUGINS_H

#include <stddef.h>

#include "plan/load.h"
#include "plan/timer.h"
#include "plan/workload.h"

struct hg_plugins {
	const struct hg_workload_ops *const *workloads;
	size_t n_workloads;
	const struct hg_timer_ops *const *timers;
	size_t n_timers;
	const struct hg_load_ops *const *loads;
	size_t n_loads;
	/* What a thread gets when it names none (docs/scenario.md): one of
	 * the tables' entries. */
	const struct hg_workload_ops *default_workload;
	const struct hg_timer_ops *default_timer;
};

/* Case-insensitive lookup; NULL when unknown. */
const struct hg_workload_ops *hg_plugins_workload(const struct hg_plugins *p, const char *name);
/* The first workload that takes parameter `key`, or NULL. */
const struct hg_workload_ops *hg_plugins_workload_owner(const struct hg_plugins *p,
							const char *key);

#endif
