/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency statistics: a fixed-bucket histogram with an explicit overflow
 * count, plus exact min/mean/max and percentiles from stored samples. */
#ifndef HG_STATS_H
#define HG_STATS_H

#include <stddef.h>
#include <stdint.h>

struct hg_histogram {
	uint64_t bucket_ns;      /* width of each bucket */
	size_t n_buckets;
	uint64_t *counts;        /* n_buckets counters, preallocated */
	uint64_t overflow;       /* samples >= bucket_ns * n_buckets */
	uint64_t count;
	uint64_t min, max, sum;  /* exact, over every sample added */
};

int  hg_histogram_init(struct hg_histogram *h, uint64_t bucket_ns, size_t n_buckets);
void hg_histogram_free(struct hg_histogram *h);
/* Allocation-free; safe inside a measuring thread. */
static inline void hg_histogram_add(struct hg_histogram *h, uint64_t ns)
{
	uint64_t b = ns / h->bucket_ns;
	if (b < h->n_buckets)
		h->counts[b]++;
	else
		h->overflow++;
	if (!h->count || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->sum += ns;
	h->count++;
}

/* Zeroes the counts (keeps the buckets). */
void hg_histogram_reset(struct hg_histogram *h);
/* Nearest-rank percentile from the buckets: the upper edge of the bucket
 * holding rank ceil(q * count), within [min, max] (so exact when all
 * samples share a bucket, and at most one bucket width high otherwise);
 * max when that rank is in the overflow.  0 when empty. */
uint64_t hg_histogram_percentile(const struct hg_histogram *h, double q);

struct hg_summary {
	uint64_t count;
	uint64_t min, max;
	double mean;
	uint64_t p50, p90, p99, p999;
};

/* Sorts `values` in place and summarises them. count 0 gives all zeros. */
void hg_summarise(uint64_t *values, size_t n, struct hg_summary *out);
/* The same summary from a histogram: exact count, min, max, mean;
 * percentiles by hg_histogram_percentile. */
void hg_histogram_summarise(const struct hg_histogram *h, struct hg_summary *out);
/* Nearest-rank percentile (q in [0,1]) of an already sorted array. */
uint64_t hg_percentile_sorted(const uint64_t *sorted, size_t n, double q);

#endif
