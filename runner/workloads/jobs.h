/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What periodic and cpu_periodic share: their parameters (exec, period),
 * the rule between them, and the job execution-time generator each thread
 * keeps as its private state (w->priv). */
#ifndef HG_JOBS_H
#define HG_JOBS_H

#include "plan/jobexec.h"
#include "run/thread.h"
#include "workloads/rows.h"

struct hg_jobs_params {
	struct hg_exec exec;
	uint64_t period_ns;
};

#define HG_JOBS_ROWS \
	HG_ROW_EXEC(struct hg_jobs_params, exec), \
	HG_ROW_PERIOD(struct hg_jobs_params, period_ns, "release period; each job's deadline is the next release")

/* exec (its largest value) <= period. */
void hg_jobs_check(const void *params, struct hg_param_errors *e);
/* w->priv: this instance's exec generator. 0 or -ENOMEM. */
int hg_jobs_prepare(struct hg_worker *w);
void hg_jobs_cleanup(struct hg_worker *w);

static inline const struct hg_jobs_params *hg_jobs_params(const struct hg_worker *w)
{
	return w->plan->workload.params;
}

/* The next job's execution time. */
static inline uint64_t hg_jobs_next(struct hg_worker *w)
{
	return hg_exec_next(w->priv);
}

#endif
