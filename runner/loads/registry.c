/* The one list of loads: HG_LOAD_LIST in plan/load.h. */
#include <strings.h>

#include "plan/load.h"

#define HG_LOAD_ENTRY(n) &hg_load_##n,
const struct hg_load_ops *const hg_loads[] = { HG_LOAD_LIST(HG_LOAD_ENTRY) };
#undef HG_LOAD_ENTRY
const size_t hg_n_loads = sizeof(hg_loads) / sizeof(hg_loads[0]);

const struct hg_load_ops *hg_load_find(const char *name)
{
	for (size_t i = 0; i < hg_n_loads; i++)
		if (strcasecmp(hg_loads[i]->name, name) == 0)
			return hg_loads[i];
	return NULL;
}
