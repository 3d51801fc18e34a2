/* SPDX-License-Identifier: GPL-2.0-or-later */
/* series.jsonl (docs/results.md): per thread and series interval what the
 * writer saw through the rings, per load its counters' growth.  Fed one
 * record at a time by the streaming writer (results/stream.c); owns its
 * file and its per-thread accumulators. */
#ifndef HG_SERIES_H
#define HG_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "results/binfile.h"
#include "run/runstate.h"

struct hg_series;

/* Creates series.jsonl in rs->dir.  Returns 0 or -errno. */
int  hg_series_open(struct hg_series **out, const struct hg_run_state *rs);
/* A record of thread r->thread; gap_ns: the gap before this interval (-1:
 * it followed a sleep or yield). */
void hg_series_interval(struct hg_series *se, const struct hg_bin_interval *r, int64_t gap_ns);
void hg_series_wakeup(struct hg_series *se, const struct hg_bin_wakeup *r);
/* Writes the lines of every interval that ended before `upto` (ns from
 * time zero); at the end, with final, the last partial one too; and
 * flushes them to the file.  Returns 0, or the first write error (-errno)
 * of this call. */
int  hg_series_emit(struct hg_series *se, int64_t upto, bool final);
/* Flushes the lines written (sync: and syncs them to disk).  0 or -errno. */
int  hg_series_flush(struct hg_series *se, bool sync);
/* Lines written to the file so far (a line whose flush failed is not). */
uint64_t hg_series_lines(const struct hg_series *se);
void hg_series_close(struct hg_series *se);

#endif
