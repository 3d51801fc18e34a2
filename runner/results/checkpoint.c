/* Checkpoints (docs/results.md): every HG_CHECKPOINT_NS the writer syncs
 * trace.bin, latency.bin and series.jsonl, then replaces result.json
 * atomically with complete: false and `checkpoint` saying how far the run
 * got and how many records and lines to trust.  After a kill -9 the
 * directory reads as a run that ended at checkpoint.covers_ns. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "results/results.h"
#include "results/stream.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *hg_stream_trace_json(const struct hg_stream *s)
{
	const struct hg_trace_plan *tp = &s->rs->plan->trace;
	json_t *o = json_pack("{s:s, s:s, s:o, s:I, s:o, s:o}",
			      "mode", hg_trace_mode_name(s->mode),
			      "mode_asked", hg_trace_mode_name(tp->mode),
			      "switched", json_deep_copy(s->switches),
			      "series_ns", (json_int_t)tp->series_ns,
			      "limit_bytes", s->limit_bytes ? u64(s->limit_bytes) : json_null(),
			      "written", json_pack("{s:o, s:o, s:o}", "trace", u64(s->trace.records),
						   "latency", u64(s->latency.records),
						   "series", u64(s->series_lines)));
	json_object_set_new(o, "writer_cpu_ns", s->checkpointing ? json_null()
				: u64(s->writer_cpu_ns));
	if (s->mode == HG_TRACE_OUTLIERS || tp->mode == HG_TRACE_OUTLIERS || s->n_windows)
		json_object_set_new(o, "outliers", hg_outliers_json(s));
	return o;
}

static int put_result(FILE *f, const void *ctx)
{
	json_t *j = (json_t *)ctx;
	int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 ? -(errno ? errno : EIO) : 0;
	fputc('\n', f);
	return rc;
}

int hg_checkpoint_write(struct hg_stream *s)
{
	int rc = hg_binfile_sync(&s->trace);
	if (!rc)
		rc = hg_binfile_sync(&s->latency);
	if (!rc && s->series && (fflush(s->series) != 0 || fdatasync(fileno(s->series)) < 0))
		rc = -(errno ? errno : EIO);
	if (rc) {
		hg_stream_fail(s, rc, "a checkpoint");
		return rc;
	}
	s->rs->trace_hz = s->hz;
	s->checkpointing = true;
	json_t *j = hg_result_json(s->rs);
	s->checkpointing = false;
	if (!j)
		return -ENOMEM;
	json_object_set_new(j, "checkpoint", json_pack("{s:I, s:{s:o, s:o, s:o}}",
		"covers_ns", (json_int_t)s->covers_ns, "written", "trace", u64(s->trace.synced),
		"latency", u64(s->latency.synced), "series", u64(s->series_lines)));
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/result.json", s->rs->dir);
	rc = hg_write_atomic_with(path, put_result, j);
	json_decref(j);
	return rc;
}
