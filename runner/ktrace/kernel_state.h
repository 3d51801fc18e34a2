/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel findings of a run as data (rs->kernel): what
 * ktrace/kernel_findings.c builds and the files beside it fill in (the
 * late wake-ups of ktrace/kernel_wakeups.c) and write out. */
#ifndef HG_KERNEL_STATE_H
#define HG_KERNEL_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace/attribution.h"
#include "ktrace/wakeup_attr.h"

struct hg_thread_causes {
	uint64_t gaps, gaps_ge_50us, attributed, attributed_ge_50us;
	uint64_t with_events_ge_50us;   /* a kernel-seen cause had time in it */
	int64_t gap_ns, explained_ns;
	uint64_t switch_outs, switch_outs_matched;   /* kernel's involuntary >= 5 us */
	int64_t outsiders_ns;                         /* gap time of process + kernel_thread */
	int64_t entry_ns;        /* explained time that was an interrupt's entry (attribution.h) */
	int64_t invisible_ns;    /* gap time the kernel did not explain, in traced gaps */
};

/* A late wake-up's component and who, summed over a thread's late wake-ups. */
struct hg_wake_item {
	int64_t ns;
	uint64_t wakeups, dominant;   /* wake-ups it had time in; where it was the largest part */
	int32_t who;
	uint8_t comp, cause;
};
#define HG_WAKE_ITEMS 64

/* A late wake-up's components sum to its lateness when the residual (the
 * thread's own return after the switch) is at most max(this, 10% of the
 * lateness); it is explained when invisible and the residual together
 * are. */
#define HG_WAKE_TOLERANCE_NS 10000

/* The late wake-ups of one latency thread (kernel_wakeups.c). */
struct hg_thread_wakes {
	uint64_t late, attributed, summed, explained, awake;
	int64_t late_ns, residual_ns;
	int64_t comp[HG_WC_N];
	uint64_t comp_wakeups[HG_WC_N], comp_dominant[HG_WC_N];
	struct hg_wake_item items[HG_WAKE_ITEMS];   /* the first seen; no order */
	size_t n_items;
};

/* What the results side tells the findings (results/sink.c): which of
 * the writer's files are there to read back (flushed by the stopped
 * writer; docs/results.md) and the CPU time the scenario's threads did
 * not receive (results/not_received.h). */
struct hg_kernel_inputs {
	bool trace_bin;              /* rs->dir/trace.bin, flushed */
	bool latency_bin;            /* rs->dir/latency.bin, flushed */
	bool latency_kept;           /* the writer made latency.bin (not trace.mode none) */
	bool not_received_known;
	uint64_t not_received_ns;
};

struct hg_kernel_findings {
	struct hg_kernel_inputs in;
	bool traced;                 /* kernel events are available */
	struct hg_kseg *segs;
	size_t n_segs;
	uint64_t missed_switches;    /* switches the kernel did not record */
	int64_t unconfirmed_ns;      /* task time after them that no thread's trace took */
	bool causes_written;         /* trace.bin records carry their cause */
	struct hg_thread_causes *per_thread;
	struct hg_attr_item *items;
	size_t n_items;
	json_t *competition;         /* result.json `competition` */
	struct hg_thread_wakes *wakes;   /* per worker, when latency.bin was read */
	bool wakes_written;          /* late_wakeups.jsonl is complete */
};

#endif
