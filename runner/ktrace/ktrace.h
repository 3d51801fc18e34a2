/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel events during a run (docs/kernel-trace.md): a tracefs instance of
 * hgrun's own (instances/hgrun-<pid>, never the top-level buffer) on the
 * `mono` clock, limited to the scenario's CPUs, read during the run by a
 * low-priority thread into a bounded array of decoded events, and removed
 * afterwards.  Instances left by dead hgrun processes are removed first. */
#ifndef HG_KTRACE_H
#define HG_KTRACE_H

#include <jansson.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/ktrace_limits.h"
#include "ktrace/ktrace_parse.h"

struct hg_ktrace;

/* Starts tracing on `cpus`.  Always returns a state (NULL only when out of
 * memory); hg_ktrace_active() says whether it traces, hg_ktrace_why() why
 * not.  wakeups: also the events of the late wake-ups (sched_waking, the
 * hrtimers), for a scenario with a latency thread.  The tracefs root is $HGRUN_TRACEFS when set (tests point it at a
 * missing directory), else the mounted tracefs, else tracefs mounted at
 * /sys/kernel/tracing for the run. */
struct hg_ktrace *hg_ktrace_start(const cpu_set_t *cpus, bool wakeups);
bool hg_ktrace_active(const struct hg_ktrace *kt);
const char *hg_ktrace_why(const struct hg_ktrace *kt);

/* Stops recording, reads what is left, joins the reader, removes the
 * instance (and unmounts tracefs if this run mounted it).  Idempotent. */
void hg_ktrace_stop(struct hg_ktrace *kt);
void hg_ktrace_free(struct hg_ktrace *kt);   /* stops first; NULL is fine */

/* After stop: events beyond HG_KTRACE_MAX_EVENTS, and events the kernel's
 * buffer lost (overrun, dropped). */
void hg_ktrace_losses(const struct hg_ktrace *kt, uint64_t *not_kept, uint64_t *lost);

/* After stop: the events sorted by (cpu, ts), and the names seen. */
const struct hg_kevent *hg_ktrace_events(const struct hg_ktrace *kt, size_t *n);
const struct hg_knames *hg_ktrace_names(const struct hg_ktrace *kt);
/* The name of a pid seen in the trace: "idle" for 0, "?" when unknown. */
const char *hg_ktrace_task_name(const struct hg_ktrace *kt, int32_t pid);

/* result.json `kernel_trace` facts of the recording: {enabled, reason,
 * instance, clock, cpus, buffer_kb, events, events_not_kept, lost,
 * reader_cpu_ns, removed, stale_removed, events_enabled}; before the stop
 * (result.json checkpoints) only what does not change.  New reference. */
json_t *hg_ktrace_to_json(const struct hg_ktrace *kt);

/* Removes instances/hgrun-<pid> of processes that no longer run (a crashed
 * or killed run).  Returns how many were removed. */
int hg_ktrace_remove_stale(const char *tracefs_root);

#endif
