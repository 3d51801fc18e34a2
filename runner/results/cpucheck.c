/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gap trace records the CPU of every interval (run/gaptrace.h); the
 * streaming writer counts those outside the thread's cpus
 * (results/stream.c), and here they become warnings, with the CPUs that
 * went offline during the run: the kernel moves a pinned thread off a CPU
 * taken offline, silently. */
#include <stdio.h>

#include "base/cpuset.h"
#include "results/cpucheck.h"

bool hg_cpucheck_warn(struct hg_run_state *rs, const cpu_set_t *online_at_start,
		      const struct hg_thread_totals *tot)
{
	cpu_set_t now, gone;
	char buf[256];
	bool outside = false;
	hg_cpuset_online(&now);
	CPU_XOR(&gone, online_at_start, &now);
	CPU_AND(&gone, &gone, online_at_start);
	if (CPU_COUNT(&gone))
		hg_run_warn(rs, "CPU %s went offline during the run",
			    hg_cpuset_format(&gone, buf, sizeof(buf)));
	for (size_t i = 0; i < rs->n_workers; i++) {
		const struct hg_thread_totals *t = &tot[i];
		const struct hg_worker *w = &rs->workers[i];
		if (!t->outside_intervals)
			continue;
		outside = true;
		hg_run_warn(rs, "%s ran %.3f ms in %llu interval%s on CPU %d, outside its cpus %s "
			    "(a CPU taken offline, or affinity changed from outside)",
			    w->plan->os_name, (double)t->outside_ns / 1e6,
			    (unsigned long long)t->outside_intervals,
			    t->outside_intervals == 1 ? "" : "s", t->outside_cpu,
			    hg_cpuset_format(&w->plan->cpus, buf, sizeof(buf)));
	}
	return outside;
}
