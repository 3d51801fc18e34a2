/* Workload 'latency': sleeps one period on its timer and records each wake-up's lateness */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buffer.h"
#include "plan/workload.h"
#include "run/thread.h"

#define HG_LAT_BUCKET_NS 1000          /* histogram: 1 us buckets */
#define HG_LAT_BUCKETS 20000           /* up to 20 ms, then overflow */
#define HG_LAT_MAX_SAMPLES (64u << 20) /* 1 GiB of samples at most */

/* Raw samples: one per expected wake-up over the thread's active time,
 * plus 1% and 64 of margin; beyond that samples are counted as dropped
 * (the histogram still sees them). */
static uint64_t sample_capacity(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	uint64_t n = active_ns / tp->workload.period_ns;
	n += n / 100 + 64;
	return n > HG_LAT_MAX_SAMPLES ? HG_LAT_MAX_SAMPLES : n;
}

static uint64_t latency_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	return sample_capacity(tp, active_ns) * sizeof(struct hg_latency_sample) +
	       HG_LAT_BUCKETS * sizeof(uint64_t);
}

static int latency_prepare(struct hg_worker *w)
{
	uint64_t n = sample_capacity(w->plan, w->active_ns);
	w->lat = hg_buffer_alloc(n * sizeof(*w->lat));
	if (!w->lat)
		return -ENOMEM;
	w->lat_cap = n;
	w->lat_n = 0;
	return hg_histogram_init(&w->hist, HG_LAT_BUCKET_NS, HG_LAT_BUCKETS);
}

static void record(struct hg_worker *w, int64_t intended, int64_t actual)
{
	int64_t late = actual - intended;
	hg_histogram_add(&w->hist, late > 0 ? (uint64_t)late : 0);
	if (w->lat_n == w->lat_cap) {
		w->st.samples_dropped++;
		return;
	}
	struct hg_latency_sample *s = &w->lat[w->lat_n++];
	s->intended_ns = hg_worker_rel_ns(w, intended);
	s->actual_ns = hg_worker_rel_ns(w, actual);
}

/* The paper's rule: the next wake-up is a period after the actual one
 * (phase follows the timer).  align: absolute keeps the grid start + k *
 * period, skipping grid points already passed (counted in grid_skipped). */
static void latency_run(struct hg_worker *w)
{
	int64_t period = (int64_t)w->plan->workload.period_ns;
	bool absolute = w->plan->workload.align == HG_ALIGN_ABSOLUTE;
	int64_t intended = w->start_abs_ns + period;
	for (;;) {
		int64_t actual;
		if (hg_worker_sleep_until(w, intended, &actual))
			return;
		record(w, intended, actual);
		if (!absolute) {
			intended = actual + period;
			continue;
		}
		intended += period;
		while (intended <= actual) {
			intended += period;
			w->st.grid_skipped++;
		}
	}
}

static void latency_cleanup(struct hg_worker *w)
{
	hg_buffer_free(w->lat, w->lat_cap * sizeof(*w->lat));
	w->lat = NULL;
	hg_histogram_free(&w->hist);
}

const struct hg_workload_ops hg_workload_latency = {
	.name = "latency",
	.summary = "sleeps one period on its timer and records each wake-up's lateness",
	.takes = HG_WP_PERIOD | HG_WP_ALIGN,
	.needs = HG_WP_PERIOD,
	.periodic = false,
	.blocks = true,
	.prepare = latency_prepare,
	.footprint = latency_footprint,
	.run = latency_run,
	.cleanup = latency_cleanup,
};
