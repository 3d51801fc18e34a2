/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's own threads off the measured CPUs (plan/placement.h). */
#include <pthread.h>

#include "base/cpuset.h"
#include "plan/placement.h"

int hg_placement_free_cpus(const struct hg_plan *plan, cpu_set_t *set)
{
	hg_cpuset_online(set);
	for (size_t i = 0; i < plan->n_threads; i++) {
		const struct hg_thread_plan *tp = &plan->threads[i];
		if (tp->pinned_cpu >= 0)
			CPU_CLR(tp->pinned_cpu, set);
		else if (tp->cpus_all)
			CPU_ZERO(set);
		else
			for (int c = 0; c < CPU_SETSIZE; c++)
				if (CPU_ISSET(c, &tp->cpus))
					CPU_CLR(c, set);
	}
	return CPU_COUNT(set);
}

bool hg_placement_off_measured(const struct hg_plan *plan, cpu_set_t *old)
{
	cpu_set_t free_cpus;
	if (hg_placement_free_cpus(plan, &free_cpus) == 0)
		return false;
	if (old && pthread_getaffinity_np(pthread_self(), sizeof(*old), old) != 0)
		return false;
	return pthread_setaffinity_np(pthread_self(), sizeof(free_cpus), &free_cpus) == 0;
}
