/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel findings (ktrace/kernel_findings.h) written out: result.json
 * `kernel_trace` and per-thread `gap_causes`, kernel.jsonl (the segments)
 * in the result directory, and the summary's lines (docs/kernel-trace.md). */
#ifndef HG_KERNEL_JSON_H
#define HG_KERNEL_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "run/runstate.h"

json_t *hg_kernel_trace_json(const struct hg_run_state *rs);
json_t *hg_kernel_thread_json(const struct hg_run_state *rs, size_t i);
int hg_kernel_write_segments(FILE *f, const struct hg_run_state *rs);
/* One summary line per thread with gaps, when traced. */
void hg_kernel_summary(const struct hg_run_state *rs, FILE *out);

#endif
