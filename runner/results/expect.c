/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Expectations (expect:): a bound on one metric of a thread set.  Over the
 * set's instances the worst value counts: the largest for a max bound, the
 * smallest for a min bound.  A metric with nothing to measure (no releases,
 * no latency samples, a thread that never ran) fails with value null. */
#include <math.h>
#include <string.h>

#include "plan/metrics.h"
#include "results/expect.h"
#include "results/numbers.h"

/* The value of `metric` for one instance (its accessor, plan/metrics.h);
 * false when there is none. */
static bool metric_value(const struct hg_thread_numbers *n, const char *metric, double *v)
{
	const struct hg_metric *m = hg_metric_find(metric);
	return m && m->value && m->value(n, v);
}

static json_t *evaluate_one(struct hg_run_state *rs, const struct hg_expect_plan *e)
{
	bool is_max = e->bound == HG_EXPECT_MAX, any = false, missing = false;
	double worst = 0;
	const char *worst_name = NULL;
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_worker *w = &rs->workers[i];
		if (strcmp(w->plan->name, e->thread) != 0)
			continue;
		double v;
		/* A thread that never ran (its start after a cut end, a stop
		 * before it) measured nothing: not a pass of "max 0". */
		if (!rs->nums || w->st.started_ns < 0 ||
		    !metric_value(&rs->nums[i], e->metric, &v)) {
			missing = true;
			worst_name = w->plan->os_name;
			break;
		}
		if (!any || (is_max ? v > worst : v < worst)) {
			worst = v;
			worst_name = w->plan->os_name;
		}
		any = true;
	}
	bool pass = any && !missing && (is_max ? worst <= e->limit : worst >= e->limit);
	json_t *value = !any || missing ? json_null()
			: worst == floor(worst) && fabs(worst) < 9e15 ? json_integer((json_int_t)worst)
			: json_real(worst);
	return json_pack("{s:s, s:s, s:f, s:o, s:s?, s:b}", "thread", e->thread,
			 "metric", e->metric, is_max ? "max" : "min", e->limit, "value", value,
			 "worst_instance", worst_name, "pass", pass);
}

void hg_expect_evaluate(struct hg_run_state *rs)
{
	for (size_t i = 0; i < rs->plan->n_expects; i++) {
		json_t *r = evaluate_one(rs, &rs->plan->expects[i]);
		if (!json_is_true(json_object_get(r, "pass")))
			rs->expect_failed = true;
		json_array_append_new(rs->expectations, r);
	}
}
