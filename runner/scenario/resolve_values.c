/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Value parsers used while resolving, each adding a located error. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cpuset.h"
#include "base/names.h"
#include "plan/priority.h"
#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

#define REPORT(ok, r, path, err) \
	do { if (!(ok)) { hg_yaml_error((r)->y, (r)->d, (path), "%s", (err)); return false; } } while (0)

bool hg_r_duration(struct hg_resolver *r, const char *text, const char *path, uint64_t *out)
{
	char err[HG_ERRLEN];
	REPORT(hg_parse_duration(text, out, err) == 0, r, path, err);
	return true;
}

bool hg_r_size(struct hg_resolver *r, const char *text, const char *path, uint64_t *out)
{
	char err[HG_ERRLEN];
	REPORT(hg_parse_size(text, out, err) == 0, r, path, err);
	return true;
}

bool hg_r_uint(struct hg_resolver *r, const char *text, const char *path,
	       uint64_t min, uint64_t max, uint64_t *out)
{
	char err[HG_ERRLEN];
	REPORT(hg_parse_uint(text, min, max, out, err) == 0, r, path, err);
	return true;
}

bool hg_r_bool(struct hg_resolver *r, const char *text, const char *path, bool *out)
{
	char err[HG_ERRLEN];
	REPORT(hg_parse_bool(text, out, err) == 0, r, path, err);
	return true;
}

bool hg_r_name(struct hg_resolver *r, const char *text, const char *path, size_t max_len)
{
	size_t len = strlen(text);
	for (const char *p = text; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') {
			hg_yaml_error(r->y, r->d, path,
				      "'%s' may hold only letters, digits, '_' and '-' (found '%c')",
				      text, *p);
			return false;
		}
	}
	if (len == 0 || len > max_len) {
		hg_yaml_error(r->y, r->d, path, "'%s' must be 1 to %zu characters long", text,
			      max_len);
		return false;
	}
	return true;
}

int hg_r_choice(struct hg_resolver *r, const char *text, const char *path, const char *what,
		const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(names[i], text) == 0)
			return (int)i;
	char hint[600];
	hg_yaml_error(r->y, r->d, path, "unknown %s '%s'%s", what, text,
		      hg_unknown_hint(text, names, n, hint, sizeof(hint)));
	return -1;
}

int hg_r_plugin(struct hg_resolver *r, const char *text, const char *path, const char *what,
		hg_member_fn member)
{
	size_t n = 0;
	const char *name;
	while (member(r->plugins, n, &name))
		n++;
	const char **names = malloc((n ? n : 1) * sizeof(*names));
	if (!names) {
		hg_yaml_error(r->y, r->d, path, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		member(r->plugins, i, &names[i]);
	int i = hg_r_choice(r, text, path, what, names, n);
	free(names);
	return i;
}

char *hg_r_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

bool hg_r_cpus(struct hg_resolver *r, yaml_node_t *n, const char *path, cpu_set_t *out)
{
	char err[HG_ERRLEN], sub[HG_PATH];
	if (n->type == YAML_SCALAR_NODE) {
		REPORT(hg_cpuset_parse(hg_yaml_scalar(n), out, err) == 0, r, path, err);
		return true;
	}
	if (n->type != YAML_SEQUENCE_NODE || hg_yaml_length(n) == 0) {
		hg_yaml_error_at(r->d, n, path,
				 "expected a list of CPUs such as [0, 1] or a string such as \"0-3\", got %s",
				 n->type == YAML_SEQUENCE_NODE ? "an empty list" : hg_yaml_kind(n));
		return false;
	}
	CPU_ZERO(out);
	bool ok = true;
	for (size_t i = 0; i < hg_yaml_length(n); i++) {
		yaml_node_t *item = hg_yaml_item(r->y, n, i);
		uint64_t cpu;
		hg_path_join(sub, sizeof(sub), path, NULL, (long)i);
		if (item->type != YAML_SCALAR_NODE) {
			hg_yaml_error_at(r->d, item, sub, "expected a CPU number, got %s",
					 hg_yaml_kind(item));
			ok = false;
		} else if (hg_parse_uint(hg_yaml_scalar(item), 0, CPU_SETSIZE - 1, &cpu, err) != 0) {
			hg_yaml_error_at(r->d, item, sub, "%s", err);
			ok = false;
		} else if (CPU_ISSET(cpu, out)) {
			hg_yaml_error_at(r->d, item, sub, "CPU %llu is listed twice",
					 (unsigned long long)cpu);
			ok = false;
		} else {
			CPU_SET(cpu, out);
		}
	}
	return ok;
}

static bool priority_level(struct hg_resolver *r, const char *text, const char *path,
			   struct hg_priority *out)
{
	const char *names[HG_N_PRIORITY_LEVELS];
	for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
		names[i] = hg_priority_levels[i].name;
	/* RTHIGHEST: someone who wants real time gets real-time levels
	 * suggested, not the normal-time HIGHEST. */
	const char *rt_names[HG_N_PRIORITY_LEVELS];
	size_t n_rt = 0;
	for (size_t k = 0; k < HG_N_PRIORITY_LEVELS; k++)
		if (hg_priority_levels[k].policy == HG_POLICY_FIFO)
			rt_names[n_rt++] = hg_priority_levels[k].name;
	if (!hg_priority_level_find(text) && strncasecmp(text, "RT", 2) == 0 &&
	    hg_suggest(text, rt_names, n_rt)) {
		hg_r_choice(r, text, path, "priority", rt_names, n_rt);
		return false;
	}
	int i = hg_r_choice(r, text, path, "priority", names, HG_N_PRIORITY_LEVELS);
	if (i < 0)
		return false;
	hg_priority_from_level(out, &hg_priority_levels[i]);
	return true;
}

static bool priority_mapping(struct hg_resolver *r, yaml_node_t *n, const char *path,
			     struct hg_priority *out)
{
	static const char *const keys[] = { "policy", "priority", "nice" };
	char sub[HG_PATH], err[HG_ERRLEN];
	if (hg_shape_keys(r->y, n, path, keys, 3, r->d))
		return false;
	yaml_node_t *pol = hg_yaml_get(r->y, n, "policy");
	yaml_node_t *prio = hg_yaml_get(r->y, n, "priority");
	yaml_node_t *nice = hg_yaml_get(r->y, n, "nice");
	hg_path_join(sub, sizeof(sub), path, "policy", 0);
	if (!pol) {
		hg_yaml_error_at(r->d, n, sub, "missing required key 'policy' (one of: %s)",
				 "fifo, rr, other, batch, idle");
		return false;
	}
	int p = hg_yaml_scalar(pol)
		? hg_r_choice(r, hg_yaml_scalar(pol), sub, "policy", hg_policy_names,
			      hg_n_policy_names)
		: -1;
	if (p < 0) {
		if (!hg_yaml_scalar(pol))
			hg_yaml_error_at(r->d, pol, sub, "expected a policy name, got %s",
					 hg_yaml_kind(pol));
		return false;
	}
	memset(out, 0, sizeof(*out));
	hg_policy_parse(hg_policy_names[p], &out->policy);
	bool rt = out->policy == HG_POLICY_FIFO || out->policy == HG_POLICY_RR;
	bool niced = out->policy == HG_POLICY_OTHER || out->policy == HG_POLICY_BATCH;
	if (prio && !rt) {
		hg_path_join(sub, sizeof(sub), path, "priority", 0);
		hg_yaml_error_at(r->d, prio, sub,
				 "policy '%s' has no real-time priority: use 'nice:'%s, or policy fifo/rr",
				 hg_policy_names[p], niced ? "" : " with other/batch");
		return false;
	}
	if (nice && !niced) {
		hg_path_join(sub, sizeof(sub), path, "nice", 0);
		hg_yaml_error_at(r->d, nice, sub, "policy '%s' takes no nice value%s",
				 hg_policy_names[p], rt ? ": use 'priority: 1..98'" : "");
		return false;
	}
	if (rt) {
		hg_path_join(sub, sizeof(sub), path, "priority", 0);
		if (!prio) {
			hg_yaml_error_at(r->d, n, sub, "policy '%s' needs 'priority: 1..98'",
					 hg_policy_names[p]);
			return false;
		}
		uint64_t v;
		if (hg_parse_uint(hg_yaml_scalar(prio), 0, UINT32_MAX, &v, err) != 0) {
			hg_yaml_error_at(r->d, prio, sub, "%s", err);
			return false;
		}
		/* One range in every message: 1..98, 99 being the watchdog's. */
		if (v < HG_RT_PRIORITY_MIN || v > HG_RT_PRIORITY_MAX) {
			hg_yaml_error_at(r->d, prio, sub, "must be in %d..%d (got %s)%s",
					 HG_RT_PRIORITY_MIN, HG_RT_PRIORITY_MAX, hg_yaml_scalar(prio),
					 v == HG_WATCHDOG_PRIORITY ? ": 99 is reserved for hgrun's "
					 "watchdog, which ends runs on time" : "");
			return false;
		}
		out->rt_priority = (int)v;
	}
	if (niced && nice) {
		int64_t v;
		hg_path_join(sub, sizeof(sub), path, "nice", 0);
		if (hg_parse_int(hg_yaml_scalar(nice), -20, 19, &v, err) != 0) {
			hg_yaml_error_at(r->d, nice, sub, "%s", err);
			return false;
		}
		out->nice = (int)v;
	}
	return true;
}

bool hg_r_priority(struct hg_resolver *r, yaml_node_t *n, const char *path,
		   struct hg_priority *out)
{
	if (n->type == YAML_SCALAR_NODE && !hg_yaml_is_null(n))
		return priority_level(r, hg_yaml_scalar(n), path, out);
	if (n->type == YAML_MAPPING_NODE)
		return priority_mapping(r, n, path, out);
	hg_yaml_error_at(r->d, n, path,
			 "expected a priority name (IDLE LOW NORMAL HIGH HIGHEST RTLOW RTMED RTHIGH) or {policy: fifo, priority: N}, got %s",
			 hg_yaml_kind(n));
	return false;
}
