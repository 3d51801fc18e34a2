/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The numbers of each thread once the run is over: the gap trace's own
 * totals (run/gaptrace.h), the records the writer put in trace.bin, and
 * what the workload counted. */
#include <string.h>

#include "results/numbers.h"
#include "results/stream.h"

void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n)
{
	memset(n, 0, sizeof(*n));
	n->cpu_ns = (uint64_t)hg_ticks_to_ns(&rs->cal, (int64_t)w->gt.closed_ticks);
	n->intervals = w->gt.intervals;
	n->gaps = w->gt.gaps;
	n->records = rs->stream ? hg_stream_totals(rs->stream, w->index)->trace_written : 0;
	n->records_dropped = hg_ring_dropped(&w->gt.ring);
	n->releases = w->st.releases;
	n->deadlines_hit = w->st.deadlines_hit;
	n->deadlines_missed = w->st.deadlines_missed;
	n->work_units = w->st.work_units;
	n->jobs = w->st.jobs;
	n->latency_count = w->wk.hist.count;
	hg_histogram_summarise(&w->wk.hist, &n->latency);
}
