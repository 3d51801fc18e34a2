/* Did each thread run where the scenario put it?  The gap trace records the
 * CPU of every interval (run/gaptrace.h); the streaming writer counts those
 * outside the thread's cpus (results/stream.c), and here they become
 * warnings, with the CPUs that went offline during the run: the kernel
 * moves a pinned thread off a CPU taken offline, silently. */
#include <stdio.h>

#include "base/cpuset.h"
#include "results/stream.h"

void hg_stream_check_cpus(struct hg_stream *s)
{
	struct hg_run_state *rs = s->rs;
	cpu_set_t now, gone;
	char buf[256];
	hg_cpuset_online(&now);
	CPU_XOR(&gone, &s->online_at_start, &now);
	CPU_AND(&gone, &gone, &s->online_at_start);
	if (CPU_COUNT(&gone))
		hg_run_warn(rs, "CPU %s went offline during the run",
			    hg_cpuset_format(&gone, buf, sizeof(buf)));
	for (size_t i = 0; i < s->n; i++) {
		const struct hg_stream_thread *t = &s->th[i];
		if (!t->outside_intervals)
			continue;
		s->cpus_not_granted = true;
		hg_run_warn(rs, "%s ran %.3f ms in %llu interval%s on CPU %d, outside its cpus %s "
			    "(a CPU taken offline, or affinity changed from outside)",
			    t->w->plan->os_name, (double)t->outside_ns / 1e6,
			    (unsigned long long)t->outside_intervals,
			    t->outside_intervals == 1 ? "" : "s", t->outside_cpu,
			    hg_cpuset_format(&t->w->plan->cpus, buf, sizeof(buf)));
	}
}
