/* Running a sweep.  Runs go repeat by repeat (every point once, then every
 * point again), so slow drifts of the machine spread over all points rather
 * than landing on the last ones. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cpuset.h"
#include "base/fsutil.h"
#include "cli/sweep_cmd.h"
#include "plan/plan_json.h"
#include "results/results.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"

struct sweep_job {
	const struct hg_cli *cli;
	const struct hg_plan *base;
	char *text;                 /* the scenario file */
	size_t n_points, n_runs;
	int id_width;
	char dir[PATH_MAX];
};

static void point_id(const struct sweep_job *j, size_t point, char out[32])
{
	snprintf(out, 32, "p%0*zu", j->id_width, point);
}

static json_t *overrides_json(const struct hg_plan *base, size_t point)
{
	const struct hg_sweep_plan *sp = &base->sweep;
	json_t *o = json_object();
	for (size_t a = 0; a < sp->n_axes; a++)
		json_object_set_new(o, sp->axes[a].path,
				    json_string(sp->axes[a].values[hg_sweep_coord(sp, point, a)]));
	return o;
}

/* sweep.json: the plan of the whole sweep, the same from every shard. */
static int write_index(const struct sweep_job *j)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	json_t *axes = json_array(), *points = json_array();
	for (size_t a = 0; a < sp->n_axes; a++) {
		json_t *values = json_array();
		for (size_t v = 0; v < sp->axes[a].n_values; v++)
			json_array_append_new(values, json_string(sp->axes[a].values[v]));
		json_array_append_new(axes, json_pack("{s:s, s:o}", "path", sp->axes[a].path,
						      "values", values));
	}
	for (size_t p = 0; p < j->n_points; p++) {
		char id[32], run[64];
		json_t *runs = json_array();
		point_id(j, p, id);
		for (unsigned r = 0; r < sp->repeat; r++) {
			snprintf(run, sizeof(run), "%s/r%u", id, r);
			json_array_append_new(runs, json_string(run));
		}
		json_array_append_new(points, json_pack("{s:I, s:s, s:o, s:o}", "index", (json_int_t)p,
			"id", id, "overrides", overrides_json(j->base, p), "runs", runs));
	}
	json_t *index = json_pack("{s:s, s:s, s:s, s:o, s:o, s:i, s:I, s:o}",
				  "format", "hgrun-sweep/1", "hgrun_version", HG_VERSION,
				  "source", j->cli->files[0], "scenario", hg_plan_to_json(j->base),
				  "axes", axes, "repeat", (int)sp->repeat,
				  "runs", (json_int_t)j->n_runs, "points", points);
	char *text = json_dumps(index, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/sweep.json", j->dir);
	int rc = text ? hg_write_atomic(path, text, strlen(text)) : -ENOMEM;
	free(text);
	json_decref(index);
	return rc;
}

static int choose_dir(struct sweep_job *j)
{
	if (j->cli->out_dir) {
		snprintf(j->dir, sizeof(j->dir), "%s", j->cli->out_dir);
	} else {
		char stamp[32];
		time_t now = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
		snprintf(j->dir, sizeof(j->dir), "results/%s/sweep-%s", j->base->name, stamp);
	}
	return hg_mkdirs(j->dir);
}

/* One run: the point's scenario, loaded like any file, run into its dir. */
static int run_one(struct sweep_job *j, size_t run)
{
	size_t point = run % j->n_points;
	unsigned rep = (unsigned)(run / j->n_points);
	const struct hg_sweep_plan *sp = &j->base->sweep;
	struct hg_override ov[64];
	char id[32], err[HG_ERRLEN], dir[PATH_MAX + 64];
	point_id(j, point, id);
	for (size_t a = 0; a < sp->n_axes && a < 64; a++) {
		ov[a].path = sp->axes[a].path;
		ov[a].value = sp->axes[a].values[hg_sweep_coord(sp, point, a)];
	}
	if (!j->cli->quiet) {
		printf("== run %zu/%zu: %s r%u:", run + 1, j->n_runs, id, rep);
		for (size_t a = 0; a < sp->n_axes; a++)
			printf(" %s=%s", ov[a].path, ov[a].value);
		printf("\n");
		fflush(stdout);
	}
	char *text = hg_sweep_apply(j->text, ov, sp->n_axes, err);
	struct hg_diags d;
	struct hg_plan *plan = text ? hg_scenario_load_string(j->cli->files[0], text, &d) : NULL;
	free(text);
	if (!plan) {
		fprintf(stderr, "hgrun: sweep point %s: %s\n", id, text ? d.items[0].message : err);
		return HG_EXIT_INVALID;
	}
	struct hg_missing_cpu m;
	char buf[128];
	if (hg_plan_missing_cpu(plan, &m)) {
		fprintf(stderr, "hgrun: sweep point %s: %s: CPU %d is not online here (online: %s)\n",
			id, m.path, m.cpu, hg_cpuset_format(&m.online, buf, sizeof(buf)));
		hg_plan_free(plan);
		return HG_EXIT_INVALID;
	}
	if (j->cli->duration_given)
		hg_plan_set_duration(plan, j->cli->duration_ns);
	snprintf(dir, sizeof(dir), "%s/%s/r%u", j->dir, id, rep);
	json_t *where = json_pack("{s:I, s:s, s:i, s:I, s:o}", "index", (json_int_t)point,
				  "id", id, "repeat", (int)rep, "run", (json_int_t)run,
				  "overrides", overrides_json(j->base, point));
	struct hg_run_options opt = {
		.sink = &hg_results_sink, .out_dir = dir, .strict = j->cli->strict, .quiet = j->cli->quiet,
		.argc = j->cli->argc, .argv = j->cli->argv, .sweep_point = where,
	};
	int rc = hg_run(plan, &opt);
	json_decref(where);
	hg_plan_free(plan);
	return rc;
}

static bool mine(const struct hg_cli *cli, size_t run)
{
	return !cli->shards || run % cli->shards == cli->shard;
}

static void list_runs(const struct sweep_job *j)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	for (size_t run = 0; run < j->n_runs; run++) {
		if (!mine(j->cli, run))
			continue;
		char id[32];
		size_t point = run % j->n_points;
		point_id(j, point, id);
		printf("%zu %s r%zu", run, id, run / j->n_points);
		for (size_t a = 0; a < sp->n_axes; a++)
			printf(" %s=%s", sp->axes[a].path, sp->axes[a].values[hg_sweep_coord(sp, point, a)]);
		printf("\n");
	}
}

/* A SIGINT/SIGTERM that arrived between two runs (they stay blocked for
 * the whole sweep): its exit code, or 0. */
static int pending_stop(const sigset_t *stops)
{
	struct timespec now = { 0, 0 };
	int sig = sigtimedwait(stops, NULL, &now);
	return sig == SIGINT ? 130 : sig == SIGTERM ? 143 : 0;
}

static int run_all(struct sweep_job *j)
{
	size_t done = 0, failed = 0;
	int worst = HG_EXIT_OK;
	sigset_t stops, old;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stops, &old);
	for (size_t run = 0; run < j->n_runs; run++) {
		if (!mine(j->cli, run))
			continue;
		int rc = pending_stop(&stops);
		if (!rc) {
			rc = run_one(j, run);
			done++;
		}
		if (rc == 130 || rc == 143 || rc == HG_EXIT_PRIVILEGE) {
			fprintf(stderr, "hgrun: sweep stopped after %zu run%s\n", done, done == 1 ? "" : "s");
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			return rc;
		}
		if (rc) {
			failed++;
			worst = HG_EXIT_FAILED;
		}
	}
	printf("sweep: %zu run%s, %zu failed; results in %s (index: sweep.json)\n", done,
	       done == 1 ? "" : "s", failed, j->dir);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return worst;
}

int hg_sweep_command(const struct hg_cli *cli)
{
	struct hg_diags d;
	struct sweep_job j = { .cli = cli };
	char err[256];
	struct hg_plan *base = hg_scenario_load_for_run(cli->files[0], &d);
	if (!base) {
		hg_diags_print(&d, stderr);
		return HG_EXIT_INVALID;
	}
	j.base = base;
	int rc = HG_EXIT_OK;
	if (!base->sweep.present) {
		fprintf(stderr, "%s: error: sweep: this scenario has no sweep: section; run it with "
			"'hgrun %s'\n", cli->files[0], cli->files[0]);
		rc = HG_EXIT_INVALID;
	} else if (cli->shards && !cli->out_dir && !cli->dry_run) {
		fprintf(stderr, "hgrun: --shard needs -o DIR, the directory every shard shares\n");
		rc = HG_EXIT_USAGE;
	} else if (!(j.text = hg_read_text(cli->files[0], NULL, err))) {
		fprintf(stderr, "%s: error: %s\n", cli->files[0], err);
		rc = HG_EXIT_FAILED;
	}
	if (rc == HG_EXIT_OK) {
		j.n_points = hg_sweep_n_points(&base->sweep);
		j.n_runs = j.n_points * base->sweep.repeat;
		j.id_width = snprintf(NULL, 0, "%zu", j.n_points - 1);
		if (j.id_width < 3)
			j.id_width = 3;
		if (cli->dry_run) {
			list_runs(&j);
		} else if ((rc = choose_dir(&j)) < 0 || (rc = write_index(&j)) < 0) {
			fprintf(stderr, "hgrun: cannot write the sweep directory %s: %s\n", j.dir,
				strerror(-rc));
			rc = HG_EXIT_FAILED;
		} else {
			rc = run_all(&j);
		}
	}
	free(j.text);
	hg_plan_free(base);
	return rc;
}
