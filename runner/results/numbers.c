/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The numbers of each thread once the run is over: the gap trace's own
 * totals (run/gaptrace.h), the records the writer put in trace.bin, and
 * what the workload counted. */
#include <stdio.h>
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

void hg_skipped_words(const struct hg_worker *w, char *buf, size_t size)
{
	uint64_t skipped = w->st.grid_skipped, slots = skipped + w->wk.hist.count;
	if (!skipped) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%llu of %llu wake-up slots skipped (%.1f%%)",
		 (unsigned long long)skipped, (unsigned long long)slots,
		 100.0 * (double)skipped / (double)slots);
}

void hg_skipped_warn(struct hg_run_state *rs)
{
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_worker *w = &rs->workers[i];
		char what[128];
		hg_skipped_words(w, what, sizeof(what));
		if (!what[0])
			continue;
		hg_run_warn(rs, "%s: %s: their time had passed when it woke (align: absolute); "
			    "its percentiles are over the %llu released wake-ups, and %s "
			    "(docs/results.md, skipped wake-ups)", w->plan->os_name, what,
			    (unsigned long long)w->wk.hist.count,
			    w->st.skipped_ignored ? "the skipped ones are left out of the shares "
			    "(skipped_slots: ignored)" : "the skipped ones count as later than "
			    "every threshold (skipped_slots: late; released wakes for each)");
	}
}
