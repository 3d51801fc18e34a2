/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The result directory of a run: created before the threads start (with
 * space kept for result.json), and the final result.json and kernel.jsonl
 * written into it (results/sink.c calls these). */
#ifndef HG_RESULTS_H
#define HG_RESULTS_H

#include <stdio.h>

#include "run/runstate.h"

/* Chooses and creates the result directory (rs->dir) before
 * the run.  Returns 0 or -errno with a message in err. */
int hg_results_dir(struct hg_run_state *rs, char *err, size_t errlen);
/* After the run: writes kernel.jsonl (with a kernel trace) and result.json,
 * each atomically; trace.bin, latency.bin and series.jsonl were streamed
 * during the run by the writer (results/stream.h).  Returns 0 or -errno
 * with a message in err. */
int hg_results_write(struct hg_run_state *rs, char *err, size_t errlen);

/* Removes the space hg_results_dir kept for result.json (every
 * exit path of a run, through the sink's close). */
void hg_results_release_reserve(struct hg_run_state *rs);

/* The exit code of a finished run: the signal that ended it (130/143),
 * the failure rc, an incomplete run (1) or a failed expectation (5), else 0. */
int hg_results_verdict(const struct hg_run_state *rs, int rc);

#endif
