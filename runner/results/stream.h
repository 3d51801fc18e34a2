/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The streaming writer (docs/results.md): a thread that drains the
 * measuring threads' rings during the run into trace.bin, latency.bin (all
 * records, outlier windows only, or none: trace.mode) and series.jsonl,
 * checkpoints result.json every few seconds and prints the progress line.
 * It never makes a measuring thread wait: a full ring drops and counts.
 *
 * stream.c owns the writer's state and hands each record to the parts
 * below it (results/series.h, results/outliers.h, results/progress.h,
 * results/cpucheck.h), each of which owns its own; what is written is read
 * back only through the functions below. */
#ifndef HG_STREAM_H
#define HG_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/totals.h"
#include "run/runstate.h"

#define HG_CHECKPOINT_NS 2000000000LL      /* result.json rewritten this often */

struct hg_stream;
struct hg_not_received;

/* Called by the writer's thread every HG_CHECKPOINT_NS (results/checkpoint.c,
 * handed in by results/sink.c).  Returns 0 or -errno. */
typedef int (*hg_checkpoint_fn)(struct hg_stream *s, struct hg_run_state *rs);

/* The sink's start and stop (results/sink.c): rs->stream from the gate to
 * the end.  start returns 0 or -errno with a message in err. */
int  hg_stream_start(struct hg_run_state *rs, hg_checkpoint_fn checkpoint, char *err,
		     size_t errlen);
void hg_stream_stop(struct hg_run_state *rs);
void hg_stream_free(struct hg_stream *s);

/* What the writer counted of thread i; NULL without a writer. */
const struct hg_thread_totals *hg_stream_totals(const struct hg_stream *s, size_t i);
/* CPU the scenario did not get (results/not_received.h); NULL without a
 * writer. */
const struct hg_not_received *hg_stream_not_received(const struct hg_stream *s);
/* Whether a thread ran outside its cpus (known after the stop). */
bool hg_stream_cpus_not_granted(const struct hg_stream *s);
/* The warnings a checkpoint lists: those known when the writer started
 * (borrowed). */
json_t *hg_stream_warnings_at_start(const struct hg_stream *s);
/* Adds the files the writer made to result.json's `files`. */
void hg_stream_files_json(const struct hg_stream *s, json_t *files);
/* The `trace` object of result.json. */
json_t *hg_stream_trace_json(const struct hg_stream *s);
/* Flushes trace.bin to read it back after the stop; 0, or -1 when there
 * is no trace.bin or the flush failed. */
int hg_stream_flush_trace(struct hg_stream *s);
/* The same for latency.bin (the late wake-ups: ktrace/kernel_wakeups.c). */
int hg_stream_flush_latency(struct hg_stream *s);

/* For a checkpoint, on the writer's thread.  How far the files are
 * trusted: */
struct hg_stream_mark {
	int64_t covers_ns;                 /* records up to here are written */
	uint64_t trace, latency, series;   /* records and lines synced */
	double hz;                         /* the counter's rate so far */
};
/* Syncs trace.bin, latency.bin and series.jsonl and says what they hold;
 * 0, or -errno (the writer then stops writing, as on any write error). */
int  hg_stream_sync(struct hg_stream *s, struct hg_stream_mark *m);
/* While set, result.json is a checkpoint (what only the end knows is null). */
void hg_stream_set_checkpointing(struct hg_stream *s, bool on);
bool hg_stream_checkpointing(const struct hg_stream *s);

#endif
