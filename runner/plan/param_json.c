/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Describing parameter tables as JSON. */
#include <stdint.h>

#include "plan/param_json.h"

static bool numeric(const struct hg_param *p)
{
	return p->kind == HG_PARAM_DURATION || p->kind == HG_PARAM_SIZE ||
	       p->kind == HG_PARAM_UINT;
}

/* min: of a number, or a string's shortest length; max: of a number. */
static json_t *bound(const struct hg_param *p, bool max)
{
	uint64_t v = max ? hg_param_max(p) : p->min;
	if (numeric(p))
		return v <= INT64_MAX ? json_integer((json_int_t)v) : json_null();
	if (p->kind == HG_PARAM_STRING && !max)
		return json_integer((json_int_t)p->min);
	return json_null();
}

static json_t *choices(const struct hg_param *p)
{
	if (p->kind != HG_PARAM_ENUM)
		return json_null();
	json_t *a = json_array();
	for (size_t i = 0; p->choices[i]; i++)
		json_array_append_new(a, json_string(p->choices[i]));
	return a;
}

static json_t *describe(const struct hg_param *p)
{
	char range[96];
	const char *unit = hg_param_unit(p->kind);
	return json_pack("{s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:s, s:o, s:s}",
			 "name", p->name, "kind", hg_param_kind_name(p->kind),
			 "unit", unit ? json_string(unit) : json_null(),
			 "required", p->required,
			 "default", p->def ? json_string(p->def) : json_null(),
			 "min", bound(p, false), "max", bound(p, true),
			 "range", hg_param_range_text(p, range, sizeof(range)),
			 "choices", choices(p), "help", p->help);
}

json_t *hg_params_describe(const struct hg_params *ps)
{
	json_t *a = json_array();
	for (size_t i = 0; i < hg_params_count(ps); i++)
		json_array_append_new(a, describe(&ps->table[i]));
	return a;
}
