/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lookups in the table of plan/plugins.h. */
#include <strings.h>

#include "plan/plugins.h"

const struct hg_workload_ops *hg_plugins_workload(const struct hg_plugins *p, const char *name)
{
	for (size_t i = 0; i < p->n_workloads; i++)
		if (strcasecmp(p->workloads[i]->name, name) == 0)
			return p->workloads[i];
	return NULL;
}

const struct hg_workload_ops *hg_plugins_workload_owner(const struct hg_plugins *p,
							const char *key)
{
	for (size_t i = 0; i < p->n_workloads; i++)
		if (hg_param_find(&p->workloads[i]->params, key))
			return p->workloads[i];
	return NULL;
}
