/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wake-ups of a thread that measures timer latency (workloads/latency.c):
 * each one goes into a single-producer ring that the streaming writer
 * drains (latency.bin, the series), and into a histogram of lateness that
 * the thread keeps for result.json.  Allocation-free once prepared. */
#ifndef HG_WAKEUPS_H
#define HG_WAKEUPS_H

#include <stddef.h>
#include <stdint.h>

#include "base/ring.h"
#include "base/stats.h"

#define HG_WAKE_BUCKET_NS 100          /* lateness histogram: 100 ns buckets */
#define HG_WAKE_BUCKETS 200000         /* up to 20 ms, then the overflow count */
#define HG_WAKE_RING_RECORDS 65536     /* 1.5 MiB: 65 s of wake-ups at 1 kHz */

/* One wake-up as the ring carries it. */
struct hg_wake_record {
	int64_t intended_ns, actual_ns;    /* CLOCK_MONOTONIC */
	uint64_t seq;                      /* the thread's wake-up number, from 0 */
};

struct hg_wakeups {
	struct hg_ring ring;               /* to the writer; ring.dropped: lost */
	struct hg_histogram hist;          /* every wake-up's lateness (ns, >= 0) */
	uint64_t seq;
};

/* Allocates and pre-touches the ring and the histogram.  0 or -ENOMEM. */
int hg_wakeups_init(struct hg_wakeups *wk, size_t ring_records);
void hg_wakeups_free(struct hg_wakeups *wk);
/* Bytes hg_wakeups_init allocates. */
uint64_t hg_wakeups_bytes(size_t ring_records);

static inline void hg_wakeups_add(struct hg_wakeups *wk, int64_t intended, int64_t actual)
{
	int64_t late = actual - intended;
	hg_histogram_add(&wk->hist, late > 0 ? (uint64_t)late : 0);
	struct hg_wake_record *r = wk->ring.slots ? hg_ring_claim(&wk->ring) : NULL;
	if (r) {
		r->intended_ns = intended;
		r->actual_ns = actual;
		r->seq = wk->seq;
		hg_ring_publish(&wk->ring);
	}
	wk->seq++;
}

#endif
