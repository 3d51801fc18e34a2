/* Printing the registries: workloads, timers, priorities, loads, metrics. */
#include <jansson.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/list.h"
#include "plan/load.h"
#include "plan/metrics.h"
#include "plan/priority.h"
#include "plan/timer.h"
#include "plan/workload.h"

static const char *const wparam_names[] = { "exec", "period", "working_set", "yield_after",
					    "align", "pattern" };
#define N_WPARAM_NAMES (sizeof(wparam_names) / sizeof(wparam_names[0]))
static const char *const lparam_names[] = { "workers", "size", "dir", "connect", "listen",
					    "command", "population" };
#define N_LPARAM_NAMES (sizeof(lparam_names) / sizeof(lparam_names[0]))

static void params(char *buf, size_t size, unsigned takes, unsigned needs,
		   const char *const *names, size_t n)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		if (takes & (1u << i))
			used += (size_t)snprintf(buf + used, size - used, "%s%s%s", used ? " " : "",
						 names[i], needs & (1u << i) ? "" : "?");
}

static json_t *param_array(unsigned takes, unsigned needs, const char *const *names, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		if (takes & (1u << i))
			json_array_append_new(a, json_pack("{s:s, s:b}", "name", names[i],
							   "required", (needs & (1u << i)) != 0));
	return a;
}

static json_t *list_json(void)
{
	json_t *w = json_array(), *t = json_array(), *p = json_array(), *l = json_array(),
	       *m = json_array();
	for (size_t i = 0; i < hg_n_workloads; i++)
		json_array_append_new(w, json_pack("{s:s, s:s, s:o}", "name", hg_workloads[i]->name,
			"summary", hg_workloads[i]->summary, "params",
			param_array(hg_workloads[i]->takes, hg_workloads[i]->needs, wparam_names,
				    N_WPARAM_NAMES)));
	for (size_t i = 0; i < hg_n_timers; i++)
		json_array_append_new(t, json_pack("{s:s, s:s}", "name", hg_timers[i]->name,
						   "summary", hg_timers[i]->summary));
	for (size_t i = 0; i < hg_n_priority_levels; i++)
		json_array_append_new(p, json_pack("{s:s, s:s, s:i, s:i, s:s}",
			"name", hg_priority_levels[i].name,
			"policy", hg_policy_name(hg_priority_levels[i].policy),
			"priority", hg_priority_levels[i].rt_priority,
			"nice", hg_priority_levels[i].nice, "summary", hg_priority_levels[i].summary));
	for (size_t i = 0; i < hg_n_loads; i++)
		json_array_append_new(l, json_pack("{s:s, s:s, s:o}", "name", hg_loads[i]->name,
			"summary", hg_loads[i]->summary, "params",
			param_array(hg_loads[i]->takes, hg_loads[i]->needs, lparam_names,
				    N_LPARAM_NAMES)));
	for (size_t i = 0; i < hg_n_metrics; i++)
		json_array_append_new(m, json_pack("{s:s, s:s}", "name", hg_metrics[i].name,
						   "summary", hg_metrics[i].summary));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "workloads", w, "timers", t,
			 "priorities", p, "loads", l, "metrics", m);
}

static void print_text(FILE *out, const char *what)
{
	char buf[128];
	bool all = !what;
	if (all || !strcmp(what, "workloads")) {
		fprintf(out, "workloads (workload.type; '?' marks an optional parameter):\n");
		for (size_t i = 0; i < hg_n_workloads; i++) {
			const struct hg_workload_ops *w = hg_workloads[i];
			params(buf, sizeof(buf), w->takes, w->needs, wparam_names,
			       N_WPARAM_NAMES);
			fprintf(out, "  %-15s %-22s %s\n", w->name, buf, w->summary);
		}
	}
	if (all || !strcmp(what, "timers")) {
		fprintf(out, "%stimers (timer; default absolute):\n", all ? "\n" : "");
		for (size_t i = 0; i < hg_n_timers; i++)
			fprintf(out, "  %-15s %s\n", hg_timers[i]->name, hg_timers[i]->summary);
	}
	if (all || !strcmp(what, "priorities")) {
		fprintf(out, "%spriorities (priority; any case; or {policy: fifo|rr|other|batch|idle, priority: 1..98 | nice: -20..19}):\n",
			all ? "\n" : "");
		for (size_t i = 0; i < hg_n_priority_levels; i++)
			fprintf(out, "  %-15s %s\n", hg_priority_levels[i].name,
				hg_priority_levels[i].summary);
	}
	if (all || !strcmp(what, "loads")) {
		fprintf(out, "%sloads (loads[].type):\n", all ? "\n" : "");
		for (size_t i = 0; i < hg_n_loads; i++) {
			const struct hg_load_ops *l = hg_loads[i];
			params(buf, sizeof(buf), l->takes, l->needs, lparam_names, N_LPARAM_NAMES);
			fprintf(out, "  %-15s %-22s %s\n", l->name, buf, l->summary);
		}
	}
	if (all || !strcmp(what, "metrics")) {
		fprintf(out, "%smetrics (expect[].metric):\n", all ? "\n" : "");
		for (size_t i = 0; i < hg_n_metrics; i++)
			fprintf(out, "  %-20s %s\n", hg_metrics[i].name, hg_metrics[i].summary);
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
