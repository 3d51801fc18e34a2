/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plan -> JSON.  Names follow the scenario keys, with units in the name
 * (period -> period_ns, working_set -> working_set_bytes); a plugin's
 * parameters are echoed from its table (plan/param.h). */
#include <stdio.h>

#include "plan/load.h"
#include "plan/plan_json.h"
#include "plan/timer.h"
#include "plan/workload.h"

json_t *hg_cpus_to_json(bool all, const cpu_set_t *set)
{
	if (all)
		return json_null();
	json_t *a = json_array();
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			json_array_append_new(a, json_integer(c));
	return a;
}

json_t *hg_priority_to_json(const struct hg_priority *p)
{
	return json_pack("{s:o, s:s, s:i, s:i}",
			 "level", p->level ? json_string(p->level) : json_null(),
			 "policy", hg_policy_name(p->policy),
			 "priority", p->rt_priority, "nice", p->nice);
}

json_t *hg_reservation_to_json(const struct hg_reservation *r)
{
	if (!r->enabled)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:s}", "budget_ns", (json_int_t)r->budget_ns,
			 "period_ns", (json_int_t)r->period_ns,
			 "deadline_ns", (json_int_t)r->deadline_ns,
			 "mode", r->mode == HG_RES_SOFT ? "soft" : "hard");
}

static json_t *ns_list(const uint64_t *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static json_t *exec_to_json(const struct hg_exec *e)
{
	switch (e->kind) {
	case HG_EXEC_FIXED:
		return json_pack("{s:s, s:o}", "kind", "fixed", "values_ns",
				 ns_list(e->values_ns, e->n_values));
	case HG_EXEC_LIST:
		return json_pack("{s:s, s:o}", "kind", "list", "values_ns",
				 ns_list(e->values_ns, e->n_values));
	case HG_EXEC_UNIFORM:
		return json_pack("{s:s, s:I, s:I, s:I}", "kind", "uniform",
				 "min_ns", (json_int_t)e->min_ns, "max_ns", (json_int_t)e->max_ns,
				 "seed", (json_int_t)e->seed);
	case HG_EXEC_NORMAL:
		return json_pack("{s:s, s:I, s:I, s:I, s:o, s:I}", "kind", "normal",
				 "mean_ns", (json_int_t)e->mean_ns,
				 "stddev_ns", (json_int_t)e->stddev_ns,
				 "min_ns", (json_int_t)e->min_ns,
				 "max_ns", e->max_ns == UINT64_MAX ? json_null()
								   : json_integer((json_int_t)e->max_ns),
				 "seed", (json_int_t)e->seed);
	}
	return json_null();
}

/* One resolved value.  An optional key without a default that was not
 * given (0 or NULL) is null. */
static json_t *param_to_json(const struct hg_param *p, const void *values)
{
	bool absent = !p->def && !p->required;
	switch (p->kind) {
	case HG_PARAM_DURATION:
	case HG_PARAM_SIZE:
	case HG_PARAM_UINT: {
		uint64_t v = *HG_PARAM_AT(values, p, const uint64_t);
		return absent && !v ? json_null() : json_integer((json_int_t)v);
	}
	case HG_PARAM_ENUM:
		return json_string(p->choices[*HG_PARAM_AT(values, p, const unsigned)]);
	case HG_PARAM_BOOL:
		return json_boolean(*HG_PARAM_AT(values, p, const bool));
	case HG_PARAM_STRING:
	case HG_PARAM_ENDPOINT: {
		const char *s = *HG_PARAM_AT(values, p, char *const);
		return s ? json_string(s) : json_null();
	}
	case HG_PARAM_EXEC:
		return exec_to_json(HG_PARAM_AT(values, p, const struct hg_exec));
	case HG_PARAM_ARGS: {     /* the list form: what the program is given */
		const struct hg_args *a = HG_PARAM_AT(values, p, const struct hg_args);
		if (absent && !a->n)
			return json_null();
		json_t *l = json_array();
		for (size_t i = 0; i < a->n; i++)
			json_array_append_new(l, json_string(a->v[i]));
		return l;
	}
	}
	return json_null();
}

/* Adds each parameter of ps to o, named with its unit after prefix:
 * period_ns, timer_tick_ns. */
static void params_to_json(json_t *o, const char *prefix, const struct hg_params *ps,
			   const void *values)
{
	for (size_t i = 0; values && i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		const char *unit = p->kind == HG_PARAM_EXEC ? NULL : hg_param_unit(p->kind);
		char key[96];
		snprintf(key, sizeof(key), "%s%s%s%s", prefix, p->name, unit ? "_" : "",
			 unit ? unit : "");
		json_object_set_new(o, key, param_to_json(p, values));
	}
}

static json_t *workload_to_json(const struct hg_workload_spec *w)
{
	json_t *o = json_pack("{s:s}", "type", w->ops->name);
	params_to_json(o, "", &w->ops->params, w->params);
	return o;
}

static json_t *thread_to_json(const struct hg_thread_plan *t)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:i, s:o, s:o, s:o, s:o, s:s, s:I, s:I, s:o}",
			 "name", t->name, "instance", (int)t->instance, "os_name", t->os_name,
			 "set_index", (int)t->set_index,
			 "cpus", hg_cpus_to_json(t->cpus_all, &t->cpus),
			 "pinned_cpu", t->pinned_cpu >= 0 ? json_integer(t->pinned_cpu) : json_null(),
			 "priority", hg_priority_to_json(&t->priority),
			 "reservation", hg_reservation_to_json(&t->reservation),
			 "timer", t->timer->name,
			 "start_ns", (json_int_t)t->start_ns, "finish_ns", (json_int_t)t->finish_ns,
			 "workload", workload_to_json(&t->workload));
	params_to_json(o, "timer_", &t->timer->params, t->timer_params);
	return o;
}

static json_t *opt_string(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *load_to_json(const struct hg_load_plan *l)
{
	json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o, s:b}",
			      "name", l->name, "type", l->ops->name,
			      "start_ns", (json_int_t)l->start_ns, "stop_ns", (json_int_t)l->stop_ns,
			      "priority", l->priority_given ? hg_priority_to_json(&l->priority)
							    : json_null(),
			      "cpus", hg_cpus_to_json(l->cpus_all, &l->cpus), "optional", l->optional);
	params_to_json(o, "", &l->ops->params, l->params);
	return o;
}

static json_t *sweep_to_json(const struct hg_sweep_plan *s)
{
	if (!s->present)
		return json_null();
	json_t *grid = json_object();
	for (size_t i = 0; i < s->n_axes; i++) {
		json_t *values = json_array();
		for (size_t j = 0; j < s->axes[i].n_values; j++)
			json_array_append_new(values, json_string(s->axes[i].values[j]));
		json_object_set_new(grid, s->axes[i].path, values);
	}
	return json_pack("{s:o, s:i}", "grid", grid, "repeat", (int)s->repeat);
}

static json_t *trace_to_json(const struct hg_plan *plan)
{
	const struct hg_trace_plan *t = &plan->trace;
	json_t *o = json_pack("{s:I, s:b, s:o}", "records", (json_int_t)plan->trace_records,
			      "gap_auto", plan->gap_auto, "gap_ns", plan->gap_auto ? json_null()
			      : json_integer((json_int_t)plan->gap_ns));
	json_object_set_new(o, "mode", json_string(hg_trace_mode_name(t->mode)));
	json_object_set_new(o, "series_ns", json_integer((json_int_t)t->series_ns));
	json_object_set_new(o, "outlier_gap_ns", json_integer((json_int_t)t->outlier_gap_ns));
	json_object_set_new(o, "outlier_latency_ns",
			    json_integer((json_int_t)t->outlier_latency_ns));
	json_object_set_new(o, "before_ns", json_integer((json_int_t)t->before_ns));
	json_object_set_new(o, "after_ns", json_integer((json_int_t)t->after_ns));
	json_object_set_new(o, "budget_bytes", t->budget_bytes
			    ? json_integer((json_int_t)t->budget_bytes) : json_null());
	json_object_set_new(o, "kernel", json_boolean(plan->kernel_trace));
	json_object_set_new(o, "late_wakeup_ns", json_integer((json_int_t)t->late_wakeup_ns));
	return o;
}

json_t *hg_plan_to_json(const struct hg_plan *plan)
{
	json_t *threads = json_array(), *loads = json_array(), *expect = json_array();
	for (size_t i = 0; i < plan->n_threads; i++)
		json_array_append_new(threads, thread_to_json(&plan->threads[i]));
	for (size_t i = 0; i < plan->n_loads; i++)
		json_array_append_new(loads, load_to_json(&plan->loads[i]));
	for (size_t i = 0; i < plan->n_expects; i++) {
		const struct hg_expect_plan *e = &plan->expects[i];
		json_array_append_new(expect, json_pack("{s:s, s:s, s:f}", "thread", e->thread,
			"metric", e->metric, e->bound == HG_EXPECT_MAX ? "max" : "min", e->limit));
	}
	return json_pack("{s:i, s:s, s:o, s:I, s:o, s:b, s:o, s:o, s:o, s:o, s:o}",
			 "hgrun", 1, "name", plan->name,
			 "description", opt_string(plan->description),
			 "duration_ns", (json_int_t)plan->duration_ns,
			 "trace", trace_to_json(plan),
			 "lock_memory", plan->lock_memory,
			 "cpu_dma_latency_ns", plan->cpu_dma_latency_set
				 ? json_integer((json_int_t)plan->cpu_dma_latency_ns) : json_null(),
			 "threads", threads, "loads", loads, "expect", expect,
			 "sweep", sweep_to_json(&plan->sweep));
}
