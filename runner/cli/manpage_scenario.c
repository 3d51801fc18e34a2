/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hgrun-scenario(5): the scenario format, its keys from the format's own
 * schema (hg_scenario_keys), each with its line of cli/help_scenario.c, and
 * every workload's, timer's and load's keys from their parameter tables (what
 * `hgrun list` prints); the priority levels and the metrics from theirs. */
#include <string.h>

#include "cli/help_scenario.h"
#include "cli/manpage_scenario.h"
#include "cli/plugins.h"
#include "cli/roff.h"
#include "plan/metrics.h"
#include "plan/priority.h"
#include "scenario/rawscenario.h"

#define MISSING "(not described here: see docs/scenario.md)"

static void keys(FILE *out, const char *part, const char *heading)
{
	const char *names[64];
	size_t n = hg_scenario_keys(part, names, 64);
	fputs(".SH ", out);
	hg_roff_text(out, heading);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		const char *help = hg_scenario_key_help(part, names[i]);
		hg_roff_item(out, names[i], help ? help : MISSING);
	}
}

/* One plugin: its name and summary, then a line per parameter as `hgrun list`
 * gives it: kind, default or required, range, help. */
static void plugin(FILE *out, const char *name, const char *summary, const struct hg_params *ps)
{
	fputs(".TP\n.B ", out);
	hg_roff_text(out, name);
	fputc('\n', out);
	hg_roff_text(out, summary);
	fputc('\n', out);
	for (size_t i = 0; i < hg_params_count(ps); i++) {
		const struct hg_param *p = &ps->table[i];
		char range[96], kind[128] = "";
		hg_param_range_text(p, range, sizeof(range));
		for (size_t c = 0; p->kind == HG_PARAM_ENUM && p->choices[c]; c++)
			snprintf(kind + strlen(kind), sizeof(kind) - strlen(kind), "%s%s", c ? "|" : "",
				 p->choices[c]);
		fputs(".br\n\\(bu \\fB", out);
		hg_roff_text(out, p->name);
		fputs("\\fR (", out);
		hg_roff_text(out, kind[0] ? kind : hg_param_kind_name(p->kind));
		fputs(p->required ? ", required" : p->def ? ", default " : "", out);
		if (!p->required && p->def)
			hg_roff_text(out, p->def);
		if (range[0]) {
			fputs(", ", out);
			hg_roff_text(out, range);
		}
		fputs("): ", out);
		hg_roff_text(out, p->help);
		fputc('\n', out);
	}
}

static void plugins(FILE *out)
{
	const struct hg_plugins *p = &hg_builtin_plugins;
	fputs(".SH WORKLOADS\nthreads[].workload: {type: NAME, KEY: VALUE, ...}\n", out);
	for (size_t i = 0; i < p->n_workloads; i++)
		plugin(out, p->workloads[i]->name, p->workloads[i]->summary, &p->workloads[i]->params);
	fputs(".SH TIMERS\nthreads[].timer: NAME or {type: NAME, tick, slack}\n", out);
	for (size_t i = 0; i < p->n_timers; i++)
		plugin(out, p->timers[i]->name, p->timers[i]->summary, &p->timers[i]->params);
	fputs(".SH LOADS\nloads[]: {name, type: NAME, start, stop, priority, cpus, optional, "
	      "KEY: VALUE, ...}\n", out);
	for (size_t i = 0; i < p->n_loads; i++)
		plugin(out, p->loads[i]->name, p->loads[i]->summary, &p->loads[i]->params);
}

void hg_manpage_scenario(FILE *out)
{
	hg_roff_head(out, "hgrun-scenario", 5, "the YAML scenario files hgrun runs");
	fputs(".SH SYNOPSIS\n.nf\nhgrun: 1\nname: NAME\nduration: TIME\nthreads:\n"
	      "  \\- name: NAME\n    priority: LEVEL\n    workload: {type: TYPE, ...}\n"
	      "loads:\n  \\- {name: NAME, type: TYPE, ...}\nexpect:\n"
	      "  \\- {thread: NAME, metric: METRIC, max: VALUE}\n.fi\n", out);
	fputs(".SH DESCRIPTION\nA scenario describes one experiment: how long it runs, its "
	      "measuring threads (what each does, on which timer, at which priority, on which "
	      "CPUs), the background loads with their windows, the bounds its results must meet "
	      "and, for hgrun sweep, a grid of values. Durations are written with a unit "
	      "(1ms, 5.3ms, 2s, 1m), sizes too (64KiB, 1MiB). hgrun validate checks a file; "
	      "hgrun schema gives its JSON Schema for editors. Every key below comes from "
	      "hgrun's own tables, as hgrun list prints them; docs/scenario.md explains each.\n",
	      out);
	keys(out, "scenario", "TOP-LEVEL KEYS");
	keys(out, "trace", "TRACE");
	keys(out, "thread", "THREADS");
	keys(out, "reservation", "RESERVATIONS");
	fputs(".SH PRIORITIES\n", out);
	for (size_t i = 0; i < HG_N_PRIORITY_LEVELS; i++)
		hg_roff_item(out, hg_priority_levels[i].name, hg_priority_levels[i].summary);
	plugins(out);
	keys(out, "load", "LOAD KEYS");
	keys(out, "expect", "EXPECT");
	fputs(".SH METRICS\nWhat expect: bounds (and hgreport compare \\-\\-fail\\-if takes):\n", out);
	for (size_t i = 0; i < HG_N_METRICS; i++)
		hg_roff_item(out, hg_metrics[i].name, hg_metrics[i].summary);
	keys(out, "sweep", "SWEEP");
	fputs(".SH SEE ALSO\nhgrun(1), hgreport(1); docs/scenario.md\n", out);
}
