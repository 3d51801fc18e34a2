/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wake-up ring and histogram of a latency thread. */
#include <errno.h>
#include <string.h>

#include "run/wakeups.h"

int hg_wakeups_init(struct hg_wakeups *wk, size_t ring_records)
{
	memset(wk, 0, sizeof(*wk));
	int rc = hg_ring_init(&wk->ring, ring_records, sizeof(struct hg_wake_record));
	if (rc)
		return rc;
	return hg_histogram_init(&wk->hist, HG_WAKE_BUCKET_NS, HG_WAKE_BUCKETS);
}

void hg_wakeups_free(struct hg_wakeups *wk)
{
	hg_ring_free(&wk->ring);
	hg_histogram_free(&wk->hist);
}

uint64_t hg_wakeups_bytes(size_t ring_records)
{
	return hg_ring_bytes(ring_records, sizeof(struct hg_wake_record)) +
	       (uint64_t)HG_WAKE_BUCKETS * sizeof(uint64_t);
}
