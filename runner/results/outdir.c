/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Claiming an output directory: made, opened once, locked, then checked
 * under the lock (results/outdir.h); what may be removed there is the
 * walk's to say (results/outdir_walk.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "results/outdir.h"

/* How messages name the directory: "-o DIR" or "sweep-merge: OUT". */
static void prefix(char *buf, size_t size, enum hg_outdir_kind kind, const char *dir)
{
	snprintf(buf, size, kind == HG_OUTDIR_MERGE ? "sweep-merge: %s" : "-o %s", dir);
}

static int refuse_busy(const char *shown, const char *busy, FILE *err)
{
	fprintf(err, "hgrun: %s: another hgrun is writing there (%s); wait for it to end, or "
		"choose another directory\n", shown, busy);
	return HG_EXIT_USAGE;
}

/* The advice when DIR holds an earlier run's or sweep's results: the
 * options of the command that was refused, and no other. */
static const char *earlier_advice(enum hg_outdir_kind kind)
{
	switch (kind) {
	case HG_OUTDIR_RUN:
		return "choose a new directory, or add --force to remove the earlier run's files first";
	case HG_OUTDIR_SWEEP:
		return "choose a new directory, add --resume to finish that sweep, or add --force to "
		       "remove the earlier sweep's files first";
	case HG_OUTDIR_MERGE:
		break;
	}
	return "sweep-merge writes only into a new or empty directory: choose another OUT, or "
	       "remove the earlier sweep there first";
}

int hg_outdir_check_at(int fd, const char *dir, enum hg_outdir_kind kind, bool force,
		       FILE *err, const char *held_lock, const char *held_lock2)
{
	char shown[PATH_MAX + 32];
	prefix(shown, sizeof(shown), kind, dir);
	const char *what = kind == HG_OUTDIR_RUN ? "run" : "sweep";
	struct hg_outdir_walk w = { .remove = false, .held = held_lock, .held2 = held_lock2 };
	hg_outdir_walk(&w, fd, kind);
	if (w.busy[0])
		return refuse_busy(shown, w.busy, err);
	if (w.foreign) {
		fprintf(err, "hgrun: %s: the directory holds more than a %s's results (%s%s); "
			"hgrun never removes those, %s: choose a new directory, or move them away\n",
			shown, what, w.foreign_names, w.foreign > 4 ? ", ..." : "",
			force ? "not even with --force" : "and does not write its results among them");
		return HG_EXIT_USAGE;
	}
	if (w.ours && !force) {
		fprintf(err, "hgrun: %s: the directory holds an earlier %s's results; hgrun does not "
			"overwrite results: %s\n", shown, what, earlier_advice(kind));
		return HG_EXIT_USAGE;
	}
	if (!w.ours)
		return 0;
	w = (struct hg_outdir_walk){ .remove = true, .held = held_lock, .held2 = held_lock2 };
	hg_outdir_walk(&w, fd, kind);
	if (w.busy[0])
		return refuse_busy(shown, w.busy, err);
	if (w.error || w.foreign) {
		fprintf(err, "hgrun: %s: cannot remove the earlier %s: %s%s%s%s\n", shown, what,
			strerror(w.error ? -w.error : ENOTEMPTY), w.foreign ? " (left: " : "",
			w.foreign ? w.foreign_names : "", w.foreign ? ")" : "");
		return HG_EXIT_FAILED;
	}
	return 0;
}

/* DIR made if missing: 1 when made here, 0 when it was there, -errno. */
static int make_dir(const char *dir)
{
	if (mkdir(dir, 0777) == 0)
		return 1;
	if (errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -errno;
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", dir);
	char *slash = strrchr(parent, '/');
	while (slash && slash > parent && slash[1] == '\0') {   /* "a/b/" */
		*slash = '\0';
		slash = strrchr(parent, '/');
	}
	if (slash && slash > parent) {
		*slash = '\0';
		int rc = hg_mkdirs(parent);
		if (rc)
			return rc;
	}
	if (mkdir(dir, 0777) == 0)
		return 1;
	return errno == EEXIST ? 0 : -errno;
}

int hg_outdir_claim(const char *dir, enum hg_outdir_kind kind, bool force, const char *what,
		    FILE *err, struct hg_outdir *out)
{
	char shown[PATH_MAX + 32], holder[256];
	*out = (struct hg_outdir){ .fd = -1, .lock = { .dir = -1, .fd = -1 } };
	snprintf(out->path, sizeof(out->path), "%s", dir);
	prefix(shown, sizeof(shown), kind, dir);
	int made = make_dir(dir);
	if (made < 0) {
		fprintf(err, "hgrun: %s: cannot create it: %s\n", shown, strerror(-made));
		return HG_EXIT_FAILED;
	}
	out->created = made == 1;
	/* -o names the directory the user chose: a link to it is followed
	 * there, once; nothing inside it is, and nothing is opened by its
	 * path again. */
	out->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (out->fd < 0) {
		int e = errno;
		fprintf(err, "hgrun: %s: %s\n", shown, e == ENOTDIR ? "not a directory" : strerror(e));
		hg_outdir_release(out);
		return e == ENOTDIR ? HG_EXIT_USAGE : HG_EXIT_FAILED;
	}
	int rc = hg_dirlock_take_at(out->fd, HG_DIRLOCK_NAME, what, &out->lock, holder,
				    sizeof(holder));
	if (rc == -EBUSY) {
		hg_outdir_release(out);
		return refuse_busy(shown, holder, err);
	}
	if (rc) {
		fprintf(err, "hgrun: %s: cannot write there: %s\n", shown, strerror(-rc));
		hg_outdir_release(out);
		return HG_EXIT_FAILED;
	}
	rc = hg_outdir_check_at(out->fd, dir, kind, force, err, HG_DIRLOCK_NAME, NULL);
	if (rc)
		hg_outdir_release(out);
	return rc;
}

void hg_outdir_release(struct hg_outdir *out)
{
	if (!out)
		return;
	hg_dirlock_release(&out->lock);
	/* A directory hgrun made and nothing was written into (a run refused
	 * before it began): gone again, if it is still the one made. */
	struct stat a, b;
	if (out->fd >= 0 && out->created && fstat(out->fd, &a) == 0 &&
	    lstat(out->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		rmdir(out->path);
	if (out->fd >= 0)
		close(out->fd);
	out->fd = -1;
	out->created = false;
}

int hg_outdir_clear_run_at(int fd, struct hg_dirlock *lock, char *why, size_t why_len)
{
	int rc = hg_dirlock_take_at(fd, HG_DIRLOCK_NAME, "hgrun sweep", lock, why, why_len);
	if (rc)
		return rc;
	struct hg_outdir_walk w = { .remove = false, .held = HG_DIRLOCK_NAME };
	hg_outdir_walk(&w, fd, HG_OUTDIR_RUN);
	if (w.busy[0]) {
		snprintf(why, why_len, "%s", w.busy);
		rc = -EBUSY;
	} else if (w.foreign) {
		snprintf(why, why_len, "it holds files hgrun did not write (%s)", w.foreign_names);
		rc = -ENOTEMPTY;
	} else if (w.ours) {
		w = (struct hg_outdir_walk){ .remove = true, .held = HG_DIRLOCK_NAME };
		hg_outdir_walk(&w, fd, HG_OUTDIR_RUN);
		rc = w.error ? w.error : w.foreign ? -ENOTEMPTY : 0;
		if (rc)
			snprintf(why, why_len, "%s%s%s", strerror(-rc), w.foreign ? ": " : "",
				 w.foreign ? w.foreign_names : "");
	}
	if (rc)
		hg_dirlock_release(lock);
	return rc;
}

int hg_outdir_make_unique(const char *prefix_path, char *out, size_t size)
{
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", prefix_path);
	char *slash = strrchr(parent, '/');
	if (slash) {
		*slash = '\0';
		int rc = hg_mkdirs(parent);
		if (rc)
			return rc;
	}
	for (int i = 1; i < 1000; i++) {
		int len = i == 1 ? snprintf(out, size, "%s", prefix_path)
			: snprintf(out, size, "%s-%d", prefix_path, i);
		if (len >= (int)size)
			return -ENAMETOOLONG;
		if (mkdir(out, 0777) == 0) {
			/* Made just now: still ours and a directory, or refused. */
			int fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			struct stat st;
			if (fd >= 0 && (fstat(fd, &st) < 0 || st.st_uid != geteuid())) {
				close(fd);
				return -EPERM;
			}
			return fd >= 0 ? fd : -errno;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}
