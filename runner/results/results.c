/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result directory and the final result.json (jansson), written to a
 * temporary name in the same directory, fsynced and renamed over the last
 * checkpoint.  The record files and the series are the streaming writer's
 * (results/stream.c), already synced when it stopped. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "ktrace/kernel_findings.h"
#include "ktrace/kernel_json.h"
#include "results/outdir.h"
#include "results/result_json.h"
#include "results/results.h"
#include "results/stream.h"
#include "run/signals.h"

/* -o DIR (opened, locked and checked by the caller), else
 * results/<name>/<UTC start>[-N]/ (never reusing one), made and opened
 * here as a directory of the user's, not a link. */
static int choose_dir(struct hg_run_state *rs)
{
	if (rs->opt->out_dir) {
		snprintf(rs->dir, sizeof(rs->dir), "%s", rs->opt->out_dir);
		rs->dir_fd = fcntl(rs->opt->dir_fd, F_DUPFD_CLOEXEC, 0);
		return rs->dir_fd < 0 ? -errno : 0;
	}
	char stamp[32];
	const char *u = rs->started_utc; /* 2026-01-02T03:04:05.678Z */
	snprintf(stamp, sizeof(stamp), "%.4s%.2s%.2sT%.2s%.2s%.2sZ", u, u + 5, u + 8, u + 11,
		 u + 14, u + 17);
	char prefix[PATH_MAX];
	snprintf(prefix, sizeof(prefix), "results/%s/%s", rs->plan->name, stamp);
	int fd = hg_outdir_make_unique(prefix, rs->dir, sizeof(rs->dir));
	if (fd < 0)
		return fd;
	rs->dir_fd = fd;
	return 0;
}

typedef int (*writer_fn)(FILE *f, const struct hg_run_state *rs);

struct writer {
	writer_fn fn;
	const struct hg_run_state *rs;
};

static int call_writer(FILE *f, const void *ctx)
{
	const struct writer *w = ctx;
	return w->fn(f, w->rs);
}

static int write_atomic(const struct hg_run_state *rs, const char *name, writer_fn fn)
{
	struct writer w = { fn, rs };
	return hg_write_atomic_at(rs->dir_fd, name, call_writer, &w);
}

static int dump_result(FILE *f, const struct hg_run_state *rs, size_t flags)
{
	json_t *j = hg_result_json(rs);
	if (!j)
		return -ENOMEM;
	int rc = json_dumpf(j, f, flags | JSON_PRESERVE_ORDER) < 0 ? -(errno ? errno : EIO) : 0;
	fputc('\n', f);
	json_decref(j);
	return rc;
}

static int write_result(FILE *f, const struct hg_run_state *rs)
{
	return dump_result(f, rs, JSON_INDENT(2));
}

/* On one line: a latency thread's histograms indented take a line per
 * bucket (200-300 KB, past the reserve below), compact a quarter of it. */
static int write_result_compact(FILE *f, const struct hg_run_state *rs)
{
	return dump_result(f, rs, JSON_COMPACT);
}


/* Space kept for result.json from before the run to its end: if the disk
 * fills up during the run (a load's output, the traces), freeing it lets
 * result.json, written compact then (tens of KB with a latency thread's
 * histograms), still be written.  Creating it also proves the
 * directory writable (a read-only directory is refused before the run). */
#define RESERVE_NAME ".hgrun-reserve"
#define RESERVE_BYTES (256 * 1024)

static int make_reserve(const struct hg_run_state *rs)
{
	int fd = hg_open_new_at(rs->dir_fd, RESERVE_NAME, O_WRONLY, 0600);
	if (fd < 0)
		return fd;
	int rc = posix_fallocate(fd, 0, RESERVE_BYTES);
	if (rc == EOPNOTSUPP || rc == EINVAL) {      /* no fallocate here: write zeros */
		static const char zeros[4096];
		rc = 0;
		for (int i = 0; !rc && i < RESERVE_BYTES / 4096; i++)
			rc = write(fd, zeros, sizeof(zeros)) == (ssize_t)sizeof(zeros) ? 0 : errno;
	}
	if (!rc && fsync(fd) < 0)
		rc = errno;
	close(fd);
	if (rc)
		unlinkat(rs->dir_fd, RESERVE_NAME, 0);
	return -rc;
}

void hg_results_release_reserve(struct hg_run_state *rs)
{
	if (rs->dir_fd >= 0)
		unlinkat(rs->dir_fd, RESERVE_NAME, 0);
}

int hg_results_dir(struct hg_run_state *rs, char *err, size_t errlen)
{
	int rc = choose_dir(rs);
	if (rc) {
		snprintf(err, errlen, "cannot create the result directory %s: %s",
			 rs->dir[0] ? rs->dir : "results/", strerror(-rc));
		return rc;
	}
	rc = make_reserve(rs);
	if (rc)
		snprintf(err, errlen, "cannot write in the result directory %s: %s%s", rs->dir,
			 strerror(-rc), rc == -ENOSPC || rc == -EDQUOT ?
			 " (a run needs at least 256 KiB there for result.json)" : "");
	return rc;
}

int hg_results_verdict(const struct hg_run_state *rs, int rc)
{
	if (rs->signal)      /* SIGINT 130, SIGTERM 143, SIGHUP 129, SIGQUIT 131 */
		return 128 + rs->signal;
	if (rc)
		return rc;
	if (!rs->complete)
		return HG_EXIT_FAILED;     /* an incomplete run's expectations are no finding */
	return rs->expect_failed ? HG_EXIT_EXPECT : HG_EXIT_OK;
}

int hg_results_write(struct hg_run_state *rs, char *err, size_t errlen)
{
	/* kernel.jsonl failing (a full disk) must not keep result.json from
	 * being written: it is warned and result.json is tried anyway. */
	if (rs->kernel && rs->kernel->traced) {
		int krc = write_atomic(rs, "kernel.jsonl", hg_kernel_write_segments);
		if (krc)
			hg_run_warn(rs, "cannot write %s/kernel.jsonl: %s", rs->dir, strerror(-krc));
		if (hg_run_take_signal(rs, "while kernel.jsonl was written"))
			rs->exit_status = hg_results_verdict(rs, rs->exit_status);
	}
	const char *name = "result.json";
	int rc = write_atomic(rs, name, write_result);
	if (rc == -ENOSPC || rc == -EDQUOT) {
		/* The disk filled up during the run: use the space kept for this. */
		hg_results_release_reserve(rs);
		hg_run_warn(rs, "the result directory ran out of space (%s): result.json was "
			    "written in the room kept for it, on one line; other files may be cut "
			    "short", strerror(-rc));
		rs->complete = false;      /* records were lost: the run is not whole */
		if (rs->exit_status == HG_EXIT_OK || rs->exit_status == HG_EXIT_EXPECT)
			rs->exit_status = HG_EXIT_FAILED;
		rc = write_atomic(rs, name = "result.json", write_result_compact);
	}
	hg_results_release_reserve(rs);
	if (rc) {
		snprintf(err, errlen, "cannot write %s/%s: %s", rs->dir, name, strerror(-rc));
		return rc;
	}
	fsync(rs->dir_fd);
	return 0;
}
