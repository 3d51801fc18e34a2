/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run knows when it is over: filled by run/run.c, read by the
 * result writers of results/ through the sink of run.h. */
#ifndef HG_RUNSTATE_H
#define HG_RUNSTATE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "base/dirlock.h"
#include "plan/plan.h"
#include "run/counter.h"
#include "run/run_options.h"
#include "run/thread.h"
#include "run/watchdog.h"

struct hg_thread_numbers;
struct hg_stream;

struct hg_run_state {
	const struct hg_plan *plan;
	const struct hg_run_options *opt;
	struct hg_calibration cal;
	uint64_t gap_ns;
	double trace_hz;            /* counter ticks per CLOCK_MONOTONIC second over the run:
				       converts trace times onto the timeline of start/finish,
				       latency samples, loads and kernel traces */
	struct hg_sync *sync;
	struct hg_worker *workers;
	size_t n_workers;
	struct hg_watchdog wd;
	struct hg_loadrun *loads;   /* the load supervisor (loads/supervisor.h) */
	struct hg_ktrace *ktrace;   /* kernel events (ktrace/ktrace.h), NULL when not asked */
	struct hg_competition *competition;  /* ktrace/competition.h */
	struct hg_kernel_findings *kernel;   /* ktrace/kernel_findings.h, during finish */
	bool memory_locked;
	int pmqos_fd;               /* /dev/cpu_dma_latency held open, or -errno / -1 */
	json_t *host;
	json_t *warnings;           /* array of strings */
	struct hg_thread_numbers *nums;  /* per worker, after join */
	struct hg_stream *stream;   /* results/stream.h: the writer, from the gate to the end */
	json_t *expectations;       /* array, filled by hg_expect_evaluate */
	bool expect_failed;
	char started_utc[32], finished_utc[32];
	bool complete;
	int signal;                 /* SIGINT/SIGTERM that ended the run, else 0 */
	bool cut_short;             /* a stop signal after the measuring (hg_run_take_signal, run/signals.h) */
	unsigned stop_refused;      /* SIGTSTP/SIGTTIN/SIGTTOU refused during the run */
	int exit_status;
	char dir[PATH_MAX];         /* the result directory, for messages */
	int dir_fd;                 /* it, open: every file is written relative to it */
	struct hg_dirlock lock;     /* its lock (base/dirlock.h), held for the run */
};

/* Adds a printf-formatted warning. */
void hg_run_warn(struct hg_run_state *rs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
