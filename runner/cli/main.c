/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hgrun: a declarative Hourglass.  The story: parse the command line, load
 * and check the scenario (load -> check -> resolve, with any --set applied),
 * then validate, list, calibrate, run or sweep it. */
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/calibrate_cmd.h"
#include "cli/complete.h"
#include "cli/doctor_cmd.h"
#include "cli/hourglass.h"
#include "cli/schema_cmd.h"
#include "cli/cli.h"
#include "cli/stdout_end.h"
#include "cli/list.h"
#include "cli/manpage.h"
#include "cli/overrides.h"
#include "cli/plugins.h"
#include "ktrace/observe.h"
#include "plan/load.h"
#include "plan/plan_json.h"
#include "plan/trust.h"
#include "results/outdir.h"
#include "results/sink.h"
#include "results/summary.h"
#include "run/run.h"
#include "run/wake.h"
#include "scenario/scenario.h"
#include "sweep/sweep_merge.h"
#include "sweep/sweep_run.h"

static void print_ok(const char *file, const struct hg_plan *plan)
{
	printf("%s: ok (%zu thread%s in %zu set%s, %zu load%s)\n", file,
	       plan->n_threads, plan->n_threads == 1 ? "" : "s",
	       plan->n_thread_sets, plan->n_thread_sets == 1 ? "" : "s",
	       plan->n_loads, plan->n_loads == 1 ? "" : "s");
}

/* --resolved: one file's plan as JSON; several files' as a list of
 * {"file", "scenario"} (one JSON document either way). */
static int validate_files(const struct hg_cli *cli)
{
	int rc = HG_EXIT_OK;
	json_t *all = cli->resolved && cli->n_files > 1 ? json_array() : NULL, *one = NULL;
	for (int i = 0; i < cli->n_files; i++) {
		int file_rc;
		struct hg_plan *plan = hg_load_with_sets(cli, cli->files[i], false, false, stderr,
							 &file_rc, NULL);
		if (!plan) {
			rc = HG_EXIT_INVALID;
			continue;
		}
		if (!cli->resolved) {
			print_ok(cli->files[i], plan);
			hg_plan_trust_notes(plan, "  ", stdout);
			fflush(stdout);         /* the notes below are about this file */
		}
		else if (all)
			json_array_append_new(all, json_pack("{s:s, s:o}", "file", cli->files[i],
							     "scenario", hg_plan_to_json(plan)));
		else
			one = hg_plan_to_json(plan);
		/* A program a load runs is the host's to have (docs/loads.md) */
		hg_scenario_tool_notes(cli->files[i], plan, false, stderr);
		hg_plan_free(plan);
	}
	json_t *out = all ? all : one;
	if (out && rc == HG_EXIT_OK) {
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	}
	json_decref(out);
	return rc;
}

/* run --json: one line on stdout, whatever happened after the scenario
 * was read. */
static void print_summary(json_t *summary)
{
	json_dumpf(summary, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	fflush(stdout);
	json_decref(summary);
}

static int run_once(const struct hg_cli *cli, json_t **summary)
{
	int rc;
	struct hg_plan *plan = hg_load_with_sets(cli, cli->files[0], true, false, stderr, &rc,
						 NULL);
	if (!plan)
		return rc;
	/* Before -o DIR is prepared and before calibration: nothing is measured
	 * or written without the programs the loads run (docs/loads.md), and
	 * --force must not remove a run for nothing. */
	char note[1024], left_out[1024] = "";
	if (hg_scenario_tool_notes(cli->files[0], plan, true, stderr)) {
		hg_plan_free(plan);
		return HG_EXIT_PRIVILEGE;
	}
	hg_load_leave_out_missing(plan, left_out, sizeof(left_out));
	if ((rc = hg_apply_length(cli, plan, "hgrun: ", stderr, note, sizeof(note)))) {
		hg_plan_free(plan);
		return rc;
	}
	if (left_out[0]) {
		size_t used = strlen(note);
		snprintf(note + used, sizeof(note) - used, "%s%s", used ? "\n" : "", left_out);
	}
	/* -o DIR: made, opened, locked and checked here, and locked from here
	 * to the run's end (results/outdir.h): a second run on it is refused,
	 * whenever it starts. */
	char what[128];
	struct hg_outdir od = { .fd = -1, .lock = { .dir = -1, .fd = -1 } };
	snprintf(what, sizeof(what), "hgrun run %.100s", plan->name);
	if (cli->out_dir && (rc = hg_outdir_claim(cli->out_dir, HG_OUTDIR_RUN, cli->force, what,
						   stderr, &od))) {
		hg_plan_free(plan);
		return rc;
	}
	if (cli->kernel_trace)
		plan->kernel_trace = true;
	hg_plan_trust_notes(plan, "hgrun: ", stderr);
	/* From here to exit the stop signals are hg_run's (run/run.c): one that
	 * comes after result.json is final is not allowed to kill hgrun with an
	 * exit code the result does not state. */
	sigset_t stops;
	hg_stop_signals(&stops);
	pthread_sigmask(SIG_BLOCK, &stops, NULL);
	json_t *sets = hg_sets_json(cli);
	struct hg_run_options opt = {
		.sink = &hg_results_sink, .observer = &hg_kernel_observer, .out_dir = cli->out_dir,
		.dir_fd = od.fd, .lock = &od.lock,
		.strict = cli->strict, .quiet = cli->quiet,
		.argc = cli->argc, .argv = cli->argv, .overrides = sets, .note = note,
		/* --json: stdout holds the summary object only (docs/cli.md) */
		.out = cli->json ? stderr : stdout, .summary = summary,
	};
	rc = hg_run(plan, &opt);
	hg_outdir_release(&od);
	json_decref(sets);
	hg_plan_free(plan);
	return rc;
}

static int run_scenario(const struct hg_cli *cli)
{
	json_t *summary = NULL;
	int rc = run_once(cli, cli->json ? &summary : NULL);
	if (cli->json)          /* also when it ended before the run (exit 2, 3, ...) */
		print_summary(hg_summary_json_exit(summary, rc));
	return rc;
}

/* The sweep of the scenario with its --set options applied. */
static int sweep_scenario(const struct hg_cli *cli)
{
	int rc;
	char *text;
	struct hg_plan *base = hg_load_with_sets(cli, cli->files[0], true, true, stderr, &rc,
						 &text);
	if (!base)
		return rc;
	if (hg_scenario_tool_notes(cli->files[0], base, !cli->dry_run, stderr)) {
		free(text);
		hg_plan_free(base);
		return HG_EXIT_PRIVILEGE;
	}
	json_t *sets = hg_sets_json(cli);
	struct hg_sweep_options opt = {
		.file = cli->files[0], .plugins = &hg_builtin_plugins, .text = text, .n_sets = cli->n_sets, .overrides = sets,
		.out_dir = cli->out_dir, .force = cli->force, .resume = cli->resume,
		.quiet = cli->quiet, .strict = cli->strict, .kernel_trace = cli->kernel_trace,
		.dry_run = cli->dry_run, .length = hg_cli_length(cli), .shard = cli->shard,
		.shards = cli->shards, .grid_order = cli->grid_order, .seed_given = cli->seed_given,
		.seed = cli->seed, .argc = cli->argc, .argv = cli->argv,
	};
	rc = hg_sweep_run(base, &opt);
	json_decref(sets);
	free(text);
	hg_plan_free(base);
	return rc;
}

/* `hgrun doctor [SCENARIO]`: the checks weighed by what the scenario uses. */
static int doctor(const struct hg_cli *cli)
{
	int rc = HG_EXIT_OK;
	struct hg_plan *plan = NULL;
	if (cli->n_files) {
		plan = hg_load_with_sets(cli, cli->files[0], false, false, stderr, &rc, NULL);
		if (!plan)
			return rc;
	}
	rc = hg_doctor_command(plan, stdout, cli->json);
	hg_plan_free(plan);
	return rc;
}

static int command(const struct hg_cli *cli)
{
	switch (cli->command) {
	case HG_CMD_HELP:
		if (cli->man)
			return hg_manpage_command(stdout, stderr, cli->list_what);
		hg_cli_usage(stdout, cli->help_for);
		return HG_EXIT_OK;
	case HG_CMD_COMPLETION:
		return hg_completion_command(stdout, stderr, cli->files[0]);
	case HG_CMD_VERSION:
		printf("hgrun %s (scenario format 1, result format hgrun-result/1)\n", HG_VERSION);
		return HG_EXIT_OK;
	case HG_CMD_VALIDATE:
		return validate_files(cli);
	case HG_CMD_LIST:
		return hg_list_command(stdout, stderr, cli->list_what, cli->json);
	case HG_CMD_CALIBRATE:
		return hg_calibrate_command(stdout, cli->json);
	case HG_CMD_DOCTOR:
		return doctor(cli);
	case HG_CMD_SCHEMA:
		return hg_schema_command(stdout, stderr, cli->list_what, cli->path_only);
	case HG_CMD_HOURGLASS:
		return hg_hourglass_command(cli->n_files, cli->files, stdout, stderr);
	case HG_CMD_RUN:
		return run_scenario(cli);
	case HG_CMD_SWEEP:
		return sweep_scenario(cli);
	case HG_CMD_MERGE:
		return hg_sweep_merge(cli->files[0], cli->files + 1, cli->n_files - 1);
	}
	return HG_EXIT_FAILED;
}

/* `hgrun run ... --json` refused while its command line was read (an
 * unknown option, --resume without -o): stdout still holds its one
 * object (docs/cli.md), whatever came before --json was seen. */
static bool run_with_json(int argc, char **argv)
{
	bool run = argc > 1 && (!strcmp(argv[1], "run") || argv[1][0] == '-' ||
				strpbrk(argv[1], "./") != NULL);
	for (int i = 1; run && i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--json"))
			return true;
	}
	return false;
}

int main(int argc, char **argv)
{
	struct hg_cli cli;
	/* A closed stdout or stderr (`hgrun ... | head`) costs output, never the
	 * run: a write gets EPIPE instead of killing hgrun before it cleans up.
	 * Load processes reset every signal to its default (loads/process.c). */
	signal(SIGPIPE, SIG_IGN);
	int rc = hg_cli_parse(argc, argv, &cli, stderr);
	if (rc && run_with_json(argc, argv))
		print_summary(hg_summary_json_exit(NULL, rc));
	if (rc)
		return rc;
	rc = command(&cli);
	/* What a run, sweep or merge printed is a summary of results on disk:
	 * its status stays the results' own. */
	return hg_stdout_end(rc, cli.command == HG_CMD_RUN || cli.command == HG_CMD_SWEEP ||
				 cli.command == HG_CMD_MERGE);
}
