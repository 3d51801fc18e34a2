/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Freeing a plan. */
#include <stdio.h>
#include <stdlib.h>

#include "base/cpuset.h"

#include "plan/load.h"
#include "plan/plan.h"
#include "plan/timer.h"
#include "plan/workload.h"

void hg_plan_free(struct hg_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_workload_spec *w = &plan->threads[i].workload;
		free(plan->threads[i].name);
		if (plan->threads[i].timer)
			hg_params_free(&plan->threads[i].timer->params, plan->threads[i].timer_params);
		if (w->ops)
			hg_params_free(&w->ops->params, w->params);
	}
	free(plan->threads);
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		free(l->name);
		if (l->ops)
			hg_params_free(&l->ops->params, l->params);
	}
	free(plan->loads);
	for (size_t i = 0; i < plan->n_expects; i++) {
		free(plan->expects[i].thread);
		free(plan->expects[i].limit_text);
	}
	free(plan->expects);
	for (size_t i = 0; i < plan->sweep.n_axes; i++) {
		for (size_t j = 0; j < plan->sweep.axes[i].n_values; j++)
			free(plan->sweep.axes[i].values[j]);
		free(plan->sweep.axes[i].values);
		free(plan->sweep.axes[i].path);
	}
	free(plan->sweep.axes);
	free(plan->source_path);
	free(plan->name);
	free(plan->description);
	free(plan);
}

static uint64_t moved(uint64_t t, uint64_t old_end, uint64_t new_end)
{
	return t == old_end || t > new_end ? new_end : t;
}

size_t hg_plan_set_duration(struct hg_plan *plan, uint64_t duration_ns)
{
	size_t idle = 0;
	uint64_t old = plan->duration_ns;
	for (size_t i = 0; i < plan->n_threads; i++) {
		struct hg_thread_plan *t = &plan->threads[i];
		t->finish_ns = moved(t->finish_ns, old, duration_ns);
		idle += t->start_ns >= t->finish_ns;
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		struct hg_load_plan *l = &plan->loads[i];
		l->stop_ns = moved(l->stop_ns, old, duration_ns);
		idle += l->start_ns >= l->stop_ns;
	}
	plan->duration_ns = duration_ns;
	return idle;
}

static int first_missing(bool all, const cpu_set_t *set, const cpu_set_t *online)
{
	for (int c = 0; !all && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && !CPU_ISSET(c, online))
			return c;
	return -1;
}

bool hg_plan_missing_cpu(const struct hg_plan *plan, struct hg_missing_cpu *m)
{
	hg_cpuset_online(&m->online);
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		m->cpu = first_missing(tp->cpus_all, &tp->cpus, &m->online);
		if (m->cpu >= 0) {
			snprintf(m->path, sizeof(m->path), "threads[%u].cpus", tp->set_index);
			return true;
		}
	}
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		m->cpu = first_missing(l->cpus_all, &l->cpus, &m->online);
		if (m->cpu >= 0) {
			snprintf(m->path, sizeof(m->path), "loads[%zu].cpus", i);
			return true;
		}
	}
	return false;
}

const char *hg_trace_mode_name(enum hg_trace_mode mode)
{
	switch (mode) {
	case HG_TRACE_FULL: return "full";
	case HG_TRACE_OUTLIERS: return "outliers";
	case HG_TRACE_NONE: return "none";
	}
	return "unknown";
}

void hg_plan_cpus(const struct hg_plan *plan, cpu_set_t *cpus)
{
	CPU_ZERO(cpus);
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		if (tp->pinned_cpu >= 0) {
			CPU_SET(tp->pinned_cpu, cpus);
		} else if (tp->cpus_all) {
			hg_cpuset_online(cpus);
			return;
		} else {
			CPU_OR(cpus, cpus, &tp->cpus);
		}
	}
	if (CPU_COUNT(cpus) == 0)
		hg_cpuset_online(cpus);
}
