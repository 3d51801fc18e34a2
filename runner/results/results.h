/* The results of a run: the result directory, result.json, the trace
 * files, expectations and the summary.  run/ measures and hands its state
 * to the sink below; cli/ wires the two together. */
#ifndef HG_RESULTS_H
#define HG_RESULTS_H

#include <stdio.h>

#include "run/runstate.h"

/* The sink hg_run() hands a run to (run/run.h). */
extern const struct hg_run_sink hg_results_sink;

/* results.c: chooses and creates the result directory (rs->dir) before
 * the run.  Returns 0 or -errno with a message in err. */
int hg_results_dir(struct hg_run_state *rs, char *err, size_t errlen);
/* results.c: writes trace.jsonl, latency.jsonl and
 * result.json (atomically).  Returns 0 or -errno with a message in err. */
int hg_results_write(struct hg_run_state *rs, char *err, size_t errlen);

/* results.c: removes the space hg_results_dir kept for result.json (every
 * exit path of a run, through the sink's close). */
void hg_results_release_reserve(struct hg_run_state *rs);

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

/* The exit code of a finished run: the signal that ended it (130/143),
 * the failure rc, an incomplete run or a failed expectation (1), else 0. */
int hg_results_verdict(const struct hg_run_state *rs, int rc);

#endif
