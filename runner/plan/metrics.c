/* The metric tables (plan/metrics.h): names are the result.json stats
 * they read, with the unit in the name where the value has one. */
#include <string.h>

#include "plan/metrics.h"

const struct hg_metric hg_metrics[] = {
	{ "deadline_miss_ratio", HG_METRIC_PERIODIC, false, true,
	  "deadlines_missed / releases", "ratio" },
	{ "deadlines_missed", HG_METRIC_PERIODIC, false, false, "periods whose job did not finish in time", "count" },
	{ "deadlines_hit", HG_METRIC_PERIODIC, false, false, "periods whose job finished in time", "count" },
	{ "releases", HG_METRIC_PERIODIC, false, false, "jobs released", "count" },
	{ "latency_max_ns", HG_METRIC_LATENCY, true, false, "worst wake-up lateness", "ns" },
	{ "latency_mean_ns", HG_METRIC_LATENCY, true, false, "mean wake-up lateness", "ns" },
	{ "latency_p50_ns", HG_METRIC_LATENCY, true, false, "median wake-up lateness", "ns" },
	{ "latency_p99_ns", HG_METRIC_LATENCY, true, false, "99th percentile wake-up lateness", "ns" },
	{ "latency_p999_ns", HG_METRIC_LATENCY, true, false, "99.9th percentile wake-up lateness", "ns" },
	{ "cpu_ns", HG_METRIC_ANY, true, false, "CPU time received (sum of intervals)", "ns" },
	{ "gaps", HG_METRIC_ANY, false, false, "gaps seen in the thread's execution", "count" },
	{ "intervals", HG_METRIC_ANY, false, false, "intervals of continuous CPU", "count" },
	{ "records_dropped", HG_METRIC_ANY, false, false, "intervals lost to a full trace buffer", "count" },
	{ "work_units", HG_METRIC_ANY, false, false, "cache lines touched (cpu_scan)", "count" },
};
const size_t hg_n_metrics = sizeof(hg_metrics) / sizeof(hg_metrics[0]);

const struct hg_metric hg_report_metrics[] = {
	{ "gap_p99_ns", HG_METRIC_ANY, true, false,
	  "99th percentile gap (from trace.bin)", "ns" },
	{ "gap_max_ns", HG_METRIC_ANY, true, false, "longest gap (from trace.bin)", "ns" },
	{ "preemptions", HG_METRIC_ANY, false, false,
	  "intervals that ended preempted (from trace.bin)", "count" },
	{ "involuntary_switches", HG_METRIC_ANY, false, false,
	  "involuntary context switches (from trace.bin)", "count" },
	{ "involuntary_switches_per_s", HG_METRIC_ANY, false, false,
	  "involuntary context switches per second of the thread's window", "1/s" },
	{ "switch_cost_p50_ns", HG_METRIC_ANY, true, false,
	  "median cost of a context switch (from trace.bin)", "ns" },
	{ "throughput", HG_METRIC_ANY, false, false, "a load's operations per second", "ops/s" },
};
const size_t hg_n_report_metrics = sizeof(hg_report_metrics) / sizeof(hg_report_metrics[0]);

const struct hg_metric *hg_metric_find(const char *name)
{
	for (size_t i = 0; i < hg_n_metrics; i++)
		if (strcmp(hg_metrics[i].name, name) == 0)
			return &hg_metrics[i];
	return NULL;
}
