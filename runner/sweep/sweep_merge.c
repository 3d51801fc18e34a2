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
#include "results/outdir.h"
#include "sweep/sweep_index.h"
#include "sweep/sweep_merge.h"

static int copy_stream(FILE *out, const void *ctx)
{
	FILE *in = (FILE *)ctx;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return -EIO;
	return ferror(in) ? -EIO : 0;
}

/* Copies the plain files of one run directory (result.json, the traces,
 * an exec load's output), both sides open directory fds: a link in a shard
 * is never read through, one planted in OUT never written through; lock
 * files, the reserve and temporaries stay behind. */
static int copy_run(int from, int to)
{
	int fd = fcntl(from, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	rewinddir(d);        /* the dup shares its position with `from` */
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp.") ||
		    fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		int in_fd = openat(from, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		FILE *in = in_fd >= 0 ? fdopen(in_fd, "rb") : NULL;
		if (!in) {
			rc = -errno;
			if (in_fd >= 0)
				close(in_fd);
			break;
		}
		if (fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode))
			rc = hg_write_atomic_at(to, e->d_name, copy_stream, in);
		fclose(in);
	}
	closedir(d);
	return rc;
}

/* The shards' indexes, each checked against the first. */
static int read_indexes(char *const *shards, json_t **idx, int n)
{
	char err[PATH_MAX + 128], diff[512];
	bool missing;
	for (int i = 0; i < n; i++) {
		const char *dir = shards[i];
		idx[i] = hg_sweep_index_read(dir, &missing, err, sizeof(err));
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

/* Copies every run to OUT; counts what is missing. */
static int merge_runs(const char *out, int out_fd, char *const *shards, const int *shard_fd,
		      json_t *index, int n, size_t *copied, size_t *missing)
{
	size_t i, k;
	json_t *point, *run;
	json_array_foreach(json_object_get(index, "points"), i, point) {
		json_array_foreach(json_object_get(point, "runs"), k, run) {
			const char *name = json_string_value(run);
			int from = -1;
			for (int s = 0; s < n && from < 0 && name; s++)
				if (hg_sweep_run_complete(shards[s], name))
					from = s;
			if (from < 0) {
				if ((*missing)++ < 10)
					fprintf(stderr, "hgrun: sweep-merge: run %s: no shard holds it "
						"complete\n", name ? name : "?");
				continue;
			}
			int src = hg_sweep_open_run_at(shard_fd[from], name, false, NULL);
			int dst = src >= 0 ? hg_sweep_open_run_at(out_fd, name, true, NULL) : -1;
			int rc = src < 0 ? src : dst < 0 ? dst : copy_run(src, dst);
			if (src >= 0)
				close(src);
			if (dst >= 0)
				close(dst);
			if (rc) {
				fprintf(stderr, "hgrun: sweep-merge: cannot copy %s/%s to %s/%s: %s\n",
					shards[from], name, out, name, rc == -ELOOP || rc == -ENOTDIR ?
					"a link or a file where a directory should be" : strerror(-rc));
				return HG_EXIT_FAILED;
			}
			(*copied)++;
		}
	}
	return 0;
}

int hg_sweep_merge(const char *out, char *const *shards, int n)
{
	json_t **idx = calloc((size_t)n, sizeof(*idx));
	int *shard_fd = calloc((size_t)n, sizeof(*shard_fd));
	size_t copied = 0, missing = 0;
	struct hg_dirlock lock = { .dir = -1, .fd = -1 };
	char holder[256];
	int out_fd = -1;
	int rc = idx && shard_fd ? read_indexes(shards, idx, n) : HG_EXIT_FAILED;
	for (int i = 0; !rc && i < n; i++)
		if ((shard_fd[i] = open(shards[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "hgrun: sweep-merge: %s: %s\n", shards[i], strerror(errno));
			rc = HG_EXIT_FAILED;
		}
	if (!rc && (rc = hg_mkdirs(out)) < 0) {
		fprintf(stderr, "hgrun: sweep-merge: cannot create %s: %s\n", out, strerror(-rc));
		rc = HG_EXIT_FAILED;
	}
	if (!rc && (out_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "hgrun: sweep-merge: %s: %s\n", out, strerror(errno));
		rc = HG_EXIT_FAILED;
	}
	/* One writer: OUT stays locked until the merge is done. */
	if (!rc && (rc = hg_dirlock_take_at(out_fd, HG_DIRLOCK_NAME, "hgrun sweep-merge", &lock,
					     holder, sizeof(holder))) != 0) {
		if (rc == -EBUSY)
			fprintf(stderr, "hgrun: sweep-merge: %s: another hgrun is writing there (%s); "
				"wait for it to end, or choose another directory\n", out, holder);
		else
			fprintf(stderr, "hgrun: sweep-merge: cannot lock %s: %s\n", out, strerror(-rc));
		rc = rc == -EBUSY ? HG_EXIT_USAGE : HG_EXIT_FAILED;
	}
	if (!rc)
		rc = hg_outdir_prepare(out, HG_OUTDIR_SWEEP, false, stderr, HG_DIRLOCK_NAME);
	if (!rc)
		rc = merge_runs(out, out_fd, shards, shard_fd, idx[0], n, &copied, &missing);
	if (!rc && (rc = hg_sweep_index_write(out, idx[0])) < 0) {
		fprintf(stderr, "hgrun: sweep-merge: cannot write %s/sweep.json: %s\n", out,
			strerror(-rc));
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
	hg_dirlock_release(&lock);
	if (out_fd >= 0)
		close(out_fd);
	for (int i = 0; idx && i < n; i++) {
		json_decref(idx[i]);
		if (shard_fd && shard_fd[i] > 0)
			close(shard_fd[i]);
	}
	free(shard_fd);
	free(idx);
	return rc;
}
