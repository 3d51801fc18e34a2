/* The result directory: trace.jsonl and latency.jsonl (line-oriented, one
 * small hand-written writer each, for volume), then result.json (jansson).
 * Each file is written to a temporary name in the same directory, fsynced
 * and renamed, result.json last: its presence means the run is recorded. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "results/kernel_findings.h"
#include "results/results.h"

void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n)
{
	memset(n, 0, sizeof(*n));
	n->cpu_ns = (uint64_t)hg_ticks_to_ns(&rs->cal, (int64_t)w->gt.closed_ticks);
	n->intervals = w->gt.intervals;
	n->gaps = w->gt.gaps;
	n->records = w->gt.n;
	n->records_dropped = w->gt.dropped;
	n->releases = w->st.releases;
	n->deadlines_hit = w->st.deadlines_hit;
	n->deadlines_missed = w->st.deadlines_missed;
	n->work_units = w->st.work_units;
	n->jobs = w->st.jobs;
	n->latency_count = w->hist.count;
	if (!w->lat_n)
		return;
	uint64_t *late = malloc(w->lat_n * sizeof(*late));
	if (!late)
		return;
	for (size_t i = 0; i < w->lat_n; i++) {
		int64_t d = w->lat[i].actual_ns - w->lat[i].intended_ns;
		late[i] = d > 0 ? (uint64_t)d : 0;
	}
	hg_summarise(late, w->lat_n, &n->latency);
	free(late);
}

/* -o DIR, else results/<name>/<UTC start>[-N]/ (never reusing one). */
static int choose_dir(struct hg_run_state *rs)
{
	if (rs->opt->out_dir) {
		snprintf(rs->dir, sizeof(rs->dir), "%s", rs->opt->out_dir);
		return hg_mkdirs(rs->dir);
	}
	char stamp[32];
	const char *u = rs->started_utc; /* 2026-01-02T03:04:05.678Z */
	snprintf(stamp, sizeof(stamp), "%.4s%.2s%.2sT%.2s%.2s%.2sZ", u, u + 5, u + 8, u + 11,
		 u + 14, u + 17);
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "results/%s", rs->plan->name);
	int rc = hg_mkdirs(parent);
	if (rc)
		return rc;
	for (int i = 1; i < 1000; i++) {
		int len = i == 1 ? snprintf(rs->dir, sizeof(rs->dir), "%s/%s", parent, stamp)
			: snprintf(rs->dir, sizeof(rs->dir), "%s/%s-%d", parent, stamp, i);
		if (len >= (int)sizeof(rs->dir))
			return -ENAMETOOLONG;
		if (mkdir(rs->dir, 0777) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
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
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", rs->dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	struct writer w = { fn, rs };
	return hg_write_atomic_with(path, call_writer, &w);
}

static int64_t rel_ns(const struct hg_run_state *rs, uint64_t tick)
{
	return (int64_t)((double)(int64_t)(tick - rs->sync->t0_ticks) * 1e9 / rs->trace_hz);
}

/* One gap-trace interval as a JSON line (names are [A-Za-z0-9_-], see names.c,
 * so they need no escaping). */
static void trace_line(FILE *f, const struct hg_run_state *rs, const struct hg_worker *w,
		       const struct hg_gap_record *r, uint32_t cause)
{
	fprintf(f, "{\"thread\":\"%s\",\"instance\":%u,\"cpu\":%d,\"start_ns\":%lld,"
		"\"end_ns\":%lld,\"end\":\"%s\"", w->plan->name, w->plan->instance, (int)r->cpu,
		(long long)rel_ns(rs, r->start), (long long)rel_ns(rs, r->end),
		hg_gap_end_name((enum hg_gap_end)r->end_reason));
	if (cause) /* kernel attribution (docs/kernel-trace.md) */
		fprintf(f, ",\"cause\":\"%s\"", hg_cause_names[cause]);
	fputs("}\n", f);
}

static int write_trace(FILE *f, const struct hg_run_state *rs)
{
	for (size_t i = 0; i < rs->n_workers; i++)
		for (size_t k = 0; k < rs->workers[i].gt.n; k++)
			trace_line(f, rs, &rs->workers[i], &rs->workers[i].gt.rec[k],
				   hg_kernel_record_cause(rs, i, k));
	return 0;
}

static int write_latency(FILE *f, const struct hg_run_state *rs)
{
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_worker *w = &rs->workers[i];
		for (size_t k = 0; k < w->lat_n; k++) {
			const struct hg_latency_sample *s = &w->lat[k];
			fprintf(f, "{\"thread\":\"%s\",\"instance\":%u,\"seq\":%zu,\"intended_ns\":%lld,"
				"\"actual_ns\":%lld,\"late_ns\":%lld}\n", w->plan->name,
				w->plan->instance, k, (long long)s->intended_ns,
				(long long)s->actual_ns, (long long)(s->actual_ns - s->intended_ns));
		}
	}
	return 0;
}

static int write_result(FILE *f, const struct hg_run_state *rs)
{
	json_t *j = hg_result_json(rs);
	if (!j)
		return -ENOMEM;
	int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 ? -EIO : 0;
	fputc('\n', f);
	json_decref(j);
	return rc;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int hg_results_dir(struct hg_run_state *rs, char *err, size_t errlen)
{
	int rc = choose_dir(rs);
	if (rc)
		snprintf(err, errlen, "cannot create the result directory %s: %s",
			 rs->dir[0] ? rs->dir : "results/", strerror(-rc));
	return rc;
}

int hg_results_write(struct hg_run_state *rs, char *err, size_t errlen)
{
	int rc;
	const char *name = "trace.jsonl";
	rc = write_atomic(rs, name, write_trace);
	if (!rc)
		rc = write_atomic(rs, name = "latency.jsonl", write_latency);
	if (!rc && rs->kernel && rs->kernel->traced)
		rc = write_atomic(rs, name = "kernel.jsonl", hg_kernel_write_segments);
	if (!rc)
		rc = write_atomic(rs, name = "result.json", write_result);
	if (rc) {
		snprintf(err, errlen, "cannot write %s/%s: %s", rs->dir, name, strerror(-rc));
		return rc;
	}
	sync_dir(rs->dir);
	return 0;
}
