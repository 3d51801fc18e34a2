/* What a run knows when it is over: shared by run.c, results.c, expect.c
 * and summary.c (internal to the runner). */
#ifndef HG_RUNSTATE_H
#define HG_RUNSTATE_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>

#include "counter.h"
#include "plan.h"
#include "run.h"
#include "watchdog.h"
#include "worker.h"

struct hg_thread_numbers;

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
	struct hg_loadrun *loads;   /* the load supervisor (loadrun.h) */
	bool memory_locked;
	int pmqos_fd;               /* /dev/cpu_dma_latency held open, or -errno / -1 */
	json_t *host;
	json_t *warnings;           /* array of strings */
	struct hg_thread_numbers *nums;  /* per worker, after join */
	json_t *expectations;       /* array, filled by hg_expect_evaluate */
	bool expect_failed;
	char started_utc[32], finished_utc[32];
	bool complete;
	int signal;                 /* SIGINT/SIGTERM that ended the run, else 0 */
	int exit_status;
	char dir[PATH_MAX];         /* the result directory */
};

/* Adds a printf-formatted warning. */
void hg_run_warn(struct hg_run_state *rs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* results.c: chooses and creates the result directory (rs->dir) before
 * the run.  Returns 0 or -errno with a message in err. */
int hg_results_dir(struct hg_run_state *rs, char *err, size_t errlen);
/* results.c: writes trace.jsonl, latency.jsonl and
 * result.json (atomically).  Returns 0 or -errno with a message in err. */
int hg_results_write(struct hg_run_state *rs, char *err, size_t errlen);

/* result_json.c: the result.json tree (new reference). */
json_t *hg_result_json(const struct hg_run_state *rs);

/* Per-thread numbers that expectations and the summary read. */
struct hg_thread_numbers {
	uint64_t cpu_ns, intervals, gaps, records, records_dropped;
	uint64_t releases, deadlines_hit, deadlines_missed, work_units, jobs;
	struct hg_summary latency;    /* count 0 when no samples */
	uint64_t latency_count;       /* all wake-ups, dropped samples included */
};
void hg_thread_numbers(const struct hg_run_state *rs, const struct hg_worker *w,
		       struct hg_thread_numbers *n);

/* expect.c: evaluates plan->expects into rs->expectations, sets
 * rs->expect_failed; hg_expect_report names each failed one. */
void hg_expect_evaluate(struct hg_run_state *rs);
void hg_expect_report(const struct hg_run_state *rs, FILE *err);
/* summary.c */
void hg_summary_print(const struct hg_run_state *rs, FILE *out);

#endif
