/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The metric table (plan/metrics.h), in the order tables show it: names
 * are the result.json stats they read, with the unit in the name where the
 * value has one. */
#include "plan/metrics.h"

static bool count(uint64_t x, double *v)
{
	*v = (double)x;
	return true;
}

static bool deadline_miss_ratio(const struct hg_thread_numbers *n, double *v)
{
	*v = n->releases ? (double)n->deadlines_missed / (double)n->releases : 0;
	return n->releases > 0;
}

static bool deadlines_missed(const struct hg_thread_numbers *n, double *v)
{
	return count(n->deadlines_missed, v);
}

static bool deadlines_hit(const struct hg_thread_numbers *n, double *v)
{
	return count(n->deadlines_hit, v);
}

static bool releases(const struct hg_thread_numbers *n, double *v)
{
	return count(n->releases, v);
}

/* A latency figure: none without samples. */
static bool latency(const struct hg_thread_numbers *n, double x, double *v)
{
	*v = x;
	return n->latency.count > 0;
}

static bool latency_mean(const struct hg_thread_numbers *n, double *v)
{
	return latency(n, n->latency.mean, v);
}

static bool latency_p50(const struct hg_thread_numbers *n, double *v)
{
	return latency(n, (double)n->latency.p50, v);
}

static bool latency_p99(const struct hg_thread_numbers *n, double *v)
{
	return latency(n, (double)n->latency.p99, v);
}

static bool latency_p999(const struct hg_thread_numbers *n, double *v)
{
	return latency(n, (double)n->latency.p999, v);
}

static bool latency_max(const struct hg_thread_numbers *n, double *v)
{
	return latency(n, (double)n->latency.max, v);
}

static bool cpu_ns(const struct hg_thread_numbers *n, double *v)
{
	return count(n->cpu_ns, v);
}

static bool intervals(const struct hg_thread_numbers *n, double *v)
{
	return count(n->intervals, v);
}

static bool gaps(const struct hg_thread_numbers *n, double *v)
{
	return count(n->gaps, v);
}

static bool records_dropped(const struct hg_thread_numbers *n, double *v)
{
	return count(n->records_dropped, v);
}

static bool work_units(const struct hg_thread_numbers *n, double *v)
{
	return count(n->work_units, v);
}

#define PERIODIC HG_METRIC_PERIODIC
#define LATENCY HG_METRIC_LATENCY
#define ANY HG_METRIC_ANY

const struct hg_metric hg_metrics[] = {
	{ "deadline_miss_ratio", PERIODIC, "ratio", "missed %", "deadlines_missed / releases",
	  deadline_miss_ratio },
	{ "deadlines_missed", PERIODIC, "count", "missed",
	  "periods whose job did not finish in time", deadlines_missed },
	{ "deadlines_hit", PERIODIC, "count", "hit", "periods whose job finished in time",
	  deadlines_hit },
	{ "releases", PERIODIC, "count", "released", "jobs released", releases },
	{ "latency_mean_ns", LATENCY, "ns", "latency mean", "mean wake-up lateness",
	  latency_mean },
	{ "latency_p50_ns", LATENCY, "ns", "latency p50", "median wake-up lateness",
	  latency_p50 },
	{ "latency_p99_ns", LATENCY, "ns", "latency p99", "99th percentile wake-up lateness",
	  latency_p99 },
	{ "latency_p999_ns", LATENCY, "ns", "latency p99.9", "99.9th percentile wake-up lateness",
	  latency_p999 },
	{ "latency_max_ns", LATENCY, "ns", "latency max", "worst wake-up lateness", latency_max },
	{ "gap_p99_ns", ANY, "ns", "gap p99", "99th percentile gap (from trace.bin)", NULL },
	{ "gap_max_ns", ANY, "ns", "gap max", "longest gap (from trace.bin)", NULL },
	{ "cpu_ns", ANY, "ns", "CPU received", "CPU time received (sum of intervals)", cpu_ns },
	{ "intervals", ANY, "count", "intervals", "intervals of continuous CPU", intervals },
	{ "gaps", ANY, "count", "gaps", "gaps seen in the thread's execution", gaps },
	{ "records_dropped", ANY, "count", "dropped", "intervals lost to a full trace buffer",
	  records_dropped },
	{ "work_units", ANY, "count", "work units", "cache lines touched (cpu_scan)", work_units },
	{ "preemptions", ANY, "count", "preempted",
	  "intervals that ended preempted (from trace.bin)", NULL },
	{ "involuntary_switches", ANY, "count", "inv. switches",
	  "involuntary context switches (from trace.bin)", NULL },
	{ "involuntary_switches_per_s", ANY, "1/s", "inv. switches/s",
	  "involuntary context switches per second of the thread's window", NULL },
	{ "switch_cost_p50_ns", ANY, "ns", "switch cost p50",
	  "median cost of a context switch (from trace.bin)", NULL },
	{ "throughput", HG_METRIC_LOAD, "ops/s", "throughput", "a load's operations per second",
	  NULL },
};

const struct hg_metric *hg_metric_find(const char *name)
{
	for (size_t i = 0; i < HG_N_METRICS; i++)
		if (strcmp(hg_metrics[i].name, name) == 0)
			return &hg_metrics[i];
	return NULL;
}

const char *hg_metric_scope_name(enum hg_metric_scope scope)
{
	switch (scope) {
	case HG_METRIC_PERIODIC: return "periodic";
	case HG_METRIC_LATENCY: return "latency";
	case HG_METRIC_LOAD: return "load";
	case HG_METRIC_ANY: break;
	}
	return "any";
}
