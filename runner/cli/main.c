/* hgrun: a declarative Hourglass.  The story: parse the command line, load
 * and check the scenario (load -> check -> resolve), then validate, list,
 * calibrate or run it. */
#include <jansson.h>
#include <stdio.h>

#include "cli/calibrate_cmd.h"
#include "cli/cli.h"
#include "cli/list.h"
#include "cli/sweep_cmd.h"
#include "plan/plan_json.h"
#include "results/results.h"
#include "run/run.h"
#include "scenario/scenario.h"

static int validate_files(const struct hg_cli *cli)
{
	int rc = HG_EXIT_OK;
	for (int i = 0; i < cli->n_files; i++) {
		struct hg_diags diags;
		struct hg_plan *plan = hg_scenario_load(cli->files[i], &diags);
		if (!plan) {
			hg_diags_print(&diags, stderr);
			rc = HG_EXIT_INVALID;
			continue;
		}
		if (cli->resolved) {
			json_t *j = hg_plan_to_json(plan);
			json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', stdout);
			json_decref(j);
		} else {
			printf("%s: ok (%zu thread%s in %zu set%s, %zu load%s)\n", cli->files[i],
			       plan->n_threads, plan->n_threads == 1 ? "" : "s",
			       plan->n_thread_sets, plan->n_thread_sets == 1 ? "" : "s",
			       plan->n_loads, plan->n_loads == 1 ? "" : "s");
		}
		hg_plan_free(plan);
	}
	return rc;
}

static int run_scenario(const struct hg_cli *cli)
{
	struct hg_diags diags;
	struct hg_plan *plan = hg_scenario_load_for_run(cli->files[0], &diags);
	if (!plan) {
		hg_diags_print(&diags, stderr);
		return HG_EXIT_INVALID;
	}
	if (cli->duration_given) {
		size_t idle = hg_plan_set_duration(plan, cli->duration_ns);
		if (idle)
			fprintf(stderr, "hgrun: note: with --duration, %zu thread%s or load%s start%s "
				"after the end and will not run\n", idle, idle == 1 ? "" : "s",
				idle == 1 ? "" : "s", idle == 1 ? "s" : "");
	}
	struct hg_run_options opt = {
		.sink = &hg_results_sink, .out_dir = cli->out_dir, .strict = cli->strict, .quiet = cli->quiet,
		.argc = cli->argc, .argv = cli->argv,
	};
	int rc = hg_run(plan, &opt);
	hg_plan_free(plan);
	return rc;
}

int main(int argc, char **argv)
{
	struct hg_cli cli;
	int rc = hg_cli_parse(argc, argv, &cli, stderr);
	if (rc)
		return rc;
	switch (cli.command) {
	case HG_CMD_HELP:
		hg_cli_usage(stdout);
		return HG_EXIT_OK;
	case HG_CMD_VERSION:
		printf("hgrun %s (scenario format 1, result format hgrun-result/1)\n", HG_VERSION);
		return HG_EXIT_OK;
	case HG_CMD_VALIDATE:
		return validate_files(&cli);
	case HG_CMD_LIST:
		return hg_list_command(stdout, stderr, cli.list_what, cli.json);
	case HG_CMD_CALIBRATE:
		return hg_calibrate_command(stdout, cli.json);
	case HG_CMD_RUN:
		return run_scenario(&cli);
	case HG_CMD_SWEEP:
		return hg_sweep_command(&cli);
	}
	return HG_EXIT_FAILED;
}
