/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results side of a run (run/run.h's sink): the result directory
 * before the threads start; after they are joined, the per-thread numbers,
 * the expectations, the exit code, the files and the summary. */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>

#include "base/exitcodes.h"
#include "ktrace/kernel_findings.h"
#include "loads/supervisor.h"
#include "results/checkpoint.h"
#include "results/expect.h"
#include "results/not_received.h"
#include "results/numbers.h"
#include "results/results.h"
#include "results/sink.h"
#include "results/stream.h"
#include "results/summary.h"
#include "results/verdict.h"
#include "run/signals.h"

static void collect(struct hg_run_state *rs)
{
	rs->nums = calloc(rs->n_workers ? rs->n_workers : 1, sizeof(*rs->nums));
	for (size_t i = 0; rs->nums && i < rs->n_workers; i++)
		hg_thread_numbers(rs, &rs->workers[i], &rs->nums[i]);
}

/* What the kernel findings need of the stopped writer
 * (ktrace/kernel_state.h): the files to read back, flushed, and the CPU
 * time the threads did not receive. */
static struct hg_kernel_inputs kernel_inputs(struct hg_run_state *rs)
{
	struct hg_kernel_inputs in = { .trace_bin = hg_stream_flush_trace(rs->stream) == 0,
				       .latency_bin = hg_stream_flush_latency(rs->stream) == 0 };
	json_t *files = json_object();
	hg_stream_files_json(rs->stream, files);
	in.latency_kept = json_object_get(files, "latency") != NULL;
	json_decref(files);
	uint64_t received;
	in.not_received_known = hg_nr_total(hg_stream_not_received(rs->stream), &received,
					    &in.not_received_ns);
	return in;
}

static void finish(struct hg_run_state *rs, int rc, FILE *out, FILE *err)
{
	char msg[PATH_MAX + 128];
	collect(rs);
	hg_skipped_warn(rs);
	/* A stop signal since the measuring ended (they stay blocked until
	 * hgrun exits) ends the rest: the exit code and result.json agree. */
	hg_run_take_signal(rs, "while hgrun stopped its threads and loads");
	struct hg_kernel_inputs in = kernel_inputs(rs);
	hg_kernel_findings_build(rs, &in);
	hg_expect_evaluate(rs);
	hg_run_take_signal(rs, "before result.json was written");
	rs->exit_status = hg_results_verdict(rs, rc);
	/* --strict: the scenario asked for something the run did not get (its
	 * expectations then say nothing about the scenario as written). */
	if (rs->opt->strict &&
	    (rs->exit_status == HG_EXIT_OK || rs->exit_status == HG_EXIT_EXPECT) &&
	    (hg_loadrun_shortfall(rs->loads) || hg_stream_cpus_not_granted(rs->stream)))
		rs->exit_status = HG_EXIT_PRIVILEGE;
	if (hg_results_write(rs, msg, sizeof(msg)) < 0) {
		fprintf(err, "error: %s\n", msg);
		if (rs->exit_status == HG_EXIT_OK || rs->exit_status == HG_EXIT_EXPECT)
			rs->exit_status = HG_EXIT_FAILED;
	}
	if (!rs->opt->quiet)
		hg_summary_print(rs, out);
	fflush(out);
	if (rs->opt->summary)
		*rs->opt->summary = hg_summary_json(rs);
	if (rs->expect_failed) {
		json_t *verdict = hg_verdict_json(rs);
		hg_verdict_print_failed(verdict, err);
		json_decref(verdict);
	}
	hg_kernel_findings_free(rs);
	hg_stream_free(rs->stream);
	rs->stream = NULL;
}

/* The streaming writer runs from the gate until the threads are joined. */
static int start(struct hg_run_state *rs, char *err, size_t errlen)
{
	return hg_stream_start(rs, hg_checkpoint_write, err, errlen);
}

const struct hg_run_sink hg_results_sink = {
	.open = hg_results_dir,
	.start = start,
	.stop = hg_stream_stop,
	.finish = finish,
	.close = hg_results_release_reserve,
};
