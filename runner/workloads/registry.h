/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one list of workloads: each is one file of workloads/ ending in one
 * `const struct hg_workload_ops hg_workload_NAME` (plan/workload.h), named once
 * here.  registry.c builds the table from it; cli/plugins.c hands the
 * table to the loader (plan/plugins.h). */
#ifndef HG_WORKLOAD_REGISTRY_H
#define HG_WORKLOAD_REGISTRY_H

#include "plan/workload.h"

#define HG_WORKLOAD_LIST(X) \
	X(cpu) X(cpu_scan) X(cpu_yield) X(cpu_scan_yield) \
	X(periodic) X(cpu_periodic) X(latency)

#define HG_WORKLOAD_DECLARE(n) extern const struct hg_workload_ops hg_workload_##n;
HG_WORKLOAD_LIST(HG_WORKLOAD_DECLARE)
#undef HG_WORKLOAD_DECLARE

#define HG_WORKLOAD_ONE(n) +1
#define HG_N_WORKLOADS (0 HG_WORKLOAD_LIST(HG_WORKLOAD_ONE))

extern const struct hg_workload_ops *const hg_workloads[HG_N_WORKLOADS];

#endif
