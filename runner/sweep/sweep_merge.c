/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Merging shard directories: every shard's sweep.json must describe the
 * same sweep; each run is copied from the first shard that holds it
 * complete; OUT gets the common sweep.json. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dirlock.h"
#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "base/units.h"
#include "results/outdir.h"
#include "sweep/sweep_copy.h"
#include "sweep/sweep_index.h"
#include "sweep/sweep_merge.h"

/* The shards' indexes, each checked against the first. */
static int read_indexes(char *const *shards, const int *shard_fd, json_t **idx, int n)
{
	char err[PATH_MAX + 128], diff[512];
	bool missing;
	for (int i = 0; i < n; i++) {
		const char *dir = shards[i];
		idx[i] = hg_sweep_index_read_at(shard_fd[i], dir, &missing, err, sizeof(err));
		if (!idx[i]) {
			fprintf(stderr, "hgrun: sweep-merge: %s\n", err);
			return HG_EXIT_USAGE;
		}
		const char *d = i ? hg_sweep_index_differs(idx[0], idx[i], shards[0], dir, diff,
							   sizeof(diff)) : NULL;
		if (d) {
			fprintf(stderr, "hgrun: sweep-merge: %s and %s are shards of different sweeps "
				"(%s); merge only the shards of one sweep\n", shards[0], dir, d);
			return HG_EXIT_USAGE;
		}
	}
	return 0;
}

/* One run from the first shard that holds it complete (of this sweep,
 * the user's, and as hgrun wrote it), into OUT: 1 when copied, 0 when no
 * shard has it, -1 after a failed copy (said). */
static int merge_run(const char *out, int out_fd, char *const *shards, const int *shard_fd,
		     int n, const char *id, const char *name)
{
	char why[512];
	for (int s = 0; s < n; s++) {
		json_t *result;
		char *text;
		size_t len;
		if (!hg_sweep_run_read_at(shard_fd[s], name, id, &result, &text, &len))
			continue;
		int src = hg_sweep_open_run_at(shard_fd[s], name, false, NULL);
		int dst = src >= 0 ? hg_sweep_open_run_at(out_fd, name, true, NULL) : -1;
		int rc = src < 0 ? src : dst < 0 ? dst : hg_sweep_copy_run(src, dst, result, text, len,
									      why, sizeof(why));
		if (src < 0 || dst < 0)
			snprintf(why, sizeof(why), "%s", rc == -ELOOP || rc == -ENOTDIR ?
				 "a link or a file where a directory should be" : strerror(-rc));
		if (src >= 0)
			close(src);
		if (dst >= 0)
			close(dst);
		json_decref(result);
		free(text);
		if (rc == 1) {          /* not as hgrun wrote it: another shard may have it */
			fprintf(stderr, "hgrun: sweep-merge: %s/%s: not copied: %s\n", shards[s], name,
				why);
			continue;
		}
		if (rc) {
			char room[64] = "", size[32];
			int64_t f = hg_free_bytes_fd(out_fd);
			if ((rc == -ENOSPC || rc == -EDQUOT) && f >= 0)
				snprintf(room, sizeof(room), " (%s free there)",
					 hg_format_size((uint64_t)f, size));
			fprintf(stderr, "hgrun: sweep-merge: cannot copy %s/%s/%s to %s/%s: %s%s\n",
				shards[s], name, why, out, name, strerror(-rc), room);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* Copies every run to OUT; counts what is missing.  0, or HG_EXIT_FAILED
 * after a copy failed. */
static int merge_runs(const char *out, int out_fd, char *const *shards, const int *shard_fd,
		      json_t *index, int n, size_t *copied, size_t *missing)
{
	size_t i, k;
	json_t *point, *run;
	char id[65];
	hg_sweep_id(index, id);
	json_array_foreach(json_object_get(index, "points"), i, point) {
		json_array_foreach(json_object_get(point, "runs"), k, run) {
			const char *name = json_string_value(run);
			int rc = merge_run(out, out_fd, shards, shard_fd, n, id, name);
			if (rc < 0)
				return HG_EXIT_FAILED;
			if (rc == 0 && (*missing)++ < 10)
				fprintf(stderr, "hgrun: sweep-merge: run %s: no shard holds it complete\n",
					name);
			*copied += rc == 1;
		}
	}
	return 0;
}

/* A failed merge leaves OUT as it found it (new or empty): what it copied
 * is removed (hgrun's own names only: results/outdir.h). */
static void undo(struct hg_outdir *od)
{
	FILE *quiet = fopen("/dev/null", "w");
	int rc = hg_outdir_check_at(od->fd, od->path, HG_OUTDIR_MERGE, true, quiet ? quiet : stderr,
				    HG_DIRLOCK_NAME, NULL);
	if (quiet)
		fclose(quiet);
	fprintf(stderr, "hgrun: sweep-merge: %s\n", rc ? "what this merge copied could not all be "
		"removed again: remove OUT before merging again" : "what this merge copied is "
		"removed again: make room (or choose another OUT) and run the same sweep-merge again");
}

int hg_sweep_merge(const char *out, char *const *shards, int n)
{
	json_t **idx = calloc((size_t)n, sizeof(*idx));
	int *shard_fd = calloc((size_t)n, sizeof(*shard_fd));
	size_t copied = 0, missing = 0;
	struct hg_outdir od = { .fd = -1, .lock = { .dir = -1, .fd = -1 } };
	int rc = idx && shard_fd ? 0 : HG_EXIT_FAILED;
	for (int i = 0; shard_fd && i < n; i++)
		shard_fd[i] = -1;
	/* Each shard opened once (a link as SHARD_DIR itself is followed, as
	 * the user named it; nothing below it is). */
	for (int i = 0; !rc && i < n; i++)
		if ((shard_fd[i] = open(shards[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "hgrun: sweep-merge: %s: %s\n", shards[i], strerror(errno));
			rc = HG_EXIT_FAILED;
		}
	if (!rc)
		rc = read_indexes(shards, shard_fd, idx, n);
	/* OUT: made, opened and locked before it is checked, until the merge
	 * is done (results/outdir.h). */
	if (!rc)
		rc = hg_outdir_claim(out, HG_OUTDIR_MERGE, false, "hgrun sweep-merge", stderr, &od);
	if (!rc && (rc = merge_runs(out, od.fd, shards, shard_fd, idx[0], n, &copied, &missing)))
		undo(&od);
	if (!rc && (rc = hg_sweep_index_write_at(od.fd, idx[0])) < 0) {
		fprintf(stderr, "hgrun: sweep-merge: cannot write %s/sweep.json: %s\n", out,
			strerror(-rc));
		undo(&od);
		rc = HG_EXIT_FAILED;
	}
	if (!rc) {
		printf("sweep-merge: %zu run%s from %d shard director%s into %s, %zu missing\n",
		       copied, copied == 1 ? "" : "s", n, n == 1 ? "y" : "ies", out, missing);
		if (missing) {
			fprintf(stderr, "hgrun: sweep-merge: %zu run%s missing; run them with "
				"'hgrun sweep %s -o %s --resume' (with the --duration and --set the "
				"sweep was started with)\n", missing, missing == 1 ? " is" : "s are",
				json_string_value(json_object_get(idx[0], "source")), out);
			rc = HG_EXIT_FAILED;
		}
	}
	hg_outdir_release(&od);
	for (int i = 0; idx && i < n; i++) {
		json_decref(idx[i]);
		if (shard_fd && shard_fd[i] >= 0)
			close(shard_fd[i]);
	}
	free(shard_fd);
	free(idx);
	return rc;
}
