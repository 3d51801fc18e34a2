/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The directory of a sweep (docs/cli.md): -o DIR is refused unless it is
 * new, empty, this sweep's (a shard's, or --resume), or --force; it is
 * opened once, locked before it is checked and for as long as the sweep
 * runs, and gets sweep.json; each run's pNNN/rM is made as a directory of
 * hgrun's own and written through its fd. */
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

int hg_sweep_dir_own_run(int top, const char *name, int *pfd_out, char *why, size_t len)
{
	char p[32], r[32];
	*pfd_out = -1;
	if (!hg_sweep_run_name_split(name, p, r)) {
		snprintf(why, len, "not a run name");
		return -EINVAL;
	}
	uid_t uid = 0;
	int pfd = hg_open_own_dir_at(top, p, true, &uid);
	int rfd = pfd >= 0 ? hg_open_own_dir_at(pfd, r, true, &uid) : pfd;
	if (rfd >= 0) {
		*pfd_out = pfd;
		return rfd;
	}
	if (rfd == -ELOOP || rfd == -ENOTDIR)
		snprintf(why, len, "a symbolic link or a file where hgrun makes its run directory: "
			 "not followed; move it away");
	else if (rfd == -EPERM)
		snprintf(why, len, "a directory of another user (uid %u) where hgrun makes its run "
			 "directory: not written into; move it away", (unsigned)uid);
	else
		snprintf(why, len, "%s", strerror(-rfd));
	if (pfd >= 0)
		close(pfd);
	return rfd;
}

/* Whether a run of this shard already has a result.json: a regular file
 * of the user's, looked at, never opened (a FIFO planted there would
 * block an open). */
static bool has_my_runs(const struct hg_sweep_job *j, char name[64])
{
	for (size_t k = 0; k < j->order.n; k++) {
		char p[32], r[32];
		struct stat st;
		hg_sweep_run_name(j->n_points, j->order.runs[k], name);
		if (!hg_sweep_run_name_split(name, p, r))
			continue;
		int pfd = hg_open_dir_at(j->dir_fd, p, false);
		int rfd = pfd >= 0 ? hg_open_dir_at(pfd, r, false) : -1;
		bool has = rfd >= 0 && fstatat(rfd, "result.json", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			   S_ISREG(st.st_mode) && st.st_uid == geteuid();
		if (rfd >= 0)
			close(rfd);
		if (pfd >= 0)
			close(pfd);
		if (has)
			return true;
	}
	return false;
}

/* -o DIR: new, empty, this sweep's (--resume, or another shard's), or
 * --force.  Returns 0 or the exit code after printing why. */
static int check_dir(struct hg_sweep_job *j, json_t *index, const char *index_lock)
{
	char err[PATH_MAX + 128], diff[512], name[64];
	bool missing;
	json_t *recorded = hg_sweep_index_read_at(j->dir_fd, j->dir, &missing, err, sizeof(err));
	if (!recorded && !missing && !j->opt->force) {
		fprintf(stderr, "hgrun: -o %s: %s\n", j->dir, err);
		return HG_EXIT_USAGE;
	}
	if (recorded && !j->opt->force) {
		const char *d = hg_sweep_index_differs(recorded, index, "sweep.json", "this one",
						       diff, sizeof(diff));
		json_decref(recorded);
		if (d) {
			fprintf(stderr, "hgrun: -o %s holds another sweep (%s); %s\n", j->dir, d,
				j->opt->resume ? "resume it with the command that started it, or "
				"choose a new directory" : "choose a new directory, or add --force "
				"to replace it");
			return HG_EXIT_USAGE;
		}
		if (j->opt->resume)
			return 0;
		if (has_my_runs(j, name)) {
			fprintf(stderr, "hgrun: -o %s already holds runs of this %s (%s/result.json); "
				"add --resume to run only the missing ones, or --force to start over\n",
				j->dir, j->opt->shards ? "shard" : "sweep", name);
			return HG_EXIT_USAGE;
		}
		return 0;   /* another shard's directory */
	}
	json_decref(recorded);
	return hg_outdir_check_at(j->dir_fd, j->dir, HG_OUTDIR_SWEEP, j->opt->force, stderr,
				  j->lock.name, index_lock);
}

/* ".hgrun-lock-shard-K-of-N" into k and n; false for another name. */
static bool shard_lock_of(const char *name, unsigned *k, unsigned *n)
{
	char tail;
	return sscanf(name, HG_DIRLOCK_NAME "-shard-%u-of-%u%c", k, n, &tail) == 2;
}

/* Another hgrun in the sweep directory that this one must not run beside:
 * for a shard, the whole sweep, or a shard of another N (a job array
 * resubmitted with another size: both would run, and clear, the same
 * runs); for a whole sweep, any shard.  Its lock's name and holder into
 * the message. */
static bool other_writer(const struct hg_sweep_job *j, const char *mine, char *msg, size_t len)
{
	int fd = fcntl(j->dir_fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	struct dirent *e;
	char holder[256];
	bool busy = false;
	while (!busy && (e = readdir(dir))) {
		unsigned k, n;
		bool whole = !strcmp(e->d_name, HG_DIRLOCK_NAME);
		bool shard = shard_lock_of(e->d_name, &k, &n);
		if (!strcmp(e->d_name, mine) || !(whole || shard) ||
		    (j->opt->shards && shard && n == j->opt->shards) ||
		    !hg_dirlock_busy_at(dirfd(dir), e->d_name, holder, sizeof(holder)))
			continue;
		busy = true;
		if (j->opt->shards && shard)
			snprintf(msg, len, "shard %u/%u of this directory's sweep is running there (%s); "
				 "this is shard %u/%u, and every shard of one sweep must be given the "
				 "same N: wait for it to end, or run this one as --shard %u/%u", k, n,
				 holder, j->opt->shard, j->opt->shards,
				 j->opt->shard < n ? j->opt->shard : 0, n);
		else
			snprintf(msg, len, "another hgrun is writing there (%s); wait for it to end, "
				 "or choose another directory", holder);
	}
	closedir(dir);
	return busy;
}

/* One writer per sweep directory (base/dirlock.h): a sweep holds
 * .hgrun-lock, a shard .hgrun-lock-shard-K-of-N, for as long as it runs;
 * shards of one sweep (one N) run side by side, a whole sweep and a shard,
 * or shards of two N, do not (each run directory has its own lock besides,
 * taken before it is cleared and held to its end). */
static int lock_dir(struct hg_sweep_job *j)
{
	char name[64], holder[256], msg[700];
	if (j->opt->shards)
		snprintf(name, sizeof(name), HG_DIRLOCK_NAME "-shard-%u-of-%u", j->opt->shard,
			 j->opt->shards);
	else
		snprintf(name, sizeof(name), HG_DIRLOCK_NAME);
	int rc = hg_dirlock_take_at(j->dir_fd, name, "hgrun sweep", &j->lock, holder,
				    sizeof(holder));
	if (rc == -EBUSY) {
		fprintf(stderr, "hgrun: -o %s: another hgrun is writing there (%s); wait for it to "
			"end, or choose another directory\n", j->dir, holder);
		return HG_EXIT_USAGE;
	}
	if (rc) {
		fprintf(stderr, "hgrun: -o %s: cannot lock it: %s\n", j->dir, strerror(-rc));
		return HG_EXIT_FAILED;
	}
	if (other_writer(j, name, msg, sizeof(msg))) {
		hg_dirlock_release(&j->lock);
		fprintf(stderr, "hgrun: -o %s: %s\n", j->dir, msg);
		return HG_EXIT_USAGE;
	}
	return 0;
}

/* The shards of a job array start together (scripts/slurm/sweep.sbatch):
 * each reads, checks and writes sweep.json holding the index lock, one at
 * a time, so the second sees the first's sweep.json (the same sweep, or
 * another one, refused) and never the first's runs without it. */
#define INDEX_WAIT_TRIES 600
#define INDEX_WAIT_US 50000

static int take_index_lock(struct hg_sweep_job *j, struct hg_dirlock *lock)
{
	char holder[256];
	for (int i = 0;; i++) {
		int rc = hg_dirlock_take_at(j->dir_fd, HG_DIRLOCK_INDEX, "hgrun sweep (its index)",
					    lock, holder, sizeof(holder));
		if (rc == -EBUSY && i < INDEX_WAIT_TRIES) {
			usleep(INDEX_WAIT_US);
			continue;
		}
		if (rc == -EBUSY)
			fprintf(stderr, "hgrun: -o %s: sweep.json has been held for 30 s by %s; wait "
				"for it, or choose another directory\n", j->dir, holder);
		else if (rc)
			fprintf(stderr, "hgrun: -o %s: cannot lock sweep.json: %s\n", j->dir,
				strerror(-rc));
		return rc == -EBUSY ? HG_EXIT_USAGE : rc ? HG_EXIT_FAILED : 0;
	}
}

/* -o DIR made when missing (its parents too) and opened once: a link as
 * DIR itself is followed (the user's choice), nothing below it is. */
static int open_out_dir(struct hg_sweep_job *j)
{
	snprintf(j->dir, sizeof(j->dir), "%s", j->opt->out_dir);
	int rc = hg_mkdirs(j->dir);
	if (!rc && (j->dir_fd = open(j->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = -errno;
	if (rc)
		fprintf(stderr, "hgrun: -o %s: %s\n", j->dir,
			rc == -ENOTDIR ? "not a directory" : strerror(-rc));
	return rc == -ENOTDIR ? HG_EXIT_USAGE : rc ? HG_EXIT_FAILED : 0;
}

int hg_sweep_dir_prepare(struct hg_sweep_job *j)
{
	json_t *index = hg_sweep_index(j->base, j->opt->file, j->sets);
	json_object_set_new(index, "order", hg_sweep_order_json(&j->order));
	struct hg_dirlock ilock = { .dir = -1, .fd = -1 };
	int rc;
	if (j->opt->out_dir) {
		rc = open_out_dir(j);
		if (!rc)
			rc = lock_dir(j);
		if (!rc && j->opt->shards)
			rc = take_index_lock(j, &ilock);
		if (!rc)
			rc = check_dir(j, index, ilock.fd >= 0 ? HG_DIRLOCK_INDEX : NULL);
	} else {
		char stamp[32], prefix[PATH_MAX];
		time_t now = time(NULL);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime(&now));
		snprintf(prefix, sizeof(prefix), "results/%s/sweep-%s", j->base->name, stamp);
		if ((j->dir_fd = hg_outdir_make_unique(prefix, j->dir, sizeof(j->dir))) < 0)
			fprintf(stderr, "hgrun: cannot create %s: %s\n", prefix, strerror(-j->dir_fd));
		rc = j->dir_fd < 0 ? HG_EXIT_FAILED : lock_dir(j);
	}
	if (!rc && (rc = hg_sweep_index_write_at(j->dir_fd, index)) < 0)
		fprintf(stderr, "hgrun: cannot write %s/sweep.json: %s\n", j->dir, strerror(-rc));
	hg_dirlock_release(&ilock);
	json_decref(index);
	return rc < 0 ? HG_EXIT_FAILED : rc;
}
