/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving a thread's `timer`: a timer name, or a mapping {type, KEY...}
 * whose keys each timer declares in its table (timers/common.h;
 * docs/scenario.md#timers).  The node is taken whole from the thread, else
 * from defaults: (its keys do not merge). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/timer.h"
#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

static const struct hg_params *timer_member(const struct hg_plugins *p, size_t i,
					    const char **name)
{
	if (i >= p->n_timers)
		return NULL;
	*name = p->timers[i]->name;
	return &p->timers[i]->params;
}

static bool timer_type(struct hg_resolver *r, const char *text, const char *path,
		       struct hg_thread_plan *tp)
{
	int i = hg_r_plugin(r, text, path, "timer", timer_member);
	if (i >= 0)
		tp->timer = r->plugins->timers[i];
	return i >= 0;
}

/* The mapping's keys: type and every key some timer takes. */
static bool known_keys(struct hg_resolver *r, yaml_node_t *n, const char *path)
{
	size_t room = 1;
	for (size_t i = 0; i < r->plugins->n_timers; i++)
		room += hg_params_count(&r->plugins->timers[i]->params);
	const char **keys = malloc(room * sizeof(*keys));
	if (!keys) {
		hg_yaml_error_at(r->d, n, path, "out of memory");
		return false;
	}
	size_t count = 0;
	keys[count++] = "type";
	for (size_t i = 0; i < r->plugins->n_timers; i++) {
		const struct hg_params *ps = &r->plugins->timers[i]->params;
		for (size_t k = 0; k < hg_params_count(ps); k++) {
			bool seen = false;
			for (size_t j = 0; j < count && !seen; j++)
				seen = strcmp(keys[j], ps->table[k].name) == 0;
			if (!seen)
				keys[count++] = ps->table[k].name;
		}
	}
	bool ok = hg_shape_keys(r->y, n, path, keys, count, r->d) == 0;
	free(keys);
	return ok;
}

bool hg_r_timer(struct hg_resolver *r, yaml_node_t *n, const char *path,
		struct hg_thread_plan *tp)
{
	char sub[HG_PATH];
	tp->timer = r->plugins->default_timer;
	if (n->type == YAML_MAPPING_NODE) {
		if (!known_keys(r, n, path))
			return false;
		yaml_node_t *type = hg_yaml_get(r->y, n, "type");
		hg_path_join(sub, sizeof(sub), path, "type", 0);
		if (type && (!hg_shape_scalar(r->y, type, sub, r->d) ||
			     !timer_type(r, hg_yaml_scalar(type), sub, tp)))
			return false;
	} else if (n->type == YAML_SCALAR_NODE && !hg_yaml_is_null(n)) {
		if (!timer_type(r, hg_yaml_scalar(n), path, tp))
			return false;
	} else {
		hg_yaml_error_at(r->d, n, path,
				 "expected a timer name (sleep absolute timerfd signal spin) or "
				 "{type: absolute, tick: 10ms, slack: 50us}, got %s", hg_yaml_kind(n));
		return false;
	}
	const struct hg_param_site site = {
		.prefix = path, .what = "timer", .name = tp->timer->name, .missing_at_key = true,
		.member = timer_member,
	};
	tp->timer_params = hg_r_params(r, &tp->timer->params, &site);
	return tp->timer_params != NULL;
}
