/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results of a run as run/run_options.h's sink: the result directory
 * before the threads start, the streaming writer while they run, then the
 * numbers, expectations, exit code, files and summary.  cli/ and sweep/
 * hand hg_results_sink to hg_run(). */
#ifndef HG_SINK_H
#define HG_SINK_H

#include "run/runstate.h"


/* The sink hg_run() hands a run to. */
extern const struct hg_run_sink hg_results_sink;

#endif
