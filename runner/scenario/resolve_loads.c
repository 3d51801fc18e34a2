/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving loads:, expect: and sweep:. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/metrics.h"
#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

static const struct hg_params *load_member(const struct hg_plugins *p, size_t i,
					   const char **name)
{
	if (i >= p->n_loads)
		return NULL;
	*name = p->loads[i]->name;
	return &p->loads[i]->params;
}

static void resolve_load(struct hg_resolver *r, size_t li, struct hg_load_plan *lp)
{
	const struct hg_raw_load *raw = &r->raw->loads[li];
	char path[HG_PATH];
	snprintf(path, sizeof(path), "loads[%zu].name", li);
	hg_r_name(r, raw->name, path, 15);
	lp->name = strdup(raw->name);

	snprintf(path, sizeof(path), "loads[%zu].type", li);
	int t = hg_r_plugin(r, raw->type, path, "load type", load_member);
	if (t < 0)
		return;
	lp->ops = r->plugins->loads[t];

	lp->stop_ns = r->plan->duration_ns;
	snprintf(path, sizeof(path), "loads[%zu].start", li);
	if (raw->start)
		hg_r_duration(r, raw->start, path, &lp->start_ns);
	snprintf(path, sizeof(path), "loads[%zu].stop", li);
	if (raw->stop)
		hg_r_duration(r, raw->stop, path, &lp->stop_ns);
	snprintf(path, sizeof(path), "loads[%zu].optional", li);
	if (raw->optional)
		hg_r_bool(r, raw->optional, path, &lp->optional);

	lp->cpus_all = true;
	snprintf(path, sizeof(path), "loads[%zu].cpus", li);
	yaml_node_t *n = hg_yaml_find(r->y, path);
	if (n)
		lp->cpus_all = !hg_r_cpus(r, n, path, &lp->cpus);
	snprintf(path, sizeof(path), "loads[%zu].priority", li);
	n = hg_yaml_find(r->y, path);
	if (n)
		lp->priority_given = hg_r_priority(r, n, path, &lp->priority);
	char prefix[HG_PATH];
	snprintf(prefix, sizeof(prefix), "loads[%zu]", li);
	const struct hg_param_site site = {
		.prefix = prefix, .what = "load", .name = lp->ops->name,
		.member = load_member,
	};
	lp->params = hg_r_params(r, &lp->ops->params, &site);
}

/* Staggered workers (docs/loads.md): the last one must start before the
 * load's stop, or it would never run. */
static void check_stagger(struct hg_resolver *r, size_t li, const struct hg_load_plan *lp,
			  uint64_t workers)
{
	uint64_t stagger = hg_load_stagger(lp);
	if (!stagger || workers < 2 || lp->stop_ns <= lp->start_ns)
		return;
	uint64_t last = lp->start_ns + (workers - 1) * stagger;
	if (last < lp->stop_ns)
		return;
	char path[HG_PATH], a[32], b[32], c[32];
	snprintf(path, sizeof(path), "loads[%zu].stagger", li);
	hg_yaml_error(r->y, r->d, path, "worker %llu would start at %s, not before the load's stop "
		      "%s: give a stagger below %s ((stop - start) / (workers - 1)), fewer "
		      "workers or a later stop", (unsigned long long)(workers - 1),
		      hg_format_duration(last, a), hg_format_duration(lp->stop_ns, b),
		      hg_format_duration((lp->stop_ns - lp->start_ns) / (workers - 1), c));
}

/* Load processes in all (workers and the children a fork population keeps),
 * checked before anything is forked (the numbers of loads and expectations
 * are bounded before libcyaml: scenario/scenario.c). */
#define MAX_LOAD_PROCESSES 4096

void hg_resolve_loads(struct hg_resolver *r)
{
	size_t n = r->raw->loads_count, procs = 0;
	if (!n)
		return;
	r->plan->loads = calloc(n, sizeof(*r->plan->loads));
	if (!r->plan->loads)
		return;
	r->plan->n_loads = n;
	for (size_t i = 0; i < n; i++) {
		const struct hg_load_plan *lp = &r->plan->loads[i];
		resolve_load(r, i, &r->plan->loads[i]);
		uint64_t workers = hg_load_workers(lp);
		procs += workers ? (size_t)workers : (size_t)CPU_COUNT(&r->online);
		check_stagger(r, i, lp, workers ? workers : (uint64_t)CPU_COUNT(lp->cpus_all ?
										&r->online : &lp->cpus));
		if (lp->ops && lp->ops->extra_processes && lp->params)
			procs += lp->ops->extra_processes(lp);
	}
	if (procs > MAX_LOAD_PROCESSES)
		hg_yaml_error(r->y, r->d, "loads", "the loads ask for about %zu processes in all: at "
			      "most %d, workers and fork populations together; use fewer workers, "
			      "a smaller population or fewer loads", procs, MAX_LOAD_PROCESSES);
}

/* ---- expect ------------------------------------------------------------- */

static void resolve_expect(struct hg_resolver *r, size_t ei, struct hg_expect_plan *ep)
{
	const struct hg_raw_expect *raw = &r->raw->expect[ei];
	char path[HG_PATH], err[HG_ERRLEN];
	ep->thread = strdup(raw->thread);
	snprintf(path, sizeof(path), "expect[%zu].metric", ei);
	/* the metrics expect: can bound: those the runner computes */
	const struct hg_metric *bounded[HG_N_METRICS];
	const char *names[HG_N_METRICS];
	size_t n = 0;
	for (size_t i = 0; i < HG_N_METRICS; i++)
		if (hg_metrics[i].value) {
			bounded[n] = &hg_metrics[i];
			names[n++] = hg_metrics[i].name;
		}
	int k = hg_r_choice(r, raw->metric, path, "metric", names, n);
	const struct hg_metric *m = k >= 0 ? bounded[k] : NULL;
	if (m)
		ep->metric = m->name;

	if ((raw->max != NULL) == (raw->min != NULL)) {
		snprintf(path, sizeof(path), raw->max ? "expect[%zu].min" : "expect[%zu]", ei);
		hg_yaml_error(r->y, r->d, path,
			      "an expectation bounds its metric with exactly one of 'max:' or 'min:'");
		return;
	}
	const char *text = raw->max ? raw->max : raw->min;
	ep->limit_text = strdup(text);
	ep->bound = raw->max ? HG_EXPECT_MAX : HG_EXPECT_MIN;
	snprintf(path, sizeof(path), "expect[%zu].%s", ei, raw->max ? "max" : "min");
	uint64_t ns;
	if (m && hg_metric_is_ns(m) && hg_parse_duration(text, &ns, err) == 0) {
		ep->limit = (double)ns;
	} else if (hg_parse_number(text, &ep->limit, err) != 0) {
		if (m && hg_metric_is_ns(m))
			hg_yaml_error(r->y, r->d, path,
				      "expected a duration such as 100us (or a number of ns), got '%s'", text);
		else
			hg_yaml_error(r->y, r->d, path, "%s", err);
	} else if (ep->limit < 0) {
		hg_yaml_error(r->y, r->d, path, "cannot be negative (got %s)", text);
	} else if (m && hg_metric_is_ratio(m) && ep->limit > 1) {
		hg_yaml_error(r->y, r->d, path,
			      "%s is a ratio in 0..1 (got %s; 1%% is written 0.01)", raw->metric, text);
	}
}

void hg_resolve_expects(struct hg_resolver *r)
{
	size_t n = r->raw->expect_count;
	if (!n)
		return;
	r->plan->expects = calloc(n, sizeof(*r->plan->expects));
	if (!r->plan->expects)
		return;
	r->plan->n_expects = n;
	for (size_t i = 0; i < n; i++)
		resolve_expect(r, i, &r->plan->expects[i]);
}

/* ---- sweep -------------------------------------------------------------- */

static void resolve_axis(struct hg_resolver *r, yaml_node_t *key, yaml_node_t *values,
			 struct hg_sweep_axis *axis)
{
	char path[HG_PATH];
	const char *k = hg_yaml_scalar(key);
	snprintf(path, sizeof(path), "sweep.grid.%s", k ? k : "?");
	axis->path = hg_r_strdup(k);
	if (values->type != YAML_SEQUENCE_NODE || hg_yaml_length(values) == 0) {
		hg_yaml_error_at(r->d, values, path,
				 "expected a non-empty list of values to sweep over, got %s",
				 values->type == YAML_SEQUENCE_NODE ? "an empty list" : hg_yaml_kind(values));
		return;
	}
	axis->n_values = hg_yaml_length(values);
	axis->values = calloc(axis->n_values, sizeof(char *));
	for (size_t i = 0; axis->values && i < axis->n_values; i++) {
		yaml_node_t *v = hg_yaml_item(r->y, values, i);
		if (!hg_yaml_scalar(v))
			hg_yaml_error_at(r->d, v, path, "each swept value must be a single value, got %s",
					 hg_yaml_kind(v));
		else
			axis->values[i] = strdup(hg_yaml_scalar(v));
	}
}

void hg_resolve_sweep(struct hg_resolver *r)
{
	struct hg_sweep_plan *sp = &r->plan->sweep;
	sp->repeat = 1;
	if (!r->raw->sweep)
		return;
	sp->present = true;
	uint64_t repeat;
	if (r->raw->sweep->repeat && hg_r_uint(r, r->raw->sweep->repeat, "sweep.repeat", 1, 1000,
					       &repeat))
		sp->repeat = (unsigned)repeat;
	yaml_node_t *grid = hg_yaml_find(r->y, "sweep.grid");
	if (!grid || grid->type != YAML_MAPPING_NODE || !grid->data.mapping.pairs.top ||
	    grid->data.mapping.pairs.top == grid->data.mapping.pairs.start) {
		hg_yaml_error(r->y, r->d, "sweep.grid",
			      "expected a mapping of parameter paths to lists of values, e.g. grid: {\"threads[rt].workload.exec\": [2ms, 3ms]}");
		return;
	}
	size_t n = (size_t)(grid->data.mapping.pairs.top - grid->data.mapping.pairs.start);
	sp->axes = calloc(n, sizeof(*sp->axes));
	if (!sp->axes)
		return;
	sp->n_axes = n;
	for (size_t i = 0; i < n; i++) {
		yaml_node_pair_t *p = &grid->data.mapping.pairs.start[i];
		resolve_axis(r, yaml_document_get_node(&r->y->doc, p->key),
			     yaml_document_get_node(&r->y->doc, p->value), &sp->axes[i]);
	}
}
