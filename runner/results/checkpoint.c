/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include "results/checkpoint.h"
#include "results/result_json.h"

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static int put_result(FILE *f, const void *ctx)
{
	json_t *j = (json_t *)ctx;
	int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 ? -(errno ? errno : EIO) : 0;
	fputc('\n', f);
	return rc;
}

int hg_checkpoint_write(struct hg_stream *s, struct hg_run_state *rs)
{
	struct hg_stream_mark m;
	int rc = hg_stream_sync(s, &m);
	if (rc)
		return rc;
	rs->trace_hz = m.hz;
	hg_stream_set_checkpointing(s, true);
	json_t *j = hg_result_json(rs);
	hg_stream_set_checkpointing(s, false);
	if (!j)
		return -ENOMEM;
	json_object_set_new(j, "checkpoint", json_pack("{s:I, s:{s:o, s:o, s:o}}",
		"covers_ns", (json_int_t)m.covers_ns, "written", "trace", u64(m.trace),
		"latency", u64(m.latency), "series", u64(m.series)));
	rc = hg_write_atomic_at(rs->dir_fd, "result.json", put_result, j);
	json_decref(j);
	return rc;
}
