/* Expectations (expect:): a bound on one metric of a thread set.  Over the
 * set's instances the worst value counts: the largest for a max bound, the
 * smallest for a min bound.  A metric with nothing to measure (no releases,
 * no latency samples, a thread that never ran) fails with value null. */
#include <math.h>
#include <string.h>

#include "plan/metrics.h"
#include "results/expect.h"
#include "results/numbers.h"

/* The value of `metric` for one instance; false when there is none. */
static bool metric_value(const struct hg_thread_numbers *n, const char *metric, double *v)
{
	const struct hg_summary *l = &n->latency;
	struct { const char *name; double value; bool ok; } t[] = {
		{ "deadline_miss_ratio", n->releases ? (double)n->deadlines_missed /
			(double)n->releases : 0, n->releases > 0 },
		{ "deadlines_missed", (double)n->deadlines_missed, true },
		{ "deadlines_hit", (double)n->deadlines_hit, true },
		{ "releases", (double)n->releases, true },
		{ "latency_max_ns", (double)l->max, l->count > 0 },
		{ "latency_mean_ns", l->mean, l->count > 0 },
		{ "latency_p50_ns", (double)l->p50, l->count > 0 },
		{ "latency_p99_ns", (double)l->p99, l->count > 0 },
		{ "latency_p999_ns", (double)l->p999, l->count > 0 },
		{ "cpu_ns", (double)n->cpu_ns, true },
		{ "gaps", (double)n->gaps, true },
		{ "intervals", (double)n->intervals, true },
		{ "records_dropped", (double)n->records_dropped, true },
		{ "work_units", (double)n->work_units, true },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (strcmp(t[i].name, metric) == 0) {
			*v = t[i].value;
			return t[i].ok;
		}
	}
	return false;
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
