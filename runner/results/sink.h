/* The results of a run as run/run_options.h's sink: the result directory
 * before the threads start, the streaming writer while they run, then the
 * numbers, expectations, exit code, files and summary.  cli/ and sweep/
 * hand hg_results_sink to hg_run(). */
#ifndef HG_SINK_H
#define HG_SINK_H

#include "run/runstate.h"


/* The sink hg_run() hands a run to. */
extern const struct hg_run_sink hg_results_sink;

/* The exit code of a finished run: the signal that ended it (130/143),
 * the failure rc, an incomplete run (1) or a failed expectation (5), else 0. */
int hg_results_verdict(const struct hg_run_state *rs, int rc);

#endif
