/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's demands on the machine and its warnings about it (run/run_env.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/exitcodes.h"
#include "base/fsutil.h"
#include "plan/keys.h"
#include "plan/timer.h"
#include "plan/workload.h"
#include "run/doctor.h"
#include "run/pmqos.h"
#include "run/run_env.h"

bool hg_run_plan_has_rt(const struct hg_plan *plan)
{
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		if (tp->reservation.enabled || tp->priority.policy == HG_POLICY_FIFO ||
		    tp->priority.policy == HG_POLICY_RR)
			return true;
	}
	return false;
}

void hg_run_warn_environment(struct hg_run_state *rs)
{
	char line[64];
	if (!rs->cal.invariant)
		hg_run_warn(rs, "the TSC is not invariant (constant_tsc and nonstop_tsc): "
			    "intervals may be wrong when the CPU changes frequency or sleeps "
			    "(hgrun doctor: tsc)");
	if (hg_read_first_line("/proc/sys/kernel/sched_rt_runtime_us", line, sizeof(line)) <= 0)
		return;
	long us = strtol(line, NULL, 10);
	const struct hg_thread_plan *tp = us >= 0 && us < 1000000
		? hg_doctor_throttled(rs->plan, (double)us / 1e6) : NULL;
	if (tp)
		hg_run_warn(rs, "RT throttling: sched_rt_runtime_us=%ld takes %ld ms of every second "
			    "from real-time threads, and %s can use more (expect a gap of up to %ld ms "
			    "each second in its trace; -1 in that file turns throttling off; hgrun "
			    "doctor: rt_throttling)",
			    us, (1000000 - us) / 1000, tp->os_name, (1000000 - us) / 1000);
}

/* cpu_dma_latency: held from the start gate to the end of the run. */
int hg_run_hold_pmqos(struct hg_run_state *rs, FILE *err)
{
	if (!rs->plan->cpu_dma_latency_set)
		return 0;
	uint32_t us = (uint32_t)(rs->plan->cpu_dma_latency_ns / 1000);
	rs->pmqos_fd = hg_pmqos_hold(us);
	if (rs->pmqos_fd >= 0)
		return 0;
	const char *why = strerror(-rs->pmqos_fd);
	if (rs->opt->strict) {
		fprintf(err, "error: cpu_dma_latency: cannot hold /dev/cpu_dma_latency at %u us: %s "
			"(needs root)\n", us, why);
		return HG_EXIT_PRIVILEGE;
	}
	hg_run_warn(rs, "cpu_dma_latency not held: /dev/cpu_dma_latency: %s (needs root); CPUs "
		    "may enter deep idle states and wake up slower (hgrun doctor: cpuidle)", why);
	return 0;
}

/* mlockall(MCL_CURRENT) once every thread has allocated and pre-touched
 * its buffers, at the start gate: nothing allocates while threads measure,
 * and MCL_FUTURE would make those allocations fail under RLIMIT_MEMLOCK.
 * With --strict a refusal ends the run (exit 4). */
int hg_run_lock_memory(struct hg_run_state *rs, FILE *err)
{
	if (!rs->plan->lock_memory)
		return 0;
	if (mlockall(MCL_CURRENT) == 0) {
		rs->memory_locked = true;
		return 0;
	}
	int e = errno;
	if (rs->opt->strict) {
		fprintf(err, "error: lock_memory: mlockall failed: %s (needs root, CAP_IPC_LOCK "
			"or a larger RLIMIT_MEMLOCK)\n", strerror(e));
		return HG_EXIT_PRIVILEGE;
	}
	hg_run_warn(rs, "memory not locked: mlockall failed: %s (needs root, CAP_IPC_LOCK or a "
		    "larger RLIMIT_MEMLOCK); buffers are pre-touched instead (hgrun doctor: mlock)",
		    strerror(e));
	return 0;
}

bool hg_run_any_rt_granted(const struct hg_run_state *rs)
{
	for (size_t i = 0; i < rs->n_workers; i++) {
		enum hg_policy p = rs->workers[i].sched.granted.policy;
		if (p == HG_POLICY_FIFO || p == HG_POLICY_RR || p == HG_POLICY_DEADLINE)
			return true;
	}
	return false;
}

