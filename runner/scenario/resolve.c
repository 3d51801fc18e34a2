/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resolving the scenario's top level and its threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/cpuset.h"
#include "plan/priority.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "scenario/resolve.h"
#include "scenario/resolve_internal.h"
#include "scenario/shape.h"

#define MAX_THREADS_PER_SET 1024
#define MAX_THREADS_TOTAL 4096     /* over all sets, per_cpu counted */
/* OS thread names hold 15 characters: "name.NNN" must fit. */
#define OS_NAME_MAX 15

/* Where a thread's setting comes from: the thread itself, or defaults:. */
struct pick {
	const char *text;
	yaml_node_t *node;
	char path[HG_PATH];
	bool from_thread;
};

static bool pick_text(struct pick *p, const char *mine, const char *deflt,
		      size_t index, const char *key)
{
	memset(p, 0, sizeof(*p));
	if (mine) {
		snprintf(p->path, sizeof(p->path), "threads[%zu].%s", index, key);
		p->text = mine;
		p->from_thread = true;
	} else if (deflt) {
		snprintf(p->path, sizeof(p->path), "defaults.%s", key);
		p->text = deflt;
	}
	return p->text != NULL;
}

static bool pick_node(struct hg_resolver *r, struct pick *p, size_t index, const char *key)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->path, sizeof(p->path), "threads[%zu].%s", index, key);
	p->node = hg_yaml_find(r->y, p->path);
	p->from_thread = p->node != NULL;
	if (!p->node) {
		snprintf(p->path, sizeof(p->path), "defaults.%s", key);
		p->node = hg_yaml_find(r->y, p->path);
	}
	return p->node != NULL;
}

/* ---- workload ----------------------------------------------------------- */

static const struct hg_params *workload_member(const struct hg_plugins *p, size_t i,
					       const char **name)
{
	if (i >= p->n_workloads)
		return NULL;
	*name = p->workloads[i]->name;
	return &p->workloads[i]->params;
}

static void resolve_workload(struct hg_resolver *r, size_t ti, struct hg_workload_spec *spec)
{
	const struct hg_raw_thread *t = &r->raw->threads[ti];
	const struct hg_raw_thread *def = r->raw->defaults;
	struct pick p;
	memset(spec, 0, sizeof(*spec));
	spec->ops = r->plugins->default_workload;
	if (pick_text(&p, t->workload ? t->workload->type : NULL,
		      def && def->workload ? def->workload->type : NULL, ti, "workload.type")) {
		int i = hg_r_plugin(r, p.text, p.path, "workload type", workload_member);
		if (i < 0)
			return;
		spec->ops = r->plugins->workloads[i];
	}
	char prefix[HG_PATH];
	snprintf(prefix, sizeof(prefix), "threads[%zu].workload", ti);
	const struct hg_param_site site = {
		.prefix = prefix, .fallback = "defaults.workload", .what = "workload",
		.name = spec->ops->name, .missing_at_key = true, .member = workload_member,
	};
	spec->params = hg_r_params(r, &spec->ops->params, &site);
}

/* ---- thread sets -------------------------------------------------------- */

static void resolve_reservation(struct hg_resolver *r, const struct hg_raw_reservation *res,
				const char *path, struct hg_reservation *out)
{
	static const char *const modes[] = { "hard", "soft" };
	char sub[HG_PATH];
	memset(out, 0, sizeof(*out));
	out->enabled = true;
	hg_path_join(sub, sizeof(sub), path, "budget", 0);
	hg_r_duration(r, res->budget, sub, &out->budget_ns);
	hg_path_join(sub, sizeof(sub), path, "period", 0);
	hg_r_duration(r, res->period, sub, &out->period_ns);
	out->deadline_ns = out->period_ns;
	if (res->deadline) {
		hg_path_join(sub, sizeof(sub), path, "deadline", 0);
		hg_r_duration(r, res->deadline, sub, &out->deadline_ns);
	}
	if (res->mode) {
		hg_path_join(sub, sizeof(sub), path, "mode", 0);
		out->mode = hg_r_choice(r, res->mode, sub, "reservation mode", modes, 2) == 1
			? HG_RES_SOFT : HG_RES_HARD;
	}
}

static void resolve_scheduling(struct hg_resolver *r, size_t ti, struct hg_thread_plan *tp)
{
	const struct hg_raw_thread *t = &r->raw->threads[ti];
	const struct hg_raw_thread *def = r->raw->defaults;
	struct pick prio, cpus;
	bool has_prio = pick_node(r, &prio, ti, "priority");
	hg_priority_from_level(&tp->priority, hg_priority_level_find("NORMAL"));
	if (has_prio)
		tp->priority_explicit = hg_r_priority(r, prio.node, prio.path, &tp->priority);

	const struct hg_raw_reservation *res = t->reservation;
	const char *res_path = "reservation";
	char path[HG_PATH];
	if (!res && def && def->reservation && !(has_prio && prio.from_thread)) {
		res = def->reservation;   /* the thread's own priority beats a default reservation */
		snprintf(path, sizeof(path), "defaults.%s", res_path);
	} else {
		snprintf(path, sizeof(path), "threads[%zu].%s", ti, res_path);
	}
	if (res) {
		if (t->reservation && has_prio && prio.from_thread)
			hg_yaml_error(r->y, r->d, prio.path,
				      "a thread has a reservation or an explicit priority, not both: remove one (a reservation runs under SCHED_DEADLINE)");
		resolve_reservation(r, res, path, &tp->reservation);
		tp->priority_explicit = false;
		tp->priority.level = NULL;
		tp->priority.policy = HG_POLICY_DEADLINE;
		tp->priority.rt_priority = tp->priority.nice = 0;
	}

	tp->cpus_all = true;
	tp->pinned_cpu = -1;
	if (pick_node(r, &cpus, ti, "cpus"))
		tp->cpus_all = !hg_r_cpus(r, cpus.node, cpus.path, &tp->cpus);
}

static void resolve_timing(struct hg_resolver *r, size_t ti, struct hg_thread_plan *tp)
{
	const struct hg_raw_thread *t = &r->raw->threads[ti];
	const struct hg_raw_thread *def = r->raw->defaults;
	struct pick p;
	if (pick_node(r, &p, ti, "timer")) {
		hg_r_timer(r, p.node, p.path, tp);
		tp->timer_explicit = p.from_thread;
	} else {
		/* no timer anywhere: absolute, with its defaults */
		const struct hg_param_site site = { .prefix = p.path, .what = "timer",
						    .name = r->plugins->default_timer->name };
		tp->timer = r->plugins->default_timer;
		tp->timer_params = hg_r_params(r, &tp->timer->params, &site);
	}
	tp->start_ns = 0;
	if (pick_text(&p, t->start, def ? def->start : NULL, ti, "start"))
		hg_r_duration(r, p.text, p.path, &tp->start_ns);
	tp->finish_ns = r->plan->duration_ns;
	if (pick_text(&p, t->finish, def ? def->finish : NULL, ti, "finish"))
		hg_r_duration(r, p.text, p.path, &tp->finish_ns);
}

/* count: N or per_cpu.  Returns the instance count (0 on error). */
static size_t resolve_count(struct hg_resolver *r, size_t ti, const struct hg_thread_plan *tp,
			    bool *per_cpu)
{
	const struct hg_raw_thread *t = &r->raw->threads[ti];
	const struct hg_raw_thread *def = r->raw->defaults;
	struct pick p;
	uint64_t n = 1;
	*per_cpu = false;
	if (!pick_text(&p, t->count, def ? def->count : NULL, ti, "count"))
		return 1;
	if (strcasecmp(p.text, "per_cpu") == 0) {
		*per_cpu = true;
		cpu_set_t set = tp->cpus_all ? r->online : tp->cpus;
		return (size_t)CPU_COUNT(&set);
	}
	char err[HG_ERRLEN];
	if (hg_parse_uint(p.text, 1, MAX_THREADS_PER_SET, &n, err) != 0) {
		hg_yaml_error(r->y, r->d, p.path,
			      "expected a thread count in 1..%d or per_cpu, got '%s'",
			      MAX_THREADS_PER_SET, p.text);
		return 0;
	}
	return (size_t)n;
}

static void expand(struct hg_resolver *r, const struct hg_thread_plan *tmpl, size_t count,
		   bool per_cpu, bool numbered, const char *path)
{
	struct hg_plan *plan = r->plan;
	struct hg_thread_plan *more = realloc(plan->threads,
					      (plan->n_threads + count) * sizeof(*more));
	if (!more)
		return;
	plan->threads = more;
	cpu_set_t set = tmpl->cpus_all ? r->online : tmpl->cpus;
	int cpu = -1;
	for (size_t i = 0; i < count; i++) {
		struct hg_thread_plan *tp = &plan->threads[plan->n_threads++];
		*tp = *tmpl;
		tp->instance = (unsigned)i;
		tp->name = strdup(tmpl->name);
		tp->workload.params = hg_params_copy(&tmpl->workload.ops->params,
						     tmpl->workload.params);
		tp->timer_params = hg_params_copy(&tmpl->timer->params, tmpl->timer_params);
		char full[64];
		if (numbered)
			snprintf(full, sizeof(full), "%s.%zu", tmpl->name, i);
		else
			snprintf(full, sizeof(full), "%s", tmpl->name);
		snprintf(tp->os_name, sizeof(tp->os_name), "%.15s", full);
		if (per_cpu) {
			do
				cpu++;
			while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set));
			tp->pinned_cpu = cpu;
			tp->cpus_all = false;
			CPU_ZERO(&tp->cpus);
			CPU_SET(cpu, &tp->cpus);
		}
	}
	char last[32];
	snprintf(last, sizeof(last), "%s%s%zu", tmpl->name, numbered ? "." : "",
		 numbered ? count - 1 : 0);
	if (strlen(numbered ? last : tmpl->name) > OS_NAME_MAX)
		hg_yaml_error(r->y, r->d, path,
			      "'%s' makes OS thread names longer than %d characters ('%s'): shorten the name",
			      tmpl->name, OS_NAME_MAX, numbered ? last : tmpl->name);
}

/* defaults.workload's parameters, each checked by the row of the default
 * type, else of the first workload that takes the key. */
static void resolve_default_params(struct hg_resolver *r, const struct hg_workload_ops *type)
{
	yaml_node_t *map = hg_yaml_find(r->y, "defaults.workload");
	for (yaml_node_pair_t *p = map ? map->data.mapping.pairs.start : NULL;
	     p && p < map->data.mapping.pairs.top; p++) {
		const char *key = hg_yaml_scalar(yaml_document_get_node(&r->y->doc, p->key));
		const struct hg_workload_ops *owner =
			type && key && hg_param_find(&type->params, key) ? type
			: key ? hg_plugins_workload_owner(r->plugins, key) : NULL;
		if (!owner)
			continue;
		char path[HG_PATH];
		hg_path_join(path, sizeof(path), "defaults.workload", key, 0);
		void *scratch = hg_params_alloc(&owner->params);
		if (scratch)
			hg_r_param(r, hg_param_find(&owner->params, key),
				   yaml_document_get_node(&r->y->doc, p->value), NULL, path, scratch);
		hg_params_free(&owner->params, scratch);
	}
}

/* defaults: values are checked where they are written, even those that
 * apply to no thread (a typo there is still a typo). */
static void resolve_defaults(struct hg_resolver *r)
{
	const struct hg_raw_thread *def = r->raw->defaults;
	struct hg_thread_plan scratch;
	uint64_t v;
	yaml_node_t *n;
	if (!def)
		return;
	memset(&scratch, 0, sizeof(scratch));
	if ((n = hg_yaml_find(r->y, "defaults.priority")))
		hg_r_priority(r, n, "defaults.priority", &scratch.priority);
	if ((n = hg_yaml_find(r->y, "defaults.cpus")))
		hg_r_cpus(r, n, "defaults.cpus", &scratch.cpus);
	if (def->reservation)
		resolve_reservation(r, def->reservation, "defaults.reservation", &scratch.reservation);
	if ((n = hg_yaml_find(r->y, "defaults.timer"))) {
		hg_r_timer(r, n, "defaults.timer", &scratch);
		hg_params_free(&scratch.timer->params, scratch.timer_params);
	}
	if (def->start)
		hg_r_duration(r, def->start, "defaults.start", &v);
	if (def->finish)
		hg_r_duration(r, def->finish, "defaults.finish", &v);
	if (def->count && strcasecmp(def->count, "per_cpu") != 0)
		hg_r_uint(r, def->count, "defaults.count", 1, MAX_THREADS_PER_SET, &v);
	const struct hg_raw_workload *w = def->workload;
	if (!w)
		return;
	if (w->type)
		hg_r_plugin(r, w->type, "defaults.workload.type", "workload type", workload_member);
	resolve_default_params(r, w->type ? hg_plugins_workload(r->plugins, w->type) : NULL);
}

static void resolve_thread(struct hg_resolver *r, size_t ti)
{
	const struct hg_raw_thread *t = &r->raw->threads[ti];
	struct hg_thread_plan tmpl;
	char path[HG_PATH];
	memset(&tmpl, 0, sizeof(tmpl));
	snprintf(path, sizeof(path), "threads[%zu].name", ti);
	if (!t->name) {
		snprintf(path, sizeof(path), "threads[%zu]", ti);
		hg_yaml_error(r->y, r->d, path, "missing required key 'name'");
		return;
	}
	if (!hg_r_name(r, t->name, path, OS_NAME_MAX))
		return;
	tmpl.name = (char *)t->name;
	tmpl.set_index = (unsigned)ti;
	resolve_scheduling(r, ti, &tmpl);
	resolve_timing(r, ti, &tmpl);
	resolve_workload(r, ti, &tmpl.workload);
	bool per_cpu;
	size_t count = resolve_count(r, ti, &tmpl, &per_cpu);
	bool numbered = per_cpu || (t->count || (r->raw->defaults && r->raw->defaults->count));
	if (count && r->plan->n_threads + count > MAX_THREADS_TOTAL) {
		/* Refused before anything is allocated for them. */
		snprintf(path, sizeof(path), "threads[%zu]", ti);
		hg_yaml_error(r->y, r->d, path, "this set brings the scenario to %zu threads: "
			      "at most %d in all; use fewer or smaller sets",
			      r->plan->n_threads + count, MAX_THREADS_TOTAL);
		count = 0;
	}
	if (count)
		expand(r, &tmpl, count, per_cpu, numbered, path);
	hg_params_free(&tmpl.workload.ops->params, tmpl.workload.params);
	if (tmpl.timer)
		hg_params_free(&tmpl.timer->params, tmpl.timer_params);
}

/* ---- top level ---------------------------------------------------------- */

static void resolve_top(struct hg_resolver *r)
{
	const struct hg_raw_scenario *raw = r->raw;
	struct hg_plan *plan = r->plan;
	if (strcmp(raw->hgrun, "1") != 0)
		hg_yaml_error(r->y, r->d, "hgrun",
			      "unsupported format version '%s': this hgrun reads version 1 (write 'hgrun: 1')",
			      raw->hgrun);
	const char *p;
	for (p = raw->name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			break;
	if (*p || !*raw->name || strlen(raw->name) > 63)
		hg_yaml_error(r->y, r->d, "name",
			      "'%s' is not a scenario name: use 1 to 63 of a-z, 0-9, '_' and '-' (it names the results directory)",
			      raw->name);
	plan->name = strdup(raw->name);
	plan->description = hg_r_strdup(raw->description);
	if (hg_r_duration(r, raw->duration, "duration", &plan->duration_ns) &&
	    plan->duration_ns < 1000000)
		hg_yaml_error(r->y, r->d, "duration", "must be at least 1ms (got %s)", raw->duration);

	hg_resolve_trace(r);
	plan->lock_memory = true;
	if (raw->lock_memory)
		hg_r_bool(r, raw->lock_memory, "lock_memory", &plan->lock_memory);
	if (raw->cpu_dma_latency &&
	    hg_r_duration(r, raw->cpu_dma_latency, "cpu_dma_latency", &plan->cpu_dma_latency_ns)) {
		plan->cpu_dma_latency_set = true;
		if (plan->cpu_dma_latency_ns % 1000 || plan->cpu_dma_latency_ns > 2000000000ull)
			hg_yaml_error(r->y, r->d, "cpu_dma_latency",
				      "must be whole microseconds up to 2000s, as the kernel's PM QoS "
				      "takes them (got %s)", raw->cpu_dma_latency);
	}
	if (raw->defaults && raw->defaults->name)
		hg_yaml_error(r->y, r->d, "defaults.name",
			      "defaults apply to every thread, so they cannot name one: move 'name' into a thread");
}

struct hg_plan *hg_resolve(struct hg_yaml *y, const struct hg_raw_scenario *raw,
			   const struct hg_plugins *plugins, struct hg_diags *d)
{
	struct hg_resolver r = { .y = y, .d = d, .raw = raw, .plugins = plugins };
	r.plan = calloc(1, sizeof(*r.plan));
	if (!r.plan)
		return NULL;
	r.plan->source_path = hg_r_strdup(d->file);
	hg_cpuset_online(&r.online);
	resolve_top(&r);
	resolve_defaults(&r);
	r.plan->n_thread_sets = raw->threads_count;
	for (size_t i = 0; i < raw->threads_count; i++)
		resolve_thread(&r, i);
	hg_resolve_loads(&r);
	hg_resolve_expects(&r);
	hg_resolve_sweep(&r);
	return r.plan;
}
