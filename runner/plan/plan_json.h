/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The resolved scenario as JSON (jansson): what `hgrun validate --resolved`
 * prints and what result.json echoes as "scenario". */
#ifndef HG_PLAN_JSON_H
#define HG_PLAN_JSON_H

#include <jansson.h>

#include "plan/plan.h"

json_t *hg_plan_to_json(const struct hg_plan *plan);
/* One thread instance (also used for result.json's threads[].asked). */
json_t *hg_priority_to_json(const struct hg_priority *p);
json_t *hg_reservation_to_json(const struct hg_reservation *r);
/* null for "every online CPU", else [0, 1, ...]. */
json_t *hg_cpus_to_json(bool all, const cpu_set_t *set);

#endif
