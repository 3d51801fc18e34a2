/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What hg_run() is given: the options of one run and the sink its results
 * go to.  Read by run/ while it runs and by results/ as it writes, so it
 * sits below both (run/run.h declares hg_run() itself). */
#ifndef HG_RUN_OPTIONS_H
#define HG_RUN_OPTIONS_H

#include <jansson.h>
#include <stdbool.h>

#include "base/dirlock.h"
#include <stddef.h>
#include <stdio.h>

struct hg_run_state;

/* Where a run's results go.  run/ knows nothing of files: results/ provides
 * the sink (hg_results_sink), cli/ passes it in hg_run_options. */
struct hg_run_sink {
	/* Before any thread or load starts: the result directory, rs->dir_fd
	 * (opt->dir_fd's, else one it makes; rs->dir names it), and what it
	 * keeps there.  Every file of the run is then written relative to
	 * rs->dir_fd, never by path.  Returns 0 or -errno with a message in err. */
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

/* What is observed beside the threads.  run/ knows nothing of the kernel
 * trace: ktrace/ provides the observer (hg_kernel_observer), cli/ and
 * sweep/ pass it in hg_run_options. */
struct hg_run_observer {
	/* Before the result directory and the threads.  Returns 0, or an exit
	 * code with a message on err (the run is then refused). */
	int (*start)(struct hg_run_state *rs, FILE *err);
	/* After the threads are joined, the loads stopped and the sink's stop,
	 * before its finish.  Called once. */
	void (*stop)(struct hg_run_state *rs);
	/* Last, on every path after start was called. */
	void (*free)(struct hg_run_state *rs);
};

struct hg_run_options {
	const struct hg_run_sink *sink;  /* required */
	const struct hg_run_observer *observer;  /* NULL: nothing beside the threads */
	const char *out_dir;      /* NULL: results/<name>/<UTC time>/; else how to name dir_fd */
	int dir_fd;               /* with out_dir: the result directory, opened, locked and
				     checked by the caller (results/outdir.h) */
	struct hg_dirlock *lock;  /* with out_dir: its lock, held; hg_run takes it over and
				     releases it when the run is over */
	bool strict;              /* missing privilege: exit 4 instead of a warning */
	bool quiet;               /* no start line, progress (results/progress.c) or summary */
	int argc;                 /* the command line, for result.json */
	char **argv;
	json_t *sweep_point;      /* borrowed; NULL = null */
	json_t *overrides;        /* borrowed: --set {"PATH": "VALUE"}; NULL = {} */
	FILE *out;                /* summary; NULL = stdout */
	FILE *err;                /* errors; NULL = stderr */
	const char *note;         /* warnings from the command line and the host, one a
				     line (what --duration cut, an optional load left
				     out), or NULL / "" */
	json_t **summary;         /* run --json: the summary as an object (new reference,
				     results/summary_json.c) when the run got that far */
};

#endif
