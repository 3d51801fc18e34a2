/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving: the libcyaml structs (strings) and YAML nodes become a plan.
 * Every value is parsed strictly with its range; defaults: are applied;
 * thread sets are expanded.  Errors point at the node that holds the value. */
#ifndef HG_RESOLVE_H
#define HG_RESOLVE_H

#include "plan/plan.h"
#include "plan/plugins.h"
#include "scenario/diag.h"
#include "scenario/rawscenario.h"
#include "scenario/yamldoc.h"

/* Returns the plan (possibly partial when errors were added), or NULL when
 * out of memory.  The caller checks d->count. */
struct hg_plan *hg_resolve(struct hg_yaml *y, const struct hg_raw_scenario *raw,
			   const struct hg_plugins *plugins, struct hg_diags *d);

#endif
