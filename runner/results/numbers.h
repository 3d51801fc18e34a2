/* Per-thread numbers of a finished run, read by the expectations, the
 * summary and result.json: collected once by results/sink.c. */
#ifndef HG_NUMBERS_H
#define HG_NUMBERS_H

#include <stdint.h>

#include "base/stats.h"
#include "run/runstate.h"


struct hg_thread_numbers {
	uint64_t cpu_ns, intervals, gaps, records, records_dropped;
	uint64_t releases, deadlines_hit, deadlines_missed, work_units, jobs;
	struct hg_summary latency;    /* count 0 when no samples */
	uint64_t latency_count;       /* all wake-ups, dropped samples included */
};
void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n);

#endif
