/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving a plugin's parameters from its table (plan/param.h): each key
 * found, parsed by its kind, range-checked, or given its default; keys the
 * plugin does not take refused with the list of those it does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

#define HG_STR_(x) #x
#define HG_STR(x) HG_STR_(x)

/* DURATION and SIZE: parsed, then the table's range. */
static bool measure(struct hg_resolver *r, const struct hg_param *p, const char *text,
		    const char *path, uint64_t *out)
{
	char lo[32], hi[32];
	bool ok = p->kind == HG_PARAM_SIZE ? hg_r_size(r, text, path, out)
					   : hg_r_duration(r, text, path, out);
	if (!ok)
		return false;
	bool size = p->kind == HG_PARAM_SIZE;
	if (*out < p->min) {
		if (p->min == 1)
			hg_yaml_error(r->y, r->d, path, "must be more than 0 (got %s)", text);
		else
			hg_yaml_error(r->y, r->d, path, "must be at least %s (%s%sgot %s)",
				      size ? hg_format_size(p->min, lo) : hg_format_duration(p->min, lo),
				      p->min_why ? p->min_why : "", p->min_why ? "; " : "", text);
		return false;
	}
	if (p->max && *out > p->max) {
		hg_yaml_error(r->y, r->d, path, "must be at most %s (got %s)",
			      size ? hg_format_size(p->max, hi) : hg_format_duration(p->max, hi), text);
		return false;
	}
	return true;
}

static bool endpoint(struct hg_resolver *r, const char *text, const char *path)
{
	const char *colon = strrchr(text, ':');
	uint64_t port;
	char err[HG_ERRLEN];
	if (!colon || colon == text) {
		hg_yaml_error(r->y, r->d, path, "expected host:port such as 192.0.2.7:5001, got '%s'",
			      text);
		return false;
	}
	if (hg_parse_uint(colon + 1, 1, 65535, &port, err) != 0) {
		hg_yaml_error(r->y, r->d, path, "port of '%s': %s", text, err);
		return false;
	}
	return true;
}

static bool owned_string(struct hg_resolver *r, const struct hg_param *p, const char *text,
			 const char *path, void *values)
{
	if (strlen(text) < p->min) {
		hg_yaml_error(r->y, r->d, path, "must not be empty: %s", p->help);
		return false;
	}
	if (p->kind == HG_PARAM_ENDPOINT && !endpoint(r, text, path))
		return false;
	char **s = HG_PARAM_AT(values, p, char *);
	free(*s);
	*s = strdup(text);
	return *s != NULL;
}

/* One argument into a (room for HG_ARGS_MAX was allocated). */
static bool add_arg(struct hg_resolver *r, yaml_node_t *at, const char *path, struct hg_args *a,
		    const char *prefix, const char *text)
{
	size_t len = strlen(prefix) + strlen(text);
	const char *why = NULL;
	if (!text[0])
		why = "an argument may not be empty";
	else if (a->n >= HG_ARGS_MAX)
		why = "too many arguments (at most " HG_STR(HG_ARGS_MAX) ")";
	else if (len >= HG_ARG_MAX)
		why = "an argument longer than " HG_STR(HG_ARG_MAX) " bytes";
	if (why) {
		hg_yaml_error_at(r->d, at, path, "%s", why);
		return false;
	}
	if (!(a->v[a->n] = malloc(len + 1)))
		return false;
	snprintf(a->v[a->n++], len + 1, "%s%s", prefix, text);
	return true;
}

/* A map entry: `key: value` -> --key value; `key: true` -> --key; `key:
 * false` -> nothing. */
static bool option_arg(struct hg_resolver *r, yaml_node_t *k, yaml_node_t *v, const char *path,
		       struct hg_args *a)
{
	const char *key = hg_yaml_scalar(k), *val = hg_yaml_scalar(v);
	char sub[HG_PATH];
	hg_path_join(sub, sizeof(sub), path, key ? key : "?", 0);
	if (!key || !key[0] || key[0] == '-') {
		hg_yaml_error_at(r->d, k, sub, "an option is written without its dashes: "
				 "'vm-bytes: 1G' gives --vm-bytes 1G");
		return false;
	}
	if (!val || hg_yaml_is_null(v)) {
		hg_yaml_error_at(r->d, v, sub, "expected a value (or true for a flag), got %s",
				 hg_yaml_kind(v));
		return false;
	}
	bool flag;
	char err[HG_ERRLEN];
	bool is_bool = hg_parse_bool(val, &flag, err) == 0;
	if (is_bool && !flag)
		return true;
	if (!add_arg(r, k, sub, a, "--", key))
		return false;
	return is_bool || add_arg(r, v, sub, a, "", val);
}

/* ARGS: {option: value, ...} or [arg, ...]; nothing is split or expanded. */
static bool args(struct hg_resolver *r, yaml_node_t *n, const char *path, struct hg_args *a)
{
	char sub[HG_PATH];
	hg_args_free(a);
	if (n->type != YAML_MAPPING_NODE && n->type != YAML_SEQUENCE_NODE) {
		hg_yaml_error_at(r->d, n, path, "expected a map of options ({vm-bytes: 1G}) or a "
				 "list of arguments ([--vm-bytes, 1G]), got %s (a string is not "
				 "split into arguments: there is no shell)", hg_yaml_kind(n));
		return false;
	}
	if (!(a->v = calloc(HG_ARGS_MAX + 1, sizeof(char *))))
		return false;
	bool ok = true;
	a->map = n->type == YAML_MAPPING_NODE;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (size_t i = 0; ok && i < hg_yaml_length(n); i++) {
			yaml_node_t *item = hg_yaml_item(r->y, n, i);
			hg_path_join(sub, sizeof(sub), path, NULL, (long)i);
			if (!hg_yaml_scalar(item) || hg_yaml_is_null(item)) {
				hg_yaml_error_at(r->d, item, sub, "expected an argument (a string), got %s",
						 hg_yaml_kind(item));
				ok = false;
			} else {
				ok = add_arg(r, item, sub, a, "", hg_yaml_scalar(item));
			}
		}
		return ok;
	}
	for (yaml_node_pair_t *pair = n->data.mapping.pairs.start;
	     ok && pair < n->data.mapping.pairs.top; pair++)
		ok = option_arg(r, yaml_document_get_node(&r->y->doc, pair->key),
				yaml_document_get_node(&r->y->doc, pair->value), path, a);
	return ok;
}

bool hg_r_param(struct hg_resolver *r, const struct hg_param *p, yaml_node_t *n,
		const char *text, const char *path, void *values)
{
	if (p->kind == HG_PARAM_ARGS)
		return !n || args(r, n, path, HG_PARAM_AT(values, p, struct hg_args));
	if (p->kind == HG_PARAM_EXEC)
		return n && hg_r_exec(r, n, path, HG_PARAM_AT(values, p, struct hg_exec));
	if (n && !hg_shape_scalar(r->y, n, path, r->d))
		return false;
	if (n)
		text = hg_yaml_scalar(n);
	switch (p->kind) {
	case HG_PARAM_DURATION:
	case HG_PARAM_SIZE:
		return measure(r, p, text, path, HG_PARAM_AT(values, p, uint64_t));
	case HG_PARAM_UINT:
		return hg_r_uint(r, text, path, p->min, hg_param_max(p),
				 HG_PARAM_AT(values, p, uint64_t));
	case HG_PARAM_ENUM: {
		size_t count = 0;
		while (p->choices[count])
			count++;
		int i = hg_r_choice(r, text, path, p->name, p->choices, count);
		if (i >= 0)
			*HG_PARAM_AT(values, p, unsigned) = (unsigned)i;
		return i >= 0;
	}
	case HG_PARAM_BOOL:
		return hg_r_bool(r, text, path, HG_PARAM_AT(values, p, bool));
	case HG_PARAM_STRING:
	case HG_PARAM_ENDPOINT:
		return owned_string(r, p, text, path, values);
	case HG_PARAM_EXEC:
	case HG_PARAM_ARGS:
		break;
	}
	return false;
}

/* "cpu_scan, cpu_scan_yield": the plugins of the family that take key. */
static size_t takers(const struct hg_plugins *p, const struct hg_param_site *site,
		     const char *key, char *buf, size_t size)
{
	const struct hg_params *ps;
	const char *name;
	size_t n = 0, used = 0;
	buf[0] = '\0';
	for (size_t i = 0; site->member && (ps = site->member(p, i, &name)); i++)
		if (hg_param_find(ps, key) && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", n++ ? ", " : "", name);
	return n;
}

void *hg_r_params(struct hg_resolver *r, const struct hg_params *ps,
		  const struct hg_param_site *site)
{
	void *values = hg_params_alloc(ps);
	if (!values)
		return NULL;
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		char path[HG_PATH];
		hg_path_join(path, sizeof(path), site->prefix, p->name, 0);
		yaml_node_t *n = hg_yaml_find(r->y, path);
		if (!n && site->fallback) {
			char fallback[HG_PATH];
			hg_path_join(fallback, sizeof(fallback), site->fallback, p->name, 0);
			if ((n = hg_yaml_find(r->y, fallback)))
				snprintf(path, sizeof(path), "%s", fallback);
		}
		if (n || p->def) {
			hg_r_param(r, p, n, p->def, path, values);
		} else if (p->required) {
			if (!site->missing_at_key)
				snprintf(path, sizeof(path), "%s", site->prefix);
			hg_yaml_error(r->y, r->d, path, "%s '%s' needs '%s'", site->what,
				      site->name, p->name);
		}
	}
	/* Keys another plugin of the family takes, but not this one. */
	yaml_node_t *map = hg_yaml_find(r->y, site->prefix);
	for (size_t i = 0; map && map->type == YAML_MAPPING_NODE &&
	     map->data.mapping.pairs.start + i < map->data.mapping.pairs.top; i++) {
		yaml_node_pair_t *pair = &map->data.mapping.pairs.start[i];
		const char *key = hg_yaml_scalar(yaml_document_get_node(&r->y->doc, pair->key));
		char path[HG_PATH], list[256], others[256];
		size_t n;
		if (!key || hg_param_find(ps, key) || !(n = takers(r->plugins, site, key, others, sizeof(others))))
			continue;
		hg_path_join(path, sizeof(path), site->prefix, key, 0);
		hg_yaml_error(r->y, r->d, path, "%s '%s' takes %s%s, not '%s' (%s take%s it)",
			      site->what, site->name, hg_params_count(ps) ? "only " : "",
			      hg_params_names(ps, list, sizeof(list)), key, others, n == 1 ? "s" : "");
	}
	return values;
}
