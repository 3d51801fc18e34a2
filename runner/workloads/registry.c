/* The one list of workloads: HG_WORKLOAD_LIST in workload.h. */
#include <strings.h>

#include "plan/workload.h"

#define HG_WORKLOAD_ENTRY(n) &hg_workload_##n,
const struct hg_workload_ops *const hg_workloads[] = { HG_WORKLOAD_LIST(HG_WORKLOAD_ENTRY) };
#undef HG_WORKLOAD_ENTRY
const size_t hg_n_workloads = sizeof(hg_workloads) / sizeof(hg_workloads[0]);

const struct hg_workload_ops *hg_workload_find(const char *name)
{
	for (size_t i = 0; i < hg_n_workloads; i++)
		if (strcasecmp(hg_workloads[i]->name, name) == 0)
			return hg_workloads[i];
	return NULL;
}

const struct hg_workload_ops *hg_workload_param_owner(const char *key)
{
	for (size_t i = 0; i < hg_n_workloads; i++)
		if (hg_param_find(&hg_workloads[i]->params, key))
			return hg_workloads[i];
	return NULL;
}
