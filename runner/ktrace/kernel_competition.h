/* SPDX-License-Identifier: GPL-2.0-or-later */
/* result.json `competition` (docs/kernel-trace.md): who else ran on the
 * scenario's CPUs, from the kernel trace's segments when there is one,
 * else from /proc (ktrace/competition.h); steal time and interrupts per CPU
 * always.  Built by ktrace/kernel_findings.c. */
#ifndef HG_KERNEL_COMPETITION_H
#define HG_KERNEL_COMPETITION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ktrace/attribution.h"
#include "run/runstate.h"

/* The competition object (new reference) and its warnings in rs: traced,
 * from the n_segs segments (classify names each task's cause), else from
 * rs->competition, leaving out the loads' pids. */
json_t *hg_kernel_competition(struct hg_run_state *rs, bool traced, const struct hg_kseg *segs,
			      size_t n_segs, hg_task_class_fn classify, void *ctx,
			      const pid_t *loads, size_t n_loads);

#endif
