/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a sweep.  Runs go repeat by repeat (every point once, then every
 * point again), so slow drifts of the machine spread over all points rather
 * than landing on the last ones.  A sweep directory is refused unless it is
 * new, empty, this sweep's (a shard's, or --resume), or --force. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "ktrace/observe.h"
#include "plan/load.h"
#include "plan/timeline.h"
#include "plan/trust.h"
#include "results/outdir.h"
#include "results/sink.h"
#include "run/run.h"
#include "run/wake.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "sweep/sweep_dir.h"
#include "sweep/sweep_index.h"
#include "sweep/sweep_job.h"
#include "sweep/sweep_order.h"
#include "sweep/sweep_run.h"

struct tally {
	size_t todo, done, succeeded, failed, skipped;
	size_t expect_failed;       /* of succeeded: complete, an expectation failed (exit 5) */
	double spent_s;             /* wall time of the runs done */
};

/* The point's grid values (j->text has the --set options in already). */
static size_t overrides_of(const struct hg_sweep_job *j, size_t point, struct hg_override *ov)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	size_t n = 0;
	for (size_t a = 0; a < sp->n_axes; a++) {
		ov[n].path = sp->axes[a].path;
		ov[n++].value = sp->axes[a].values[hg_sweep_coord(sp, point, a)];
	}
	return n;
}

/* The point's scenario, loaded like any file; NULL after printing why. */
static struct hg_plan *point_plan(struct hg_sweep_job *j, size_t point)
{
	/* Sized by the input: a grid may have as many axes as sweep.h allows. */
	struct hg_override *ov = calloc(j->base->sweep.n_axes + 1, sizeof(*ov));
	char err[HG_ERRLEN] = "out of memory", id[32], buf[128];
	hg_sweep_point_id(j->n_points, point, id);
	char *text = ov ? hg_sweep_apply(j->text, ov, overrides_of(j, point, ov), err) : NULL;
	free(ov);
	bool applied = text != NULL;
	struct hg_diags d;
	struct hg_plan *plan = text ? hg_scenario_load_string(j->opt->file, text, j->opt->plugins, &d) : NULL;
	free(text);
	if (!plan) {
		bool at = applied && d.items[0].path[0];
		fprintf(stderr, "hgrun: sweep point %s: %s%s%s\n", id, at ? d.items[0].path : "",
			at ? ": " : "", applied ? d.items[0].message : err);
		return NULL;
	}
	struct hg_missing_cpu m;
	if (hg_plan_missing_cpu(plan, &m)) {
		fprintf(stderr, "hgrun: sweep point %s: %s: CPU %d is not online here (online: %s)\n",
			id, m.path, m.cpu, hg_cpuset_format(&m.online, buf, sizeof(buf)));
		hg_plan_free(plan);
		return NULL;
	}
	char what[64];
	snprintf(what, sizeof(what), "hgrun: sweep point %s: ", id);
	struct hg_length len = j->opt->length;
	len.note = j->note;
	len.note_size = sizeof(j->note);
	if (hg_plan_apply_length(plan, &len, what, stderr)) {
		hg_plan_free(plan);
		return NULL;
	}
	/* Optional loads without their program (docs/loads.md) are left out, a
	 * warning each; the others stopped the sweep before it began, unless
	 * the grid gave a point a load type the base did not have. */
	if (hg_load_leave_out_missing(plan, j->note, sizeof(j->note))) {
		fprintf(stderr, "%sa load runs a program that is not on PATH here (hgrun validate "
			"names it)\n", what);
		hg_plan_free(plan);
		return NULL;
	}
	if (j->opt->kernel_trace)
		plan->kernel_trace = true;
	return plan;
}

static const char *fmt_left(double s, char *buf, size_t size)
{
	long whole = (long)(s + 0.5);
	if (s < 10)
		snprintf(buf, size, "%.1fs", s);
	else if (whole < 90)
		snprintf(buf, size, "%lds", whole);
	else if (whole < 5400)
		snprintf(buf, size, "%ldm%02lds", whole / 60, whole % 60);
	else
		snprintf(buf, size, "%ldh%02ldm", whole / 3600, whole / 60 % 60);
	return buf;
}

static void progress_line(const struct hg_sweep_job *j, const struct tally *t, size_t k, size_t run)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	char name[64], left[32];
	size_t point = run % j->n_points;
	hg_sweep_run_name(j->n_points, run, name);
	printf("== run %zu/%zu: %s:", k + 1, j->order.n, name);
	for (size_t a = 0; a < sp->n_axes; a++)
		printf(" %s=%s", sp->axes[a].path, sp->axes[a].values[hg_sweep_coord(sp, point, a)]);
	size_t remaining = t->todo - t->done;
	if (t->done)
		printf(" (%zu to go, about %s left)", remaining,
		       fmt_left(t->spent_s / (double)t->done * (double)remaining, left, sizeof(left)));
	else
		printf(" (%zu to go, at least %s left)", remaining,
		       fmt_left((double)j->base->duration_ns / 1e9 * (double)remaining, left,
				sizeof(left)));
	printf("\n");
	fflush(stdout);
}

/* The first line of a quiet run's messages that is not a warning: the
 * reason its one failure line gives. */
static void first_reason(const char *text, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *line = text; line && *line;) {
		size_t len = strcspn(line, "\n");
		if (len && !memmem(line, len, "warning", 7)) {
			snprintf(out, size, ": %.*s", (int)(len < 300 ? len : 300), line);
			return;
		}
		line += len + (line[len] == '\n');
	}
}

/* One run into DIR/pNNN/rM (emptied of an incomplete earlier attempt).
 * With --quiet its messages are kept, and the first of them becomes the
 * reason on the run's one failure line. */
static int run_one(struct hg_sweep_job *j, size_t run, char *reason, size_t reason_size)
{
	size_t point = run % j->n_points;
	unsigned rep = (unsigned)(run / j->n_points);
	char name[64], dir[PATH_MAX + 64], id[32];
	hg_sweep_run_name(j->n_points, run, name);
	hg_sweep_point_id(j->n_points, point, id);
	snprintf(dir, sizeof(dir), "%s/%s", j->dir, name);
	char why[512];
	int pfd, rfd = hg_sweep_dir_own_run(j->dir_fd, name, &pfd, why, sizeof(why));
	if (rfd < 0) {
		fprintf(stderr, "hgrun: run %s: %s/%s: %s\n", name, j->dir, name, why);
		return HG_EXIT_FAILED;
	}
	/* Locked from here to the run's end: cleared, then run, by this hgrun. */
	struct hg_dirlock lock = { .dir = -1, .fd = -1 };
	int rc = hg_outdir_clear_run_at(rfd, &lock, why, sizeof(why));
	if (rc == -EBUSY)
		fprintf(stderr, "hgrun: run %s: another hgrun is writing %s (%s)\n", name, dir, why);
	else if (rc)
		fprintf(stderr, "hgrun: run %s: cannot clear %s for a new attempt: %s\n", name, dir,
			why);
	struct hg_plan *plan = rc ? NULL : point_plan(j, point);
	if (!plan) {
		hg_dirlock_release(&lock);
		close(rfd);
		close(pfd);
		return rc == -EBUSY ? HG_EXIT_USAGE : rc ? HG_EXIT_FAILED : HG_EXIT_INVALID;
	}
	char *messages = NULL;
	size_t messages_len = 0;
	FILE *err = j->opt->quiet ? open_memstream(&messages, &messages_len) : NULL;
	json_t *where = json_pack("{s:I, s:s, s:i, s:I, s:I, s:o, s:s}", "index", (json_int_t)point,
				  "id", id, "repeat", (int)rep, "run", (json_int_t)run,
				  "position", (json_int_t)j->order.position[run],
				  "overrides", hg_sweep_point_values(&j->base->sweep, point),
				  "sweep_id", j->id);
	struct hg_run_options opt = {
		.sink = &hg_results_sink, .observer = &hg_kernel_observer, .out_dir = dir,
		.dir_fd = rfd, .lock = &lock,
		.strict = j->opt->strict, .quiet = j->opt->quiet,
		.argc = j->opt->argc, .argv = j->opt->argv, .sweep_point = where, .overrides = j->sets,
		.note = j->note,
		.err = err,
	};
	rc = hg_run(plan, &opt);
	if (err) {
		fclose(err);
		first_reason(messages, reason, reason_size);
		free(messages);
	}
	hg_dirlock_release(&lock);
	char p[32], r[32];
	/* Written through its fds, the run's files went where its directory
	 * went: if that is no longer pNNN/rM (renamed, a link planted in its
	 * place), the sweep does not have them. */
	if (hg_sweep_run_name_split(name, p, r) &&
	    (!hg_still_at(j->dir_fd, p, pfd) || !hg_still_at(pfd, r, rfd))) {
		fprintf(stderr, "hgrun: run %s: its directory was moved or replaced while it ran: "
			"its files went with the directory hgrun made, not to %s; the run is lost "
			"to the sweep (--resume runs it again)\n", name, dir);
		if (rc == HG_EXIT_OK || rc == HG_EXIT_EXPECT)
			rc = HG_EXIT_FAILED;
		snprintf(reason, reason_size, ": its directory was moved or replaced");
	}
	close(rfd);
	close(pfd);
	json_decref(where);
	hg_plan_free(plan);
	return rc;
}

static void list_runs(const struct hg_sweep_job *j)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	for (size_t k = 0; k < j->order.n; k++) {
		size_t run = j->order.runs[k];
		char id[32];
		size_t point = run % j->n_points;
		hg_sweep_point_id(j->n_points, point, id);
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
	return sig > 0 ? 128 + sig : 0;     /* 130, 143, 129 (SIGHUP), 131 (SIGQUIT) */
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void final_line(const struct hg_sweep_job *j, const struct tally *t, const char *stopped)
{
	char findings[64] = "";
	if (t->expect_failed)
		snprintf(findings, sizeof(findings), " (%zu with a failed expectation)",
			 t->expect_failed);
	printf("sweep: %zu succeeded%s, %zu failed, %zu skipped (complete already)%s; results in %s "
	       "(index: sweep.json)\n", t->succeeded, findings, t->failed, t->skipped, stopped,
	       j->dir);
	fflush(stdout);
}

static int run_all(struct hg_sweep_job *j)
{
	struct tally t = { 0 };
	bool *complete = calloc(j->n_runs ? j->n_runs : 1, sizeof(*complete));
	if (!complete)
		return HG_EXIT_FAILED;
	for (size_t k = 0; k < j->order.n; k++) {
		char name[64];
		size_t run = j->order.runs[k];
		hg_sweep_run_name(j->n_points, run, name);
		complete[run] = j->opt->resume && hg_sweep_run_complete_at(j->dir_fd, name, j->id);
		t.skipped += complete[run];
		t.todo += !complete[run];
	}
	int worst = HG_EXIT_OK;
	char reason[320];
	sigset_t stops, old;
	hg_stop_signals(&stops);
	pthread_sigmask(SIG_BLOCK, &stops, &old);
	for (size_t k = 0; k < j->order.n; k++) {
		size_t run = j->order.runs[k];
		if (complete[run])
			continue;
		int rc = pending_stop(&stops);
		bool ran = !rc;
		if (ran) {
			if (!j->opt->quiet)
				progress_line(j, &t, k, run);
			double start = now_s();
			reason[0] = '\0';
			rc = run_one(j, run, reason, sizeof(reason));
			t.spent_s += now_s() - start;
			t.done++;
		}
		if (rc == 129 || rc == 130 || rc == 131 || rc == 143 || rc == HG_EXIT_PRIVILEGE) {
			t.failed += ran;   /* it is run again by --resume */
			fprintf(stderr, "hgrun: sweep stopped after %zu run%s (exit %d); finish it with "
				"--resume -o %s\n", t.done, t.done == 1 ? "" : "s", rc, j->dir);
			final_line(j, &t, ", stopped");
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			free(complete);
			return rc;
		}
		char name[64];
		hg_sweep_run_name(j->n_points, run, name);
		if (rc == HG_EXIT_EXPECT) {
			/* A finding: the run is complete and valid (--resume keeps it). */
			t.succeeded++;
			t.expect_failed++;
			worst = worst == HG_EXIT_OK ? HG_EXIT_EXPECT : worst;
			fprintf(stderr, "hgrun: run %zu/%zu %s: an expectation failed (exit %d): %s/%s%s\n",
				k + 1, j->order.n, name, rc, j->dir, name, reason);
		} else if (rc) {
			t.failed++;
			worst = HG_EXIT_FAILED;
			fprintf(stderr, "hgrun: run %zu/%zu %s failed (exit %d): %s/%s%s\n", k + 1,
				j->order.n, name, rc, j->dir, name, reason);
		} else {
			t.succeeded++;
		}
	}
	final_line(j, &t, "");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(complete);
	return worst;
}

/* Every point loads (with the --set options, --duration or --scale); the
 * first that does not is named before anything runs.  Beyond 4096 points
 * each run checks its own point as it starts. */
static int check_points(struct hg_sweep_job *j)
{
	const struct hg_length *len = &j->opt->length;
	bool edited = j->opt->n_sets || len->duration_given || len->scale > 0;
	for (size_t p = 0; p < j->n_points && p < 4096 && edited; p++) {
		struct hg_plan *plan = point_plan(j, p);
		if (!plan)
			return HG_EXIT_INVALID;
		hg_plan_free(plan);
	}
	return 0;
}

/* The order's seed when none is given: one derived from what makes the
 * sweep itself (sweep.json's scenario, axes, repeat and --set), so every
 * shard and every --resume of it shuffle alike. */
static uint64_t default_seed(struct hg_sweep_job *j)
{
	json_t *index = hg_sweep_index(j->base, j->opt->file, j->sets);
	char *text = hg_sweep_identity(index);
	uint64_t seed = hg_sweep_seed_of(text);
	snprintf(j->id, sizeof(j->id), "%s", json_string_value(json_object_get(index, "id")));
	free(text);
	json_decref(index);
	return seed;
}

int hg_sweep_run(struct hg_plan *base, const struct hg_sweep_options *opt)
{
	struct hg_sweep_job j = { .opt = opt, .base = base, .sets = opt->overrides, .text = opt->text,
			       .dir_fd = -1, .lock = { .dir = -1, .fd = -1 } };
	int rc = HG_EXIT_OK;
	if (!j.base->sweep.present) {
		fprintf(stderr, "%s: error: sweep: this scenario has no sweep: section; run it with "
			"'hgrun %s'\n", opt->file, opt->file);
		rc = HG_EXIT_INVALID;
	} else if (opt->shards && !opt->out_dir && !opt->dry_run) {
		fprintf(stderr, "hgrun: --shard needs -o DIR, the directory every shard shares (or "
			"merge shard directories later with 'hgrun sweep-merge')\n");
		rc = HG_EXIT_USAGE;
	}
	if (rc == HG_EXIT_OK && !(rc = hg_plan_apply_length(j.base, &opt->length, "hgrun: ", stderr)
				  ? HG_EXIT_USAGE : 0)) {
		j.n_points = hg_sweep_n_points(&j.base->sweep);
		j.n_runs = j.n_points * j.base->sweep.repeat;
		uint64_t seed = default_seed(&j);     /* and the sweep's id, j.id */
		if (hg_sweep_order_make(&j.order, &j.base->sweep, opt->shard, opt->shards,
					!opt->grid_order, opt->seed_given ? opt->seed : seed)) {
			fprintf(stderr, "hgrun: out of memory for %zu runs\n", j.n_runs);
			return HG_EXIT_FAILED;
		}
		hg_sweep_order_balance(&j.order, &j.base->sweep, stderr);
		if (opt->dry_run)
			list_runs(&j);
		else if (!(rc = check_points(&j)) && !(rc = hg_sweep_dir_prepare(&j))) {
			hg_plan_trust_notes(j.base, "hgrun: ", stderr);
			rc = run_all(&j);
		}
		hg_sweep_order_free(&j.order);
		hg_dirlock_release(&j.lock);
		if (j.dir_fd >= 0)
			close(j.dir_fd);
	}
	return rc;
}
