/* Per-thread metrics that expectations (expect:) can bound. */
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
};

extern const struct hg_metric hg_metrics[];
extern const size_t hg_n_metrics;

const struct hg_metric *hg_metric_find(const char *name);

#endif
