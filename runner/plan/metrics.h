/* The metric vocabulary: one name per figure, with its unit in the name
 * when the value has one (latency_p99_ns), the same in expect:, hgrun list,
 * result.json and hgreport (compare tables and --fail-if).  hg_metrics are
 * the per-thread metrics expectations can bound; hg_report_metrics the
 * figures only hgreport computes (from the gap trace), which compare shows
 * and --fail-if gates under these names. */
#ifndef HG_METRICS_H
#define HG_METRICS_H

#include <stdbool.h>
#include <stddef.h>

enum hg_metric_scope {
	HG_METRIC_ANY,       /* every thread has it */
	HG_METRIC_PERIODIC,  /* periodic and cpu_periodic threads */
	HG_METRIC_LATENCY,   /* latency threads */
};

struct hg_metric {
	const char *name;
	enum hg_metric_scope scope;
	bool is_ns;          /* the bound may be written as a duration */
	bool is_ratio;       /* the bound lies in 0..1 */
	const char *summary;
	const char *unit;    /* "ns", "count", "ratio", "1/s", "ops/s" */
};

extern const struct hg_metric hg_metrics[];
extern const size_t hg_n_metrics;
extern const struct hg_metric hg_report_metrics[];
extern const size_t hg_n_report_metrics;

const struct hg_metric *hg_metric_find(const char *name);

#endif
