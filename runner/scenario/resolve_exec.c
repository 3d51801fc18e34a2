/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving an exec parameter (plan/param.h, HG_PARAM_EXEC): a duration,
 * a list of durations cycled job by job, or a seeded distribution. */
#include <stdlib.h>
#include <string.h>

#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

static bool exec_values(struct hg_resolver *r, yaml_node_t *n, const char *path,
			struct hg_exec *e)
{
	char sub[HG_PATH];
	size_t count = hg_yaml_length(n);
	if (count == 0) {
		hg_yaml_error_at(r->d, n, path, "an exec list needs at least one duration");
		return false;
	}
	e->kind = HG_EXEC_LIST;
	e->values_ns = calloc(count, sizeof(uint64_t));
	e->n_values = count;
	bool ok = e->values_ns != NULL;
	for (size_t i = 0; ok && i < count; i++) {
		yaml_node_t *item = hg_yaml_item(r->y, n, i);
		hg_path_join(sub, sizeof(sub), path, NULL, (long)i);
		if (!hg_yaml_scalar(item)) {
			hg_yaml_error_at(r->d, item, sub, "expected a duration, got %s",
					 hg_yaml_kind(item));
			ok = false;
		} else {
			ok = hg_r_duration(r, hg_yaml_scalar(item), sub, &e->values_ns[i]);
		}
	}
	return ok;
}

static bool dist_field(struct hg_resolver *r, yaml_node_t *n, const char *path,
		       const char *key, bool required, uint64_t *out)
{
	char sub[HG_PATH];
	yaml_node_t *v = hg_yaml_get(r->y, n, key);
	hg_path_join(sub, sizeof(sub), path, key, 0);
	if (!v) {
		if (required)
			hg_yaml_error_at(r->d, n, sub, "this distribution needs '%s'", key);
		return !required;
	}
	if (!hg_yaml_scalar(v)) {
		hg_yaml_error_at(r->d, v, sub, "expected a duration, got %s", hg_yaml_kind(v));
		return false;
	}
	return hg_r_duration(r, hg_yaml_scalar(v), sub, out);
}

static bool exec_distribution(struct hg_resolver *r, yaml_node_t *n, const char *path,
			      struct hg_exec *e)
{
	static const char *const keys[] = { "dist", "min", "max", "mean", "stddev", "seed" };
	static const char *const dists[] = { "uniform", "normal" };
	char sub[HG_PATH];
	if (hg_shape_keys(r->y, n, path, keys, 6, r->d))
		return false;
	yaml_node_t *dist = hg_yaml_get(r->y, n, "dist");
	hg_path_join(sub, sizeof(sub), path, "dist", 0);
	if (!dist || !hg_yaml_scalar(dist)) {
		hg_yaml_error_at(r->d, dist ? dist : n, sub,
				 "an exec distribution needs 'dist: uniform' or 'dist: normal'");
		return false;
	}
	int kind = hg_r_choice(r, hg_yaml_scalar(dist), sub, "distribution", dists, 2);
	if (kind < 0)
		return false;
	bool uniform = kind == 0;
	e->kind = uniform ? HG_EXEC_UNIFORM : HG_EXEC_NORMAL;
	e->seed = 1;
	bool ok = dist_field(r, n, path, "min", uniform, &e->min_ns) &
		  dist_field(r, n, path, "max", uniform, &e->max_ns);
	if (uniform) {
		static const char *const normal_only[] = { "mean", "stddev" };
		for (size_t i = 0; i < 2; i++) {
			yaml_node_t *k = hg_yaml_get_key(r->y, n, normal_only[i]);
			if (k) {
				hg_path_join(sub, sizeof(sub), path, normal_only[i], 0);
				hg_yaml_error_at(r->d, k, sub,
						 "'%s' belongs to dist: normal; a uniform distribution takes min and max",
						 normal_only[i]);
				ok = false;
			}
		}
	} else {
		ok &= dist_field(r, n, path, "mean", true, &e->mean_ns) &
		      dist_field(r, n, path, "stddev", true, &e->stddev_ns);
		if (!hg_yaml_get(r->y, n, "max"))
			e->max_ns = UINT64_MAX;
	}
	yaml_node_t *seed = hg_yaml_get(r->y, n, "seed");
	if (seed) {
		hg_path_join(sub, sizeof(sub), path, "seed", 0);
		ok &= hg_r_uint(r, hg_yaml_scalar(seed), sub, 0, UINT64_MAX, &e->seed);
	}
	return ok;
}

static bool exec_shape(struct hg_resolver *r, yaml_node_t *n, const char *path,
		       struct hg_exec *e)
{
	memset(e, 0, sizeof(*e));
	if (n->type == YAML_SEQUENCE_NODE)
		return exec_values(r, n, path, e);
	if (n->type == YAML_MAPPING_NODE)
		return exec_distribution(r, n, path, e);
	if (hg_yaml_is_null(n)) {
		hg_yaml_error_at(r->d, n, path,
				 "expected a duration, a list of durations or {dist: ...}, got an empty value");
		return false;
	}
	e->kind = HG_EXEC_FIXED;
	e->n_values = 1;
	e->values_ns = calloc(1, sizeof(uint64_t));
	return e->values_ns && hg_r_duration(r, hg_yaml_scalar(n), path, e->values_ns);
}

/* Rules inside one exec value: every job needs some CPU; min <= max. */
bool hg_r_exec(struct hg_resolver *r, yaml_node_t *n, const char *path, struct hg_exec *e)
{
	char sub[HG_PATH], a[32], b[32];
	if (!exec_shape(r, n, path, e))
		return false;
	for (size_t i = 0; i < e->n_values; i++) {
		if (e->values_ns[i] == 0) {
			hg_yaml_error(r->y, r->d, path, "must be more than 0 (a job needs some CPU)");
			return false;
		}
	}
	bool bounded = e->kind == HG_EXEC_UNIFORM ||
		       (e->kind == HG_EXEC_NORMAL && e->max_ns != UINT64_MAX);
	if (bounded && e->min_ns > e->max_ns) {
		hg_path_join(sub, sizeof(sub), path, "min", 0);
		hg_yaml_error(r->y, r->d, sub, "min %s is above max %s",
			      hg_format_duration(e->min_ns, a), hg_format_duration(e->max_ns, b));
		return false;
	}
	return true;
}
