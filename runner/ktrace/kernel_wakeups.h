/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Late wake-ups explained (docs/kernel-trace.md, "Late wake-ups"):
 * kernel_wakeups.c splits each late wake-up of latency.bin into
 * late_wakeups.jsonl and the findings' per-thread sums;
 * kernel_wakeups_json.c writes those out. */
#ifndef HG_KERNEL_WAKEUPS_H
#define HG_KERNEL_WAKEUPS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "ktrace/attribution.h"
#include "run/runstate.h"

/* Explains each wake-up in latency.bin later than trace.late_wakeup into
 * late_wakeups.jsonl and rs->kernel->wakes (after the gaps: the segments
 * are final); classify names each task's cause. */
void hg_kernel_wakeups_build(struct hg_run_state *rs, hg_task_class_fn classify, void *ctx);
/* result.json threads[i].wakeup_causes (latency threads). */
json_t *hg_kernel_wakeups_json(const struct hg_run_state *rs, size_t i);
/* One summary line per latency thread with late wake-ups. */
void hg_kernel_wakeups_summary(const struct hg_run_state *rs, FILE *out);

#endif
