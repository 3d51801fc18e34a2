/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace.mode: outliers, a flight recorder (docs/results.md): each thread's
 * newest records wait in a history; an outlier opens a window and what
 * falls inside it is written.  Fed by the streaming writer
 * (results/stream.c), which also writes the windows' records for it
 * through struct hg_outlier_writer, under its byte limit. */
#ifndef HG_OUTLIERS_H
#define HG_OUTLIERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "results/binfile.h"

#define HG_HISTORY_INTERVALS 8192          /* intervals kept per thread */
#define HG_HISTORY_WAKEUPS 2048            /* wake-ups kept per thread */

/* How a window's records reach trace.bin and latency.bin. */
struct hg_outlier_writer {
	void *ctx;
	/* Writes r (window and flags set) unless the byte limit stops it. */
	void (*put_interval)(void *ctx, struct hg_bin_interval *r);
	void (*put_wakeup)(void *ctx, struct hg_bin_wakeup *r);
	/* Whether the trace mode is (still) outliers: a put may end it. */
	bool (*recording)(void *ctx);
};

struct hg_outliers;

/* Histories for n_threads threads, windows as the plan's trace asks.
 * Returns 0 or -ENOMEM. */
int  hg_outliers_open(struct hg_outliers **out, const struct hg_trace_plan *tp,
		      size_t n_threads, const struct hg_outlier_writer *writer);
/* A record of thread r->thread.  Returns 0, or -ENOMEM when a window
 * could not be kept. */
int  hg_outliers_interval(struct hg_outliers *o, struct hg_bin_interval *r, int64_t gap_ns);
int  hg_outliers_wakeup(struct hg_outliers *o, struct hg_bin_wakeup *r);
/* Closes the open window once `now` (ns from time zero) is past its end. */
void hg_outliers_tick(struct hg_outliers *o, int64_t now);
/* The windows so far: their number, and result.json trace.outliers. */
size_t  hg_outliers_count(const struct hg_outliers *o);
json_t *hg_outliers_json(const struct hg_outliers *o);
void hg_outliers_free(struct hg_outliers *o);

#endif
