/* Running a sweep.  Runs go repeat by repeat (every point once, then every
 * point again), so slow drifts of the machine spread over all points rather
 * than landing on the last ones.  A sweep directory is refused unless it is
 * new, empty, this sweep's (a shard's, or --resume), or --force. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cpuset.h"
#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "plan/load.h"
#include "plan/timeline.h"
#include "plan/trust.h"
#include "results/outdir.h"
#include "results/sink.h"
#include "run/run.h"
#include "scenario/scenario.h"
#include "scenario/sweep.h"
#include "sweep/sweep_index.h"
#include "sweep/sweep_order.h"
#include "sweep/sweep_run.h"

struct sweep_job {
	const struct hg_sweep_options *opt;
	struct hg_plan *base;
	char *text;                 /* the scenario text, with the --set options applied */
	json_t *sets;               /* --set as {"PATH": "VALUE"} (borrowed) */
	size_t n_points, n_runs;
	struct hg_sweep_order order;  /* this shard's runs, in the order they run */
	char note[1024];              /* the last point's warnings (result.json): what
					 --duration cut, optional loads left out */
	char dir[PATH_MAX];
	struct hg_dirlock lock;     /* the sweep's (or the shard's) lock in dir */
};

struct tally {
	size_t todo, done, succeeded, failed, skipped;
	size_t expect_failed;       /* of succeeded: complete, an expectation failed (exit 5) */
	double spent_s;             /* wall time of the runs done */
};


static void run_name(const struct sweep_job *j, size_t run, char out[64])
{
	char id[32];
	hg_sweep_point_id(j->n_points, run % j->n_points, id);
	snprintf(out, 64, "%s/r%zu", id, run / j->n_points);
}

/* The point's grid values (j->text has the --set options in already). */
static size_t overrides_of(const struct sweep_job *j, size_t point, struct hg_override *ov)
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
static struct hg_plan *point_plan(struct sweep_job *j, size_t point)
{
	/* Sized by the input: a grid may have as many axes as sweep.h allows. */
	struct hg_override *ov = calloc(j->base->sweep.n_axes + 1, sizeof(*ov));
	char err[HG_ERRLEN] = "out of memory", id[32], buf[128];
	hg_sweep_point_id(j->n_points, point, id);
	char *text = ov ? hg_sweep_apply(j->text, ov, overrides_of(j, point, ov), err) : NULL;
	free(ov);
	bool applied = text != NULL;
	struct hg_diags d;
	struct hg_plan *plan = text ? hg_scenario_load_string(j->opt->file, text, &d) : NULL;
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

static void progress_line(const struct sweep_job *j, const struct tally *t, size_t k, size_t run)
{
	const struct hg_sweep_plan *sp = &j->base->sweep;
	char name[64], left[32];
	size_t point = run % j->n_points;
	run_name(j, run, name);
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

/* DIR/pNNN and DIR/pNNN/rM made (or found) as directories of our own, not
 * links: the run's files are then written by path below directories
 * nobody else can swap (a pNNN planted in a shared sweep directory as a
 * link to /etc is refused, not followed).  0, or -errno with why. */
static int own_run_dir(const struct sweep_job *j, const char *name, char *why, size_t len)
{
	char p[32], r[32];
	if (!hg_sweep_run_name_split(name, p, r)) {
		snprintf(why, len, "not a run name");
		return -EINVAL;
	}
	int top = open(j->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int pfd = top >= 0 ? hg_open_dir_at(top, p, true) : -errno;
	int rfd = pfd >= 0 ? hg_open_dir_at(pfd, r, true) : pfd;
	int rc = rfd < 0 ? rfd : 0;
	struct stat a, b;
	if (!rc && (fstat(pfd, &a) < 0 || fstat(rfd, &b) < 0))
		rc = -errno;
	if (rc == -ELOOP || rc == -ENOTDIR)
		snprintf(why, len, "a symbolic link or a file where hgrun makes its run directory: "
			 "not followed; move it away");
	else if (rc)
		snprintf(why, len, "%s", strerror(-rc));
	else if (a.st_uid != geteuid() || b.st_uid != geteuid()) {
		snprintf(why, len, "a directory of another user (uid %u) where hgrun makes its run "
			 "directory: not written into; move it away",
			 (unsigned)(a.st_uid != geteuid() ? a.st_uid : b.st_uid));
		rc = -EPERM;
	}
	if (rfd >= 0)
		close(rfd);
	if (pfd >= 0)
		close(pfd);
	if (top >= 0)
		close(top);
	return rc;
}

/* One run into DIR/pNNN/rM (emptied of an incomplete earlier attempt).
 * With --quiet its messages are kept, and the first of them becomes the
 * reason on the run's one failure line. */
static int run_one(struct sweep_job *j, size_t run, char *reason, size_t reason_size)
{
	size_t point = run % j->n_points;
	unsigned rep = (unsigned)(run / j->n_points);
	char name[64], dir[PATH_MAX + 64], id[32];
	run_name(j, run, name);
	hg_sweep_point_id(j->n_points, point, id);
	snprintf(dir, sizeof(dir), "%s/%s", j->dir, name);
	char why[512];
	int rc = own_run_dir(j, name, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "hgrun: run %s: %s/%s: %s\n", name, j->dir, name, why);
		return HG_EXIT_FAILED;
	}
	rc = hg_outdir_clear_run(dir, why, sizeof(why));
	if (rc == -EBUSY) {
		fprintf(stderr, "hgrun: run %s: another hgrun is writing %s (%s)\n", name, dir, why);
		return HG_EXIT_USAGE;
	}
	if (rc && rc != -ENOENT) {
		fprintf(stderr, "hgrun: run %s: cannot clear %s for a new attempt: %s\n", name, dir,
			why);
		return HG_EXIT_FAILED;
	}
	struct hg_plan *plan = point_plan(j, point);
	if (!plan)
		return HG_EXIT_INVALID;
	char *messages = NULL;
	size_t messages_len = 0;
	FILE *err = j->opt->quiet ? open_memstream(&messages, &messages_len) : NULL;
	json_t *where = json_pack("{s:I, s:s, s:i, s:I, s:I, s:o}", "index", (json_int_t)point,
				  "id", id, "repeat", (int)rep, "run", (json_int_t)run,
				  "position", (json_int_t)j->order.position[run],
				  "overrides", hg_sweep_point_values(&j->base->sweep, point));
	struct hg_run_options opt = {
		.sink = &hg_results_sink, .out_dir = dir, .strict = j->opt->strict, .quiet = j->opt->quiet,
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
	json_decref(where);
	hg_plan_free(plan);
	return rc;
}

static void list_runs(const struct sweep_job *j)
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

static void final_line(const struct sweep_job *j, const struct tally *t, const char *stopped)
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

static int run_all(struct sweep_job *j)
{
	struct tally t = { 0 };
	bool *complete = calloc(j->n_runs ? j->n_runs : 1, sizeof(*complete));
	if (!complete)
		return HG_EXIT_FAILED;
	for (size_t k = 0; k < j->order.n; k++) {
		char name[64];
		size_t run = j->order.runs[k];
		run_name(j, run, name);
		complete[run] = j->opt->resume && hg_sweep_run_complete(j->dir, name);
		t.skipped += complete[run];
		t.todo += !complete[run];
	}
	int worst = HG_EXIT_OK;
	char reason[320];
	sigset_t stops, old;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigaddset(&stops, SIGQUIT);
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
		run_name(j, run, name);
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

/* Whether a run of this shard already has a result.json. */
static bool has_my_runs(const struct sweep_job *j, char name[64])
{
	char path[PATH_MAX + 80];
	for (size_t k = 0; k < j->order.n; k++) {
		run_name(j, j->order.runs[k], name);
		snprintf(path, sizeof(path), "%s/%s/result.json", j->dir, name);
		FILE *f = fopen(path, "r");
		if (f) {
			fclose(f);
			return true;
		}
	}
	return false;
}

/* -o DIR: new, empty, this sweep's (--resume, or another shard's), or
 * --force.  Returns 0 or the exit code after printing why to err; *unsettled
 * when it refused a directory that had no sweep.json yet. */
static int check_dir_once(struct sweep_job *j, json_t *index, FILE *err_out, bool *unsettled)
{
	char err[PATH_MAX + 128], diff[512], name[64];
	bool missing;
	json_t *recorded = hg_sweep_index_read(j->dir, &missing, err, sizeof(err));
	if (!recorded && !missing && !j->opt->force) {
		fprintf(err_out, "hgrun: -o %s: %s\n", j->dir, err);
		return HG_EXIT_USAGE;
	}
	if (recorded && !j->opt->force) {
		const char *d = hg_sweep_index_differs(recorded, index, "sweep.json", "this one",
						       diff, sizeof(diff));
		json_decref(recorded);
		if (d) {
			fprintf(err_out, "hgrun: -o %s holds another sweep (%s); %s\n", j->dir, d,
				j->opt->resume ? "resume it with the command that started it, or "
				"choose a new directory" : "choose a new directory, or add --force "
				"to replace it");
			return HG_EXIT_USAGE;
		}
		if (j->opt->resume)
			return 0;
		if (has_my_runs(j, name)) {
			fprintf(err_out, "hgrun: -o %s already holds runs of this %s (%s/result.json); "
				"add --resume to run only the missing ones, or --force to start over\n",
				j->dir, j->opt->shards ? "shard" : "sweep", name);
			return HG_EXIT_USAGE;
		}
		return 0;   /* another shard's directory */
	}
	json_decref(recorded);
	int rc = hg_outdir_prepare(j->dir, HG_OUTDIR_SWEEP, j->opt->force, err_out, j->lock.name);
	*unsettled = rc != 0 && missing;
	return rc;
}

/* The shards of a job array start together (scripts/slurm/sweep.sbatch):
 * between one shard's look for sweep.json (none yet) and its check of the
 * directory, another may write sweep.json and start its runs, which looks
 * like an earlier sweep's results.  So a shard refused that way looks again,
 * every 50 ms for up to 2 s, and prints a refusal only if it stands. */
#define SHARD_SETTLE_TRIES 40
#define SHARD_SETTLE_US 50000

static int check_dir(struct sweep_job *j, json_t *index)
{
	bool unsettled = false;
	if (!j->opt->shards || j->opt->force)
		return check_dir_once(j, index, stderr, &unsettled);
	for (int i = 0;; i++) {
		char *msg = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&msg, &len);
		if (!m)
			return check_dir_once(j, index, stderr, &unsettled);
		unsettled = false;
		int rc = check_dir_once(j, index, m, &unsettled);
		fclose(m);
		if (rc == 0 || !unsettled || i == SHARD_SETTLE_TRIES) {
			fputs(msg, stderr);
			free(msg);
			return rc;
		}
		free(msg);
		usleep(SHARD_SETTLE_US);
	}
}

/* One writer per sweep directory (base/dirlock.h): a sweep holds
 * .hgrun-lock, a shard .hgrun-lock-shard-K-of-N, for as long as it runs;
 * shards of one sweep run side by side, a whole sweep and a shard do not
 * (each run directory has its own lock besides, taken by hg_run). */
static int lock_dir(struct sweep_job *j)
{
	char name[64], holder[256];
	if (j->opt->shards)
		snprintf(name, sizeof(name), HG_DIRLOCK_NAME "-shard-%u-of-%u", j->opt->shard,
			 j->opt->shards);
	else
		snprintf(name, sizeof(name), HG_DIRLOCK_NAME);
	int rc = hg_dirlock_take(j->dir, name, "hgrun sweep", &j->lock, holder, sizeof(holder));
	int d = rc ? -1 : hg_open_dir(j->dir);
	if (d >= 0) {
		/* the other kind: a shard while the whole sweep runs, or the reverse */
		DIR *dir = fdopendir(d);
		struct dirent *e;
		while (dir && (e = readdir(dir)))
			if (!strncmp(e->d_name, HG_DIRLOCK_NAME, sizeof(HG_DIRLOCK_NAME) - 1) &&
			    strcmp(e->d_name, name) != 0 &&
			    (!j->opt->shards || !strcmp(e->d_name, HG_DIRLOCK_NAME)) &&
			    hg_dirlock_busy_at(dirfd(dir), e->d_name, holder, sizeof(holder))) {
				rc = -EBUSY;
				break;
			}
		if (dir)
			closedir(dir);
		else
			close(d);
		if (rc)
			hg_dirlock_release(&j->lock);
	}
	if (rc == -EBUSY) {
		fprintf(stderr, "hgrun: -o %s: another hgrun is writing there (%s); wait for it to "
			"end, or choose another directory\n", j->dir, holder);
		return HG_EXIT_USAGE;
	}
	if (rc) {
		fprintf(stderr, "hgrun: -o %s: cannot lock it: %s\n", j->dir, strerror(-rc));
		return HG_EXIT_FAILED;
	}
	return 0;
}

static int prepare_dir(struct sweep_job *j)
{
	json_t *index = hg_sweep_index(j->base, j->opt->file, j->sets);
	json_object_set_new(index, "order", hg_sweep_order_json(&j->order));
	int rc;
	if (j->opt->out_dir) {
		snprintf(j->dir, sizeof(j->dir), "%s", j->opt->out_dir);
		if ((rc = hg_mkdirs(j->dir)) < 0)
			fprintf(stderr, "hgrun: cannot create %s: %s\n", j->dir, strerror(-rc));
		if (!rc)
			rc = lock_dir(j);
		if (!rc)
			rc = check_dir(j, index);
	} else {
		char stamp[32], prefix[PATH_MAX];
		time_t now = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
		snprintf(prefix, sizeof(prefix), "results/%s/sweep-%s", j->base->name, stamp);
		if ((rc = hg_outdir_make_unique(prefix, j->dir, sizeof(j->dir))) < 0)
			fprintf(stderr, "hgrun: cannot create %s: %s\n", prefix, strerror(-rc));
		if (!rc)
			rc = lock_dir(j);
	}
	if (!rc && (rc = hg_sweep_index_write(j->dir, index)) < 0)
		fprintf(stderr, "hgrun: cannot write %s/sweep.json: %s\n", j->dir, strerror(-rc));
	json_decref(index);
	return rc < 0 ? HG_EXIT_FAILED : rc;
}

/* Every point loads (with the --set options, --duration or --scale); the
 * first that does not is named before anything runs.  Beyond 4096 points
 * each run checks its own point as it starts. */
static int check_points(struct sweep_job *j)
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
static uint64_t default_seed(const struct sweep_job *j)
{
	json_t *index = hg_sweep_index(j->base, j->opt->file, j->sets);
	json_t *id = json_pack("{s:O, s:O, s:O, s:O}", "scenario", json_object_get(index, "scenario"),
			       "axes", json_object_get(index, "axes"), "repeat",
			       json_object_get(index, "repeat"), "overrides",
			       json_object_get(index, "overrides"));
	char *text = id ? json_dumps(id, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	uint64_t seed = hg_sweep_seed_of(text);
	free(text);
	json_decref(id);
	json_decref(index);
	return seed;
}

int hg_sweep_run(struct hg_plan *base, const struct hg_sweep_options *opt)
{
	struct sweep_job j = { .opt = opt, .base = base, .sets = opt->overrides, .text = opt->text,
			       .lock = { .dir = -1, .fd = -1 } };
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
		if (hg_sweep_order_make(&j.order, &j.base->sweep, opt->shard, opt->shards,
					!opt->grid_order, opt->seed_given ? opt->seed : default_seed(&j))) {
			fprintf(stderr, "hgrun: out of memory for %zu runs\n", j.n_runs);
			return HG_EXIT_FAILED;
		}
		hg_sweep_order_balance(&j.order, &j.base->sweep, stderr);
		if (opt->dry_run)
			list_runs(&j);
		else if (!(rc = check_points(&j)) && !(rc = prepare_dir(&j))) {
			hg_plan_trust_notes(j.base, "hgrun: ", stderr);
			rc = run_all(&j);
		}
		hg_sweep_order_free(&j.order);
		hg_dirlock_release(&j.lock);
	}
	return rc;
}
