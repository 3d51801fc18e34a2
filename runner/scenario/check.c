/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cross-field rules of the scenario format (docs/scenario.md, "Rules"). */
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "plan/keys.h"
#include "plan/load.h"
#include "plan/metrics.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "scenario/check.h"

#define MIN_BUDGET_NS 1024ull           /* SCHED_DEADLINE's smallest runtime */

struct checker {
	struct hg_yaml *y;
	struct hg_diags *d;
	const struct hg_plan *plan;
};

/* The path of a thread setting as the file holds it: in the thread, else in
 * defaults:, else the thread itself. */
static const char *where(struct checker *c, unsigned set, const char *key, char *buf, size_t size)
{
	snprintf(buf, size, "threads[%u].%s", set, key);
	if (hg_yaml_find(c->y, buf))
		return buf;
	char def[160];
	snprintf(def, sizeof(def), "defaults.%s", key);
	if (hg_yaml_find(c->y, def)) {
		snprintf(buf, size, "%s", def);
		return buf;
	}
	snprintf(buf, size, "threads[%u].%s", set, key);
	return buf;
}

#define ERR(c, set, key, ...) \
	do { char p_[160]; hg_yaml_error((c)->y, (c)->d, where(c, set, key, p_, sizeof(p_)), __VA_ARGS__); } while (0)

/* A plugin's check hook reports against its keys: workload.KEY where the
 * thread (or defaults:) sets it, loads[i].KEY. */
struct plugin_errors {
	struct hg_param_errors base;
	struct checker *c;
	const char *prefix;     /* "workload." or "timer." for a thread, "loads[2]." */
	unsigned set;
};

static void plugin_report(struct hg_param_errors *e, const char *key, const char *message)
{
	struct plugin_errors *pe = (struct plugin_errors *)e;
	char path[160], rel[96];
	snprintf(rel, sizeof(rel), "%s%s", pe->prefix, key);
	if (strncmp(pe->prefix, "loads[", 6) != 0)
		where(pe->c, pe->set, rel, path, sizeof(path));
	else
		snprintf(path, sizeof(path), "%s", rel);
	hg_yaml_error(pe->c->y, pe->c->d, path, "%s", message);
}

static void check_workload(struct checker *c, const struct hg_thread_plan *t)
{
	const struct hg_workload_spec *w = &t->workload;
	unsigned s = t->set_index;
	if (!w->ops)
		return;
	if (w->ops->check && w->params) {
		struct plugin_errors e = { { plugin_report }, c, "workload.", s };
		w->ops->check(w->params, &e.base);
	}
	if (t->timer_explicit && !w->ops->blocks)
		ERR(c, s, "timer",
		    "workload '%s' never sleeps, so a timer has no effect: remove 'timer' or use periodic/latency",
		    w->ops->name);
}

/* Timer slack is a kernel knob of clock_nanosleep sleepers under
 * SCHED_OTHER, BATCH and IDLE: anywhere else it would be silently ignored. */
static void check_timer(struct checker *c, const struct hg_thread_plan *t)
{
	unsigned s = t->set_index;
	enum hg_policy pol = t->priority.policy;
	if (t->timer->check && t->timer_params) {
		struct plugin_errors e = { { plugin_report }, c, "timer.", s };
		t->timer->check(t->timer_params, &e.base);
	}
	if (!hg_timer_slack(t) || !t->workload.ops ||
	    !t->workload.ops->blocks)
		return;
	if (pol == HG_POLICY_FIFO || pol == HG_POLICY_RR || pol == HG_POLICY_DEADLINE)
		ERR(c, s, "timer.slack",
		    "the kernel gives real-time threads (SCHED_%s here) no timer slack, so 'slack' "
		    "would have no effect: remove it, or give the thread a SCHED_OTHER priority "
		    "(NORMAL, HIGH, ...); to emulate a coarse timer use 'tick'",
		    pol == HG_POLICY_DEADLINE ? "DEADLINE" : pol == HG_POLICY_RR ? "RR" : "FIFO");
}

static void check_reservation(struct checker *c, const struct hg_thread_plan *t)
{
	const struct hg_reservation *r = &t->reservation;
	unsigned s = t->set_index;
	char a[32], b[32];
	if (!r->enabled)
		return;
	if (r->period_ns < MIN_BUDGET_NS) {
		ERR(c, s, "reservation.period", "must be at least 1.024us (got %s)",
		    hg_format_duration(r->period_ns, a));
		return;
	}
	if (r->budget_ns < MIN_BUDGET_NS)
		ERR(c, s, "reservation.budget", "must be at least 1.024us (SCHED_DEADLINE's minimum)");
	else if (r->budget_ns > r->deadline_ns)
		ERR(c, s, "reservation.budget", "budget %s exceeds the deadline %s (budget <= deadline <= period)",
		    hg_format_duration(r->budget_ns, a), hg_format_duration(r->deadline_ns, b));
	if (r->deadline_ns > r->period_ns)
		ERR(c, s, "reservation.deadline", "deadline %s exceeds the period %s (budget <= deadline <= period)",
		    hg_format_duration(r->deadline_ns, a), hg_format_duration(r->period_ns, b));
}

static void check_thread(struct checker *c, const struct hg_thread_plan *t)
{
	unsigned s = t->set_index;
	char a[32], b[32];
	uint64_t dur = c->plan->duration_ns;
	if (t->finish_ns > dur)
		ERR(c, s, "finish", "finish %s is after the end of the run (duration %s)",
		    hg_format_duration(t->finish_ns, a), hg_format_duration(dur, b));
	if (t->start_ns >= t->finish_ns)
		ERR(c, s, "start", "start %s must come before finish %s",
		    hg_format_duration(t->start_ns, a), hg_format_duration(t->finish_ns, b));
	check_workload(c, t);
	check_timer(c, t);
	check_reservation(c, t);
}

static void check_unique_threads(struct checker *c)
{
	const struct hg_plan *p = c->plan;
	for (size_t i = 0; i < p->n_threads; i++) {
		if (p->threads[i].instance)
			continue;
		for (size_t j = 0; j < i; j++) {
			if (!p->threads[j].instance && strcmp(p->threads[i].name, p->threads[j].name) == 0) {
				char path[64];
				snprintf(path, sizeof(path), "threads[%u].name", p->threads[i].set_index);
				hg_yaml_error(c->y, c->d, path,
					      "thread name '%s' is already used by threads[%u]: names must be unique",
					      p->threads[i].name, p->threads[j].set_index);
				break;
			}
		}
	}
}

static void check_loads(struct checker *c)
{
	const struct hg_plan *p = c->plan;
	char path[64], a[32], b[32];
	for (size_t i = 0; i < p->n_loads; i++) {
		const struct hg_load_plan *l = &p->loads[i];
		for (size_t j = 0; j < i; j++)
			if (l->name && p->loads[j].name && strcmp(l->name, p->loads[j].name) == 0) {
				snprintf(path, sizeof(path), "loads[%zu].name", i);
				hg_yaml_error(c->y, c->d, path,
					      "load name '%s' is already used by loads[%zu]: names must be unique",
					      l->name, j);
			}
		if (l->stop_ns > p->duration_ns) {
			snprintf(path, sizeof(path), "loads[%zu].stop", i);
			hg_yaml_error(c->y, c->d, path, "stop %s is after the end of the run (duration %s)",
				      hg_format_duration(l->stop_ns, a), hg_format_duration(p->duration_ns, b));
		}
		if (l->ops && l->ops->check && l->params) {
			char prefix[32];
			snprintf(prefix, sizeof(prefix), "loads[%zu].", i);
			struct plugin_errors e = { { plugin_report }, c, prefix, 0 };
			l->ops->check(l->params, &e.base);
		}
		if (l->start_ns >= l->stop_ns) {
			snprintf(path, sizeof(path), "loads[%zu].start", i);
			hg_yaml_error(c->y, c->d, path, "start %s must come before stop %s",
				      hg_format_duration(l->start_ns, a), hg_format_duration(l->stop_ns, b));
		}
	}
}

static const struct hg_thread_plan *find_set(const struct hg_plan *p, const char *name)
{
	for (size_t i = 0; i < p->n_threads; i++)
		if (strcmp(p->threads[i].name, name) == 0)
			return &p->threads[i];
	return NULL;
}

static void check_expects(struct checker *c)
{
	const struct hg_plan *p = c->plan;
	char path[64];
	for (size_t i = 0; i < p->n_expects; i++) {
		const struct hg_expect_plan *e = &p->expects[i];
		const struct hg_thread_plan *t = find_set(p, e->thread);
		snprintf(path, sizeof(path), "expect[%zu].thread", i);
		if (!t) {
			hg_yaml_error(c->y, c->d, path, "no thread is named '%s'", e->thread);
			continue;
		}
		const struct hg_metric *m = e->metric ? hg_metric_find(e->metric) : NULL;
		if (!m || !t->workload.ops)
			continue;
		snprintf(path, sizeof(path), "expect[%zu].metric", i);
		if (m->scope == HG_METRIC_PERIODIC && !t->workload.ops->periodic)
			hg_yaml_error(c->y, c->d, path,
				      "thread '%s' runs workload '%s', which has no deadlines: %s needs a periodic or cpu_periodic thread",
				      t->name, t->workload.ops->name, m->name);
		if (m->scope == HG_METRIC_LATENCY && !t->workload.ops->wakeups)
			hg_yaml_error(c->y, c->d, path,
				      "thread '%s' runs workload '%s', which records no wake-up latency: %s needs a latency thread",
				      t->name, t->workload.ops->name, m->name);
	}
}

/* The key node of a sweep.grid entry, for errors on its own line. */
static yaml_node_t *grid_key(struct checker *c, const char *key)
{
	yaml_node_t *grid = hg_yaml_find(c->y, "sweep.grid");
	if (!grid || grid->type != YAML_MAPPING_NODE)
		return grid;
	for (yaml_node_pair_t *p = grid->data.mapping.pairs.start;
	     p < grid->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&c->y->doc, p->key);
		const char *text = hg_yaml_scalar(k);
		if (text && strcmp(text, key) == 0)
			return k;
	}
	return grid;
}

/* sweep.grid keys: duration, threads[NAME].key..., loads[NAME].key... */
static void check_sweep(struct checker *c)
{
	const struct hg_sweep_plan *s = &c->plan->sweep;
	for (size_t i = 0; i < s->n_axes; i++) {
		const char *k = s->axes[i].path;
		char name[64], path[200];
		if (!k)
			continue;
		snprintf(path, sizeof(path), "sweep.grid");
		if (strcmp(k, "duration") == 0)
			continue;
		const char *open = strchr(k, '['), *close = open ? strchr(open, ']') : NULL;
		bool threads = open && (size_t)(open - k) == 7 && strncmp(k, "threads", 7) == 0;
		bool loads = open && (size_t)(open - k) == 5 && strncmp(k, "loads", 5) == 0;
		if ((!threads && !loads) || !close || close[1] != '.' || !close[2] ||
		    (size_t)(close - open - 1) >= sizeof(name)) {
			hg_yaml_error_at(c->d, grid_key(c, k), path,
					 "cannot sweep '%s': a swept path is 'duration', 'threads[NAME].key' or 'loads[NAME].key'",
					 k);
			continue;
		}
		memcpy(name, open + 1, (size_t)(close - open - 1));
		name[close - open - 1] = '\0';
		bool found = false;
		if (threads)
			found = find_set(c->plan, name) != NULL;
		for (size_t j = 0; loads && j < c->plan->n_loads; j++)
			found |= c->plan->loads[j].name && strcmp(c->plan->loads[j].name, name) == 0;
		if (!found)
			hg_yaml_error_at(c->d, grid_key(c, k), path,
					 "cannot sweep '%s': no %s is named '%s'", k,
					 threads ? "thread" : "load", name);
	}
}

void hg_check(struct hg_yaml *y, const struct hg_plan *plan, struct hg_diags *d)
{
	struct checker c = { y, d, plan };
	check_unique_threads(&c);
	for (size_t i = 0; i < plan->n_threads; i++)
		if (plan->threads[i].instance == 0)
			check_thread(&c, &plan->threads[i]);
	check_loads(&c);
	check_expects(&c);
	check_sweep(&c);
}
