/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'periodic': each period, runs until exec of CPU is received, then sleeps on its timer */
#include "plan/workload.h"
#include "workloads/jobs.h"

/* Semantics (docs/semantics.md): job k is released at r_k with deadline
 * r_k + period.  It runs until it has RECEIVED its exec (gap trace).  Done
 * by the deadline: a hit, and the thread sleeps until r_k + period.  Not
 * done by then: a miss, but the job is not abandoned; it runs to completion
 * and the next job is released at once, at its completion time (the
 * thread's phase shifts, as in Hourglass, which kept an independent period
 * per thread: a late job is one miss, however many periods it overran).
 * At the thread's end, an unfinished job whose deadline has passed is a
 * miss; one whose deadline has not come is not counted.  So
 * releases = deadlines_hit + deadlines_missed. */
static void decide(struct hg_worker *w, bool hit)
{
	w->st.releases++;
	if (hit)
		w->st.deadlines_hit++;
	else
		w->st.deadlines_missed++;
}

static void periodic_run(struct hg_worker *w)
{
	int64_t period = (int64_t)hg_jobs_params(w)->period_ns;
	int64_t release = w->start_abs_ns;
	for (;;) {
		int64_t deadline = release + period;
		uint64_t exec = hg_jobs_next(w);
		enum hg_gap_result r = hg_worker_run_cpu(w, exec);
		int64_t now = hg_now_ns();
		if (r != HG_GAP_REACHED) {
			if (now >= deadline)
				decide(w, false);
			return;
		}
		w->st.jobs++;
		if (now <= deadline) {
			decide(w, true);
			release = deadline;
			if (hg_worker_sleep_until(w, release, NULL))
				return;
		} else {
			decide(w, false);
			if ((uint64_t)(now - deadline) > w->st.overrun_max_ns)
				w->st.overrun_max_ns = (uint64_t)(now - deadline);
			release = now;
			if (release >= w->finish_abs_ns || hg_worker_stopping(w))
				return;
		}
	}
}

static const struct hg_param params[] = { HG_JOBS_ROWS, HG_PARAMS_END };

const struct hg_workload_ops hg_workload_periodic = {
	.name = "periodic",
	.summary = "each period, runs until exec of CPU is received, then sleeps on its timer",
	.params = { params, sizeof(struct hg_jobs_params) },
	.check = hg_jobs_check,
	.periodic = true,
	.blocks = true,
	.prepare = hg_jobs_prepare,
	.run = periodic_run,
	.cleanup = hg_jobs_cleanup,
};
