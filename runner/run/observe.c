/* Starting and stopping what run/observe.h observes, for run/run.c. */
#include "base/cpuset.h"
#include "base/exitcodes.h"
#include "plan/workload.h"
#include "run/competition.h"
#include "run/ktrace.h"
#include "run/observe.h"
#include "run/runstate.h"

void hg_observe_cpus(const struct hg_run_state *rs, cpu_set_t *cpus)
{
	CPU_ZERO(cpus);
	for (size_t i = 0; i < rs->plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &rs->plan->threads[i];
		if (tp->pinned_cpu >= 0) {
			CPU_SET(tp->pinned_cpu, cpus);
		} else if (tp->cpus_all) {
			hg_cpuset_online(cpus);
			return;
		} else {
			CPU_OR(cpus, cpus, &tp->cpus);
		}
	}
	if (CPU_COUNT(cpus) == 0)
		hg_cpuset_online(cpus);
}

int hg_observe_start(struct hg_run_state *rs, FILE *err)
{
	cpu_set_t cpus;
	hg_observe_cpus(rs, &cpus);
	if (rs->plan->kernel_trace) {
		bool latency = false;
		for (size_t i = 0; i < rs->plan->n_threads; i++)
			latency |= rs->plan->threads[i].workload.ops == &hg_workload_latency;
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
	rs->competition = hg_competition_begin(&cpus);
	return 0;
}

void hg_observe_stop(struct hg_run_state *rs)
{
	hg_ktrace_stop(rs->ktrace);
	hg_competition_end(rs->competition);
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

void hg_observe_free(struct hg_run_state *rs)
{
	hg_ktrace_free(rs->ktrace);
	rs->ktrace = NULL;
	hg_competition_free(rs->competition);
	rs->competition = NULL;
}
