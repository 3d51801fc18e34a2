/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The programs a plan's loads run that this host lacks (plan/load.h,
 * docs/loads.md "Programs a load runs"). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/plan.h"

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
