/* Executing a plan: calibrate, lock memory, start the measuring threads on
 * one barrier under the watchdog, wait for the duration or a signal, join,
 * and hand the state to a sink that writes the results (results/). */
#ifndef HG_RUN_H
#define HG_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"

struct hg_run_state;

/* Where a run's results go.  run/ knows nothing of files: results/ provides
 * the sink (hg_results_sink), cli/ passes it in hg_run_options. */
struct hg_run_sink {
	/* Before any thread or load starts: create the result directory
	 * (rs->dir).  Returns 0 or -errno with a message in err. */
	int (*open)(struct hg_run_state *rs, char *err, size_t errlen);
	/* At the start gate, once time zero is set, before the threads are
	 * released: start streaming their records.  0 or -errno with a
	 * message in err (the run is then aborted).  May be NULL. */
	int (*start)(struct hg_run_state *rs, char *err, size_t errlen);
	/* After the threads are joined and the loads stopped, before finish:
	 * drain what is left and stop streaming.  May be NULL. */
	void (*stop)(struct hg_run_state *rs);
	/* After the threads are joined and the loads stopped: evaluate, write,
	 * report; sets rs->exit_status from rc (0 or the failure's exit code). */
	void (*finish)(struct hg_run_state *rs, int rc, FILE *out, FILE *err);
	/* Last, on every path after open succeeded: removes what open made
	 * that no one needs (results/results.c's reserve).  May be NULL. */
	void (*close)(struct hg_run_state *rs);
};

struct hg_run_options {
	const struct hg_run_sink *sink;  /* required */
	const char *out_dir;      /* NULL: results/<name>/<UTC time>/ */
	bool strict;              /* missing privilege: exit 4 instead of a warning */
	bool quiet;               /* no start line, progress (results/progress.c) or summary */
	int argc;                 /* the command line, for result.json */
	char **argv;
	json_t *sweep_point;      /* borrowed; NULL = null */
	json_t *overrides;        /* borrowed: --set {"PATH": "VALUE"}; NULL = {} */
	FILE *out;                /* summary; NULL = stdout */
	FILE *err;                /* errors; NULL = stderr */
};

/* Returns the exit code of base/exitcodes.h: 0 ok, 1 run or expectation failed,
 * 2 a CPU of the plan is not online here, 4 privilege missing (strict),
 * 130/143 interrupted by SIGINT/SIGTERM (a result is still written). */
int hg_run(const struct hg_plan *plan, const struct hg_run_options *opt);

#endif
