/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A parameter table described as JSON (jansson), for `hgrun list --json`
 * and, through it, schemas/gen_scenario_schema.py and the docs tests. */
#ifndef HG_PARAM_JSON_H
#define HG_PARAM_JSON_H

#include <jansson.h>

#include "plan/param.h"

/* [{name, kind, unit, required, default, min, max, range, choices, help}]:
 * min/max in the unit (null when unbounded), default as a scenario writes
 * it (null when none), range in words as errors and docs say it. */
json_t *hg_params_describe(const struct hg_params *ps);

#endif
