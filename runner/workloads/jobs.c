/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Periodic jobs: the exec <= period rule and the per-thread generator. */
#include <errno.h>
#include <stdlib.h>

#include "base/units.h"
#include "plan/keys.h"
#include "workloads/jobs.h"

static uint64_t exec_max(const struct hg_exec *e)
{
	uint64_t m = 0;
	switch (e->kind) {
	case HG_EXEC_FIXED:
	case HG_EXEC_LIST:
		for (size_t i = 0; i < e->n_values; i++)
			if (e->values_ns[i] > m)
				m = e->values_ns[i];
		return m;
	case HG_EXEC_UNIFORM:
		return e->max_ns;
	case HG_EXEC_NORMAL:
		return e->max_ns != UINT64_MAX ? e->max_ns : e->mean_ns;
	}
	return 0;
}

void hg_jobs_check(const void *params, struct hg_param_errors *e)
{
	const struct hg_jobs_params *p = params;
	uint64_t max = exec_max(&p->exec);
	char a[32], b[32];
	if (p->period_ns && max > p->period_ns)
		hg_param_error(e, HG_KEY_EXEC,
			       "exec %s is longer than the period %s: every job would miss its deadline (exec <= period)",
			       hg_format_duration(max, a), hg_format_duration(p->period_ns, b));
}

int hg_jobs_prepare(struct hg_worker *w)
{
	struct hg_exec_gen *g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	hg_exec_init(g, &hg_jobs_params(w)->exec, w->plan->instance);
	w->priv = g;
	return 0;
}

void hg_jobs_cleanup(struct hg_worker *w)
{
	free(w->priv);
	w->priv = NULL;
}
