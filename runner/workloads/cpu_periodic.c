/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Workload 'cpu_periodic': never blocks; a job of exec CPU starts when one completes; a period with no completed job is a miss */
#include "plan/workload.h"
#include "workloads/jobs.h"

/* Periods are fixed windows [start + k*period, start + (k+1)*period).  Jobs
 * run back to back; a job counts for the window in which it completes.
 * Each window that ends with at least one completed job is a hit, each
 * window without one a miss (a job overrunning m windows gives m misses).
 * The window still open at the thread's end is not counted, so releases
 * (windows) = deadlines_hit + deadlines_missed; jobs counts frames made. */
struct windows {
	int64_t end;
	int64_t period;
	bool done;
};

static void close_windows(struct hg_worker *w, struct windows *win, int64_t now)
{
	while (now >= win->end) {
		w->st.releases++;
		if (win->done)
			w->st.deadlines_hit++;
		else
			w->st.deadlines_missed++;
		win->done = false;
		win->end += win->period;
	}
}

static void cpu_periodic_run(struct hg_worker *w)
{
	struct windows win = {
		.period = (int64_t)hg_jobs_params(w)->period_ns,
		.end = w->start_abs_ns + (int64_t)hg_jobs_params(w)->period_ns,
		.done = false,
	};
	for (;;) {
		uint64_t exec = hg_jobs_next(w);
		enum hg_gap_result r = hg_worker_run_cpu(w, exec);
		close_windows(w, &win, hg_now_ns());
		if (r != HG_GAP_REACHED)
			return;
		w->st.jobs++;
		win.done = true;
	}
}

static const struct hg_param params[] = { HG_JOBS_ROWS, HG_PARAMS_END };

const struct hg_workload_ops hg_workload_cpu_periodic = {
	.name = "cpu_periodic",
	.summary = "never blocks; a job of exec CPU starts when one completes; a period with no completed job is a miss",
	.params = { params, sizeof(struct hg_jobs_params) },
	.check = hg_jobs_check,
	.periodic = true,
	.blocks = false,
	.counts_jobs = true,
	.prepare = hg_jobs_prepare,
	.run = cpu_periodic_run,
	.cleanup = hg_jobs_cleanup,
};
