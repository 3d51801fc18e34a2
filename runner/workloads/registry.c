/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of workloads/registry.h, from its list. */
#include "workloads/registry.h"

#define HG_WORKLOAD_ENTRY(n) &hg_workload_##n,
const struct hg_workload_ops *const hg_workloads[HG_N_WORKLOADS] = {
	HG_WORKLOAD_LIST(HG_WORKLOAD_ENTRY)
};
#undef HG_WORKLOAD_ENTRY
