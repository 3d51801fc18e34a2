/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scenario's trace: keys (docs/scenario.md#trace): the ring per
 * thread, the gap threshold, what the streaming writer keeps (mode), the
 * series interval, the outlier thresholds and windows, the byte budget. */
#include <stdlib.h>
#include <strings.h>

#include "scenario/rawscenario.h"
#include "scenario/resolve_internal.h"
#include "scenario/yamldoc.h"

#define DEFAULT_TRACE_RECORDS 65536
#define MAX_TRACE_RECORDS 100000000ull
#define DEFAULT_SERIES_NS 1000000000ull
#define DEFAULT_OUTLIER_NS 500000ull      /* 500 us */
#define DEFAULT_WINDOW_NS 5000000ull      /* 5 ms before and after */
#define MAX_WINDOW_NS 1000000000ull
#define DEFAULT_LATE_WAKEUP_NS 50000ull   /* 50 us: docs/kernel-trace.md, "Late wake-ups" */

/* A duration in [min, max] at path; false (with an error) otherwise. */
static void bounded(struct hg_resolver *r, const char *text, const char *path, uint64_t min,
		    uint64_t max, const char *range, uint64_t *out)
{
	if (text && hg_r_duration(r, text, path, out) && (*out < min || *out > max))
		hg_yaml_error(r->y, r->d, path, "must be in %s (got %s)", range, text);
}

void hg_resolve_trace(struct hg_resolver *r)
{
	struct hg_plan *plan = r->plan;
	const struct hg_raw_trace *t = r->raw->trace;
	struct hg_trace_plan *tp = &plan->trace;
	plan->trace_records = DEFAULT_TRACE_RECORDS;
	plan->gap_auto = true;
	tp->mode = HG_TRACE_FULL;
	tp->series_ns = DEFAULT_SERIES_NS;
	tp->outlier_gap_ns = tp->outlier_latency_ns = DEFAULT_OUTLIER_NS;
	tp->before_ns = tp->after_ns = DEFAULT_WINDOW_NS;
	tp->late_wakeup_ns = DEFAULT_LATE_WAKEUP_NS;
	if (!t)
		return;
	if (t->records)
		hg_r_uint(r, t->records, "trace.records", 1, MAX_TRACE_RECORDS,
			  &plan->trace_records);
	if (t->gap && strcasecmp(t->gap, "auto") != 0) {
		plan->gap_auto = false;
		if (hg_r_duration(r, t->gap, "trace.gap", &plan->gap_ns) &&
		    (plan->gap_ns == 0 || plan->gap_ns > 1000000000ull))
			hg_yaml_error(r->y, r->d, "trace.gap",
				      "must be 'auto' or a duration in 1ns..1s (got %s)", t->gap);
	}
	static const char *const modes[] = { "full", "outliers", "none" };
	int m = t->mode ? hg_r_choice(r, t->mode, "trace.mode", "trace mode", modes, 3) : 0;
	if (m >= 0)
		tp->mode = (enum hg_trace_mode)m;
	bounded(r, t->series, "trace.series", 10000000ull, 86400000000000ull, "10ms..1d",
		&tp->series_ns);
	bounded(r, t->outlier_gap, "trace.outlier_gap", 1, MAX_WINDOW_NS, "1ns..1s",
		&tp->outlier_gap_ns);
	bounded(r, t->outlier_latency, "trace.outlier_latency", 1, MAX_WINDOW_NS, "1ns..1s",
		&tp->outlier_latency_ns);
	bounded(r, t->before, "trace.before", 0, MAX_WINDOW_NS, "0s..1s", &tp->before_ns);
	bounded(r, t->after, "trace.after", 0, MAX_WINDOW_NS, "0s..1s", &tp->after_ns);
	bounded(r, t->late_wakeup, "trace.late_wakeup", 0, MAX_WINDOW_NS, "0s..1s",
		&tp->late_wakeup_ns);
	if (t->kernel)
		hg_r_bool(r, t->kernel, "trace.kernel", &plan->kernel_trace);
	if (t->budget && hg_r_size(r, t->budget, "trace.budget", &tp->budget_bytes) &&
	    tp->budget_bytes < 4096)
		hg_yaml_error(r->y, r->d, "trace.budget", "must be at least 4KiB (got %s)",
			      t->budget);
}
