/* The one list of loads (HG_LOAD_LIST in plan/load.h), and the programs
 * they run that this host lacks (docs/loads.md, "Programs a load runs"). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/plan.h"

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

const struct hg_load_tool *hg_load_missing_tool(const struct hg_load_plan *lp)
{
	char path[PATH_MAX];
	for (const struct hg_load_tool *t = lp->ops->tools; t && t->program; t++)
		if ((!t->used || t->used(lp->params)) && !hg_find_program(t->program, path, sizeof(path)))
			return t;
	return NULL;
}

size_t hg_load_leave_out_missing(struct hg_plan *plan, char *note, size_t size)
{
	size_t missing = 0, kept = 0;
	for (size_t i = 0; i < plan->n_loads; i++) {
		struct hg_load_plan *l = &plan->loads[i];
		const struct hg_load_tool *t = l->ops ? hg_load_missing_tool(l) : NULL;
		if (t && l->optional) {
			size_t used = note ? strlen(note) : 0;
			if (note && used + 1 < size)
				snprintf(note + used, size - used, "%sload '%s' (%s, optional) was left "
					 "out: %s is not on PATH here (Debian package %s)",
					 used ? "\n" : "", l->name, l->ops->name, t->program, t->package);
			free(l->name);
			hg_params_free(&l->ops->params, l->params);
			continue;
		}
		missing += t != NULL;
		plan->loads[kept++] = *l;
	}
	plan->n_loads = kept;
	return missing;
}
