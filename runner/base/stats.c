/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency statistics: a fixed-bucket histogram with an explicit overflow
 * count, and exact summaries of stored samples.
 *
 * Percentiles use the nearest-rank definition: the q-th percentile of n
 * sorted values is the value at 1-based rank ceil(q * n) (rank 1 when
 * q * n <= 1).  It is always one of the samples, never an interpolation, so
 * "p99 = 87 us" means at least 99 % of the samples were <= 87 us and the
 * sample itself was seen.  For n = 1 every percentile is that sample; for
 * n = 10, p50 is the 5th value and p90 the 9th.  A product q * n within
 * floating-point rounding of an integer counts as that integer, so p99 of
 * 100 values is the 99th, not the 100th.  From a histogram the same rank
 * gives the upper edge of its bucket (clipped to the exact min and max). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "base/stats.h"

int hg_histogram_init(struct hg_histogram *h, uint64_t bucket_ns, size_t n_buckets)
{
	memset(h, 0, sizeof(*h));
	if (bucket_ns == 0 || n_buckets == 0)
		return -EINVAL;
	h->counts = hg_buffer_alloc(n_buckets * sizeof(*h->counts));
	if (!h->counts)
		return -ENOMEM;
	h->bucket_ns = bucket_ns;
	h->n_buckets = n_buckets;
	return 0;
}

void hg_histogram_free(struct hg_histogram *h)
{
	hg_buffer_free(h->counts, h->n_buckets * sizeof(*h->counts));
	h->counts = NULL;
	h->n_buckets = 0;
}

uint64_t hg_percentile_sorted(const uint64_t *sorted, size_t n, double q)
{
	if (n == 0)
		return 0;
	if (!(q > 0))                   /* also catches NaN */
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	/* q * n within rounding error of an integer k is rank k: in doubles
	 * 0.99 * 100 is 99.00000000000001, whose ceiling would be rank 100. */
	double x = q * (double)n, k = nearbyint(x);
	double r = fabs(x - k) <= 1e-12 * x ? k : ceil(x);
	if (r < 1)
		r = 1;
	return sorted[(r > (double)n ? n : (size_t)r) - 1];
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

void hg_summarise(uint64_t *values, size_t n, struct hg_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(values, n, sizeof(*values), cmp_u64);
	long double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += values[i];
	out->count = n;
	out->min = values[0];
	out->max = values[n - 1];
	out->mean = (double)(sum / n);
	out->p50 = hg_percentile_sorted(values, n, 0.50);
	out->p90 = hg_percentile_sorted(values, n, 0.90);
	out->p99 = hg_percentile_sorted(values, n, 0.99);
	out->p999 = hg_percentile_sorted(values, n, 0.999);
}

void hg_histogram_reset(struct hg_histogram *h)
{
	if (h->counts)
		memset(h->counts, 0, h->n_buckets * sizeof(*h->counts));
	h->overflow = h->count = h->min = h->max = h->sum = 0;
}

/* The 1-based nearest rank of q among n (as hg_percentile_sorted). */
static uint64_t nearest_rank(uint64_t n, double q)
{
	if (!(q > 0))
		return 1;
	if (q >= 1)
		return n;
	double x = q * (double)n, k = nearbyint(x);
	double r = fabs(x - k) <= 1e-12 * x ? k : ceil(x);
	if (r < 1)
		r = 1;
	return r > (double)n ? n : (uint64_t)r;
}

uint64_t hg_histogram_percentile(const struct hg_histogram *h, double q)
{
	if (!h->count)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 1)
		return h->max;
	uint64_t rank = nearest_rank(h->count, q), seen = 0;
	for (size_t i = 0; i < h->n_buckets; i++) {
		seen += h->counts[i];
		if (seen >= rank) {
			uint64_t v = (uint64_t)(i + 1) * h->bucket_ns - 1;
			return v > h->max ? h->max : v < h->min ? h->min : v;
		}
	}
	return h->max;
}

void hg_histogram_summarise(const struct hg_histogram *h, struct hg_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (!h->count)
		return;
	out->count = h->count;
	out->min = h->min;
	out->max = h->max;
	out->mean = (double)h->sum / (double)h->count;
	out->p50 = hg_histogram_percentile(h, 0.50);
	out->p90 = hg_histogram_percentile(h, 0.90);
	out->p99 = hg_histogram_percentile(h, 0.99);
	out->p999 = hg_histogram_percentile(h, 0.999);
}
