/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The metric vocabulary, one table: each metric once, with its unit in the
 * name when the value has one (latency_p99_ns), the same in expect:,
 * hgrun list, result.json and hgreport (compare tables and --fail-if,
 * sweep --metric), which reads schemas/metrics.json, generated from this
 * table by schemas/gen_metrics.py.  A metric with a value accessor is one
 * the runner computes per thread and expect: can bound; one without is a
 * figure only hgreport computes (from the gap trace), which compare shows
 * and --fail-if gates under the same name. */
#ifndef HG_METRICS_H
#define HG_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/stats.h"

/* One thread's numbers after the run: what the accessors read (filled by
 * results/numbers.c, also read by result.json and the summary). */
struct hg_thread_numbers {
	uint64_t cpu_ns, intervals, gaps, records, records_dropped;
	uint64_t releases, deadlines_hit, deadlines_missed, work_units, jobs;
	struct hg_summary latency;    /* count 0 when no samples */
	uint64_t latency_count;       /* all wake-ups, dropped samples included */
};

enum hg_metric_scope {
	HG_METRIC_ANY,       /* every thread has it */
	HG_METRIC_PERIODIC,  /* periodic and cpu_periodic threads */
	HG_METRIC_LATENCY,   /* latency threads */
	HG_METRIC_LOAD,      /* a load's, not a thread's */
};

struct hg_metric {
	const char *name;
	enum hg_metric_scope scope;
	const char *unit;    /* "ns", "count", "ratio", "1/s", "ops/s" */
	const char *label;   /* a table's column: "latency p99" */
	const char *summary;
	/* Its value for one thread (false when it has none), or NULL: a
	 * figure only hgreport computes, which expect: cannot bound. */
	bool (*value)(const struct hg_thread_numbers *n, double *v);
};

/* The table's length, checked where it is defined (a different count
 * there is a conflicting declaration: the build fails). */
#define HG_N_METRICS 21
extern const struct hg_metric hg_metrics[HG_N_METRICS];

/* By name, NULL when there is none. */
const struct hg_metric *hg_metric_find(const char *name);
/* Bounds may be written as durations; they lie in 0..1. */
static inline bool hg_metric_is_ns(const struct hg_metric *m)
{
	return strcmp(m->unit, "ns") == 0;
}
static inline bool hg_metric_is_ratio(const struct hg_metric *m)
{
	return strcmp(m->unit, "ratio") == 0;
}
const char *hg_metric_scope_name(enum hg_metric_scope scope);

#endif
