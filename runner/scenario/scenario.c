/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loading story: each stage sees only what the one before produced,
 * and a stage runs only when the one before found no error. */
#include "base/cpuset.h"
#include "plan/load.h"
#include "scenario/check.h"
#include "scenario/rawscenario.h"
#include "scenario/resolve.h"
#include "scenario/scenario.h"
#include "scenario/shape.h"
#include "scenario/sweep.h"
#include "scenario/yamldoc.h"

static struct hg_plan *load(struct hg_yaml *y, int opened, const struct hg_plugins *plugins,
			    struct hg_diags *d);

struct hg_plan *hg_scenario_load(const char *path, const struct hg_plugins *plugins,
				 struct hg_diags *d)
{
	struct hg_yaml y;
	hg_diags_init(d, path);
	return load(&y, hg_yaml_open(&y, path, d), plugins, d);
}

struct hg_plan *hg_scenario_load_string(const char *name, const char *text,
					const struct hg_plugins *plugins, struct hg_diags *d)
{
	struct hg_yaml y;
	hg_diags_init(d, name);
	return load(&y, hg_yaml_open_string(&y, text, d), plugins, d);
}

/* The lists' lengths, bounded before libcyaml copies them into structs (its
 * copying grows with each entry) and before anything is resolved
 * (docs/scenario.md, rule 15). */
static const struct {
	const char *key, *what;
	size_t max;
} list_limits[] = {
	{ "threads", "thread sets", 4096 },
	{ "loads", "loads", 256 },
	{ "expect", "expectations", 1024 },
};

static int check_list_lengths(struct hg_yaml *y, struct hg_diags *d)
{
	size_t before = d->count;
	for (size_t i = 0; i < sizeof(list_limits) / sizeof(list_limits[0]); i++) {
		size_t n = hg_yaml_length(hg_yaml_find(y, list_limits[i].key));
		if (n > list_limits[i].max)
			hg_yaml_error(y, d, list_limits[i].key, "%zu %s: a scenario has at most %zu",
				      n, list_limits[i].what, list_limits[i].max);
	}
	return d->count == before ? 0 : -1;
}

static struct hg_plan *load(struct hg_yaml *y, int opened, const struct hg_plugins *plugins,
			    struct hg_diags *d)
{
	struct hg_raw_scenario *raw = NULL;
	struct hg_plan *plan = NULL;

	if (opened == 0 && check_list_lengths(y, d) == 0 &&
	    hg_shape_check(y, hg_raw_scenario_schema(plugins), d) == 0 &&
	    hg_raw_load(y->text, y->len, plugins, &raw, d) == 0) {
		plan = hg_resolve(y, raw, plugins, d);
		if (plan && d->count == 0)
			hg_check(y, plan, d);
		if (plan && d->count == 0 && plan->sweep.present)
			hg_sweep_check(y, plan, hg_scenario_load_string, plugins, d);
		if (!plan && d->count == 0)
			hg_diag_add(d, 0, 0, NULL, "out of memory");
	}
	hg_raw_free(raw);
	hg_yaml_close(y);
	if (d->count) {
		hg_plan_free(plan);
		hg_diags_sort(d);
		return NULL;
	}
	return plan;
}

struct hg_plan *hg_scenario_load_for_run(const char *path, const struct hg_plugins *plugins,
					 struct hg_diags *d)
{
	struct hg_plan *plan = hg_scenario_load(path, plugins, d);
	struct hg_missing_cpu m;
	if (!plan || !hg_plan_missing_cpu(plan, &m))
		return plan;
	struct hg_yaml y;
	char buf[256], all[256];
	cpu_set_t machine;
	/* Online, but left out of the CPUs hgrun was started with (taskset, a
	 * cgroup cpuset, a batch job's allocation): a different fix. */
	bool fenced = hg_cpuset_system_online(&machine) && CPU_ISSET(m.cpu, &machine);
	if (hg_yaml_open(&y, path, d) != 0) {
		/* unreadable a moment after it was read: hg_yaml_open said why */
	} else if (fenced) {
		hg_yaml_error(&y, d, m.path, "CPU %d is online (%s) but hgrun may not use it: it "
			      "was started allowed only CPUs %s (taskset, a cgroup cpuset or the "
			      "job scheduler): change cpus, or start hgrun with CPU %d allowed",
			      m.cpu, hg_cpuset_format(&machine, all, sizeof(all)),
			      hg_cpuset_format(&m.online, buf, sizeof(buf)), m.cpu);
	} else {
		hg_yaml_error(&y, d, m.path, "CPU %d is not online on this machine (online: %s): "
			      "change cpus, or run where CPU %d exists", m.cpu,
			      hg_cpuset_format(&m.online, buf, sizeof(buf)), m.cpu);
	}
	hg_yaml_close(&y);
	hg_plan_free(plan);
	return NULL;
}

size_t hg_scenario_tool_notes(const char *path, const struct hg_plan *plan, bool run, FILE *out)
{
	struct hg_yaml y;
	struct hg_diags d;      /* the file was read a moment ago: an error here costs positions */
	int opened = 0;         /* 1: y holds the file; -1: it could not be read again */
	size_t errors = 0;
	for (size_t i = 0; i < plan->n_loads; i++) {
		const struct hg_load_plan *l = &plan->loads[i];
		const struct hg_load_tool *t = l->ops ? hg_load_missing_tool(l) : NULL;
		if (!t)
			continue;
		if (!opened) {
			hg_diags_init(&d, path);
			opened = hg_yaml_open(&y, path, &d) == 0 ? 1 : -1;
		}
		char where[48];
		unsigned line = 0, col = 0;
		snprintf(where, sizeof(where), "loads[%zu].type", i);
		if (opened > 0)
			hg_yaml_locate(&y, where, &line, &col);
		bool error = run && !l->optional;
		errors += error;
		if (line)
			fprintf(out, "%s:%u:%u: ", path, line, col);
		else
			fprintf(out, "%s: ", path);
		fprintf(out, "%s: %s: load '%s' (%s) runs %s, which is not on PATH here (Debian "
			"package %s: apt-get install %s)%s\n", error ? "error" : "note", where,
			l->name, l->ops->name, t->program, t->package, t->package,
			error ? ": nothing was run; install it, or give the load 'optional: true' to "
				"run without it"
			: l->optional ? (run ? "; the load is optional: this run leaves it out"
					     : "; the load is optional: a run here leaves it out")
			: "; a run here stops before it measures (exit 4) until it is installed");
	}
	if (opened)
		hg_yaml_close(&y);
	return errors;
}
