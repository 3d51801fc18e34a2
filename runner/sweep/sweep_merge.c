/* Merging shard directories: every shard's sweep.json must describe the
 * same sweep; each run is copied from the first shard that holds it
 * complete; OUT gets the common sweep.json. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Copies the plain files of one run directory (result.json, the traces). */
static int copy_run(const char *from, const char *to)
{
	int rc = hg_mkdirs(to);
	DIR *d = rc ? NULL : opendir(from);
	struct dirent *e;
	if (!rc && !d)
		return -errno;
	while (d && !rc && (e = readdir(d))) {
		char src[PATH_MAX], dst[PATH_MAX];
		struct stat st;
		if (snprintf(src, sizeof(src), "%s/%s", from, e->d_name) >= (int)sizeof(src) ||
		    snprintf(dst, sizeof(dst), "%s/%s", to, e->d_name) >= (int)sizeof(dst)) {
			rc = -ENAMETOOLONG;
			break;
		}
		if (lstat(src, &st) < 0 || !S_ISREG(st.st_mode) || strstr(e->d_name, ".tmp."))
			continue;
		FILE *in = fopen(src, "rb");
		if (!in) {
			rc = -errno;
			break;
		}
		rc = hg_write_atomic_with(dst, copy_stream, in);
		fclose(in);
	}
	if (d)
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
static int merge_runs(const char *out, char *const *shards, json_t *index, int n,
		      size_t *copied, size_t *missing)
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
			char src[PATH_MAX], dst[PATH_MAX];
			snprintf(src, sizeof(src), "%s/%s", shards[from], name);
			snprintf(dst, sizeof(dst), "%s/%s", out, name);
			int rc = copy_run(src, dst);
			if (rc) {
				fprintf(stderr, "hgrun: sweep-merge: cannot copy %s to %s: %s\n", src,
					dst, strerror(-rc));
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
	size_t copied = 0, missing = 0;
	int rc = idx ? read_indexes(shards, idx, n) : HG_EXIT_FAILED;
	if (!rc)
		rc = hg_outdir_prepare(out, HG_OUTDIR_SWEEP, false, stderr);
	if (!rc && (rc = hg_mkdirs(out)) < 0) {
		fprintf(stderr, "hgrun: sweep-merge: cannot create %s: %s\n", out, strerror(-rc));
		rc = HG_EXIT_FAILED;
	}
	if (!rc)
		rc = merge_runs(out, shards, idx[0], n, &copied, &missing);
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
	for (int i = 0; idx && i < n; i++)
		json_decref(idx[i]);
	free(idx);
	return rc;
}
