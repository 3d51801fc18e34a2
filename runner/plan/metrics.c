/* The metric table: names are the result.json stats they read. */
#include <string.h>

#include "plan/metrics.h"

const struct hg_metric hg_metrics[] = {
	{ "deadline_miss_ratio", HG_METRIC_PERIODIC, false, true,
	  "deadlines_missed / releases" },
	{ "deadlines_missed", HG_METRIC_PERIODIC, false, false, "periods whose job did not finish in time" },
	{ "deadlines_hit", HG_METRIC_PERIODIC, false, false, "periods whose job finished in time" },
	{ "releases", HG_METRIC_PERIODIC, false, false, "jobs released" },
	{ "latency_max_ns", HG_METRIC_LATENCY, true, false, "worst wake-up lateness" },
	{ "latency_mean_ns", HG_METRIC_LATENCY, true, false, "mean wake-up lateness" },
	{ "latency_p50_ns", HG_METRIC_LATENCY, true, false, "median wake-up lateness" },
	{ "latency_p99_ns", HG_METRIC_LATENCY, true, false, "99th percentile wake-up lateness" },
	{ "latency_p999_ns", HG_METRIC_LATENCY, true, false, "99.9th percentile wake-up lateness" },
	{ "cpu_ns", HG_METRIC_ANY, true, false, "CPU time received (sum of intervals)" },
	{ "gaps", HG_METRIC_ANY, false, false, "gaps seen in the thread's execution" },
	{ "intervals", HG_METRIC_ANY, false, false, "intervals of continuous CPU" },
	{ "records_dropped", HG_METRIC_ANY, false, false, "intervals lost to a full trace buffer" },
	{ "work_units", HG_METRIC_ANY, false, false, "cache lines touched (cpu_scan)" },
};
const size_t hg_n_metrics = sizeof(hg_metrics) / sizeof(hg_metrics[0]);

const struct hg_metric *hg_metric_find(const char *name)
{
	for (size_t i = 0; i < hg_n_metrics; i++)
		if (strcmp(hg_metrics[i].name, name) == 0)
			return &hg_metrics[i];
	return NULL;
}
