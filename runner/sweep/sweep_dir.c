/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The directory of a sweep (docs/cli.md): -o DIR is refused unless it is
 * new, empty, this sweep's (a shard's, or --resume), or --force; it is
 * locked for as long as the sweep runs and gets sweep.json; each run's
 * pNNN/rM is made as a directory of hgrun's own. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "results/outdir.h"
#include "sweep/sweep_dir.h"
#include "sweep/sweep_index.h"
#include "sweep/sweep_job.h"

int hg_sweep_dir_own_run(const char *sweep_dir, const char *name, char *why, size_t len)
{
	int top = open(sweep_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), pfd = -1;
	int rfd = top >= 0 ? hg_sweep_open_run_at(top, name, true, &pfd) : -errno;
	int rc = rfd < 0 ? rfd : 0;
	struct stat a, b;
	if (!rc && (fstat(pfd, &a) < 0 || fstat(rfd, &b) < 0))
		rc = -errno;
	if (rc == -EINVAL && top >= 0)
		snprintf(why, len, "not a run name");
	else if (rc == -ELOOP || rc == -ENOTDIR)
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

/* Whether a run of this shard already has a result.json. */
static bool has_my_runs(const struct hg_sweep_job *j, char name[64])
{
	char path[PATH_MAX + 80];
	for (size_t k = 0; k < j->order.n; k++) {
		hg_sweep_run_name(j->n_points, j->order.runs[k], name);
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
static int check_dir_once(struct hg_sweep_job *j, json_t *index, FILE *err_out, bool *unsettled)
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

static int check_dir(struct hg_sweep_job *j, json_t *index)
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
static int lock_dir(struct hg_sweep_job *j)
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

int hg_sweep_dir_prepare(struct hg_sweep_job *j)
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
