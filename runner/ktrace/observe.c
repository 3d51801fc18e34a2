/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Starting and stopping what ktrace/observe.h observes, called by
 * run/run.c through hg_kernel_observer. */
#include "base/cpuset.h"
#include "base/exitcodes.h"
#include "ktrace/competition.h"
#include "ktrace/forks.h"
#include "ktrace/ktrace.h"
#include "ktrace/observe.h"
#include "plan/workload.h"
#include "run/runstate.h"

static int start(struct hg_run_state *rs, FILE *err)
{
	cpu_set_t cpus;
	hg_plan_cpus(rs->plan, &cpus);
	if (rs->plan->kernel_trace) {
		bool latency = false;
		for (size_t i = 0; i < rs->plan->n_threads; i++)
			latency |= rs->plan->threads[i].workload.ops->wakeups;
		rs->ktrace = hg_ktrace_start(&cpus, latency);
		if (!hg_ktrace_active(rs->ktrace)) {
			if (rs->opt->strict) {
				fprintf(err, "error: trace.kernel: %s; run without --strict to run "
					"without the kernel trace\n", hg_ktrace_why(rs->ktrace));
				return HG_EXIT_PRIVILEGE;
			}
			hg_run_warn(rs, "kernel trace off: %s; gaps are not attributed to causes",
				    hg_ktrace_why(rs->ktrace));
		}
	}
	rs->competition = hg_competition_begin(&cpus, rs->plan->n_loads > 0);
	return 0;
}

static void stop(struct hg_run_state *rs)
{
	hg_ktrace_stop(rs->ktrace);
	hg_competition_end(rs->competition);
	const struct hg_forks *forks = hg_competition_forks(rs->competition);
	if (forks && !hg_forks_active(forks) && hg_ktrace_active(rs->ktrace))
		hg_run_warn(rs, "the processes the loads started cannot be told from other "
			    "processes (%s): the kernel trace's competition may count them "
			    "(docs/kernel-trace.md)", hg_forks_why(forks));
	else if (hg_forks_lost(forks))
		hg_run_warn(rs, "the kernel did not deliver %llu fork events of the proc connector: "
			    "a process a load started may count as competition "
			    "(docs/kernel-trace.md)", (unsigned long long)hg_forks_lost(forks));
	uint64_t not_kept, lost;
	hg_ktrace_losses(rs->ktrace, &not_kept, &lost);
	if (not_kept)
		hg_run_warn(rs, "kernel trace incomplete: %llu events beyond the %d kept in memory "
			    "were not kept; gaps after the last kept event are unattributed "
			    "(docs/kernel-trace.md)", (unsigned long long)not_kept, HG_KTRACE_MAX_EVENTS);
	if (lost)
		hg_run_warn(rs, "kernel trace incomplete: the kernel's buffer lost events (%llu "
			    "counted); gaps around them may be attributed wrongly "
			    "(docs/kernel-trace.md)", (unsigned long long)lost);
}

static void free_observed(struct hg_run_state *rs)
{
	hg_ktrace_free(rs->ktrace);
	rs->ktrace = NULL;
	hg_competition_free(rs->competition);
	rs->competition = NULL;
}

const struct hg_run_observer hg_kernel_observer = {
	.start = start,
	.stop = stop,
	.free = free_observed,
};
