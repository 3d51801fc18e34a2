/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing the registries: workloads, timers, priorities, loads, metrics;
 * each plugin's parameters from its table (plan/param.h). */
#include <jansson.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/list.h"
#include "cli/plugins.h"
#include "plan/metrics.h"
#include "plan/param_json.h"
#include "plan/priority.h"

/* What `hgrun list` shows of any plugin. */
struct plugin {
	const char *name, *summary;
	const struct hg_params *params;
	bool (*supported)(char *why, size_t size);
};

#define PLUGIN(ops) ((struct plugin){ (ops)->name, (ops)->summary, &(ops)->params, (ops)->supported })

/* NULL when the plugin works here, else why not. */
static const char *unsupported(const struct plugin *p, char *why, size_t size)
{
	return p->supported && !p->supported(why, size) ? why : NULL;
}

static json_t *plugin_json(struct plugin p)
{
	char why[256];
	const char *no = unsupported(&p, why, sizeof(why));
	return json_pack("{s:s, s:s, s:o, s:b, s:o}", "name", p.name, "summary", p.summary,
			 "params", hg_params_describe(p.params), "supported", !no,
			 "unsupported_why", no ? json_string(no) : json_null());
}

static json_t *workload_json(const struct hg_workload_ops *w)
{
	json_t *o = plugin_json(PLUGIN(w));
	json_object_set_new(o, "periodic", json_boolean(w->periodic));
	json_object_set_new(o, "blocks", json_boolean(w->blocks));
	return o;
}

static json_t *list_json(void)
{
	json_t *w = json_array(), *t = json_array(), *p = json_array(), *l = json_array(),
	       *m = json_array();
	for (size_t i = 0; i < hg_builtin_plugins.n_workloads; i++)
		json_array_append_new(w, workload_json(hg_builtin_plugins.workloads[i]));
	for (size_t i = 0; i < hg_builtin_plugins.n_timers; i++)
		json_array_append_new(t, plugin_json(PLUGIN(hg_builtin_plugins.timers[i])));
	for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
		json_array_append_new(p, json_pack("{s:s, s:s, s:i, s:i, s:s}",
			"name", hg_priority_levels[i].name,
			"policy", hg_policy_name(hg_priority_levels[i].policy),
			"priority", hg_priority_levels[i].rt_priority,
			"nice", hg_priority_levels[i].nice, "summary", hg_priority_levels[i].summary));
	for (size_t i = 0; i < hg_builtin_plugins.n_loads; i++)
		json_array_append_new(l, plugin_json(PLUGIN(hg_builtin_plugins.loads[i])));
	for (size_t i = 0; i < HG_N_METRICS; i++) {
		const struct hg_metric *x = &hg_metrics[i];
		json_array_append_new(m, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "name", x->name,
						   "unit", x->unit, "scope",
						   hg_metric_scope_name(x->scope), "label", x->label,
						   "summary", x->summary, "expect", x->value != NULL));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "workloads", w, "timers", t,
			 "priorities", p, "loads", l, "metrics", m);
}

/* One plugin: its name and summary, then a line per parameter:
 * "period  duration, required, at least 10us: release period ...". */
static void print_plugin(FILE *out, struct plugin pl)
{
	char why[256];
	const char *no = unsupported(&pl, why, sizeof(why));
	const struct hg_params *ps = pl.params;
	fprintf(out, "  %-15s %s%s%s%s\n", pl.name, pl.summary, no ? " [unsupported here: " : "",
		no ? no : "", no ? "]" : "");
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		char range[96], what[160], kind[64] = "";
		hg_param_range_text(p, range, sizeof(range));
		for (size_t c = 0; p->kind == HG_PARAM_ENUM && p->choices[c]; c++)
			snprintf(kind + strlen(kind), sizeof(kind) - strlen(kind), "%s%s", c ? "|" : "",
				 p->choices[c]);
		snprintf(what, sizeof(what), "%s, %s%s%s%s", kind[0] ? kind : hg_param_kind_name(p->kind),
			 p->required ? "required" : p->def ? "default " : "optional",
			 p->def ? p->def : "", range[0] ? ", " : "", range);
		fprintf(out, "      %-12s %-36s %s\n", p->name, what, p->help);
	}
}

static void print_text(FILE *out, const char *what)
{
	bool all = !what;
	if (all || !strcmp(what, "workloads")) {
		fprintf(out, "workloads (workload.type; default cpu; its keys below it):\n");
		for (size_t i = 0; i < hg_builtin_plugins.n_workloads; i++)
			print_plugin(out, PLUGIN(hg_builtin_plugins.workloads[i]));
	}
	if (all || !strcmp(what, "timers")) {
		fprintf(out, "%stimers (timer; default absolute):\n", all ? "\n" : "");
		for (size_t i = 0; i < hg_builtin_plugins.n_timers; i++)
			print_plugin(out, PLUGIN(hg_builtin_plugins.timers[i]));
	}
	if (all || !strcmp(what, "priorities")) {
		fprintf(out, "%spriorities (priority; any case; or {policy: fifo|rr|other|batch|idle, priority: 1..98 | nice: -20..19}):\n",
			all ? "\n" : "");
		for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
			fprintf(out, "  %-15s %s\n", hg_priority_levels[i].name,
				hg_priority_levels[i].summary);
	}
	if (all || !strcmp(what, "loads")) {
		fprintf(out, "%sloads (loads[].type; its keys below it):\n", all ? "\n" : "");
		for (size_t i = 0; i < hg_builtin_plugins.n_loads; i++)
			print_plugin(out, PLUGIN(hg_builtin_plugins.loads[i]));
	}
	if (all || !strcmp(what, "metrics")) {
		fprintf(out, "%smetrics (expect[].metric and hgreport compare --fail-if):\n",
			all ? "\n" : "");
		for (size_t i = 0; i < HG_N_METRICS; i++)
			if (hg_metrics[i].value)
				fprintf(out, "  %-28s %-6s %s\n", hg_metrics[i].name,
					hg_metrics[i].unit, hg_metrics[i].summary);
		fprintf(out, "metrics hgreport computes from the trace (compare --fail-if only):\n");
		for (size_t i = 0; i < HG_N_METRICS; i++)
			if (!hg_metrics[i].value)
				fprintf(out, "  %-28s %-6s %s\n", hg_metrics[i].name,
					hg_metrics[i].unit, hg_metrics[i].summary);
	}
}

int hg_list_command(FILE *out, FILE *err, const char *what, bool json)
{
	static const char *const topics[] = { "workloads", "timers", "priorities", "loads", "metrics" };
	bool known = !what;
	for (size_t i = 0; i < 5 && !known; i++)
		known = strcmp(what, topics[i]) == 0;
	if (!known) {
		fprintf(err, "hgrun: list: unknown topic '%s' (topics: workloads, timers, priorities, loads, metrics)\n",
			what);
		return HG_EXIT_USAGE;
	}
	if (json) {
		json_t *all = list_json();
		json_t *part = what ? json_object_get(all, what) : all;
		json_dumpf(part, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(all);
		return HG_EXIT_OK;
	}
	print_text(out, what);
	return HG_EXIT_OK;
}
