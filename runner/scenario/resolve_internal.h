/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the resolve_*.c files only. */
#ifndef HG_RESOLVE_INTERNAL_H
#define HG_RESOLVE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/units.h"
#include "plan/param.h"
#include "plan/plan.h"
#include "plan/plugins.h"
#include "scenario/diag.h"
#include "scenario/rawscenario.h"
#include "scenario/yamldoc.h"

struct hg_resolver {
	struct hg_yaml *y;
	struct hg_diags *d;
	const struct hg_raw_scenario *raw;
	const struct hg_plugins *plugins;   /* what names in the scenario may refer to */
	struct hg_plan *plan;
	cpu_set_t online;
};

#define HG_PATH 192

/* Each parses `text` (the value at `path`) and adds a located error on
 * failure.  They return true when *out was set. */
bool hg_r_duration(struct hg_resolver *r, const char *text, const char *path, uint64_t *out);
bool hg_r_size(struct hg_resolver *r, const char *text, const char *path, uint64_t *out);
bool hg_r_uint(struct hg_resolver *r, const char *text, const char *path,
	       uint64_t min, uint64_t max, uint64_t *out);
bool hg_r_bool(struct hg_resolver *r, const char *text, const char *path, bool *out);
bool hg_r_name(struct hg_resolver *r, const char *text, const char *path, size_t max_len);

/* Shared value shapes: cpus (list or "0-3"), priority (level or mapping). */
bool hg_r_cpus(struct hg_resolver *r, yaml_node_t *n, const char *path, cpu_set_t *out);
bool hg_r_priority(struct hg_resolver *r, yaml_node_t *n, const char *path,
		   struct hg_priority *out);
/* timer: a name or {type, KEY...}; sets tp->timer and tp->timer_params
 * (resolve_timer.c). */
bool hg_r_timer(struct hg_resolver *r, yaml_node_t *n, const char *path,
		struct hg_thread_plan *tp);

/* A scalar that must name one of `names` (case-insensitive); returns the
 * index or -1 after adding "unknown X 'y'; did you mean ...". */
int hg_r_choice(struct hg_resolver *r, const char *text, const char *path, const char *what,
		const char *const *names, size_t n);

/* The plugins of one family, i = 0, 1, ...: the params of the i-th (its
 * name in *name), NULL past the last. */
typedef const struct hg_params *(*hg_member_fn)(const struct hg_plugins *p, size_t i,
						const char **name);
/* hg_r_choice among the names of a family's plugins; -1 also when out of
 * memory. */
int hg_r_plugin(struct hg_resolver *r, const char *text, const char *path, const char *what,
		hg_member_fn member);

char *hg_r_strdup(const char *s);

/* exec: a duration, a list of durations or {dist: ...} (resolve_exec.c). */
bool hg_r_exec(struct hg_resolver *r, yaml_node_t *n, const char *path, struct hg_exec *e);

/* One parameter's value from node n, or from text when n is NULL (a
 * default), parsed by its kind and range-checked into values. */
bool hg_r_param(struct hg_resolver *r, const struct hg_param *p, yaml_node_t *n,
		const char *text, const char *path, void *values);

/* Where a plugin's keys are (resolve_params.c). */
struct hg_param_site {
	const char *prefix;     /* "threads[2].workload", "loads[0]" */
	const char *fallback;   /* where a key missing there is taken from, or NULL */
	const char *what;       /* "workload", "load" */
	const char *name;       /* the plugin: "periodic" */
	bool missing_at_key;    /* a missing required key is reported at prefix.key */
	/* The family's plugins (a key no plugin of the family takes was
	 * judged by the shape check). */
	hg_member_fn member;
};

/* The plugin's parameters, resolved (NULL when out of memory): every key
 * at the site parsed, defaults applied, required ones demanded, and keys
 * of other plugins refused. */
void *hg_r_params(struct hg_resolver *r, const struct hg_params *ps,
		  const struct hg_param_site *site);

void hg_resolve_trace(struct hg_resolver *r);
void hg_resolve_loads(struct hg_resolver *r);
void hg_resolve_expects(struct hg_resolver *r);
void hg_resolve_sweep(struct hg_resolver *r);

#endif
