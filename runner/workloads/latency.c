/* Workload 'latency': sleeps one period on its timer and records each wake-up's lateness */
#include "plan/workload.h"
#include "run/thread.h"

/* Wake-ups stream to the writer through a ring (run/wakeups.h): the
 * memory does not depend on the run's duration. */
static uint64_t latency_footprint(const struct hg_thread_plan *tp, uint64_t active_ns)
{
	return hg_wakeups_bytes(HG_WAKE_RING_RECORDS);
}

static int latency_prepare(struct hg_worker *w)
{
	return hg_wakeups_init(&w->wk, HG_WAKE_RING_RECORDS);
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
		hg_wakeups_add(&w->wk, intended, actual);
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
};
